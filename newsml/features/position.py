"""Where a node sits: in the page, and relative to the headline (newsml's own evidence).

- ``offset``: the page's tokens before the node, as a share of all its tokens;
- ``after_title``: 1 after the headline's node, 0 before it and on it, 0.5 when no node
  holds the headline (:attr:`newsml.dom.page.Page.title`);
- ``title_distance``: nodes between the node and the headline, squashed as
  d / (d + 10) (1 when there is no headline node);
- ``is_title``: 1 on the headline's node.

Banners, site headers and teasers sit above the headline; the article follows it.
"""

from __future__ import annotations

import numpy as np

from ..dom.page import Page
from .base import NodeFeatures


def title_node(page: Page) -> int | None:
    """Index of the first node whose text is the headline (:attr:`Page.headline_node`)."""
    return page.headline_node


class PositionFeatures(NodeFeatures):
    """``offset, after_title, title_distance, is_title`` per text node."""

    name = "position"
    feature_names = ("offset", "after_title", "title_distance", "is_title")

    def page_features(self, page: Page) -> np.ndarray:
        n = len(page.nodes)
        if not n:
            return np.zeros((0, 4))
        counts = page.token_counts
        before = np.cumsum(counts) - counts
        offset = before / max(float(counts.sum()), 1.0)
        found = title_node(page)
        index = np.arange(n)
        if found is None:
            return np.column_stack([offset, np.full(n, 0.5), np.ones(n), np.zeros(n)])
        distance = np.abs(index - found).astype(float)
        return np.column_stack([offset, (index > found).astype(float), distance / (distance + 10.0),
                                (index == found).astype(float)])
