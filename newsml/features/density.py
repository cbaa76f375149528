"""Text density of a node's container (newsml's own evidence, after Kohlschütter's and
CETD's densities): how much text the container holds per text node, and how much of
it is link text.

- ``container_density``: non-space characters per text node under the block's parent,
  squashed into [0, 1] as d / (d + ``half_density``);
- ``container_links``: the share of those characters inside ``<a>``.

An article's container holds long paragraphs with few links; a menu or a teaser list
holds short entries that are mostly links.
"""

from __future__ import annotations

import numpy as np

from ..dom.page import Page
from .base import NodeFeatures


class TextDensityFeatures(NodeFeatures):
    """``container_density, container_links`` per text node."""

    name = "density"
    feature_names = ("container_density", "container_links")

    def __init__(self, half_density: float = 80.0):
        self.half_density = half_density

    def page_features(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        if not nodes:
            return np.zeros((0, 2))
        tree = page.block_tree
        chars, links, count = page.tree_totals
        container = tree.parent[tree.block]
        density = chars[container] / count[container]
        return np.column_stack([density / (density + self.half_density),
                                links[container] / np.maximum(chars[container], 1.0)])
