"""newsml/estimators/naive_bayes.py: the naive-Bayes paper's discretized classifier, its bins
and smoothing, and scikit-learn's estimator checks."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from newsml import DiscretizedNaiveBayes
from newsml.estimators import PAPER_BINS


@parametrize_with_checks([DiscretizedNaiveBayes()])
def test_sklearn_conformance(estimator, check):
    check(estimator)


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


def test_naive_bayes_rejects_zero_smoothing():
    with pytest.raises(ValueError, match="alpha must be > 0"):
        DiscretizedNaiveBayes(alpha=0).fit([[1, 0, 0, 0], [200, 1, 1, 5]], [0, 1])


def test_in_a_pipeline_and_a_grid_search():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    # the paper's default bins are for its four block features; generic data takes quantile bins
    grid = {"discretizednaivebayes__alpha": [0.5, 1.0], "discretizednaivebayes__bins": [3, 6]}
    search = GridSearchCV(make_pipeline(MinMaxScaler(), DiscretizedNaiveBayes()), grid, cv=3).fit(X, y)
    assert search.best_score_ > 0.7
