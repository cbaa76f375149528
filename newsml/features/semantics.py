"""What a page's own markup says about a node's container (newsml's own evidence).

Six families of class/id/itemprop words and tags, each one column: 1 when the node's
block or one of its ``levels - 1`` nearest ancestors matches. Looking only a few levels
up keeps page-wide wrappers (``div.content-wrapper`` around everything) from marking
every node. Which families are evidence for or against content, and how strongly, is
learned (see :class:`~newsml.estimators.DempsterShaferClassifier`), not assumed.
"""

from __future__ import annotations

import re

import numpy as np

from ..page import Page
from ..text import cached_when_short
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


def _by_first_letter() -> tuple[re.Pattern[str], dict[int, int]]:
    """:data:`_ANY_FAMILY` for lower-cased ASCII words, with the family of each of its groups.

    The alternatives of all families are grouped by their first letter, in their order, so at
    each position only those that can match are tried (a quarter of the time for the same
    matches): the alternatives that start with one letter keep their order, and those that do
    not cannot match where it is. Each alternative is a group: the one that matched names its
    family.
    """
    by_letter: dict[str, list[tuple[str, str]]] = {}
    for name, (pattern, _) in FAMILIES.items():
        for alternative in pattern.pattern.split("|"):
            if not re.fullmatch(r"[a-z][a-z_\-?]*(\\b)?", alternative):
                raise ValueError(f"family {name!r}: {alternative!r} is not a plain lower-case word")
            by_letter.setdefault(alternative[0], []).append((name, alternative[1:]))
    marks: dict[int, int] = {}
    parts = []
    for letter, alternatives in by_letter.items():
        for name, _ in alternatives:
            marks[len(marks) + 1] = 1 << list(FAMILIES).index(name)
        parts.append(f"{re.escape(letter)}(?:{'|'.join(f'({rest})' for _, rest in alternatives)})")
    return re.compile("|".join(parts)), marks


_BY_FIRST_LETTER, _GROUP_MARK = _by_first_letter()
_TAG_FAMILIES = {tag: name for name, (_, tags) in FAMILIES.items() for tag in tags}
_COLUMN = {name: j for j, name in enumerate(FAMILIES)}


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
            own = np.fromiter((_key_families(*key) for key in kinds.keys), dtype=np.int64,
                              count=len(kinds.keys))[kinds.kind]
            marks |= own
            above = np.arange(len(marks))
            for _ in range(self.levels - 1):
                above = tree.parent[above]
                marks |= own[above]
        bits = 1 << np.arange(len(FAMILIES))
        return ((marks[tree.block].reshape(-1, 1) & bits) > 0).astype(float)


def _key_families(tag: str, *attributes: str | None) -> int:
    """Bit mask of the families an element's tag and class/id/itemprop words name."""
    mark = 0
    family = _TAG_FAMILIES.get(tag)
    if family:
        mark |= 1 << _COLUMN[family]
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
        mark |= _one_word_families(word)
    return mark


@cached_when_short(longest=64)
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
