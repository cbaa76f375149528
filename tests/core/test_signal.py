"""newsml/core/signal.py: Gaussian smoothing of node scores and Otsu's threshold."""

from __future__ import annotations

import numpy as np

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
