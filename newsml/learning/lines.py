"""Training of the byline model (:class:`newsml.document.lines.LineModel`) on author gold.

A candidate line is a positive example when it holds the gold author's name (as whole
words, or anywhere in Chinese) and little else (a line at most three times the name's
length, plus a few characters): the byline, not a paragraph that mentions the author.
"""

from __future__ import annotations

import numpy as np

from ..document.lines import LineModel, holds_name, words_only
from ..dom.page import Page
from ..estimators.trees import FrozenTrees

#: The boosted trees' size: small, for a few hundred positive lines.
TREES = 50
LEAVES = 15


def byline_labels(page: Page, candidates: list[int], author: str | None) -> np.ndarray:
    """Whether each candidate line of ``page`` is the line that names ``author``."""
    name = words_only(author or "")
    labels = np.zeros(len(candidates), dtype=bool)
    if not name:
        return labels
    for row, index in enumerate(candidates):
        line = words_only(page.nodes[index].text)
        labels[row] = holds_name(line, name) and len(line) <= 3 * len(name) + 20
    return labels


def fit_line_model(rows: np.ndarray, labels: np.ndarray, threshold: float, random_state: int = 0
                   ) -> LineModel:
    """Boosted trees fitted on candidate lines' features and labels, kept as arrays: every
    line counts, none held out (no early stopping), so the trees are :data:`TREES`."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    if labels.all() or not labels.any():
        raise ValueError("the byline model needs lines of both kinds: bylines and others")
    model = HistGradientBoostingClassifier(max_iter=TREES, max_leaf_nodes=LEAVES, early_stopping=False,
                                           random_state=random_state)
    model.fit(rows, labels)
    return LineModel(FrozenTrees.from_estimator(model, check_rows=rows[:500]), threshold)

