"""CEDST (cedst-ds-theory-topics.txt): Dempster-Shafer fusion of topic, text-cluster,
text-variance and hyperlink evidence per text node, Gaussian smoothing, Otsu threshold.

Variants of the paper's Table 1: ``cedst-nc`` (no topic: cluster, variance, hyperlink)
and ``cedst-tf`` (topic only). Untrained, the evidence weights are the paper's (near 1,
here ``weights=0.9``); ``fit`` learns them from labeled pages (see
:class:`~newsml.estimators.DempsterShaferClassifier`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ..assemble import gaussian_smooth, otsu_select
from ..errors import NewsmlError
from ..estimators import DempsterShaferClassifier
from ..estimators.dempster_shafer import combine
from ..features import HyperlinkFeature, TextClusterFeature, TextVarianceFeature, TopicFeature
from ..parse import Document
from .base import NodeMethod

#: Polarity of each piece of evidence: +1 supports {news}, -1 supports {~news}.
POLARITY = {"topic": 1, "cluster": 1, "variance": 1, "href": -1}


class Cedst(NodeMethod):
    """CEDST with all four pieces of evidence."""

    name = "cedst"
    summary = "CEDST: Dempster-Shafer fusion of topic, cluster, variance and link evidence, Otsu cut"
    evidence: ClassVar[tuple[str, ...]] = ("topic", "cluster", "variance", "href")

    def __init__(self, gamma: int = 2, n_keywords: int = 10, count_repeats: bool = False,
                 weights: float = 0.9, sigma: float = 1.0, otsu_step: float = 0.01):
        self.gamma = gamma
        self.n_keywords = n_keywords
        self.count_repeats = count_repeats
        self.weights = weights
        self.sigma = sigma
        self.otsu_step = otsu_step

    def evidence_matrix(self, doc: Document) -> np.ndarray:
        """One column per piece of evidence (in ``evidence`` order), one row per node."""
        columns = []
        for name in self.evidence:
            if name == "topic":
                feature = TopicFeature(gamma=self.gamma, n_keywords=self.n_keywords,
                                       count_repeats=self.count_repeats)
            elif name == "cluster":
                feature = TextClusterFeature()
            elif name == "variance":
                feature = TextVarianceFeature()
            else:
                feature = HyperlinkFeature()
            columns.append(feature.page_features(doc))
        return np.hstack(columns) if columns else np.zeros((len(doc.nodes), 0))

    def fit(self, X: Sequence[Document], y: Sequence[np.ndarray] | None = None) -> Cedst:
        """Learn the evidence weights from labeled pages (no labels: keep the paper's)."""
        self._reset()
        if y is None:
            return self
        evidence = np.vstack([self.evidence_matrix(doc) for doc in X])
        target = np.concatenate([np.asarray(node_labels) for node_labels in y])
        if len(np.unique(target)) < 2:
            raise NewsmlError("training pages must contain both content and noise nodes")
        polarity = [POLARITY[name] for name in self.evidence]
        self.classifier_ = DempsterShaferClassifier(polarity=polarity, weights=self.weights).fit(
            evidence, target)
        return self

    def fusion(self, doc: Document) -> np.ndarray:
        """m({news}) per node: learned weights when fitted, the paper's otherwise."""
        h = self.evidence_matrix(doc)
        if not len(h):
            return np.zeros(0)
        if hasattr(self, "classifier_"):
            return self.classifier_.belief(h)
        positive = np.array([POLARITY[name] > 0 for name in self.evidence])
        return combine(h, np.full(h.shape[1], self.weights), positive)

    def score_nodes(self, doc: Document) -> np.ndarray:
        """Fusion values smoothed along document order."""
        return gaussian_smooth(self.fusion(doc), self.sigma)

    def select(self, doc: Document, scores: np.ndarray) -> np.ndarray:
        """Nodes above the page's Otsu threshold."""
        return otsu_select(scores, self.otsu_step)


class CedstNoContent(Cedst):
    """CEDST-NC: the non-content evidence only (cluster, variance, hyperlink)."""

    name = "cedst-nc"
    summary = "CEDST without the topic feature (cluster, variance, link evidence)"
    evidence = ("cluster", "variance", "href")


class CedstTopic(Cedst):
    """CEDST-TF: the topic evidence only."""

    name = "cedst-tf"
    summary = "CEDST with the topic feature only"
    evidence = ("topic",)
