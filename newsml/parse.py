"""Turn page bytes or text into a cleaned lxml tree: the passive output of parsing.

:func:`parse` returns a :class:`ParsedPage` (tree, encoding, meta, the decoded text);
everything derived from it (text nodes, title, language) belongs to
:class:`newsml.page.Page`.

- Decoding is decided here (see :mod:`newsml.encoding`) and lxml is always handed UTF-8
  bytes with the encoding named, so it never re-reads a page's (possibly wrong) meta
  charset. A UTF-8 page that needs no change (most) is handed over as its own bytes,
  checked as bytes, without being decoded to text and encoded back.
- Malformed markup never raises; input that is not a page raises
  :class:`~newsml.errors.InvalidPageError`, and so does a page past the size limits
  (:data:`MAX_PAGE_BYTES`, also the cap on a gzip stream's decompressed size, and
  :data:`MAX_TAGS`), before any parsing.
- Characters no XML tree can hold (C0 controls other than tab, line feed and carriage
  return, lone surrogates, U+FFFE and U+FFFF) are removed once, right after decoding;
  the whitespace controls among them (vertical tab, form feed, separators) become spaces.
  C1 controls (U+0080-U+009F), and references to them, are text that was read as Latin-1
  on its way: a UTF-8 character so read is decoded back (``â\x80\x99``: ``’``), and any
  other C1 control becomes its Windows-1252 character (``\x92``: ``’``).
- An element with more than :data:`MAX_ATTRIBUTES` attributes keeps only its first
  ones: libxml2 takes super-quadratic time over many distinct attributes.
- MathML is text, and so is an ``<object>``'s content, which browsers show now that its
  plugins are gone; ``<audio>`` and ``<video>`` content is not (see
  :data:`newsml.tags.INVISIBLE_TAGS`). Content that browsers show only without scripts
  (``<noscript>``), never (``<template>``) or in a frame of their own (``<iframe srcdoc>``)
  is read when it holds :data:`FALLBACK_RATIO` times the prose (text outside links) of
  the rest of the page: the article of a script-rendered page, not the menus, "enable
  JavaScript" notes and tracking pixels of an ordinary one.
- libxml2 silently drops text nested deeper than its limit (2,048 levels even with
  ``huge_tree``). When it reports that, the markup is flattened past a safe depth and
  parsed again; if text is still lost, flattened deeper, and as a last resort reduced
  to plain text with line breaks, so no text is lost.
"""

from __future__ import annotations

import html
import logging
import os
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
from lxml import etree

from .compiled import compiled_module
from .encoding import BOMS, decode_html, utf16_without_bom
from .errors import InvalidPageError
from .tags import BLOCK_TAGS, INVISIBLE_TAGS, VOID_TAGS, Element, is_link
from .text import normalize_space, visible_chars

log = logging.getLogger(__name__)

#: Hidden elements, in document order. Stepping from the elements' attributes back to the
#: elements reads only the attributes, where a test of every element (``//*[@hidden or ...]``)
#: took eight times longer; ``/descendant::*`` visits elements only, ``//`` every node.
_HIDDEN_XPATH = etree.XPath(
    "/descendant::*/@hidden/.. | /descendant::*/@aria-hidden[. = 'true']/.. | "
    "/descendant::*/@style[contains(translate(., 'DISPLAYNOE ', 'displaynoe'), 'display:none')]/.."
)
#: The hidden elements found in C (:mod:`newsml._cleaning`), or None (see
#: :func:`hidden_elements`).
COMPILED = compiled_module("_cleaning")
#: The look at a page's bytes made in C (:mod:`newsml._page_bytes`), or None (see
#: :func:`_ready_utf8`).
BYTES_COMPILED = compiled_module("_page_bytes")
_STRING_VALUE = etree.XPath("string()", smart_strings=False)
_MARKUP_RE = re.compile(r"<\s*(?:[a-zA-Z][a-zA-Z0-9:-]*|!doctype)[\s/>]", re.IGNORECASE)
_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
#: The same three over UTF-8 bytes (see _ready_utf8).
_MARKUP_BYTES_RE = re.compile(_MARKUP_RE.pattern.encode(), re.IGNORECASE)
_XML_DECL_BYTES_RE = re.compile(_XML_DECL_RE.pattern.encode(), re.IGNORECASE)
_NON_ASCII_START_RE = re.compile(rb"\s*[\x80-\xff]")
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
#: Page bytes mapped to what the looks at them need: ``<`` and ``>`` stay, every other
#: byte becomes ``a``; in _BYTE_SHAPES the bytes UTF-8 decodes into characters no XML tree
#: can hold (C0 controls but tab, line feed and carriage return, and DEL) become NUL.
_TAG_DELIMITERS = bytes(byte if byte in b"<>" else ord("a") for byte in range(256))
_BYTE_SHAPES = bytes(0 if byte in (*range(0, 9), 11, 12, *range(14, 32), 127) else _TAG_DELIMITERS[byte]
                     for byte in range(256))
#: A web address (its "//" becomes "/" once it is a Path): newsml reads files, not the web.
#: (Two characters at least before the colon: ``C:/`` is a Windows drive.)
_URL_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]+:/")
_LOST_SLASH_RE = re.compile(r"^([^:]+):/(?!/)")
#: Characters an lxml tree cannot hold: whitespace-like controls become a space, the rest go.
_SPACE_CONTROLS_RE = re.compile("[\x0b\x0c\x1c-\x1f]")
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
#: C1 controls, which no page means: Windows-1252 text read as Latin-1 somewhere on its way
#: (``Germany\x92s``), or references to it (``&#146;``, which browsers read as Windows-1252
#: too). Each becomes its Windows-1252 character; the five that code page lacks go.
_C1_RE = re.compile("[\x80-\x9f]")
_C1_UTF8_RE = re.compile(b"\xc2[\x80-\x9f]")
_C1_AS_WINDOWS_1252 = {code: bytes([code]).decode("cp1252", errors="ignore") or None
                       for code in range(0x80, 0xA0)}


def _as_windows_1252(control: re.Match[str]) -> str:
    """The Windows-1252 character of a C1 control (nothing for the five it lacks)."""
    return _C1_AS_WINDOWS_1252[ord(control.group())] or ""


#: A UTF-8 character read as Latin-1 (``â\x80\x99`` for ``’``): where it holds a C1 control,
#: it is decoded back, before the other C1 controls are read as Windows-1252.
_UTF8_AS_LATIN1_RE = re.compile("[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
#: Numeric character references, which libxml2 decodes into text (``&#11;`` is a vertical tab).
#: The start of a character reference, cut short ('&', '&#', '&#x1') at the end of a string.
_PARTIAL_REF_RE = re.compile(r"&(?:#[xX]?[0-9a-fA-F]*)?$")
_CHUNK_BYTES = 1 << 20
_CHAR_REF_RE = re.compile(r"&#(?:[xX]([0-9a-fA-F]+)|([0-9]+));?")
_CHAR_REF_BYTES_RE = re.compile(_CHAR_REF_RE.pattern.encode())

#: Pages (and gzip streams once decompressed) larger than this raise InvalidPageError.
MAX_PAGE_BYTES = 64 * 1024 * 1024
#: Pages with more ``<`` than this raise InvalidPageError before parsing: a text node
#: costs about 1.7 KB at the peak of extraction, and the largest of 2,151 real news pages
#: has 20,574 (10 MB of real markup: 230,000 to 550,000). A million flat ``<p>`` took
#: 3.8 GB and 53 s.
MAX_TAGS = 1_000_000
#: Attributes kept per element; libxml2 needs minutes for 100,000 distinct ones.
MAX_ATTRIBUTES = 1000
#: Opening tags shorter than this cannot hold MAX_ATTRIBUTES attributes and are not examined.
_LONG_TAG_RE = re.compile(r"(<[a-zA-Z][a-zA-Z0-9:-]*)[^<>]{" + str(2 * MAX_ATTRIBUTES) + ",}")
#: Finds the same tags (where they start and end) without trying every split of a tag name:
#: twice as fast over a page without one, ten times with one.
_ANY_LONG_TAG_RE = re.compile(r"<[a-zA-Z][^<>]{" + str(2 * MAX_ATTRIBUTES) + ",}")
_ANY_LONG_TAG_BYTES_RE = re.compile(_ANY_LONG_TAG_RE.pattern.encode())
#: A long tag's ``<`` is followed by at least this many bytes without ``<`` or ``>``.
_LONG_RUN = 2 * MAX_ATTRIBUTES + 1
_ATTRIBUTE_RE = re.compile(r"""[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
#: Containers of content shown only without scripts, never, or in a frame of its own.
_FALLBACK_TAGS = frozenset({"noscript", "template", "iframe"})
#: That content is read when it holds this many times the prose of the rest of the page.
FALLBACK_RATIO = 2

#: Nesting depths past which markup is flattened when libxml2 reports lost text, in turn.
SAFE_DEPTHS = (1000, 256)
_TAG_TOKEN_RE = re.compile(r"""<(/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""")
_BLOCK_BREAK_RE = re.compile(r"(?i)<\s*(?:br|/?p|/?div|/?li|/?tr|/?h[1-6]|/?td|/?table|/?blockquote)\b[^>]*>")
_ANY_TAG_RE = re.compile(r"""<(?:[^>"']|"[^"]*"|'[^']*')*>|<!--.*?-->""", re.S)


@dataclass(eq=False)
class ParsedPage:
    """A parsed, cleaned page: the lxml root and what was learned while parsing.

    ``flattened`` says the markup was too deep and was flattened; ``revealed`` that the
    prose was read from noscript, template or srcdoc content. ``data`` is the page as
    :func:`parse` read it (the caller's own bytes or text when it gave those), from
    which :attr:`text` is made again when asked for.
    """

    root: Element
    encoding: str
    title_text: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    flattened: bool = False
    data: bytes | str = field(default="", repr=False)
    revealed: bool = False

    @cached_property
    def text(self) -> str:
        """The decoded page as it was handed to the parser (source-line methods such as
        CETR read it). Made again from :attr:`data` on first use, not kept from parsing:
        most methods never read it, and a page's text takes up to four times its bytes."""
        return _page_text(self.data)[0]


def read_page(page: bytes | str | os.PathLike[str]) -> bytes | str:
    """Bytes or text of ``page``: a path (``Path`` or a short string naming a file) is read.

    A short one-line string that names an existing file or folder is a path, even with
    ``<`` in it; other strings with markup are HTML. Files past :data:`MAX_PAGE_BYTES`
    raise InvalidPageError before they are read.
    """
    if isinstance(page, os.PathLike):
        return _read_file(Path(page))
    if isinstance(page, str) and not page.strip():
        raise InvalidPageError("empty page: the text given is empty")
    if isinstance(page, str) and len(page) < 4096 and "\n" not in page:
        path = Path(page)
        if _exists(path):
            return _read_file(path)
        if _URL_RE.match(page):
            raise InvalidPageError(_not_fetched(page))
        if "<" not in page:
            raise InvalidPageError(
                f"not HTML: the text {page[:80]!r} has no markup, and no file of that name exists"
            )
    if isinstance(page, (bytes, bytearray, memoryview)):
        return bytes(page)
    if isinstance(page, str):
        return page
    raise TypeError(f"page must be bytes, str or a path, not {type(page).__name__}")


def _not_fetched(address: str) -> str:
    """The error for a web address given as a page (as typed, or as a Path, which lost a
    slash of its "//"): say how to get the page instead."""
    address = _LOST_SLASH_RE.sub(r"\1://", address)
    return ("a web address, not a file: newsml reads pages from files and does not download "
            f"them; save the page first (for example: curl -L -o page.html '{address}')")


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long, or with a NUL, names no file
        return False


def _read_file(path: Path) -> bytes:
    """The bytes of the file at ``path``, at most MAX_PAGE_BYTES of them."""
    if not _exists(path):
        if _URL_RE.match(str(path)):    # (the command line names its pages as paths)
            raise InvalidPageError(_not_fetched(str(path)))
        raise InvalidPageError(f"no such file: {path}")
    if path.is_dir():
        raise InvalidPageError(f"not a file: {path} is a folder")
    try:
        with open(path, "rb") as handle:  # reads pipes and devices too, but never past the limit
            # a regular file is read at its size, not into a buffer of the limit's size (64 MB
            # allocated and freed per page took longer than the read); pipes and devices say 0
            expected = min(os.fstat(handle.fileno()).st_size, MAX_PAGE_BYTES)
            data = handle.read(expected + 1)
            if len(data) > expected:  # no size known, or the file grew: on to the limit
                data += handle.read(MAX_PAGE_BYTES + 1 - len(data))
    except OSError as exc:   # no permission, a device that fails: the page cannot be had
        raise InvalidPageError(f"cannot read {path}: {exc.strerror or exc}") from None
    _check_size(len(data), f"the file {path}")
    return data


def _check_size(size: int, what: str = "the page") -> None:
    if size > MAX_PAGE_BYTES:
        raise InvalidPageError(f"page too large: {what} holds more than {MAX_PAGE_BYTES:,} bytes "
                               f"(newsml.parse.MAX_PAGE_BYTES)")


def parse(page: bytes | str | Path) -> ParsedPage:
    """Parse a page (bytes, text or path) into a cleaned :class:`ParsedPage`.

    Raises :class:`InvalidPageError` when the input is empty, binary or has no markup.
    """
    data = read_page(page)
    _check_size(len(data))
    if isinstance(data, bytes):
        data = maybe_gunzip(data)
        _reject_binary(data)
    markup, encoding = _parser_input(data)
    root, flattened = _parse_whole(markup, lambda: _page_text(data)[0])
    meta = _read_meta(root)
    title_text = _title_text(root)
    revealed = clean(root)
    return ParsedPage(root=root, encoding=encoding, title_text=title_text, meta=meta,
                      flattened=flattened, data=data, revealed=revealed)


def _parser_input(data: bytes | str) -> tuple[bytes, str]:
    """The UTF-8 bytes the parser reads (:func:`_page_text`'s text, encoded) and the page's
    encoding. A UTF-8 page that needs no character taken out (most) is handed over as its
    own bytes, with at most its XML declaration cut and long tags shortened: no decoding
    to text and encoding back."""
    if isinstance(data, bytes):
        ready = _ready_utf8(data)
        if ready is not None:
            return ready, "utf-8"
    text, encoding = _page_text(data)
    return _utf8(text), encoding


def _ready_utf8(data: bytes) -> bytes | None:
    """``_utf8(_page_text(data)[0])`` worked out on the bytes, for bytes that are UTF-8 free
    of what :func:`xml_safe` takes out and start as a page; None for any other bytes,
    which take the way through text (also to raise its errors).

    Without NUL bytes no page reads as UTF-16 (:func:`~newsml.encoding.utf16_without_bom`),
    so valid UTF-8 without a byte-order mark is decoded as UTF-8; each check below answers
    as its counterpart over the text does, ASCII being the same in both. The checks of
    the characters are made in one pass over the bytes in C where it was built
    (:data:`BYTES_COMPILED`), else by :func:`_bytes_scan`.
    """
    if data.startswith(BOMS):
        return None
    scan = BYTES_COMPILED.ready_scan if BYTES_COMPILED is not None else _bytes_scan
    scanned = scan(data, _LONG_RUN)
    if scanned is None:
        return None
    tags, long_starts = scanned
    if _MARKUP_BYTES_RE.search(data) is None or tags > MAX_TAGS:
        return None
    declaration = _XML_DECL_BYTES_RE.match(data)
    if declaration:
        cut = declaration.end()
        data = data[cut:]
        long_starts = [at - cut for at in long_starts if at >= cut]
    elif _NON_ASCII_START_RE.match(data):  # may be a space only text knows before a declaration
        return None
    return _limit_attributes_utf8(data, long_starts)


def _bytes_scan(data: bytes, long_run: int) -> tuple[int, list[int]] | None:
    """None for bytes that :func:`_ready_utf8` sends the way through text for their
    characters: control characters, bytes that are not UTF-8, U+FFFE or U+FFFF, C1
    controls, ``~{`` in ASCII (HZ-GB-2312), references to characters a tree cannot hold;
    else the number of ``<`` and where each ``<`` stands that is followed by ``long_run``
    bytes or more with no ``<`` or ``>`` (the Python counterpart of
    ``newsml._page_bytes.ready_scan``)."""
    shape = data.translate(_BYTE_SHAPES)
    if b"\0" in shape:
        return None
    if data.isascii():
        if b"~{" in data:         # may be HZ-GB-2312, which decoding recognises
            return None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if "\ufffe" in text or "\uffff" in text:
            return None
    if _C1_UTF8_RE.search(data) is not None:      # (as the text path repairs them)
        return None
    if b"&#" in data:
        references = {(hexadecimal.decode(), decimal.decode())
                      for hexadecimal, decimal in _CHAR_REF_BYTES_RE.findall(data)}
        if any(map(_unsafe_reference, references)):
            return None
    long_starts = []
    run = b"<" + b"a" * long_run
    at = shape.find(run)
    while at >= 0:
        long_starts.append(at)
        at = shape.find(run, at + 1)
    return data.count(b"<"), long_starts


def _limit_attributes_utf8(data: bytes, long_starts: list[int]) -> bytes:
    """:func:`limit_attributes` over UTF-8 bytes, given where each ``<`` stands that is
    followed by as many bytes without ``<`` or ``>`` as a long tag has characters (see
    :func:`_bytes_scan`): only there may a tag be long. It is read as text there, and
    shortened when it has as many characters too.
    """
    pieces: list[bytes] = []
    last = 0
    for at in long_starts:
        candidate = _ANY_LONG_TAG_BYTES_RE.match(data, at)
        if candidate is not None:
            tag = candidate.group(0).decode("utf-8")  # from a '<' to before a '<', '>' or the end
            shortened = limit_attributes(tag)
            if shortened != tag:
                pieces += (data[last:at], shortened.encode("utf-8"))
                last = candidate.end()
    return b"".join((*pieces, data[last:])) if pieces else data


def _page_text(data: bytes | str) -> tuple[str, str]:
    """The text of page bytes (decoded) or text, as the parser is to read it, and its
    encoding: without what no XML tree can hold, an XML declaration or attributes past
    the limit. Raises InvalidPageError for text that is no HTML page."""
    if isinstance(data, bytes):
        text, encoding = decode_html(data)
        utf8 = data if encoding == "utf-8" else None
    else:
        text, encoding, utf8 = data, "unicode", None
    clean_utf8 = utf8 is not None and not _utf8_may_hold_not_xml(utf8, text)
    text = xml_safe(text, known_clean=clean_utf8)
    if not text or text.isspace():  # (not a stripped copy of the page)
        raise InvalidPageError("empty page: the input holds no text")
    if _MARKUP_RE.search(text) is None:
        raise InvalidPageError(f"not HTML: no tags found in the text starting {text.strip()[:60]!r}")
    tags = text.count("<") if len(text) > MAX_TAGS else 0  # (no more '<' than characters)
    if tags > MAX_TAGS:
        raise InvalidPageError(f"page too large: more than {MAX_TAGS:,} tags ({tags:,} '<'; "
                               "newsml.parse.MAX_TAGS)")
    declaration = _XML_DECL_RE.match(text)
    if declaration:
        text = text[declaration.end():]
    if utf8 is None or _utf8_may_hold_long_tags(utf8):
        text = limit_attributes(text)
    return text, encoding


def xml_safe(text: str, known_clean: bool = False) -> str:
    """``text`` without the characters an lxml tree cannot hold (see the module notes),
    neither as characters nor as numeric character references.

    Browsers ignore NULs too, and libxml2 would cut the text at one. ``known_clean`` says
    the text holds none of those characters (references are still looked at).
    """
    if not known_clean and _NOT_XML_RE.search(text) is not None:
        text = _NOT_XML_RE.sub("", _SPACE_CONTROLS_RE.sub(" ", text))
    if _C1_RE.search(text) is not None:
        text = _C1_RE.sub(_as_windows_1252, _undo_latin1_reads(text))  # (str.translate: 7 ms a page)
    if "&#" in text and any(map(_unsafe_reference, set(_CHAR_REF_RE.findall(text)))):
        text = _CHAR_REF_RE.sub(_safe_reference, text)
    return text


def _undo_latin1_reads(text: str) -> str:
    """``text`` with each UTF-8 sequence read as Latin-1 that holds a C1 control decoded
    back (:func:`_utf8_read_as_latin1`). Only the few characters around each C1 control are
    searched (a sequence is 4 characters at most): a search of the whole text took 8 ms a
    page."""
    spans: list[list[int]] = []
    for control in _C1_RE.finditer(text):
        start, end = max(0, control.start() - 3), control.start() + 4
        if spans and start <= spans[-1][1]:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces += (text[last:start], _UTF8_AS_LATIN1_RE.sub(_utf8_read_as_latin1, text[start:end]))
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _utf8_read_as_latin1(match: re.Match[str]) -> str:
    """The character a UTF-8 sequence read as Latin-1 stood for, when it holds a C1 control
    (which no text means) and stands for a Latin letter, a sign or punctuation; else the
    match unchanged (``Ã©`` may be meant; its C1 control is then read as Windows-1252)."""
    found = match.group(0)
    if _C1_RE.search(found) is None:
        return found
    try:
        char = found.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return found
    # only what such text holds: Latin letters and signs, general punctuation, currency
    # (``ß\x93``, a sharp s before a quote, would decode into an N'Ko letter)
    return char if "\x80" <= char <= "\u02ff" or "\u2000" <= char <= "\u20cf" else found


def _utf8_may_hold_not_xml(data: bytes, text: str) -> bool:
    """Whether ``text``, which is ``data`` decoded as UTF-8, may hold characters no XML tree
    can hold. UTF-8 decoding makes C0 controls and DEL only from those bytes, and no
    surrogates: numpy looks at the bytes, and two ``in`` tests at the text, in a quarter
    of the time of the regex over the text (a megabyte at a time: little memory)."""
    for start in range(0, len(data), _CHUNK_BYTES):
        codes = np.frombuffer(data, dtype=np.uint8, count=min(_CHUNK_BYTES, len(data) - start), offset=start)
        controls = (codes < 0x20) & (codes != 0x09) & (codes != 0x0A) & (codes != 0x0D)
        if controls.any() or (codes == 0x7F).any():
            return True
    return "\ufffe" in text or "\uffff" in text


def _utf8_may_hold_long_tags(data: bytes) -> bool:
    """Whether the text of ``data`` (decoded as UTF-8, whatever :func:`xml_safe` then took
    out) may hold a tag :func:`limit_attributes` has to read: a ``<`` followed by more
    than ``2 * MAX_ATTRIBUTES`` characters without ``<`` or ``>``.

    Each character takes a byte or more, and each ``<`` and ``>`` of the text is a byte of
    its own, so without a ``<`` byte followed by as many bytes free of them there is no
    such tag (nine pages in ten).
    """
    # (one translation and one search: a third of the time numpy took to find the
    # delimiters; the mapped copy is the size of the page)
    return b"<" + b"a" * _LONG_RUN in data.translate(_TAG_DELIMITERS)


def _unsafe_reference(digits: tuple[str, str]) -> bool:
    """Whether a character reference (its hexadecimal and decimal digits, one of them
    empty) is one :func:`_safe_reference` replaces; most pages have none."""
    hexadecimal, decimal = digits
    if len(hexadecimal or decimal) > 8:
        return True
    code = int(hexadecimal, 16) if hexadecimal else int(decimal)
    return code > 0x10FFFF or 0x80 <= code < 0xA0 or _NOT_XML_RE.match(chr(code)) is not None


def _safe_reference(match: re.Match[str]) -> str:
    hexadecimal, decimal = match.groups()
    digits = hexadecimal or decimal
    code = int(digits, 16 if hexadecimal else 10) if len(digits) <= 8 else 0x110000
    if code > 0x10FFFF:  # no character: libxml2 drops it too
        return ""
    char = chr(code)
    if 0x80 <= code < 0xA0:
        return _C1_AS_WINDOWS_1252[code] or ""
    if _NOT_XML_RE.match(char) is None:
        return match.group(0)
    if _PARTIAL_REF_RE.search(match.string, max(0, match.start() - 12), match.start()):
        return " "  # dropped, what stands around it would join into a new reference ('&&#0;#xF')
    return " " if _SPACE_CONTROLS_RE.match(char) else ""


def limit_attributes(text: str) -> str:
    """``text`` with every opening tag cut to its first :data:`MAX_ATTRIBUTES` attributes.

    Only tags of ``2 * MAX_ATTRIBUTES`` characters or more can hold that many (a tenth of
    real pages have a few, with inline data): they are found with a pattern that cannot
    backtrack into the tag name, and each is then read where it starts.
    """
    pieces: list[str] = []
    last = 0
    for long_tag in _ANY_LONG_TAG_RE.finditer(text):  # the same tags, and spans, as _LONG_TAG_RE
        match = _LONG_TAG_RE.match(text, long_tag.start())
        assert match is not None  # it matches where the other does, up to the same end
        pieces += (text[last:match.start()], _shorten(match))
        last = match.end()
    return "".join((*pieces, text[last:])) if pieces else text


def _shorten(match: re.Match[str]) -> str:
    """The tag ``match`` found, cut after its MAX_ATTRIBUTES-th attribute."""
    tag = match.group(0)
    for count, attribute in enumerate(_ATTRIBUTE_RE.finditer(tag, match.end(1) - match.start()), 1):
        if count == MAX_ATTRIBUTES:
            log.debug("an element with more than %d attributes: the rest dropped", MAX_ATTRIBUTES)
            return tag[:attribute.end()]
    return tag


def clean(root: Element) -> bool:
    """Remove invisible content in place: scripts, styles, templates and hidden elements.

    Comments and processing instructions are already gone: the parser drops them. The
    content of ``<noscript>``, ``<template>`` and ``<iframe srcdoc>`` stays when it holds
    most of the page's prose (see the module notes); returns whether it did.
    """
    fallbacks = _unwrap_fallbacks(root)
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    for element in hidden_elements(root):
        if element.getparent() is not None:
            drop_keeping_tail(element)
    fallbacks = [div for div in fallbacks if any(up is root for up in div.iterancestors())]
    if not fallbacks:
        return False
    hidden = sum(_prose_chars(div) for div in fallbacks)
    if hidden and hidden > FALLBACK_RATIO * (_prose_chars(root) - hidden):
        log.debug("the page's prose is in noscript/template/srcdoc content: reading it")
        return True
    for div in fallbacks:
        drop_keeping_tail(div)
    return False


def hidden_elements(root: Element) -> list[Element]:
    """The elements of ``root``'s document, in document order, that a ``hidden`` attribute,
    ``aria-hidden="true"`` or a style with ``display: none`` hides (:data:`_HIDDEN_XPATH`);
    found in C when the package was built with :mod:`newsml._cleaning` (a quarter of the
    XPath's time), the same elements (the XPath's for values the C does not read)."""
    found = COMPILED.hidden_elements(root) if COMPILED is not None else None
    return _HIDDEN_XPATH(root) if found is None else found


def _unwrap_fallbacks(root: Element) -> list[Element]:
    """Put a ``<div>`` holding its content in the place of each outermost noscript,
    template and iframe with ``srcdoc``; return the divs."""
    divs = []
    for container in list(root.iter(*_FALLBACK_TAGS)):
        parent = container.getparent()
        if (parent is None or (container.tag == "iframe" and container.get("srcdoc") is None)
                or any(up.tag in _FALLBACK_TAGS for up in container.iterancestors())):
            continue
        div = etree.Element("div")
        if container.tag == "iframe":
            document = xml_safe(container.get("srcdoc") or "")
            try:
                frame, _ = _parse_whole(_utf8(document), document)
            except InvalidPageError:
                continue
            body = frame.find("body")
            source = body if body is not None else frame
        elif len(container) == 0 and "<" in (container.text or ""):  # kept as raw text by libxml2
            document = f"<html><body>{container.text}</body></html>"
            try:
                fragment, _ = _parse_whole(_utf8(document), document)
            except InvalidPageError:
                continue
            body = fragment.find("body")
            source = body if body is not None else fragment
        else:
            source = container
        div.text = source.text
        div.extend(list(source))
        div.tail = container.tail
        parent.replace(container, div)
        divs.append(div)
    return divs


def _prose_chars(element: Element) -> int:
    """Non-space characters of the text under ``element`` that is not inside a link.

    (An XPath for the links' text, ``.//a//text()``, takes a second on a 10 MB page.)
    """
    links = sum(visible_chars(text_of(link)) for link in element.iter("a") if is_link(link))
    return max(visible_chars(text_of(element)) - links, 0)


def text_of(element: Element) -> str:
    """The text under ``element``: ``"".join(element.itertext())`` in a third of the time."""
    if not len(element):
        return element.text or ""  # a leaf (most links): no XPath needed
    return _STRING_VALUE(element)


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


def _parse_whole(markup: bytes, text: str | Callable[[], str]) -> tuple[Element, bool]:
    """Parse UTF-8 ``markup`` without losing what lies past libxml2's depth limit: markup
    nested deeper is flattened below ever shallower depths (:data:`SAFE_DEPTHS`), and as a
    last resort parsed as its text only, a line per block. ``text`` is the same markup as
    text, or what makes it (only a page too deep needs it). Also say whether it was
    flattened."""
    root, lost = _parse_utf8(markup)
    if not lost:
        return root, False
    source = text if isinstance(text, str) else text()
    for depth in SAFE_DEPTHS:
        log.debug("markup nested past the parser's limit: flattening below depth %d", depth)
        root, lost = _parse_utf8(_utf8(flatten_deep_markup(source, depth)))
        if not lost:
            return root, True
    log.debug("flattened markup still loses text: parsing its text only, a line per block")
    return _parse_utf8(_utf8(text_only_markup(source)))[0], True


def _parse_utf8(data: bytes) -> tuple[Element, bool]:
    """Parse UTF-8 bytes; also say whether libxml2 dropped content at its depth limit.

    No table of ``id`` attributes is kept (``collect_ids``): nothing looks elements up by id.
    """
    parser = etree.HTMLParser(encoding="utf-8", huge_tree=True, remove_comments=True,
                              remove_pis=True, default_doctype=False, collect_ids=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise InvalidPageError(f"not HTML: the parser found no document ({exc})") from None
    if root is None:
        raise InvalidPageError("not HTML: the parser found no document")
    lost = any(err.type_name == "ERR_RESOURCE_LIMIT" for err in parser.error_log)
    return root, lost


def maybe_gunzip(data: bytes, limit: int | None = None) -> bytes:
    """Decompress gzip-compressed page bytes (as stored in many crawls); others pass through.

    Stops, raising InvalidPageError, once the output passes ``limit`` bytes
    (:data:`MAX_PAGE_BYTES` by default): a gzip bomb costs no more memory than that.
    Bytes after a whole stream that start no other member are dropped (``gzip -d`` warns
    of "trailing garbage" and keeps the page); a stream cut off is refused.
    """
    if not data.startswith(_GZIP_MAGIC):
        return data
    limit = MAX_PAGE_BYTES if limit is None else limit
    out: list[bytes] = []
    size = 0
    rest = data
    try:
        while rest:  # a gzip file may hold several members, one after another
            stream = zlib.decompressobj(wbits=31)
            chunk = stream.decompress(rest, limit + 1 - size)
            size += len(chunk)
            out.append(chunk)
            if size > limit or stream.unconsumed_tail:
                raise InvalidPageError(f"page too large: the gzip stream expands past {limit:,} bytes "
                                       "(newsml.parse.MAX_PAGE_BYTES)")
            if not stream.eof:
                raise InvalidPageError("binary data: a damaged gzip stream (cut off)")
            rest = stream.unused_data.lstrip(b"\x00")  # some writers pad with NULs
            if rest and not rest.startswith(_GZIP_MAGIC):   # junk after a whole stream:
                log.debug("ignoring %d bytes after the gzip stream", len(rest))
                break                                        # dropped, as gzip -d does
    except zlib.error as exc:
        raise InvalidPageError(f"binary data: a damaged gzip stream ({exc})") from None
    return b"".join(out)


def _reject_binary(data: bytes) -> None:
    """Raise InvalidPageError for bytes that are plainly not text (images, PDFs, archives)
    or that are a WARC file (whose records would be read as one page of garbage)."""
    for magic, what in _BINARY_MAGIC.items():
        if data.startswith(magic):
            raise InvalidPageError(f"binary data: the input is {what}, not an HTML page")
    if data.startswith(b"WARC/"):   # a crawl, never one page
        raise InvalidPageError("a WARC file, not an HTML page: give it to `newsml predict` under a name "
                               "ending in .warc or .warc.gz, or read its pages with "
                               "newsml.sources.warc_pages")
    head = data[:4096]
    if head.startswith(BOMS) or utf16_without_bom(head):  # UTF-16/32 text is full of NUL bytes
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


def _title_text(root: Element) -> str:
    """The text of the first ``<title>`` in a ``<head>`` that has any (``//head/title``), else
    of the first one anywhere (``//title``), whitespace-normalized; '' without one."""
    titles = list(root.iter("title"))
    in_head = (title for title in titles if getattr(title.getparent(), "tag", None) == "head")
    return _first_text(in_head) or _first_text(titles)


def _first_text(elements: Iterable[Element]) -> str:
    """Whitespace-normalized text of the first of ``elements`` that has any, or ''."""
    for element in elements:
        text = normalize_space(text_of(element))
        if text:
            return text
    return ""
