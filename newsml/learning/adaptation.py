"""Adaptation: a trained model corrected, for one site, by a handful of its labeled pages.

A site's pages share a template: the article sits in the same container on every page,
and the same bylines, captions, share bars and comment threads come back page after
page. What the shipped model gets wrong on a site it tends to get wrong the same way on
every page of it. :class:`AdaptedMethod` keeps the base model (the shipped default) and
learns, from the user's labeled pages of the site, *votes* on the site's template
positions (:mod:`newsml.learning.site_votes`): each text node's keys (its text, the path of its
containers, its nearest containers with a class or id) carry the share of content among
the labeled nodes that had them, also counted given the base's decision on the node; a
new node's score is its base score, recentred on the base's own cut of the page (a
per-page Otsu threshold for the default) so that 0.5 is where the base decided, then
refined by its votes from the least specific key to the most, mixed votes skipped. A
node with no key seen keeps the base model's decision.

Earlier forms of the votes (the nearest container deciding alone, long texts as keys,
then the most specific key seen deciding alone) are told in :mod:`newsml.learning.site_votes`,
and the train-site figures that replaced them in docs/decisions/. A model adapted before
the backoff loads and scores with it: it has no votes given the base's decision, so its
plain votes back off alone.

``prior`` (how much the base weighs against one labeled page) is chosen by leaving one
labeled page out: each page is scored by the votes of the others, for each candidate
prior and for the base alone; among the priors that beat the base, the largest within
:data:`TOLERANCE` of the best wins (the one closest to the base), and when none beats
the base alone, the model scores as the base does. With one page nothing can be left out,
so nothing can show that its votes help: the model then scores as the base does (its votes
are counted all the same). A fixed prior for one page lowered the F1 of the other pages
on most sites tried, and a larger one, with the backoff, still lost on some: one page
still scores as the base (docs/decisions/2026-11-23-site-adaptation.md,
docs/decisions/2026-11-24-adaptation-backoff.md).
Every choice is made on the user's pages only. (These constants were chosen on the sites
of the shared corpora's *train* splits, ``scripts/site_curves.py --split train``; the
test-split sites report them.)

The base is kept by reference (its name, reloaded with
:func:`newsml.learning.persistence.get_method`), not copied into the adapted model: the file
holds the votes alone (a small file), loads however the shipped model is stored, and
records what the base scored on a fixed probe page, so a base that changed since the
adaptation is noticed (a warning) instead of silently mixing votes learned against
another model. A base given as a fitted method instance (a parameter) or a model file
(loaded by ``fit`` into ``base_model_``) is kept by value, since no name can bring it back:
the adapted file then works wherever it is copied, without the base file.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..dom.page import Page, load_page
from ..errors import ConfigurationError, NewsmlError
from ..measure.model_selection import page_f1
from ..methods import NodeMethod, resolve_name
from .persistence import get_method, load_model
from .site_votes import count_votes, node_keys, vote_scores, with_decisions

#: Candidate priors tried by leave-one-page-out ("auto"), besides the base alone.
PRIORS = (0.25, 1.0, 4.0, 16.0)
#: Leave-one-page-out F1 this close to the best counts as a tie, won by the larger prior.
TOLERANCE = 0.005
#: A fixed page the base scores when it is fitted and when it is reloaded (see notes).
PROBE_PAGE = (
    "<html><head><title>Harbour at Riverton reopens</title></head><body>"
    "<div class='menu'><a href='/'>Home</a> <a href='/news'>News</a></div>"
    "<div class='story'><h1>Harbour at Riverton reopens</h1><p class='byline'>By A. Writer</p>"
    "<p>The harbour at Riverton reopened on Monday after the storm, the port authority said, "
    "and the first ferries left on time.</p>"
    "<p>Repairs to the outer wall took three weeks and cost less than feared, officials added.</p>"
    "</div><div class='related'><ul><li><a href='/a'>Storm closes schools</a></li>"
    "<li><a href='/b'>Ferry fares rise</a></li></ul></div>"
    "<div class='footer'>Copyright Riverton News. All rights reserved.</div></body></html>")


def probe_scores(method: NodeMethod) -> list[float]:
    """What ``method`` scores on :data:`PROBE_PAGE`, rounded: a fingerprint of its behaviour."""
    return [round(float(s), 4) for s in method.score_nodes(load_page(PROBE_PAGE))]


class AdaptedMethod(NodeMethod):
    """A base method corrected by the template votes of a site's labeled pages.

    Parameters
    ----------
    base : str, path or NodeMethod
        The model to adapt: a method name ("default": the shipped model), a model file
        (``newsml train -o``), or a method instance (fitted if it learns).
    prior : "auto" or float
        Weight of the base score against one labeled page in a node's score ("auto":
        chosen by leave-one-page-out on the labeled pages; the base alone with one).
    """

    name = "adapted"
    summary = "the default model adapted to one site by a few of its labeled pages (--base)"
    requires_fit = True

    def __init__(self, base: str | Path | NodeMethod = "default", prior: str | float = "auto"):
        self.base = base
        self.prior = prior

    # -- the base ---------------------------------------------------------------------
    def base_by_reference(self) -> bool:
        """Whether the base is kept by its name (reloaded with get_method), not copied.

        A model file or a method instance is kept by value (``base_model_``, set by fit).
        """
        if "base_model_" in self.__dict__:
            return False
        return isinstance(self.base, str) and not _is_model_file(self.base)

    def _load_base(self) -> NodeMethod:
        if isinstance(self.base, NodeMethod):
            return self.base
        if isinstance(self.base, Path) or (isinstance(self.base, str) and _is_model_file(self.base)):
            return load_model(self.base)[0]
        if not isinstance(self.base, str):
            raise ConfigurationError(f"base must be a method name, a model file or a method, "
                                     f"not {self.base!r}")
        try:
            return get_method(self.base)
        except ConfigurationError as exc:
            raise ConfigurationError(f"base {self.base!r} is no model file (none exists by that name) and "
                                     f"no method: {exc}") from None

    def base_method(self) -> NodeMethod:
        """The base model: the copy kept by fit for a model file, else loaded once (a base by
        name is reloaded after unpickling)."""
        kept = self.__dict__.get("base_model_")
        if kept is not None:
            return kept
        cached = self.__dict__.get("_base_cache")
        if cached is not None:
            return cached
        base = self._load_base()
        expected = getattr(self, "base_probe_", None)
        changed = expected is not None and not _same_probe(probe_scores(base), expected)
        if changed and self.base_by_reference():
            warnings.warn(f"the {self.base_name_!r} model changed since this model was adapted to its "
                          f"pages (made with newsml {self.base_version_}, this is {__version__}): "
                          "adapt it again for the votes to match the base", stacklevel=3)
        self.__dict__["_base_cache"] = base
        return base

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_base_cache", None)     # a base by name is kept by reference only
        return state

    # -- training ---------------------------------------------------------------------
    def check_params(self) -> None:
        if isinstance(self.prior, bool) or (self.prior != "auto" and not (
                isinstance(self.prior, (int, float)) and self.prior > 0)):
            raise ConfigurationError(f"prior must be 'auto' or a number > 0, not {self.prior!r}")

    def fit(self, X: Sequence[Page], y: Sequence[np.ndarray] | None = None,
            groups: Sequence[object] | None = None) -> AdaptedMethod:
        """Count the votes of the labeled pages' template keys and choose the prior."""
        self._reset()
        self.__dict__.pop("_base_cache", None)
        if y is None:
            raise NewsmlError("adaptation learns from labeled pages: give per-node labels")
        pages, labels = list(X), [np.asarray(node_labels).astype(float) for node_labels in y]
        if not pages:
            raise NewsmlError("adaptation needs at least one labeled page")
        self.check_params()
        by_reference = self.base_by_reference()
        base = self.base_method()
        if not by_reference and not isinstance(self.base, NodeMethod):
            self.base_model_ = base        # a model file: kept by value, the file may move or go
            self.__dict__.pop("_base_cache", None)
        weights = [page.token_counts + 1.0 for page in pages]   # tokens, as the score counts them
        base_scores = [base.score_nodes(page) for page in pages]
        base_keep = [np.asarray(base.select(page, s), dtype=bool) for page, s in zip(pages, base_scores)]
        keys = [node_keys(page) for page in pages]
        counted = [with_decisions(page_keys, keep) for page_keys, keep in zip(keys, base_keep)]
        self.base_f1_ = page_f1(pages, base_keep, labels)
        if self.prior != "auto":
            self.prior_: float | None = float(self.prior)
            self.cv_f1_: float | None = None
        elif len(pages) == 1:          # nothing to hold out: no evidence the votes help
            self.prior_, self.cv_f1_ = None, None
        else:
            self.prior_, self.cv_f1_ = self._choose_prior(pages, keys, counted, labels, weights,
                                                          base_scores, base_keep)
        self.votes_ = count_votes(counted, labels, weights)
        self.base_name_ = base.name
        if by_reference and isinstance(self.base, str):
            self.base_name_ = resolve_name(self.base)
        self.base_version_ = __version__
        self.base_probe_ = probe_scores(base)
        self.pages_ = [page_fingerprint(page) for page in pages]
        return self

    def _choose_prior(self, pages: list[Page], keys: list[list[list[str]]], counted: list[list[list[str]]],
                      labels: list[np.ndarray], weights: list[np.ndarray], base_scores: list[np.ndarray],
                      base_keep: list[np.ndarray]) -> tuple[float | None, float]:
        """The largest prior within TOLERANCE of the best leave-one-page-out F1 that beats the
        base alone, and its F1; None when no prior beats the base alone. ``counted``: the
        keys with the base's decisions (:func:`~newsml.learning.site_votes.with_decisions`)."""
        held_votes = [count_votes(counted[:i] + counted[i + 1:], labels[:i] + labels[i + 1:],
                                  weights[:i] + weights[i + 1:]) for i in range(len(pages))]
        results = []
        for prior in PRIORS:
            masks = [vote_scores(keys[i], base_scores[i], base_keep[i], held_votes[i], prior) >= 0.5
                     for i in range(len(pages))]
            results.append((page_f1(pages, masks, labels), prior))
        best = max(f1 for f1, _ in results)
        if best <= self.base_f1_:
            return None, best
        return max((prior, f1) for f1, prior in results if f1 >= best - TOLERANCE and f1 > self.base_f1_)

    # -- prediction -------------------------------------------------------------------
    def score_nodes(self, page: Page) -> np.ndarray:
        """Per node: the base score refined by its site votes (see :mod:`newsml.learning.site_votes`)."""
        self._check_fitted()
        if not page.nodes:
            return np.zeros(0)
        base = self.base_method()
        scores = base.score_nodes(page)
        keep = np.asarray(base.select(page, scores), dtype=bool)
        return vote_scores(node_keys(page), scores, keep, self.votes_, self.prior_)

    def select(self, page: Page, scores: np.ndarray) -> np.ndarray:
        return scores >= 0.5

    def _check_fitted(self) -> None:
        # scikit-learn's check_is_fitted would do; this module stays free of scikit-learn
        if not hasattr(self, "votes_"):
            raise NewsmlError("the adapted model is not fitted: fit it on labeled pages of the site "
                              "(newsml train PAGES --base default)")

    def feature_names(self) -> list[str]:
        """The keys the labeled pages voted on."""
        return sorted(getattr(self, "votes_", {}))

    def summary_line(self) -> str:
        """One line on what fitting chose, for people."""
        self._check_fitted()
        pages = len(self.pages_)
        if self.cv_f1_ is None and self.prior_ is None:
            how = ("one page leaves nothing to hold out, so it scores as the base; "
                   "label a few more pages of the site")
        elif self.cv_f1_ is None:
            how = f"prior {self.prior_:g} (the base weighs as {self.prior_:g} labeled pages)"
        elif self.prior_ is None:
            how = (f"leave-one-page-out F1 {self.cv_f1_:.4f}: no better than the base alone, "
                   "so it scores as the base")
        else:
            how = (f"prior {self.prior_:g} (the base weighs as {self.prior_:g} labeled pages), "
                   f"leave-one-page-out F1 {self.cv_f1_:.4f} (base alone {self.base_f1_:.4f})")
        return f"adapted {self.base_name_} to {pages} page{'s' if pages != 1 else ''}: {how}"


def _same_probe(found: list[float], expected: list[float]) -> bool:
    """Whether two probe fingerprints agree (to 0.001: a base stored another way may round
    its last digits differently and still be the same model)."""
    return len(found) == len(expected) and bool(np.allclose(found, expected, atol=1e-3, rtol=0))


def _is_model_file(base: str) -> bool:
    """Whether a base given as a string names a model file: any existing file (else it is
    a method name)."""
    return Path(base).is_file()


def page_fingerprint(page: Page) -> dict[str, Any]:
    """What identifies a training page in the model: its title, size and a digest of its text."""
    text = "\n".join(node.text for node in page.nodes)
    return {"title": page.title, "nodes": len(page.nodes),
            "sha1": hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]}


__all__ = ["AdaptedMethod", "page_fingerprint", "probe_scores"]
