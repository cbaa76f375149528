"""What a page declares, read before cleaning removes it (newsml/input/declared.py)."""

from __future__ import annotations

from newsml.dom.page import load_page
from newsml.input.declared import read_declared


def test_declarations_survive_cleaning():
    page = load_page("""<html lang="zh-CN"><head><meta name="keywords" content="a,b"><meta name="Keywords"
    content="c"><meta property="og:url" content="https://e.com/x"><link rel="canonical" href="/x">
    <script type="application/ld+json">{"@type": "NewsArticle"}</script><script>var x;</script></head>
    <body><span itemprop="datePublished" content="2024-01-02">Jan 2</span><div itemprop="author" itemscope>
    <span itemprop="name">Ana Diaz</span></div><time datetime="2024-01-02T10:00">Tuesday</time>
    <p>Text of the page, here.</p></body></html>""")
    declared = page.parsed.declared
    assert declared.meta("keywords") == ["a,b", "c"] and declared.meta("og:url") == ["https://e.com/x"]
    assert declared.canonical == "/x" and declared.lang == "zh-CN"
    assert declared.json_ld == ['{"@type": "NewsArticle"}']
    assert declared.items == {"datePublished": ["2024-01-02"], "author": ["Ana Diaz"]}
    assert declared.times == [("2024-01-02T10:00", "Tuesday")]
    assert page.root.find(".//script") is None and page.root.find(".//meta") is None   # and cleaned
    assert read_declared(page.root).json_ld == []                 # (read before cleaning, not after)


def test_meta_tags_come_best_name_first_and_a_tag_of_several_names_counts_for_each():
    page = load_page("""<html><head><meta name="author" content="Meta name author">
    <meta property="dc:creator twitter:site_name" content="Creator Name">
    <meta name="description" property="og:description" content="Both"></head>
    <body><p>Text of the page, here.</p></body></html>""")
    declared = page.parsed.declared
    assert declared.meta("dc:creator", "author") == ["Creator Name", "Meta name author"]
    assert declared.meta("author", "dc:creator") == ["Meta name author", "Creator Name"]
    assert declared.meta("twitter:site_name") == ["Creator Name"]
    assert declared.meta("og:description") == declared.meta("description") == ["Both"]
