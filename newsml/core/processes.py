"""How newsml runs work in several processes: one rule for batch extraction and training.

- :func:`fork_context` says whether worker processes may be forked from this one (they
  then share the loaded model and the parsed pages without copying or pickling them);
- :func:`available_cores` is the default number of processes;
- :func:`limited_threads` keeps each process to one math-library thread, so N processes
  do not start N threads each.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
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
