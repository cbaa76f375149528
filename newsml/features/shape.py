"""Shape of a text node and of the region around it (newsml's own evidence, not a paper's).

- ``length``: the node's tokens over ``long_node`` tokens, capped at 1;
- ``punct_density``: sentence punctuation per character, scaled so 5% reads as 1;
- ``mass_up2`` / ``mass_up3``: tokens under the block's grandparent / great-grandparent,
  over the page maximum. CEDST's cluster looks one level up only; a site that wraps
  every paragraph in its own ``<div>`` leaves each node alone at that level.
"""

from __future__ import annotations

import numpy as np

from ..page import Page
from ..text import PUNCTUATION, SPLIT_LIMIT, count_punctuation
from .base import NodeFeatures

#: Which characters of the Basic Multilingual Plane are :data:`~newsml.text.PUNCTUATION` (all are).
_IS_PUNCTUATION = np.zeros(0x10000, dtype=bool)
_IS_PUNCTUATION[[ord(char) for char in PUNCTUATION]] = True
_IS_PUNCTUATION[0xFFFF] = False         # where the code points past the plane are looked up


def punctuation_counts(texts: list[str]) -> np.ndarray:
    """:func:`~newsml.text.count_punctuation` of each text, looked up for many at once (in runs
    of at most :data:`~newsml.text.SPLIT_LIMIT` characters; a longer text alone, by the pattern)."""
    if sum(map(len, texts)) <= SPLIT_LIMIT:
        return _run_punctuation(texts)
    counts = np.zeros(len(texts), dtype=np.int64)
    run: list[int] = []
    size = 0
    for i, text in enumerate(texts):
        if len(text) > SPLIT_LIMIT:
            counts[i] = count_punctuation(text)
            continue
        if size + len(text) > SPLIT_LIMIT:
            counts[run] = _run_punctuation([texts[j] for j in run])
            run, size = [], 0
        run.append(i)
        size += len(text)
    if run:
        counts[run] = _run_punctuation([texts[j] for j in run])
    return counts


def _run_punctuation(texts: list[str]) -> np.ndarray:
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    marks = np.flatnonzero(_IS_PUNCTUATION.take(np.minimum(points, 0xFFFF)))
    ends = np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)))
    return np.diff(np.searchsorted(marks, ends), prepend=0)


def ancestor_mass(page: Page, sizes: np.ndarray, levels: int) -> np.ndarray:
    """Tokens under each node's block ancestor ``levels`` up, over the page maximum."""
    if not page.nodes:
        return np.zeros(0)
    parent, _, groups = page.block_tree
    for _ in range(levels):
        groups = parent[groups]          # the root is its own parent: climbing stops there
    totals = np.bincount(groups, weights=sizes)[groups]
    top = totals.max()
    return totals / top if top > 0 else totals


class ShapeFeatures(NodeFeatures):
    """``length, punct_density, mass_up2, mass_up3`` per text node."""

    name = "shape"
    feature_names = ("length", "punct_density", "mass_up2", "mass_up3")

    def __init__(self, long_node: int = 50, punct_scale: float = 20.0):
        self.long_node = long_node
        self.punct_scale = punct_scale

    def page_features(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        sizes = page.token_counts
        chars = np.fromiter((node.chars for node in nodes), dtype=np.int64, count=len(nodes))
        punct = punctuation_counts([node.text for node in nodes]) / np.maximum(chars, 1)
        return np.column_stack([
            np.minimum(sizes / self.long_node, 1.0),
            np.minimum(punct * self.punct_scale, 1.0),
            ancestor_mass(page, sizes, 2),
            ancestor_mass(page, sizes, 3),
        ]) if nodes else np.zeros((0, 4))
