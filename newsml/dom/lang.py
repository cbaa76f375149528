"""A page's language, as far as the script of its text and its markup tell."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.text import _HAN_RE

_ALNUM_RE = re.compile(r"[^\W_]")
_KANA_RE = re.compile("[\u3040-\u30ff]")
_HANGUL_RE = re.compile("[\uac00-\ud7af]")
_WORD_RE = re.compile(r"[^\W\d_]+")
#: The most frequent function words of languages written in Latin letters: a large share
#: of running text in the language, a small one in the others.
_STOP_WORDS = {
    "en": frozenset("the of and to a in is that for on it with as was by at be this are from have "
                    "has".split()),
    "de": frozenset("der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch "
                    "es an werden aus er hat dass".split()),
    "fr": frozenset("de la le et les des en du un une est que pour dans qui au sur pas par il ne se plus "
                    "sont avec".split()),
    "es": frozenset("de la que el en y a los del se las por un para con no una su al es lo como más".split()),
    "it": frozenset("di e il la che in a per un è del le non si da una sono al con i della".split()),
    "pt": frozenset("de a o que e do da em um para é com não uma os no se na por mais as dos".split()),
    "nl": frozenset("de en van het een in is dat op te die met voor zijn niet aan er ook als bij".split()),
}
_ANY_STOP = frozenset().union(*_STOP_WORDS.values())
#: The same lists as ASCII bytes (the words of a text without letters beyond ASCII are read
#: as bytes): the words with such letters ("für", "è") never meet such a text.
_STOP_BYTES = {lang: frozenset(word.encode("ascii") for word in stop if word.isascii())
               for lang, stop in _STOP_WORDS.items()}
_ANY_STOP_BYTES = frozenset().union(*_STOP_BYTES.values())
#: What the word pattern reads as a letter beyond ASCII.
_NON_ASCII_LETTER_RE = re.compile(r"[^\W\d_\x00-\x7f]")
#: ASCII letters lower-cased, every other byte a space.
_LOWER_LETTER_BYTES = bytes(byte | 0x20 if byte < 128 and chr(byte).isalpha() else 0x20
                            for byte in range(256))
#: A text is in the language of these lists whose function words make at least this share
#: of its words, by this margin over the next language's: Romanian, Catalan, Danish... reach
#: neither and stay undetermined (Galician still reads as Portuguese, Afrikaans as Dutch; a
#: Dutch text of many shared words stays undetermined). Nearly all English corpus pages clear
#: both (docs/decisions/2026-11-25-language.md).
_LANGUAGE_SHARE = 0.2
_MARGIN = 2.0
#: ... and over a declared language of the lists whose share is under this part of its own.
_DECLARED_PART = 0.25
#: Without a declaration, English function words past this share make the text English
#: (the rule before the other languages' lists: pages of lists and headlines have fewer).
_ENGLISH_SHARE = 0.12
#: Words needed before function words tell anything.
_MIN_WORDS = 20


def detect_lang(text: str, declared: str | None = None) -> str:
    """ISO 639-1 code: 'zh'/'ja'/'ko' from the script; else, for text in Latin letters,
    the language whose function words are frequent in it (:data:`_STOP_WORDS`, by a
    margin over the others) when the declared ``lang`` is missing or plainly not the
    text's; else the declared one; else 'und'.

    The script wins over the declaration because templates often keep ``lang="en"`` on
    pages written in Chinese; and the words win over it when they plainly disagree,
    because they keep ``lang="de"`` on a German site's English pages too.
    """
    sample = text[:5000]
    ascii_only = sample.isascii()         # (most pages: no script to look for, words by bytes)
    script = _Script(sample) if not ascii_only else None
    letters = max(len(sample), 1)
    if script is not None:
        if script.kana > 20 and script.kana / letters > 0.05:  # Japanese mixes kana into Han text
            return "ja"
        if script.hangul > 20 and script.hangul / letters > script.han_ratio:
            return "ko"
        if script.han_ratio > 0.3:
            return "zh"
    code = ""
    if declared:
        code = declared.strip().lower().replace("_", "-").split("-")[0]
        if not (code.isalpha() and 2 <= len(code) <= 3):
            code = ""
    words: list[str] | list[bytes]
    counts: Counter[Any]                        # (of bytes or of str, as the words)
    lists: Mapping[str, frozenset[Any]]
    if script is None or not script.non_ascii_letters():
        # the pattern's words are then the runs of ASCII letters: bytes split (typographic
        # quotes and dashes, whatever is not ASCII, made spaces)
        words = sample.encode("ascii", "replace").translate(_LOWER_LETTER_BYTES).split()
        counts, lists = Counter(filter(_ANY_STOP_BYTES.__contains__, words)), _STOP_BYTES
    else:
        words = _words(sample.lower())
        counts, lists = Counter(filter(_ANY_STOP.__contains__, words)), _STOP_WORDS
    if len(words) < _MIN_WORDS:
        return code or "und"
    # (only the function words are counted; per list, only those it holds are looked up)
    shares = {lang: sum(map(counts.__getitem__, counts.keys() & stop)) / len(words)
              for lang, stop in lists.items()}
    best, second = sorted(shares, key=shares.__getitem__, reverse=True)[:2]
    if shares[best] >= _LANGUAGE_SHARE and shares[best] >= _MARGIN * shares[second] and (
            not code or (code in shares and shares[code] < _DECLARED_PART * shares[best])):
        return best
    if code:
        return code
    return "en" if shares["en"] > _ENGLISH_SHARE else "und"     # as before the other lists


#: The bits of a character's classes in :func:`_bmp_classes` (a letter of ``_WORD_RE``; one
#: beyond ASCII, of ``_NON_ASCII_LETTER_RE``).
_ALNUM, _HAN, _KANA, _HANGUL, _LETTER, _NON_ASCII_LETTER = 1, 2, 4, 8, 16, 32
#: Which combinations of the bits hold each of those counted (a sum of their counts).
_CLASS_SUMS = np.array([[(combination & bit) > 0 for combination in range(64)]
                        for bit in (_ALNUM, _HAN, _KANA, _HANGUL, _NON_ASCII_LETTER)], dtype=np.int64)


class _Script:
    """What the script of a sample tells: its share of Han characters among letters and
    digits (``_HAN_RE`` among ``_ALNUM_RE``), its kana and hangul (the characters of
    ``_KANA_RE`` and ``_HANGUL_RE``), and whether a letter beyond ASCII is in it
    (``_NON_ASCII_LETTER_RE``). Its characters' classes are looked up in one table
    (:func:`_bmp_classes`), where each pattern was a pass of its own; the rare characters
    past the Basic Multilingual Plane are read by the patterns."""

    def __init__(self, sample: str) -> None:
        points = np.frombuffer(sample.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        counts = np.bincount(_bmp_classes().take(np.minimum(points, 0xFFFF)), minlength=64)
        letters, han, self.kana, self.hangul, self.beyond_ascii = (_CLASS_SUMS @ counts).tolist()
        self.rare = "".join(map(chr, points[points > 0xFFFF].tolist()))
        if self.rare:
            letters += len(_ALNUM_RE.findall(self.rare))
            han += len(_HAN_RE.findall(self.rare))
        self.han_ratio = han / letters if letters else 0.0

    def non_ascii_letters(self) -> bool:
        rare = self.rare
        return self.beyond_ascii > 0 or (bool(rare) and _NON_ASCII_LETTER_RE.search(rare) is not None)


def _words(lowered: str) -> list[str]:
    """``_WORD_RE.findall(lowered)``: every character that is no letter made a space, then
    split (no letter is a space), faster than the pattern on long samples."""
    points = np.frombuffer(lowered.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if (points > 0xFFFF).any():
        return _WORD_RE.findall(lowered)
    letter = (_bmp_classes().take(points) & _LETTER) > 0
    return np.where(letter, points, np.uint32(32)).astype("<u4").tobytes().decode("utf-32-le").split()


@lru_cache(maxsize=1)
def _bmp_classes() -> np.ndarray:
    """Per character of the Basic Multilingual Plane (U+FFFF, where the others are looked
    up, is in none): the bits of the patterns that match it (made once)."""
    plane = "".join(map(chr, range(0xFFFF)))
    bits = np.zeros(0x10000, dtype=np.uint8)
    for bit, pattern in ((_ALNUM, _ALNUM_RE), (_HAN, _HAN_RE), (_KANA, _KANA_RE), (_HANGUL, _HANGUL_RE),
                         (_LETTER, _WORD_RE), (_NON_ASCII_LETTER, _NON_ASCII_LETTER_RE)):
        for run in re.finditer(f"(?:{pattern.pattern.rstrip('+')})+", plane, pattern.flags):
            bits[run.start():run.end()] |= bit
    return bits
