"""newsml/learning/site_votes.py: the keys of a node on a site's pages and the votes of its
labeled pages on them."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import LABELED

from newsml.dom.page import load_page
from newsml.learning.persistence import get_method
from newsml.learning.site_votes import MIXED, node_keys, recentre, vote_scores


def test_without_votes_the_adapted_model_decides_as_its_base():
    base = get_method("default")
    page = load_page(LABELED / "zh03-city-football.html")
    scores = base.score_nodes(page)
    keep = base.select(page, scores)
    same = vote_scores(node_keys(page), scores, keep, {}, prior=1.0) >= 0.5
    assert np.array_equal(same, keep)
    # the site's vote on a key wins over a confident base when the prior is small
    keys = node_keys(page)
    kept = int(np.flatnonzero(keep)[0])
    votes = {key: (0.0, 5) for key in keys[kept]}
    assert vote_scores(keys, scores, keep, votes, prior=0.25)[kept] < 0.5


def _site_page(story: str, notice: str) -> str:
    return (f"<html><body><div class='wrap'><div class='story'><p>{story}</p>"
            f"<div class='notice'><p>{notice}</p></div></div></div></body></html>")


def test_a_long_notice_repeated_on_every_page_is_a_key_of_its_own():
    """A site's notice under every article, 75 Chinese characters: longer than a short line,
    it is keyed by a digest of its text, the same on every page, so its vote drops it."""
    notice = "本网站所有内容未经授权不得转载，" * 5
    first = load_page(_site_page("今天天气很好，" * 12, notice))
    second = load_page(_site_page("明天可能下雨，" * 12, notice))
    keys = [node_keys(first), node_keys(second)]
    texts = [[key for key in page_keys[1] if key.startswith("t:")] for page_keys in keys]
    assert texts[0] == texts[1] and len(texts[0][0]) < 40          # a digest, not the text
    assert [key for key in keys[0][0] if key.startswith("t:")] != texts[0]
    votes = {texts[0][0]: (0.0, 4)}
    base = np.array([0.9, 0.9])
    assert list(vote_scores(keys[1], base, base >= 0.5, votes, prior=1.0) >= 0.5) == [True, False]


def test_the_nearest_container_seen_decides_not_the_mean_of_all():
    """The notice sits in div.notice inside div.story: the vote of div.notice (noise) wins
    over the page-wide div.story and div.wrap (content), however many they are."""
    page = load_page(_site_page("今天天气很好，" * 12, "Share this article on social networks"))
    keys = node_keys(page)
    votes = {"a:div.notice": (0.0, 3), "a:div.story": (1.0, 3), "a:div.wrap": (1.0, 3)}
    base = np.array([0.9, 0.9])
    scores = vote_scores(keys, base, base >= 0.5, votes, prior=0.25)
    assert scores[0] >= 0.5 and scores[1] < 0.5


def test_a_text_seen_on_few_pages_refines_its_containers_vote_instead_of_replacing_it():
    """The notice's text was content on one labeled page, its container noise on eight: the
    text's vote, shrunk toward the container's (not toward the base), drops the notice; seen
    as content on eight pages, it keeps it."""
    page = load_page(_site_page("今天天气很好，" * 12, "Share this article on social networks"))
    keys = node_keys(page)
    text = next(key for key in keys[1] if key.startswith("t:"))
    base = np.array([0.9, 0.9])
    once = vote_scores(keys, base, base >= 0.5, {"a:div.notice": (0.0, 8), text: (1.0, 1)}, prior=4.0)
    often = vote_scores(keys, base, base >= 0.5, {"a:div.notice": (0.0, 8), text: (1.0, 8)}, prior=4.0)
    assert once[1] < 0.5 <= often[1]
    assert once[0] == often[0] == pytest.approx(recentre(base, base >= 0.5)[0])   # no key seen


def test_a_mixed_vote_says_nothing_about_a_node():
    """A path that held as much content as noise on the labeled pages leaves the node to
    the votes before it (here none: the base); a pure vote on the same path moves it."""
    page = load_page(_site_page("今天天气很好，" * 12, "Share this article on social networks"))
    keys = node_keys(page)
    path = next(key for key in keys[1] if key.startswith("f:"))
    base = np.array([0.9, 0.9])
    centred = recentre(base, base >= 0.5)
    for share in (0.5, MIXED + 0.01, 1 - MIXED - 0.01):
        mixed = vote_scores(keys, base, base >= 0.5, {path: (share, 10)}, prior=0.25)
        np.testing.assert_allclose(mixed, centred)
    assert vote_scores(keys, base, base >= 0.5, {path: (MIXED / 2, 10)}, prior=0.25)[1] < 0.5
