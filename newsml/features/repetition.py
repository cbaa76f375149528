"""Repetition of sibling structure (newsml's own evidence).

Comment threads, teaser lists and link menus repeat one element signature (tag and
class) many times under one parent; an article's paragraphs repeat ``<p>`` but its
container does not repeat. For the node's block and its two nearest ancestors, the
number of same-signature siblings (itself included), squashed into [0, 1] as
log(1 + n - 1) / log(1 + ``many``), capped at 1.
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from ..groupings import normal_class
from ..page import Page
from ..tags import Element
from .base import NodeFeatures


class RepetitionFeatures(NodeFeatures):
    """``repeat0`` (the block), ``repeat1`` (its parent), ``repeat2`` (its grandparent)."""

    name = "repetition"
    feature_names = ("repeat0", "repeat1", "repeat2")

    def __init__(self, many: int = 20):
        self.many = many

    def page_features(self, page: Page) -> np.ndarray:
        if not page.nodes:
            return np.zeros((0, 3))
        siblings: dict[Element, dict[tuple[str, str], int]] = {}   # a parent's children by signature
        marks: dict[Element, tuple[str, str]] = {}                   # the signatures read for those
        values: dict[int, float] = {}                                # the column value of a count of alike
        scale = np.log1p(self.many)

        def value(element: Element, parent: Element) -> float:
            """The column value of ``element``'s same-signature siblings under ``parent``."""
            if element.getprevious() is None and element.getnext() is None:
                alike = 1                       # an only child (a third of them): alike alone
            else:
                counts = siblings.get(parent)
                if counts is None:
                    counts = siblings[parent] = {}
                    # elements only (no comments), so each tag is a string: signature() inline
                    for child in parent.iterchildren(etree.Element):
                        mark = marks[child] = (child.tag, normal_class(child.get("class")))
                        counts[mark] = counts.get(mark, 0) + 1
                alike = counts[marks[element]]
            found = values.get(alike)
            if found is None:
                found = values[alike] = min(np.log1p(alike - 1) / scale, 1.0)
            return found

        # the column value of each element of the block tree that is a block or one of the
        # two elements above one; the root has no siblings to count: 0 (also where climbing
        # the tree stops, the root being its own parent)
        tree = page.block_tree
        elements, parents = tree.elements, tree.parent.tolist()
        up1 = tree.parent[tree.block]
        up2 = tree.parent[up1]
        column = np.zeros(len(elements))
        # (the elements counted, in index order: a bincount, where np.unique would import
        # numpy.ma on a process's first page)
        counted = np.bincount(np.concatenate([tree.block, up1, up2]), minlength=len(elements))
        for e in np.flatnonzero(counted).tolist():
            if parents[e] != e:
                column[e] = value(elements[e], elements[parents[e]])
        return np.column_stack([column[tree.block], column[up1], column[up2]])
