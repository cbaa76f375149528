"""Block features of the naive-Bayes paper (Wang et al., CCTA 2013).

Per block: unlinked characters, link ratio (link characters / characters),
punctuation ratio (punctuation marks / characters; the paper's eq. 3 divides by link
characters, which reads as a typo: its bins are percentages of text) and the number of
``<p>`` elements. ``level="block"`` gives every text node its paper block's values;
``level="node"`` computes them on the node alone (its enclosing block's ``<p>`` count).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..dom.groupings import NB_BLOCK_TAGS, nb_block_starts
from ..dom.page import Page
from ..errors import ConfigurationError
from .base import NodeFeatures


class NaiveBayesFeatures(NodeFeatures):
    """``unlinked_chars, link_ratio, punct_ratio, p_count`` per text node."""

    name = "blocks"
    feature_names = ("unlinked_chars", "link_ratio", "punct_ratio", "p_count")

    def __init__(self, level: str = "block", block_tags: tuple[str, ...] = NB_BLOCK_TAGS,
                 merge_siblings: bool = True):
        self.level = level
        self.block_tags = block_tags
        self.merge_siblings = merge_siblings

    def page_features(self, page: Page) -> np.ndarray:
        if self.level not in ("block", "node"):
            raise ConfigurationError(f"level must be 'block' or 'node', not {self.level!r}")
        nodes = page.nodes
        rows = np.zeros((len(nodes), 4))
        groups = [[node.index] for node in nodes] if self.level == "node" else self.blocks(page)
        if groups:
            rows[np.concatenate(groups)] = np.repeat(block_rows(page, groups), list(map(len, groups)), axis=0)
        return rows

    def blocks(self, page: Page) -> list[np.ndarray]:
        """The paper's blocks of ``page`` as arrays of node indices."""
        return page_nb_blocks(page, self.block_tags, self.merge_siblings)


def page_nb_blocks(page: Page, block_tags: tuple[str, ...] = NB_BLOCK_TAGS,
                   merge_siblings: bool = True) -> list[np.ndarray]:
    """:func:`~newsml.dom.groupings.nb_blocks` of ``page``'s nodes, as arrays of node indices,
    found on the page's block tree."""
    starts = nb_block_starts(page.block_tree, page.block_levels, block_tags, merge_siblings)
    return np.split(np.arange(len(page.nodes)), starts[1:]) if len(starts) else []


def page_nb_block_of_nodes(page: Page, block_tags: tuple[str, ...] = NB_BLOCK_TAGS,
                           merge_siblings: bool = True) -> tuple[np.ndarray, int]:
    """Each node's block of :func:`page_nb_blocks` (blocks numbered in document order) and
    the number of blocks: the same blocks without an array per block."""
    starts = nb_block_starts(page.block_tree, page.block_levels, block_tags, merge_siblings)
    first = np.zeros(len(page.nodes), dtype=np.int64)
    first[starts[1:]] = 1
    return np.cumsum(first), len(starts)


def block_rows(page: Page, groups: Sequence[Sequence[int] | np.ndarray]) -> np.ndarray:
    """The four naive-Bayes features of each group of text nodes taken together, one row
    per group (groups do not share nodes).

    The sums are taken for all groups at once. A ``<p>`` counts once per group, also
    when the group's nodes lie in nested blocks: the ``<p>`` under a block are a span of
    the page's ``<p>`` in document order (:attr:`~newsml.dom.nodes.Segmentation.paragraphs`),
    and spans of elements are nested or apart, so a group's count is the length of the
    spans of its blocks that lie in no other of them.
    """
    members = np.concatenate(groups).astype(np.int64) if len(groups) else np.zeros(0, dtype=np.int64)
    owner = np.repeat(np.arange(len(groups)), list(map(len, groups)))
    return member_rows(page, members, owner, len(groups))


def member_rows(page: Page, members: np.ndarray, owner: np.ndarray, n_groups: int) -> np.ndarray:
    """:func:`block_rows` of the groups given as their nodes ``members`` and the group of
    each (``owner``, numbered from 0 to ``n_groups - 1``)."""
    chars_of, links_of = page.char_counts
    chars = np.bincount(owner, weights=chars_of[members], minlength=n_groups)
    links = np.bincount(owner, weights=links_of[members], minlength=n_groups)
    punct = np.bincount(owner, weights=page.punctuation_counts[members], minlength=n_groups)
    p_count = _paragraphs_per_group(page, members, owner, n_groups)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.column_stack([chars - links, np.where(chars > 0, links / chars, 0.0),
                                np.where(chars > 0, punct / chars, 0.0), p_count])


def _paragraphs_per_group(page: Page, members: np.ndarray, owner: np.ndarray, n_groups: int) -> np.ndarray:
    """The ``<p>`` elements under the blocks of each group's nodes, each counted once."""
    spans = page.segmentation.paragraphs
    blocks = page.block_tree.block[members]
    # each group's distinct blocks, by group, then by where their span starts, the outer first
    pair = np.sort(owner * len(spans) + blocks)
    pair = pair[np.concatenate(([True], pair[1:] != pair[:-1]))[:len(pair)]]   # (np.unique imports numpy.ma)
    group, block = pair // len(spans), pair % len(spans)
    start, end = spans[block, 0], spans[block, 1]
    order = np.lexsort((-end, start, group))
    group, start, end = group[order], start[order], end[order]
    # a span ends no later than one before it in its group: it lies inside that one (the
    # group times a bound past every end keeps the running maximum to each group)
    reach = group * (int(end.max(initial=0)) + 1) + end
    inside = np.zeros(len(reach), dtype=bool)
    inside[1:] = reach[1:] <= np.maximum.accumulate(reach)[:-1]
    return np.bincount(group[~inside], weights=(end - start)[~inside], minlength=n_groups)
