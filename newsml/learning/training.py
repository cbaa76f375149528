"""Training: labeled pages -> pages and per-node labels -> a fitted (or tuned) method.

A labeled page is skipped, with a :class:`~newsml.errors.TrainingWarning` naming it and
saying why, when it is not a page, when its gold text is empty, or when fewer than
:data:`MIN_GOLD_COVERAGE` of its gold's tokens occur in the page (a gold from another
page, or from another version of it): aligned to nothing, it would teach that the page
is all boilerplate, and one such page can lower a whole cross-validation.
"""

from __future__ import annotations

import logging
import pickle
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..article import extract_text
from ..core.processes import fork_context, limited_threads
from ..core.progress import ProgressHook, hook
from ..core.text import tokens
from ..dom.page import Page, load_page
from ..errors import NewsmlError, ProcessDiedError, TrainingWarning
from ..input.corpus import LabeledPage, load_corpus, missing_gold
from ..measure.align import MIN_SHARE, align_labels
from ..measure.model_selection import grid_search, page_folds
from ..measure.scoring import Score, macro, score
from ..methods import NodeMethod, new_method
from .adaptation import AdaptedMethod

log = logging.getLogger(__name__)

#: Below this share of its gold's tokens occurring in the page, a page is not trained on.
MIN_GOLD_COVERAGE = 0.5
#: Threads of each math library (OpenMP of the boosted trees, BLAS) while training: its
#: matrices are small, and on a busy machine more threads spin and wait
#: (docs/decisions/2026-11-23-many-pages.md).
TRAINING_THREADS = 1


class GoldPage(Protocol):
    """A page with its gold text: a :class:`~newsml.input.corpus.LabeledPage`, or one made in memory."""

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

    Node labels come from aligning the page's text nodes to its gold (see :mod:`newsml.measure.align`).
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
    with limited_threads(TRAINING_THREADS):
        if not method.requires_fit and method.search_space:
            tuned, params, f1 = grid_search(method, method.search_space, pages, labels)
            return tuned, {"tuned_params": params, "tuned_f1": f1}
        return method.fit(pages, labels, groups=groups), {}


def cross_validated_f1(make: Callable[[], NodeMethod], pages: Sequence[Page],
                       labels: Sequence[np.ndarray], golds: Sequence[str], folds: int = 5,
                       random_state: int = 0, groups: Sequence[object] | None = None,
                       progress: ProgressHook | None = None, jobs: int = 1) -> float:
    """Macro F1 against the gold texts of pages extracted by models trained on the other folds
    (the macro of :func:`cross_validated_scores`, which says how the folds are made and run)."""
    return macro(cross_validated_scores(make, pages, labels, golds, folds, random_state, groups,
                                        progress, jobs)).f1


def cross_validated_scores(make: Callable[[], NodeMethod], pages: Sequence[Page],
                           labels: Sequence[np.ndarray], golds: Sequence[str], folds: int = 5,
                           random_state: int = 0, groups: Sequence[object] | None = None,
                           progress: ProgressHook | None = None, jobs: int = 1) -> list[Score]:
    """Each page's score against its gold text, extracted by a model trained on the other
    folds, in page order (so two methods can be compared page by page).

    With ``groups`` (e.g. sites), a group's pages are held out together. With ``jobs`` > 1
    the folds are fitted in that many forked processes (one math-library thread each) on
    Linux; elsewhere (no fork, or fork not safe: Windows, macOS) one after another. The
    result is the same either way, and warnings raised while fitting a fold in a process
    are re-issued here.
    """
    return _cross_validate(make, pages, labels, golds, folds, random_state, groups, progress, jobs)[0]


def cross_validated_fit(make: Callable[[], NodeMethod], pages: Sequence[Page], labels: Sequence[np.ndarray],
                        golds: Sequence[str], folds: int = 5, groups: Sequence[object] | None = None,
                        progress: ProgressHook | None = None, jobs: int = 1,
                        ) -> tuple[list[Score], tuple[NodeMethod, dict[str, Any]] | NewsmlError]:
    """:func:`cross_validated_scores`, and :func:`fit_method` on all the pages, fitted beside
    the folds: with ``jobs`` processes, the final fit is one more task of the same pool
    (started first, being the longest), instead of a run on one core after them: on few
    cores, the whole takes less time side by side.

    The fit, made the same way, is the same model either way. Its NewsmlError is returned,
    not raised, so that the caller can say which part failed.
    """
    scores, fitted = _cross_validate(make, pages, labels, golds, folds, 0, groups, progress, jobs,
                                     fit_all=True)
    assert fitted is not None
    return scores, fitted


def cross_validated_models(make: Callable[[], NodeMethod], pages: Sequence[Page],
                           labels: Sequence[np.ndarray], folds: int = 5, random_state: int = 0,
                           groups: Sequence[object] | None = None, progress: ProgressHook | None = None,
                           jobs: int = 1) -> list[tuple[list[int], NodeMethod]]:
    """Each fold's held-out pages (their indices) and the method fitted on the other folds:
    the folds of :func:`cross_validated_scores`, fitted the same way, for a caller that
    keeps the models (to score prediction settings without fitting again)."""
    splits = list(page_folds(len(pages), folds, random_state, groups=groups))
    results = _run_folds((make, pages, labels, None, groups, splits, "models"), list(range(len(splits))),
                         "cross-validation (fold models)", progress, jobs)
    return [([int(page) for page in splits[index][1]], results[index]) for index in range(len(splits))]


def _cross_validate(make: Callable[[], NodeMethod], pages: Sequence[Page], labels: Sequence[np.ndarray],
                    golds: Sequence[str], folds: int, random_state: int, groups: Sequence[object] | None,
                    progress: ProgressHook | None, jobs: int, fit_all: bool = False,
                    ) -> tuple[list[Score], tuple[NodeMethod, dict[str, Any]] | NewsmlError | None]:
    """The folds' scores in page order, and with ``fit_all`` the fit on every page (task
    number ``len(splits)``), run in a pool of forked processes or one after another."""
    splits = list(page_folds(len(pages), folds, random_state, groups=groups))
    tasks = ([len(splits)] if fit_all else []) + list(range(len(splits)))   # the longest first
    title = "cross-validation (folds) and the final fit" if fit_all else "cross-validation (folds)"
    results = _run_folds((make, pages, labels, golds, groups, splits, "scores"), tasks, title, progress, jobs)
    fitted = results.pop(len(splits), None)
    in_order: list[Score | None] = [None] * len(pages)
    for index, scores in results.items():
        for page, result in zip(splits[index][1], scores):
            in_order[page] = result
    return [result for result in in_order if result is not None], fitted


def _run_folds(folds: tuple[Any, ...], tasks: list[int], title: str, progress: ProgressHook | None,
               jobs: int) -> dict[int, Any]:
    """Each task's result (:func:`_task`) by its number, the tasks run in a pool of forked
    processes where that is safe and ``jobs`` > 1, else one after another; ``folds`` is
    what :func:`_task` reads."""
    global _FOLDS
    progress = hook(progress)
    progress.start(title, len(tasks))
    results: dict[int, Any] = {}
    _FOLDS = folds
    try:
        context = fork_context()
        shown: dict[Any, Any] = {}  # the folds' warnings, filtered as one process would
        if jobs > 1 and len(tasks) > 1 and context is not None:
            with ProcessPoolExecutor(min(jobs, len(tasks)), mp_context=context) as pool:
                try:
                    futures = [pool.submit(_task_in_process, i) for i in tasks]
                    for future in as_completed(futures):
                        index, result, caught = future.result()
                        for warning in caught:
                            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                                   warning.lineno, registry=shown)
                        results[index] = result
                        progress.advance()
                except BrokenProcessPool:
                    raise ProcessDiedError("a training process died (out of memory?): try fewer --jobs, "
                                           "or --cv-folds 0") from None
                except BaseException:      # (a fold's NewsmlError, raised in its process)
                    pool.shutdown(wait=False, cancel_futures=True)    # what has not started never will
                    raise
        else:
            for index in sorted(tasks):     # the folds, then the fit
                results[index] = _task(index)
                progress.advance()
    finally:
        _FOLDS = None
    return results


#: What :func:`_task` reads: set by :func:`_run_folds` before it forks the processes,
#: which inherit it (pages hold lxml trees, which cannot be pickled).
_FOLDS: tuple[Any, ...] | None = None


def _task_in_process(index: int) -> tuple[int, Any, list[warnings.WarningMessage]]:
    """:func:`_task` in a process of the pool, with the warnings it raised, which the
    parent re-issues (a child's warnings would otherwise go to its stderr, or nowhere)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = _task(index)
    return index, result, [_picklable(warning) for warning in caught]


def _task(index: int) -> list[Score] | NodeMethod | tuple[NodeMethod, dict[str, Any]] | NewsmlError:
    """Fold ``index``'s scores or model (:func:`_fold_fit`: its error is raised, the
    cross-validation's), or past the last fold the fit on every page (its NewsmlError
    returned, for the caller to name training's)."""
    assert _FOLDS is not None
    make, pages, labels, golds, groups, splits, wanted = _FOLDS
    if index == len(splits):
        return _fitted_or_error(make, pages, labels, groups)
    method = _fold_fit(index)
    if wanted == "models":
        return method
    return [score(extract_text(pages[i], method), golds[i]) for i in splits[index][1]]


def _picklable(warning: warnings.WarningMessage) -> warnings.WarningMessage:
    """The warning as raised if it survives pickling (the way back to the parent), else
    its text as its category, else as a UserWarning (which always pickles): a warning
    must never cost the cross-validation its result."""
    text = str(warning.message)
    forms: tuple[Callable[[], Warning | str], ...] = (lambda: warning.message, lambda: warning.category(text))
    for form in forms:
        try:
            message = form()
            pickle.loads(pickle.dumps(message))
        except Exception:  # noqa: BLE001 - any failure to pickle: try the next, plainer form
            continue
        return warnings.WarningMessage(message, warning.category, warning.filename, warning.lineno)
    return warnings.WarningMessage(UserWarning(text), UserWarning, warning.filename, warning.lineno)


def _fold_fit(index: int) -> NodeMethod:
    """A new method fitted on every fold but ``index``."""
    assert _FOLDS is not None
    make, pages, labels, _, groups, splits, _ = _FOLDS
    train = splits[index][0]
    inner = [groups[i] for i in train] if groups is not None else None
    method, _ = fit_method(make(), [pages[i] for i in train], [labels[i] for i in train], inner)
    return method


def _fitted_or_error(make: Callable[[], NodeMethod], pages: Sequence[Page], labels: Sequence[np.ndarray],
                     groups: Sequence[object] | None) -> tuple[NodeMethod, dict[str, Any]] | NewsmlError:
    """:func:`fit_method` of a new method on all ``pages``, or the NewsmlError it raised."""
    try:
        return fit_method(make(), pages, labels, groups)
    except NewsmlError as exc:
        return exc


def labeled_folders(corpora: Sequence[str | Path], split: str | None = "train",
                    ) -> tuple[list[LabeledPage], dict[str, int]]:
    """The labeled pages of ``corpora`` for ``split``, and how many each folder gave.

    For 'train', pages whose json names no split (or that have no json) count too: a
    user's own labeled pages rarely name one. A folder where no page has its gold text is
    an error naming it; a folder that gives no page of the split is a TrainingWarning.
    """
    pages: list[LabeledPage] = []
    sizes: dict[str, int] = {}
    for folder in corpora:
        missing = missing_gold(folder)
        if missing:
            raise NewsmlError(f"{folder}: no labeled page to train on: {missing}. Write each page's article "
                              "text, one paragraph a line, to <id>.txt (`newsml label PAGE` drafts it)")
        found = load_corpus(folder, split=split, unsplit=split == "train")
        if not found:
            warnings.warn(f"{folder}: no labeled page for split {split!r} (their json name another split; "
                          "--split all takes every page)", TrainingWarning, stacklevel=2)
        sizes[Path(folder).name] = len(found)
        pages.extend(found)
    return pages, sizes


def train_method(name: str, corpora: Sequence[str | Path], split: str | None = "train",
                 params: dict[str, Any] | None = None, cv_folds: int = 5, min_share: float = MIN_SHARE,
                 progress: ProgressHook | None = None, base: str | Path | None = None,
                 jobs: int = 1) -> tuple[NodeMethod, dict[str, Any]]:
    """Train method ``name`` on labeled folders; return it with the metadata of its model file.

    With ``base`` (a method name such as "default", or a model file), adapt that model to
    the pages (:class:`~newsml.learning.adaptation.AdaptedMethod`) instead of training ``name``
    from scratch; its leave-one-page-out F1 replaces the cross-validation. Runs with
    :data:`TRAINING_THREADS` threads per math library; ``jobs`` processes fit the
    cross-validation's folds and the model on every page side by side (each holds its own
    training rows: more jobs, more memory).
    """
    with limited_threads(TRAINING_THREADS):
        return _train_method(name, corpora, split, params, cv_folds, min_share, progress, base, jobs)


def _train_method(name: str, corpora: Sequence[str | Path], split: str | None, params: dict[str, Any] | None,
                  cv_folds: int, min_share: float, progress: ProgressHook | None, base: str | Path | None,
                  jobs: int = 1) -> tuple[NodeMethod, dict[str, Any]]:
    # a setting fit would refuse fails now, not once the pages are read and a fold has run
    (AdaptedMethod(base=base, **(params or {})) if base is not None
     else new_method(name, **(params or {}))).check_params()
    pages, sizes = labeled_folders(corpora, split)
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
    ids = [f"{getattr(page, 'corpus', '')}/{page.id}".lstrip("/") for page, _, _ in kept]
    usable = f"{len(kept)} usable pages ({len(skipped)} skipped)" if skipped else f"{len(kept)} pages"
    if base is not None:
        return _adapt(base, parsed, labels, ids, sizes, split, skipped, min_share, params, progress)
    make = partial(new_method, name, **(params or {}))
    cv_f1: float | None = None
    if cv_folds:
        try:
            scores, fitted = cross_validated_fit(make, parsed, labels, golds, cv_folds, groups=sites,
                                                 progress=progress, jobs=jobs)
        except ProcessDiedError as exc:
            raise NewsmlError(f"training {name} on {usable} failed: {exc}") from None
        except NewsmlError as exc:
            raise NewsmlError(f"cross-validation over {cv_folds} folds of {usable} failed: {exc} "
                              "(each fold trains on the pages of the others: give more pages, "
                              "fewer --cv-folds, or 0 to skip it)") from None
        cv_f1 = macro(scores).f1
    else:
        progress.start(f"fitting {name}", 1)
        fitted = _fitted_or_error(make, parsed, labels, sites)
        progress.advance()
    if isinstance(fitted, NewsmlError):
        raise NewsmlError(f"training {name} on {usable} failed: {fitted}") from None
    method, choices = fitted
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


def _adapt(base: str | Path, pages: list[Page], labels: list[np.ndarray], ids: list[str],
           sizes: dict[str, int], split: str | None, skipped: list[str], min_share: float,
           params: dict[str, Any] | None, progress: ProgressHook) -> tuple[NodeMethod, dict[str, Any]]:
    """Adapt ``base`` to the labeled pages; the metadata name the base and the pages."""
    progress.start(f"adapting {base}", 1)
    method = AdaptedMethod(base=base, **(params or {})).fit(pages, labels)
    progress.advance()
    metadata = {
        "training": {"corpora": sizes, "split": split or "all", "pages": len(pages), "page_ids": ids,
                     "skipped": skipped, "nodes": int(sum(len(lab) for lab in labels)),
                     "min_share": min_share, "prior": method.prior_, "base_f1": method.base_f1_},
        "base": {"name": method.base_name_, "newsml_version": method.base_version_,
                 "kept": "by reference" if method.base_by_reference() else "by value"},
        "feature_names": method.feature_names(),
        "cv_f1": method.cv_f1_,
        "cv_folds": len(pages) if method.cv_f1_ is not None else 0,
    }
    return method, metadata
