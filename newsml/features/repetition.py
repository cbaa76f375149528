"""Repetition of sibling structure (newsml's own evidence).

Comment threads, teaser lists and link menus repeat one element signature (tag and
class) many times under one parent; an article's paragraphs repeat ``<p>`` but its
container does not repeat. For the node's block and its two nearest ancestors, the
number of same-signature siblings (itself included), squashed into [0, 1] as
log(1 + n - 1) / log(1 + ``many``), capped at 1.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
from lxml import etree

from ..core.speedups import choose
from ..core.tags import Element, normal_class
from ..dom.groupings import signature
from ..dom.page import Page
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
        # the elements of the block tree that are a block or one of the two elements above
        # one; the root has no siblings to count: 0 (also where climbing the tree stops, the
        # root being its own parent)
        tree, kinds = page.block_tree, page.attribute_kinds
        elements, parents = tree.elements, tree.parent
        up1 = parents[tree.block]
        up2 = parents[up1]
        # (the elements counted, in index order: marks, where np.unique would import
        # numpy.ma on a process's first page)
        marked = np.zeros(len(elements), dtype=bool)
        for which in (tree.block, up1, up2):
            marked[which] = True
        counted = np.flatnonzero(marked)
        counted = counted[parents[counted] != counted]
        # each element's signature, from its kind of attributes: worked out once per kind
        kind_marks = [(tag, normal_class(classes)) for tag, classes, _, _ in kinds.keys]
        alike = _alike_siblings(elements, parents[counted], kinds.kind[counted], kind_marks)
        column = np.zeros(len(elements))
        column[counted] = np.minimum(np.log1p(alike - 1) / np.log1p(self.many), 1.0)
        rows = np.empty((len(tree.block), 3))
        for at, which in enumerate((tree.block, up1, up2)):
            rows[:, at] = column[which]
        return rows


def alike_in_python(elements: list[Element], parents: np.ndarray, kinds: np.ndarray,
                    kind_marks: list[tuple[str, str]]) -> np.ndarray:
    """For each (parent, kind) pair: how many element children of ``elements[parent]`` carry
    the mark (tag and class) of that kind of element."""
    siblings: dict[int, dict[tuple[str, str], int] | None] = {}  # a parent's children by signature
    alike = np.ones(len(parents), dtype=np.int64)
    for i, (parent, kind) in enumerate(zip(parents.tolist(), kinds.tolist())):
        if parent in siblings:
            counts = siblings[parent]
        else:
            counts = siblings[parent] = _children_by_mark(elements[parent])
        if counts is not None:
            alike[i] = counts[kind_marks[kind]]
    return alike


def _alike_in_c(walk: ModuleType) -> Callable[..., np.ndarray]:
    def alike_siblings(elements: list[Element], parents: np.ndarray, kinds: np.ndarray,
                       kind_marks: list[tuple[str, str]]) -> np.ndarray:
        if not walk.plain(elements[0]):
            return alike_in_python(elements, parents, kinds, kind_marks)
        return walk.alike_siblings(elements, parents, kinds, kind_marks)
    return alike_siblings


def _children_by_mark(parent: Element) -> dict[tuple[str, str], int] | None:
    """How many element children of ``parent`` have each signature (tag and class); None
    for an only child's parent (a common case): alike alone."""
    if len(parent) <= 1:        # (parse() removed comments and processing instructions)
        return None
    counts: dict[tuple[str, str], int] = {}
    for child in parent.iterchildren(etree.Element):
        mark = signature(child)
        counts[mark] = counts.get(mark, 0) + 1
    return counts


_alike_siblings = choose("dom._walk", alike_in_python, _alike_in_c)
