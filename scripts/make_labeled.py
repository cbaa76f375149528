#!/usr/bin/env python3
# ruff: noqa: E501  (article text and HTML snippets are long lines by nature)
"""Generate ``labeled/``: a small synthetic corpus of news pages with gold body text.

Every page is invented: the sites live under example.com / example.org / example.cn,
and all article text, comments, headlines and boilerplate were written for this
script. Output per page (the layout of the project's other corpora):

* ``labeled/<id>.html`` -- the page bytes, UTF-8 or GBK (``encoding`` in the json);
* ``labeled/<id>.txt``  -- gold body text, UTF-8, one paragraph per line, no blank
  lines, trailing newline;
* ``labeled/<id>.json`` -- ``id, url, title, lang, source, license, encoding, layout,
  split, gold_includes_title`` plus ``features`` (every layout the page exercises),
  ``declared_encoding`` and ``declared_encoding_wrong``.

Gold convention
---------------
The gold is the article BODY only: the paragraphs of the story, subheadings inside
the body, and the text of a table that is part of the article (one line per table
row, cell texts joined by a single space, header row included). Excluded: the
headline, byline/date line, image captions, navigation, related-article lists and
their abstracts, comments, share buttons, footers, ads, newsletter boxes, text in
``<script>``/``<style>``/HTML comments and elements hidden with ``display:none``.
A gold line is the visible text of its paragraph: inline tags (links, ``<b>``,
``<font>``) removed, HTML entities decoded, whitespace collapsed to single spaces.

Each page is rendered from the same paragraph strings that are written to the
gold, so the two cannot disagree; a self-check (run by default) decodes every page,
strips tags with a regex and asserts that every gold line's tokens occur, in order
and contiguously, in the page text, and that no caption/comment/related/hidden
text leaked into the gold. The output is deterministic (byte-identical reruns).

Usage: ``python scripts/make_labeled.py [--out DIR] [--no-check]``
"""
from __future__ import annotations

import argparse
import hashlib
import html
import json
import re
import sys
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

SOURCE = "newsml labeled corpus (synthetic pages written by scripts/make_labeled.py)"
LICENSE = "same as the project"
TEST_FRACTION = 0.3
MAX_PAGE_BYTES = 40_000
REQUIRED_LAYOUTS = (
    "related-abstracts",
    "heavy-nav",
    "comments",
    "flash",
    "inline-broken",
    "captions",
    "table",
)
EXTRA_FEATURES = ("long", "script-comment", "hidden")


# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class Para:
    """Body paragraph; inline markup: ``[text](href)``, ``**bold**``, ``{{font}}``."""

    text: str


@dataclass(frozen=True)
class Sub:
    """Subheading inside the article body (gold)."""

    text: str


@dataclass(frozen=True)
class Table:
    """Table inside the article; each row is one gold line."""

    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Figure:
    """Image with a caption (caption is not gold)."""

    src: str
    caption: str


@dataclass(frozen=True)
class Hidden:
    """Element inside the body hidden by ``style="display:none"`` (not gold)."""

    cls: str
    text: str


@dataclass(frozen=True)
class Remark:
    """HTML comment inside the body (not gold)."""

    text: str


Block = Para | Sub | Table | Figure | Hidden | Remark


@dataclass(frozen=True)
class Site:
    """An invented news site: name, base url and its boilerplate."""

    key: str
    name: str
    base: str
    lang: str
    city: str
    nav: tuple[tuple[str, str], ...]
    footer: tuple[tuple[str, str], ...]
    copyright: str
    quotes: str = "none"  # "smart" | "straight" | "none"


@dataclass(frozen=True)
class Article:
    """One page: content plus how to render and encode it."""

    id: str
    site: str
    template: str  # "html5" | "divs" | "table" | "br"
    path: str
    section: str
    title: str
    byline: str
    date: str
    iso: str
    blocks: tuple[Block, ...]
    layout: str
    related: tuple[tuple[str, str], ...] = ()  # (headline, abstract)
    comments: tuple[tuple[str, str, str], ...] = ()  # (user, time, text)
    body_mode: str = "p"  # "p" | "div" | "br"
    encoding: str = "utf-8"
    declared: str = "utf-8"
    heavy_nav: bool = False
    script_block: bool = False
    topics: tuple[str, ...] = ()
    extra: dict[str, str] = field(default_factory=dict)


def sub_rows(*rows: str) -> tuple[tuple[str, ...], ...]:
    """Build table rows from ``|``-separated strings."""
    return tuple(tuple(c.strip() for c in r.split("|")) for r in rows)


# --------------------------------------------------------------------------- text helpers

INLINE_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)|\*\*(.+?)\*\*|\{\{(.+?)\}\}")
EN_ENTITIES = {"“": "&ldquo;", "”": "&rdquo;", "’": "&rsquo;", "—": "&mdash;", "é": "&eacute;", "á": "&aacute;"}


def collapse(s: str) -> str:
    """Collapse all whitespace runs to one space and trim."""
    return " ".join(s.split())


def plain(s: str) -> str:
    """Visible text of a string with inline markup (the gold form)."""
    return collapse(INLINE_RE.sub(lambda m: m.group(1) or m.group(3) or m.group(4), s))


def esc(s: str, entities: bool = False) -> str:
    """Escape text for HTML; optionally use named entities for typographic characters."""
    out = html.escape(s, quote=False)
    if entities:
        for ch, ent in EN_ENTITIES.items():
            out = out.replace(ch, ent)
    return out


def attr(s: str) -> str:
    """Escape text for an attribute value."""
    return html.escape(s, quote=True)


def rich(s: str, *, strong: str = "b", entities: bool = False) -> str:
    """Render inline markup to HTML."""
    out: list[str] = []
    pos = 0
    for m in INLINE_RE.finditer(s):
        out.append(esc(s[pos : m.start()], entities))
        if m.group(1):
            out.append(f'<a href="{attr(m.group(2))}">{esc(m.group(1), entities)}</a>')
        elif m.group(3):
            out.append(f"<{strong}>{esc(m.group(3), entities)}</{strong}>")
        else:
            out.append(f'<font color="#B22222">{esc(m.group(4), entities)}</font>')
        pos = m.end()
    out.append(esc(s[pos:], entities))
    return "".join(out)


def quote_style(s: str, style: str) -> str:
    """Apply a site's quotation style to English text written with ' and curly double quotes."""
    if style == "smart":
        return s.replace("'", "’")
    if style == "straight":
        return s.replace("“", '"').replace("”", '"').replace("’", "'")
    return s


def crc(s: str) -> int:
    """Stable small integer from a string."""
    return zlib.crc32(s.encode("utf-8"))


def slug(s: str) -> str:
    """URL slug of an English headline."""
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:60].rstrip("-")


def rotate(pool: tuple[str, ...], key: str, n: int) -> list[str]:
    """Deterministic selection of n items from a pool."""
    k = crc(key) % len(pool)
    return list((pool[k:] + pool[:k])[:n])


# --------------------------------------------------------------------------- gold and features


def gold_lines(a: Article) -> list[str]:
    """Gold body lines of an article."""
    lines: list[str] = []
    for b in a.blocks:
        if isinstance(b, (Para, Sub)):
            lines.append(plain(b.text))
        elif isinstance(b, Table):
            lines.extend(collapse(" ".join(plain(c) for c in row)) for row in b.rows)
    return [ln for ln in lines if ln]


def noise_texts(a: Article) -> list[str]:
    """Sentence-like texts on the page that must not be in the gold."""
    out = [b.caption for b in a.blocks if isinstance(b, Figure)]
    out += [b.text for b in a.blocks if isinstance(b, (Hidden, Remark))]
    out += [abstract for _, abstract in a.related]
    out += [text for _, _, text in a.comments]
    return out


def features(a: Article) -> list[str]:
    """Every layout tag this page exercises."""
    paras = [b for b in a.blocks if isinstance(b, Para)]
    f: list[str] = []
    if a.related:
        f.append("related-abstracts")
    if a.heavy_nav:
        f.append("heavy-nav")
    if a.comments:
        f.append("comments")
    if len(paras) == 1 and all(isinstance(b, Para) for b in a.blocks):
        f.append("flash")
    if a.body_mode == "br" and any(INLINE_RE.search(p.text) for p in paras):
        f.append("inline-broken")
    if any(isinstance(b, Figure) for b in a.blocks):
        f.append("captions")
    if any(isinstance(b, Table) for b in a.blocks):
        f.append("table")
    if len(paras) >= 15:
        f.append("long")
    if a.script_block and any(isinstance(b, Remark) for b in a.blocks):
        f.append("script-comment")
    if any(isinstance(b, Hidden) for b in a.blocks):
        f.append("hidden")
    if a.declared != a.encoding and not (a.encoding == "gbk" and a.declared == "gb2312"):
        f.append("declared-encoding-wrong")
    return f


# --------------------------------------------------------------------------- boilerplate pools

UI = {
    "en": {
        "home": "Home",
        "subscribe": "Subscribe",
        "signin": "Sign in",
        "search": "Search",
        "share": "Share this article",
        "share_items": ("Facebook", "X", "LinkedIn", "Email", "Print"),
        "related": "Related stories",
        "comments": "Comments",
        "reply": "Reply",
        "report": "Report",
        "like": "Like",
        "add_comment": "Join the conversation. Comments are reviewed before they appear.",
        "most_read": "Most read",
        "latest": "Latest news",
        "ad": "Advertisement",
        "topics": "Topics",
        "newsletter_h": "The Morning Briefing",
        "newsletter": "Get the day's top local stories in your inbox every weekday at 6 a.m.",
        "signup": "Sign up",
        "cookie": "We use cookies to improve your experience on our site. By continuing to browse, you agree to our use of cookies.",
        "prev": "Previous story",
        "next": "Next story",
        "top": "Back to top",
        "quick": "Quick links",
        "more_sections": "More sections",
    },
    "zh": {
        "home": "首页",
        "subscribe": "订阅",
        "signin": "登录",
        "search": "搜索",
        "share": "分享到：",
        "share_items": ("微信", "微博", "QQ空间", "复制链接"),
        "related": "相关新闻",
        "comments": "网友评论",
        "reply": "回复",
        "report": "举报",
        "like": "赞",
        "add_comment": "文明上网，理性发言。评论经审核后显示。",
        "most_read": "热点排行",
        "latest": "最新资讯",
        "ad": "广告",
        "topics": "关键词：",
        "newsletter_h": "关注我们",
        "newsletter": "扫描二维码关注官方微信公众号，第一时间获取本地新闻资讯。",
        "signup": "关注",
        "cookie": "本网站使用Cookie以改善浏览体验，继续浏览即表示您同意我们使用Cookie。",
        "prev": "上一篇：",
        "next": "下一篇：",
        "top": "返回顶部",
        "quick": "便民服务",
        "more_sections": "频道导航",
    },
}

POOL_HEADLINES = {
    "en": (
        "Police seek witnesses after overnight break-in at pharmacy",
        "Five things to do in the valley this weekend",
        "High school robotics team heads to national finals",
        "Water main repairs to close Oak Avenue for two weeks",
        "Letters: Readers weigh in on downtown parking",
        "Farmers market moves to new location for summer",
        "Former mayor remembered for her love of parks",
        "Gas prices dip ahead of holiday weekend",
        "Recipe: A simple spring pea soup",
        "Photos: Hundreds turn out for charity fun run",
        "Hospital names new chief of emergency medicine",
        "Ferry timetable changes take effect Monday",
    ),
    "zh": (
        "我市启动夏季城市道路集中整治",
        "市中心医院开通夜间门诊",
        "周末去哪儿？这份亲子游攻略请收好",
        "多条公交线路临时调整",
        "市区新增3处便民停车场",
        "高考倒计时：考生需注意这些事项",
        "江边步道夜景灯光提升工程完工",
        "全市中小学暑假时间确定",
        "社区食堂让老人吃上“热乎饭”",
        "图集：油菜花开满山坡",
        "市民热线上半年受理诉求超20万件",
        "本周末气温回升 最高可达30℃",
    ),
}

MORE_HEADLINES = {
    "en": (
        "County fair announces lineup for opening night",
        "Road crews begin summer paving on Route 12",
        "Animal shelter waives adoption fees this month",
        "Two restaurants open on revitalized Depot Street",
        "Youth soccer league seeks volunteer coaches",
        "Power outage affects 3,000 homes after storm",
        "Senior center adds free tax help sessions",
        "Letters: Keep the public pool open longer",
        "Bike lane pilot extended through October",
        "Community college sets enrollment record",
    ),
    "zh": (
        "全市启动城乡环境卫生整治行动",
        "老城区雨污分流改造完成过半",
        "首届美食文化节下月开幕",
        "市民公园新增健身步道5公里",
        "多家医院推出周末专家门诊",
        "今年首批人才公寓开始配租",
        "城区新增共享单车停放点200处",
        "农村公路提档升级工程全面铺开",
        "中小学生暑期安全提示发布",
        "市图书馆延长周末开放时间",
    ),
}

TRENDING = {
    "en": ("Election 2024", "Road work", "High school sports", "Storm updates", "Restaurant guide", "Housing"),
    "zh": ("两会", "高考", "防汛", "城市更新", "乡村振兴", "文旅消费", "民生实事"),
}

HEAVY_SUBNAV = {
    "en": (
        "Crime", "Courts", "City Hall", "Schools", "Health", "Transportation", "Environment",
        "Real Estate", "Restaurants", "Events", "Traffic", "Lottery", "Puzzles", "Horoscopes",
        "Comics", "Photos", "Video", "Podcasts", "Letters to the Editor", "Columnists",
        "Weddings", "Death Notices", "Jobs", "Cars", "Homes", "Place an Ad",
    ),
    "zh": (
        "时政要闻", "区县新闻", "民生热线", "城建交通", "教育", "卫生健康", "食品安全", "房产",
        "汽车", "家居", "美食", "旅游", "读书", "文化", "体育", "招聘", "便民服务", "天气预报",
        "公交查询", "违章查询", "政务公开", "网上信访", "辟谣平台", "图片库", "视频", "直播",
        "专题", "数字报", "网友爆料", "联系我们",
    ),
}

HEAVY_FOOTER = {
    "en": (
        ("Services", ("Subscribe", "Manage account", "E-Edition", "Newsletters", "Mobile apps", "Archives")),
        ("Advertise", ("Place a classified", "Media kit", "Legal notices", "Sponsored content", "Contact sales")),
        ("Company", ("About us", "Contact the newsroom", "Careers", "Corrections policy", "Ethics policy", "Accessibility")),
        ("Legal", ("Privacy policy", "Terms of service", "Cookie settings", "Do not sell my information")),
    ),
    "zh": (
        ("新闻", ("本地新闻", "国内新闻", "国际新闻", "评论", "图片", "视频")),
        ("服务", ("数字报刊", "读者热线", "发行订阅", "广告刊例", "招聘信息")),
        ("关于", ("关于我们", "联系我们", "版权声明", "隐私政策", "网站地图")),
    ),
}

QUICK = {
    "en": ("Pay your water bill", "Report a pothole", "School closings", "Trash and recycling schedule",
           "Library hours", "Parking permits", "Community calendar", "Submit a news tip"),
    "zh": ("公交查询", "违章查询", "公积金查询", "社保查询", "天气预报", "水电缴费", "医院挂号", "火车时刻"),
}

FRIEND_LINKS = ("人民政府网", "发布", "气象局", "交通运输局", "文化旅游网", "图书馆", "人才网",
                "博物馆", "体育中心", "第一人民医院", "12345市民热线", "公安局")


SITES: dict[str, Site] = {}


def add_site(key: str, name: str, base: str, lang: str, city: str, nav: str, footer: str, copyright: str,
             quotes: str = "none") -> None:
    """Register a site; nav/footer are ``label=path`` items separated by ``;``."""

    def pairs(spec: str) -> tuple[tuple[str, str], ...]:
        return tuple(tuple(x.split("=", 1)) for x in spec.split(";"))  # type: ignore[misc]

    SITES[key] = Site(key, name, base, lang, city, pairs(nav), pairs(footer), copyright, quotes)


add_site(
    "riverton", "The Riverton Ledger", "https://www.riverton-ledger.example.com", "en", "Riverton",
    "Home=/;Local=/local/;Politics=/politics/;Business=/business/;Sports=/sports/;Weather=/weather/;"
    "Opinion=/opinion/;Arts & Life=/arts/;Obituaries=/obituaries/;Classifieds=/classifieds/;"
    "E-Edition=/e-edition/;Subscribe=/subscribe/",
    "About us=/about/;Contact=/contact/;Advertise=/advertise/;Careers=/careers/;"
    "Privacy policy=/privacy/;Terms of use=/terms/;Corrections=/corrections/",
    "© 2024 Riverton Ledger Media Co. All rights reserved.", "smart",
)
add_site(
    "harbor", "Harbor City Post", "https://harborcitypost.example.org", "en", "Harbor City",
    "News=/news/;Harbor & Port=/port/;Business=/business/;Science=/science/;Sport=/sport/;"
    "Culture=/culture/;Opinion=/opinion/;Video=/video/;Podcasts=/podcasts/;Newsletters=/newsletters/",
    "About the Post=/about/;Contact us=/contact/;Send a tip=/tips/;Advertise=/advertise/;"
    "Privacy=/privacy/;Terms=/terms/;Site map=/sitemap/",
    "© 2024 Harbor City Post. Published by Quayside Media Ltd.", "smart",
)
add_site(
    "coastal", "Coastal Times", "https://www.coastaltimes.example.com", "en", "Harbor City",
    "Latest=/latest/;Region=/region/;Ports & Shipping=/shipping/;Business=/business/;Politics=/politics/;"
    "Sport=/sport/;Lifestyle=/lifestyle/;Travel=/travel/;Jobs=/jobs/",
    "About=/about/;Contact=/contact/;Editorial standards=/standards/;Advertise=/advertise/;"
    "Privacy=/privacy/;Terms and conditions=/terms/",
    "© 2024 Coastal Times Publishing. All rights reserved.", "smart",
)
add_site(
    "northfield", "Northfield Gazette", "http://gazette.northfield.example.com", "en", "Northfield",
    "Front Page=/index.html;Local News=/local/index.html;Schools=/schools/index.html;"
    "Sports=/sports/index.html;Business=/business/index.html;Opinion=/opinion/index.html;"
    "Community Calendar=/calendar/index.html;Obituaries=/obits/index.html;"
    "Classifieds=/classifieds/index.html;Contact Us=/contact.html",
    "Home=/index.html;Subscribe=/subscribe.html;Advertising=/ads.html;Contact Us=/contact.html;"
    "Privacy Statement=/privacy.html",
    "Copyright &copy; 1998-2024 Northfield Gazette Publishing Co. All rights reserved.", "smart",
)
add_site(
    "valley", "Valley Wire", "https://valleywire.example.org", "en", "Cedar Valley",
    "Latest=/latest;Valley=/valley;Schools=/schools;Business=/business;Weather=/weather;"
    "Sports=/sports;Food=/food;Things To Do=/things-to-do;Jobs=/jobs",
    "About Valley Wire=/about;Our team=/team;Contact=/contact;Donate=/donate;Advertise=/advertise;"
    "Privacy=/privacy",
    "Copyright &copy; 2024 Valley Wire, a nonprofit newsroom.", "straight",
)
add_site(
    "lakeside", "Lakeside Courier", "http://www.lakesidecourier.example.com", "en", "Lakeside",
    "Home=/;News=/news/;Sports=/sports/;Arts=/arts/;Schools=/schools/;Letters=/letters/;"
    "Photos=/photos/;Archive=/archive/",
    "Contact=/contact/;Subscribe=/subscribe/;Advertise=/advertise/;Submit an event=/events/submit/",
    "Copyright &copy; 2024 Lakeside Courier. Reproduction without permission prohibited.", "straight",
)
add_site(
    "jiangcheng", "江城日报网", "https://www.jiangcheng-daily.example.cn", "zh", "江城",
    "首页=/;本地=/bendi/;时政=/shizheng/;经济=/jingji/;社会=/shehui/;体育=/tiyu/;文化=/wenhua/;"
    "教育=/jiaoyu/;图片=/tupian/;视频=/shipin/;专题=/zhuanti/",
    "关于我们=/about/;联系我们=/contact/;广告服务=/ad/;版权声明=/copyright/;网站地图=/sitemap/",
    "版权所有 © 2024 江城日报社 未经书面授权禁止转载",
)
add_site(
    "donghu", "东湖新闻网", "https://news.donghu.example.cn", "zh", "东湖",
    "首页=/;东湖要闻=/yaowen/;民生=/minsheng/;财经=/caijing/;科教=/kejiao/;文体=/wenti/;"
    "天气=/tianqi/;评论=/pinglun/;数字报=/epaper/",
    "关于本网=/about.html;联系方式=/contact.html;广告服务=/ad.html;法律声明=/law.html;网站地图=/map.html",
    "Copyright &copy; 2024 东湖新闻网 版权所有",
)
add_site(
    "nanling", "南岭在线", "http://www.nanling.example.cn", "zh", "南岭",
    "首页=/index.html;新闻中心=/news/;南岭要闻=/news/nl/;经济=/jingji/;三农=/sannong/;社会=/shehui/;"
    "旅游=/lvyou/;房产=/house/;汽车=/auto/;论坛=/bbs/;数字报刊=/epaper/",
    "关于我们=/about/;联系方式=/contact/;广告服务=/ad/;法律声明=/law/;网站地图=/map/",
    "Copyright &copy; 2003-2024 南岭在线 版权所有",
)
add_site(
    "qingchuan", "青川晚报", "http://www.qcwb.example.cn", "zh", "青川",
    "首页=/;青川新闻=/news/;社区=/shequ/;民生=/minsheng/;文化=/wenhua/;旅游=/lvyou/;健康=/jiankang/;"
    "读者来信=/duzhe/;电子版=/epaper/",
    "本报简介=/about.htm;联系我们=/contact.htm;广告刊例=/ad.htm;版权声明=/copyright.htm",
    "青川晚报社 版权所有 Copyright &copy; 2024",
)


def related_href(a: Article, site: Site, headline: str) -> str:
    """Deterministic link for a related headline."""
    if site.lang == "en":
        return f"{site.base}/{a.section}/{slug(headline)}/"
    return f"{site.base}/{a.section}/{a.iso[:7].replace('-', '')}/t{crc(headline) % 900000 + 100000}.html"


def pool_href(site: Site, headline: str, i: int) -> str:
    """Deterministic link for a pool headline."""
    if site.lang == "en":
        return f"/news/{slug(headline)}"
    return f"/html/2024/{crc(headline) % 12 + 1:02d}{i + 10}/{crc(headline) % 90000 + 10000}.htm"


def trending_bar(lang: str, template: str) -> str:
    """A one-line "trending topics" link bar for heavy-navigation pages."""
    label = "Trending:" if lang == "en" else "热门话题："
    links = " ".join(f'<a href="/topic/{crc(t) % 10000}">{esc(t)}</a>' for t in TRENDING[lang])
    if template == "table":
        return f'<font size="2"><b>{label}</b> {links}</font>'
    return f'<div class="trending"><span>{label}</span> {links}</div>'


def charset_meta(a: Article, html5: bool) -> str:
    """The encoding declaration written into <head>."""
    if a.declared == "gb2312":
        return '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'
    if a.declared == "gbk":
        return '<meta charset="gbk">'
    if html5 or a.template == "br":
        return '<meta charset="utf-8">'
    return '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">'


SCRIPT_BLOCKS = {
    "en": (
        "<style>\n.story-body p{font-size:18px;line-height:1.6}\n.paywall-note:before{content:'Subscriber exclusive'}\n</style>",
        "<script>\nwindow.dataLayer = window.dataLayer || [];\n"
        "var paywallMessage = \"You have reached your limit of free articles this month. Subscribe to keep reading.\";\n"
        "function showPaywall(count) { if (count === 5) { console.log(paywallMessage); } }\n</script>",
    ),
    "zh": (
        "<style type=\"text/css\">\n.art-content p{text-indent:2em;line-height:1.8}\n.hot li{overflow:hidden}\n</style>",
        "<script type=\"text/javascript\">\nvar shareTip = \"您已成功复制本文链接，快去分享给朋友吧！\";\n"
        "var adSlot = \"ad_300x250_right\";\nfunction copyLink() { alert(shareTip); }\n</script>",
    ),
}


# --------------------------------------------------------------------------- template: html5


def body_html5(a: Article, lang: str) -> list[str]:
    """Story body for the html5 template."""
    out: list[str] = []
    for b in a.blocks:
        if isinstance(b, Para):
            out.append(f"<p>{rich(b.text, strong='strong')}</p>")
        elif isinstance(b, Sub):
            out.append(f"<h2>{esc(b.text)}</h2>")
        elif isinstance(b, Figure):
            out.append('<figure class="inline-image">')
            out.append(f'<img src="{attr(b.src)}" alt="" loading="lazy" width="800" height="533">')
            out.append(f"<figcaption>{esc(b.caption)}</figcaption>")
            out.append("</figure>")
        elif isinstance(b, Table):
            out.append('<div class="table-scroll"><table class="data-table">')
            head, *rows = b.rows
            out.append("<thead><tr>" + "".join(f"<th>{esc(c)}</th>" for c in head) + "</tr></thead>")
            out.append("<tbody>")
            for r in rows:
                out.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>")
            out.append("</tbody></table></div>")
        elif isinstance(b, Hidden):
            out.append(f'<div class="{b.cls}" style="display:none"><p>{esc(b.text)}</p></div>')
        elif isinstance(b, Remark):
            out.append(f"<!-- {b.text} -->")
    return out


def render_html5(a: Article, s: Site) -> str:
    """Modern HTML5 page with header/nav, article, aside and footer."""
    ui = UI[s.lang]
    o: list[str] = ["<!DOCTYPE html>", f'<html lang="{"en" if s.lang == "en" else "zh-CN"}">', "<head>"]
    o.append(charset_meta(a, True))
    o.append('<meta name="viewport" content="width=device-width, initial-scale=1">')
    o.append(f"<title>{esc(a.title)} | {esc(s.name)}</title>")
    o.append(f'<meta property="og:title" content="{attr(a.title)}">')
    o.append(f'<meta property="og:site_name" content="{attr(s.name)}">')
    o.append(f'<link rel="canonical" href="{attr(s.base + a.path)}">')
    o.append('<link rel="stylesheet" href="/static/css/site.min.css">')
    ld = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": a.title,
          "datePublished": a.iso, "publisher": {"@type": "Organization", "name": s.name}}
    o.append('<script type="application/ld+json">' + json.dumps(ld, ensure_ascii=False) + "</script>")
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][0])
    o.append("</head>")
    o.append('<body class="article-page">')
    o.append(f'<a class="skip-link" href="#main">{"Skip to content" if s.lang == "en" else "跳到正文"}</a>')
    o.append('<header class="site-header">')
    o.append(f'<div class="top-bar"><a href="/subscribe/">{ui["subscribe"]}</a> <a href="/account/login">{ui["signin"]}</a>'
             f' <form class="search" action="/search"><input type="search" name="q" placeholder="{ui["search"]}"></form></div>')
    o.append(f'<a class="logo" href="/">{esc(s.name)}</a>')
    o.append('<nav class="main-nav" aria-label="Sections"><ul>')
    o += [f'<li><a href="{attr(h)}">{esc(t)}</a></li>' for t, h in s.nav]
    o.append("</ul></nav>")
    if a.heavy_nav:
        o.append('<nav class="sub-nav"><ul>')
        o += [f'<li><a href="/{slug(t) or crc(t)}/">{esc(t)}</a></li>' for t in HEAVY_SUBNAV[s.lang]]
        o.append("</ul></nav>")
        o.append(trending_bar(s.lang, "html5"))
    o.append("</header>")
    o.append('<main id="main">')
    o.append(f'<nav class="breadcrumb"><a href="/">{ui["home"]}</a> › <a href="/{a.section}/">{esc(a.extra.get("section_name", a.section))}</a></nav>')
    o.append('<article class="story">')
    o.append('<header class="story-header">')
    o.append(f"<h1>{esc(a.title)}</h1>")
    o.append(f'<p class="byline">{esc(a.byline)}</p>')
    o.append(f'<p class="dateline"><time datetime="{a.iso}">{esc(a.date)}</time></p>')
    o.append("</header>")
    o.append(f'<div class="share-tools"><span>{ui["share"]}</span> '
             + " ".join(f'<button type="button" class="share-btn">{t}</button>' for t in ui["share_items"]) + "</div>")
    o.append('<div class="story-body">')
    o += body_html5(a, s.lang)
    o.append("</div>")
    if a.topics:
        o.append(f'<div class="topics"><span>{ui["topics"]}</span> '
                 + " ".join(f'<a href="/topic/{crc(t) % 10000}">{esc(t)}</a>' for t in a.topics) + "</div>")
    o.append("</article>")
    o.append(f'<div class="ad-slot" data-slot="mid-article"><span class="ad-label">{ui["ad"]}</span></div>')
    if a.related:
        o.append('<aside class="related" aria-labelledby="related-heading">')
        o.append(f'<h2 id="related-heading">{ui["related"]}</h2><ul class="related-list">')
        for h, ab in a.related:
            o.append(f'<li><a href="{attr(related_href(a, s, h))}"><h3>{esc(h)}</h3></a><p class="summary">{esc(ab)}</p></li>')
        o.append("</ul></aside>")
    if a.comments:
        o.append('<section class="comments" id="comments">')
        o.append(f"<h2>{ui['comments']} ({len(a.comments)})</h2>")
        o.append(f'<p class="comment-policy">{ui["add_comment"]}</p>')
        o.append('<ol class="comment-list">')
        for user, when, text in a.comments:
            o.append(f'<li class="comment"><div class="comment-meta"><span class="comment-author">{esc(user)}</span> '
                     f'<time>{esc(when)}</time></div><p class="comment-text">{esc(text)}</p>'
                     f'<div class="comment-actions"><button>{ui["reply"]}</button> <button>{ui["like"]}</button> '
                     f'<button>{ui["report"]}</button></div></li>')
        o.append("</ol></section>")
    o.append('<aside class="rail">')
    o.append(f'<section class="most-read"><h2>{ui["most_read"]}</h2><ol>')
    o += [f'<li><a href="{attr(pool_href(s, h, i))}">{esc(h)}</a></li>'
          for i, h in enumerate(rotate(POOL_HEADLINES[s.lang], a.id, 6))]
    o.append("</ol></section>")
    if a.heavy_nav:
        o.append(f'<section class="more-news"><h2>{ui["latest"]}</h2><ul>'
                 + "".join(f'<li><a href="{attr(pool_href(s, h, i))}">{esc(h)}</a></li>' for i, h in enumerate(MORE_HEADLINES[s.lang]))
                 + "</ul></section>")
    o.append(f'<section class="newsletter"><h2>{ui["newsletter_h"]}</h2><p>{ui["newsletter"]}</p>'
             f'<form><input type="email" placeholder="you@example.com"><button>{ui["signup"]}</button></form></section>')
    o.append("</aside>")
    o.append("</main>")
    o.append('<footer class="site-footer">')
    if a.heavy_nav:
        for head, items in HEAVY_FOOTER[s.lang]:
            o.append(f'<div class="footer-col"><h3>{esc(head)}</h3><ul>'
                     + "".join(f'<li><a href="/{crc(t) % 1000}/">{esc(t)}</a></li>' for t in items) + "</ul></div>")
    o.append('<nav class="footer-nav"><ul>' + "".join(f'<li><a href="{attr(h)}">{esc(t)}</a></li>' for t, h in s.footer) + "</ul></nav>")
    o.append(f'<p class="copyright">{esc(s.copyright)}</p>')
    o.append("</footer>")
    o.append(f'<div class="cookie-banner" role="dialog"><p>{ui["cookie"]}</p><button>OK</button></div>')
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][1])
    o.append('<script src="/static/js/site.min.js" defer></script>')
    o.append("</body>")
    o.append("</html>")
    return "\n".join(o) + "\n"


# --------------------------------------------------------------------------- template: div soup


def body_divs(a: Article) -> list[str]:
    """Story body for the div-soup template."""
    out: list[str] = []
    for b in a.blocks:
        if isinstance(b, Para):
            if a.body_mode == "div":
                out.append(f'<div class="para">{rich(b.text)}</div>')
            else:
                out.append(f"<p>{rich(b.text)}</p>")
        elif isinstance(b, Sub):
            out.append(f'<div class="sub-title"><strong>{esc(b.text)}</strong></div>')
        elif isinstance(b, Figure):
            out.append(f'<div class="pic-box"><div class="pic"><img src="{attr(b.src)}" border="0"></div>'
                       f'<p class="caption">{esc(b.caption)}</p></div>')
        elif isinstance(b, Table):
            out.append('<div class="tb-wrap"><table class="tb" cellspacing="0">')
            for i, r in enumerate(b.rows):
                cell = "th" if i == 0 else "td"
                out.append("<tr>" + "".join(f"<{cell}>{esc(c)}</{cell}>" for c in r) + "</tr>")
            out.append("</table></div>")
        elif isinstance(b, Hidden):
            out.append(f'<div class="{b.cls}" style="display:none">{esc(b.text)}</div>')
        elif isinstance(b, Remark):
            out.append(f"<!-- {b.text} -->")
    return out


def render_divs(a: Article, s: Site) -> str:
    """Nested-div layout with class names, XHTML doctype, side column."""
    ui = UI[s.lang]
    en = s.lang == "en"
    o: list[str] = [
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
        '<html xmlns="http://www.w3.org/1999/xhtml">',
        "<head>",
        charset_meta(a, False),
        f"<title>{esc(a.title)}{' - ' if en else '_'}{esc(s.name)}</title>",
        f'<meta name="keywords" content="{attr(",".join(a.topics))}" />',
        '<link href="/css/common.css" rel="stylesheet" type="text/css" />',
    ]
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][0])
    o.append('<script type="text/javascript" src="/js/jquery.min.js"></script>')
    o.append("</head>")
    o.append("<body>")
    o.append('<div id="page" class="pg-wrap">')
    weather = "Cedar Valley 64°F Partly cloudy" if en else f"{s.city} 多云 18-26℃"
    o.append(f'<div class="util-bar"><div class="util-left"><span class="wx">{weather}</span></div>'
             f'<div class="util-right"><a href="/login">{ui["signin"]}</a> | <a href="/subscribe">{ui["subscribe"]}</a></div></div>')
    o.append(f'<div class="masthead"><div class="logo"><a href="/">{esc(s.name)}</a></div>'
             f'<div class="search-box"><form action="/search"><input type="text" name="q" /><input type="submit" value="{ui["search"]}" /></form></div></div>')
    o.append('<div class="nav-bar"><div class="nav-inner">')
    o += [f'<div class="nav-item"><a href="{attr(h)}">{esc(t)}</a></div>' for t, h in s.nav]
    o.append("</div></div>")
    if a.heavy_nav:
        o.append('<div class="sub-nav">')
        o.append(" | ".join(f'<a href="/c/{crc(t) % 1000}/">{esc(t)}</a>' for t in HEAVY_SUBNAV[s.lang]))
        o.append("</div>")
        o.append(trending_bar(s.lang, "divs"))
    o.append('<div class="content-wrap clearfix">')
    o.append('<div class="col-main">')
    sep = " &gt; "
    o.append(f'<div class="crumbs"><a href="/">{ui["home"]}</a>{sep}<a href="/{a.section}">{esc(a.extra.get("section_name", a.section))}</a>{sep}{"Article" if en else "正文"}</div>')
    o.append(f'<div class="story-hd"><div class="headline"><h1>{esc(a.title)}</h1></div>')
    o.append(f'<div class="story-meta"><span class="author">{esc(a.byline)}</span> <span class="pubdate">{esc(a.date)}</span></div></div>')
    o.append(f'<div class="share-bar">{ui["share"]} ' + " ".join(f'<a href="javascript:void(0)" class="sh">{t}</a>' for t in ui["share_items"]) + "</div>")
    o.append('<div class="story-bd" id="storyBody">')
    o += body_divs(a)
    o.append("</div>")
    if not en:
        o.append(f'<div class="editor">（责任编辑：{esc(a.extra.get("editor", "王晓"))}）</div>')
    if a.topics:
        o.append(f'<div class="story-tags">{ui["topics"]} ' + " ".join(f'<a href="/tag/{crc(t) % 10000}">{esc(t)}</a>' for t in a.topics) + "</div>")
    pool = rotate(POOL_HEADLINES[s.lang], a.id + "pn", 2)
    o.append(f'<div class="prev-next"><div class="prev">{ui["prev"]} <a href="{attr(pool_href(s, pool[0], 1))}">{esc(pool[0])}</a></div>'
             f'<div class="next">{ui["next"]} <a href="{attr(pool_href(s, pool[1], 2))}">{esc(pool[1])}</a></div></div>')
    if a.related:
        o.append(f'<div class="related-news"><div class="mod-hd"><h3>{ui["related"]}</h3></div><ul class="rel-list">')
        for h, ab in a.related:
            o.append(f'<li><div class="rel-item"><a class="rel-title" href="{attr(related_href(a, s, h))}">{esc(h)}</a>'
                     f'<div class="rel-desc">{esc(ab)}</div></div></li>')
        o.append("</ul></div>")
    if a.comments:
        o.append(f'<div class="comment-box" id="comments"><div class="mod-hd"><h3>{ui["comments"]}</h3>'
                 f'<span class="count">{len(a.comments)}</span></div><div class="cmt-tip">{ui["add_comment"]}</div>')
        for user, when, text in a.comments:
            o.append(f'<div class="cmt-item"><div class="cmt-user"><span class="uname">{esc(user)}</span>'
                     f'<span class="ctime">{esc(when)}</span></div><div class="cmt-text">{esc(text)}</div>'
                     f'<div class="cmt-op"><a href="javascript:;">{ui["like"]}</a> <a href="javascript:;">{ui["reply"]}</a></div></div>')
        o.append("</div>")
    o.append("</div>")  # col-main
    o.append('<div class="col-side">')
    o.append(f'<div class="mod hot"><div class="mod-hd"><h3>{ui["most_read"]}</h3></div><ul>')
    o += [f'<li><span class="num">{i + 1}</span><a href="{attr(pool_href(s, h, i))}">{esc(h)}</a></li>'
          for i, h in enumerate(rotate(POOL_HEADLINES[s.lang], a.id, 8))]
    o.append("</ul></div>")
    o.append(f'<div class="mod ad"><div class="ad-label">{ui["ad"]}</div><a href="/ad/click?id=300250"><img src="/ad/banner-300x250.jpg" /></a></div>')
    if a.heavy_nav:
        o.append(f'<div class="mod quick"><div class="mod-hd"><h3>{ui["quick"]}</h3></div><ul>'
                 + "".join(f'<li><a href="/s/{crc(t) % 1000}">{esc(t)}</a></li>' for t in QUICK[s.lang]) + "</ul></div>")
        o.append(f'<div class="mod more"><div class="mod-hd"><h3>{ui["latest"]}</h3></div><ul>'
                 + "".join(f'<li><a href="{attr(pool_href(s, h, i))}">{esc(h)}</a></li>' for i, h in enumerate(MORE_HEADLINES[s.lang]))
                 + "</ul></div>")
    o.append(f'<div class="mod newsletter"><div class="mod-hd"><h3>{ui["newsletter_h"]}</h3></div><p>{ui["newsletter"]}</p></div>')
    o.append("</div>")  # col-side
    o.append("</div>")  # content-wrap
    o.append('<div class="footer">')
    if a.heavy_nav:
        for head, items in HEAVY_FOOTER[s.lang]:
            o.append(f'<div class="ft-col"><div class="ft-hd">{esc(head)}</div>'
                     + "".join(f'<a href="/{crc(t) % 1000}.html">{esc(t)}</a>' for t in items) + "</div>")
    o.append('<div class="ft-links">' + " | ".join(f'<a href="{attr(h)}">{esc(t)}</a>' for t, h in s.footer) + "</div>")
    o.append(f'<div class="ft-copy">{s.copyright}</div>')
    if not en:
        o.append('<div class="ft-icp">示例ICP备00000000号-1　违法和不良信息举报电话：0000-00000000</div>')
    o.append(f'<div class="go-top"><a href="#page">{ui["top"]}</a></div>')
    o.append("</div>")  # footer
    o.append("</div>")  # page
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][1])
    o.append("</body>")
    o.append("</html>")
    return "\n".join(o) + "\n"


# --------------------------------------------------------------------------- template: old tables


def body_table(a: Article, lang: str, entities: bool) -> list[str]:
    """Story body for the table template (``<p>`` or ``<br><br>`` paragraphs)."""
    out: list[str] = []
    indent = "&nbsp;&nbsp;&nbsp;&nbsp;" if lang == "zh" else ""
    for b in a.blocks:
        if isinstance(b, Para):
            if a.body_mode == "br":
                out.append(f"{indent}{rich(b.text, entities=entities)}<br><br>")
            else:
                out.append(f"<p>{indent}{rich(b.text, entities=entities)}</p>")
        elif isinstance(b, Sub):
            out.append(f"<p><b>{esc(b.text, entities)}</b></p>")
        elif isinstance(b, Figure):
            out.append('<table border="0" cellpadding="2" cellspacing="0" align="center" width="420">')
            out.append(f'<tr><td align="center"><img src="{attr(b.src)}" width="400" height="266" border="0"></td></tr>')
            out.append(f'<tr><td align="center" class="caption"><font size="2" color="#666666">{esc(b.caption, entities)}</font></td></tr>')
            out.append("</table>")
        elif isinstance(b, Table):
            out.append('<table border="1" cellpadding="3" cellspacing="0" width="90%" align="center" bordercolor="#999999">')
            for i, r in enumerate(b.rows):
                if i == 0:
                    out.append('<tr bgcolor="#E8E8E8">' + "".join(f"<td><b>{esc(c, entities)}</b></td>" for c in r) + "</tr>")
                else:
                    out.append("<tr>" + "".join(f"<td>{esc(c, entities)}</td>" for c in r) + "</tr>")
            out.append("</table>")
        elif isinstance(b, Hidden):
            out.append(f'<div class="{b.cls}" style="display:none">{esc(b.text, entities)}</div>')
        elif isinstance(b, Remark):
            out.append(f"<!-- {b.text} -->")
    return out


def render_table(a: Article, s: Site) -> str:
    """Old table-based layout with <td>, <font> and a left navigation column."""
    ui = UI[s.lang]
    en = s.lang == "en"
    ent = en  # English pages of this template use named entities for typographic characters
    o: list[str] = ["<html>", "<head>", charset_meta(a, False), f"<title>{esc(a.title, ent)} -- {esc(s.name)}</title>"]
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][0])
    o.append('<link rel="stylesheet" href="/style.css" type="text/css">')
    o.append("</head>")
    o.append('<body bgcolor="#FFFFFF" topmargin="0" leftmargin="0">')
    o.append('<table width="960" border="0" cellpadding="0" cellspacing="0" align="center">')
    o.append(f'<tr><td width="300"><a href="/"><img src="/images/logo.gif" alt="{attr(s.name)}" border="0"></a></td>'
             f'<td align="right"><font size="2"><a href="/subscribe.html">{ui["subscribe"]}</a> | '
             f'<form action="/cgi-bin/search.pl" method="get" style="display:inline"><input type="text" name="q" size="15">'
             f'<input type="submit" value="{ui["search"]}"></form></font></td></tr>')
    o.append("</table>")
    o.append('<table width="960" border="0" cellpadding="4" cellspacing="0" align="center" bgcolor="#003366">')
    o.append('<tr><td><font color="#FFFFFF" size="2"><b>'
             + " | ".join(f'<a href="{attr(h)}"><font color="#FFFFFF">{esc(t)}</font></a>' for t, h in s.nav)
             + "</b></font></td></tr>")
    o.append("</table>")
    if a.heavy_nav:
        o.append('<table width="960" border="0" cellpadding="3" cellspacing="0" align="center" bgcolor="#DDE6EE"><tr><td>'
                 + trending_bar(s.lang, "table") + "</td></tr></table>")
    o.append('<table width="960" border="0" cellpadding="6" cellspacing="0" align="center">')
    o.append("<tr>")
    # left column
    o.append('<td width="170" valign="top" bgcolor="#F2F2F2"><font size="2">')
    o.append(f'<b>{ui["more_sections"]}</b><br>')
    subnav = HEAVY_SUBNAV[s.lang] if a.heavy_nav else HEAVY_SUBNAV[s.lang][:8]
    o += [f'<a href="/sec/{crc(t) % 1000}.html">{esc(t)}</a><br>' for t in subnav]
    if a.heavy_nav:
        o.append(f'<br><b>{ui["quick"]}</b><br>')
        o += [f'<a href="/svc/{crc(t) % 1000}.html">{esc(t)}</a><br>' for t in QUICK[s.lang]]
    o.append("</font></td>")
    # main column
    o.append('<td width="600" valign="top">')
    o.append('<table width="100%" border="0" cellpadding="4" cellspacing="0">')
    o.append(f'<tr><td><font size="2"><a href="/">{ui["home"]}</a> &gt;&gt; <a href="/{a.section}/">{esc(a.extra.get("section_name", a.section))}</a></font></td></tr>')
    o.append(f'<tr><td align="center"><font size="5" face="{"Georgia" if en else "黑体"}"><b>{esc(a.title, ent)}</b></font></td></tr>')
    o.append(f'<tr><td align="center"><font size="2" color="#666666">{esc(a.byline, ent)}&nbsp;&nbsp;{esc(a.date, ent)}</font></td></tr>')
    o.append('<tr><td><hr size="1" color="#CCCCCC"></td></tr>')
    o.append(f'<tr><td class="content"><font size="3" face="{"Arial" if en else "宋体"}">')
    o += body_table(a, s.lang, ent)
    o.append("</font></td></tr>")
    if not en:
        o.append(f'<tr><td align="right"><font size="2" color="#999999">【责任编辑：{esc(a.extra.get("editor", "李明"))}】</font></td></tr>')
    o.append(f'<tr><td align="right"><font size="2"><a href="javascript:window.print()">{"Printer-friendly version" if en else "【打印本页】"}</a> '
             f'<a href="/cgi-bin/mail.pl">{"E-mail this story" if en else "【推荐给朋友】"}</a> '
             f'<a href="javascript:window.close()">{"Close window" if en else "【关闭窗口】"}</a></font></td></tr>')
    if a.related:
        o.append(f'<tr><td bgcolor="#EEEEEE"><font size="2"><b>{ui["related"]}</b></font></td></tr>')
        for h, ab in a.related:
            o.append(f'<tr><td><font size="2"><a href="{attr(related_href(a, s, h))}"><b>{esc(h, ent)}</b></a><br>{esc(ab, ent)}</font></td></tr>')
    if a.comments:
        title = "Reader comments" if en else "读者留言"
        o.append(f'<tr><td bgcolor="#EEEEEE"><font size="2"><b>{title} ({len(a.comments)})</b></font></td></tr>')
        for user, when, text in a.comments:
            o.append(f'<tr><td><font size="2" color="#336699"><b>{esc(user, ent)}</b></font> <font size="1" color="#999999">{esc(when, ent)}</font>'
                     f'<br><font size="2">{esc(text, ent)}</font></td></tr>')
        o.append(f'<tr><td><font size="2"><a href="/cgi-bin/comment.pl">{"Post a comment" if en else "我要留言"}</a></font></td></tr>')
    o.append("</table>")
    o.append("</td>")
    # right column
    o.append('<td width="190" valign="top"><font size="2">')
    o.append(f'<b>{ui["latest"]}</b><br>')
    o += [f'&middot; <a href="{attr(pool_href(s, h, i))}">{esc(h, ent)}</a><br>'
          for i, h in enumerate(rotate(POOL_HEADLINES[s.lang], a.id, 10 if a.heavy_nav else 6))]
    if a.heavy_nav:
        o.append(f'<br><b>{"More headlines" if en else "更多新闻"}</b><br>')
        o += [f'&middot; <a href="{attr(pool_href(s, h, i))}">{esc(h, ent)}</a><br>' for i, h in enumerate(MORE_HEADLINES[s.lang])]
    o.append(f'<br><font color="#999999">{ui["ad"]}</font><br><a href="/ads/click.asp?id=17"><img src="/ads/side_180x150.gif" border="0"></a>')
    o.append("</font></td>")
    o.append("</tr>")
    o.append("</table>")
    # footer
    o.append('<table width="960" border="0" cellpadding="6" cellspacing="0" align="center" bgcolor="#F2F2F2">')
    if a.heavy_nav:
        for head, items in HEAVY_FOOTER[s.lang]:
            o.append(f'<tr><td><font size="2"><b>{esc(head)}:</b> '
                     + " | ".join(f'<a href="/{crc(t) % 1000}.html">{esc(t)}</a>' for t in items) + "</font></td></tr>")
        if not en:
            o.append('<tr><td><font size="2"><b>友情链接：</b> '
                     + " | ".join(f'<a href="http://www{i}.{crc(s.city + t) % 1000}.example.cn/">{esc(s.city + t)}</a>'
                                  for i, t in enumerate(FRIEND_LINKS)) + "</font></td></tr>")
    o.append('<tr><td align="center"><font size="2">' + " | ".join(f'<a href="{attr(h)}">{esc(t)}</a>' for t, h in s.footer) + "</font></td></tr>")
    o.append(f'<tr><td align="center"><font size="1" color="#666666">{s.copyright}</font></td></tr>')
    if not en:
        o.append('<tr><td align="center"><font size="1" color="#666666">示例ICP备00000000号</font></td></tr>')
    o.append("</table>")
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][1])
    o.append("</body>")
    o.append("</html>")
    return "\n".join(o) + "\n"


# --------------------------------------------------------------------------- template: <br> text


def body_br(a: Article, lang: str) -> list[str]:
    """Story body as text directly inside a div, paragraphs split by <br><br>."""
    out: list[str] = []
    indent = "\u3000\u3000" if lang == "zh" else ""
    for b in a.blocks:
        if isinstance(b, Para):
            if lang == "zh":
                out.append(f"{indent}{rich(b.text)}<br>\n<br>")
            else:
                out.append(f"{rich(b.text)}<br><br>")
        elif isinstance(b, Sub):
            out.append(f"<b>{esc(b.text)}</b><br><br>")
        elif isinstance(b, Figure):
            out.append(f'<div align="center"><img src="{attr(b.src)}"><br><span class="pic-note">{esc(b.caption)}</span></div>')
        elif isinstance(b, Table):
            out.append('<table border="1" cellspacing="0" cellpadding="3">')
            out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in b.rows]
            out.append("</table><br>")
        elif isinstance(b, Hidden):
            out.append(f'<div class="{b.cls}" style="display:none">{esc(b.text)}</div>')
        elif isinstance(b, Remark):
            out.append(f"<!-- {b.text} -->")
    return out


def render_br(a: Article, s: Site) -> str:
    """Simple early-2000s layout; body text sits directly in a div, split by <br><br>."""
    ui = UI[s.lang]
    en = s.lang == "en"
    o: list[str] = ['<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">', "<html>", "<head>",
                    charset_meta(a, False), f"<title>{esc(a.title)} - {esc(s.name)}</title>",
                    '<link rel="stylesheet" type="text/css" href="/css/main.css">']
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][0])
    o.append("</head>")
    o.append("<body>")
    o.append(f'<div id="top"><a href="/">{ui["home"]}</a> | <a href="/login.php">{ui["signin"]}</a> | '
             f'<a href="/subscribe/">{ui["subscribe"]}</a> | <a href="/rss/">RSS</a></div>')
    o.append(f'<div id="header"><div class="logo"><a href="/"><img src="/img/logo.png" alt="{attr(s.name)}"></a></div>')
    o.append('<div id="menu"><ul>' + "".join(f'<li><a href="{attr(h)}">{esc(t)}</a></li>' for t, h in s.nav) + "</ul></div></div>")
    o.append('<div id="container">')
    o.append('<div id="content">')
    o.append(f'<div class="position">{"You are here" if en else "当前位置"}: <a href="/">{ui["home"]}</a> &raquo; '
             f'<a href="/{a.section}/">{esc(a.extra.get("section_name", a.section))}</a></div>')
    o.append(f'<div class="title">{esc(a.title)}</div>')
    o.append(f'<div class="info">{esc(a.date)}&nbsp;&nbsp;{esc(a.byline)}&nbsp;&nbsp;'
             f'{"Font size" if en else "字号"}: <a href="javascript:setSize(16)">{"L" if en else "大"}</a> '
             f'<a href="javascript:setSize(14)">{"M" if en else "中"}</a> <a href="javascript:setSize(12)">{"S" if en else "小"}</a></div>')
    o.append('<div id="text">')
    o += body_br(a, s.lang)
    o.append("</div>")
    if not en:
        o.append(f'<div class="editor">【责任编辑：{esc(a.extra.get("editor", "张蓉"))}】</div>')
    pn = rotate(POOL_HEADLINES[s.lang], a.id + "pn", 2)
    o.append(f'<div class="pn">{ui["prev"]} <a href="{attr(pool_href(s, pn[0], 1))}">{esc(pn[0])}</a><br>'
             f'{ui["next"]} <a href="{attr(pool_href(s, pn[1], 2))}">{esc(pn[1])}</a></div>')
    o.append(f'<div class="share">{ui["share"]} ' + " ".join(f'<a href="#">{t}</a>' for t in ui["share_items"]) + "</div>")
    if a.related:
        o.append(f'<div class="xgxw"><h4>{ui["related"]}</h4>')
        for h, ab in a.related:
            o.append(f'<dl><dt><a href="{attr(related_href(a, s, h))}">{esc(h)}</a></dt><dd>{esc(ab)}</dd></dl>')
        o.append("</div>")
    if a.comments:
        o.append(f'<div class="pl"><h4>{ui["comments"]}（{len(a.comments)}）</h4>' if not en
                 else f'<div class="pl"><h4>{ui["comments"]} ({len(a.comments)})</h4>')
        for i, (user, when, text) in enumerate(a.comments):
            floor = f"#{i + 1}" if en else f"{i + 1}楼"
            o.append(f'<div class="pl-item"><span class="floor">{floor}</span> <span class="pl-name">{esc(user)}</span> '
                     f'<span class="pl-time">{esc(when)}</span><br>{esc(text)}</div>')
        o.append(f'<div class="pl-form"><textarea name="content" rows="4" cols="60"></textarea><br>'
                 f'<input type="submit" value="{"Post" if en else "发表评论"}"></div></div>')
    o.append("</div>")  # content
    o.append('<div id="sidebar">')
    o.append(f'<h4>{ui["most_read"]}</h4><ul>' + "".join(
        f'<li><a href="{attr(pool_href(s, h, i))}">{esc(h)}</a></li>' for i, h in enumerate(rotate(POOL_HEADLINES[s.lang], a.id, 6))) + "</ul>")
    o.append(f'<div class="ad">{ui["ad"]}<br><img src="/ad/side.gif"></div>')
    o.append("</div>")
    o.append("</div>")  # container
    o.append('<div id="footer">' + " | ".join(f'<a href="{attr(h)}">{esc(t)}</a>' for t, h in s.footer)
             + f"<br>{s.copyright}</div>")
    if a.script_block:
        o.append(SCRIPT_BLOCKS[s.lang][1])
    o.append("</body>")
    o.append("</html>")
    return "\n".join(o) + "\n"


RENDERERS = {"html5": render_html5, "divs": render_divs, "table": render_table, "br": render_br}


# --------------------------------------------------------------------------- articles

ARTICLES: list[Article] = []


def art(**kw: Any) -> None:
    """Register an article (list arguments are turned into tuples)."""
    for k in ("blocks", "related", "comments", "topics"):
        if k in kw:
            kw[k] = tuple(kw[k])
    ARTICLES.append(Article(**kw))


# ---- English -------------------------------------------------------------------------

art(
    id="en01-council-budget", site="riverton", template="html5", layout="related-abstracts",
    path="/politics/2024/03/13/council-approves-budget-bus-routes/", section="politics",
    extra={"section_name": "Politics"},
    title="Riverton council approves $48 million budget after late-night fight over bus routes",
    byline="By Maria Okafor, City Hall Reporter", date="March 13, 2024, 11:58 p.m.", iso="2024-03-13T23:58:00-05:00",
    topics=["City Council", "Budget", "Public transit"],
    blocks=[
        Para("Riverton's city council approved a $48.2 million operating budget shortly before midnight on Tuesday, ending three weeks of negotiations that had threatened to delay spending on road repairs and the public library."),
        Para("The 6-3 vote came after council members agreed to restore two evening bus routes that the mayor's office had proposed cutting. Supporters of the routes, many of them night-shift workers at the county hospital, had filled the chamber for most of the evening."),
        Figure("/media/2024/03/council-meeting-crowd.jpg", "Residents wait to speak during Tuesday's council meeting at Riverton City Hall. (Photo: Ledger staff)"),
        Para("“We heard from nurses who would have had to walk two miles home after a twelve-hour shift,” said Councilwoman Denise Alvarez, who introduced the amendment. “That was not a trade-off I was willing to make.”"),
        Sub("Where the money comes from"),
        Para("To pay for the routes, the council trimmed $610,000 from a planned renovation of the municipal parking garage on Front Street and postponed the purchase of two street sweepers until next year."),
        Para("Mayor Tom Becker, who had argued that ridership on the evening routes fell by a third since 2019, said he would not veto the budget. He called the compromise “imperfect but workable” and said the city would review the routes again in twelve months."),
        Para("Property tax rates will remain unchanged for the fourth consecutive year. The budget does add $1.1 million for pothole repairs, a figure that several residents said was still too low given the condition of roads on the east side."),
        Para("Councilman Greg Whitfield, one of the three members who voted no, said the city was relying too heavily on a one-time transfer from its reserve fund. “We are patching a hole with money we will not have next spring,” he said."),
        Para("The new fiscal year begins July 1. Department heads are expected to present detailed spending plans to the council's finance committee in May."),
    ],
    related=[
        ("Library hours to expand on weekends under new plan",
         "The main branch on Elm Street will open at 9 a.m. on Saturdays and Sundays starting in April. Officials said the change will cost about $85,000 a year."),
        ("East side residents demand faster pothole repairs",
         "More than 200 people signed a petition delivered to City Hall last week. They say some streets have not been resurfaced in over a decade."),
        ("Transit authority weighs fare increase for 2025",
         "A proposal under review would raise the base bus fare from $1.75 to $2. Public hearings are planned for late summer."),
        ("Mayor Becker announces bid for second term",
         "Becker, a former school principal, said he wants to finish work on the riverfront project. No challenger has filed paperwork yet."),
    ],
)

art(
    id="en02-flood-warning", site="valley", template="divs", layout="flash",
    path="/weather/2024/06/08/flash-flood-warning-cedar-creek", section="weather",
    extra={"section_name": "Weather"},
    title="Flash flood warning issued for Cedar Creek valley until 6 p.m.",
    byline="Valley Wire staff", date="Updated June 8, 2024 1:47 PM", iso="2024-06-08T13:47:00-06:00",
    topics=["Weather", "Flooding", "Cedar Creek"],
    blocks=[
        Para("The state weather office has issued a flash flood warning for the Cedar Creek valley until 6 p.m. Saturday after more than three inches of rain fell in two hours, and drivers are urged to avoid the low-water crossings on Route 9 and Mill Road."),
    ],
)

art(
    id="en03-gulls-rally", site="harbor", template="html5", layout="table",
    path="/sport/football/gulls-beat-millbrook-3-2-coastal-league", section="sport",
    extra={"section_name": "Sport"},
    title="Harbor City Gulls rally late to beat Millbrook 3-2 and climb to second",
    byline="By Sam Achebe", date="Sunday 21 April 2024, 18:05", iso="2024-04-21T18:05:00+01:00",
    topics=["Football", "Coastal League", "Harbor City Gulls"],
    blocks=[
        Para("Harbor City Gulls scored twice in the final ten minutes to beat Millbrook Rovers 3-2 at Quayside Park on Sunday, lifting the club to second place in the Coastal League with four matches left."),
        Para("Millbrook led 2-1 until the 81st minute, when substitute Jonah Reyes headed in a corner from captain Ellie Marsh. Reyes then set up the winner for striker Samir Haddad in stoppage time, sending most of the 7,400 spectators to their feet."),
        Para("“We talked at half-time about staying patient,” said Gulls manager Petra Lind. “The players kept moving the ball and in the end the chances came.”"),
        Para("Millbrook had looked comfortable after goals from Owen Clarke and Tariq Bello either side of half-time. Their manager, Ray Dunmore, said his side “stopped playing” once they went ahead."),
        Sub("Coastal League: top five"),
        Table(sub_rows("Pos | Club | Played | Points", "1 | Port Ellis | 26 | 58", "2 | Harbor City Gulls | 26 | 53",
                       "3 | Millbrook Rovers | 26 | 52", "4 | Saltmarsh Town | 26 | 47", "5 | Kingsbridge United | 25 | 44")),
        Para("The Gulls travel to Saltmarsh Town next Saturday. Lind said defender Ana Duarte, who limped off with a knee problem in the second half, would have a scan on Monday."),
    ],
    comments=[
        ("gullsfan_88", "2 hours ago", "Best match I've seen at Quayside in years. Reyes has to start next week!"),
        ("M. Turner", "2 hours ago", "Millbrook threw it away. You cannot sit back for twenty minutes against a side like that."),
        ("harbourlass", "1 hour ago", "Hope Duarte is okay. We have nobody else who can play on the left."),
        ("Old Stand Dave", "58 minutes ago", "Second place with four to go. I'm not getting my hopes up, but it's been a fun season."),
        ("kb_united_supporter", "40 minutes ago", "Don't count out Kingsbridge, we still have a game in hand."),
    ],
)

art(
    id="en04-coral-reef", site="harbor", template="html5", layout="long", script_block=True,
    path="/science/deep-sea-survey-cold-water-coral-reef", section="science",
    extra={"section_name": "Science"},
    title="Deep-sea survey finds cold-water coral reef twice the size scientists expected",
    byline="By Ingrid Solberg, Science Correspondent", date="Thursday 14 November 2024, 09:00", iso="2024-11-14T09:00:00Z",
    topics=["Marine science", "Coral", "Fisheries"],
    blocks=[
        Para("A reef of cold-water coral stretching for almost 40 kilometers has been mapped off the northern shelf, researchers at the Harbor City Marine Institute said on Thursday, making it roughly twice as large as earlier estimates had suggested."),
        Para("The reef lies between 300 and 600 meters below the surface, far beyond the reach of sunlight. Unlike tropical corals, the species that build it feed by catching tiny particles drifting in the current."),
        Para("“We knew there was something down there, but we had only ever seen small patches of it,” said Dr. Helen Marsh, the institute's chief scientist on the expedition. “When the full map came back, people in the control room simply went quiet.”"),
        Figure("/img/science/coral-rov-420m.jpg", "Branching coral photographed by the remotely operated vehicle at a depth of 420 meters. (Harbor City Marine Institute)"),
        Sub("Three weeks at sea"),
        Para("The survey was carried out over three weeks in October aboard the research vessel Meridian. The team used a sonar system mounted on the hull to map the seabed, then sent a remotely operated vehicle to film the most promising areas."),
        Para("Much of the work happened at night, when the sea was calmer. The vehicle, tethered to the ship by a cable more than a kilometer long, made 23 dives and collected 140 hours of video."),
        Remark("Editors: the trawling paragraphs were checked with the fisheries authority on Wednesday. Do not add the embargoed quotes before 9 a.m."),
        Para("Engineers had to replace a thruster after the fourth dive, when the vehicle became tangled in an old fishing line. Marsh said the incident was a reminder that even remote reefs are not untouched."),
        Sub("A nursery for fish"),
        Para("The footage shows dense thickets of branching coral, some of them several meters tall. Between the branches the team counted large numbers of young redfish, ling and squat lobsters."),
        Para("Fisheries biologist Tomás Ferreira said the reef may act as a nursery for species that are later caught in shallower water. “If that is confirmed, it matters for the fishing fleet as much as for conservation,” he said."),
        Para("The scientists also recorded several species of sponge that have not previously been reported in the region. Samples have been sent to a museum laboratory for identification, a process that could take a year."),
        Para("Some of the coral colonies appear to be very old. Based on growth rates measured elsewhere, the researchers estimate that the largest mounds began forming thousands of years ago, after the end of the last ice age."),
        Figure("/img/science/meridian-leaves-port.jpg", "The research vessel Meridian leaves port at the start of the three-week survey."),
        Sub("Signs of damage"),
        Para("Not all of the news was good. On the eastern edge of the reef, the vehicle filmed long scars in the seabed and fields of broken coral that the team believes were caused by bottom trawling."),
        Para("Trawling has been restricted in part of the area since 2016, but the newly mapped sections lie outside the protected zone. The institute has shared its data with the regional fisheries authority, which is due to review its closed areas next year."),
        Para("A spokesperson for the Northern Fishermen's Association said its members would look at the map “with an open mind” but warned against closures that were “drawn too widely.”"),
        Para("Marsh said she hoped both sides could agree on boundaries based on the new evidence. “Now that we can see exactly where the coral is, it should be possible to protect it without closing the whole shelf,” she said."),
        Sub("What comes next"),
        Para("The team plans to return in the spring to place instruments on the seabed that will measure temperature, currents and the amount of food reaching the reef over a full year."),
        Para("They also want to test whether the reef is affected by the slow warming of deep water that has been recorded across the region over the past two decades."),
        Para("The full data set, including the seabed map and a selection of video clips, will be published online after it has been checked by other scientists, the institute said."),
    ],
)

art(
    id="en05-greenway-results", site="valley", template="divs", layout="table", body_mode="div",
    path="/business/2024/05/22/greenway-markets-record-spring-sales", section="business",
    extra={"section_name": "Business"},
    title="Greenway Markets posts record spring sales as shoppers trade down to store brands",
    byline="By Luis Ortega", date="May 22, 2024", iso="2024-05-22T10:15:00-06:00",
    topics=["Retail", "Greenway Markets", "Earnings"],
    blocks=[
        Para("Greenway Markets, the regional grocery chain with 41 stores across the valley, reported record sales for the three months to April, helped by shoppers who switched from national brands to its cheaper own-label products."),
        Para("Revenue rose 7.4% to $312 million compared with the same period last year. Profit grew more slowly, by 2.1%, because the company spent more on wages and on refrigeration upgrades at older stores."),
        Para("Chief executive Laura Chen said store-brand products now account for almost a third of what customers buy, up from a quarter two years ago. “People are still feeling prices at the checkout, and they are shopping more carefully,” she told analysts on a call."),
        Table(sub_rows("Quarter to April | 2024 | 2023 | Change", "Revenue ($m) | 312.0 | 290.5 | +7.4%",
                       "Operating profit ($m) | 14.6 | 14.3 | +2.1%", "Stores | 41 | 39 | +2", "Staff | 5,280 | 5,010 | +5.4%")),
        Para("The company opened two stores during the quarter, in Ashford and Pine Hollow, and said a third, in the former cinema building on Main Street in Lakeside, would open in September."),
        Para("Greenway shares, which trade on a regional exchange, rose 3% in early trading. Analyst Ben Ruiz of Valley Capital called the results “solid rather than spectacular” and said rising costs were the main risk for the rest of the year."),
        Para("The chain also confirmed it will stop selling single-use plastic bags at all stores from January, a year later than it had first planned."),
    ],
    related=[
        ("Valley farmers report strong strawberry harvest despite late frost",
         "Growers say yields are up about 10% on last year. Prices at farm stands have remained steady so far."),
        ("Ashford store opening brings 90 jobs to town center",
         "The new Greenway branch replaces a furniture showroom that closed in 2021. Local officials said it would bring more visitors to nearby shops."),
        ("Cost of a weekly food basket falls for first time in three years",
         "A survey of ten supermarkets found the average price of 25 common items dropped by 1.3% in March. Fresh vegetables and eggs led the decline."),
    ],
)

art(
    id="en06-quilt-exhibition", site="northfield", template="table", layout="inline-broken", body_mode="br",
    path="/local/2024/0608/quilt-exhibition.html", section="local",
    extra={"section_name": "Local News"},
    title="Northfield museum opens quilt exhibition spanning two centuries",
    byline="By Ruth Delaney, Gazette Staff Writer", date="Saturday, June 8, 2024", iso="2024-06-08",
    blocks=[
        Para("The **Northfield Historical Museum** opened a new exhibition on Saturday featuring 64 quilts made by women in the county between 1820 and 2010, many of them shown in public for the first time."),
        Para("The show, titled “Pieced Together,” was assembled over two years by curator [Anne Kowalski](/people/anne-kowalski.html), who visited more than 100 families to record the stories behind the quilts. Some arrived in cardboard boxes, others in the trunks of cars, she said."),
        Figure("/photos/2024/0608/flour-sack-quilt.jpg", "A flour-sack quilt from the 1930s is among the 64 quilts on display. (Gazette photo by Ken Marsh)"),
        Para("Among the highlights is a {{wedding quilt stitched in 1861}} by a farmer's daughter from Elm Falls, which still carries the pencil marks she used to plan her pattern. Another, made from flour sacks during the 1930s, was donated by a family in [Corbin Township](/tags/corbin-township.html)."),
        Para("“Quilts were often the only place where these women signed their names,” Kowalski said. “When you look closely, you are reading a kind of diary.”"),
        Para("The museum has also set up a table where visitors can try hand stitching, and local quilting groups will give demonstrations on the first Sunday of each month. Admission is **$6 for adults** and free for children under 12."),
        Para("The exhibition runs until October 27. The museum, at 210 Grant Street, is open Wednesday to Sunday from 10 a.m. to 4 p.m."),
    ],
)

art(
    id="en07-school-board-election", site="valley", template="divs", layout="heavy-nav", heavy_nav=True,
    path="/schools/2024/11/06/newcomers-win-valley-school-board-seats", section="schools",
    extra={"section_name": "Schools"},
    title="Two newcomers win seats on Valley school board as turnout climbs",
    byline="By Hannah Brooks", date="November 6, 2024 7:12 AM", iso="2024-11-06T07:12:00-07:00",
    topics=["Elections", "Valley Unified", "School board"],
    blocks=[
        Para("Two first-time candidates won seats on the Valley Unified school board on Tuesday, unseating a 12-year incumbent in an election that drew the highest turnout for a board race in more than a decade."),
        Para("Retired teacher Gloria Mendez led the field with 8,912 votes, according to unofficial results posted by the county clerk early Wednesday. Parent organizer Kwame Asante finished second, narrowly ahead of board president Richard Hale."),
        Hidden("print-note", "This article was printed from the Valley Wire website. Visit us online for updated election results and more local coverage."),
        Para("About 31% of registered voters cast ballots, up from 19% in the last board election. Both winners had campaigned on reducing class sizes and reopening the district's shuttered music program."),
        Sub("Unofficial results"),
        Table(sub_rows("Candidate | Votes | Share", "Gloria Mendez | 8,912 | 29.8%", "Kwame Asante | 7,645 | 25.6%",
                       "Richard Hale (incumbent) | 7,390 | 24.7%", "Dana Whitlock | 5,940 | 19.9%")),
        Para("Hale, who was first elected in 2012, said in a statement that he was proud of the district's new science wing at Valley High and wished the new members well. He did not rule out running again."),
        Para("The county clerk must certify the results within 30 days. Mendez and Asante will be sworn in at the board's January meeting."),
    ],
)

art(
    id="en08-dockworkers-strike", site="coastal", template="divs", layout="comments",
    path="/shipping/dockworkers-vote-to-strike-harbor-city-terminal-20241009", section="shipping",
    extra={"section_name": "Ports & Shipping"},
    title="Dockworkers at Harbor City port vote to strike over shift changes",
    byline="By Colm Brennan, Industry Reporter", date="9 October 2024, 4:30 pm", iso="2024-10-09T16:30:00+01:00",
    topics=["Ports", "Unions", "Bayline Terminals"],
    blocks=[
        Para("Dockworkers at the Harbor City container terminal voted overwhelmingly on Wednesday to strike over new shift patterns, raising the prospect of the first stoppage at the port in nearly twenty years."),
        Para("Of the 1,140 members who took part in the ballot, 91% backed walkouts, the Harbor and Dock Workers' Union said. The union has not yet set dates but must give the terminal operator two weeks' notice."),
        Figure("/images/2024/10/bayline-cranes.jpg", "Cranes at the Bayline container terminal on Wednesday afternoon. Photo: Coastal Times"),
        Para("The dispute centers on a plan by operator Bayline Terminals to replace fixed eight-hour shifts with a rotating system that the company says is needed to handle larger ships arriving at unpredictable times."),
        Para("Union secretary Frank Osei said members were not opposed to change but would not accept rosters published “with three days' notice and no say.” He said many workers had childcare arrangements that depended on knowing their hours a month in advance."),
        Para("Bayline said in a statement that it was “disappointed” by the result and remained open to talks. It said the rotating system would include a guaranteed minimum number of weekend days off."),
        Para("The port handles about a fifth of the region's imports, including most of the fresh fruit sold in local supermarkets. Business groups urged both sides to return to negotiations."),
    ],
    comments=[
        ("J. Palmer", "Oct 9, 2024 at 6:12 pm", "Three days' notice for a shift change is not reasonable in any job. Good luck to them."),
        ("ShipShape", "Oct 9, 2024 at 6:40 pm", "Bigger ships are the reality now. The port has to adapt or the work will go to Port Ellis."),
        ("marguerite_k", "Oct 9, 2024 at 7:05 pm", "My husband works nights at the terminal. Nobody there wants a strike, but they feel ignored."),
        ("Lenny R.", "Oct 9, 2024 at 8:21 pm", "Expect empty shelves in the fruit aisle if this goes ahead."),
    ],
)

art(
    id="en09-mill-river-bridge", site="northfield", template="table", layout="heavy-nav", heavy_nav=True,
    path="/local/2024/1104/mill-river-bridge-opens.html", section="local",
    extra={"section_name": "Local News"},
    title="New Mill River bridge opens to traffic two months ahead of schedule",
    byline="By Dan Whitaker, Gazette Staff Writer", date="Monday, November 4, 2024", iso="2024-11-04",
    blocks=[
        Para("The new Mill River bridge opened to traffic on Monday morning, two months ahead of schedule and about $3 million under its $41 million budget, state transportation officials said."),
        Para("The four-lane bridge replaces a 1950s steel span that had been restricted to vehicles under ten tons since 2019, forcing trucks serving the industrial park to take a 14-mile detour."),
        Para("The first vehicles to cross were a school bus and a fire engine from the Northfield volunteer company, followed by a line of commuters who had waited at the barrier since dawn."),
        Para("“This is the bridge my grandfather used to complain about, and then my father,” said Nora Pruitt, who runs a bakery on the east bank. “I never thought I would see the new one finished early.”"),
        Para("Engineers credited a dry autumn and the decision to build the main sections off site and float them into place on barges. The old bridge will be demolished over the winter, with work limited to daylight hours."),
        Para("A walking and cycling path on the south side of the bridge will open in the spring, once railings and lighting are installed."),
    ],
)

art(
    id="en10-film-festival", site="lakeside", template="br", layout="inline-broken", body_mode="br",
    path="/arts/2024/04/10/film-festival-outdoor-screenings/", section="arts",
    extra={"section_name": "Arts"},
    title="Lakeside film festival adds outdoor screenings as ticket sales double",
    byline="By Grace Lindqvist", date="April 10, 2024", iso="2024-04-10",
    blocks=[
        Para("The Lakeside Film Festival will add free outdoor screenings on the town beach this summer after advance ticket sales doubled compared with last year, organizers said on Wednesday."),
        Para("Festival director [Priya Nair](/people/priya-nair/) said the **five evening shows** will be projected onto a 12-meter inflatable screen near the boathouse. Visitors are encouraged to bring blankets and folding chairs, but not glass bottles."),
        Para("This year's program includes 48 feature films and 70 shorts from 19 countries. The opening film, a {{documentary about a family of lighthouse keepers}}, was shot partly on the islands just north of the lake."),
        Para("The festival, which began in 2009 as a weekend of screenings in the library basement, now draws around 15,000 visitors. Local hotels report that most rooms for the opening weekend are already booked."),
        Para("Tickets for indoor screenings cost $12 and go on general sale on May 1 through the [festival website](https://lakesidefilm.example.org/tickets). The full program will be announced at a press event on April 24."),
    ],
    related=[
        ("Boathouse restoration wins state heritage award",
         "The 1912 building was saved from demolition by a volunteer group in 2018. Judges praised the use of original timber in the repairs."),
        ("Summer concert series returns to Harbor Green",
         "Eight free concerts are planned on Thursday evenings from June to August. Food trucks will be on site from 5 p.m."),
        ("Young filmmakers invited to enter 60-second film contest",
         "Entries must be filmed within the town limits and submitted by April 15. The winning film will be shown before the opening night feature."),
        ("Lakeside library launches oral history project",
         "Volunteers will record interviews with residents who have lived in town for more than fifty years. The recordings will be available online next year."),
    ],
)

art(
    id="en11-kingsbridge-manager", site="harbor", template="html5", layout="flash",
    path="/sport/football/kingsbridge-united-dismiss-manager-colin-frayne", section="sport",
    extra={"section_name": "Sport"},
    title="Kingsbridge United dismiss manager Colin Frayne after six defeats",
    byline="By Sam Achebe", date="Monday 29 April 2024, 19:42", iso="2024-04-29T19:42:00+01:00",
    topics=["Football", "Kingsbridge United"],
    blocks=[
        Para("Kingsbridge United have dismissed manager Colin Frayne after a run of six defeats in seven league matches, the club announced on Monday evening. Assistant coach Lucy Amara will take charge of Saturday's match against Port Ellis."),
    ],
)

art(
    id="en12-feed-mill-plan", site="northfield", template="table", layout="comments",
    path="/local/2024/1108/feed-mill-apartments-rejected.html", section="local",
    extra={"section_name": "Local News"},
    title="Planning board rejects six-story apartment plan for former Feed Mill site",
    byline="By Ruth Delaney, Gazette Staff Writer", date="Friday, November 8, 2024", iso="2024-11-08",
    blocks=[
        Para("The Northfield planning board voted 4-1 on Thursday to reject a proposal for a six-story apartment building on the site of the former Feed Mill on Water Street, saying the design was too tall for the historic district."),
        Para("Developer Harlan & Pike had proposed 84 apartments, ground-floor shops and a public walkway along the river. The company said 12 of the apartments would be offered at below-market rents."),
        Figure("/photos/2024/1108/feed-mill-rendering.jpg", "An architect's drawing of the proposed building, as seen from the Water Street bridge. (Courtesy of Harlan & Pike)"),
        Para("More than 150 residents attended the three-hour hearing at the Town Hall auditorium. Opponents said the building would block views of the river and add traffic to a busy intersection, while supporters argued the town badly needs new housing."),
        Para("“Our children cannot afford to live in the town they grew up in,” said Carla Benitez, a teacher who spoke in favor. “If not here, where?”"),
        Para("Board chair Walter Ng said members were not opposed to housing on the site but could not approve a building that exceeded the district's height limit by two stories. He encouraged the developer to return with a revised plan."),
        Para("A spokesperson for Harlan & Pike said the company was “reviewing its options,” including a possible appeal to the state zoning board."),
    ],
    comments=[
        ("riverwatcher", "Posted 11/08/2024 9:41 PM", "Six stories next to the old mill would have looked ridiculous. Good decision."),
        ("Jen B.", "Posted 11/08/2024 10:02 PM", "So we reject another housing project and then wonder why rents keep going up."),
        ("T. Halvorsen", "Posted 11/09/2024 7:15 AM", "Four stories with the walkway would be a fair compromise. I hope they come back."),
        ("northfield_native", "Posted 11/09/2024 8:30 AM", "The traffic at Water and Main is already terrible at 5 pm. Nobody has a plan for that."),
    ],
)

art(
    id="en13-weather-balloon", site="lakeside", template="br", layout="hidden", body_mode="br",
    path="/schools/2024/05/19/students-weather-balloon-31-km/", section="schools",
    extra={"section_name": "Schools"},
    title="Lakeside students' weather balloon reaches 31 kilometers before landing in a cornfield",
    byline="By Tom Reilly", date="May 19, 2024", iso="2024-05-19",
    blocks=[
        Para("A weather balloon built by students at Lakeside High School climbed to 31 kilometers above the earth on Saturday, sending back photographs of the curve of the planet before landing in a cornfield 90 kilometers to the east."),
        Para("The project was led by physics teacher [Martin Osei](/staff/martin-osei/) and a team of 14 students, who spent five months designing the payload: a foam box holding a camera, a temperature sensor and a GPS tracker."),
        Hidden("paywall-msg", "You have read 3 of your 5 free articles this month. Subscribe today for unlimited access to local news."),
        Para("The balloon took off from the school's football field at 8:40 a.m. and burst about two hours later, as planned, when the thin air let it expand to several times its original size. A small parachute carried the box back down."),
        Para("“The sensor recorded minus 52 degrees at the coldest point,” said **junior Amelia Cho**, who wrote the software that logged the data. “We were worried the batteries would die, but the insulation worked.”"),
        Para("The students tracked the box with a laptop and a borrowed car and recovered it with the help of a farmer, {{Dale Hutchins}}, who said he had never found anything like it in his field before."),
    ],
)

# ---- Chinese -------------------------------------------------------------------------

art(
    id="zh01-park-regulation", site="jiangcheng", template="html5", layout="related-abstracts",
    path="/shizheng/202405/16/t20240516_552301.html", section="shizheng",
    extra={"section_name": "时政"},
    title="市人大常委会表决通过城市公园管理条例修订案 公园夜间开放延长至22时",
    byline="来源：江城日报　记者 刘晓芸", date="2024-05-16 08:30", iso="2024-05-16T08:30:00+08:00",
    topics=["公园", "地方立法", "人大常委会"],
    blocks=[
        Para("5月15日，江城市第十六届人大常委会第十九次会议表决通过《江城市城市公园管理条例》修订案。修订后的条例将于今年7月1日起施行，全市42座综合公园的夜间开放时间统一延长至22时。"),
        Para("据介绍，原条例自2009年施行以来，对公园建设和管理发挥了重要作用。但随着市民休闲需求的变化，部分条款已不适应实际情况，市民反映较多的是开放时间短、停车难、宠物管理规定不明确等问题。"),
        Figure("/uploads/2024/05/16/jiangbin-park.jpg", "市民在江滨公园散步休闲。本报记者 周航 摄"),
        Sub("明确宠物入园规则"),
        Para("修订案首次对携带宠物入园作出规定：市民可以携带犬只进入设有宠物活动区的公园，但须使用牵引绳，并及时清理粪便。儿童游乐区、水域周边等区域仍禁止宠物进入。"),
        Para("市园林局相关负责人表示，目前已有11座公园完成宠物活动区选址，预计年内建成开放。“我们希望既照顾养宠家庭的需要，也保障其他游客的安全和感受。”"),
        Sub("鼓励错峰共享停车"),
        Para("针对节假日公园周边停车难的问题，修订案鼓励公园周边的机关、企事业单位在节假日向公众开放内部停车场，并由所在区政府给予适当补贴。"),
        Para("常委会组成人员在审议中还提出，应加强对公园内商业经营活动的管理，防止公共绿地被过度占用。修订案据此增加条款，规定公园内经营性设施占地面积不得超过公园陆地面积的百分之三。"),
    ],
    related=[
        ("江滨公园二期工程开工 新增绿地约15公顷",
         "二期工程位于江滨大道以东，计划于明年底完工。建成后将与一期步道连通，形成长约6公里的滨江慢行系统。"),
        ("我市今年将新建改建口袋公园30个",
         "口袋公园将优先布局在老旧小区和学校周边。市园林局表示，选址方案将通过网络征求市民意见。"),
        ("文明养犬怎么管？听听市民怎么说",
         "记者走访多个小区发现，不拴绳遛狗仍是居民反映最集中的问题。多位受访者建议加大执法力度。"),
        ("五一假期全市公园接待游客超百万人次",
         "假期五天，全市各公园累计接待游客112万人次，同比增长18%。其中江滨公园单日最高客流超过6万人次。"),
    ],
)

art(
    id="zh02-rainstorm-warning", site="donghu", template="divs", layout="flash",
    encoding="gbk", declared="gb2312",
    path="/tianqi/2024-06/18/content_7730215.htm", section="tianqi",
    extra={"section_name": "天气", "editor": "陈思"},
    title="东湖市气象台发布暴雨蓝色预警信号",
    byline="来源：东湖新闻网", date="2024年06月18日 14:06", iso="2024-06-18T14:06:00+08:00",
    topics=["天气", "暴雨预警"],
    blocks=[
        Para("东湖市气象台6月18日14时发布暴雨蓝色预警信号：预计未来12小时内，我市东部和南部地区将出现50毫米以上降雨，局地伴有雷电和短时大风，请注意防范城市内涝和山洪等灾害。"),
    ],
)

art(
    id="zh03-city-football", site="jiangcheng", template="html5", layout="table",
    path="/tiyu/202405/20/t20240520_553118.html", section="tiyu",
    extra={"section_name": "体育"},
    title="城市足球联赛第八轮：江北队客场3比1逆转汉阳队",
    byline="来源：江城日报　记者 马骁", date="2024-05-20 07:45", iso="2024-05-20T07:45:00+08:00",
    topics=["城市足球联赛", "江北队"],
    blocks=[
        Para("5月19日晚，2024江城城市足球联赛第八轮在市体育中心展开争夺。江北队在先失一球的情况下连进三球，最终以3比1客场逆转汉阳队，积分升至积分榜第二位。"),
        Para("比赛第12分钟，汉阳队利用前场任意球机会率先破门。落后的江北队随后加强边路进攻，第38分钟，边锋陈宇轩接队友传中头球扳平比分。"),
        Para("下半场，江北队逐渐掌握场上主动。第61分钟，队长王磊禁区外远射得手；第84分钟，替补登场的小将刘一鸣单刀破门，锁定胜局。"),
        Para("赛后，江北队主教练赵建国表示，球队上半场有些急躁，中场休息时调整了站位，“球员执行得很好，特别是年轻队员的表现让人惊喜”。"),
        Para("本赛季城市足球联赛共有10支球队参赛，球员均为业余选手，比赛采用主客场双循环赛制。本轮过后积分榜前五名如下："),
        Table(sub_rows("排名 | 球队 | 场次 | 胜 | 平 | 负 | 积分", "1 | 武昌队 | 8 | 6 | 1 | 1 | 19",
                       "2 | 江北队 | 8 | 5 | 2 | 1 | 17", "3 | 汉阳队 | 8 | 5 | 1 | 2 | 16",
                       "4 | 青山队 | 8 | 4 | 2 | 2 | 14", "5 | 洪山队 | 8 | 3 | 3 | 2 | 12")),
        Para("联赛第九轮将于5月26日进行，江北队将在主场迎战积分榜领头羊武昌队。"),
    ],
    comments=[
        ("江北老球迷", "2024-05-19 22:15", "刘一鸣这个球太漂亮了，下一场必须首发！"),
        ("汉阳小蓝", "2024-05-19 22:31", "领先之后就往后缩，这个问题已经不是第一次了，教练要好好反思。"),
        ("足球爱好者2008", "2024-05-19 22:47", "业余联赛能踢到这个水平很不容易，现场气氛也很好，下次带孩子一起去看。"),
        ("青山阿强", "2024-05-20 07:03", "下轮江北对武昌，这才是真正的冠军争夺战。"),
        ("路过的网友", "2024-05-20 08:20", "请问下一轮的票在哪里领？去年是在体育中心南门。"),
    ],
)

art(
    id="zh04-heat-storage", site="donghu", template="divs", layout="captions", script_block=True,
    path="/kejiao/2024-03/12/content_7702841.htm", section="kejiao",
    extra={"section_name": "科教", "editor": "孟凡"},
    title="东湖大学团队研制新型储热材料 有望让农房夜间供暖成本降低约三成",
    byline="来源：东湖日报　记者 高远 通讯员 林晨", date="2024年03月12日 09:20", iso="2024-03-12T09:20:00+08:00",
    topics=["东湖大学", "储热材料", "节能"],
    blocks=[
        Para("记者近日从东湖大学获悉，该校材料科学与工程学院研究团队研制出一种新型相变储热材料，可在白天吸收并储存太阳能热量，夜间缓慢释放，用于建筑供暖。相关成果已发表在一本国际学术期刊上。"),
        Para("相变材料是一种能够在固态和液态之间转换、并在转换过程中吸收或释放大量热量的材料。此前，这类材料普遍存在储热量有限、反复使用后性能下降等问题，难以大规模推广。"),
        Figure("/pic/2024-03/12/chuneng-yangpin.jpg", "研究人员在实验室展示新型储热材料样品。东湖大学供图"),
        Sub("“像海绵一样锁住热量”"),
        Para("团队负责人、东湖大学教授孙明远介绍，研究人员以一种多孔碳材料为骨架，把储热物质“装进”微米级的孔道中，“就像海绵吸水一样，热量被牢牢锁在里面，材料熔化后也不会渗漏”。"),
        Para("实验数据显示，新材料单位质量的储热量比常用产品提高约40%，经过1000次加热和冷却循环后，储热能力仍能保持在初始水平的95%以上。"),
        Remark("编辑提示：论文数据已与作者核对，发布前请再次确认第二张图片的授权情况。"),
        Para("为了验证实际效果，团队在学校一栋学生宿舍楼的两个房间里进行了对比试验。在室外最低气温零下5摄氏度的条件下，铺设新材料的房间夜间平均温度比对照房间高出3.2摄氏度。"),
        Figure("/pic/2024-03/12/hongwai-duibi.jpg", "对比试验中拍摄的红外热成像画面，颜色越亮表示温度越高。"),
        Sub("成本仍是推广难点"),
        Para("孙明远坦言，目前新材料的生产成本仍然偏高，每平方米的铺设费用大约是普通保温材料的两倍。团队正在与本地企业合作，尝试用农作物秸秆等废弃物制备碳骨架，以降低原料成本。"),
        Para("业内专家认为，北方地区冬季供暖能耗较高，如果相关材料的成本能够进一步下降，有望在农村住房节能改造中发挥作用。"),
        Para("据悉，团队计划明年在周边两个村庄开展示范应用，届时将对约50户农房进行改造，并持续跟踪监测一个完整供暖季的数据。"),
    ],
)

art(
    id="zh05-q1-economy", site="nanling", template="table", layout="heavy-nav", heavy_nav=True,
    encoding="gbk", declared="gbk",
    path="/jingji/2024-04/22/content_1184406.htm", section="jingji",
    extra={"section_name": "经济", "editor": "黄丽"},
    title="南岭市一季度地区生产总值同比增长5.6%",
    byline="来源：南岭日报　记者 唐振宇", date="2024-04-22 16:40", iso="2024-04-22T16:40:00+08:00",
    blocks=[
        Para("4月22日，南岭市统计局发布一季度全市经济运行情况。初步核算，一季度全市实现地区生产总值1286.4亿元，按不变价格计算，同比增长5.6%，增速比去年同期加快0.8个百分点。"),
        Para("分产业看，第一产业增加值71.2亿元，增长3.9%；第二产业增加值512.8亿元，增长6.1%；第三产业增加值702.4亿元，增长5.4%。"),
        Para("工业生产稳步回升。全市规模以上工业增加值同比增长6.8%，其中新能源汽车零部件、电子元器件等行业增长较快，分别增长21.3%和14.7%。"),
        Para("消费市场持续回暖。一季度全市社会消费品零售总额达到498.6亿元，同比增长7.2%。春节期间，餐饮、住宿和文旅消费表现活跃，全市重点景区接待游客人次同比增长26.5%。"),
        Sub("一季度主要经济指标"),
        Table(sub_rows("指标 | 绝对值（亿元） | 同比增长（%）", "地区生产总值 | 1286.4 | 5.6", "规模以上工业增加值 | — | 6.8",
                       "固定资产投资 | — | 4.1", "社会消费品零售总额 | 498.6 | 7.2", "一般公共预算收入 | 96.3 | 3.5")),
        Para("市统计局新闻发言人表示，一季度全市经济开局平稳，但部分中小企业仍面临订单不足、经营压力较大等困难，下阶段需继续加大政策支持力度，巩固经济回升向好的态势。"),
    ],
)

art(
    id="zh06-craft-week", site="qingchuan", template="br", layout="inline-broken", body_mode="br",
    encoding="gbk", declared="utf-8",
    path="/wenhua/2024/0519/32718.shtml", section="wenhua",
    extra={"section_name": "文化"},
    title="青川古镇举办非遗手工艺周 竹编、剪纸等30余项技艺集中亮相",
    byline="来源：青川晚报　记者 罗佳", date="2024-05-19", iso="2024-05-19",
    blocks=[
        Para("5月18日，第三届**青川古镇非遗手工艺周**在古镇东街开幕。来自全市各区县的30余项非物质文化遗产项目集中亮相，吸引了大批市民和游客前来参观体验。"),
        Para("在竹编展区，省级非遗代表性传承人[陈守林](/renwu/chenshoulin.shtml)正在为游客演示竹编技艺。只见一根根细如发丝的竹丝在他手中上下翻飞，不到半个小时，一只精巧的小竹篮便编织完成。"),
        Para("“竹编讲究的是耐心，一件大件作品要编上好几个月。”今年68岁的陈守林说，近年来，{{越来越多的年轻人}}主动找上门来学习，这让他对技艺的传承充满信心。"),
        Para("剪纸展区同样人气很旺。剪纸艺人周秀兰现场创作的《古镇春色》长卷，将古镇的石板街、老茶馆和拱桥一一剪出，引得不少游客驻足拍照。"),
        Para("本次手工艺周为期7天，除展览展示外，还设置了非遗体验课堂、[传统美食市集](/zhuanti/meishi/)和非遗主题摄影展等活动。据主办方介绍，体验课堂每天开设6场，市民可通过“青川文旅”公众号免费预约。"),
    ],
)

art(
    id="zh07-metro-line5", site="jiangcheng", template="html5", layout="captions",
    path="/bendi/202406/28/t20240628_561907.html", section="bendi",
    extra={"section_name": "本地"},
    title="地铁5号线一期今日开通运营 全长23.6公里设站17座",
    byline="来源：江城日报　记者 陈静 通讯员 吴涛", date="2024-06-28 11:02", iso="2024-06-28T11:02:00+08:00",
    topics=["地铁", "5号线", "城市交通"],
    blocks=[
        Para("6月28日上午10时，江城地铁5号线一期工程正式开通初期运营。线路全长23.6公里，共设车站17座，其中换乘站5座，江城地铁运营总里程由此突破300公里。"),
        Figure("/uploads/2024/06/28/line5-hanjianglu.jpg", "6月28日，市民在5号线汉江路站乘车。本报记者 陈静 摄"),
        Para("5号线一期西起汉江路站，东至光谷南站，沿线串联起老城区、江北商务区和东部高新区。开通后，从汉江路到光谷南全程约需42分钟，比乘坐地面公交节省一个小时以上。"),
        Para("开通首日，不少市民早早来到车站体验。家住光谷南站附近的李女士说，她每天到江北上班，以前要换乘两次公交，“现在一趟地铁就到，早上能多睡半个小时”。"),
        Para("据江城地铁集团介绍，5号线采用6节编组列车，最高运行速度每小时100公里。初期运营阶段，工作日早晚高峰最小行车间隔为4分30秒，每日首班车6时发车，末班车22时30分发车。"),
        Figure("/uploads/2024/06/28/line5-station-hall.jpg", "5号线光谷南站站厅。"),
        Para("为方便市民出行，5号线沿线各站均设置了无障碍电梯和母婴室，部分车站还与周边商场、公交枢纽实现了地下连通。"),
    ],
    related=[
        ("地铁12号线全线进入铺轨阶段",
         "12号线是我市首条环线，全长约59.9公里。目前已有28座车站完成主体结构施工。"),
        ("地铁5号线沿线公交线路将作优化调整",
         "市交通运输局表示，将新开2条接驳公交线路，调整9条与地铁重复度较高的线路。具体方案将于近期公布。"),
        ("地铁乘车码可在全市公交通用",
         "市民使用“江城出行”应用生成的乘车码，即可在地铁和公交之间换乘，并享受换乘优惠。"),
    ],
)

art(
    id="zh08-school-places", site="donghu", template="divs", layout="comments", body_mode="div",
    path="/kejiao/2024-09/03/content_7791530.htm", section="kejiao",
    extra={"section_name": "科教", "editor": "孟凡"},
    title="东湖市明年新增公办学位1.2万个 将新建改扩建学校18所",
    byline="来源：东湖日报　记者 许静", date="2024年09月03日 08:15", iso="2024-09-03T08:15:00+08:00",
    topics=["教育", "学位", "城东新区"],
    blocks=[
        Para("记者从东湖市教育局获悉，为应对入学高峰，我市明年将新建和改扩建中小学、幼儿园18所，新增公办学位约1.2万个，重点缓解城东新区和高铁站片区的学位紧张问题。"),
        Para("近年来，随着城东新区人口快速增长，片区内多所学校出现大班额现象。市教育局基础教育处负责人表示，新建学校将按照每班不超过45人的标准设计，并同步配建运动场、图书馆和食堂。"),
        Hidden("app-tip", "下载东湖新闻客户端，阅读更多本地教育资讯，参与家长话题讨论。"),
        Para("在师资方面，我市今年计划招聘中小学教师860名，其中音乐、体育、美术和心理健康教师占比超过三成。同时，将继续推进城区学校与乡村学校结对帮扶。"),
        Para("此外，市教育局还将推动课后服务提质增效，鼓励学校引入科技、体育、艺术等特色课程，让学生在校内就能参加丰富多彩的兴趣活动。"),
    ],
    comments=[
        ("城东宝妈", "3小时前", "终于等到了！我们小区旁边的学校一个班快60人了，希望新学校早点建好。"),
        ("老张说教育", "2小时前", "建学校是好事，关键是老师要跟上，不然楼盖好了也没用。"),
        ("东湖网友lx", "2小时前", "高铁站片区规划了那么久，这次有具体时间表吗？"),
        ("静待花开", "1小时前", "心理健康老师确实太缺了，点赞。"),
    ],
)

art(
    id="zh09-wheat-purchase", site="nanling", template="table", layout="inline-broken", body_mode="br",
    heavy_nav=True, encoding="gbk", declared="gb2312",
    path="/sannong/2024-06/05/content_1190233.htm", section="sannong",
    extra={"section_name": "三农", "editor": "赵红梅"},
    title="南岭市夏粮收购全面启动 小麦最低收购价每斤1.18元",
    byline="来源：南岭日报　记者 范文静", date="2024-06-05 17:25", iso="2024-06-05T17:25:00+08:00",
    blocks=[
        Para("6月5日，南岭市2024年夏粮收购工作全面启动。全市共设立收购网点126个，预计收购小麦30万吨以上，确保农民“种粮卖得出、卖得上好价钱”。"),
        Para("今年国家继续在小麦主产区实行最低收购价政策，三等小麦最低收购价为每斤**1.18元**。目前我市新麦市场价格在每斤1.22元至1.26元之间，高于最低收购价。"),
        Para("在[城南粮食储备库](/html/2024/0605/liangku.htm)，前来售粮的车辆排起了长队。库区工作人员现场扦样、化验，不到二十分钟就能完成一车小麦的检验和结算。"),
        Para("种粮大户刘国平今年种了300多亩小麦，{{亩产比去年提高了近50斤}}。“粮站开了微信预约，按时间过来就行，不用再像以前那样半夜排队了。”他说。"),
        Para("市发展改革委相关负责人表示，将加强市场监测和执法检查，严厉打击压级压价、短斤少两等损害农民利益的行为，并开通24小时服务热线，及时回应售粮农户诉求。"),
    ],
)

art(
    id="zh10-elevators", site="qingchuan", template="br", layout="comments",
    encoding="gbk", declared="gbk",
    path="/minsheng/2024/0410/31877.shtml", section="minsheng",
    extra={"section_name": "民生"},
    title="青川城区今年计划为老旧小区加装电梯200部",
    byline="来源：青川晚报　记者 何蕾", date="2024-04-10", iso="2024-04-10",
    blocks=[
        Para("记者从青川市住房和城乡建设局了解到，今年我市计划为城区老旧小区加装电梯200部，目前已有73个加装项目完成审批，其中21部电梯已投入使用。"),
        Para("加装电梯涉及规划审批、管线迁移、资金分摊等多个环节，过去常因低楼层和高楼层居民意见不一而难以推进。今年起，我市推行“一站式”审批，办理时间由原来的60个工作日压缩至20个工作日。"),
        Para("在资金方面，每部电梯可获得政府补贴15万元，其余费用由业主按楼层分摊，楼层越高分摊比例越大。居民还可以提取住房公积金用于支付加装费用。"),
        Para("家住红星小区的王大爷今年82岁，住在6楼。“以前下一趟楼要歇好几回，现在坐电梯几十秒就到楼下了，每天都能出门买菜、晒太阳。”"),
    ],
    comments=[
        ("红星小区居民", "2024-04-10 09:12", "我们楼已经申请了，希望能快点批下来。"),
        ("一楼住户", "2024-04-10 10:05", "加装电梯挡光的问题怎么解决？低楼层住户的利益也要考虑。"),
        ("qc老李", "2024-04-10 11:30", "公积金能提取这个政策好，很多人还不知道。"),
        ("热心市民", "2024-04-10 14:48", "建议把补贴标准公示出来，让大家心里有数。"),
    ],
)

art(
    id="zh11-tang-kilns", site="jiangcheng", template="html5", layout="related-abstracts",
    path="/wenhua/202410/15/t20241015_587342.html", section="wenhua",
    extra={"section_name": "文化"},
    title="城郊遗址发现一批唐代窑址 出土瓷器残片上万件",
    byline="来源：江城日报　记者 王一帆", date="2024-10-15 09:10", iso="2024-10-15T09:10:00+08:00",
    topics=["考古", "唐代", "白沙镇"],
    blocks=[
        Para("江城市文物考古研究所日前通报，考古人员在城郊白沙镇发现一处唐代窑址群，已清理出窑炉6座、作坊遗迹3处，出土各类瓷器残片一万余件。"),
        Para("该遗址是去年配合一项道路建设工程进行考古勘探时发现的。经过一年多的发掘，考古人员初步确认，这里是一处以烧制青瓷为主的民间窑场，年代约为唐代中晚期。"),
        Figure("/uploads/2024/10/15/baisha-kiln.jpg", "考古人员在窑址现场清理窑炉遗迹。江城市文物考古研究所供图"),
        Para("项目负责人、研究馆员何建平介绍，出土瓷器以碗、盘、壶、罐等日用器物为主，部分残片上还留有当时工匠刻写的文字和符号，“这为研究唐代民间制瓷工艺和商品流通提供了难得的实物资料”。"),
        Para("值得关注的是，在一座窑炉旁发现的一件青瓷执壶，与此前在沿海港口遗址出土的同类器物十分相似。专家推测，这里烧制的瓷器可能曾经通过水路运往外地。"),
        Para("目前，考古发掘工作仍在进行中。市文物部门表示，将在发掘结束后对遗址进行整体保护，并研究建设遗址公园的可行性。"),
    ],
    related=[
        ("市博物馆新展厅开放 300余件馆藏文物首次亮相",
         "新展厅面积约2000平方米，以“江城千年”为主题。展览免费开放，市民需提前一天预约。"),
        ("白沙镇道路建设工程调整线位 为文物保护让路",
         "经多方论证，道路线位向北调整约200米。调整后工程投资增加约1800万元。"),
        ("考古体验营暑期开营 中小学生可报名参加",
         "体验营将带领学生走进考古工地和文物修复室。每期招收40人，报名通道将于7月1日开放。"),
    ],
)

art(
    id="zh12-table-tennis", site="donghu", template="divs", layout="table",
    path="/wenti/2024-05/27/content_7751062.htm", section="wenti",
    extra={"section_name": "文体", "editor": "刘洋"},
    title="全民健身乒乓球团体赛落幕 东湖区代表队夺得男子组冠军",
    byline="来源：东湖新闻网　记者 钱程", date="2024年05月27日 10:32", iso="2024-05-27T10:32:00+08:00",
    topics=["全民健身", "乒乓球"],
    blocks=[
        Para("5月26日，东湖市第十届全民健身运动会乒乓球团体赛在市体育馆落下帷幕。经过两天激烈角逐，东湖区代表队和滨江区代表队分别夺得男子组和女子组冠军。"),
        Para("本次比赛共有来自全市12个区县和行业体协的36支队伍、近200名选手参赛，年龄最大的选手71岁，最小的仅14岁。"),
        Para("男子组决赛中，东湖区队与高新区队战满五盘。关键的第五盘，东湖区队选手周涛在先输一局的情况下连扳三局，帮助球队以3比2胜出。"),
        Sub("男子组决赛比分"),
        Table(sub_rows("盘次 | 东湖区 | 高新区 | 比分", "第一盘 | 杨帆 | 高宇 | 3:1", "第二盘 | 李振华 | 吴迪 | 1:3",
                       "第三盘 | 周涛/李振华 | 马晓东/吴迪 | 2:3", "第四盘 | 杨帆 | 吴迪 | 3:2", "第五盘 | 周涛 | 高宇 | 3:1")),
        Para("赛后，已经第三次参加全民健身运动会的周涛说：“平时下班后就在社区活动室打球，能和这么多高手同场竞技，收获很大。”"),
        Para("据了解，本届全民健身运动会共设置16个比赛项目，赛事将持续到10月，其间还将举行健身气功、广场舞和登山等项目的比赛。"),
    ],
)

art(
    id="zh13-ring-road-closure", site="nanling", template="table", layout="flash",
    encoding="gbk", declared="gbk",
    path="/news/nl/2024-06/09/content_1191570.htm", section="news",
    extra={"section_name": "南岭要闻", "editor": "黄丽"},
    title="绕城高速东段6月10日起夜间封闭施工",
    byline="来源：南岭在线", date="2024-06-09 18:03", iso="2024-06-09T18:03:00+08:00",
    blocks=[
        Para("记者从市交通运输局获悉，因桥梁伸缩缝维修，南岭绕城高速东段将于6月10日至14日每晚22时至次日5时封闭施工，过往车辆请提前绕行省道S213线。"),
    ],
)


# --------------------------------------------------------------------------- build


def prepare(a: Article) -> Article:
    """Apply the site's quotation style to every English text of an article."""
    style = SITES[a.site].quotes
    if style == "none":
        return a

    def q(s: str) -> str:
        return quote_style(s, style)

    blocks: list[Block] = []
    for b in a.blocks:
        if isinstance(b, (Para, Sub, Remark, Hidden)):
            blocks.append(replace(b, text=q(b.text)))
        elif isinstance(b, Figure):
            blocks.append(replace(b, caption=q(b.caption)))
        elif isinstance(b, Table):
            blocks.append(Table(tuple(tuple(q(c) for c in r) for r in b.rows)))
    return replace(
        a,
        title=q(a.title),
        blocks=tuple(blocks),
        related=tuple((q(h), q(ab)) for h, ab in a.related),
        comments=tuple((u, t, q(x)) for u, t, x in a.comments),
    )


def assign_splits(articles: list[Article]) -> dict[str, str]:
    """About 30% test per language: the ids with the smallest sha256 go to test."""
    split: dict[str, str] = {}
    for lang in sorted({SITES[a.site].lang for a in articles}):
        ids = sorted((a.id for a in articles if SITES[a.site].lang == lang),
                     key=lambda i: hashlib.sha256(i.encode("utf-8")).hexdigest())
        n_test = round(TEST_FRACTION * len(ids))
        for k, i in enumerate(ids):
            split[i] = "test" if k < n_test else "train"
    return split


@dataclass(frozen=True)
class Page:
    """A rendered page: the article plus the three output files' contents."""

    article: Article
    meta: dict[str, object]
    html_bytes: bytes
    gold: str


def build() -> list[Page]:
    """Render every article; returns pages in id order."""
    articles = sorted((prepare(a) for a in ARTICLES), key=lambda a: a.id)
    split = assign_splits(articles)
    pages: list[Page] = []
    for a in articles:
        site = SITES[a.site]
        doc = RENDERERS[a.template](a, site)
        data = doc.encode(a.encoding)  # strict: every character must be encodable
        if a.declared == "gb2312":
            doc.encode("gb2312")  # the declared charset must cover the text too
        lines = gold_lines(a)
        meta: dict[str, object] = {
            "id": a.id,
            "url": site.base + a.path,
            "title": a.title,
            "lang": site.lang,
            "source": SOURCE,
            "license": LICENSE,
            "encoding": a.encoding,
            "layout": a.layout,
            "split": split[a.id],
            "gold_includes_title": False,
            "features": features(a),
            "template": a.template,
            "declared_encoding": a.declared,
            "declared_encoding_wrong": "declared-encoding-wrong" in features(a),
        }
        pages.append(Page(a, meta, data, "\n".join(lines) + "\n"))
    return pages


def file_bytes(p: Page) -> dict[str, bytes]:
    """The three files of a page, by suffix."""
    return {
        ".html": p.html_bytes,
        ".txt": p.gold.encode("utf-8"),
        ".json": (json.dumps(p.meta, ensure_ascii=False, indent=1) + "\n").encode("utf-8"),
    }


def write(pages: list[Page], out: Path) -> None:
    """Write the pages and remove stale corpus files from ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    keep: set[str] = set()
    for p in pages:
        for suffix, data in file_bytes(p).items():
            name = p.article.id + suffix
            keep.add(name)
            (out / name).write_bytes(data)
    for f in sorted(out.iterdir()):
        if f.suffix in (".html", ".txt", ".json") and f.name not in keep:
            f.unlink()


# --------------------------------------------------------------------------- self-check

TOKEN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
TAG_RE = re.compile(r"<[^>]*>")
META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_-]+)""", re.I)


def tokens(s: str) -> list[str]:
    """Lower-cased letter/digit runs; every CJK character is one token."""
    return TOKEN_RE.findall(s.lower())


SENTENCE_END_RE = re.compile(r"(?<![ap]\.m)[.!?](?=[”\"]?(?:\s|$))|[。！？](?!”)|[。！？]”$")


def count_sentences(line: str) -> int:
    """Rough sentence count of a paragraph (English or Chinese)."""
    return max(1, len(SENTENCE_END_RE.findall(line)))


def contains_run(page: list[str], line: list[str]) -> bool:
    """True if ``line`` occurs as a contiguous run in ``page``."""
    return f" {' '.join(line)} " in f" {' '.join(page)} "


def check(pages: list[Page], out: Path) -> str:
    """Validate the written corpus; returns a one-line summary (raises AssertionError on failure)."""
    assert len(pages) >= 24, f"only {len(pages)} pages"
    langs: dict[str, int] = {}
    encs: dict[str, int] = {}
    cover: dict[str, set[str]] = {}
    n_test = 0
    for p in pages:
        a, m = p.article, p.meta
        for suffix, data in file_bytes(p).items():
            on_disk = (out / (a.id + suffix)).read_bytes()
            assert on_disk == data, f"{a.id}{suffix}: file on disk differs from a fresh build"
        raw = (out / f"{a.id}.html").read_bytes()
        assert len(raw) < MAX_PAGE_BYTES, f"{a.id}: {len(raw)} bytes"
        doc = raw.decode(str(m["encoding"]))
        declared = META_CHARSET_RE.search(raw)
        assert declared, f"{a.id}: no charset declaration"
        decl = declared.group(1).decode().lower()
        assert decl == m["declared_encoding"], f"{a.id}: declares {decl}"
        if m["declared_encoding_wrong"]:
            try:
                raw.decode(decl)
            except UnicodeDecodeError:
                pass
            else:
                raise AssertionError(f"{a.id}: bytes decode fine with the (supposedly wrong) declared {decl}")
        else:
            raw.decode({"gb2312": "gbk"}.get(decl, decl))
        text = html.unescape(TAG_RE.sub(" ", doc))
        page_toks = tokens(text)
        gold = (out / f"{a.id}.txt").read_text(encoding="utf-8")
        assert gold.endswith("\n") and "\n\n" not in gold and not gold.startswith("\n"), f"{a.id}: gold layout"
        lines = gold[:-1].split("\n")
        for ln in lines:
            assert ln == collapse(ln) and ln, f"{a.id}: whitespace in gold line {ln!r}"
            assert "[" not in ln and "**" not in ln and "{{" not in ln, f"{a.id}: markup in gold {ln!r}"
            assert contains_run(page_toks, tokens(ln)), f"{a.id}: gold line not in page: {ln[:60]!r}"
        assert a.title not in lines, f"{a.id}: headline in gold"
        assert contains_run(page_toks, tokens(a.title)), f"{a.id}: headline not on page"
        gold_toks = tokens(gold)
        for noise in noise_texts(a):
            assert not contains_run(gold_toks, tokens(noise)), f"{a.id}: non-gold text in gold: {noise[:40]!r}"
            assert contains_run(tokens(html.unescape(doc)), tokens(noise)), f"{a.id}: noise missing: {noise[:40]!r}"
        meta_disk = json.loads((out / f"{a.id}.json").read_text(encoding="utf-8"))
        for key in ("id", "url", "title", "lang", "source", "license", "encoding", "layout", "split", "gold_includes_title"):
            assert key in meta_disk, f"{a.id}: json lacks {key}"
        assert meta_disk["layout"] in meta_disk["features"], f"{a.id}: layout not among features"
        if "flash" in meta_disk["features"]:
            assert len(lines) == 1 and 1 <= count_sentences(lines[0]) <= 2, f"{a.id}: flash is not 1-2 sentences"
        else:
            assert all(count_sentences(ln) <= 4 for ln in lines), f"{a.id}: paragraph over 4 sentences"
        lang = str(m["lang"])
        langs[lang] = langs.get(lang, 0) + 1
        enc = str(m["encoding"]) + ("(declared wrong)" if m["declared_encoding_wrong"] else "")
        encs[enc] = encs.get(enc, 0) + 1
        for f in meta_disk["features"]:
            cover.setdefault(f, set()).add(lang)
        n_test += m["split"] == "test"
    for layout in REQUIRED_LAYOUTS:
        assert cover.get(layout, set()) >= {"en", "zh"}, f"layout {layout} not covered in both languages"
    for f in EXTRA_FEATURES:
        assert f in cover, f"feature {f} missing"
    gbk_ok = sum(1 for p in pages if p.meta["encoding"] == "gbk" and not p.meta["declared_encoding_wrong"] and p.meta["lang"] == "zh")
    gbk_wrong = sum(1 for p in pages if p.meta["declared_encoding_wrong"])
    assert gbk_ok >= 4 and gbk_wrong >= 1, "need 4+ correctly declared GBK pages and 1+ wrongly declared page"
    cov = ", ".join(f"{k}:{'+'.join(sorted(v))}" for k, v in sorted(cover.items()))
    return (f"self-check OK: {len(pages)} pages ({', '.join(f'{k} {v}' for k, v in sorted(langs.items()))}; "
            f"test {n_test}); encodings {dict(sorted(encs.items()))}; layouts {cov}")


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    """Build, write and check the corpus."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "labeled",
                    help="output folder (default: <repo>/labeled)")
    ap.add_argument("--no-check", action="store_true", help="skip the self-check")
    args = ap.parse_args(argv)
    pages = build()
    again = build()
    assert [file_bytes(p) for p in pages] == [file_bytes(p) for p in again], "build is not deterministic"
    ids = [p.article.id for p in pages]
    assert len(ids) == len(set(ids)), "duplicate ids"
    write(pages, args.out)
    print(f"wrote {len(pages)} pages to {args.out}")
    if not args.no_check:
        print(check(pages, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
