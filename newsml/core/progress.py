"""The progress hook: how long-running library calls report progress without printing.

Library functions that walk many pages (training, evaluation) take one optional
``progress`` object. They call ``start`` once per phase with the number of steps, then
``advance`` after each step (a total of None: not known in advance). The command line
passes a progress bar; library users pass nothing (no output) or their own object with
these two methods.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class ProgressHook(Protocol):
    """Receives progress: a phase with a known number of steps, then one call per step."""

    def start(self, label: str, total: int | None) -> None:
        """A new phase of ``total`` steps (None: unknown) begins."""

    def advance(self, steps: int = 1) -> None:
        """``steps`` more steps of the current phase are done."""


class NoProgress:
    """The silent hook, used when the caller passes none."""

    def start(self, label: str, total: int | None) -> None:
        """Ignore the phase."""

    def advance(self, steps: int = 1) -> None:
        """Ignore the step."""


def hook(progress: ProgressHook | None) -> ProgressHook:
    """``progress``, or the silent hook when it is None."""
    return NoProgress() if progress is None else progress


class _Bar:
    """The hook as a rich progress bar: one bar per phase."""

    def __init__(self, progress: Any):
        self._progress = progress
        self._task: Any = None

    def start(self, label: str, total: int | None) -> None:
        if self._task is not None:
            self._progress.remove_task(self._task)
        self._task = self._progress.add_task(label, total=total)

    def advance(self, steps: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, steps)


@contextmanager
def progress_bar() -> Iterator[ProgressHook]:
    """A hook drawing a progress bar on stderr when stderr is a terminal (silent otherwise).

    Without a terminal rich is not imported at all: importing it delays the start of
    ``newsml predict``, whose worker processes are then already waiting for pages."""
    if not sys.stderr.isatty():
        yield NoProgress()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), transient=True, console=Console(stderr=True))
    with bar:
        yield _Bar(bar)
