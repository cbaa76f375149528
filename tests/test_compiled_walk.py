"""The compiled segmentation walk (newsml/_walk.pyx) gives what the Python walk gives.

Skipped, with the reason, where the package was installed without it (no C compiler):
there the Python walk is the only one, and every other test runs on it.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from conftest import shared_corpus

from newsml import nodes
from newsml.nodes import Segmentation, walk_in_python
from newsml.page import load_page
from newsml.parse import parse

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def compiled():
    if nodes._COMPILED_WALK is None:
        reason = "not built" if importlib.util.find_spec("newsml._walk") is None else "not usable here"
        pytest.skip(f"the compiled walk is {reason}: the package walks in Python (same results, slower)")
    return nodes._COMPILED_WALK


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
]


@pytest.mark.parametrize("markup", TRICKY, ids=range(len(TRICKY)))
def test_the_compiled_walk_gives_what_the_python_walk_gives(compiled, markup):
    root = load_page(markup).parsed.root
    for pieces in (False, True):
        assert_same(compiled(root, pieces), walk_in_python(root, pieces))


def test_the_compiled_walk_from_an_inner_element(compiled):
    root = parse("<html><body><p>Before.</p><div id='main'><p>One.</p>"
                 "<div>Two.<p>Three.</p><p>Four.</p></div>tail</div><p>After.</p></body></html>").root
    inner = root.find(".//div[@id='main']")
    assert_same(compiled(inner, True), walk_in_python(inner, True))


def test_the_compiled_walk_on_the_labeled_pages(compiled):
    for path in sorted((REPO / "labeled").glob("*.html")):
        root = load_page(path.read_bytes()).parsed.root
        assert_same(compiled(root), walk_in_python(root))


def test_the_compiled_walk_on_corpus_pages(compiled):
    for path in sorted(shared_corpus("wcxb_dev").glob("*.html"))[:60]:
        root = load_page(path.read_bytes()).parsed.root
        assert_same(compiled(root, True), walk_in_python(root, True))


def test_the_walk_falls_back_to_python_when_told_or_built_for_another_lxml(monkeypatch):
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "1")
    assert nodes._compiled_walk() is None
    monkeypatch.delenv("NEWSML_PURE_PYTHON")
    try:
        walk = importlib.import_module("newsml._walk")
    except ImportError:
        assert nodes._compiled_walk() is None
        return
    assert nodes._compiled_walk() is walk.segment_tree or nodes._COMPILED_WALK is None
    monkeypatch.setattr(walk, "BUILT_FOR_LXML", "0.0.0")
    assert nodes._compiled_walk() is None
