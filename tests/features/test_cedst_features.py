"""Feature transformers: shapes, FeatureUnion, and the CEDST equations on small pages."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import python_twins
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
from newsml.features.context import CONTEXT_NAMES, MATE_NAMES, belief_context, context_names
from newsml.features.topic import node_words, page_topics, textrank_keywords

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


def test_naive_bayes_features_block_and_node_level():
    block = NaiveBayesFeatures().page_features(PAGE)
    node = NaiveBayesFeatures(level="node").page_features(PAGE)
    assert node[0].tolist() == [0.0, 1.0, 0.0, 0.0]             # "one two": all link, no <p>
    assert node[4][3] == 1 and node[4][1] == pytest.approx(5 / 14)
    assert block[2][3] == 3                                       # the <div> block holds 3 <p>
    with pytest.raises(ValueError, match="level"):
        NaiveBayesFeatures(level="page").page_features(PAGE)


def test_naive_bayes_block_counts_a_paragraph_of_nested_blocks_once():
    from newsml.dom.page import load_page
    from newsml.features.blocks import block_rows

    page = load_page("<html><body><div>Lead, text.<p>One, <a href='#'>two</a>.</p>Tail!"
                     "<p>Three.</p></div><div><p>Four</p></div></body></html>")
    texts = [node.text for node in page.nodes]
    assert texts == ["Lead, text.", "One, two.", "Tail!", "Three.", "Four"]
    rows = block_rows(page, [[0, 1, 2, 3], [4]])
    chars = len("Lead,text.One,two.Tail!Three.")
    # the outer <div>'s nodes and the <p> nodes inside it: its two <p>, not four
    assert rows[0].tolist() == pytest.approx([chars - 3, 3 / chars, 6 / chars, 2])
    assert rows[1].tolist() == [4, 0.0, 0.0, 1]


def test_each_nodes_naive_bayes_block_is_the_block_that_holds_it():
    from newsml.features.blocks import block_rows, member_rows, page_nb_block_of_nodes, page_nb_blocks

    for page in (PAGE, load_page("<html><body><div>Lead, text.<p>One, <a href='#'>two</a>.</p>Tail!"
                                 "<p>Three.</p></div><ul><li>a</li><li>b</li></ul><p>Four</p></body></html>")):
        blocks = page_nb_blocks(page)
        block, n_blocks = page_nb_block_of_nodes(page)
        assert n_blocks == len(blocks) > 1
        assert [np.flatnonzero(block == b).tolist() for b in range(n_blocks)] == [b.tolist() for b in blocks]
        np.testing.assert_array_equal(member_rows(page, np.arange(len(page.nodes)), block, n_blocks),
                                      block_rows(page, blocks))


def test_naive_bayes_block_rows_of_no_group_or_an_empty_one_are_zero():
    from newsml.dom.page import load_page
    from newsml.features.blocks import block_rows

    page = load_page("<html><body><p>One, two.</p></body></html>")
    assert block_rows(page, []).shape == (0, 4)
    assert block_rows(page, [[]]).tolist() == [[0.0, 0.0, 0.0, 0.0]]
    assert block_rows(page, [[], [0]]).tolist() == [[0.0, 0.0, 0.0, 0.0], [8.0, 0.0, 2 / 8, 1.0]]


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


def test_semantic_families_look_four_levels_up_only():
    doc = load_page("""<html><body><div class="comment-list"><div><div><div><div><p>deep</p>
        </div></div></div></div><p>near</p></div><footer><p>foot</p></footer></body></html>""")
    rows = SemanticFeatures().page_features(doc)
    names = list(SemanticFeatures.feature_names)
    assert rows[0][names.index("sem_comment")] == 0     # five levels below the comment list
    assert rows[1][names.index("sem_comment")] == 1
    assert rows[2][names.index("sem_footer")] == 1


def test_semantic_families_of_ascii_words_by_first_letter_are_those_of_the_whole_pattern():
    """The pattern grouped by first letter finds what the case-blind pattern of all families
    finds: the same matches, so the same families (a match consumes what it covers)."""
    import random

    from newsml.features import semantics

    def families(words):
        return sum({1 << semantics._COLUMN[str(m.lastgroup)] for m in semantics._ANY_FAMILY.finditer(words)})

    rng = random.Random(3)
    # (word by word, ASCII words by first letter: "ſ" is an "s" to the case-blind pattern)
    alphabet = "commentfootasideREADMOREtagsbodyphotoNAVmedia_-xyz12 \u017f\u00a0"
    words = ["mediaside", "sidebarticle", "Article-Body tags", "READ-more Tag", "post_content headerbody",
             "a\u017fide tags", "foot\u00a0er"]
    words += ["".join(rng.choices(alphabet, k=rng.randrange(1, 30))) for _ in range(20000)]
    semantics._WORD_MARKS.clear()
    assert [semantics._word_families(w) for w in words] == [families(w) for w in words]
    assert semantics._word_families("mediaside") == 1 << semantics._COLUMN["caption"]  # no "aside"


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


def test_textrank_on_a_long_node_ranks_as_the_dense_computation(monkeypatch):
    import newsml.features.topic as topic

    # 2,000 distinct filler words, each next to one of two hubs: the hubs rank first
    words = [w for i in range(2000) for w in (f"w{i}", "hub" if i % 2 else "core")]
    sparse = textrank_keywords(words, 12)
    monkeypatch.setattr(topic, "_DENSE_UP_TO", 10**6)
    dense = textrank_keywords(words, 12)
    assert sparse == dense and len(sparse) == 12
    assert {"hub", "core"} <= set(sparse)


def test_belief_context_reads_neighbours_containers_and_the_main_container():
    page = load_page("""<html><body>
    <ul><li><a href="/a">menu one</a></li><li><a href="/b">menu two</a></li></ul>
    <div><div><p>first article paragraph here</p><p>short</p><p>last article paragraph</p></div></div>
    <div><p>footer words</p></div>
    </body></html>""")
    texts = [node.text for node in page.nodes]
    assert texts == ["menu one", "menu two", "first article paragraph here", "short",
                     "last article paragraph", "footer words"]
    belief = np.array([0.1, 0.1, 0.9, 0.2, 0.9, 0.3])
    C = belief_context(page, belief)
    column = dict(zip(CONTEXT_NAMES, C.T))
    assert C.shape == (6, len(CONTEXT_NAMES)) and ((C >= 0) & (C <= 1)).all()
    assert column["belief"].tolist() == belief.tolist()
    # the weak line sits in a confident box; the footer's box is only itself
    tokens = np.array([4, 1, 3])
    assert column["box1"][3] == pytest.approx((belief[2:5] * tokens).sum() / tokens.sum())
    assert column["box1"][5] == pytest.approx(0.3)
    assert column["near2"][3] > belief[3] and column["near2"][0] < 0.5
    assert column["in_main"].tolist() == [0, 0, 1, 1, 1, 0]
    assert column["between"].tolist() == [0, 0, 1, 1, 1, 0]
    assert belief_context(load_page("<p>x</p>"), np.zeros(1))[0, CONTEXT_NAMES.index("in_main")] == 0
    # written into the last columns of a wider matrix (as fusion does): the same columns
    wide = np.full((6, 3 + len(CONTEXT_NAMES)), 7.0)
    assert belief_context(page, belief, out=wide[:, 3:]) is not None
    assert np.array_equal(wide[:, 3:], C) and (wide[:, :3] == 7.0).all()
    with pytest.raises(ValueError, match="shape"):
        belief_context(page, belief, out=wide)


def test_belief_context_boxes_hold_every_node_below_not_only_siblings():
    page = load_page("""<html><body><div>lead text of the story<p>deeper paragraph</p>
    <div><p>one more</p><p>|</p></div></div></body></html>""")
    assert [node.text for node in page.nodes] == ["lead text of the story", "deeper paragraph",
                                                  "one more", "|"]
    belief = np.array([1.0, 0.0, 0.5, 0.9])
    column = dict(zip(CONTEXT_NAMES, belief_context(page, belief).T))
    weight = np.array([5, 2, 2, 1])                  # tokens, at least 1 per node
    outer = (belief * weight).sum() / weight.sum()
    # the <p> under the outer div sees the div's own text and the nested div's nodes
    assert column["box1"][1] == pytest.approx(outer)
    assert column["box1"][2] == pytest.approx((0.5 * 2 + 0.9) / 3)
    assert column["box2"][2] == pytest.approx(outer)


def test_belief_context_of_style_mates_reads_the_others_of_a_mark():
    page = load_page("""<html><body>
    <div class="story"><p class="body">The bridge opened on Monday.</p>
    <div class="box"><a href="/more">More bridges</a></div>
    <ul><li><p class="body">Its span</p></li><li><p class="body">Its cost</p></li></ul></div>
    </body></html>""")
    assert [node.text for node in page.nodes] == ["The bridge opened on Monday.", "More bridges",
                                                  "Its span", "Its cost"]
    belief = np.array([0.9, 0.1, 0.2, 0.4])
    plain = belief_context(page, belief)
    C = belief_context(page, belief, mates=True)
    assert context_names(True) == CONTEXT_NAMES + MATE_NAMES and C.shape == (4, len(CONTEXT_NAMES) + 2)
    assert np.array_equal(C[:, :len(CONTEXT_NAMES)], plain)
    column = dict(zip(context_names(True), C.T))
    weight = np.maximum(page.token_counts, 1.0)
    # an item's mates are the paragraph and the other item, never itself
    assert column["mates0"][2] == pytest.approx((0.9 * weight[0] + 0.4 * weight[3]) / (weight[0] + weight[3]))
    # the box is alone of its mark: its own belief; one level up it shares the story <div>
    assert column["mates0"][1] == pytest.approx(0.1)
    assert column["mates1"][1] == pytest.approx(0.9)
    # the items' <li> parents have no class: each other's mates only
    assert column["mates1"][2] == pytest.approx(0.4) and column["mates1"][3] == pytest.approx(0.2)
    assert ((C >= 0) & (C <= 1)).all()


def test_punctuation_of_many_texts_at_once_is_that_of_each(monkeypatch):
    import newsml.core.text as text_module
    from newsml.core.text import count_punctuation

    texts = ["One, two. Three!", "", "北京。（新华社）“好”", "no marks", "😀!𠀀？", "...—…", "x" * 9]
    expected = [count_punctuation(text) for text in texts]
    assert text_module.punctuation_counts(texts).tolist() == expected   # (in C where it was built)
    python_twins(monkeypatch)          # the numpy lookups, run by run
    assert text_module.punctuation_counts(texts).tolist() == expected
    monkeypatch.setattr(text_module, "SPLIT_LIMIT", 8)         # runs of a few texts, and long texts alone
    monkeypatch.setattr(text_module, "RUN_CHARS", 8)
    runs = []
    run_marks = text_module._run_marks
    monkeypatch.setattr(text_module, "_run_marks",
                        lambda run, *rest: runs.append(run) or run_marks(run, *rest))
    assert text_module.punctuation_counts(texts).tolist() == expected
    assert all(sum(map(len, run)) <= 8 for run in runs)             # no run past the limit
    assert [text for run in runs for text in run] == [text for text in texts if len(text) <= 8]
    assert len(runs) == 3                                             # each run as long as the limit allows
    runs.clear()
    monkeypatch.setattr(text_module, "RUN_CHARS", 4)            # runs shorter than the longest short text
    assert text_module.punctuation_counts(texts).tolist() == expected
    assert [text for run in runs for text in run] == [text for text in texts if len(text) <= 8]
    assert all(sum(map(len, run)) <= 4 or len(run) == 1 for run in runs)


def test_families_and_markup_tokens_of_attributes_alone_are_those_of_them_joined():
    """Each attribute is read alone (its cache entry is reused when another changes): the
    families and the tokens are those of the attributes joined by a space, as before."""
    import random

    from newsml.features import semantics
    from newsml.methods import markup

    rng = random.Random(5)
    alphabet = "commentFootAsideREADmoretagsBodyphotoNavmedia_-xyz12 \t"
    for _ in range(3000):
        parts = ["".join(rng.choices(alphabet, k=rng.randrange(0, 15))) for _ in range(3)]
        element = load_page("<p>x</p>").nodes[0].block
        for name, value in zip(("class", "id", "itemprop"), parts):
            element.set(name, value)
        joined = " ".join(filter(None, parts))
        expected = semantics._word_families(joined) if joined else 0
        assert semantics._key_families(element.tag, *parts) == expected
        assert markup.element_tokens(element, 0)[1:] == list(
            markup._word_tokens(" ".join(filter(None, parts[:2]))))


def test_class_strings_are_cached_only_when_short():
    """A crawler meets millions of class and id strings: the cache keeps short ones only."""
    from newsml.core.text import cached_when_short

    calls: list[str | None] = []

    @cached_when_short(maxsize=4, longest=10)
    def length(value: str | None) -> int:
        calls.append(value)
        return len(value or "")

    assert [length("short"), length("short"), length(None), length(None)] == [5, 5, 0, 0]
    assert calls == ["short", None]
    long = "x" * 11
    assert [length(long), length(long)] == [11, 11]
    assert calls == ["short", None, long, long]
