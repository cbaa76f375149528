"""Extracting many pages in worker processes, in input order, within a time limit.

- :class:`WorkerPool` runs N worker processes, each loading the model once (or forked
  with it); pages are handed out one at a time and records come back in input order,
  with at most :data:`WINDOW_PER_JOB` pages per worker in flight, so memory stays flat
  however many pages there are. Workers ignore Ctrl-C and SIGTERM: the caller stops
  them and keeps what was done; they end with it if it is killed.
- Besides each page's alarm (:func:`~newsml.run.records.time_limit`), the pool kills and
  replaces a worker stuck past twice the limit (in C code, which the alarm cannot
  interrupt) or one that died, and gives its page an error record.
- :func:`extraction` chooses between the pool and this process.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

from ..core.processes import end_with_parent, fork_context, limited_threads
from ..errors import NewsmlError, PageTimeoutError
from ..input.sources import Payload, Source
from .records import (
    DEFAULT_TIMEOUT,
    PLAIN_RECORDS,
    RecordOptions,
    ScorerSpec,
    check_timeout,
    describe,
    error_record,
    source_record,
)

if TYPE_CHECKING:
    from ..methods import NodeMethod

#: Pages handed out ahead of the oldest unfinished one, per worker: a bound on the
#: records held back to keep the output in input order.
WINDOW_PER_JOB = 64


# -- many pages ---------------------------------------------------------------------------------

Extractor = Callable[[Iterable[tuple[Source, Payload]]], Iterator[dict[str, Any]]]


@contextlib.contextmanager
def extraction(spec: ScorerSpec, jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT,
               debug: bool = False, options: RecordOptions = PLAIN_RECORDS) -> Iterator[Extractor]:
    """A function from pages to their records, in order, in a :class:`WorkerPool` of
    ``jobs`` workers (started here, stopped when the block ends).

    With a ``timeout``, one job is one worker too: the pool's hard limit then stops a page
    stuck in C code, which the alarm cannot interrupt (where the platform forks, the
    worker gets the method loaded here, so it costs little). Without one, one job runs in
    this process. ``options``: what the records' Markdown and HTML keep (links, images).
    Raises NewsmlError when the method cannot be loaded, ConfigurationError for a negative
    ``timeout``.
    """
    check_timeout(timeout)
    if jobs <= 1 and not timeout:
        scorer = spec.load()

        def in_process(pages: Iterable[tuple[Source, Payload]]) -> Iterator[dict[str, Any]]:
            for source, payload in pages:
                yield source_record(source, payload, scorer, timeout, debug=debug, options=options)

        with limited_threads():
            yield in_process
        return
    with WorkerPool(spec, max(jobs, 1), timeout, debug, options) as pool:
        yield pool.records


class _Worker:
    """One worker process and the page it is extracting.

    A forked worker gets a copy of every open pipe of this process: it closes the pool's
    ends of them (``inherited``, its own pipe's included), so that it sees its pipe end
    when this process ends, and is killed with this process besides (:func:`end_with_parent`).
    """

    def __init__(self, context: Any, method: ScorerSpec | NodeMethod, timeout: float | None,
                 debug: bool, options: RecordOptions = PLAIN_RECORDS,
                 inherited: Iterable[Connection] = ()) -> None:
        self.conn, child = context.Pipe()
        forked = context.get_start_method() == "fork"
        # (a spawned worker inherits no pipe: it is given its own end only)
        close = (self.conn, *inherited) if forked else ()
        self.process = context.Process(target=_serve, args=(child, method, timeout, debug, options),
                                       kwargs={"parent": os.getpid(), "inherited": close}, daemon=True)
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


def _serve(conn: Connection, method: ScorerSpec | NodeMethod, timeout: float | None, debug: bool,
           options: RecordOptions = PLAIN_RECORDS, *, parent: int | None = None,
           inherited: Iterable[Connection] = ()) -> None:
    """A worker's life: load the method once (unless forked with it), then extract the pages
    it is sent. It ends when its pipe closes or ``parent`` ends, whatever ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C and TERM are the parent's to handle:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # it stops the workers and keeps their work
    for end in inherited:          # the pool's ends, copied by the fork: else no end of file
        with contextlib.suppress(OSError):
            end.close()
    if parent is not None:
        end_with_parent(parent)
    with limited_threads():
        _serve_pages(conn, method, timeout, debug, options)


def _serve_pages(conn: Connection, method: ScorerSpec | NodeMethod, timeout: float | None,
                 debug: bool, options: RecordOptions = PLAIN_RECORDS) -> None:
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
        conn.send((seq, source_record(source, payload, scorer, timeout, debug=debug, options=options)))


class WorkerPool:
    """``jobs`` worker processes extracting pages, records in input order (see the module notes).

    Use as a context manager; :meth:`records` maps pages to records. Where the platform
    can fork, the method is loaded once here and the workers are forked with it (a copy
    of each page of memory only when written); elsewhere each worker loads it.
    """

    def __init__(self, spec: ScorerSpec, jobs: int, timeout: float | None = DEFAULT_TIMEOUT,
                 debug: bool = False, options: RecordOptions = PLAIN_RECORDS) -> None:
        self.spec = spec
        self.jobs = jobs
        self.timeout = timeout
        self.debug = debug
        self.options = options
        forking = fork_context()
        self._fork = forking is not None
        self._context = forking or multiprocessing.get_context()
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
            for _ in range(self.jobs):        # one by one: each new one closes the others' pipes
                self._workers.append(self._start())
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
        return _Worker(self._context, self._method, self.timeout, self.debug, self.options,
                       inherited=[worker.conn for worker in self._workers])

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
