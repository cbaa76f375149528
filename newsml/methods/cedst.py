"""CEDST (Zhang et al., *Automatic Web News Extraction Based on DS Theory Considering Content
Topics*, ICCS 2018): Dempster-Shafer fusion of topic, text-cluster, text-variance and
hyperlink evidence per text node, Gaussian smoothing, Otsu threshold.

Variants of the paper's Table 1: ``cedst-nc`` (no topic: cluster, variance, hyperlink)
and ``cedst-tf`` (topic only). Untrained, the evidence weights are the paper's (near 1,
here ``weights=0.9``); ``fit`` learns them from labeled pages (see
:class:`~newsml.estimators.DempsterShaferClassifier`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ..core.signal import gaussian_smooth, otsu_select
from ..dom.page import Page
from ..errors import ConfigurationError, NewsmlError
from ..estimators.frozen import FrozenDempsterShafer, combine
from ..features.base import NodeFeatures, configured, family
from .base import NodeMethod


class Cedst(NodeMethod):
    """CEDST with all four pieces of evidence."""

    name = "cedst"
    summary = "CEDST: Dempster-Shafer fusion of topic, cluster, variance and link evidence, Otsu cut"
    ships_model = True
    evidence: ClassVar[tuple[str, ...]] = ("topic", "cluster", "variance", "href")

    def __init__(self, gamma: int = 2, n_keywords: int = 10, count_repeats: bool = False,
                 weights: float = 0.9, sigma: float = 1.0, otsu_step: float = 0.01):
        self.gamma = gamma
        self.n_keywords = n_keywords
        self.count_repeats = count_repeats
        self.weights = weights
        self.sigma = sigma
        self.otsu_step = otsu_step

    def __setstate__(self, state: dict[str, Any]) -> None:
        # model files from before frozen classifiers held the scikit-learn classifier itself
        if type(state.get("classifier_")).__name__ == "DempsterShaferClassifier":
            state["classifier_"] = FrozenDempsterShafer.from_estimator(state["classifier_"])
        super().__setstate__(state)

    def _families(self) -> list[NodeFeatures]:
        """The feature family of each piece of evidence, with this method's parameters."""
        found = []
        for name in self.evidence:
            cls = family(name)
            if cls is None:
                raise ConfigurationError(f"CEDST evidence {name!r} is not a feature family")
            found.append(configured(cls, self))
        return found

    def _polarity(self) -> list[int]:
        """+1 for evidence that supports {news} in the paper, -1 for evidence against it."""
        return [type(feature).polarity for feature in self._families()]

    def feature_names(self) -> list[str]:
        """The pieces of evidence, in column order."""
        return list(self.evidence)

    def evidence_matrix(self, page: Page) -> np.ndarray:
        """One column per piece of evidence (in ``evidence`` order), one row per node."""
        columns = [feature.page_features(page) for feature in self._families()]
        return np.hstack(columns) if columns else np.zeros((len(page.nodes), 0))

    def fit(self, X: Sequence[Page], y: Sequence[np.ndarray] | None = None,
            groups: Sequence[object] | None = None) -> Cedst:
        """Learn the evidence weights from labeled pages (no labels: keep the paper's)."""
        self._reset()
        if y is None:
            return self
        evidence = np.vstack([self.evidence_matrix(page) for page in X])
        target = np.concatenate([np.asarray(node_labels) for node_labels in y])
        if len(np.unique(target)) < 2:
            raise NewsmlError("training pages must contain both content and noise nodes")
        from ..estimators.dempster_shafer import DempsterShaferClassifier

        polarity = self._polarity()
        self.classifier_ = FrozenDempsterShafer.from_estimator(DempsterShaferClassifier(
            polarity=polarity, weights=self.weights).fit(evidence, target))
        return self

    def fusion(self, page: Page) -> np.ndarray:
        """m({news}) per node: learned weights when fitted, the paper's otherwise."""
        h = self.evidence_matrix(page)
        if not len(h):
            return np.zeros(0)
        if hasattr(self, "classifier_"):
            return self.classifier_.belief(h)
        positive = np.array([sign > 0 for sign in self._polarity()])
        return combine(h, np.full(h.shape[1], self.weights), positive)

    def score_nodes(self, page: Page) -> np.ndarray:
        """Fusion values smoothed along document order."""
        return gaussian_smooth(self.fusion(page), self.sigma)

    def select(self, page: Page, scores: np.ndarray) -> np.ndarray:
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
