"""Markup tokens learned from data: what a node's class, id and tags say of it.

The words in the class and id attributes of a node's block and its nearest ancestors
(``article-body``, ``comment``, ``sidebar``, ``post-content``...), and the tags on that
path, are tokens. A logistic regression over which tokens a node carries learns each
token's weight from labeled pages, instead of a hand-made list of families. Tokens seen
on fewer than ``min_pages`` training pages are left out: a site's private class names
would teach the model that site, not the web.

The containers of the headline (:func:`~newsml.rules.comments.headline_containers`) give no
comment words (:data:`~newsml.rules.comments.COMMENT_WORDS`): as for the comment rule, the
section holding the headline is the article, whatever its name says (a newspaper's
``tone-comment`` opinion piece, a theme's ``comments-open`` post). Elsewhere ``comment``
is the strongest noise word there is, and short articles so named were lost to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import chain
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.speedups import choose
from ..core.tags import Element
from ..core.text import cached_when_short
from ..dom.page import Page
from ..errors import NewsmlError
from ..estimators.frozen import expit
from ..rules.comments import COMMENT_WORDS, headline_containers
from .base import NodeMethod, check_fitted

if TYPE_CHECKING:
    from scipy import sparse


#: How the token weights are fitted. Newton's method to a tight tolerance reaches the
#: optimum, whatever the machine: L-BFGS (scikit-learn's default, used before) stopped at its
#: tolerance far from the optimum, and elsewhere with other kernels of the same BLAS, so the
#: same pages gave another model on another machine
#: (docs/decisions/2026-12-02-fits-to-optimum.md).
NEWTON = {"solver": "newton-cholesky", "tol": 1e-8, "max_iter": 100}
#: Newton's method holds a square matrix of the tokens (8 bytes each); past this many
#: tokens (200 MB) L-BFGS is run instead, to a tolerance 100 times tighter than its default,
#: which stops it near the optimum with either kernel.
NEWTON_TOKENS = 5_000
LBFGS = {"solver": "lbfgs", "tol": 1e-6, "max_iter": 5_000}


_WORD_RE = re.compile(r"[a-z][a-z0-9]+")
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
#: The tokens the headline's containers do not give (see the module).
_COMMENT_TOKENS = frozenset(f"w:{word}" for word in COMMENT_WORDS)


def element_tokens(element: Element, level: int) -> list[str]:
    """Tokens of one element seen ``level`` steps above a node: its tag, and its class/id words."""
    return key_tokens(level, element.tag, element.get("class"), element.get("id"))


def key_tokens(level: int, tag: str, *attributes: str | None) -> list[str]:
    """Tokens of an element of tag ``tag`` and class/id ``attributes`` seen ``level`` steps
    above a node (see :func:`element_tokens`)."""
    tokens = [f"tag{min(level, 2)}:{tag}"]
    for words in attributes:
        if words:       # no word spans a space: each attribute alone gives the same words
            tokens += _word_tokens(words)
    return tokens


@cached_when_short()
def _word_tokens(words: str) -> tuple[str, ...]:
    """The tokens of a class/id string (pages and sites repeat these a lot)."""
    return tuple(f"w:{word}" for word in _class_words(words))


def _class_words(words: str) -> list[str]:
    """The words of a class/id string, lower-cased, camelCase cut (``w:`` tokens without ``w:``)."""
    lowered = words.lower()
    if lowered != words:                  # only then can a camelCase word need cutting
        lowered = _CAMEL_RE.sub(" ", words).lower()
    return _WORD_RE.findall(lowered)


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
        article = set(headline_containers(page))
        out = []
        for node in page.nodes:
            tokens: set[str] = set()
            element: Element | None = node.block
            for level in range(self.levels):
                if element is None:
                    break
                key = (element, level)
                if key not in memo:
                    found = element_tokens(element, level)
                    if element in article:
                        found = [t for t in found if t not in _COMMENT_TOKENS]
                    memo[key] = found
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
        weight = np.concatenate([page.token_counts for page in pages]) + 1.0
        self.vocabulary_ = index
        if not index:
            # no token on min_pages pages (a handful of pages, or of one site): nothing the
            # markup says generalizes, so every node scores the weighted share of content
            share = float(np.clip(np.average(target, weights=weight), 1e-6, 1 - 1e-6))
            self.coef_ = np.zeros(0)
            self.intercept_ = float(np.log(share / (1 - share)))
            return self
        model = LogisticRegression(C=self.C, **(NEWTON if len(index) <= NEWTON_TOKENS else LBFGS))
        model.fit(_matrix(rows, index), target, sample_weight=weight / weight.mean())
        self.coef_ = model.coef_.ravel().astype(float)
        self.intercept_ = float(model.intercept_[0])
        return self

    def score_nodes(self, page: Page) -> np.ndarray:
        check_fitted(self, "coef_")
        if not page.nodes:
            return np.zeros(0)
        return expit(_node_sums(self, page) + self.intercept_)

    def _kind_columns(self, page: Page) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each node's kind (an index: nodes of one kind carry the same tokens), and
        :func:`_nonzeros` of the kinds' tokens over ``vocabulary_``.

        Work is shared where tokens are: the elements seen at each level above the nodes'
        blocks are found for all nodes at once on the block tree, by their kind of
        attributes (:meth:`_node_kinds`); nodes that see the same kinds at every level are
        of one kind. (The compiled module gathers and sums each kind's tokens in one loop
        instead: :mod:`newsml.methods._markup_tokens`.) The ids of each kind of element's tokens are read
        from the model's tables of class/id words and tags (:class:`_TokenIds`); a kind's
        tokens, their union over its levels, are found for all kinds together as distinct
        (kind, token) pairs in arrays, not joined and sorted kind by kind in Python (which
        took most of this method's time). The sums are those of the sparse product
        (:func:`_matrix`), to the last bit.
        """
        if self.levels <= 0:       # no element read: one kind, no tokens
            empty = np.zeros(0, dtype=np.intp)
            return np.zeros(len(page.nodes), dtype=np.intp), empty, empty
        attributes = page.attribute_kinds
        n_element_kinds = 2 * len(attributes.keys)
        nodes, combinations = self._node_kinds(page)
        # every (level, element kind) the kinds see, with its token ids
        level_kind = combinations + np.arange(self.levels, dtype=np.int64)[:, None] * (n_element_kinds + 1)
        present = combinations.ravel() >= 0
        wanted, where = np.unique(level_kind.ravel()[present], return_inverse=True)
        ids, keys = self._token_ids(), attributes.keys
        words: dict[int, tuple[int, ...]] = {}      # per kind of element: its class and id words
        found = []
        for code in wanted.tolist():
            level, kind = divmod(code, n_element_kinds + 1)
            tag, class_, id_, _ = keys[kind % len(keys)]
            word_ids = words.get(kind)
            if word_ids is None:
                word_ids = ids.of_words(class_) + ids.of_words(id_)
                if kind >= len(keys) and ids.comment:
                    word_ids = tuple(t for t in word_ids if t not in ids.comment)
                words[kind] = word_ids
            found.append(ids.of_tag(level, tag) + word_ids)
        counts = np.fromiter(map(len, found), dtype=np.intp, count=len(found))
        flat = np.fromiter(chain.from_iterable(found), dtype=np.intp, count=int(counts.sum()))
        # each (kind, level) that sees an element gives that element's ids: a ragged gather
        owner = np.broadcast_to(np.arange(combinations.shape[1], dtype=np.int64),
                                combinations.shape).ravel()[present]
        each = counts[where]
        rows = np.repeat(owner, each)
        first = (np.cumsum(counts) - counts)[where]      # where each one's ids start in flat
        at = np.arange(len(rows)) + np.repeat(first - (np.cumsum(each) - each), each)
        # a token seen at several levels counts once: distinct pairs, by kind, ids ascending
        width = max(len(self.vocabulary_), 1)
        pairs = np.sort(rows * width + flat[at].astype(np.int64))
        if len(pairs):      # (np.unique, without its hash table: faster)
            pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
        return nodes, pairs // width, pairs % width

    def _node_kinds(self, page: Page) -> tuple[np.ndarray, np.ndarray]:
        """Each node's kind (an index: nodes of one kind see the same kinds of elements at
        every level), and per kind the element kinds it sees, a row per level (-1: none,
        above the root). An element's kind is its attributes' (``page.attribute_kinds``);
        a headline container's is that shifted by the number of attribute kinds."""
        tree, attributes = page.block_tree, page.attribute_kinds
        n_nodes = len(tree.block)
        element_kind = attributes.kind.copy()
        element_kind[page.headline_path] += len(attributes.keys)
        element = tree.block
        seen = np.empty((self.levels, n_nodes), dtype=np.int64)
        seen[0] = element_kind[element]
        inside = np.ones(n_nodes, dtype=bool)          # not yet climbed past the root
        for level in range(1, self.levels):
            above = tree.parent[element]
            inside &= above != element                  # (the root is its own parent)
            element = above
            seen[level] = np.where(inside, element_kind[element], -1)
        return _distinct_columns(seen, 2 * len(attributes.keys) + 1)

    def _token_ids(self) -> _TokenIds:
        """The token ids of elements this model has met (:class:`_TokenIds`), for its
        vocabulary: a new fit starts them afresh."""
        ids = self.__dict__.get("_ids")
        if ids is None or ids.index is not self.vocabulary_:
            ids = self._ids = _TokenIds(self.vocabulary_)
        return ids

    def __getstate__(self) -> dict[str, object]:
        """The model's state, without its tables of token ids (worked out again after loading)."""
        state = dict(self.__dict__)
        state.pop("_ids", None)
        return state

    def feature_names(self) -> list[str]:
        """The learned tokens."""
        return sorted(getattr(self, "vocabulary_", {}))


class _TokenIds:
    """A model's token ids of the class and id strings and of the tags it has met (see
    :func:`key_tokens`), kept for later pages: sites repeat their class names from page to
    page, and working out tokens was most of this method's time. Each table holds at most
    ``most`` keys (strings, or a level and a tag) of at most ``longest`` characters (a crawl
    meets millions, some of megabytes); when one is full it starts again. A class and not a
    closure: no reference cycles."""

    def __init__(self, index: dict[str, int], most: int = 16384, longest: int = 256) -> None:
        self.index = index
        self.most = most
        self.longest = longest
        self.words: dict[str, tuple[int, ...]] = {}
        #: the ids of the word tokens, by word (no token string made to look one up)
        self.word_ids = {token[2:]: i for token, i in index.items() if token.startswith("w:")}
        self.tags: dict[tuple[int, str], tuple[int, ...]] = {}
        #: the ids of the comment words, which a headline container does not give
        self.comment = frozenset(index[t] for t in _COMMENT_TOKENS if t in index)
        self.comment_ids = np.array(sorted(self.comment), dtype=np.int64)   # (ascending)
        #: the ids of a tag's tokens at levels 0, 1 and 2 or more, -1 for none (by tag)
        self.triples: dict[str, tuple[int, int, int]] = {}

    def of_words(self, value: str | None) -> tuple[int, ...]:
        """Ids of the word tokens of a class or id string."""
        if not value:
            return ()
        found = self.words.get(value)
        if found is None:
            word_ids = self.word_ids
            found = _class_word_ids(value, word_ids)
            self._keep(self.words, value, found, len(value))
        return found

    def tag_triple(self, tag: str) -> tuple[int, int, int]:
        """Ids of the tokens of tag ``tag`` at levels 0, 1 and 2 or more (-1 for none)."""
        found = self.triples.get(tag)
        if found is None:
            ids = [self.of_tag(level, tag) for level in range(3)]
            found = (ids[0][0] if ids[0] else -1, ids[1][0] if ids[1] else -1, ids[2][0] if ids[2] else -1)
            self._keep(self.triples, tag, found, len(tag))   # type: ignore[arg-type]
        return found

    def of_tag(self, level: int, tag: str) -> tuple[int, ...]:
        """Id of the tag token of an element ``level`` steps above a node (none if unknown)."""
        key = (level if level < 2 else 2, tag)
        found = self.tags.get(key)
        if found is None:
            token = self.index.get(key_tokens(level, tag)[0])
            found = () if token is None else (token,)
            self._keep(self.tags, key, found, len(tag))
        return found

    def _keep(self, table: dict[Any, tuple[int, ...]], key: object, ids: tuple[int, ...],
              length: int) -> None:
        """Keep ``ids`` under ``key`` unless its text is too long; a full table starts again."""
        if length <= self.longest:
            if len(table) >= self.most:
                table.clear()
            table[key] = ids


def _distinct_columns(seen: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct columns of ``seen`` (values from -1 to ``base - 2``): for each column, the
    index of its distinct column; and the distinct columns themselves, side by side. The
    columns are read as numbers in base ``base`` when those stay below 2**62 (a sort of
    integers, faster than a sort of columns)."""
    levels = seen.shape[0]
    if levels * np.log2(base) < 62:
        code = seen[0] + 1
        for level in range(1, levels):
            code += (seen[level] + 1) * base ** level
        _, first, index = np.unique(code, return_index=True, return_inverse=True)
    else:
        _, first, index = np.unique(seen.T, axis=0, return_index=True, return_inverse=True)
    return index.reshape(-1).astype(np.intp), seen[:, first]


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


def sums_in_python(method: MarkupTokens, page: Page) -> np.ndarray:
    """Each node's sum of its tokens' weights: the 0/1 token matrix times ``coef_``, summed in
    the order a sparse product sums (per kind of node: nodes with the same tokens have the
    same sum)."""
    kinds, rows, columns = method._kind_columns(page)
    total = np.bincount(rows, weights=method.coef_[columns], minlength=int(kinds.max()) + 1)
    return total[kinds]


def _sums_in_c(markup_tokens: ModuleType) -> Callable[[MarkupTokens, Page], np.ndarray]:
    def node_sums(method: MarkupTokens, page: Page) -> np.ndarray:
        if method.levels <= 0:
            return sums_in_python(method, page)
        nodes, combinations = method._node_kinds(page)
        ids = method._token_ids()
        sums = markup_tokens.token_sums(combinations, page.attribute_kinds.keys, ids.words, ids.of_words,
                                        ids.triples, ids.tag_triple, ids.comment_ids, method.coef_)
        return sums[nodes]
    return node_sums


def word_ids_in_python(value: str, word_ids: dict[str, int]) -> tuple[int, ...]:
    """The ids of the words of a class or id string that are among ``word_ids``, in order."""
    return tuple([word_ids[word] for word in _class_words(value) if word in word_ids])


def _word_ids_in_c(markup_tokens: ModuleType) -> Callable[[str, dict[str, int]], tuple[int, ...]]:
    def class_word_ids(value: str, word_ids: dict[str, int]) -> tuple[int, ...]:
        found = markup_tokens.class_word_ids(value, word_ids)   # (None: a value it does not read)
        return word_ids_in_python(value, word_ids) if found is None else found
    return class_word_ids


_node_sums = choose("methods._markup_tokens", sums_in_python, _sums_in_c)
_class_word_ids = choose("methods._markup_tokens", word_ids_in_python, _word_ids_in_c)
