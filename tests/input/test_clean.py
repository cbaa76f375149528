"""newsml/input/clean.py: what browsers do not show leaves the tree (scripts, styles, hidden
elements, media fallbacks); MathML and object content stay; noscript, template and srcdoc
content is read when the article is only there."""

from __future__ import annotations

import pytest

from newsml import extract
from newsml.dom.page import load_page

ARTICLE = ("<p>The council approved the budget on Tuesday after a long debate about roads, "
           "schools and the new library.</p><p>Members voted seven to two, and the mayor said "
           "the plan would hold taxes flat for a second year.</p>")
FOOTER = "<footer><p>Copyright 2024 Town Times.</p><a href='/about'>About</a></footer>"


def test_mathml_stays_in_its_sentence(default_method):
    text = extract("<p>The ratio <math><mi>x</mi><mo>=</mo><mn>42</mn>"
                   "<annotation encoding='application/x-tex'>x = 42</annotation></math> was cited "
                   "in the report.</p>", method=default_method).text
    assert text == "The ratio x=42 was cited in the report."


@pytest.mark.parametrize("wrapped", [
    f"<noscript>{ARTICLE}</noscript>",
    f"<template>{ARTICLE}</template>",
    "<iframe srcdoc=\"" + ARTICLE.replace("&", "&amp;").replace('"', "&quot;") + "\"></iframe>",
])
def test_an_article_only_inside_noscript_template_or_srcdoc_is_read(wrapped, default_method):
    html = f"<html><body><div id='app'></div>{wrapped}{FOOTER}</body></html>"
    text = extract(html, method=default_method).text
    assert "The council approved the budget on Tuesday" in text
    assert "hold taxes flat for a second year." in text


@pytest.mark.parametrize("wrapper", ["<noscript>{}</noscript>", "<iframe srcdoc='{}'></iframe>"])
def test_an_article_nested_past_the_parser_limit_inside_srcdoc_or_noscript_is_read(wrapper, default_method):
    deep = "<div>" * 2100 + "<p>The council approved the budget on Tuesday after a long debate.</p>"
    html = "<html><body><h1>Budget</h1>" + wrapper.format(deep) + "</body></html>"
    text = extract(html, method=default_method).text
    assert "The council approved the budget on Tuesday" in text


def test_noscript_menus_and_pixels_stay_out_of_ordinary_pages(default_method):
    html = (f"<html><head><noscript><img src='pixel.gif'></noscript></head><body>{ARTICLE}"
            "<noscript><p>Please enable JavaScript to comment.</p><ul><li><a href='/'>Home</a></li>"
            "<li><a href='/news'>News</a></li></ul></noscript>"
            "<iframe srcdoc='<p>An advert with words in it, here.</p>'></iframe></body></html>")
    page = load_page(html)
    assert not page.parsed.revealed
    assert all("JavaScript" not in node.text and "advert" not in node.text for node in page.nodes)
    assert extract(html, method=default_method).text == extract(
        f"<html><body>{ARTICLE}</body></html>", method=default_method).text


def test_scripts_styles_comments_and_hidden_elements_are_dropped():
    doc = load_page("""<html><head><style>p {color: red}</style></head><body>
        <script>var secret = "script text";</script><noscript>enable js, please.</noscript>
        <!-- a comment, with text. --><template><p>template text.</p></template>
        <p>Visible, yes.</p><p hidden>hidden attribute.</p>
        <div aria-hidden="true">aria hidden.</div><div style="color:red; DISPLAY : none">inline none.</div>
        <p>Also visible.</p></body></html>""")
    assert [node.text for node in doc.nodes] == ["Visible, yes.", "Also visible."]


def test_noframes_and_noembed_are_not_content():
    doc = load_page("<html><frameset><frame src=a></frameset><noframes><p>Your browser, sadly.</p>"
                "</noframes><body><p>Real, text.</p><noembed>embed fallback.</noembed></body></html>")
    assert [n.text for n in doc.nodes] == ["Real, text."]


def test_object_content_is_text_and_media_fallbacks_are_not():
    # Flash is gone: browsers show an <object>'s content (here a video's caption) in its
    # place, while <audio> and <video> show theirs only where they cannot play
    doc = load_page('<div><object data="player.swf"><param name="movie" value="player.swf">'
                    '<p class="caption">The panel discussed the rule, at length.</p></object>'
                    '<audio controls><span>Download: <a href="talk.mp3">talk.mp3</a></span></audio>'
                    '<video src="clip.mp4">Your browser does not play video.</video>'
                    '<p>Real, text.</p></div>')
    assert [n.text for n in doc.nodes] == ["The panel discussed the rule, at length.", "Real, text."]


_STREAMED = ("<html><body><header><a href='/'>Home</a></header>"
             "<main><h1>Budget approved</h1><template id='B:0'></template><p>Loading…</p></main>"
             "<footer>Copyright Town Times</footer>"
             "<div hidden id='S:0'><p>The council approved the budget on Tuesday after a long debate "
             "about roads, schools and the new library.</p><p>Members voted seven to two, and the mayor "
             "said the plan would hold taxes flat for a second year.</p></div>after the segment"
             "<div hidden id='S:1'><p>A segment no script places stays hidden.</p></div>"
             "<script>$RC=function(b,c){};$RC(\"B:0\",\"S:0\")</script></body></html>")


def test_a_streamed_react_segment_is_read_where_its_script_places_it():
    """React's streamed rendering puts the article in a hidden div at the end of the body and
    moves it into its template's place with a script: it was dropped as hidden."""
    page = load_page(_STREAMED)
    texts = [node.text for node in page.nodes]
    approved = next(i for i, text in enumerate(texts) if text.startswith("The council approved"))
    assert texts.index("Budget approved") < approved < texts.index("Copyright Town Times")
    assert "after the segment" in texts                         # (the text after it stays)
    assert not any("no script places" in text for text in texts)
    assert "hold taxes flat" in extract(_STREAMED).text


def test_a_hidden_div_without_a_react_call_stays_hidden():
    page = load_page(_STREAMED.replace('$RC("B:0","S:0")', ""))
    assert not any("council approved" in node.text for node in page.nodes)
