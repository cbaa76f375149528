"""Turn page bytes or text into a cleaned lxml tree: the passive output of parsing.

:func:`parse` returns a :class:`ParsedPage` (tree, encoding, meta, the decoded text);
everything derived from it (text nodes, title, language) belongs to
:class:`newsml.page.Page`.

- Decoding is decided here (see :mod:`newsml.encoding`) and lxml is always handed UTF-8
  bytes with the encoding named, so it never re-reads a page's (possibly wrong) meta
  charset.
- Malformed markup never raises; input that is not a page raises
  :class:`~newsml.errors.InvalidPageError`.
- libxml2 silently drops text nested deeper than its limit (2,048 levels even with
  ``huge_tree``). When it reports that, the markup is flattened past a safe depth and
  parsed again; if text is still lost, flattened deeper, and as a last resort reduced
  to plain text with line breaks, so no text is lost.
"""

from __future__ import annotations

import gzip
import html
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from .encoding import BOMS, decode_html
from .errors import InvalidPageError
from .tags import BLOCK_TAGS, INVISIBLE_TAGS, VOID_TAGS, Element
from .text import normalize_space

log = logging.getLogger(__name__)

_HIDDEN_XPATH = etree.XPath(
    "//*[@hidden or @aria-hidden='true' or "
    "contains(translate(@style, 'DISPLAYNOE ', 'displaynoe'), 'display:none')]"
)
_MARKUP_RE = re.compile(r"<\s*(?:[a-zA-Z][a-zA-Z0-9:-]*|!doctype)[\s/>]", re.IGNORECASE)
_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_BINARY_MAGIC = {
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"GIF8": "a GIF image",
    b"\xff\xd8\xff": "a JPEG image",
    b"PK\x03\x04": "a ZIP archive (or an Office document)",
    b"\x7fELF": "an executable",
    b"RIFF": "a RIFF media file",
}
_GZIP_MAGIC = b"\x1f\x8b"
#: C0 controls other than tab, line feed, form feed and carriage return, and DEL.
_CONTROL_BYTES = bytes([*range(0, 9), 11, *range(14, 32), 127])

#: Nesting depths past which markup is flattened when libxml2 reports lost text, in turn.
SAFE_DEPTHS = (1000, 256)
_TAG_TOKEN_RE = re.compile(r"""<(/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""")
_BLOCK_BREAK_RE = re.compile(r"(?i)<\s*(?:br|/?p|/?div|/?li|/?tr|/?h[1-6]|/?td|/?table|/?blockquote)\b[^>]*>")
_ANY_TAG_RE = re.compile(r"""<(?:[^>"']|"[^"]*"|'[^']*')*>|<!--.*?-->""", re.S)


@dataclass(eq=False)
class ParsedPage:
    """A parsed, cleaned page: the lxml root and what was learned while parsing.

    ``text`` is the decoded page as it was handed to the parser (source-line methods
    such as CETR read it); ``flattened`` says the markup was too deep and was flattened.
    """

    root: Element
    encoding: str
    title_text: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    flattened: bool = False
    text: str = field(default="", repr=False)


def read_page(page: bytes | str | Path) -> bytes | str:
    """Bytes or text of ``page``: a path (``Path`` or a short string naming a file) is read."""
    if isinstance(page, Path):
        if not page.is_file():
            raise InvalidPageError(f"no such file: {page}" if not page.exists() else f"not a file: {page}")
        return page.read_bytes()
    if isinstance(page, str) and "<" not in page and len(page) < 4096 and "\n" not in page:
        path = Path(page)
        if path.is_file():
            return path.read_bytes()
        raise InvalidPageError(
            f"not HTML: the text {page[:80]!r} has no markup, and no file of that name exists"
        )
    if isinstance(page, (bytes, bytearray, memoryview)):
        return bytes(page)
    if isinstance(page, str):
        return page
    raise TypeError(f"page must be bytes, str or a path, not {type(page).__name__}")


def parse(page: bytes | str | Path) -> ParsedPage:
    """Parse a page (bytes, text or path) into a cleaned :class:`ParsedPage`.

    Raises :class:`InvalidPageError` when the input is empty, binary or has no markup.
    """
    data = read_page(page)
    if isinstance(data, bytes):
        data = _maybe_gunzip(data)
        _reject_binary(data)
        text, encoding = decode_html(data)
    else:
        text, encoding = data, "unicode"
    if "\x00" in text:  # browsers ignore NULs; libxml2 would cut the text there
        text = text.replace("\x00", "")
    if not text.strip():
        raise InvalidPageError("empty page: the input holds no text")
    if _MARKUP_RE.search(text) is None:
        raise InvalidPageError(f"not HTML: no tags found in the text starting {text.strip()[:60]!r}")
    text = _XML_DECL_RE.sub("", text, count=1)
    root, lost = _parse_utf8(_utf8(text))
    flattened = False
    for depth in SAFE_DEPTHS if lost else ():
        log.debug("markup nested past the parser's limit: flattening below depth %d", depth)
        root, lost = _parse_utf8(_utf8(flatten_deep_markup(text, depth)))
        flattened = True
        if not lost:
            break
    if lost:
        log.debug("flattened markup still loses text: parsing its text only, a line per block")
        root, _ = _parse_utf8(_utf8(text_only_markup(text)))
    meta = _read_meta(root)
    title_text = _first_text(root, "//head/title") or _first_text(root, "//title")
    clean(root)
    return ParsedPage(root=root, encoding=encoding, title_text=title_text, meta=meta,
                      flattened=flattened, text=text)


def clean(root: Element) -> None:
    """Remove invisible content in place: scripts, styles, templates and hidden elements.

    Comments and processing instructions are already gone: the parser drops them.
    """
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    for element in _HIDDEN_XPATH(root):
        if element.getparent() is not None:
            drop_keeping_tail(element)


def drop_keeping_tail(element: Element) -> None:
    """Remove ``element`` and its subtree, keeping the text that follows it (its tail)."""
    parent = element.getparent()
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


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


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogatepass")


def _parse_utf8(data: bytes) -> tuple[Element, bool]:
    """Parse UTF-8 bytes; also say whether libxml2 dropped content at its depth limit."""
    parser = etree.HTMLParser(encoding="utf-8", huge_tree=True, remove_comments=True,
                              remove_pis=True, default_doctype=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise InvalidPageError(f"not HTML: the parser found no document ({exc})") from None
    if root is None:
        raise InvalidPageError("not HTML: the parser found no document")
    lost = any(err.type_name == "ERR_RESOURCE_LIMIT" for err in parser.error_log)
    return root, lost


def _maybe_gunzip(data: bytes) -> bytes:
    """Decompress gzip-compressed page bytes (as stored in many crawls); others pass through."""
    if not data.startswith(_GZIP_MAGIC):
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError) as exc:
        raise InvalidPageError(f"binary data: a damaged gzip stream ({exc})") from None


def _reject_binary(data: bytes) -> None:
    """Raise InvalidPageError for bytes that are plainly not text (images, PDFs, archives)."""
    for magic, what in _BINARY_MAGIC.items():
        if data.startswith(magic):
            raise InvalidPageError(f"binary data: the input is {what}, not an HTML page")
    head = data[:4096]
    if head.startswith(BOMS):  # UTF-16/32 text is full of NUL bytes
        return
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if controls > max(len(head) // 20, 8):
        raise InvalidPageError("binary data: control bytes where an HTML page has text")


def _read_meta(root: Element) -> dict[str, str]:
    """``<meta>`` name/property -> content, lower-cased keys (first occurrence wins)."""
    meta: dict[str, str] = {}
    for element in root.iter("meta"):
        key = (element.get("property") or element.get("name") or "").strip().lower()
        content = element.get("content")
        if key and content and key not in meta:
            meta[key] = content.strip()
    return meta


def _first_text(root: Element, xpath: str) -> str:
    """Whitespace-normalized text of the first element matching ``xpath``, or ''."""
    for element in root.xpath(xpath):
        text = normalize_space("".join(element.itertext()))
        if text:
            return text
    return ""
