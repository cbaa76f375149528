"""Reading a page: a path, bytes or text in; the page's bytes or text out, within limits.

The first step of the input stage (read, decode, sanitize, parse, clean). A page past
:data:`MAX_PAGE_BYTES` raises :class:`~newsml.errors.InvalidPageError` before it is read
whole, and so does a gzip stream that expands past it; a web address is refused with how
to save the page instead (newsml reads files, never the web).
"""

from __future__ import annotations

import logging
import os
import re
import zlib
from pathlib import Path

from ..errors import InvalidPageError, PageNotFoundError

log = logging.getLogger(__name__)

_GZIP_MAGIC = b"\x1f\x8b"


#: A web address (its "//" becomes "/" once it is a Path): newsml reads files, not the web.
#: (Two characters at least before the colon: ``C:/`` is a Windows drive.)
_URL_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]+:/")


_LOST_SLASH_RE = re.compile(r"^([^:]+):/(?!/)")


#: Pages (and gzip streams once decompressed) larger than this raise InvalidPageError.
MAX_PAGE_BYTES = 64 * 1024 * 1024


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
        raise PageNotFoundError(f"no such file: {path}")
    if path.is_dir():
        raise InvalidPageError(f"not a file: {path} is a folder")
    try:
        with open(path, "rb") as handle:  # reads pipes and devices too, but never past the limit
            # a regular file is read at its size, not into a buffer of the limit's size (one
            # allocated and freed per page took longer than the read); pipes and devices say 0
            expected = min(os.fstat(handle.fileno()).st_size, MAX_PAGE_BYTES)
            data = handle.read(expected + 1)
            if len(data) > expected:  # no size known, or the file grew: on to the limit
                data += handle.read(MAX_PAGE_BYTES + 1 - len(data))
    except OSError as exc:   # no permission, a device that fails: the page cannot be had
        raise InvalidPageError(f"cannot read {path}: {exc.strerror or exc}") from None
    check_size(len(data), f"the file {path}")
    return data


def check_size(size: int, what: str = "the page") -> None:
    if size > MAX_PAGE_BYTES:
        raise InvalidPageError(f"page too large: {what} holds more than {MAX_PAGE_BYTES:,} bytes "
                               f"(newsml.input.read.MAX_PAGE_BYTES)")


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
                                       "(newsml.input.read.MAX_PAGE_BYTES)")
            if not stream.eof:
                raise InvalidPageError("binary data: a damaged gzip stream (cut off)")
            rest = stream.unused_data.lstrip(b"\x00")  # some writers pad with NULs
            if rest and not rest.startswith(_GZIP_MAGIC):   # junk after a whole stream:
                log.debug("ignoring %d bytes after the gzip stream", len(rest))
                break                                        # dropped, as gzip -d does
    except zlib.error as exc:
        raise InvalidPageError(f"binary data: a damaged gzip stream ({exc})") from None
    return b"".join(out)
