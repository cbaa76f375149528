"""The markup family's readings taken in C (newsml/methods/_markup_tokens.pyx) give what its
Python code gives: the same words of a class or id string, every score to the last bit."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import compiled_or_skip, in_python, labeled_and_corpus_pages

from newsml.dom.page import load_page
from newsml.methods import new_method
from newsml.methods.markup import _class_words


@pytest.fixture(scope="module")
def compiled():
    return compiled_or_skip("methods._markup_tokens", "its Python code")


def test_the_compiled_scores_on_labeled_and_corpus_pages(compiled, default_method):
    markup = default_method.members_["markup"]
    for path in labeled_and_corpus_pages("cwced_zh", "cleaneval_en", "dragnet", "wcxb_dev", each=30):
        page = load_page(path.read_bytes())
        expected = in_python(lambda page=page: markup.score_nodes(page))
        assert markup.score_nodes(page).tobytes() == expected.tobytes(), path.name


@pytest.mark.parametrize("levels", [1, 4, 12])
def test_the_compiled_scores_of_models_fitted_here(compiled, labeled, levels):
    # 12 levels: the kinds of elements seen no longer fit one number (the columns are sorted)
    docs, labels, _, _ = labeled
    markup = new_method("markup", min_pages=2, levels=levels).fit(docs, labels)
    assert markup.coef_.any()
    for doc in docs:
        expected = in_python(lambda doc=doc: markup.score_nodes(doc))
        assert markup.score_nodes(doc).tobytes() == expected.tobytes()


def test_the_compiled_words_are_those_of_the_pattern(compiled):
    rng = random.Random(3)
    alphabet = "abcxyzABCXYZ0129-_ .:/"
    values = ["", "a", "ab", "fooBar", "ABc", "aBC", "x9Y", "3col", "col-md-8", "postContent2Body",
              "a" * 300, "Ab" * 200, "article-body entry_content", "ÀbcDef", "\u212aelvin"]
    values += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(30))) for _ in range(20000)]
    words = {word for value in values for word in _class_words(value)}
    word_ids = {word: i for i, word in enumerate(sorted(words)) if i % 3}     # some words unknown
    for value in values:
        expected = tuple(word_ids[word] for word in _class_words(value) if word in word_ids)
        found = compiled.class_word_ids(value, word_ids)
        assert found == (expected if value.isascii() else None), repr(value)


def test_the_compiled_sums_refuse_what_they_cannot_read(compiled):
    keys = [("div", "a", None, None)]
    combinations = np.zeros((1, 1), dtype=np.int64)
    coef, none = np.ones(2), np.zeros(0, dtype=np.int64)

    def sums(combinations=combinations, keys=keys, words=None, of_words=lambda value: (0,),
             triple=(-1, -1, -1), comment=none, coef=coef):
        return compiled.token_sums(combinations, keys, words or {}, of_words, {}, lambda tag: triple,
                                   comment, coef)

    assert sums().tolist() == [1.0]
    with pytest.raises(ValueError, match="element kind"):
        sums(combinations=np.full((1, 1), 2, dtype=np.int64))
    with pytest.raises(ValueError, match="outside the vocabulary"):
        sums(of_words=lambda value: (5,))
    with pytest.raises(ValueError, match="outside the vocabulary"):
        sums(triple=(0, 9, -1))
    with pytest.raises(TypeError, match="tuple"):
        sums(of_words=lambda value: [0])
    with pytest.raises(TypeError, match="three"):
        sums(triple=(0, 1))
    with pytest.raises(TypeError):
        sums(keys=["div"])
    with pytest.raises(TypeError):
        compiled.token_sums(None, keys, {}, None, {}, None, none, coef)
    with pytest.raises(TypeError):
        compiled.class_word_ids(None, {})


def test_the_compiled_sums_read_copies_of_what_the_callbacks_may_change(compiled):
    # a callback that empties the keys or rewrites the kinds does not make the loop read past them
    keys = [("div", "a", None, None), ("p", "b", None, None)]
    combinations = np.array([[0, 1]], dtype=np.int64)

    def of_words(value):
        keys.clear()
        combinations[0, 1] = 10**9
        return (0,)

    sums = compiled.token_sums(combinations, keys, {}, of_words, {}, lambda tag: (-1, -1, -1),
                               np.zeros(0, dtype=np.int64), np.ones(2))
    assert sums.tolist() == [1.0, 1.0]
    with pytest.raises(TypeError):      # an unhashable tag is refused, as a dict lookup refuses it
        compiled.token_sums(np.zeros((1, 1), dtype=np.int64), [(["div"], None, None, None)], {}, None, {},
                            None, np.zeros(0, dtype=np.int64), np.ones(1))
