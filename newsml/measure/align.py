"""Gold alignment: label each text node content (1) or noise (0) from a page's gold text.

Rule: the page's tokens (all text nodes, in document order) are aligned to the gold's
tokens, so a token counts only where it falls *in order* inside the gold. A node is
content when at least ``min_share`` of its tokens are aligned. Order matters: a "Share"
link or a headline repeated in a sidebar does not become content just because the same
words occur somewhere in the article.

The alignment is patience-style: runs of ``ANCHOR`` tokens that occur exactly once in
the page and once in the gold are chained by a longest increasing subsequence, and
``difflib.SequenceMatcher`` aligns only the short stretches between anchors. Plain
difflib on a whole long page is quadratic in practice; its ``autojunk`` shortcut is fast
but drops real matches on short golds.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

import numpy as np

from ..core.text import join_paragraphs, tokens
from ..dom.nodes import TextNode
from .scoring import Score, score

#: Share of a node's tokens that must align with the gold for the node to be content.
MIN_SHARE = 0.5
#: Length of the token runs used as anchors.
ANCHOR = 8


def matching_pairs(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int, int]]:
    """Blocks ``(i, j, size)`` with ``a[i:i+size] == b[j:j+size]``, increasing in i and j."""
    anchors = _unique_anchors(a, b)
    blocks: list[tuple[int, int, int]] = []
    ai = bj = 0
    for i, j in anchors + [(len(a), len(b))]:
        if i < ai or j < bj:  # overlaps the previous anchor's run: already covered
            continue
        while i > ai and j > bj and a[i - 1] == b[j - 1]:  # grow the anchor backwards
            i, j = i - 1, j - 1
        if i > ai and j > bj:
            matcher = SequenceMatcher(None, a[ai:i], b[bj:j], autojunk=False)
            blocks.extend((ai + x, bj + y, n) for x, y, n in matcher.get_matching_blocks() if n)
        size = 0
        while i + size < len(a) and j + size < len(b) and a[i + size] == b[j + size]:
            size += 1
        if size:
            blocks.append((i, j, size))
        ai, bj = i + size, j + size
    return blocks


def _unique_anchors(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int]]:
    """Starts ``(i, j)`` of token runs unique in both sequences, as a longest increasing chain."""
    if len(a) < ANCHOR or len(b) < ANCHOR:
        return []
    grams_a = Counter(tuple(a[i:i + ANCHOR]) for i in range(len(a) - ANCHOR + 1))
    where_b: dict[tuple[int, ...], int] = {}
    seen_twice: set[tuple[int, ...]] = set()
    for j in range(len(b) - ANCHOR + 1):
        gram = tuple(b[j:j + ANCHOR])
        if gram in where_b:
            seen_twice.add(gram)
        where_b[gram] = j
    pairs = []
    for i in range(len(a) - ANCHOR + 1):
        gram = tuple(a[i:i + ANCHOR])
        if grams_a[gram] == 1 and gram in where_b and gram not in seen_twice:
            pairs.append((i, where_b[gram]))
    return _longest_increasing(pairs)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest chain of pairs increasing in both coordinates (pairs come sorted by i)."""
    tails: list[int] = []  # tails[k]: smallest j ending a chain of length k + 1
    tail_index: list[int] = []
    previous = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_index.append(n)
        else:
            tails[k] = j
            tail_index[k] = n
        previous[n] = tail_index[k - 1] if k else -1
    chain = []
    n = tail_index[-1] if tail_index else -1
    while n >= 0:
        chain.append(pairs[n])
        n = previous[n]
    return chain[::-1]


def aligned_shares(nodes: Sequence[TextNode], gold: str) -> np.ndarray:
    """Per node, the share of its tokens aligned in order with ``gold`` (0 for tokenless nodes)."""
    vocab: dict[str, int] = {}
    page_ids: list[int] = []
    owner: list[int] = []
    counts = np.zeros(len(nodes))
    for node in nodes:
        node_tokens = tokens(node.text)
        counts[node.index] = len(node_tokens)
        for token in node_tokens:
            page_ids.append(vocab.setdefault(token, len(vocab)))
            owner.append(node.index)
    gold_ids = [vocab.setdefault(token, len(vocab)) for token in tokens(gold)]
    matched = np.zeros(len(nodes))
    if page_ids and gold_ids:
        owners = np.asarray(owner)
        for start, _, size in matching_pairs(page_ids, gold_ids):
            np.add.at(matched, owners[start:start + size], 1)
    return np.divide(matched, counts, out=np.zeros(len(nodes)), where=counts > 0)


def align_labels(nodes: Sequence[TextNode], gold: str, min_share: float = MIN_SHARE) -> np.ndarray:
    """0/1 label per node: 1 when at least ``min_share`` of its tokens align with ``gold``."""
    return (aligned_shares(nodes, gold) >= min_share).astype(np.int8)


def oracle_text(nodes: Sequence[TextNode], labels: np.ndarray) -> str:
    """The text a perfect node classifier would extract: the gold-labeled nodes."""
    return join_paragraphs(node.text for node, keep in zip(nodes, labels) if keep)


def oracle_score(nodes: Sequence[TextNode], gold: str, min_share: float = MIN_SHARE) -> Score:
    """Score of the oracle extraction against the gold: the ceiling of any node method."""
    return score(oracle_text(nodes, align_labels(nodes, gold, min_share)), gold)
