"""Statistics of a node's containers at several levels (newsml's own evidence).

For the block's parent, grandparent and great-grandparent (``levels``), each:

- ``share``: the page's tokens under that element;
- ``links``: the share of its characters inside ``<a>``;
- ``nodes``: the text nodes under it, squashed as n / (n + 10);
- ``branches``: its children that hold text, squashed as b / (b + 5).

An article container holds much of the page in few, long, unlinked branches; a menu,
a teaser list or a comment thread holds many short ones.
"""

from __future__ import annotations

import numpy as np

from ..dom.page import Page
from .base import NodeFeatures

_STATS = ("share", "links", "nodes", "branches")


class AncestorFeatures(NodeFeatures):
    """Four statistics of each of the block's three nearest ancestors."""

    name = "ancestors"
    feature_names = tuple(f"up{level}_{stat}" for level in (1, 2, 3) for stat in _STATS)

    def page_features(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        if not nodes:
            return np.zeros((0, len(self.feature_names)))
        tree = page.block_tree
        tokens = tree.subtree_sums(page.token_counts, page.block_levels)
        chars, links, count = page.tree_totals
        not_root = tree.parent != np.arange(len(tree.parent))
        branches = np.bincount(tree.parent[not_root], minlength=len(tree.parent)).astype(float)
        total = max(float(page.token_counts.sum()), 1.0)
        # (written column by column into the result: not twelve columns, then a copy of them)
        out = np.empty((len(nodes), len(self.feature_names)))
        ancestor = tree.block
        for level in range(3):
            ancestor = tree.parent[ancestor]
            out[:, 4 * level] = tokens[ancestor] / total
            out[:, 4 * level + 1] = links[ancestor] / np.maximum(chars[ancestor], 1.0)
            out[:, 4 * level + 2] = count[ancestor] / (count[ancestor] + 10.0)
            out[:, 4 * level + 3] = branches[ancestor] / (branches[ancestor] + 5.0)
        return out
