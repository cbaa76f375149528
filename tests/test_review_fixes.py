"""Regression tests for problems found in review (each failed before its fix)."""

from __future__ import annotations

import sys
import types

import joblib
import numpy as np
import pytest
from conftest import LABELED, parsed_with_labels
from scipy.optimize import check_grad
from sklearn.model_selection import cross_val_score
from typer.testing import CliRunner

from newsml import (
    ConfigurationError,
    DiscretizedNaiveBayes,
    ModelError,
    NewsExtractor,
    NewsmlError,
    extract,
    load_corpus,
    load_model,
)
from newsml.cli import app
from newsml.estimators.dempster_shafer import _loss_and_gradient
from newsml.features.topic import textrank_keywords
from newsml.methods import new_method
from newsml.persistence import save_model
from newsml.title import strip_site_name
from newsml.training import train_method


def _corpus(folder, pages):
    folder.mkdir()
    for name, (html, gold) in pages.items():
        (folder / f"{name}.html").write_bytes(html)
        (folder / f"{name}.txt").write_text(gold, encoding="utf-8")
    return folder


def _pages(n, empty=None):
    out = {}
    for i in range(n):
        # a menu cell and a story block: two blocks of the naive-Bayes paper
        body = ("<table><tr><td><a>Menu</a> <a>Home</a></td></tr></table>"
                f"<div><p>Story number {i}, with a sentence.</p><p>Another line, here.</p></div>")
        out[f"p{i}"] = (b"" if i == empty else f"<html><body>{body}</body></html>".encode(),
                        f"Story number {i}, with a sentence.\nAnother line, here.\n")
    return out


def test_training_on_corpora_that_share_ids_keeps_golds_aligned(tmp_path):
    a = _corpus(tmp_path / "a", _pages(6, empty=1))
    b = _corpus(tmp_path / "b", _pages(6))
    method, meta = train_method("nb", [a, b], split=None, cv_folds=2)
    assert meta["training"]["pages"] == 11 and meta["training"]["skipped"] == ["p1"]
    assert meta["cv_f1"] > 0.5


def test_train_reports_bad_outputs_and_bad_json_without_tracebacks(tmp_path):
    corpus = _corpus(tmp_path / "c", _pages(6))
    runner = CliRunner()
    folder = tmp_path / "out"
    folder.mkdir()
    result = runner.invoke(app, ["train", str(corpus), "-o", str(folder), "--force", "--split", "all"])
    assert result.exit_code == 2 and "is a directory" in result.stderr
    result = runner.invoke(app, ["train", str(corpus), "-o", str(tmp_path / "no" / "m.joblib")])
    assert result.exit_code == 2 and "not a writable folder" in result.stderr
    (corpus / "p0.json").write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(corpus)])
    assert result.exit_code == 2 and "not valid UTF-8 JSON" in result.stderr
    assert "Traceback" not in result.stderr


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


@pytest.mark.parametrize(("raw", "clean"), [
    ("Sales rose 2010–2020, report says | CNN", "Sales rose 2010–2020, report says"),
    ("my_variable_name considered harmful", "my_variable_name considered harmful"),
    ("暴雨蓝色预警发布_新浪新闻", "暴雨蓝色预警发布"),
])
def test_site_names_are_cut_only_at_real_separators(raw, clean):
    assert strip_site_name(raw) == clean


def test_og_title_is_kept_whole():
    page = ('<html><head><meta property="og:title" content="Biden signs bill — a win for unions">'
            "</head><body><p>text</p></body></html>")
    assert extract(page, method="econ").title == "Biden signs bill — a win for unions"


def test_twcem_scans_the_front_half_of_an_odd_number_of_rows():
    rows = ["Teaser one, click.", "Teaser two, click.", "The harbour at Riverton closed, they said.",
            "More, here.", "The harbour at Riverton will reopen, they said."]
    html = ("<html><head><title>Harbour at Riverton closes</title></head><body>"
            + "".join(f"<p>{row}</p>" for row in rows) + "</body></html>")
    assert extract(html, method="twcem").paragraphs == rows[2:]


def test_title_relevance_keeps_cousin_blocks_out():
    html = """<html><head><title>Harbour at Riverton closes for the storm</title></head><body>
      <div id="main"><div class="story">
      <p>The harbour at Riverton closes for the storm, officials said today.</p>
      <p>Ferries stay in port until the wind drops over the weekend.</p></div>
      <div class="promo"><p>Subscribe now and save on your first year of news.</p>
      <p>Win a car in our draw.</p></div>
      </div></body></html>"""
    paragraphs = extract(html, method="title-relevance").paragraphs
    assert paragraphs[0].startswith("The harbour") and not any("Subscribe" in p for p in paragraphs)


def test_dempster_shafer_gradient_matches_finite_differences():
    rng = np.random.default_rng(5)
    h, y = rng.random((300, 4)), rng.integers(0, 2, 300).astype(float)
    positive, weight = np.array([True, True, False, False]), rng.random(300)
    weight /= weight.sum()
    for _ in range(5):
        w = rng.uniform(0.05, 0.95, 4)
        error = check_grad(lambda v: _loss_and_gradient(v, h, y, positive, weight)[0],
                           lambda v: _loss_and_gradient(v, h, y, positive, weight)[1], w)
        assert error < 1e-4 * max(1.0, np.linalg.norm(_loss_and_gradient(w, h, y, positive, weight)[1]))


def test_naive_bayes_rejects_zero_smoothing():
    with pytest.raises(ValueError, match="alpha must be > 0"):
        DiscretizedNaiveBayes(alpha=0).fit([[1, 0, 0, 0], [200, 1, 1, 5]], [0, 1])


def test_refitting_without_labels_forgets_the_earlier_fit():
    docs, labels = parsed_with_labels(load_corpus(LABELED, split="train")[:6])
    cedst = new_method("cedst").fit(docs, labels)
    assert hasattr(cedst, "classifier_")
    assert not hasattr(cedst.fit(docs, None), "classifier_")
    with pytest.raises(ConfigurationError, match="sigma must be"):
        new_method("fusion", sigma="wide").fit(docs, labels)


def test_a_model_naming_a_missing_class_asks_for_retraining(tmp_path):
    # a model pickled with a class from a module this newsml no longer has
    path = tmp_path / "old.joblib"
    fake = types.ModuleType("newsml.no_such_module")

    class Missing:
        pass

    Missing.__module__, Missing.__qualname__ = fake.__name__, "Missing"
    fake.Missing = Missing
    sys.modules[fake.__name__] = fake
    try:
        joblib.dump({"format": "newsml-model", "estimator": Missing()}, path)
    finally:
        del sys.modules[fake.__name__]
    with pytest.raises(ModelError, match="another version of newsml"):
        load_model(path)


def test_textrank_on_a_very_long_node_stays_sparse():
    words = [f"w{i}" for i in range(20_000)]
    assert len(textrank_keywords(words, 10)) == 10
