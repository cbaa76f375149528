"""An HTTP response body as a crawl stored it, decoded here within bounds.

A WARC response holds the body as it was sent: in chunks (``Transfer-Encoding:
chunked``) and compressed (``Content-Encoding``: gzip, deflate, br). :func:`decode_body`
undoes both, never past a size limit (a gzip bomb costs no more memory than the limit),
and raises :class:`~newsml.errors.InvalidPageError` saying what is wrong with a body that
cannot be decoded, so that one bad record costs that record only (FastWARC's own decoding
ended the file there).
"""

from __future__ import annotations

import re
import zlib

from ..errors import InvalidPageError

#: A chunk's size line: hexadecimal digits, then extensions (``;name=value``) or spaces.
_CHUNK_SIZE_RE = re.compile(rb"([0-9A-Fa-f]{1,16})[ \t]*(?:;[^\r\n]*)?\r?\n")


def decode_body(raw: bytes, transfer_encoding: str | None, content_encoding: str | None,
                limit: int) -> bytes:
    """``raw`` with its chunks joined and its compression undone, at most ``limit`` + 1
    bytes of it (a longer one is then refused as too large where the page is read).

    Content codings not known here (nor ``identity``) leave the body as it is, as a
    browser shows what it cannot decode. A body cut off in a chunk or in a compressed
    stream gives what was decoded before the cut. Raises InvalidPageError for a body
    that is not what its headers say (bad chunk sizes; not gzip, deflate or brotli).
    """
    body = raw
    if transfer_encoding is not None and "chunked" in transfer_encoding.lower():
        body = dechunk(body, limit)
    codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
    for coding in reversed(codings):        # applied in the order listed: undone last first
        body = _decompress(body, coding, limit)
    return body


def dechunk(raw: bytes, limit: int) -> bytes:
    """The data of a chunked body, at most ``limit`` + 1 bytes; raises InvalidPageError for
    a size line that is not one."""
    parts: list[bytes] = []
    size = position = 0
    while position < len(raw) and size <= limit:
        match = _CHUNK_SIZE_RE.match(raw, position)
        if match is None:
            line = raw[position:position + 20]
            raise InvalidPageError(f"bad chunked encoding: {line!r} at byte {position} is no chunk size")
        length = int(match.group(1), 16)
        if length == 0:                                # the last chunk (trailers follow)
            break
        start = match.end()
        parts.append(raw[start:start + length])
        size += len(parts[-1])
        position = start + length
        if raw.startswith(b"\r\n", position):
            position += 2
        elif raw.startswith(b"\n", position):
            position += 1
        elif position < len(raw):
            raise InvalidPageError(f"bad chunked encoding: a chunk of {length} bytes at byte "
                                   f"{match.start()} does not end its line")
    return b"".join(parts)[:limit + 1]


def _decompress(body: bytes, coding: str, limit: int) -> bytes:
    if coding in ("gzip", "x-gzip"):
        return _inflate(body, 16 + zlib.MAX_WBITS, limit, "gzip")
    if coding == "deflate":         # zlib-wrapped as the standard says, or raw as some servers send
        try:
            return _inflate(body, zlib.MAX_WBITS, limit, "deflate")
        except InvalidPageError:
            return _inflate(body, -zlib.MAX_WBITS, limit, "deflate")
    if coding == "br":
        return _unbrotli(body, limit)
    return body                     # identity, or a coding not known: as it is


def _inflate(body: bytes, wbits: int, limit: int, name: str) -> bytes:
    stream = zlib.decompressobj(wbits)
    try:
        out = stream.decompress(body, limit + 1)
    except zlib.error as exc:
        raise InvalidPageError(f"the body is not the {name} data its Content-Encoding says ({exc})") from None
    if not out and not stream.eof:
        raise InvalidPageError(f"the {name} body is cut off before any of it")
    return out


def _unbrotli(body: bytes, limit: int) -> bytes:
    import brotli  # (installed with FastWARC, which reads the WARC files)

    try:
        out = brotli.Decompressor().process(body, output_buffer_limit=limit + 1)
    except brotli.error as exc:
        raise InvalidPageError(f"the body is not the brotli data its Content-Encoding says ({exc})") from None
    return out[:limit + 1]
