"""The semantics family's marks taken in C (newsml/features/_semantic_marks.pyx) are those of
its Python code: each new word searched as the families' pattern searches it, each kind of
element's marks or-ed alike."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import compiled_or_skip, labeled_and_corpus_pages

from newsml.dom.page import load_page
from newsml.features import semantics


@pytest.fixture(scope="module")
def compiled():
    return compiled_or_skip("features._semantic_marks", "its Python code")


def corpus_keys() -> list[tuple]:
    keys: list[tuple] = []
    corpora = ("cwced_zh", "daniel_zh", "cleaneval_en", "dragnet", "wcxb_dev")
    for path in labeled_and_corpus_pages(*corpora, each=25):
        keys += load_page(path.read_bytes()).attribute_kinds.keys
    return keys


def test_the_matcher_finds_what_the_pattern_finds(compiled):
    rng = random.Random(5)
    alphabet = "commentfootasidereadmoretagsbodyphotonavmediaxiangguan_-xyz12 "
    words = ["mediaside", "sidebarticle", "article-body", "read-more", "readmore", "tags", "tagsx", "tag1",
             "post_content", "headerbody", "bottomenu", "most-read", "mostread", "tagline", "a", "-", "_tags"]
    words += ["".join(rng.choices(alphabet, k=rng.randrange(1, 30))).replace(" ", "") or "x"
              for _ in range(50000)]
    words += [word.lower() for key in corpus_keys() for value in key[1:] if value and value.isascii()
              for word in value.split()]
    matcher = compiled.FamilyMatcher(semantics._ALTERNATIVES)
    for word in words:
        assert matcher.mark(word) == semantics._one_word_families(word), word


@pytest.mark.parametrize("with_matcher", [True, False])
def test_the_marks_of_corpus_keys_are_the_python_ones(compiled, with_matcher):
    keys = corpus_keys() + [("aside", "Related-Stories ſide", "x\u00a0comment", None), ("p", "", None, "")]
    expected = [semantics._key_families(*key) for key in keys]
    table: dict[str, int] = {}
    for _ in range(2):          # from an empty table, then from the table it filled
        matcher = compiled.FamilyMatcher(semantics._ALTERNATIVES) if with_matcher else None
        marks = compiled.key_marks(keys, semantics._TAG_MARKS, table, semantics._word_mark,
                                   semantics._word_families, matcher)
        assert marks.tolist() == expected
    assert bool(table) == with_matcher      # (without a matcher, new words go to _word_mark's own)


def test_the_word_table_is_bounded(compiled):
    table: dict[str, int] = {}
    keys = [("div", f"w{i} comment-{i} {'x' * 80}", None, None) for i in range(50)]
    marks = compiled.key_marks(keys, {}, table, semantics._word_mark, semantics._word_families,
                               compiled.FamilyMatcher(semantics._ALTERNATIVES), 10, 64)
    assert marks.tolist() == [semantics._key_families(*key) for key in keys]
    assert len(table) <= 10 and all(len(word) <= 64 for word in table)


def test_the_compiled_marks_refuse_what_they_cannot_read(compiled):
    with pytest.raises(ValueError, match="plain lower-case word"):
        compiled.FamilyMatcher([("a", "B", 1)])
    with pytest.raises(ValueError, match="plain lower-case word"):
        compiled.FamilyMatcher([("a", "b??", 1)])
    with pytest.raises(ValueError, match="letter a-z"):
        compiled.FamilyMatcher([("1", "b", 1)])
    with pytest.raises(ValueError, match="ASCII"):
        compiled.FamilyMatcher(semantics._ALTERNATIVES).mark("naïve")
    with pytest.raises(TypeError, match="tuples"):
        compiled.key_marks([("div", "a")], {}, {}, semantics._word_mark, semantics._word_families)
    with pytest.raises(TypeError, match="str or None"):
        compiled.key_marks([("div", 5, None, None)], {}, {}, semantics._word_mark, semantics._word_families)
    with pytest.raises(TypeError):
        compiled.key_marks(None, {}, {}, semantics._word_mark, semantics._word_families)
    assert compiled.key_marks([], {}, {}, None, None).shape == (0,)
    footer = compiled.key_marks([("footer", None, None, None)], semantics._TAG_MARKS, {}, None, None)
    assert np.array_equal(footer, [1 << semantics._COLUMN["footer"]])


def test_the_compiled_marks_read_a_copy_of_the_keys_and_keep_a_matcher_whole(compiled):
    keys = [("div", "é", None, None)] + [("aside", "x", None, None)] * 3
    marks = compiled.key_marks(keys, semantics._TAG_MARKS, {}, lambda word: 0,
                               lambda value: (keys.clear(), 0)[1], None)
    assert marks.tolist() == [0] + [1 << semantics._COLUMN["related"]] * 3
    with pytest.raises(TypeError):      # an unhashable tag is refused, as a dict lookup refuses it
        compiled.key_marks([(["div"], None, None, None)], {}, {}, None, None)
    matcher = compiled.FamilyMatcher(semantics._ALTERNATIVES)
    for bad in ([("a", "b", 1 << 70)], [("c", "D", 1)]):     # a failed new start leaves the old tables
        with pytest.raises(ValueError):
            matcher.__init__(bad)
        assert matcher.mark("sidebar") == semantics._one_word_families("sidebar")
