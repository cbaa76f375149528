"""newsml/methods/fusion.py: the default method, evidence fused by Dempster-Shafer then trees over
the evidence and its context, and model files of its earlier forms."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from conftest import LABELED

from newsml import ConfigurationError, NewsmlError, extract
from newsml.core.signal import gaussian_smooth
from newsml.features.base import family
from newsml.features.context import CONTEXT_NAMES, belief_context
from newsml.features.position import PositionFeatures
from newsml.learning.persistence import get_method
from newsml.measure.scoring import macro, score
from newsml.methods import new_method
from newsml.methods.fusion import CUTS, DEFAULT_TREE_EVIDENCE, SIGMAS, Fusion
from newsml.rules.assembly import Assembly, FixedCut, OtsuCut


def test_fusion_trained_on_labeled_pages_generalizes_to_its_test_pages(labeled):
    docs, labels, _, test = labeled
    fusion = new_method("fusion").fit(docs, labels)
    assert fusion.assembly_.sigma in SIGMAS and fusion.assembly_.cut in CUTS
    result = macro(score(extract(p.html, method=fusion).text, p.gold) for p in test)
    # measured 0.95 on these 8 unseen pages; the untrained paper rules reach about 0.87
    assert result.f1 >= 0.90


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


def test_fusion_rejects_unknown_evidence(labeled):
    docs, labels, _, _ = labeled
    with pytest.raises(NewsmlError, match="unknown evidence"):
        new_method("fusion", evidence=("econ", "astrology")).fit(docs, labels)


def test_shipped_default_is_a_trained_fusion_model():
    method = get_method("default")
    assert method.name == "fusion" and hasattr(method, "combiner_") and method.booster_ is not None
    assert extract("<html><body><p>One sentence, with a comma. And another one here.</p></body></html>").text


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


def test_a_family_giving_fewer_columns_than_it_names_is_an_error(monkeypatch):
    # the evidence matrix is filled piece by piece; a short piece must not leave stale columns
    monkeypatch.setattr(PositionFeatures, "page_features", lambda self, page: np.zeros((len(page.nodes), 3)))
    with pytest.raises(ConfigurationError, match="evidence 'position' gave a .* x 3 matrix"):
        extract("<html><body><h1>Bridge opens</h1><p>The new bridge opened on Monday, the council "
                "said.</p></body></html>")


@pytest.mark.parametrize("compiled", [True, False])
def test_large_pages_scored_from_table_rows_score_as_from_their_evidence_matrix(monkeypatch, compiled,
                                                                               default_method):
    from conftest import in_python, labeled_and_corpus_pages

    import newsml.methods.fusion as fusion
    from newsml.dom.page import load_page

    model = default_method
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


def test_a_large_page_scored_with_evidence_the_trees_were_not_fitted_on_is_a_clear_error(monkeypatch,
                                                                                        default_method):
    import copy

    import newsml.methods.fusion as fusion
    from newsml.dom.page import load_page

    model = copy.copy(default_method)
    model.context = False           # (set after fitting: the trees still read the context columns)
    page = load_page(sorted(LABELED.glob("*.html"))[0])
    for limit in (10**9, 0):        # the evidence matrix, then the table rows
        monkeypatch.setattr(fusion, "TABLE_ROWS_FROM", limit)
        with pytest.raises(ValueError, match="expected rows of 49 features"):
            model.score_nodes(page)
