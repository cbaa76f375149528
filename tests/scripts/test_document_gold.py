"""scripts/_document_gold.py: the rules of the benchmark's document section (dates at the day,
authors by normalized containment, the gold headings and list items a page marks, and their
recall by a tool's Markdown), each on small hand-made inputs, then on a few real pages."""

from __future__ import annotations

import datetime as dt
import json
import sys

import pytest
from conftest import load_script, shared_corpus


@pytest.fixture(scope="module")
def gold():
    module = load_script("_document_gold")
    yield module
    del sys.modules["_document_gold"]


# -- dates -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "expected"), [
    ("2011-12-09", "2011-12-09"),
    ("2011-12-09T10:23:00+08:00", "2011-12-09"),  # an ISO date counts at its first ten characters
    ("2011-12-09 10:23:00", "2011-12-09"),  # GNE's form
    ("2011年12月9日", "2011-12-09"),  # GNE on Chinese pages
    ("发布时间：2011/12/09 10:23", "2011-12-09"),
    ("2011.1.5", "2011-01-05"),
    (dt.datetime(2011, 12, 9, 23, 59, tzinfo=dt.UTC), "2011-12-09"),  # newspaper4k's datetime
    (dt.date(2020, 2, 29), "2020-02-29"),
    ("2011-13-40", None),  # no such day
    ("yesterday", None),
    ("", None),
    (None, None),
])
def test_day_reads_every_tools_date_as_an_iso_day(gold, value, expected):
    assert gold.day(value) == expected


# -- authors ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("author", "expected"), [
    ("By  JOHN Smith,", "john smith"),
    ("by: Jane Doe", "jane doe"),
    ("作者：张三", "张三"),
    ("记者 李四", "李四"),
    ("Ｊｏｈｎ　Ｓｍｉｔｈ", "john smith"),  # NFKC: full-width letters and space
    (["A. Brown", "C. Dee"], "a brown c dee"),  # a list of names (newspaper4k's authors) joined
    ("Byron Smith", "byron smith"),  # "by" only as a word of its own
    (None, ""),
])
def test_normalize_author(gold, author, expected):
    assert gold.normalize_author(author) == expected


@pytest.mark.parametrize(("predicted", "gold_author", "right"), [
    ("John Smith, Staff Writer", "By John Smith", True),  # the gold within the prediction
    ("Smith", "John Smith", True),  # the prediction within the gold
    ("Dylan Bailey; MS; RD; FAND", "Dylan Bailey, MS, RD, FAND", True),  # punctuation aside
    (["Jane Doe", "John Smith"], "John Smith", True),
    ("Jo", "John Smith", False),  # containment is at word boundaries
    ("Jane Doe", "John Smith", False),
    ("", "John Smith", False),
    (None, "John Smith", False),
    ("By", "John Smith", False),  # a bare "by" is no name
    ("新华社记者张三", "张三", True),  # Chinese text has no word boundaries to keep
    ("记者张三", "作者：张三", True),
    ("李四", "张三", False),
])
def test_author_matches_by_normalized_containment(gold, predicted, gold_author, right):
    assert gold.author_matches(predicted, gold_author) is right


# -- lines -----------------------------------------------------------------------------------
def test_tokens_and_token_f1(gold):
    assert gold.tokens("北京 news today") == ["北", "京", "news", "today"]
    assert gold.token_f1("a b c d", "a b c d") == 1.0
    assert gold.token_f1("a b", "c d") == 0.0
    assert gold.token_f1("a b c d", "a b") == pytest.approx(2 * 1 * 0.5 / 1.5)


def test_same_line_is_equal_or_near_equal_containment(gold):
    assert gold.same_line("budget approved", "budget approved")
    # one within the other, token F1 2*4/9 = 0.89 >= 0.8
    assert gold.same_line("the council budget approved today", "council budget approved today")
    assert gold.same_line("council budget approved today", "the council budget approved today")
    # within, but F1 2*1/3 = 0.67 < 0.8: a short line inside a longer one is another line
    assert not gold.same_line("intro", "1 intro")
    # near in tokens but neither contains the other
    assert not gold.same_line("a b c d e f", "a b c d e g")
    assert not gold.same_line("", "")


def test_recalled_counts_gold_units_that_a_predicted_unit_matches(gold):
    assert gold.recalled(["one", "two words here", "three"], ["one", "two words here and", "four"]) == 2
    assert gold.recalled(["one"], []) == 0
    assert gold.recalled([], ["one"]) == 0


def test_strip_inline_keeps_the_text_of_a_markdown_line(gold):
    assert gold.strip_inline("**Bold** and _it_") == "Bold and it"
    assert gold.strip_inline("[Read **more**](https://x.org/a_(b)) here") == "Read more here"
    assert gold.strip_inline("![a chart](c.png)Caption") == "Caption"
    assert gold.strip_inline("1\\. Intro \\*not emphasis\\*") == "1. Intro *not emphasis*"
    assert gold.strip_inline("snake_case and `code`") == "snake_case and code"
    assert gold.strip_inline("a <br/> b") == "a  b"
    assert gold.strip_inline("Single \\<img> and \\<ul> List") == "Single <img> and <ul> List"


def test_markdown_units_by_kind(gold):
    markdown = "\n".join([
        "# Title", "", "Setext heading", "==============", "", "## Closed heading ##", "",
        "A paragraph, not a heading.", "", "- item one", "  * nested *item*", "1. first", "2) second",
        "", "| Name | Value |", "| --- | ---: |", "| a | [b](u) |", "",
        "> quote one", "> quote two", "", "> - quoted item", "",
        "```", "# not a heading", "- not an item", "```", "#hashtag is text"])
    units = gold.markdown_units(markdown)
    assert units["heading"] == ["title", "setext heading", "closed heading"]
    assert units["list"] == ["item one", "nested item", "first", "second", "quoted item"]
    assert units["cell"] == ["name", "value", "a", "b"]
    # each quote line, a run of quote lines joined
    assert units["quote"] == ["quote one", "quote two", "quote one quote two", "quoted item"]
    assert gold.markdown_units(None) == {kind: [] for kind in gold.KINDS}


def test_a_list_item_goes_on_until_a_blank_line_or_a_block(gold):
    markdown = "\n".join([
        "- **Plan your time.**\\", "  You should plan ahead.", "- Lazy", "continuation", "- Then",
        "  - a nested item", "# a heading", "- last", "", "a paragraph after a blank line",
        "> - quoted", "> and continued", "- before a table", "| a | b |"])
    units = gold.markdown_units(markdown)
    assert units["list"] == ["plan your time you should plan ahead", "lazy continuation", "then",
                             "a nested item", "last", "quoted and continued", "before a table"]
    assert units["heading"] == ["a heading"]
    assert units["cell"] == ["a", "b"]
    assert gold.gold_markdown_lines("- **Step.**  \n  Its text.\n\nNot the item.") == [["step its text"]]
    # a rule written with spaces is no item, and what follows it no item's line
    assert gold.markdown_units("* * *\nA paragraph after a rule.")["list"] == []


# -- gold structure ----------------------------------------------------------------------------
def test_gold_markdown_lines_are_the_heading_and_list_lines(gold):
    markdown = "## The *Heading*\nA paragraph.\n- an [item](u)\n1. Numbered\n```\n- code\n```\n"
    assert gold.gold_markdown_lines(markdown) == [["the heading"], ["an item"], ["numbered", "1 numbered"]]
    assert gold.gold_text_lines("One line.\n\n  Two  \n") == [["one line"], ["two"]]


PAGE = """<?xml version="1.0" encoding="utf-8"?><html><body><h1>Page title</h1>
<nav><ul><li>Home</li></ul></nav><article><h2>First <b>part</b></h2><p>Text.</p>
<h3>1. Method<span>s</span></h3>
<ul><li>One<ul><li>Sub</li></ul></li><li><h4>Both</h4></li></ul><script>var x = "<h2>no</h2>";</script>
</article></body></html>"""


def test_page_marks_are_whole_texts_of_h2_to_h6_and_li(gold):
    marks = gold.page_marks(PAGE)
    assert marks["heading"] == {"first part", "1 methods", "both"}  # h1 is not among them
    # a list item with and without its nested list
    assert marks["list"] == {"home", "one sub", "one", "sub", "both"}
    assert gold.page_marks(b"") == {"heading": set(), "list": set()}


def test_gold_structure_keeps_the_lines_the_page_marks(gold):
    marks = gold.page_marks(PAGE)
    lines = gold.gold_markdown_lines("## First part\n## Page title\n1. Methods\n- One\n- Sub\n## Both\n"
                                     "- Absent\n")
    assert gold.gold_structure(lines, marks) == {
        # "Page title" is an h1; "1. Methods" the page gives with its number; "Both" is marked
        # both ways and counts as a heading
        "heading": ["first part", "1 methods", "both"],
        "list": ["one", "sub"]}


def test_expected_units_of_readability_output(gold):
    html = ("<div><h1>T</h1><h3>Sub <i>head</i></h3><ul><li>a<ol><li>b</li></ol></li><li></li></ul>"
            "<table><tr><th>x</th><td>y<table><tr><td>z</td></tr></table></td></tr></table>"
            "<blockquote><p>q1</p><p>q2</p><blockquote>inner</blockquote></blockquote></div>")
    assert gold.expected_units(html) == {"heading": ["t", "sub head"], "list": ["a", "b"],
                                         "cell": ["x", "y", "z"], "quote": ["q1 q2 inner"]}


def test_structure_recall_by_kind(gold):
    expected = {"heading": ["intro", "methods and data"], "list": ["one", "two"], "cell": ["x", "y"],
                "quote": ["first said second said"]}
    markdown = ("## Intro\n\nMethods and data\n\n- one\n- three\n\n| x | z |\n|---|---|\n\n"
                "> First said.\n>\n> Second said.\n")
    assert gold.structure_recall(expected, markdown) == {
        "heading": (1, 2),  # "Methods and data" is a paragraph line, not a heading
        "list": (1, 2), "cell": (1, 2), "quote": (1, 1)}
    assert gold.structure_recall({"heading": ["intro"]}, None) == {"heading": (0, 1)}


# -- real pages ----------------------------------------------------------------------------------
def _test_pages(folder, n):
    pages = [path for path in sorted(folder.glob("*.json"))
             if json.loads(path.read_text(encoding="utf-8")).get("split") == "test"]
    return pages[:n]


def test_wcxb_gold_markdown_recalls_its_own_headings_and_list_items(gold):
    """On real wcxb_dev pages: the gold lines the page marks are found, each is a page mark, and
    the gold Markdown itself, read as a tool's, recalls nearly all of them (all but the few list
    lines the page writes as headings)."""
    folder = shared_corpus("wcxb_dev")
    totals = {"heading": [0, 0], "list": [0, 0]}
    for meta in _test_pages(folder, 12):
        markdown = meta.with_suffix(".md").read_text(encoding="utf-8")
        marks = gold.page_marks(meta.with_suffix(".html").read_bytes())
        structure = gold.gold_structure(gold.gold_markdown_lines(markdown), marks)
        for kind, units in structure.items():
            assert set(units) <= marks[kind], meta.stem
        for kind, (hits, n) in gold.structure_recall(structure, markdown).items():
            totals[kind][0] += hits
            totals[kind][1] += n
    for kind, (hits, n) in totals.items():
        assert n > 20, kind
        assert hits >= 0.95 * n, (kind, hits, n)


def test_readability_expected_units_are_in_its_text_gold(gold):
    """On real readability pages: the expected output's units are found, and each is text of the
    corpus's text gold (converted from the same output)."""
    folder = shared_corpus("readability")
    counts = dict.fromkeys(gold.KINDS, 0)
    for meta in _test_pages(folder, 15):
        expected = folder / "expected" / f"{meta.stem}.html"
        if not expected.is_file():
            pytest.skip(f"no expected output at {expected}")
        text = gold.normalize(meta.with_suffix(".txt").read_text(encoding="utf-8"))
        for kind, units in gold.expected_units(expected.read_bytes()).items():
            counts[kind] += len(units)
            assert all(unit in text for unit in units), (meta.stem, kind)
    assert counts["heading"] and counts["list"] and counts["quote"], counts


# -- the benchmark's document figures ---------------------------------------------------------------
@pytest.fixture(scope="module")
def bench():
    module = load_script("benchmark")
    yield module
    del sys.modules["benchmark"]


def test_document_figures_count_over_the_pages_with_gold(bench):
    page_gold, output = bench.DocumentGold, bench.DocumentOutput
    golds = [page_gold(True, "2020-01-02", "John Smith", {"heading": ["intro"], "list": []}, None),
             page_gold(True, None, None, {"heading": [], "list": ["one", "two"]}, None),
             page_gold(False, None, None, {"heading": [], "list": []}, None)]  # no metadata gold
    result = bench.DocumentResult([output("2020-01-02T10:00:00", "By John Smith", "## Intro"),
                                   output("2021-05-05", None, "- one\n- three"),
                                   output("2022-01-01", "Someone", None)], [1.0, 2.0, 9.0], errors=1)
    figures = bench.document_figures(golds, result, ("date", "author", "markdown"))
    assert figures["date"] == {"correct": 1, "n": 1, "accuracy": 1.0, "given_without_gold": 1,
                               "without_gold": 1}
    assert figures["author"] == {"correct": 1, "n": 1, "accuracy": 1.0, "given_without_gold": 0,
                                 "without_gold": 1}
    assert figures["structure"] == {"heading": {"recalled": 1, "n": 1, "recall": 1.0},
                                    "list": {"recalled": 1, "n": 2, "recall": 0.5}}
    assert figures["expected"] is None
    assert (figures["median_ms"], figures["errors"]) == (2.0, 1)
    date_only = bench.document_figures(golds, result, ("date",))
    assert date_only["author"] is None and date_only["structure"] is None


def test_document_gold_note_needs_labels_for_the_chinese_corpora(bench, tmp_path):
    labels = tmp_path / "labels"
    labels.mkdir()
    for name in ("daniel_zh", "wcxb_dev", "plain", "with_md"):
        (tmp_path / name).mkdir()
    (tmp_path / "with_md" / "1.md").write_text("# A\n", encoding="utf-8")
    has_gold, note = bench.document_gold_note(tmp_path / "daniel_zh", labels)
    assert not has_gold and "daniel_zh" in note
    (labels / "daniel_zh.json").write_text('{"1": {"date": "2011-12-09", "author": null}}', encoding="utf-8")
    assert bench.document_gold_note(tmp_path / "daniel_zh", labels) == (True, None)
    assert bench.document_gold_note(tmp_path / "wcxb_dev", labels) == (True, None)
    assert bench.document_gold_note(tmp_path / "with_md", labels) == (True, None)
    assert bench.document_gold_note(tmp_path / "plain", labels) == (False, None)


def test_every_document_peer_states_its_call_and_fields(bench):
    assert set(bench.DOCUMENT_PEERS) == {"trafilatura", "htmldate", "newspaper4k", "gne"}
    for peer in bench.DOCUMENT_PEERS.values():
        assert peer.call and peer.basis and set(peer.fields) <= {"date", "author", "markdown"}, peer.name
    assert bench.DOCUMENT_PEERS["gne"].langs == {"zh"}
    assert "original_date=True" in bench.DOCUMENT_PEERS["htmldate"].call
    assert bench.TRAFILATURA_MARKDOWN == {"output_format": "markdown", "include_formatting": True,
                                          "include_tables": True, "include_comments": False}


def test_a_gold_date_that_is_no_day_leaves_the_page_out_of_the_date_figures(bench):
    golds = [bench.DocumentGold(True, None, None, {"heading": [], "list": []}, None, partial_date=True),
             bench.DocumentGold(True, None, None, {"heading": [], "list": []}, None)]
    result = bench.DocumentResult([bench.DocumentOutput("2005-07-01")] * 2, [1.0, 1.0])
    figures = bench.document_figures(golds, result, ("date",))
    assert figures["date"] == {"correct": 0, "n": 0, "accuracy": None, "given_without_gold": 1,
                               "without_gold": 1}
