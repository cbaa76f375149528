"""``extract``: one page in, one :class:`~newsml.article.Article` out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .article import Article
from .methods import NodeMethod, get_method
from .parse import Document, parse
from .title import page_title


def extract(page: bytes | str | Path, method: str | NodeMethod = "default", **options: Any) -> Article:
    """Extract the article of ``page`` (HTML bytes, HTML text, or a path to a file).

    ``method`` is a registered name (see ``newsml methods``) or a method instance;
    ``options`` are that method's parameters. Raises
    :class:`~newsml.errors.InvalidPageError` for input that is not an HTML page.
    """
    scorer = method if isinstance(method, NodeMethod) else get_method(method, **options)
    return extract_document(parse(page), scorer)


def extract_document(doc: Document, scorer: NodeMethod) -> Article:
    """Extract the article of an already parsed page with a method instance."""
    scores = scorer.score_nodes(doc)
    keep = scorer.select(doc, scores)
    return Article.from_nodes(doc, keep, scores, method=scorer.name, title=page_title(doc))
