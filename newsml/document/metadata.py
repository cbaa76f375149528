"""An article's metadata: author, publication and modification dates, site name, canonical
address, description, lead image, tags, and for Chinese news the outlet (``source``).

Read from what the page declares (JSON-LD ``NewsArticle``/``Article`` and kin, OpenGraph and
``article:`` meta tags, other meta tags, microdata, ``<time datetime>``, the canonical link)
and from what it shows near the headline (the byline and dateline lines; in Chinese, the
来源/作者/记者/编辑 line), with the date in the address last. Where the page shows a date
beside its headline that contradicts the declared one, the shown one wins: declared dates
are often the last modification posing as the publication. Each field is None where the
page does not say.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.text import count_tokens, normalize_space
from ..dom.nodes import TextNode
from ..dom.page import Page
from ..errors import NewsmlError
from ..input.declared import Declared
from .bylines import (
    bracketed_author,
    chinese_parts,
    chinese_source,
    english_byline,
    in_byline_markup_each,
    is_bare_by,
    is_name_line,
    is_person,
    split_update,
    unglued,
)
from .dates import date_in_address, dates_in, day_of, first_date_at, parse_date
from .lines import LineModel, article_start

#: schema.org types of an article (and of pages that are one).
ARTICLE_TYPES = frozenset("""
    Article NewsArticle BlogPosting ReportageNewsArticle AnalysisNewsArticle OpinionNewsArticle
    BackgroundNewsArticle ReviewNewsArticle LiveBlogPosting ScholarlyArticle TechArticle Report
    SocialMediaPosting Posting DiscussionForumPosting SatiricalArticle AdvertiserContentArticle
    MedicalScholarlyArticle Blog WebPage ItemPage AboutPage QAPage""".split())
#: Meta tags of the publication date, the modification date and the author, best first
#: (the most specific names first; a page's first tag of the best name found wins).
_PUBLISHED_METAS = tuple("""
    article:published_time og:article:published_time og:published_time datepublished publishdate
    publish-date publish_date published_time pubdate publication_date article.published
    article_date_original sailthru.date parsely-pub-date dc.date.issued dcterms.issued
    citation_publication_date og:pubdate pubtime publishtime firstpublishedtime bt:pubdate
    dc.date dcterms.date dcterms.created citation_date release_date date created""".split())
_MODIFIED_METAS = tuple("""
    article:modified_time og:updated_time datemodified last-modified lastmod dcterms.modified
    dc.date.modified article.updated modified_time updated_time""".split())
_AUTHOR_METAS = tuple("""
    byl parsely-author sailthru.author article:author og:article:author citation_author
    dc:creator dcterm:creator dcterms:creator dc.creator dcterms.creator author
    twitter:creator:name creator""".split())
#: Other meta tags named for the publication (a site's own names: w-published-date).
_PUBLISHED_KEY = re.compile(r"publish|pub_?date|release_?date")
#: ... and for the modification (w-modified-date, updated-time).
_MODIFIED_KEY = re.compile(r"modif|updated")
#: How many nodes after the headline (and before it) are read for a byline or dateline.
AFTER_HEADLINE = 12
BEFORE_HEADLINE = 3
#: Lines of a bare date (digits and marks alone) in one table or list with this many
#: different dates near each other are a series of data, and none is the page's date.
SERIES_DATES = 3
#: ... within this many lines before or after it (the line itself the first).
SERIES_LINES = 8
#: ... such a line is at most this long.
BARE_DATE_CHARS = 25
#: The last resort for a date reads the short lines of this many first nodes of a page.
DATE_LINE_NODES = 2000
#: Lines longer than this are prose, not a byline or dateline.
MAX_LINE_CHARS = 160
#: A line of this many words or more that ends as a sentence ends is prose; a date past its
#: first this many characters is not the page's dateline.
SENTENCE_WORDS = 12
DATELINE_CHARS = 40
_SENTENCE_ENDS = frozenset(".!?。！？")
_CLOSING_MARKS = "\"'”’」』)）]】»"
#: A JSON ``datePublished`` in the markup, its quotes plain or escaped as HTML.
_PUBLISHED_IN_TEXT = re.compile(r'datePublished(?:"|&quot;|&#34;)\s*:\s*(?:"|&quot;|&#34;)'
                                r'([0-9][0-9A-Za-z:.+\-/ ]{7,34})(?:"|&quot;|&#34;)')
_PUBLISHED_IN_BYTES = re.compile(_PUBLISHED_IN_TEXT.pattern.encode("ascii"))
#: A copyright notice, whose year is no date of the article.
_COPYRIGHT = re.compile(r"©|copyright|\(c\)|版权|版權", re.IGNORECASE)
#: The comment or CDATA markers a JSON-LD script may open with.
_SCRIPT_OPENING = re.compile(r"\s*(?:<!--|//\s*<!\[CDATA\[|<!\[CDATA\[)")
_TAG_SEPARATORS = re.compile(r"[,;，；、]")
#: A declared author that is an address, a handle, or a script's empty value ("undefined").
_NOT_AUTHOR = re.compile(r"^(?:https?://|www\.|@)|facebook\.com|twitter\.com|"
                         r"^\s*(?:undefined|null|none|nan|unknown|n/a)\s*$|"
                         # a template's: a placeholder left unfilled ("page.head.extra.author",
                         # "{{ author }}"), or a name left out before its outlet (", USA TODAY")
                         r"^\s*[a-z_]+(?:\.[a-z_]+)*\.(?:author|byline|name)\s*$|\{\{|\}\}|\$\{|^\s*[,;:]",
                         re.IGNORECASE)


@dataclass
class Metadata:
    """What a page says of its article; each field None where it does not say."""

    author: str | None = None
    date: str | None = None
    date_modified: str | None = None
    site_name: str | None = None
    url: str | None = None
    description: str | None = None
    image: str | None = None
    tags: list[str] | None = None
    source: str | None = None


@dataclass
class _Shown:
    """What the lines near the headline show."""

    date: str | None = None
    modified: str | None = None
    author: str | None = None
    name_line: str | None = None     # a name alone in the byline's markup: weaker than "By …"
    source: str | None = None
    line_dates: list[str] = field(default_factory=list)   # every date of the date's line


#: schema.org's types of organization (Organization and its kinds): an author so typed is
#: the outlet or the company, not the writer.
_ORGANIZATION_TYPE = re.compile(r"Organi[sz]ation$|^(?:Corporation|NGO|LocalBusiness|OnlineBusiness|Brand|"
                                r"WebSite|Airline|Consortium|PerformingGroup|PoliticalParty|LibrarySystem|"
                                r"WorkersUnion|Project)$")


def read_metadata(page: Page, keep: np.ndarray | None = None, lines: LineModel | None = None,
                  *, organizations_allowed: bool = True) -> Metadata:
    """The metadata of ``page`` (``keep``: the article's nodes, where the byline is looked
    for when the page has no headline node; ``lines``: the byline model that reads the
    author from the page's lines where the byline's rules and the declared values name none;
    ``organizations_allowed=False``: the rules' author alone, without the organization that is the
    last resort, as the byline model's training weighs the rules)."""
    declared = declarations(page)
    article, site = _json_ld(declared.json_ld)
    shown = _shown(page, keep)
    found = Metadata()
    found.url = _first(declared.canonical, _text(article.get("url")), *declared.meta("og:url"),
                       _text(_id_of(article.get("mainEntityOfPage"))))
    modified = _dates(_text(article.get("dateModified")), *declared.meta(*_MODIFIED_METAS),
                      *declared.items.get("dateModified", ()),
                      *(content for key, content in declared.metas if _MODIFIED_KEY.search(key)))
    published = _dates(_text(article.get("datePublished")), _text(article.get("dateCreated")),
                       *declared.meta(*_PUBLISHED_METAS), *declared.items.get("datePublished", ()),
                       *(content for key, content in declared.metas if _PUBLISHED_KEY.search(key)))
    last_modified = _last_day(modified)
    standing = _standing(published, last_modified)
    # (the page's <time> elements, many on a page of comments, are read only without one)
    declared_date = (standing or published)[0] if published else _first_date(*_time_dates(declared.times))
    # (a shown date past the page's last declared modification is a menu's or a sidebar's)
    shown_date = None if _past(shown.date, last_modified) else _shown_publication(shown, standing, modified)
    found.date = _choose_date(declared_date, shown_date, shown.modified, date_in_address(found.url or ""))
    if found.date is None:
        found.date = _date_line(page, last_modified) or _published_in_markup(page.parsed.data, last_modified)
    found.date_modified = _first(*modified, shown.modified)
    found.source = shown.source
    found.site_name = _first(*declared.meta("og:site_name"), _name(article.get("publisher")), site,
                             *declared.meta("application-name", "twitter:site:name"))
    # (an organization the page declares as its author is the outlet or the company: a
    # person named on the page comes first, and the organization only where none is;
    # the model reads every declared name, organizations too, as it was trained)
    author, others = article.get("author"), _other_declared_authors(declared)
    names = [name for name in (_people(author, organizations=None), *others) if name]
    people = [name for name in (_people(author), *others) if name and is_person(name)]
    model = None if lines is None or keep is None else (lambda: lines.author(page, keep, names))
    found.author = chosen_author(_first(shown.author, *people, shown.name_line), found.source, model,
                                 _people(author, organizations=True) if organizations_allowed else None)
    found.description = _first(*declared.meta("og:description"), _text(article.get("description")),
                               *declared.meta("description", "twitter:description"))
    found.image = _first(*declared.meta("og:image", "og:image:url", "og:image:secure_url"),
                         _image(article.get("image")), *declared.meta("twitter:image", "twitter:image:src"))
    found.tags = _tags(declared.meta("article:tag"), article.get("keywords"),
                       declared.meta("news_keywords", "keywords"))
    return found


def chosen_author(rules: str | None, source: str | None, model: Callable[[], str | None] | None,
                  last: str | None = None) -> str | None:
    """The author: the rules' (the byline beside the headline, then the declared author),
    else the byline model's (``model``, asked only then; a line of it that holds ``last``
    gives ``last``), else ``last`` (an organization the page declares as its author); none
    that names the outlet (``source``), which is never the author."""
    for author in (rules, model, last):
        if callable(author):
            author = author()
            if author and last and (key := _key(last)) and key in _key(author):
                author = last               # (a line that names the organization: the organization)
        if author and not (source and source in author):
            return author
    return None


def _key(name: str) -> str:
    """A name's letters and digits, lower case: how a line is looked for a name in."""
    return "".join(filter(str.isalnum, name.lower()))


def declared_organization(page: Page) -> str | None:
    """The organization ``page`` declares as its author (a JSON-LD author typed as one), or
    None: the author only where nothing else names one."""
    return _people(_json_ld(declarations(page).json_ld)[0].get("author"), organizations=True)


def declared_authors(page: Page) -> list[str]:
    """The author names ``page`` declares (JSON-LD, meta tags, microdata, ``rel="author"``
    links), best first."""
    declared = declarations(page)
    return _declared_authors(declared, _json_ld(declared.json_ld)[0])


def declarations(page: Page) -> Declared:
    """What ``page`` declares; a NewsmlError that says why for a page loaded without
    reading it (``load_page(..., declared=False)``, for its title and text alone)."""
    declared = page.parsed.declared
    if declared is None:
        raise NewsmlError("this page was loaded with declared=False, for its title and text alone: "
                          "load it again without that to read its metadata")
    return declared


def _declared_authors(declared: Declared, article: dict[str, Any]) -> list[str]:
    return [name for name in (_people(article.get("author"), organizations=None),
                              *_other_declared_authors(declared)) if name]


def _other_declared_authors(declared: Declared) -> list[str]:
    """The authors declared outside JSON-LD: meta tags, microdata, ``rel="author"`` links."""
    return [*_authors(declared.meta(*_AUTHOR_METAS)), *declared.items.get("author", ()),
            *declared.rel_authors]


def _choose_date(declared: str | None, shown: str | None, shown_update: str | None,
                 in_address: str | None) -> str | None:
    """The publication date: what the page shows beside its headline where it shows one (a
    declared date of another day is often the last modification, or the template's); else
    the declared one; else the day of the shown update; else the address's day (and else,
    in :func:`read_metadata`, the first short dated line of the page)."""
    if shown and declared and (day_of(shown) == day_of(declared) or (
            _local_day_of(declared, shown) and day_of(in_address) != day_of(shown))):
        # (the same day, or the same moment shown in another time zone: the declared one
        # has the time and offset; but an address that holds the shown day says the site
        # dates its posts by that day)
        return declared
    return shown or declared or shown_update or in_address


#: The time zones' offsets from UTC, in hours: the earliest and the latest.
_EARLIEST_ZONE, _LATEST_ZONE = -12, 14


def _local_day_of(declared: str, shown: str) -> bool:
    """Whether the shown date is the declared time (which has its offset) shown in another
    time zone: the same moment, in the writer's or the reader's zone (a post declared at
    02:17 UTC and shown as the evening before, in America). A shown time with its offset
    must be the moment itself (to the minute). Otherwise the declared time must be in UTC
    (an offset of its own is the site's zone, where the day is the declared one), and a
    shown day must be the moment's day in some zone, a shown time the moment in some zone
    (a whole quarter of an hour away from UTC)."""
    try:
        moment = dt.datetime.fromisoformat(declared)
        shown_at = dt.datetime.fromisoformat(shown)
        if moment.tzinfo is None:
            return False
        utc = moment.astimezone(dt.UTC).replace(second=0, microsecond=0)
        if shown_at.tzinfo is not None:
            return shown_at.astimezone(dt.UTC).replace(second=0, microsecond=0) == utc
        if moment.utcoffset() != dt.timedelta(0):
            return False
        if len(shown) <= len("YYYY-MM-DD"):
            earliest, latest = (utc + dt.timedelta(hours=hours) for hours in (_EARLIEST_ZONE, _LATEST_ZONE))
            return earliest.date() <= shown_at.date() <= latest.date()
        offset = shown_at.replace(second=0, microsecond=0) - utc.replace(tzinfo=None)
    except (ValueError, OverflowError):
        return False
    return offset % _ZONE_STEP == dt.timedelta(0) and \
        dt.timedelta(hours=_EARLIEST_ZONE) <= offset <= dt.timedelta(hours=_LATEST_ZONE)


#: Time zones lie a whole quarter of an hour apart (UTC+05:45, UTC-03:30).
_ZONE_STEP = dt.timedelta(minutes=15)


def _shown_publication(shown: _Shown, published: list[str], modified: list[str]) -> str | None:
    """The shown date, or, when it is the declared modification's day and its line also
    shows the declared publication's day, that one (``published``: the declared
    publications not past the last modification): a line that shows both dates (the
    modification first, as some themes print it) shows the publication too."""
    if shown.date is None or len(shown.line_dates) < 2:
        return shown.date
    modified_days = {day_of(date) for date in modified}
    if day_of(shown.date) not in modified_days:
        return shown.date
    published_days = {day_of(date) for date in published} - modified_days
    return next((date for date in shown.line_dates if day_of(date) in published_days), shown.date)


def _shown(page: Page, keep: np.ndarray | None) -> _Shown:
    """The byline and dateline of the lines around the headline (or the article's first)."""
    shown = _Shown()
    nodes = page.nodes
    start = article_start(page, np.flatnonzero(keep) if keep is not None else np.zeros(0, dtype=np.int64))
    window = nodes[max(start - BEFORE_HEADLINE, 0):start + AFTER_HEADLINE + 1]
    for at, node in enumerate(window):
        if len(node.text) > MAX_LINE_CHARS or node.index == page.headline_node:
            continue
        line = unglued(node.text)
        parts = chinese_parts(line)
        if shown.source is None:
            shown.source = chinese_source(line)
        if shown.author is None:
            if is_bare_by(line) and at + 1 < len(window):
                line_after = unglued(window[at + 1].text)
                shown.author = (english_byline("By " + line_after)
                                or chinese_parts("作者：" + line_after).get("author"))
            else:
                shown.author = parts.get("author") or english_byline(line)
            if shown.author is None and shown.name_line is None and is_name_line(line) \
                    and in_byline_markup_each(page, [node.index])[0]:
                shown.name_line = line
        published, updated = split_update(line)
        if shown.date is None and (first := first_date_at(published)) is not None \
                and not _in_date_series(nodes, node.index, first[1]) \
                and not _in_a_sentence(published, first[0]):
            shown.date, shown.line_dates = first[1], dates_in(published)
        if shown.modified is None and updated:
            shown.modified = parse_date(updated)
    if shown.source is None and keep is not None and keep.any() and page.lang == "zh":
        shown.source = _source_near_text(page, np.flatnonzero(keep))
    if shown.author is None and keep is not None:
        kept = np.flatnonzero(keep)
        for index in [*kept[:3].tolist(), *kept[-3:].tolist()]:
            shown.author = bracketed_author(nodes[index].text)
            if shown.author:
                break
    return shown


def _in_a_sentence(line: str, at: int) -> bool:
    """Whether the date starting at ``at`` in ``line`` (stripped) lies inside a sentence of
    prose: a line of :data:`SENTENCE_WORDS` words or more (a Chinese character a word),
    ended as a sentence ends (before closing quotes and brackets), the date starting past
    its first :data:`DATELINE_CHARS` characters. What the sentence or a photo's caption is
    about ("... for most Americans is April 15, 2025."), not the page's dateline, which
    starts its line ("Jan. 10, 2012 -- Two drugs ...", "Posted on November 5, 2012, ...")."""
    return (at >= DATELINE_CHARS and line.rstrip().rstrip(_CLOSING_MARKS)[-1:] in _SENTENCE_ENDS
            and count_tokens(line) >= SENTENCE_WORDS)


def _in_date_series(nodes: list[TextNode], index: int, date: str) -> bool:
    """Whether the node at ``index``, whose line gives ``date``, is a bare date (digits and
    marks alone, as ``1/1/2013``) in a table or list that holds, within
    :data:`SERIES_LINES` lines of it, bare dates of other days: a series of data, such as
    a chart's rows, and not the page's date. A dateline before a list of related stories'
    dates is no such series: it is not in their list."""
    if not _bare_date(nodes[index].text):
        return False
    container = next(nodes[index].block.iterancestors("table", "ul", "ol"), None)
    if container is None:
        return False
    days = {day_of(date)}
    for node in nodes[max(index - SERIES_LINES + 1, 0):index + SERIES_LINES]:
        if _bare_date(node.text) and (other := parse_date(node.text)) is not None \
                and any(above is container for above in node.block.iterancestors("table", "ul", "ol")):
            days.add(day_of(other))
    return len(days) >= SERIES_DATES


def _bare_date(line: str) -> bool:
    """Whether ``line`` is short and holds no letter."""
    return len(line) <= BARE_DATE_CHARS and not any(map(str.isalpha, line))


def _source_near_text(page: Page, kept: np.ndarray) -> str | None:
    """The outlet a short line names near the article's text rather than its headline: just
    before or at the start of its first kept node's run, or at and after its end (a portal
    puts its 来源 line under the story, or between a long head and the story)."""
    nodes = page.nodes
    first, last = int(kept[0]), int(kept[-1])
    for index in [*range(max(first - BEFORE_HEADLINE, 0), min(first + AFTER_HEADLINE + 1, len(nodes))),
                  *range(max(last - BEFORE_HEADLINE, 0), min(last + BEFORE_HEADLINE + 1, len(nodes)))]:
        line = nodes[index].text
        if len(line) <= MAX_LINE_CHARS and (source := chinese_source(line)):
            return source
    return None


def _date_line(page: Page, last_modified: str | None) -> str | None:
    """The first date of a short line of the page that is no copyright notice, nor past the
    page's last declared modification (``last_modified``: a menu's)."""
    nodes = page.nodes
    for node in nodes[:DATE_LINE_NODES]:
        if len(node.text) <= 60 and not _COPYRIGHT.search(node.text):
            date = parse_date(node.text)
            if date and not _past(date, last_modified) and not _in_date_series(nodes, node.index, date):
                return date
    return None


def _published_in_markup(data: bytes | str, last_modified: str | None) -> str | None:
    """The first date of a ``"datePublished": "..."`` of the page's markup read as text,
    quotes escaped or not, not past the last declared modification: the JSON a framework
    puts in an attribute (``data-props="{&quot;...``) or in a script of its own, which the
    declared values do not read. A placeholder (``0001-01-01``) is passed over. The last
    resort."""
    found = (_PUBLISHED_IN_BYTES.finditer(data) if isinstance(data, bytes)
             else _PUBLISHED_IN_TEXT.finditer(data))
    for match in found:
        value = match.group(1)
        date = parse_date(value.decode("ascii") if isinstance(value, bytes) else value)
        if date is not None and not _past(date, last_modified):
            return date
    return None


def _json_ld(scripts: list[str]) -> tuple[dict[str, Any], str | None]:
    """The page's article object of its JSON-LD (the first of an article type; {} without
    one), and the name of a WebSite or Organization it declares."""
    article: dict[str, Any] = {}
    site: str | None = None
    for script in scripts:
        for item in _objects(_loads(script)):
            types = item.get("@type")
            types = {types} if isinstance(types, str) else set(types) if isinstance(types, list) else set()
            bare_page = types <= {"WebPage"} and "datePublished" not in item
            if not article and types & ARTICLE_TYPES and not bare_page:
                article = item
            elif site is None and types & {"WebSite", "NewsMediaOrganization", "Organization"}:
                site = _text(item.get("name"))
    return article, site


def _loads(script: str) -> Any:
    """A JSON-LD script's value: comments and CDATA markers around it taken away, and a
    script that is not JSON read as nothing."""
    text = script.strip()
    if (opening := _SCRIPT_OPENING.match(text)) is not None:
        text = text[opening.end():]
    if text.endswith("-->"):
        text = text[:-3]
    elif text.endswith("]]>"):              # ("//]]>" too, with spaces between or not)
        text = text[:-3]
        if (before := text.rstrip()).endswith("//"):
            text = before[:-2]
    try:
        return json.loads(text, strict=False)
    except ValueError:
        return None


def _objects(value: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """Every object of a JSON-LD value, its ``@graph`` and lists opened (a few levels)."""
    if depth > 4:
        return
    if isinstance(value, list):
        for item in value:
            yield from _objects(item, depth + 1)
    elif isinstance(value, dict):
        yield value
        if "@graph" in value:
            yield from _objects(value["@graph"], depth + 1)


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return normalize_space(html.unescape(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def _id_of(value: Any) -> Any:
    return value.get("@id") or value.get("url") if isinstance(value, dict) else value


def _name(value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        return _text(value.get("name"))
    return _text(value)


def _people(value: Any, organizations: bool | None = False) -> str | None:
    """The names of a JSON-LD author (a name, a person, or a list of them), joined by commas:
    those the page does not type as an organization, those it does (``organizations``), or
    all (None)."""
    items = value if isinstance(value, list) else [value]
    names = [name for name in (_name(item) for item in items
                               if organizations is None or _is_organization(item) == organizations)
             if name and not _NOT_AUTHOR.search(name)]
    return ", ".join(dict.fromkeys(names)) or None


def _is_organization(item: Any) -> bool:
    """Whether a JSON-LD item is typed as an organization and not as a person."""
    if not isinstance(item, dict):
        return False
    types = item.get("@type")
    types = [types] if isinstance(types, str) else types if isinstance(types, list) else []
    names = {str(kind).rsplit("/", 1)[-1] for kind in types}
    return "Person" not in names and any(_ORGANIZATION_TYPE.search(kind) for kind in names)


def _authors(values: list[str]) -> list[str]:
    """Declared authors that are names, not addresses or handles; a "By" prefix dropped."""
    out = []
    for value in values:
        value = normalize_space(html.unescape(value))
        byline = english_byline(value)
        value = byline or value
        if value and not _NOT_AUTHOR.search(value):
            out.append(value)
    return out


def _image(value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        return _text(value.get("url") or value.get("contentUrl"))
    return _text(value)


def _tags(*sources: Any) -> list[str] | None:
    """The article's tags: its ``article:tag`` metas, else its JSON-LD keywords, else its
    keywords metas (each split at commas)."""
    for source in sources:
        values = source if isinstance(source, list) else [source] if source else []
        tags: list[str] = []
        for value in values:
            if isinstance(value, str):
                tags += [normalize_space(tag) for tag in _TAG_SEPARATORS.split(value)]
        tags = list(dict.fromkeys(tag for tag in tags if tag))
        if tags:
            return tags
    return None


def _time_dates(times: list[tuple[str, str]]) -> list[str]:
    """The ``datetime`` values of the page's ``<time>`` elements."""
    return [value for value, _ in times if value]


def _first(*values: str | None) -> str | None:
    return next((value for value in values if value), None)


def _dates(*values: str | None) -> list[str]:
    """The dates that ``values`` hold, in their order."""
    return [date for value in values if value and (date := parse_date(value))]


def _first_date(*values: str | None) -> str | None:
    """The first date ``values`` hold, the values after it not read."""
    return next((date for value in values if value and (date := parse_date(value))), None)


def _standing(declared: list[str], last_modified: str | None) -> list[str]:
    """The declared publication dates (JSON-LD, meta tags, microdata) that can be the
    publication: those not more than a day past the last declared modification
    (``last_modified``). An article is published before it is modified, and a "published"
    value past it is the page's build or crawl time (a day's leeway for time zones and for
    posts scheduled after their last edit). The first of them is the declared publication,
    and the first declared one when none can be: a ``<time>`` never takes its place (the
    caller reads those only without a declared date), as it may be a sidebar's."""
    return [date for date in declared if not _past(date, last_modified)]


def _last_day(dates: list[str]) -> str | None:
    """The latest day (YYYY-MM-DD) of ``dates``, or None."""
    return max((day for date in dates if (day := day_of(date))), default=None)


def _past(date: str | None, last_modified: str | None) -> bool:
    """Whether ``date`` lies more than a day past ``last_modified`` (the page's last declared
    modification): no publication date of the page can (the day's leeway is for time zones)."""
    return bool(date and last_modified and _days_after(date, last_modified) > 1)


def _days_after(date: str, day: str) -> int:
    """How many days ``date`` (ISO) lies after ``day`` (YYYY-MM-DD); 0 when either is no day."""
    try:
        return (dt.date.fromisoformat(day_of(date) or "") - dt.date.fromisoformat(day)).days
    except ValueError:
        return 0
