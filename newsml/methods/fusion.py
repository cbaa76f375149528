"""Fusion: the papers' methods and newsml's evidence combined by Dempster's rule.

Each piece of evidence is a column per text node: the score of another method (the
naive-Bayes block probability; ECON's summary-node share when asked for) or a feature
family (CEDST's cluster/variance/hyperlink, :mod:`~newsml.features.shape`,
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

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..dom.page import Page
from ..errors import ConfigurationError, NewsmlError
from ..estimators.binning import one_pass_binning
from ..estimators.frozen import FrozenDempsterShafer, expit
from ..estimators.trees import FrozenTrees
from ..features.base import families, family
from ..features.context import belief_context, context_names
from ..measure.model_selection import choose_assembly, out_of_fold, page_folds
from ..rules.assembly import Assembly, FixedCut, OtsuCut, as_cut
from ..rules.comments import without_comment_header, without_comments, without_threads
from ..rules.furniture import without_furniture, without_overlays, without_slideshows
from ..rules.islands import without_islands
from ..rules.marked_body import with_marked_body
from .base import NodeMethod, check_fitted, method_class, methods

#: The combiner's evidence. ECON, once a member, is left out: without it the default ties in
#: accuracy out of fold and takes less time a page; without naive Bayes as well it fell below
#: a quality floor on unseen sites, so naive Bayes stays
#: (docs/decisions/2026-11-29-default-without-econ.md).
DEFAULT_EVIDENCE = ("nb", "cluster", "variance", "href", "shape", "semantics")
#: What the trees read besides: learned markup tokens, container density and statistics,
#: sibling repetition, position relative to the headline, prose cues (site-grouped CV).
DEFAULT_TREE_EVIDENCE = ("markup", "density", "ancestors", "repetition", "position", "prose")
#: Candidates of the smoothing width and of the cut when they are "auto".
SIGMAS = (0.0, 0.5, 1.0)
#: Otsu's cut alone, or with the nodes scoring 0.7 (0.8, 0.9) or more kept whatever the
#: page's threshold: each floor did better than Otsu alone on the out-of-fold scores of the
#: training pages before it was a candidate (docs/decisions/2026-11-24-otsu-cut-floor.md).
CUTS = (OtsuCut(), OtsuCut(keep_above=0.7), OtsuCut(keep_above=0.8), OtsuCut(keep_above=0.9), FixedCut(0.5))
#: The second stage's trees, kept as :class:`~newsml.estimators.trees.FrozenTrees`, not as
#: scikit-learn's object. 100 trees: out of fold on the training pages the first 100 of 150
#: score as well, at two thirds of the cost (docs/decisions/2026-11-24-one-hundred-trees.md).
#: All 100 are grown on every row: scikit-learn's early stopping (on by default past 10,000
#: rows) never stopped them, yet held out a random part of the rows, which a change of a few
#: rows drew anew, so that retraining on nearly the same pages gave other trees
#: (docs/decisions/2026-11-27-trees-on-every-row.md).
BOOSTER_PARAMS = {"max_iter": 100, "learning_rate": 0.1, "max_leaf_nodes": 63, "early_stopping": False}
#: Pages of this many nodes or more are scored from the trees' table rows instead of a
#: matrix of their evidence (:meth:`Fusion._probability_by_table_rows`): the same scores in
#: an eighth of the memory. Smaller pages keep the matrix: it costs them little memory, and
#: it is read in one call instead of one call per piece of evidence.
TABLE_ROWS_FROM = 10_000


def member_names() -> list[str]:
    """Evidence that is another method's node score: every registered method but fusion."""
    return sorted(name for name in methods() if name != Fusion.name)


class Fusion(NodeMethod):
    """Dempster-Shafer fusion of method scores and feature evidence per text node.

    Parameters
    ----------
    evidence : method names (:func:`member_names`) and feature family names
        (:func:`newsml.features.base.families`), in column order.
    sigma : "auto" or float
        Gaussian smoothing of the fused belief along document order ("auto": chosen
        by cross-validation on the training pages among ``SIGMAS``).
    cut : "auto", "otsu", a threshold in [0, 1], or a cut (:mod:`newsml.rules.assembly`)
        Page-level cut of the smoothed belief ("auto": chosen like ``sigma`` among ``CUTS``).
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
    tree_evidence : method and feature family names
        Evidence that only the second stage reads, besides ``evidence`` and the context:
        columns whose relation to content is not one-sided (an ancestor's share of the
        page, a position), which trees can use and Dempster's rule cannot.
    mates : bool
        With ``context``: the context also holds the belief of each node's style mates,
        weighted by tokens: of the other nodes whose block carries the same tag and class
        as the node's block, and of those whose block's parent carries its parent's
        (:mod:`~newsml.features.context`). Tied with the default out of fold
        (docs/decisions/2026-12-02-style-mates-not-shipped.md).
    comments : "drop" or "keep"
        "drop": after the cut, leave out the nodes inside comment sections, threads of
        dated posts, and what follows a comment header below the article
        (:mod:`newsml.rules.comments`), as an article extractor should; "keep": for labels
        that count reader comments as content.
    furniture : "drop" or "keep"
        "drop": after the cut, also leave out the kept nodes inside small boxes named as
        share bars, tag lists, ad slots, breadcrumbs, print links, newsletter sign-ups or
        related stories, inside slideshows and galleries after the article's first
        paragraphs, and inside dialogs over the page (consent, cookies, popups)
        (:mod:`newsml.rules.furniture`); "keep": leave them as cut.
    islands : "drop" or "keep"
        "drop": last, also leave out the runs of kept nodes that lie far from the
        article, unless a node of theirs scores 0.9 or more, or 0.8 or more inside the
        article's own container (its later sections): teasers of further articles, a
        copyright notice (:mod:`newsml.rules.islands`); "keep": leave them, as
        does ``comments="keep"``, and as a page whose body was found by its markup does
        (:mod:`newsml.rules.marked_body`).
    """

    name = "fusion"
    summary = "Dempster-Shafer fusion of naive Bayes, CEDST and markup evidence (trained)"
    requires_fit = True
    ships_model = True
    prediction_params = ("comments", "furniture", "islands")

    def __init__(self, evidence: tuple[str, ...] = DEFAULT_EVIDENCE, sigma: str | float = "auto",
                 cut: Any = "auto", folds: int = 5, random_state: int = 0, weighting: str = "nodes",
                 context: bool = True, tree_evidence: tuple[str, ...] = DEFAULT_TREE_EVIDENCE,
                 comments: str = "drop", furniture: str = "drop", islands: str = "drop",
                 mates: bool = False):
        self.evidence = evidence
        self.sigma = sigma
        self.cut = cut
        self.folds = folds
        self.random_state = random_state
        self.weighting = weighting
        self.context = context
        self.tree_evidence = tree_evidence
        self.comments = comments
        self.furniture = furniture
        self.islands = islands
        self.mates = mates

    def __setstate__(self, state: dict[str, Any]) -> None:
        # model files from before the context stage have no ``context``: they score by
        # the combiner alone, which is what context=False means
        state.setdefault("context", state.get("booster_") is not None)
        state.setdefault("tree_evidence", ())
        # model files from before comment sections were dropped get the default
        state.setdefault("comments", "drop")
        # model files from before page furniture was left out get the default
        state.setdefault("furniture", "drop")
        # and before runs far from the article were
        state.setdefault("islands", "drop")
        # and before the context read the belief of a node's style mates
        state.setdefault("mates", False)
        # model files from before Assembly kept the chosen width and cut apart
        if "sigma_" in state and "assembly_" not in state:
            cut = OtsuCut() if state.pop("cut_") == "otsu" else FixedCut(0.5)
            state["assembly_"] = Assembly(float(state.pop("sigma_")), cut)
        if state.get("cut") == "0.5":
            state["cut"] = 0.5
        # model files from before frozen combiners held the scikit-learn classifier itself
        if type(state.get("combiner_")).__name__ == "DempsterShaferClassifier":
            state["combiner_"] = FrozenDempsterShafer.from_estimator(state["combiner_"])
        super().__setstate__(state)

    # -- evidence ---------------------------------------------------------------------
    def _names(self) -> list[str]:
        """Every piece of evidence, the combiner's first, without repeats."""
        return list(dict.fromkeys([*self.evidence, *(self.tree_evidence if self.context else ())]))

    def _width(self, names: Sequence[str]) -> int:
        """Number of columns of the evidence ``names``."""
        return sum(len(cls.feature_names) if (cls := family(name)) is not None else 1 for name in names)

    def check_params(self) -> None:
        members = member_names()
        unknown = [e for e in self._names() if e not in members and family(e) is None]
        if unknown or not self.evidence:
            known = ", ".join([*members, *families()])
            raise ConfigurationError(f"unknown evidence {unknown}: choose from {known}")
        if len(set(self.evidence)) != len(self.evidence):
            raise ConfigurationError(f"evidence names a piece twice: {list(self.evidence)}")
        if self.sigma != "auto" and not (isinstance(self.sigma, (int, float)) and self.sigma >= 0):
            raise ConfigurationError(f"sigma must be 'auto' or a number >= 0, not {self.sigma!r}")
        if self.cut != "auto":
            as_cut(self.cut)
        if self.weighting not in ("tokens", "nodes"):
            raise ConfigurationError(f"weighting must be 'tokens' or 'nodes', not {self.weighting!r}")
        if not isinstance(self.mates, bool) or (self.mates and not self.context):
            raise ConfigurationError(f"mates must be True or False, and True only with context=True, "
                                     f"not mates={self.mates!r} with context={self.context!r}")
        self._check_switches()

    def _check_switches(self) -> None:
        for name in self.prediction_params:     # each a "drop"/"keep" switch
            if getattr(self, name) not in ("drop", "keep"):
                raise ConfigurationError(f"{name} must be 'drop' or 'keep', not {getattr(self, name)!r}")

    def _members(self, X: Sequence[Page], y: Sequence[np.ndarray] | None) -> dict[str, NodeMethod]:
        members = {}
        for name in self._names():
            if family(name) is None:
                member = method_class(name)()
                members[name] = member.fit(X, y) if y is not None else member
        return members

    def evidence_matrix(self, page: Page, members: dict[str, NodeMethod] | None = None,
                        spare: int = 0) -> np.ndarray:
        """The evidence columns of one page, one row per node: ``evidence``, then the
        ``tree_evidence`` not already among them, then ``spare`` columns left for the
        caller to fill (no copy of the whole matrix to add the context columns).

        Each piece's columns are written into the matrix as they come, so the pieces are
        never all held besides it (on a large page, that would double the memory).
        """
        matrix = np.empty((len(page.nodes), self._width(self._names()) + spare))
        for start, columns in self._evidence_pieces(page, members):
            matrix[:, start:start + columns.shape[1]] = columns
            del columns
        return matrix

    def _evidence_pieces(self, page: Page, members: dict[str, NodeMethod] | None = None,
                         ) -> Iterator[tuple[int, np.ndarray]]:
        """Each piece of evidence of one page in column order: its first column and its
        columns (one row per node), computed when asked for."""
        members = self.members_ if members is None else members
        start = 0
        for name in self._names():
            if name in members:
                columns = members[name].score_nodes(page).reshape(-1, 1)
                width = 1
            else:
                cls = family(name)
                columns = cls().page_features(page)  # type: ignore[misc]
                width = len(cls.feature_names)  # type: ignore[union-attr]
            if columns.shape != (len(page.nodes), width):   # np.empty would hide a short piece
                raise ConfigurationError(f"evidence {name!r} gave a {columns.shape[0]} x {columns.shape[1]} "
                                         f"matrix for {len(page.nodes)} nodes and {width} columns")
            yield start, columns
            del columns     # (not held while the next piece is computed)
            start += width

    def feature_names(self) -> list[str]:
        """Names of the columns the method learns from: evidence, then context."""
        names: list[str] = []
        for name in self._names():
            cls = family(name)
            names.extend(cls.feature_names if cls is not None else (name,))
        if self.context:
            names.extend(f"context:{name}" for name in context_names(self.mates))
        return names

    # -- training ---------------------------------------------------------------------
    def fit(self, X: Sequence[Page], y: Sequence[np.ndarray] | None = None,
            groups: Sequence[object] | None = None) -> Fusion:
        """Stack out-of-fold evidence, fit the combiner (and the trees), choose smoothing and cut."""
        self._reset()
        self.check_params()
        if y is None:
            raise NewsmlError("the 'fusion' method learns from labeled pages: give per-node labels")
        pages, labels = list(X), [np.asarray(node_labels) for node_labels in y]
        if len(pages) < max(self.folds, 2):
            raise NewsmlError(f"fusion needs at least {max(self.folds, 2)} labeled pages, got {len(pages)}")
        target = np.concatenate(labels)
        if len(np.unique(target)) < 2:
            raise NewsmlError("training pages must contain both content and noise nodes")
        folds = page_folds(len(pages), self.folds, self.random_state,
                           groups=list(groups) if groups is not None else None)
        n = len(pages)
        stacked = out_of_fold(
            folds, lambda train: self._members([pages[i] for i in train], [labels[i] for i in train]),
            lambda members, i: self.evidence_matrix(pages[i], members), n)
        width = self._width(self.evidence)
        combined = [rows[:, :width] for rows in stacked]
        beliefs = out_of_fold(
            folds, lambda train: self._fit_combiner(combined, labels, pages, train),
            lambda combiner, i: combiner.belief(combined[i]) if len(combined[i]) else np.zeros(0), n)
        scores, contextual = beliefs, []
        if self.context:
            contextual = [np.hstack([rows, belief_context(page, b, mates=self.mates)])
                          for rows, page, b in zip(stacked, pages, beliefs)]
            scores = out_of_fold(
                folds, lambda train: self._fit_booster(contextual, labels, pages, train),
                lambda trees, i: _news_probability(trees, contextual[i]) if len(contextual[i])
                else np.zeros(0), n)
        sigmas = SIGMAS if self.sigma == "auto" else (float(self.sigma),)
        cuts = CUTS if self.cut == "auto" else (as_cut(self.cut),)
        self.assembly_, self.cv_f1_ = choose_assembly(pages, scores, labels, sigmas, cuts)
        self.members_ = self._members(pages, labels)
        everything = np.arange(n)
        self.combiner_ = self._fit_combiner(combined, labels, pages, everything)
        self.booster_ = self._fit_booster(contextual, labels, pages, everything) if self.context else None
        self.n_pages_ = n
        return self

    def _fit_combiner(self, rows: list[np.ndarray], labels: list[np.ndarray], pages: list[Page],
                      which: np.ndarray) -> FrozenDempsterShafer:
        from ..estimators.dempster_shafer import DempsterShaferClassifier

        return FrozenDempsterShafer.from_estimator(DempsterShaferClassifier().fit(
            np.vstack([rows[i] for i in which]), np.concatenate([labels[i] for i in which]),
            sample_weight=self._row_weights([pages[i] for i in which])))

    def _fit_booster(self, rows: list[np.ndarray], labels: list[np.ndarray], pages: list[Page],
                     which: np.ndarray) -> FrozenTrees:
        from sklearn.ensemble import HistGradientBoostingClassifier

        X = np.vstack([rows[i] for i in which])
        y = np.concatenate([labels[i] for i in which]).astype(int)
        if np.unique(y).size < 2:   # a fold of pages with one class only: nothing to split
            return FrozenTrees.constant(float(y[0]), X.shape[1])
        booster = HistGradientBoostingClassifier(**BOOSTER_PARAMS, random_state=self.random_state)
        with one_pass_binning():    # (the same trees, binned in a fraction of the time)
            booster.fit(X, y, sample_weight=self._row_weights([pages[i] for i in which]))
        return FrozenTrees.from_estimator(booster, check_rows=X[:: max(1, len(X) // 500)])

    def _row_weights(self, pages: Sequence[Page]) -> np.ndarray:
        if self.weighting == "nodes":
            return np.ones(sum(len(page.nodes) for page in pages))
        return np.concatenate([page.token_counts for page in pages]) if pages else np.zeros(0)

    # -- prediction -------------------------------------------------------------------
    def score_nodes(self, page: Page) -> np.ndarray:
        """Per node: the trees' probability of news (the fused belief m({news}) without the
        context stage), smoothed with the chosen width."""
        check_fitted(self, "combiner_")
        if not page.nodes:
            return np.zeros(0)
        booster = getattr(self, "booster_", None)
        context = len(context_names(self.mates)) if booster is not None else 0
        if booster is not None and len(page.nodes) >= TABLE_ROWS_FROM \
                and (table_rows := booster.new_table_rows(len(page.nodes))) is not None:
            return self.assembly_.smooth(self._probability_by_table_rows(page, booster, table_rows))
        rows = self.evidence_matrix(page, spare=context)
        belief = self.combiner_.belief(rows[:, :self._width(self.evidence)])
        if booster is not None:
            belief_context(page, belief, out=rows[:, rows.shape[1] - context:], mates=self.mates)
            belief = _news_probability(booster, rows)
        return self.assembly_.smooth(belief)

    def _probability_by_table_rows(self, page: Page, booster: FrozenTrees, table_rows: np.ndarray,
                                   ) -> np.ndarray:
        """The trees' probabilities of a large page, the same as from its evidence matrix,
        but with each piece of evidence kept only as the trees' table rows
        (:meth:`~newsml.estimators.trees.FrozenTrees.write_table_rows`): a byte per node and
        feature, not eight, and the combiner's floats only until its belief is found, before
        the second stage's evidence (docs/decisions/2026-12-01-large-pages-table-rows.md)."""
        width = self._width(self.evidence)
        expected = self._width(self._names()) + len(context_names(self.mates))
        if expected != booster.n_features:    # (every column must be written: none is checked after)
            raise ValueError(f"expected rows of {booster.n_features} features, got {expected}")
        combined: np.ndarray | None = np.empty((len(page.nodes), width))
        belief, end = None, 0
        for start, columns in self._evidence_pieces(page):
            booster.write_table_rows(columns, start, table_rows)
            end = start + columns.shape[1]
            if combined is not None:
                combined[:, start:end] = columns
                if end == width:       # (the combiner's columns come first)
                    belief, combined = self.combiner_.belief(combined), None
            del columns
        assert belief is not None
        booster.write_table_rows(belief_context(page, belief, mates=self.mates), end, table_rows)
        return expit(booster.decision_from_table_rows(table_rows))

    def select(self, page: Page, scores: np.ndarray) -> np.ndarray:
        self._check_switches()   # (set_params on a fitted model is checked here)
        keep = self._left_out(page, self.assembly_.select(scores), scores)
        found = with_marked_body(page, keep)
        if found is not keep:
            # what the body adds passes the same rules: a comment inside <article> stays
            # out; the islands rule does not weigh it, since the trees scored it low
            return self._left_out(page, found, scores)
        # (a comment thread kept on request is such a run, and often outweighs its story)
        if self.islands == "drop" and self.comments == "drop":
            keep = without_islands(page, keep, scores)
        return keep

    def _left_out(self, page: Page, keep: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """``keep`` less the comments and the page furniture, as the switches say."""
        if self.comments == "drop":
            keep = without_threads(page, keep, scores, self.assembly_.select)
            keep = without_comment_header(page, without_comments(page, keep))
        if self.furniture == "drop":
            keep = without_overlays(page, without_slideshows(page, without_furniture(page, keep)))
        return keep


def _news_probability(model: FrozenTrees, rows: np.ndarray) -> np.ndarray:
    return model.predict_proba(rows)[:, 1]
