"""newsml/methods/nb.py: the naive-Bayes paper's block classifier as a node method."""

from __future__ import annotations

import pytest

from newsml import NewsmlError, extract
from newsml.methods import new_method


def test_nb_must_be_trained_and_then_scores_blocks(labeled):
    docs, labels, _, test = labeled
    with pytest.raises(NewsmlError, match="not trained"):
        extract(test[0].html, method=new_method("nb"))
    nb = new_method("nb").fit(docs, labels)
    scores = nb.score_nodes(docs[0])
    assert scores.shape == (len(docs[0].nodes),) and ((scores >= 0) & (scores <= 1)).all()
