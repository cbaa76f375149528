"""Non-content features of CEDST (eq. 8-10 of cedst-ds-theory-topics.txt).

``size(t)`` counts scoring tokens (a Latin word, or one CJK character): the paper
counts words, and counting CJK characters instead keeps jieba off this path (DESIGN.md:
words only where words matter). Siblings are text nodes whose blocks share a parent
(:attr:`newsml.nodes.TextNode.group`).

- text cluster (eq. 8, positive): tokens of a node and its siblings, over the page max;
- text variance (eq. 9, positive): variance of sibling lengths, over the page max;
- hyperlink (eq. 10, negative): the share of the node's text inside links (characters).
"""

from __future__ import annotations

import numpy as np

from ..parse import Document
from .base import NodeFeatures


def _sizes_and_groups(doc: Document) -> tuple[np.ndarray, np.ndarray]:
    nodes = doc.nodes
    sizes = np.fromiter((node.n_tokens for node in nodes), dtype=float, count=len(nodes))
    groups = np.fromiter((node.group for node in nodes), dtype=np.int64, count=len(nodes))
    return sizes, groups


def _normalized(values: np.ndarray) -> np.ndarray:
    top = values.max() if values.size else 0.0
    return values / top if top > 0 else np.zeros_like(values)


class TextClusterFeature(NodeFeatures):
    """h_cluster (eq. 8): how much text the node's sibling group holds, page-normalized."""

    feature_names = ("text_cluster",)

    def page_features(self, doc: Document) -> np.ndarray:
        sizes, groups = _sizes_and_groups(doc)
        if not sizes.size:
            return np.zeros((0, 1))
        totals = np.bincount(groups, weights=sizes)
        return _normalized(totals[groups]).reshape(-1, 1)


class TextVarianceFeature(NodeFeatures):
    """h_var (eq. 9): variance of the lengths in the node's sibling group, page-normalized."""

    feature_names = ("text_variance",)

    def page_features(self, doc: Document) -> np.ndarray:
        sizes, groups = _sizes_and_groups(doc)
        if not sizes.size:
            return np.zeros((0, 1))
        counts = np.bincount(groups)
        means = np.bincount(groups, weights=sizes) / counts
        variances = np.bincount(groups, weights=sizes ** 2) / counts - means ** 2
        return _normalized(np.maximum(variances, 0.0)[groups]).reshape(-1, 1)


class HyperlinkFeature(NodeFeatures):
    """h_href (eq. 10): share of the node's text inside ``<a>`` (negative evidence)."""

    feature_names = ("link_ratio",)

    def page_features(self, doc: Document) -> np.ndarray:
        return np.array([[node.link_ratio] for node in doc.nodes]).reshape(-1, 1)
