"""Is a node running prose? Language-aware cues (newsml's own evidence).

- ``stop_share``: function words among its words (English stop words; for Chinese, the
  common function characters among its Han characters): prose is full of them, menus
  and headlines are not;
- ``ends_sentence``: it ends with sentence punctuation (Latin or CJK);
- ``cjk_punct``: CJK sentence punctuation (，。、；：！？) per CJK character, scaled so 10%
  reads as 1;
- ``digits``: the share of digits among its letters and digits (dates, scores, prices);
- ``capitalized``: the share of its Latin words that start with a capital (Title Case
  menus and headlines).
"""

from __future__ import annotations

import re

import numpy as np

from ..page import Page
from ..text import ENGLISH_STOP_WORDS, SPLIT_LIMIT, counting_pieces
from .base import NodeFeatures

#: Han characters that are function words in running Chinese text.
CHINESE_FUNCTION_CHARS = frozenset("的了是在和有也就都而及与或但被把对从于这那个们之其以为所着过")
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]*")
_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_PUNCT_RE = re.compile("[，。、；：！？]")
_ALNUM_RUN_RE = re.compile(r"[^\W_]+")
_DIGIT_RUN_RE = re.compile(r"\d+")
#: What may follow a sentence's last mark: closing quotes and brackets (see :func:`_ends_sentence`).
_CLOSERS = "\"'”’»）)]"
_SENTENCE_MARKS = frozenset(".!?。！？…")
_is_stop = ENGLISH_STOP_WORDS.__contains__
_is_function_char = CHINESE_FUNCTION_CHARS.__contains__


def _ends_sentence(text: str) -> bool:
    """Whether the text ends with a sentence mark, then closing quotes or brackets only
    (also before a final newline): what the pattern ``[.!?。！？…][closers]*$`` finds,
    without a regex search that tries every position of the text."""
    ends = [text, text[:-1]] if text.endswith("\n") else [text]
    for end in ends:
        body = end.rstrip(_CLOSERS)
        if body and body[-1] in _SENTENCE_MARKS:
            return True
    return False


def _counts(text: str) -> tuple[int, ...]:
    """stop words, words, Han characters, CJK marks, letters and digits, digits, Latin
    words, capitalized Latin words: counts that add up over :func:`counting_pieces`."""
    latin = _LATIN_WORD_RE.findall(text)
    han = [] if text.isascii() else _HAN_RE.findall(text)
    return (sum(map(_is_stop, map(str.lower, latin))) + sum(map(_is_function_char, han)),
            len(latin) + len(han), len(han), 0 if text.isascii() else len(_CJK_PUNCT_RE.findall(text)),
            sum(map(len, _ALNUM_RUN_RE.findall(text))),     # letters and digits, counted by runs
            sum(map(len, _DIGIT_RUN_RE.findall(text))),
            len(latin), sum(map(str.isupper, [word[0] for word in latin])))


def _row(text: str) -> list[float]:
    if len(text) <= SPLIT_LIMIT:
        counts = _counts(text)
    else:  # a long text piece by piece: the lists of its words would not fit in its memory budget
        counts = tuple(map(sum, zip(*map(_counts, counting_pieces(text)))))
    stops, words, han, cjk_marks, alnum, digits, latin, capitals = counts
    return [stops / words if words else 0.0,
            1.0 if _ends_sentence(text) else 0.0,
            min(10.0 * cjk_marks / han, 1.0) if han else 0.0,
            digits / alnum if alnum else 0.0,
            capitals / latin if latin else 0.0]


class ProseFeatures(NodeFeatures):
    """``stop_share, ends_sentence, cjk_punct, digits, capitalized`` per text node."""

    name = "prose"
    feature_names = ("stop_share", "ends_sentence", "cjk_punct", "digits", "capitalized")

    def page_features(self, page: Page) -> np.ndarray:
        if not page.nodes:
            return np.zeros((0, len(self.feature_names)))
        return np.array([_row(node.text) for node in page.nodes])
