"""CETD: content extraction via text density (Sun, Song and Liao, SIGIR 2011).

Implemented from its published description. For every element: characters C, tags T
(elements in its subtree), link characters LC and link tags LT. Composite text density

    CTD = (C / T) * log_{ln(C / nLC * LC + LC_b / C_b * C + e)} (C / LC * T / LT)

(nLC = C - LC, b = body; zero counts taken as 1). DensitySum of an element is the sum
of its children's CTD; the element with the largest DensitySum holds the content, and
inside it a text node is content when its block's CTD reaches ``threshold`` times the
body's CTD (the paper's threshold is the body's density itself: 1.0).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.tags import is_link
from ..core.text import visible_chars
from ..dom.page import Page
from .base import NodeMethod


class Cetd(NodeMethod):
    """CETD: the max-DensitySum subtree, filtered by composite text density."""

    name = "cetd"
    summary = "CETD baseline: composite text density and DensitySum"
    search_space = {"threshold": [0.25, 0.5, 0.75, 1.0, 1.5]}

    def __init__(self, threshold: float = 1.0):
        self.threshold = threshold

    def score_nodes(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        scores = np.zeros(len(nodes))
        if not nodes:
            return scores
        body = page.root.find("body")
        body = body if body is not None else page.root
        elements = [e for e in body.iter() if isinstance(e.tag, str)]
        links = {e for e in elements if e.tag == "a" and is_link(e)}   # hyperlinks, not named anchors
        stats = {e: [0.0, 1.0, 0.0, 1.0 if e in links else 0.0] for e in elements}  # C, T, LC, LT
        for element in elements:
            own = visible_chars(element.text or "")
            own += sum(visible_chars(child.tail or "") for child in element)
            stats[element][0] += own
        for element in reversed(elements):  # children before parents
            c, t, lc, lt = stats[element]
            if element in links:
                lc = c
                stats[element][2] = c
            parent = element.getparent()
            if parent in stats and element is not body:
                totals = stats[parent]
                totals[0] += c
                totals[1] += t
                totals[2] += lc
                totals[3] += lt
        body_c, _, body_lc, _ = stats[body]
        ctd = {e: _ctd(stats[e], body_c, body_lc) for e in elements}
        density_sum = {e: sum(ctd.get(child, 0.0) for child in e) for e in elements}
        main = max(elements, key=lambda e: density_sum[e])
        inside = set(main.iter())
        bar = self.threshold * ctd[body]
        for node in nodes:
            if node.block in inside and ctd.get(node.block, 0.0) >= bar:
                scores[node.index] = 1.0
        return scores


def _ctd(counts: list[float], body_c: float, body_lc: float) -> float:
    c, t, lc, lt = counts
    if c <= 0:
        return 0.0
    lc1, lt1, nlc = max(lc, 1.0), max(lt, 1.0), max(c - lc, 1.0)
    base = math.log(c / nlc * lc1 + (body_lc / max(body_c, 1.0)) * c + math.e)
    value = (c / lc1) * (t / lt1)
    if base <= 1.0 or value <= 0:  # log base must exceed 1; fall back to plain density
        return c / t
    return (c / t) * math.log(value) / math.log(base)
