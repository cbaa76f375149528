"""newsml/core/text.py: tokens, white space, counts of marks, words, and the runs and pieces in
which long texts and many texts are counted."""

from __future__ import annotations

import re
import sys

import numpy as np
from conftest import python_twins

import newsml.core.text as text_module
from newsml.core.text import (
    JIEBA_RUN,
    cached_when_short,
    count_punctuation,
    count_tokens_each,
    normal_and_visible,
    normalize_space,
    punctuation_counts,
    tokens,
    visible_chars,
    whitespace_pieces,
    words,
)

# -- tokens -------------------------------------------------------------------------------------


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


# -- marks --------------------------------------------------------------------------------------


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


# -- words and scripts --------------------------------------------------------------------------


def test_jieba_reads_long_unpunctuated_han_runs_in_bounded_pieces():
    run = "中国" * 20_000 + "，北京。"
    pieces = text_module._jieba_pieces(run)
    assert "".join(pieces) == run and max(map(len, pieces)) <= JIEBA_RUN + 4
    short = "国家统计局发布了数据。" * 40
    assert text_module._jieba_pieces(short) == [short]
    assert words("中国" * 600)[:2] == ["中国", "中国"]


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
