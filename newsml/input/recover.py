"""Markup deeper than libxml2 keeps, made shallow enough that no text is lost.

libxml2 silently drops text nested deeper than its limit (2,048 levels even with
``huge_tree``). :func:`newsml.input.parse.parse_markup` then flattens the markup past a
safe depth (:func:`flatten_deep_markup`) and parses it again; if text is still lost,
deeper, and as a last resort it parses the markup's text alone (:func:`text_only_markup`).
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left
from collections.abc import Iterator

from ..core.tags import BLOCK_TAGS, VOID_TAGS

#: Nesting depths past which markup is flattened when libxml2 reports lost text, in turn.
SAFE_DEPTHS = (1000, 256)


#: The start of a tag: ``<`` or ``</`` and a name; the tag runs to the first ``>`` outside
#: quotes (:class:`_TagEnds`). One regex for the whole tag would read, from each ``<`` with
#: no such ``>`` after it, the rest of the text: quadratic time on ``<a x<a x<a x...``.
_TAG_START_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:-]*)")
#: What ends a tag or starts a quoted value in it.
_TAG_SPECIAL_RE = re.compile(r"""[>"']""")


_BLOCK_BREAK_RE = re.compile(r"(?i)<\s*(?:br|/?p|/?div|/?li|/?tr|/?h[1-6]|/?td|/?table|/?blockquote)\b[^>]*>")


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
    for match in _tags(text):
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


class _Tag:
    """A tag found by :func:`_tags`: ``group(1)`` the ``/`` of an end tag, ``group(2)`` its
    name, ``group(3)`` what follows the name up to the closing ``>``; ``group(0)`` the tag."""

    __slots__ = ("_text", "_start", "_end", "_groups")

    def __init__(self, text: str, start: int, end: int, closing: str, name: str, rest: str) -> None:
        self._text, self._start, self._end = text, start, end
        self._groups = (closing, name, rest)

    def group(self, index: int) -> str:
        return self._text[self._start:self._end] if index == 0 else self._groups[index - 1]

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


def _tags(text: str) -> Iterator[_Tag]:
    """The tags of ``text`` in order, in linear time: those the regex
    ``<(/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>`` finds with ``finditer``."""
    ends = _TagEnds(text)
    position = 0
    while (match := _TAG_START_RE.search(text, position)) is not None:
        end = ends.after(match.end())
        if end < 0:                      # no tag here: on from the next character
            position = match.start() + 1
            continue
        yield _Tag(text, match.start(), end + 1, match.group(1), match.group(2), text[match.end():end])
        position = end + 1


class _TagEnds:
    """Where a tag that goes on at a given position ends, in constant time after a linear pass.

    From a ``<`` and a name, a tag reads characters up to a ``>``, jumping over a quoted
    value to its closing quote; there is no tag when it meets a quote never closed, or the
    end of the text. Where that walk ends depends only on the first ``>`` or quote it
    meets, so it is worked out once for each of those, from the end of the text backwards.
    """

    def __init__(self, text: str) -> None:
        self.specials = [match.start() for match in _TAG_SPECIAL_RE.finditer(text)]
        self.ends = [-1] * len(self.specials)     # the walk's ``>`` from each special; -1: none
        next_quote = {'"': -1, "'": -1}           # the index of the next such quote
        for index in range(len(self.specials) - 1, -1, -1):
            char = text[self.specials[index]]
            if char == ">":
                self.ends[index] = self.specials[index]
            else:                       # past the closing quote: on from the special after it
                closing = next_quote[char]
                if 0 <= closing < len(self.specials) - 1:
                    self.ends[index] = self.ends[closing + 1]
                next_quote[char] = index

    def after(self, position: int) -> int:
        """The position of the ``>`` ending a tag that goes on at ``position``; -1: none."""
        index = bisect_left(self.specials, position)
        return self.ends[index] if index < len(self.specials) else -1


def _without_tags(text: str) -> str:
    """``text`` without its tags and comments, in linear time: what ``re.sub`` of
    ``<(?:[^>"']|"[^"]*"|'[^']*')*>|<!--.*?-->`` (dot matching newlines) by "" leaves."""
    ends = _TagEnds(text)
    out: list[str] = []
    last = 0
    comments_end = True                 # False once no "-->" is left after a "<!--"
    position = text.find("<")
    while position >= 0:
        end = ends.after(position + 1) + 1
        if not end and comments_end and text.startswith("<!--", position):
            close = text.find("-->", position + 4)
            comments_end = close >= 0
            end = close + 3 if comments_end else 0
        if end:
            out.append(text[last:position])
            last = end
            position = text.find("<", end)
        else:
            position = text.find("<", position + 1)
    out.append(text[last:])
    return "".join(out)


def _block_breaks(text: str) -> str:
    """``_BLOCK_BREAK_RE.sub("\\n", text)``, in linear time: its tags end at the first ``>``,
    so none starts past the last one (looking for one there took the rest of the text, for
    each ``<`` of it)."""
    last = text.rfind(">") + 1
    return _BLOCK_BREAK_RE.sub("\n", text[:last]) + text[last:]


def text_only_markup(text: str) -> str:
    """The last resort for markup no parse keeps whole: its text, a line per block."""
    lines = _without_tags(_block_breaks(text)).split("\n")
    body = "".join(f"<p>{html.escape(html.unescape(line))}</p>" for line in lines if line.strip())
    return f"<html><body>{body}</body></html>"
