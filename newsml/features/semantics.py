"""What a page's own markup says about a node's container (newsml's own evidence).

Six families of class/id/itemprop words and tags, each one column: 1 when the node's
block or one of its ``levels - 1`` nearest ancestors matches. Looking only a few levels
up keeps page-wide wrappers (``div.content-wrapper`` around everything) from marking
every node. Which families are evidence for or against content, and how strongly, is
learned (see :class:`~newsml.estimators.DempsterShaferClassifier`), not assumed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType

import numpy as np

from ..core.speedups import choose
from ..dom.page import Page
from .base import NodeFeatures

#: family -> (pattern over class/id/itemprop, tags that belong to the family)
FAMILIES: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {
    "comment": (re.compile(r"comment|disqus|reply|respond|discuss|pinglun", re.I), ()),
    "footer": (re.compile(r"foot|copyright|colophon|bottom", re.I), ("footer",)),
    "caption": (re.compile(r"caption|credit|figure|photo|image|img|gallery|media", re.I),
                ("figcaption", "figure")),
    "related": (re.compile(r"related|recommend|read-?more|also|popular|trending|outbrain|taboola|promo|"
                           r"teaser|most-|widget|sidebar|aside|xiangguan|tuijian", re.I), ("aside",)),
    "meta": (re.compile(r"breadcrumb|byline|author|share|social|tags?\b|subscribe|newsletter|nav|menu|"
                        r"header|masthead", re.I), ("nav", "header")),
    "body": (re.compile(r"article-?body|story-?body|entry-?content|post-?body|article-?content|"
                        r"content-?body|main-?content|articlebody|post-?content|text-?body|zhengwen|"
                        r"article_?text|art_?context", re.I), ("article",)),
}


#: All families in one pattern (one scan of an element's words finds every family).
_ANY_FAMILY = re.compile(
    "|".join(f"(?P<{name}>{pattern.pattern})" for name, (pattern, _) in FAMILIES.items()), re.I)


def _by_first_letter() -> tuple[re.Pattern[str], dict[int, int], list[tuple[str, str, int]]]:
    """:data:`_ANY_FAMILY` for lower-cased ASCII words, with the family of each of its groups,
    and its alternatives (first letter, rest, family bit) in its order.

    The alternatives of all families are grouped by their first letter, in their order, so at
    each position only those that can match are tried (faster, for the same matches): the
    alternatives that start with one letter keep their order, and those that do not cannot
    match where it is. Each alternative is a group: the one that matched names its family.
    """
    by_letter: dict[str, list[tuple[str, str]]] = {}
    for name, (pattern, _) in FAMILIES.items():
        for alternative in pattern.pattern.split("|"):
            if not re.fullmatch(r"[a-z][a-z_\-?]*(\\b)?", alternative):
                raise ValueError(f"family {name!r}: {alternative!r} is not a plain lower-case word")
            by_letter.setdefault(alternative[0], []).append((name, alternative[1:]))
    marks: dict[int, int] = {}
    parts, ordered = [], []
    for letter, alternatives in by_letter.items():
        for name, rest in alternatives:
            marks[len(marks) + 1] = 1 << list(FAMILIES).index(name)
            ordered.append((letter, rest, marks[len(marks)]))
        parts.append(f"{re.escape(letter)}(?:{'|'.join(f'({rest})' for _, rest in alternatives)})")
    return re.compile("|".join(parts)), marks, ordered


_BY_FIRST_LETTER, _GROUP_MARK, _ALTERNATIVES = _by_first_letter()
_TAG_FAMILIES = {tag: name for name, (_, tags) in FAMILIES.items() for tag in tags}
_COLUMN = {name: j for j, name in enumerate(FAMILIES)}
#: The family bit of each tag of a family.
_TAG_MARKS = {tag: 1 << _COLUMN[name] for tag, name in _TAG_FAMILIES.items()}
#: The families of the words met (see :func:`_word_mark`).
_WORD_MARKS: dict[str, int] = {}
MOST_WORDS = 16384
LONGEST_WORD = 64


class SemanticFeatures(NodeFeatures):
    """One 0/1 column per family of :data:`FAMILIES`."""

    name = "semantics"
    feature_names = tuple(f"sem_{family}" for family in FAMILIES)

    def __init__(self, levels: int = 4):
        self.levels = levels

    def page_features(self, page: Page) -> np.ndarray:
        tree = page.block_tree
        marks = np.zeros(len(tree.elements), dtype=np.int64)
        if self.levels > 0:
            # each kind of element's own families once, then or-ed up the tree (the root is
            # its own parent: or-ing it again changes nothing)
            kinds = page.attribute_kinds
            own = _key_marks(kinds.keys)[kinds.kind]
            marks |= own
            above = np.arange(len(marks))
            for _ in range(self.levels - 1):
                above = tree.parent[above]
                marks |= own[above]
        bits = 1 << np.arange(len(FAMILIES))
        return ((marks[tree.block].reshape(-1, 1) & bits) > 0).astype(float)


def _key_families(tag: str, *attributes: str | None) -> int:
    """Bit mask of the families an element's tag and class/id/itemprop words name."""
    mark = _TAG_MARKS.get(tag, 0)
    for words in attributes:
        if words:       # no family's word spans a space: each attribute alone finds the same
            mark |= _word_families(words)
    return mark


def _word_families(words: str) -> int:
    """Bit mask of the families named in a class/id/itemprop string.

    Word by word (no family's word spans whitespace): pages and sites repeat single class
    words (``article``, ``flex``, ``col-md-8``) far more than whole class strings, so each
    word's families are worked out once.
    """
    mark = 0
    for word in words.split():
        mark |= _word_mark(word)
    return mark


def _word_mark(word: str) -> int:
    """:func:`_one_word_families`, kept in :data:`_WORD_MARKS` (at most :data:`MOST_WORDS`
    words of at most :data:`LONGEST_WORD` characters: a crawl meets millions; a full table
    starts again)."""
    mark = _WORD_MARKS.get(word)
    if mark is None:
        mark = _one_word_families(word)
        if len(word) <= LONGEST_WORD:
            if len(_WORD_MARKS) >= MOST_WORDS:
                _WORD_MARKS.clear()
            _WORD_MARKS[word] = mark
    return mark


def _one_word_families(word: str) -> int:
    """:func:`_word_families` of one word."""
    mark = 0
    if word.isascii():
        for match in _BY_FIRST_LETTER.finditer(word.lower()):
            mark |= _GROUP_MARK[match.lastindex or 0]
    else:
        for match in _ANY_FAMILY.finditer(word):
            mark |= 1 << _COLUMN[str(match.lastgroup)]
    return mark


def marks_in_python(keys: list[tuple[str, str | None, str | None, str | None]]) -> np.ndarray:
    """The families' bit mask of each kind of element (tag, class, id, itemprop)."""
    return np.fromiter((_key_families(*key) for key in keys), dtype=np.int64, count=len(keys))


def _marks_in_c(semantic_marks: ModuleType) -> Callable[..., np.ndarray]:
    matcher = semantic_marks.FamilyMatcher(_ALTERNATIVES)  # (its search of a new ASCII word)

    def key_marks(keys: list[tuple[str, str | None, str | None, str | None]]) -> np.ndarray:
        return semantic_marks.key_marks(keys, _TAG_MARKS, _WORD_MARKS, _word_mark, _word_families, matcher,
                                        MOST_WORDS, LONGEST_WORD)
    return key_marks


_key_marks = choose("features._semantic_marks", marks_in_python, _marks_in_c)
