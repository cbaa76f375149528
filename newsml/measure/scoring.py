"""Token-level precision, recall and F1 of extracted against gold text (docs/design.md, Scoring)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from ..core.text import tokens

#: Resamples of the pages in :func:`paired_bootstrap`.
BOOTSTRAP_SAMPLES = 2000


class Score(NamedTuple):
    """Precision, recall and F1 of one page (or their macro averages)."""

    precision: float
    recall: float
    f1: float


def score(extracted: str, gold: str) -> Score:
    """Bag-of-tokens overlap of ``extracted`` with ``gold``.

    Tokens are lower-cased letter/digit runs and single CJK characters; the overlap is
    the multiset intersection. An empty extraction scores precision 1, recall 0; when
    the gold itself has no tokens, recall is 1 and precision is 1 only for an empty
    extraction.
    """
    got, want = Counter(tokens(extracted)), Counter(tokens(gold))
    n_got, n_want = sum(got.values()), sum(want.values())
    overlap = sum((got & want).values())
    precision = overlap / n_got if n_got else 1.0
    if n_want:
        recall = overlap / n_want
    else:
        recall, precision = 1.0, (1.0 if not n_got else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1)


def macro(scores: Iterable[Score]) -> Score:
    """Average of per-page scores (each page weighs the same); zeros for no pages."""
    items = list(scores)
    if not items:
        return Score(0.0, 0.0, 0.0)
    n = len(items)
    return Score(sum(s.precision for s in items) / n, sum(s.recall for s in items) / n,
                 sum(s.f1 for s in items) / n)


def paired_bootstrap(ours: Sequence[float], theirs: Sequence[float], samples: int = BOOTSTRAP_SAMPLES,
                     seed: int = 0) -> tuple[float, float, float]:
    """Mean of the per-page differences ``ours - theirs`` and its 95% percentile interval,
    resampling pages with replacement (the same pages for both): how two extractors, or
    two settings of one, compare on the same pages."""
    diffs = [a - b for a, b in zip(ours, theirs)]
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(samples))
    return sum(diffs) / n, means[int(0.025 * samples)], means[int(0.975 * samples) - 1]


def outcome(page_score: Score, bar: float = 0.95) -> str:
    """ECON paper's page outcome: 'correct', 'wrong' (noise included) or 'missed'."""
    if page_score.recall < bar:
        return "missed"
    return "correct" if page_score.precision >= bar else "wrong"


def mask_score(weights: np.ndarray, keep: np.ndarray, labels: np.ndarray) -> Score:
    """Token-weighted P/R/F1 of a node selection against per-node gold labels.

    ``weights`` are the nodes' token counts. This is :func:`score` as seen through
    the alignment, cheap enough to tune on thousands of pages.
    """
    kept = float(weights[keep].sum())
    gold = float(weights[labels.astype(bool)].sum())
    hit = float(weights[keep & labels.astype(bool)].sum())
    precision = hit / kept if kept else 1.0
    recall = hit / gold if gold else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1)
