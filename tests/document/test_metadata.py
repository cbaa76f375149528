"""An article's metadata from what its page declares and shows (newsml/document/metadata.py),
on pages written here and on the real pages of the shared corpora."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import LABELED, REPO, shared_corpus

from newsml import extract
from newsml.document.dates import day_of, first_date_at
from newsml.document.metadata import DATELINE_CHARS, _in_a_sentence, read_metadata
from newsml.dom.page import load_page
from newsml.errors import NewsmlError

DECLARED = """<html lang="en"><head><title>Bridge opens - The Ledger</title>
<meta property="og:site_name" content="The Ledger"><meta property="og:description" content="A bridge.">
<meta property="og:image" content="https://e.com/b.jpg"><meta property="article:tag" content="Transit">
<meta property="article:tag" content="Bridges">
<meta property="article:modified_time" content="2024-05-02T10:00:00Z">
<link rel="canonical" href="https://e.com/news/2024/05/01/bridge-opens">
<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
 {"@type": "WebSite", "name": "Ledger site"},
 {"@type": "NewsArticle", "headline": "Bridge opens", "datePublished": "2024-05-01T08:30:00-05:00",
  "author": [{"@type": "Person", "name": "Ana Diaz"}, {"@type": "Person", "name": "Bo Li"}]}]}</script>
</head><body><article><h1>Bridge opens</h1><p>The new bridge opened to traffic on Wednesday morning, the city
said, two months ahead of schedule.</p></article></body></html>"""


def meta_of(html: str):
    page = load_page(html)
    return read_metadata(page, np.ones(len(page.nodes), dtype=bool))


def test_declared_values():
    meta = meta_of(DECLARED)
    assert meta.date == "2024-05-01T08:30:00-05:00" and meta.date_modified == "2024-05-02T10:00:00+00:00"
    assert meta.author == "Ana Diaz, Bo Li" and meta.site_name == "The Ledger"
    assert meta.url == "https://e.com/news/2024/05/01/bridge-opens" and meta.image == "https://e.com/b.jpg"
    assert meta.description == "A bridge." and meta.tags == ["Transit", "Bridges"] and meta.source is None


def test_the_date_shown_beside_the_headline_wins_over_another_declared_day():
    shown = DECLARED.replace("<h1>Bridge opens</h1>", "<h1>Bridge opens</h1><p class='byline'>By Ana Diaz</p>"
                             "<p>April 30, 2024, 7:15 p.m.</p>")
    assert meta_of(shown).date == "2024-04-30T19:15"
    same_day = DECLARED.replace("<h1>Bridge opens</h1>", "<h1>Bridge opens</h1><p>May 1, 2024</p>")
    assert meta_of(same_day).date == "2024-05-01T08:30:00-05:00"     # same day: the declared, with its time
    updated = DECLARED.replace("<h1>Bridge opens</h1>", "<h1>Bridge opens</h1><p>Updated May 3, 2024</p>")
    assert day_of(meta_of(updated).date) == "2024-05-01"              # an update is not the publication


def test_a_shown_day_that_is_the_declared_moment_in_another_time_zone_gives_the_declared_date():
    late = DECLARED.replace("2024-05-01T08:30:00-05:00", "2024-05-01T02:17:00+00:00").replace(
        "<h1>Bridge opens</h1>", "<h1>Bridge opens</h1><p>April 30, 2024</p>")
    assert meta_of(late).date == "2024-05-01T02:17:00+00:00"         # April 30 in America, the same moment
    dated_address = late.replace("/2024/05/01/", "/2024/04/30/")
    assert meta_of(dated_address).date == "2024-04-30"               # the site dates its posts by that day
    far = DECLARED.replace("<h1>Bridge opens</h1>", "<h1>Bridge opens</h1><p>April 30, 2024</p>")
    assert meta_of(far).date == "2024-04-30"                         # 13:30 UTC is April 30 in no time zone
    local = late.replace("2024-05-01T02:17:00+00:00", "2024-05-01T02:17:00")
    assert meta_of(local).date == "2024-04-30"                       # a time without its offset is no moment
    zoned = late.replace("2024-05-01T02:17:00+00:00", "2024-05-01T06:56:43-05:00")
    assert meta_of(zoned).date == "2024-04-30"                       # the site's own zone says May 1


@pytest.mark.parametrize("shown, declared, expected", [
    ("April 30, 2024, 9:17 p.m.", "2024-05-01T02:17:00+00:00", "2024-05-01T02:17:00+00:00"),  # UTC-5
    ("April 30, 2024, 9:26 p.m.", "2024-05-01T02:17:00+00:00", "2024-04-30T21:26"),    # no zone gives :26
    ("Nov 19, 2019, 10:31 pm CST", "2019-11-20T04:31:13-06:00", "2019-11-19T22:31-06:00"),  # not that moment
    ("Nov 19, 2019, 10:31 pm CST", "2019-11-20T04:31:13+00:00", "2019-11-20T04:31:13+00:00"),  # that moment
])
def test_a_shown_time_is_the_declared_moment_only_at_that_moment(shown, declared, expected):
    page = DECLARED.replace("2024-05-01T08:30:00-05:00", declared).replace(
        "<h1>Bridge opens</h1>", f"<h1>Bridge opens</h1><p>{shown}</p>")
    assert meta_of(page).date == expected

def test_a_date_inside_a_sentence_is_not_the_dateline_but_one_that_starts_it_is():
    def shown(line: str) -> str | None:
        body = "The new bridge opened to traffic this morning, the city said, two months ahead of schedule."
        return meta_of(f"<html><body><h1>Bridge opens</h1><p>{line}</p><p>{body}</p></body></html>").date
    assert shown("The end of the tax season for most Americans this year is April 15, 2025, the "
                 "agency said.") is None
    assert shown("The mayor waves after speaking at the opening of the bridge in Oakland on July 23, "
                 "2012.") is None
    assert shown("Jan. 10, 2012 -- Two drugs approved to treat diabetes may also aid weight loss, a new "
                 "study shows.") == "2012-01-10"
    assert shown("Posted on November 5, 2012, 9:58 am, by Thomas Hawk, under Facebook, Flickr and "
                 "Yahoo.") == "2012-11-05T09:58"
    assert shown("The bridge opened on July 23, 2012") == "2012-07-23"      # short: a dateline
    assert shown('The agency said the deadline for most Americans this year is "April 15, 2025."') is None
    chinese = ("据悉，这次会议将在北京召开，会议的主要议题包括经济发展与民生保障、对外开放与合作等，"
               "时间定于2019年8月12日。")
    assert _in_a_sentence(chinese, first_date_at(chinese)[0])          # a Chinese sentence


def test_a_date_counts_as_inside_a_sentence_from_the_41st_character_on():
    line = "x" * DATELINE_CHARS + " then twelve more words come here before the line ends at last."
    assert _in_a_sentence(line, DATELINE_CHARS) and not _in_a_sentence(line, DATELINE_CHARS - 1)


def test_a_series_of_bare_dates_under_the_headline_is_data_not_the_pages_date():
    rows = "".join(f"<tr><td>{month}/1/2013</td><td>{100 + month}</td></tr>" for month in range(1, 7))
    chart = DECLARED.replace("<h1>Bridge opens</h1>", f"<h1>Bridge opens</h1><table>{rows}</table>")
    assert meta_of(chart).date == "2024-05-01T08:30:00-05:00"
    one = DECLARED.replace("<h1>Bridge opens</h1>", "<h1>Bridge opens</h1><p>4/30/2024</p><p>Text.</p>")
    assert day_of(meta_of(one).date) == "2024-04-30"                  # a bare date alone is the dateline
    related = ("<html><body><h1>Bridge opens</h1><p>5/1/2024</p><p>Related</p><ul><li>4/30/2024</li>"
               "<li>4/29/2024</li><li>4/28/2024</li></ul><p>The new bridge opened to traffic this morning, "
               "the city said, two months ahead of schedule.</p></body></html>")
    assert meta_of(related).date == "2024-05-01"                     # the dateline is not in their list
    undated = ("<html><body><table>" + rows + "</table><p>Posted 4/30/2024</p><p>The new bridge opened "
               "to traffic this morning, the city said, two months ahead of schedule.</p></body></html>")
    assert day_of(meta_of(undated).date) == "2024-04-30"             # the first dated line, past the chart


def test_a_publication_date_in_a_frameworks_attribute_is_the_last_resort():
    island = ('<html><head><title>EV guide</title></head><body><astro-island props="{'
              '&quot;dateModified&quot;:&quot;2025-11-18T09:00:00-05:00&quot;,'
              '&quot;datePublished&quot;:&quot;2025-11-17T09:00:00-05:00&quot;}"></astro-island>'
              '<h1>EV guide</h1><p>Electric cars of the year, model by model, with their'
              ' range and price.</p></body></html>')
    assert meta_of(island).date == "2025-11-17T09:00:00-05:00"
    assert extract(island.encode()).date == extract(island).date == "2025-11-17T09:00:00-05:00"
    shown = island.replace("<h1>EV guide</h1>", "<h1>EV guide</h1><p>March 3, 2025</p>")
    assert meta_of(shown).date == "2025-03-03"                       # what the page shows comes first
    placeholder = island.replace("<astro-island", '<script>{"datePublished":"0001-01-01T00:00:00Z"}</script>'
                                 '<astro-island')
    assert meta_of(placeholder).date == "2025-11-17T09:00:00-05:00"  # a placeholder is passed over


def test_a_byline_glued_to_by_or_to_its_date_gives_the_name_and_the_date():
    meta = meta_of(DECLARED.replace("<h1>Bridge opens</h1>",
                                    "<h1>Bridge opens</h1><p>by Cal ReyesApril 30, 2024</p>"))
    assert meta.author == "Cal Reyes" and day_of(meta.date) == "2024-04-30"
    by = DECLARED.replace("<h1>Bridge opens</h1>", "<h1>Bridge opens</h1><p>ByCal Reyes</p>")
    assert meta_of(by).author == "Cal Reyes"


def test_a_page_loaded_for_its_text_alone_has_no_declarations_and_says_so_when_its_metadata_is_asked():
    page = load_page(DECLARED, declared=False)
    assert page.parsed.declared is None
    assert page.title == load_page(DECLARED).title and page.nodes      # its title and text are there
    with pytest.raises(NewsmlError, match="declared=False"):
        read_metadata(page, np.ones(len(page.nodes), dtype=bool))


def test_a_declared_publication_after_every_declared_modification_is_not_the_publication():
    head = ('<meta name="published-time" content="2026-03-09T08:45:32Z">'
            '<meta name="modified-date" content="2024-07-30">'
            '<meta name="published-date" content="2021-02-16">'
            '<meta name="modified-time" content="2026-01-15T17:15:38Z">')
    body = "<h1>Tackling the climate</h1><p>" + "Emerging technologies on land, at sea and in the air. " * 5
    meta = meta_of(f"<html><head>{head}</head><body>{body}</p></body></html>")
    assert meta.date == "2021-02-16" and meta.date_modified == "2024-07-30"
    earlier = head.replace("2026-03-09", "2025-03-09")
    in_order = meta_of(f"<html><head>{earlier}</head><body>{body}</p></body></html>")
    assert in_order.date.startswith("2025-03-09")       # not after the last modification: first wins


def test_a_publication_a_day_after_the_modification_stays_and_a_sidebar_time_never_replaces_it():
    head = ('<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": '
            '"2024-05-02T09:00:00+02:00", "dateModified": "2024-05-01T23:00:00Z"}</script>')
    body = ("<h1>Scheduled story</h1><p>" + "A story published the morning after its last edit. " * 5 +
            '</p><aside><time datetime="2023-01-10">Older story</time></aside>')
    assert meta_of(f"<html><head>{head}</head><body>{body}</body></html>").date == "2024-05-02T09:00:00+02:00"
    later = head.replace("2024-05-02T09:00:00+02:00", "2024-06-02T09:00:00+02:00")
    # (a month past the last edit, and nothing declared before it: the <time> does not take its place)
    assert meta_of(f"<html><head>{later}</head><body>{body}</body></html>").date.startswith("2024-06-02")


def test_a_shown_date_past_every_declared_modification_is_a_menus_not_the_articles():
    head = ('<meta property="article:published_time" content="2017-11-24T18:42:20">'
            '<meta property="article:modified_time" content="2017-11-24T18:42:20">')
    body = ("<h1>A documentary on a library</h1><p>1 mars 2019 à 15:20</p><p>"
            + "Une bibliothèque et ses lecteurs, filmés pendant un an. " * 5 + "</p>")
    meta = meta_of(f"<html lang='fr'><head>{head}</head><body>{body}</body></html>")
    assert meta.date == "2017-11-24T18:42:20"
    # (a day past it is still the article's: a time zone apart)
    next_day = body.replace("1 mars 2019", "25 novembre 2017")
    shown = meta_of(f"<html lang='fr'><head>{head}</head><body>{next_day}</body></html>")
    assert shown.date == "2017-11-25T15:20"
    # with the modification alone declared, the page's first dated line is no way back for it
    modified_only = '<meta property="article:modified_time" content="2017-11-24T18:42:20">'
    assert meta_of(f"<html lang='fr'><head>{modified_only}</head><body>{body}</body></html>").date is None


def test_a_line_that_shows_the_modification_and_the_publication_gives_the_publication():
    head = ('<meta property="article:published_time" content="2025-04-24T16:12:49+00:00">'
            '<meta property="article:modified_time" content="2025-05-21T14:06:47+00:00">')
    published = '<time class="published" datetime="2025-04-24T16:12:49+00:00">April 24, 2025</time>'
    shown = ('<div><time class="updated" datetime="2025-05-21T14:06:47+00:00">May 21, 2025</time>'
             f'{published} by Ann Lee</div>')
    body = f"<h1>Choosing a kettle</h1>{shown}<p>" + "Kettles differ in what they are made of. " * 6 + "</p>"
    assert day_of(meta_of(f"<html><head>{head}</head><body>{body}</body></html>").date) == "2025-04-24"
    # a line showing the modification alone still gives what it shows
    alone = body.replace(published, "")
    assert day_of(meta_of(f"<html><head>{head}</head><body>{alone}</body></html>").date) == "2025-05-21"


def test_a_chinese_outlet_named_under_the_story_far_from_its_headline():
    paragraph = "段：柯达宣布重组业务结构，未来仍可能申请破产，市场关注其专利出售。"
    story = "".join(f"<p>第{n}{paragraph}</p>" for n in range(20))
    html = (f"<html><body><h1>柯达宣布重组业务结构</h1>{'<p>相关新闻</p>' * 14}{story}"
            "<p>编辑：米兰 来源：中国新闻网</p></body></html>")
    page = load_page(html)
    keep = np.array(["柯达宣布重组业务结构，" in node.text for node in page.nodes])
    assert page.lang == "zh" and read_metadata(page, keep).source == "中国新闻网"


def test_nothing_declared_or_shown_is_none():
    meta = meta_of("<html><body><p>Just a paragraph of text, with nothing about it.</p></body></html>")
    assert (meta.author, meta.date, meta.site_name, meta.url, meta.tags, meta.source) == (None,) * 6


def test_broken_json_ld_is_read_as_nothing():
    broken = DECLARED.replace('"@graph": [', '"@graph": [,,')
    meta = meta_of(broken)
    assert meta.author is None and meta.site_name == "The Ledger"


@pytest.mark.parametrize(("opening", "closing"), [("<!--", "-->"), ("//<![CDATA[\n", "\n//]]>"),
                                                  ("<![CDATA[", "]]>"), ("", ""),
                                                  ("//<![CDATA[\n", "\n//" + " " * 300 + "]]>")])
def test_json_ld_wrapped_in_a_comment_or_cdata_is_read(opening, closing):
    start = DECLARED.index('{"@context"')
    end = DECLARED.index("</script>")
    wrapped = DECLARED[:start] + opening + DECLARED[start:end] + closing + DECLARED[end:]
    assert meta_of(wrapped).author == "Ana Diaz, Bo Li"


def test_the_labeled_chinese_page_gives_its_source_apart_from_its_author():
    article = extract(LABELED / "zh12-table-tennis.html")
    assert (article.author, article.source) == ("钱程", "东湖新闻网")
    assert article.date == "2024-05-27T10:32"


def chinese_labels(corpus: str) -> dict:
    shared_corpus(corpus)
    return json.loads((REPO / "labeled" / "metadata" / f"{corpus}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("corpus, floor", [("daniel_zh", 0.97), ("cwced_zh", 0.75)])
def test_chinese_dates_of_real_pages_and_the_source_never_the_author(corpus, floor):
    labels = chinese_labels(corpus)
    folder = shared_corpus(corpus)
    dated = right = 0
    for page_id, label in labels.items():
        article = extract((folder / f"{page_id}.html").read_bytes())
        if label["date"] and len(label["date"]) >= 10:
            dated += 1
            right += day_of(article.date) == label["date"][:10]
        if label["source"] and article.author:
            assert label["source"] not in article.author, (page_id, article.author)
    assert dated > 30 and right / dated >= floor, right / dated


def test_a_name_alone_in_the_byline_markup_yields_to_the_declared_author_and_by_wins_over_both():
    head = '<html><head><meta name="author" content="Steven Musil"></head><body><h1>Offer made</h1>'
    body = ('<p>The company made an offer on Tuesday, the people said, and the board will meet '
            'again next week to weigh it against two others.</p></body></html>')
    section = '<div class="author-info"><h6>Tech Industry</h6></div>'
    assert meta_of(head + section + body).author == "Steven Musil"
    assert meta_of(head.replace("Steven Musil", "") + section + body).author == "Tech Industry"
    assert meta_of(head + section + "<p>By Ana Diaz</p>" + body).author == "Ana Diaz"


def test_the_declared_person_comes_before_a_generic_author_tag_and_a_bracketed_reporter_before_a_name_line():
    page = ('<html><head><meta name="author" content="Example News Staff"><meta name="parsely-author" '
            'content="Jane Doe"></head><body><h1>Offer made</h1><p>The company made an offer on Tuesday, the '
            'people said, and the board will meet again next week to weigh it.</p></body></html>')
    assert meta_of(page).author == "Jane Doe"
    zh = ('<html><body><h1>新桥通车</h1><div class="author">Tech Desk</div><p>新桥今天上午正式通车，'
          '市民纷纷前来参观，交通状况明显改善。（记者 张三）</p></body></html>')
    assert meta_of(zh).author == "张三"


@pytest.mark.parametrize("empty", ["undefined", "null", "None", "N/A", "page.head.extra.author",
                                   "{{ post.author }}", "${author.name}", "author }}", ", USA TODAY"])
def test_a_scripts_empty_value_is_no_declared_author(empty):
    """A template's JSON-LD that names its author "undefined" (a JavaScript value printed
    as text), an unfilled placeholder, or its outlet after a name left out names no one;
    the byline the page shows still counts."""
    ld = json.dumps({"@type": "NewsArticle", "headline": "Offer made",
                     "author": {"@type": "Person", "name": empty}})
    body = ('<h1>Offer made</h1><p>The company made an offer on Tuesday, the people said, and the '
            'board will meet again next week to weigh it against two others.</p></body></html>')
    page = f'<html><head><script type="application/ld+json">{ld}</script></head><body>'
    assert meta_of(page + body).author is None
    assert meta_of(page + "<p>By Ana Diaz</p>" + body).author == "Ana Diaz"


def test_a_handle_with_dots_is_still_a_declared_author():
    ld = json.dumps({"@type": "NewsArticle", "headline": "Offer made",
                     "author": {"@type": "Person", "name": "sara.r.peter"}})
    page = (f'<html><head><script type="application/ld+json">{ld}</script></head><body><h1>Offer made</h1>'
            '<p>The company made an offer on Tuesday, the people said, and the board will meet again.</p>'
            '</body></html>')
    assert meta_of(page).author == "sara.r.peter"


def test_the_outlet_named_after_laiyuan_is_never_the_author_even_from_the_byline_model():
    from newsml.document.metadata import chosen_author

    assert chosen_author("新华网", "新华网", lambda: "张三") == "张三"
    assert chosen_author(None, "新华网", lambda: "新华网 记者") is None
    assert chosen_author("李四", "新华网", lambda: "张三") == "李四"


def test_a_rel_author_link_names_the_author_after_what_the_page_declares_otherwise():
    """HTML's link type for the article's author: a blog's `<a rel="author">` in the post's
    header was not read."""
    body = ('<h1>Nightly news</h1><div class="entry-info"><address class="vcard"><a href="/author/mc" '
            'rel="author">Mike Conley</a></address></div><p>The company made an offer on Tuesday, the people '
            'said, and the board will meet again next week to weigh it against two others.</p></body></html>')
    assert meta_of("<html><body>" + body).author == "Mike Conley"
    declared = '<html><head><meta name="author" content="Jane Doe"></head><body>'
    assert meta_of(declared + body).author == "Jane Doe"
    assert load_page("<html><body>" + body).parsed.declared.rel_authors == ["Mike Conley"]


def test_a_rel_author_link_of_a_real_page_it_never_saw():
    folder = shared_corpus("wcxb_dev2")
    meta = json.loads((folder / "0006.json").read_text(encoding="utf-8"))
    assert meta["split"] == "test"
    assert read_metadata(load_page((folder / "0006.html").read_bytes())).author == meta["author"]


ORGANIZATION_AUTHOR = """<html><head><title>How much to charge for a class</title>
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "BlogPosting",
 "headline": "How much to charge for a class",
 "author": %s, "publisher": {"@type": "Organization", "name": "Gloss Co"}}</script></head>
<body><article><h1>How much to charge for a class</h1>%s<p>Pricing a class well starts with what it costs you
to teach it, and what the studios near you ask for the same hour of the same kind of class.</p>
</article></body></html>"""
GLOSS_CO = '{"@type": "Organization", "name": "Gloss Co", "url": "https://glossco.example"}'


def test_an_organization_declared_as_the_author_yields_to_a_person_named_on_the_page():
    """A company's blog declares the company as every post's author in JSON-LD (typed
    Organization) while the post shows its writer: the company was given as the author."""
    assert meta_of(ORGANIZATION_AUTHOR % (GLOSS_CO, "<p>By Shauna Mitchell</p>")).author == "Shauna Mitchell"
    people = f'[{{"@type": "Person", "name": "Ana Diaz"}}, {GLOSS_CO}]'
    assert meta_of(ORGANIZATION_AUTHOR % (people, "")).author == "Ana Diaz"


def test_an_organization_declared_as_the_author_is_the_author_where_nothing_else_names_one():
    assert meta_of(ORGANIZATION_AUTHOR % (GLOSS_CO, "")).author == "Gloss Co"
    # typed a person too, it is one: before an author a meta tag declares
    with_meta = ORGANIZATION_AUTHOR.replace("<head>", '<head><meta name="author" content="Meta Name">')
    assert meta_of(with_meta % (GLOSS_CO, "")).author == "Meta Name"
    typed_as_both = '{"@type": ["Person", "Organization"], "name": "Gloss Co"}'
    assert meta_of(with_meta % (typed_as_both, "")).author == "Gloss Co"


def test_the_byline_models_line_that_names_the_declared_organization_gives_the_organization():
    from newsml.document.metadata import chosen_author

    firm = "Morgan & Morgan"
    assert chosen_author(None, None, lambda: "Morgan & Morgan Can Help", firm) == firm
    assert chosen_author(None, None, lambda: "Justin Meserole", firm) == "Justin Meserole"
    assert chosen_author(None, None, lambda: None, firm) == firm
    # an organization name without letters or digits is found in no line
    assert chosen_author(None, None, lambda: "Justin Meserole", "—") == "Justin Meserole"
    assert chosen_author(None, "新华网", None, "新华网") is None       # the outlet is never the author


def test_a_company_blogs_writer_on_a_real_page_not_the_company():
    folder = shared_corpus("wcxb_dev2")
    meta = json.loads((folder / "0151.json").read_text(encoding="utf-8"))
    assert meta["split"] == "train" and meta["author"] == "Shauna Mitchell"
    assert extract((folder / "0151.html").read_bytes()).author == "Shauna Mitchell"
