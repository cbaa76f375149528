"""newsml/dom/nodes.py: text nodes, inline runs in document order, with their links, paths,
groups and words."""

from __future__ import annotations

from conftest import NEWS_PAGE

from newsml.dom.page import load_page
from newsml.dom.walk import segment_tree


def test_nodes_are_inline_runs_in_document_order():
    nodes = load_page(NEWS_PAGE).nodes
    assert [n.text for n in nodes] == [
        "Home", "World", "Headline",
        "First paragraph with a link in the middle, and more text.",
        "Second bold paragraph.", "After a line break.", "Copyright 2026",
    ]
    assert [n.index for n in nodes] == list(range(len(nodes)))


def test_link_characters_are_counted_inside_a_node():
    nodes = load_page(NEWS_PAGE).nodes
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
    page = load_page(NEWS_PAGE)
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
    assert len(nodes[1].words) == 4


def test_nodes_of_whitespace_only_runs_are_skipped():
    nodes = load_page("<div>  <span> </span>\n<p>\u00a0</p><p>real text</p></div>").nodes
    assert [n.text for n in nodes] == ["real text"]
