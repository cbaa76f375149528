"""Markup tokens learned from data: what a node's class, id and tags say of it.

The words in the class and id attributes of a node's block and its nearest ancestors
(``article-body``, ``comment``, ``sidebar``, ``post-content``...), and the tags on that
path, are tokens. A logistic regression over which tokens a node carries learns each
token's weight from labeled pages, instead of a hand-made list of families. Tokens seen
on fewer than ``min_pages`` training pages are left out: a site's private class names
would teach the model that site, not the web.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import NewsmlError
from ..estimators.frozen import expit
from ..page import Page
from ..tags import Element
from ..text import cached_when_short
from .base import NodeMethod, check_fitted

if TYPE_CHECKING:
    from scipy import sparse

_WORD_RE = re.compile(r"[a-z][a-z0-9]+")
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def element_tokens(element: Element, level: int) -> list[str]:
    """Tokens of one element seen ``level`` steps above a node: its tag, and its class/id words."""
    tokens = [f"tag{min(level, 2)}:{element.tag}"]
    for words in (element.get("class"), element.get("id")):
        if words:       # no word spans a space: each attribute alone gives the same words
            tokens += _word_tokens(words)
    return tokens


@cached_when_short()
def _word_tokens(words: str) -> tuple[str, ...]:
    """The tokens of a class/id string (pages and sites repeat these a lot)."""
    lowered = words.lower()
    if lowered != words:                  # only then can a camelCase word need cutting
        lowered = _CAMEL_RE.sub(" ", words).lower()
    return tuple(f"w:{word}" for word in _WORD_RE.findall(lowered))


class MarkupTokens(NodeMethod):
    """Logistic regression over the class/id words and tags of a node's block and ancestors.

    Parameters
    ----------
    levels : int
        Elements read per node: the block and its ``levels - 1`` nearest ancestors.
    min_pages : int
        A token is used only when that many training pages carry it.
    C : float
        Inverse strength of the L2 penalty.
    """

    name = "markup"
    summary = "markup tokens: class/id words and tags of a node's containers, weights learned (trained)"
    requires_fit = True

    def __init__(self, levels: int = 4, min_pages: int = 5, C: float = 1.0):
        self.levels = levels
        self.min_pages = min_pages
        self.C = C

    def _node_tokens(self, page: Page) -> list[set[str]]:
        memo: dict[tuple[Element, int], list[str]] = {}
        out = []
        for node in page.nodes:
            tokens: set[str] = set()
            element: Element | None = node.block
            for level in range(self.levels):
                if element is None:
                    break
                key = (element, level)
                if key not in memo:
                    memo[key] = element_tokens(element, level)
                tokens.update(memo[key])
                element = element.getparent()
            out.append(tokens)
        return out

    def fit(self, X: Sequence[Page], y: Sequence[np.ndarray] | None = None,
            groups: Sequence[object] | None = None) -> MarkupTokens:
        """Learn token weights from labeled pages (token-weighted, so long nodes count more)."""
        from sklearn.linear_model import LogisticRegression

        self._reset()
        if y is None:
            raise NewsmlError("the 'markup' method learns from labeled pages: give per-node labels")
        pages = list(X)
        per_page = [self._node_tokens(page) for page in pages]
        seen: dict[str, int] = {}
        for nodes in per_page:
            for token in set().union(*nodes) if nodes else ():
                seen[token] = seen.get(token, 0) + 1
        vocabulary = sorted(token for token, n in seen.items() if n >= self.min_pages)
        index = {token: i for i, token in enumerate(vocabulary)}
        rows = [node for nodes in per_page for node in nodes]
        target = np.concatenate([np.asarray(labels) for labels in y]).astype(int)
        if np.unique(target).size < 2:
            raise NewsmlError("training pages must contain both content and noise nodes")
        matrix = _matrix(rows, index)
        weight = np.concatenate([page.token_counts for page in pages]) + 1.0
        model = LogisticRegression(C=self.C, max_iter=1000)
        model.fit(matrix, target, sample_weight=weight / weight.mean())
        self.vocabulary_ = index
        self.coef_ = model.coef_.ravel().astype(float)
        self.intercept_ = float(model.intercept_[0])
        return self

    def score_nodes(self, page: Page) -> np.ndarray:
        check_fitted(self, "coef_")
        if not page.nodes:
            return np.zeros(0)
        kinds, rows, columns = self._kind_columns(page)
        # the 0/1 token matrix times coef_, summed in the order a sparse product sums (per kind of
        # node: nodes with the same tokens have the same sum)
        total = np.bincount(rows, weights=self.coef_[columns], minlength=int(kinds.max()) + 1)
        return expit(total[kinds] + self.intercept_)

    def _kind_columns(self, page: Page) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each node's kind (an index: nodes of one kind carry the same tokens), and
        :func:`_nonzeros` of the kinds' tokens over ``vocabulary_``.

        Work is shared where tokens are: one tag with one class and id is read once per page,
        an element's tokens with its ancestors' once per level it is seen at (blocks with one
        parent share their ancestors'), and the tokens of a block and of its ancestors are
        joined and sorted once for all blocks alike."""
        tokens = _PageTokenIds(self.vocabulary_, self.levels)
        ids, chain, empty = tokens.ids, tokens.chain, tokens.empty
        kinds: dict[tuple[frozenset[int], frozenset[int]], int] = {}
        by_block: dict[Element, int] = {}
        rows: list[int] = []
        columns: list[int] = []
        nodes: list[int] = []
        for node in page.nodes:
            block = node.block
            kind = by_block.get(block)
            if kind is None:
                parts = (ids(block, 0), chain(block.getparent(), 1)) if self.levels > 0 else (empty, empty)
                kind = kinds.get(parts)
                if kind is None:
                    kind = kinds[parts] = len(kinds)
                    ordered = sorted(parts[0] | parts[1])
                    columns.extend(ordered)
                    rows.extend([kind] * len(ordered))
                by_block[block] = kind
            nodes.append(kind)
        return (np.asarray(nodes, dtype=np.intp), np.asarray(rows, dtype=np.intp),
                np.asarray(columns, dtype=np.intp))

    def feature_names(self) -> list[str]:
        """The learned tokens."""
        return sorted(getattr(self, "vocabulary_", {}))


class _PageTokenIds:
    """One page's token ids of elements and of their chains of ancestors, each worked out
    once. A class and not closures: a closure calling itself is a reference cycle, and
    this one would hold the page's lxml tree until the cyclic collector runs."""

    empty: frozenset[int] = frozenset()

    def __init__(self, index: dict[str, int], levels: int) -> None:
        self.index = index
        self.levels = levels
        self.known: dict[tuple[int, str, str | None, str | None], frozenset[int]] = {}
        self.chains: dict[tuple[Element, int], frozenset[int]] = {}

    def ids(self, element: Element, level: int) -> frozenset[int]:
        """Ids of the tokens of ``element`` seen ``level`` steps above a node."""
        key = (level if level < 2 else 2, element.tag, element.get("class"), element.get("id"))
        found = self.known.get(key)
        if found is None:
            index = self.index
            found = frozenset(index[t] for t in element_tokens(element, level) if t in index)
            self.known[key] = found
        return found

    def chain(self, element: Element | None, level: int) -> frozenset[int]:
        """Ids of the tokens of ``element`` seen ``level`` steps above a node and of its
        ancestors up to the last level read."""
        pending: list[tuple[Element, int]] = []
        found = self.empty
        while element is not None and level < self.levels:
            cached = self.chains.get((element, level))
            if cached is not None:
                found = cached
                break
            pending.append((element, level))
            element, level = element.getparent(), level + 1
        for element_seen, level_seen in reversed(pending):
            found = self.chains[element_seen, level_seen] = self.ids(element_seen, level_seen) | found
        return found


def _nonzeros(rows: list[set[str]], index: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Row and column of each 1 of the 0/1 matrix of :func:`_matrix`, row by row, columns sorted."""
    row_ids: list[int] = []
    columns: list[int] = []
    for r, tokens in enumerate(rows):
        found = sorted(index[t] for t in tokens if t in index)
        columns.extend(found)
        row_ids.extend([r] * len(found))
    return np.asarray(row_ids, dtype=np.intp), np.asarray(columns, dtype=np.intp)


def _matrix(rows: list[set[str]], index: dict[str, int]) -> sparse.csr_matrix:
    """One 0/1 row per node over the vocabulary ``index`` (tokens outside it are dropped)."""
    from scipy import sparse

    row_ids, columns = _nonzeros(rows, index)
    indptr = np.searchsorted(row_ids, np.arange(len(rows) + 1))
    return sparse.csr_matrix((np.ones(len(columns)), columns, indptr), shape=(len(rows), len(index)))
