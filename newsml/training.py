"""Training: labeled pages -> pages and per-node labels -> a fitted (or tuned) method.

A labeled page is skipped, with a :class:`~newsml.errors.TrainingWarning` naming it and
saying why, when it is not a page, when its gold text is empty, or when fewer than
:data:`MIN_GOLD_COVERAGE` of its gold's tokens occur in the page (a gold from another
page, or from another version of it): aligned to nothing, it would teach that the page
is all boilerplate (one such page took a cross-validated F1 from 0.96 to 0.85).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from threadpoolctl import threadpool_limits

from .align import MIN_SHARE, align_labels
from .corpus import LabeledPage, load_corpus
from .errors import NewsmlError, TrainingWarning
from .extract import extract_page
from .methods import NodeMethod, new_method
from .model_selection import grid_search, page_folds
from .page import Page, load_page
from .progress import ProgressHook, hook
from .scoring import Score, macro, score
from .text import tokens

log = logging.getLogger(__name__)

#: Below this share of its gold's tokens occurring in the page, a page is not trained on.
MIN_GOLD_COVERAGE = 0.5
#: Threads of each math library (OpenMP of the boosted trees, BLAS) while training: its
#: matrices are small, and on a busy machine more threads spin and wait. On a shared 2-core
#: machine `newsml train labeled/` took 118-192 s with the libraries' default threads and
#: 6.5 s with one.
TRAINING_THREADS = 1


class GoldPage(Protocol):
    """A page with its gold text: a :class:`~newsml.corpus.LabeledPage`, or one made in memory."""

    @property
    def id(self) -> str: ...

    @property
    def html(self) -> bytes | str | Path: ...

    @property
    def gold(self) -> str: ...


#: A labeled page that parsed: the page with its gold, its parsed form and its node labels.
Labeled = tuple[GoldPage, Page, np.ndarray]


def labeled_pages(pages: Iterable[GoldPage], min_share: float = MIN_SHARE,
                  progress: ProgressHook | None = None, min_coverage: float = MIN_GOLD_COVERAGE,
                  ) -> tuple[list[Labeled], list[str]]:
    """``(page, parsed page, node labels)`` for each usable page, and the ids of the rest.

    Node labels come from aligning the page's text nodes to its gold (see :mod:`newsml.align`).
    Each skipped page is named in a :class:`~newsml.errors.TrainingWarning` with the reason
    (see the module notes).
    """
    progress = hook(progress)
    kept, skipped = [], []
    for page in pages:
        parsed, reason = _usable(page, min_coverage)
        if parsed is None:
            corpus = getattr(page, "corpus", "")
            warnings.warn(f"training page {corpus + '/' if corpus else ''}{page.id} skipped: {reason}",
                          TrainingWarning, stacklevel=2)
            log.debug("training page %s skipped: %s", page.id, reason)
            skipped.append(page.id)
        else:
            kept.append((page, parsed, align_labels(parsed.nodes, page.gold, min_share)))
        progress.advance()
    return kept, skipped


def _usable(page: GoldPage, min_coverage: float) -> tuple[Page | None, str]:
    """The parsed page if it can be trained on, else None and the reason."""
    try:
        parsed = load_page(page.html)
    except (NewsmlError, OSError) as exc:
        return None, str(exc) if isinstance(exc, NewsmlError) else f"cannot read it ({exc})"
    if not tokens(page.gold):
        return None, "its gold text is empty"
    coverage = score(" ".join(node.text for node in parsed.nodes), page.gold).recall
    if coverage < min_coverage:
        return None, (f"only {coverage:.0%} of its gold's tokens occur in the page "
                      "(a gold of another page?)")
    return parsed, ""


def fit_method(method: NodeMethod, pages: Sequence[Page], labels: Sequence[np.ndarray],
               groups: Sequence[object] | None = None) -> tuple[NodeMethod, dict[str, Any]]:
    """Train ``method`` on labeled pages; return it with what training chose.

    Learned methods are fitted. Rule methods with a ``search_space`` are tuned: the
    result is a copy set to the grid point with the best macro F1 on the pages (its
    ``get_params()`` show what runs). Other rule methods are returned as they are.
    Runs with :data:`TRAINING_THREADS` threads per math library.
    """
    with threadpool_limits(TRAINING_THREADS):
        if not method.requires_fit and method.search_space:
            tuned, params, f1 = grid_search(method, method.search_space, pages, labels)
            return tuned, {"tuned_params": params, "tuned_f1": f1}
        return method.fit(pages, labels, groups=groups), {}


def cross_validated_f1(make: Callable[[], NodeMethod], pages: Sequence[Page],
                       labels: Sequence[np.ndarray], golds: Sequence[str], folds: int = 5,
                       random_state: int = 0, groups: Sequence[object] | None = None,
                       progress: ProgressHook | None = None) -> float:
    """Macro F1 against the gold texts of pages extracted by models trained on the other folds.

    With ``groups`` (e.g. sites), a group's pages are held out together.
    """
    results: list[Score] = []
    progress = hook(progress)
    progress.start("cross-validation (folds)", folds)
    for train, held in page_folds(len(pages), folds, random_state, groups=groups):
        inner = [groups[i] for i in train] if groups is not None else None
        method, _ = fit_method(make(), [pages[i] for i in train], [labels[i] for i in train], inner)
        results.extend(score(extract_page(pages[i], method).text, golds[i]) for i in held)
        progress.advance()
    return macro(results).f1


def train_method(name: str, corpora: Sequence[str | Path], split: str | None = "train",
                 params: dict[str, Any] | None = None, cv_folds: int = 5, min_share: float = MIN_SHARE,
                 progress: ProgressHook | None = None) -> tuple[NodeMethod, dict[str, Any]]:
    """Train method ``name`` on labeled folders; return it with the metadata of its model file.

    Runs with :data:`TRAINING_THREADS` threads per math library.
    """
    with threadpool_limits(TRAINING_THREADS):
        return _train_method(name, corpora, split, params, cv_folds, min_share, progress)


def _train_method(name: str, corpora: Sequence[str | Path], split: str | None, params: dict[str, Any] | None,
                  cv_folds: int, min_share: float, progress: ProgressHook | None,
                  ) -> tuple[NodeMethod, dict[str, Any]]:
    pages: list[LabeledPage] = []
    sizes: dict[str, int] = {}
    for folder in corpora:
        found = load_corpus(folder, split=split)
        sizes[Path(folder).name] = len(found)
        pages.extend(found)
    if not pages:
        raise NewsmlError(f"no labeled pages for split {split!r} in {', '.join(map(str, corpora))}")
    progress = hook(progress)
    progress.start("reading and aligning", len(pages))
    kept, skipped = labeled_pages(pages, min_share=min_share, progress=progress)
    if not kept:
        raise NewsmlError(f"no page to train on: all {len(pages)} labeled pages were skipped "
                          "(the warnings say why)")
    parsed = [page for _, page, _ in kept]
    labels = [node_labels for _, _, node_labels in kept]
    golds = [page.gold for page, _, _ in kept]
    sites = [page.site if isinstance(page, LabeledPage) else page.id for page, _, _ in kept]
    usable = f"{len(kept)} usable pages ({len(skipped)} skipped)" if skipped else f"{len(kept)} pages"
    make = partial(new_method, name, **(params or {}))
    try:
        cv_f1 = cross_validated_f1(make, parsed, labels, golds, cv_folds, groups=sites,
                                   progress=progress) if cv_folds else None
    except NewsmlError as exc:
        raise NewsmlError(f"cross-validation over {cv_folds} folds of {usable} failed: {exc} "
                          "(each fold trains on the pages of the others: give more pages, "
                          "fewer --cv-folds, or 0 to skip it)") from None
    progress.start(f"fitting {name}", 1)
    try:
        method, choices = fit_method(make(), parsed, labels, sites)
    except NewsmlError as exc:
        raise NewsmlError(f"training {name} on {usable} failed: {exc}") from None
    progress.advance()
    metadata = {
        "training": {"corpora": sizes, "split": split or "all", "pages": len(parsed),
                     "sites": len(set(sites)),
                     "skipped": skipped, "nodes": int(sum(len(lab) for lab in labels)),
                     "min_share": min_share, **choices},
        "feature_names": method.feature_names(),
        "cv_f1": cv_f1,
        "cv_folds": cv_folds,
    }
    return method, metadata
