"""The same bin thresholds for scikit-learn's boosted trees, worked out in one pass.

When its training rows carry weights and number at most 200,000 (the size past which it
bins a sample drawn by weight), HistGradientBoosting (scikit-learn 1.9) finds each
feature's 254 bin thresholds with one call of ``_weighted_percentile`` per threshold, and
each call sorts the whole column again: most of the time of training the default model
(scikit-learn's pull request 34248 addresses the same slowness, after 1.9).
:func:`one_pass_binning` lets the first of those calls for a column work out every
threshold of the grid at once, in one call of the same function, and the others read
them: the same numbers, the same trees, in far less time
(docs/decisions/2026-11-27-training-time.md).
"""

from __future__ import annotations

import contextlib
import inspect
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

#: The percentiles scikit-learn's binning asks for, at its default of 255 bins for values
#: (``max_bins``): the inner points of ``linspace(0, 100, max_bins + 1)``.
DEFAULT_GRID = np.linspace(0, 100, num=256)[1:-1]


class _OnePassPercentiles:
    """Stands in for ``_weighted_percentile`` in scikit-learn's binning module: a call for
    one percentile of the grid, of a 1-d column with weights, is answered from every
    percentile of the grid worked out for that column at its first call; any other call
    goes to the function itself.

    What was worked out is kept per thread (the binning runs features side by side in
    threads) with the column and weights themselves, compared by identity: holding them
    keeps their ids from being reused by the next column. A column is assumed not to
    change between the calls for it (the binning sorts it once, then only reads it).
    """

    def __init__(self, original: Any, grid: np.ndarray = DEFAULT_GRID) -> None:
        self.original = original
        self.position = {float(rank): i for i, rank in enumerate(grid)}
        self.grid = grid
        self.local = threading.local()

    def __call__(self, array: Any, sample_weight: Any, percentile_rank: Any = 50, average: bool = False,
                 xp: Any = None) -> Any:
        where = self.position.get(float(percentile_rank)) if np.ndim(percentile_rank) == 0 else None
        if where is None or xp is not None or not isinstance(array, np.ndarray) or array.ndim != 1:
            return self.original(array, sample_weight, percentile_rank, average=average, xp=xp)
        local = self.local
        if getattr(local, "array", None) is not array or local.weight is not sample_weight \
                or local.average != average:
            values = self.original(array, sample_weight, self.grid, average=average)
            if np.ndim(values) != 1 or len(values) != len(self.grid):   # (no weight at all: nan)
                return self.original(array, sample_weight, percentile_rank, average=average, xp=xp)
            local.values, local.array, local.weight, local.average = values, array, sample_weight, average
        return local.values[where]


@contextlib.contextmanager
def one_pass_binning() -> Iterator[None]:
    """While inside, scikit-learn's weighted binning works out a column's thresholds in one
    pass (see the module notes); outside, and where its binning module is not as expected,
    nothing changes."""
    try:
        from sklearn.ensemble._hist_gradient_boosting import binning
    except ImportError:         # (a scikit-learn that moved it: binning as it is)
        yield
        return
    original = getattr(binning, "_weighted_percentile", None)
    if original is None or isinstance(original, _OnePassPercentiles) \
            or not hasattr(binning, "_find_binning_thresholds") or not _takes_average(original):
        yield
        return
    binning._weighted_percentile = _OnePassPercentiles(original)
    try:
        yield
    finally:
        binning._weighted_percentile = original


def _takes_average(function: Any) -> bool:
    """Whether ``function`` has the ``average`` argument the binning passes (scikit-learn 1.8
    on): the one-pass answer is only the same where the binning asks the same question."""
    try:
        return "average" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
