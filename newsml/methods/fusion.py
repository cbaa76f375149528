"""Fusion: the papers' methods and newsml's evidence combined by Dempster's rule.

Each piece of evidence is a column per text node: the score of another method (ECON's
summary-node share, the naive-Bayes block probability) or a feature family (CEDST's
cluster/variance/hyperlink, :mod:`~newsml.features.shape`,
:mod:`~newsml.features.semantics`). A
:class:`~newsml.estimators.DempsterShaferClassifier` learns each column's polarity and
weight and fuses them into m({news}) per node.

With ``context=True`` (the default) a second stage follows: the fused belief is
turned into page context per node (:mod:`~newsml.features.context`: the belief of
its neighbours and containers, whether it lies in the main container), and
gradient-boosted trees read the evidence columns with that context. Trees learn what
the combiner cannot: interactions (a long node with many links is a teaser list; a
short one inside a confident container is an article line). Nodes above the page's
cut of the smoothed result are the article.

Training is stacked so that no column is better on training pages than on new ones:
learned members (``nb``) score each training page from a model fitted on the other
folds; the trees learn from context built on out-of-fold beliefs. The smoothing
width and the cut (Otsu or 0.5) are chosen by the macro F1 of out-of-fold predictions
on the training pages, never by looking at test pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import KFold
from sklearn.utils.validation import check_is_fitted

from ..assemble import gaussian_smooth, otsu_select
from ..errors import NewsmlError
from ..estimators import DempsterShaferClassifier
from ..estimators.trees import FrozenTrees
from ..features import (
    HyperlinkFeature,
    NodeFeatures,
    SemanticFeatures,
    ShapeFeatures,
    TextClusterFeature,
    TextVarianceFeature,
    TopicFeature,
)
from ..features.context import CONTEXT_NAMES, belief_context
from ..parse import Document
from ..scoring import mask_score
from .base import NodeMethod

#: Evidence that is another method's node score.
MEMBER_EVIDENCE = ("econ", "nb", "cedst", "cetd", "cepr", "twcem", "title-relevance")
#: Evidence that is a feature family.
FEATURE_EVIDENCE: dict[str, type[NodeFeatures]] = {
    "cluster": TextClusterFeature,
    "variance": TextVarianceFeature,
    "href": HyperlinkFeature,
    "topic": TopicFeature,
    "shape": ShapeFeatures,
    "semantics": SemanticFeatures,
}
DEFAULT_EVIDENCE = ("econ", "nb", "cluster", "variance", "href", "shape", "semantics")
SIGMAS = (0.0, 0.5, 1.0)
CUTS = ("otsu", "0.5")
#: The second stage's trees (early stopping on a held-out tenth when rows > 10,000);
#: kept as :class:`~newsml.estimators.trees.FrozenTrees`, not as scikit-learn's object.
BOOSTER_PARAMS = {"max_iter": 50, "learning_rate": 0.2, "max_leaf_nodes": 63}


class Fusion(NodeMethod):
    """Dempster-Shafer fusion of method scores and feature evidence per text node.

    Parameters
    ----------
    evidence : names from ``MEMBER_EVIDENCE`` and ``FEATURE_EVIDENCE``, in column order.
    sigma : "auto" or float
        Gaussian smoothing of the fused belief along document order ("auto": chosen
        by cross-validation on the training pages among ``SIGMAS``).
    cut : "auto", "otsu" or "0.5"
        Page-level cut of the smoothed belief ("auto": chosen like ``sigma``).
    folds : int
        Folds (over pages) for stacking and for choosing ``sigma`` and ``cut``.
    random_state : int
        Seed of the fold shuffle, so training repeats exactly.
    weighting : "tokens" or "nodes"
        What one training row weighs in the combiner's log-loss: its tokens (the
        score counts tokens, so a long paragraph matters more than a menu link) or 1.
    context : bool
        Add the second stage: gradient-boosted trees over the evidence and the page
        context of the fused belief. False: the combiner's belief is the score.
    """

    name = "fusion"
    summary = "Dempster-Shafer fusion of ECON, naive Bayes, CEDST and markup evidence (trained)"
    requires_fit = True

    def __init__(self, evidence: tuple[str, ...] = DEFAULT_EVIDENCE, sigma: str | float = "auto",
                 cut: str = "auto", folds: int = 5, random_state: int = 0, weighting: str = "nodes",
                 context: bool = True):
        self.evidence = evidence
        self.sigma = sigma
        self.cut = cut
        self.folds = folds
        self.random_state = random_state
        self.weighting = weighting
        self.context = context

    def __setstate__(self, state: dict) -> None:
        # model files from before the context stage have no ``context``: they score by
        # the combiner alone, which is what context=False means
        state.setdefault("context", state.get("booster_") is not None)
        super().__setstate__(state)

    # -- evidence ---------------------------------------------------------------------
    def _check_evidence(self) -> None:
        unknown = [e for e in self.evidence if e not in MEMBER_EVIDENCE and e not in FEATURE_EVIDENCE]
        if unknown or not self.evidence:
            known = ", ".join([*MEMBER_EVIDENCE, *FEATURE_EVIDENCE])
            raise NewsmlError(f"unknown evidence {unknown}: choose from {known}")

    def _members(self, X: Sequence[Document], y: Sequence[np.ndarray] | None) -> dict[str, NodeMethod]:
        from . import METHODS

        members = {}
        for name in self.evidence:
            if name in MEMBER_EVIDENCE:
                member = METHODS[name]()
                members[name] = member.fit(X, y) if y is not None else member
        return members

    def evidence_matrix(self, doc: Document, members: dict[str, NodeMethod] | None = None) -> np.ndarray:
        """The evidence columns of one page (``evidence`` order), one row per node."""
        members = self.members_ if members is None else members
        columns = []
        for name in self.evidence:
            if name in MEMBER_EVIDENCE:
                columns.append(members[name].score_nodes(doc).reshape(-1, 1))
            else:
                columns.append(FEATURE_EVIDENCE[name]().page_features(doc))
        return np.hstack(columns) if columns else np.zeros((len(doc.nodes), 0))

    def feature_names(self) -> list[str]:
        """Names of the columns the method learns from: evidence, then context."""
        names: list[str] = []
        for name in self.evidence:
            if name in MEMBER_EVIDENCE:
                names.append(name)
            else:
                names.extend(FEATURE_EVIDENCE[name].feature_names)
        if self.context:
            names.extend(f"context:{name}" for name in CONTEXT_NAMES)
        return names

    # -- training ---------------------------------------------------------------------
    def fit(self, X: Sequence[Document], y: Sequence[np.ndarray] | None = None) -> Fusion:
        """Stack out-of-fold evidence, fit the combiner (and the trees), choose smoothing and cut."""
        self._reset()
        self._check_evidence()
        if self.sigma != "auto" and not (isinstance(self.sigma, (int, float)) and self.sigma >= 0):
            raise NewsmlError(f"sigma must be 'auto' or a number >= 0, not {self.sigma!r}")
        if y is None:
            raise NewsmlError("the 'fusion' method learns from labeled pages: give per-node labels")
        docs, labels = list(X), [np.asarray(node_labels) for node_labels in y]
        if len(docs) < max(self.folds, 2):
            raise NewsmlError(f"fusion needs at least {max(self.folds, 2)} labeled pages, got {len(docs)}")
        folds = list(KFold(self.folds, shuffle=True, random_state=self.random_state).split(docs))
        stacked: list[np.ndarray | None] = [None] * len(docs)
        for train, held in folds:
            members = self._members([docs[i] for i in train], [labels[i] for i in train])
            for i in held:
                stacked[i] = self.evidence_matrix(docs[i], members)
        target = np.concatenate(labels)
        if len(np.unique(target)) < 2:
            raise NewsmlError("training pages must contain both content and noise nodes")
        beliefs = self._out_of_fold(self._fit_combiner, DempsterShaferClassifier.belief,
                                    stacked, labels, docs, folds)
        scores, contextual = beliefs, []
        if self.context:
            contextual = [np.hstack([X, belief_context(doc, b)]) for X, doc, b in zip(stacked, docs, beliefs)]
            scores = self._out_of_fold(self._fit_booster, _news_probability, contextual, labels, docs, folds)
        self.sigma_, self.cut_, self.cv_f1_ = self._choose_assembly(docs, scores, labels)
        self.members_ = self._members(docs, labels)
        self.combiner_ = self._fit_combiner(stacked, labels, docs)
        self.booster_ = self._fit_booster(contextual, labels, docs) if self.context else None
        self.n_pages_ = len(docs)
        return self

    def _fit_combiner(self, rows: list[np.ndarray], labels: list[np.ndarray],
                      docs: list[Document]) -> DempsterShaferClassifier:
        return DempsterShaferClassifier().fit(np.vstack(rows), np.concatenate(labels),
                                              sample_weight=self._row_weights(docs))

    def _fit_booster(self, rows: list[np.ndarray], labels: list[np.ndarray],
                     docs: list[Document]) -> FrozenTrees:
        X, y = np.vstack(rows), np.concatenate(labels).astype(int)
        if np.unique(y).size < 2:   # a fold of pages with one class only: nothing to split
            return FrozenTrees.constant(float(y[0]), X.shape[1])
        booster = HistGradientBoostingClassifier(**BOOSTER_PARAMS, random_state=self.random_state)
        booster.fit(X, y, sample_weight=self._row_weights(docs))
        return FrozenTrees.from_estimator(booster, check_rows=X[:: max(1, len(X) // 500)])

    @staticmethod
    def _out_of_fold(fit, predict, rows: list[np.ndarray], labels: list[np.ndarray], docs: list[Document],
                     folds: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
        """Each page's scores from a model fitted on the other folds' pages."""
        scores: list[np.ndarray] = [np.zeros(0)] * len(rows)
        for train, held in folds:
            model = fit([rows[i] for i in train], [labels[i] for i in train], [docs[i] for i in train])
            for i in held:
                scores[i] = predict(model, rows[i]) if len(rows[i]) else np.zeros(0)
        return scores

    def _choose_assembly(self, docs: list[Document], scores: list[np.ndarray],
                         labels: list[np.ndarray]) -> tuple[float, str, float]:
        """The smoothing and cut with the best macro F1 of the out-of-fold ``scores``."""
        sigmas = SIGMAS if self.sigma == "auto" else (float(self.sigma),)
        cuts = CUTS if self.cut == "auto" else (str(self.cut),)
        for cut in cuts:
            if cut not in CUTS:
                raise NewsmlError(f"cut must be 'auto', 'otsu' or '0.5', not {cut!r}")
        weights = [np.array([node.n_tokens for node in doc.nodes], dtype=float) for doc in docs]
        best = (-1.0, 0.0, "otsu")
        for sigma, cut in product(sigmas, cuts):
            f1 = float(np.mean([
                mask_score(w, _cut(gaussian_smooth(s, sigma), cut), lab).f1
                for w, s, lab in zip(weights, scores, labels)
            ]))
            if f1 > best[0]:
                best = (f1, sigma, cut)
        return best[1], best[2], best[0]

    def _row_weights(self, docs: Sequence[Document]) -> np.ndarray:
        if self.weighting not in ("tokens", "nodes"):
            raise NewsmlError(f"weighting must be 'tokens' or 'nodes', not {self.weighting!r}")
        if self.weighting == "nodes":
            return np.ones(sum(len(doc.nodes) for doc in docs))
        return np.array([node.n_tokens for doc in docs for node in doc.nodes], dtype=float)

    # -- prediction -------------------------------------------------------------------
    def score_nodes(self, doc: Document) -> np.ndarray:
        """Per node: the trees' probability of news (the fused belief m({news}) without the
        context stage), smoothed with the chosen width."""
        check_is_fitted(self, "combiner_")
        if not doc.nodes:
            return np.zeros(0)
        evidence = self.evidence_matrix(doc)
        belief = self.combiner_.belief(evidence)
        if getattr(self, "booster_", None) is not None:
            rows = np.hstack([evidence, belief_context(doc, belief)])
            belief = _news_probability(self.booster_, rows)
        return gaussian_smooth(belief, self.sigma_)

    def select(self, doc: Document, scores: np.ndarray) -> np.ndarray:
        return _cut(scores, self.cut_)


def _news_probability(model: FrozenTrees, rows: np.ndarray) -> np.ndarray:
    return model.predict_proba(rows)[:, 1]


def _cut(scores: np.ndarray, cut: str) -> np.ndarray:
    return otsu_select(scores) if cut == "otsu" else scores >= 0.5
