"""How a run stops: SIGTERM taken as Ctrl-C, and steps that a stop waits for.

A batch run stops on Ctrl-C or SIGTERM (as ``timeout``, systemd, ``docker stop`` and
Slurm send it) keeping its finished records (:func:`terminate_as_interrupt`). Some steps
must not be cut in two: a record written and counted, the output renamed into place. A
stop that comes during such a step waits for its end (:meth:`StopHold.step`).

Signals are handled in the main thread only; elsewhere these blocks change nothing.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

#: The signals that stop a run.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

Handler = Callable[[int, FrameType | None], Any]


class Terminated(KeyboardInterrupt):
    """SIGTERM, stopping a run as Ctrl-C does (:func:`terminate_as_interrupt`)."""


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """In the block, SIGTERM raises :class:`Terminated`, a KeyboardInterrupt: a run stops
    as on Ctrl-C, keeping its finished records. A second TERM while it stops is ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class StopHold:
    """Ctrl-C and SIGTERM made to wait during a step (:meth:`step`), then given to the
    handlers they had; outside a step they reach those handlers at once. A second stop
    during a step stops it at once: a write blocked on a stuck pipe can still be stopped
    (:attr:`cut_short` then says so). Made by :func:`stops_guarded`, which installs its
    handler once for many steps."""

    def __init__(self) -> None:
        self.previous: dict[int, Handler | int] = {}
        self.cut_short = False
        self._holding = False
        self._arrived: int | None = None

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The installed handler: note the first stop of a step, else deliver it."""
        if self._holding and self._arrived is None:
            self._arrived = signum
            return
        if self._holding:
            self.cut_short = True
        self._deliver(signum, frame)

    def _deliver(self, signum: int, frame: FrameType | None) -> None:
        """Hand ``signum`` to the handler it had before (the default one kills, as it would)."""
        previous = self.previous.get(signum, signal.SIG_DFL)
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)

    @contextlib.contextmanager
    def step(self) -> Iterator[None]:
        """A step that a stop waits for. When the step itself fails, its error is what the
        caller gets (the run ends on it), and a stop noted meanwhile is dropped."""
        if self._holding or not self.previous:     # (a step inside a step; or no handler here)
            yield
            return
        self._holding, self._arrived = True, None
        try:
            yield
        finally:
            arrived, self._holding, self._arrived = self._arrived, False, None
        if arrived is not None:
            self._deliver(arrived, None)


@contextlib.contextmanager
def stops_guarded() -> Iterator[StopHold]:
    """A :class:`StopHold` whose handler is installed for :data:`STOP_SIGNALS` in the block,
    and the handlers before it put back after it. A signal ignored, or handled outside
    Python, is left alone. Each handler is put back on its own, so a stop that comes while
    they are changed never leaves one of them installed."""
    hold = StopHold()
    if threading.current_thread() is not threading.main_thread():
        yield hold
        return
    handler = hold.handle                      # (one bound method: compared by identity below)
    with contextlib.ExitStack() as restore:
        for signum in STOP_SIGNALS:
            current = signal.getsignal(signum)
            if current is None or current == signal.SIG_IGN:
                continue
            hold.previous[signum] = current
            signal.signal(signum, handler)
            restore.callback(_put_back, signum, handler, current)
        yield hold


def _put_back(signum: int, ours: Handler, previous: Handler | int) -> None:
    """Put ``previous`` back for ``signum``, unless a handler that ran meanwhile set another
    (``terminate_as_interrupt`` ignores a second TERM while the run stops)."""
    if signal.getsignal(signum) is ours:
        signal.signal(signum, previous)


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """One step that Ctrl-C and SIGTERM wait for (see :class:`StopHold`)."""
    with stops_guarded() as hold, hold.step():
        yield


__all__ = ["STOP_SIGNALS", "StopHold", "Terminated", "stops_guarded", "stops_held", "terminate_as_interrupt"]
