"""Segmentation into text nodes and the papers' groupings of them."""

from __future__ import annotations

from conftest import LABELED

from newsml.dom.page import load_page
from newsml.dom.walk import segment_tree

PAGE = """<html><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li></ul></div>
<div id="story">
  <h1>Headline</h1>
  <p>First paragraph with <a href="/x">a link</a> in the middle, and more text.</p>
  <p>Second <b>bold</b> paragraph.<br>After a line break.</p>
</div>
<div id="footer">Copyright 2026</div>
</body></html>"""


def test_nodes_are_inline_runs_in_document_order():
    nodes = load_page(PAGE).nodes
    assert [n.text for n in nodes] == [
        "Home", "World", "Headline",
        "First paragraph with a link in the middle, and more text.",
        "Second bold paragraph.", "After a line break.", "Copyright 2026",
    ]
    assert [n.index for n in nodes] == list(range(len(nodes)))


def test_link_characters_are_counted_inside_a_node():
    nodes = load_page(PAGE).nodes
    para = nodes[3]
    assert para.link_chars == len("alink") and para.chars == len("".join(para.text.split()))
    assert 0 < para.link_ratio < 0.2
    assert nodes[0].link_ratio == 1.0


def test_a_named_anchor_left_open_holds_no_link_text():
    # old pages open <a name=...> before a section and never close it: the parser puts
    # the paragraphs that follow inside it, and they are text, not links
    nodes = load_page('<html><body><a name="part1"><h2>Part one</h2><p>Text of the first '
                      'part with <a href="/x">a link</a>.</p><p><a id="load-more">More stories</a></p>'
                      '<p><a onclick="go()">Share</a></p></body></html>').nodes
    by_text = {node.text: node for node in nodes}
    assert by_text["Part one"].link_chars == 0
    assert by_text["Text of the first part with a link."].link_chars == len("alink")
    assert by_text["More stories"].link_ratio == 1.0   # a script's button, with an id: a link
    assert by_text["Share"].link_ratio == 1.0          # without href or id: a link still


def test_block_path_depth_and_siblings():
    page = load_page(PAGE)
    home, world, headline, first, second, after, footer = page.nodes
    assert home.path is world.path and first.path is second.path   # equal paths: one tuple
    # a normalized piece is the node's text: one string
    walk = segment_tree(page.parsed.root, pieces=True)
    assert walk.pieces is not None
    assert walk.nodes[headline.index].text is walk.pieces.of(headline.index)[0][1]
    assert home.tag == "li" and home.path == ("html", "body", "div", "ul", "li")
    assert home.depth == 5 and headline.depth == 4
    assert home.group == world.group          # list items share their <ul>
    assert headline.group == first.group == second.group  # blocks under div#story
    assert second.block is after.block        # a <br> splits a paragraph into two nodes
    assert footer.group != home.group


def test_words_use_jieba_for_chinese_only():
    nodes = load_page("<p>北京时间昨天晚上发布了数据。</p><p>Plain English words here.</p>").nodes
    assert nodes[0].words[:2] == ["北京", "时间"]
    assert nodes[1].words == ["plain", "english", "words", "here"]
    assert nodes[1].token_count == 4


def test_nodes_of_whitespace_only_runs_are_skipped():
    nodes = load_page("<div>  <span> </span>\n<p>\u00a0</p><p>real text</p></div>").nodes
    assert [n.text for n in nodes] == ["real text"]


def test_pieces_are_walked_only_when_asked_for_and_fit_the_page_nodes():
    page = load_page(PAGE)
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


def test_token_counts_are_the_regex_counts_node_by_node(monkeypatch):
    """Page.token_counts (count_tokens_each: a table of character classes) counts what
    tokens() finds, text by text: case changes that add characters, CJK next to words,
    characters past the table, runs cut at RUN_CHARS, texts past SPLIT_LIMIT alone."""
    import numpy as np

    import newsml.core.text
    from newsml.core.text import count_tokens_each, tokens

    page = load_page(PAGE + "<p>İstanbul'da 北京时间 x_y 3.5%</p>")
    assert page.token_counts.tolist() == [len(tokens(node.text)) for node in page.nodes]
    alphabet = ["a", "Z", "9", "_", "-", " ", "\n", "\xa0", "é", "İ", "Σ", "中", "ひ", "カ", "한",
                "\u2019", "\u0307", "٣", "ǅ", "\U00020000", "\U0001f600"]
    rng = np.random.default_rng(2)
    for limit, run in ((newsml.core.text.SPLIT_LIMIT, newsml.core.text.RUN_CHARS), (10, 10), (10, 4)):
        monkeypatch.setattr(newsml.core.text, "SPLIT_LIMIT", limit)
        monkeypatch.setattr(newsml.core.text, "RUN_CHARS", run)
        for case in range(2000):
            letters = alphabet if case % 3 == 0 else alphabet[:-2]  # most pages stay in the table
            sizes = rng.integers(0, 25, size=rng.integers(0, 8))
            texts = ["".join(rng.choice(letters, size=size)) for size in sizes]
            counts = count_tokens_each(texts)
            assert counts.dtype == np.int64 and counts.tolist() == [len(tokens(text)) for text in texts]


def test_lower_casing_changes_no_token_class_but_that_of_the_dotted_capital_i():
    """What lets count_tokens_each read texts without lower-casing them (tokens() reads
    them lower-cased): of the Basic Multilingual Plane, only 'İ' changes length, no other
    character changes class in the token table, and none leaves the plane."""
    import newsml.core.text

    table = newsml.core.text._token_classes()
    longer = [code for code in range(0x10000) if len(chr(code).lower()) != 1]
    assert longer == [0x130]
    assert all(table[ord(chr(code).lower())] == table[code] for code in range(0x10000) if code not in longer)
    assert "\u03a3\u03a3".lower() == "\u03c3\u03c2" and table[0x3c2] == table[0x3c3] == table[0x3a3]


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
