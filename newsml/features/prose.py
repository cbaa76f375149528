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
from ..text import ENGLISH_STOP_WORDS
from .base import NodeFeatures

#: Han characters that are function words in running Chinese text.
CHINESE_FUNCTION_CHARS = frozenset("的了是在和有也就都而及与或但被把对从于这那个们之其以为所着过")
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]*")
_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_PUNCT_RE = re.compile("[，。、；：！？]")
_SENTENCE_END_RE = re.compile(r"[.!?。！？…][\"'”’»）)\]]*$")
_ALNUM_RE = re.compile(r"[^\W_]")
_DIGIT_RE = re.compile(r"\d")


def _row(text: str) -> list[float]:
    latin = _LATIN_WORD_RE.findall(text)
    han = _HAN_RE.findall(text)
    stops = sum(word.lower() in ENGLISH_STOP_WORDS for word in latin) + sum(ch in CHINESE_FUNCTION_CHARS
                                                                           for ch in han)
    words = len(latin) + len(han)
    alnum = len(_ALNUM_RE.findall(text))
    return [stops / words if words else 0.0,
            1.0 if _SENTENCE_END_RE.search(text) else 0.0,
            min(10.0 * len(_CJK_PUNCT_RE.findall(text)) / len(han), 1.0) if han else 0.0,
            len(_DIGIT_RE.findall(text)) / alnum if alnum else 0.0,
            sum(word[0].isupper() for word in latin) / len(latin) if latin else 0.0]


class ProseFeatures(NodeFeatures):
    """``stop_share, ends_sentence, cjk_punct, digits, capitalized`` per text node."""

    name = "prose"
    feature_names = ("stop_share", "ends_sentence", "cjk_punct", "digits", "capitalized")

    def page_features(self, page: Page) -> np.ndarray:
        if not page.nodes:
            return np.zeros((0, len(self.feature_names)))
        return np.array([_row(node.text) for node in page.nodes])
