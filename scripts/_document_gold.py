"""Scoring of a tool's document (date, author, Markdown structure) against the corpora's gold,
for the document section of ``scripts/benchmark.py``. Pure functions only: the benchmark
imports this helper from beside it, the tests load it as a script.

Rules (the section's text in the report restates them):

- A date counts at the day: the first ten characters of an ISO date, or the day parsed from
  a date object or a string such as ``2011/12/9``, ``2011.12.09`` or ``2011年12月09日``.
- An author is normalized (NFKC, lower case, punctuation and symbols to spaces, a leading
  "by", "作者" or "记者" dropped, spaces collapsed). A prediction is right when the gold's
  normalized form is contained in the prediction's, or the prediction's in the gold's, neither
  empty; containment is at word boundaries, except in Chinese, Japanese or Korean text.
- A line of text is normalized the same way (no prefix dropped). Two lines are the same when
  their normalized texts are equal, or when one contains the other and their token F1 is at
  least :data:`NEAR_F1` (tokens: words, and each CJK character alone).
- Gold headings (list items) of a page: the gold's heading and list lines (the ``.md`` gold)
  or all its lines (a ``.txt`` gold), marks and inline Markdown stripped, whose text is the
  whole text of an ``<h2>``-``<h6>`` (an ``<li>``) element of the page. A line the page
  marks both ways is a heading.
- Gold units of Readability.js's expected HTML: the texts of its ``h1``-``h6``, ``li`` (its
  own text, without nested lists), ``td``/``th`` (without nested tables) and outermost
  ``blockquote`` elements.
- A list item is read as CommonMark reads it: its line and the lines that continue it (the
  lines after it, up to a blank line, that start no block of their own: a line after a hard
  break, ``- Plan your time.\\`` then ``  You should plan ...``, or a lazy continuation), in
  the tool's Markdown and in the ``.md`` gold alike.
- A gold heading (list item) is recalled when a heading (list item) line of the tool's
  Markdown is the same line; a cell when a cell of a table row is; a block quote when a
  quote line or a run of consecutive quote lines is.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import Any

#: Token F1 from which a line that contains another (or is contained in it) is the same line.
NEAR_F1 = 0.8
#: Leading words of a byline that are not the author's name (matched after normalizing).
AUTHOR_PREFIXES = ("by ", "作者", "记者")
#: The kinds of unit :func:`markdown_units` reads from a tool's Markdown.
KINDS = ("heading", "list", "cell", "quote")

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_TOKEN = re.compile(f"[{_CJK}]|[^\\W{_CJK}]+")
_DAY = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})")
_ATX = re.compile(r"^\s{0,3}(#{1,6})(?:\s+|$)(.*?)(?:\s+#+)?\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$")
_NUMBERED = re.compile(r"^\s*(\d{1,9}[.)]\s+.*)$")
_QUOTE = re.compile(r"^\s{0,3}>\s?(.*)$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)")
_REF_LINK = re.compile(r"\[([^\]]*)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<(https?://[^>]+)>")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~<])")
_EMPHASIS = re.compile(r"(?<!\w)(?:\*{1,3}|_{1,3}|~~)(?=\S)|(?<=\S)(?:\*{1,3}|_{1,3}|~~)(?!\w)|`+")
_SPACES = re.compile(r"\s+")
_RULE = re.compile(r"^\s{0,3}(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$")


# -- dates and authors --------------------------------------------------------------------
def day(value: Any) -> str | None:
    """The ISO day (``YYYY-MM-DD``) of a date, a datetime or a date string; None when there is
    none. A datetime counts at its own (local) day, as it is given."""
    if value is None:
        return None
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()[:10]
    match = _DAY.search(str(value))
    if not match:
        return None
    try:
        return dt.date(*(int(part) for part in match.groups())).isoformat()
    except ValueError:
        return None


def normalize(text: str | None) -> str:
    """NFKC, lower case, punctuation and symbols as spaces, spaces collapsed."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(" " if unicodedata.category(ch)[0] in "PSZC" else ch for ch in text)
    return _SPACES.sub(" ", text).strip()


def normalize_author(author: str | list[str] | tuple[str, ...] | None) -> str:
    """An author (or the names of a list, joined) normalized, a leading "by", "作者" or "记者"
    dropped."""
    if isinstance(author, (list, tuple)):
        author = ", ".join(str(name) for name in author if name)
    text = normalize(author)
    changed = True
    while changed:
        changed = False
        for prefix in AUTHOR_PREFIXES:
            if text.startswith(prefix) and len(text) > len(prefix):
                text, changed = text[len(prefix):].strip(), True
    return text


def _contains(outer: str, inner: str) -> bool:
    if _CJK_CHAR.search(inner):
        return inner in outer
    return re.search(rf"(?<!\w){re.escape(inner)}(?!\w)", outer) is not None


def author_matches(predicted: Any, gold: Any) -> bool:
    """True when the normalized gold is contained in the normalized prediction, or the other
    way round, and neither is empty."""
    p, g = normalize_author(predicted), normalize_author(gold)
    return bool(p and g) and (_contains(p, g) or _contains(g, p))


# -- lines ---------------------------------------------------------------------------------
def tokens(text: str) -> list[str]:
    """Words of a normalized text, each CJK character a token of its own."""
    return _TOKEN.findall(text)


def token_f1(a: str, b: str) -> float:
    """F1 of the token multisets of two texts."""
    ta, tb = Counter(tokens(a)), Counter(tokens(b))
    common = sum((ta & tb).values())
    if not common:
        return 0.0
    precision, recall = common / sum(tb.values()), common / sum(ta.values())
    return 2 * precision * recall / (precision + recall)


def same_line(gold: str, predicted: str) -> bool:
    """Two normalized lines are the same: equal, or one within the other and near-equal."""
    if not gold or not predicted:
        return False
    if gold == predicted:
        return True
    return (gold in predicted or predicted in gold) and token_f1(gold, predicted) >= NEAR_F1


def recalled(gold: Iterable[str], predicted: Iterable[str]) -> int:
    """How many of the gold units (normalized) a predicted unit (normalized) is the same line as."""
    exact = set(predicted)
    others = [p for p in exact if p]
    return sum(1 for g in gold if g and (g in exact or any(same_line(g, p) for p in others)))


def strip_inline(text: str) -> str:
    """A Markdown line's text without its inline marks: images dropped, links as their text,
    emphasis, code ticks, HTML tags and backslash escapes removed. An escaped character is
    literal text first (``\\<img>`` is the text "<img>", not a tag), as in CommonMark."""
    escaped: list[str] = []
    text = _ESCAPE.sub(lambda m: escaped.append(m.group(1)) or f"\x00{len(escaped) - 1}\x00", text)
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = _EMPHASIS.sub("", text)
    return re.sub("\x00(\\d+)\x00", lambda m: escaped[int(m.group(1))], text).strip()


def _table_cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if not (stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1):
        return None
    if _TABLE_RULE.match(stripped):
        return []
    cells = re.split(r"(?<!\\)\|", stripped[1:-1])
    return [normalize(strip_inline(cell)) for cell in cells]


def markdown_units(markdown: str | None) -> dict[str, list[str]]:
    """The normalized texts of a Markdown document's heading lines (ATX ``#`` and setext), list
    item lines (``-``, ``*``, ``+``, ``1.``, ``1)``), table cells (of ``| a | b |`` rows) and
    block quotes (each quote line, and each run of consecutive quote lines joined), by kind.
    Lines in code fences are skipped; a line inside a quote is read for its own kind too."""
    units: dict[str, list[str]] = {kind: [] for kind in KINDS}
    if not markdown:
        return units
    fenced = False
    previous = ""  # the last plain text line, for a setext underline
    run: list[str] = []

    def end_run():
        if len(run) > 1:
            units["quote"].append(normalize(" ".join(run)))
        run.clear()

    for raw in logical_lines(markdown):
        if _FENCE.match(raw):
            fenced = not fenced
            previous = ""
            end_run()
            continue
        if fenced:
            continue
        depth, line = _quote_depth(raw)
        quoted = depth > 0
        if quoted:
            text = strip_inline(_ITEM.sub(r"\1", _ATX.sub(r"\2", line)))
            if text:
                units["quote"].append(normalize(text))
                run.append(text)
        else:
            end_run()
        if (match := _ATX.match(line)) is not None:
            units["heading"].append(normalize(strip_inline(match.group(2))))
            previous = ""
        elif previous and not quoted and _SETEXT.match(line):
            units["heading"].append(previous)
            previous = ""
        elif (match := _item(line)) is not None:
            units["list"].append(normalize(strip_inline(match.group(1))))
            previous = ""
        elif (cells := _table_cells(line)) is not None:
            units["cell"].extend(cell for cell in cells if cell)
            previous = ""
        else:
            previous = "" if quoted else normalize(strip_inline(line))
    end_run()
    return {kind: [unit for unit in found if unit] for kind, found in units.items()}


def logical_lines(markdown: str) -> list[str]:
    """The lines of a Markdown document, each list item's line joined (by a space, its hard
    break's backslash dropped) with the lines that continue it: the lines after it, up to a
    blank line, at its quote depth, that start no block (an item, a heading, a quote, a
    fence, a table row, a rule or setext underline). Fenced code is left as it is."""
    out: list[str] = []
    open_item: int | None = None      # out's index of the item being continued
    item_depth = 0
    fenced = False
    for raw in markdown.splitlines():
        if _FENCE.match(raw):
            fenced, open_item = not fenced, None
            out.append(raw)
            continue
        if fenced:
            out.append(raw)
            continue
        depth, line = _quote_depth(raw)
        if not line.strip():
            open_item = None
            out.append(raw)
            continue
        if open_item is not None and depth == item_depth and not _starts_block(line):
            joined = out[open_item].rstrip()
            out[open_item] = (joined[:-1] if joined.endswith("\\") else joined) + " " + line.strip()
            continue
        open_item = len(out) if _item(line) else None
        item_depth = depth
        out.append(raw)
    return out


def _item(line: str) -> re.Match[str] | None:
    """A list item's line (its text the match's group 1), not a rule written with spaces
    (``* * *``, ``- - -``), which CommonMark reads as a thematic break."""
    return None if _RULE.match(line) else _ITEM.match(line)


def _quote_depth(raw: str) -> tuple[int, str]:
    """How many quotes hold a Markdown line, and the line without their ``>`` marks."""
    depth, line = 0, raw
    while (match := _QUOTE.match(line)) is not None:
        depth, line = depth + 1, match.group(1)
    return depth, line


def _starts_block(line: str) -> bool:
    """Whether a line starts a block of its own (which ends a list item's continuation)."""
    return bool(_ITEM.match(line) or _ATX.match(line) or _FENCE.match(line) or _SETEXT.match(line)
                or _table_cells(line) is not None or _RULE.match(line))


# -- gold structure ----------------------------------------------------------------------------
def gold_markdown_lines(markdown: str) -> list[list[str]]:
    """The heading and list lines of a gold Markdown document, each as its candidate texts
    (normalized): the text without its marks, and for a numbered line also with its number
    (a page may write "1. Intro" as a heading's text)."""
    lines: list[list[str]] = []
    fenced = False
    for raw in logical_lines(markdown):
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = _quote_depth(raw)[1]
        variants = []
        if (match := _ATX.match(line)) is not None:
            variants.append(match.group(2))
        elif (match := _item(line)) is not None:
            variants.append(match.group(1))
            if (numbered := _NUMBERED.match(line)) is not None:
                variants.append(numbered.group(1))
        texts = list(dict.fromkeys(t for t in (normalize(strip_inline(v)) for v in variants) if t))
        if texts:
            lines.append(texts)
    return lines


def gold_text_lines(text: str) -> list[list[str]]:
    """Every non-empty line of a plain-text gold, normalized, as a one-candidate line."""
    return [[line] for line in (normalize(raw) for raw in text.splitlines()) if line]


def _parse(html: str | bytes):
    import lxml.html

    if isinstance(html, bytes):
        html = html.decode("utf-8", "replace")
    html = re.sub(r"^\s*<\?xml[^>]*>", "", html)
    if not html.strip():
        return None
    try:
        return lxml.html.document_fromstring(html)
    except Exception:  # an unparsable page marks nothing
        return None


#: Elements whose boundaries separate words (the rest are inline: no space at their edges).
_BLOCKS = frozenset({"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption",
                     "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
                     "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead",
                     "tr", "ul"})
_SILENT = frozenset({"script", "style", "noscript", "template"})


def _text(element, skip: tuple[str, ...] = ()) -> str:
    """The element's text, normalized, as a browser lays it out: words split at block
    boundaries only; descendants whose tag is in ``skip`` (and scripts, styles) left out."""
    parts: list[str] = []

    def walk(node, top: bool) -> None:
        tag = node.tag if isinstance(node.tag, str) else ""
        if not top and (tag in skip or tag in _SILENT or not tag):
            if node.tail:
                parts.append(node.tail)
            return
        block = tag in _BLOCKS
        if block:
            parts.append(" ")
        if node.text:
            parts.append(node.text)
        for child in node:
            walk(child, False)
        if block:
            parts.append(" ")
        if not top and node.tail:
            parts.append(node.tail)

    walk(element, True)
    return normalize("".join(parts))


def page_marks(html: str | bytes) -> dict[str, set[str]]:
    """The normalized whole texts of a page's ``<h2>``-``<h6>`` elements (``heading``) and of its
    ``<li>`` elements (``list``: with and without their nested lists)."""
    marks: dict[str, set[str]] = {"heading": set(), "list": set()}
    root = _parse(html)
    if root is None:
        return marks
    for element in root.iter("h2", "h3", "h4", "h5", "h6"):
        marks["heading"].add(_text(element))
    for element in root.iter("li"):
        marks["list"].update((_text(element), _text(element, ("ul", "ol"))))
    for kind in marks:
        marks[kind].discard("")
    return marks


def gold_structure(lines: list[list[str]], marks: dict[str, set[str]]) -> dict[str, list[str]]:
    """The gold lines the page marks as heading or list item (:func:`page_marks`), each as the
    candidate text the page has; a line the page marks both ways is a heading."""
    gold: dict[str, list[str]] = {"heading": [], "list": []}
    for candidates in lines:
        for kind in ("heading", "list"):
            text = next((c for c in candidates if c in marks[kind]), None)
            if text is not None:
                gold[kind].append(text)
                break
    return gold


def expected_units(html: str | bytes) -> dict[str, list[str]]:
    """Gold units of an expected output HTML (Readability.js's): the normalized texts of its
    headings (h1-h6), list items (own text), table cells (own text) and outermost block quotes."""
    units: dict[str, list[str]] = {kind: [] for kind in KINDS}
    root = _parse(html)
    if root is None:
        return units
    for element in root.iter():
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            text = _text(element)
            kind = "heading"
        elif tag == "li":
            text, kind = _text(element, ("ul", "ol")), "list"
        elif tag in ("td", "th"):
            text, kind = _text(element, ("table",)), "cell"
        elif tag == "blockquote" and not any(a.tag == "blockquote" for a in element.iterancestors()):
            text, kind = _text(element), "quote"
        else:
            continue
        if text:
            units[kind].append(text)
    return units


def structure_recall(gold: dict[str, list[str]], markdown: str | None) -> dict[str, tuple[int, int]]:
    """(recalled, gold units) for each kind of ``gold`` against a tool's Markdown."""
    predicted = markdown_units(markdown)
    return {kind: (recalled(units, predicted[kind]), len(units)) for kind, units in gold.items()}
