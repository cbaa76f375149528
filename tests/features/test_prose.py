"""newsml/features/prose.py: a node's prose cues (stop words, capitals, sentence ends, CJK marks,
digits), counted a page at a time and in pieces as they are one text at a time."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import python_twins

from newsml.dom.page import load_page
from newsml.features.prose import ProseFeatures


def test_prose_cues_of_a_long_text_piece_by_piece_are_the_same(monkeypatch):
    """Past the split limit a node's text is counted in pieces (memory): the same row."""
    import newsml.features.prose as prose

    texts = ["The mayor said that it was over. Home News 2024",
             "北京市发布了暴雨预警，市民 要注意安全。 Rain, 12 mm!", "  A  b  的 了 ， 。 x1 y2  ",
             "了的是在和有也就都而及与或但被把对从于这那个们之其以为所着过2024年5月1日，北京。"]
    whole = [prose._row(text) for text in texts]
    import newsml.core.text

    monkeypatch.setattr(prose, "SPLIT_LIMIT", 4)
    monkeypatch.setattr(newsml.core.text, "SPLIT_LIMIT", 4)
    assert len(list(newsml.core.text.counting_pieces(texts[1]))) > 5  # Chinese without spaces is cut too
    assert [prose._row(text) for text in texts] == whole


def test_prose_cues_of_many_texts_a_piece_at_a_time_are_those_of_all_at_once(monkeypatch):
    """A large page's texts are taken ROWS_AT_ONCE at a time (memory): the same rows."""
    import newsml.features.prose as prose

    texts = [*TRICKY, "The mayor said that it was over.", "北京市发布了暴雨预警，市民要注意安全。"] * 3
    whole = prose._rows(texts)
    monkeypatch.setattr(prose, "ROWS_AT_ONCE", 4)
    pieces = prose._rows(texts)
    assert pieces.shape == (len(texts), 5) and np.array_equal(pieces, whole)
    assert prose._rows([]).shape == (0, 5)


def test_prose_cues_in_english_and_chinese():
    page = load_page("<p>The mayor said that it was over.</p><p>Home News Sport</p>"
                     "<p>北京市发布了暴雨预警，市民要注意安全。</p><p>2024-05-01</p>")
    X = ProseFeatures().page_features(page)
    names = list(ProseFeatures.feature_names)
    # 5 of 7 English words are stop words (the, that, it, was, over); the menu has none
    assert X[0, names.index("stop_share")] == pytest.approx(5 / 7)
    assert X[1, names.index("stop_share")] == 0 and X[1, names.index("capitalized")] == 1
    assert X[:, names.index("ends_sentence")].tolist() == [1, 0, 1, 0]
    # 了 is a function character among 17 Han characters; 2 CJK marks per 17 (over 10%: capped)
    assert X[2, names.index("stop_share")] == pytest.approx(1 / 17)
    assert X[2, names.index("cjk_punct")] == pytest.approx(1.0)
    assert X[3, names.index("digits")] == 1


#: Texts where the character classes of the page-wide counts could part from the patterns:
#: quotes before and inside words, letters whose lower case is ASCII, astral characters,
#: digits of other scripts, underscores, CJK marks, empty texts.
TRICKY = ["'the 'The don't ’tis '' and ''x", "İstanbul THE \u212aelvin iS", "𝐀bc 😀 the 𠀀的了",
          "２０２４年５月，北京。", "", "\n", "a'b'c O’Neil and THE. ‘and’", "٣ digits ¹²³ ½ _under_score_",
          "ÀÉ the Über-cool ﬁnance", "了的是在和有也就都而及与或但被把对从于这那个们之其以为所着过"]


def test_prose_counts_of_a_page_at_once_are_those_of_each_text():
    import random

    import newsml.features.prose as prose

    expected = [list(prose._counts(text)) for text in TRICKY]
    assert prose.page_counts(TRICKY).tolist() == expected
    alphabet = "aZq'’ İ\u212a1٣_，。的了𝐀😀\n .x-"
    rng = random.Random(7)
    texts = ["".join(rng.choices(alphabet, k=rng.randrange(0, 40))) for _ in range(300)]
    assert prose.page_counts(texts).tolist() == [list(prose._counts(text)) for text in texts]
    assert prose.page_counts([]).shape == (0, 8)


@pytest.mark.parametrize("counts", ["as built", "numpy"])
def test_prose_counts_of_a_page_past_the_split_limit_are_those_of_each_text(monkeypatch, counts):
    """Past the limit, texts are counted in runs and long texts in pieces: the same counts
    (in C where it was built, and by numpy, whose runs hold at most RUN_CHARS characters)."""
    import random

    import newsml.core.text
    import newsml.features.prose as prose

    monkeypatch.setattr(prose, "SPLIT_LIMIT", 64)
    monkeypatch.setattr(newsml.core.text, "SPLIT_LIMIT", 64)   # where counting_pieces cuts
    monkeypatch.setattr(prose, "RUN_CHARS", 256)
    runs: list[list[int]] = []
    if counts == "numpy":
        python_twins(monkeypatch)
        short_runs = newsml.core.text.short_runs
        monkeypatch.setattr(newsml.core.text, "short_runs", lambda *args: (runs.append(run.tolist()) or run
                                                                       for run in short_runs(*args)))
    rng = random.Random(11)
    words = ["the", "The", "news", "don't", "2024", "的了", "北京", "，", "。", "İ", "x"]
    texts = [" ".join(rng.choices(words, k=rng.choice([0, 1, 3, 8, 20, 60]))) for _ in range(200)]
    texts[5] = "的" * 300                               # a long run of Han characters
    texts[6] = "The" + "x" * 300                         # a long word: nowhere to cut it
    assert max(map(len, texts)) > 2 * 64 and sum(map(len, texts)) > 20 * 64
    assert prose.page_counts(texts).tolist() == [list(prose._counts(text)) for text in texts]
    if counts == "numpy":                                # every short text once, in runs of at most 256
        assert [i for run in runs for i in run] == [i for i, text in enumerate(texts) if len(text) <= 64]
        assert all(sum(len(texts[i]) + 1 for i in run) <= 256 for run in runs) and len(runs) > 5


def test_stop_words_of_a_page_without_dotted_capital_i_are_the_patterns():
    """Without İ or the Kelvin sign, words are read as runs of ASCII bytes: the same words,
    in the same order, as the pattern's matches (quotes before, inside and alone included)."""
    import random

    import newsml.features.prose as prose
    from newsml.core.text import ENGLISH_STOP_WORDS

    stops = sorted(ENGLISH_STOP_WORDS)
    pieces = ["'", "’", "''", " ", "\n", "x" * 13, "Isn't", "o’clock", "THE", "ﬁnance", "é", "ß",
              "\ud800the", "😀an", "٣", "_", "-", "the'", "'’'"]
    rng = random.Random(11)

    def piece() -> str:
        if rng.random() < 0.5:
            return rng.choice(pieces)
        word = rng.choice(stops)
        return word.title() if rng.random() < 0.3 else word

    for _ in range(300):
        joined = "".join(piece() for _ in range(rng.randrange(30))) + "\n"
        assert not any(char in joined for char in prose._LOWER_TO_ASCII)
        words = prose._LATIN_WORD_RE.findall(joined.lower())
        assert prose._stop_words(joined).tolist() == [word in ENGLISH_STOP_WORDS for word in words], joined
