"""The result of an extraction, and a method applied to a parsed page to make it."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .document.html import to_html
from .document.lines import shipped_line_model
from .document.markdown import to_markdown
from .document.metadata import Metadata, read_metadata
from .document.structure import PLAIN, Block, DocumentOptions, document_blocks
from .dom.page import Page
from .errors import NewsmlError
from .measure.align import oracle_text
from .methods import NodeMethod

#: The fields of an article's record (:meth:`Article.to_dict`), in order: what the command
#: line's JSON records and the Spark rows hold of an article.
RECORD_FIELDS = ("title", *(item.name for item in fields(Metadata)), "text", "paragraphs", "scores",
                 "encoding", "lang", "method", "markdown")
#: The fields of a record that hold lists (of strings, or of numbers for ``scores``).
LIST_FIELDS = frozenset({"paragraphs", "scores", "tags"})


@dataclass
class Article(Metadata):
    """An extracted article. ``text`` is the paragraphs joined by newlines; ``blocks`` the
    same nodes as a document (headings, lists, tables...), which :attr:`markdown` and
    :attr:`html` render. Its metadata (:class:`~newsml.document.metadata.Metadata`'s fields)
    is None where the page does not say: ``date`` and ``date_modified`` in ISO 8601, the
    day with the time and offset when the page gives them; ``source`` the outlet a Chinese
    page names (来源), apart from the author."""

    title: str = ""
    paragraphs: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    encoding: str = ""
    lang: str = "und"
    method: str = ""
    blocks: list[Block] = field(default_factory=list, repr=False, compare=False)
    #: Extracted for its title and text alone (``extract(..., text_only=True)``): its
    #: metadata was not read and it has no Markdown or HTML.
    text_only: bool = False

    @property
    def text(self) -> str:
        """The body text, one paragraph per line."""
        return "\n".join(self.paragraphs)

    @property
    def markdown(self) -> str:
        """The article as Markdown: the title as its ``#`` heading, then the body's blocks."""
        self._check_document("markdown")
        return to_markdown(self.title, self.blocks)

    @property
    def html(self) -> str:
        """The article as an HTML fragment: one ``<article>`` element."""
        self._check_document("html")
        return to_html(self.title, self.blocks)

    def _check_document(self, what: str) -> None:
        """Raise NewsmlError for the document of an article extracted for its text alone."""
        if self.text_only:
            raise NewsmlError(f"this article was extracted with text_only=True: it has no {what}; "
                              "extract it without text_only for its metadata, Markdown and HTML")

    def to_dict(self) -> dict[str, Any]:
        """Plain-data form (the CLI's json/jsonl record): :data:`RECORD_FIELDS`, in order
        (``markdown`` None for an article extracted with ``text_only``).

        (``dataclasses.asdict`` gives the same, but passes every paragraph and score through
        ``copy.deepcopy`` one by one: a shallow copy of the lists is enough, their items are
        immutable.)
        """
        data: dict[str, Any] = {name: None if self.text_only and name == "markdown" else getattr(self, name)
                                for name in RECORD_FIELDS}
        for name in LIST_FIELDS:
            if data[name] is not None:
                data[name] = list(data[name])
        return data

    @classmethod
    def from_nodes(cls, page: Page, keep: np.ndarray, scores: np.ndarray, method: str,
                   title: str, options: DocumentOptions = PLAIN) -> Article:
        """Assemble the article from the kept text nodes of ``page``, in document order
        (``options``: what its Markdown and HTML keep besides the text)."""
        paragraphs, kept_scores = [], []
        for node in page.nodes:
            if keep[node.index]:
                paragraphs.append(node.text)
                kept_scores.append(round(float(scores[node.index]), 4))
        if options.text_only:
            return cls(title=title, paragraphs=paragraphs, scores=kept_scores, encoding=page.encoding,
                       lang=page.lang, method=method, text_only=True)
        blocks = document_blocks(page, keep, title, links=options.links, images=options.images)
        meta = read_metadata(page, keep, shipped_line_model())
        return cls(title=title, **vars(meta), paragraphs=paragraphs, scores=kept_scores,
                   encoding=page.encoding, lang=page.lang, method=method, blocks=blocks)


def extract_page(page: Page, scorer: NodeMethod, options: DocumentOptions = PLAIN) -> Article:
    """Extract the article of an already parsed page with a method instance."""
    return extract_scored(page, scorer, options)[0]


def extract_scored(page: Page, scorer: NodeMethod, options: DocumentOptions = PLAIN
                   ) -> tuple[Article, np.ndarray, np.ndarray]:
    """The article of ``page``, with every node's score and which nodes were kept (for
    the review of a draft label, which shows the dropped nodes too)."""
    with collector_paused():
        scores, keep = _scored_and_kept(page, scorer)
        article = Article.from_nodes(page, keep, scores, method=scorer.name, title=page.title,
                                     options=options)
        return article, scores, keep


def extract_text(page: Page, scorer: NodeMethod) -> str:
    """The article's text alone (:attr:`Article.text`), without its document and metadata:
    what training's folds score, page after page."""
    with collector_paused():
        return oracle_text(page.nodes, _scored_and_kept(page, scorer)[1])


def _scored_and_kept(page: Page, scorer: NodeMethod) -> tuple[np.ndarray, np.ndarray]:
    """Every node's score and which nodes the method keeps."""
    ensure_usable(scorer)
    scores = scorer.score_nodes(page)
    return scores, np.asarray(scorer.select(page, scores), dtype=bool)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a page is extracted, when this
    process runs one thread.

    Extraction makes and drops many small lists, tuples and dicts, which reference
    counting frees (it makes no reference cycles: tests/test_collector.py checks every
    shipped method); the collector, woken by their number, only walks them, so pausing it
    saves time on every page (docs/decisions/2026-11-23-many-pages.md).
    With other threads running, it is left alone: they may need it while a page is
    extracted, and a pause shared between threads could keep it off for good. It is
    enabled again when the page is done, also on an error (or a page's time limit);
    a caller who had disabled it keeps it disabled.
    """
    if not gc.isenabled() or threading.active_count() > 1:
        yield
        return
    try:
        gc.disable()
        yield
    finally:
        gc.enable()


def ensure_usable(scorer: NodeMethod) -> None:
    """Raise a clear NewsmlError when a learned method is used before it was trained."""
    if not scorer.__sklearn_is_fitted__():
        raise NewsmlError(f"method {scorer.name!r} is not trained: fit it on labeled pages "
                          "(newsml train) or use its shipped model")
