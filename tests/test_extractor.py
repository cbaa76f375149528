"""NewsExtractor: the page-level estimator on raw HTML, alone and in scikit-learn pipelines."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import LABELED
from sklearn.base import clone
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline

from newsml import InvalidPageError, NewsExtractor, NewsmlError, load_corpus, save_model
from newsml.learning.training import train_method


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
    # the same folds by hand: each method trained on two folds, scored on the third
    by_hand = {name: np.mean(cross_val_score(NewsExtractor(method=name), X, gold, cv=3))
               for name in ("econ", "nb")}
    assert search.best_params_["method"] == max(by_hand, key=by_hand.get)
    assert search.best_score_ == pytest.approx(max(by_hand.values()))
    assert search.best_score_ > 0.8


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


def test_a_model_file_is_scored_against_gold_not_refused(tmp_path):
    pages = load_corpus(LABELED)
    method, meta = train_method("nb", [LABELED], split="train", cv_folds=0)
    path = save_model(method, tmp_path / "nb.joblib", **meta)
    html, gold = [p.html for p in pages], [p.gold for p in pages]
    scores = cross_val_score(NewsExtractor(model=str(path)), html, gold, cv=3)
    assert len(scores) == 3 and all(0.5 < s <= 1 for s in scores)


def test_fit_fails_at_once_for_an_untrained_learned_method():
    with pytest.raises(NewsmlError, match="not trained"):
        NewsExtractor(method="fusion", method_params={"sigma": 1.0}).fit([b"<p>x</p>"], ["a", "b"][:1])


def test_one_page_alone_or_golds_of_another_length_are_refused(pages):
    html, gold = pages[0], pages[1]
    extractor = NewsExtractor(method="econ").fit(html)
    with pytest.raises(TypeError, match="not one page"):
        extractor.predict(html[0])
    with pytest.raises(ValueError, match=f"{len(html)} pages but 1 gold texts"):
        extractor.score(html, gold[:1])
