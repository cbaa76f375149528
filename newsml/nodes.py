"""Segmentation: a cleaned tree becomes text nodes, the one unit every method scores.

A *text node* is a maximal run of visible text inside one block-level element: inline
markup (``<a>``, ``<b>``, ``<span>``, ``<font>``...) does not split it; block elements
and ``<br>`` do. As in browsers, elements HTML does not define (custom elements,
Word's ``<o:p>``) are inline. So a paragraph with a link in mid-sentence is one node (with a link
share), while each entry of a link list is a node of its own. Coarser units of the
papers (naive-Bayes blocks, ECON text-node-sets) are groupings of these nodes, so any
method can answer with one score per text node.

The walk is iterative (``lxml.etree.iterwalk``): documents nested 10,000 levels deep do
not touch Python's recursion limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from lxml import etree

from .tags import BLOCK_TAGS, BREAK_TAGS, Element
from .text import count_tokens, normalize_space, visible_chars, words


@dataclass(slots=True, eq=False)
class TextNode:
    """A run of visible text in document order, with what the methods need to know of it.

    ``chars`` and ``link_chars`` count non-space characters; ``line`` is the source line
    where its text starts (near enough: the line of the element it opens or follows),
    the node's position for methods that read the page source line by line.
    ``pieces`` are the raw text strings of the run, each with the element that holds it
    (the element whose ``text`` it is, or the parent of the element whose ``tail`` it
    is) and its non-space character count: DOM-level methods use them to map their
    decisions onto nodes.
    """

    index: int
    text: str
    chars: int
    link_chars: int
    block: Element
    path: tuple[str, ...]
    group: int
    pieces: list[tuple[Element, str, int]] = field(repr=False)
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
        """Number of scoring tokens (:func:`newsml.text.tokens`: words, CJK characters); cached."""
        if self._n_tokens < 0:
            self._n_tokens = count_tokens(self.text)
        return self._n_tokens

    @property
    def token_count(self) -> int:
        """Number of words (see :attr:`words`)."""
        return len(self.words)


class _RunBuilder:
    """Accumulates the pieces of the current text node during the walk."""

    __slots__ = ("parts", "pieces", "chars", "link_chars", "block", "path", "nodes", "groups",
                 "line")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pieces: list[tuple[Element, str, int]] = []
        self.chars = 0
        self.link_chars = 0
        self.block: Element | None = None
        self.path: tuple[str, ...] = ()
        self.nodes: list[TextNode] = []
        self.groups: dict[Element, int] = {}
        self.line = 0

    def add(self, text: str, owner: Element, in_link: bool,
            block: Element, path: tuple[str, ...], source: Element) -> None:
        """Add ``text`` (of ``owner``; ``source`` gives its line, read only for a run's first text)."""
        if not self.parts:
            if text.isspace():  # the indentation that starts most runs: stripped anyway
                return
            self.block, self.path = block, path
        visible = visible_chars(text)
        if visible and not self.chars:
            self.line = source.sourceline or 0
        self.parts.append(text)
        if visible:
            self.pieces.append((owner, text, visible))
            self.chars += visible
            if in_link:
                self.link_chars += visible

    def flush(self) -> None:
        if self.chars:
            block = self.block
            assert block is not None  # set with the run's first text
            parent = block.getparent()
            key = parent if parent is not None else block
            group = self.groups.setdefault(key, len(self.groups))
            self.nodes.append(TextNode(
                index=len(self.nodes), text=normalize_space("".join(self.parts)),
                chars=self.chars, link_chars=self.link_chars, block=block, path=self.path,
                group=group, pieces=self.pieces, line=self.line,
            ))
        if self.parts:
            self.parts, self.pieces = [], []
            self.chars = self.link_chars = 0


def segment(body: Element) -> list[TextNode]:
    """Text nodes of ``body`` (a cleaned tree, see :func:`newsml.parse.parse`) in order.

    Siblings: nodes whose enclosing blocks share a parent element share ``group``.
    """
    run = _RunBuilder()
    root_path = ("html",) if body.tag != "html" else ()
    tags: list[str] = list(root_path)
    blocks: list[tuple[Element, tuple[str, ...]]] = []
    link_depth = 0
    for event, element in etree.iterwalk(body, events=("start", "end")):
        tag = element.tag
        if not isinstance(tag, str):
            continue
        is_block = tag in BLOCK_TAGS
        if event == "start":
            tags.append(tag)
            if is_block:
                run.flush()
                blocks.append((element, tuple(tags)))
            elif tag in BREAK_TAGS:
                run.flush()
            elif tag == "a":
                link_depth += 1
            text = element.text
            if text:
                block, path = blocks[-1]
                run.add(text, element, link_depth > 0, block, path, element)
        else:
            tags.pop()
            if is_block:
                run.flush()
                blocks.pop()
            elif tag == "a":
                link_depth -= 1
            tail = element.tail
            if tail and blocks:
                block, path = blocks[-1]
                run.add(tail, element.getparent(), link_depth > 0, block, path, element)
    run.flush()
    return run.nodes


class BlockTree(NamedTuple):
    """The nodes' blocks and the elements above them, as index arrays.

    ``parent[e]`` is the index of element e's parent (the root is its own parent),
    ``depth[e]`` its distance from the root, ``block[i]`` the index of node i's block.
    """

    parent: np.ndarray
    depth: np.ndarray
    block: np.ndarray

    def levels(self) -> list[np.ndarray]:
        """Element indices by depth, the root's level first."""
        if not len(self.depth):
            return []
        return [np.flatnonzero(self.depth == d) for d in range(int(self.depth.max()) + 1)]

    def subtree_sums(self, per_node: np.ndarray, levels: list[np.ndarray] | None = None) -> np.ndarray:
        """For every element, the sum of ``per_node`` over the nodes whose block lies under it."""
        total = np.bincount(self.block, weights=per_node, minlength=len(self.parent))
        for level in reversed((self.levels() if levels is None else levels)[1:]):
            np.add.at(total, self.parent[level], total[level])
        return total


def block_tree(nodes: list[TextNode]) -> BlockTree:
    """The :class:`BlockTree` of ``nodes``."""
    index: dict[object, int] = {}
    parents: list[int] = []
    pending: list[tuple[int, object]] = []
    for node in nodes:
        element = node.block
        while element is not None and element not in index:
            index[element] = len(parents)
            parents.append(-1)
            pending.append((index[element], element.getparent()))
            element = element.getparent()
    for position, parent in pending:
        parents[position] = index[parent] if parent is not None else position
    parent = np.asarray(parents, dtype=np.int64)
    depth = np.zeros(len(parent), dtype=np.int64)
    ancestor = np.arange(len(parent))
    while True:
        step = parent[ancestor]
        moved = step != ancestor
        if not moved.any():
            break
        depth += moved
        ancestor = step
    block = np.fromiter((index[node.block] for node in nodes), dtype=np.int64, count=len(nodes))
    return BlockTree(parent, depth, block)
