"""Markdown of an article's blocks (newsml/document/markdown.py)."""

from __future__ import annotations

import re

from newsml.document.markdown import to_markdown
from newsml.document.structure import Block, Span


def text_block(kind: str, *lines: str, **fields) -> Block:
    return Block(kind, [[Span(line)] for line in lines], **fields)


def test_title_headings_paragraphs_and_line_breaks():
    md = to_markdown("The title", [text_block("paragraph", "One.", "Two."),
                                   text_block("heading", "Sub", level=2)])
    assert md == "# The title\n\nOne.\\\nTwo.\n\n### Sub\n"


def test_list_items_are_numbered_indented_and_kept_together():
    blocks = [text_block("item", "a", level=1, ordered=True), text_block("item", "inner", level=2),
              text_block("item", "b", level=1, ordered=True), text_block("paragraph", "After.")]
    assert to_markdown("", blocks) == "1. a\n   - inner\n2. b\n\nAfter.\n"


def test_tables_are_github_tables_with_their_pipes_escaped():
    table = Block("table", rows=[["Name", "Score"], ["a|b", "3"]], header=True)
    assert to_markdown("", [table]).splitlines() == ["| Name | Score |", "| --- | --- |", "| a\\|b | 3 |"]
    headless = Block("table", rows=[["1", "2"]], header=False)
    assert to_markdown("", [headless]).splitlines()[2] == "| 1 | 2 |"


def test_markup_in_text_is_escaped_and_links_kept():
    md = to_markdown("", [text_block("paragraph", "# not a heading"), text_block("paragraph", "2024. A year"),
                          text_block("paragraph", "- not an item *really*"),
                          Block("paragraph", [[Span("see "), Span("this (page)", "https://e.org/a b")]])])
    paragraphs = md.strip().split("\n\n")
    assert paragraphs[0] == "\\# not a heading"
    assert paragraphs[1] == "2024\\. A year"
    assert paragraphs[2] == "\\- not an item \\*really\\*"
    assert paragraphs[3] == "see [this (page)](<https://e.org/a b>)"


def test_the_blocks_of_one_quote_stay_in_one_quote():
    md = to_markdown("", [text_block("paragraph", "One.", quote=1), text_block("paragraph", "Two.", quote=1),
                          text_block("paragraph", "Deep.", quote=2),
                          text_block("item", "a", level=1, quote=1), text_block("paragraph", "After.")])
    # (a bare blank line would end the quote: each block would be a quote of its own)
    assert md == "> One.\n>\n> Two.\n>\n> > Deep.\n>\n> - a\n\nAfter.\n"


def test_quotes_code_and_figures():
    md = to_markdown("", [text_block("paragraph", "Said.", quote=1), Block("code", [[Span("x = 1\n  y")]]),
                          Block("figure", [[Span("A cap")]], src="/a.jpg"), Block("figure", [[Span("Cap")]])])
    assert md.split("\n\n") == ["> Said.", "```\nx = 1\n  y\n```", "![A cap](/a.jpg)", "*Cap*\n"]
    fenced = to_markdown("", [Block("code", [[Span("```\nodd")]])])
    assert re.match(r"^````\n```\nodd\n````\n$", fenced)
