"""Decide how a page's bytes are decoded.

Order: byte-order mark; bytes that are valid UTF-8 (whatever the page declares: archived
pages are often re-encoded to UTF-8 but keep their old ``<meta charset>``); the declared
charset, if the bytes are valid in it; then statistical detection (charset-normalizer).
A declared GB2312/GBK is read as GB18030, its superset, and Latin-1/ASCII as
Windows-1252, as browsers do.
"""

from __future__ import annotations

import codecs
import re

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

_DECLARED_RE = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)"""
    rb"""|<\?xml[^>]+encoding\s*=\s*["']([a-zA-Z0-9_:.\-]+)""",
    re.IGNORECASE,
)
_SNIFF_BYTES = 8192

#: Declared names read as a superset, the way browsers do (WHATWG Encoding standard).
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "ascii": "cp1252",
    "latin_1": "cp1252",
    "iso8859_1": "cp1252",
    "big5": "big5hkscs",
    "euc_kr": "cp949",
    "shift_jis": "cp932",
    "utf_16": "utf-8",  # a page declaring UTF-16 without a BOM is served as UTF-8 bytes
}


#: Labels seen on real pages that Python's codec registry does not know.
_ALIASES = {"x-gbk": "gbk", "x-gb2312": "gb2312", "gb_2312-80": "gb2312", "x-sjis": "shift_jis",
            "x-euc-jp": "euc_jp", "x-cp1252": "cp1252", "unicode": "utf-8"}


def canonical_encoding(name: str) -> str | None:
    """The Python codec for a charset label, widened to its superset; None if unknown."""
    label = name.strip().lower()
    try:
        codec = codecs.lookup(_ALIASES.get(label, label)).name
    except LookupError:
        return None
    key = codec.replace("-", "_")
    return _SUPERSETS.get(key, codec)


def declared_encoding(data: bytes) -> str | None:
    """The charset a page declares in its first bytes (meta or XML declaration), if any."""
    match = _DECLARED_RE.search(data[:_SNIFF_BYTES])
    if not match:
        return None
    label = (match.group(1) or match.group(2)).decode("ascii", "ignore")
    return canonical_encoding(label)


def decode_html(data: bytes) -> tuple[str, str]:
    """Decode page bytes to text; return ``(text, encoding)``, never raising.

    Bytes that fit no candidate are decoded with the best guess and replacement
    characters, so no readable text is dropped.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace"), name
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    declared = declared_encoding(data)
    if declared and declared != "utf-8":
        try:
            return data.decode(declared), declared
        except UnicodeDecodeError:
            pass
    detected = _detect(data)
    try:
        return data.decode(detected), detected
    except UnicodeDecodeError:
        fallback = declared or detected
        return data.decode(fallback, errors="replace"), fallback


def _detect(data: bytes) -> str:
    """Statistical guess of the encoding (charset-normalizer), widened to its superset."""
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        return "cp1252"
    return canonical_encoding(best.encoding) or best.encoding
