"""Where pages come from: files, folders, lists of paths, and WARC files of a crawl.

The input stage of batch extraction. Each page comes with a :class:`Source` naming it:
its ``key`` is what ``--resume`` matches an output record against, and
:meth:`Source.identity` is what goes into that record.

- :func:`expand_inputs` turns the command-line arguments into file paths: a folder is
  walked recursively (sorted, so runs are repeatable) for ``*.html``, ``*.htm`` and
  ``*.html.gz`` (or the pattern given as ``glob``); ``-`` (standard input) passes through.
  A special file found in a folder (a named pipe, a device, a socket) is never opened: it
  is :class:`Skipped`, and gets an error record.
- :func:`warc_pages` reads the HTML response records of a WARC file (gzip-compressed or
  not) with FastWARC: the HTTP headers are stripped, chunked and compressed bodies are
  decoded (a body that cannot be, as an error in its place), and each page carries its
  ``WARC-Target-URI`` and ``WARC-Record-ID``.
- :func:`iter_pages` is both for the command line: a file is yielded without its bytes
  (the worker that extracts it reads it), a WARC record with them, and a WARC file that
  cannot be read with the error, so that it too gets an output record.

A file is a WARC file when its name ends in ``.warc`` or ``.warc.gz``, or, for a name
that is not an HTML name, when its (decompressed) content starts with ``WARC/``; so is
standard input, or a pipe named by a path (``<(zcat crawl.warc.gz)``), that starts so
(looked at without taking its bytes, then read once, here). A crawl is never extracted as
one page: an HTML-named file that holds one is refused when it is parsed. Given a
``timeout``, such a stream waits for its bytes that long at a time, no longer: a named
pipe that no program writes to is opened without waiting for one, and becomes an error.
"""

from __future__ import annotations

import fnmatch
import gzip
import io
import os
import re
import select
import stat
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import IO, Any

from ..errors import InvalidPageError, ReadTimeoutError
from .http_body import decode_body
from .read import MAX_PAGE_BYTES

#: What a folder is searched for when no ``glob`` is given (names compared in lower case).
#: The name that stands for standard input, as an input and as a list of inputs.
STDIN = "-"
HTML_PATTERNS = ("*.html", "*.htm", "*.html.gz")
#: File names read as WARC files without looking inside.
WARC_SUFFIXES = (".warc", ".warc.gz")
#: Whether a pipe can be opened without waiting for a writer and polled (not on Windows,
#: where pipes and standard input are read as they come, without a time limit).
_CAN_POLL = hasattr(select, "poll") and hasattr(os, "O_NONBLOCK")


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
    """``path`` as text that can be written anywhere, and read back (:func:`undisplayable`):
    the bytes of a file name that is not UTF-8 (held by Python as surrogates) shown as
    ``\\xff`` escapes, and a backslash that would read as the start of an escape (before
    another backslash, an escape, or ``x`` and two hexadecimal digits) doubled. So two
    names never show alike: ``lat<0xE9>n.html`` is ``lat\\xe9n.html``, and a file named
    so, with a backslash, ``lat\\\\xe9n.html``."""
    if path == STDIN or not _TO_ESCAPE_RE.search(path):
        return path
    return _TO_ESCAPE_RE.sub(_escaped, path)


def undisplayable(shown: str) -> str:
    """The path that :func:`displayable` shows as ``shown`` (the name a record's ``path`` is for)."""
    return _ESCAPE_RE.sub(_unescaped, shown) if "\\" in shown else shown


#: What :func:`displayable` escapes: a byte that is not UTF-8 (a surrogate), and a backslash
#: that would read as the start of an escape.
_TO_ESCAPE_RE = re.compile(r"[\udc80-\udcff]|\\(?=[\\\udc80-\udcff]|x[0-9a-fA-F]{2})")
#: An escape of :func:`displayable`: a doubled backslash, or a byte.
_ESCAPE_RE = re.compile(r"\\\\|\\x([89a-fA-F][0-9a-fA-F])")


def _escaped(match: re.Match[str]) -> str:
    char = match.group(0)
    return "\\\\" if char == "\\" else f"\\x{ord(char) - 0xDC00:02x}"


def _unescaped(match: re.Match[str]) -> str:
    return "\\" if match.group(1) is None else chr(0xDC00 + int(match.group(1), 16))


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


class Skipped(str):
    """A path found in a folder that is not opened, and why (:attr:`reason`): a special
    file (a named pipe, a device, a socket), which can block a reader or never end, or a
    folder that cannot be read. :func:`iter_pages` gives it an error record, so that it
    is not passed over in silence."""

    reason: str

    def __new__(cls, path: str, reason: str) -> Skipped:
        self = super().__new__(cls, path)
        self.reason = reason
        return self

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        return str(self), self.reason


def expand_inputs(args: Iterable[str], glob: str | None = None) -> Iterator[str]:
    """File paths from ``args``: files as given, folders walked for HTML files.

    A folder yields the files below it (recursively, in sorted order, symbolic links to
    folders not followed) whose name matches :data:`HTML_PATTERNS`, or ``glob`` when
    given (matched from the right: ``*.warc.gz``, ``2024/*.html``). Names are compared in
    lower case, the patterns' and ``glob``'s alike. A special file found so is yielded as
    :class:`Skipped` (a path named on its own is read, be it a pipe: ``<(zcat x.warc.gz)``).
    """
    for arg in args:
        if arg != STDIN and os.path.isdir(arg):
            yield from _walk(arg, glob)
        else:
            yield arg


def _walk(folder: str, glob: str | None) -> Iterator[str]:
    """The files of ``folder`` that match, in order; a folder in it that cannot be read
    (no permission) as :class:`Skipped`, where its files would have been."""
    unreadable: list[OSError] = []
    for root, dirs, files in os.walk(folder, onerror=unreadable.append):
        yield from _unreadable_folders(unreadable)
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if _matches(PurePath(os.path.relpath(path, folder)), glob):
                kind = _special_kind(path)
                yield path if kind is None else Skipped(path, f"not a regular file but {kind}: skipped, "
                                                              "not read (it could block the run)")
    yield from _unreadable_folders(unreadable)


def _unreadable_folders(errors: list[OSError]) -> Iterator[str]:
    """The folders that could not be listed so far (``errors`` from os.walk), emptied."""
    for error in errors:
        reason = f"cannot read the folder: {error.strerror or error}; its files are not read"
        yield Skipped(os.fsdecode(error.filename), reason)
    errors.clear()


def _special_kind(path: str) -> str | None:
    """What kind of special file ``path`` is (its target, for a symbolic link), None for a
    regular file or one that cannot be looked at (the worker reading it says why)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    kinds = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))
    return next((kind for test, kind in kinds if test(mode)), "a special file")


def _matches(relative: PurePath, glob: str | None) -> bool:
    if glob is not None:  # in lower case, as the default patterns: '*.HTML' finds x.html
        return PurePath(str(relative).lower()).match(glob.lower())
    name = relative.name.lower()
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in HTML_PATTERNS)


def is_warc(path: str, stdin: IO[bytes] | None = None, timeout: float | None = None) -> bool:
    """Whether the file at ``path`` is a WARC file (see the module notes).

    Standard input (``-``) and a pipe or device named by a path (``<(zcat x.warc.gz)``,
    ``/dev/stdin``) can be read once only: their first bytes are read to look at and kept,
    in front of the rest, for :func:`iter_pages` to read from; ``timeout``: the seconds
    such a stream may wait for its next bytes (None or 0: no limit).
    """
    if isinstance(path, Skipped):
        return False
    name = path.lower()
    if name.endswith(WARC_SUFFIXES):
        return True
    sniffed = _sniffed(path, stdin, timeout)
    if sniffed is not None:
        return _starts_as_warc(sniffed[0])
    if _matches(PurePath(name), None):
        return False    # (an HTML-named WARC file is refused when read as a page)
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return False  # the worker reading it says why
    return _starts_as_warc(head)


#: How much of a file's start is read to tell a WARC file.
_HEAD_BYTES = 512


def _starts_as_warc(head: bytes) -> bool:
    """Whether ``head``, the first bytes of a file (gzip-compressed or not), start a WARC file."""
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16)
        except zlib.error:
            return False
    return head.startswith(b"WARC/")


#: Standard input and the pipes and devices looked at by :func:`is_warc`: their first bytes
#: and a reader that gives them again, then the rest, by path (standard input by the
#: stream's identity too), until :func:`iter_pages` reads them.
_SNIFFED: dict[tuple[str, int], tuple[bytes, IO[bytes]]] = {}


def _sniffed(path: str, stdin: IO[bytes] | None = None,
             timeout: float | None = None) -> tuple[bytes, IO[bytes]] | None:
    """The first bytes of standard input (``-``) or of the pipe or device ``path`` names,
    and a reader of all its bytes (waiting ``timeout`` seconds at most at a time); None for a
    regular file, a folder or a path that cannot be opened (the worker reading it says why)."""
    key = _sniff_key(path, stdin)
    if key in _SNIFFED:
        return _SNIFFED[key]
    timeout = timeout or None       # (0: no limit, as for a page)
    stream: IO[bytes]
    if path == STDIN:
        stream = stdin if stdin is not None else _stdin()
        if timeout and _CAN_POLL:
            stream = _timed_stdin(stream, timeout)
    else:
        try:
            mode = os.stat(path).st_mode
            if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
                return None
            if not _CAN_POLL:
                stream = open(path, "rb")  # noqa: SIM115 - kept open for iter_pages, which closes it
            else:   # (not blocking: open() of a named pipe would wait for a writer, without limit)
                descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                stream = io.BufferedReader(_Timed(io.FileIO(descriptor, "rb"), timeout))
        except (OSError, ValueError):
            return None
    try:
        head = _read_up_to(stream, _HEAD_BYTES)
    except OSError:         # (the reader says it again when it is read for the page)
        head = b""
    _SNIFFED[key] = head, io.BufferedReader(_Prefixed(head, stream, owned=path != STDIN))
    return _SNIFFED[key]


def _sniff_key(path: str, stdin: IO[bytes] | None) -> tuple[str, int]:
    """Where :data:`_SNIFFED` keeps ``path``: standard input also by the stream's identity."""
    return path, id(stdin if stdin is not None else _stdin()) if path == STDIN else 0


def _timed_stdin(stream: IO[bytes], timeout: float) -> IO[bytes]:
    """Standard input read with a limit on the wait for its bytes, where it is a pipe or a
    terminal (read first here: nothing of it is buffered yet); else as it is (a file, or a
    stream without a descriptor)."""
    try:
        descriptor = stream.fileno()
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            return stream
    except (OSError, ValueError, io.UnsupportedOperation):
        return stream
    return io.BufferedReader(_Timed(io.FileIO(descriptor, "rb", closefd=False), timeout))


class _Timed(io.RawIOBase):
    """A pipe's (or device's) bytes, each wait for them ``timeout`` seconds at most (None:
    no limit), then ReadTimeoutError: a pipe that no program writes to would otherwise hold
    the run forever, while a slow one that keeps writing is read to its end."""

    def __init__(self, stream: io.FileIO, timeout: float | None) -> None:
        self.stream, self.timeout = stream, timeout
        self._poll: Any = None
        self._expired: ReadTimeoutError | None = None   # (a pipe that timed out is not waited for again)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._expired is not None:
            raise self._expired
        if self._poll is None:
            self._poll = select.poll()
            self._poll.register(self.stream.fileno(), select.POLLIN)
        while True:
            # (polled first: a pipe opened without blocking reads as ended until a writer comes)
            events = self._poll.poll(None if self.timeout is None else self.timeout * 1000)
            if not events:
                self._expired = ReadTimeoutError(f"no bytes came for {self.timeout:g} s (the time limit, "
                                                 "--timeout)")
                raise self._expired
            if any(event & select.POLLNVAL for _, event in events):
                # a descriptor poll cannot watch (a device, on some systems): read as before
                os.set_blocking(self.stream.fileno(), True)
                return self.stream.readinto(buffer) or 0
            count = self.stream.readinto(buffer)
            if count is not None:   # (None: no bytes after all; wait again)
                return count

    def close(self) -> None:
        self.stream.close()
        super().close()


def _read_up_to(stream: IO[bytes], size: int) -> bytes:
    """``size`` bytes of ``stream``, fewer only at its end (a pipe gives what it has)."""
    chunks: list[bytes] = []
    got = 0
    while got < size:
        chunk = stream.read(size - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


class _Prefixed(io.RawIOBase):
    """A stream whose first bytes were read to look at, with them put back in front; it
    counts the bytes it gave (FastWARC asks where it is, which a pipe cannot answer).
    Closing it closes the stream when it is ``owned`` (opened here, not the caller's)."""

    def __init__(self, head: bytes, stream: IO[bytes], owned: bool = False) -> None:
        self.head, self.stream, self.position, self.owned = head, stream, 0, owned

    def close(self) -> None:
        if self.owned and not self.closed:
            self.stream.close()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            data, self.head = self.head[:len(buffer)], self.head[len(buffer):]
        else:
            data = self.stream.read(len(buffer)) or b""
        buffer[:len(data)] = data
        self.position += len(data)
        return len(data)

    def tell(self) -> int:
        return self.position


def warc_pages(path_or_stream: str | os.PathLike[str] | IO[bytes],
               report: Callable[[str], None] | None = None,
               name: str | None = None) -> Iterator[tuple[Source, bytes | InvalidPageError]]:
    """The HTML response records of a WARC file (a path, or a binary stream, a pipe too),
    in file order; ``name`` names a stream in the records (default: its ``name``).

    Each record's HTTP headers are stripped and its body decoded (chunks, gzip, deflate,
    brotli: :func:`~newsml.input.http_body.decode_body`), at most
    :data:`~newsml.input.read.MAX_PAGE_BYTES` + 1 bytes of it (a longer one is then
    refused as too large when it is extracted); a body that cannot be decoded comes as the
    InvalidPageError saying why, in its place, and the records after it are read. Records
    of other types, and responses whose HTTP Content-Type names something else than
    HTML, are skipped; a response
    without one is a page (the extractor refuses what is not HTML). A file without any
    page is told to ``report`` (default: stderr), so that it is not passed over in
    silence. Raises InvalidPageError when the file is not a WARC file or is corrupt.
    """
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    if isinstance(path_or_stream, (str, os.PathLike)):
        path = os.fspath(path_or_stream)
        with open(path, "rb") as stream:
            yield from _records(ArchiveIterator, WarcRecordType, _seekable_or_counted(stream),
                                name or path, report)
    else:
        yield from _records(ArchiveIterator, WarcRecordType, _seekable_or_counted(path_or_stream),
                            name or str(getattr(path_or_stream, "name", "<stream>")), report)


def _seekable_or_counted(stream: IO[bytes]) -> IO[bytes]:
    """``stream`` as FastWARC can read it: it asks where it is (``tell``), which a pipe
    cannot answer (FastWARC then panics), so a pipe's bytes are counted for it."""
    try:
        if stream.seekable():
            return stream
    except (OSError, ValueError):
        pass
    if isinstance(stream, io.BufferedReader) and isinstance(stream.raw, _Prefixed):
        return stream              # (its raw stream counts already)
    return io.BufferedReader(_Prefixed(b"", stream))


def _records(archive: Any, types: Any, stream: IO[bytes], name: str,
             report: Callable[[str], None] | None) -> Iterator[tuple[Source, bytes | InvalidPageError]]:
    # bodies are decoded here (decode_body), not by FastWARC: its error on one record's
    # body ended the file there, and it decodes without a bound
    records = archive(stream, record_types=types.any_type, parse_http=True, auto_decode="none")
    responses = skipped = pages = 0       # (responses: those read whole)
    try:
        for record in records:
            if record.record_type != types.response or not _is_html(record.http_content_type):
                responses += record.record_type == types.response
                skipped += 1
                continue
            pages += 1
            source = Source(path=name, url=record.headers.get("WARC-Target-URI"),
                            record_id=record.record_id or f"{displayable(name)}#{responses + 1}")
            body = record.reader.read(MAX_PAGE_BYTES + 1)
            if len(body) < min(record.content_length, MAX_PAGE_BYTES + 1):
                raise EOFError(f"the record of {source.url or source.record_id} is cut off "
                               f"({len(body):,} of its {record.content_length:,} bytes)")
            responses += 1
            yield source, _decoded(record, body)
    except (OSError, ValueError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
        where = f"after {responses} response records" if responses else "at its start"
        raise InvalidPageError(f"cannot read the WARC file {displayable(name)} {where}: {exc}") from None
    if not pages:
        records_skipped = f"{skipped} record" + ("s" if skipped != 1 else "")
        (report or _to_stderr)(f"{displayable(name)}: no HTML response records ({records_skipped} skipped)")


def _decoded(record: Any, body: bytes) -> bytes | InvalidPageError:
    """A response record's body as sent (``body``), decoded; or the error saying why it
    cannot be, for that record's output record."""
    http = record.http_headers
    if http is None:
        return body
    try:
        return decode_body(body, http.get("Transfer-Encoding"), http.get("Content-Encoding"), MAX_PAGE_BYTES)
    except InvalidPageError as exc:
        return InvalidPageError(f"cannot decode the body of this WARC record: {exc}")


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
               warc: AbstractSet[str] | None = None,
               timeout: float | None = None) -> Iterator[tuple[Source, Payload]]:
    """Every page of ``paths`` (files, WARC files, ``-``; see :func:`expand_inputs` for
    folders), in order, with its :data:`Payload`. ``warc``: the paths known to be WARC
    files (others are not), else :func:`is_warc` looks at each; ``timeout``: as there.

    A WARC file that cannot be read yields one ``(Source(path), error)`` after the
    records read before the damage; one without any page is told to ``report`` (default:
    stderr). A :class:`Skipped` path yields its error, and is never opened.
    """
    for path in paths:
        if isinstance(path, Skipped):
            yield Source(str(path)), InvalidPageError(path.reason)
            continue
        sniffed = _sniffed(path, stdin, timeout)
        if sniffed is not None:
            del _SNIFFED[_sniff_key(path, stdin)]       # read once: not kept past this
            yield from _stream_pages(path, sniffed, report)
        elif (path in warc) if warc is not None else is_warc(path, timeout=timeout):
            try:
                yield from warc_pages(path, report)
            except (InvalidPageError, OSError) as exc:
                yield Source(path), exc
        else:
            yield Source(path), None


def _stream_pages(path: str, sniffed: tuple[bytes, IO[bytes]],
                  report: Callable[[str], None] | None) -> Iterator[tuple[Source, Payload]]:
    """The page, or the WARC records, of standard input or of a pipe named by ``path``
    (``sniffed``: its first bytes and a reader of all of them): read here, once (a worker
    could not read them again)."""
    head, reader = sniffed
    try:
        if _starts_as_warc(head):
            try:
                yield from warc_pages(reader, report, name=path)
            except (InvalidPageError, OSError) as exc:
                yield Source(path), exc
        else:
            try:
                data = reader.read(MAX_PAGE_BYTES + 1)
            except OSError as exc:
                reason = exc.strerror or exc
                yield Source(path), InvalidPageError(f"cannot read {displayable(path)}: {reason}")
            else:
                yield Source(path), data
    finally:
        if path != STDIN:
            reader.close()


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
