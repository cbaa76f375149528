"""The result of an extraction, and a method applied to a parsed page to make it."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .dom.page import Page
from .errors import NewsmlError
from .methods import NodeMethod


@dataclass
class Article:
    """An extracted article. ``text`` is the paragraphs joined by newlines."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    encoding: str = ""
    lang: str = "und"
    method: str = ""

    @property
    def text(self) -> str:
        """The body text, one paragraph per line."""
        return "\n".join(self.paragraphs)

    def to_dict(self) -> dict[str, Any]:
        """Plain-data form (the CLI's json/jsonl record), ``text`` included.

        (``dataclasses.asdict`` gives the same, but passes every paragraph and score through
        ``copy.deepcopy`` one by one: a shallow copy of the lists is enough, their items are
        immutable.)
        """
        data = {item.name: getattr(self, item.name) for item in fields(self)}
        data["paragraphs"], data["scores"] = list(self.paragraphs), list(self.scores)
        data["text"] = self.text
        return data

    @classmethod
    def from_nodes(cls, page: Page, keep: np.ndarray, scores: np.ndarray, method: str,
                   title: str) -> Article:
        """Assemble the article from the kept text nodes of ``page``, in document order."""
        paragraphs, kept_scores = [], []
        for node in page.nodes:
            if keep[node.index]:
                paragraphs.append(node.text)
                kept_scores.append(round(float(scores[node.index]), 4))
        return cls(title=title, paragraphs=paragraphs, scores=kept_scores,
                   encoding=page.encoding, lang=page.lang, method=method)


def extract_page(page: Page, scorer: NodeMethod) -> Article:
    """Extract the article of an already parsed page with a method instance."""
    return extract_scored(page, scorer)[0]


def extract_scored(page: Page, scorer: NodeMethod) -> tuple[Article, np.ndarray, np.ndarray]:
    """The article of ``page``, with every node's score and which nodes were kept (for
    the review of a draft label, which shows the dropped nodes too)."""
    ensure_usable(scorer)
    with collector_paused():
        scores = scorer.score_nodes(page)
        keep = np.asarray(scorer.select(page, scores), dtype=bool)
        return Article.from_nodes(page, keep, scores, method=scorer.name, title=page.title), scores, keep


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
