"""Segmentation: a cleaned tree becomes text nodes, the one unit every method scores.

A *text node* is a maximal run of visible text inside one block-level element: inline
markup (``<a>``, ``<b>``, ``<span>``, ``<font>``...) does not split it; block elements
and ``<br>`` do. As in browsers, elements HTML does not define (custom elements,
Word's ``<o:p>``) are inline. So a paragraph with a link in mid-sentence is one node (with a link
share), while each entry of a link list is a node of its own. Coarser units of the
papers (naive-Bayes blocks, ECON text-node-sets) are groupings of these nodes, so any
method can answer with one score per text node. A node's text has its white space
collapsed, except that text inside ``<pre>`` keeps its line breaks (one line of code a
line; blank lines and indentation go).

The walk is iterative (``Element.iter``): documents nested 10,000 levels deep do
not touch Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import NamedTuple

import numpy as np

from ..core.speedups import choose
from ..core.tags import Element
from ..core.text import count_tokens, words


@dataclass(slots=True, eq=False)
class TextNode:
    """A run of visible text in document order, with what the methods need to know of it.

    ``chars`` and ``link_chars`` count non-space characters; ``line`` is the source line
    where its text starts (near enough: the line of the element it opens or follows),
    the node's position for methods that read the page source line by line. The raw
    strings its text is made of are among its page's :class:`Pieces`.
    """

    index: int
    text: str
    chars: int
    link_chars: int
    block: Element
    path: tuple[str, ...]
    group: int
    line: int = 0
    _words: list[str] | None = field(default=None, repr=False)
    _n_tokens: int = field(default=-1, repr=False)

    @property
    def depth(self) -> int:
        """Depth of the enclosing block element (``html`` is 1)."""
        return len(self.path)

    @property
    def tag(self) -> str:
        """Tag of the enclosing block element."""
        return self.path[-1]

    @property
    def link_ratio(self) -> float:
        """Share of the node's characters that sit inside ``<a>``."""
        return self.link_chars / self.chars if self.chars else 0.0

    @property
    def words(self) -> list[str]:
        """Words of the text: jieba for Chinese, letter/digit runs otherwise (cached)."""
        if self._words is None:
            self._words = words(self.text)
        return self._words

    @property
    def n_tokens(self) -> int:
        """Number of scoring tokens (:func:`newsml.core.text.tokens`: words, CJK characters); cached."""
        if self._n_tokens < 0:
            self._n_tokens = count_tokens(self.text)
        return self._n_tokens


class Segmentation(NamedTuple):
    """What one walk of a page's elements gives: its text nodes, their :class:`BlockTree`
    (:func:`block_tree`), where each node's block lies among the page's ``<p>`` elements,
    and, when the walk was asked for them, the :class:`Pieces` the nodes' texts are made of.

    ``paragraphs[e]`` holds, for element e of the tree that is a node's block, the number
    of ``<p>`` the walk met before it and before its end (the ``<p>`` under it, itself
    included, are those between: one pass counts them for every block); -1 elsewhere.
    The counts start where the walk starts: only their differences and their nesting
    are read, which are the same for a walk from any element.
    """

    nodes: list[TextNode]
    tree: BlockTree
    paragraphs: np.ndarray
    pieces: Pieces | None


class Pieces(NamedTuple):
    """The raw text strings the page's nodes are made of, in document order, side by side:
    piece k is ``texts[k]``, held by ``owners[k]`` (the element whose ``text`` it is, or the
    parent of the element whose ``tail`` it is), with ``chars[k]`` non-space characters, in
    node ``node[k]``. Only strings with visible characters are pieces. DOM-level methods
    (ECON) use them to map their decisions onto nodes.

    Lists and arrays for the page, not a list of tuples per node: a large page has a great
    many pieces.
    """

    owners: list[Element]
    texts: list[str]
    chars: np.ndarray
    node: np.ndarray

    def of(self, index: int) -> list[tuple[Element, str, int]]:
        """The pieces of node ``index``: (owner, text, visible characters) each."""
        start, end = np.searchsorted(self.node, [index, index + 1]).tolist()
        return [(self.owners[k], self.texts[k], int(self.chars[k])) for k in range(start, end)]


class BlockTree(NamedTuple):
    """The nodes' blocks and the elements above them, as index arrays.

    ``parent[e]`` is the index of element e's parent (the root is its own parent),
    ``depth[e]`` its distance from the root, ``block[i]`` the index of node i's block,
    ``elements[e]`` the element itself and ``tags[e]`` its tag. ``by_depth`` lists the
    elements by depth (each depth in index order), and ``level_starts`` says where each
    depth begins in it, then where it ends: the order of every pass a level at a time.
    """

    parent: np.ndarray
    depth: np.ndarray
    block: np.ndarray
    elements: list[Element]
    tags: list[str]
    by_depth: np.ndarray
    level_starts: np.ndarray

    def levels(self) -> list[np.ndarray]:
        """Element indices by depth, the root's level first (each level in index order)."""
        order, starts = self.by_depth, self.level_starts.tolist()
        return [order[start:end] for start, end in zip(starts[:-1], starts[1:])]

    def path_up(self, element: int) -> list[int]:
        """Element ``element`` and the elements above it, up to the root."""
        path = [element]
        while (above := int(self.parent[path[-1]])) != path[-1]:
            path.append(above)
        return path

    def subtree_sums(self, per_node: np.ndarray, levels: list[np.ndarray] | None = None) -> np.ndarray:
        """For every element, the sum of ``per_node`` over the nodes whose block lies under it
        (``levels``: this tree's :meth:`levels`, when the caller has them: the numpy passes
        read them, the compiled ones ``by_depth``)."""
        # (float also for a tree without nodes, where bincount gives integers)
        total = np.bincount(self.block, weights=per_node, minlength=len(self.parent))
        total = total.astype(float, copy=False)
        _sums_up(self, total, levels)
        return total

    def inherited(self, values: np.ndarray, settled: np.ndarray,
                  levels: list[np.ndarray] | None = None) -> np.ndarray:
        """``values`` (one per element) with each element below the root's level that is
        not ``settled`` (bool) given its parent's final value, from the top down; in place
        (``levels`` as for :meth:`subtree_sums`)."""
        return _handed_down(self, values, settled, levels)


class AttributeKinds(NamedTuple):
    """The elements of a :class:`BlockTree` sorted by what the markup families read of them:
    ``keys`` are the distinct (tag, class, id, itemprop) of the elements, ``kind[e]`` the
    index of element e's among them. A page repeats a few of these many times, so what a
    family makes of one is made once per page."""

    kind: np.ndarray
    keys: list[tuple[str, str | None, str | None, str | None]]


def block_tree(nodes: list[TextNode]) -> BlockTree:
    """The :class:`BlockTree` of ``nodes``."""
    index: dict[Element, int] = {}
    parents: list[int] = []
    pending: list[tuple[int, Element | None]] = []
    for node in nodes:
        element = node.block
        while element is not None and element not in index:
            position = index[element] = len(parents)
            parents.append(-1)
            above = element.getparent()
            pending.append((position, above))
            element = above
    for position, above in pending:
        parents[position] = index[above] if above is not None else position
    block = np.fromiter((index[node.block] for node in nodes), dtype=np.int64, count=len(nodes))
    return block_tree_from(np.asarray(parents, dtype=np.int64), block, list(index))


def block_tree_from(parent: np.ndarray, block: np.ndarray, elements: list[Element],
                    tags: list[str] | None = None) -> BlockTree:
    """The :class:`BlockTree` of elements with these parents (the root its own) and nodes in
    these blocks: the depths and the order by depth worked out, the tags read unless
    given. Equal tags are one string: lxml makes a new one at each reading, which adds up
    on a page of many blocks."""
    parent = np.asarray(parent, dtype=np.int64)
    depth = _depths(parent)
    if tags is None:
        shared: dict[str, str] = {}
        tags = [shared.setdefault(tag, tag) for tag in (element.tag for element in elements)]
    by_depth = np.argsort(depth, kind="stable").astype(np.int64, copy=False)
    level_starts = np.zeros(int(depth.max(initial=-1)) + 2, dtype=np.int64)
    np.cumsum(np.bincount(depth), out=level_starts[1:])
    return BlockTree(parent, depth, block, elements, tags, by_depth, level_starts)


def _depths_in_python(parent: np.ndarray) -> np.ndarray:
    """Each element's distance from the root, by climbing all elements a level at a time."""
    depth = np.zeros(len(parent), dtype=np.int64)
    ancestor = np.arange(len(parent))
    while True:
        step = parent[ancestor]
        moved = step != ancestor
        if not moved.any():
            return depth
        depth += moved
        ancestor = step


def _sums_up_in_python(tree: BlockTree, total: np.ndarray, levels: list[np.ndarray] | None) -> None:
    """Add each element's ``total`` to its parent's, the deepest level first; in place."""
    for level in reversed((tree.levels() if levels is None else levels)[1:]):
        np.add.at(total, tree.parent[level], total[level])


def _sums_up_in_c(passes: ModuleType) -> Callable[[BlockTree, np.ndarray, list[np.ndarray] | None], None]:
    def sums_up(tree: BlockTree, total: np.ndarray, levels: list[np.ndarray] | None) -> None:
        passes.sums_up(tree.parent, tree.by_depth, tree.level_starts, total)
    return sums_up


def _handed_down_in_python(tree: BlockTree, values: np.ndarray, settled: np.ndarray,
                           levels: list[np.ndarray] | None) -> np.ndarray:
    """:meth:`BlockTree.inherited`, a level at a time from the top."""
    parent = tree.parent
    for level in (tree.levels() if levels is None else levels)[1:]:
        open_ = level[~settled[level]]
        values[open_] = values[parent[open_]]
    return values


#: The kinds of values the compiled hand-down takes (others go the numpy way).
_PASSED_TYPES = (np.dtype(np.int64), np.dtype(bool), np.dtype(np.float64))


def _handed_down_in_c(passes: ModuleType) -> Callable[..., np.ndarray]:
    def handed_down(tree: BlockTree, values: np.ndarray, settled: np.ndarray,
                    levels: list[np.ndarray] | None) -> np.ndarray:
        if not (values.dtype in _PASSED_TYPES and settled.dtype == bool
                and values.flags.c_contiguous and settled.flags.c_contiguous):
            return _handed_down_in_python(tree, values, settled, levels)
        passes.inherit_down(tree.parent, tree.by_depth, tree.level_starts,
                            values.view(np.uint8) if values.dtype == bool else values, settled.view(np.uint8))
        return values
    return handed_down


_depths = choose("dom._tree_passes", _depths_in_python, "depths")
_sums_up = choose("dom._tree_passes", _sums_up_in_python, _sums_up_in_c)
_handed_down = choose("dom._tree_passes", _handed_down_in_python, _handed_down_in_c)
