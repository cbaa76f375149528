"""Text primitives shared by every method: tokens, punctuation, scripts, words.

Scoring tokens are lower-cased runs of letters/digits, and every CJK character is a
token of its own (so token-level scores are comparable across English and Chinese).
Words (for topics and title keywords) use jieba on Chinese text; jieba is loaded
lazily because loading its dictionary is slow.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from types import ModuleType
from typing import Any, TypeVar, cast

import numpy as np

from .speedups import choose

F = TypeVar("F", bound=Callable[..., Any])

# Han (basic, extensions A to G, compatibility), kana and Hangul syllables.
_CJK_RANGES = ("\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
               "\U00020000-\U0003134f")
_CJK_RE = re.compile(f"[{_CJK_RANGES}]")
_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
_TOKEN_RE = re.compile(f"[{_CJK_RANGES}]|[^\\W_{_CJK_RANGES}]+")
_LATIN_WORD_RE = re.compile(f"[^\\W_{_CJK_RANGES}]+")
_CJK_RUN_RE = re.compile(f"[{_CJK_RANGES}]+")

#: Periods and commas, Latin and CJK: the punctuation ECON counts.
PERIODS_AND_COMMAS = ".,。，、．，｡､"
_PERIOD_COMMA_RE = re.compile(f"[{re.escape(PERIODS_AND_COMMAS)}]")
#: Sentence punctuation, Latin and CJK: the punctuation ratio of the naive-Bayes paper.
PUNCTUATION = PERIODS_AND_COMMAS + ";:!?\"'“”‘’；：！？「」『』（）()《》【】…—"
_PUNCT_RE = re.compile(f"[{re.escape(PUNCTUATION)}]")

#: scikit-learn's English stop words (``sklearn.feature_extraction.text.ENGLISH_STOP_WORDS``,
#: from the Glasgow Information Retrieval Group's list), copied so that prediction does not
#: import scikit-learn for a word list; ``tests/test_light_prediction.py`` keeps them equal.
ENGLISH_STOP_WORDS = frozenset((
    "a about above across after afterwards again against all almost alone along already also "
    "although always am among amongst amoungst amount an and another any anyhow anyone anything "
    "anyway anywhere are around as at back be became because become becomes becoming been before "
    "beforehand behind being below beside besides between beyond bill both bottom but by call "
    "can cannot cant co con could couldnt cry de describe detail do done down due during each eg "
    "eight either eleven else elsewhere empty enough etc even ever every everyone everything "
    "everywhere except few fifteen fifty fill find fire first five for former formerly forty "
    "found four from front full further get give go had has hasnt have he hence her here "
    "hereafter hereby herein hereupon hers herself him himself his how however hundred i ie if "
    "in inc indeed interest into is it its itself keep last latter latterly least less ltd made "
    "many may me meanwhile might mill mine more moreover most mostly move much must my myself "
    "name namely neither never nevertheless next nine no nobody none noone nor not nothing now "
    "nowhere of off often on once one only onto or other others otherwise our ours ourselves out "
    "over own part per perhaps please put rather re same see seem seemed seeming seems serious "
    "several she should show side since sincere six sixty so some somehow someone something "
    "sometime sometimes somewhere still such system take ten than that the their them themselves "
    "then thence there thereafter thereby therefore therein thereupon these they thick thin "
    "third this those though three through throughout thru thus to together too top toward "
    "towards twelve twenty two un under until up upon us very via was we well were what whatever "
    "when whence whenever where whereafter whereas whereby wherein whereupon wherever whether "
    "which while whither who whoever whole whom whose why will with within without would yet you "
    "your yours yourself yourselves"
).split())


#: A date then a time of day (``2005-08-22 19:13``, ``08-11 17:03``, ``2019年3月1日 10:01``): the
#: header of a comment or a forum post.
DATE_TIME = re.compile(r"\d{1,4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]?\s*(?:\d{1,2}\s*日?)?[\sT,]*\d{1,2}:\d{2}")


def tokens(text: str) -> list[str]:
    """Scoring tokens of ``text``: lower-cased letter/digit runs, one token per CJK character."""
    return _TOKEN_RE.findall(text.lower())


def has_token(text: str) -> bool:
    """``bool(tokens(text))``, without making the list."""
    return _TOKEN_RE.search(text.lower()) is not None


#: Above this many characters, :func:`normalize_space` and :func:`visible_chars` work
#: piece by piece: ``str.split`` (and ``re.sub``) would hold every word of the text as its
#: own object at once, many times the memory of a long text.
SPLIT_LIMIT = 1 << 20
#: Most characters the counts of many texts look up at once (arrays of a few bytes per
#: character, held beside the evidence matrix of a large page).
RUN_CHARS = 1 << 18
_SPACE_RE = re.compile(r"\s")
#: Where a text may be cut for counting: before whitespace or a CJK character (each CJK
#: character is a token of its own, and no run the counts read spans one).
_COUNT_CUT_RE = re.compile(f"[\\s{_CJK_RANGES}]")


def whitespace_pieces(text: str, size: int | None = None, cut: re.Pattern[str] = _SPACE_RE) -> Iterator[str]:
    """``text`` in pieces of about ``size`` characters (default :data:`SPLIT_LIMIT`), each
    cut just before a character ``cut`` matches (whitespace: no word is cut in two)."""
    size = SPLIT_LIMIT if size is None else size
    start = 0
    while start < len(text):
        found = cut.search(text, start + size) if start + size < len(text) else None
        end = found.start() if found else len(text)
        yield text[start:end]
        start = end


def counting_pieces(text: str, size: int | None = None) -> Iterator[str]:
    """``text`` in pieces for counts that add up over them (tokens, words, letters, digits):
    cut before whitespace or a CJK character, so running Chinese, which has no spaces, is
    cut too."""
    return whitespace_pieces(text, size, _COUNT_CUT_RE)


def normalize_space(text: str) -> str:
    """Collapse every whitespace run (including no-break spaces) to one space and strip.

    ``str.split`` splits on exactly the characters ``\\s`` matches (both ask
    ``Py_UNICODE_ISSPACE``), so this is ``re.sub(r"\\s+", " ", text).strip()``, only
    faster; past :data:`SPLIT_LIMIT` characters, piece by piece.
    """
    if len(text) <= SPLIT_LIMIT:
        return " ".join(text.split())
    return " ".join(normal for piece in whitespace_pieces(text) if (normal := " ".join(piece.split())))


def normal_and_visible(text: str) -> tuple[str, int]:
    """:func:`normalize_space` and :func:`visible_chars` of a text of at most
    :data:`SPLIT_LIMIT` characters, from one split: the normal form has one space between
    words, so its length less those spaces is the count of visible characters."""
    split = text.split()
    normal = " ".join(split)
    return normal, len(normal) - len(split) + 1 if split else 0


def count_tokens(text: str) -> int:
    """``len(tokens(text))``, without holding every token of a long text at once."""
    if len(text) <= SPLIT_LIMIT:
        return len(tokens(text))
    return _count_long(text)    # (by the table: no string of every token of a long text)


def _count_by_pattern(text: str) -> int:
    """:func:`count_tokens` by the pattern alone, piece by piece past :data:`SPLIT_LIMIT`:
    for the texts of a chunk where lowering a character past the table would add
    characters (none does in today's Unicode: a guard)."""
    if len(text) <= SPLIT_LIMIT:
        return len(tokens(text))
    return sum(len(tokens(piece)) for piece in counting_pieces(text))


#: Code points below this have their token class in a table (:func:`_token_classes`).
_TABLE_SIZE = 0x10000


@lru_cache(maxsize=1)
def _token_classes() -> np.ndarray:
    """Per code point of the Basic Multilingual Plane: 2 for a CJK character (a token of
    its own), 1 for a character of a letter/digit run, 0 for others: what ``_TOKEN_RE``
    matches, char by char. Built once."""
    classes = _classes_of("".join(map(chr, range(_TABLE_SIZE))))
    classes.setflags(write=False)
    return classes


def _classes_of(chars: str) -> np.ndarray:
    """The token class of each of ``chars`` (:func:`_token_classes`), by the patterns."""
    classes = np.zeros(len(chars), dtype=np.int8)
    for run in _LATIN_WORD_RE.finditer(chars):  # runs of code points, not each one
        classes[run.start():run.end()] = 1
    for run in _CJK_RUN_RE.finditer(chars):
        classes[run.start():run.end()] = 2
    return classes


def count_tokens_each(texts: Sequence[str]) -> np.ndarray:
    """``[count_tokens(text) for text in texts]`` as an int64 array, counted with numpy.

    A page's texts are counted together, runs of at most :data:`RUN_CHARS` characters at a
    time (:func:`short_runs`): tokens are the CJK characters plus the starts of
    letter/digit runs, read from a table of character classes, where a regular expression
    would make a string of every token. Characters past the table (emoji, rare CJK) are
    classed by the patterns, once each; texts past :data:`SPLIT_LIMIT` are counted piece by
    piece.
    """
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 1   # (and a line feed)
    if lengths.sum() <= RUN_CHARS:  # most pages: one chunk
        return _count_chunk(texts)
    return counted_in_runs(texts, lengths, SPLIT_LIMIT, RUN_CHARS, _count_long,
                           lambda run: _count_chunk([texts[i] for i in run.tolist()]))


def _count_long(text: str) -> int:
    """:func:`count_tokens` of a text of any length, its :func:`counting_pieces` read by the
    table of :func:`_count_chunk` (a piece with nowhere to cut it near the limit, by the
    pattern: no per-character arrays for all of it)."""
    return sum(len(tokens(piece)) if len(piece) > 2 * SPLIT_LIMIT else int(_count_chunk([piece])[0])
               for piece in counting_pieces(text))


def _count_chunk(texts: Sequence[str]) -> np.ndarray:
    """Token counts of ``texts`` (at most :data:`RUN_CHARS` characters together, or one text
    of at most :data:`SPLIT_LIMIT`)."""
    if not texts:
        return np.zeros(0, dtype=np.int64)
    # Each text with a line feed after it (a line feed belongs to no token). tokens() reads
    # lower-cased text, but lowering changes no character's class in the table (nor moves
    # one past it: tests/core/test_text.py checks the whole plane), so the texts are read as
    # they are, unless one holds 'İ', the one character lowering lengthens (to 'i' and a
    # dot above, of another class): then each is lowered alone, to know where it starts.
    lowered_texts = [text.lower() for text in texts] if any("\u0130" in text for text in texts) else texts
    lowered = "\n".join(lowered_texts) + "\n"
    codes = np.frombuffer(lowered.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if codes.max() < _TABLE_SIZE:
        classes = _token_classes()[codes]
    else:
        # (the characters past the table, emoji and rare CJK, each classed once by the
        # patterns, lower-cased as tokens() reads them)
        astral = codes >= _TABLE_SIZE
        found, where = np.unique(codes[astral], return_inverse=True)
        rare = "".join(map(chr, found.tolist())).lower()
        if len(rare) != len(found):         # (a case change that adds characters: none does today)
            return np.array([_count_by_pattern(text) for text in texts], dtype=np.int64)
        classes = _token_classes().take(np.minimum(codes, _TABLE_SIZE - 1))
        classes[astral] = _classes_of(rare)[where]
    word = classes == 1
    starts = classes == 2  # each CJK character, and each run's first character
    starts[1:] |= word[1:] & ~word[:-1]
    starts[0] |= word[0]
    lengths = np.fromiter(map(len, lowered_texts), dtype=np.int64, count=len(texts)) + 1
    return np.add.reduceat(starts, np.cumsum(lengths) - lengths, dtype=np.int64)


def visible_chars(text: str) -> int:
    """Characters of ``text`` that are not whitespace (light on memory for long texts too:
    past :data:`SPLIT_LIMIT` characters, a piece at a time, whose whitespace is looked up
    in a table rather than split off: a word list of every piece is slower)."""
    if len(text) <= SPLIT_LIMIT:        # nearly every text: no slicing
        return len("".join(text.split()))
    spaces = 0
    for start in range(0, len(text), SPLIT_LIMIT):
        points = np.frombuffer(text[start:start + SPLIT_LIMIT].encode("utf-32-le", "surrogatepass"),
                               dtype=np.uint32)
        spaces += int(_whitespace().take(np.minimum(points, 0xFFFF)).sum())  # past U+FFFF: none
    return len(text) - spaces


@lru_cache(maxsize=1)
def _whitespace() -> np.ndarray:
    """Per character of the Basic Multilingual Plane: whether it is whitespace, as ``str.split``
    and ``str.isspace`` read it (``Py_UNICODE_ISSPACE``); no character past it is, nor U+FFFF,
    where those are looked up."""
    table = np.zeros(0x10000, dtype=bool)
    table[[code for code in range(0x10000) if chr(code).isspace()]] = True
    return table


def count_periods_commas(text: str) -> int:
    """Number of periods and commas (Latin and CJK) in ``text``: ECON's punc-num."""
    return len(_PERIOD_COMMA_RE.findall(text))


def has_period_comma(text: str) -> bool:
    """Whether ``text`` holds a period or comma (Latin or CJK): ``count_periods_commas(text) > 0``,
    read only up to the first."""
    return _PERIOD_COMMA_RE.search(text) is not None


def count_punctuation(text: str) -> int:
    """Number of sentence punctuation marks (Latin and CJK) in ``text``."""
    return len(_PUNCT_RE.findall(text))


def _marks_table(marks: str) -> np.ndarray:
    """Which characters of the Basic Multilingual Plane are among ``marks`` (all lie in it)."""
    table = np.zeros(0x10000, dtype=bool)
    table[[ord(char) for char in marks]] = True
    table[0xFFFF] = False         # where the code points past the plane are looked up
    return table


_IS_PUNCTUATION = _marks_table(PUNCTUATION)
_IS_PERIOD_COMMA = _marks_table(PERIODS_AND_COMMAS)


def punctuation_counts(texts: list[str]) -> np.ndarray:
    """:func:`count_punctuation` of each text, looked up for many at once (in runs of at
    most :data:`RUN_CHARS` characters; a text past :data:`SPLIT_LIMIT` alone, by the pattern)."""
    return _marks_each(texts, _IS_PUNCTUATION, count_punctuation)


def periods_commas_each(texts: list[str]) -> np.ndarray:
    """:func:`count_periods_commas` of each text, looked up for many at once (as
    :func:`punctuation_counts` does)."""
    return _marks_each(texts, _IS_PERIOD_COMMA, count_periods_commas)


def _marks_in_python(texts: list[str], table: np.ndarray, count: Callable[[str], int]) -> np.ndarray:
    """The marks ``table`` holds in each text (``count``: the same for one text, by a pattern).

    Texts are looked up in runs of at most :data:`RUN_CHARS` characters in all (a text
    past :data:`SPLIT_LIMIT` alone, by ``count``; see :func:`short_runs`).
    """
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    if lengths.sum() <= RUN_CHARS:
        return _run_marks(texts, table, lengths)
    return counted_in_runs(texts, lengths, SPLIT_LIMIT, RUN_CHARS, count,
                           lambda run: _run_marks([texts[i] for i in run.tolist()], table, lengths[run]))


def _marks_in_c(text_counts: ModuleType) -> Callable[..., np.ndarray]:
    def marks_each(texts: list[str], table: np.ndarray, count: Callable[[str], int]) -> np.ndarray:
        # (no array per character: texts of any length at once)
        return cast(np.ndarray, text_counts.marks_each(texts, table.view(np.uint8)))
    return marks_each


_marks_each = choose("core._text_counts", _marks_in_python, _marks_in_c)


def counted_in_runs(texts: Sequence[str], lengths: np.ndarray, longest: int, most: int,
                    count_long: Callable[[str], Any], count_run: Callable[[np.ndarray], Any],
                    columns: int = 0) -> np.ndarray:
    """Counts of each of ``texts`` (int64; ``columns`` of them per text, or one): a text
    whose length in ``lengths`` passes ``longest`` by ``count_long`` alone, the others by
    ``count_run`` of the indices of each of their :func:`short_runs` of at most ``most``.
    How the counts of many texts are taken without arrays per character of all of them."""
    counts = np.zeros((len(texts), columns) if columns else len(texts), dtype=np.int64)
    for i in np.flatnonzero(lengths > longest).tolist():
        counts[i] = count_long(texts[i])
    for run in short_runs(lengths, longest, most):
        counts[run] = count_run(run)
    return counts


def short_runs(lengths: np.ndarray, longest: int, most: int) -> Iterator[np.ndarray]:
    """The indices of the texts of at most ``longest`` characters, in runs of consecutive
    ones of at most ``most`` characters in all (a text longer than ``most`` alone). Where
    each run ends is found on the running lengths, not text by text (a large page has a
    great many texts)."""
    short = np.flatnonzero(lengths <= longest)
    ends = np.cumsum(lengths[short])
    start = 0
    while start < len(short):
        before = int(ends[start - 1]) if start else 0
        stop = max(int(np.searchsorted(ends, before + most, side="right")), start + 1)
        yield short[start:stop]
        start = stop


def _run_marks(texts: list[str], table: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    marks = np.flatnonzero(table.take(np.minimum(points, 0xFFFF)))
    return np.diff(np.searchsorted(marks, np.cumsum(lengths)), prepend=0)


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds at least one CJK character."""
    return _CJK_RE.search(text) is not None


#: The longest run of Han characters jieba reads in one piece (see :func:`words`).
JIEBA_RUN = 500
_LONG_HAN_RUN_RE = re.compile(f"{_HAN_RE.pattern}{{{JIEBA_RUN + 1},}}")


@lru_cache(maxsize=1)
def _jieba():  # pragma: no cover - trivial import wrapper
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


@lru_cache(maxsize=1)
def _jieba_tagger():  # pragma: no cover - trivial import wrapper
    _jieba()
    import jieba.posseg

    return jieba.posseg


def tagged_words(text: str) -> list[tuple[str, str]]:
    """jieba's words of a short text with their part-of-speech flags (``nr`` a person's name,
    ``n`` a noun, ``v`` a verb, ``ns`` a place); meant for a line, not a page."""
    return [(pair.word, pair.flag) for pair in _jieba_tagger().cut(text)]


def dictionary_flags(text: str) -> list[tuple[str, str | None]]:
    """jieba's words of a short text with the part-of-speech flag its dictionary gives each
    (None for a word it does not hold: a new word, such as most names). Many times faster
    than :func:`tagged_words`, whose tagger guesses the flags of new words character by
    character."""
    table = _jieba_tagger().dt.word_tag_tab
    return [(word, table.get(word)) for word in _jieba().lcut(text)]


def words(text: str) -> list[str]:
    """Words of ``text``: jieba segmentation for Chinese runs, letter/digit runs otherwise.

    Only text that holds CJK characters pays for jieba (and for loading it, once).
    """
    if not has_cjk(text):
        return _LATIN_WORD_RE.findall(text.lower())
    out: list[str] = []
    for piece in _jieba_pieces(text.lower()):
        for word in _jieba().lcut(piece):
            word = word.strip()
            if word and (has_cjk(word) or _LATIN_WORD_RE.fullmatch(word)):
                out.append(word)
    return out


def _jieba_pieces(text: str) -> list[str]:
    """``text`` cut where a run of Han characters without punctuation grows past
    :data:`JIEBA_RUN` characters, else whole. jieba's time grows with the square of such a
    run's length; prose has a mark every few dozen."""
    if len(text) <= JIEBA_RUN or not _LONG_HAN_RUN_RE.search(text):
        return [text]
    cuts = [end for run in _LONG_HAN_RUN_RE.finditer(text)
            for end in range(run.start() + JIEBA_RUN, run.end(), JIEBA_RUN)]
    return [text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)])]


def join_paragraphs(paragraphs: Iterable[str]) -> str:
    """Paragraphs joined one per line, empty ones dropped."""
    return "\n".join(p for p in paragraphs if p)


def cached_when_short(maxsize: int = 16384, longest: int = 256) -> Callable[[F], F]:
    """``functools.lru_cache`` for a function of one string, used only for strings of at
    most ``longest`` characters (and None): the class and id strings of pages repeat
    across a site's pages, but a crawler meets millions of them, some of megabytes, so
    the cache holds at most ``maxsize`` keys of bounded length; longer ones are worked
    out each time."""
    def wrap(function: F) -> F:
        cached = lru_cache(maxsize=maxsize)(function)

        @functools.wraps(function)
        def call(value: str | None) -> Any:
            return cached(value) if value is None or len(value) <= longest else function(value)

        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return cast(F, call)
    return wrap
