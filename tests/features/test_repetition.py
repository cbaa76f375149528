"""newsml/features/repetition.py: how many siblings of its kind a node's block and parents have."""

from __future__ import annotations

import numpy as np
from conftest import COMMENTS_PAGE

from newsml.dom.page import load_page
from newsml.features.repetition import RepetitionFeatures

COMMENTS = load_page(COMMENTS_PAGE)


def test_repetition_marks_the_repeated_comment_items():
    X = RepetitionFeatures(many=20).page_features(COMMENTS)
    scale = np.log1p(20)
    # story paragraphs: two <p> siblings; their <div> is alone of its kind
    np.testing.assert_allclose(X[1], [np.log1p(1) / scale, 0, 0])
    # each comment's <p> is alone in its <li>, which has two more of its kind
    np.testing.assert_allclose(X[3], [0, np.log1p(2) / scale, 0])
