"""Page assembly: from per-node scores to the nodes that make the article.

CEDST (section 3.4): one-dimensional Gaussian smoothing of the scores in document
order, so short article lines between long ones are lifted, then Otsu's threshold
(eq. 11-12), searched on a grid finer than the paper's 0.1 steps.
"""

from __future__ import annotations

import numpy as np
from scipy.ndimage import gaussian_filter1d


def gaussian_smooth(scores: np.ndarray, sigma: float) -> np.ndarray:
    """Scores smoothed along document order with a Gaussian of ``sigma`` nodes (0: unchanged)."""
    if sigma <= 0 or scores.size < 2:
        return scores.astype(float)
    return gaussian_filter1d(scores.astype(float), sigma=sigma, mode="nearest", truncate=3.0)


def otsu_threshold(values: np.ndarray, step: float = 0.01) -> float | None:
    """The threshold t in [0, 1] maximizing w0 (u0 - mu)^2 + w1 (u1 - mu)^2 (eq. 11-12).

    Values above t form the upper class. None when no t separates two non-empty
    classes (all values equal, or a single value).
    """
    if values.size < 2:
        return None
    grid = np.arange(0.0, 1.0 + step / 2, step)
    upper = values[None, :] > grid[:, None]
    n_upper = upper.sum(axis=1)
    n_lower = values.size - n_upper
    valid = (n_upper > 0) & (n_lower > 0)
    if not valid.any():
        return None
    mu = values.mean()
    sum_upper = (upper * values[None, :]).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        u1 = sum_upper / n_upper
        u0 = (values.sum() - sum_upper) / n_lower
    w1, w0 = n_upper / values.size, n_lower / values.size
    g = np.where(valid, w0 * (u0 - mu) ** 2 + w1 * (u1 - mu) ** 2, -1.0)
    return float(grid[int(np.argmax(g))])


def otsu_select(values: np.ndarray, step: float = 0.01, fallback: float = 0.5) -> np.ndarray:
    """Mask of the nodes above the Otsu threshold (``>= fallback`` when Otsu cannot split)."""
    threshold = otsu_threshold(values, step)
    if threshold is None:
        return values >= fallback
    return values > threshold
