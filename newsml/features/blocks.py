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
from ..text import count_punctuation
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
        paragraphs: dict[Element, frozenset[Element]] = {}
        for group in groups:
            rows[group] = block_row(page, group, paragraphs)
        return rows

    def blocks(self, page: Page) -> list[list[int]]:
        """The paper's blocks of ``page`` as lists of node indices."""
        return nb_blocks(page.nodes, self.block_tags, self.merge_siblings)


def block_row(page: Page, group: list[int],
              paragraphs: dict[Element, frozenset[Element]] | None = None) -> np.ndarray:
    """The four naive-Bayes features of the text nodes in ``group`` taken together.

    ``paragraphs`` memoizes each block's ``<p>`` elements across calls on one page:
    many nodes share a block, and a block's subtree is walked only once.
    """
    nodes = page.nodes
    chars = sum(nodes[i].chars for i in group)
    links = sum(nodes[i].link_chars for i in group)
    punct = sum(count_punctuation(nodes[i].text) for i in group)
    memo = {} if paragraphs is None else paragraphs
    found: set[Element] = set()
    for block in {nodes[i].block for i in group}:
        if block not in memo:
            memo[block] = frozenset(block.iter("p"))
        found |= memo[block]
    p_count = len(found)
    return np.array([chars - links, links / chars if chars else 0.0,
                     punct / chars if chars else 0.0, p_count])
