"""Signals along a page's nodes: Gaussian smoothing in document order and Otsu's threshold.

CEDST (section 3.4) smooths per-node scores with a one-dimensional Gaussian, so short
article lines between long ones are lifted, and cuts them at Otsu's threshold (eq. 11-12),
searched here on a grid finer than the paper's 0.1 steps. CETR smooths its tag ratios the
same way, and fusion's context columns read smoothed beliefs.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

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
    :data:`_BLOCK_CELLS` cells, however many nodes a large page has; each threshold's row
    is summed as it would be in the whole matrix.
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
