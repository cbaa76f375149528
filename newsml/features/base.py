"""The common shape of feature transformers: pages in, one row per text node out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from ..parse import Document


class NodeFeatures(TransformerMixin, BaseEstimator):
    """Turns parsed pages into a matrix with one row per text node (pages concatenated).

    Rows follow the pages in order and the nodes of each page in document order, so
    every family lines up row for row inside a :class:`~sklearn.pipeline.FeatureUnion`.
    Subclasses implement :meth:`page_features` and set ``feature_names``.
    """

    feature_names: tuple[str, ...] = ()

    def fit(self, docs: Sequence[Document], y: object = None) -> NodeFeatures:
        """Nothing to learn: features are computed per page. Returns self."""
        self.n_features_out_ = len(self.feature_names)
        return self

    def transform(self, docs: Sequence[Document]) -> np.ndarray:
        """Stacked rows of every page's text nodes."""
        width = len(self.feature_names)
        blocks = [self.page_features(doc) for doc in docs]
        if not blocks:
            return np.zeros((0, width))
        return np.vstack([block.reshape(-1, width) for block in blocks])

    def page_features(self, doc: Document) -> np.ndarray:
        """The rows of one page: shape ``(len(doc.nodes), len(feature_names))``."""
        raise NotImplementedError

    def get_feature_names_out(self, input_features: object = None) -> np.ndarray:
        """Names of the output columns, prefixed by nothing (FeatureUnion adds its own)."""
        return np.asarray(self.feature_names, dtype=object)
