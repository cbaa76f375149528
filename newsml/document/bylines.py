"""Bylines and datelines as pages show them, in English and Chinese: who wrote the article,
which outlet it came from, and whether a date line is the publication or an update.

A Chinese line often names several things at once (``来源：新华网 作者：张三 2019年08月12日``):
the outlet after 来源 (source, never the author), the author after 作者, 记者 or 文/, and
an editor (编辑, 责编), who is not the author.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..core.text import dictionary_flags, tagged_words
from ..dom.page import Page
from .dates import ANY_MONTH, ENGLISH_MONTH, ENGLISH_MONTHS

_HAN_NAME = r"[\u4e00-\u9fff·•]{2,5}"
_NAMES = rf"{_HAN_NAME}(?:[ \u3000、，,和及]+{_HAN_NAME})*"
#: Chinese labels of a line's parts; each value runs to the next label or the end.
_ZH_LABEL_WORDS = (r"来源|來源|出处|出處|来自|作者|撰文|记者|記者|通讯员|通訊員|文\s*[/／]|"
                   r"责任编辑|責任編輯|责编|責編|编辑|編輯|发布时间|發佈時間|发布日期|发表时间|發表時間|"
                   r"时间|時間|日期|"
                   r"浏览|瀏覽|点击|點擊|字号|字體|字体")
_ZH_LABELS = re.compile(rf"({_ZH_LABEL_WORDS})\s*[:：]?\s*")
_ZH_ROLES = {"来源": "source", "來源": "source", "出处": "source", "出處": "source", "来自": "source",
             "作者": "author", "撰文": "author", "记者": "author", "記者": "author", "通讯员": "author",
             "通訊員": "author", "文/": "author", "责任编辑": "editor", "責任編輯": "editor",
             "责编": "editor", "責編": "editor", "编辑": "editor", "編輯": "editor"}
_EN_BY = re.compile(r"^\s*(?:(?:story|words|written|reported|text|article)\s+)?"
                    r"(?:by|von|par|por|di|door)[:\s]+(.+)$", re.IGNORECASE)
_EN_END = re.compile(r"\s*(?:[|•·]|\bupdated\b|\bpublished\b|\bposted\b|\bon\s+\w+day\b|\bon\s+\d|"
                     r"\b(?:publiziert|veröffentlicht|aktualisiert|publié|publicado|actualizado|pubblicato|"
                     r"gepubliceerd)\b|"
                     r"\d{1,2}:\d{2}|\b(?:19|20)\d{2}\b|,\s*(?:staff|senior|chief|special|contributing|"
                     r"associated|the\s)|,\s*[\w .'-]*\b(?:reporter|correspondent|editor|writer|columnist|"
                     r"contributor|producer|critic|analyst)s?\b|\s-+\s).*$", re.IGNORECASE)
#: A time span after a number (``5 hours ago``, ``9 min read``), which no day starts.
_SPAN = r"(?:min(?:ute)?s?|hours?|hrs?|days?|weeks?|months?)\b"
#: Where a date after a byline's names starts when its year did not end them: a month and
#: a day (``Dec 15``; not ``May 5 hours ago`` nor the ``May`` of ``May 12 December``), a day
#: and a month of the languages :mod:`dates` reads (``14 Dec``, ``15 mars``, ``15. März``,
#: ``15 de marzo``), ``15/12/``, a weekday after a name and before a date (``Smith
#: Wednesday 14 Dec``; ``Sunday Aborisade`` and ``The Sunday Times`` are names), a dash
#: between spaces, or a time ago or a reading time.
_EN_DATE_START = re.compile(rf"\s*(?:\b{ENGLISH_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
                            rf"(?!\s*{_SPAN})(?!\s+{ENGLISH_MONTH}(?!\w))|"
                            rf"\b\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s+(?:de\s+)?{ANY_MONTH}(?!\w)|"
                            r"\b\d{1,2}[/.]\d{1,2}[/.]|"
                            rf"(?<=\S\s)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?=,|\s+(?:\d|{ENGLISH_MONTH}(?!\w)))|"
                            r"\s[–—]\s|\b\d+\s*(?:minutes?|hours?|days?)\s+ago\b|\b\d+\s*min(?:ute)?s?\s+read\b)"
                            r".*$", re.IGNORECASE)
#: A date's label run into the names without a space (``SanSonePublished: Dec 20``).
_EN_GLUED_LABEL = re.compile(r"(?<=[a-z])(?:Published|Updated|Posted)\b.*$")
#: A capitalized English month and a day glued to the word before it, as a theme joins a
#: byline's name and its date ("by Jeffrey ZeldmanNovember 20, 2007").
_CAPITAL_MONTHS = sorted((month.capitalize() for month in ENGLISH_MONTHS), key=len, reverse=True)
_GLUED_MONTH = re.compile(r"(?<=[a-z])(?=(?:" + "|".join(_CAPITAL_MONTHS) + r")\.?\s*\d)")
#: "By" glued to the name after it ("ByTrevor Jones").
_GLUED_BY = re.compile(r"^(\s*)By(?=[A-Z][a-z])")
#: Marks a byline's names may be left ending with once a date is cut.
_DANGLING_MARKS = " \t\n,;:-–—»›>|●•·"
#: Joining words a cut date may leave at the end of the names (English, and the French
#: "le", German "am", Spanish "el", Italian "il", Portuguese "em", Dutch "op"), in lower
#: case: a name's own "Le" or "Am" stays.
_JOINING_WORDS = frozenset({"at", "on", "in", "le", "am", "el", "il", "em", "op"})
#: ... and in a byline all in capitals, the English ones alone: "PHUONG LE" and "OMAR EL"
#: are names.
_CAPITAL_JOINING_WORDS = frozenset({"AT", "ON", "IN"})
#: Longer lines are no byline (and are not searched for one).
MAX_BYLINE_CHARS = 300
_UPDATED = re.compile(r"\b(?:updated?|modified|last\s+edited|revised|aktualisiert|mis à jour|actualizado)\b|"
                      r"更新|修改|最后编辑|最後編輯", re.IGNORECASE)
_PUBLISHED = re.compile(r"\b(?:published|posted|first published|veröffentlicht|publié)\b|发布|發佈|发表|發表|"
                        r"刊登|出版", re.IGNORECASE)
#: Words a byline may end with that are no name (roles, outlets of wire copy).
_NOT_NAMES = re.compile(r"^(?:staff|reporter|correspondent|editor|writer|contributor|"
                        r"(?:the\s+)?associated\s+press|reuters|afp|ap|bloomberg)$", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_NAMES_RE = re.compile(_NAMES)
#: Names, then where a run of names ends (a stop, a bracket, 报道 "reports", 电 "cables").
_NAMES_THEN_END = re.compile(_NAMES + r"(?=$|[\s\u3000／/╱）)】\]，,。;；]|报道|報導|发自|發自|电|電)")
_HAN_CHAR = re.compile(r"[\u4e00-\u9fff]")
#: Two Chinese characters of one name that a space splits (马 燕).
_SPLIT_NAME = re.compile(r"^([\u4e00-\u9fff])\s+([\u4e00-\u9fff])(?=$|\s)")
_SPACE_IN_NAME = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff](?:$|\s))")
_NAME_SEPARATORS = re.compile(r"[ \u3000、，,和及]+")
#: The word before a byline's names, alone on its line.
_BARE_BY = re.compile(r"\s*(?:by|written by|posted by|words by|authors?|written|von|par|por|"
                      r"作者|记者|記者|文)\s*[:：/／]?\s*", re.IGNORECASE)
_WORDS = re.compile(r"[^\W\d_]+")
#: Where a labelled value ends: wide spaces, a bar, a date or a clock.
_VALUE_END = re.compile(r"\s{2,}|[|｜丨]|(?:19|20)\d{2}[-/.年]|\d{1,2}:\d{2}")


def chinese_parts(line: str) -> dict[str, str]:
    """The labelled parts of a Chinese byline or dateline: ``source``, ``author`` and
    ``editor`` (each the text after its label, up to the next label), as the line has them."""
    found: dict[str, str] = {}
    matches = list(_ZH_LABELS.finditer(line))
    titled = False              # (the label before this one was glued to it as a title)
    for at, match in enumerate(matches):
        label = _SPACES.sub("", match.group(1)).replace("／", "/")
        role = _ZH_ROLES.get(label)
        if titled and role in ("author", "editor"):
            role = "author"         # (作者：见习编辑 李琼皙: the trainee editor wrote it)
        if role is None or role in found:
            titled = False
            continue
        end = matches[at + 1].start() if at + 1 < len(matches) else len(line)
        raw = line[match.end():end]
        if label in _WRITER_LABELS and _is_title(raw, matches[at + 1] if at + 1 < len(matches) else None):
            titled = True           # (作者：实习记者 王璐: 实习 is the title 记者 is glued to)
            continue
        value = _clean_value(raw)
        if role == "author":
            if not titled and not _starts_a_part(line, match.start()):
                continue            # (记者 in running prose: "…told the 记者 that…")
            value = _SPLIT_NAME.sub(r"\1\2", value)  # (马 燕)
            names = _NAMES_THEN_END.match(value)
            photographer = names is not None and (names.group(0).endswith(_CREDIT_ENDS)
                                                  or value[names.end():].lstrip().startswith(_CREDIT_ENDS)
                                                  or _PHOTO_CREDIT.search(_part_before(line, match.start())))
            reports = names is not None and value[names.end():].startswith(_REPORTS)
            value = _names(names.group(0), reports) if names and not photographer else ""
            if value and label in _REPORTER_LABELS and not _reads_as_reporter(value):
                value = ""          # (记者调查, 记者即时播报: what the reporter did, no name)
        titled = False
        if value:
            found[role] = value
    return found


def _without_place(names: list[str]) -> list[str]:
    """Names that ran into 报道 ("reports") without the place they report from between: the
    last word when the names are several and it is a place by jieba's dictionary (彭冲
    山东冠县报道), else the last two characters of the last word of four or more when
    they are one (林宜靜台北報導)."""
    if len(names) > 1 and _is_place(names[-1]):
        return names[:-1]
    last = names[-1]
    if len(last) >= 4 and _is_place(last[-2:]) and not _is_place(last):
        return [*names[:-1], last[:-2]]
    return names


def _is_place(word: str) -> bool:
    """Whether jieba's dictionary reads ``word``'s first word as a place (ns)."""
    flags = dictionary_flags(word)
    return bool(flags) and flags[0][1] == "ns"


#: A picture's credit before a reporter's label in the same part (图/潇湘晨报记者 华剑).
_PHOTO_CREDIT = re.compile(r"[图圖][/／:：]|摄影|攝影")
_PART_SEPARATOR = re.compile(r"[\s\u3000，,。;；|｜]")


def _part_before(line: str, at: int) -> str:
    """The text of ``line`` before ``at`` back to the part's start (a space or a separator)."""
    separators = list(_PART_SEPARATOR.finditer(line, 0, at))
    return line[separators[-1].end() if separators else 0:at]


#: The labels of a reporter, who signs with a name (a pen name follows 作者 or 文/).
_REPORTER_LABELS = frozenset({"记者", "記者", "通讯员", "通訊員"})
#: jieba's flags of a word that starts no name: a verb, an adverb, a conjunction, a
#: pronoun, a preposition, a word of time (近日 "recently").
_NOT_NAME_START = frozenset("v vn vd c d r p t".split())


#: The common Chinese surnames (simplified and traditional): a name of two or three
#: characters that starts with one is a name, whatever jieba's dictionary says of it (付强
#: is a verb there).
_SURNAMES = frozenset(
    "王李张張刘劉陈陳杨楊黄黃赵趙吴吳周徐孙孫马馬朱胡郭何高林罗羅郑鄭梁谢謝宋唐许許韩韓冯馮邓鄧曹彭"
    "曾肖蕭萧田董袁潘于蒋蔣蔡余杜叶葉程苏蘇魏吕呂丁任沈姚卢盧姜崔钟鍾谭譚陆陸汪范範金石廖贾賈夏韦韋"
    "付傅方白邹鄒孟熊秦邱江尹薛闫閻段雷侯龙龍史陶黎贺賀顾顧毛郝龚龔邵万萬钱錢严嚴覃武戴莫孔向汤湯"
    "常温溫康施文牛樊葛邢安齐齊易乔喬伍庞龐颜顏倪庄莊聂聶章鲁魯岳翟殷詹申欧歐耿关關兰蘭焦俞左柳甘"
    "祝包宁寧尚符舒阮柯纪紀梅童凌毕畢单單季裴霍涂塗成苗谷盛曲翁冉骆駱蓝藍路游辛靳管柴蒙鲍鮑华華喻"
    "祁蒲房滕屈饶饒解牟艾尤阳陽时時穆农農司卓古吉缪繆简簡车車项項连連芦蘆麦麥褚娄婁窦竇戚岑景党"
    "宫宮费費卜冷晏席卫衛米柏宗瞿桂全佟应應臧闵閔苟邬鄔边邊卞姬师師和仇栾欒隋商刁沙荣榮巫寇桑郎甄"
    "丛叢仲虞敖巩鞏明佘池查麻苑迟遲邝鄺官封谈談匡鞠惠荆荊乐樂冀郁胥南班储儲原栗燕楚鄢劳勞谌諶奚皮"
    "粟冼蔺藺楼樓盘盤满滿闻聞位厉厲伊仝区區郜海阚闞花权權强強帅帥屠豆朴盖蓋练練廉禹井祖漆巴丰鲜鮮"
    "居")


def _reads_as_reporter(value: str) -> bool:
    """Whether what follows a reporter's label reads as a name: two or three characters
    after a common surname; else, by jieba's dictionary, its first word is not a verb,
    adverb, conjunction, pronoun or preposition, no word of two characters or more is a
    verb, and no verb of one character comes before more text (记者调查 "the reporter
    investigated", 记者即时播报, 记者联系到刘冬 "the reporter reached Liu Dong"; 格桑边觉
    ends with one). A name is mostly a word the dictionary does not hold."""
    first = value.split()[0]
    if first[:1] in _SURNAMES and len(first) <= 3:
        return True
    words = dictionary_flags(first)
    if not words or words[0][1] in _NOT_NAME_START:
        return not words
    return not any(flag in ("v", "vn") and (len(word) > 1 or at < len(words) - 1)
                   for at, (word, flag) in enumerate(words))


#: The labels of the writer (作者 "author", 撰文 "written by"), which a title may follow.
_WRITER_LABELS = frozenset({"作者", "撰文"})
#: The titles written before a reporter's or editor's label (实习 "trainee", 见习, 特约
#: "special", 首席 "chief", 本刊 "this magazine's", 驻站 "resident").
_TITLES_BEFORE_LABEL = frozenset("实习 實習 见习 見習 特约 特約 首席 本刊 本报 本報 驻站 駐站 资深 資深 "
                                 "高级 高級 特派 签约 簽約".split())


def _is_title(raw: str, following: re.Match[str] | None) -> bool:
    """Whether the text after a writer's label is a title glued to the reporter's or
    editor's label that follows it without a colon (作者：实习记者 王璐), not the writer's
    name."""
    if following is None or any(mark in following.group(0) for mark in ":："):
        return False                # (作者：张三编辑：李四: the editor's own part)
    label = _SPACES.sub("", following.group(1)).replace("／", "/")
    return _ZH_ROLES.get(label) in ("author", "editor") and raw.lstrip() in _TITLES_BEFORE_LABEL


def chinese_source(line: str) -> str | None:
    """The outlet a Chinese line names after its 来源 (出处, 来自) label, or None: the label
    must start a part of the line (来自 in running prose, "来自四面八方的压力", is no label),
    and the outlet is its first word without a place in brackets after it ("京华时报(北京)
    有0人参与" gives 京华时报); a value with sentence punctuation or markup is no outlet."""
    matches = list(_SOURCE_LABELS.finditer(line))
    for at, match in enumerate(matches):
        if not match.group(1) or not _starts_a_part(line, match.start()):
            continue
        end = matches[at + 1].start() if at + 1 < len(matches) else len(line)
        value = _clean_value(line[match.end():end])
        if _HAN_CHAR.search(value):
            value = value.split()[0] if value.split() else ""     # (an outlet's name has no space)
        value = _PLACE_AFTER.sub("", value).strip()
        if value and not _NOT_OUTLET.search(value) and len(value) <= MAX_OUTLET_CHARS:
            return value
        return None
    return None


#: The labels of an outlet (稿源 "manuscript source", 摘自 "excerpted from"), and the other
#: labels of a byline line, where the outlet's value ends.
_SOURCE_LABELS = re.compile(rf"(?:(来源|來源|出处|出處|来自|稿源|稿件来源|稿件來源|摘自)|{_ZH_LABEL_WORDS})"
                            r"\s*[:：]?\s*")
#: An outlet name is at most this long (京华时报, 中工网-工人日报, 21世纪经济报道).
MAX_OUTLET_CHARS = 30
#: A place in brackets after an outlet (京华时报(北京)).
_PLACE_AFTER = re.compile(r"[（(][^（()）]{1,8}[)）]?$")
#: What no outlet's name holds: sentence punctuation, markup; nor is "reprinted" (转载) one.
_NOT_OUTLET = re.compile(r"[。，；！？=\"<>]|^转载|^轉載")
_PART_START = re.compile(r"(?:^|[\s\u3000（(【\[|｜丨:：，,/／╱]|本报|本報|特约|特約|新华社|新華社|中新社|"
                         r"中新网|中新網|[报報社网網台刊]|频道|頻道|新闻|新聞)$")
#: Text in brackets near a paragraph's start or end: （记者 张三）, 【聯合報╱記者張嘉芳／台北報導】.
_BRACKETED = re.compile(r"[（(【\[〔]([^（(【\[〔）)】\]〕]{2,40})[）)】\]〕]")
#: What a bracket holds besides names: an outlet, a reporter's label, a place and 报道.
_OUTLET_FIRST = re.compile(r"^\s*\S*?(?:网|網|报|報|社|台|电视台|電視台)(?:\s+|[╱/／]|(?=记者|記者))")
_LABEL = re.compile(r"^\s*(?:本报|本報|本刊|特约|特約)?\s*(?:记者|記者|作者|文|通讯员|通訊員|编译|編譯)"
                    r"\s*[:：/／]?\s*")
_PLACE_REPORT = re.compile(r"\s*[╱/／|].*$|\s*(?:报道|報導|发自|發自)\S*$")
#: A dispatch's place of two characters and its day after the name (劉世怡台北11日電):
#: the name left must be one of two or three characters (a longer place leaves more).
_DISPATCH = re.compile(r"[\u4e00-\u9fff]{2}\d{1,2}日[电電]$")
_ONE_NAME = re.compile(r"[\u4e00-\u9fff]{2,3}")
#: Words of an organisation, not of a person's name.
_ORGANISATION = re.compile(r"网|網|报|報|社|台|频道|頻道|新闻|新聞|中心|在线|在線|播报|播報|编辑部|編輯部|"
                           r"公司|集团|集團|财讯|財訊|财经|財經|资讯|資訊|快讯|快訊|传媒|傳媒|媒体|媒體|"
                           r"杂志|雜誌|周刊|週刊|[A-Za-z]")


def _starts_a_part(line: str, at: int) -> bool:
    """Whether a label at ``at`` starts a part of a byline line (its start, or after a space,
    a bracket, a separator or an outlet's word), not a word in running prose (举报记者 "to
    report to a reporter")."""
    before = line[max(at - 4, 0):at]
    return at == 0 or _PART_START.search(before) is not None and _REPORTING_VERB.search(before) is None


#: Words ending in 报 that are verbs, not an outlet: 举报 "report (a crime)", 通报, 预报...
_REPORTING_VERB = re.compile(r"[举舉通预預汇匯情警电電简簡回申播转轉填上呈谎謊][报報]$")


def bracketed_author(text: str) -> str | None:
    """The reporter a paragraph names in brackets near its start or end (（记者 张三）,
    【聯合報╱記者張嘉芳／台北報導】, （新民网 李欣）, ……（高健）), or None."""
    for part in (text[:60], text[-60:]):
        for match in _BRACKETED.finditer(part):
            names = _bracket_names(match.group(1))
            if names:
                return names
    return None


def _bracket_names(content: str) -> str | None:
    """The names a bracket holds once its outlet, label and place are taken away, or None
    when anything else is left (a bracket of prose)."""
    content = _OUTLET_FIRST.sub("", content, count=1)
    content, labelled = _LABEL.subn("", content, count=1)
    content = _PLACE_REPORT.sub("", content).strip()
    content, dispatched = _DISPATCH.subn("", content)
    if dispatched and not _ONE_NAME.fullmatch(content):
        return None                             # (劉世怡華盛頓11日電: where the name ends is not known)
    content = _SPACE_IN_NAME.sub("", content)  # (马 燕: one name)
    if content.endswith(_CREDIT_ENDS) or not labelled and content.endswith(("图", "圖")):
        return None                             # (林務局提供, 高清大图: a picture's credit)
    if _NAMES_RE.fullmatch(content) and not _ORGANISATION.search(content) and not _TITLE.search(content):
        return _names(content)
    return None


#: How a picture's or a chart's credit ends: "provided", "picture", "photographed", "compiled".
_CREDIT_ENDS = ("提供", "供图", "供圖", "资料图", "資料圖", "摄", "攝", "编制", "編製", "制图", "製圖")


#: A position, not a person's name: a bracket that spells out an abbreviation, "COO(首席运营官)".
_TITLE = re.compile(r"官$|首席|总裁|總裁|经理|經理|董事|主席|部长|部長|局长|局長|发言人|發言人|主任|"
                    r"院长|院長|校长|校長|教授|分析师|分析師|律师|律師")


def is_person(name: str) -> bool:
    """Whether a declared Chinese author looks like a person's name, not the site's or an
    outlet's (网易, 即时播报)."""
    return not _HAN_CHAR.search(name) or (
        _NAMES_RE.fullmatch(name.strip()) is not None and _ORGANISATION.search(name) is None)


#: jieba's flags of the words a name or pen name holds: nouns, names, words it does not know.
_NAME_FLAGS = frozenset("n nr nrt nrfg ng nz x eng".split())
#: Flags jieba gives to what it does not know, and to spaces and punctuation too: such a
#: word counts only when it holds a letter or a character (打印 关闭 is two buttons).
_UNKNOWN_FLAGS = frozenset({"x", "eng"})


def reads_as_name(line: str) -> bool:
    """Whether a bare Chinese line can be a name or pen name (赵培, 茉莉, 放飞&心情): one of
    its words is a noun or a name, not only verbs, adverbs, places or organisations
    (马上发表 "post now", 关闭 "close", 中国)."""
    return any(flag in _NAME_FLAGS and (flag not in _UNKNOWN_FLAGS or any(c.isalnum() for c in word))
               for word, flag in tagged_words(line))


#: Titles between a byline's names (记者 林安鎮 實習生 黃衛平): no name.
_TITLES = frozenset("实习生 實習生 通讯员 通訊員 见习记者 見習記者 实习记者 實習記者".split())
#: Words a run of names may end with that are no name.
_NOT_A_NAME = frozenset("报道 報導 报导 摄影 攝影 发自 發自 综合 綜合 整理 编译 編譯".split())


def _names(text: str, reports: bool = False) -> str:
    """Names run together by spaces or 、 as the page writes them, one space between (the
    words a byline ends with, 报道 and the like, left out; ``reports``: 报道 follows them,
    and the place they report from is left out too)."""
    names = [name for name in _NAME_SEPARATORS.split(text) if name and name not in _TITLES]
    while names and names[-1] in _NOT_A_NAME:
        names.pop()
    if names and len(names[-1]) > 2 and names[-1].endswith(_REPORTS):
        names[-1], reports = names[-1][:-2], True   # (李四报道: "Li Si reports")
    return " ".join(_without_place(names) if reports and names else names)


#: "Reports", glued to the name before it.
_REPORTS = ("报道", "報導", "报导")


def unglued(line: str) -> str:
    """``line`` with a space where a theme glued a name to a date ("by Jeffrey
    ZeldmanNovember 20, 2007"), or "By" to a name ("ByTrevor Jones": a name, up to a date,
    after it; "ByHeart recalls infant formula" stays as it is)."""
    line = _GLUED_MONTH.sub(" ", line)
    glued = _GLUED_BY.match(line)
    if glued is not None:
        rest = line[glued.end():]
        if is_name_line(_EN_DATE_START.sub("", rest)):
            line = f"{glued.group(1)}By {rest}"
    return line


def english_byline(line: str) -> str | None:
    """The author(s) of an English (or Latin-script) byline line: what follows "By", up to
    a date, a time, a separator or a role; None for a line that is no byline."""
    if len(line) > MAX_BYLINE_CHARS:
        return None
    match = _EN_BY.match(line.strip())
    if match is None:
        return None
    names = _EN_DATE_START.sub("", _EN_END.sub("", _EN_GLUED_LABEL.sub("", match.group(1))))
    names = _without_dangling(names).strip(_DANGLING_MARKS)
    if not names or len(names) > 80 or not names[:1].isupper() or _NOT_NAMES.match(names) or ":" in names:
        return None
    if len(names.split()) > 10:
        return None
    return names


def _without_dangling(names: str) -> str:
    """``names`` less the marks and joining words ("on", "at", "le") a cut date left at its
    end; a name's own "On" or "Le" stays, unless the names are all capitals and it is an
    English one ("XENI JARDIN AT")."""
    while True:
        names = names.rstrip(_DANGLING_MARKS)
        words = names.rsplit(None, 1)
        if len(words) < 2 or not (words[1] in _JOINING_WORDS
                                  or (names.isupper() and words[1] in _CAPITAL_JOINING_WORDS)):
            return names
        names = words[0]


def is_update(line: str) -> bool:
    """Whether a date line gives an update (modification), not the publication."""
    return _UPDATED.search(line) is not None and _PUBLISHED.search(line) is None


def split_update(line: str) -> tuple[str, str]:
    """A date line's publication part and its update part (``August 16, 2019 - Updated July
    9, 2025``: the text before "Updated", and from it on); the update part empty when the
    line names no update, the publication part empty when it names only one."""
    match = _UPDATED.search(line)
    if match is None:
        return line, ""
    published = _PUBLISHED.search(line)
    if published is not None and published.start() > match.start():   # "Updated ... Published ..."
        return line[published.start():], line[:published.start()]
    return line[:match.start()], line[match.start():]


def is_bare_by(line: str) -> bool:
    """Whether a line is only the word before a byline's names ("By", "作者："), which the
    next line holds."""
    return _BARE_BY.fullmatch(line) is not None


#: A line that can be a person's name alone: two to five words, each capitalized (or a
#: particle of a name), initials allowed.
_NAME = r"[A-ZÀ-Ý][\w'’.-]*"
_NAME_LINE = re.compile(rf"^{_NAME}(?:\s+(?:{_NAME}|de|da|del|van|von|der|la|le|bin|al|y)){{1,4}}"
                        rf"(?:\s*(?:,|and|&)\s*{_NAME}(?:\s+{_NAME}){{1,3}})*$")
#: Words of a page's buttons and links; a line most of whose words are these is no name.
_CONTROL_WORDS = frozenset("""share tweet follow subscribe sign log view profile email print comment comments
    menu search more read home next previous back close save download author authors related stories
    advertisement sponsored""".split())
#: Class, id, itemprop or rel words that name an element as the byline, searched in the
#: value in lower case (several times faster than a search that ignores case).
_BYLINE_MARK = re.compile(r"author|byline|by-line|writer|contributor|reporter")


def is_name_line(line: str) -> bool:
    """Whether a line is a name alone (``Lisa Pham``, ``Moses Kim and Kate Shokurova``), not
    a page's buttons (:func:`is_controls`)."""
    return len(line) <= 80 and _NAME_LINE.match(line.strip()) is not None and not is_controls(line)


def has_control_word(line: str) -> bool:
    """Whether a line holds a word of a page's buttons and links (share, follow, email...)."""
    return any(word in _CONTROL_WORDS for word in _WORDS.findall(line.lower()))


def is_controls(line: str) -> bool:
    """Whether most words of a line are a page's button and link words (``Share Tweet
    Share``, ``View Profile``, ``Read more``); a name with one such word (``Thomas More``)
    is not."""
    words = _WORDS.findall(line.lower())
    return bool(words) and 2 * sum(word in _CONTROL_WORDS for word in words) > len(words)


def marked_as_byline(*values: str | None) -> bool:
    """Whether markup values (class, id, itemprop, rel) name an element as the byline."""
    return any(value and _BYLINE_MARK.search(value.lower()) for value in values)


def _clean_value(text: str) -> str:
    """A labelled value without the punctuation and spaces around it, and without a date or
    a clock that follows it."""
    text = _VALUE_END.split(text.strip(), maxsplit=1)[0]
    return text.strip(" \u3000:：,，;；()（）[]【】<>《》\"'“”")


def in_byline_markup_each(page: Page, nodes: Sequence[int], levels: int = 3) -> list[bool]:
    """Whether each of ``nodes`` (node indices of ``page``) has its block, or one of the
    ``levels`` - 1 elements just above it, marked as the byline (:func:`marked_as_byline`):
    the class, id and itemprop read from what the page's block tree already holds (each
    distinct combination judged once), ``rel`` from the element, each element read once."""
    if len(nodes) == 0 or levels < 1:
        return [False] * len(nodes)
    tree, kinds = page.block_tree, page.attribute_kinds
    climbed = [tree.block[np.asarray(nodes, dtype=np.int64)]]   # each node's block and those above it
    for _ in range(levels - 1):             # (the root is its own parent)
        climbed.append(tree.parent[climbed[-1]])
    elements = np.unique(np.concatenate(climbed))
    by_kind: dict[int, bool] = {}
    marked = np.zeros(len(elements), dtype=bool)        # (per distinct element, in index order)
    for at, (element, kind) in enumerate(zip(elements.tolist(), kinds.kind[elements].tolist())):
        if kind not in by_kind:
            _tag, cls, ident, prop = kinds.keys[kind]
            by_kind[kind] = marked_as_byline(cls, ident, prop)
        rel = tree.elements[element].get("rel")
        marked[at] = by_kind[kind] or bool(rel) and marked_as_byline(rel)
    return np.logical_or.reduce([marked[np.searchsorted(elements, level)] for level in climbed]).tolist()
