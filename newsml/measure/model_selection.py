"""Model selection over pages: folds, out-of-fold stacking, grid search on page F1.

Every learned choice in newsml is made here, on training pages only:

- :func:`page_folds`: folds over pages (a page's nodes never straddle two folds),
  grouped by site when groups are given, so a choice is judged on sites it did not see;
- :func:`out_of_fold`: each page's output from a model fitted on the other folds, the
  stacking that keeps a learned column as good on training pages as on new ones;
- :func:`grid_search`: the parameters of a method with the best macro token F1 over
  labeled pages, returned as a configured copy (as ``GridSearchCV.best_estimator_``);
- :func:`choose_assembly`: the smoothing and cut with the best macro F1 of given scores.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import product
from typing import Any, TypeVar

import numpy as np

from ..dom.page import Page
from ..errors import NewsmlError
from ..rules.assembly import Assembly, Cut
from .scoring import mask_score

log = logging.getLogger(__name__)

Model = TypeVar("Model")
#: Anything ``sklearn.base.clone`` copies: a scikit-learn estimator or a newsml method.
Estimator = TypeVar("Estimator")
Folds = list[tuple[np.ndarray, np.ndarray]]


def page_folds(n_pages: int, n_folds: int, random_state: int = 0,
               groups: Sequence[object] | None = None) -> Folds:
    """``(train, held)`` page indices of each fold: whole groups (sites) held out together
    when ``groups`` holds at least ``n_folds`` distinct groups, else shuffled pages."""
    from sklearn.model_selection import GroupKFold, KFold  # training only: prediction never folds

    if n_folds < 2 or n_pages < n_folds:
        raise NewsmlError(f"{n_folds} folds need at least {max(n_folds, 2)} pages, got {n_pages}")
    index = np.arange(n_pages)
    if groups is None or len(set(groups)) < n_folds:
        if groups is not None:
            log.debug("%d groups for %d folds: folds over pages instead", len(set(groups)), n_folds)
        return list(KFold(n_folds, shuffle=True, random_state=random_state).split(index))
    return list(GroupKFold(n_folds, shuffle=True, random_state=random_state).split(index, groups=groups))


def out_of_fold(folds: Folds, fit: Callable[[np.ndarray], Model],
                predict: Callable[[Model, int], np.ndarray], n_pages: int) -> list[np.ndarray]:
    """Each page's ``predict(model, page)`` from the model ``fit`` on the other folds' pages."""
    outputs: list[np.ndarray] = [np.zeros(0)] * n_pages
    for train, held in folds:
        model = fit(train)
        for i in held:
            outputs[i] = predict(model, int(i))
    return outputs


def page_f1(pages: Sequence[Page], masks: Iterable[np.ndarray], labels: Sequence[np.ndarray]) -> float:
    """Macro token F1 of node selections against node labels (:func:`newsml.measure.scoring.mask_score`)."""
    scores = [mask_score(page.token_counts, keep, np.asarray(lab).astype(bool)).f1
              for page, keep, lab in zip(pages, masks, labels)]
    return float(np.mean(scores)) if scores else 0.0


def grid_search(method: Estimator, grid: Mapping[str, Sequence[Any]], pages: Sequence[Page],
                labels: Sequence[np.ndarray]) -> tuple[Estimator, dict[str, Any], float]:
    """The copy of ``method`` set to the ``grid`` point with the best macro F1 on ``pages``.

    ``method`` must have ``predict(pages) -> masks``. Ties go to the earlier grid point.
    Returns ``(configured copy, best parameters, its F1)``.
    """
    from sklearn.base import clone
    from sklearn.model_selection import ParameterGrid

    best_f1, best_params = -1.0, {}
    for params in ParameterGrid(dict(grid)):
        candidate = clone(method).set_params(**params)
        f1 = page_f1(pages, candidate.predict(pages), labels)
        if f1 > best_f1:
            best_f1, best_params = f1, params
    return clone(method).set_params(**best_params), best_params, best_f1


def choose_assembly(pages: Sequence[Page], scores: Sequence[np.ndarray], labels: Sequence[np.ndarray],
                    sigmas: Sequence[float], cuts: Sequence[Cut]) -> tuple[Assembly, float]:
    """The smoothing and cut with the best macro F1 of per-node ``scores``; ties go to the first."""
    best: tuple[float, Assembly] = (-1.0, Assembly())
    for sigma, cut in product(sigmas, cuts):
        assembly = Assembly(float(sigma), cut)
        f1 = page_f1(pages, (assembly(s) for s in scores), labels)
        if f1 > best[0]:
            best = (f1, assembly)
    return best[1], best[0]
