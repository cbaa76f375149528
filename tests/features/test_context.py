"""newsml/features/context.py: what the fused belief says around a node (neighbours, boxes,
the main container, style mates)."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.dom.page import load_page
from newsml.features.context import CONTEXT_NAMES, MATE_NAMES, belief_context, context_names


def test_belief_context_reads_neighbours_containers_and_the_main_container():
    page = load_page("""<html><body>
    <ul><li><a href="/a">menu one</a></li><li><a href="/b">menu two</a></li></ul>
    <div><div><p>first article paragraph here</p><p>short</p><p>last article paragraph</p></div></div>
    <div><p>footer words</p></div>
    </body></html>""")
    texts = [node.text for node in page.nodes]
    assert texts == ["menu one", "menu two", "first article paragraph here", "short",
                     "last article paragraph", "footer words"]
    belief = np.array([0.1, 0.1, 0.9, 0.2, 0.9, 0.3])
    C = belief_context(page, belief)
    column = dict(zip(CONTEXT_NAMES, C.T))
    assert C.shape == (6, len(CONTEXT_NAMES)) and ((C >= 0) & (C <= 1)).all()
    assert column["belief"].tolist() == belief.tolist()
    # the weak line sits in a confident box; the footer's box is only itself
    tokens = np.array([4, 1, 3])
    assert column["box1"][3] == pytest.approx((belief[2:5] * tokens).sum() / tokens.sum())
    assert column["box1"][5] == pytest.approx(0.3)
    assert column["near2"][3] > belief[3] and column["near2"][0] < 0.5
    assert column["in_main"].tolist() == [0, 0, 1, 1, 1, 0]
    assert column["between"].tolist() == [0, 0, 1, 1, 1, 0]
    assert belief_context(load_page("<p>x</p>"), np.zeros(1))[0, CONTEXT_NAMES.index("in_main")] == 0
    # written into the last columns of a wider matrix (as fusion does): the same columns
    wide = np.full((6, 3 + len(CONTEXT_NAMES)), 7.0)
    assert belief_context(page, belief, out=wide[:, 3:]) is not None
    assert np.array_equal(wide[:, 3:], C) and (wide[:, :3] == 7.0).all()
    with pytest.raises(ValueError, match="shape"):
        belief_context(page, belief, out=wide)


def test_belief_context_boxes_hold_every_node_below_not_only_siblings():
    page = load_page("""<html><body><div>lead text of the story<p>deeper paragraph</p>
    <div><p>one more</p><p>|</p></div></div></body></html>""")
    assert [node.text for node in page.nodes] == ["lead text of the story", "deeper paragraph",
                                                  "one more", "|"]
    belief = np.array([1.0, 0.0, 0.5, 0.9])
    column = dict(zip(CONTEXT_NAMES, belief_context(page, belief).T))
    weight = np.array([5, 2, 2, 1])                  # tokens, at least 1 per node
    outer = (belief * weight).sum() / weight.sum()
    # the <p> under the outer div sees the div's own text and the nested div's nodes
    assert column["box1"][1] == pytest.approx(outer)
    assert column["box1"][2] == pytest.approx((0.5 * 2 + 0.9) / 3)
    assert column["box2"][2] == pytest.approx(outer)


def test_belief_context_of_style_mates_reads_the_others_of_a_mark():
    page = load_page("""<html><body>
    <div class="story"><p class="body">The bridge opened on Monday.</p>
    <div class="box"><a href="/more">More bridges</a></div>
    <ul><li><p class="body">Its span</p></li><li><p class="body">Its cost</p></li></ul></div>
    </body></html>""")
    assert [node.text for node in page.nodes] == ["The bridge opened on Monday.", "More bridges",
                                                  "Its span", "Its cost"]
    belief = np.array([0.9, 0.1, 0.2, 0.4])
    plain = belief_context(page, belief)
    C = belief_context(page, belief, mates=True)
    assert context_names(True) == CONTEXT_NAMES + MATE_NAMES and C.shape == (4, len(CONTEXT_NAMES) + 2)
    assert np.array_equal(C[:, :len(CONTEXT_NAMES)], plain)
    column = dict(zip(context_names(True), C.T))
    weight = np.maximum(page.token_counts, 1.0)
    # an item's mates are the paragraph and the other item, never itself
    assert column["mates0"][2] == pytest.approx((0.9 * weight[0] + 0.4 * weight[3]) / (weight[0] + weight[3]))
    # the box is alone of its mark: its own belief; one level up it shares the story <div>
    assert column["mates0"][1] == pytest.approx(0.1)
    assert column["mates1"][1] == pytest.approx(0.9)
    # the items' <li> parents have no class: each other's mates only
    assert column["mates1"][2] == pytest.approx(0.4) and column["mates1"][3] == pytest.approx(0.2)
    assert ((C >= 0) & (C <= 1)).all()
