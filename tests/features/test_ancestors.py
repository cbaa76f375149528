"""newsml/features/ancestors.py: the text, links, nodes and branches of a node's ancestors."""

from __future__ import annotations

import pytest
from conftest import COMMENTS_PAGE

from newsml.dom.page import load_page
from newsml.features.ancestors import AncestorFeatures

COMMENTS = load_page(COMMENTS_PAGE)


def test_ancestor_statistics_of_the_story_and_the_comment_list():
    X = AncestorFeatures().page_features(COMMENTS)
    names = list(AncestorFeatures.feature_names)
    texts = [node.text for node in COMMENTS.nodes]
    assert texts[:3] == ["Bridge opens", "The new bridge opened on Monday, the council said.",
                         "Traffic flowed at once."]
    total = COMMENTS.token_counts.sum()
    story = X[1]
    # the story's <div> holds 9 + 4 tokens in 2 nodes and 2 branches, no links
    assert story[names.index("up1_share")] == pytest.approx(13 / total)
    assert story[names.index("up1_links")] == 0
    assert story[names.index("up1_nodes")] == pytest.approx(2 / 12)
    assert story[names.index("up1_branches")] == pytest.approx(2 / 7)
    # a comment's <li>: its parent is the <li> itself one level up, then the list of 3 comments
    comment = X[3]
    assert comment[names.index("up2_nodes")] == pytest.approx(3 / 13)
    assert comment[names.index("up2_branches")] == pytest.approx(3 / 8)
