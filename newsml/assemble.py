"""Page assembly: from per-node scores to the nodes that make the article.

CEDST (section 3.4): one-dimensional Gaussian smoothing of the scores in document
order, so short article lines between long ones are lifted, then a cut: Otsu's
threshold (eq. 11-12), searched on a grid finer than the paper's 0.1 steps, or a fixed
threshold. :class:`Assembly` composes the two; methods hold one, and model selection
(:func:`newsml.model_selection.choose_assembly`) picks one from candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

import numpy as np

from .errors import ConfigurationError

#: Width of the smoothing window on each side, in standard deviations.
TRUNCATE = 3.0
#: Cells of the thresholds x scores matrix of Otsu's search held at once.
_BLOCK_CELLS = 1 << 20


def gaussian_smooth(scores: np.ndarray, sigma: float) -> np.ndarray:
    """Scores smoothed along document order with a Gaussian of ``sigma`` nodes (0: unchanged).

    ``scipy.ndimage.gaussian_filter1d(scores, sigma, mode="nearest", truncate=3.0)``,
    computed the way it computes it (same kernel, same order of sums) without SciPy,
    which prediction otherwise does not need.
    """
    values = scores.astype(float)
    if sigma <= 0 or values.size < 2:
        return values
    kernel = _kernel(float(sigma))
    radius = len(kernel) // 2
    # "nearest": the end values repeat (np.pad(values, radius, mode="edge"), without its overhead)
    padded = np.concatenate([values[:1].repeat(radius), values, values[-1:].repeat(radius)])
    n = values.size
    out = values * kernel[radius]
    for k in range(radius, 0, -1):                      # outermost pair first, as SciPy sums
        out += (padded[radius - k:radius - k + n] + padded[radius + k:radius + k + n]) * kernel[radius - k]
    return out


@lru_cache(maxsize=16)
def _kernel(sigma: float) -> np.ndarray:
    """The normalized Gaussian weights of offsets -radius..radius (read-only: shared)."""
    radius = int(TRUNCATE * sigma + 0.5)
    offsets = np.arange(-radius, radius + 1)
    kernel = np.exp(-0.5 / (sigma * sigma) * offsets ** 2)
    kernel = kernel / kernel.sum()
    kernel.setflags(write=False)
    return kernel


def otsu_threshold(values: np.ndarray, step: float = 0.01) -> float | None:
    """The threshold t in [0, 1] maximizing w0 (u0 - mu)^2 + w1 (u1 - mu)^2 (eq. 11-12).

    Values above t form the upper class. None when no t separates two non-empty
    classes (all values equal, or a single value).
    """
    if values.size < 2:
        return None
    grid = np.arange(0.0, 1.0 + step / 2, step)
    n_upper, sum_upper = _upper_counts_and_sums(values, grid)
    n_lower = values.size - n_upper
    valid = (n_upper > 0) & (n_lower > 0)
    if not valid.any():
        return None
    mu = values.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        u1 = sum_upper / n_upper
        u0 = (values.sum() - sum_upper) / n_lower
    w1, w0 = n_upper / values.size, n_lower / values.size
    g = np.where(valid, w0 * (u0 - mu) ** 2 + w1 * (u1 - mu) ** 2, -1.0)
    return float(grid[int(np.argmax(g))])


def _upper_counts_and_sums(values: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each threshold of ``grid``: how many ``values`` lie above it, and their sum.

    A block of thresholds at a time, so the matrix of thresholds x values stays near
    :data:`_BLOCK_CELLS` cells (a 10 MB page has 100,000 nodes: 85 MB for the whole grid
    at once); each threshold's row is summed as it would be in the whole matrix.
    """
    rows = max(1, _BLOCK_CELLS // values.size)
    counts, sums = [], []
    for start in range(0, grid.size, rows):
        upper = values[None, :] > grid[start:start + rows, None]
        counts.append(upper.sum(axis=1))
        sums.append((upper * values[None, :]).sum(axis=1))
    return np.concatenate(counts), np.concatenate(sums)


def otsu_select(values: np.ndarray, step: float = 0.01, fallback: float = 0.5) -> np.ndarray:
    """Mask of the nodes above the Otsu threshold (``>= fallback`` when Otsu cannot split)."""
    threshold = otsu_threshold(values, step)
    if threshold is None:
        return values >= fallback
    return values > threshold


class Cut(Protocol):
    """Chooses the article's nodes from one page's (smoothed) scores."""

    def __call__(self, scores: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class OtsuCut:
    """Nodes above the page's Otsu threshold (``>= fallback`` when Otsu cannot split).

    With ``keep_above``, nodes scoring at least that stay whatever the threshold: Otsu
    always splits a page's scores in two, so on a page whose nodes are all confidently
    article (two paragraphs scored 0.96 and 0.98) it drops some of them. None (the
    papers' cut) keeps only what lies above the threshold.
    """

    step: float = 0.01
    fallback: float = 0.5
    keep_above: float | None = None

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        keep = otsu_select(scores, self.step, self.fallback)
        if self.keep_above is not None:
            keep |= scores >= self.keep_above
        return keep

    def __str__(self) -> str:
        return "otsu" if self.keep_above is None else f"otsu, or >= {self.keep_above:g}"


@dataclass(frozen=True)
class FixedCut:
    """Nodes whose score reaches ``threshold``, the same on every page."""

    threshold: float = 0.5

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        return scores >= self.threshold

    def __str__(self) -> str:
        return f"{self.threshold:g}"


@dataclass(frozen=True)
class Assembly:
    """Gaussian smoothing of ``sigma`` nodes, then a cut."""

    sigma: float = 0.0
    cut: Cut = field(default_factory=OtsuCut)

    def smooth(self, scores: np.ndarray) -> np.ndarray:
        """The scores smoothed along document order."""
        return gaussian_smooth(scores, self.sigma)

    def select(self, smoothed: np.ndarray) -> np.ndarray:
        """The article's nodes, from already smoothed scores."""
        return self.cut(smoothed)

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        """The article's nodes, from raw scores: smoothed, then cut."""
        return self.select(self.smooth(scores))


def as_cut(value: object) -> Cut:
    """A cut from a parameter value: a cut object, "otsu", or a number (a fixed threshold)."""
    if isinstance(value, (OtsuCut, FixedCut)):
        return value
    if value == "otsu":
        return OtsuCut()
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return FixedCut(float(value))
    if callable(value):
        return value
    raise ConfigurationError(f"cut must be 'otsu', a threshold in [0, 1] or a cut object, not {value!r}")
