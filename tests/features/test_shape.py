"""newsml/features/shape.py: a node's length, punctuation and the mass of text around it."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.dom.page import load_page
from newsml.features import ShapeFeatures


def test_shape_features_measure_length_punctuation_and_the_mass_around_a_node():
    page = load_page("""<html><body>
    <div id="a"><div><p>one two three, four.</p></div><div><p>five</p></div></div>
    <div id="b"><ul><li>six seven</li></ul></div></body></html>""")
    X = ShapeFeatures(long_node=8).page_features(page)
    column = dict(zip(ShapeFeatures.feature_names, X.T))
    np.testing.assert_allclose(column["length"], [4 / 8, 1 / 8, 2 / 8])
    # 2 marks in 17 characters, scaled so that 5% reads as 1: capped
    np.testing.assert_allclose(column["punct_density"], [1.0, 0.0, 0.0])
    # grandparents: div#a holds 5 tokens, div#b 2; great-grandparent: body holds all 7
    np.testing.assert_allclose(column["mass_up2"], [1.0, 1.0, 2 / 5])
    np.testing.assert_allclose(column["mass_up3"], [1.0, 1.0, 1.0])
    long = ShapeFeatures(long_node=8, punct_scale=1.0).page_features(page)
    assert long[0, 1] == pytest.approx(2 / 17)
