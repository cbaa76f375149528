"""newsml/features/topic.py: TextRank keywords, the page's topics and the topic feature of CEDST."""

from __future__ import annotations

from newsml.dom.page import load_page
from newsml.features import TopicFeature
from newsml.features.topic import node_words, page_topics, textrank_keywords


def test_topic_relation_needs_more_than_gamma_co_occurrences():
    sets = [["storm", "harbour", "ferry"]] * 3 + [["storm", "harbour"], ["sale", "shoes"]]
    topics, weights = page_topics(sets, gamma=2)
    # storm-harbour co-occur 4 times, storm-ferry and harbour-ferry 3 times: one clique
    assert topics == [frozenset({"storm", "harbour", "ferry"})] and weights == [4 + 3 + 3]
    topics, _ = page_topics(sets, gamma=3)
    assert topics == [frozenset({"storm", "harbour"})]


def test_repeated_recommendations_count_once():
    texts = ["Buy cheap shoes now"] * 6 + ["The storm closed the harbour", "Storm harbour ferry news",
                                           "The harbour storm ferry"]
    sets = [textrank_keywords(node_words(t), 10) for t in texts]
    counted, _ = page_topics(sets, gamma=2)
    deduped, _ = page_topics(sets, gamma=2, texts=texts)
    assert any("shoes" in topic for topic in counted)
    assert not any("shoes" in topic for topic in deduped)


def test_topic_feature_is_highest_on_the_article():
    html = "<html><body>" + "".join(
        f"<p>The storm closed the harbour and the ferry stopped, report {i}.</p>" for i in range(4)
    ) + "<div><a>Shoes on sale</a></div></body></html>"
    doc = load_page(html)
    values = TopicFeature().page_features(doc).ravel()
    assert values[:4].tolist() == [1.0] * 4 and values[4] == 0.0


def test_node_words_drop_stop_words_and_segment_chinese():
    assert node_words("The mayor and the council of Riverton") == ["mayor", "council", "riverton"]
    assert node_words("北京时间昨天国家统计局发布了数据") [:2] == ["北京", "时间"]


def test_textrank_keeps_all_words_of_short_nodes_and_ranks_long_ones():
    words = ["storm"] * 5 + ["harbour", "storm", "ferry", "storm", "coast", "wind", "rain"]
    assert textrank_keywords(["a", "b"], 10) == ["a", "b"]
    top = textrank_keywords(words, 2)
    assert "storm" in top and len(top) == 2


def test_textrank_on_a_long_node_ranks_as_the_dense_computation(monkeypatch):
    import newsml.features.topic as topic

    # 2,000 distinct filler words, each next to one of two hubs: the hubs rank first
    words = [w for i in range(2000) for w in (f"w{i}", "hub" if i % 2 else "core")]
    sparse = textrank_keywords(words, 12)
    monkeypatch.setattr(topic, "_DENSE_UP_TO", 10**6)
    dense = textrank_keywords(words, 12)
    assert sparse == dense and len(sparse) == 12
    assert {"hub", "core"} <= set(sparse)
