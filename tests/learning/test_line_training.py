"""Training of the byline model (newsml/learning/lines.py): its labels and its fit."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.document.lines import FEATURES, LineModel
from newsml.dom.page import load_page
from newsml.learning.lines import byline_labels, fit_line_model

PAGE = """<html><body><h1>Bridge opens</h1><p>By Ana Diaz, staff writer</p>
<p>Ana Diaz spoke to the engineers who built the bridge over two long winters, and to the
drivers who crossed it on its first morning, before the rush hour began.</p>
<p>Related: more stories</p></body></html>"""


def test_the_line_naming_the_author_is_the_byline_and_a_paragraph_naming_her_is_not():
    page = load_page(PAGE)
    candidates = list(range(len(page.nodes)))
    labels = byline_labels(page, candidates, "Ana Diaz")
    assert [page.nodes[i].text for i in np.flatnonzero(labels)] == ["By Ana Diaz, staff writer"]
    assert not byline_labels(page, candidates, None).any()


def test_the_fit_needs_both_kinds_of_line_and_ranks_bylines_first():
    rng = np.random.default_rng(0)
    rows = rng.uniform(0, 1, size=(400, len(FEATURES)))
    labels = rows[:, 6] > 0.8                  # one feature says byline
    with pytest.raises(ValueError, match="both kinds"):
        fit_line_model(rows, np.zeros(400, dtype=bool), threshold=0.5)
    model = fit_line_model(rows, labels, threshold=0.5)
    assert isinstance(model, LineModel) and model.threshold == 0.5
    scores = model.trees.predict_proba(rows)[:, 1]
    assert scores[labels].min() > scores[~labels].max()
