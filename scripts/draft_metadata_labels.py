"""Draft publication-date, author, editor and source labels for the Chinese train pages.

For every train page of a corpus in the shared data folder (``<id>.html``, ``<id>.txt`` gold body text,
``<id>.json`` meta with ``split``), this script

1. turns the page into its visible text lines (scripts, styles, comments and ``display:none`` parts removed;
   a new line at every block element and ``<br>``; a bare label line such as ``作者：`` joined to the next);
2. finds the article's place in those lines: the headline (the ``<h1>`` text or the ``<title>`` before its
   ``_ - |`` site suffix) and the first and last lines of the gold text;
3. looks, in the lines around the headline and the start of the body and a few lines after the body's end,
   for the usual Chinese forms: a date with an optional time (``2011年12月09日 10:23``,
   ``2011-12-09 10:23:15``, ``2012.01.12 03:55 pm``, ``2011/12/9``, ``Jan 17, 2012``, Republic of China
   years such as ``民國100年12月9日``; ``+08:00`` only when the page says ``HKT`` or ``北京时间``), preferring
   one between the headline and the body and behind a label such as ``发布时间：``, ``发表于``, ``时间：``;
   authors, also inside the body (``记者 X``, ``作者：X``, ``文/X``, ``（记者X Y）`` in the dispatch line,
   ``【X╱台北報導】``); editors (``编辑：X``, ``责任编辑：X``, ``（X 编辑）``); the outlet (``来源：X``,
   ``稿源``, ``出处``, ``摘自``, ``【聯合報╱記者…】``), which is kept apart from the authors;
4. writes one draft record per page: ``date`` (ISO 8601, ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM[:SS]``),
   ``author``, ``editor``, ``source``, ``evidence`` (the page lines the values came from, a long line only
   around the value) and ``note``, plus, with ``--context``, the lines that were searched, for the reviewer.

The draft is only a start: each page is then read by hand and the labels in ``labeled/metadata/`` are the
corrected ones (see ``labeled/metadata/README.md``). Page-wide clocks ("今天是2011年12月9日"), copyright
years, related stories and comments are skipped by simple rules here, which miss cases a reader does not;
outlets standing unlabelled in a dateline and bylines in brackets at the end of the text are not drafted.

Usage::

    python scripts/draft_metadata_labels.py /work/shared/data/daniel_zh --out /tmp/daniel_zh.draft.json
    python scripts/draft_metadata_labels.py /work/shared/data/cwced_zh --out /tmp/cwced.json --context
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path

import lxml.html
from lxml import etree

BLOCK_TAGS = set(
    "address article aside blockquote body br caption center dd div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol option p pre section select table tbody td textarea "
    "tfoot th thead tr ul".split()
)
DROP_TAGS = {"script", "style", "noscript", "template", "head", "iframe", "object", "embed", "svg", "button"}
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
PREFIXED_TAG = re.compile(r"</?[A-Za-z_][\w.-]*:[\w.-]+[^>]*>")
SPACES = re.compile(r"[\s\u3000\xa0]+")

# A calendar date, optionally followed by a time. Years: 4 digits (Western) or a Republic of China year.
DATE_RE = re.compile(
    r"(?:(?P<roc>(?:中華民國|中华民国|民國|民国)\s*)(?P<ry>\d{2,3})|(?P<y>(?:19|20)\d\d))\s*"
    r"(?P<s1>[年\-/.])\s*(?P<m>\d{1,2})\s*[月\-/.]\s*(?P<d>\d{1,2})(?!\d)\s*日?"
    r"(?:\s*[(（]?\s*(?:星期|週|周|礼拜)[一二三四五六日天]\s*[)）]?)?"
    r"(?:\s*(?P<tz>HKT|香港時間|香港时间|北京时间|北京時間))?"
    r"(?:\s*(?P<ap>上午|下午|早上|晚上|中午|凌晨|AM|PM|am|pm)?\s*(?P<H>\d{1,2})\s*[:：时時點点]\s*(?P<M>\d{2})"
    r"(?:\s*[:：分]\s*(?P<S>\d{2}))?(?:\s*(?P<ap2>am|pm|AM|PM)\b)?)?"
)
# English month names: "Jan 17, 2012", "January 17, 2012 06:00 AM".
MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
EN_DATE_RE = re.compile(
    r"\b(?P<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(?P<d>\d{1,2}),?\s+(?P<y>(?:19|20)\d\d)"
    r"(?:\s+(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?\s*(?P<ap2>AM|PM|am|pm)?)?"
)
# A stated zone before the date: "北京时间 2012年01月17日 15:33".
TZ_BEFORE = re.compile(r"(?:HKT|香港時間|香港时间|北京时间|北京時間)\s*[:：]?\s*$")
# ROC year written as "100/12/09" (Taiwanese pages), without the 民國 word.
ROC_SLASH_RE = re.compile(
    r"(?<![\d/])(?P<ry>1\d\d)/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])"
    r"(?:\s*(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?)?"
)
DATE_LABEL = re.compile(
    r"(发布时间|發佈時間|發布時間|发表时间|發表時間|更新时间|更新時間|发稿时间|發稿時間|出版时间|出版時間|日期|"
    r"时间|時間|发表于|發表於|发布于|發佈於|发布日期|發佈日期|刊登日期|新聞日期|新闻日期|Posted|posted)"
)
PAGE_CLOCK = re.compile(r"今天是|今日是|今天：|今日：|現在時間|现在时间|當前時間|当前时间|北京时间.{0,3}现在")
FOOTER = re.compile(r"版权|版權|copyright|©|\(c\)|all rights|ICP|备案|備案", re.I)
NOT_A_NAME = (
    r"(?!来源|來源|稿源|出处|出處|作者|记者|記者|编辑|編輯|责任|責任|时间|時間|日期|发布|發佈|点击|點擊)"
)
NAME = (
    NOT_A_NAME + r"(?:[\u4e00-\u9fff]{1,4}|[\u4e00-\u9fffA-Za-z]+[·•][\u4e00-\u9fffA-Za-z]+|[A-Za-z]{2,20})"
)
NAME_SEP = r"(?:\s+|、|,|，|[／╱](?!.{0,4}(?:報導|报道)))"
NAMES = rf"{NAME}(?:{NAME_SEP}{NAME})*"
# What may follow a byline's names: a bracket, a slash, a space, the line's end, or a 报道/摄 word.
NAME_END = r"(?=$|[\s)）】〕\]／/|｜]|报道|報導|报导|摄|攝|电|電|发自|發自)"
REPORTER = (
    r"(?:本报|本報|本台|本刊|特派|特约|特約|实习|實習|见习|見習|首席|驻.{1,6}?|駐.{1,6}?)?"
    r"(?:记者|記者)"
)
AUTHOR_RES = [
    # 本报记者 张三 李四 / 記者王小明／台北報導 / （记者张建 周长庆） / 新华社记者张三 / 作者：实习记者 王璐
    re.compile(
        rf"(?:^|(?<=[\s(（【〔\[:：／╱/社网網台报報电電讯訊]))\s*{REPORTER}\s*[:：/／╱]?\s*(?P<n>{NAMES}){NAME_END}"
    ),
    re.compile(
        rf"(?:作者|撰文|撰稿|撰稿人|作\s*者|筆者|笔者)\s*[:：/／]\s*(?:{REPORTER}\s*)?(?P<n>{NAMES}){NAME_END}"
    ),
    re.compile(rf"(?:^|[\s(（【〔\[])文\s*[/／╱|｜]\s*(?P<n>{NAMES}){NAME_END}"),
    # 【林媛玲╱新北報導】: a Taiwanese byline without the word 記者
    re.compile(rf"[【〔\[](?P<n>{NAMES})[／╱/][^【】〔〕]{{0,6}}(?:報導|报道)"),
    re.compile(rf"(?:通讯员|通訊員|实习生|實習生)\s*[:：]?\s*(?P<n>{NAMES}){NAME_END}"),
    re.compile(
        rf"(?:发表者|發表者|楼主|樓主|发帖人|發帖人|帖主|Posted by|posted by|By|by)\s*[:：]?\s*"
        rf"(?P<n>{NAMES}){NAME_END}"
    ),
]
EDITOR_RE = re.compile(
    r"(?:责任编辑|責任編輯|责编|責編|编辑|編輯|编审|編審)\s*[:：]?\s*"
    r"(?P<n>[\u4e00-\u9fff·A-Za-z0-9_]{2,16}(?:(?:\s+|、|,|，)[\u4e00-\u9fff·A-Za-z0-9_]{2,16})*)"
    r"|[(（]\s*(?P<n2>[\u4e00-\u9fff]{2,4})\s*(?:编辑|編輯|责编|責編)\s*[)）]"
)
SOURCE_RE = re.compile(
    r"(?:(?<!资料)(?<!資料)(?:来源|來源|来自|來自|出处|出處|稿源|消息来源|消息來源)\s*[:：]|摘自)\s*(?:于|於)?\s*"
    r"[《【\[]?(?P<s>[^\s|｜:：《》【】\[\]()（）]{2,30}?)[》】\]]?"
    r"(?=$|\s|[|｜()（）\[\]【】]|作者|记者|記者|编辑|編輯|责任|責任|发布|發佈|时间|時間|日期|点击|點擊|浏览|瀏覽|字号|字體)"
)
ROLE_WORDS = set(
    "实习生 實習生 通讯员 通訊員 记者 記者 见习 見習 实习 實習 摄影 攝影 调查 調查 报道 報導 "
    "综合 綜合 整理 编译 編譯 即时播报 特约 特約 本报 本報 来源 來源".split()
)
BRACKET_SOURCE_RE = re.compile(
    r"[【〔\[](?P<s>[^【】〔〕\[\]／╱/\s]{2,10}?)(?:專訊|专讯|[／╱/](?:記者|记者|特派))"
)
STOP_NAME_TAIL = re.compile(r"(报道|報導|报导|摄影|攝影|摄|攝|电|電|讯|訊|综合|綜合|整理|编译|編譯)$")
EVIDENCE_CHARS = 100  # a longer line is quoted only around the value
LINES_BEFORE_HEADLINE = 4
LINES_AFTER_BODY_START = 4
LINES_AFTER_BODY_END = 6


def visible_lines(html: str) -> tuple[list[str], str, list[str]]:
    """The page's visible text lines, its ``<title>`` text and its ``<h1>`` texts."""
    html = PREFIXED_TAG.sub("", html)  # libxml2 drops the body after tags such as <sohu_cms_include:x>
    try:
        root = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return [], "", []
    title = " ".join(SPACES.sub(" ", t.text_content()).strip() for t in root.iter("title"))
    h1s = [SPACES.sub(" ", h.text_content()).strip() for h in root.iter("h1")]
    parts: list[str] = []

    def add(text: str | None) -> None:
        if text:
            parts.append(SPACES.sub(" ", text))  # the source's own line breaks are not visible breaks

    def walk(el: etree._Element) -> None:
        if not isinstance(el.tag, str):  # a comment or processing instruction: only its tail shows
            add(el.tail)
            return
        tag = el.tag.lower()
        if tag in DROP_TAGS or HIDDEN_STYLE.search(el.get("style") or ""):
            add(el.tail)
            return
        block = tag in BLOCK_TAGS
        if block:
            parts.append("\n")
        add(el.text)
        for child in el:
            walk(child)
        if block:
            parts.append("\n")
        add(el.tail)

    body = root.find("body")
    walk(body if body is not None else root)
    lines = [SPACES.sub(" ", line).strip() for line in "".join(parts).split("\n")]
    return [line for line in lines if line], title, h1s


def _key(text: str) -> str:
    return re.sub(r"[\W_]+", "", text)


def headline_candidates(title: str, h1s: list[str], meta_title: str | None) -> list[str]:
    """Headline strings to look for: the h1 texts and the title before its site suffix."""
    out = [h for h in h1s if len(_key(h)) >= 4]
    for t in (meta_title or "", title):
        head = re.split(r"\s*(?:_|\||｜|--| - |－|—{1,2}|::)\s*", t)[0]
        if len(_key(head)) >= 4:
            out.append(head)
    return out


def find_line(lines: list[str], needle: str, start: int = 0) -> int | None:
    """Index of the first line from ``start`` holding the start of ``needle`` (punctuation ignored)."""
    key = _key(needle)[:14]
    if len(key) < 4:
        return None
    for i in range(start, len(lines)):
        if key in _key(lines[i]):
            return i
    return None


def find_headline(lines: list[str], heads: list[str], body_start: int | None) -> int | None:
    """The headline line: the last headline match at or before the body's start (else the first match)."""
    best = None
    for head in heads:
        key = _key(head)[:14]
        if len(key) < 4:
            continue
        limit = 3 * len(key) + 40
        hits = [i for i, line in enumerate(lines) if key in _key(line) and len(_key(line)) < limit]
        if not hits:
            continue
        if body_start is not None:
            before = [i for i in hits if i <= body_start]
            hit = before[-1] if before else None
        else:
            hit = hits[0]
        if hit is not None and (best is None or hit > best):
            best = hit
    return best


def iso(match: re.Match[str], roc: bool = False) -> str | None:
    """The ISO 8601 form of a date match, with the time when the match has one."""
    return iso_fields(match.groupdict(), roc)


def iso_fields(g: dict, roc: bool = False) -> str | None:
    """The ISO 8601 form of date fields (y or ry, m, d; optional H, M, S and am/pm)."""
    year = int(g["ry"]) + 1911 if roc or g.get("ry") else int(g["y"])
    month, day = int(g["m"]), int(g["d"])
    if not (1 <= month <= 12 and 1 <= day <= 31 and 1990 <= year <= 2030):
        return None
    out = f"{year:04d}-{month:02d}-{day:02d}"
    if g.get("H") is not None:
        hour, minute = int(g["H"]), int(g["M"])
        half = g.get("ap") or g.get("ap2")
        if half in ("下午", "晚上", "PM", "pm") and hour < 12:
            hour += 12
        elif half in ("AM", "am") and hour == 12:
            hour = 0
        if hour > 23 or minute > 59:
            return out
        out += f"T{hour:02d}:{minute:02d}"
        if g.get("S") is not None:
            out += f":{int(g['S']):02d}"
    return out


def dates_in(line: str) -> list[tuple[str, int]]:
    """(ISO date, position) for each date in a line (full-width digits read as digits)."""
    line = unicodedata.normalize("NFKC", line)
    found = []
    for m in DATE_RE.finditer(line):
        if not m.group("roc") and m.group("s1") == "." and m.group("H") is None and len(m.group(0)) < 8:
            continue
        value = iso(m)
        if value and "T" in value and (m.group("tz") or TZ_BEFORE.search(line[: m.start()])):
            value += "+08:00"  # Hong Kong and Beijing time, when the page says so
        if value:
            found.append((value, m.start()))
    for m in EN_DATE_RE.finditer(line):
        fields = m.groupdict() | {"m": str(MONTHS.index(m.group("mon").lower()) + 1)}
        value = iso_fields(fields)
        if value:
            found.append((value, m.start()))
    for m in ROC_SLASH_RE.finditer(line):
        value = iso(m, roc=True)
        if value:
            found.append((value, m.start()))
    return found


def clean_names(raw: str) -> str | None:
    """Names only, one space apart: 报道/摄影 words and places dropped, padded names ("蒋 凌") joined."""
    raw = re.split(r"[／/](?=.{0,6}(?:報導|报道|报导|電|电))", raw)[0]
    names: list[str] = []
    pending = ""
    for name in re.split(r"\s+|、|,|，|／", raw):
        name = STOP_NAME_TAIL.sub("", name.strip("·•"))
        if name in ROLE_WORDS:
            continue
        if len(name) == 1:
            pending += name
            if len(pending) == 2:
                names.append(pending)
                pending = ""
        elif len(name) >= 2:
            names.append(name)
    return " ".join(names) or None


LABEL_END = re.compile(
    r"(?:作者|记者|記者|来源|來源|稿源|出处|出處|编辑|編輯|责编|責編|时间|時間|日期|发表于|發表於|文)\s*[:：/／]?\s*$"
    r"|[:：【\[(（]\s*$"
)


LABEL_START = re.compile(
    r"[【\[(（]?\s*(?:作者|记者|記者|来源|來源|稿源|出处|出處|编辑|編輯|责任编辑|責任編輯|时间|時間|日期)"
)


def search_text(lines: list[str], i: int) -> str:
    """Line ``i``, joined with the next lines while it ends in a bare label ("作者：" then "蒋 凌")."""
    text, j = lines[i], i
    while LABEL_END.search(text) and j + 1 < len(lines) and len(text) < 200:
        if LABEL_START.match(lines[j + 1]):
            break
        j += 1
        text += " " + lines[j]
    return text


def window(lines: list[str], head: int | None, body_start: int | None, body_end: int | None) -> list[int]:
    """Line indices to search: around the headline and the body's start, and just after the body's end."""
    idx: set[int] = set()
    if head is not None and body_start is not None and head <= body_start and body_start - head <= 40:
        idx.update(range(max(0, head - LINES_BEFORE_HEADLINE), body_start + LINES_AFTER_BODY_START))
    elif body_start is not None:
        idx.update(range(max(0, body_start - 15), body_start + LINES_AFTER_BODY_START))
    elif head is not None:
        idx.update(range(max(0, head - LINES_BEFORE_HEADLINE), head + 15))
    if body_end is not None:
        idx.update(range(max(0, body_end - 1), body_end + LINES_AFTER_BODY_END))
    return sorted(i for i in idx if i < len(lines))


def draft_page(html: str, gold: str, meta: dict) -> dict:
    """The draft record of one page."""
    lines, title, h1s = visible_lines(html)
    gold_lines = [g.strip() for g in gold.splitlines() if len(_key(g)) >= 4]
    body_start = find_line(lines, gold_lines[0]) if gold_lines else None
    body_end = None
    if gold_lines and body_start is not None:
        for g in reversed(gold_lines[-3:]):
            body_end = find_line(lines, g, body_start)
            if body_end is not None:
                break
    head = find_headline(lines, headline_candidates(title, h1s, meta.get("title")), body_start)
    searched = window(lines, head, body_start, body_end)
    record: dict = dict.fromkeys(("date", "author", "editor", "source", "evidence", "note"))
    notes: list[str] = []

    cited: dict[int, list[int]] = {}  # line -> the stretch quoted from it, in citation order

    def cite(i: int, start: int = 0, end: int = 0) -> None:
        """Quote line i; of a long line only the stretch around the values found in it."""
        lo, hi = max(0, start - 30), max(end, start + 20) + 30
        if i in cited:
            cited[i] = [min(cited[i][0], lo), max(cited[i][1], hi)]
        else:
            cited[i] = [lo, hi]

    anchor = body_start if body_start is not None else (head if head is not None else 0)
    date_hits = []
    for i in searched:
        line = search_text(lines, i)
        if PAGE_CLOCK.search(line) or (FOOTER.search(line) and (body_end is None or i > body_end)):
            continue
        for value, pos in dates_in(line):
            labelled = bool(DATE_LABEL.search(line[:pos]))
            in_head_zone = head is not None and head <= i <= anchor
            rank = (0 if in_head_zone else 1, 0 if labelled else 1, 0 if "T" in value else 1, abs(i - anchor))
            date_hits.append((rank, i, value, pos))
    if date_hits:
        date_hits.sort()
        _, i, value, pos = date_hits[0]
        record["date"] = value
        cite(i, pos, pos + len(value))
        if len({hit[2][:10] for hit in date_hits}) > 1:
            others = sorted({hit[2] for hit in date_hits[1:]})
            notes.append("other dates near the article: " + ", ".join(others))
    authors: list[str] = []
    # Bylines also stand inside the body ("本报记者 X" after a section, "采写：X" before a sidebar).
    body = range(body_start, body_end + 1) if body_start is not None and body_end is not None else range(0)
    for i in sorted(set(searched) | set(body)):
        line = search_text(lines, i)
        if FOOTER.search(line) and (body_end is None or i > body_end):
            continue
        probe = EDITOR_RE.sub(lambda m: " " * len(m.group()), line)  # same length: positions still hold
        for rx in AUTHOR_RES:
            for m in rx.finditer(probe):
                names = clean_names(m.group("n"))
                if names and names not in authors and names not in " ".join(authors):
                    authors.append(names)
                    cite(i, m.start(), m.end())
        m = EDITOR_RE.search(line)
        if m and record["editor"] is None:
            record["editor"] = clean_names(m.group("n") or m.group("n2"))
            cite(i, m.start(), m.end())
        m = SOURCE_RE.search(line) or BRACKET_SOURCE_RE.search(line)
        if m and record["source"] is None:
            record["source"] = m.group("s").strip("　 ")
            cite(i, m.start(), m.end())
    if authors:
        record["author"] = " ".join(authors)
    if record["source"] and record["author"] and record["source"] in record["author"].split():
        notes.append("author equals the source outlet")
    if head is None:
        notes.append("headline not found in the page text")
    if body_start is None:
        notes.append("gold body not found in the page text")
    evidence = []
    for i, (lo, hi) in cited.items():
        line = search_text(lines, i)
        if len(line) > EVIDENCE_CHARS:
            hi = min(hi, len(line))
            line = ("…" if lo else "") + line[lo:hi] + ("…" if hi < len(line) else "")
        if line not in evidence:
            evidence.append(line)
    record["evidence"] = " | ".join(evidence) or None
    record["note"] = "; ".join(notes) or None
    marks = (head, body_start, body_end)
    record["_lines"] = [f"{i:4d}{'*' if i in marks else ' '} {lines[i]}" for i in searched]
    return record


def train_ids(corpus: Path) -> list[str]:
    """Ids of the corpus's train pages, sorted."""
    out = []
    for meta_path in sorted(corpus.glob("*.json")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("split") == "train":
            out.append(meta_path.stem)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("corpus", type=Path, help="corpus folder with <id>.html, <id>.txt and <id>.json")
    parser.add_argument("--out", type=Path, required=True, help="draft JSON to write")
    parser.add_argument("--context", action="store_true", help="keep the searched lines under '_lines'")
    args = parser.parse_args(argv)
    drafts = {}
    for page_id in train_ids(args.corpus):
        meta = json.loads((args.corpus / f"{page_id}.json").read_text(encoding="utf-8"))
        html = (args.corpus / f"{page_id}.html").read_text(encoding="utf-8", errors="replace")
        gold = (args.corpus / f"{page_id}.txt").read_text(encoding="utf-8", errors="replace")
        record = draft_page(html, gold, meta)
        if not args.context:
            record.pop("_lines")
        drafts[page_id] = record
    text = json.dumps(drafts, ensure_ascii=False, indent=1, sort_keys=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    counts = {k: sum(1 for r in drafts.values() if r[k]) for k in ("date", "author", "editor", "source")}
    drafted = ", ".join(f"{k} {v}" for k, v in counts.items())
    print(f"{args.corpus.name}: {len(drafts)} train pages; drafted {drafted}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
