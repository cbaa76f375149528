"""nb, cedst and fusion as node methods; page assembly (smoothing, Otsu)."""

from __future__ import annotations

import pickle
import sys
import warnings

import numpy as np
import pytest
from conftest import LABELED, parsed_with_labels

from newsml import ConfigurationError, NewsmlError, TrainingWarning, extract, load_corpus
from newsml.core.signal import gaussian_smooth, otsu_select, otsu_threshold
from newsml.features.base import family
from newsml.features.context import CONTEXT_NAMES, belief_context
from newsml.features.position import PositionFeatures
from newsml.learning.persistence import get_method
from newsml.learning.training import cross_validated_f1, cross_validated_scores
from newsml.measure.scoring import macro, score
from newsml.methods import new_method
from newsml.methods.fusion import CUTS, DEFAULT_TREE_EVIDENCE, SIGMAS, Fusion
from newsml.rules.assembly import Assembly, FixedCut, OtsuCut


def test_otsu_splits_two_clusters_on_a_fine_grid():
    values = np.array([0.1, 0.12, 0.15, 0.8, 0.85, 0.9])
    t = otsu_threshold(values)
    assert 0.15 <= t < 0.8
    assert otsu_select(values).tolist() == [False] * 3 + [True] * 3
    assert otsu_threshold(np.array([0.4, 0.4, 0.4])) is None
    assert otsu_select(np.array([0.7, 0.7])).tolist() == [True, True]   # falls back to >= 0.5


def test_otsu_with_a_floor_keeps_every_confident_node():
    # two paragraphs both confidently article: Otsu alone splits them, the floor keeps both
    scores = np.array([0.964, 0.978])
    assert OtsuCut()(scores).tolist() == [False, True]
    assert OtsuCut(keep_above=0.7)(scores).tolist() == [True, True]
    # below the floor, Otsu alone decides
    spread = np.array([0.1, 0.2, 0.5, 0.6, 0.65])
    assert OtsuCut(keep_above=0.7)(spread).tolist() == OtsuCut()(spread).tolist()
    # a cut pickled before the floor existed loads as the papers' cut
    old = OtsuCut.__new__(OtsuCut)
    old.__dict__.update({"step": 0.01, "fallback": 0.5})
    assert old.keep_above is None and old == OtsuCut() and str(old) == "otsu"


def test_otsu_over_blocks_of_thresholds_is_otsu_over_all_of_them(monkeypatch):
    import newsml.core.signal

    values = np.random.default_rng(0).random(2001) ** 3
    whole = otsu_threshold(values)
    monkeypatch.setattr(newsml.core.signal, "_BLOCK_CELLS", 7 * values.size)   # 15 blocks of 7 thresholds
    assert otsu_threshold(values) == whole


def test_gaussian_smoothing_lifts_a_short_line_between_long_ones():
    scores = np.array([0.0, 0.9, 0.9, 0.1, 0.9, 0.9, 0.0])
    smooth = gaussian_smooth(scores, 1.0)
    assert smooth[3] > 0.4 and smooth[0] < 0.5
    assert gaussian_smooth(scores, 0).tolist() == scores.tolist()


def test_cedst_untrained_uses_the_papers_weights_and_fit_learns_new_ones(labeled):
    docs, labels, _, test = labeled
    paper = new_method("cedst")
    trained = new_method("cedst").fit(docs, labels)
    assert trained.classifier_.weights_.shape == (4,)
    assert trained.classifier_.positive_.tolist() == [True, True, True, False]
    assert not np.allclose(trained.classifier_.weights_, 0.9)
    for method in (paper, trained):
        article = extract(test[0].html, method=method)
        assert article.method == "cedst" and article.paragraphs


def test_nb_must_be_trained_and_then_scores_blocks(labeled):
    docs, labels, _, test = labeled
    with pytest.raises(NewsmlError, match="not trained"):
        extract(test[0].html, method=new_method("nb"))
    nb = new_method("nb").fit(docs, labels)
    scores = nb.score_nodes(docs[0])
    assert scores.shape == (len(docs[0].nodes),) and ((scores >= 0) & (scores <= 1)).all()


def test_fusion_trained_on_labeled_pages_generalizes_to_its_test_pages(labeled):
    docs, labels, _, test = labeled
    fusion = new_method("fusion").fit(docs, labels)
    assert fusion.assembly_.sigma in SIGMAS and fusion.assembly_.cut in CUTS
    result = macro(score(extract(p.html, method=fusion).text, p.gold) for p in test)
    # measured 0.95 on these 8 unseen pages; the untrained paper rules reach about 0.87
    assert result.f1 >= 0.90


def test_markup_weights_are_the_optimum_by_either_solver(labeled, monkeypatch):
    # Newton's method (up to NEWTON_TOKENS tokens) and L-BFGS (past them) both end at the
    # penalized loss's minimum, so a model's weights depend on its pages, not on which
    # solver, library build or machine fitted them; L-BFGS at scikit-learn's default
    # tolerance stops short of it
    from newsml.methods import markup as markup_module

    docs, labels, _, _ = labeled
    newton = new_method("markup", min_pages=2).fit(docs, labels)
    assert 0 < len(newton.vocabulary_) <= markup_module.NEWTON_TOKENS
    monkeypatch.setattr(markup_module, "NEWTON_TOKENS", 0)
    lbfgs = new_method("markup", min_pages=2).fit(docs, labels)
    assert np.abs(lbfgs.coef_ - newton.coef_).max() < 0.05
    assert lbfgs.intercept_ == pytest.approx(newton.intercept_, abs=0.05)
    monkeypatch.setattr(markup_module, "LBFGS", {"solver": "lbfgs", "tol": 1e-4, "max_iter": 1000})
    loose = new_method("markup", min_pages=2).fit(docs, labels)
    assert np.abs(loose.coef_ - newton.coef_).max() > np.abs(lbfgs.coef_ - newton.coef_).max()


def test_markup_on_too_few_pages_for_any_token_scores_the_share_of_content(labeled):
    docs, labels, _, _ = labeled
    markup = new_method("markup", min_pages=5).fit(docs[:4], labels[:4])   # no token on 5 pages
    assert markup.feature_names() == []
    weights = np.concatenate([page.token_counts for page in docs[:4]]) + 1.0
    share = np.average(np.concatenate(labels[:4]), weights=weights)
    assert np.allclose(markup.score_nodes(docs[5]), share)


def test_fusion_context_with_style_mates_scores_alike_from_matrix_and_table_rows(labeled, monkeypatch):
    import newsml.methods.fusion as fusion

    docs, labels, _, _ = labeled
    mated = new_method("fusion", mates=True).fit(docs[:8], labels[:8])
    assert mated.feature_names()[-2:] == ["context:mates0", "context:mates1"]
    assert mated.booster_.n_features == len(mated.feature_names())
    doc = docs[0]
    assert len(doc.nodes) < fusion.TABLE_ROWS_FROM and mated.booster_.new_table_rows(1) is not None
    by_matrix = mated.score_nodes(doc)
    monkeypatch.setattr(fusion, "TABLE_ROWS_FROM", 0)
    assert np.array_equal(mated.score_nodes(doc), by_matrix)
    with pytest.raises(ConfigurationError, match="only with context=True"):
        new_method("fusion", mates=True, context=False).fit(docs[:8], labels[:8])
    # a model file from before the option reads as without it
    state = dict(mated.__getstate__())
    del state["mates"]
    old = fusion.Fusion.__new__(fusion.Fusion)
    old.__setstate__(state)
    assert old.mates is False


def test_fusion_trains_on_five_pages(labeled):
    docs, labels, _, test = labeled      # each stacking fold fits its members on four pages
    fusion = new_method("fusion").fit(docs[:5], labels[:5])
    assert extract(test[0].html, method=fusion).paragraphs


def test_fusion_context_stage_is_optional(labeled):
    docs, labels, _, test = labeled
    plain = new_method("fusion", context=False).fit(docs, labels)
    staged = new_method("fusion").fit(docs, labels)
    assert plain.booster_ is None and staged.booster_ is not None
    tree_only = sum(len(family(name).feature_names) if family(name) else 1 for name in DEFAULT_TREE_EVIDENCE)
    assert len(staged.feature_names()) == len(plain.feature_names()) + tree_only + len(CONTEXT_NAMES)
    doc = docs[0]
    for method in (plain, staged):
        scores = method.score_nodes(doc)
        assert scores.shape == (len(doc.nodes),) and ((scores >= 0) & (scores <= 1)).all()
    assert not np.allclose(plain.score_nodes(doc), staged.score_nodes(doc))


def test_fusion_files_from_before_the_context_stage_still_load(labeled):
    docs, labels, _, _ = labeled
    plain = new_method("fusion", context=False).fit(docs, labels)
    del plain.context, plain.booster_                # what such a pickle holds
    restored = pickle.loads(pickle.dumps(plain))
    assert restored.get_params()["context"] is False and repr(restored) == "Fusion(context=False)"
    doc = docs[0]
    expected = gaussian_smooth(restored.combiner_.belief(restored.evidence_matrix(doc)),
                               restored.assembly_.sigma)
    np.testing.assert_allclose(restored.score_nodes(doc), expected)
    staged = new_method("fusion").fit(docs, labels)
    del staged.context                               # a file of the first context-stage code
    assert pickle.loads(pickle.dumps(staged)).get_params()["context"] is True


@pytest.mark.parametrize(("cut", "expected"), [("otsu", OtsuCut()), ("0.5", FixedCut(0.5))])
def test_fusion_files_that_kept_width_and_cut_apart_still_load(labeled, cut, expected):
    docs, labels, _, _ = labeled
    fusion = new_method("fusion", context=False).fit(docs, labels)
    state = fusion.__getstate__()
    del state["assembly_"]
    state.update(sigma_=0.5, cut_=cut, cut="0.5")    # what a file of newsml 0.1.0 holds
    restored = Fusion.__new__(Fusion)
    restored.__setstate__(state)
    assert restored.assembly_ == Assembly(0.5, expected) and restored.cut == 0.5
    assert not hasattr(restored, "sigma_") and not hasattr(restored, "cut_")


def test_cross_validated_f1_scores_held_out_pages(labeled):
    docs, labels, train, _ = labeled
    f1 = cross_validated_f1(lambda: new_method("nb"), docs, labels, [p.gold for p in train], folds=3)
    assert 0.5 < f1 <= 1.0


def test_cross_validated_scores_are_each_page_held_out_in_page_order(labeled):
    """One score per page, each that of the page's own extraction by the model of its fold."""
    from newsml.article import extract_page
    from newsml.measure.model_selection import page_folds
    from newsml.measure.scoring import macro, score

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


def test_fusion_rejects_unknown_evidence(labeled):
    docs, labels, _, _ = labeled
    with pytest.raises(NewsmlError, match="unknown evidence"):
        new_method("fusion", evidence=("econ", "astrology")).fit(docs, labels)


def test_shipped_default_is_a_trained_fusion_model():
    method = get_method("default")
    assert method.name == "fusion" and hasattr(method, "combiner_") and method.booster_ is not None
    assert extract("<html><body><p>One sentence, with a comma. And another one here.</p></body></html>").text


def test_refitting_without_labels_forgets_the_earlier_fit():
    docs, labels = parsed_with_labels(load_corpus(LABELED, split="train")[:6])
    cedst = new_method("cedst").fit(docs, labels)
    assert hasattr(cedst, "classifier_")
    assert not hasattr(cedst.fit(docs, None), "classifier_")
    with pytest.raises(ConfigurationError, match="sigma must be"):
        new_method("fusion", sigma="wide").fit(docs, labels)


def test_fusion_second_stage_reads_the_evidence_and_the_context_of_the_fused_belief(labeled):
    pages, labels, _, _ = labeled
    staged = new_method("fusion").fit(pages, labels)
    page = pages[0]
    evidence = staged.evidence_matrix(page)
    belief = staged.combiner_.belief(evidence[:, :staged.combiner_.n_features_in_])
    rows = np.hstack([evidence, belief_context(page, belief)])
    expected = staged.assembly_.smooth(staged.booster_.predict_proba(rows)[:, 1])
    np.testing.assert_allclose(staged.score_nodes(page), expected, rtol=0, atol=1e-12)
    assert rows.shape[1] == len(staged.feature_names())


def test_tree_evidence_reaches_the_trees_only(labeled):
    pages, labels, _, _ = labeled
    fusion = new_method("fusion", evidence=("econ", "href"), tree_evidence=("position", "href"))
    fusion.fit(pages, labels)
    names = fusion.feature_names()
    assert names[:2] == ["econ", "link_ratio"] and names[2:6] == list(PositionFeatures.feature_names)
    assert names[6:] == [f"context:{name}" for name in CONTEXT_NAMES]
    assert fusion.combiner_.n_features_in_ == 2 and fusion.booster_.n_features == len(names)
    assert new_method("fusion", evidence=("econ",), tree_evidence=("position",), context=False
                      ).fit(pages, labels).feature_names() == ["econ"]
    with pytest.raises(ConfigurationError, match="twice"):
        new_method("fusion", evidence=("econ", "econ")).fit(pages, labels)


def test_extract_loads_a_shipped_model_once(monkeypatch):
    import importlib

    module = importlib.import_module("newsml.extract")  # the attribute newsml.extract is the function

    loads = []
    real = module.get_method

    def counting(name, **options):
        loads.append(name)
        return real(name, **options)

    monkeypatch.setattr(module, "get_method", counting)
    module._shipped.cache_clear()
    page = "<html><body><p>One sentence, with a comma. Another one, here.</p></body></html>"
    first = extract(page, method="nb")
    assert extract(page, method="nb").text == first.text and extract(page, method="NB").text == first.text
    assert loads == ["nb"]
    module._shipped.cache_clear()


def test_a_family_giving_fewer_columns_than_it_names_is_an_error(monkeypatch):
    # the evidence matrix is filled piece by piece; a short piece must not leave stale columns
    monkeypatch.setattr(PositionFeatures, "page_features", lambda self, page: np.zeros((len(page.nodes), 3)))
    with pytest.raises(ConfigurationError, match="evidence 'position' gave a .* x 3 matrix"):
        extract("<html><body><h1>Bridge opens</h1><p>The new bridge opened on Monday, the council "
                "said.</p></body></html>")


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


@pytest.mark.parametrize("compiled", [True, False])
def test_large_pages_scored_from_table_rows_score_as_from_their_evidence_matrix(monkeypatch, compiled):
    from conftest import in_python, labeled_and_corpus_pages

    import newsml.methods.fusion as fusion
    from newsml.dom.page import load_page
    from newsml.extract import _shipped

    model = _shipped("default")
    pages = [load_page(path) for path in labeled_and_corpus_pages("dragnet", "cwced_zh", each=4)]

    def both(page):
        with monkeypatch.context() as patch:
            patch.setattr(fusion, "TABLE_ROWS_FROM", 0)       # every page scored from table rows
            by_rows = model.score_nodes(page)
        assert len(page.nodes) < fusion.TABLE_ROWS_FROM
        return by_rows, model.score_nodes(page)

    for page in pages:
        by_rows, by_matrix = both(page) if compiled else \
            in_python(lambda page=page: both(page))
        assert by_rows.dtype == by_matrix.dtype and np.array_equal(by_rows, by_matrix)


def test_a_large_page_scored_with_evidence_the_trees_were_not_fitted_on_is_a_clear_error(monkeypatch):
    import copy

    import newsml.methods.fusion as fusion
    from newsml.dom.page import load_page
    from newsml.extract import _shipped

    model = copy.copy(_shipped("default"))
    model.context = False           # (set after fitting: the trees still read the context columns)
    page = load_page(sorted(LABELED.glob("*.html"))[0])
    for limit in (10**9, 0):        # the evidence matrix, then the table rows
        monkeypatch.setattr(fusion, "TABLE_ROWS_FROM", limit)
        with pytest.raises(ValueError, match="expected rows of 49 features"):
            model.score_nodes(page)
