"""Dempster-Shafer fusion of evidence columns (eq. 1-5 of CEDST: Zhang et al., *Automatic Web
News Extraction Based on DS Theory Considering Content Topics*, ICCS 2018).

Each column is a piece of evidence about a sample (a text node) on the frame
{news, ~news}. A positive column puts mass ``alpha_i * h_i`` on {news} (eq. 1), a
negative one ``beta_j * h_j`` on {~news} (eq. 2); the rest goes to Theta. For such
simple support functions Dempster's rule (eq. 3-5) has a closed form:

    P = 1 - prod_i (1 - alpha_i h_i)     (positive columns combined)
    N = 1 - prod_j (1 - beta_j h_j)      (negative columns combined)
    m({news}) = P (1 - N) / (1 - P N)    (K = 1 - P N)

``predict_proba`` returns ``[1 - m({news}), m({news})]``. The paper fixes the weights
near 1; here that is the starting point (``weights=0.9``) and ``fit`` learns better
ones by minimizing the log-loss of m({news}) against the labels (L-BFGS-B, analytic
gradient, weights bounded to [0, ``max_weight``] so K never reaches 0).

With ``background=True`` two more pieces of evidence take part: one constant mass on
{news} and one on {~news}, present for every sample and learned with the weights.
They are the prior of the frame: without them a node with no evidence at all gets
belief 0 and the fused belief is not calibrated, so 0.5 would be an arbitrary cut.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import minimize
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .frozen import _EPS, belief, combine, scaled_evidence

__all__ = ["DempsterShaferClassifier", "combine"]


def _loss_and_gradient(weights: np.ndarray, h: np.ndarray, y: np.ndarray,
                       positive: np.ndarray, sample_weight: np.ndarray) -> tuple[float, np.ndarray]:
    mass = h * weights
    rest = 1.0 - mass
    P = 1.0 - np.prod(rest[:, positive], axis=1)
    N = 1.0 - np.prod(rest[:, ~positive], axis=1)
    K = np.maximum(1.0 - P * N, _EPS)
    m = np.clip(P * (1.0 - N) / K, _EPS, 1.0 - _EPS)
    loss = -np.sum(sample_weight * (y * np.log(m) + (1.0 - y) * np.log(1.0 - m)))
    dloss_dm = -sample_weight * (y / m - (1.0 - y) / (1.0 - m))
    dm_dP = (1.0 - N) / K ** 2
    dm_dN = -P * (1.0 - P) / K ** 2
    safe_rest = np.maximum(rest, _EPS)
    grad = np.empty_like(weights)
    # dP/dw_i = h_i (1 - P) / (1 - w_i h_i); the same form for N on negative columns
    grad[positive] = ((dloss_dm * dm_dP * (1.0 - P))[:, None] * h[:, positive]
                      / safe_rest[:, positive]).sum(0)
    grad[~positive] = ((dloss_dm * dm_dN * (1.0 - N))[:, None] * h[:, ~positive]
                       / safe_rest[:, ~positive]).sum(0)
    return float(loss), grad


#: L-BFGS-B's stopping rule for the weights, far tighter than SciPy's default (ftol 2.2e-9,
#: gtol 1e-5), and 30 corrections kept instead of 10: a fit then ends at the optimum, not
#: wherever a library version's path crossed the tolerance, so OpenBLAS's kernels agree closely
#: (with 10 corrections a weighted fit and one on repeated rows ended apart: scikit-learn's
#: check of sample weights). Figures: docs/decisions/2026-12-02-fits-to-optimum.md.
WEIGHT_FIT = {"ftol": 1e-13, "gtol": 1e-9, "maxiter": 15_000, "maxcor": 30}


def _or_none(weights: np.ndarray) -> np.ndarray | None:
    """Weights for np.average, or None (plain mean) when they are all zero."""
    return weights if weights.sum() > 0 else None


class DempsterShaferClassifier(ClassifierMixin, BaseEstimator):
    """Binary classifier fusing evidence columns with Dempster's rule of combination.

    Parameters
    ----------
    polarity : "auto" or sequence of +1/-1
        Whether each column supports {news} (+1) or {~news} (-1). "auto" reads it from
        the training data: a column whose mean is higher on the positive class is positive.
    weights : float or sequence of float
        Initial alpha/beta per column (the paper: near 1).
    learn_weights : bool
        Learn the weights by minimizing log-loss; else keep ``weights`` as given.
    max_weight : float
        Upper bound of the weights (< 1, so the normalizer K of eq. 5 stays positive).
    background : bool
        Add learned constant evidence for each side (see the module notes); used when
        ``learn_weights``.

    ``predict`` says the positive class when m({news}) >= 0.5. Columns are evidence
    values in [0, 1]; a column seen outside that range in ``fit`` is min-max scaled
    with the training range (and clipped) instead.
    """

    def __init__(self, polarity: str | Sequence[int] = "auto", weights: float | Sequence[float] = 0.9,
                 learn_weights: bool = True, max_weight: float = 0.99, background: bool = True):
        self.polarity = polarity
        self.weights = weights
        self.learn_weights = learn_weights
        self.max_weight = max_weight
        self.background = background

    def fit(self, X, y, sample_weight=None) -> DempsterShaferClassifier:
        """Learn evidence scaling, polarities (when "auto") and weights (when asked).

        ``sample_weight`` weighs each row's log-loss (e.g. a text node's tokens, so the
        fit serves a token-level score); polarities use the weighted means as well.
        """
        X, y = validate_data(self, X, y)
        sample_weight = _check_sample_weight(sample_weight, X)
        sample_weight = sample_weight / sample_weight.sum() if sample_weight.sum() > 0 else sample_weight
        check_classification_targets(y)
        target_type = type_of_target(y)
        if target_type != "binary":
            raise ValueError("Only binary classification is supported. "
                             f"The type of the target is {target_type}.")
        if len(np.unique(y)) < 2:
            raise ValueError("DempsterShaferClassifier needs samples of 2 classes; got 1 class")
        if not 0 < self.max_weight < 1:
            raise ValueError(f"max_weight must be in (0, 1), got {self.max_weight}")
        self.classes_ = np.unique(y)
        target = (y == self.classes_[1]).astype(float)
        low, high = X.min(axis=0), X.max(axis=0)
        inside = (low >= 0) & (high <= 1)
        self.scale_min_ = np.where(inside, 0.0, low)
        span = np.where(inside, 1.0, high - low)
        self.scale_span_ = np.where(span > 0, span, 1.0)
        h = self._evidence(X)
        self.positive_ = self._polarity(h, target, sample_weight)
        try:
            start = np.broadcast_to(np.asarray(self.weights, dtype=float), (X.shape[1],)).copy()
        except ValueError:
            raise ValueError("weights must be one value or one per column") from None
        if np.any((start < 0) | (start > 1)):
            raise ValueError("weights must lie in [0, 1]")
        start = np.minimum(start, self.max_weight)
        self.background_ = np.zeros(2)
        self.n_iter_ = 0
        self.weights_ = start
        if self.learn_weights:
            n = X.shape[1]
            extended = np.hstack([h, np.ones((len(h), 2))]) if self.background else h
            positive = np.concatenate([self.positive_, [True, False]]) if self.background else self.positive_
            initial = np.concatenate([start, [0.0, 0.0]]) if self.background else start
            result = minimize(_loss_and_gradient, initial, jac=True, method="L-BFGS-B",
                              args=(extended, target, positive, sample_weight),
                              bounds=[(0.0, self.max_weight)] * len(initial), options=WEIGHT_FIT)
            self.weights_ = result.x[:n]
            if self.background:
                self.background_ = result.x[n:]
            self.n_iter_ = int(result.nit)
        return self

    def belief(self, X) -> np.ndarray:
        """m({news}): the combined belief in the positive class, one value per row."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return belief(self._evidence(X), self.weights_, self.positive_, self.background_)

    def predict_proba(self, X) -> np.ndarray:
        """``[1 - m({news}), m({news})]`` per row, columns in the order of ``classes_``."""
        m = self.belief(X)
        return np.column_stack([1.0 - m, m])

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self)
        return self.classes_[(self.belief(X) >= 0.5).astype(int)]

    def _evidence(self, X: np.ndarray) -> np.ndarray:
        return scaled_evidence(X, self.scale_min_, self.scale_span_)

    def _polarity(self, h: np.ndarray, target: np.ndarray, sample_weight: np.ndarray) -> np.ndarray:
        if isinstance(self.polarity, str):
            if self.polarity != "auto":
                raise ValueError(f"polarity must be 'auto' or a sequence of +1/-1, not {self.polarity!r}")
            pos, neg = target == 1, target == 0
            pos_mean = np.average(h[pos], axis=0, weights=_or_none(sample_weight[pos]))
            neg_mean = np.average(h[neg], axis=0, weights=_or_none(sample_weight[neg]))
            return pos_mean >= neg_mean
        signs = np.asarray(self.polarity)
        if signs.shape != (h.shape[1],) or not np.all(np.isin(signs, (-1, 1))):
            raise ValueError("polarity must hold one +1 or -1 per column")
        return signs > 0

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
