"""Markup deeper than libxml2 keeps, made shallow enough that no text is lost.

libxml2 silently drops text nested deeper than its limit (2,048 levels even with
``huge_tree``). :func:`newsml.input.parse.parse_markup` then flattens the markup past a
safe depth (:func:`flatten_deep_markup`) and parses it again; if text is still lost,
deeper, and as a last resort it parses the markup's text alone (:func:`text_only_markup`).
"""

from __future__ import annotations

import html
import re

from ..core.tags import BLOCK_TAGS, VOID_TAGS

#: Nesting depths past which markup is flattened when libxml2 reports lost text, in turn.
SAFE_DEPTHS = (1000, 256)


_TAG_TOKEN_RE = re.compile(r"""<(/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""")


_BLOCK_BREAK_RE = re.compile(r"(?i)<\s*(?:br|/?p|/?div|/?li|/?tr|/?h[1-6]|/?td|/?table|/?blockquote)\b[^>]*>")


_ANY_TAG_RE = re.compile(r"""<(?:[^>"']|"[^"]*"|'[^']*')*>|<!--.*?-->""", re.S)


def flatten_deep_markup(text: str, max_depth: int = SAFE_DEPTHS[0]) -> str:
    """Drop opening tags (and their closing tags) nested deeper than ``max_depth``.

    A tag-level pass that keeps every character of text and the structure above
    ``max_depth``, which is all a content extractor needs from pathological markup
    such as thousands of unclosed ``<font>`` tags. Depth follows a stack of open tags:
    an end tag closes its element and those opened inside it; a stray end tag (no such
    element open) changes nothing, as in libxml2. Dropped inline tags leave nothing
    behind (a word split by them stays one word); other dropped tags leave a space.
    """
    stack: list[str] = []
    open_count: dict[str, int] = {}
    dropped: dict[str, int] = {}
    out: list[str] = []
    last = 0
    for match in _TAG_TOKEN_RE.finditer(text):
        closing, name, rest = match.group(1), match.group(2).lower(), match.group(3)
        keep = True
        if closing:
            if dropped.get(name):
                dropped[name] -= 1
                keep = False
            elif open_count.get(name):
                while stack:
                    top = stack.pop()
                    open_count[top] -= 1
                    if top == name:
                        break
        elif name not in VOID_TAGS and not rest.rstrip().endswith("/"):
            if len(stack) >= max_depth:
                dropped[name] = dropped.get(name, 0) + 1
                keep = False
            else:
                stack.append(name)
                open_count[name] = open_count.get(name, 0) + 1
        out.append(text[last:match.start()])
        if keep:
            out.append(match.group(0))
        elif name in BLOCK_TAGS:
            out.append(" ")
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def text_only_markup(text: str) -> str:
    """The last resort for markup no parse keeps whole: its text, a line per block."""
    lines = _ANY_TAG_RE.sub("", _BLOCK_BREAK_RE.sub("\n", text)).split("\n")
    body = "".join(f"<p>{html.escape(html.unescape(line))}</p>" for line in lines if line.strip())
    return f"<html><body>{body}</body></html>"
