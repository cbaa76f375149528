"""A fitted binary gradient-boosting model kept as plain arrays.

Fusion's second stage is trained with scikit-learn's HistGradientBoostingClassifier.
Pickling that object would tie the shipped model to the scikit-learn release that
made it (its tree records are internal and change between releases), and its predict
walks the trees one Python call at a time. :class:`FrozenTrees` copies the trees'
splits and leaf values into numpy arrays once, after fitting, and predicts all trees
for all rows together: the same probabilities, loadable under any scikit-learn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .frozen import expit

if TYPE_CHECKING:
    from sklearn.ensemble import HistGradientBoostingClassifier

#: Rows scored together (see :meth:`FrozenTrees.decision_function`): a page's nodes, in
#: blocks that keep the descent under about 4 MB with a hundred trees (a block costs
#: about 60 bytes per row and tree; the largest news pages have a few thousand nodes).
ROWS_PER_BLOCK = 512


class FrozenTrees:
    """Additive regression trees plus a baseline; ``predict_proba`` like a binary classifier.

    Node arrays hold every tree's nodes back to back: ``feature``, ``threshold`` (go
    left when ``x <= threshold``), ``missing_left`` (where NaN goes), ``left``/``right``
    (global indices of the children), ``leaf`` and ``value``; ``roots`` are the trees'
    first nodes.
    """

    def __init__(self, feature: np.ndarray, threshold: np.ndarray, missing_left: np.ndarray,
                 left: np.ndarray, right: np.ndarray, leaf: np.ndarray, value: np.ndarray,
                 roots: np.ndarray, baseline: float, n_features: int):
        self.feature = feature
        self.threshold = threshold
        self.missing_left = missing_left
        self.left = left
        self.right = right
        self.leaf = leaf
        self.value = value
        self.roots = roots
        self.baseline = baseline
        self.n_features = n_features

    @classmethod
    def from_estimator(cls, model: HistGradientBoostingClassifier, check_rows: np.ndarray | None = None,
                       ) -> FrozenTrees:
        """Copy a fitted binary HistGradientBoostingClassifier on numeric features.

        The copy reads scikit-learn's private tree records; with ``check_rows`` it
        predicts them both ways and raises RuntimeError if a release changed their meaning.
        """
        if len(model.classes_) != 2:
            raise ValueError("FrozenTrees holds binary classifiers only")
        records = [tree.nodes for (tree,) in model._predictors]
        categorical = getattr(model, "is_categorical_", None)
        if (categorical is not None and np.any(categorical)) or any(
                nodes["is_categorical"].any() for nodes in records):
            raise ValueError("FrozenTrees does not support categorical features")
        offsets = np.cumsum([0] + [len(nodes) for nodes in records[:-1]]).astype(np.int64)
        nodes = np.concatenate(records)
        shift = np.repeat(offsets, [len(r) for r in records])
        leaf = nodes["is_leaf"].astype(bool)
        frozen = cls(
            feature=nodes["feature_idx"].astype(np.int64),
            threshold=nodes["num_threshold"].astype(float),
            missing_left=nodes["missing_go_to_left"].astype(bool),
            left=np.where(leaf, np.arange(len(nodes)), nodes["left"].astype(np.int64) + shift),
            right=np.where(leaf, np.arange(len(nodes)), nodes["right"].astype(np.int64) + shift),
            leaf=leaf,
            value=nodes["value"].astype(float),
            roots=offsets,
            baseline=float(np.ravel(model._baseline_prediction)[0]),
            n_features=int(model.n_features_in_),
        )
        if check_rows is not None and len(check_rows) and not np.allclose(
                frozen.predict_proba(check_rows), model.predict_proba(check_rows), atol=1e-9):
            raise RuntimeError("this scikit-learn's boosted trees cannot be copied: their internal "
                               "records changed; please report it with your scikit-learn version")
        return frozen

    @classmethod
    def constant(cls, probability: float, n_features: int) -> FrozenTrees:
        """No trees: every row gets ``probability`` (for training rows of one class)."""
        p = min(max(probability, 1e-6), 1.0 - 1e-6)
        empty_int, empty = np.zeros(0, dtype=np.int64), np.zeros(0)
        return cls(empty_int, empty, empty.astype(bool), empty_int, empty_int, empty.astype(bool), empty,
                   empty_int, float(np.log(p / (1.0 - p))), n_features)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """Raw score (log-odds of the positive class) per row.

        Rows go through in blocks of :data:`ROWS_PER_BLOCK`: the descent keeps several
        arrays of one entry per (row, tree) pair, about 60 bytes per pair.
        """
        X = np.ascontiguousarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.n_features:
            raise ValueError(f"expected rows of {self.n_features} features, got shape {X.shape}")
        if len(X) <= ROWS_PER_BLOCK:
            return self._descend(X)
        return np.concatenate([self._descend(X[i:i + ROWS_PER_BLOCK])
                               for i in range(0, len(X), ROWS_PER_BLOCK)])

    def _descend(self, X: np.ndarray) -> np.ndarray:
        n_rows, n_trees, n_features = len(X), len(self.roots), X.shape[1]
        flat = X.ravel()
        at = np.tile(self.roots, n_rows)                       # row i, tree j at i * n_trees + j
        start = np.repeat(np.arange(n_rows) * n_features, n_trees)   # row i's offset in flat
        children = np.column_stack([self.left, self.right]).ravel()  # node k: 2k left, 2k+1 right
        missing = np.isnan(flat).any()
        active = np.flatnonzero(~self.leaf[at])
        while active.size:                                     # descend until every pair sits on a leaf
            node = at[active]
            x = flat[start[active] + self.feature[node]]
            go_right = ~(x <= self.threshold[node])
            if missing:
                go_right = np.where(np.isnan(x), ~self.missing_left[node], go_right)
            node = children[2 * node + go_right]
            at[active] = node
            active = active[~self.leaf[node]]
        return self.baseline + self.value[at].reshape(n_rows, n_trees).sum(axis=1)

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """``[P(0), P(1)]`` per row."""
        positive = expit(self.decision_function(X))
        return np.column_stack([1.0 - positive, positive])
