"""Model selection over pages: folds, out-of-fold outputs, grid search, assembly choice."""

from __future__ import annotations

import numpy as np
import pytest

from newsml import NewsmlError
from newsml.dom.page import load_page
from newsml.measure.model_selection import choose_assembly, grid_search, out_of_fold, page_f1, page_folds
from newsml.methods import NodeMethod
from newsml.rules.assembly import Assembly, FixedCut, OtsuCut


class LongNodes(NodeMethod):
    """Keeps nodes of at least ``min_tokens`` tokens (no ``name``: not registered)."""

    def __init__(self, min_tokens: int = 1):
        self.min_tokens = min_tokens

    def score_nodes(self, page):
        return (page.token_counts >= self.min_tokens).astype(float)


def _pages(n: int = 4):
    pages = [load_page(f"<ul><li>home</li><li>world news</li></ul>"
                       f"<p>story {i} with enough words to be the article</p>") for i in range(n)]
    labels = [np.array([0, 0, 1]) for _ in pages]
    return pages, labels


def test_grid_search_returns_the_best_configured_copy():
    pages, labels = _pages()
    method = LongNodes()
    tuned, params, f1 = grid_search(method, {"min_tokens": [1, 3, 100]}, pages, labels)
    # 1 keeps the menu, 100 keeps nothing, 3 keeps exactly the story
    assert params == {"min_tokens": 3} and f1 == 1.0
    assert tuned.get_params() == {"min_tokens": 3} and method.min_tokens == 1
    assert page_f1(pages, LongNodes(1).predict(pages), labels) == pytest.approx(2 * 9 / 12 / (9 / 12 + 1))


def test_grid_search_breaks_ties_by_grid_order():
    pages, labels = _pages()
    _, params, _ = grid_search(LongNodes(), {"min_tokens": [4, 3, 5]}, pages, labels)
    assert params == {"min_tokens": 4}


def test_grouped_folds_keep_each_group_on_one_side():
    groups = ["a", "a", "b", "b", "b", "c", "d", "d", "e"]
    folds = page_folds(len(groups), 3, random_state=0, groups=groups)
    for train, held in folds:
        assert not {groups[i] for i in train} & {groups[i] for i in held}
    assert sorted(np.concatenate([held for _, held in folds]).tolist()) == list(range(len(groups)))
    # too few groups for the folds: folds over pages instead
    few = page_folds(4, 3, random_state=0, groups=["a", "a", "b", "b"])
    plain = page_folds(4, 3, random_state=0)
    assert [held.tolist() for _, held in few] == [held.tolist() for _, held in plain]
    with pytest.raises(NewsmlError, match="at least 5 pages"):
        page_folds(4, 5)


def test_out_of_fold_output_comes_from_a_model_that_never_saw_the_page():
    folds = page_folds(10, 5, random_state=1)
    seen = out_of_fold(folds, lambda train: set(train.tolist()), lambda model, i: np.array([i in model]), 10)
    assert [bool(out[0]) for out in seen] == [False] * 10


def test_choose_assembly_picks_the_cut_that_matches_the_labels():
    pages, labels = _pages()
    scores = [np.array([0.3, 0.35, 0.45]) for _ in pages]   # all below 0.5: only Otsu finds the story
    assembly, f1 = choose_assembly(pages, scores, labels, [0.0], [FixedCut(0.5), OtsuCut()])
    assert assembly == Assembly(0.0, OtsuCut()) and f1 == 1.0
