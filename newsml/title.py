"""The article's title from a page's metadata and headings."""

from __future__ import annotations

from .parse import Document
from .text import normalize_space


def page_title(doc: Document) -> str:
    """Best available title: ``og:title``, ``twitter:title``, ``<title>``, else the first ``<h1>``."""
    for key in ("og:title", "twitter:title"):
        value = normalize_space(doc.meta.get(key, ""))
        if value:
            return value
    if doc.title_text:
        return doc.title_text
    for element in doc.root.iter("h1"):
        text = normalize_space("".join(element.itertext()))
        if text:
            return text
    return ""
