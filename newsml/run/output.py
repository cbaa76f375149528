"""Writing results without clobbering anything: the output side of the command line.

:class:`Output` writes to a file or to standard output:

- a file is checked before any page is read (:func:`check_output`): not a folder, its
  folder exists, and not the same file (same device and inode, so hard links and
  symbolic links count) as any input, standard input included;
- a regular file is written to a file beside it (:func:`partial_path`: ``.NAME.partial``),
  renamed into place by :meth:`Output.commit`; a run that never commits (every page
  failed, or a crash) leaves an existing file as it was. A run killed before it could
  commit leaves that file, one per output, which the next run continues (``--resume``)
  or replaces (``--force``). Devices and pipes (``/dev/null``, ``/dev/full``, a FIFO)
  are written in place: renaming over them would replace them;
- with ``append=True`` (``predict --resume``) a file is appended to in place instead,
  and what was written stays, committed or not: every line is a finished record;
- one run at a time writes a file: :class:`OutputLock` holds a lock beside it, and a
  second run is refused while the first lasts;
- a file whose name ends in ``.gz`` is written gzip-compressed (``out.jsonl.gz``);
- every write error (a full disk, ``/dev/full``, a closed pipe) becomes an
  :class:`~newsml.errors.OutputError` naming the output, never a traceback.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import IO, Any, TextIO

from ..errors import OutputError
from ..input.sources import STDIN
from .stops import stops_held

#: Names of standard output that ``-o`` takes as standard output itself.
STDOUT_NAMES = frozenset({"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def input_identities(inputs: Iterable[str | Path]) -> set[tuple[int, int]]:
    """(device, inode) of each input that exists: files by name, ``-`` as standard input."""
    found = set()
    for name in inputs:
        try:
            info = os.fstat(sys.stdin.fileno()) if str(name) == STDIN else os.stat(name)
        except (OSError, ValueError, AttributeError):  # missing, or a stdin without a descriptor
            continue
        if stat.S_ISREG(info.st_mode):
            found.add(_identity(info))
    return found


def check_output(path: str | Path, inputs: Iterable[str | Path] = (), what: str = "input pages") -> Path:
    """The real path ``path`` names (symbolic links followed) if it can take the output.

    Raises OutputError for a folder, a missing or read-only folder, or a file that is one
    of ``inputs`` (``what`` they are, for the message).
    """
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory; give a file name")
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {path}: {folder} is not a writable folder (it does not exist)")
    try:
        info = os.stat(target)
    except FileNotFoundError:
        if not os.access(folder, os.W_OK):
            raise OutputError(f"cannot write {path}: {folder} is not a writable folder") from None
        return target
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    if _identity(info) in input_identities(inputs):
        raise OutputError(f"cannot write {path}: it is one of the {what} (the same file); "
                          "refusing to overwrite it")
    if stat.S_ISREG(info.st_mode) and not os.access(folder, os.W_OK):
        raise OutputError(f"cannot write {path}: {folder} is not a writable folder")
    return target


class Output:
    """A text destination: standard output (``path`` None) or a file, replaced atomically.

    Use as a context manager; call :meth:`commit` when the output is complete. Leaving
    the block without a commit discards what was written to a file. With ``binary``, a
    file takes bytes as they are (a page copied in its own encoding).
    """

    def __init__(self, path: str | Path | None = None, inputs: Iterable[str | Path] = (),
                 stdout: TextIO | None = None, append: bool = False, binary: bool = False,
                 lock: OutputLock | None = None):
        self.path = Path(path) if path is not None else None
        self._lock = lock                            # released when the block ends
        self.written = 0
        self._tmp: str | None = None
        self._target: Path | None = None
        self._done = False
        self._stream: IO[Any]
        self._file: IO[bytes] | None = None        # the file itself, under any gzip and text layers
        if self.path is None:
            self._stream = stdout if stdout is not None else sys.stdout
            if binary:
                self._stream = self._stream.buffer
            return
        self._target = check_output(self.path, inputs)
        if append and is_compressed(self.path):
            raise OutputError(f"cannot append to {self.path}: a gzip output is written whole")
        try:
            if self._target.exists() and not stat.S_ISREG(os.stat(self._target).st_mode):
                self._file = open(self._target, "wb")  # noqa: SIM115
            elif append:
                self._file = open(self._target, "ab")  # noqa: SIM115
            else:
                self._tmp = str(partial_path(self._target))
                self._file = open(self._tmp, "wb")  # noqa: SIM115
        except OSError as exc:
            raise self._error(exc) from None
        layer: IO[bytes] = self._file
        if is_compressed(self.path):
            layer = gzip.GzipFile(filename="", mode="wb", fileobj=self._file)  # type: ignore[assignment]
        self._stream = layer if binary else io.TextIOWrapper(layer, encoding="utf-8")

    def write(self, text: str | bytes) -> None:
        """Write ``text`` (bytes with ``binary``); raises OutputError when the destination refuses it."""
        try:
            self._stream.write(text)
        except OSError as exc:
            raise self._error(exc) from None
        except UnicodeError as exc:  # text the encoding cannot hold (a lone surrogate)
            raise self._error(exc) from None
        self.written += len(text)

    def flush(self) -> None:
        """Hand what was written to the system, so that it outlives this process (a KILL):
        a plain file's lines are then whole up to the last one. A gzip output is not
        flushed (each flush would end a compressed block: a larger file)."""
        if self.path is None or is_compressed(self.path):
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._error(exc) from None

    def commit(self) -> None:
        """Make the output final: flush it and, for a file, rename it into place (Ctrl-C and
        SIGTERM held back meanwhile: stopping here would drop the finished output)."""
        with stops_held():
            self._commit()

    def _commit(self) -> None:
        try:
            self._stream.flush()
            if self._file is not None:
                layer = self._stream.detach() if isinstance(self._stream, io.TextIOWrapper) else self._stream
                if isinstance(layer, gzip.GzipFile):
                    layer.close()               # the gzip trailer written; the file stays open
                if self._tmp is not None or stat.S_ISREG(os.fstat(self._file.fileno()).st_mode):
                    self._file.flush()
                    os.fsync(self._file.fileno())
                self._file.close()
            if self._tmp is not None:
                mode = os.stat(self._target).st_mode & 0o777 if self._target and self._target.exists() \
                    else 0o666 & ~_umask()
                os.chmod(self._tmp, mode)
                os.replace(self._tmp, str(self._target))
                self._tmp = None
        except OSError as exc:
            raise self._error(exc) from None
        finally:
            self._done = True
            self.discard()

    def discard(self) -> None:
        """Drop what was written to a temporary file (an existing output stays as it was)."""
        if self.path is not None:
            for stream in (self._stream, self._file):
                if stream is not None:
                    with contextlib.suppress(OSError, ValueError):
                        stream.close()
        if self._tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._tmp)
            self._tmp = None

    def __enter__(self) -> Output:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if not self._done:
            self.discard()
        if self._lock is not None:
            self._lock.release()
        if self.path is None and isinstance(value, OSError | OutputError):
            silence_stdout()

    def _error(self, exc: OSError | UnicodeError) -> OutputError:
        where = str(self.path) if self.path is not None else "standard output"
        if self.path is None:
            silence_stdout()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return OutputError(f"cannot write {where}: {reason}")


class OutputLock:
    """One run at a time per output file: an exclusive lock (``flock``) on ``.NAME.lock``
    beside the file ``target``, held until :meth:`release`, which removes it. Raises
    OutputError naming the output (``shown``) when another run holds it. Where there is
    no ``fcntl`` (Windows), nothing is locked."""

    def __init__(self, target: Path, shown: str | Path) -> None:
        self.path = target.parent / f".{target.name}.lock"
        self._fd: int | None = None
        try:
            import fcntl
        except ImportError:
            return
        while self._fd is None:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            except OSError as exc:
                raise OutputError(f"cannot write {shown}: cannot create {self.path}: "
                                  f"{exc.strerror or exc}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise OutputError(f"another newsml run is writing {shown} (it holds {self.path}): "
                                  "wait for it to end, or give another -o") from None
            except OSError:     # a file system without locks: the run goes on unlocked
                os.close(fd)
                return
            if self._same_file(fd):
                self._fd = fd
            else:           # removed by the run that held it, between our open and our lock
                os.close(fd)

    def _same_file(self, fd: int) -> bool:
        try:
            return os.fstat(fd).st_ino == os.stat(self.path).st_ino
        except OSError:
            return False

    def release(self) -> None:
        """Remove the lock file, then let the lock go (a run waiting on it opens it again)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self._fd)
        self._fd = None


def partial_path(target: str | Path) -> Path:
    """Where the output ``target`` is written until it is complete: ``.NAME.partial``
    beside it. One name per output, so that a run killed before it finished leaves one
    file that the next run finds (to continue or replace), never a heap of them."""
    target = Path(target)
    return target.parent / f".{target.name}.partial"


def is_compressed(path: str | Path) -> bool:
    """Whether output to ``path`` is gzip-compressed: its name ends in ``.gz``."""
    return Path(path).name.lower().endswith(".gz")


def silence_stdout() -> None:
    """Point standard output at the null device, so Python's last flush at exit cannot
    fail again on a full disk or a closed pipe (and print a traceback)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # a stdout without a descriptor (tests)
        pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
