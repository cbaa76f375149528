"""Repetition of sibling structure (newsml's own evidence).

Comment threads, teaser lists and link menus repeat one element signature (tag and
class) many times under one parent; an article's paragraphs repeat ``<p>`` but its
container does not repeat. For the node's block and its two nearest ancestors, the
number of same-signature siblings (itself included), squashed into [0, 1] as
log(1 + n - 1) / log(1 + ``many``), capped at 1.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..page import Page
from ..tags import Element
from .base import NodeFeatures


def signature(element: Element) -> tuple[str, str]:
    """An element's tag and class, the mark that list items of one kind share."""
    return str(element.tag), " ".join((element.get("class") or "").split())


class RepetitionFeatures(NodeFeatures):
    """``repeat0`` (the block), ``repeat1`` (its parent), ``repeat2`` (its grandparent)."""

    name = "repetition"
    feature_names = ("repeat0", "repeat1", "repeat2")

    def __init__(self, many: int = 20):
        self.many = many

    def page_features(self, page: Page) -> np.ndarray:
        if not page.nodes:
            return np.zeros((0, 3))
        rows: list[list[float]] = [[]] * len(page.nodes)
        counts: dict[Element, Counter[tuple[str, str]]] = {}
        by_block: dict[Element, list[float]] = {}
        marks: dict[Element, tuple[str, str]] = {}      # an element's signature, read once
        values: dict[int, float] = {}                   # the column value of a count of alike
        scale = np.log1p(self.many)

        def mark(element: Element) -> tuple[str, str]:
            found = marks.get(element)
            if found is None:
                found = marks[element] = signature(element)
            return found

        for node in page.nodes:
            row = by_block.get(node.block)
            if row is None:
                row = by_block[node.block] = [0.0, 0.0, 0.0]
                element = node.block
                for level in range(3):
                    parent = element.getparent()
                    if parent is None:
                        break
                    siblings = counts.get(parent)
                    if siblings is None:
                        siblings = counts[parent] = Counter(mark(child) for child in parent
                                                            if isinstance(child.tag, str))
                    alike = siblings[mark(element)]
                    value = values.get(alike)
                    if value is None:
                        value = values[alike] = min(np.log1p(alike - 1) / scale, 1.0)
                    row[level] = value
                    element = parent
            rows[node.index] = row
        return np.array(rows, dtype=float)
