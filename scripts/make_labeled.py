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
class Items:
    """A list inside the article (``<ul>``, or ``<ol>`` when ``ordered``); each item is one gold line."""

    items: tuple[str, ...]
    ordered: bool = False


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


Block = Para | Sub | Table | Items | Figure | Hidden | Remark


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
        elif isinstance(b, Items):
            lines.extend(plain(item) for item in b.items)
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
    if any(isinstance(b, Items) for b in a.blocks):
        f.append("list")
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
        elif isinstance(b, Items):
            tag = "ol" if b.ordered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{rich(item, strong='strong')}</li>" for item in b.items) + f"</{tag}>")
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
        elif isinstance(b, Items):
            tag = "ol" if b.ordered else "ul"
            out.append(f'<{tag} class="list">' + "".join(f"<li>{rich(item)}</li>" for item in b.items) + f"</{tag}>")
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
        elif isinstance(b, Items):
            tag = "ol" if b.ordered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{rich(item, entities=entities)}</li>" for item in b.items) + f"</{tag}>")
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
        elif isinstance(b, Items):
            tag = "ol" if b.ordered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{rich(item)}</li>" for item in b.items) + f"</{tag}>")
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

#: The articles, their text and how each page is laid out: data, beside this script.
ARTICLES_FILE = Path(__file__).with_name("labeled_articles.json")


def load_articles(path: Path = ARTICLES_FILE) -> list[Article]:
    """The articles of ``path``: one JSON record of :class:`Article`'s fields each (those at
    their default left out), each block one of ``{"para": text}``, ``{"sub": text}``,
    ``{"table": rows}``, ``{"list": {"items", "ordered"}}``, ``{"figure": {"src", "caption"}}``,
    ``{"hidden": {"class", "text"}}`` and ``{"remark": text}``."""
    articles = []
    for record in json.loads(path.read_text(encoding="utf-8")):
        fields = dict(record)
        fields["blocks"] = tuple(_block(block) for block in record["blocks"])
        for key in ("related", "comments"):
            if key in fields:
                fields[key] = tuple(tuple(item) for item in fields[key])
        if "topics" in fields:
            fields["topics"] = tuple(fields["topics"])
        articles.append(Article(**fields))
    return articles


def _block(record: dict[str, Any]) -> Block:
    ((kind, value),) = record.items()
    if kind == "para":
        return Para(value)
    if kind == "sub":
        return Sub(value)
    if kind == "table":
        return Table(tuple(tuple(row) for row in value))
    if kind == "figure":
        return Figure(value["src"], value["caption"])
    if kind == "hidden":
        return Hidden(value["class"], value["text"])
    if kind == "remark":
        return Remark(value)
    if kind == "list":
        return Items(tuple(value["items"]), bool(value.get("ordered", False)))
    raise ValueError(f"unknown block {kind!r} in {ARTICLES_FILE.name}")


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
        elif isinstance(b, Items):
            blocks.append(Items(tuple(q(item) for item in b.items), b.ordered))
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
    articles = sorted((prepare(a) for a in load_articles()), key=lambda a: a.id)
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
