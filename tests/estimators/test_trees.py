"""The papers' estimators: scikit-learn conformance and the math of the papers."""

from __future__ import annotations

import pickle
from itertools import product

import numpy as np
import pytest
import sklearn
from conftest import python_twins
from scipy.optimize import check_grad
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from newsml import DempsterShaferClassifier, DiscretizedNaiveBayes
from newsml.estimators import PAPER_BINS, trees
from newsml.estimators.dempster_shafer import _loss_and_gradient, combine
from newsml.estimators.trees import FrozenTrees

SKLEARN_VERSION = tuple(int(part) for part in sklearn.__version__.split(".")[:2])


def known_check_bugs(estimator: object) -> dict[str, str]:
    """Checks that are wrong, not the estimator, in the installed scikit-learn."""
    if isinstance(estimator, DempsterShaferClassifier) and SKLEARN_VERSION < (1, 7):
        return {"check_sample_weight_equivalence_on_dense_data":
                "scikit-learn 1.6 relabels a binary-only estimator's targets differently for the "
                "weighted and the repeated fit (fixed in 1.7)"}
    return {}


@parametrize_with_checks([DiscretizedNaiveBayes(), DempsterShaferClassifier()],
                         expected_failed_checks=known_check_bugs)
def test_sklearn_conformance(estimator, check):
    check(estimator)


# -- Dempster's rule, literally (eq. 3-5), over the power set of {news, ~news} ---------
NEWS, NOT, THETA = frozenset({"n"}), frozenset({"~n"}), frozenset({"n", "~n"})


def dempster(masses: list[dict[frozenset, float]]) -> dict[frozenset, float]:
    combined = masses[0]
    for m in masses[1:]:
        out: dict[frozenset, float] = {}
        conflict = 0.0
        for (a, ma), (b, mb) in product(combined.items(), m.items()):
            inter = a & b
            if inter:
                out[inter] = out.get(inter, 0.0) + ma * mb
            else:
                conflict += ma * mb
        combined = {k: v / (1.0 - conflict) for k, v in out.items()}
    return combined


def test_closed_form_equals_dempsters_rule_on_random_evidence():
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = rng.integers(1, 6)
        h = rng.random(n)
        w = rng.uniform(0, 0.99, n)
        positive = rng.random(n) < 0.5
        masses = [{NEWS if pos else NOT: wi * hi, THETA: 1 - wi * hi}
                  for hi, wi, pos in zip(h, w, positive)]
        expected = dempster(masses).get(NEWS, 0.0)
        assert combine(h[None, :], w, positive)[0] == pytest.approx(expected, abs=1e-12)


def test_hand_computed_fusion():
    # positive masses 0.6 and 0.5 give P = 0.8; negative 0.3; m(news) = 0.56 / 0.76
    got = combine(np.array([[0.6, 0.5, 0.3]]), np.ones(3), np.array([True, True, False]))
    assert got[0] == pytest.approx(0.56 / 0.76)


def test_learned_weights_beat_the_papers_fixed_ones():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 2000)
    good = np.clip(0.7 * y + 0.3 * rng.random(2000), 0, 1)      # informative, positive
    noise = rng.random(2000)                                     # uninformative
    against = np.clip(0.8 * (1 - y) + 0.2 * rng.random(2000), 0, 1)  # informative, negative
    X = np.column_stack([good, noise, against])
    fixed = DempsterShaferClassifier(learn_weights=False).fit(X, y)
    learned = DempsterShaferClassifier().fit(X, y)
    assert learned.positive_.tolist() == [True, noise[y == 1].mean() >= noise[y == 0].mean(), False]
    assert learned.weights_[1] < learned.weights_[0]   # the noise column weighs least
    assert learned.score(X, y) > fixed.score(X, y)
    assert np.all((learned.weights_ >= 0) & (learned.weights_ <= 0.99))


def test_explicit_polarity_and_unit_range_scaling():
    X = np.array([[0.0, 10.0], [1.0, 20.0], [0.2, 12.0], [0.9, 19.0]])
    y = np.array(["noise", "news", "noise", "news"])
    clf = DempsterShaferClassifier(polarity=[1, 1]).fit(X, y)
    assert clf.classes_.tolist() == ["news", "noise"] and clf.positive_.tolist() == [True, True]
    assert clf.scale_min_.tolist() == [0.0, 10.0] and clf.scale_span_.tolist() == [1.0, 10.0]
    with pytest.raises(ValueError, match="polarity"):
        DempsterShaferClassifier(polarity=[1, 0]).fit(X, y)


def test_naive_bayes_uses_the_papers_bins():
    X = np.array([[10, 0.05, 0.15, 5], [150, 0.0, 0.12, 6], [15, 0.9, 0.0, 0], [18, 0.85, 0.01, 0]])
    y = np.array([1, 1, 0, 0])
    nb = DiscretizedNaiveBayes().fit(X, y)
    assert [edges.tolist() for edges in nb.edges_] == [list(map(float, e)) for e in PAPER_BINS]
    # unlinked-chars bins: <20 | 20-40 | 40-60 | 60-80 | 80-100 | >=100
    probes = np.array([[19.9, 0, 0, 0], [20, 0, 0, 0], [100, 0, 0, 0]])
    assert nb._digitize(probes)[:, 0].tolist() == [0, 1, 5]
    # Laplace smoothing: class 1 has one of two samples in bin 0 of feature 0 -> (1+1)/(2+6)
    assert np.exp(nb.feature_log_prob_[0][1, 0]) == pytest.approx(2 / 8)
    assert nb.predict([[120, 0.02, 0.2, 4], [5, 0.95, 0.0, 0]]).tolist() == [1, 0]


def test_naive_bayes_learns_quantile_bins_for_other_shapes():
    rng = np.random.default_rng(2)
    X = rng.random((300, 3))
    y = (X[:, 0] > 0.5).astype(int)
    nb = DiscretizedNaiveBayes(bins=4).fit(X, y)
    assert [len(edges) for edges in nb.edges_] == [3, 3, 3]
    assert nb.score(X, y) > 0.9
    with pytest.raises(ValueError, match="edges for 2 columns"):
        DiscretizedNaiveBayes(bins=[[1], [2]]).fit(X, y)


def test_estimators_in_pipeline_and_grid_search():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    # the paper's default bins are for its four block features; generic data takes quantile bins
    nb_grid = {"discretizednaivebayes__alpha": [0.5, 1.0], "discretizednaivebayes__bins": [3, 6]}
    for estimator, grid in [(DiscretizedNaiveBayes(), nb_grid),
                            (DempsterShaferClassifier(),
                             {"dempstershaferclassifier__max_weight": [0.9, 0.99]})]:
        search = GridSearchCV(make_pipeline(MinMaxScaler(), estimator), grid, cv=3).fit(X, y)
        assert search.best_score_ > 0.7


def test_sample_weight_unit_equals_none_and_weights_matter():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 600)
    X = np.column_stack([np.clip(0.6 * y + 0.4 * rng.random(600), 0, 1), rng.random(600)])
    plain = DempsterShaferClassifier().fit(X, y)
    ones = DempsterShaferClassifier().fit(X, y, sample_weight=np.ones(600))
    assert np.allclose(plain.weights_, ones.weights_) and np.allclose(plain.background_, ones.background_)
    # weigh only the rows where the noise column happens to agree with the label
    agree = ((X[:, 1] > 0.5) == (y == 1)).astype(float)
    skewed = DempsterShaferClassifier().fit(X, y, sample_weight=agree + 1e-3)
    assert skewed.weights_[1] > plain.weights_[1]


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


def test_dempster_shafer_gradient_matches_finite_differences():
    rng = np.random.default_rng(5)
    h, y = rng.random((300, 4)), rng.integers(0, 2, 300).astype(float)
    positive, weight = np.array([True, True, False, False]), rng.random(300)
    weight /= weight.sum()
    for _ in range(5):
        w = rng.uniform(0.05, 0.95, 4)
        error = check_grad(lambda v: _loss_and_gradient(v, h, y, positive, weight)[0],
                           lambda v: _loss_and_gradient(v, h, y, positive, weight)[1], w)
        assert error < 1e-4 * max(1.0, np.linalg.norm(_loss_and_gradient(w, h, y, positive, weight)[1]))


def test_naive_bayes_rejects_zero_smoothing():
    with pytest.raises(ValueError, match="alpha must be > 0"):
        DiscretizedNaiveBayes(alpha=0).fit([[1, 0, 0, 0], [200, 1, 1, 5]], [0, 1])


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


def test_dempster_shafer_weights_end_at_the_optimum():
    # the fit's stopping rule is tight enough that the weights are the loss's minimum (its
    # projected gradient is nil), not wherever a library version's path crossed SciPy's
    # default tolerance (gtol 1e-5), so the same rows give the same weights anywhere
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 3000)
    X = np.column_stack([np.clip(0.15 * y + 0.85 * rng.random(3000), 0, 1), rng.random(3000),
                         np.clip(0.15 * (1 - y) + 0.85 * rng.random(3000), 0, 1), rng.random(3000) ** 2])
    clf = DempsterShaferClassifier().fit(X, y)
    h = clf._evidence(X)
    extended = np.hstack([h, np.ones((len(h), 2))])
    positive = np.concatenate([clf.positive_, [True, False]])
    at = np.concatenate([clf.weights_, clf.background_])
    _, gradient = _loss_and_gradient(at, extended, y.astype(float), positive, np.full(len(y), 1 / len(y)))
    free = (at > 1e-9) & (at < clf.max_weight - 1e-9)
    assert free.sum() >= 3
    assert np.abs(gradient[free]).max() < 1e-7
    assert np.all(gradient[at <= 1e-9] > -1e-7) and np.all(gradient[at >= clf.max_weight - 1e-9] < 1e-7)
