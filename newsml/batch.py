"""Extracting many pages: one output record per page, in worker processes, within a time limit.

- :func:`page_record` extracts one page and never raises for the page's own failure: the
  record holds the article, or ``"error"`` saying why there is none, so that nothing is
  lost silently in a crawl of thousands of pages.
- :func:`time_limit` bounds a page's time with ``SIGALRM`` (Unix, main thread), which
  interrupts Python code; :class:`WorkerPool` also kills and replaces a worker stuck
  past twice the limit (in C code, which the alarm cannot interrupt) or one that died,
  and gives its page an error record.
- :class:`WorkerPool` runs N worker processes, each loading the model once; pages are
  handed out one at a time and records come back in input order, with at most
  :data:`WINDOW_PER_JOB` pages per worker in flight, so memory stays flat however many
  pages there are. Workers ignore Ctrl-C: the caller stops them and keeps what was done.
- :class:`RecordWriter` writes records as text, a JSON array (streamed) or JSON lines;
  :func:`completed_keys` reads a JSON-lines output back for ``--resume``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import multiprocessing
import os
import signal
import sys
import textwrap
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError, NewsmlError, OutputError
from .extract import extract_page
from .output import Output, check_output
from .page import load_page
from .parse import read_page
from .progress import ProgressHook, hook
from .sources import (
    HTML_PATTERNS,
    STDIN,
    Payload,
    Source,
    expand_inputs,
    iter_pages,
    read_list,
    record_key,
)

if TYPE_CHECKING:
    from .methods import NodeMethod

#: Pages handed out ahead of the oldest unfinished one, per worker: a bound on the
#: records held back to keep the output in input order.
WINDOW_PER_JOB = 64
#: The default time limit of a page, in seconds.
DEFAULT_TIMEOUT = 10.0


class PageTimeoutError(NewsmlError):
    """A page took longer than the time limit."""


# -- one page -----------------------------------------------------------------------------------

def describe(exc: BaseException) -> str:
    """One line saying what went wrong, for stderr and for an error record."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, NewsmlError):
        return str(exc)
    return f"{type(exc).__name__}: {exc} (run with --debug for details)"


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise PageTimeoutError in the block once ``seconds`` have passed (None or 0: no limit).

    Works in the main thread on Unix (``SIGALRM``); elsewhere the block runs unbounded.
    The alarm interrupts Python code, not a long call into C. Raises ConfigurationError
    for a negative ``seconds``.
    """
    check_timeout(seconds)
    if not seconds or not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise PageTimeoutError(f"took longer than {seconds:g} s (--timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_timeout(seconds: float | None) -> None:
    """Raise ConfigurationError unless ``seconds`` is a time limit: None, 0 (none) or positive."""
    if seconds is not None and not seconds >= 0:
        raise ConfigurationError(f"the time limit must be 0 (none) or more seconds, not {seconds:g}")


def page_record(data: bytes, scorer: NodeMethod, identity: dict[str, Any], timeout: float | None = None,
                *, debug: bool = False) -> dict[str, Any]:
    """``{**identity, **article.to_dict()}`` for the page ``data``, or ``{**identity, "error": ...}``
    when it cannot be extracted (not a page, too large, over ``timeout`` seconds, a bug).

    Never raises for the page's own failure (KeyboardInterrupt and SystemExit pass);
    raises ConfigurationError for a negative ``timeout``, the caller's.
    """
    check_timeout(timeout)
    try:
        with time_limit(timeout):
            article = extract_page(load_page(data), scorer)
        return {**identity, **article.to_dict()}
    except Exception as exc:
        if debug:
            traceback.print_exc()
        return {**identity, "error": describe(exc)}


def source_record(source: Source, payload: Payload, scorer: NodeMethod, timeout: float | None = None,
                  *, debug: bool = False) -> dict[str, Any]:
    """The record of one page from :func:`~newsml.sources.iter_pages`: a file (payload
    None) is read here, an error payload becomes an error record."""
    identity = source.identity()
    if isinstance(payload, Exception):
        return error_record(identity, payload)
    if payload is None:
        try:
            payload = _read(source.path)
        except Exception as exc:
            if debug:
                traceback.print_exc()
            return error_record(identity, exc)
    return page_record(payload, scorer, identity, timeout, debug=debug)


def _read(path: str) -> bytes:
    data = read_page(Path(path))
    assert isinstance(data, bytes)
    return data


def error_record(identity: dict[str, Any], exc: BaseException | str) -> dict[str, Any]:
    """The record of a page that has no article."""
    return {**identity, "error": exc if isinstance(exc, str) else describe(exc)}


# -- the method ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScorerSpec:
    """Which method to extract with, loadable in a worker: a registered name, or a model file."""

    method: str = "default"
    model: str | None = None

    def load(self) -> NodeMethod:
        """The method: the model file's, else the named method (its shipped model if any)."""
        from .persistence import get_method, load_model

        if self.model is not None:
            return load_model(self.model)[0]
        return get_method(self.method)


#: The environment variables that set the threads of the math libraries.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def limited_threads() -> Iterator[None]:
    """One thread per math library (BLAS, OpenMP) in the block: the parallelism of batch
    extraction is its processes, and N processes of N threads each oversubscribe. The
    environment and the libraries' thread pools are restored when the block ends, so a
    Python caller's process is left as it was."""
    saved = {variable: os.environ.get(variable) for variable in THREAD_VARIABLES}
    for variable in THREAD_VARIABLES:
        os.environ.setdefault(variable, "1")
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - installed with newsml
        limits = None
    else:
        limits = threadpool_limits(1)
    try:
        yield
    finally:
        if limits is not None:
            limits.restore_original_limits()
        for variable, value in saved.items():
            if value is None:
                os.environ.pop(variable, None)
            else:
                os.environ[variable] = value


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


# -- many pages ---------------------------------------------------------------------------------

Extractor = Callable[[Iterable[tuple[Source, Payload]]], Iterator[dict[str, Any]]]


@contextlib.contextmanager
def extraction(spec: ScorerSpec, jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
               debug: bool = False) -> Iterator[Extractor]:
    """A function from pages to their records, in order, in a :class:`WorkerPool` of
    ``jobs`` workers (started here, stopped when the block ends).

    With a ``timeout``, one job is one worker too: the pool's hard limit then stops a page
    stuck in C code, which the alarm cannot interrupt (where the platform forks, the
    worker gets the method loaded here, so it costs little). Without one, one job runs in
    this process. Raises NewsmlError when the method cannot be loaded, ConfigurationError
    for a negative ``timeout``.
    """
    check_timeout(timeout)
    if jobs <= 1 and not timeout:
        scorer = spec.load()

        def in_process(pages: Iterable[tuple[Source, Payload]]) -> Iterator[dict[str, Any]]:
            for source, payload in pages:
                yield source_record(source, payload, scorer, timeout, debug=debug)

        with limited_threads():
            yield in_process
        return
    with WorkerPool(spec, max(jobs, 1), timeout, debug) as pool:
        yield pool.records


class _Worker:
    """One worker process and the page it is extracting."""

    def __init__(self, context: Any, method: ScorerSpec | NodeMethod, timeout: float | None,
                 debug: bool) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, method, timeout, debug), daemon=True)
        self.process.start()
        child.close()
        self.task: tuple[int, Source, float] | None = None

    def ready(self) -> None:
        """Wait until the worker has loaded the method; raise NewsmlError if it could not."""
        try:
            status, message = self.conn.recv()
        except (EOFError, OSError):
            self.process.join(1)
            raise NewsmlError(f"a worker process ended while loading the method "
                              f"(exit code {self.process.exitcode})") from None
        if status != "ready":
            raise NewsmlError(message)

    def send(self, seq: int, source: Source, payload: Payload) -> None:
        self.conn.send((seq, source, payload))
        self.task = (seq, source, time.monotonic())

    def stop(self, kill: bool = False) -> None:
        if not kill:
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
            self.process.join(2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _serve(conn: Connection, method: ScorerSpec | NodeMethod, timeout: float | None, debug: bool) -> None:
    """A worker's life: load the method once (unless forked with it), then extract the pages
    it is sent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    with limited_threads():
        _serve_pages(conn, method, timeout, debug)


def _serve_pages(conn: Connection, method: ScorerSpec | NodeMethod, timeout: float | None,
                 debug: bool) -> None:
    try:
        scorer = method.load() if isinstance(method, ScorerSpec) else method
    except Exception as exc:
        conn.send(("failed", describe(exc)))
        return
    conn.send(("ready", ""))
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        seq, source, payload = task
        conn.send((seq, source_record(source, payload, scorer, timeout, debug=debug)))


class WorkerPool:
    """``jobs`` worker processes extracting pages, records in input order (see the module notes).

    Use as a context manager; :meth:`records` maps pages to records. Where the platform
    can fork, the method is loaded once here and the workers are forked with it (a copy
    of each page of memory only when written); elsewhere each worker loads it.
    """

    def __init__(self, spec: ScorerSpec, jobs: int, timeout: float | None = DEFAULT_TIMEOUT,
                 debug: bool = False) -> None:
        self.spec = spec
        self.jobs = jobs
        self.timeout = timeout
        self.debug = debug
        self._fork = "fork" in multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context("fork" if self._fork else None)
        self._method: ScorerSpec | NodeMethod = spec
        self._workers: list[_Worker] = []

    @property
    def hard_limit(self) -> float | None:
        """Seconds after which a worker still on one page is killed: the alarm failed."""
        return 2 * self.timeout + 1 if self.timeout else None

    def __enter__(self) -> WorkerPool:
        if self._fork:
            self._method = self.spec.load()
            gc.freeze()  # the collector in a worker then leaves the parent's objects (and pages) alone
        try:
            self._workers = [self._start() for _ in range(self.jobs)]
            for worker in self._workers:
                worker.ready()
        except BaseException:
            self.close(kill=True)
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(kill=exc_info[0] is not None)

    def close(self, kill: bool = False) -> None:
        """Stop every worker (kill: at once, dropping the pages they hold)."""
        for worker in self._workers:
            worker.stop(kill=kill or worker.task is not None)
        self._workers = []
        if self._fork:
            gc.unfreeze()

    def _start(self) -> _Worker:
        return _Worker(self._context, self._method, self.timeout, self.debug)

    def _replace(self, worker: _Worker) -> None:
        worker.stop(kill=True)
        fresh = self._start()
        self._workers[self._workers.index(worker)] = fresh
        fresh.ready()

    def _send(self, index: int, seq: int, source: Source, payload: Payload) -> None:
        """Hand a page to worker ``index``; a worker that died while idle is replaced first."""
        try:
            self._workers[index].send(seq, source, payload)
        except (OSError, ValueError):
            self._replace(self._workers[index])
            self._workers[index].send(seq, source, payload)

    def records(self, pages: Iterable[tuple[Source, Payload]]) -> Iterator[dict[str, Any]]:
        """The record of each page, in the order of ``pages``."""
        todo = iter(pages)
        window = WINDOW_PER_JOB * self.jobs
        done: dict[int, dict[str, Any]] = {}
        sent = emitted = 0
        exhausted = False
        while True:
            for index in range(len(self._workers)):
                while not exhausted and self._workers[index].task is None and sent - emitted < window:
                    item = next(todo, None)
                    if item is None:
                        exhausted = True
                        break
                    source, payload = item
                    if isinstance(payload, Exception):  # nothing to extract: no worker needed
                        done[sent] = error_record(source.identity(), payload)
                    else:
                        self._send(index, sent, source, payload)
                    sent += 1
            while emitted in done:
                yield done.pop(emitted)
                emitted += 1
            busy = [worker for worker in self._workers if worker.task is not None]
            if not busy:
                if exhausted and emitted == sent:
                    return
                continue
            self._collect(busy, done)

    def _collect(self, busy: list[_Worker], done: dict[int, dict[str, Any]]) -> None:
        """Wait for a record from any busy worker; replace the dead and the stuck ones."""
        limit = self.hard_limit
        wait_for = None
        if limit is not None:
            oldest = min(worker.task[2] for worker in busy if worker.task is not None)
            wait_for = max(0.0, oldest + limit - time.monotonic())
        ready = wait([worker.conn for worker in busy], timeout=wait_for)
        for worker in busy:
            assert worker.task is not None
            seq, source, started = worker.task
            if worker.conn in ready:
                try:
                    seq, record = worker.conn.recv()
                except (EOFError, OSError):
                    worker.process.join(1)
                    done[seq] = error_record(source.identity(), f"the worker process extracting it died "
                                             f"(exit code {worker.process.exitcode})")
                    self._replace(worker)
                    continue
                done[seq] = record
                worker.task = None
            elif limit is not None and time.monotonic() - started > limit:
                done[seq] = error_record(source.identity(), PageTimeoutError(
                    f"took longer than {self.timeout:g} s (--timeout); its worker was stopped"))
                self._replace(worker)


# -- output -------------------------------------------------------------------------------------

class RecordWriter:
    """Records to an :class:`~newsml.output.Output` as ``text``, ``json`` or ``jsonl``.

    jsonl is one record a line, error records included; json is one object (``single``)
    or an array streamed record by record; text is the title and the body of each
    article (a ``==> name <==`` line first unless ``single``; errors only on stderr).
    """

    def __init__(self, output: Output, fmt: str, single: bool = False) -> None:
        self.output = output
        self.format = fmt
        self.single = single
        self.count = 0
        self._started = False
        self._closed = False

    def start(self) -> None:
        """Begin the output (the opening bracket of a json array), before the first record:
        a Ctrl-C in :meth:`write` then still leaves :meth:`close` a valid array to end."""
        if self.format == "json" and not self.single and not self._started:
            self._started = True
            self.output.write("[")

    def write(self, record: dict[str, Any]) -> None:
        """Write one record."""
        if self.format == "jsonl":
            self.output.write(json.dumps(record, ensure_ascii=False) + "\n")
        elif self.format == "json":
            text = json.dumps(record, ensure_ascii=False, indent=2)
            if self.single:
                self.output.write(text + "\n")
            else:
                self.start()
                self.output.write(("\n" if self.count == 0 else ",\n") + textwrap.indent(text, "  "))
        elif "error" not in record:
            self._write_text(record)
        self.count += 1

    def _write_text(self, record: dict[str, Any]) -> None:
        if not self.single:
            self.output.write(f"==> {record.get('url') or record['path']} <==\n")
        if record["title"]:
            self.output.write(f"{record['title']}\n\n")
        self.output.write(f"{record['text']}\n")
        if not self.single:
            self.output.write("\n")

    def close(self) -> None:
        """End the output (the closing bracket of a json array)."""
        if self._closed:
            return
        self._closed = True
        if self.format == "json" and not self.single:
            self.start()
            self.output.write("\n]\n" if self.count else "]\n")


def completed_keys(path: str | Path, report: Callable[[str], None] | None = None) -> set[str]:
    """The keys (:attr:`~newsml.sources.Source.key`) of the records in a JSON-lines output,
    for ``--resume``.

    A last line that is a whole record but lacks its newline gets one. A last line that is
    not a record, after at least one that is (a run killed while writing it), is removed,
    so that appending continues a valid file; ``report`` (default: stderr) is told what
    was dropped. Raises OutputError when the file cannot be read, or when its first line
    or a line before the last is not a record: it is then not a newsml output.
    """
    report = report if report is not None else _to_stderr
    keys: set[str] = set()
    try:
        with open(path, "rb+") as handle:
            good_end = 0
            for number, line in enumerate(handle, 1):
                record = _parse_line(line)
                if record is None:
                    if number == 1 or handle.read(1):  # not a newsml output, or not its end
                        raise OutputError(f"cannot resume {path}: line {number} is not a JSON record "
                                          "(is it a newsml JSON-lines output?)")
                    handle.truncate(good_end)
                    report(f"newsml: {path}: dropped its last line, not a whole record "
                           f"(a run cut short?): {_preview(line)}")
                    break
                key = record_key(record)
                if key is None:
                    raise OutputError(f"cannot resume {path}: line {number} names no page (no path)")
                keys.add(key)
                good_end += len(line)
                if not line.endswith(b"\n"):  # a whole record: keep it, end its line
                    handle.seek(good_end)
                    handle.write(b"\n")
    except OSError as exc:
        raise OutputError(f"cannot resume {path}: {exc.strerror or exc}") from None
    return keys


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _preview(line: bytes, width: int = 60) -> str:
    text = line.decode("utf-8", "backslashreplace").rstrip("\n")
    return repr(text if len(text) <= width else text[:width] + "...") + f" ({len(line)} bytes)"


def _parse_line(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def stderr_line(record: dict[str, Any]) -> str | None:
    """The stderr line of an error record (None for an article)."""
    if "error" not in record:
        return None
    name = f"{record['path']} {record['url']}" if record.get("url") else record["path"]
    return f"newsml: error: {name}: {record['error']}"


# -- a run of the command line -----------------------------------------------------------------

def output_format(fmt: str | None, output: str | Path | None) -> str:
    """The format asked for, else the one the output's name implies (``.jsonl``, ``.json``),
    else text."""
    if fmt is not None:
        return fmt
    suffix = Path(output).suffix.lower() if output is not None else ""
    return {".jsonl": "jsonl", ".json": "json"}.get(suffix, "text")


def collect_paths(args: Iterable[str], from_file: str | None = None, glob: str | None = None) -> list[str]:
    """The files to read: ``args`` then the paths listed in ``from_file``, folders expanded.

    Raises NewsmlError when there is none, or standard input is asked for twice.
    """
    args = list(args)
    listed = list(read_list(from_file)) if from_file is not None else []
    if from_file == STDIN and STDIN in args + listed:
        raise NewsmlError("standard input cannot be both the list of paths (--from-file -) and a page ('-')")
    paths = list(expand_inputs(args + listed, glob))
    if not paths:
        if not args and not listed:
            raise NewsmlError("no pages given: name files or folders, or --from-file LIST")
        raise NewsmlError(f"no pages found: no file matches {glob or ', '.join(HTML_PATTERNS)} "
                          "in the folders given (--glob chooses other names)")
    return paths


def open_output(output: str | Path | None, paths: list[str], fmt: str, resume: bool = False,
                force: bool = False) -> tuple[Output, set[str]]:
    """The output to write to, and the keys of the pages it already holds (``resume``).

    An existing file is refused unless ``force`` (replace it) or ``resume`` (append the
    pages it lacks). Raises NewsmlError (OutputError) saying what to do.
    """
    if resume and force:
        raise NewsmlError("--resume continues the output and --force replaces it: give one")
    if resume and (output is None or fmt != "jsonl"):
        raise NewsmlError("--resume needs a JSON-lines output file (-o FILE.jsonl)")
    done: set[str] = set()
    if output is not None:
        check_output(output, paths)  # not a folder, not one of the inputs: before anything else
    if output is not None and os.path.isfile(output):
        if resume:
            done = completed_keys(output)
        elif not force:
            raise OutputError(f"{output} exists: --force replaces it, --resume (JSON lines) "
                              "adds the pages it lacks")
    return Output(output, inputs=paths, append=resume), done


@dataclass
class Outcome:
    """What a run did: records written, pages that failed (in them), whether Ctrl-C stopped it."""

    written: int = 0
    failures: int = 0
    skipped: int = 0
    interrupted: bool = False


def run(paths: list[str], destination: Output, writer: RecordWriter, extract: Extractor,
        done: AbstractSet[str] = frozenset(), report: Callable[[str], None] | None = None,
        progress: ProgressHook | None = None, total: int | None = None) -> Outcome:
    """Extract the pages of ``paths`` not in ``done`` and write their records, in order.

    ``report`` gets the stderr line of each failed page. The output is committed at the
    end when a page succeeded (else an existing file stays as it was), and on Ctrl-C
    with what was written so far: every record is whole, and ``--resume`` continues.
    """
    outcome = Outcome()
    progress = hook(progress)
    progress.start("extracting", total)
    writer.start()

    def todo() -> Iterator[tuple[Source, Payload]]:
        for source, payload in iter_pages(paths):
            if source.key in done:
                outcome.skipped += 1
                progress.advance()
            else:
                yield source, payload

    try:
        for record in extract(todo()):
            writer.write(record)
            outcome.written += 1
            line = stderr_line(record)
            if line is not None:
                outcome.failures += 1
                if report is not None:
                    report(line)
            progress.advance()
    except KeyboardInterrupt:
        outcome.interrupted = True
    writer.close()
    if outcome.written > outcome.failures or outcome.interrupted and outcome.written:
        destination.commit()
    return outcome
