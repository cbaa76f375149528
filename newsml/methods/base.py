"""What every extraction method is: a scorer of text nodes with a fit/predict interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator

from ..parse import Document


class NodeMethod(BaseEstimator):
    """Scores each text node of a page in [0, 1]; :meth:`select` picks the article's nodes.

    ``X`` is a sequence of parsed pages (:class:`~newsml.parse.Document`), ``y`` the
    matching per-node 0/1 labels (:func:`newsml.align.align_labels`). Rule-based
    methods keep the paper's constants as constructor parameters and need no ``fit``;
    learned methods set ``requires_fit`` and keep their fitted state in ``_`` attributes.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    #: Whether the method cannot score pages before ``fit`` (learned methods).
    requires_fit: ClassVar[bool] = False

    def fit(self, X: Sequence[Document], y: Sequence[np.ndarray] | None = None) -> NodeMethod:
        """Learn from parsed pages and their per-node labels; rules keep their defaults."""
        return self

    def score_nodes(self, doc: Document) -> np.ndarray:
        """One score in [0, 1] per text node of ``doc`` (``len(doc.nodes)`` values)."""
        raise NotImplementedError

    def select(self, doc: Document, scores: np.ndarray) -> np.ndarray:
        """Boolean mask of the nodes that make up the article, from their scores."""
        return scores >= 0.5

    def predict(self, X: Sequence[Document]) -> list[np.ndarray]:
        """Per page, the boolean mask of its article nodes."""
        return [self.select(doc, self.score_nodes(doc)) for doc in X]

    def _reset(self) -> None:
        """Forget what an earlier ``fit`` learned (a new fit starts from scratch)."""
        for key in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, key)

    def __sklearn_is_fitted__(self) -> bool:
        """Rule methods are usable as built; learned ones once ``fit`` has run."""
        if not self.requires_fit:
            return True
        return any(key.endswith("_") and not key.startswith("_") for key in vars(self))


class TunableRuleMethod(NodeMethod):
    """A rule method whose thresholds ``fit`` may tune on labeled pages.

    Constructor parameters hold the paper's defaults. ``fit`` tries every combination
    of ``search_space`` (a :class:`sklearn.model_selection.ParameterGrid`) and keeps the
    one with the best macro F1 over the training pages in ``best_params_``; the
    constructor parameters themselves stay as given. Unfitted, the defaults apply.
    """

    search_space: ClassVar[dict[str, list]] = {}

    def fit(self, X: Sequence[Document], y: Sequence[np.ndarray] | None = None) -> TunableRuleMethod:
        """Choose thresholds by grid search over ``search_space`` (no labels: keep the defaults)."""
        self._reset()
        if y is None or not self.search_space:
            return self
        from sklearn.base import clone
        from sklearn.model_selection import ParameterGrid

        from ..scoring import mask_score

        docs, labels = list(X), [np.asarray(lab).astype(bool) for lab in y]
        weights = [np.array([node.n_tokens for node in doc.nodes], dtype=float) for doc in docs]
        best_f1, best = -1.0, {}
        for params in ParameterGrid(self.search_space):
            candidate = clone(self).set_params(**params)
            f1 = float(np.mean([mask_score(w, candidate.select(d, candidate.score_nodes(d)), lab).f1
                                for d, w, lab in zip(docs, weights, labels)]))
            if f1 > best_f1:
                best_f1, best = f1, params
        self.best_params_, self.fit_f1_ = best, best_f1
        return self

    def param(self, name: str):
        """The value in force: the tuned one after ``fit``, else the constructor's."""
        return getattr(self, "best_params_", {}).get(name, getattr(self, name))
