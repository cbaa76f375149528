"""The hidden elements found in C (newsml/input/_cleaning.pyx) are those the XPath finds.

Skipped, with the reason, where the package was installed without it (no C compiler):
there the XPath is the only reading, and every other test runs on it.
"""

from __future__ import annotations

import pytest
from conftest import compiled_or_skip, in_python, labeled_and_corpus_pages, speedups_afresh
from lxml import etree

from newsml.core import speedups
from newsml.input import clean
from newsml.input.parse import parse_markup
from newsml.input.parsed import parse as parse_page
from newsml.input.sanitize import parser_input


@pytest.fixture(scope="module")
def compiled():
    return compiled_or_skip("input._cleaning", "the XPath finds the hidden elements")


def raw_tree(markup: str | bytes) -> etree._Element:
    """The page's tree as parsed, before clean() removes anything."""
    data = markup.encode() if isinstance(markup, str) else markup
    root, _ = parse_markup(parser_input(data)[0], data.decode("utf-8", "replace"))
    return root


def assert_same_elements(root: etree._Element, compiled) -> list[etree._Element]:
    expected = clean._HIDDEN_XPATH(root)
    found = compiled.hidden_elements(root)
    assert len(found) == len(expected) and all(a is b for a, b in zip(found, expected))
    return found


HIDDEN = """<html><head><style hidden>x</style></head><body>
<p id=1 hidden>a</p><p id=2 hidden="">b</p><p id=3 HIDDEN=false>c</p>
<p id=4 aria-hidden=true>d</p><p id=5 aria-hidden=TRUE>e (kept)</p><p id=6 aria-hidden="true ">f (kept)</p>
<p id=7 style="DISPLAY : NONE">g</p><p id=8 style="color:red;display:none;">h</p>
<p id=9 style="display:&#9;none">i (kept: a tab)</p><p id=10 style="Display:None">j</p>
<p id=11 style="display:block">k (kept)</p><p id=12 style="displ&#97;y:none">l</p>
<div id=13 hidden><p id=14 aria-hidden=true><span id=15 style="display:none">m</span></p></div>
<p id=16 xml:hidden="1">n</p><p id=17 data-hidden>o (kept)</p><svg><g id=18 hidden></g></svg>
<p id=19 style="display: none" hidden aria-hidden=true>once</p></body></html>"""


def test_the_compiled_cleaning_finds_what_the_xpath_finds(compiled):
    found = assert_same_elements(raw_tree(HIDDEN), compiled)
    ids = [element.get("id") for element in found]
    assert ids[0] is None and ids[1:] == ["1", "2", "3", "4", "7", "8", "10", "12", "13", "14", "15",
                                           "18", "19"]


@pytest.mark.parametrize("markup", ["<p>no hidden element</p>", "<html hidden><body>x</body></html>",
                                    "<div>" * 300 + "<i hidden>deep</i>" + "</div>" * 300,
                                    "<p>x<span hidden>y</span>\x0btail</p>"])
def test_the_compiled_cleaning_on_small_pages(compiled, markup):
    assert_same_elements(raw_tree(markup), compiled)


@pytest.mark.parametrize("style, hides", [
    ("ddisplay:none", True), ("display:ddisplay: none", True), ("dis play:Display : NONE", True),
    ("display:displaynone", False), ("display:non", False), ("displa y:no ne;x", True),
    ("display\t:none", False), ("display:noné", False), ("x" * 40 + "display:none", True),
])
def test_style_values_are_matched_as_the_xpath_matches_them(compiled, style, hides):
    """The match made as the bytes come, with no folded copy: partial matches broken at
    a ``d`` that starts the pattern again, spaces anywhere, letters of either case."""
    found = assert_same_elements(raw_tree(f'<p style="{style}">text</p>'), compiled)
    assert bool(found) == hides


def test_the_compiled_cleaning_reads_attributes_outside_namespaces_only(compiled):
    root = etree.fromstring("<html xmlns:x='urn:x'><body><p x:hidden=''>a</p><p x:style='display:none'>b</p>"
                            "<p x:aria-hidden='true'>c</p><p hidden=''>d</p></body></html>")
    assert [element.text for element in assert_same_elements(root, compiled)] == ["d"]


def test_values_the_compiled_cleaning_does_not_read_go_to_the_xpath(compiled):
    # XML parsed without resolving entities keeps a reference as a node of the value
    for value in ("&t;", "tr&t;"):
        root = etree.fromstring(f'<!DOCTYPE r [<!ENTITY t "true">]><r><b aria-hidden="{value}"/>'
                                f'<c style="display:none"/></r>'.encode(),
                                etree.XMLParser(resolve_entities=False))
        assert compiled.hidden_elements(root) is None
        assert clean.hidden_elements(root) == clean._HIDDEN_XPATH(root)


def test_the_compiled_cleaning_on_labeled_and_corpus_pages(compiled):
    paths = labeled_and_corpus_pages("dragnet", each=80)
    assert sum(len(assert_same_elements(raw_tree(path.read_bytes()), compiled)) for path in paths)


def test_the_cleaning_falls_back_to_the_xpath_when_told(monkeypatch, compiled):
    speedups_afresh(monkeypatch)
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "1")
    assert speedups.loaded("input._cleaning") is None
    monkeypatch.delenv("NEWSML_PURE_PYTHON")
    monkeypatch.setattr(compiled, "BUILT_FOR_LXML", "0.0.0")
    with pytest.warns(RuntimeWarning, match="newsml.input._cleaning is installed but not used"):
        assert speedups.loaded("input._cleaning") is None
    monkeypatch.undo()
    page = parse_page(HIDDEN.encode())
    assert etree.tostring(in_python(lambda: parse_page(HIDDEN.encode())).root) == etree.tostring(page.root)


DECLARING = """<html lang=en><head><meta name=a content=1><script>var x;</script><link rel=canonical href=/x>
<script type="application/ld+json">{}</script></head><body><a href=/1>no rel</a>
<a rel="author" href=/2>Ana</a><a rel="">empty rel</a><A REL=nofollow>upper case</A>
<time datetime=2024-01-02>Jan 2</time>
<div itemprop=author itemscope><meta itemprop=name content=Bo></div><span itemprop="">empty</span>
<svg><a rel=x><time>in svg</time></a></svg></body></html>"""


def assert_same_declaring(root: etree._Element, compiled) -> tuple[list, list]:
    from newsml.input.declared import declaring_in_python

    found = compiled.declaring_elements(root)
    expected = declaring_in_python(root)
    for got, wanted in zip(found, expected):
        assert len(got) == len(wanted) and all(a is b for a, b in zip(got, wanted))
    return found


def test_the_compiled_walk_finds_the_declaring_elements_the_python_finds(compiled):
    tagged, with_itemprop = assert_same_declaring(raw_tree(DECLARING), compiled)
    assert [element.tag for element in tagged] == ["meta", "script", "link", "script", "a", "a", "a", "time",
                                                   "meta", "a", "time"]
    assert [element.tag for element in with_itemprop] == ["div", "meta", "span"]


def test_the_compiled_walk_matches_tags_and_attributes_outside_namespaces_only(compiled):
    root = etree.fromstring("<r xmlns:x='urn:x'><meta/><x:meta/><a rel='a'/><a x:rel='b'/><b itemprop='c'/>"
                            "<b x:itemprop='d'/><m xmlns='urn:m'><time/></m></r>")
    tagged, with_itemprop = assert_same_declaring(root, compiled)
    assert [element.tag for element in tagged] == ["meta", "a"] and len(with_itemprop) == 1


def test_the_compiled_walk_reads_tags_under_its_root_and_itemprops_in_the_whole_document(compiled):
    root = etree.fromstring("<r><x itemprop='a'/><meta/><y><meta/><z itemprop='b'/></y><w itemprop='c'/></r>")
    tagged, with_itemprop = assert_same_declaring(root.find("y"), compiled)
    assert tagged == [root.find("y/meta")] and [element.tag for element in with_itemprop] == ["x", "z", "w"]
    # markup after </html> can stand beside the root: its microdata is read, as before
    page = raw_tree("<html><head><meta name=a content=1></head><body><p>text</p></body></html>"
                    "<span itemprop=datePublished>2020</span><meta name=b content=2>")
    tagged, with_itemprop = assert_same_declaring(page, compiled)
    assert [element.get("itemprop") for element in with_itemprop] == ["datePublished"]


def test_the_compiled_walk_on_labeled_and_corpus_pages(compiled):
    paths = labeled_and_corpus_pages("wcxb_dev", each=80)
    assert sum(len(assert_same_declaring(raw_tree(path.read_bytes()), compiled)[1]) for path in paths)
