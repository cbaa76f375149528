"""newsml/core/text.py: tokens, white space, counts of characters and marks, words, and the
runs and pieces in which long texts and many texts are counted.

Each fast form is checked against its plain definition (a regular expression, ``str``
methods, one text at a time), on hand-picked and on random texts.
"""

from __future__ import annotations

import random
import re
import sys

import numpy as np
import pytest
from conftest import python_twins

import newsml.core.text as text_module
from newsml.core.text import (
    DATE_TIME,
    JIEBA_RUN,
    PERIODS_AND_COMMAS,
    PUNCTUATION,
    cached_when_short,
    count_periods_commas,
    count_punctuation,
    count_tokens,
    count_tokens_each,
    counted_in_runs,
    counting_pieces,
    has_cjk,
    has_period_comma,
    has_token,
    join_paragraphs,
    normal_and_visible,
    normalize_space,
    periods_commas_each,
    punctuation_counts,
    short_runs,
    tokens,
    visible_chars,
    whitespace_pieces,
    words,
)

# -- tokens -------------------------------------------------------------------------------------


def test_tokens_are_lower_cased_letter_and_digit_runs_and_single_cjk_characters():
    assert tokens("The Mayor's 2nd plan") == ["the", "mayor", "s", "2nd", "plan"]
    assert tokens("北京 time") == ["北", "京", "time"]
    assert tokens("x_y-z") == ["x", "y", "z"]                  # underscores and dashes part runs
    assert tokens("カタカナ 한국") == list("カタカナ") + list("한국")  # kana and Hangul: one each
    assert tokens(" ,.;!\n") == [] and tokens("") == []


def test_has_token_is_whether_there_are_tokens():
    rng = random.Random(1)
    alphabet = ["a", "Z", "9", "_", "-", " ", ",", "中", "İ", "\u00a0", "😀"]
    for _ in range(2000):
        text = "".join(rng.choices(alphabet, k=rng.randrange(0, 6)))
        assert has_token(text) is bool(tokens(text)), repr(text)


def test_count_tokens_is_the_number_of_tokens_also_past_the_split_limit(monkeypatch):
    texts = ["", "One two, three.", "北京时间 x_y 3.5%", "word " * 50, "中" * 40 + "end", "İstanbul'da"]
    expected = [len(tokens(text)) for text in texts]
    assert [count_tokens(text) for text in texts] == expected
    monkeypatch.setattr(text_module, "SPLIT_LIMIT", 7)          # every long text counted in pieces
    assert [count_tokens(text) for text in texts] == expected


def test_token_counts_are_the_regex_counts_node_by_node(monkeypatch):
    """Page.token_counts (count_tokens_each: a table of character classes) counts what
    tokens() finds, text by text: case changes that add characters, CJK next to words,
    characters past the table, runs cut at RUN_CHARS, texts past SPLIT_LIMIT alone."""
    from newsml.dom.page import load_page

    page = load_page("<p>Home <a href='/'>World</a></p><p>İstanbul'da 北京时间 x_y 3.5%</p>")
    assert page.token_counts.tolist() == [len(tokens(node.text)) for node in page.nodes]
    alphabet = ["a", "Z", "9", "_", "-", " ", "\n", "\xa0", "é", "İ", "Σ", "中", "ひ", "カ", "한",
                "\u2019", "\u0307", "٣", "ǅ", "\U00020000", "\U0001f600"]
    rng = np.random.default_rng(2)
    for limit, run in ((text_module.SPLIT_LIMIT, text_module.RUN_CHARS), (10, 10), (10, 4)):
        monkeypatch.setattr(text_module, "SPLIT_LIMIT", limit)
        monkeypatch.setattr(text_module, "RUN_CHARS", run)
        for case in range(2000):
            letters = alphabet if case % 3 == 0 else alphabet[:-2]  # most pages stay in the table
            sizes = rng.integers(0, 25, size=rng.integers(0, 8))
            texts = ["".join(rng.choice(letters, size=size)) for size in sizes]
            counts = count_tokens_each(texts)
            assert counts.dtype == np.int64 and counts.tolist() == [len(tokens(text)) for text in texts]


def test_lower_casing_changes_no_token_class_but_that_of_the_dotted_capital_i():
    """What lets count_tokens_each read texts without lower-casing them (tokens() reads
    them lower-cased): of the Basic Multilingual Plane, only 'İ' changes length, no other
    character changes class in the token table, and none leaves the plane."""
    table = text_module._token_classes()
    longer = [code for code in range(0x10000) if len(chr(code).lower()) != 1]
    assert longer == [0x130]
    assert all(table[ord(chr(code).lower())] == table[code] for code in range(0x10000) if code not in longer)
    assert "\u03a3\u03a3".lower() == "\u03c3\u03c2" and table[0x3c2] == table[0x3c3] == table[0x3a3]


# -- white space --------------------------------------------------------------------------------


def test_normalize_space_is_the_whitespace_regex():
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if re.match(r"\s", chr(c))]
    assert len(spaces) > 20 and "\xa0" in spaces
    rng = np.random.default_rng(0)
    alphabet = [*spaces, "a", "中", "\u200b", "."]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet, size=rng.integers(0, 12)))
        assert normalize_space(text) == re.sub(r"\s+", " ", text).strip()
        assert normal_and_visible(text) == (normalize_space(text), len(re.sub(r"\s", "", text)))


def test_normalize_space_past_the_split_limit_is_the_same(monkeypatch):
    """Long texts take the regex (less memory than a list of every word): same result."""
    monkeypatch.setattr(text_module, "SPLIT_LIMIT", 3)
    rng = np.random.default_rng(1)
    for _ in range(2000):
        # (U+1000A and U+1F600 end in the code units of a line feed and of no whitespace)
        text = "".join(rng.choice([" ", "\n", "\xa0", "\x1c", "\u3000", "a", "中", ".", "7", "é",
                                   "\U0001000a", "\U0001f600"], size=rng.integers(0, 30)))
        if len(text) > 8:
            assert len(list(whitespace_pieces(text))) > 1 or not re.search(r"\s", text[3:])
        assert normalize_space(text) == re.sub(r"\s+", " ", text).strip()
        assert visible_chars(text) == len(re.sub(r"\s", "", text))


def test_whitespace_pieces_join_to_the_text_and_cut_only_before_white_space():
    rng = random.Random(4)
    for _ in range(500):
        text = "".join(rng.choices(["a", "bc", " ", "\n", "中", "\xa0", "😀"], k=rng.randrange(0, 60)))
        size = rng.randrange(1, 12)
        pieces = list(whitespace_pieces(text, size))
        assert "".join(pieces) == text and all(pieces)
        for before, piece in zip(pieces, pieces[1:]):
            assert piece[0].isspace()                       # no word cut in two
            assert len(before) >= size                      # a cut comes no earlier than the size
            # ... and at the first white space from there: none in the part of the piece before
            assert not any(char.isspace() for char in before[size:])
    assert list(whitespace_pieces("word " * 3)) == ["word " * 3]   # the default size: whole


def test_counting_pieces_also_cut_before_cjk_characters_and_keep_the_counts():
    text = "北京市发布了暴雨预警，市民要注意安全。" * 3 + " Rain, 12 mm! " * 4
    pieces = list(counting_pieces(text, 5))
    assert "".join(pieces) == text and len(pieces) > 10
    assert all(piece[0].isspace() or has_cjk(piece[0]) for piece in pieces[1:])
    assert sum(count_tokens(piece) for piece in pieces) == count_tokens(text)
    latin = re.compile(r"[A-Za-z0-9]+")                         # no Latin word is cut in two
    assert [word for piece in pieces for word in latin.findall(piece)] == latin.findall(text)
    assert list(whitespace_pieces(text[:57], 5)) == [text[:57]]   # no white space: one piece


def test_visible_chars_counts_what_is_not_white_space_at_any_length(monkeypatch):
    texts = ["", " \n\t", "a b\u00a0c\u3000d", "中 文", "😀 \U00010000", "x" * 30 + " " * 9 + "\u2028y"]
    expected = [sum(not char.isspace() for char in text) for text in texts]
    assert [visible_chars(text) for text in texts] == expected
    monkeypatch.setattr(text_module, "SPLIT_LIMIT", 4)          # looked up in a table, piece by piece
    assert [visible_chars(text) for text in texts] == expected


# -- marks --------------------------------------------------------------------------------------


def test_period_comma_and_punctuation_counts_are_the_characters_listed():
    rng = random.Random(6)
    alphabet = [*PUNCTUATION, "a", " ", "中", "-", "😀", "#"]
    for _ in range(1000):
        text = "".join(rng.choices(alphabet, k=rng.randrange(0, 20)))
        assert count_periods_commas(text) == sum(char in PERIODS_AND_COMMAS for char in text)
        assert count_punctuation(text) == sum(char in PUNCTUATION for char in text)
        assert has_period_comma(text) is (count_periods_commas(text) > 0)
    assert set(PERIODS_AND_COMMAS) <= set(PUNCTUATION)
    assert count_periods_commas("One, two. 三，四。") == 4 and count_punctuation("Why? “No!”") == 4


def test_punctuation_of_many_texts_at_once_is_that_of_each(monkeypatch):
    texts = ["One, two. Three!", "", "北京。（新华社）“好”", "no marks", "😀!𠀀？", "...—…", "x" * 9]
    expected = [count_punctuation(text) for text in texts]
    assert punctuation_counts(texts).tolist() == expected   # (in C where it was built)
    python_twins(monkeypatch)          # the numpy lookups, run by run
    assert punctuation_counts(texts).tolist() == expected
    monkeypatch.setattr(text_module, "SPLIT_LIMIT", 8)         # runs of a few texts, and long texts alone
    monkeypatch.setattr(text_module, "RUN_CHARS", 8)
    runs = []
    run_marks = text_module._run_marks
    monkeypatch.setattr(text_module, "_run_marks",
                        lambda run, *rest: runs.append(run) or run_marks(run, *rest))
    assert punctuation_counts(texts).tolist() == expected
    assert all(sum(map(len, run)) <= 8 for run in runs)             # no run past the limit
    assert [text for run in runs for text in run] == [text for text in texts if len(text) <= 8]
    assert len(runs) == 3                                             # each run as long as the limit allows
    runs.clear()
    monkeypatch.setattr(text_module, "RUN_CHARS", 4)            # runs shorter than the longest short text
    assert punctuation_counts(texts).tolist() == expected
    assert [text for run in runs for text in run] == [text for text in texts if len(text) <= 8]
    assert all(sum(map(len, run)) <= 4 or len(run) == 1 for run in runs)


@pytest.mark.parametrize("counts", ["as built", "numpy"])
def test_periods_and_commas_of_many_texts_at_once_are_those_of_each(monkeypatch, counts):
    if counts == "numpy":
        python_twins(monkeypatch)
    rng = random.Random(8)
    alphabet = [*PERIODS_AND_COMMAS, "a", " ", "中", "!", "😀", "\U00020000"]
    texts = ["".join(rng.choices(alphabet, k=rng.randrange(0, 30))) for _ in range(200)]
    expected = [count_periods_commas(text) for text in texts]
    assert periods_commas_each(texts).tolist() == expected
    monkeypatch.setattr(text_module, "SPLIT_LIMIT", 12)        # long texts alone, the rest in runs
    monkeypatch.setattr(text_module, "RUN_CHARS", 40)
    assert periods_commas_each(texts).tolist() == expected
    assert periods_commas_each([]).tolist() == []


# -- runs of many texts -------------------------------------------------------------------------


def test_short_runs_hold_each_short_text_once_in_order_and_within_the_limit():
    rng = np.random.default_rng(3)
    for _ in range(500):
        lengths = rng.integers(0, 30, size=rng.integers(0, 40))
        longest, most = int(rng.integers(1, 30)), int(rng.integers(1, 60))
        runs = list(short_runs(lengths, longest, most))
        assert [i for run in runs for i in run.tolist()] == np.flatnonzero(lengths <= longest).tolist()
        for run in runs:
            assert len(run) == 1 or lengths[run].sum() <= most
        # each run as long as the limit allows: the next text would not have fitted
        for run, after in zip(runs, runs[1:]):
            assert lengths[run].sum() + lengths[after[0]] > most


def test_counted_in_runs_counts_long_texts_alone_and_the_others_by_run():
    texts = ["a", "bb", "c" * 9, "", "dd", "e" * 12, "f"]
    lengths = np.array([len(text) for text in texts])
    alone, ran = [], []

    def count_run(run):
        ran.append(run.tolist())
        return [len(texts[i]) * 10 for i in run.tolist()]

    def count_long(text):
        alone.append(text)
        return -len(text)

    counts = counted_in_runs(texts, lengths, 8, 4, count_long, count_run)
    assert counts.dtype == np.int64
    assert counts.tolist() == [-len(t) if len(t) > 8 else len(t) * 10 for t in texts]
    assert alone == ["c" * 9, "e" * 12]
    assert ran == [run.tolist() for run in short_runs(lengths, 8, 4)]
    table = counted_in_runs(texts, lengths, 8, 4, lambda text: [1, 2], lambda run: [[3, 4]] * len(run),
                            columns=2)
    assert table.shape == (len(texts), 2)
    assert table.tolist() == [[1, 2] if len(text) > 8 else [3, 4] for text in texts]


# -- words and scripts --------------------------------------------------------------------------


def test_has_cjk_finds_han_kana_and_hangul_only():
    assert has_cjk("北") and has_cjk("abc ひ") and has_cjk("カ") and has_cjk("한")
    assert not has_cjk("") and not has_cjk("naïve café Σ ٣") and not has_cjk("，。")


def test_words_are_jiebas_for_chinese_and_letter_runs_otherwise():
    assert words("The Mayor's 2nd plan, x_y") == ["the", "mayor", "s", "2nd", "plan", "x", "y"]
    zh = words("北京时间昨天晚上发布了数据。")
    assert zh[:2] == ["北京", "时间"] and "。" not in zh
    assert "".join(zh) == "北京时间昨天晚上发布了数据"   # every character, in order, no mark
    mixed = words("国家统计局 GDP 增长 5.2%")
    assert "gdp" in mixed and "%" not in "".join(mixed)
    assert all(has_cjk(word) or re.fullmatch(r"[^\W_]+", word) for word in mixed)


def test_jieba_reads_long_unpunctuated_han_runs_in_bounded_pieces():
    run = "中国" * 20_000 + "，北京。"
    pieces = text_module._jieba_pieces(run)
    assert "".join(pieces) == run and max(map(len, pieces)) <= JIEBA_RUN + 4
    short = "国家统计局发布了数据。" * 40
    assert text_module._jieba_pieces(short) == [short]
    assert words("中国" * 600)[:2] == ["中国", "中国"]
    assert "".join(words("中国" * 600)) == "中国" * 600


def test_join_paragraphs_puts_one_per_line_and_drops_empty_ones():
    assert join_paragraphs(["One.", "", "Two.", "Three."]) == "One.\nTwo.\nThree."
    assert join_paragraphs([]) == "" and join_paragraphs(["", ""]) == ""
    assert join_paragraphs(iter(["a"])) == "a"


@pytest.mark.parametrize("header", ["2005-08-22 19:13", "08-11 17:03", "2019年3月1日 10:01",
                                    "2024/05/02T10:31", "2005年6月14日 03:25"])
def test_date_time_finds_the_headers_of_posts(header):
    assert DATE_TIME.search(f"anna wrote on {header}:") is not None


@pytest.mark.parametrize("text", ["2024-05-02", "at 10:31", "Chapter 3 of 12"])
def test_date_time_needs_a_date_and_a_time(text):
    assert DATE_TIME.search(text) is None


def test_class_strings_are_cached_only_when_short():
    """A crawler meets millions of class and id strings: the cache keeps short ones only."""
    calls: list[str | None] = []

    @cached_when_short(maxsize=4, longest=10)
    def length(value: str | None) -> int:
        calls.append(value)
        return len(value or "")

    assert [length("short"), length("short"), length(None), length(None)] == [5, 5, 0, 0]
    assert calls == ["short", None]
    long = "x" * 11
    assert [length(long), length(long)] == [11, 11]
    assert calls == ["short", None, long, long]
    length.cache_clear()
    assert length("short") == 5 and calls[-1] == "short"   # cleared: worked out again
