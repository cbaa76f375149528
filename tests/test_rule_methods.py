"""TWCEM, title-relevance and the CETR/CEPR/CETD baselines, and tuning them by fit."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import LABELED
from typer.testing import CliRunner

from newsml import extract, load_corpus
from newsml.cli import app
from newsml.methods import METHODS, new_method
from newsml.methods.title_relevance import title_keywords
from newsml.methods.twcem import lcs_length
from newsml.scoring import macro, score
from newsml.training import labeled_documents

ARTICLE = """<html><head><title>Storm closes the harbour at Riverton - Post</title></head><body>
<ul><li><a href="/">Home</a></li><li><a href="/w">World</a></li></ul>
<h1>Storm closes the harbour at Riverton</h1>
<div class="story">
<p>The storm closed the harbour at Riverton on Monday, officials said.</p>
<p>Ferries will stay in port until the wind drops, the operator added.</p>
<p>Fishermen said the harbour had not closed for a storm since 1998.</p>
</div>
<div class="related"><a href="/x">Budget vote delayed</a> <a href="/y">Sports results</a></div>
<div class="footer">Copyright 2026 Riverton Post. All rights reserved.</div>
</body></html>"""
BODY = ["The storm closed the harbour at Riverton on Monday, officials said.",
        "Ferries will stay in port until the wind drops, the operator added.",
        "Fishermen said the harbour had not closed for a storm since 1998."]


@pytest.mark.parametrize("name", ["twcem", "title-relevance", "cetr", "cepr", "cetd"])
def test_each_method_finds_the_story_of_a_clear_page(name):
    article = extract(ARTICLE, method=name)
    assert article.method == name
    assert score(article.text, "\n".join(BODY)).recall == 1.0
    if name != "cetr":  # CETR smooths over source lines: on an 11-line page the menu line blurs in
        assert "Home" not in article.paragraphs


def test_twcem_uses_the_title_to_bound_the_article():
    # rows: a punctuated teaser, five body paragraphs, two punctuated comments; the first
    # row sharing two title tokens in order starts the article, the back half's last one
    # ends it, so teaser and comments stay out
    rows = ["Sign up, it is free.", "The harbour at Riverton closed, officials said.",
            "Ferries stayed in port.", "Wind, rain and more wind.", "Boats were moved, too.",
            "The harbour at Riverton will reopen, they said.", "Great article, thanks!", "First, lol."]
    html = ("<html><head><title>Storm closes the harbour at Riverton</title></head><body>"
            + "".join(f"<p>{row}</p>" for row in rows) + "</body></html>")
    assert extract(html, method="twcem").paragraphs == rows[1:6]
    assert lcs_length(["a", "b", "c", "d"], ["b", "d", "x"]) == 2


def test_title_relevance_keywords_drop_stop_words_and_possessives():
    assert title_keywords("The Mayor's plan for the city's parents'") == ["mayor", "plan", "city", "parents"]
    assert title_keywords("北京市发布暴雨预警") == ["北京市", "发布", "暴雨", "预警"]


def test_paper_defaults_are_the_constructor_defaults():
    assert new_method("twcem").get_params() == {"delta1": 4, "delta2": 1, "delta3": 2}
    assert new_method("title-relevance").get_params()["similarity"] == 0.6
    assert new_method("title-relevance").get_params()["possibility"] == 100.0


@pytest.fixture(scope="module")
def labeled():
    train, test = load_corpus(LABELED, split="train"), load_corpus(LABELED, split="test")
    docs, labels, _ = labeled_documents(train)
    return docs, labels, test


@pytest.mark.parametrize("name", ["twcem", "title-relevance", "cetr", "cepr", "cetd"])
def test_fit_tunes_thresholds_without_changing_the_defaults(labeled, name):
    docs, labels, test = labeled
    method = new_method(name)
    defaults = method.get_params()
    fitted = method.fit(docs, labels)
    assert fitted is method and method.get_params() == defaults
    assert set(method.best_params_) == set(type(method).search_space)
    default_f1 = new_method(name).fit(docs, None)  # no labels: nothing to tune
    assert not hasattr(default_f1, "best_params_")
    # tuned on the training pages, never worse there than the paper's defaults
    from newsml.scoring import mask_score
    weights = [np.array([n.n_tokens for n in d.nodes], float) for d in docs]
    untuned = np.mean([mask_score(w, new_method(name).predict([d])[0], lab.astype(bool)).f1
                       for d, w, lab in zip(docs, weights, labels)])
    assert method.fit_f1_ >= untuned - 1e-9
    result = macro(score(extract(p.html, method=method).text, p.gold) for p in test)
    assert 0.0 < result.f1 <= 1.0


def test_train_cli_writes_a_tuned_twcem_model(tmp_path):
    out = tmp_path / "twcem.joblib"
    runner = CliRunner()
    result = runner.invoke(app, ["train", str(LABELED), "--method", "twcem", "-o", str(out),
                                 "--cv-folds", "0"])
    assert result.exit_code == 0, result.output
    page = sorted(LABELED.glob("*.html"))[0]
    record = json.loads(runner.invoke(app, ["predict", str(page), "--model", str(out), "-f", "json"]).stdout)
    assert record["method"] == "twcem"


def test_every_registered_method_is_listed():
    listed = CliRunner().invoke(app, ["methods"]).stdout
    for name in METHODS:
        assert name in listed
