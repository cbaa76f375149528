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

from array import array
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

import numpy as np

from ..core.speedups import compiled_module
from ..core.tags import BLOCK_TAGS, BREAK_TAGS, Element, is_link
from ..core.text import SPLIT_LIMIT, count_tokens, normal_and_visible, normalize_space, visible_chars, words


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

    @property
    def token_count(self) -> int:
        """Number of words (see :attr:`words`)."""
        return len(self.words)


def segment(body: Element) -> list[TextNode]:
    """Text nodes of ``body`` (a cleaned tree, see :func:`newsml.input.parsed.parse`) in order
    (:func:`segment_tree` without the tree)."""
    return segment_tree(body).nodes


#: The spans of an element of the block tree until it ends (see segment_tree).
_NO_SPAN = array("q", [-1, -1])


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

    Lists and arrays for the page, not a list of tuples per node: a 10 MB page has
    180,000 pieces.
    """

    owners: list[Element]
    texts: list[str]
    chars: np.ndarray
    node: np.ndarray

    def of(self, index: int) -> list[tuple[Element, str, int]]:
        """The pieces of node ``index``: (owner, text, visible characters) each."""
        start, end = np.searchsorted(self.node, [index, index + 1]).tolist()
        return [(self.owners[k], self.texts[k], int(self.chars[k])) for k in range(start, end)]


def segment_tree(body: Element, pieces: bool = False) -> Segmentation:
    """:func:`walk_in_python`, by the compiled walk (:mod:`newsml.dom._walk`) when the package
    was installed with it (about twice as fast on real pages); the same result."""
    if COMPILED is not None and COMPILED.plain(body):
        return COMPILED.segment_tree(body, pieces)
    return walk_in_python(body, pieces)


def walk_in_python(body: Element, pieces: bool = False) -> Segmentation:
    """Text nodes of ``body`` (a cleaned tree, see :func:`newsml.input.parsed.parse`) in order,
    with their :class:`BlockTree`, and their :class:`Pieces` when ``pieces`` is true. The tree
    must hold elements only: parse() removes comments and processing instructions, whose
    tail text this walk would not read.

    Pieces are only read by DOM-level methods (ECON), not by the default: without them the
    walk keeps no list of every text's owner, which held an element object for most
    elements of the page (30 MB of a 10 MB page's peak, and a twentieth of its time).

    Siblings: nodes whose enclosing blocks share a parent element share ``group``. Nodes
    with equal paths share one tuple (a 10 MB page has 86,000 blocks but 52 paths).

    One pass over the elements in document order (``iter``, a third faster than the
    start and end events of ``iterwalk``): an element's end comes when the next element
    is not inside it. The current run (its texts and character counts) and the page's
    pieces live in local variables: the loop runs for every element of every page. A count of the
    ``<p>`` started so far, read where each block starts and ends, gives the
    :attr:`Segmentation.paragraphs` of the nodes' blocks.
    """
    nodes: list[TextNode] = []
    groups: dict[Element, int] = {}
    parts: list[str] = []  # the current run's texts (its first one is not blank)
    # the page's pieces (see Pieces), and per node the index just past its last piece
    piece_owners: list[Element] = []
    piece_texts: list[str] = []
    piece_chars: list[int] = []
    piece_ends: list[int] = []
    chars = link_chars = line = link_depth = p_seen = 0
    first_normal: str | None = None  # the run's first text, normalized (None past SPLIT_LIMIT)
    run_block: Element = body
    run_path: tuple[str, ...] = ()
    run_depth = 0                     # where run_block is (or was, just ended) in ``opened``
    tags: list[str] = [] if body.tag == "html" else ["html"]  # of the open elements
    opened: list[Element] = []  # the elements whose end is still to come, outermost first
    # the open blocks, with their paths, the <p> before them and their places in ``opened``
    blocks: list[tuple[Element, tuple[str, ...], int, int]] = []
    paths: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple per distinct path, shared
    # the block tree (see block_tree), built as nodes come: the elements in the order they
    # are met climbing from each node's block, each one's parent, each node's block; and per
    # element, once it has ended, the <p> before it and before its end (-1 -1 until then).
    # Numbers in arrays, not lists: no object per element or node, on pages of 100,000
    index: dict[Element, int] = {}
    parents = array("q")
    spans = array("q")
    node_blocks = array("q")

    def place(block: Element) -> int:
        """The block tree's index of ``block`` (the current run's), adding it and the
        elements above it not yet in the tree. Its ancestors are the elements opened
        before it, so the climb reads them there; above the walk's root, their parents."""
        found = index.get(block)
        if found is not None:
            return found
        element, depth = block, run_depth
        while True:
            index[element] = len(parents)
            spans.extend(_NO_SPAN)
            depth -= 1
            above = opened[depth] if depth >= 0 else element.getparent()
            if above is None:
                parents.append(len(parents))           # the root is its own parent
                break
            found = index.get(above)
            parents.append(len(parents) + 1 if found is None else found)
            if found is not None:
                break
            element = above
        return index[block]

    def flush() -> None:
        """End the current run: a text node when it has visible characters."""
        nonlocal parts, chars, link_chars
        if chars:
            parent = opened[run_depth - 1] if run_depth > 0 else run_block.getparent()
            group = groups.setdefault(parent if parent is not None else run_block, len(groups))
            node_blocks.append(place(run_block))
            # a run of one piece, already normalized (seven nodes in ten), keeps the piece's
            # string as its text: one string, not two equal ones
            text = "".join(parts)
            if "\n" in text and "pre" in run_path:    # preformatted: its line breaks are its own
                normal = "\n".join(line for line in map(normalize_space, text.split("\n")) if line)
            elif len(parts) == 1 and first_normal is not None:
                normal = first_normal               # made by add() already
            else:
                normal = normalize_space(text)
            # (positional: keywords take twice as long, for every node of every page)
            nodes.append(TextNode(len(nodes), text if normal == text else normal, chars, link_chars,
                                  run_block, run_path, group, line))
            if pieces:
                piece_ends.append(len(piece_owners))
        parts = []
        chars = link_chars = 0

    def add(text: str, owner: Element, source: Element) -> None:
        """Add ``text`` (held by ``owner``; ``source`` gives its line) to the current run."""
        nonlocal chars, link_chars, line, run_block, run_path, run_depth, first_normal
        # its normal form serves as the run's, should it be the run's only text (past
        # SPLIT_LIMIT, only when needed: flush() normalizes it then)
        normal: str | None
        if len(text) <= SPLIT_LIMIT:
            normal, visible = normal_and_visible(text)
        else:
            normal, visible = None, visible_chars(text)
        if not parts:
            run_block, run_path, _, run_depth = blocks[-1]
            first_normal = normal
        parts.append(text)
        if visible:
            if not chars:
                line = source.sourceline or 0
            if pieces:
                piece_owners.append(owner)
                piece_texts.append(text)
                piece_chars.append(visible)
            chars += visible
            if link_depth > 0:
                link_chars += visible

    for element in chain(body.iter(), (None,)):  # None: the end, where every element ends
        if element is not None:
            tag = element.tag
            if not isinstance(tag, str):
                continue
        parent = element.getparent() if element is not None else None
        while opened and opened[-1] is not parent:  # the elements that end before this one
            ended = opened.pop()
            ended_tag = tags.pop()
            if ended_tag in BLOCK_TAGS:
                if parts:
                    flush()
                before = blocks.pop()[2]
                at = index.get(ended)
                if at is not None:          # (a block with no node under it is not read)
                    spans[2 * at] = before
                    spans[2 * at + 1] = p_seen
            elif ended_tag == "a" and is_link(ended):
                link_depth -= 1
            tail = ended.tail
            # (indentation that would start a run is dropped: stripped anyway)
            if tail and blocks and (parts or not tail.isspace()):
                add(tail, opened[-1] if opened else ended.getparent(), ended)
        if element is None:
            break
        opened.append(element)
        tags.append(tag)
        if tag in BLOCK_TAGS:
            if parts:
                flush()
            path = tuple(tags)
            blocks.append((element, paths.setdefault(path, path), p_seen, len(opened) - 1))
            if tag == "p":
                p_seen += 1
        elif tag in BREAK_TAGS:
            if parts:
                flush()
        elif tag == "a" and is_link(element):
            link_depth += 1
        text = element.text
        if text and (parts or not text.isspace()):
            add(text, element, element)
    # (no run is left: the root, a block, ended at the None above)
    tree = _block_tree(np.array(parents, dtype=np.int64), np.array(node_blocks, dtype=np.int64),
                       list(index))
    paragraphs = np.full((len(tree.elements), 2), -1, dtype=np.int64)
    if nodes:
        paragraphs[tree.block] = np.frombuffer(spans, dtype=np.int64).reshape(-1, 2)[tree.block]
    if not pieces:
        return Segmentation(nodes, tree, paragraphs, None)
    # (a run's pieces all have visible characters, so a run with pieces made a node)
    ends = np.asarray(piece_ends, dtype=np.int64)
    piece_node = np.repeat(np.arange(len(nodes)), np.diff(ends, prepend=np.int64(0)))
    if len(piece_node) != len(piece_owners):
        raise AssertionError("segmentation: a piece outside every node")
    piece_chars_array = np.asarray(piece_chars, dtype=np.int64)
    for shared in (piece_chars_array, piece_node):
        shared.setflags(write=False)      # shared by every reader of the page
    return Segmentation(nodes, tree, paragraphs,
                        Pieces(piece_owners, piece_texts, piece_chars_array, piece_node))


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
        if PASSES_COMPILED is not None:
            PASSES_COMPILED.sums_up(self.parent, self.by_depth, self.level_starts, total)
            return total
        for level in reversed((self.levels() if levels is None else levels)[1:]):
            np.add.at(total, self.parent[level], total[level])
        return total

    def inherited(self, values: np.ndarray, settled: np.ndarray,
                  levels: list[np.ndarray] | None = None) -> np.ndarray:
        """``values`` (one per element) with each element below the root's level that is
        not ``settled`` (bool) given its parent's final value, from the top down; in place
        (``levels`` as for :meth:`subtree_sums`)."""
        if (PASSES_COMPILED is not None and values.dtype in _PASSED_TYPES and settled.dtype == bool
                and values.flags.c_contiguous and settled.flags.c_contiguous):
            PASSES_COMPILED.inherit_down(self.parent, self.by_depth, self.level_starts,
                                         values.view(np.uint8) if values.dtype == bool else values,
                                         settled.view(np.uint8))
            return values
        parent = self.parent
        for level in (self.levels() if levels is None else levels)[1:]:
            open_ = level[~settled[level]]
            values[open_] = values[parent[open_]]
        return values


class AttributeKinds(NamedTuple):
    """The elements of a :class:`BlockTree` sorted by what the markup families read of them:
    ``keys`` are the distinct (tag, class, id, itemprop) of the elements, ``kind[e]`` the
    index of element e's among them. A page repeats a few of these many times, so what a
    family makes of one is made once per page."""

    kind: np.ndarray
    keys: list[tuple[str, str | None, str | None, str | None]]


def attribute_kinds(tree: BlockTree) -> AttributeKinds:
    """The :class:`AttributeKinds` of the elements of ``tree`` (their attributes read once)."""
    if COMPILED is not None and tree.elements and COMPILED.plain(tree.elements[0]):  # (read in C)
        kind, found = COMPILED.attribute_kinds(tree.elements, tree.tags)
        return AttributeKinds(np.asarray(kind, dtype=np.int64), found)
    keys: dict[tuple[str, str | None, str | None, str | None], int] = {}
    kind = [keys.setdefault((tag, element.get("class"), element.get("id"), element.get("itemprop")),
                            len(keys))
            for element, tag in zip(tree.elements, tree.tags)]
    return AttributeKinds(np.asarray(kind, dtype=np.int64), list(keys))


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
    return _block_tree(np.asarray(parents, dtype=np.int64), block, list(index))


def _block_tree(parent: np.ndarray, block: np.ndarray, elements: list[Element],
                tags: list[str] | None = None) -> BlockTree:
    """The :class:`BlockTree` of elements with these parents (the root its own) and nodes in
    these blocks: the depths and the order by depth worked out, the tags read unless
    given. Equal tags are one string: lxml makes a new one at each reading, 7 MB on a page
    of 100,000 blocks."""
    parent = np.asarray(parent, dtype=np.int64)
    if PASSES_COMPILED is not None:
        depth = PASSES_COMPILED.depths(parent)
    else:
        depth = np.zeros(len(parent), dtype=np.int64)
        ancestor = np.arange(len(parent))
        while True:
            step = parent[ancestor]
            moved = step != ancestor
            if not moved.any():
                break
            depth += moved
            ancestor = step
    if tags is None:
        shared: dict[str, str] = {}
        tags = [shared.setdefault(tag, tag) for tag in (element.tag for element in elements)]
    by_depth = np.argsort(depth, kind="stable").astype(np.int64, copy=False)
    level_starts = np.zeros(int(depth.max(initial=-1)) + 2, dtype=np.int64)
    np.cumsum(np.bincount(depth), out=level_starts[1:])
    return BlockTree(parent, depth, block, elements, tags, by_depth, level_starts)


#: The compiled walk's module (:mod:`newsml.dom._walk`) when usable, else None (not built, turned
#: off, or compiled against another lxml: :func:`~newsml.core.speedups.compiled_module`): its
#: functions give what their Python counterparts give, faster.
COMPILED = compiled_module("dom._walk")
#: The block tree's passes compiled (:mod:`newsml.dom._tree_passes`), or None: the same results.
PASSES_COMPILED = compiled_module("dom._tree_passes")
#: The kinds of values the compiled hand-down takes (others go the numpy way).
_PASSED_TYPES = (np.dtype(np.int64), np.dtype(bool), np.dtype(np.float64))
