"""The feature families of the default's second stage: exact values on hand-made pages."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import python_twins

from newsml.dom.page import load_page
from newsml.features.ancestors import AncestorFeatures
from newsml.features.position import PositionFeatures, title_node
from newsml.features.prose import ProseFeatures
from newsml.features.repetition import RepetitionFeatures
from newsml.features.style import StyleMateFeatures

COMMENTS = load_page("""<html><head><title>Bridge opens</title></head><body>
<h1>Bridge opens</h1>
<div class="story"><p>The new bridge opened on Monday, the council said.</p>
<p>Traffic flowed at once.</p></div>
<ol class="comments">
<li class="comment"><p>Great news!</p></li><li class="comment"><p>About time.</p></li>
<li class="comment"><p>Finally</p></li>
</ol></body></html>""")


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


def test_repetition_marks_the_repeated_comment_items():
    X = RepetitionFeatures(many=20).page_features(COMMENTS)
    scale = np.log1p(20)
    # story paragraphs: two <p> siblings; their <div> is alone of its kind
    np.testing.assert_allclose(X[1], [np.log1p(1) / scale, 0, 0])
    # each comment's <p> is alone in its <li>, which has two more of its kind
    np.testing.assert_allclose(X[3], [0, np.log1p(2) / scale, 0])


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


def test_position_relative_to_the_headline():
    assert title_node(COMMENTS) == 0
    X = PositionFeatures().page_features(COMMENTS)
    np.testing.assert_allclose(X[:, 1], [0, 1, 1, 1, 1, 1])           # after the headline
    np.testing.assert_allclose(X[:, 3], [1, 0, 0, 0, 0, 0])           # the headline itself
    np.testing.assert_allclose(X[:3, 2], [0, 1 / 11, 2 / 12])
    tokens = COMMENTS.token_counts
    assert X[2, 0] == pytest.approx(tokens[:2].sum() / tokens.sum())
    untitled = PositionFeatures().page_features(load_page("<p>one</p><p>two</p>"))
    np.testing.assert_allclose(untitled[:, 1:], [[0.5, 1, 0], [0.5, 1, 0]])


def test_prose_cues_of_a_long_text_piece_by_piece_are_the_same(monkeypatch):
    """Past the split limit a node's text is counted in pieces (memory): the same row."""
    import newsml.features.prose as prose

    texts = ["The mayor said that it was over. Home News 2024",
             "北京市发布了暴雨预警，市民 要注意安全。 Rain, 12 mm!", "  A  b  的 了 ， 。 x1 y2  ",
             "了的是在和有也就都而及与或但被把对从于这那个们之其以为所着过2024年5月1日，北京。"]
    whole = [prose._row(text) for text in texts]
    import newsml.core.text

    monkeypatch.setattr(prose, "SPLIT_LIMIT", 4)
    monkeypatch.setattr(newsml.core.text, "SPLIT_LIMIT", 4)
    assert len(list(newsml.core.text.counting_pieces(texts[1]))) > 5  # Chinese without spaces is cut too
    assert [prose._row(text) for text in texts] == whole


def test_prose_cues_of_many_texts_a_piece_at_a_time_are_those_of_all_at_once(monkeypatch):
    """A large page's texts are taken ROWS_AT_ONCE at a time (memory): the same rows."""
    import newsml.features.prose as prose

    texts = [*TRICKY, "The mayor said that it was over.", "北京市发布了暴雨预警，市民要注意安全。"] * 3
    whole = prose._rows(texts)
    monkeypatch.setattr(prose, "ROWS_AT_ONCE", 4)
    pieces = prose._rows(texts)
    assert pieces.shape == (len(texts), 5) and np.array_equal(pieces, whole)
    assert prose._rows([]).shape == (0, 5)


def test_prose_cues_in_english_and_chinese():
    page = load_page("<p>The mayor said that it was over.</p><p>Home News Sport</p>"
                     "<p>北京市发布了暴雨预警，市民要注意安全。</p><p>2024-05-01</p>")
    X = ProseFeatures().page_features(page)
    names = list(ProseFeatures.feature_names)
    # 5 of 7 English words are stop words (the, that, it, was, over); the menu has none
    assert X[0, names.index("stop_share")] == pytest.approx(5 / 7)
    assert X[1, names.index("stop_share")] == 0 and X[1, names.index("capitalized")] == 1
    assert X[:, names.index("ends_sentence")].tolist() == [1, 0, 1, 0]
    # 了 is a function character among 17 Han characters; 2 CJK marks per 17 (over 10%: capped)
    assert X[2, names.index("stop_share")] == pytest.approx(1 / 17)
    assert X[2, names.index("cjk_punct")] == pytest.approx(1.0)
    assert X[3, names.index("digits")] == 1


#: Texts where the character classes of the page-wide counts could part from the patterns:
#: quotes before and inside words, letters whose lower case is ASCII, astral characters,
#: digits of other scripts, underscores, CJK marks, empty texts.
TRICKY = ["'the 'The don't ’tis '' and ''x", "İstanbul THE \u212aelvin iS", "𝐀bc 😀 the 𠀀的了",
          "２０２４年５月，北京。", "", "\n", "a'b'c O’Neil and THE. ‘and’", "٣ digits ¹²³ ½ _under_score_",
          "ÀÉ the Über-cool ﬁnance", "了的是在和有也就都而及与或但被把对从于这那个们之其以为所着过"]


def test_prose_counts_of_a_page_at_once_are_those_of_each_text():
    import random

    import newsml.features.prose as prose

    expected = [list(prose._counts(text)) for text in TRICKY]
    assert prose.page_counts(TRICKY).tolist() == expected
    alphabet = "aZq'’ İ\u212a1٣_，。的了𝐀😀\n .x-"
    rng = random.Random(7)
    texts = ["".join(rng.choices(alphabet, k=rng.randrange(0, 40))) for _ in range(300)]
    assert prose.page_counts(texts).tolist() == [list(prose._counts(text)) for text in texts]
    assert prose.page_counts([]).shape == (0, 8)


@pytest.mark.parametrize("counts", ["as built", "numpy"])
def test_prose_counts_of_a_page_past_the_split_limit_are_those_of_each_text(monkeypatch, counts):
    """Past the limit, texts are counted in runs and long texts in pieces: the same counts
    (in C where it was built, and by numpy, whose runs hold at most RUN_CHARS characters)."""
    import random

    import newsml.core.text
    import newsml.features.prose as prose

    monkeypatch.setattr(prose, "SPLIT_LIMIT", 64)
    monkeypatch.setattr(newsml.core.text, "SPLIT_LIMIT", 64)   # where counting_pieces cuts
    monkeypatch.setattr(prose, "RUN_CHARS", 256)
    runs: list[list[int]] = []
    if counts == "numpy":
        python_twins(monkeypatch)
        short_runs = newsml.core.text.short_runs
        monkeypatch.setattr(newsml.core.text, "short_runs", lambda *args: (runs.append(run.tolist()) or run
                                                                       for run in short_runs(*args)))
    rng = random.Random(11)
    words = ["the", "The", "news", "don't", "2024", "的了", "北京", "，", "。", "İ", "x"]
    texts = [" ".join(rng.choices(words, k=rng.choice([0, 1, 3, 8, 20, 60]))) for _ in range(200)]
    texts[5] = "的" * 300                               # a long run of Han characters
    texts[6] = "The" + "x" * 300                         # a long word: nowhere to cut it
    assert max(map(len, texts)) > 2 * 64 and sum(map(len, texts)) > 20 * 64
    assert prose.page_counts(texts).tolist() == [list(prose._counts(text)) for text in texts]
    if counts == "numpy":                                # every short text once, in runs of at most 256
        assert [i for run in runs for i in run] == [i for i, text in enumerate(texts) if len(text) <= 64]
        assert all(sum(len(texts[i]) + 1 for i in run) <= 256 for run in runs) and len(runs) > 5


def test_stop_words_of_a_page_without_dotted_capital_i_are_the_patterns():
    """Without İ or the Kelvin sign, words are read as runs of ASCII bytes: the same words,
    in the same order, as the pattern's matches (quotes before, inside and alone included)."""
    import random

    import newsml.features.prose as prose
    from newsml.core.text import ENGLISH_STOP_WORDS

    stops = sorted(ENGLISH_STOP_WORDS)
    pieces = ["'", "’", "''", " ", "\n", "x" * 13, "Isn't", "o’clock", "THE", "ﬁnance", "é", "ß",
              "\ud800the", "😀an", "٣", "_", "-", "the'", "'’'"]
    rng = random.Random(11)

    def piece() -> str:
        if rng.random() < 0.5:
            return rng.choice(pieces)
        word = rng.choice(stops)
        return word.title() if rng.random() < 0.3 else word

    for _ in range(300):
        joined = "".join(piece() for _ in range(rng.randrange(30))) + "\n"
        assert not any(char in joined for char in prose._LOWER_TO_ASCII)
        words = prose._LATIN_WORD_RE.findall(joined.lower())
        assert prose._stop_words(joined).tolist() == [word in ENGLISH_STOP_WORDS for word in words], joined
