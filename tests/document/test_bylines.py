"""Bylines and datelines in English and Chinese (newsml/document/bylines.py)."""

from __future__ import annotations

import numpy as np
import pytest

from newsml.document.bylines import (
    bracketed_author,
    chinese_parts,
    chinese_source,
    english_byline,
    is_bare_by,
    is_name_line,
    is_person,
    split_update,
    unglued,
)


def test_chinese_lines_keep_the_outlet_apart_from_the_author():
    assert chinese_parts("来源：新华网 作者：张三 2019年08月12日") == {"source": "新华网", "author": "张三"}
    line = "2012年01月17日 06:33 来源：证券日报 作者：马 燕"
    assert chinese_parts(line) == {"source": "证券日报", "author": "马燕"}
    assert chinese_parts("本报记者 张三 李四 报道") == {"author": "张三 李四"}
    assert chinese_parts("责任编辑：王五") == {"editor": "王五"}
    assert chinese_parts("来源：人民网") == {"source": "人民网"}
    assert "author" not in chinese_parts("他对记者说，这是第一次")          # 记者 in running prose
    assert "author" not in chinese_parts("记者 楊菁菁攝")                    # a photographer


def test_a_reporters_title_and_outlet_before_the_label_are_no_name():
    assert chinese_parts("来源：经济参考报 作者：实习记者 王璐") == {"source": "经济参考报", "author": "王璐"}
    assert chinese_parts("来源：观点地产网 作者：见习编辑 李琼皙")["author"] == "李琼皙"
    assert chinese_parts("作者：张三编辑：李四") == {"author": "张三", "editor": "李四"}   # a part of its own
    assert chinese_parts("新京报记者 彭冲")["author"] == "彭冲"
    assert chinese_parts("光明日报记者 王建宏 张文攀")["author"] == "王建宏 张文攀"
    assert chinese_parts("文/記者汪萬里")["author"] == "汪萬里"
    assert chinese_parts("(福州晚報記者 林安鎮 實習生 黃衛平 文/攝)")["author"] == "林安鎮 黃衛平"
    # a name before another label is no title, whatever separates them
    assert chinese_parts("记者 王璐｜编辑 李四") == {"author": "王璐", "editor": "李四"}
    assert chinese_parts("记者王璐，编辑李四") == {"author": "王璐", "editor": "李四"}
    assert chinese_parts("新华社北京1月12日电（记者林晖）记者12日从中央气象台获悉")["author"] == "林晖"
    assert chinese_parts("记者 付强")["author"] == "付强"               # a verb in the dictionary, a name
    assert chinese_parts("记者 格桑边觉")["author"] == "格桑边觉"       # ends with a verb's character
    assert "author" not in chinese_parts("他举报记者王某")                # 举报: "to report", no outlet


def test_the_place_a_reporter_reports_from_is_no_name():
    assert chinese_parts("新京报记者 彭冲 山东冠县报道")["author"] == "彭冲"
    assert chinese_parts("【台灣醒報記者林宜靜台北報導】週末")["author"] == "林宜靜"
    assert chinese_parts("记者 张三 李四北京报道")["author"] == "张三 李四"
    assert chinese_parts("本报记者 张三 李四报道")["author"] == "张三 李四"
    assert chinese_parts("本报记者 张三 李四 报道")["author"] == "张三 李四"


def test_what_a_reporter_did_and_a_pictures_credit_name_no_author():
    assert "author" not in chinese_parts("记者即时播报")                     # "reporter's live news"
    assert "author" not in chinese_parts("记者调查")                         # "the reporter investigates"
    assert "author" not in chinese_parts("他接受日报记者采访时说")
    assert "author" not in chinese_parts("昨天下午，记者联系到刘冬。")          # "the reporter reached"
    assert "author" not in chinese_parts("快報記者 施向輝 攝")               # a photographer
    assert "author" not in chinese_parts("图/潇湘晨报滚动新闻记者 华剑")       # a picture's credit
    assert chinese_parts("图/张三 文/记者 李四")["author"] == "李四"          # the writer after it


def test_the_outlet_is_its_name_alone_and_running_prose_names_none():
    assert chinese_source("来源：京华时报(北京) 有0人参与 手机看新闻") == "京华时报"
    assert chinese_source("2011-12-15 来源：中工网-工人日报(北京) 有0人参与") == "中工网-工人日报"
    assert chinese_source("来源：人民网-体育频道 手机看新闻") == "人民网-体育频道"
    assert chinese_source("之后，裸体新闻开始遭受来自四面八方的压力，在开始后全面停播。") is None
    assert chinese_source("来源：转载文章") is None                          # "reprinted" is no outlet
    assert chinese_source("作者：张三") is None
    assert chinese_source("作者： 蒋 凌 稿源： 兰州日报 2011-12-09 20:05") == "兰州日报"   # 稿源: source
    assert chinese_source("摘自京华时报") == "京华时报"
    assert chinese_source("作者： 来源： 国际在线 编辑： 陈国立") == "国际在线"


def test_bracketed_reporters():
    assert bracketed_author("【聯合報╱記者張嘉芳／台北報導】台北市昨天宣布") == "張嘉芳"
    assert bracketed_author("【林媛玲╱新北報導】農曆除夕是圍爐團聚的時刻") == "林媛玲"
    assert bracketed_author("……的相关规定。（新民网 李欣）") == "李欣"
    assert bracketed_author("中新網蘭州1月11日電 (張道正) 甘肅省") == "張道正"
    assert bracketed_author("（记者 张三 李四）昨日") == "张三 李四"
    assert bracketed_author("（图为资料图片）") is None and bracketed_author("（新华网）") is None
    assert bracketed_author("〔記者魏怡嘉／台北報導〕流感疫情持續升溫") == "魏怡嘉"
    assert bracketed_author("〔編譯陳成良／綜合報導〕規律運動") == "陳成良"
    assert bracketed_author("（中央社記者劉世怡台北11日電）傅姓男子") == "劉世怡"   # its place and day
    assert bracketed_author("（中央社記者劉世怡華盛頓11日電）") is None   # where the name ends is not known
    assert bracketed_author("（本刊記者）") is None
    assert bracketed_author("（记者 刘宏图）") == "刘宏图"


def test_a_pictures_credit_in_brackets_or_after_a_name_is_no_author():
    assert bracketed_author("圖為國家森林遊樂區。（林務局提供）") is None             # "provided by"
    assert bracketed_author("范冰冰表态支持韩寒。(资料图)") is None and bracketed_author("(高清大图)") is None
    assert "author" not in chinese_parts("图表：车祸 新华社记者 曲振东 编制")          # a chart's maker


def test_a_bracket_that_spells_out_a_position_names_no_reporter():
    line = "上个月被任命为柯达联席总裁兼联席COO(首席运营官)"
    assert bracketed_author(line) is None
    assert bracketed_author("……(记者 张三)") == "张三"


def test_english_bylines():
    assert english_byline("By Maria Okafor, City Hall Reporter") == "Maria Okafor"
    assert english_byline("By Sam Achebe | March 13, 2024") == "Sam Achebe"
    assert english_byline("Written by Danielle DeSiato, Donna Enzmann, and Natalie Nguyen") == \
        "Danielle DeSiato, Donna Enzmann, and Natalie Nguyen"
    assert english_byline("by the way, nothing") is None
    assert english_byline("By HOT TOPICS: ASSEMBLY POLLS 2012 | GEN VK SINGH") is None
    assert english_byline("By Reuters") is None
    assert is_bare_by("By") and is_bare_by("WRITTEN BY") and is_bare_by("作者：")
    assert not is_bare_by("By Lisa")


@pytest.mark.parametrize("line, names", [
    ("By Jessica Laurence, Dec 15, 2011", "Jessica Laurence"),
    ("By Hayden Smith Wednesday 14 Dec 2011 6:17 pm", "Hayden Smith"),
    ("By Mirror.co.uk 15/12/2011", "Mirror.co.uk"),
    ("By Xeni Jardin at 6:03 pm Tuesday, Jan 10", "Xeni Jardin"),
    ("By Sarah McNaughton on Jan 16th, 2012", "Sarah McNaughton"),
    ("By Arricca Elin SanSonePublished: Dec 20, 2024", "Arricca Elin SanSone"),
    ("By Meaghan Weeden ● December 23, 2024", "Meaghan Weeden"),
    ("By James Pheby (AFP) – 17 hours ago", "James Pheby (AFP)"),
    ("By Chris Gregory »", "Chris Gregory"),
    ("By Audiophile On", "Audiophile On"),
    ("By Theresa May", "Theresa May"),
    ("By April Ryan", "April Ryan"),
    ("By Theresa May 5 hours ago", "Theresa May"),
    ("By Theresa May 12 December 2019", "Theresa May"),
    ("By Sarah May 9 min read", "Sarah May"),
    ("By Sunday Aborisade", "Sunday Aborisade"),
    ("By Chris Sunday", "Chris Sunday"),
    ("By The Sunday Times", "The Sunday Times"),
    ("BY XENI JARDIN AT 6:03 PM", "XENI JARDIN"),
    ("By Jane " + "-" * 40 + " Doe", "Jane"),    # (a run of marks before a word: no backtracking)
    # the other languages the dates are read in
    ("Par Jean Dupont, le 15 mars 2012", "Jean Dupont"),
    ("Par Jean Dupont le 1er avril", "Jean Dupont"),
    ("Von Moritz Bachmann publiziert am 25. September 2018", "Moritz Bachmann"),
    ("Von Hans Müller, 15. März 2012", "Hans Müller"),
    ("Por Juan Pérez, 15 de marzo de 2012", "Juan Pérez"),
    ("Di Mario Rossi, 15 marzo 2012", "Mario Rossi"),
    ("Door Jan de Vries op 15 mei 2012", "Jan de Vries"),
    ("By Thanh Le", "Thanh Le"),
    ("By PHUONG LE, Associated Press", "PHUONG LE"),     # (in capitals, only at/on/in are cut)
    ("BY MARTHA BELLISLE AND PHUONG LE", "MARTHA BELLISLE AND PHUONG LE"),
    ("By OMAR EL", "OMAR EL"),
    ("By Bruno Mars", "Bruno Mars"),
])
def test_an_english_byline_ends_where_its_date_starts(line, names):
    assert english_byline(line) == names


def test_updates_are_told_from_publication():
    both = "August 16, 2019 - Updated July 9, 2025"
    assert split_update(both) == ("August 16, 2019 - ", "Updated July 9, 2025")
    assert split_update("Updated on October 21, 2025") == ("", "Updated on October 21, 2025")
    assert split_update("Published March 1, 2024") == ("Published March 1, 2024", "")


def test_declared_chinese_authors_that_are_outlets():
    assert is_person("张三") and is_person("Jane Doe") and is_person("张三 李四")
    assert not is_person("网易") and not is_person("即时播报") and not is_person("新华社")


def test_a_name_line_is_a_name_not_the_pages_buttons():
    assert is_name_line("Lisa Pham") and is_name_line("Moses Kim and Kate Shokurova")
    assert not is_name_line("Share Tweet Share") and not is_name_line("View Profile")
    assert not is_name_line("Follow Author")


@pytest.mark.parametrize(("line", "expected"), [
    ("ByTrevor Jones", "By Trevor Jones"),
    ("by Jeffrey ZeldmanNovember 20, 2007", "by Jeffrey Zeldman November 20, 2007"),
    ("By Jane MarchMarch 3, 2020", "By Jane March March 3, 2020"),
    ("Byron Smith", "Byron Smith"),                 # a name that starts with "By"
    ("ByteDance news", "ByteDance news"),
    ("ByHeart recalls infant formula", "ByHeart recalls infant formula"),   # a company's name
    ("ByTrevor JonesMay 3, 2024", "By Trevor Jones May 3, 2024"),
    ("By Mayday Parade", "By Mayday Parade"),       # a month inside a word, no day after it
    ("Posted in Maybe", "Posted in Maybe"),
])
def test_a_name_glued_to_by_or_to_its_date_is_parted_and_nothing_else(line, expected):
    assert unglued(line) == expected


def test_the_byline_markup_of_each_line_is_its_blocks_or_the_elements_just_above():
    from newsml.document.bylines import in_byline_markup_each
    from newsml.dom.page import load_page

    page = load_page("<html><body><div class='byline'><p><span>By Ana Diaz</span></p></div>"
                     "<div><p>The new bridge opened to traffic this morning.</p></div>"
                     "<div itemprop='author'><p>Ana Diaz</p></div></body></html>")
    texts = [node.text for node in page.nodes]
    byline, body, linked = (texts.index(text) for text in ("By Ana Diaz", texts[1], "Ana Diaz"))
    assert in_byline_markup_each(page, [byline, body, linked]) == [True, False, True]
    assert in_byline_markup_each(page, [byline], levels=1) == [False]     # the div is two levels up
    assert in_byline_markup_each(page, [byline], levels=0) == [False]
    assert in_byline_markup_each(page, np.array([linked])) == [True] and in_byline_markup_each(page, []) == []
