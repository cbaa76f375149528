"""newsml/dom/walk.py: the segmentation walk, its pieces, its block tree and its counts of <p>."""

from __future__ import annotations

from conftest import LABELED, NEWS_PAGE

from newsml.dom.page import load_page
from newsml.dom.walk import segment_tree


def test_pieces_are_walked_only_when_asked_for_and_fit_the_page_nodes():
    page = load_page(NEWS_PAGE)
    assert page.segmentation.pieces is None      # the default's walk keeps none
    pieces = page.pieces
    assert sorted(set(pieces.node.tolist())) == list(range(len(page.nodes)))
    for node in page.nodes:   # each node's text is its pieces' texts, white space collapsed
        assert " ".join("".join(text for _, text, _ in pieces.of(node.index)).split()) == node.text
        assert sum(visible for _, _, visible in pieces.of(node.index)) == node.chars


def test_pieces_name_the_element_holding_each_text():
    pieces = load_page("<div>Head<p>Before <a>link</a> after</p>Tail</div>").pieces
    held = [[(owner.tag, text, visible) for owner, text, visible in pieces.of(node)] for node in range(3)]
    assert held == [[("div", "Head", 4)], [("p", "Before ", 6), ("a", "link", 4), ("p", " after", 5)],
                    [("div", "Tail", 4)]]
    assert pieces.node.tolist() == [0, 1, 1, 1, 2]


def test_the_walk_counts_the_p_of_each_block_as_a_walk_of_the_whole_document_does():
    import numpy as np

    for path in sorted(LABELED.glob("*.html"))[:12]:
        walked = load_page(path.read_bytes()).segmentation
        blocks = np.unique(walked.tree.block)
        assert np.array_equal(walked.paragraphs[blocks], _paragraph_spans(walked.tree)[blocks]), path.name


def test_paragraph_spans_count_the_p_under_a_block_itself_included():
    page = load_page("<html><body><div>a<p>b</p><p></p><section><p>c</p></section></div><p>d</p>"
                     "</body></html>")
    tree, spans = page.block_tree, page.segmentation.paragraphs
    counts = {tree.elements[e].tag + tree.elements[e].text: int(spans[e, 1] - spans[e, 0])
              for e in set(tree.block.tolist())}
    assert counts == {"diva": 3, "pb": 1, "pc": 1, "pd": 1}   # the empty <p> too


def test_paragraph_spans_of_a_walk_from_an_inner_element_differ_from_the_root_walk_by_an_offset():
    from newsml.input.parsed import parse

    root = parse("<html><body><p>Before.</p><div id='main'><p>One.</p>"
                 "<div>Two.<p>Three.</p><p>Four.</p></div></div><p>After.</p></body></html>").root
    whole, part = segment_tree(root), segment_tree(root.find(".//div[@id='main']"))
    spans = {node.text: whole.paragraphs[whole.tree.block[i]] for i, node in enumerate(whole.nodes)}
    part_spans = {node.text: part.paragraphs[part.tree.block[i]] for i, node in enumerate(part.nodes)}
    assert set(part_spans) == {"One.", "Two.", "Three.", "Four."}
    assert {tuple(spans[text] - part_spans[text]) for text in part_spans} == {(1, 1)}   # "Before."
    assert part_spans["Two."][1] - part_spans["Two."][0] == 2   # Two.'s <div> holds two <p>


def test_the_walks_block_tree_is_the_one_climbed_from_the_nodes_blocks():
    # the walk builds the tree from the elements it has opened; block_tree climbs with
    # getparent(): the same elements in the same order, parents, depths and blocks, for a
    # walk from the root and from an inner element (whose tree goes on above it)
    import numpy as np

    from newsml.dom.nodes import block_tree
    from newsml.input.parsed import parse

    for path in sorted(LABELED.glob("*.html"))[:12]:
        root = parse(path.read_bytes()).root
        inner = [element for element in root.iter("div", "td") if len(element)]
        for start in [root, *inner[len(inner) // 2:][:1]]:
            walked = segment_tree(start)
            climbed = block_tree(walked.nodes)
            for name in ("parent", "depth", "block"):
                assert np.array_equal(getattr(walked.tree, name), getattr(climbed, name)), (path.name, name)
            assert walked.tree.tags == climbed.tags
            assert all(a is b for a, b in zip(walked.tree.elements, climbed.elements, strict=True))


def _paragraph_spans(tree):
    """The ``<p>`` spans of the blocks of ``tree``, counted by a walk of the whole document
    for each block apart (the oracle of the one-pass counts of the segmentation walk)."""
    import numpy as np

    wanted = {tree.elements[e]: e for e in tree.block.tolist()}
    paragraphs = np.full((len(tree.elements), 2), -1, dtype=np.int64)
    seen = 0
    for element in tree.elements[0].getroottree().getroot().iter():
        e = wanted.get(element)
        if e is not None:
            paragraphs[e, 0] = seen
        seen += element.tag == "p"
        if e is not None:
            paragraphs[e, 1] = seen + sum(under.tag == "p" for under in element.iterdescendants())
    return paragraphs


def test_preformatted_text_keeps_its_line_breaks_and_other_text_does_not():
    page = load_page("<html><body><p>one\ntwo</p><pre>rsync -av src/ host:dst/\n\n  ls -l   dst\n"
                     "<b>exit</b></pre></body></html>")
    assert [node.text for node in page.nodes] == ["one two", "rsync -av src/ host:dst/\nls -l dst\nexit"]
