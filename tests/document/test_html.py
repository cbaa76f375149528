"""HTML of an article's blocks (newsml/document/html.py): a fragment a browser renders as the
article, every element closed where it opened."""

from __future__ import annotations

from html.parser import HTMLParser

import lxml.html

from newsml.document.html import to_html
from newsml.document.structure import Block, Span

VOID = {"br", "img"}


class Nesting(HTMLParser):
    """Fails on an end tag that does not close the element last opened (what a browser
    would repair), and keeps the tags seen."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.seen: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.seen.append(tag)
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, (tag, self.open)
        self.open.pop()


def well_nested(fragment: str) -> list[str]:
    parser = Nesting()
    parser.feed(fragment)
    parser.close()
    assert parser.open == []
    return parser.seen


def text_block(kind: str, *lines: str, **fields) -> Block:
    return Block(kind, [[Span(line)] for line in lines], **fields)


def test_every_kind_of_block_is_well_nested():
    blocks = [text_block("paragraph", "One <b>", "two"), text_block("heading", "Sub", level=2),
              text_block("item", "a", level=1, ordered=True), text_block("item", "inner", level=2),
              text_block("item", "b", level=1, ordered=True), text_block("item", "x", level=1),
              text_block("paragraph", "Quoted.", quote=2),
              Block("table", rows=[["h", "i"], ["1", "2"]], header=True),
              Block("code", [[Span("a < b")]]), Block("figure", [[Span("cap")]], src="/a.jpg")]
    seen = well_nested(to_html("T & co", blocks))
    assert seen[:3] == ["article", "h1", "p"] and "h3" in seen and seen.count("blockquote") == 2
    root = lxml.html.fragment_fromstring(to_html("T & co", blocks))
    assert root.findtext("h1") == "T & co"
    ordered = root.find("ol")
    assert [li.text.strip() for li in ordered.findall("li")] == ["a", "b"]
    assert ordered.find("li").find("ul").findtext("li").strip() == "inner"   # inside its item
    assert root.find("ul").findtext("li").strip() == "x"                     # another list: its own
    assert [cell.text for cell in root.iter("th", "td")] == ["h", "i", "1", "2"]
    assert root.find("p").text == "One <b>" and root.find("p").find("br") is not None
    assert root.findtext("pre/code") == "a < b"


def test_only_followable_links_and_images_are_written():
    blocks = [Block("paragraph", [[Span("go", "javascript:alert(1)"), Span(" "), Span("ok", "https://e.org/")]]),
              Block("figure", [[Span("c")]], src="javascript:x")]
    root = lxml.html.fragment_fromstring(to_html("", blocks))
    assert [a.get("href") for a in root.iter("a")] == ["https://e.org/"]
    assert root.find(".//img") is None and root.findtext(".//figcaption") == "c"
