"""The text-density feature family: the density and link share of a node's container."""

from __future__ import annotations

import numpy as np

from newsml.dom.page import load_page
from newsml.features.base import family
from newsml.features.density import TextDensityFeatures
from newsml.methods import new_method

PAGE = load_page("""<html><body>
<ul><li><a href="/a">Home</a></li><li><a href="/b">World news</a></li></ul>
<div><p>The council approved the budget on Monday.</p><p>It passed <a href="/v">seven</a> to two.</p></div>
</body></html>""")


def test_density_and_link_share_of_each_nodes_container():
    X = TextDensityFeatures(half_density=10).page_features(PAGE)
    # the menu's <ul>: 4 + 9 characters in 2 nodes, all links
    # the story's <div>: 36 + 19 characters in 2 nodes, 5 of them a link
    menu, story = 13 / 2, 55 / 2
    np.testing.assert_allclose(X[:, 0], [menu / (menu + 10)] * 2 + [story / (story + 10)] * 2)
    np.testing.assert_allclose(X[:, 1], [1.0, 1.0, 5 / 55, 5 / 55])


def test_the_family_is_found_by_name_and_serves_as_fusion_evidence():
    assert family("density") is TextDensityFeatures
    fusion = new_method("fusion", evidence=("econ", "density"), context=False)
    assert fusion.feature_names() == ["econ", "container_density", "container_links"]
    empty = load_page("<html><body></body><p> </p></html>")
    assert TextDensityFeatures().page_features(empty).shape == (0, 2)
