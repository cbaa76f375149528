"""newsml/features/position.py: where a node lies relative to the headline."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import COMMENTS_PAGE

from newsml.dom.page import load_page
from newsml.features.position import PositionFeatures, title_node

COMMENTS = load_page(COMMENTS_PAGE)


def test_position_relative_to_the_headline():
    assert title_node(COMMENTS) == 0
    X = PositionFeatures().page_features(COMMENTS)
    np.testing.assert_allclose(X[:, 1], [0, 1, 1, 1, 1, 1])           # after the headline
    np.testing.assert_allclose(X[:, 3], [1, 0, 0, 0, 0, 0])           # the headline itself
    np.testing.assert_allclose(X[:3, 2], [0, 1 / 11, 2 / 12])
    tokens = COMMENTS.token_counts
    assert X[2, 0] == pytest.approx(tokens[:2].sum() / tokens.sum())
    untitled = PositionFeatures().page_features(load_page("<p>one</p><p>two</p>"))
    np.testing.assert_allclose(untitled[:, 1:], [[0.5, 1, 0], [0.5, 1, 0]])
