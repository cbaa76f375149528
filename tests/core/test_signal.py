"""newsml/core/signal.py: Gaussian smoothing of node scores and Otsu's threshold."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.core.signal import gaussian_smooth, otsu_select, otsu_threshold


def test_otsu_splits_two_clusters_on_a_fine_grid():
    values = np.array([0.1, 0.12, 0.15, 0.8, 0.85, 0.9])
    t = otsu_threshold(values)
    assert 0.15 <= t < 0.8
    assert otsu_select(values).tolist() == [False] * 3 + [True] * 3
    assert otsu_threshold(np.array([0.4, 0.4, 0.4])) is None
    assert otsu_select(np.array([0.7, 0.7])).tolist() == [True, True]   # falls back to >= 0.5


def test_otsu_over_blocks_of_thresholds_is_otsu_over_all_of_them(monkeypatch):
    import newsml.core.signal

    values = np.random.default_rng(0).random(2001) ** 3
    whole = otsu_threshold(values)
    monkeypatch.setattr(newsml.core.signal, "_BLOCK_CELLS", 7 * values.size)   # 15 blocks of 7 thresholds
    assert otsu_threshold(values) == whole


def test_gaussian_smoothing_lifts_a_short_line_between_long_ones():
    scores = np.array([0.0, 0.9, 0.9, 0.1, 0.9, 0.9, 0.0])
    smooth = gaussian_smooth(scores, 1.0)
    assert smooth[3] > 0.4 and smooth[0] < 0.5
    assert gaussian_smooth(scores, 0).tolist() == scores.tolist()


def _between_class_variance(values: np.ndarray, t: float) -> float | None:
    """w0 (u0 - mu)^2 + w1 (u1 - mu)^2 of the split of ``values`` at ``t``, one value at a time
    (None when one side is empty)."""
    upper, lower = [v for v in values if v > t], [v for v in values if v <= t]
    if not upper or not lower:
        return None
    mu = sum(values) / len(values)
    u1, u0 = sum(upper) / len(upper), sum(lower) / len(lower)
    return len(lower) / len(values) * (u0 - mu) ** 2 + len(upper) / len(values) * (u1 - mu) ** 2


def test_otsu_threshold_is_the_grid_point_of_the_largest_between_class_variance():
    """Brute force over the grid, one threshold at a time in plain Python (eq. 11-12)."""
    rng = np.random.default_rng(4)
    for _ in range(40):
        values = np.round(rng.beta(0.6, 0.6, size=int(rng.integers(2, 40))), 3)
        chosen = otsu_threshold(values)
        scores = {round(t, 2): _between_class_variance(values, t) for t in np.arange(0.0, 1.005, 0.01)}
        best = max((g for g in scores.values() if g is not None), default=None)
        if best is None:
            assert chosen is None
            continue
        assert chosen is not None
        at = round(chosen, 2)
        assert scores[at] == pytest.approx(best, rel=1e-9, abs=1e-15)
        # the first such point of the grid: none before it does as well
        assert all(g is None or g < best - 1e-12 for t, g in scores.items() if t < at - 1e-9)


def test_otsu_select_falls_back_to_its_threshold_when_nothing_splits():
    same = np.full(4, 0.3)
    assert otsu_threshold(same) is None and otsu_threshold(np.array([0.9])) is None
    assert otsu_select(same).tolist() == [False] * 4                      # below the fallback 0.5
    assert otsu_select(same, fallback=0.3).tolist() == [True] * 4
    values = np.array([0.05, 0.1, 0.7, 0.75])
    threshold = otsu_threshold(values)
    assert threshold is not None and 0.1 <= threshold < 0.7
    assert otsu_select(values).tolist() == (values > threshold).tolist() == [False, False, True, True]


def test_gaussian_smoothing_of_an_impulse_is_the_normalized_kernel():
    for sigma in (0.5, 1.0, 2.5):
        radius = int(3.0 * sigma + 0.5)
        impulse = np.zeros(4 * radius + 9)
        middle = len(impulse) // 2
        impulse[middle] = 1.0
        smooth = gaussian_smooth(impulse, sigma)
        weights = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
        window = smooth[middle - radius:middle + radius + 1]
        np.testing.assert_allclose(window, weights / weights.sum(), rtol=1e-12)
        assert smooth.sum() == pytest.approx(1.0) and not smooth[:middle - radius].any()


def test_gaussian_smoothing_keeps_constants_mirrors_and_copies():
    values = np.random.default_rng(2).random(30)
    np.testing.assert_allclose(gaussian_smooth(np.full(9, 0.4), 1.5), np.full(9, 0.4))  # the ends repeat
    np.testing.assert_allclose(gaussian_smooth(values[::-1], 2.0), gaussian_smooth(values, 2.0)[::-1])
    ints = np.array([1, 0, 1])
    for sigma in (0, 1.0):
        out = gaussian_smooth(ints, sigma)
        assert out.dtype == float and out is not ints
    assert gaussian_smooth(np.array([0.3]), 2.0).tolist() == [0.3]                      # one node: as it is
    smooth = gaussian_smooth(values, 1.0)            # a weighted mean: within the values' range
    assert values.min() <= smooth.min() and smooth.max() <= values.max()
