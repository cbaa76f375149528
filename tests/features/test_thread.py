"""The thread family: where a node sits in a run of repeated records, on hand-made pages."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.dom.page import load_page
from newsml.features.thread import ThreadFeatures

SCALE = np.log1p(20)

THREAD = load_page("""<html><head><title>Bridge opens</title></head><body>
<h1>Bridge opens</h1>
<div class="story"><p>The new bridge opened on Monday, the council said.</p>
<p>Traffic flowed at once.</p></div>
<ol class="comments">
<li class="comment"><p>Re: Bridge opens</p><p>Great news, everyone!</p></li>
<li class="comment"><p>2024-05-02 10:31 anna</p><p>About time.</p></li>
<li class="comment"><p>Finally</p></li>
</ol></body></html>""")


def column(name: str) -> int:
    return ThreadFeatures.feature_names.index(name)


def test_the_story_is_in_no_record_and_each_comment_is_one():
    X = ThreadFeatures().page_features(THREAD)
    texts = [node.text for node in THREAD.nodes]
    assert texts[3] == "Re: Bridge opens"
    # the headline and the story's paragraphs: <p> repeat, but a paragraph is not a record
    np.testing.assert_array_equal(X[:3, column("thread_in")], [0, 0, 0])
    np.testing.assert_array_equal(X[3:, column("thread_in")], [1, 1, 1, 1, 1])
    # ranks of the three comments, by their <li>: 0, 0, 1, 1, 2
    np.testing.assert_allclose(X[3:, column("thread_rank")], np.log1p([0, 0, 1, 1, 2]) / SCALE)
    np.testing.assert_allclose(X[3:, column("thread_count")], np.log1p(2) / SCALE)


def test_a_records_share_of_the_runs_text():
    X = ThreadFeatures().page_features(THREAD)
    chars = [node.chars for node in THREAD.nodes]
    total = sum(chars[3:])
    assert X[3, column("thread_share")] == pytest.approx((chars[3] + chars[4]) / total)
    assert X[7, column("thread_share")] == pytest.approx(chars[7] / total)
    assert X[:3, column("thread_share")].sum() == 0


def test_reply_headers_are_marked():
    X = ThreadFeatures().page_features(THREAD)
    np.testing.assert_array_equal(X[:, column("thread_reply")], [0, 0, 0, 1, 0, 1, 0, 0])
    chinese = load_page("<p>回复：楼主说得对</p><p>2005年6月14日 03:25 发表</p>"
                        "<p>今天天气很好，我们去公园散步。</p>")
    replies = ThreadFeatures().page_features(chinese)[:, column("thread_reply")]
    np.testing.assert_array_equal(replies, [1, 1, 0])


def test_two_records_are_not_a_thread_and_an_empty_page_has_no_rows():
    two = load_page('<div class="c"><p>one reply here</p></div><div class="c"><p>another reply</p></div>')
    assert ThreadFeatures().page_features(two)[:, column("thread_in")].tolist() == [0, 0]
    assert ThreadFeatures().page_features(load_page("<html><body></body></html>")).shape == (0, 5)
