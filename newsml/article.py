"""The result of an extraction: the article's title and its paragraphs with scores."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .page import Page


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
