"""The naive-Bayes block method (Wang et al., CCTA 2013) as a node method.

Training and prediction happen on the paper's blocks (:func:`newsml.dom.groupings.nb_blocks`);
a block is content when at least half of its characters are in gold-labeled text
nodes. Each text node is scored with its block's probability of being content; the
paper keeps a block when P(content) >= P(noise), i.e. a score >= 0.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..dom.groupings import NB_BLOCK_TAGS
from ..dom.page import Page
from ..errors import NewsmlError
from ..estimators.frozen import FrozenNaiveBayes
from ..features.blocks import (
    NaiveBayesFeatures,
    block_rows,
    member_rows,
    page_nb_block_of_nodes,
    page_nb_blocks,
)
from .base import NodeMethod, check_fitted


class NaiveBayesMethod(NodeMethod):
    """Discretized naive Bayes over the paper's four block features."""

    name = "nb"
    summary = "naive Bayes over block features (link ratio, punctuation, unlinked chars, <p> count)"
    requires_fit = True
    ships_model = True

    def __init__(self, bins="paper", alpha: float = 1.0, block_tags: tuple[str, ...] = NB_BLOCK_TAGS,
                 merge_siblings: bool = True):
        self.bins = bins
        self.alpha = alpha
        self.block_tags = block_tags
        self.merge_siblings = merge_siblings

    def __setstate__(self, state: dict[str, Any]) -> None:
        # model files from before frozen classifiers held the scikit-learn classifier itself
        if type(state.get("classifier_")).__name__ == "DiscretizedNaiveBayes":
            state["classifier_"] = FrozenNaiveBayes.from_estimator(state["classifier_"])
        super().__setstate__(state)

    def _blocks(self, page: Page) -> list[np.ndarray]:
        return page_nb_blocks(page, self.block_tags, self.merge_siblings)

    def fit(self, X: Sequence[Page], y: Sequence[np.ndarray] | None = None,
            groups: Sequence[object] | None = None) -> NaiveBayesMethod:
        """Train the classifier on the blocks of labeled pages."""
        self._reset()
        if y is None:
            raise NewsmlError("the 'nb' method learns from labeled pages: give per-node labels")
        rows: list[np.ndarray] = []
        targets: list[int] = []
        for page, node_labels in zip(X, y):
            chars = page.char_counts[0].astype(float)
            blocks = self._blocks(page)
            if blocks:
                rows.append(block_rows(page, blocks))
            for block in blocks:
                content = chars[block] @ np.asarray(node_labels)[block]
                targets.append(int(content * 2 >= chars[block].sum()))
        if len(set(targets)) < 2:
            raise NewsmlError("training pages must contain both content and noise blocks")
        from ..estimators.naive_bayes import DiscretizedNaiveBayes

        self.classifier_ = FrozenNaiveBayes.from_estimator(DiscretizedNaiveBayes(
            bins=self.bins, alpha=self.alpha).fit(np.vstack(rows), np.asarray(targets)))
        self.n_blocks_ = len(targets)
        return self

    def feature_names(self) -> list[str]:
        """The paper's four block features."""
        return list(NaiveBayesFeatures.feature_names)

    def score_nodes(self, page: Page) -> np.ndarray:
        check_fitted(self, "classifier_")
        block, n_blocks = page_nb_block_of_nodes(page, self.block_tags, self.merge_siblings)
        if not n_blocks:
            return np.zeros(len(page.nodes))
        rows = member_rows(page, np.arange(len(page.nodes)), block, n_blocks)
        proba = self.classifier_.predict_proba(rows)[:, list(self.classifier_.classes_).index(1)]
        return proba[block]
