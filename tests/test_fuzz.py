"""Fuzzing whole extractions: arbitrary bytes, mutated labeled pages and tag soup may only
raise InvalidPageError, and no extracted text holds a control character.

(The hostile inputs the fuzzer and the issue found are tested in the files of the modules
that handle them: tests/input/test_read.py, test_decode.py, test_sanitize.py, test_clean.py,
tests/run/test_output.py and test_cli.py, tests/learning/test_training.py and
test_persistence.py.)
"""

from __future__ import annotations

from conftest import LABELED, control_characters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newsml import InvalidPageError, extract

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])


def _extract_or_invalid(page, method) -> None:
    try:
        article = extract(page, method=method)
    except InvalidPageError:
        return
    assert isinstance(article.text, str) and not control_characters(article.text.replace("\x0c", ""))


@FUZZ
@given(data=st.binary(max_size=2000))
def test_fuzz_arbitrary_bytes(data, default_method):
    _extract_or_invalid(data, default_method)


_SEEDS = [path.read_bytes() for path in sorted(LABELED.glob("*.html"))[:6]]


@st.composite
def mutated_pages(draw) -> bytes:
    page = bytearray(draw(st.sampled_from(_SEEDS)))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(page)))
        kind = draw(st.sampled_from(["insert", "delete", "flip", "cut"]))
        if kind == "insert":
            page[at:at] = draw(st.sampled_from([
                b"\x00", b"\x0b", b"\x07", b"\xff\xfe", b"\xef\xbf\xbe", b"<", b"</div>", b"<p hidden>",
                b"<math><mi>x</mi>", b"<noscript>", b"</noscript>", b"<template>", b"<iframe srcdoc='<p>x",
                b"<!--", b"<![CDATA[", b"&#0;", b"&#xFFFE;", b"<?xml version='1.0'?>", b"\x1f\x8b",
                b'<meta charset="utf-16">', b'<meta charset="shift_jis">', b"<font>" * 50]))
        elif kind == "delete":
            del page[at:at + draw(st.integers(1, 200))]
        elif kind == "flip" and at < len(page):
            page[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del page[at:]
    return bytes(page)


@FUZZ
@given(page=mutated_pages())
def test_fuzz_mutated_labeled_pages(page, default_method):
    _extract_or_invalid(page, default_method)


_SOUP = st.sampled_from([
    "<p>", "</p>", "<div>", "</div>", "<span hidden>", "</span>", "<a href=x>", "</a>", "<br>",
    "<table><tr><td>",
    "<math>", "</math>", "<mi>y</mi>", "<annotation>tex</annotation>", "<noscript>", "</noscript>",
    "<template>", "</template>", "<iframe srcdoc='<p>inner text, here.</p>'>", "</iframe>", "<script>",
    "</script>", "<style>", "</style>", "<title>", "</title>", "<html>", "<body>", "<head>", "<!--", "-->",
    "<svg><text>", "&amp;", "&#11;", "&#xFFFF;", "&nbsp;", "\x0b", "\x0c", "\x00", "\x1b", "\ufffe", "\ud800",
    "<p style='display:none'>", "<div aria-hidden=true>", "<h1>", "</h1>", "<li>", "<o:p>", "<x-y>",
    "Words of a sentence, here.", "国家统计局发布数据。", "カタカナ", " ", "\n", "<", ">", "\"", "'",
])


@FUZZ
@given(parts=st.lists(_SOUP, max_size=80))
def test_fuzz_tag_soup(parts, default_method):
    _extract_or_invalid("".join(parts), default_method)
    _extract_or_invalid("".join(parts).encode("utf-8", "surrogatepass"), default_method)
