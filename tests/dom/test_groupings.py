"""The papers' units as groupings of text nodes."""

from __future__ import annotations

from newsml.dom.groupings import nb_blocks, text_node_sets
from newsml.dom.page import load_page

TABLE_PAGE = """<html><body>
<table><tr><td><a>Home</a></td><td><a>News</a></td></tr></table>
<div class="story"><p>First, paragraph.</p><p>Second, paragraph.</p></div>
<div class="side"><span>Side text</span></div>
</body></html>"""


def test_nb_blocks_climb_to_table_cells_and_divs_and_merge_siblings():
    nodes = load_page(TABLE_PAGE).nodes
    texts = [n.text for n in nodes]
    blocks = [[texts[i] for i in block] for block in nb_blocks(nodes)]
    # the two <td> are siblings: one block; the two sibling <div>s merge as well
    assert blocks == [["Home", "News"], ["First, paragraph.", "Second, paragraph.", "Side text"]]
    unmerged = [[texts[i] for i in block] for block in nb_blocks(nodes, merge_siblings=False)]
    assert unmerged == [["Home"], ["News"], ["First, paragraph.", "Second, paragraph."], ["Side text"]]


def test_econ_sets_join_adjacent_big_node_siblings():
    page = load_page("""<div><p>One, two.</p><p>Three.</p><ul><li>x</li></ul><p>Four.</p></div>""")
    texts = [n.text for n in page.nodes]
    sets = sorted([texts[i] for i in s] for s in text_node_sets(page.pieces))
    # the <ul> breaks the run of <p> siblings; the <li> is a set of its own
    assert sets == [["Four."], ["One, two.", "Three."], ["x"]]


def test_econ_sets_of_a_pieces_page_span_links_and_breaks():
    html = "<div>Text one, <a>linked</a> more.<br><font>font piece</font> end.</div>"
    page = load_page(html)
    texts = [n.text for n in page.nodes]
    assert texts == ["Text one, linked more.", "font piece end."]
    # <a>, <br> and <font> are adjacent big-nodes: one set that spans both text nodes,
    # as does the set of the <div> that holds the text between them
    assert [sorted(s) for s in text_node_sets(page.pieces)] == [[0, 1], [0, 1]]
