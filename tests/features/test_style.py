"""newsml/features/style.py: the elements of the same tag and class as a node's (its style mates)."""

from __future__ import annotations

import pytest

from newsml.dom.page import load_page
from newsml.features.style import StyleMateFeatures


def test_style_mates_of_an_article_split_by_a_box_of_links():
    page = load_page("""<html><body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div class="story"><p class="body">The new bridge opened on Monday, the council said.</p>
<div class="box"><a href="/more">More bridges</a></div>
<ul><li><p class="body">Its span</p></li><li><p class="body">Its cost</p></li></ul></div>
</body></html>""")
    X = StyleMateFeatures().page_features(page)
    names = list(StyleMateFeatures.feature_names)
    texts = [node.text for node in page.nodes]
    assert texts == ["Home", "News", "The new bridge opened on Monday, the council said.",
                     "More bridges", "Its span", "Its cost"]
    tokens = page.token_counts
    total = tokens.sum()
    chars, links = page.char_counts
    assert links[2] == 0 and links[3] == chars[3]
    # a list item of the article: its <p class="body"> mates are the paragraph and the other item
    item = X[4]
    assert item[names.index("mates0_share")] == pytest.approx((tokens[2] + tokens[5]) / total)
    assert item[names.index("mates0_links")] == 0
    assert item[names.index("mates0_count")] == pytest.approx(2 / 12)
    # a menu entry: its block is its <li>, shared with the other entry only, all links
    entry = X[0]
    assert entry[names.index("mates0_share")] == pytest.approx(tokens[1] / total)
    assert entry[names.index("mates0_links")] == 1
    assert entry[names.index("mates0_count")] == pytest.approx(1 / 11)
    # the box of links is alone of its mark, with its own links; one level up, it shares
    # the story <div> with the paragraph
    box = X[3]
    assert box[names.index("mates0_share")] == 0 and box[names.index("mates0_count")] == 0
    assert box[names.index("mates0_links")] == 1
    assert box[names.index("mates1_share")] == pytest.approx(tokens[2] / total)
    assert box[names.index("mates1_links")] == pytest.approx((links[2] + links[3]) / (chars[2] + chars[3]))
    empty = StyleMateFeatures().page_features(load_page("<html><body></body></html>"))
    assert empty.shape == (0, len(names))
