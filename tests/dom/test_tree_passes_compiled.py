"""The block tree's passes taken in C (newsml/dom/_tree_passes.pyx) give what numpy's level-by-level
passes give: the same depths and order, every sum to the last bit, the same answers handed down."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import compiled_or_skip, in_python, labeled_and_corpus_pages

from newsml.dom.nodes import BlockTree, block_tree_from
from newsml.dom.page import load_page


@pytest.fixture(scope="module")
def compiled():
    return compiled_or_skip("dom._tree_passes", "numpy passes a level at a time")


def random_forest(rng: np.random.Generator, n: int, roots: int) -> np.ndarray:
    """Parents of ``n`` elements in a random order: ``roots`` of them their own parents, each
    other one under an element placed before it in a random shuffle (so no cycle)."""
    order = rng.permutation(n)
    parent = np.empty(n, dtype=np.int64)
    for place, element in enumerate(order.tolist()):
        parent[element] = element if place < roots else order[rng.integers(0, place)]
    return parent


def assert_same_passes(tree: BlockTree, rng: np.random.Generator) -> None:
    n = len(tree.parent)
    again = in_python(lambda: block_tree_from(tree.parent, tree.block, tree.elements, tree.tags))
    for field in ("depth", "by_depth", "level_starts"):
        np.testing.assert_array_equal(getattr(tree, field), getattr(again, field))
    for values in (rng.random(len(tree.block)), rng.integers(0, 50, len(tree.block)).astype(float)):
        expected = in_python(lambda values=values: tree.subtree_sums(values, tree.levels()))
        assert tree.subtree_sums(values).tobytes() == expected.tobytes()    # the same bits
    settled = rng.random(n) < 0.3
    for values in (rng.integers(-1, 9, n), rng.random(n) < 0.5, rng.random(n)):
        expected = in_python(lambda values=values: tree.inherited(values.copy(), settled))
        np.testing.assert_array_equal(tree.inherited(values.copy(), settled), expected)


def test_the_compiled_passes_on_labeled_and_corpus_pages(compiled):
    rng = np.random.default_rng(0)
    for path in labeled_and_corpus_pages("cwced_zh", "cleaneval_en", "dragnet", each=30):
        tree = load_page(path.read_bytes()).block_tree
        assert_same_passes(tree, rng)


def test_the_compiled_passes_on_random_forests(compiled):
    rng = np.random.default_rng(1)
    for n, roots in ((1, 1), (2, 1), (7, 3), (300, 1), (300, 20), (2000, 1)):
        parent = random_forest(rng, n, roots)
        block = rng.integers(0, n, 3 * n)
        assert_same_passes(block_tree_from(parent, block, [None] * n, ["div"] * n), rng)


def test_an_empty_tree_has_no_levels(compiled):
    tree = block_tree_from(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), [], [])
    assert tree.levels() == [] and tree.level_starts.tolist() == [0]
    assert tree.subtree_sums(np.zeros(0)).shape == (0,)
    assert tree.inherited(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)).shape == (0,)


def test_the_compiled_passes_refuse_what_is_no_tree(compiled):
    parent = np.array([0, 0, 1], dtype=np.int64)
    by_depth, starts = np.array([0, 1, 2], dtype=np.int64), np.array([0, 1, 2, 3], dtype=np.int64)
    with pytest.raises(ValueError, match="out of the tree's range"):
        compiled.depths(np.array([0, 5], dtype=np.int64))
    with pytest.raises(ValueError, match="cycle"):
        compiled.depths(np.array([1, 2, 1], dtype=np.int64))
    with pytest.raises(ValueError, match="out of the tree's range"):
        compiled.sums_up(np.array([0, 0, -1], dtype=np.int64), by_depth, starts, np.zeros(3))
    with pytest.raises(ValueError, match="level_starts"):
        compiled.sums_up(parent, by_depth, np.array([0, 1, 2], dtype=np.int64), np.zeros(3))
    with pytest.raises(ValueError, match="ascending"):
        compiled.sums_up(parent, by_depth, np.array([0, 2, 1, 3], dtype=np.int64), np.zeros(3))
    with pytest.raises(ValueError, match="total holds"):
        compiled.sums_up(parent, by_depth, starts, np.zeros(2))
    with pytest.raises(ValueError, match="a value per element"):
        compiled.inherit_down(parent, by_depth, starts, np.zeros(3, dtype=np.int64),
                              np.zeros(2, dtype=np.uint8))
    with pytest.raises(TypeError):
        compiled.sums_up(parent, by_depth, starts, None)
    with pytest.raises(ValueError):     # (a float array where the tree's indices go)
        compiled.sums_up(parent.astype(float), by_depth, starts, np.zeros(3))


def test_values_the_compiled_hand_down_does_not_take_go_the_numpy_way(compiled):
    tree = block_tree_from(np.array([0, 0, 1, 1], dtype=np.int32), np.array([2, 3]), [None] * 4, ["div"] * 4)
    assert tree.parent.dtype == np.int64 and tree.by_depth.dtype == np.int64
    settled = np.array([True, False, False, True])
    makers = (lambda: np.arange(4, dtype=np.int32), lambda: np.arange(4, dtype=np.float32),
              lambda: np.arange(8)[::2])                      # (the last not contiguous)
    for make in makers:
        expected = in_python(lambda make=make: tree.inherited(make(), settled))
        np.testing.assert_array_equal(tree.inherited(make(), settled), expected)
