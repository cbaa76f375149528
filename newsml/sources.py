"""Where pages come from: files, folders, lists of paths, and WARC files of a crawl.

The input stage of batch extraction. Each page comes with a :class:`Source` naming it:
its ``key`` is what ``--resume`` matches an output record against, and
:meth:`Source.identity` is what goes into that record.

- :func:`expand_inputs` turns the command-line arguments into file paths: a folder is
  walked recursively (sorted, so runs are repeatable) for ``*.html``, ``*.htm`` and
  ``*.html.gz`` (or the pattern given as ``glob``); ``-`` (standard input) passes through.
- :func:`warc_pages` reads the HTML response records of a WARC file (gzip-compressed or
  not) with FastWARC: the HTTP headers are stripped, chunked and compressed bodies are
  decoded, and each page carries its ``WARC-Target-URI`` and ``WARC-Record-ID``.
- :func:`iter_pages` is both for the command line: a file is yielded without its bytes
  (the worker that extracts it reads it), a WARC record with them, and a WARC file that
  cannot be read with the error, so that it too gets an output record.

A file is a WARC file when its name ends in ``.warc`` or ``.warc.gz``, or, for a name
that is not an HTML name, when its (decompressed) content starts with ``WARC/``; so is
standard input, or a pipe named by a path (``<(zcat crawl.warc.gz)``), that starts so
(looked at without taking its bytes, then read once, here). A crawl is never extracted as
one page: an HTML-named file that holds one is refused when it is parsed.
"""

from __future__ import annotations

import fnmatch
import gzip
import io
import os
import stat
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import IO, Any

from .errors import InvalidPageError
from .output import STDIN
from .parse import MAX_PAGE_BYTES

#: What a folder is searched for when no ``glob`` is given (names compared in lower case).
HTML_PATTERNS = ("*.html", "*.htm", "*.html.gz")
#: File names read as WARC files without looking inside.
WARC_SUFFIXES = (".warc", ".warc.gz")


@dataclass(frozen=True)
class Source:
    """Where one page comes from: a file (``path``), or a record of the WARC file ``path``."""

    path: str
    url: str | None = None
    record_id: str | None = None

    @property
    def key(self) -> str:
        """What identifies the page across runs (``--resume``): the record id of a WARC
        record, else the path as written in the record, normalized (:func:`path_key`)."""
        return self.record_id if self.record_id is not None else path_key(self.shown_path)

    @property
    def shown_path(self) -> str:
        """The path as records and messages show it (:func:`displayable`)."""
        return displayable(self.path)

    @property
    def name(self) -> str:
        """How messages name the page: the path, and the URL of a WARC record."""
        return f"{self.shown_path} {self.url}" if self.url is not None else self.shown_path

    def identity(self) -> dict[str, str]:
        """The fields of the page's output record that say which page it is."""
        fields = {"path": self.shown_path}
        if self.url is not None:
            fields["url"] = self.url
        if self.record_id is not None:
            fields["record_id"] = self.record_id
        return fields


def displayable(path: str) -> str:
    """``path`` as text that can be written anywhere: the bytes of a file name that is not
    UTF-8 (held by Python as surrogates) shown as ``\\xff`` escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace") if path != STDIN else path


def path_key(path: str) -> str:
    """The ``--resume`` key of a path: normalized (``./a.html`` and ``a.html`` are one page),
    still relative to the working directory when given so."""
    return os.path.normpath(path) if path != STDIN else path


def record_key(record: dict[str, Any]) -> str | None:
    """The :attr:`Source.key` of the page an output record was written for."""
    if isinstance(record.get("record_id"), str):
        return record["record_id"]
    path = record.get("path")
    return path_key(path) if isinstance(path, str) else None


def expand_inputs(args: Iterable[str], glob: str | None = None) -> Iterator[str]:
    """File paths from ``args``: files as given, folders walked for HTML files.

    A folder yields the files below it (recursively, in sorted order, symbolic links to
    folders not followed) whose name matches :data:`HTML_PATTERNS`, or ``glob`` when
    given (matched from the right: ``*.warc.gz``, ``2024/*.html``). Names are compared in
    lower case, the patterns' and ``glob``'s alike.
    """
    for arg in args:
        if arg != STDIN and os.path.isdir(arg):
            yield from _walk(arg, glob)
        else:
            yield arg


def _walk(folder: str, glob: str | None) -> Iterator[str]:
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if _matches(PurePath(os.path.relpath(path, folder)), glob):
                yield path


def _matches(relative: PurePath, glob: str | None) -> bool:
    if glob is not None:  # in lower case, as the default patterns: '*.HTML' finds x.html
        return PurePath(str(relative).lower()).match(glob.lower())
    name = relative.name.lower()
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in HTML_PATTERNS)


def is_warc(path: str, stdin: IO[bytes] | None = None) -> bool:
    """Whether the file at ``path`` is a WARC file (see the module notes).

    Standard input (``-``) and a pipe or device named by a path (``<(zcat x.warc.gz)``,
    ``/dev/stdin``) are looked at without taking their bytes: their first bytes can be
    read once only, so a pipe's reader is kept for :func:`iter_pages` to read from.
    """
    name = path.lower()
    if name.endswith(WARC_SUFFIXES):
        return True
    if path == STDIN:
        return _starts_as_warc(_peek(stdin if stdin is not None else _stdin()))
    stream = _stream_reader(path)
    if stream is not None:
        return _starts_as_warc(_peek(stream))
    if _matches(PurePath(name), None):
        return False    # (an HTML-named WARC file is refused when read as a page)
    try:
        with open(path, "rb") as handle:
            head = handle.read(512)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return False  # the worker reading it says why
    return _starts_as_warc(head)


def _starts_as_warc(head: bytes) -> bool:
    """Whether ``head``, the first bytes of a file (gzip-compressed or not), start a WARC file."""
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16)
        except zlib.error:
            return False
    return head.startswith(b"WARC/")


def _peek(stream: IO[bytes]) -> bytes:
    """The first bytes of ``stream`` without taking them (nothing when it cannot tell)."""
    peek = getattr(stream, "peek", None)
    if peek is None:
        return b""
    try:
        return bytes(peek(512)[:512])
    except (OSError, ValueError):
        return b""


#: Readers of the pipes and devices that :func:`is_warc` looked at, by path, for
#: :func:`iter_pages` to read the same bytes from (a pipe's bytes can be read once only).
_STREAMS: dict[str, IO[bytes]] = {}


def _stream_reader(path: str) -> IO[bytes] | None:
    """A kept reader of ``path`` when it names a pipe or a device, not a regular file."""
    if path in _STREAMS:
        return _STREAMS[path]
    try:
        if stat.S_ISREG(os.stat(path).st_mode) or os.path.isdir(path):
            return None
        stream = open(path, "rb")  # noqa: SIM115 - kept open for iter_pages, which closes it
    except (OSError, ValueError):
        return None
    _STREAMS[path] = stream
    return stream


def warc_pages(path_or_stream: str | os.PathLike[str] | IO[bytes],
               report: Callable[[str], None] | None = None) -> Iterator[tuple[Source, bytes]]:
    """The HTML response records of a WARC file (a path, or a binary stream), in file order.

    Each record's HTTP headers are stripped and its body decoded (chunks, gzip, brotli),
    at most :data:`~newsml.parse.MAX_PAGE_BYTES` + 1 bytes of it (a longer one is then
    refused as too large when it is extracted). Records of other types, and responses
    whose HTTP Content-Type names something else than HTML, are skipped; a response
    without one is a page (the extractor refuses what is not HTML). A file without any
    page is told to ``report`` (default: stderr), so that it is not passed over in
    silence. Raises InvalidPageError when the file is not a WARC file or is corrupt.
    """
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    if isinstance(path_or_stream, (str, os.PathLike)):
        name = os.fspath(path_or_stream)
        with open(name, "rb") as stream:
            yield from _records(ArchiveIterator, WarcRecordType, stream, name, report)
    else:
        yield from _records(ArchiveIterator, WarcRecordType, path_or_stream,
                            str(getattr(path_or_stream, "name", "<stream>")), report)


def _records(archive: Any, types: Any, stream: IO[bytes], name: str,
             report: Callable[[str], None] | None) -> Iterator[tuple[Source, bytes]]:
    records = archive(stream, record_types=types.any_type, parse_http=True, auto_decode="all")
    responses = skipped = pages = 0
    try:
        for record in records:
            if record.record_type == types.response:
                responses += 1
            if record.record_type != types.response or not _is_html(record.http_content_type):
                skipped += 1
                continue
            pages += 1
            source = Source(path=name, url=record.headers.get("WARC-Target-URI"),
                            record_id=record.record_id or f"{displayable(name)}#{responses}")
            body = record.reader.read(MAX_PAGE_BYTES + 1)
            if _cut_off(record, body):
                raise EOFError(f"the record of {source.url or source.record_id} is cut off "
                               f"({len(body):,} of its {record.content_length:,} bytes)")
            yield source, body
    except (OSError, ValueError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
        where = f"after {responses} response records" if responses else "at its start"
        raise InvalidPageError(f"cannot read the WARC file {displayable(name)} {where}: {exc}") from None
    if not pages:
        records_skipped = f"{skipped} record" + ("s" if skipped != 1 else "")
        (report or _to_stderr)(f"{displayable(name)}: no HTML response records ({records_skipped} skipped)")


def _cut_off(record: Any, body: bytes) -> bool:
    """Whether a response record's body ends before the length its header gives (a WARC
    file cut off in mid-record). Only told for bodies sent as they are: a chunked or
    compressed body is decoded to another length."""
    http = record.http_headers
    if http is not None and (http.get("Transfer-Encoding") or http.get("Content-Encoding")):
        return False
    return len(body) < min(record.content_length, MAX_PAGE_BYTES + 1)


def _is_html(content_type: str | None) -> bool:
    """Whether a response is a page candidate: HTML, or a type not given."""
    return content_type is None or "html" in content_type.lower()


def _to_stderr(line: str) -> None:
    print(f"newsml: {line}", file=sys.stderr)


#: What :func:`iter_pages` yields with a source: the page's bytes, None for a file the
#: worker reads itself, or the error that kept the page (or WARC file) from being read.
Payload = bytes | None | Exception


def iter_pages(paths: Iterable[str], stdin: IO[bytes] | None = None,
               report: Callable[[str], None] | None = None,
               warc: AbstractSet[str] | None = None) -> Iterator[tuple[Source, Payload]]:
    """Every page of ``paths`` (files, WARC files, ``-``; see :func:`expand_inputs` for
    folders), in order, with its :data:`Payload`. ``warc``: the paths known to be WARC
    files (others are not), else :func:`is_warc` looks at each.

    A WARC file that cannot be read yields one ``(Source(path), error)`` after the
    records read before the damage; one without any page is told to ``report`` (default:
    stderr).
    """
    for path in paths:
        if path == STDIN or _stream_reader(path) is not None:
            yield from _stream_pages(path, stdin, report)
        elif (path in warc) if warc is not None else is_warc(path):
            try:
                yield from warc_pages(path, report)
            except (InvalidPageError, OSError) as exc:
                yield Source(path), exc
        else:
            yield Source(path), None


def _stream_pages(path: str, stdin: IO[bytes] | None,
                  report: Callable[[str], None] | None) -> Iterator[tuple[Source, Payload]]:
    """The page, or the WARC records, of standard input or of a pipe named by ``path``:
    read here, once (a worker could not read them again)."""
    stream = (stdin if stdin is not None else _stdin()) if path == STDIN else _STREAMS.pop(path)
    try:
        if _starts_as_warc(_peek(stream)):
            try:
                yield from _records_of(stream, path, report)
            except (InvalidPageError, OSError) as exc:
                yield Source(path), exc
        else:
            try:
                data = stream.read(MAX_PAGE_BYTES + 1)
            except OSError as exc:
                reason = exc.strerror or exc
                yield Source(path), InvalidPageError(f"cannot read {displayable(path)}: {reason}")
            else:
                yield Source(path), data
    finally:
        if path != STDIN:
            stream.close()


def _records_of(stream: IO[bytes], path: str,
                report: Callable[[str], None] | None) -> Iterator[tuple[Source, bytes]]:
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    readable = stream if stream.seekable() else _Unseekable(stream)
    yield from _records(ArchiveIterator, WarcRecordType, readable, path, report)  # type: ignore[arg-type]


class _Unseekable(io.RawIOBase):
    """A pipe as FastWARC can read it: it asks where it is (``tell``), which a pipe cannot
    answer, so the bytes read are counted."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream, self.position = stream, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(len(buffer))
        buffer[:len(data)] = data
        self.position += len(data)
        return len(data)

    def tell(self) -> int:
        return self.position


def _stdin() -> IO[bytes]:
    return sys.stdin.buffer


def read_list(path: str, stdin: IO[bytes] | None = None) -> Iterator[str]:
    """The paths listed in the file ``path`` (``-``: standard input), one a line; blank
    lines are skipped. Raises InvalidPageError when the list cannot be read."""
    try:
        if path == STDIN:
            stream = stdin if stdin is not None else _stdin()
            lines = stream.read().decode("utf-8", "surrogateescape").splitlines()
        else:
            lines = Path(path).read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    except OSError as exc:
        raise InvalidPageError(f"cannot read the list of paths {path}: {exc.strerror or exc}") from None
    for line in lines:
        if line.strip():
            yield line.rstrip("\r")
