"""NewsExtractor: the page-level estimator on raw HTML, alone and in scikit-learn pipelines."""

from __future__ import annotations

import pytest
from conftest import LABELED
from sklearn.base import clone
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline

from newsml import InvalidPageError, NewsExtractor, NewsmlError, load_corpus


@pytest.fixture(scope="module")
def pages():
    train = load_corpus(LABELED, split="train")
    test = load_corpus(LABELED, split="test")
    return ([p.html for p in train], [p.gold for p in train], [p.html for p in test], [p.gold for p in test],
            train, test)


def test_fit_on_gold_trains_the_method_and_predicts_texts(pages):
    X, gold, X_test, gold_test, _, _ = pages
    extractor = NewsExtractor(method="nb").fit(X, gold)
    assert extractor.n_train_pages_ == len(X) and extractor.method_.name == "nb"
    texts = extractor.predict(X_test)
    assert len(texts) == len(X_test) and all(isinstance(t, str) for t in texts)
    assert extractor.transform(X_test) == texts
    assert extractor.score(X_test, gold_test) > 0.8


def test_pipeline_on_raw_html_with_class_labels(pages):
    _, _, _, _, train, test = pages
    X = [p.html for p in train + test]
    y = [p.meta["lang"] for p in train + test]          # a downstream target, not gold text
    pipe = make_pipeline(NewsExtractor(method="econ"), TfidfVectorizer(analyzer="char", ngram_range=(1, 2)),
                         LogisticRegression(max_iter=1000))
    pipe.fit(X, y)
    assert pipe.named_steps["newsextractor"].n_train_pages_ == 0      # y was not taken as gold
    assert list(pipe.predict(X)) == y


def test_clone_and_params_round_trip():
    extractor = NewsExtractor(method="cedst", method_params={"sigma": 2.0}, train=False, on_error="empty")
    params = extractor.get_params()
    assert params["method"] == "cedst" and params["method_params"] == {"sigma": 2.0}
    copy = clone(extractor)
    assert copy.get_params() == params and copy is not extractor
    assert copy.set_params(method="econ").method == "econ"


def test_grid_search_over_methods_with_gold(pages):
    X, gold, _, _, _, _ = pages
    search = GridSearchCV(NewsExtractor(), {"method": ["econ", "nb"]}, cv=3).fit(X, gold)
    assert search.best_params_["method"] in ("econ", "nb")
    assert 0.5 < search.best_score_ <= 1.0


def test_bad_pages_raise_or_yield_empty_text(pages):
    X, gold, _, _, _, _ = pages
    strict = NewsExtractor(method="econ").fit(X[:3])
    with pytest.raises(InvalidPageError):
        strict.predict([b""])
    lenient = NewsExtractor(method="econ", on_error="empty").fit(X[:3])
    with pytest.warns(UserWarning, match="page skipped"):
        assert lenient.predict([b"", X[0]])[0] == ""


def test_train_flag_is_checked(pages):
    X, gold, _, _, _, _ = pages
    with pytest.raises(NewsmlError, match="needs gold texts"):
        NewsExtractor(train=True).fit(X)
    with pytest.raises(ValueError, match="train must be"):
        NewsExtractor(train="sometimes").fit(X, gold)
    with pytest.raises(ValueError, match="2 gold texts"):
        NewsExtractor(method="nb", train=True).fit(X[:3], gold[:2])
