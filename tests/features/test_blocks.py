"""newsml/features/blocks.py: the naive-Bayes paper's blocks and their four features."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.dom.page import load_page
from newsml.features import NaiveBayesFeatures

PAGE = load_page("""<html><body>
<ul><li><a href="/a">one two</a></li><li><a href="/b">three</a></li></ul>
<div><p>alpha beta gamma delta</p><p>epsilon zeta</p><p>eta, <a href="/c">theta</a> iota.</p></div>
</body></html>""")


def test_naive_bayes_features_block_and_node_level():
    block = NaiveBayesFeatures().page_features(PAGE)
    node = NaiveBayesFeatures(level="node").page_features(PAGE)
    assert node[0].tolist() == [0.0, 1.0, 0.0, 0.0]             # "one two": all link, no <p>
    assert node[4][3] == 1 and node[4][1] == pytest.approx(5 / 14)
    assert block[2][3] == 3                                       # the <div> block holds 3 <p>
    with pytest.raises(ValueError, match="level"):
        NaiveBayesFeatures(level="page").page_features(PAGE)


def test_naive_bayes_block_counts_a_paragraph_of_nested_blocks_once():
    from newsml.dom.page import load_page
    from newsml.features.blocks import block_rows

    page = load_page("<html><body><div>Lead, text.<p>One, <a href='#'>two</a>.</p>Tail!"
                     "<p>Three.</p></div><div><p>Four</p></div></body></html>")
    texts = [node.text for node in page.nodes]
    assert texts == ["Lead, text.", "One, two.", "Tail!", "Three.", "Four"]
    rows = block_rows(page, [[0, 1, 2, 3], [4]])
    chars = len("Lead,text.One,two.Tail!Three.")
    # the outer <div>'s nodes and the <p> nodes inside it: its two <p>, not four
    assert rows[0].tolist() == pytest.approx([chars - 3, 3 / chars, 6 / chars, 2])
    assert rows[1].tolist() == [4, 0.0, 0.0, 1]


def test_each_nodes_naive_bayes_block_is_the_block_that_holds_it():
    from newsml.features.blocks import block_rows, member_rows, page_nb_block_of_nodes, page_nb_blocks

    for page in (PAGE, load_page("<html><body><div>Lead, text.<p>One, <a href='#'>two</a>.</p>Tail!"
                                 "<p>Three.</p></div><ul><li>a</li><li>b</li></ul><p>Four</p></body></html>")):
        blocks = page_nb_blocks(page)
        block, n_blocks = page_nb_block_of_nodes(page)
        assert n_blocks == len(blocks) > 1
        assert [np.flatnonzero(block == b).tolist() for b in range(n_blocks)] == [b.tolist() for b in blocks]
        np.testing.assert_array_equal(member_rows(page, np.arange(len(page.nodes)), block, n_blocks),
                                      block_rows(page, blocks))


def test_naive_bayes_block_rows_of_no_group_or_an_empty_one_are_zero():
    from newsml.dom.page import load_page
    from newsml.features.blocks import block_rows

    page = load_page("<html><body><p>One, two.</p></body></html>")
    assert block_rows(page, []).shape == (0, 4)
    assert block_rows(page, [[]]).tolist() == [[0.0, 0.0, 0.0, 0.0]]
    assert block_rows(page, [[], [0]]).tolist() == [[0.0, 0.0, 0.0, 0.0], [8.0, 0.0, 2 / 8, 1.0]]
