"""Block features of the naive-Bayes paper (Wang et al., CCTA 2013).

Per block: unlinked characters, link ratio (link characters / characters),
punctuation ratio (punctuation marks / characters; the paper's eq. 3 divides by link
characters, which reads as a typo: its bins are percentages of text) and the number of
``<p>`` elements. ``level="block"`` gives every text node its paper block's values;
``level="node"`` computes them on the node alone (its enclosing block's ``<p>`` count).
"""

from __future__ import annotations

import numpy as np

from ..errors import ConfigurationError
from ..groupings import NB_BLOCK_TAGS, nb_blocks
from ..page import Page
from ..tags import Element
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

    def blocks(self, page: Page) -> list[list[int]]:
        """The paper's blocks of ``page`` as lists of node indices."""
        return nb_blocks(page.nodes, self.block_tags, self.merge_siblings)


def block_rows(page: Page, groups: list[list[int]]) -> np.ndarray:
    """The four naive-Bayes features of each group of text nodes taken together, one row
    per group (groups do not share nodes).

    The sums are taken for all groups at once; a ``<p>`` counts once per group, also
    when the group's nodes lie in nested blocks, and each block's subtree is walked once.
    """
    nodes = page.nodes
    members = np.concatenate(groups) if groups else np.zeros(0, dtype=np.int64)
    owner = np.repeat(np.arange(len(groups)), list(map(len, groups)))
    per_node = np.array([(node.chars, node.link_chars) for node in nodes], dtype=float).reshape(-1, 2)
    chars = np.bincount(owner, weights=per_node[members, 0], minlength=len(groups))
    links = np.bincount(owner, weights=per_node[members, 1], minlength=len(groups))
    punct = np.bincount(owner, weights=page.punctuation_counts[members], minlength=len(groups))
    paragraphs: dict[Element, frozenset[Element]] = {}   # each block's <p> elements
    p_count = np.zeros(len(groups))
    for k, group in enumerate(groups):
        found: set[Element] = set()
        for block in {nodes[i].block for i in group}:
            under = paragraphs.get(block)
            if under is None:
                under = paragraphs[block] = frozenset(block.iter("p"))
            found |= under
        p_count[k] = len(found)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.column_stack([chars - links, np.where(chars > 0, links / chars, 0.0),
                                np.where(chars > 0, punct / chars, 0.0), p_count])
