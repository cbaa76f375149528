"""The counts taken in C (newsml/core/_text_counts.pyx), the prose family's and the marks of
sentences, are those of the numpy lookups and of the one-text reference, text by text."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import compiled_or_skip, in_python, labeled_and_corpus_pages, speedups_afresh

from newsml.core import speedups, text
from newsml.dom.page import load_page
from newsml.features import prose


@pytest.fixture(scope="module")
def compiled():
    return compiled_or_skip("core._text_counts", "numpy counts")


def in_c(compiled, texts: list[str]) -> np.ndarray:
    return compiled.batch_counts(texts, prose._bmp_bits(), prose._astral_bits, prose._stop_codes(compiled))


TEXTS = [
    "", " ", "The cat and THE dog", "Don't stop, don’t STOP: it's the end of the road.",
    "'tis the season; ''and'' so ’twas", "İstanbul and the KELVIN sign: \u212a is not ASCII",
    "naïve café of the résumé", "abcdefghijkl abcdefghijklm the", "a a a A I i",
    "中国的经济在发展，这是我们的。", "混合 text 与 English、和数字 123 和 ٣٤٥", "𝐀𝐁𝐂 the 𠀀𠀁 of 😀 and",
    "x" * 5000 + " the", "the\nof\tand\u00a0to", "Title Case Menu Of Links", "2024-11-29 12:30",
]


def test_the_compiled_counts_are_those_of_numpy_and_of_the_reference(compiled):
    counts = in_c(compiled, TEXTS)
    np.testing.assert_array_equal(counts, prose._batch_counts(TEXTS))
    assert [tuple(row) for row in counts.tolist()] == [prose._counts(text) for text in TEXTS]
    assert in_c(compiled, []).shape == (0, 8)


def test_the_compiled_counts_on_labeled_and_corpus_pages(compiled):
    for path in labeled_and_corpus_pages("cwced_zh", "cleaneval_en", each=30):
        texts = [node.text for node in load_page(path.read_bytes()).nodes]
        np.testing.assert_array_equal(in_c(compiled, texts), prose._batch_counts(texts))


def test_the_compiled_counts_refuse_what_they_cannot_read(compiled):
    with pytest.raises(TypeError, match="str"):
        in_c(compiled, ["text", b"bytes"])
    with pytest.raises(ValueError, match="ascending"):
        descending = prose._stop_codes(compiled)[::-1].copy()
        compiled.batch_counts(["x"], prose._bmp_bits(), prose._astral_bits, descending)
    with pytest.raises(ValueError, match="Basic Multilingual Plane"):
        compiled.batch_counts(["x"], prose._bmp_bits()[:10], prose._astral_bits, prose._stop_codes(compiled))
    with pytest.raises(TypeError):
        compiled.batch_counts(["x"], prose._bmp_bits(), prose._astral_bits, None)
    class Text(str):
        pass
    assert in_c(compiled, [Text("the cat")]).tolist() == in_c(compiled, ["the cat"]).tolist()
    texts = ["a 😀 b", "the end"]           # a callback that changes the list read: no effect
    changed = compiled.batch_counts(texts, prose._bmp_bits(), lambda char: texts.clear() or
                                    prose._astral_bits(char), prose._stop_codes(compiled))
    assert changed.tolist() == in_c(compiled, ["a 😀 b", "the end"]).tolist()
    with pytest.raises(ValueError, match="lower-case ASCII letters"):
        compiled.word_code(b"abcdefghijklm")
    assert compiled.word_code(b"ba") == 2 + (1 << 5)


@pytest.mark.parametrize("marks", ["punctuation", "periods and commas"])
def test_marks_counted_in_c_are_those_the_tables_find(compiled, marks):
    """Punctuation (naive Bayes) and periods and commas (ECON) of each text, in C and by the
    numpy lookups, on the texts above and on real pages' texts (and past the plane: the
    lookup at U+FFFF, no mark)."""
    count = text.punctuation_counts if marks == "punctuation" else text.periods_commas_each
    one = text.count_punctuation if marks == "punctuation" else text.count_periods_commas
    pages = [[node.text for node in load_page(path.read_bytes()).nodes]
             for path in labeled_and_corpus_pages("cwced_zh", "dragnet", each=20)]
    for texts in [TEXTS + ["\uffff\U0010ffff.", "\ud800,"], *pages]:
        found = count(texts)
        assert found.tolist() == [one(t) for t in texts]
        np.testing.assert_array_equal(in_python(lambda texts=texts: count(texts)), found)
    with pytest.raises(ValueError, match="Basic Multilingual Plane"):
        compiled.marks_each(["x"], np.zeros(10, dtype=np.uint8))
    with pytest.raises(TypeError, match="str"):
        compiled.marks_each(["x", None], np.zeros(0x10000, dtype=np.uint8))


def test_the_prose_counts_fall_back_to_numpy_when_told(monkeypatch, compiled):
    speedups_afresh(monkeypatch)
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "1")
    assert speedups.loaded("core._text_counts") is None
    monkeypatch.undo()
    expected = prose.page_counts(TEXTS)
    lengths = np.array([len(text) for text in TEXTS])
    np.testing.assert_array_equal(prose.counts_in_python(TEXTS, lengths), expected)
    np.testing.assert_array_equal(in_python(lambda: prose.page_counts(TEXTS)), expected)
