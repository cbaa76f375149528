"""ECON (Guo et al., APWeb 2010): snippet-node, backtracking to the summary-node.

Paper: *ECON: An Approach to Extract Content from Web News Page*. Steps, as implemented:

1. *Big-nodes* are elements that hold text directly, plus elements with the tags that
   break news text into pieces (:data:`newsml.groupings.BIG_TAGS`: paragraphs, headings, line breaks and
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

import numpy as np
from lxml import etree

from ..groupings import BIG_TAGS, big_node_sets, inline_chain
from ..nodes import TextNode
from ..page import Page
from ..tags import Element
from ..text import count_periods_commas, periods_commas_each, visible_chars
from .base import NodeMethod


class Econ(NodeMethod):
    """ECON: the subtree of the summary-node found by punctuation-count backtracking."""

    name = "econ"
    summary = "ECON: snippet-node from the longest text-para, backtracking by punctuation count"

    def __init__(self, big_tags: frozenset[str] = BIG_TAGS, fallback: bool = True):
        self.big_tags = big_tags
        self.fallback = fallback

    def score_nodes(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        scores = np.zeros(len(nodes))
        if not nodes:
            return scores
        chars, puncs, chain_of = _inline_totals(nodes)
        sets = big_node_sets((owner for node in nodes for owner, _, _ in node.pieces), self.big_tags)
        pruned: set[Element] = set()
        best: list[Element] | None = None
        best_len = fallback_len = -1
        fallback: list[Element] | None = None
        for members in sets:
            length = punc = 0
            tails = ""
            for member in members:
                n_chars = chars.get(member)
                if n_chars is not None:
                    length += n_chars
                    punc += puncs[member]
                tail = member.tail
                if tail:
                    tails += tail
            if tails:
                length += visible_chars(tails)
                if not punc:        # only whether the text-para has any matters
                    punc = count_periods_commas(tails)
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
        snippet = max(best, key=lambda m: chars.get(m, 0))
        summary = _summary_node(snippet)
        inside = set(summary.iter())
        # a text holder's pieces are kept when it lies under the summary-node and no set
        # along its chain was pruned
        kept_owner = {owner: owner in inside and pruned.isdisjoint(chain)
                      for owner, chain in chain_of.items()}
        for node in nodes:
            kept = 0
            for owner, _, n_chars in node.pieces:
                if kept_owner[owner]:
                    kept += n_chars
            scores[node.index] = kept / node.chars
        return scores


def _inline_totals(nodes: list[TextNode]) -> tuple[dict[Element, int], dict[Element, int],
                                                   dict[Element, list[Element]]]:
    """Visible characters and periods/commas in the text-para of every element that holds
    text or is an inline ancestor of one (:func:`~newsml.groupings.inline_chain`), and
    each text holder's chain.

    The pieces' periods and commas are counted for all of them at once; each holder's
    totals come first, then are added along its chain once (integer sums: the same counts
    as adding piece by piece, without walking a chain per piece).
    """
    pieces = [piece for node in nodes for piece in node.pieces]
    if not pieces:
        return {}, {}, {}
    owners, texts, visible = zip(*pieces)
    numbers: dict[Element, int] = {}          # the holders first, then the rest of their chains
    holder = [numbers.setdefault(owner, len(numbers)) for owner in owners]
    owned_chars = np.bincount(holder, weights=visible).astype(np.int64)
    owned_puncs = np.bincount(holder, weights=periods_commas_each(list(texts))).astype(np.int64)
    chain_of = {owner: inline_chain(owner) for owner in numbers}
    along = [numbers.setdefault(element, len(numbers)) for chain in chain_of.values() for element in chain]
    whose = np.repeat(np.arange(len(chain_of)), [len(chain) for chain in chain_of.values()])
    chars = np.bincount(along, weights=owned_chars[whose]).astype(np.int64).tolist()
    puncs = np.bincount(along, weights=owned_puncs[whose]).astype(np.int64).tolist()
    return dict(zip(numbers, chars)), dict(zip(numbers, puncs)), chain_of


def _summary_node(snippet: Element) -> Element:
    """Backtrack from the snippet-node until the punctuation distance is first 0.

    Each step counts only what the parent adds (its own text, its children's tails and
    the other children's subtrees), so the walk is linear in the page, not in depth x size.
    """
    child = snippet
    child_punc = _subtree_punc(child)
    while True:
        parent = child.getparent()
        if parent is None:
            return child
        added = count_periods_commas(parent.text or "")
        for sibling in parent:
            added += count_periods_commas(sibling.tail or "")
            if sibling is not child:
                added += _subtree_punc(sibling)
        if added == 0:
            return child
        child, child_punc = parent, child_punc + added


def _subtree_punc(element: Element) -> int:
    """Periods and commas in all the text under ``element`` (its node-punc-num)."""
    return count_periods_commas(etree.tostring(element, method="text", encoding=str, with_tail=False))
