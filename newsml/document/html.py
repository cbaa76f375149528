"""An article's blocks as an HTML fragment: ``<article>`` with the title as ``<h1>``,
headings at their level (a body ``<h1>`` as ``<h2>``), paragraphs with ``<br>`` between
their lines, lists nested as the page nests them, whole tables, block quotes, ``<pre>``
code and figures. Every text is escaped; a link keeps only its address, and only an
``http``, ``https``, ``mailto`` or relative one (no ``javascript:``)."""

from __future__ import annotations

import html
import re

from .structure import Block, Span

_SAFE_ADDRESS = re.compile(r"^(?:https?:|mailto:|[^:/?#]*(?:[/?#]|$))", re.IGNORECASE)


def to_html(title: str, blocks: list[Block]) -> str:
    """The document as one ``<article>`` element."""
    out = ["<article>"]
    if title:
        out.append(f"<h1>{html.escape(title, quote=False)}</h1>")
    quotes = 0
    lists: list[str] = []        # the open lists, outermost first: "ul" or "ol"
    for block in blocks:
        if block.kind != "item" or block.quote != quotes:
            _close_lists(out, lists, 0)
        while quotes < block.quote:
            out.append("<blockquote>")
            quotes += 1
        while quotes > block.quote:
            out.append("</blockquote>")
            quotes -= 1
        if block.kind == "item":
            _item(out, lists, block)
        else:
            out.append(_block(block))
    _close_lists(out, lists, 0)
    out += ["</blockquote>"] * quotes
    out.append("</article>")
    return "\n".join(out) + "\n"


def _item(out: list[str], lists: list[str], block: Block) -> None:
    """Close the lists deeper than the item and its open sibling, open lists down to its
    depth (a list inside an item stays inside it), then open the item."""
    tag = "ol" if block.ordered else "ul"
    _close_lists(out, lists, block.level)
    if len(lists) == block.level:
        out.append("</li>")
        if lists[-1] != tag:                   # another kind of list at the same depth
            out.append(f"</{lists.pop()}>")
    while len(lists) < block.level:
        out.append(f"<{tag}>")
        lists.append(tag)
    out.append(f"<li>{_lines(block.lines)}")


def _close_lists(out: list[str], lists: list[str], depth: int) -> None:
    """Close the lists deeper than ``depth``, each with its open item."""
    while len(lists) > depth:
        out.append(f"</li></{lists.pop()}>")


def _block(block: Block) -> str:
    if block.kind == "heading":
        level = min(block.level + 1, 6)
        return f"<h{level}>{' '.join(_line(line) for line in block.lines)}</h{level}>"
    if block.kind == "table":
        return _table(block)
    if block.kind == "code":
        body = "\n".join(span.text for line in block.lines for span in line)
        return f"<pre><code>{html.escape(body, quote=False)}</code></pre>"
    if block.kind == "figure":
        caption = _lines(block.lines)
        image = f'<img src="{html.escape(block.src)}" alt="">' if block.src and _safe(block.src) else ""
        return f"<figure>{image}<figcaption>{caption}</figcaption></figure>" if caption else \
            (f"<figure>{image}</figure>" if image else "")
    return f"<p>{_lines(block.lines)}</p>"


def _table(block: Block) -> str:
    rows = block.rows
    out = ["<table>"]
    if block.lines:
        out.append(f"<caption>{_lines(block.lines)}</caption>")
    if block.header and rows:
        out.append("<thead><tr>" + "".join(f"<th>{html.escape(cell, quote=False)}</th>" for cell in rows[0])
                   + "</tr></thead>")
        rows = rows[1:]
    out.append("<tbody>")
    out += ["<tr>" + "".join(f"<td>{html.escape(cell, quote=False)}</td>" for cell in row) + "</tr>"
            for row in rows]
    out.append("</tbody></table>")
    return "".join(out)


def _lines(lines: list[list[Span]]) -> str:
    return "<br>".join(_line(line) for line in lines)


def _line(line: list[Span]) -> str:
    out = []
    for span in line:
        text = html.escape(span.text, quote=False)
        if span.href and _safe(span.href):
            out.append(f'<a href="{html.escape(span.href)}">{text}</a>')
        else:
            out.append(text)
    return "".join(out)


def _safe(address: str) -> bool:
    """Whether a link's address is one a browser may follow without running anything."""
    return _SAFE_ADDRESS.match(address.strip()) is not None
