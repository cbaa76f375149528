"""An article's blocks as Markdown (CommonMark, with GitHub's tables).

The title is the one ``#`` line at the top; headings keep their level (a body ``<h1>``
becomes ``##``, under the title); list items are ``- `` or numbered lines, a list inside
an item indented to its item's text (an item whose outer lists the document does not give
starts at the margin, never indented as code); tables are whole GitHub tables; quotes are
``> `` lines, one quote's blocks in one quote; code is fenced; a figure is its image
(``![caption](src)``) when images were asked for, else its caption in italics; a line
break inside a paragraph is a backslash at the end of the line. Text that Markdown would
read as markup at the start of a line is escaped.
"""

from __future__ import annotations

import re

from .structure import Block, Span

#: Line starts Markdown reads as a block's markup: a heading, quote, list item, rule, fence.
_LINE_MARKUP = re.compile(r"^(\s*)(?:([#>+=]|-(?=\s|-|$)|_{3,}|~{3,})|(\d{1,9})(?=[.)](?:\s|$)))")
#: Characters Markdown reads as inline markup: escaped in text.
_INLINE_MARKUP = re.compile(r"([\\`*\[\]<])")


def to_markdown(title: str, blocks: list[Block]) -> str:
    """The document: the title as its ``#`` heading, then each block, a blank line between
    blocks (none between the items of one list)."""
    # (each part's lines, parts parted by a blank line; joined once at the end, as a part
    # that grew by concatenation would be copied again for each of its many items)
    parts: list[list[str]] = []
    if title:
        parts.append(["# " + _inline([Span(title)])])
    previous: Block | None = None
    # the open lists, outermost first: each one's depth on the page, where its items start,
    # where a list inside its last item starts, and its last item's number (0: unordered)
    open_lists: list[tuple[int, str, str, int]] = []
    for block in blocks:
        if block.kind != "item" or (previous is not None and previous.quote != block.quote):
            # (a list goes on only in the same quote: its lines start anew with the quote's marks)
            open_lists.clear()
        if block.kind != "item":
            text = _block(block)
        else:
            while open_lists and open_lists[-1][0] > block.level:
                open_lists.pop()
            # (a list nests only in an item the document gives: one whose outer lists were
            # left out starts where its nearest open list's items' lists start, or at the
            # margin, never indented as code)
            if open_lists and open_lists[-1][0] == block.level:
                _, indent, _, number = open_lists.pop()
            else:
                indent, number = (open_lists[-1][2] if open_lists else ""), 0
            number = number + 1 if block.ordered else 0
            marker = f"{number}. " if block.ordered else "- "
            open_lists.append((block.level, indent, indent + " " * len(marker), number))
            text = _item(block, indent, marker)
        if not text:
            continue
        same_list = previous is not None and previous.kind == block.kind == "item" \
            and previous.quote == block.quote
        if block.quote:
            prefix = "> " * block.quote
            quoted = "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))
        else:
            quoted = text
        if same_list and parts:
            parts[-1].append(quoted)
        elif parts and previous is not None and previous.quote and block.quote:
            # (the blank line between two blocks of one quote is quoted too: a bare one
            # would end the quote, and the next block would start another)
            parts[-1] += [("> " * min(previous.quote, block.quote)).rstrip(), quoted]
        else:
            parts.append([quoted])
        previous = block
    return "\n\n".join("\n".join(part) for part in parts) + ("\n" if parts else "")


def _item(block: Block, indent: str, marker: str) -> str:
    """A list item: its marker at its depth's indent, its further lines under its text (a
    line break between them)."""
    lines = [_inline(line) for line in block.lines]
    rest = indent + " " * len(marker)
    return "\\\n".join([indent + marker + lines[0], *(rest + line for line in lines[1:])])


def _block(block: Block) -> str:
    if block.kind == "heading":
        return "#" * min(block.level + 1, 6) + " " + " ".join(_inline(line) for line in block.lines)
    if block.kind == "table":
        return _table(block)
    if block.kind == "code":
        body = "\n".join(span.text for line in block.lines for span in line)
        fence = "````" if "```" in body else "```"
        return f"{fence}\n{body}\n{fence}"
    if block.kind == "figure":
        caption = " ".join(_inline(line) for line in block.lines)
        if block.src:
            return f"![{_escape_brackets(' '.join(span.text for line in block.lines for span in line))}]" \
                   f"({_address(block.src)})"
        return f"*{caption}*" if caption else ""
    return "\\\n".join(_inline(line) for line in block.lines)


def _table(block: Block) -> str:
    """A GitHub table, under its caption as a line of its own (GitHub's tables have none)."""
    caption = " ".join(_inline(line) for line in block.lines)
    if not block.rows:
        return caption
    rows = [[_cell(cell) for cell in row] for row in block.rows]
    header, body = (rows[0], rows[1:]) if block.header else ([""] * len(rows[0]), rows)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join([caption, ""] + lines if caption else lines)


def _cell(text: str) -> str:
    return _escape_inline(text).replace("|", "\\|")


def _inline(line: list[Span]) -> str:
    """A line's spans as Markdown: text escaped, links as ``[text](address)``; markup at the
    line's start escaped."""
    if len(line) == 1 and not line[0].href:      # (most lines: one span of text, no link)
        joined = _escape_inline(line[0].text)
    else:
        joined = "".join(f"[{text}]({_address(span.href)})" if span.href else text
                         for span in line for text in (_escape_inline(span.text),))
    return _LINE_MARKUP.sub(_escaped_start, joined, count=1) if _LINE_MARKUP.match(joined) else joined


def _escape_inline(text: str) -> str:
    """``text`` with the characters Markdown reads as inline markup escaped (looked for
    first: most lines hold none, and a search costs less than a substitution)."""
    return _INLINE_MARKUP.sub(r"\\\1", text) if _INLINE_MARKUP.search(text) else text


def _escaped_start(match: re.Match[str]) -> str:
    """A line start Markdown would read as markup, escaped: ``\\#``, or ``2024\\.``."""
    if match.group(2) is not None:
        return f"{match.group(1)}\\{match.group(2)}"
    return f"{match.group(1)}{match.group(3)}\\"


def _escape_brackets(text: str) -> str:
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _address(href: str) -> str:
    """A link's address as Markdown reads it: in angle brackets when it holds a space or
    parentheses."""
    return f"<{href}>" if any(char in href for char in " ()<>") else href
