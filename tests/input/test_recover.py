"""newsml/input/recover.py: markup nested past libxml2's limit is flattened, or read as text
alone, and no text is lost."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from newsml import extract
from newsml.dom.page import load_page
from newsml.input.recover import (
    _BLOCK_BREAK_RE,
    _block_breaks,
    _tags,
    _without_tags,
    flatten_deep_markup,
    text_only_markup,
)


def test_ten_thousand_levels_of_nesting_keep_their_text():
    depth = 10_000
    nested = "<div>" * depth + "deep, text." + "</div>" * depth
    html = f"<html><body>{nested}<p>after, too.</p></body></html>"
    doc = load_page(html)
    texts = [node.text for node in doc.nodes]
    assert doc.parsed.flattened
    assert texts == ["deep, text.", "after, too."]


def test_thousands_of_unclosed_font_tags_keep_their_text():
    words = [f"word{i}" for i in range(3000)]
    html = "<html><body><p>" + "".join(f"<font>{w} " for w in words) + "</p><p>end.</p></body></html>"
    text = " ".join(node.text for node in load_page(html).nodes)
    assert all(w in text for w in (words[0], words[1500], words[-1], "end."))


def test_flatten_keeps_every_character_of_text():
    html = "<div>" * 50 + "x<b>y</b>z" + "</div>" * 50
    flat = flatten_deep_markup(html, max_depth=10)
    assert flat.count("<div>") == 10 and "x<b>y</b>z" not in flat
    assert "".join(ch for ch in flat if ch in "xyz") == "xyz"


def test_deep_recovery_with_stray_end_tags_loses_nothing():
    # stray </i> end tags do not close anything in libxml2; depth must not undercount
    html = "<html><body>" + "".join(f"<font><b>w{i}, </i>" for i in range(3000))
    text = " ".join(node.text for node in load_page(html).nodes)
    assert all(f"w{i}," in text for i in range(3000))


def test_flatten_reads_quoted_angle_brackets_and_keeps_words_whole():
    html = "<html><body>" + "".join(f"<font title='x>y'>w{i}, " for i in range(3000))
    text = " ".join(node.text for node in load_page(html).nodes)
    assert "y'>" not in text and "w2999," in text
    chinese = "<html><body>" + "".join(f"<font>{c}" for c in "国家统计局" * 600)
    assert load_page(chinese).nodes[0].text == "国家统计局" * 600


def test_text_only_fallback_keeps_lines():
    from newsml.input.recover import text_only_markup

    flat = text_only_markup("<div><b>One &amp; two</b><br>three<p>four</p></div>")
    assert [n.text for n in load_page(flat).nodes] == ["One & two", "three", "four"]


def test_flatten_changes_nothing_within_the_depth():
    html = ("<html><body><div><p>One <b>two</b><br>three<img src='x.png'></p><hr>"
            "<div class='a'><span>four</span></div></div></body></html>")
    assert flatten_deep_markup(html, max_depth=6) == html
    # void and self-closed tags open no level: a page of them is never cut
    flat = "<div>" + "<br><img src=x><input/><x-y/>" * 500 + "word</div>"
    assert flatten_deep_markup(flat, max_depth=2) == flat


def test_flatten_drops_blocks_for_a_space_and_inline_tags_for_nothing():
    html = "<div><div><div>one<div>two</div>th<b>re</b>e</div></div></div>"
    # at depth 3 the fourth <div> and the <b> are dropped, with their end tags: the
    # block leaves a space on each side, the inline element nothing (one word stays one)
    assert flatten_deep_markup(html, max_depth=3) == "<div><div><div>one two three</div></div></div>"
    page = load_page(flatten_deep_markup(html, max_depth=3))
    assert [node.text for node in page.nodes] == ["one two three"]


def test_an_end_tag_closes_what_was_opened_inside_it_and_a_stray_one_nothing():
    # the unclosed <span> inside the first <div> is closed by its </div>: the second <div>
    # opens at depth 1 again, so nothing is dropped at depth 2 ...
    html = "<div><span>a</div></i><div><p>b</p></div>"
    assert flatten_deep_markup(html, max_depth=2) == html
    # ... whereas without that </div> (the stray </i> closes nothing) the second <div> and its
    # <p> lie past depth 2: each of their four tags is dropped for a space
    unclosed = "<div><span>a</i><div><p>b</p></div>"
    assert flatten_deep_markup(unclosed, max_depth=2) == "<div><span>a</i>" + "  b  "


def test_text_only_markup_keeps_text_and_its_characters_and_drops_comments():
    text = "<div><!-- a <p>comment</p> --><h1>Title &amp; more</h1>1 &lt; 2<br/>x<script>y</script></div>"
    lines = [node.text for node in load_page(text_only_markup(text)).nodes]
    assert lines == ["Title & more", "1 < 2", "xy"]     # (a script's text is text here: no tags are read)


# -- linear time: a tag never closed costs no more than its own characters ---------------------

#: The regexes the tag scanners replace, which took quadratic time; they say what is a tag.
_TAG_REGEX = re.compile(r"""<(/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""")
_ANY_TAG_REGEX = re.compile(r"""<(?:[^>"']|"[^"]*"|'[^']*')*>|<!--.*?-->""", re.S)
_PIECES = ["<", ">", "/", "a", "p", "br", "div", " ", '"', "'", "=", "<!--", "-->", "-", "\n", "x"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_tag_scanners_find_what_the_regexes_find(text):
    def spans(matches):
        return [(m.start(), m.end(), m.group(0), m.group(1), m.group(2), m.group(3)) for m in matches]

    assert spans(_tags(text)) == spans(_TAG_REGEX.finditer(text))
    assert _without_tags(text) == _ANY_TAG_REGEX.sub("", text)
    assert _block_breaks(text) == _BLOCK_BREAK_RE.sub("\n", text)


def test_deep_page_with_thousands_of_unclosed_tags_keeps_its_article():
    """The audit's page (its time grew as the square of the unclosed tags): the text is
    kept. How its time grows is measured by scripts/hostile.py --scaling, which CI runs
    with --check, not timed here."""
    article = "<p>" + "The council approved the budget on Tuesday after a long debate. " * 10 + "</p>"
    page = "<html><body>" + "<div>" * 5000 + article + "<a x" * 20_000
    assert "approved the budget" in flatten_deep_markup(page)
    assert "approved the budget" in text_only_markup(page)
    assert "approved the budget" in extract(page).text
