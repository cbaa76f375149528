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

The counts behind them are taken for all of a page's nodes at once (:func:`page_counts`):
each character's classes are looked up in a table made from the same patterns
:func:`_counts` reads one text at a time, and summed per node with numpy; or, when the
package was built with a C compiler, counted a text at a time in C
(:mod:`newsml.core._text_counts`: the same counts, faster and with no array per
character).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from types import ModuleType

import numpy as np

from ..core.speedups import choose
from ..core.text import ENGLISH_STOP_WORDS, RUN_CHARS, SPLIT_LIMIT, counted_in_runs, counting_pieces
from ..dom.page import Page
from .base import NodeFeatures

#: Han characters that are function words in running Chinese text.
CHINESE_FUNCTION_CHARS = frozenset("的了是在和有也就都而及与或但被把对从于这那个们之其以为所着过")
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]*")
_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_PUNCT_RE = re.compile("[，。、；：！？]")
_ALNUM_RUN_RE = re.compile(r"[^\W_]+")
_DIGIT_RUN_RE = re.compile(r"\d+")
#: What may follow a sentence's last mark: closing quotes and brackets (see :func:`ends_sentence`).
_CLOSERS = "\"'”’»）)]"
_SENTENCE_MARKS = frozenset(".!?。！？…")
_TRAILERS = frozenset(_CLOSERS + "\n")
_is_stop = ENGLISH_STOP_WORDS.__contains__
_STOP_BYTES = frozenset(word.encode("ascii") for word in ENGLISH_STOP_WORDS)
_is_stop_bytes = _STOP_BYTES.__contains__
#: Bytes of a lower-cased Latin word (a to z, the quote) kept, every other byte a space.
_WORD_BYTES = bytes(byte if byte in b"abcdefghijklmnopqrstuvwxyz'" else 0x20 for byte in range(256))
_is_function_char = CHINESE_FUNCTION_CHARS.__contains__

#: The character classes the counts read, one bit each, by the one-character pattern of each:
#: a Latin letter, an upper-case one, a character of a Latin word, a letter or digit, a digit,
#: a Han character, a Chinese function character, a CJK mark.
_CLASSES = (re.compile("[A-Za-z]"), re.compile("[A-Z]"), re.compile("[A-Za-z'’]"), re.compile(r"[^\W_]"),
            re.compile(r"\d"), _HAN_RE, re.compile(f"[{''.join(sorted(CHINESE_FUNCTION_CHARS))}]"),
            _CJK_PUNCT_RE)
_LETTER, _UPPER, _WORD_CHAR, _ALNUM, _DIGIT, _HAN, _FUNCTION, _MARK = (1 << bit for bit in range(8))
#: Between the texts of a batch: of no class, so no word runs from one text into the next.
_SEPARATOR = "\n"
#: The only characters whose lower case holds a character of a Latin word (İ and the Kelvin sign).
_LOWER_TO_ASCII = ("\u0130", "\u212a")
#: Most texts whose cues are worked out together (:func:`_rows`): a large page goes in
#: pieces instead of holding the counts and shares of all its texts at once (each text's
#: cues are its own: the same rows).
ROWS_AT_ONCE = 8192


def _stop_codes(compiled: ModuleType) -> np.ndarray | None:
    """The stop words as the compiled counts look them up (ascending numbers, see its
    ``word_code``); None, and the numpy counts, should a stop word not fit one (a quote,
    or more than 12 letters)."""
    try:
        return np.array(sorted(map(compiled.word_code, _STOP_BYTES)), dtype=np.uint64)
    except ValueError:
        return None


def ends_sentence(text: str) -> bool:
    """Whether the text ends with a sentence mark, then closing quotes or brackets only
    (also before a final newline): what the pattern ``[.!?。！？…][closers]*$`` finds,
    without a regex search that tries every position of the text."""
    last = text[-1:]
    if last in _SENTENCE_MARKS:
        return True
    if last not in _TRAILERS:       # most texts: decided by their last character
        return False
    ends = [text, text[:-1]] if text.endswith("\n") else [text]
    for end in ends:
        body = end.rstrip(_CLOSERS)
        if body and body[-1] in _SENTENCE_MARKS:
            return True
    return False


def _counts(text: str) -> tuple[int, ...]:
    """stop words, words, Han characters, CJK marks, letters and digits, digits, Latin
    words, capitalized Latin words: counts that add up over :func:`counting_pieces`.

    The reference for :func:`_batch_counts`, which counts many texts at once."""
    latin = _LATIN_WORD_RE.findall(text)
    han = [] if text.isascii() else _HAN_RE.findall(text)
    return (sum(map(_is_stop, map(str.lower, latin))) + sum(map(_is_function_char, han)),
            len(latin) + len(han), len(han), 0 if text.isascii() else len(_CJK_PUNCT_RE.findall(text)),
            sum(map(len, _ALNUM_RUN_RE.findall(text))),     # letters and digits, counted by runs
            sum(map(len, _DIGIT_RUN_RE.findall(text))),
            len(latin), sum(map(str.isupper, [word[0] for word in latin])))


def _class_bits(chars: str) -> np.ndarray:
    """The class bits (:data:`_CLASSES`) of each character of ``chars``, found by the patterns."""
    bits = np.zeros(len(chars), dtype=np.uint8)
    for bit, pattern in enumerate(_CLASSES):
        for run in re.finditer(f"(?:{pattern.pattern})+", chars, pattern.flags):  # runs, not each character
            bits[run.start():run.end()] |= 1 << bit
    return bits


@lru_cache(maxsize=1)
def _bmp_bits() -> np.ndarray:
    """:func:`_class_bits` of every character of the Basic Multilingual Plane (made once)."""
    return _class_bits("".join(map(chr, range(0x10000))))


def _bits_of(points: np.ndarray) -> np.ndarray:
    """Class bits of code points: the table's for the BMP, the patterns' for the rare others."""
    table = _bmp_bits()
    astral = points > 0xFFFF
    if not astral.any():
        return table.take(points)
    bits = table.take(np.minimum(points, 0xFFFF))
    found, where = np.unique(points[astral], return_inverse=True)
    bits[astral] = _class_bits("".join(map(chr, found.tolist())))[where]
    return bits


def _astral_bits(char: str) -> int:
    """:func:`_class_bits` of one character past the Basic Multilingual Plane."""
    return int(_class_bits(char)[0])


def _stop_words(joined: str) -> np.ndarray:
    """Whether each Latin word of ``joined`` (a match of :data:`_LATIN_WORD_RE`), in order, is a
    stop word once lower-cased.

    Without the characters of :data:`_LOWER_TO_ASCII`, lower-casing the text is lower-casing
    each of its words, and its words are the runs of a-z and quotes of the lower-cased text,
    leading quotes left out: ASCII bytes split by ``bytes.split`` (every other character made
    a space), faster than the pattern's matches.
    """
    if any(char in joined for char in _LOWER_TO_ASCII):
        words = list(map(str.lower, _LATIN_WORD_RE.findall(joined)))
        return np.fromiter(map(_is_stop, words), dtype=bool, count=len(words))
    text = joined.lower().replace("’", "'").encode("ascii", "replace").translate(_WORD_BYTES)
    runs = text.split()
    if b" '" in text or text.startswith(b"'"):     # runs that start with quotes (or are quotes)
        runs = [word for word in (run.lstrip(b"'") for run in runs) if word]
    return np.fromiter(map(_is_stop_bytes, runs), dtype=bool, count=len(runs))


def _word_starts(bits: np.ndarray) -> np.ndarray:
    """Where the Latin words (matches of :data:`_LATIN_WORD_RE`) start: at a letter with no letter
    before it in its run of word characters (after a character of no word, or after quotes that
    follow one)."""
    letter = (bits & _LETTER) != 0
    quote = (bits & (_WORD_CHAR | _LETTER)) == _WORD_CHAR
    starts = letter.copy()
    starts[1:] &= (bits[:-1] & _WORD_CHAR) == 0
    after_quote = np.flatnonzero(letter[1:] & quote[:-1]) + 1
    if len(after_quote):
        # the last character before each run of quotes (-1: none): a letter there runs on
        last_other = np.maximum.accumulate(np.where(quote, -1, np.arange(len(bits))))
        before = last_other[after_quote - 1]
        starts[after_quote] = (before < 0) | ~letter[before]
    return starts


def _batch_counts(texts: Sequence[str]) -> np.ndarray:
    """:func:`_counts` of each text (one row each), for all of them at once."""
    joined = _SEPARATOR.join(texts) + _SEPARATOR
    bits = _bits_of(np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32))
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + len(_SEPARATOR)
    starts = np.cumsum(lengths) - lengths

    def per_text(mask: np.ndarray) -> np.ndarray:
        return np.add.reduceat(mask, starts, dtype=np.int64)

    word_starts = _word_starts(bits)
    latin, han = per_text(word_starts), per_text(bits & _HAN != 0)
    stop = _stop_words(joined)
    if len(stop) != latin.sum():      # both read _LATIN_WORD_RE's words: they cannot differ
        raise AssertionError("the Latin words of the pattern and of the character classes differ")
    stops = np.concatenate(([0], np.cumsum(stop, dtype=np.int64)))[np.cumsum(latin)]
    capitals = per_text(word_starts & (bits & _UPPER != 0))
    return np.column_stack([np.diff(stops, prepend=0) + per_text(bits & _FUNCTION != 0), latin + han, han,
                            per_text(bits & _MARK != 0), per_text(bits & _ALNUM != 0),
                            per_text(bits & _DIGIT != 0), latin, capitals])


def _long_counts(text: str) -> np.ndarray:
    """:func:`_counts` of a text past :data:`SPLIT_LIMIT`, summed over its
    :func:`counting_pieces`, taken together in runs of about the limit."""
    total = np.zeros(8, dtype=np.int64)
    pieces: list[str] = []
    size = 0
    for piece in [*counting_pieces(text), None]:
        if pieces and (piece is None or size + len(piece) > SPLIT_LIMIT):
            if len(pieces[0]) > 2 * SPLIT_LIMIT:     # a piece with nowhere to cut it near the limit:
                total += _counts(pieces[0])          # no per-character arrays for all of it
            else:
                total += _batch_counts(pieces).sum(axis=0)
            pieces, size = [], 0
        if piece is not None:
            pieces.append(piece)
            size += len(piece) + len(_SEPARATOR)
    return total


def page_counts(texts: Sequence[str]) -> np.ndarray:
    """:func:`_counts` of each text, one row each (those of a long text summed over its pieces)."""
    if not texts:
        return np.zeros((0, 8), dtype=np.int64)
    return _counts_of(texts, np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)))


def counts_in_python(texts: Sequence[str], lengths: np.ndarray) -> np.ndarray:
    """:func:`page_counts` of texts of these lengths, by numpy lookups in runs of texts."""
    if int(lengths.sum()) + len(texts) <= RUN_CHARS:
        return _batch_counts(texts)
    # (runs of at most RUN_CHARS characters, as newsml.core.text counts tokens: arrays of a few
    # bytes per character, never of a million characters at once)
    return counted_in_runs(texts, lengths + len(_SEPARATOR), SPLIT_LIMIT + len(_SEPARATOR), RUN_CHARS,
                           _long_counts, lambda run: _batch_counts([texts[i] for i in run.tolist()]),
                           columns=8)


def _counts_in_c(text_counts: ModuleType) -> Callable[[Sequence[str], np.ndarray], np.ndarray] | None:
    stop_codes = _stop_codes(text_counts)
    if stop_codes is None:
        return None

    def counts(texts: Sequence[str], lengths: np.ndarray) -> np.ndarray:
        longs = np.flatnonzero(lengths > SPLIT_LIMIT).tolist()      # (counted as the batches count them)
        short = [text if length <= SPLIT_LIMIT else "" for text, length in zip(texts, lengths.tolist())] \
            if longs else texts
        total = text_counts.batch_counts(short, _bmp_bits(), _astral_bits, stop_codes)
        for long in longs:
            total[long] = _long_counts(texts[long])
        return total
    return counts


_counts_of = choose("core._text_counts", counts_in_python, _counts_in_c)


def _row(text: str) -> list[float]:
    """The cues of one text (what :class:`ProseFeatures` gives a node of that text)."""
    return [float(value) for value in _rows([text])[0]]


def _rows(texts: Sequence[str]) -> np.ndarray:
    """The cues of each text, one row each, worked out :data:`ROWS_AT_ONCE` texts at a time."""
    rows = np.empty((len(texts), 5))
    for start in range(0, len(texts), ROWS_AT_ONCE):
        piece = texts[start:start + ROWS_AT_ONCE]
        rows[start:start + len(piece)] = _piece_rows(piece)
    return rows


def _piece_rows(texts: Sequence[str]) -> np.ndarray:
    stops, words, han, cjk_marks, alnum, digits, latin, capitals = page_counts(texts).T.astype(float)

    def share(part: np.ndarray, whole: np.ndarray) -> np.ndarray:
        return np.divide(part, whole, out=np.zeros(len(whole)), where=whole > 0)

    return np.column_stack([share(stops, words),
                            np.fromiter(map(ends_sentence, texts), dtype=float, count=len(texts)),
                            np.minimum(share(10.0 * cjk_marks, han), 1.0),
                            share(digits, alnum),
                            share(capitals, latin)])


class ProseFeatures(NodeFeatures):
    """``stop_share, ends_sentence, cjk_punct, digits, capitalized`` per text node."""

    name = "prose"
    feature_names = ("stop_share", "ends_sentence", "cjk_punct", "digits", "capitalized")

    def page_features(self, page: Page) -> np.ndarray:
        if not page.nodes:
            return np.zeros((0, len(self.feature_names)))
        return _rows([node.text for node in page.nodes])
