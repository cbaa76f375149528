"""TWCEM (Tan et al., *Title-Based Extraction of News Contents for Text Mining*, IEEE Access
2018): the title locates the start and the end of the article.

Rows are the page's text nodes (the paper's rows are source lines, which vanish in
minified HTML). Block segmentation (Algorithm 3) keeps rows of at least ``delta1``
characters holding at least ``delta2`` punctuation marks; content recognition
(Algorithm 4) scans the kept rows from the front (from the second row, as the paper
does) for the first whose longest common subsequence with the title reaches ``delta3``
tokens (words, or CJK characters): the start; and from the back for the end. Kept rows
from start to end (inclusive) are the article. Defaults 4 / 1 / 2 are the paper's.
"""

from __future__ import annotations

import numpy as np

from ..core.text import count_punctuation, tokens
from ..dom.page import Page
from .base import NodeMethod


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two token lists."""
    if not a or not b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b, 1):
            current.append(previous[j - 1] + 1 if x == y else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


class Twcem(NodeMethod):
    """TWCEM: title-located start and end over the punctuated rows."""

    name = "twcem"
    summary = "TWCEM: rows between the first and last that share a subsequence with the title"
    search_space = {"delta1": [2, 4, 8, 16], "delta2": [0, 1, 2], "delta3": [1, 2, 3]}

    def __init__(self, delta1: int = 4, delta2: int = 1, delta3: int = 2):
        self.delta1 = delta1
        self.delta2 = delta2
        self.delta3 = delta3

    def score_nodes(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        scores = np.zeros(len(nodes))
        delta1, delta2, delta3 = self.delta1, self.delta2, self.delta3
        rows = [node.index for node in nodes
                if node.chars >= delta1 and count_punctuation(node.text) >= delta2]
        if not rows:
            return scores
        title = tokens(page.title)
        if not title:
            scores[rows] = 1.0
            return scores
        title_set = set(title)

        def matches(i: int) -> bool:
            row_tokens = [t for t in tokens(nodes[rows[i]].text) if t in title_set]  # others cannot match
            return len(row_tokens) >= delta3 and lcs_length(row_tokens, title) >= delta3

        half = len(rows) // 2
        # Algorithm 4: front rows 1 <= i < L/2, back rows L-1 >= i > L/2 (L/2 may be fractional)
        start = next((i for i in range(1, (len(rows) + 1) // 2) if matches(i)), 0)
        end = next((i for i in range(len(rows) - 1, half, -1) if matches(i)), len(rows) - 1)
        if end < start:
            start, end = 0, len(rows) - 1
        scores[rows[start:end + 1]] = 1.0
        return scores
