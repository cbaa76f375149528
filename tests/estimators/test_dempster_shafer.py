"""newsml/estimators/dempster_shafer.py: Dempster's rule in closed form, its learned weights,
and scikit-learn's estimator checks."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
import sklearn
from scipy.optimize import check_grad
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from newsml import DempsterShaferClassifier
from newsml.estimators.dempster_shafer import _loss_and_gradient, combine

SKLEARN_VERSION = tuple(int(part) for part in sklearn.__version__.split(".")[:2])


def known_check_bugs(estimator: object) -> dict[str, str]:
    """Checks that are wrong, not the estimator, in the installed scikit-learn."""
    if isinstance(estimator, DempsterShaferClassifier) and SKLEARN_VERSION < (1, 7):
        return {"check_sample_weight_equivalence_on_dense_data":
                "scikit-learn 1.6 relabels a binary-only estimator's targets differently for the "
                "weighted and the repeated fit (fixed in 1.7)"}
    return {}


@parametrize_with_checks([DempsterShaferClassifier()], expected_failed_checks=known_check_bugs)
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


def test_in_a_pipeline_and_a_grid_search():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    grid = {"dempstershaferclassifier__max_weight": [0.9, 0.99]}
    search = GridSearchCV(make_pipeline(MinMaxScaler(), DempsterShaferClassifier()), grid, cv=3).fit(X, y)
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
