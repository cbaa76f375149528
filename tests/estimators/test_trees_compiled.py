"""The compiled reading of the boosted trees' leaf masks (newsml/estimators/_quickscorer.pyx)
gives the leaves the Python readings give, bit for bit."""

from __future__ import annotations

import importlib
import importlib.util

import numpy as np
import pytest
from conftest import compiled_or_skip, in_python, speedups_afresh
from sklearn.ensemble import HistGradientBoostingClassifier

from newsml.core import speedups
from newsml.estimators import trees
from newsml.estimators.trees import FrozenTrees


@pytest.fixture()
def compiled():
    return compiled_or_skip("estimators._quickscorer", "numpy reads the masks")


def _awkward_rows(frozen: FrozenTrees, n_features: int, seed: int) -> np.ndarray:
    """Random rows with NaN, infinities and values exactly on split thresholds."""
    rng = np.random.default_rng(seed)
    Z = rng.random((500, n_features))
    Z[rng.random(Z.shape) < 0.05] = np.nan
    Z[:20, 0] = np.inf
    Z[20:40, 0] = -np.inf
    split = np.flatnonzero(~frozen.leaf)
    for row, node in enumerate(rng.choice(split, 200)):     # exactly on a split: goes left
        Z[100 + row, frozen.feature[node]] = frozen.threshold[node]
    Z[300:310] = -0.0
    return Z


@pytest.mark.parametrize("leaves", [15, 64])    # (64: the top bit of every mask in use)
def test_the_compiled_reading_finds_the_leaves_of_the_python_readings(compiled, leaves):
    rng = np.random.default_rng(leaves)
    X = rng.random((3000, 5))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (rng.random(3000) < 0.3 + 0.4 * np.nan_to_num(X[:, 0])).astype(int)
    booster = HistGradientBoostingClassifier(max_iter=8, max_leaf_nodes=leaves, min_samples_leaf=2,
                                             early_stopping=False, random_state=0).fit(X, y)
    frozen = FrozenTrees.from_estimator(booster)
    assert frozen._masks is not None
    Z = _awkward_rows(frozen, 5, leaves)
    in_c = frozen.decision_function(Z)
    np.testing.assert_array_equal(in_c, in_python(lambda: frozen.decision_function(Z)))
    np.testing.assert_array_equal(in_c, frozen._descend(Z))      # (the walk of trees of more leaves)
    np.testing.assert_allclose(frozen.predict_proba(Z), booster.predict_proba(Z), atol=1e-12)
    assert frozen.decision_function(Z[:0]).shape == (0,)


def test_the_compiled_reading_of_the_shipped_model(compiled, default_method):
    booster = default_method.booster_
    rng = np.random.default_rng(3)
    Z = _awkward_rows(booster, booster.n_features, 3) * rng.choice([1.0, 10.0, 1000.0], booster.n_features)
    expected = in_python(lambda: booster.decision_function(Z))
    np.testing.assert_array_equal(booster.decision_function(Z), expected)


def test_the_compiled_reading_refuses_arrays_that_do_not_fit(compiled):
    rng = np.random.default_rng(1)
    X = rng.random((300, 3))
    booster = HistGradientBoostingClassifier(max_iter=3, random_state=0).fit(X, (X[:, 0] > 0.5).astype(int))
    masks = FrozenTrees.from_estimator(booster)._masks
    args = [masks.features, masks.flat_thresholds, masks.bounds, masks.starts, masks.table, masks.values]
    compiled.leaf_values(X, *args)
    with pytest.raises(ValueError, match="outside the rows"):
        compiled.leaf_values(X[:, :0], *args)
    with pytest.raises(ValueError, match="table rows"):
        compiled.leaf_values(X, *args[:4], masks.table[:2], masks.values)
    with pytest.raises(ValueError, match="64 leaf values"):
        compiled.leaf_values(X, *args[:5], masks.values[:-1])
    with pytest.raises(TypeError):
        compiled.leaf_values(None, *args)
    with pytest.raises(ValueError, match="bounds"):
        compiled.leaf_values(X, args[0], args[1], args[2][:-1], *args[3:])


def test_the_tree_reading_falls_back_to_python_when_told_or_not_built(monkeypatch, default_method):
    speedups_afresh(monkeypatch)
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "1")
    assert speedups.loaded("estimators._quickscorer") is None
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "no")
    # the module itself where it was built (not in use in a run started with the variable
    # set, yet found now), else None
    built = importlib.util.find_spec("newsml.estimators._quickscorer") is not None
    assert speedups.loaded("estimators._quickscorer") is (
        importlib.import_module("newsml.estimators._quickscorer") if built else None)
    with pytest.raises(KeyError, match="no compiled module"):
        speedups.loaded("no_such_module")
    booster = default_method.booster_
    Z = np.random.default_rng(0).random((50, booster.n_features))
    expected = booster.decision_function(Z)
    np.testing.assert_array_equal(trees.leaf_values_in_python(booster, Z).sum(axis=1) + booster.baseline,
                                  expected)


def test_table_rows_read_in_c_give_the_leaves_of_the_values(compiled, default_method):
    booster = default_method.booster_
    Z = _awkward_rows(booster, booster.n_features, 4)
    rows = booster.new_table_rows(len(Z))
    booster.write_table_rows(Z, 0, rows)
    masks = booster._masks
    from_rows = compiled.leaf_values_of_rows(rows, masks.starts, masks.table, masks.values)
    np.testing.assert_array_equal(from_rows, compiled.leaf_values(Z, masks.features, masks.flat_thresholds,
                                                                  masks.bounds, masks.starts, masks.table,
                                                                  masks.values))
    np.testing.assert_array_equal(booster.decision_from_table_rows(rows),
                                  in_python(lambda: booster.decision_from_table_rows(rows)))
    # past the table's end; into the next feature's rows
    for column, code in ((-1, 255), (0, len(masks.thresholds[0]) + 2)):
        far = rows.copy()
        far[7, column] = code
        with pytest.raises(ValueError, match="outside its feature's rows"):
            compiled.leaf_values_of_rows(far, masks.starts, masks.table, masks.values)
    with pytest.raises(ValueError, match="not ascending"):
        compiled.leaf_values_of_rows(rows, masks.starts[::-1].copy(), masks.table, masks.values)
    with pytest.raises(ValueError, match="one start per column"):
        compiled.leaf_values_of_rows(rows, masks.starts[:-1], masks.table, masks.values)
    with pytest.raises(ValueError, match="64 leaf values"):
        compiled.leaf_values_of_rows(rows, masks.starts, masks.table, masks.values[:-1])
