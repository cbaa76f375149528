"""Title extraction (TWCEM's Algorithm 2)."""

from __future__ import annotations

import pytest
from conftest import LABELED

from newsml import extract, load_corpus
from newsml.dom.page import load_page
from newsml.dom.title import extract_title, is_sane_title, strip_site_name, token_distance


@pytest.mark.parametrize(("raw", "clean"), [
    ("Storm closes the harbour - WSJ", "Storm closes the harbour"),
    ("暴雨蓝色预警发布_新浪新闻", "暴雨蓝色预警发布"),
    ("人民网|城市公园管理条例今起施行", "城市公园管理条例今起施行"),
    ("BBC News - One couple's mission", "One couple's mission"),
    ("Plain title without a site", "Plain title without a site"),
])
def test_site_names_are_stripped(raw, clean):
    assert strip_site_name(raw) == clean


def test_heading_closest_to_the_meta_title_wins():
    doc = load_page("""<html><head><title>Council approves the bridge budget - Riverton Post</title></head>
      <body><h2>Most read</h2><h1>Council approves bridge budget</h1><h3>Weather</h3></body></html>""")
    assert extract_title(doc.parsed) == "Council approves bridge budget"


def test_meta_title_when_no_heading_is_close():
    doc = load_page("<html><head><title>Flood warning for the valley | Daily</title></head>"
                "<body><h2>Sign in</h2><p>text</p></body></html>")
    assert extract_title(doc.parsed) == "Flood warning for the valley"


def test_og_title_then_id_title_fallbacks():
    og = load_page('<html><head><meta property="og:title" content="From Open Graph"></head>'
                   '<body></body></html>')
    assert extract_title(og.parsed) == "From Open Graph"
    by_id = load_page('<html><body><div id="title-main">From the id</div><p>x</p></body></html>')
    assert extract_title(by_id.parsed) == "From the id"
    assert extract_title(load_page("<html><body><p>nothing</p></body></html>").parsed) == ""


def test_an_og_title_that_is_the_site_name_is_no_headline():
    """Some sites put their own name in og:title on every article page."""
    doc = load_page('<html><head><meta property="og:site_name" content="TheHostingNews.com">'
                    '<meta property="og:title" content="TheHostingNews.com">'
                    "<title>Gauss virus infected the Middle East, Kaspersky says</title></head><body>"
                    "<h2>Gauss virus infected the Middle East, Kaspersky says</h2><p>x</p></body></html>")
    assert extract_title(doc.parsed) == "Gauss virus infected the Middle East, Kaspersky says"


def test_a_sane_caller_title_wins_and_an_abnormal_one_is_ignored():
    doc = load_page("<html><head><title>Page title</title></head><body><h1>Heading</h1></body></html>")
    assert extract_title(doc.parsed, "Feed title, given") == "Feed title, given"
    # "Heading" is too far from the meta title "Page title": the meta title stands
    assert extract_title(doc.parsed, "http://example.com/x") == "Page title"
    assert extract_title(doc.parsed, "%%%%") == "Page title"
    assert extract("<html><body><p>Body, text.</p></body></html>", title="Given").title == "Given"


def test_sanity_and_distance():
    assert is_sane_title("北京") and not is_sane_title("") and not is_sane_title("a" * 301)
    assert token_distance(["a", "b", "c"], ["a", "c"]) == 1 and token_distance([], ["x"]) == 1


def test_a_limited_distance_is_exact_up_to_the_limit():
    """Past its limit the count stops (limit + 1); up to it, it is the full distance."""
    import random

    rng = random.Random(0)
    for _ in range(3000):
        a = rng.choices("abcd", k=rng.randint(0, 9))
        b = rng.choices("abcd", k=rng.randint(0, 9))
        full = _levenshtein(a, b)
        assert token_distance(a, b) == full
        limit = rng.randint(0, 6)
        assert token_distance(a, b, limit) == min(full, limit + 1)


def _levenshtein(a: list[str], b: list[str]) -> int:
    """The textbook table, for reference."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            substitution = table[i - 1][j - 1] + (a[i - 1] != b[j - 1])
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, substitution)
    return table[-1][-1]


def test_titles_of_the_labeled_pages():
    pages = load_corpus(LABELED)
    exact = sum(load_page(p.html).title == p.meta["title"] for p in pages)
    assert exact == len(pages)


@pytest.mark.parametrize(("raw", "clean"), [
    ("Sales rose 2010–2020, report says | CNN", "Sales rose 2010–2020, report says"),
    ("my_variable_name considered harmful", "my_variable_name considered harmful"),
    ("暴雨蓝色预警发布_新浪新闻", "暴雨蓝色预警发布"),
])
def test_site_names_are_cut_only_at_real_separators(raw, clean):
    assert strip_site_name(raw) == clean


def test_og_title_is_kept_whole():
    page = ('<html><head><meta property="og:title" content="Biden signs bill — a win for unions">'
            "</head><body><p>text</p></body></html>")
    assert extract(page, method="econ").title == "Biden signs bill — a win for unions"


def _title(head: str, body: str) -> str:
    return extract_title(load_page(f"<html><head>{head}</head><body>{body}<p>text</p></body></html>").parsed)


def test_a_heading_holding_the_headline_and_more_gives_the_headline():
    title = "<title>Breast care surgeon will start next month - Health - iomtoday</title>"
    sponsored = "<h1><div><span>Sponsored by</span> <a href='/x'><img alt='Bank'></a></div> " \
                "Breast care surgeon will start next month</h1>"
    assert _title(title, sponsored) == "Breast care surgeon will start next month"
    crumbs = "<h2>uho優活健康網 〉檢視火線新聞 〉夏季濕疹冬天發作！靴子不透氣惹禍</h2>"
    uho = "<title>夏季濕疹冬天發作！靴子不透氣惹禍 - uho優活健康網</title>"
    assert _title(uho, crumbs) == "夏季濕疹冬天發作！靴子不透氣惹禍"
    # other words before or after it are the headline's own
    assert _title("<title>AT CARVEN – PARIS – HANNELI MUSTAPARTA</title>", "<h2>AT CARVEN – PARIS</h2>") == \
        "AT CARVEN – PARIS"
    assert _title("<title>Storm hits coast</title>", "<h1>Storm hits coast, killing three</h1>") == \
        "Storm hits coast, killing three"
    kicker = "Is breast really best? Study finds babies fed on formula cry less"
    daily = "<title>Study finds babies fed on formula cry less - Daily Mail</title>"
    assert _title(daily, f"<h1>{kicker}</h1>") == kicker


def test_an_og_title_copied_from_the_title_loses_a_known_site_name():
    head = ('<title>What is Mesh WiFi? | Whole Home Mesh WiFi | TP-Link</title>'
            '<meta property="og:title" content="What is Mesh WiFi? | Whole Home Mesh WiFi | TP-Link">')
    assert _title(head, "<h1>What is Mesh WiFi?</h1>") == "What is Mesh WiFi?"
    assert _title(head, "<h2>Sign in</h2>") == "What is Mesh WiFi?"   # three segments: a known site end
    wiki = "金锺国 - 维基百科，自由的百科全书"
    head = f"<title>{wiki}</title><meta property='og:title' content='{wiki}'>"
    assert _title(head, "<h2>目录</h2>") == wiki      # which end is the site's: unknown


def test_a_promotional_og_title_gives_way_to_the_heading_near_the_title():
    head = ("<title>Paid Time Off (PTO) Policies: Best Practices & Benefits | Paycom Blog</title>"
            "<meta property='og:title' content='Blog post >> Visit the Paycom blog to learn more'>")
    assert _title(head, "<h1>Paid Time-Off Policies: Best Practices and Benefits</h1>") == \
        "Paid Time-Off Policies: Best Practices and Benefits"


def test_an_inner_title_segment_is_compared_when_it_is_the_longest():
    head = "<title>Tama Galiere | Sydney Baby Dies After Hospital Visit... | Stuff.co.nz</title>"
    headline = "'Healthy' baby dies after hospital visit"
    assert _title(head, f"<h1>{headline}</h1>") == headline
    section = "<title>Sex-selective abortion could be prevented, doctors say | News | National Post</title>"
    assert _title(section, "<h2>News</h2>") == "Sex-selective abortion could be prevented, doctors say"
