"""Parsing: bad input gets one clear error; malformed and deep markup never loses text."""

from __future__ import annotations

import gzip

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsml import InvalidPageError, extract
from newsml.parse import flatten_deep_markup, parse


@pytest.mark.parametrize(("data", "fragment"), [
    (b"", "empty"),
    ("   \n\t ", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG"),
    (b"%PDF-1.7\n%\xe2\xe3", "PDF"),
    (bytes(range(256)) * 8, "binary"),
    ("just a line of plain text, no markup at all", "not HTML"),
    ('{"json": true, "html": false}', "not HTML"),
    (b"\x1f\x8b\x08\x00garbage", "gzip"),
])
def test_bad_input_raises_one_documented_error(data, fragment):
    with pytest.raises(InvalidPageError, match=fragment):
        parse(data)


def test_invalid_page_error_is_a_value_error():
    assert issubclass(InvalidPageError, ValueError)


def test_missing_file_path_is_reported_as_such():
    with pytest.raises(InvalidPageError, match="no file of that name"):
        parse("no/such/page.html")


def test_reads_a_path(tmp_path):
    path = tmp_path / "p.html"
    path.write_bytes(b"<p>From a file, really.</p>")
    assert extract(path).text == extract(str(path)).text == "From a file, really."


def test_gzipped_page_is_decompressed():
    assert extract(gzip.compress(b"<p>Compressed, yes.</p>")).text == "Compressed, yes."


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
        nodes = parse(text).nodes
    except InvalidPageError:
        return
    assert all(node.text.strip() for node in nodes)


def test_scripts_styles_comments_and_hidden_elements_are_dropped():
    doc = parse("""<html><head><style>p {color: red}</style></head><body>
        <script>var secret = "script text";</script><noscript>enable js, please.</noscript>
        <!-- a comment, with text. --><template><p>template text.</p></template>
        <p>Visible, yes.</p><p hidden>hidden attribute.</p>
        <div aria-hidden="true">aria hidden.</div><div style="color:red; DISPLAY : none">inline none.</div>
        <p>Also visible.</p></body></html>""")
    assert [node.text for node in doc.nodes] == ["Visible, yes.", "Also visible."]


def test_content_left_inside_head_by_the_parser_is_kept():
    # an unknown tag before <body> makes libxml2 leave the whole page inside <head>
    doc = parse("<html><head><title>T</title><cms:include/></head><body><p>Body, text.</p></body></html>")
    assert "Body, text." in [node.text for node in doc.nodes]


def test_ten_thousand_levels_of_nesting_keep_their_text():
    depth = 10_000
    nested = "<div>" * depth + "deep, text." + "</div>" * depth
    html = f"<html><body>{nested}<p>after, too.</p></body></html>"
    doc = parse(html)
    texts = [node.text for node in doc.nodes]
    assert doc.flattened
    assert texts == ["deep, text.", "after, too."]


def test_thousands_of_unclosed_font_tags_keep_their_text():
    words = [f"word{i}" for i in range(3000)]
    html = "<html><body><p>" + "".join(f"<font>{w} " for w in words) + "</p><p>end.</p></body></html>"
    text = " ".join(node.text for node in parse(html).nodes)
    assert all(w in text for w in (words[0], words[1500], words[-1], "end."))


def test_flatten_keeps_every_character_of_text():
    html = "<div>" * 50 + "x<b>y</b>z" + "</div>" * 50
    flat = flatten_deep_markup(html, max_depth=10)
    assert flat.count("<div>") == 10 and "x<b>y</b>z" not in flat
    assert "".join(ch for ch in flat if ch in "xyz") == "xyz"
