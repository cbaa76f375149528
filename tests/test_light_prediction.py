"""Prediction needs numpy and lxml only: what stands in for scikit-learn and SciPy there.

Importing newsml and extracting with the shipped default model must not import
scikit-learn, SciPy or networkx (half a second and about 100 MB before the first page).
The stand-ins (parameter protocol, frozen classifiers, smoothing, stop words, the markup
method's product) must give what the scikit-learn and SciPy originals give.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import LABELED
from scipy.ndimage import gaussian_filter1d
from scipy.special import expit as scipy_expit
from sklearn.base import clone
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS as SKLEARN_STOP_WORDS

from newsml import DempsterShaferClassifier, DiscretizedNaiveBayes, load_model, save_model
from newsml.core.signal import gaussian_smooth
from newsml.core.text import ENGLISH_STOP_WORDS
from newsml.estimators.frozen import FrozenDempsterShafer, FrozenNaiveBayes, expit
from newsml.methods import new_method
from newsml.methods.markup import _matrix

HEAVY = ("sklearn", "scipy", "networkx")


def modules_after(code: str) -> set[str]:
    """Top-level packages imported by ``code`` run in a fresh interpreter (listed at exit,
    so that code ending in ``sys.exit`` is measured too)."""
    probe = ("import atexit, json, sys\n"
             "atexit.register(lambda: print(json.dumps(sorted({m.split('.')[0] for m in sys.modules}))))\n"
             f"{code}\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_import_newsml_imports_no_heavy_library():
    loaded = modules_after("import newsml")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    assert "joblib" not in loaded


def test_predicting_with_the_shipped_default_model_imports_neither_sklearn_nor_scipy():
    pages = [str(path) for path in sorted(LABELED.glob("*.html"))]
    assert any("/zh" in page for page in pages) and any("/en" in page for page in pages)
    loaded = modules_after(f"import newsml\nfor page in {pages!r}:\n"
                           "    assert newsml.extract(page).text\n")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    assert {"numpy", "lxml"} <= loaded and "joblib" not in loaded     # model files are no pickles


def test_newsml_predict_imports_neither_sklearn_nor_scipy():
    page = str(LABELED / "en01-council-budget.html")
    loaded = modules_after(f"from newsml.run.cli import app\napp(['predict', {page!r}])")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_methods_and_feature_families_keep_the_estimator_protocol():
    fusion = new_method("fusion", sigma=0.5)
    assert repr(fusion) == "Fusion(sigma=0.5)"
    copy = clone(fusion)
    assert copy is not fusion and copy.get_params() == fusion.get_params()
    assert copy.set_params(cut=0.5, context=False) is copy and copy.cut == 0.5 and fusion.cut == "auto"
    with pytest.raises(ValueError, match="Invalid parameter 'nope'"):
        copy.set_params(nope=1)
    assert pickle.loads(pickle.dumps(copy)).get_params() == copy.get_params()


def test_frozen_classifiers_predict_what_the_fitted_estimators_predict():
    rng = np.random.default_rng(0)
    X = rng.random((300, 4)) * [150, 1, 0.2, 6]
    y = (X[:, 0] + 100 * rng.random(300) > 120).astype(int)
    for model, frozen_class in ((DempsterShaferClassifier(), FrozenDempsterShafer),
                                (DiscretizedNaiveBayes(), FrozenNaiveBayes)):
        model.fit(X, y)
        frozen = frozen_class.from_estimator(model)
        fresh = rng.random((50, 4)) * [150, 1, 0.2, 6]
        assert np.array_equal(frozen.predict_proba(fresh), model.predict_proba(fresh))
        assert np.array_equal(frozen.predict(fresh), model.predict(fresh))
        assert frozen.n_features_in_ == model.n_features_in_
        with pytest.raises(ValueError, match="expecting 4 features"):
            frozen.predict_proba(fresh[:, :3])
        with pytest.raises(ValueError, match="NaN"):
            frozen.predict_proba(np.full((1, 4), np.nan))


def test_model_files_holding_scikit_learn_classifiers_still_load_and_predict_the_same(labeled, tmp_path):
    docs, labels, _, _ = labeled
    fusion = new_method("fusion").fit(docs, labels)
    nb = fusion.members_["nb"]
    assert isinstance(fusion.combiner_, FrozenDempsterShafer) and isinstance(nb.classifier_, FrozenNaiveBayes)
    expected = [fusion.score_nodes(doc) for doc in docs[:3]]
    # what files written before the classifiers were frozen hold: the fitted estimators
    X = np.vstack([fusion.evidence_matrix(doc)[:, :fusion.combiner_.n_features_in_] for doc in docs])
    old_combiner = DempsterShaferClassifier().fit(X, np.concatenate(labels))
    for name in ("scale_min_", "scale_span_", "positive_", "weights_", "background_"):
        setattr(old_combiner, name, getattr(fusion.combiner_, name))
    old_nb = DiscretizedNaiveBayes().fit(np.random.default_rng(0).random((20, 4)), np.arange(20) % 2)
    for name in ("classes_", "edges_", "class_log_prior_", "feature_log_prob_"):
        setattr(old_nb, name, getattr(nb.classifier_, name))
    fusion.combiner_, nb.classifier_ = old_combiner, old_nb
    restored, _ = load_model(save_model(fusion, tmp_path / "old-form.joblib"))
    assert isinstance(restored.combiner_, FrozenDempsterShafer)
    assert isinstance(restored.members_["nb"].classifier_, FrozenNaiveBayes)
    for doc, scores in zip(docs[:3], expected):
        assert np.array_equal(restored.score_nodes(doc), scores)


def test_stop_words_are_scikit_learns():
    assert ENGLISH_STOP_WORDS == SKLEARN_STOP_WORDS


@pytest.mark.parametrize("sigma", [0.3, 0.5, 1.0, 2.5])
@pytest.mark.parametrize("n", [2, 3, 7, 200])
def test_gaussian_smoothing_is_scipys(sigma, n):
    values = np.random.default_rng(n).random(n)
    expected = gaussian_filter1d(values, sigma, mode="nearest", truncate=3.0)
    assert np.array_equal(gaussian_smooth(values, sigma), expected)


def test_expit_is_scipys():
    x = np.concatenate([np.linspace(-800, 800, 4001), [np.inf, -np.inf]])
    np.testing.assert_allclose(expit(x), scipy_expit(x), rtol=1e-15, atol=0)


def test_markup_scores_are_the_sparse_products(labeled):
    docs, labels, _, _ = labeled
    markup = new_method("markup", min_pages=2).fit(docs, labels)
    assert markup.coef_.any()
    for doc in docs:
        product = _matrix(markup._node_tokens(doc), markup.vocabulary_) @ markup.coef_ + markup.intercept_
        np.testing.assert_allclose(markup.score_nodes(doc), scipy_expit(product), rtol=1e-15, atol=0)


def test_markup_scores_are_the_sparse_products_however_many_levels_are_read(labeled):
    # 12 levels: the levels' kinds no longer fit one number below 2**62, the columns are sorted
    docs, labels, _, _ = labeled
    for levels in (1, 12):
        markup = new_method("markup", min_pages=2, levels=levels).fit(docs, labels)
        for doc in docs:
            product = _matrix(markup._node_tokens(doc), markup.vocabulary_) @ markup.coef_ + markup.intercept_
            np.testing.assert_allclose(markup.score_nodes(doc), scipy_expit(product), rtol=1e-15, atol=0)


def test_the_markup_token_tables_are_bounded_and_not_saved(labeled):
    from newsml.methods.markup import _TokenIds

    docs, labels, _, _ = labeled
    markup = new_method("markup", min_pages=2).fit(docs, labels)
    markup._ids = _TokenIds(markup.vocabulary_, most=3, longest=10)
    expected = [markup.score_nodes(doc) for doc in docs]
    assert len(markup._ids.words) <= 3 and all(len(key) <= 10 for key in markup._ids.words)
    assert [markup.score_nodes(doc).tolist() for doc in docs] == [e.tolist() for e in expected]
    copy = pickle.loads(pickle.dumps(markup))
    assert "_ids" not in vars(copy)
    assert [copy.score_nodes(doc).tolist() for doc in docs] == [e.tolist() for e in expected]
    # a new fit has a new vocabulary: the tables of the old one are not read
    refit = markup.fit(docs[:-1], labels[:-1])
    product = _matrix(refit._node_tokens(docs[-1]), refit.vocabulary_) @ refit.coef_ + refit.intercept_
    np.testing.assert_allclose(refit.score_nodes(docs[-1]), scipy_expit(product), rtol=1e-15, atol=0)


def test_a_real_model_file_from_before_the_frozen_classifiers_loads_and_predicts_the_same(labeled):
    # the nb model as shipped before its classifier was kept as arrays (a pickled
    # DiscretizedNaiveBayes inside), and its conversion by scripts/convert_models.py as
    # shipped until the models were retrained
    old, _ = load_model(Path(__file__).parent / "data" / "nb-with-sklearn-classifier.joblib")
    new, metadata = load_model(Path(__file__).parent / "data" / "nb-converted.joblib")
    assert isinstance(old.classifier_, FrozenNaiveBayes) and metadata["converted"]
    docs, _, _, _ = labeled
    for doc in docs:
        assert np.array_equal(old.score_nodes(doc), new.score_nodes(doc))
