"""Non-content features of CEDST (eq. 8-10 of Zhang et al., *Automatic Web News Extraction
Based on DS Theory Considering Content Topics*, ICCS 2018).

``size(t)`` counts scoring tokens (a Latin word, or one CJK character): the paper
counts words, and counting CJK characters instead keeps jieba off this path (words only
where words matter: segmentation is the slowest step of a Chinese page). Siblings are
text nodes whose blocks share a parent (:attr:`newsml.dom.nodes.TextNode.group`).

- text cluster (eq. 8, positive): tokens of a node and its siblings, over the page max;
- text variance (eq. 9, positive): variance of sibling lengths, over the page max;
- hyperlink (eq. 10, negative): the share of the node's text inside links (characters).
"""

from __future__ import annotations

import numpy as np

from ..dom.page import Page
from .base import NodeFeatures


def _sizes_and_groups(page: Page) -> tuple[np.ndarray, np.ndarray]:
    nodes = page.nodes
    sizes = page.token_counts
    groups = np.fromiter((node.group for node in nodes), dtype=np.int64, count=len(nodes))
    return sizes, groups


def _normalized(values: np.ndarray) -> np.ndarray:
    top = values.max() if values.size else 0.0
    return values / top if top > 0 else np.zeros_like(values)


class TextClusterFeature(NodeFeatures):
    """h_cluster (eq. 8): how much text the node's sibling group holds, page-normalized."""

    name = "cluster"
    feature_names = ("text_cluster",)
    polarity = 1

    def page_features(self, page: Page) -> np.ndarray:
        sizes, groups = _sizes_and_groups(page)
        if not sizes.size:
            return np.zeros((0, 1))
        totals = np.bincount(groups, weights=sizes)
        return _normalized(totals[groups]).reshape(-1, 1)


class TextVarianceFeature(NodeFeatures):
    """h_var (eq. 9): variance of the lengths in the node's sibling group, page-normalized."""

    name = "variance"
    feature_names = ("text_variance",)
    polarity = 1

    def page_features(self, page: Page) -> np.ndarray:
        sizes, groups = _sizes_and_groups(page)
        if not sizes.size:
            return np.zeros((0, 1))
        counts = np.bincount(groups)
        means = np.bincount(groups, weights=sizes) / counts
        variances = np.bincount(groups, weights=sizes ** 2) / counts - means ** 2
        return _normalized(np.maximum(variances, 0.0)[groups]).reshape(-1, 1)


class HyperlinkFeature(NodeFeatures):
    """h_href (eq. 10): share of the node's text inside ``<a>`` (negative evidence)."""

    name = "href"
    feature_names = ("link_ratio",)
    polarity = -1

    def page_features(self, page: Page) -> np.ndarray:
        chars, links = page.char_counts     # (a node has visible characters: never 0 of them)
        return (links / np.maximum(chars, 1)).reshape(-1, 1)
