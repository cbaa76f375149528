"""``extract``: one page in, one :class:`~newsml.article.Article` out."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

from .article import Article, collector_paused, extract_page
from .document.structure import DocumentOptions
from .dom.page import load_page
from .errors import ConfigurationError
from .learning.persistence import get_method
from .methods import NodeMethod, method_class, resolve_name


def extract(page: bytes | str | Path, method: str | NodeMethod = "default", title: str | None = None,
            *, links: bool = False, images: bool = False, text_only: bool = False,
            **options: Any) -> Article:
    """Extract the article of ``page`` (HTML bytes, HTML text, or a path to a file).

    ``method`` is a registered name (see ``newsml methods``) or a method instance;
    ``options`` are that method's parameters: a fresh, untrained instance then, unless
    they all act at prediction only (``comments="keep"`` for the default), which are set
    on a copy of the shipped model.
    ``title``, when known from a feed or link text, is used if sane (title-based
    methods locate the article with it).
    ``links`` and ``images``: the article's :attr:`~newsml.article.Article.markdown` and
    :attr:`~newsml.article.Article.html` keep the links' addresses and the figures' images.
    ``text_only``: the title and text alone, sooner: the metadata fields stay None and
    ``markdown`` and ``html`` raise :class:`~newsml.errors.NewsmlError`.
    Raises :class:`~newsml.errors.InvalidPageError` for input that is not an HTML page.
    In a process of one thread, Python's cyclic garbage collector is paused for the call
    (:func:`collector_paused`), which makes extraction faster.
    """
    _check_method_type(method)
    if isinstance(method, NodeMethod):
        if options:
            raise ConfigurationError(f"options {sorted(options)} given with a method instance: "
                                     "set them on the instance instead")
        scorer = method
    elif options and set(options) <= set(method_class(resolve_name(method)).prediction_params) \
            and method_class(resolve_name(method)).ships_model:
        scorer = copy.copy(_shipped(resolve_name(method)))   # the shared one stays as shipped
        scorer.set_params(**options)
    elif options:
        scorer = get_method(method, **options)
    else:
        scorer = _shipped(resolve_name(method))
    document = DocumentOptions(links, images, text_only=text_only)
    with collector_paused():
        article = extract_page(load_page(page, title=title, declared=not text_only), scorer, document)
    if isinstance(method, str):
        article.method = method             # as asked: "default", not the method it stands for
    return article


def scorer_for(method: str | NodeMethod) -> NodeMethod:
    """``method`` itself when it is a method instance, else the method of that name as
    shipped, loaded once per process (:func:`_shipped`). Raises ConfigurationError for an
    unknown name."""
    _check_method_type(method)
    if isinstance(method, NodeMethod):
        return method
    return _shipped(resolve_name(method))


def _check_method_type(method: object) -> None:
    """Raise ConfigurationError, saying what was given, for a method that is neither a name
    nor a method instance (a ``load_model`` result is a pair: the method comes first)."""
    if isinstance(method, (str, NodeMethod)):
        return
    hint = (": load_model returns (method, metadata), give its first item"
            if isinstance(method, tuple) and method and isinstance(method[0], NodeMethod) else "")
    raise ConfigurationError(f"method must be a method name or a method instance, not "
                             f"{type(method).__name__}{hint}")


@cache
def _shipped(name: str) -> NodeMethod:
    """The method ``name`` as shipped, loaded once per process: ``extract`` is called page
    by page, and reading a model file costs more than extracting a page. Never fitted or
    changed here, so sharing it between calls is safe."""
    return get_method(name)


