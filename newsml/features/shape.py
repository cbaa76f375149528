"""Shape of a text node and of the region around it (newsml's own evidence, not a paper's).

- ``length``: the node's tokens over ``long_node`` tokens, capped at 1;
- ``punct_density``: sentence punctuation per character, scaled so 5% reads as 1;
- ``mass_up2`` / ``mass_up3``: tokens under the block's grandparent / great-grandparent,
  over the page maximum. CEDST's cluster looks one level up only; a site that wraps
  every paragraph in its own ``<div>`` leaves each node alone at that level.
"""

from __future__ import annotations

import numpy as np

from ..dom.page import Page
from .base import NodeFeatures


def ancestor_mass(page: Page, sizes: np.ndarray, levels: int) -> np.ndarray:
    """Tokens under each node's block ancestor ``levels`` up, over the page maximum."""
    if not page.nodes:
        return np.zeros(0)
    parent, groups = page.block_tree.parent, page.block_tree.block
    for _ in range(levels):
        groups = parent[groups]          # the root is its own parent: climbing stops there
    totals = np.bincount(groups, weights=sizes)[groups]
    top = totals.max()
    return totals / top if top > 0 else totals


class ShapeFeatures(NodeFeatures):
    """``length, punct_density, mass_up2, mass_up3`` per text node."""

    name = "shape"
    feature_names = ("length", "punct_density", "mass_up2", "mass_up3")

    def __init__(self, long_node: int = 50, punct_scale: float = 20.0):
        self.long_node = long_node
        self.punct_scale = punct_scale

    def page_features(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        sizes = page.token_counts
        punct = page.punctuation_counts / np.maximum(page.char_counts[0], 1)
        return np.column_stack([
            np.minimum(sizes / self.long_node, 1.0),
            np.minimum(punct * self.punct_scale, 1.0),
            ancestor_mass(page, sizes, 2),
            ancestor_mass(page, sizes, 3),
        ]) if nodes else np.zeros((0, 4))
