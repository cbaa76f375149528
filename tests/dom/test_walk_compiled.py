"""The compiled segmentation walk (newsml/dom/_walk.pyx) gives what the Python walk gives.

Skipped, with the reason, where the package was installed without it (no C compiler):
there the Python walk is the only one, and every other test runs on it.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conftest import LABELED, compiled_or_skip, in_python, shared_corpus, speedups_afresh
from lxml import etree

from newsml.core import speedups
from newsml.dom import walk
from newsml.dom.nodes import Segmentation
from newsml.dom.page import load_page
from newsml.dom.walk import walk_in_python
from newsml.input.parsed import parse


@pytest.fixture(scope="module")
def module():
    return compiled_or_skip("dom._walk", "the package walks in Python")


@pytest.fixture(scope="module")
def compiled(module):
    return module.segment_tree


def assert_same(a: Segmentation, b: Segmentation) -> None:
    fields = ("index", "text", "chars", "link_chars", "path", "group", "line")
    assert [tuple(getattr(n, f) for f in fields) for n in a.nodes] == \
           [tuple(getattr(n, f) for f in fields) for n in b.nodes]
    assert all(x.block is y.block for x, y in zip(a.nodes, b.nodes))   # the same element objects
    for name in ("parent", "depth", "block"):
        assert np.array_equal(getattr(a.tree, name), getattr(b.tree, name)), name
    assert a.tree.elements == b.tree.elements and a.tree.tags == b.tree.tags
    assert np.array_equal(a.paragraphs, b.paragraphs)
    assert (a.pieces is None) == (b.pieces is None)
    if a.pieces is not None and b.pieces is not None:
        assert a.pieces.owners == b.pieces.owners and a.pieces.texts == b.pieces.texts
        assert np.array_equal(a.pieces.chars, b.pieces.chars)
        assert np.array_equal(a.pieces.node, b.pieces.node)


TRICKY = [
    "<p>x<span hidden>y</span>\x0btail</p>",
    "<div>Head<p>Before <a>link</a> after</p>Tail</div>",
    "<div><a name='top'><p>Under a named anchor, text.</p><p>More.</p></div>",
    "<p>A <a href='/x'>link</a> and <a id='more'>a button</a>.</p><ul><li>One</li><li>Two<br>three</li></ul>",
    "<pre>line one\n  indented\n\nline three</pre><p>after <b>bold</b> <i>it</i></p>",
    "<html><head><title>T</title><p>in head</p></head>"
    "<body>text<o:p>word</o:p><x-card>custom</x-card></body></html>",
    "<table><tr><td>a</td><td>b<p>c</p>d</td></tr></table>tail after table",
    "<div>" * 300 + "deep" + "</div>" * 300,
    "<p>" + "word " * 50000 + "</p>",
    "<body><p>中文的句子，有标点。</p><!-- gone --><p>second&nbsp;one</p></body>",
    # texts already normal and not: spaces at the ends, doubled, other white space
    "<p>plain words</p><p> lead</p><p>trail </p><p>two  spaces</p><p>a\tb</p><p>a\u3000b</p>"
    "<p>a\u2028b</p><p>\u00a0x</p><p>x<b> </b>y</p><p>single</p>",
    # many nodes on one line, then on lines of their own
    "<ul>" + "<li>item</li>" * 40 + "</ul>\n" + "<p>line</p>\n" * 40,
    # thousands of elements and sibling groups: the walk's tables of them grow several times
    "<div>" + "<div class=c><p>a <b>b</b></p><p>c</p><span>d</span></div>" * 1500 + "</div>",
]


@pytest.mark.parametrize("markup", TRICKY, ids=range(len(TRICKY)))
def test_the_compiled_walk_gives_what_the_python_walk_gives(compiled, markup):
    root = load_page(markup).parsed.root
    for pieces in (False, True):
        assert_same(compiled(root, pieces), walk_in_python(root, pieces))


def test_nodes_on_one_line_share_its_number(compiled):
    """The walk makes one number per line, not per node (a 10 MB page held 62,000 more);
    past line 256, where Python itself no longer shares small numbers."""
    markup = "<html><body>" + "\n" * 300 + "<ul>" + "<li>item</li>" * 40 + "</ul>\n<p>last</p>"
    root = load_page(markup).parsed.root
    found = compiled(root, False).nodes
    assert [node.line for node in found] == [301] * 40 + [302]
    assert len({id(node.line) for node in found[:40]}) == 1


def test_the_compiled_walk_from_an_inner_element(compiled):
    root = parse("<html><body><p>Before.</p><div id='main'><p>One.</p>"
                 "<div>Two.<p>Three.</p><p>Four.</p></div>tail</div><p>After.</p></body></html>").root
    inner = root.find(".//div[@id='main']")
    assert_same(compiled(inner, True), walk_in_python(inner, True))


def test_the_compiled_walk_on_the_labeled_pages(compiled):
    for path in sorted(LABELED.glob("*.html")):
        root = load_page(path.read_bytes()).parsed.root
        assert_same(compiled(root), walk_in_python(root))


def test_the_compiled_walk_on_corpus_pages(compiled):
    for path in sorted(shared_corpus("wcxb_dev").glob("*.html"))[:60]:
        root = load_page(path.read_bytes()).parsed.root
        assert_same(compiled(root, True), walk_in_python(root, True))


def test_sibling_signatures_counted_in_c_are_those_counted_in_python(module):

    from newsml.dom.groupings import signature

    def in_python(parent):
        if len(parent) <= 1:
            return None
        counts: dict = {}
        for child in parent.iterchildren(etree.Element):
            counts[signature(child)] = counts.get(signature(child), 0) + 1
        return counts

    pages = [load_page(markup) for markup in TRICKY[:7]]
    pages.append(load_page("<ul><li class=' a  b'>1</li><li class='a b'>2</li><!-- c --><li>3</li>"
                           "<li class='x&amp;y'>4</li><li class=''>5</li><li class>6</li></ul>"))
    pages += [load_page(path.read_bytes()) for path in sorted(LABELED.glob("*.html"))[:8]]
    for page in pages:
        for element in page.parsed.root.iter(etree.Element):
            assert module.children_by_mark(element) == in_python(element)


def test_the_walk_falls_back_to_python_when_told_or_built_for_another_lxml(monkeypatch):
    speedups_afresh(monkeypatch)
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "1")
    assert speedups.loaded("dom._walk") is None
    assert speedups.status("dom._walk") == "turned off by NEWSML_PURE_PYTHON"
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "0")       # (0, false, no: not set)
    try:
        compiled_walk = importlib.import_module("newsml.dom._walk")
    except ImportError:
        assert speedups.loaded("dom._walk") is None
        return
    # the module itself where it was built for this lxml (not in use in a run started with
    # the variable set, yet found now)
    usable = compiled_walk if speedups.lxml_build() == compiled_walk.BUILT_FOR_LXML else None
    assert speedups.loaded("dom._walk") is usable
    monkeypatch.delenv("NEWSML_PURE_PYTHON")
    assert speedups.loaded("dom._walk") is usable
    monkeypatch.setattr(compiled_walk, "BUILT_FOR_LXML", "0.0.0")
    with pytest.warns(RuntimeWarning, match="built for lxml 0.0.0"):
        assert speedups.loaded("dom._walk") is None
    assert speedups.status("dom._walk").startswith("unusable: it was built for lxml 0.0.0")


def test_attribute_kinds_read_in_c_are_those_read_in_python(compiled):
    from newsml.dom.walk import attribute_kinds, kinds_in_python

    pages = [load_page(markup) for markup in TRICKY[:7]]
    pages.append(load_page("<div class='story body' id='main' itemprop='articleBody'><p class>one</p>"
                           "<p class='x&amp;y' id=''>two</p><p ID='Up' CLASS='Case'>three</p>"
                           "<p class='日本 語'>four</p><svg><text class='a'>five</text></svg></div>"))
    pages += [load_page(path.read_bytes()) for path in sorted(LABELED.glob("*.html"))[:8]]
    in_c = [attribute_kinds(page.block_tree) for page in pages]
    for page, found in zip(pages, in_c):
        expected = kinds_in_python(page.block_tree)
        assert found.keys == expected.keys
        assert np.array_equal(found.kind, expected.kind)
    assert ("div", "story body", "main", "articleBody") in in_c[7].keys


def test_sibling_repetition_counted_in_c_is_that_counted_in_python(compiled):
    from newsml.features import repetition

    pages = [load_page(markup) for markup in TRICKY[:8]]
    pages += [load_page(path.read_bytes()) for path in sorted(LABELED.glob("*.html"))[:10]]
    in_c = [repetition.RepetitionFeatures().page_features(page) for page in pages]
    for page, found in zip(pages, in_c):
        expected = in_python(lambda page=page: repetition.RepetitionFeatures().page_features(page))
        assert np.array_equal(found, expected)
    assert any(found[:, 1].max() > 0 for found in in_c)   # (pages with repeated siblings among them)


def test_the_compiled_readings_count_comments_and_entities_as_lxml_does(module, compiled):
    from lxml import html

    from newsml.dom.groupings import signature

    # a tree that keeps its comments and processing instructions (parse() drops them)
    root = html.fromstring("<div><ul><li class=a>1</li><!-- c --><?pi x?><li class=a>2</li></ul>"
                           "<p>one<!-- only child and a comment --></p><section><p>x</p></section></div>")
    for element in root.iter(etree.Element):
        counts: dict | None = None
        if len(element) > 1:
            counts = {}
            for child in element.iterchildren(etree.Element):
                counts[signature(child)] = counts.get(signature(child), 0) + 1
        assert module.children_by_mark(element) == counts
    assert_same(compiled(root, True), walk_in_python(root, True))


def test_trees_the_c_readings_do_not_cover_go_to_the_python_walk(module):

    # DTD default attributes (lxml's get() answers them), and an entity reference as the root
    doc = etree.fromstring(b'<!DOCTYPE html [<!ATTLIST a href CDATA "/default"><!ENTITY e "text">]>'
                           b'<html><body><p>Some <a name="n">anchor text</a> here &e;.</p></body></html>',
                           etree.XMLParser(resolve_entities=False))
    assert not module.plain(doc)
    assert walk.segment_tree(doc).nodes[0].link_chars == len("anchortext")   # (the default href)
    entity = doc.find(".//p")[0].getnext()
    assert entity is None or not module.plain(entity)
    assert module.plain(load_page("<!DOCTYPE html><p>A page.</p>").parsed.root)


def test_text_outside_every_block_is_the_same_error_in_both_walks(module, compiled):

    root = etree.fromstring("<span>text</span>")
    with pytest.raises(IndexError):
        walk_in_python(root)
    with pytest.raises(IndexError):
        compiled(root)
    with pytest.raises(TypeError):
        compiled(None)
    with pytest.raises(TypeError):
        module.children_by_mark(None)
