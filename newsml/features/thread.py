"""Threads of repeated records: forum replies, blog comments, archive pages of posts.

A comment thread, a forum's replies and a blog's archive page are one record template
(a ``div``, ``li``, ``tr`` or ``table`` of one tag and class) repeated under one parent;
the article, when there is one, is the first record or sits outside them. The
repetition family counts alike siblings near the node; this one finds the node's
*record*, its nearest container (the block itself or an ancestor, up to
:data:`~newsml.dom.groupings.MAX_LEVELS` up) that has at least
:data:`~newsml.dom.groupings.MIN_RECORDS` alike siblings (:class:`~newsml.dom.groupings.RecordRuns`),
and says where the node sits in that run of records:

- ``thread_in``: 1 inside a record, else 0 (and 0 in the next three columns);
- ``thread_rank``: the record's place among its alike siblings, 0 for the first,
  squashed as log(1 + i) / log(1 + ``many``);
- ``thread_count``: how many records, log(1 + n - 1) / log(1 + ``many``);
- ``thread_share``: the record's share of the text of all the run's records (the
  first post of a thread is often the long one);
- ``thread_reply``: the node's text opens as a reply (``Re:``, ``回复``, ``引用``, a
  ``#``-numbered floor) or is a short line holding a date and a time, the header of a
  comment or a post.

Not in the default model: cross-validation found no gain worth its time
(docs/decisions/2026-11-23-thread-family-not-shipped.md). It stays available as evidence
(``Fusion(tree_evidence=(..., "thread"))``) for users whose pages are threads.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from ..core.tags import Element
from ..core.text import DATE_TIME
from ..dom.groupings import Record, RecordRuns
from ..dom.page import Page
from .base import NodeFeatures

#: The longest line read as the header of a comment when it holds a date and a time.
REPLY_HEADER_CHARS = 120
_REPLY_START = re.compile(
    r"^\s*(?:#\s*\d*\s*)?(?:re|reply|回复|回覆|引用|答复)\s*[:：]|^\s*#\s*\d+\s*(?:楼|#)?\s*$", re.IGNORECASE)

class ThreadFeatures(NodeFeatures):
    """``thread_in``, ``thread_rank``, ``thread_count``, ``thread_share``, ``thread_reply``."""

    name = "thread"
    feature_names = ("thread_in", "thread_rank", "thread_count", "thread_share", "thread_reply")

    def __init__(self, many: int = 20):
        self.many = many

    def page_features(self, page: Page) -> np.ndarray:
        n = len(page.nodes)
        scale = np.log1p(self.many)
        runs = RecordRuns()
        record_of: dict[Element, Record | None] = {}
        record_chars: Counter[Element] = Counter()
        run_chars: Counter[tuple[Element, tuple[str, str]]] = Counter()
        inside, ranks, counts, reply = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
        found: list[tuple[int, Element, tuple[Element, tuple[str, str]]]] = []
        for node in page.nodes:
            block = node.block
            if block not in record_of:
                record_of[block] = runs.record(block)
            record = record_of[block]
            i = node.index
            if record is not None:
                element, parent, rank, count, mark = record
                key = (parent, mark)
                record_chars[element] += node.chars
                run_chars[key] += node.chars
                found.append((i, element, key))
                inside[i], ranks[i], counts[i] = 1.0, rank, count - 1
            text = node.text
            reply[i] = float(bool(_REPLY_START.match(text)) or (
                len(text) <= REPLY_HEADER_CHARS and DATE_TIME.search(text) is not None))
        share = [0.0] * n
        for i, element, key in found:
            total = run_chars[key]
            share[i] = record_chars[element] / total if total else 0.0
        rows = np.array([inside, ranks, counts, share, reply], dtype=float).T
        rows[:, 1:3] = np.minimum(np.log1p(rows[:, 1:3]) / scale, 1.0)
        return rows
