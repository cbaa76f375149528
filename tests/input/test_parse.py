"""newsml/input/parse.py: markup into a tree; malformed markup never raises, and what libxml2
puts where is read as a browser shows it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsml import InvalidPageError, extract
from newsml.dom.page import load_page


@pytest.mark.parametrize("markup", [
    "<p>unclosed <b>bold <i>italic</p> text, after.",
    "<table><tr><td>cell, one<td>cell, two</table></div></div></span>",
    "<div <p>>broken attr, here</p>",
    "</p></p><p>closing first, then.</html><p>after html, too.",
    "<html><body><p>a</body><body><p>second body, here.</p></html>",
])
def test_malformed_markup_never_raises(markup):
    article = extract(markup)
    assert isinstance(article.text, str)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/=\"' abcdiv&;#p\n,.中文")), max_size=300))
def test_arbitrary_text_parses_or_raises_invalid_page(text):
    try:
        nodes = load_page(text).nodes
    except InvalidPageError:
        return
    assert all(node.text.strip() for node in nodes)


def test_content_left_inside_head_by_the_parser_is_kept():
    # an unknown tag after <title> makes libxml2 keep what follows inside <head>
    # (two pages of cwced_zh have all their text there)
    doc = load_page("<html><head><title>T</title><foo>Kept, in head.</foo></head></html>")
    node = next(n for n in doc.nodes if n.text == "Kept, in head.")
    assert node.path[:2] == ("html", "head")


def test_custom_and_office_elements_are_inline():
    doc = load_page("<p>The <x-highlight>mayor</x-highlight> said, "
                    "<st1:place>today</st1:place>.<o:p></o:p></p>")
    assert [n.text for n in doc.nodes] == ["The mayor said, today."]
