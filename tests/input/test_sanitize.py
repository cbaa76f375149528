"""newsml/input/sanitize.py: the parser's input made safe (control characters, references, C1
controls read as Windows-1252 or UTF-8, attribute and tag limits), checked on bytes where
it can be."""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import control_characters, python_twins

from newsml import InvalidPageError, extract
from newsml.dom.page import load_page
from newsml.input import sanitize


def test_control_character_beside_a_removed_element_is_no_crash(default_method):
    article = extract(b"<p>x<span hidden>y</span>\x0btail</p>", method=default_method)
    assert article.text == "x tail"


@pytest.mark.parametrize("char", ["\x07", "\x0b", "\x0c", "\x1b", "\x7f", "\ufffe", "\uffff", "\ud800",
                                  "&#11;", "&#x0B;", "&#0;", "&#xFFFE;", "&#55296;", "&#x110000;"])
def test_no_control_character_reaches_the_text(char, default_method):
    html = f"<p>Some words{char} here<span hidden>gone</span>{char}and more words, too.</p>"
    for page in (html, html.encode("utf-8", "surrogatepass")):
        text = extract(page, method=default_method).text
        assert "Some words" in text and "more words, too." in text and not control_characters(text)


@pytest.mark.parametrize("nested", ["&&#0;#xF", "&&#0;#11;", "&&#x0;#x7;", "&#&#0;xF", "&#x&#0;F;",
                                    "&#1&#0;2;"])
def test_a_removed_reference_does_not_join_its_neighbours_into_a_new_one(nested):
    # found by the fuzzer: removing '&#0;' from '&&#0;#xF' used to leave the reference '&#xF'
    text = " ".join(node.text for node in load_page(f"<p>budget {nested} approved.</p>").nodes)
    assert not control_characters(text) and text.startswith("budget") and text.endswith("approved.")


def test_an_element_with_100000_attributes_keeps_only_the_first_ones():
    attributes = " ".join(f'a{i}="v"' for i in range(100_000))
    html = f"<html><body><p id=first {attributes}>Text of the page, here.</p></body></html>"
    shortened = sanitize.limit_attributes(html)
    assert len(shortened) < len(html) // 50
    page = load_page(html)
    (paragraph,) = page.root.iter("p")
    assert len(paragraph.attrib) == sanitize.MAX_ATTRIBUTES and paragraph.get("id") == "first"
    assert [node.text for node in page.nodes] == ["Text of the page, here."]


def test_pages_with_too_many_tags_are_refused_before_parsing(monkeypatch):
    monkeypatch.setattr(sanitize, "MAX_TAGS", 500)
    with pytest.raises(InvalidPageError, match="page too large: more than 500 tags"):
        load_page("<html><body>" + "<p>x</p>" * 300 + "</body></html>")
    assert len(load_page("<html><body>" + "<p>x</p>" * 200 + "</body></html>").nodes) == 200


def test_nul_characters_are_ignored_like_browsers_do():
    doc = load_page(b"<p>Before, yes.</p>\x00<p>After, \x00too.</p>")
    assert [n.text for n in doc.nodes] == ["Before, yes.", "After, too."]


def test_utf8_pages_skip_the_control_scan_only_when_clean(monkeypatch):
    """The byte-level look at UTF-8 pages agrees with the regex over their text, for the
    first 2,048 characters, the last of the Basic Multilingual Plane and a sample between,
    also after a broken sequence and across the chunks it reads."""
    from newsml.input.decode import decode_html

    codes = [*range(0x800), *range(0x800, 0xD800, 61), *range(0xE000, 0x10000, 61), *range(0xFFF0, 0x10000)]
    for chunk in (sanitize._CHUNK_BYTES, 3):
        monkeypatch.setattr(sanitize, "_CHUNK_BYTES", chunk)
        for code in codes:
            for before in (b"<p>", b"<p>\xe4"):
                data = before + chr(code).encode("utf-8") + b"x</p>"
                text, encoding = decode_html(data)
                if encoding == "utf-8":
                    clean = not sanitize._utf8_may_hold_not_xml(data, text)
                    assert clean == (sanitize._NOT_XML_RE.search(text) is None), (code, before)
    page = load_page(b"<p>One \x0bsentence, \xef\xbf\xbewith care.</p>")
    assert page.nodes[0].text == "One sentence, with care."


def test_utf8_pages_skip_the_long_tag_scan_only_without_one(monkeypatch):
    """Where the text of a UTF-8 page holds a tag limit_attributes must read, the byte-level
    look says so: multi-byte characters, broken sequences, removed controls, chunks."""
    import random

    from newsml.input.decode import decode_html

    pieces = [b"a", b" ", b"<", b">", b"<p ", b"\xe4\xb8\xad", b"\xff", b"&#0;", b"\x0b", b"x" * 700,
              b"\xe4\xb8\xad" * 300]
    rng = random.Random(12)
    found = 0
    for chunk in (sanitize._CHUNK_BYTES, 7):
        monkeypatch.setattr(sanitize, "_CHUNK_BYTES", chunk)
        for _ in range(2000):
            data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
            text, encoding = decode_html(data)
            if encoding == "utf-8" and sanitize._ANY_LONG_TAG_RE.search(sanitize.xml_safe(text)):
                assert sanitize._utf8_may_hold_long_tags(data), data
                found += 1
    assert found > 10
    assert not sanitize._utf8_may_hold_long_tags(b"<p" + b"a" * 1999 + b">")
    attributes = " ".join(f"a{i}" for i in range(1500))
    page = load_page(f"<p {attributes}>Text of a paragraph.</p>".encode())
    assert len(page.nodes[0].block.attrib) == sanitize.MAX_ATTRIBUTES


def test_the_long_tag_look_agrees_with_the_delimiters_found_by_numpy(monkeypatch):
    """The same answer as the gaps between delimiters numpy finds, also for a '<' whose
    run of free bytes reaches the end of the page."""
    import random


    def whole(data: bytes) -> bool:
        view = np.frombuffer(data, dtype=np.uint8)
        at = np.flatnonzero((view == 0x3C) | (view == 0x3E))
        gaps = np.diff(at, append=len(view)) - 1
        return bool((gaps[view[at] == 0x3C] > 2 * sanitize.MAX_ATTRIBUTES).any())

    monkeypatch.setattr(sanitize, "MAX_ATTRIBUTES", 10)
    monkeypatch.setattr(sanitize, "_LONG_RUN", 21)
    rng = random.Random(3)
    answers = set()
    for _ in range(4500):
        data = bytes(rng.choice(b"a" * 25 + b"<>") for _ in range(rng.randint(0, 300)))
        assert sanitize._utf8_may_hold_long_tags(data) == whole(data), data
        answers.add(whole(data))
    assert sanitize._utf8_may_hold_long_tags(b"<" + b"a" * 21)
    assert not sanitize._utf8_may_hold_long_tags(b"<" + b"a" * 20 + b">" * 50)
    assert answers == {True, False}


@pytest.mark.parametrize("scan", ["as built", "python"])
def test_utf8_bytes_reach_the_parser_as_the_text_would(monkeypatch, scan):
    """Where a UTF-8 page goes to the parser as its own bytes, they are the bytes of the
    text the way through text makes: controls, U+FFFE, character references, declarations,
    spaces before them, long tags with multi-byte characters, broken sequences (the look
    at the bytes in C where it was built, and in Python)."""
    import random


    if scan == "python":
        python_twins(monkeypatch)
    monkeypatch.setattr(sanitize, "MAX_ATTRIBUTES", 3)
    monkeypatch.setattr(sanitize, "_LONG_RUN", 7)
    monkeypatch.setattr(sanitize, "_ANY_LONG_TAG_RE", re.compile(r"<[a-zA-Z][^<>]{6,}"))
    monkeypatch.setattr(sanitize, "_LONG_TAG_RE", re.compile(r"(<[a-zA-Z][a-zA-Z0-9:-]*)[^<>]{6,}"))
    monkeypatch.setattr(sanitize, "_ANY_LONG_TAG_BYTES_RE", re.compile(rb"<[a-zA-Z][^<>]{6,}"))
    pieces = [b"a", b" ", b"\t", b"<", b">", b"<p ", b"<p>", b"a=1 ", b"<p a b=\xe4\xb8\xad c d ",
              b"\xe4\xb8\xad", b"\xc2\xa0", b"\xff",
              b"&#0;", b"&#x41;", b"&#65", b"\x0b", b"\x0c", b"\x00", b"\xef\xbb\xbf", b"\xef\xbf\xbe",
              b"<?xml version='1.0'?>", b"<!DOCTYPE html>"]
    rng = random.Random(5)
    ready = shortened = 0
    for _ in range(5000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        fast = sanitize._ready_utf8(data)
        if fast is None:
            continue
        ready += 1
        shortened += fast != data and b"<?xml" not in data
        text, encoding = sanitize.page_text(data)
        assert (fast, "utf-8") == (sanitize.utf8(text), encoding), data
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
