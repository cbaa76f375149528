"""newsml/estimators/binning.py: scikit-learn's bin thresholds found in one pass over a column."""

from __future__ import annotations

from itertools import product

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier


def test_one_pass_binning_gives_scikit_learns_own_thresholds():
    """Weighted columns of under 200,000 rows are where scikit-learn sorts a column once per
    threshold: the one-pass thresholds must be the very same numbers, on columns of many
    distinct values, of ties, of zero weights and of few distinct values alike."""
    from sklearn.ensemble._hist_gradient_boosting import binning

    from newsml.estimators.binning import one_pass_binning

    rng = np.random.default_rng(7)
    n = 5000
    columns = [rng.random(n), np.round(rng.random(n) * 50, 1), rng.integers(0, 4, n).astype(float),
               np.where(rng.random(n) < 0.4, 0.0, rng.exponential(size=n))]
    weights = [rng.integers(1, 60, n).astype(float), np.where(rng.random(n) < 0.2, 0.0, rng.random(n) * 9)]
    original = binning._weighted_percentile
    calls = []

    def counted(array, sample_weight, percentile_rank=50, average=False, xp=None):
        calls.append(1)
        return original(array, sample_weight, percentile_rank, average=average, xp=xp)

    for column, weight in product(columns, weights):
        expected = binning._find_binning_thresholds(column, 255, sample_weight=weight)
        binning._weighted_percentile = counted
        try:
            with one_pass_binning():
                assert binning._weighted_percentile is not counted
                found = binning._find_binning_thresholds(column, 255, sample_weight=weight)
            assert binning._weighted_percentile is counted        # put back on the way out
        finally:
            binning._weighted_percentile = original
        assert np.array_equal(found, expected)
    # the three columns of more than 255 distinct values, under each of the two weightings,
    # asked once each instead of 254 times
    assert len(calls) == 3 * 2


def test_boosted_trees_fitted_with_one_pass_binning_are_the_same_trees():
    from newsml.estimators.binning import one_pass_binning

    rng = np.random.default_rng(3)
    X = np.column_stack([rng.random(3000) * 100, rng.integers(0, 3, 3000), rng.random(3000)])
    y = (X[:, 0] + rng.normal(0, 25, 3000) > 50).astype(int)
    weight = rng.integers(1, 40, 3000).astype(float)
    plain = HistGradientBoostingClassifier(max_iter=15, random_state=0).fit(X, y, sample_weight=weight)
    with one_pass_binning():
        fast = HistGradientBoostingClassifier(max_iter=15, random_state=0).fit(X, y, sample_weight=weight)
    assert np.array_equal(fast._bin_mapper.bin_thresholds_[0], plain._bin_mapper.bin_thresholds_[0])
    assert np.array_equal(fast.predict_proba(X), plain.predict_proba(X))
