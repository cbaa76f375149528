"""ECON (Guo et al., APWeb 2010): snippet-node, backtracking to the summary-node.

Paper: *ECON: An Approach to Extract Content from Web News Page*. Steps, as implemented:

1. *Big-nodes* are elements that hold text directly, plus elements with the tags that
   break news text into pieces (:data:`newsml.dom.groupings.BIG_TAGS`: paragraphs, headings, line breaks and
   inline formatting).
2. *Joint-para*: adjacent big-node siblings form a *text-node-set*; its *text-para* is
   the text the set wraps: the members' own text, that of their inline descendants,
   and the text between and after them (their tails). A set whose text-para has no
   period or comma (Latin or CJK) is noise and its members' text is pruned. Counting
   the tails is what lets Joint-para merge a pieces-page: ``<a>the mayor</a> said.``
   is one piece of a sentence, while a menu link alone in its ``<li>`` is noise.
3. The *snippet-node* is a node of the set with the longest text-para (the paper picks
   one at random; here the member holding the most text, so results repeat).
4. Backtracking from the snippet-node to its parent, grandparent...: the distance is
   the parent's punctuation count minus the child's; the first distance of 0 makes
   the child the *summary-node*.
5. The article is the text under the summary-node, less the pruned sets. A text node's
   score is the share of its characters kept, so a paragraph keeps an inline link
   whose own set was pruned.

Where no text-para has a period or comma at all (the paper's short pages), the
longest set is used anyway (``fallback=True``), so a page yields its likeliest text
rather than nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from lxml import etree

from ..core.tags import Element
from ..core.text import has_period_comma, periods_commas_each, visible_chars
from ..dom.groupings import BIG_TAGS, inline_chain, ranked_big_node_sets
from ..dom.nodes import Pieces
from ..dom.page import Page
from .base import NodeMethod


class Econ(NodeMethod):
    """ECON: the subtree of the summary-node found by punctuation-count backtracking."""

    name = "econ"
    summary = "ECON: snippet-node from the longest text-para, backtracking by punctuation count"

    def __init__(self, big_tags: frozenset[str] = BIG_TAGS, fallback: bool = True):
        self.big_tags = big_tags
        self.fallback = fallback

    def score_nodes(self, page: Page) -> np.ndarray:
        nodes, pieces = page.nodes, page.pieces
        scores = np.zeros(len(nodes))
        if not nodes:
            return scores
        paras = _text_paras(pieces)
        number, chars, puncs = paras.number, paras.chars, paras.puncs
        sets = ranked_big_node_sets(paras.holders, self.big_tags)
        pruned: set[Element] = set()
        best: list[Element] | None = None
        best_len = fallback_len = -1
        fallback: list[Element] | None = None
        for members in sets:
            length = punc = 0
            tails = ""
            for member in members:
                k = number.get(member)
                if k is not None:
                    length += chars[k]
                    punc += puncs[k]
                tail = member.tail
                if tail:
                    tails += tail
            if tails:
                length += visible_chars(tails)
                if not punc:        # only whether the text-para has any matters
                    punc = has_period_comma(tails)
            if not punc:
                pruned.update(members)
                if length > fallback_len:
                    fallback, fallback_len = members, length
            elif length > best_len:
                best, best_len = members, length
        if best is None:
            if not self.fallback:
                return scores
            best, pruned = fallback, set()
        if not best:
            return scores
        snippet = max(best, key=lambda m: chars[number[m]] if m in number else 0)
        summary = _summary_node(snippet)
        # a text holder's pieces are kept when it lies under the summary-node and no set
        # along its chain was pruned (the subtree is walked, not kept as a set)
        holders, chains = paras.holders, paras.chains
        kept = np.zeros(len(holders), dtype=bool)
        for element in summary.iter():
            found = holders.get(element)
            if found is not None:
                chain = chains.get(element)
                kept[found] = pruned.isdisjoint(chain) if chain is not None else element not in pruned
        kept_chars = np.bincount(pieces.node, weights=pieces.chars * kept[paras.holder], minlength=len(nodes))
        return kept_chars / page.char_counts[0]


class TextParas(NamedTuple):
    """Visible characters and periods/commas of the text-para of every element that holds
    text or is an inline ancestor of one: ``chars[number[e]]`` and ``puncs[number[e]]``.

    ``holders`` are the elements that hold text (the pieces' owners), each with its number
    (in the document order of their first piece); ``holder[k]`` is the number of piece k's
    owner; ``chains`` holds the
    :func:`~newsml.dom.groupings.inline_chain` of those whose chain goes past themselves (an
    inline element with a parent); any other holder's chain is itself alone.
    """

    number: dict[Element, int]
    chars: list[int]
    puncs: list[int]
    holders: dict[Element, int]
    holder: list[int]
    chains: dict[Element, list[Element]]


def _text_paras(pieces: Pieces) -> TextParas:
    """The :class:`TextParas` of a page's pieces.

    The pieces' periods and commas are counted for all of them at once; each holder's
    totals come first, then are added along its chain once (integer sums: the same counts
    as adding piece by piece, without walking a chain per piece).
    """
    if not pieces.owners:
        return TextParas({}, [], [], {}, [], {})
    number: dict[Element, int] = {}           # the holders first, then the rest of their chains
    holder = [number.setdefault(owner, len(number)) for owner in pieces.owners]
    holders = number.copy()
    owned_chars = np.bincount(holder, weights=pieces.chars).astype(np.int64)
    owned_puncs = np.bincount(holder, weights=periods_commas_each(pieces.texts)).astype(np.int64)
    chains = {owner: chain for owner in holders if len(chain := inline_chain(owner)) > 1}
    # each holder adds its totals to itself and to the rest of its chain
    rest_of_chains = np.repeat([number[owner] for owner in chains], [len(c) - 1 for c in chains.values()])
    whose = np.concatenate([np.arange(len(holders)), rest_of_chains.astype(np.int64)])
    along = [*range(len(holders)),
             *(number.setdefault(element, len(number)) for chain in chains.values() for element in chain[1:])]
    chars = np.bincount(along, weights=owned_chars[whose]).astype(np.int64).tolist()
    puncs = np.bincount(along, weights=owned_puncs[whose]).astype(np.int64).tolist()
    return TextParas(number, chars, puncs, holders, holder, chains)


def _summary_node(snippet: Element) -> Element:
    """Backtrack from the snippet-node until the punctuation distance is first 0.

    The distance is what the parent adds to the child's count (its own text, its
    children's tails and the other children's subtrees); only whether it is 0 matters,
    so each step stops reading at the first period or comma it meets: on an article the
    walk reads a few neighbours per level, and at worst each element once.
    """
    child = snippet
    while True:
        parent = child.getparent()
        if parent is None or not _adds_periods_commas(parent, child):
            return child
        child = parent


def _adds_periods_commas(parent: Element, child: Element) -> bool:
    """Whether ``parent`` holds a period or comma outside ``child``'s subtree."""
    if has_period_comma(parent.text or ""):
        return True
    for sibling in parent:
        if has_period_comma(sibling.tail or ""):
            return True
        if sibling is not child and has_period_comma(
                etree.tostring(sibling, method="text", encoding=str, with_tail=False)):
            return True
    return False
