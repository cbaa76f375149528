"""The parser's input: a page's bytes or text made into UTF-8 that any XML tree can hold.

The third step of the input stage (read, decode, sanitize, parse, clean). lxml is always
handed UTF-8 bytes with the encoding named, so it never re-reads a page's (possibly wrong)
meta charset. A UTF-8 page that needs no change (most) is handed over as its own bytes,
checked as bytes, without being decoded to text and encoded back.

- Characters no XML tree can hold (C0 controls other than tab, line feed and carriage
  return, lone surrogates, U+FFFE and U+FFFF) are removed once, right after decoding;
  the whitespace controls among them (vertical tab, form feed, separators) become spaces.
  C1 controls (U+0080-U+009F), and references to them, are text that was read as Latin-1
  on its way: a UTF-8 character so read is decoded back (``â\x80\x99``: ``’``), and any
  other C1 control becomes its Windows-1252 character (``\x92``: ``’``).
- An element with more than :data:`MAX_ATTRIBUTES` attributes keeps only its first
  ones: libxml2 takes super-quadratic time over many distinct attributes.
- A page with more than :data:`MAX_TAGS` tags raises
  :class:`~newsml.errors.InvalidPageError` before parsing.
"""

from __future__ import annotations

import logging
import re

import numpy as np

from ..core.speedups import choose
from ..errors import InvalidPageError
from .decode import BOMS, decode_html

log = logging.getLogger(__name__)



_MARKUP_RE = re.compile(r"<\s*(?:[a-zA-Z][a-zA-Z0-9:-]*|!doctype)[\s/>]", re.IGNORECASE)


_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)


#: The same three over UTF-8 bytes (see _ready_utf8).
_MARKUP_BYTES_RE = re.compile(_MARKUP_RE.pattern.encode(), re.IGNORECASE)


_XML_DECL_BYTES_RE = re.compile(_XML_DECL_RE.pattern.encode(), re.IGNORECASE)


_NON_ASCII_START_RE = re.compile(rb"\s*[\x80-\xff]")


#: Page bytes mapped to what the looks at them need: ``<`` and ``>`` stay, every other
#: byte becomes ``a``; in _BYTE_SHAPES the bytes UTF-8 decodes into characters no XML tree
#: can hold (C0 controls but tab, line feed and carriage return, and DEL) become NUL.
_TAG_DELIMITERS = bytes(byte if byte in b"<>" else ord("a") for byte in range(256))


_BYTE_SHAPES = bytes(0 if byte in (*range(0, 9), 11, 12, *range(14, 32), 127) else _TAG_DELIMITERS[byte]
                     for byte in range(256))


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


#: Pages with more ``<`` than this raise InvalidPageError before parsing: far more than real
#: news pages hold, and it bounds the memory and time of a page of flat markup
#: (docs/decisions/2026-11-23-size-limits.md).
MAX_TAGS = 1_000_000


#: Attributes kept per element: libxml2 takes super-quadratic time over many distinct ones.
MAX_ATTRIBUTES = 1000


#: Opening tags shorter than this cannot hold MAX_ATTRIBUTES attributes and are not examined.
_LONG_TAG_RE = re.compile(r"(<[a-zA-Z][a-zA-Z0-9:-]*)[^<>]{" + str(2 * MAX_ATTRIBUTES) + ",}")


#: Finds the same tags (where they start and end) without trying every split of a tag name:
#: faster over any page, most of all over one with such a tag.
_ANY_LONG_TAG_RE = re.compile(r"<[a-zA-Z][^<>]{" + str(2 * MAX_ATTRIBUTES) + ",}")


_ANY_LONG_TAG_BYTES_RE = re.compile(_ANY_LONG_TAG_RE.pattern.encode())


#: A long tag's ``<`` is followed by at least this many bytes without ``<`` or ``>``.
_LONG_RUN = 2 * MAX_ATTRIBUTES + 1


_ATTRIBUTE_RE = re.compile(r"""[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")


def parser_input(data: bytes | str) -> tuple[bytes, str]:
    """The UTF-8 bytes the parser reads (:func:`page_text`'s text, encoded) and the page's
    encoding. A UTF-8 page that needs no character taken out (most) is handed over as its
    own bytes, with at most its XML declaration cut and long tags shortened: no decoding
    to text and encoding back."""
    if isinstance(data, bytes):
        ready = _ready_utf8(data)
        if ready is not None:
            return ready, "utf-8"
    text, encoding = page_text(data)
    return utf8(text), encoding


def _ready_utf8(data: bytes) -> bytes | None:
    """``utf8(page_text(data)[0])`` worked out on the bytes, for bytes that are UTF-8 free
    of what :func:`xml_safe` takes out and start as a page; None for any other bytes,
    which take the way through text (also to raise its errors).

    Without NUL bytes no page reads as UTF-16 (:func:`~newsml.input.decode.utf16_without_bom`),
    so valid UTF-8 without a byte-order mark is decoded as UTF-8; each check below answers
    as its counterpart over the text does, ASCII being the same in both. The checks of
    the characters are made in one pass over the bytes (:func:`bytes_scan`).
    """
    if data.startswith(BOMS):
        return None
    scanned = _scan(data, _LONG_RUN)
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


def bytes_scan(data: bytes, long_run: int) -> tuple[int, list[int]] | None:
    """None for bytes that :func:`_ready_utf8` sends the way through text for their
    characters: control characters, bytes that are not UTF-8, U+FFFE or U+FFFF, C1
    controls, ``~{`` in ASCII (HZ-GB-2312), references to characters a tree cannot hold;
    else the number of ``<`` and where each ``<`` stands that is followed by ``long_run``
    bytes or more with no ``<`` or ``>`` (the Python counterpart of
    ``newsml.input._page_bytes.ready_scan``)."""
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


_scan = choose("input._page_bytes", bytes_scan, "ready_scan")


def _limit_attributes_utf8(data: bytes, long_starts: list[int]) -> bytes:
    """:func:`limit_attributes` over UTF-8 bytes, given where each ``<`` stands that is
    followed by as many bytes without ``<`` or ``>`` as a long tag has characters (see
    :func:`bytes_scan`): only there may a tag be long. It is read as text there, and
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


def page_text(data: bytes | str) -> tuple[str, str]:
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
                               "newsml.input.sanitize.MAX_TAGS)")
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
        text = _C1_RE.sub(_as_windows_1252, _undo_latin1_reads(text))  # (faster than str.translate)
    if "&#" in text and any(map(_unsafe_reference, set(_CHAR_REF_RE.findall(text)))):
        text = _CHAR_REF_RE.sub(_safe_reference, text)
    return text


def _undo_latin1_reads(text: str) -> str:
    """``text`` with each UTF-8 sequence read as Latin-1 that holds a C1 control decoded
    back (:func:`_utf8_read_as_latin1`). Only the few characters around each C1 control are
    searched (a sequence is 4 characters at most), not the whole text."""
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
    surrogates: numpy looks at the bytes, and two ``in`` tests at the text, faster than the
    regex over the text (a megabyte at a time: little memory)."""
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
    such tag (most pages).
    """
    # (one translation and one search: faster than numpy at finding the delimiters; the
    # mapped copy is the size of the page)
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

    Only tags of ``2 * MAX_ATTRIBUTES`` characters or more can hold that many (some real
    pages have a few, with inline data): they are found with a pattern that cannot
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


def utf8(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogatepass")
