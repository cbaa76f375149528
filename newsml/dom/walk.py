"""The segmentation walk: a cleaned tree becomes its text nodes and their block tree.

What a text node is, and why, is said in :mod:`newsml.dom.nodes`. The walk is iterative
(``Element.iter``): documents nested 10,000 levels deep do not touch Python's recursion
limit. Its compiled twin (:mod:`newsml.dom._walk`) walks a tree of lxml's own elements.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import chain
from types import ModuleType

import numpy as np

from ..core.speedups import choose
from ..core.tags import BLOCK_TAGS, BREAK_TAGS, Element, is_link
from ..core.text import SPLIT_LIMIT, normal_and_visible, normalize_space, visible_chars
from .nodes import AttributeKinds, BlockTree, Pieces, Segmentation, TextNode, block_tree_from

#: The spans of an element of the block tree until it ends (see segment_tree).
_NO_SPAN = array("q", [-1, -1])


def walk_in_python(body: Element, pieces: bool = False) -> Segmentation:
    """Text nodes of ``body`` (a cleaned tree, see :func:`newsml.input.parsed.parse`) in order,
    with their :class:`BlockTree`, and their :class:`Pieces` when ``pieces`` is true. The tree
    must hold elements only: parse() removes comments and processing instructions, whose
    tail text this walk would not read.

    Pieces are only read by DOM-level methods (ECON), not by the default: without them the
    walk keeps no list of every text's owner, which held an element object for most
    elements of the page, at a cost in peak memory and time on large pages.

    Siblings: nodes whose enclosing blocks share a parent element share ``group``. Nodes
    with equal paths share one tuple (a page has many blocks but few distinct paths).

    One pass over the elements in document order (``iter``, faster than the start and
    end events of ``iterwalk``): an element's end comes when the next element
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
    # Numbers in arrays, not lists: no object per element or node, however large the page
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
            # a run of one piece, already normalized (most nodes), keeps the piece's
            # string as its text: one string, not two equal ones
            text = "".join(parts)
            if "\n" in text and "pre" in run_path:    # preformatted: its line breaks are its own
                normal = "\n".join(line for line in map(normalize_space, text.split("\n")) if line)
            elif len(parts) == 1 and first_normal is not None:
                normal = first_normal               # made by add() already
            else:
                normal = normalize_space(text)
            # (positional: keywords are slower, for every node of every page)
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
    tree = block_tree_from(np.array(parents, dtype=np.int64), np.array(node_blocks, dtype=np.int64),
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


def kinds_in_python(tree: BlockTree) -> AttributeKinds:
    """The :class:`AttributeKinds` of the elements of ``tree`` (their attributes read once)."""
    keys: dict[tuple[str, str | None, str | None, str | None], int] = {}
    kind = [keys.setdefault((tag, element.get("class"), element.get("id"), element.get("itemprop")),
                            len(keys))
            for element, tag in zip(tree.elements, tree.tags)]
    return AttributeKinds(np.asarray(kind, dtype=np.int64), list(keys))


def _walked_in_c(walk: ModuleType) -> Callable[[Element, bool], Segmentation]:
    def segment_tree(body: Element, pieces: bool = False) -> Segmentation:
        return walk.segment_tree(body, pieces) if walk.plain(body) else walk_in_python(body, pieces)
    return segment_tree


def _kinds_in_c(walk: ModuleType) -> Callable[[BlockTree], AttributeKinds]:
    def attribute_kinds(tree: BlockTree) -> AttributeKinds:
        if not (tree.elements and walk.plain(tree.elements[0])):
            return kinds_in_python(tree)
        kind, found = walk.attribute_kinds(tree.elements, tree.tags)
        return AttributeKinds(np.asarray(kind, dtype=np.int64), found)
    return attribute_kinds


#: Text nodes of ``body`` (a cleaned tree, see :func:`newsml.input.parsed.parse`) in order,
#: with their block tree, and their pieces when ``pieces`` is true: :func:`walk_in_python`.
segment_tree = choose("dom._walk", walk_in_python, _walked_in_c)
#: The :class:`~newsml.dom.nodes.AttributeKinds` of a block tree's elements: :func:`kinds_in_python`.
attribute_kinds = choose("dom._walk", kinds_in_python, _kinds_in_c)
