"""A page's bytes or text through the input stage, one way: read, decode, sanitize,
parse, clean.

:func:`parse` returns a :class:`ParsedPage` (tree, encoding, meta, the decoded text);
everything derived from it (text nodes, title, language) belongs to
:class:`newsml.dom.page.Page`. Input that is not a page raises
:class:`~newsml.errors.InvalidPageError`, and so does a page past the size limits
(:data:`newsml.input.read.MAX_PAGE_BYTES`, :data:`newsml.input.sanitize.MAX_TAGS`),
before any parsing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..core.tags import Element
from ..core.text import normalize_space
from .clean import clean, text_of
from .declared import Declared, read_declared
from .decode import reject_binary
from .parse import parse_markup
from .read import check_size, maybe_gunzip, read_page
from .sanitize import page_text, parser_input


@dataclass(eq=False)
class ParsedPage:
    """A parsed, cleaned page: the lxml root and what was learned while parsing.

    ``flattened`` says the markup was too deep and was flattened; ``revealed`` that the
    prose was read from noscript, template or srcdoc content. ``data`` is the page as
    :func:`parse` read it (the caller's own bytes or text when it gave those), from
    which :attr:`text` is made again when asked for. ``declared`` is None for a page
    parsed without reading its declarations (``parse(..., declared=False)``).
    """

    root: Element
    encoding: str
    title_text: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    flattened: bool = False
    data: bytes | str = field(default="", repr=False)
    revealed: bool = False
    declared: Declared | None = field(default=None, repr=False)

    @cached_property
    def text(self) -> str:
        """The decoded page as it was handed to the parser (source-line methods such as
        CETR read it). Made again from :attr:`data` on first use, not kept from parsing:
        most methods never read it, and a page's text takes up to four times its bytes."""
        return page_text(self.data)[0]


def parse(page: bytes | str | Path, *, declared: bool = True) -> ParsedPage:
    """Parse a page (bytes, text or path) into a cleaned :class:`ParsedPage`.

    ``declared``: read what the page declares (:func:`read_declared`, for the metadata);
    a title and text alone do without it.
    Raises :class:`InvalidPageError` when the input is empty, binary or has no markup.
    """
    data = read_page(page)
    check_size(len(data))
    if isinstance(data, bytes):
        data = maybe_gunzip(data)
        reject_binary(data)
    markup, encoding = parser_input(data)
    root, flattened = parse_markup(markup, lambda: page_text(data)[0])
    meta = _read_meta(root)
    title_text = _title_text(root)
    # (before cleaning, which drops scripts, meta and link)
    declarations = read_declared(root) if declared else None
    revealed = clean(root)
    return ParsedPage(root=root, encoding=encoding, title_text=title_text, meta=meta,
                      flattened=flattened, data=data, revealed=revealed, declared=declarations)


def _read_meta(root: Element) -> dict[str, str]:
    """``<meta>`` name/property -> content, lower-cased keys (first occurrence wins)."""
    meta: dict[str, str] = {}
    for element in root.iter("meta"):
        key = (element.get("property") or element.get("name") or "").strip().lower()
        content = element.get("content")
        if key and content and key not in meta:
            meta[key] = content.strip()
    return meta


def _title_text(root: Element) -> str:
    """The text of the first ``<title>`` in a ``<head>`` that has any (``//head/title``), else
    of the first one anywhere (``//title``), whitespace-normalized; '' without one."""
    titles = list(root.iter("title"))
    in_head = (title for title in titles if getattr(title.getparent(), "tag", None) == "head")
    return _first_text(in_head) or _first_text(titles)


def _first_text(elements: Iterable[Element]) -> str:
    """Whitespace-normalized text of the first of ``elements`` that has any, or ''."""
    for element in elements:
        text = normalize_space(text_of(element))
        if text:
            return text
    return ""
