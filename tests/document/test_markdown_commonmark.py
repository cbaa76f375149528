"""The Markdown read back by a CommonMark parser (markdown-it-py, with GitHub's tables):
it holds the document's blocks, no more and no fewer. A renderer that indents a list as
code, or lets a blank line end a quote, writes Markdown that reads as another document."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import LABELED, SHARED_DATA, document_counts, markdown_counts

import newsml
from newsml.document.markdown import to_markdown
from newsml.document.structure import Block, Span

pytest.importorskip("markdown_it", reason="markdown-it-py (the test extra) reads the Markdown back")

#: Pages read back per shared corpus: the first of each corpus's pages, in name order.
PAGES_PER_CORPUS = 40


def line(text: str) -> list[list[Span]]:
    return [[Span(text)]]


def test_a_list_whose_outer_lists_were_left_out_starts_at_the_margin():
    blocks = [Block("heading", line("Key points"), level=3),
              Block("item", line("deep, its parents not kept"), level=3),
              Block("item", line("its sibling"), level=3),
              Block("item", line("one level up"), level=2),
              Block("item", line("and down again"), level=3)]
    markdown = to_markdown("Title", blocks)
    assert "    -" not in markdown          # (four spaces at a list's start read as code)
    assert markdown_counts(markdown) == document_counts("Title", blocks)


def test_a_list_starts_anew_where_the_quote_around_it_changes():
    def item(text: str, level: int, quote: int, ordered: bool = False) -> Block:
        return Block("item", line(text), level=level, quote=quote, ordered=ordered)
    for blocks in ([item("a", 1, 1), item("b", 2, 1), item("c", 3, 0)],
                   [*(item(str(n), 1, 0, ordered=True) for n in range(1, 11)), item("q", 2, 1)]):
        assert markdown_counts(to_markdown("", blocks)) == document_counts("", blocks)
    ordered = to_markdown("", [item("a", 1, 0, True), item("b", 1, 0, True), item("x", 1, 1, True)])
    assert ordered.endswith("> 1. x\n")      # (a new list in the quote counts from 1)


def test_one_quote_of_several_blocks_is_one_quote():
    blocks = [Block("paragraph", line("One."), quote=1),
              Block("table", rows=[["a", "b"], ["1", "2"]], quote=1),
              Block("item", line("x"), level=1, quote=1), Block("paragraph", line("Out."))]
    counts = markdown_counts(to_markdown("", blocks))
    assert counts["quote"] == 1 and counts["table"] == 1 and counts["item"] == 1
    assert counts == document_counts("", blocks)


def real_pages() -> list[Path]:
    pages = sorted(LABELED.glob("*.html"))
    if SHARED_DATA.is_dir():
        for corpus in sorted(path for path in SHARED_DATA.iterdir() if path.is_dir()):
            pages += sorted(corpus.glob("*.html"))[:PAGES_PER_CORPUS]
    return pages


@pytest.mark.parametrize("path", real_pages(), ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_the_markdown_of_real_pages_reads_back_as_their_document(path):
    article = newsml.extract(path)
    assert markdown_counts(article.markdown) == document_counts(article.title, article.blocks)
