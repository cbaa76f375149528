"""The papers' coarser units, as groupings of text nodes.

Every method answers per text node; these functions say which text nodes form one
unit of a paper, so a unit-level decision maps back onto its nodes.

- :func:`nb_blocks`: the naive-Bayes paper's bottom-up blocks: each text climbs to its
  nearest ``table``/``td``/``tr``/``div`` ancestor; consecutive blocks whose elements
  are siblings are merged.
- :func:`text_node_sets`: ECON's text-node-sets: maximal runs of adjacent sibling
  big-nodes (elements that hold text, or carry a tag that breaks text into pieces).
- :class:`RecordRuns`: runs of alike records (one tag and class repeated under one
  parent: comments, forum replies, teaser lists), read by the thread features and by
  the rule that leaves dated threads out of an article.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter

import numpy as np

from ..core.tags import BLOCK_TAGS, Element, normal_class
from .nodes import BlockTree, Pieces, TextNode, block_tree

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
    :meth:`~newsml.dom.nodes.BlockTree.levels`): a block is a run of consecutive nodes, so its
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
    stops = np.fromiter(map(tags.__contains__, tree.tags), dtype=bool, count=len(tree.tags))
    # (the root climbs nowhere: it stays itself)
    element = tree.inherited(np.arange(len(parent), dtype=np.int64), stops, levels)[tree.block]
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
    return ranked_big_node_sets({owner: i for i, owner in enumerate(dict.fromkeys(owners))}, big_tags)


def ranked_big_node_sets(rank: Mapping[Element, int],
                         big_tags: Iterable[str] = BIG_TAGS) -> list[list[Element]]:
    """:func:`big_node_sets` of the elements that hold text, the keys of ``rank``: each with
    its rank in document order (0, 1, 2...), and met in that order when ``rank`` is iterated
    (ties between sets without text follow it)."""
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


def text_node_sets(pieces: Pieces) -> list[list[int]]:
    """Per ECON text-node-set that holds text, the indices of the text nodes it touches
    (``pieces``: a page's, see :class:`~newsml.dom.nodes.Pieces`)."""
    member_of: dict[Element, int] = {}
    sets = big_node_sets(pieces.owners)
    for k, members in enumerate(sets):
        for element in members:
            member_of[element] = k
    touched: list[dict[int, None]] = [{} for _ in sets]
    for owner, node in zip(pieces.owners, pieces.node.tolist()):
        for element in inline_chain(owner):
            member = member_of.get(element)
            if member is not None:
                touched[member].setdefault(node, None)
    return [list(indices) for indices in touched if indices]


#: Containers that can be a record of a thread (paragraphs and cells repeat too, inside
#: one article or one row, and are not records).
RECORD_TAGS = frozenset({"div", "li", "tr", "table", "article", "section", "dl", "dd", "ul", "ol",
                         "form", "aside", "blockquote"})
#: How far above a node's block its record is looked for.
MAX_LEVELS = 6
#: Alike siblings (the record included) that make a run of records.
MIN_RECORDS = 3

#: A record: the element, its parent, its rank among its alike siblings, their number,
#: their signature.
Record = tuple[Element, Element, int, int, tuple[str, str]]
#: Per parent: how many children carry each signature, and each child's rank and signature.
Run = tuple[Counter[tuple[str, str]], dict[Element, tuple[int, tuple[str, str]]]]


def signature(element: Element) -> tuple[str, str]:
    """An element's tag and class, the mark that list items of one kind share."""
    return str(element.tag), normal_class(element.get("class"))


class RecordRuns:
    """Per parent, its record-tag children's signatures counted and each child's rank among
    the alike ones, worked out once per parent; per element, whether it is a record."""

    def __init__(self) -> None:
        self._by_parent: dict[Element, Run] = {}
        self._records: dict[Element, Record | None] = {}
        self._members: dict[Element, dict[tuple[str, str], list[Element]]] = {}

    def members(self, parent: Element, mark: tuple[str, str]) -> list[Element]:
        """The children of ``parent`` with signature ``mark`` (a run's records), in order;
        grouped by signature once per parent, so reading every run of a parent is linear."""
        by_mark = self._members.get(parent)
        if by_mark is None:
            by_mark = self._members[parent] = {}
            for child, (_, its_mark) in self.of(parent)[1].items():
                by_mark.setdefault(its_mark, []).append(child)
        return by_mark.get(mark, [])

    def of(self, parent: Element) -> Run:
        found = self._by_parent.get(parent)
        if found is None:
            counts: Counter[tuple[str, str]] = Counter()
            ranks: dict[Element, tuple[int, tuple[str, str]]] = {}
            # only record tags are asked for, and a signature holds the tag
            for child in parent.iterchildren(*RECORD_TAGS):
                mark = signature(child)
                ranks[child] = counts[mark], mark
                counts[mark] += 1
            found = self._by_parent[parent] = (counts, ranks)
        return found

    def record(self, block: Element) -> Record | None:
        """The nearest record around ``block``, or None."""
        element = block
        for _ in range(MAX_LEVELS + 1):
            parent = element.getparent()
            if parent is None:
                return None
            if element.tag in RECORD_TAGS:
                if element in self._records:
                    found = self._records[element]
                else:
                    counts, ranks = self.of(parent)
                    rank, mark = ranks[element]
                    count = counts[mark]
                    found = (element, parent, rank, count, mark) if count >= MIN_RECORDS else None
                    self._records[element] = found
                if found is not None:
                    return found
            element = parent
        return None
