"""The papers' coarser units, as groupings of text nodes.

Every method answers per text node; these functions say which text nodes form one
unit of a paper, so a unit-level decision maps back onto its nodes.

- :func:`nb_blocks`: the naive-Bayes paper's bottom-up blocks: each text climbs to its
  nearest ``table``/``td``/``tr``/``div`` ancestor; consecutive blocks whose elements
  are siblings are merged.
- :func:`text_node_sets`: ECON's text-node-sets: maximal runs of adjacent sibling
  big-nodes (elements that hold text, or carry a tag that breaks text into pieces).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter

import numpy as np

from .nodes import BlockTree, TextNode, block_tree
from .tags import BLOCK_TAGS, Element

#: Block tags of the naive-Bayes paper.
NB_BLOCK_TAGS = ("table", "td", "tr", "div")
#: Tags that make an element an ECON big-node even without text of its own.
BIG_TAGS = frozenset(
    "p br h1 h2 h3 h4 h5 h6 b strong em i u font span a img small big sup sub".split()
)


def nb_blocks(nodes: Sequence[TextNode], block_tags: Iterable[str] = NB_BLOCK_TAGS,
              merge_siblings: bool = True) -> list[list[int]]:
    """Each naive-Bayes block of ``nodes``, in document order, as positions in ``nodes``
    (the nodes' own ``index`` when they are all of a page's nodes)."""
    tree = block_tree(list(nodes))
    starts = nb_block_starts(tree, tree.levels(), block_tags, merge_siblings)
    return [indices.tolist() for indices in np.split(np.arange(len(nodes)), starts[1:])]


def nb_block_starts(tree: BlockTree, levels: list[np.ndarray], block_tags: Iterable[str] = NB_BLOCK_TAGS,
                    merge_siblings: bool = True) -> np.ndarray:
    """Where each naive-Bayes block of the nodes of ``tree`` starts (``levels``: the tree's
    :meth:`~newsml.nodes.BlockTree.levels`): a block is a run of consecutive nodes, so its
    first node says where it is.

    Each node's text climbs from its block to the nearest element with a tag in
    ``block_tags`` (the root when none is), worked out for the whole tree level by level;
    a node starts a new block unless it climbs where the node before it climbed, or, with
    ``merge_siblings``, to a sibling of that element.
    """
    if not len(tree.block):
        return np.zeros(0, dtype=np.int64)
    tags = frozenset(block_tags)
    parent = tree.parent
    climbed = np.arange(len(parent))
    stops = np.fromiter((tag in tags for tag in tree.tags), dtype=bool, count=len(tree.tags))
    for level in levels[1:]:                   # the root climbs nowhere: it stays itself
        climbed[level] = np.where(stops[level], level, climbed[parent[level]])
    element = climbed[tree.block]
    new = np.ones(len(element), dtype=bool)
    new[1:] = element[1:] != element[:-1]
    if merge_siblings:
        # the root has no parent: it is its own in the tree, and merges with nothing
        above = np.where(parent[element] == element, -1, parent[element])
        new[1:] &= (above[1:] < 0) | (above[1:] != above[:-1])
    return np.flatnonzero(new)


def inline_chain(owner: Element) -> list[Element]:
    """``owner`` and its inline ancestors up to and including the first non-inline one.

    These are the elements whose text-para a piece of text held by ``owner`` belongs to.
    """
    chain = [owner]
    element = owner
    while element.tag not in BLOCK_TAGS:
        parent = element.getparent()
        if parent is None:
            break
        chain.append(parent)
        element = parent
    return chain


def big_node_sets(owners: Iterable[Element], big_tags: Iterable[str] = BIG_TAGS) -> list[list[Element]]:
    """ECON's text-node-sets: maximal runs of adjacent big-node siblings, in document order.

    ``owners`` are the elements that hold text, in document order; they and any child
    with a tag in ``big_tags`` are big-nodes. Sets come in the document order of their
    first text: ties between sets are broken by it, so it must not depend on memory
    addresses or on which parent was visited first.
    """
    rank = {owner: i for i, owner in enumerate(dict.fromkeys(owners))}  # in document order
    big_tags = frozenset(big_tags)
    last = len(rank)
    parents: dict[Element, None] = {}
    keyed: list[tuple[int, list[Element]]] = []  # each set with the rank of its first text
    for owner, position in rank.items():
        parent = owner.getparent()
        if parent is None:
            keyed.append((position, [owner]))  # the root holds text: a set of its own
        else:
            parents.setdefault(parent, None)
    for parent in parents:
        run: list[Element] = []
        first = last
        for child in parent:
            found = rank.get(child)
            if found is not None or child.tag in big_tags:
                run.append(child)
                if found is not None and found < first:
                    first = found
            elif run:
                keyed.append((first, run))
                run, first = [], last
        if run:
            keyed.append((first, run))
    keyed.sort(key=itemgetter(0))  # stable: ties keep the order they were found in
    return [members for _, members in keyed]


def text_node_sets(nodes: Sequence[TextNode]) -> list[list[int]]:
    """Per ECON text-node-set that holds text, the indices of the text nodes it touches."""
    member_of: dict[Element, int] = {}
    sets = big_node_sets(owner for node in nodes for owner, _, _ in node.pieces)
    for k, members in enumerate(sets):
        for element in members:
            member_of[element] = k
    touched: list[dict[int, None]] = [{} for _ in sets]
    for node in nodes:
        for owner, _, _ in node.pieces:
            for element in inline_chain(owner):
                member = member_of.get(element)
                if member is not None:
                    touched[member].setdefault(node.index, None)
    return [list(indices) for indices in touched if indices]
