"""newsml/methods/markup.py: a logistic model of the tokens of a node's markup."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.methods import new_method


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
