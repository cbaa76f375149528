"""Parsing: bad input gets one clear error; malformed and deep markup never loses text."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from conftest import python_twins
from hypothesis import given, settings
from hypothesis import strategies as st

from newsml import InvalidPageError, extract
from newsml.dom.page import load_page
from newsml.input.recover import flatten_deep_markup


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
        load_page(data)


def test_invalid_page_error_is_a_value_error():
    assert issubclass(InvalidPageError, ValueError)


def test_missing_file_path_is_reported_as_such():
    with pytest.raises(InvalidPageError, match="no file of that name"):
        load_page("no/such/page.html")


def test_reads_a_path(tmp_path):
    path = tmp_path / "p.html"
    path.write_bytes(b"<p>From a file, really.</p>")
    assert extract(path).text == extract(str(path)).text == "From a file, really."


def test_the_page_text_is_made_from_the_callers_bytes_when_asked_for():
    data = '<?xml version="1.0"?><html><body><p>Caf\u00e9\x00 prices rose.</p></body></html>'.encode()
    parsed = load_page(data).parsed
    assert parsed.data is data and "text" not in vars(parsed)      # no decoded copy held
    assert parsed.text == "<html><body><p>Caf\u00e9 prices rose.</p></body></html>"


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
        nodes = load_page(text).nodes
    except InvalidPageError:
        return
    assert all(node.text.strip() for node in nodes)


def test_scripts_styles_comments_and_hidden_elements_are_dropped():
    doc = load_page("""<html><head><style>p {color: red}</style></head><body>
        <script>var secret = "script text";</script><noscript>enable js, please.</noscript>
        <!-- a comment, with text. --><template><p>template text.</p></template>
        <p>Visible, yes.</p><p hidden>hidden attribute.</p>
        <div aria-hidden="true">aria hidden.</div><div style="color:red; DISPLAY : none">inline none.</div>
        <p>Also visible.</p></body></html>""")
    assert [node.text for node in doc.nodes] == ["Visible, yes.", "Also visible."]


def test_content_left_inside_head_by_the_parser_is_kept():
    # an unknown tag after <title> makes libxml2 keep what follows inside <head>
    # (two pages of cwced_zh have all their text there)
    doc = load_page("<html><head><title>T</title><foo>Kept, in head.</foo></head></html>")
    node = next(n for n in doc.nodes if n.text == "Kept, in head.")
    assert node.path[:2] == ("html", "head")


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


def test_nul_characters_are_ignored_like_browsers_do():
    doc = load_page(b"<p>Before, yes.</p>\x00<p>After, \x00too.</p>")
    assert [n.text for n in doc.nodes] == ["Before, yes.", "After, too."]


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


def test_custom_and_office_elements_are_inline():
    doc = load_page("<p>The <x-highlight>mayor</x-highlight> said, "
                    "<st1:place>today</st1:place>.<o:p></o:p></p>")
    assert [n.text for n in doc.nodes] == ["The mayor said, today."]


@pytest.mark.parametrize("codec", ["utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_unicode_with_a_bom(codec):
    bom = {"utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00", "utf-32-be": b"\x00\x00\xfe\xff"}
    doc = load_page(bom[codec] + "<p>Wide, text.</p>".encode(codec))
    assert doc.encoding == codec and doc.nodes[0].text == "Wide, text."


@pytest.mark.parametrize(("page", "address"), [
    ("https://example.com/news/story.html", "https://example.com/news/story.html"),
    ("http://example.com", "http://example.com"),
    (Path("https://example.com/news/story.html"), "https://example.com/news/story.html"),  # "//" became "/"
])
def test_a_web_address_is_not_downloaded_and_the_error_says_how_to_get_the_page(page, address):
    with pytest.raises(InvalidPageError, match="a web address, not a file") as error:
        load_page(page)
    assert f"curl -L -o page.html '{address}'" in str(error.value)


def test_a_missing_windows_path_is_a_missing_file_not_a_web_address():
    with pytest.raises(InvalidPageError, match="no such file"):
        load_page(Path("C:/pages/story.html"))


def test_missing_path_objects_are_invalid_pages(tmp_path):
    with pytest.raises(InvalidPageError, match="no such file"):
        load_page(tmp_path / "nope.html")
    with pytest.raises(InvalidPageError, match="not a file"):
        load_page(tmp_path)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400),
       st.sampled_from(["", "utf-8", "gb2312", "base64", "utf-16le", "cp037", "rot13"]))
def test_arbitrary_bytes_with_any_declaration_parse_or_raise_invalid_page(data, charset):
    page = (f'<meta charset="{charset}">'.encode() if charset else b"") + b"<p>" + data
    try:
        nodes = load_page(page).nodes
    except InvalidPageError:
        return
    assert all(node.text.strip() for node in nodes)


def test_utf8_pages_skip_the_control_scan_only_when_clean(monkeypatch):
    """The byte-level look at UTF-8 pages agrees with the regex over their text, for the
    first 2,048 characters, the last of the Basic Multilingual Plane and a sample between,
    also after a broken sequence and across the chunks it reads."""
    from newsml.input import sanitize as parse_module
    from newsml.input.decode import decode_html

    codes = [*range(0x800), *range(0x800, 0xD800, 61), *range(0xE000, 0x10000, 61), *range(0xFFF0, 0x10000)]
    for chunk in (parse_module._CHUNK_BYTES, 3):
        monkeypatch.setattr(parse_module, "_CHUNK_BYTES", chunk)
        for code in codes:
            for before in (b"<p>", b"<p>\xe4"):
                data = before + chr(code).encode("utf-8") + b"x</p>"
                text, encoding = decode_html(data)
                if encoding == "utf-8":
                    clean = not parse_module._utf8_may_hold_not_xml(data, text)
                    assert clean == (parse_module._NOT_XML_RE.search(text) is None), (code, before)
    page = load_page(b"<p>One \x0bsentence, \xef\xbf\xbewith care.</p>")
    assert page.nodes[0].text == "One sentence, with care."


def test_utf8_pages_skip_the_long_tag_scan_only_without_one(monkeypatch):
    """Where the text of a UTF-8 page holds a tag limit_attributes must read, the byte-level
    look says so: multi-byte characters, broken sequences, removed controls, chunks."""
    import random

    from newsml.input import sanitize as parse_module
    from newsml.input.decode import decode_html

    pieces = [b"a", b" ", b"<", b">", b"<p ", b"\xe4\xb8\xad", b"\xff", b"&#0;", b"\x0b", b"x" * 700,
              b"\xe4\xb8\xad" * 300]
    rng = random.Random(12)
    found = 0
    for chunk in (parse_module._CHUNK_BYTES, 7):
        monkeypatch.setattr(parse_module, "_CHUNK_BYTES", chunk)
        for _ in range(2000):
            data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
            text, encoding = decode_html(data)
            if encoding == "utf-8" and parse_module._ANY_LONG_TAG_RE.search(parse_module.xml_safe(text)):
                assert parse_module._utf8_may_hold_long_tags(data), data
                found += 1
    assert found > 10
    assert not parse_module._utf8_may_hold_long_tags(b"<p" + b"a" * 1999 + b">")
    attributes = " ".join(f"a{i}" for i in range(1500))
    page = load_page(f"<p {attributes}>Text of a paragraph.</p>".encode())
    assert len(page.nodes[0].block.attrib) == parse_module.MAX_ATTRIBUTES


def test_the_long_tag_look_agrees_with_the_delimiters_found_by_numpy(monkeypatch):
    """The same answer as the gaps between delimiters numpy finds, also for a '<' whose
    run of free bytes reaches the end of the page."""
    import random

    import numpy as np

    from newsml.input import sanitize as parse_module

    def whole(data: bytes) -> bool:
        view = np.frombuffer(data, dtype=np.uint8)
        at = np.flatnonzero((view == 0x3C) | (view == 0x3E))
        gaps = np.diff(at, append=len(view)) - 1
        return bool((gaps[view[at] == 0x3C] > 2 * parse_module.MAX_ATTRIBUTES).any())

    monkeypatch.setattr(parse_module, "MAX_ATTRIBUTES", 10)
    monkeypatch.setattr(parse_module, "_LONG_RUN", 21)
    rng = random.Random(3)
    answers = set()
    for _ in range(4500):
        data = bytes(rng.choice(b"a" * 25 + b"<>") for _ in range(rng.randint(0, 300)))
        assert parse_module._utf8_may_hold_long_tags(data) == whole(data), data
        answers.add(whole(data))
    assert parse_module._utf8_may_hold_long_tags(b"<" + b"a" * 21)
    assert not parse_module._utf8_may_hold_long_tags(b"<" + b"a" * 20 + b">" * 50)
    assert answers == {True, False}


@pytest.mark.parametrize("scan", ["as built", "python"])
def test_utf8_bytes_reach_the_parser_as_the_text_would(monkeypatch, scan):
    """Where a UTF-8 page goes to the parser as its own bytes, they are the bytes of the
    text the way through text makes: controls, U+FFFE, character references, declarations,
    spaces before them, long tags with multi-byte characters, broken sequences (the look
    at the bytes in C where it was built, and in Python)."""
    import random

    from newsml.input import sanitize as parse_module

    if scan == "python":
        python_twins(monkeypatch)
    monkeypatch.setattr(parse_module, "MAX_ATTRIBUTES", 3)
    monkeypatch.setattr(parse_module, "_LONG_RUN", 7)
    monkeypatch.setattr(parse_module, "_ANY_LONG_TAG_RE", re.compile(r"<[a-zA-Z][^<>]{6,}"))
    monkeypatch.setattr(parse_module, "_LONG_TAG_RE", re.compile(r"(<[a-zA-Z][a-zA-Z0-9:-]*)[^<>]{6,}"))
    monkeypatch.setattr(parse_module, "_ANY_LONG_TAG_BYTES_RE", re.compile(rb"<[a-zA-Z][^<>]{6,}"))
    pieces = [b"a", b" ", b"\t", b"<", b">", b"<p ", b"<p>", b"a=1 ", b"<p a b=\xe4\xb8\xad c d ",
              b"\xe4\xb8\xad", b"\xc2\xa0", b"\xff",
              b"&#0;", b"&#x41;", b"&#65", b"\x0b", b"\x0c", b"\x00", b"\xef\xbb\xbf", b"\xef\xbf\xbe",
              b"<?xml version='1.0'?>", b"<!DOCTYPE html>"]
    rng = random.Random(5)
    ready = shortened = 0
    for _ in range(5000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        fast = parse_module._ready_utf8(data)
        if fast is None:
            continue
        ready += 1
        shortened += fast != data and b"<?xml" not in data
        text, encoding = parse_module.page_text(data)
        assert (fast, "utf-8") == (parse_module.utf8(text), encoding), data
    assert ready > 200 and shortened > 10, (ready, shortened)


C1_PAGE = "<html><body><p>{}</p></body></html>"


@pytest.mark.parametrize("body", [
    "Germany\x92s leaders said \x93we need more time\x94 \x96 twice, for 5\x80.",   # cp1252 read as Latin-1
    "Germany&#146;s leaders said &#147;we need more time&#148; &#x96; twice, for 5&#128;.",
    ("Germany\xe2\x80\x99s leaders said \xe2\x80\x9cwe need more time\xe2\x80\x9d \xe2\x80\x93 twice, "
     "for 5\xe2\x82\xac."),                                                       # UTF-8 read as Latin-1
])
def test_c1_controls_are_read_as_the_text_they_stood_for(body):
    expected = "Germany’s leaders said “we need more time” – twice, for 5€."
    assert extract(C1_PAGE.format(body)).text == expected                    # text given
    assert extract(C1_PAGE.format(body).encode("utf-8")).text == expected    # UTF-8 bytes


def test_c1_controls_windows_1252_lacks_are_dropped_and_latin_1_text_is_left_alone():
    assert extract(C1_PAGE.format("a\x81b &#141;c, Ã© and é stay.")).text == "ab c, Ã© and é stay."


@pytest.mark.parametrize(("body", "expected"), [
    ("\x84Gruß\x93 aus Köln", "„Gruß“ aus Köln"),      # ß and a C1 quote are no UTF-8 of a letter
    ("Café\x94\xa0more", "Café” more"),
    ("TÝ\x93 and so on", "TÝ“ and so on"),
])
def test_a_letter_before_a_c1_control_is_not_taken_for_utf8(body, expected):
    assert extract(C1_PAGE.format(body)).text == expected
