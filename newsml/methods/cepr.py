"""CEPR: content extraction via path ratios (Wu, Li, Hu and Wu, CIKM 2013).

Implemented from its published description. Every text node has a tag path. The text
path ratio of a path is the characters of its nodes over their number; the extended
ratio multiplies it by one plus the punctuation per node of that path. Ratios are
smoothed along document order by a Gaussian (``sigma`` nodes) whose weights also fall
with path dissimilarity (here one minus the shared prefix over the longer path, a
linear-time stand-in for the tag-path edit distance). A node is content when its
smoothed ratio exceeds ``tau`` times the standard deviation of the page's ratios.
"""

from __future__ import annotations

import numpy as np

from ..core.text import count_punctuation
from ..dom.page import Page
from .base import NodeMethod


def _path_similarity(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared / max(len(a), len(b), 1)


class Cepr(NodeMethod):
    """CEPR: Gaussian-smoothed extended text path ratios with a deviation threshold."""

    name = "cepr"
    summary = "CEPR baseline: text path ratios, path-aware Gaussian smoothing, deviation threshold"
    search_space = {"sigma": [0.5, 1.0, 2.0], "tau": [0.25, 0.5, 0.75, 1.0, 1.5]}

    def __init__(self, sigma: float = 1.0, tau: float = 1.0):
        self.sigma = sigma
        self.tau = tau

    def score_nodes(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        if not nodes:
            return np.zeros(0)
        totals: dict[tuple[str, ...], list[float]] = {}
        for node in nodes:
            entry = totals.setdefault(node.path, [0.0, 0.0, 0.0])
            entry[0] += node.chars
            entry[1] += count_punctuation(node.text)
            entry[2] += 1
        etpr = np.array([(totals[n.path][0] / totals[n.path][2]) * (1 + totals[n.path][1] / totals[n.path][2])
                         for n in nodes])
        sigma = self.sigma
        radius = max(int(3 * sigma), 1)
        offsets = np.arange(-radius, radius + 1)
        gauss = np.exp(-(offsets ** 2) / (2 * sigma ** 2)) if sigma > 0 else (offsets == 0).astype(float)
        smooth = np.empty(len(nodes))
        for i, node in enumerate(nodes):
            lo, hi = max(0, i - radius), min(len(nodes), i + radius + 1)
            weights = np.array([gauss[j - i + radius] * _path_similarity(node.path, nodes[j].path)
                                for j in range(lo, hi)])
            smooth[i] = weights @ etpr[lo:hi] / weights.sum() if weights.sum() > 0 else etpr[i]
        threshold = self.tau * smooth.std()
        return (smooth > threshold).astype(float) if threshold > 0 else np.ones(len(nodes))
