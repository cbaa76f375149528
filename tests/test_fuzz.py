"""Fuzzing whole extractions: arbitrary bytes, mutated labeled pages and tag soup may only
raise InvalidPageError, and no extracted text holds a control character.

(The hostile inputs the fuzzer and the issue found are tested in the files of the modules
that handle them: tests/input/test_read.py, test_decode.py, test_sanitize.py, test_clean.py,
tests/run/test_output.py and test_cli.py, tests/learning/test_training.py and
test_persistence.py.)
"""

from __future__ import annotations

import lxml.html
from conftest import LABELED, control_characters, document_counts, markdown_counts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsml import InvalidPageError, extract

try:                        # (markdown-it-py, of the test extra: a CommonMark parser)
    import markdown_it
except ImportError:         # pragma: no cover
    markdown_it = None

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])


def _extract_or_invalid(page, method) -> None:
    try:
        article = extract(page, method=method, links=True, images=True)
    except InvalidPageError:
        return
    assert isinstance(article.text, str) and not control_characters(article.text.replace("\x0c", ""))
    # the document too: no control character, HTML that parses, Markdown that reads back as
    # the document's headings, tables, list items and code blocks
    markdown, html = article.markdown, article.html
    for document in (markdown, html):
        assert not control_characters(document.replace("\x0c", ""))
    assert lxml.html.fragment_fromstring(html).tag == "article"
    if markdown_it is not None:
        assert markdown_counts(markdown) == document_counts(article.title, article.blocks), markdown


@FUZZ
@given(data=st.binary(max_size=2000))
def test_fuzz_arbitrary_bytes(data, default_method):
    _extract_or_invalid(data, default_method)


_SEEDS = [path.read_bytes() for path in sorted(LABELED.glob("*.html"))[:6]]


@st.composite
def mutated_pages(draw) -> bytes:
    page = bytearray(draw(st.sampled_from(_SEEDS)))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(page)))
        kind = draw(st.sampled_from(["insert", "delete", "flip", "cut"]))
        if kind == "insert":
            page[at:at] = draw(st.sampled_from([
                b"\x00", b"\x0b", b"\x07", b"\xff\xfe", b"\xef\xbf\xbe", b"<", b"</div>", b"<p hidden>",
                b"<math><mi>x</mi>", b"<noscript>", b"</noscript>", b"<template>", b"<iframe srcdoc='<p>x",
                b"<!--", b"<![CDATA[", b"&#0;", b"&#xFFFE;", b"<?xml version='1.0'?>", b"\x1f\x8b",
                b'<meta charset="utf-16">', b'<meta charset="shift_jis">', b"<font>" * 50]))
        elif kind == "delete":
            del page[at:at + draw(st.integers(1, 200))]
        elif kind == "flip" and at < len(page):
            page[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del page[at:]
    return bytes(page)


@FUZZ
@given(page=mutated_pages())
def test_fuzz_mutated_labeled_pages(page, default_method):
    _extract_or_invalid(page, default_method)


_SOUP = st.sampled_from([
    "<p>", "</p>", "<div>", "</div>", "<span hidden>", "</span>", "<a href=x>", "</a>", "<br>",
    "<table><tr><td>",
    "<math>", "</math>", "<mi>y</mi>", "<annotation>tex</annotation>", "<noscript>", "</noscript>",
    "<template>", "</template>", "<iframe srcdoc='<p>inner text, here.</p>'>", "</iframe>", "<script>",
    "</script>", "<style>", "</style>", "<title>", "</title>", "<html>", "<body>", "<head>", "<!--", "-->",
    "<svg><text>", "&amp;", "&#11;", "&#xFFFF;", "&nbsp;", "\x0b", "\x0c", "\x00", "\x1b", "\ufffe", "\ud800",
    "<p style='display:none'>", "<div aria-hidden=true>", "<h1>", "</h1>", "<li>", "<o:p>", "<x-y>",
    "Words of a sentence, here.", "国家统计局发布数据。", "カタカナ", " ", "\n", "<", ">", "\"", "'",
])


@FUZZ
@given(parts=st.lists(_SOUP, max_size=80))
def test_fuzz_tag_soup(parts, default_method):
    _extract_or_invalid("".join(parts), default_method)
    _extract_or_invalid("".join(parts).encode("utf-8", "surrogatepass"), default_method)


#: Texts that Markdown would read as markup, or that are plain prose, for the documents below.
_LINES = st.sampled_from([
    "The council approved the budget on Tuesday after a long debate about roads.",
    "1. Numbered at the start", "# a hash first", "- a dash first", "> a quote mark first",
    "| a | pipe |", "``` a fence", "***", "    four spaces first", "*star* and _under_",
    "[a bracket](x)", "a \\ back slash", "<notatag> text", "=====", "10) paren", "+ plus first",
    "中文的句子，在这里，还有更多的文字。", "Words of a sentence, here, and more follow."])


def _table(caption: str, header: bool, rows: list[list[str]]) -> str:
    head = "<tr><th>a</th><th>b</th></tr>" if header else ""
    body = "".join("<tr>" + "".join(f"<td>{cell[:30]}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><caption>{caption}</caption>{head}{body}</table>"


def _list(tag: str, items: list[tuple[str, str]]) -> str:
    return f"<{tag}>" + "".join(f"<li>{text}{inner}</li>" for text, inner in items) + f"</{tag}>"


def _page(blocks: list[str]) -> str:
    return ("<html><head><title>A title of the page</title></head><body><article>"
            "<h1>A title of the page</h1>" + "".join(blocks) + "</article></body></html>")


def _documents() -> st.SearchStrategy[str]:
    """Pages of nested lists, quotes, tables, code, headings and figures around prose."""
    leaf = st.one_of(
        _LINES.map(lambda text: f"<p>{text}</p>"),
        st.tuples(st.integers(2, 4), _LINES).map(lambda pair: f"<h{pair[0]}>{pair[1]}</h{pair[0]}>"),
        st.lists(_LINES, min_size=1, max_size=3).map(lambda lines: "<pre>" + "\n".join(lines) + "</pre>"),
        st.builds(_table, st.one_of(st.just(""), _LINES), st.booleans(),
                  st.lists(st.lists(_LINES, min_size=2, max_size=3), min_size=1, max_size=4)),
        _LINES.map(lambda text: f"<figure><img src='a b.png'><figcaption>{text}</figcaption></figure>"))

    def nested(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        items = st.lists(st.tuples(_LINES, st.one_of(st.just(""), children)), min_size=1, max_size=5)
        quote = st.lists(children, min_size=1, max_size=4).map(lambda blocks: f"<blockquote>{''.join(blocks)}"
                                                                              "</blockquote>")
        return st.one_of(st.builds(_list, st.sampled_from(["ul", "ol"]), items), quote)

    return st.lists(st.recursive(leaf, nested, max_leaves=12), min_size=2, max_size=10).map(_page)


@FUZZ
@given(page=_documents())
def test_fuzz_documents_read_back_as_their_blocks(page, default_method):
    _extract_or_invalid(page, default_method)
