"""Discretized naive Bayes over block features (Wang et al., CCTA 2013).

Each feature is cut into bins (the paper's by default), class-conditional bin
frequencies are counted with Laplace smoothing, and classes are scored by the naive
product of eq. 12-15.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .frozen import joint_log_proba, log_normalize

#: Bin edges of the paper, for the columns of :class:`newsml.features.NaiveBayesFeatures`:
#: unlinked characters (<20, four equal bins to 100, >=100), link ratio (<10%, 10-50%,
#: 50-80%, >=80%), punctuation ratio (<2%, 2-10%, >=10%), <p> count (0, 1-3, >3).
PAPER_BINS: tuple[tuple[float, ...], ...] = (
    (20, 40, 60, 80, 100),
    (0.10, 0.50, 0.80),
    (0.02, 0.10),
    (1, 4),
)


class DiscretizedNaiveBayes(ClassifierMixin, BaseEstimator):
    """Naive Bayes on binned numeric features, with Laplace smoothing.

    Parameters
    ----------
    bins : "paper", int or sequence of edge sequences
        "paper": the paper's edges (:data:`PAPER_BINS`) when X has its four columns,
        else ``n_bins`` quantile bins per column. An int: that many quantile bins per
        column, learned in ``fit``. A sequence: explicit increasing edges per column
        (a value ``x`` falls in bin ``i`` when ``edges[i-1] <= x < edges[i]``).
    n_bins : int
        Quantile bins per column where ``bins`` asks for learned edges.
    alpha : float
        Laplace (additive) smoothing of bin counts, > 0.

    The paper's bins are cut for its four block features (characters, ratios, counts);
    on other data with four columns, pass ``bins=int`` for learned quantile bins.
    fit_prior : bool
        Learn class priors from the data (else uniform).
    """

    def __init__(self, bins: str | int | Sequence[Sequence[float]] = "paper", n_bins: int = 5,
                 alpha: float = 1.0, fit_prior: bool = True):
        self.bins = bins
        self.n_bins = n_bins
        self.alpha = alpha
        self.fit_prior = fit_prior

    def fit(self, X, y) -> DiscretizedNaiveBayes:
        """Learn bin edges (where asked), class priors and smoothed bin frequencies."""
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        if not self.alpha > 0:
            raise ValueError(f"alpha must be > 0 (Laplace smoothing; 0 leaves empty bins at log 0), "
                             f"got {self.alpha}")
        self.classes_, y_index = np.unique(y, return_inverse=True)
        self.edges_ = self._edges(X)
        binned = self._digitize(X)
        n_classes = len(self.classes_)
        self.class_count_ = np.bincount(y_index, minlength=n_classes).astype(float)
        if self.fit_prior:
            self.class_log_prior_ = np.log(self.class_count_ / self.class_count_.sum())
        else:
            self.class_log_prior_ = np.full(n_classes, -np.log(n_classes))
        self.feature_log_prob_ = []
        for j, edges in enumerate(self.edges_):
            n_bins = len(edges) + 1
            counts = np.zeros((n_classes, n_bins))
            np.add.at(counts, (y_index, binned[:, j]), 1.0)
            smoothed = counts + self.alpha
            totals = smoothed.sum(axis=1, keepdims=True)
            with np.errstate(divide="ignore"):
                self.feature_log_prob_.append(np.log(smoothed / np.where(totals > 0, totals, 1.0)))
        return self

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """Unnormalized log P(c) + sum_j log P(bin_j | c), one column per class."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return joint_log_proba(X, self.class_log_prior_, self.edges_, self.feature_log_prob_)

    def predict_log_proba(self, X) -> np.ndarray:
        return log_normalize(self.predict_joint_log_proba(X))

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities, columns in the order of ``classes_``."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_joint_log_proba(X), axis=1)]

    def _edges(self, X: np.ndarray) -> list[np.ndarray]:
        n_features = X.shape[1]
        if isinstance(self.bins, str):
            if self.bins != "paper":
                raise ValueError(f"bins must be 'paper', an int or edge lists, not {self.bins!r}")
            if n_features == len(PAPER_BINS):
                return [np.asarray(edges, dtype=float) for edges in PAPER_BINS]
            return self._quantile_edges(X, self.n_bins)
        if isinstance(self.bins, (int, np.integer)):
            return self._quantile_edges(X, int(self.bins))
        edges = [np.asarray(e, dtype=float) for e in self.bins]
        if len(edges) != n_features:
            raise ValueError(f"bins has edges for {len(edges)} columns, X has {n_features}")
        for e in edges:
            if e.ndim != 1 or np.any(np.diff(e) <= 0):
                raise ValueError("bin edges must be strictly increasing 1-d sequences")
        return edges

    @staticmethod
    def _quantile_edges(X: np.ndarray, n_bins: int) -> list[np.ndarray]:
        if n_bins < 1:
            raise ValueError(f"the number of bins must be >= 1, got {n_bins}")
        qs = np.linspace(0, 1, n_bins + 1)[1:-1]
        return [np.unique(np.quantile(X[:, j], qs)) if qs.size else np.array([])
                for j in range(X.shape[1])]

    def _digitize(self, X: np.ndarray) -> np.ndarray:
        return np.column_stack([np.digitize(X[:, j], edges) for j, edges in enumerate(self.edges_)]) \
            if X.shape[1] else np.zeros((X.shape[0], 0), dtype=int)
