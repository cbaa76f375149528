"""The topic feature of CEDST (section 3.2, eq. 6-7 of Zhang et al., *Automatic Web News
Extraction Based on DS Theory Considering Content Topics*, ICCS 2018).

1. Words per text node: jieba for Chinese (single characters and stop words dropped),
   letter runs for other languages (stop words and one-letter words dropped).
2. Keywords per node: TextRank over the node's words (co-occurrence window
   ``window``), the ``n_keywords`` best; a node with fewer distinct words keeps all.
3. Compatibility relation: two keywords are related when they co-occur in more than
   ``gamma`` text nodes (the paper's gamma = 2).
4. Topics are the maximal compatibility blocks, i.e. the maximal cliques of that
   relation, found with Bron-Kerbosch with pivoting (``networkx.find_cliques``) on
   the sparse graph instead of the paper's cubic scan of a triangular matrix.
5. tw(topic) (eq. 6) sums the co-occurrence counts of the topic's keyword pairs;
   h_topic(node) (eq. 7) is the largest tw among the topics the node shares at
   least two keywords with, over the largest tw of the page.

The paper's weak spot (NY Post): a recommendation repeated many times in a page
inflates the co-occurrence counts of its words, so its topic outweighs the
article's. Here co-occurrences are counted once per *distinct* node text
(``count_repeats=False``), so a block repeated ten times weighs as much as once.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

from ..core.text import ENGLISH_STOP_WORDS, has_cjk, words
from ..dom.page import Page
from .base import NodeFeatures

#: Frequent Chinese function words and fillers that carry no topic.
CHINESE_STOP_WORDS = frozenset(
    "我们 你们 他们 她们 它们 这个 那个 这些 那些 这样 那样 这里 那里 什么 怎么 为什么 因为 所以 "
    "但是 而且 并且 或者 还是 如果 虽然 已经 可以 可能 没有 不是 就是 只是 还有 以及 以后 以前 "
    "之后 之前 其中 其他 其它 一个 一些 一种 一样 自己 现在 目前 今天 昨天 明天 进行 通过 对于 "
    "关于 由于 根据 作为 表示 认为 成为 开始 非常 比较 更加 特别 已经 正在 这种 那种 每个 "
    "任何 所有 一直 一定 不过 然后 于是 同时 另外 此外 从而 因此 以上 以下 记者 报道 新闻 "
    "责任编辑 编辑 来源 点击 查看 更多 相关 评论 分享".split()
)

STOP_WORDS = ENGLISH_STOP_WORDS | CHINESE_STOP_WORDS


def node_words(text: str) -> list[str]:
    """Content words of a text: stop words, one-letter Latin words and lone CJK characters out."""
    out = []
    for word in words(text):
        if word in STOP_WORDS or word.isdigit():
            continue
        if has_cjk(word) and len(word) < 2:
            continue
        if not has_cjk(word) and len(word) < 2:
            continue
        out.append(word)
    return out


#: Vocabulary size up to which TextRank uses a dense matrix.
_DENSE_UP_TO = 300


def textrank_keywords(word_list: list[str], n_keywords: int, window: int = 2,
                      damping: float = 0.85, iterations: int = 30) -> list[str]:
    """The ``n_keywords`` highest TextRank words of ``word_list`` (all when there are fewer)."""
    unique = list(dict.fromkeys(word_list))
    if len(unique) <= n_keywords:
        return unique
    index = {word: i for i, word in enumerate(unique)}
    ids = np.fromiter((index[w] for w in word_list), dtype=np.int64, count=len(word_list))
    n = len(unique)
    left = np.concatenate([ids[:-k] for k in range(1, window)] or [np.zeros(0, np.int64)])
    right = np.concatenate([ids[k:] for k in range(1, window)] or [np.zeros(0, np.int64)])
    keep = left != right
    rows, cols = np.concatenate([left[keep], right[keep]]), np.concatenate([right[keep], left[keep]])
    if n <= _DENSE_UP_TO:  # most nodes: a small dense matrix is fastest
        adjacency = np.zeros((n, n))
        np.add.at(adjacency, (rows, cols), 1.0)
        out_degree = adjacency.sum(axis=1)
        scale = np.divide(1.0, out_degree, out=np.zeros(n), where=out_degree > 0)
        transition_t = (adjacency * scale[:, None]).T
    else:  # a long node: a dense V x V matrix would cost O(V^2) time and memory
        from scipy import sparse

        adjacency = sparse.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
        out_degree = np.asarray(adjacency.sum(axis=1)).ravel()
        scale = np.divide(1.0, out_degree, out=np.zeros(n), where=out_degree > 0)
        transition_t = (sparse.diags(scale) @ adjacency).T.tocsr()
    rank = np.ones(n)
    for _ in range(iterations):
        rank = (1 - damping) + damping * (transition_t @ rank)
    order = np.argsort(-rank, kind="stable")[:n_keywords]
    return [unique[i] for i in sorted(order)]


def page_topics(keyword_sets: list[list[str]], gamma: int,
                texts: list[str] | None = None) -> tuple[list[frozenset[str]], list[float]]:
    """Maximal compatibility blocks of a page and their weights tw (eq. 6).

    ``texts``, when given, makes identical node texts count once.
    """
    import networkx as nx  # imported here: only CEDST's topic evidence needs it

    pair_counts: Counter[tuple[str, str]] = Counter()
    seen: set[str] = set()
    for k, keywords in enumerate(keyword_sets):
        if texts is not None:
            if texts[k] in seen:
                continue
            seen.add(texts[k])
        pair_counts.update(combinations(sorted(set(keywords)), 2))
    graph = nx.Graph()
    graph.add_edges_from((x, y, {"n": n}) for (x, y), n in pair_counts.items() if n > gamma)
    topics, weights = [], []
    for clique in nx.find_cliques(graph):
        if len(clique) < 2:
            continue
        members = sorted(clique)
        topics.append(frozenset(members))
        weights.append(float(sum(pair_counts[pair] for pair in combinations(members, 2))))
    return topics, weights


class TopicFeature(NodeFeatures):
    """h_topic (eq. 7): weight of the node's heaviest topic over the page's heaviest topic."""

    name = "topic"
    feature_names = ("topic",)
    polarity = 1

    def __init__(self, gamma: int = 2, n_keywords: int = 10, window: int = 2,
                 count_repeats: bool = False):
        self.gamma = gamma
        self.n_keywords = n_keywords
        self.window = window
        self.count_repeats = count_repeats

    def page_features(self, page: Page) -> np.ndarray:
        nodes = page.nodes
        out = np.zeros((len(nodes), 1))
        keyword_sets = [textrank_keywords(node_words(node.text), self.n_keywords, self.window)
                        for node in nodes]
        texts = None if self.count_repeats else [node.text for node in nodes]
        topics, weights = page_topics(keyword_sets, self.gamma, texts)
        if not topics:
            return out
        top = max(weights)
        by_word: dict[str, list[int]] = {}
        for t, topic in enumerate(topics):
            for word in topic:
                by_word.setdefault(word, []).append(t)
        for node, keywords in zip(nodes, keyword_sets):
            shared = Counter(t for word in set(keywords) for t in by_word.get(word, ()))
            best = max((weights[t] for t, n in shared.items() if n >= 2), default=0.0)
            out[node.index, 0] = best / top if top > 0 else 0.0
        return out
