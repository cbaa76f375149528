"""How newsml runs work in several processes: one rule for batch extraction and training.

- :func:`fork_context` says whether worker processes may be forked from this one (they
  then share the loaded model and the parsed pages without copying or pickling them);
- :func:`available_cores` is the default number of processes;
- :func:`limited_threads` keeps each process to one math-library thread, so N processes
  do not start N threads each;
- :func:`end_with_parent` makes a worker process end when the process that started it
  ends, however it ends (a KILL leaves it no time to stop its workers).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator
from multiprocessing.context import BaseContext

from threadpoolctl import threadpool_limits

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def fork_context() -> BaseContext | None:
    """The ``fork`` start method where forking a process that has loaded numpy and lxml is
    safe (Linux), else None. macOS offers fork but its system libraries may crash in a
    forked child (Python itself defaults to spawn there), and Windows has no fork."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def limited_threads(threads: int = 1) -> Iterator[None]:
    """At most ``threads`` threads per math library (BLAS, OpenMP) in the block: the
    parallelism of batch work is its processes, and N processes of N threads each
    oversubscribe. The environment and the libraries' thread pools are restored when
    the block ends, so a Python caller's process is left as it was. The environment is
    the process's: two threads in such blocks at once may restore each other's values."""
    saved = {variable: os.environ.get(variable) for variable in THREAD_VARIABLES}
    for variable in THREAD_VARIABLES:
        os.environ.setdefault(variable, str(threads))
    limits = threadpool_limits(threads)
    try:
        yield
    finally:
        limits.restore_original_limits()
        for variable, value in saved.items():
            if value is None:
                os.environ.pop(variable, None)
            else:
                os.environ[variable] = value


#: prctl's option that sets the signal a process gets when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """Have this process killed when its parent (of process id ``parent``) ends, whatever
    ends it: on Linux, a parent-death signal (``prctl(PR_SET_PDEATHSIG, SIGKILL)``); this
    process ends at once if the parent has ended already. Elsewhere, or where the call is
    refused, nothing changes (a worker then ends when its pipe to the parent closes).

    The signal comes when the *thread* that started this process ends: start workers
    from a thread that outlives them (the main thread, or the one that stops them)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            return
    except (OSError, AttributeError):  # no C library to load, or no prctl in it
        return
    if os.getppid() != parent:         # the parent ended before the signal was asked for
        os._exit(0)
