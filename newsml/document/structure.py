"""The roles of an article's kept nodes: headings, paragraphs, list items, tables, quotes,
code and figures, read from the elements around each node.

Every method answers with kept text nodes; their blocks and the elements above them say
what each is. Consecutive nodes of one block element are one block with a line break
between them (``<br>`` splits a node); nodes of one list item make one item; a ``<pre>``
is given whole, as written; a table
whose cells hold short texts, but for a few (a data table, not a page laid out in one, nor
one that holds the headline), is given whole, every row with text, once any of its cells
is kept; a flat list half of whose items are kept
is given whole too. Inside the article (between its first and last kept node), a section
heading (``h2``-``h6``, at most half link text, or linking only to places on the page)
the text cut left out right before kept text, and a list of two items or more whose
left-out items are at most :data:`MAX_LIST_LINK_SHARE` link text (or that is a table of
contents: in-page links that name the page's headings; or that lies in a kept list item)
and not a row of buttons, are the document's too,
unless they sit in a ``nav``, ``aside``, ``footer`` or ``button``: the cut's evidence is
thin on short lines, and a document without its sub-headings and lists is not the
article (``Article.text``, the benchmark's unit, keeps the cut's nodes alone).
Links are read from the raw strings the nodes are made of, and kept only when asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..core.tags import Element
from ..core.text import normalize_space
from ..dom.nodes import TextNode
from ..dom.page import Page
from ..input.clean import text_of
from .bylines import has_control_word

HEADINGS = {f"h{level}": level for level in range(1, 7)}
LISTS = frozenset({"ul", "ol", "menu", "dir"})
#: Elements inside a table cell that make it more than a data cell.
_CELL_BLOCKS = frozenset({"p", "div", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
                          "table", "section", "article", "form"})
#: Elements of a page's furniture, whose headings and lists are never the article's.
FURNITURE = frozenset({"nav", "aside", "footer", "button"})
#: A list whose items are each at most this many words, one a button's (share, email...),
#: is a row of buttons.
BUTTON_WORDS = 3
#: A list left out inside the article is the article's when at most this share of its
#: text is link text (a list of links is navigation: a table of contents, related stories).
MAX_LIST_LINK_SHARE = 0.3
#: A section number in front of a heading's text.
_SECTION_NUMBER = re.compile(r"^\d+(?:[.)]\d+)*[.)]?\s+")
#: A heading left out inside the article is the article's when kept text follows within
#: this many nodes.
HEADING_REACH = 2
#: A data table's cells hold at most this many block elements and characters each.
MAX_CELL_BLOCKS = 2
MAX_CELL_CHARS = 400
#: ... and a data table has at most this share of such long cells (a film list's column of
#: descriptions has a few; a page laid out in a table has one of its two or three).
MAX_LONG_CELL_SHARE = 0.05


@dataclass(frozen=True, slots=True)
class DocumentOptions:
    """What an article's Markdown and HTML keep besides its text: links (their addresses)
    and figures' images; and whether a page's record carries the HTML too (its Markdown
    it always carries). ``text_only``: the article's title and text alone, without its
    metadata, Markdown and HTML, which callers of the text alone need not wait for."""

    links: bool = False
    images: bool = False
    html: bool = False
    text_only: bool = False


#: Text and structure only.
PLAIN = DocumentOptions()


@dataclass(frozen=True, slots=True)
class Span:
    """A run of a line's text, with the address it links to when links were asked for."""

    text: str
    href: str | None = None


@dataclass(slots=True)
class Block:
    """One block of the document.

    ``kind`` is heading, paragraph, item, table, code or figure. Text blocks hold ``lines``
    (a line break between them), each a list of :class:`Span`. ``level``: a heading's level
    (1-6), an item's nesting depth (1 for a list not inside another). ``quote``: how many
    block quotes hold the block. A table holds ``rows`` of cell texts, the first a header
    when ``header``, and its caption as its line; a figure its caption as its line and its
    image as ``src``.
    """

    kind: str
    lines: list[list[Span]] = field(default_factory=list)
    level: int = 0
    ordered: bool = False
    quote: int = 0
    rows: list[list[str]] = field(default_factory=list)
    header: bool = False
    src: str | None = None

    @property
    def text(self) -> str:
        """The block's text: its lines joined by newlines (a table's rows, cells by spaces)."""
        if self.kind == "table":
            return "\n".join(" ".join(cell for cell in row if cell) for row in self.rows)
        return "\n".join("".join(span.text for span in line) for line in self.lines)


@dataclass(frozen=True, slots=True)
class _Role:
    """What the elements around a block element make of its nodes."""

    kind: str
    level: int = 0
    ordered: bool = False
    quote: int = 0
    owner: Element | None = None      # the list item, table, pre or figure the nodes belong to


def document_blocks(page: Page, keep: np.ndarray, title: str = "", links: bool = False,
                    images: bool = False) -> list[Block]:
    """The blocks of the kept nodes of ``page``, in document order. A first block that is
    the ``title`` (the headline in the body) is left out: documents give it once, apart.
    ``links``: lines keep their links; ``images``: figures keep their image address."""
    keep = with_enclosed(page, keep)
    nodes = [node for node in page.nodes if keep[node.index]]
    spans = _linked_spans(page, nodes) if links else None
    roles: dict[Element, _Role] = {}
    data_tables: dict[Element, bool] = {}      # (each table judged once, however many cells it has)
    tree = page.block_tree
    for index in page.headline_path.tolist():  # (a table that holds the headline lays out the page)
        if tree.tags[index] == "table":
            data_tables[tree.elements[index]] = False
    seen: dict[Element, _Above] = {}          # (each element's ancestry read once)
    for node in nodes:
        if node.block not in roles:
            roles[node.block] = _role_of(node.block, data_tables, seen)
    kept_items = {roles[node.block].owner for node in nodes if roles[node.block].kind == "item"}
    blocks: list[Block] = []
    tables_given: set[Element] = set()
    codes_given: set[Element] = set()
    lists_given: set[Element] = set()
    whole_lists: dict[Element, bool] = {}
    last_element: Element | None = None
    last_owner: Element | None = None
    for node in nodes:
        role = roles[node.block]
        line = spans[node.index] if spans is not None else [Span(node.text)]
        listed = role.owner.getparent() if role.kind == "item" and role.owner is not None else None
        if listed is not None and listed not in whole_lists:
            whole_lists[listed] = _whole_list(listed, kept_items)      # (each list judged once)
        if listed is not None and whole_lists[listed]:
            if listed not in lists_given:
                lists_given.add(listed)
                blocks += [Block("item", [[Span(normalize_space(text_of(item)))]], level=role.level,
                                 ordered=role.ordered, quote=role.quote)
                           for item in listed if item.tag == "li" and text_of(item).strip()]
        elif role.kind == "table":
            if role.owner not in tables_given:
                tables_given.add(role.owner)
                table = _table(role.owner, role.quote)
                if table is not None:
                    blocks.append(table)
        elif role.kind == "code":
            if role.owner not in codes_given:       # (the whole <pre> once: its lines as written)
                codes_given.add(role.owner)
                blocks.append(Block("code", [[Span(_code_text(role.owner))]], quote=role.quote))
        elif role.kind in ("item", "figure") and blocks and last_owner is role.owner \
                and blocks[-1].kind == role.kind:
            blocks[-1].lines.append(line)           # (the item's or caption's next line)
        elif node.block is last_element and blocks and blocks[-1].kind == role.kind:
            blocks[-1].lines.append(line)           # (a <br> between them)
        else:
            if role.kind == "heading" and role.owner is not None:
                line = _without_permalink(line, role.owner)
            block = Block(role.kind, [line], level=role.level, ordered=role.ordered, quote=role.quote)
            if role.kind == "figure" and images and role.owner is not None:
                block.src = _image_of(role.owner)
            blocks.append(block)
        last_element, last_owner = node.block, role.owner
    if blocks and title and blocks[0].kind in ("heading", "paragraph") and \
            normalize_space(blocks[0].text) == normalize_space(title):
        del blocks[0]
    return blocks


def _without_permalink(line: list[Span], heading: Element) -> list[Span]:
    """A heading's line without the permalink mark at its end: the "¶", "#" or "§" of a link
    to the heading itself (Sphinx's and many blogs' ``<a class="headerlink" href="#...">``),
    which is the page's furniture, not the heading's text."""
    marks = {mark for link in heading.iter("a") if (link.get("href") or "").startswith("#")
             and 0 < len(mark := text_of(link).strip()) <= 2 and not any(char.isalnum() for char in mark)}
    if not marks or not line:
        return line
    last = line[-1].text.rstrip()
    found = next((mark for mark in marks if last.endswith(mark)), None)
    if found is None:
        return line
    rest = last[:-len(found)].rstrip()
    return [*line[:-1], Span(rest, line[-1].href)] if rest else line[:-1] or line


def with_enclosed(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` with the headings and lists inside the article that the cut left out (see
    the module's docstring)."""
    kept = np.flatnonzero(keep)
    if len(kept) < 2:
        return keep
    nodes = page.nodes
    shown = keep.copy()
    lists: dict[Element, list[int]] = {}
    for node in nodes[kept[0] + 1:kept[-1]]:
        if keep[node.index]:
            continue
        if _in_furniture(node.block):
            continue
        if node.block.tag in HEADINGS and node.block.tag != "h1":
            followed = keep[node.index + 1:node.index + 1 + HEADING_REACH].any()
            if followed and (2 * node.link_chars <= node.chars or _links_within_page(node.block)):
                shown[node.index] = True
            continue
        item = _item_of(node.block)
        if item is not None and item.getparent() is not None:
            lists.setdefault(item.getparent(), []).append(node.index)
    kept_items = {item for index in kept.tolist() if (item := _own_item(nodes[index].block)) is not None}
    headings = _HeadingNames(page)
    for listed, indices in lists.items():
        items = [item for item in listed if item.tag == "li"]
        if len(items) < 2:
            continue
        chars = sum(nodes[index].chars for index in indices)
        buttons = all(len(nodes[index].text.split()) <= BUTTON_WORDS and has_control_word(nodes[index].text)
                      for index in indices)
        linked = sum(nodes[index].link_chars for index in indices)
        if (linked <= MAX_LIST_LINK_SHARE * chars or _is_contents(listed, headings)
                or _in_kept_item(listed, kept_items)) and not buttons:
            shown[indices] = True
    return shown


def _links_within_page(element: Element) -> bool:
    """Whether ``element`` holds links and each leads to a place on the page itself
    (``href="#…"``): a section heading that links to itself or back to the contents, a
    table of contents. Such links lead nowhere else; their text is not navigation."""
    hrefs = [(link.get("href") or "").strip() for link in element.iter("a")]
    return bool(hrefs) and all(href.startswith("#") and len(href) > 1 for href in hrefs)


class _HeadingNames:
    """The names of a page's headings (:func:`_heading_name`), read on first use."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._names: set[str] | None = None

    def __contains__(self, name: str) -> bool:
        if self._names is None:
            self._names = {_heading_name(text_of(heading)) for heading in self._page.root.iter(*HEADINGS)}
        return name in self._names


def _is_contents(listed: Element, headings: _HeadingNames) -> bool:
    """Whether a list is the article's table of contents: its links lead to places on the
    page (:func:`_links_within_page`), and at least half of them name a heading of the page
    (which skip links, "Skip to main content", do not)."""
    if not _links_within_page(listed):
        return False
    names = [_heading_name(text_of(link)) for link in listed.iter("a")]
    return 2 * sum(name in headings for name in names) >= len(names)


def _own_item(block: Element) -> Element | None:
    """The list item whose own text a block is: the ``<li>`` itself or its child (``<li><p>``),
    not an item that wraps a whole article (``<li><div><p>``)."""
    if block.tag == "li":
        return block
    parent = block.getparent()
    return parent if parent is not None and parent.tag == "li" else None


def _in_kept_item(listed: Element, kept_items: set[Element]) -> bool:
    """Whether a list is a sub-list of a list item whose own text the cut kept: the
    parameters, links or steps the item's text goes on to list, whatever its links."""
    parent = listed.getparent()
    return parent is not None and parent.tag == "li" and parent in kept_items


def _heading_name(text: str) -> str:
    """A heading's text as a table of contents names it: lower case, without a section
    number in front ("2.1 ") or a permalink mark at the end ("¶")."""
    return _SECTION_NUMBER.sub("", normalize_space(text).lower()).rstrip("¶#§ ")


def _in_furniture(block: Element) -> bool:
    """Whether a block lies in an element of the page's furniture: a ``nav``, ``aside``,
    ``footer`` or ``button``."""
    element: Element | None = block
    while element is not None:
        if element.tag in FURNITURE:
            return True
        element = element.getparent()
    return False


def _item_of(block: Element, levels: int = 4) -> Element | None:
    """The list item a block is in (itself or a few levels up), or None."""
    element: Element | None = block
    for _ in range(levels):
        if element is None:
            return None
        if element.tag == "li":
            return element
        element = element.getparent()
    return None


class _Above(NamedTuple):
    """What an element and the elements above it hold: the nearest heading, list item,
    ``<pre>``, figure and data table, the lists above that item, all lists, and quotes."""

    heading: Element | None
    item: Element | None
    item_lists: int
    lists: int
    pre: Element | None
    figure: Element | None
    table: Element | None
    quotes: int


_NOTHING_ABOVE = _Above(None, None, 0, 0, None, None, None, 0)
#: The tags :func:`_above` reads; any other element holds what is above it.
_ROLE_TAGS = frozenset({*HEADINGS, "li", *LISTS, "pre", "listing", "xmp", "plaintext", "figure", "figcaption",
                        "table", "blockquote"})


def _above(element: Element | None, seen: dict[Element, _Above], data_tables: dict[Element, bool]) -> _Above:
    """:class:`_Above` of ``element``, each element of the page read once (``seen``)."""
    path: list[Element] = []
    while element is not None and element not in seen:
        path.append(element)
        element = element.getparent()
    above = seen[element] if element is not None else _NOTHING_ABOVE
    for element in reversed(path):                  # (from the top down)
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag not in _ROLE_TAGS:                   # (most elements: what is above them holds)
            seen[element] = above
            continue
        heading, item, item_lists, lists, pre, figure, table, quotes = above
        if tag in HEADINGS:
            heading = element
        elif tag == "li":
            item, item_lists = element, lists
        elif tag in LISTS:
            lists += 1
        elif tag in ("pre", "listing", "xmp", "plaintext"):
            pre = element
        elif tag == "figure":
            figure = element
        elif tag == "figcaption":
            parent = element.getparent()
            figure = parent if parent is not None and parent.tag == "figure" else element
        elif tag == "table":
            if element not in data_tables:
                data_tables[element] = is_data_table(element)
            if data_tables[element]:
                table = element
        elif tag == "blockquote":
            quotes += 1
        above = _Above(heading, item, item_lists, lists, pre, figure, table, quotes)
        seen[element] = above
    return above


def _role_of(block: Element, data_tables: dict[Element, bool], seen: dict[Element, _Above]) -> _Role:
    """The role of a block element's nodes, from it and the elements above it: the nearest
    data table, else ``<pre>``, heading, figure or list item decides."""
    above = _above(block, seen, data_tables)
    if above.table is not None:
        return _Role("table", quote=above.quotes, owner=above.table)
    if above.pre is not None:
        return _Role("code", quote=above.quotes, owner=above.pre)
    if above.heading is not None:
        return _Role("heading", level=HEADINGS[above.heading.tag], quote=above.quotes, owner=above.heading)
    if above.figure is not None:
        return _Role("figure", quote=above.quotes, owner=above.figure)
    if above.item is not None:
        parent = above.item.getparent()
        return _Role("item", level=max(above.item_lists, 1), ordered=getattr(parent, "tag", "") == "ol",
                     quote=above.quotes, owner=above.item)
    return _Role("paragraph", quote=above.quotes)


def _whole_list(listed: Element, kept_items: set[Element | None]) -> bool:
    """Whether a list is given whole: a flat list (no list inside its items) of two items or
    more, half of them kept at least. Its items are alike: those the cut left out with the
    others kept are the list's too."""
    items = [item for item in listed if item.tag == "li"]
    if len(items) < 2 or any(next(item.iter("ul", "ol"), None) is not None for item in items):
        return False
    return 2 * sum(item in kept_items for item in items) >= len(items) and any(
        item not in kept_items for item in items)


def is_data_table(table: Element) -> bool:
    """Whether a table holds data (rows of short cells) rather than a page's layout: no
    table inside it, two rows or more, a row of two cells or more, and its cells short: at
    most :data:`MAX_LONG_CELL_SHARE` of them long (more than :data:`MAX_CELL_BLOCKS` blocks
    or :data:`MAX_CELL_CHARS` characters), and none holding half the table's text."""
    if next(table.iterdescendants("table"), None) is not None:
        return False
    rows = _rows(table)
    if len(rows) < 2 or max(len(cells) for cells in rows) < 2:
        return False
    cells = [cell for row in rows for cell in row]
    sizes = [len(text_of(cell)) for cell in cells]
    long = sum(size > MAX_CELL_CHARS or _blocks_in(cell) > MAX_CELL_BLOCKS
               for size, cell in zip(sizes, cells))
    # (a layout's long cell holds the page, or most of it; a column of descriptions is a few
    # long cells among many short ones)
    return long == 0 or (long <= MAX_LONG_CELL_SHARE * len(cells) and 2 * max(sizes) <= sum(sizes))


def _blocks_in(cell: Element) -> int:
    return sum(1 for child in cell.iterdescendants() if child.tag in _CELL_BLOCKS)


def _rows(table: Element) -> list[list[Element]]:
    """The table's rows (its own, not a nested table's), each its cells."""
    return [[cell for cell in row if cell.tag in ("td", "th")]
            for row in table.iter("tr")]


def _table(table: Element, quote: int) -> Block | None:
    """The whole table as a block: its caption as its line, every row that has text, each
    cell's text; the first such row a header when its cells are ``<th>`` or it sits in
    ``<thead>``. A table of no row with text is its caption as a paragraph, or nothing."""
    texts = [([normalize_space(text_of(cell)) for cell in cells], row)
             for cells, row in zip(_rows(table), table.iter("tr"))]
    texts = [(cells, row) for cells, row in texts if any(cells)]    # (a spacer row is no row)
    rows = [cells for cells, _row in texts]
    first = texts[0][1] if texts else None
    header = first is not None and (getattr(first.getparent(), "tag", "") == "thead"
                                    or all(cell.tag == "th" for cell in first if cell.tag in ("td", "th")))
    width = max((len(row) for row in rows), default=0)
    captions = (normalize_space(text_of(element)) for element in table.iterchildren("caption"))
    caption = next((text for text in captions if text), "")
    if not rows:
        return Block("paragraph", [[Span(caption)]], quote=quote) if caption else None
    return Block("table", [[Span(caption)]] if caption else [],
                 rows=[row + [""] * (width - len(row)) for row in rows], header=header, quote=quote)


def _code_text(pre: Element) -> str:
    """The text of a ``<pre>`` as written, indentation kept, without blank lines at its ends."""
    lines = text_of(pre).replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines)


def _image_of(figure: Element) -> str | None:
    """The address of a figure's image (its ``src``, else a lazy loader's ``data-src``)."""
    for image in figure.iter("img"):
        for name in ("src", "data-src", "data-original"):
            value = (image.get(name) or "").strip()
            if value and not value.startswith("data:"):
                return value
    return None


def _linked_spans(page: Page, nodes: Iterable[TextNode]) -> dict[int, list[Span]]:
    """Each node's line as spans: its raw strings (:attr:`~newsml.dom.page.Page.pieces`),
    runs of them under one link's address joined, white space collapsed as in the node's
    text."""
    pieces = page.pieces
    found: dict[int, list[Span]] = {}
    for node in nodes:
        runs: list[list[str | None]] = []      # [href, raw text]
        for owner, text, _ in pieces.of(node.index):
            href = _link_of(owner, node.block)
            if runs and runs[-1][0] == href:
                runs[-1][1] = f"{runs[-1][1]}{text}"
            else:
                runs.append([href, text])
        found[node.index] = _spans(runs)
    return found


def _link_of(owner: Element, block: Element) -> str | None:
    """The address of the link that holds text owned by ``owner``, up to its block; None."""
    element: Element | None = owner
    while element is not None and element is not block:
        if element.tag == "a":
            href = (element.get("href") or "").strip()
            return href if href and not href.lower().startswith(("javascript:", "#")) else None
        element = element.getparent()
    return None


def _spans(runs: list[list[str | None]]) -> list[Span]:
    """Spans of runs of raw text, white space collapsed across them (as :func:`normalize_space`
    collapses a node's whole text), the spaces at a link's ends moved outside it."""
    spans: list[Span] = []
    pending_space = False
    for href, raw in runs:
        text = " ".join(str(raw).split())
        if not text:
            pending_space = pending_space or bool(raw)
            continue
        lead = str(raw)[:1].isspace() or pending_space
        if spans and lead:
            spans.append(Span(" "))
        spans.append(Span(text, href))
        pending_space = str(raw)[-1:].isspace()
    return _merged(spans)


def _merged(spans: list[Span]) -> list[Span]:
    """Neighbouring spans of one address made one."""
    merged: list[Span] = []
    for span in spans:
        if merged and merged[-1].href == span.href:
            merged[-1] = Span(merged[-1].text + span.text, span.href)
        else:
            merged.append(span)
    return merged
