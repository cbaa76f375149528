"""What every extraction method is: a scorer of text nodes with a fit/predict interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator

from ..parse import Document


class NodeMethod(BaseEstimator):
    """Scores each text node of a page in [0, 1]; nodes scoring at least 0.5 are the article.

    Subclasses implement :meth:`score_nodes`. Rule-based methods keep the paper's
    constants as constructor parameters; their :meth:`fit` is a no-op unless they
    override it to tune those constants on labeled pages.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def fit(self, docs: Sequence[Document], labels: Sequence[np.ndarray] | None = None) -> NodeMethod:
        """Learn from parsed pages and their per-node 0/1 labels; rules keep their defaults."""
        return self

    def score_nodes(self, doc: Document) -> np.ndarray:
        """One score in [0, 1] per text node of ``doc`` (``len(doc.nodes)`` values)."""
        raise NotImplementedError

    def select(self, doc: Document, scores: np.ndarray) -> np.ndarray:
        """Boolean mask of the nodes that make up the article, from their scores."""
        return scores >= 0.5

    def predict(self, docs: Sequence[Document]) -> list[np.ndarray]:
        """Per page, the boolean mask of its article nodes."""
        return [self.select(doc, self.score_nodes(doc)) for doc in docs]
