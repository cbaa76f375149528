"""newsml/input/recover.py: markup nested past libxml2's limit is flattened, or read as text
alone, and no text is lost."""

from __future__ import annotations

from newsml.dom.page import load_page
from newsml.input.recover import flatten_deep_markup


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
