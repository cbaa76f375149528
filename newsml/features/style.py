"""Style mates: what the rest of the page holds under a node's tag and class (newsml's
own evidence).

A site styles its article paragraphs alike wherever they stand: a list, a heading or
a short line of the article carries the class of the long paragraphs around it, even
when a box of links splits the article in two. A menu entry shares its class with other
menu entries only. For the node's block element and for the block's parent, with their
signature (tag and class) as a mark, over the other text nodes whose element of the same
level carries that mark:

- ``mates{level}_share``: their tokens, as a share of the page's;
- ``mates{level}_links``: the share of the characters inside ``<a>``, the node's own
  included (so a node alone of its mark gets its own);
- ``mates{level}_count``: how many they are, squashed as n / (n + 10).

Elements without a class share the mark of their tag alone.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..core.tags import normal_class
from ..dom.page import Page
from .base import NodeFeatures

_STATS = ("share", "links", "count")


class StyleMateFeatures(NodeFeatures):
    """Three statistics of the nodes sharing the mark of the block, then of its parent."""

    name = "style"
    feature_names = tuple(f"mates{level}_{stat}" for level in (0, 1) for stat in _STATS)

    def page_features(self, page: Page) -> np.ndarray:
        out = np.empty((len(page.nodes), len(self.feature_names)))
        if not page.nodes:
            return out
        tokens = page.token_counts
        chars, links = (counts.astype(float) for counts in page.char_counts)
        total = max(float(tokens.sum()), 1.0)
        ones = np.ones(len(page.nodes))
        for level, (mark, marks) in enumerate(style_marks(page)):
            mates = mark_totals(mark, marks, ones) - 1.0
            mate_tokens = mark_totals(mark, marks, tokens) - tokens
            out[:, 3 * level] = np.maximum(mate_tokens, 0.0) / total
            mark_chars = mark_totals(mark, marks, chars)
            out[:, 3 * level + 1] = mark_totals(mark, marks, links) / np.maximum(mark_chars, 1.0)
            out[:, 3 * level + 2] = mates / (mates + 10.0)
        return out


def mark_totals(mark: np.ndarray, marks: int, values: np.ndarray) -> np.ndarray:
    """Per node, the sum of ``values`` over the nodes of its mark, its own included (less
    its own value: the sum over its mates)."""
    return np.bincount(mark, weights=values, minlength=marks)[mark]


def style_marks(page: Page, levels: int = 2) -> Iterator[tuple[np.ndarray, int]]:
    """For the nodes' blocks, then their parents (``levels`` in all): each node's mark at
    that level, a number per signature (tag and class) of the element, and how many marks
    there are. The id and itemprop of an element do not count. The root is its own
    parent: a block that is the root has its own mark at both levels."""
    tree, kinds = page.block_tree, page.attribute_kinds
    found: dict[tuple[str, str], int] = {}
    mark_of_kind = np.fromiter((found.setdefault((tag, normal_class(classes)), len(found))
                                for tag, classes, _, _ in kinds.keys),
                               dtype=np.int64, count=len(kinds.keys))
    element = tree.block
    for level in range(levels):
        if level:
            element = tree.parent[element]
        yield mark_of_kind[kinds.kind[element]], len(found)
