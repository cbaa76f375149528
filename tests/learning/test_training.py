"""newsml/learning/training.py: training on labeled folders (page ids, skipped pages and why), and
cross-validation in folds, in this process or in others."""

from __future__ import annotations

import pickle
import sys
import warnings

import numpy as np
import pytest
from conftest import LABELED, story_pages, write_corpus
from typer.testing import CliRunner

from newsml import ConfigurationError, NewsmlError, TrainingWarning, load_corpus
from newsml.learning.training import (
    cross_validated_f1,
    cross_validated_models,
    cross_validated_scores,
    labeled_pages,
    train_method,
)
from newsml.measure.scoring import macro, score
from newsml.methods import new_method
from newsml.run.cli import app


def test_training_on_corpora_that_share_ids_keeps_golds_aligned(tmp_path):
    a = write_corpus(tmp_path / "a", story_pages(6, empty=1))
    b = write_corpus(tmp_path / "b", story_pages(6))
    method, meta = train_method("nb", [a, b], split=None, cv_folds=2)
    assert meta["training"]["pages"] == 11 and meta["training"]["skipped"] == ["p1"]
    assert meta["cv_f1"] > 0.5


@pytest.mark.parametrize("name, params, base, message", [
    ("fusion", {"mates": 3}, None, "mates must be True or False"),
    ("fusion", {"weighting": "pages"}, None, "weighting must be 'tokens' or 'nodes'"),
    ("fusion", {"evidence": ("nb", "nope")}, None, r"unknown evidence \['nope'\]"),
    ("cedst", {"evidence": ("topic",)}, None, "bad option for method 'cedst'"),
    ("fusion", {"prior": 0}, "default", "prior must be 'auto' or a number > 0"),
])
def test_a_setting_fit_would_refuse_fails_before_any_page_is_read(tmp_path, name, params, base, message):
    missing = tmp_path / "no-such-folder"          # never read: the setting fails first
    with pytest.raises(ConfigurationError, match=message):
        train_method(name, [missing], params=params, base=base)


def test_training_on_a_page_with_control_characters_does_not_crash(tmp_path):
    pages = story_pages(5)
    pages["p0"] = (b"<html><body><div><p>Story number 0,<span hidden>y</span>\x0b with a sentence.</p>"
                   b"<p>Another line, here.</p></div></body></html>", pages["p0"][1])
    kept, skipped = labeled_pages(load_corpus(write_corpus(tmp_path / "c", pages)))
    assert len(kept) == 5 and not skipped


def test_training_names_pages_with_empty_or_foreign_gold(tmp_path):
    pages = story_pages(8)
    pages["p3"] = (pages["p3"][0], "")
    pages["p5"] = (pages["p5"][0], "Election results from a town far away, counted overnight by hand.")
    corpus = write_corpus(tmp_path / "c", pages)
    with pytest.warns(TrainingWarning) as caught:
        _, meta = train_method("nb", [corpus], split=None, cv_folds=2)
    messages = sorted(str(w.message) for w in caught)
    assert messages == ["training page c/p3 skipped: its gold text is empty",
                        "training page c/p5 skipped: only 9% of its gold's tokens occur in the page "
                        "(a gold of another page?)"]
    assert meta["training"]["skipped"] == ["p3", "p5"] and meta["training"]["pages"] == 6
    result = CliRunner().invoke(app, ["train", str(corpus), "-o", str(tmp_path / "m.joblib"),
                                      "--method", "nb", "--split", "all", "--cv-folds", "2"])
    assert result.exit_code == 0
    assert "newsml: warning: training page c/p3 skipped: its gold text is empty" in result.stderr


def test_training_says_why_when_too_few_pages_are_left(tmp_path):
    corpus = write_corpus(tmp_path / "c", {name: (html, "") for name, (html, _) in story_pages(6).items()})
    with pytest.warns(TrainingWarning), pytest.raises(NewsmlError, match="all 6 labeled pages were skipped"):
        train_method("nb", [corpus], split=None, cv_folds=5)
    corpus = write_corpus(tmp_path / "d", story_pages(6, empty=0))
    usable = r"cross-validation over 5 folds of 5 usable pages \(1 skipped\) failed"
    with pytest.warns(TrainingWarning), pytest.raises(NewsmlError, match=usable):
        train_method("default", [corpus], split=None, cv_folds=5)


def test_cross_validated_f1_scores_held_out_pages(labeled):
    docs, labels, train, _ = labeled
    f1 = cross_validated_f1(lambda: new_method("nb"), docs, labels, [p.gold for p in train], folds=3)
    assert 0.5 < f1 <= 1.0


def test_cross_validated_scores_are_each_page_held_out_in_page_order(labeled):
    """One score per page, each that of the page's own extraction by the model of its fold."""
    from newsml.article import extract_page
    from newsml.measure.model_selection import page_folds

    docs, labels, train, _ = labeled
    golds = [p.gold for p in train]
    scores = cross_validated_scores(lambda: new_method("nb"), docs, labels, golds, folds=3)
    assert len(scores) == len(docs)
    assert macro(scores).f1 == pytest.approx(cross_validated_f1(lambda: new_method("nb"), docs, labels, golds,
                                                                folds=3))
    for fitting, held in page_folds(len(docs), 3, 0):
        model = new_method("nb").fit([docs[i] for i in fitting], [labels[i] for i in fitting])
        for i in held:
            assert scores[i] == score(extract_page(docs[i], model).text, golds[i])


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_fold_models_held_out_each_page_once_and_score_as_the_cross_validation(labeled, jobs):
    """The models of the folds, in this process or in others: each page held out by one of
    them, whose extraction of it scores what cross_validated_scores gives the page."""
    from newsml.article import extract_page

    docs, labels, train, _ = labeled
    golds = [p.gold for p in train]
    scores = cross_validated_scores(lambda: new_method("nb"), docs, labels, golds, folds=3)
    models = cross_validated_models(lambda: new_method("nb"), docs, labels, folds=3, jobs=jobs)
    assert len(models) == 3
    assert sorted(i for held, _ in models for i in held) == list(range(len(docs)))
    for held, model in models:
        for i in held:
            assert score(extract_page(docs[i], model).text, golds[i]) == scores[i]


def test_cross_validation_in_processes_gives_the_same_f1(labeled, monkeypatch):
    """Folds fitted in two forked processes: the same figure as one after another."""
    import multiprocessing

    docs, labels, train, _ = labeled
    golds = [p.gold for p in train]
    one = cross_validated_f1(lambda: new_method("nb"), docs, labels, golds, folds=3)
    contexts, real = [], multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context",
                        lambda method: contexts.append(method) or real(method))
    two = cross_validated_f1(lambda: new_method("nb"), docs, labels, golds, folds=3, jobs=2)
    assert two == one
    assert contexts == (["fork"] if sys.platform.startswith("linux") else [])


def test_warnings_raised_in_fold_processes_reach_the_caller(labeled):
    """A page skipped or a method's warning inside a fold process is shown, as it is
    when the folds run in this process."""
    docs, labels, train, _ = labeled

    def warning_method():
        warnings.warn("fold warning", TrainingWarning, stacklevel=1)
        return new_method("nb")

    with pytest.warns(TrainingWarning, match="fold warning") as caught:
        cross_validated_f1(warning_method, docs, labels, [p.gold for p in train], folds=3, jobs=2)
    assert sum("fold warning" in str(w.message) for w in caught) == 3


def test_a_warning_that_cannot_be_pickled_still_reaches_the_parent():
    from newsml.learning.training import _picklable

    class PageWarning(UserWarning):
        def __init__(self, text, page):
            super().__init__(text)
            self.page = page

    for raised in (UserWarning("unpicklable", lambda: 0), PageWarning("page 3 skipped", page=3)):
        carried = _picklable(warnings.WarningMessage(raised, type(raised), "fold.py", 7))
        back = pickle.loads(pickle.dumps(carried.message))
        assert str(raised) in str(back) and (carried.filename, carried.lineno) == ("fold.py", 7)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="folds run in processes on Linux only")
def test_a_fold_process_that_dies_is_an_error_not_a_hang(labeled):
    import os

    docs, labels, train, _ = labeled
    with pytest.raises(NewsmlError, match="process died"):
        cross_validated_f1(lambda: os._exit(1), docs, labels, [p.gold for p in train], folds=3, jobs=2)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_final_fit_beside_the_folds_is_the_fit_alone(labeled, jobs):
    """Training fits the model on every page as one more task of the folds' pool: the
    folds' scores are those of the cross-validation, the model is what fit_method makes."""
    from newsml.learning.training import cross_validated_fit, fit_method

    docs, labels, train, _ = labeled
    golds = [p.gold for p in train]
    make = lambda: new_method("cedst-nc")   # noqa: E731 - learned, and quick to fit
    scores, (model, choices) = cross_validated_fit(make, docs, labels, golds, folds=3, jobs=jobs)
    assert scores == cross_validated_scores(make, docs, labels, golds, folds=3)
    alone, _ = fit_method(make(), docs, labels)
    for page in docs:
        assert np.array_equal(model.score_nodes(page), alone.score_nodes(page))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_final_fit_that_fails_is_returned_and_named_by_training(labeled, jobs, monkeypatch, tmp_path):
    """The folds pass, the fit on every page fails: cross_validated_fit returns its error
    (also from a process of the pool), and train_method says training failed, not the
    cross-validation."""
    import newsml.learning.training as training
    from newsml.learning.training import cross_validated_fit, train_method

    docs, labels, train, _ = labeled
    golds = [p.gold for p in train]
    real = training.fit_method

    def failing_on_every_page(method, pages, node_labels, groups=None):
        if len(pages) == len(docs):
            raise NewsmlError("no fit for you")
        return real(method, pages, node_labels, groups)

    monkeypatch.setattr(training, "fit_method", failing_on_every_page)
    scores, fitted = cross_validated_fit(lambda: new_method("nb"), docs, labels, golds, folds=3, jobs=jobs)
    assert len(scores) == len(docs)
    assert isinstance(fitted, NewsmlError) and "no fit for you" in str(fitted)
    with pytest.raises(NewsmlError, match=r"^training nb on .* failed: no fit for you"):
        train_method("nb", [LABELED], split="train", cv_folds=3, jobs=jobs)
