"""newsml/estimators/trees.py: boosted trees frozen into arrays predict what the fitted booster
predicts, read as leaf masks or walked, and pickle only their arrays."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from conftest import python_twins
from sklearn.ensemble import HistGradientBoostingClassifier

from newsml.estimators import trees
from newsml.estimators.trees import FrozenTrees


def test_frozen_trees_predict_what_the_fitted_booster_predicts():
    rng = np.random.default_rng(0)
    X = rng.random((12000, 6))                        # > 10,000 rows: early stopping is on
    X[:, :5][rng.random((12000, 5)) < 0.05] = np.nan  # column 5 has no missing values in training
    y = (np.nan_to_num(X[:, 0]) + X[:, 1] * np.nan_to_num(X[:, 2]) + 0.3 * X[:, 5] > 0.8).astype(int)
    booster = HistGradientBoostingClassifier(max_iter=40, max_leaf_nodes=15, random_state=0)
    booster.fit(X, y, sample_weight=rng.random(12000) + 0.5)
    frozen = FrozenTrees.from_estimator(booster, check_rows=X[:100])
    Z = rng.random((300, 6))
    Z[rng.random(Z.shape) < 0.05] = np.nan            # NaN in column 5 too: routed as the booster does
    for row, root in enumerate(frozen.roots[~frozen.leaf[frozen.roots]]):
        Z[row, frozen.feature[root]] = frozen.threshold[root]   # exactly on a first split: go left
    Z[40:45, 1] = [np.inf, -np.inf, np.inf, -np.inf, np.inf]
    np.testing.assert_allclose(frozen.predict_proba(Z), booster.predict_proba(Z), atol=1e-12)
    assert frozen.predict_proba(Z[:0]).shape == (0, 2)
    with pytest.raises(ValueError, match="6 features"):
        frozen.predict_proba(Z[:, :5])
    assert (FrozenTrees.constant(1.0, 6).predict_proba(Z)[:, 1] > 0.99).all()
    assert (FrozenTrees.constant(0.0, 6).predict_proba(Z)[:, 1] < 0.01).all()
    many = np.tile(Z, (20, 1))                         # more rows than one block: same answers
    assert len(many) > trees.MASK_ROWS_PER_BLOCK
    np.testing.assert_array_equal(frozen.predict_proba(many), np.tile(frozen.predict_proba(Z), (20, 1)))
    # read as leaf masks, the walk's leaves exactly
    assert frozen._masks is not None
    np.testing.assert_array_equal(frozen._read_masks(Z), frozen._descend(Z))


def test_frozen_trees_score_table_rows_written_piece_by_piece_as_their_values():
    rng = np.random.default_rng(8)
    X = rng.random((4000, 6))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (rng.random(4000) < 0.2 + 0.6 * np.nan_to_num(X[:, 2])).astype(int)
    booster = HistGradientBoostingClassifier(max_iter=12, max_leaf_nodes=31, random_state=0).fit(X, y)
    frozen = FrozenTrees.from_estimator(booster)
    Z = np.tile(X[:700], (2, 1))                       # more rows than one block
    for row, node in enumerate(np.flatnonzero(~frozen.leaf)[:300]):   # exactly on a split: goes left
        Z[row, frozen.feature[node]] = frozen.threshold[node]
    Z[30:40, 1] = [np.inf, -np.inf] * 5
    rows = frozen.new_table_rows(len(Z))
    assert rows is not None and rows.dtype == np.uint8
    frozen.write_table_rows(Z[:, :2], 0, rows)         # as a page's evidence comes: a piece at a time
    frozen.write_table_rows(Z[:, 2:5], 2, rows)
    frozen.write_table_rows(Z[:, 5:], 5, rows)
    np.testing.assert_array_equal(frozen.decision_from_table_rows(rows), frozen.decision_function(Z))
    # splits of one threshold share a table row: as many rows as distinct thresholds (and NaN)
    masks = frozen._masks
    for feature, thresholds in zip(masks.features, masks.thresholds):
        used = frozen.threshold[~frozen.leaf & (frozen.feature == feature)]
        np.testing.assert_array_equal(thresholds, np.unique(used))
    with pytest.raises(ValueError, match="do not fit"):
        frozen.write_table_rows(Z[:, :3], 4, rows)
    with pytest.raises(ValueError, match="one column per feature"):
        frozen.decision_from_table_rows(rows[:, :-1])


@pytest.mark.parametrize("compiled", [True, False])
def test_frozen_trees_with_255_thresholds_on_a_feature_keep_wider_table_rows(monkeypatch, compiled):
    """scikit-learn's 255 bins allow 254 finite thresholds and +inf (a split that sends only
    NaN right): one more than a byte's codes hold with the NaN row's."""
    k = 255
    thresholds = np.append(np.arange(254, dtype=float), np.inf)
    n = 3 * k
    feature, threshold = np.zeros(n, dtype=np.int64), np.zeros(n)
    left, right, leaf, value = np.arange(n), np.arange(n), np.ones(n, dtype=bool), np.zeros(n)
    for t in range(k):                                 # k stumps on feature 0
        root = 3 * t
        leaf[root], threshold[root], left[root], right[root] = False, thresholds[t], root + 1, root + 2
        value[root + 2] = 1.0
    frozen = FrozenTrees(feature, threshold, np.zeros(n, dtype=bool), left, right, leaf, value,
                         np.arange(0, n, 3), 0.0, 1)
    if not compiled:
        python_twins(monkeypatch)
    Z = np.array([[-1.0], [3.5], [253.0], [1e9], [np.inf], [np.nan]])
    np.testing.assert_array_equal(frozen.decision_function(Z), frozen._descend(Z))
    np.testing.assert_array_equal(frozen.decision_function(Z), [0, 4, 253, 254, 254, 255])
    rows = frozen.new_table_rows(len(Z))
    assert rows is not None and rows.dtype == np.uint16
    frozen.write_table_rows(Z, 0, rows)
    np.testing.assert_array_equal(frozen.decision_from_table_rows(rows), frozen._descend(Z))
    rows[0, 0] = k + 2                                 # past the feature's NaN row
    with pytest.raises(ValueError, match="outside its feature's rows"):
        frozen.decision_from_table_rows(rows)


def test_frozen_trees_of_more_leaves_than_a_mask_holds_are_walked():
    rng = np.random.default_rng(5)
    X = rng.random((3000, 4))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (rng.random(3000) < 0.5).astype(int)          # noise: every tree grows all its leaves
    booster = HistGradientBoostingClassifier(max_iter=3, max_leaf_nodes=100, min_samples_leaf=2,
                                             early_stopping=False, random_state=0).fit(X, y)
    frozen = FrozenTrees.from_estimator(booster)
    assert frozen.leaf.sum() > 3 * trees.MASK_BITS
    assert frozen._masks is None and frozen.new_table_rows(10) is None
    Z = np.tile(X[:200], (3, 1))                       # more rows than a walk's block
    assert len(Z) > trees.ROWS_PER_BLOCK
    np.testing.assert_allclose(frozen.predict_proba(Z), booster.predict_proba(Z), atol=1e-12)
    # 64 leaves, the top bit of a mask used: masks, the walk's leaves exactly
    full = HistGradientBoostingClassifier(max_iter=3, max_leaf_nodes=64, min_samples_leaf=2,
                                          early_stopping=False, random_state=0).fit(X, y)
    frozen = FrozenTrees.from_estimator(full)
    assert frozen.leaf.sum() == 3 * trees.MASK_BITS and frozen._masks is not None
    np.testing.assert_array_equal(frozen._read_masks(Z), frozen._descend(Z))
    np.testing.assert_allclose(frozen.predict_proba(Z), full.predict_proba(Z), atol=1e-12)


def test_frozen_trees_pickle_their_arrays_not_their_masks_or_walk():
    rng = np.random.default_rng(2)
    X = rng.random((400, 4))
    y = (X[:, 0] > X[:, 1]).astype(int)
    booster = HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(X, y)
    frozen = FrozenTrees.from_estimator(booster, check_rows=X)   # predicting builds the masks
    frozen._descend(X)                                            # ... and the walk
    derived = {"_masks", "_walk"}
    assert derived <= set(frozen.__dict__)
    # a model file names only allowed classes: the derived copies must not be in it
    state = frozen.__getstate__()
    assert not derived & set(state) and set(state) == set(frozen.__dict__) - derived
    loaded = pickle.loads(pickle.dumps(frozen))
    assert not derived & set(loaded.__dict__)
    np.testing.assert_array_equal(loaded.predict_proba(X), frozen.predict_proba(X))


def test_frozen_trees_refuse_what_they_cannot_copy():
    rng = np.random.default_rng(1)
    X = rng.random((300, 3))
    three = HistGradientBoostingClassifier(max_iter=3).fit(X, rng.integers(0, 3, 300))
    with pytest.raises(ValueError, match="binary"):
        FrozenTrees.from_estimator(three)
    X[:, 0] = rng.integers(0, 4, 300)
    categorical = HistGradientBoostingClassifier(max_iter=3, categorical_features=[0])
    with pytest.raises(ValueError, match="categorical"):
        FrozenTrees.from_estimator(categorical.fit(X, (X[:, 0] > 1).astype(int)))
