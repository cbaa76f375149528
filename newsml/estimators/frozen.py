"""Fitted classifiers kept as plain arrays: what a model file holds for prediction.

:class:`~newsml.estimators.DempsterShaferClassifier` and
:class:`~newsml.estimators.DiscretizedNaiveBayes` are scikit-learn estimators, so
unpickling one imports scikit-learn and SciPy: most of the start-up time and memory
of ``newsml predict``, for a prediction that is a few numpy operations. Methods keep
their fitted state instead (like :class:`~newsml.estimators.trees.FrozenTrees` for the
boosted trees): the same fitted attributes, the same arithmetic, the same
probabilities; no scikit-learn input validation (the callers pass float matrices).
"""

from __future__ import annotations

from typing import Any

import numpy as np

_EPS = 1e-9
#: Most rows :meth:`FrozenDempsterShafer.belief` combines at once.
BELIEF_ROWS = 8192


def combine(h: np.ndarray, weights: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """m({news}) for each row of evidence values ``h`` in [0, 1] (Dempster's rule)."""
    P = 1.0 - np.prod(_doubt(h, weights, positive), axis=1)
    N = 1.0 - np.prod(_doubt(h, weights, ~positive), axis=1)
    return P * (1.0 - N) / np.maximum(1.0 - P * N, _EPS)


def _doubt(h: np.ndarray, weights: np.ndarray, which: np.ndarray) -> np.ndarray:
    """``1 - h * weights`` of the columns ``which``, in one new matrix (no intermediate
    copies, which are large on a large page)."""
    doubt = h[:, which] * weights[which]
    return np.subtract(1.0, doubt, out=doubt)


def expit(x: np.ndarray) -> np.ndarray:
    """The logistic function 1 / (1 + exp(-x)), as ``scipy.special.expit`` computes it."""
    with np.errstate(over="ignore"):   # exp(-x) = inf for x < -709: the result is 0, as it should be
        return 1.0 / (1.0 + np.exp(-x))


def scaled_evidence(X: np.ndarray, scale_min: np.ndarray, scale_span: np.ndarray,
                    ones: int = 0) -> np.ndarray:
    """Evidence columns scaled to [0, 1] by the training range (clipped outside it), then
    ``ones`` columns of 1 (the background's, see :func:`belief`), in one new matrix."""
    scaled = np.empty((len(X), X.shape[1] + ones))
    evidence = scaled[:, :X.shape[1]]
    np.subtract(X, scale_min, out=evidence)
    np.divide(evidence, scale_span, out=evidence)
    np.clip(evidence, 0.0, 1.0, out=evidence)
    scaled[:, X.shape[1]:] = 1.0
    return scaled


def belief(h: np.ndarray, weights: np.ndarray, positive: np.ndarray, background: np.ndarray) -> np.ndarray:
    """m({news}) of scaled evidence ``h``, with the two background columns (one for each
    class, always 1) when their weights are not zero: ``h`` may hold them already, last."""
    if not background.any():
        return combine(h, weights, positive)
    if h.shape[1] == len(weights):
        h = np.hstack([h, np.ones((len(h), 2))])
    return combine(h, np.concatenate([weights, background]), np.concatenate([positive, [True, False]]))


def joint_log_proba(X: np.ndarray, class_log_prior: np.ndarray, edges: list[np.ndarray],
                    feature_log_prob: list[np.ndarray]) -> np.ndarray:
    """Unnormalized log P(c) + sum_j log P(bin_j | c) of each row, one column per class."""
    joint = np.tile(class_log_prior, (X.shape[0], 1))
    for j, (column_edges, table) in enumerate(zip(edges, feature_log_prob)):
        joint += table[:, np.digitize(X[:, j], column_edges)].T
    return joint


def log_normalize(joint: np.ndarray) -> np.ndarray:
    """Log-probabilities from unnormalized joint log-probabilities (rows sum to 1)."""
    top = joint.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    return joint - (top + np.log(np.exp(joint - top).sum(axis=1, keepdims=True)))


def _rows(X: Any, n_features: int, owner: str) -> np.ndarray:
    """``X`` as a finite float matrix of ``n_features`` columns, else ValueError."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != n_features:
        raise ValueError(f"X has shape {X.shape}, but {owner} is expecting {n_features} features as input")
    if not np.isfinite(X).all():
        raise ValueError(f"Input X contains NaN or infinity ({owner})")
    return X


class FrozenDempsterShafer:
    """The fitted state of a DempsterShaferClassifier and its ``belief``/``predict_proba``."""

    def __init__(self, classes_: np.ndarray, scale_min_: np.ndarray, scale_span_: np.ndarray,
                 positive_: np.ndarray, weights_: np.ndarray, background_: np.ndarray):
        self.classes_ = classes_
        self.scale_min_ = scale_min_
        self.scale_span_ = scale_span_
        self.positive_ = positive_
        self.weights_ = weights_
        self.background_ = background_
        self.n_features_in_ = len(weights_)

    @classmethod
    def from_estimator(cls, model: Any) -> FrozenDempsterShafer:
        """Copy the fitted arrays of ``model``, a fitted DempsterShaferClassifier."""
        return cls(*(np.array(getattr(model, name)) for name in
                     ("classes_", "scale_min_", "scale_span_", "positive_", "weights_", "background_")))

    def belief(self, X: Any) -> np.ndarray:
        """m({news}): the combined belief in the positive class, one value per row.

        Rows go through in blocks of at most :data:`BELIEF_ROWS`: each row's belief is its
        own, and a block's scaled copies stay small however large the page (all at once,
        they were a large page's largest allocation after the evidence matrix)."""
        X = _rows(X, self.n_features_in_, "FrozenDempsterShafer")
        if len(X) <= BELIEF_ROWS:
            return self._belief(X)
        return np.concatenate([self._belief(X[start:start + BELIEF_ROWS])
                               for start in range(0, len(X), BELIEF_ROWS)])

    def _belief(self, X: np.ndarray) -> np.ndarray:
        h = scaled_evidence(X, self.scale_min_, self.scale_span_, ones=2 if self.background_.any() else 0)
        return belief(h, self.weights_, self.positive_, self.background_)

    def predict_proba(self, X: Any) -> np.ndarray:
        """``[1 - m({news}), m({news})]`` per row, columns in the order of ``classes_``."""
        m = self.belief(X)
        return np.column_stack([1.0 - m, m])

    def predict(self, X: Any) -> np.ndarray:
        return self.classes_[(self.belief(X) >= 0.5).astype(int)]


class FrozenNaiveBayes:
    """The fitted state of a DiscretizedNaiveBayes and its ``predict_proba``."""

    def __init__(self, classes_: np.ndarray, edges_: list[np.ndarray], class_log_prior_: np.ndarray,
                 feature_log_prob_: list[np.ndarray]):
        self.classes_ = classes_
        self.edges_ = edges_
        self.class_log_prior_ = class_log_prior_
        self.feature_log_prob_ = feature_log_prob_
        self.n_features_in_ = len(edges_)

    @classmethod
    def from_estimator(cls, model: Any) -> FrozenNaiveBayes:
        """Copy the fitted arrays of ``model``, a fitted DiscretizedNaiveBayes."""
        return cls(np.array(model.classes_), [np.array(e) for e in model.edges_],
                   np.array(model.class_log_prior_), [np.array(t) for t in model.feature_log_prob_])

    def predict_joint_log_proba(self, X: Any) -> np.ndarray:
        """Unnormalized log P(c) + sum_j log P(bin_j | c), one column per class."""
        X = _rows(X, self.n_features_in_, "FrozenNaiveBayes")
        return joint_log_proba(X, self.class_log_prior_, self.edges_, self.feature_log_prob_)

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Log class probabilities, columns in the order of ``classes_``."""
        return log_normalize(self.predict_joint_log_proba(X))

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities, columns in the order of ``classes_``."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X: Any) -> np.ndarray:
        return self.classes_[np.argmax(self.predict_joint_log_proba(X), axis=1)]
