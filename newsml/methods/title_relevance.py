"""Title-relevance extraction: the relevance-based method that finds a news article from
its title's keywords, without analysing the page layout.

1. Title keywords: the title's words without stop words, "'s" and "'" endings removed
   (jieba words for Chinese).
2. Every text node (the paper's sentence) gets WordNumber (its words) and KeyNumber
   (its words that are title keywords); ancestors sum their descendants'.
3. Title nodes: Similarity = KeyNumber^2 / (WordNumber x TitleKeywordNumber) >= ``similarity``.
4. Ranges, after the paper's situations: no title node -> the whole page; one -> after
   it, with the part before it in reserve; several -> between consecutive title nodes,
   with the part before the first in reserve.
5. Each non-link node of a range scores Possibility = WordSum x (KeySum + 1) over itself
   and its related nodes in that range (nodes whose blocks are siblings or cousins, held
   by the paper's paragraph-like tags). The best node above ``possibility`` is the
   paragraph node (else the better of it and the reserve's best); it and its related
   nodes are the article.
"""

from __future__ import annotations

import re

import numpy as np

from ..core.text import has_cjk, words
from ..dom.page import Page
from ..features.topic import STOP_WORDS
from .base import NodeMethod

#: Tags of the paper's related nodes (text sits in them or in their children).
RELATED_TAGS = frozenset("span a p ul ol li dd dt strong h1 h2 h3 h4 b".split())
_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")
_EDGE_PUNCTUATION = re.compile(r"^[^\w'’]+|[^\w'’]+$")


def keyword_words(text: str) -> list[str]:
    """The paper's words: split at whitespace, possessive endings and edge punctuation
    removed, lower-cased, stop words dropped; jieba words for Chinese."""
    if has_cjk(text):
        candidates = words(text)
    else:
        candidates = [_POSSESSIVE.sub("", _EDGE_PUNCTUATION.sub("", w)) for w in text.lower().split()]
    return [w for w in candidates if w and w not in STOP_WORDS]


def title_keywords(title: str) -> list[str]:
    """The title's keywords (see :func:`keyword_words`)."""
    return keyword_words(title)


class TitleRelevance(NodeMethod):
    """Paragraphs related to the node most relevant to the title's keywords."""

    name = "title-relevance"
    summary = "title keyword relevance: title node, paragraph possibility, related nodes"
    search_space = {"similarity": [0.3, 0.45, 0.6, 0.75], "possibility": [25, 50, 100, 200, 400]}

    def __init__(self, similarity: float = 0.6, possibility: float = 100.0, link_ratio: float = 0.5):
        self.similarity = similarity
        self.possibility = possibility
        self.link_ratio = link_ratio

    def score_nodes(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        scores = np.zeros(len(nodes))
        keywords = set(title_keywords(page.title))
        if not nodes:
            return scores
        word_lists = [keyword_words(node.text) for node in nodes]
        word_number = np.array([len(ws) for ws in word_lists], dtype=float)
        key_number = np.array([sum(w in keywords for w in ws) for ws in word_lists], dtype=float)
        title_nodes = []
        if keywords:
            with np.errstate(invalid="ignore", divide="ignore"):
                similarity = key_number ** 2 / (word_number * len(keywords))
            threshold = self.similarity
            title_nodes = [i for i in range(len(nodes)) if word_number[i] and similarity[i] >= threshold]
        if not title_nodes:
            ranges, reserve = [(0, len(nodes))], (0, 0)
        else:
            bounds = title_nodes + [len(nodes)]
            ranges = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(title_nodes))]
            reserve = (0, title_nodes[0])
        best = self._best_paragraph(nodes, ranges, word_number, key_number)
        backup = self._best_paragraph(nodes, [reserve], word_number, key_number)
        if best is None or (best[0] < self.possibility and backup and backup[0] > best[0]):
            best = backup
        if best is None:
            return scores
        _, node, members = best
        scores[members] = 1.0
        return scores

    def _best_paragraph(self, nodes, ranges, word_number, key_number):
        """(Possibility, node, related nodes) of the best non-link node of the ranges."""
        best = None
        for lo, hi in ranges:
            if hi <= lo:
                continue
            groups: dict[object, list[int]] = {}
            for i in range(lo, hi):
                groups.setdefault(_relation_key(nodes[i]), []).append(i)
            sums = {key: (word_number[m].sum(), key_number[m].sum()) for key, m in groups.items()}
            for i in range(lo, hi):
                if nodes[i].link_ratio > self.link_ratio:
                    continue
                key = _relation_key(nodes[i])
                words_sum, keys_sum = sums[key]
                value = words_sum * (keys_sum + 1)
                if best is None or value > best[0]:
                    best = (value, i, groups[key])
        return best


def _relation_key(node) -> object:
    """Key shared by related nodes: the parent of the text's element. The paper relates
    sentences that are siblings (same element) or whose parent elements are siblings."""
    block = node.block
    parent = block.getparent()
    if block.tag not in RELATED_TAGS and (parent is None or parent.tag not in RELATED_TAGS):
        return ("self", node.index)
    return ("p", parent if parent is not None else block)
