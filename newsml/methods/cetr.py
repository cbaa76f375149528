"""CETR: content extraction via tag ratios (Weninger, Hsu and Han, WWW 2010).

Implemented from its published description (the comparison row of the papers'
tables). The page source, without scripts, styles and comments, is cut into lines;
each line's tag ratio is its text characters over its tags (at least 1). Ratios are
Gaussian-smoothed along the lines; each line's derivative is the distance of its
smoothed ratio from the mean of the next ``alpha`` lines. Lines are clustered in 2-D
(smoothed ratio, smoothed derivative) by k-means into ``k`` clusters, and the cluster
whose centre is nearest the origin is the noise (CETR-KM). A text node belongs to the
line its text starts on.
"""

from __future__ import annotations

import re

import numpy as np

from ..core.signal import gaussian_smooth
from ..core.text import visible_chars
from ..dom.page import Page
from .base import NodeMethod

_INVISIBLE_RE = re.compile(r"(?is)<script\b.*?</script\s*>|<style\b.*?</style\s*>|<!--.*?-->")
_TAG_RE = re.compile(r"<[^>]*>")


def line_ratios(source: str) -> np.ndarray:
    """Tag ratio of each source line (1-based lines at index line - 1)."""
    cleaned = _INVISIBLE_RE.sub(lambda m: "\n" * m.group(0).count("\n"), source)
    ratios = []
    for line in cleaned.split("\n"):
        tags = len(_TAG_RE.findall(line))
        chars = visible_chars(_TAG_RE.sub("", line))
        ratios.append(chars / max(tags, 1))
    return np.asarray(ratios, dtype=float)


class Cetr(NodeMethod):
    """CETR-KM over source lines."""

    name = "cetr"
    summary = "CETR baseline: text-to-tag ratio of source lines, smoothed, 2-D k-means"
    search_space = {"sigma": [0.5, 1.0, 2.0], "k": [2, 3, 4]}

    def __init__(self, sigma: float = 1.0, alpha: int = 3, k: int = 3):
        self.sigma = sigma
        self.alpha = alpha
        self.k = k

    def score_nodes(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        scores = np.zeros(len(nodes))
        ratios = line_ratios(page.source)
        if not nodes or ratios.size < 2:
            return np.ones(len(nodes))
        smooth = gaussian_smooth(ratios, self.sigma)
        alpha = max(int(self.alpha), 1)
        padded = np.concatenate([smooth, np.full(alpha, smooth[-1])])
        ahead = np.convolve(padded, np.ones(alpha) / alpha, mode="valid")[1:len(smooth) + 1]
        derivative = gaussian_smooth(np.abs(ahead - smooth), self.sigma)
        content = _content_lines(np.column_stack([smooth, derivative]), int(self.k))
        for node in nodes:
            line = min(max(node.line, 1), len(content)) - 1
            scores[node.index] = float(content[line])
        return scores


def _content_lines(points: np.ndarray, k: int) -> np.ndarray:
    """k-means on the lines; the cluster nearest the origin is noise."""
    from sklearn.cluster import KMeans

    distinct = len(np.unique(points, axis=0))
    if distinct < 2:
        return points[:, 0] > 0
    k = min(k, distinct)
    model = KMeans(n_clusters=k, n_init=3, random_state=0).fit(points)
    noise = int(np.argmin(np.linalg.norm(model.cluster_centers_, axis=1)))
    return model.labels_ != noise
