"""newsml/methods/cedst.py: CEDST's evidence fused by Dempster-Shafer, untrained or fitted."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import LABELED, parsed_with_labels

from newsml import ConfigurationError, extract, load_corpus
from newsml.methods import new_method


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


def test_refitting_without_labels_forgets_the_earlier_fit():
    docs, labels = parsed_with_labels(load_corpus(LABELED, split="train")[:6])
    cedst = new_method("cedst").fit(docs, labels)
    assert hasattr(cedst, "classifier_")
    assert not hasattr(cedst.fit(docs, None), "classifier_")
    with pytest.raises(ConfigurationError, match="sigma must be"):
        new_method("fusion", sigma="wide").fit(docs, labels)
