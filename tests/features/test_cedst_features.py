"""newsml/features/cedst.py: CEDST's text cluster, text variance and hyperlink features (eq. 8-10)
on small pages, and the families side by side in one FeatureUnion."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.pipeline import FeatureUnion

from newsml.dom.page import load_page
from newsml.features import (
    HyperlinkFeature,
    NaiveBayesFeatures,
    SemanticFeatures,
    ShapeFeatures,
    TextClusterFeature,
    TextVarianceFeature,
    TopicFeature,
)

PAGE = load_page("""<html><body>
<ul><li><a href="/a">one two</a></li><li><a href="/b">three</a></li></ul>
<div><p>alpha beta gamma delta</p><p>epsilon zeta</p><p>eta, <a href="/c">theta</a> iota.</p></div>
</body></html>""")


def test_union_lines_up_one_row_per_node_across_pages():
    union = FeatureUnion([(name, cls()) for name, cls in [
        ("nb", NaiveBayesFeatures), ("cluster", TextClusterFeature), ("var", TextVarianceFeature),
        ("href", HyperlinkFeature), ("topic", TopicFeature), ("shape", ShapeFeatures),
        ("sem", SemanticFeatures)]])
    other = load_page("<p>A second, short page.</p>")
    X = union.fit_transform([PAGE, other])
    assert X.shape == (len(PAGE.nodes) + len(other.nodes), 4 + 1 + 1 + 1 + 1 + 4 + 6)
    assert len(union.get_feature_names_out()) == X.shape[1]
    assert union.transform([]).shape == (0, X.shape[1])


def test_cluster_variance_and_hyperlink_follow_eq_8_to_10():
    # sizes in tokens: li 2, 1 (siblings under <ul>); p 4, 2, 3 (siblings under <div>)
    cluster = TextClusterFeature().page_features(PAGE).ravel()
    assert cluster.tolist() == pytest.approx([3 / 9, 3 / 9, 1, 1, 1])
    variance = TextVarianceFeature().page_features(PAGE).ravel()
    ul_var, div_var = np.var([2, 1]), np.var([4, 2, 3])
    top = max(ul_var, div_var)
    assert variance.tolist() == pytest.approx([ul_var / top] * 2 + [div_var / top] * 3)
    href = HyperlinkFeature().page_features(PAGE).ravel()
    assert href.tolist() == pytest.approx([1, 1, 0, 0, len("theta") / len("eta,thetaiota.")])
