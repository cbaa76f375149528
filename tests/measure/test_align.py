"""Gold alignment labels nodes by in-order token overlap; its oracle is the ceiling."""

from __future__ import annotations

import pytest
from conftest import shared_corpus

from newsml import load_corpus
from newsml.dom.page import load_page
from newsml.measure.align import align_labels, aligned_shares, matching_pairs, oracle_score
from newsml.measure.scoring import macro

PAGE = """<html><body>
<ul><li><a>Home</a></li><li><a>Share this story</a></li></ul>
<h1>Storm closes the harbour</h1>
<p>The harbour closed on Monday as the storm reached the coast, officials said.</p>
<p>Ferries will resume on Wednesday if the wind drops below gale force.</p>
<div class="related"><a>The harbour closed on Monday as the storm reached the coast</a></div>
<p>Comments: 12</p>
</body></html>"""
GOLD = ("The harbour closed on Monday as the storm reached the coast, officials said.\n"
        "Ferries will resume on Wednesday if the wind drops below gale force.")


def test_article_paragraphs_are_content_and_the_rest_noise():
    nodes = load_page(PAGE).nodes
    labels = dict(zip((n.text for n in nodes), align_labels(nodes, GOLD)))
    assert labels["The harbour closed on Monday as the storm reached the coast, officials said."] == 1
    assert labels["Ferries will resume on Wednesday if the wind drops below gale force."] == 1
    assert labels["Home"] == labels["Share this story"] == labels["Comments: 12"] == 0
    assert labels["Storm closes the harbour"] == 0


def test_a_repeat_of_the_gold_out_of_order_is_not_content():
    # the related-link copy of the first sentence comes after the second paragraph
    nodes = load_page(PAGE).nodes
    related = next(n for n in nodes if n.block.get("class") == "related")
    assert align_labels(nodes, GOLD)[related.index] == 0


def test_shares_are_fractions_and_the_threshold_applies():
    nodes = load_page("<p>alpha beta gamma delta</p><p>epsilon</p>").nodes
    shares = aligned_shares(nodes, "alpha beta zeta eta")
    assert shares.tolist() == [0.5, 0.0]
    assert align_labels(nodes, "alpha beta zeta eta").tolist() == [1, 0]
    assert align_labels(nodes, "alpha beta zeta eta", min_share=0.75).tolist() == [0, 0]


def test_matching_pairs_are_increasing_and_exact():
    a = list(range(100)) + [7, 7, 7] + list(range(200, 260))
    b = list(range(5, 100)) + list(range(200, 250)) + [1, 2, 3]
    blocks = matching_pairs(a, b)
    assert sum(size for _, _, size in blocks) == 95 + 50
    for (i, j, size), (i2, j2, _) in zip(blocks, blocks[1:]):
        assert i + size <= i2 and j + size <= j2
    for i, j, size in blocks:
        assert a[i:i + size] == b[j:j + size]


def test_oracle_is_perfect_on_a_clean_page():
    assert oracle_score(load_page(PAGE).nodes, GOLD).f1 == pytest.approx(1.0)


@pytest.mark.parametrize(("corpus", "floor"), [("scrapinghub", 0.97), ("cwced_zh", 0.95)])
def test_oracle_ceiling_on_shared_corpora(corpus, floor):
    pages = load_corpus(shared_corpus(corpus))
    result = macro(oracle_score(load_page(page.html).nodes, page.gold) for page in pages)
    assert result.f1 >= floor, f"oracle F1 {result.f1:.4f} on {corpus}: segmentation or alignment loses text"
