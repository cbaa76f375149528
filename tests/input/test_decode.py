"""newsml/input/decode.py: BOM, UTF-8 first, declared charsets widened, wrong declarations detected."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsml import InvalidPageError, extract
from newsml.dom.page import load_page
from newsml.input.decode import canonical_encoding, declared_encoding, decode_html

ZH = ("北京时间昨天晚上，国家统计局发布了最新的经济数据。数据显示，今年前三季度国内生产总值同比增长，"
      "消费和投资保持稳定，就业形势总体平稳。专家表示，经济运行中的积极因素正在增多。") * 3


def page(body: str, charset: str | None = None) -> str:
    meta = f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">' if charset else ""
    return f"<html><head>{meta}<title>t</title></head><body><p>{body}</p></body></html>"


@pytest.mark.parametrize(("label", "codec"), [
    ("gb2312", "gb18030"), ("GBK", "gb18030"), ("x-gbk", "gb18030"), ("iso-8859-1", "cp1252"),
    ("utf8", "utf-8"), ("no-such-charset", None),
])
def test_labels_are_widened_to_supersets(label, codec):
    assert canonical_encoding(label) == codec


def test_declared_gbk_is_read_as_gb18030():
    data = page(ZH, "gbk").encode("gbk")
    text, encoding = decode_html(data)
    assert encoding == "gb18030" and ZH in text


def test_gb18030_only_characters_survive_a_gb2312_declaration():
    body = ZH + "㐀䶵€"  # extension-A Han and the euro sign: not in GB2312
    data = page(body, "gb2312").encode("gb18030")
    assert extract(data).text == body


def test_gbk_bytes_with_a_wrong_utf8_declaration_are_detected():
    data = page(ZH, "utf-8").encode("gbk")
    text, encoding = decode_html(data)
    assert ZH in text
    assert encoding != "utf-8"


def test_utf8_bytes_win_over_a_stale_gb2312_declaration():
    # archived corpora are re-encoded to UTF-8 but keep their old meta charset
    data = page(ZH, "gb2312").encode("utf-8")
    article = extract(data)
    assert article.encoding == "utf-8" and article.text == ZH


def test_text_input_never_rereads_its_meta_charset():
    article = extract(page(ZH, "gb2312"))
    assert article.text == ZH and article.encoding == "unicode"


@pytest.mark.parametrize("bom,codec", [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")])
def test_byte_order_mark_decides(bom, codec):
    data = bom + page("Café, naïve résumé.", "iso-8859-1").encode(codec)
    doc = load_page(data)
    assert doc.encoding == codec
    assert doc.nodes[0].text == "Café, naïve résumé."


def test_windows_1252_declared_as_latin1():
    data = page("\u201cQuoted,\u201d she said \u2014 twice.", "iso-8859-1").encode("cp1252")
    assert extract(data).text == "\u201cQuoted,\u201d she said \u2014 twice."


def test_declared_encoding_reads_meta_and_xml_declaration():
    assert declared_encoding(b'<meta charset="GB2312">') == "gb18030"
    assert declared_encoding(b'<?xml version="1.0" encoding="Shift_JIS"?><html>') == "cp932"
    assert declared_encoding(b"<html><body>none</body></html>") is None


def test_xml_declaration_in_text_input_is_not_fatal():
    text = '<?xml version="1.0" encoding="utf-8"?><html><body><p>Hello, there.</p></body></html>'
    assert extract(text).text == "Hello, there."


def test_a_cut_off_utf8_page_stays_utf8():
    # crawlers cap page sizes mid-character; a stale gb2312 declaration must not win either
    for prefix in ("", '<meta charset="gb2312">'):
        data = (prefix + "<p>" + ZH).encode("utf-8")[:-1]
        text, encoding = decode_html(data)
        assert encoding == "utf-8" and ZH[:-1] in text


def test_a_cut_off_gbk_page_keeps_its_declaration():
    data = page(ZH, "gb2312").encode("gbk")[:-30]
    data = data[: data.index(ZH[-20:].encode("gbk"))] + ZH[-20:].encode("gbk")[:1]  # ends mid-character
    text, encoding = decode_html(data)
    assert encoding == "gb18030" and ZH[:40] in text


def test_one_stray_byte_in_a_utf8_page_costs_one_character():
    body = "\u201cQuoted\u201d caf\u00e9 " * 20
    data = page(body, "utf-8").encode("utf-8").replace(b"caf", b"\x92caf", 1)
    text, encoding = decode_html(data)
    assert encoding == "utf-8" and text.count("\ufffd") == 1 and "\u201cQuoted\u201d" in text


@pytest.mark.parametrize("label", ["base64", "rot13", "hex", "utf-7", "cp037", "unicode_escape"])
def test_declarations_that_cannot_be_page_encodings_are_ignored(label):
    assert canonical_encoding(label) is None
    article = extract(f'<meta charset="{label}"><p>Plain, text.</p>'.encode("ascii"))
    assert article.text == "Plain, text."


def test_utf16_declarations_without_bom_mean_utf8():
    assert canonical_encoding("utf-16le") == canonical_encoding("UTF-16") == "utf-8"


def test_short_undeclared_pages():
    chinese = "<p>国家统计局发布了数据。</p>"
    assert decode_html(chinese.encode("gbk")) == (chinese, "gb18030")
    assert decode_html("<p>Café crème</p>".encode("cp1252")) == ("<p>Café crème</p>", "cp1252")


@pytest.mark.parametrize("body", [
    "Der Bürgermeister von Zürich",                               # ü + letter is a GB18030 pair
    "ÜBER DIE STRASSEN: DER BÜRGERMEISTER SAGT, DIE ÖFFENTLICHEN GEBÄUDE SCHLIESSEN FRÜHER. " * 4,
    "A Petrobras não divulgou os números, mas a produção aumentou três vezes no ano. " * 4,
])
def test_undeclared_western_pages_are_not_read_as_gb18030(body):
    text, _ = decode_html(page(body).encode("cp1252"))
    assert body in text


def test_a_wrong_utf8_declaration_on_german_bytes():
    assert "für die Straßen über" in extract(page("für die Straßen über", "utf-8").encode("cp1252")).text


def test_undeclared_spanish_is_windows_1252_not_1250():
    body = "El año pasado, España y Perú firmaron un acuerdo en la reunión de Cádiz; el niño celebró. " * 3
    assert decode_html(page(body).encode("cp1252")) == (page(body), "cp1252")


def test_undeclared_czech_stays_windows_1250():
    body = ("Vláda schválila návrh zákona o státním rozpočtu, řekl mluvčí. Opozice žádá přepracování. "
            "Účinnost od září. Ministr Čapek uvedl, že schodek bude nižší. ") * 4
    assert decode_html(page(body).encode("cp1250")) == (page(body), "cp1250")


def test_undeclared_chinese_still_gb18030():
    assert decode_html(page(ZH).encode("gbk")) == (page(ZH), "gb18030")


@pytest.mark.parametrize("charset", ["iso-2022-jp", None])
def test_iso_2022_jp_is_not_taken_for_ascii(charset):
    japanese = "東京都は火曜日、新しい予算を承認した。知事は財政赤字は縮小すると述べた。"
    text, codec = decode_html(page(japanese, charset).encode("iso-2022-jp"))
    assert japanese in text and codec == "iso2022_jp"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_chinese_in_utf16_without_a_bom(codec):
    html = page(ZH)
    assert decode_html(html.encode(codec)) == (html, codec)


@pytest.mark.parametrize("line", ["臺北市長選舉結果", "這個問題"])
def test_short_undeclared_traditional_chinese_in_gbk_stays_gb18030(line):
    html = page(line)   # trail bytes below 0x80, as Windows-1252 read as GB18030 has
    assert decode_html(html.encode("gb18030")) == (html, "gb18030")


def test_undeclared_hungarian_stays_windows_1250():
    body = ("Az időjárás hűvös marad a hét végéig. Őszintén szólva, ő nem így gondolja, "
            "mondta egy szóvivő.") * 2
    html = f"<html><head><title>Hírek</title></head><body><p>{body}</p></body></html>"
    assert decode_html(html.encode("cp1250")) == (html, "cp1250")   # labelled Finnish, tied with 1252


@pytest.mark.parametrize("body", [
    "Prezydent spotkał się z ministrem spraw zagranicznych.",       # Polish: ł as ³, inside words
    "Ceny energii wzrosły o kilkanaście procent.",
    "Ministr řekl, že daně se nezvýší.",                            # Czech: ř as ø, ě as ì
    "Ľudia čakali v dlhom rade pred úradom.",                       # Slovak
    "Policija istražuje nesreću na autocesti. Učitelji traže veće plaće, rekao je Ivan Horvatić.",
    ("Vlada je v sredo sprejela nov zakon. Policija preiskuje nesrečo na avtocesti. Minister je dejal, "
     "da se davki ne bodo zvišali. Učitelji zahtevajo višje plače."),   # Slovene, read as 1252 before
    "Jövő héten hűvösebb idő várható, mondta a szóvivő.",           # Hungarian: ő as õ, ű as û
])
def test_undeclared_central_european_text_is_windows_1250(body):
    html = page(body)
    assert decode_html(html.encode("cp1250")) == (html, "cp1250")


def test_undeclared_windows_1250_after_a_long_ascii_head():
    head = "<script>" + "var x = 1;\n" * 3000 + "</script>"      # 33 KB before the first letter
    html = f"<html><head>{head}</head><body><p>Prezydent spotkał się w środę z ministrem.</p></body></html>"
    assert decode_html(html.encode("cp1250")) == (html, "cp1250")


LONG_HEAD = "<script>" + "var x = 1;\n" * 1000 + "</script>"       # 11 KB before the first letter
BIG5 = "氣象局發布海上颱風警報，全臺各縣市明日停止上班上課。民眾應做好防颱準備，避免前往海邊及山區。"


@pytest.mark.parametrize("paragraphs", [2, 10])
def test_undeclared_big5_after_a_long_ascii_head(paragraphs):
    """The detector samples a few chunks of the page: they held only the head's script,
    and a Big5 page came out as Windows-1250 mojibake."""
    body = f"<p>{BIG5}</p>" * paragraphs
    html = f"<html><head>{LONG_HEAD}<title>颱風來襲</title></head><body>{body}</body></html>"
    assert decode_html(html.encode("big5")) == (html, "big5hkscs")


def test_a_declaration_after_a_long_ascii_head_is_read():
    html = (f"<html><head>{LONG_HEAD}<meta charset=big5><title>颱風來襲</title></head>"
            f"<body><p>{BIG5}</p></body></html>")
    assert declared_encoding(html.encode("big5")) == "big5hkscs"
    assert decode_html(html.encode("big5")) == (html, "big5hkscs")
    # in the body, past the head, it declares nothing (a quoted snippet, an article on HTML)
    late = (f"<html><head>{LONG_HEAD}</head><body><p>&lt;meta charset=big5&gt;</p>"
            "<meta charset=koi8-r></body></html>")
    assert declared_encoding(late.encode()) is None


def test_undeclared_french_after_a_long_ascii_head_is_windows_1252():
    html = (f"<html><head>{LONG_HEAD}</head><body><p>Le président a déclaré que la réforme serait "
            "présentée à l'Assemblée dès la rentrée.</p><p>Les élèves ont reçu leurs résultats après une "
            "très longue attente, a précisé le ministère.</p></body></html>")
    assert decode_html(html.encode("cp1252")) == (html, "cp1252")


@pytest.mark.parametrize(("text", "codec", "read_as"), [
    (ZH, "gbk", "gb18030"), (BIG5 * 3, "big5", "big5hkscs"),
    ("Le président a déclaré que la réforme serait présentée à l'Assemblée dès la rentrée.", "cp1252",
     "cp1252"),
])
def test_chinese_under_a_latin1_label_is_read_as_chinese(text, codec, read_as):
    """A server's default label (iso-8859-1) fits nearly any bytes: GBK and Big5 pages so
    labeled came out as mojibake. Western text under it stays as declared."""
    html = page(text, charset="iso-8859-1")
    assert decode_html(html.encode(codec)) == (html, read_as)


@pytest.mark.parametrize("body", [
    "The café raised £20m for the naïve résumé project.",           # £ would be Ł in Windows-1250
    "¿Quién pagará la cuenta?",                                     # ¿ would be ż
    "Les enseignants réclament une hausse de salaire, très attendue.",
    "København har åbnet en ny bro over havnen. Lærerne kræver højere løn.",
    ("Ríkisstjórnin samþykkti frumvarpið á miðvikudag. Lögreglan rannsakar slysið á veginum. "
     "Ráðherrann sagði að skattar hækki ekki."),                   # Icelandic, read as 1250 before
])
def test_undeclared_western_text_stays_windows_1252(body):
    html = page(body)
    assert decode_html(html.encode("cp1252")) == (html, "cp1252")


def test_a_utf8_page_holding_a_utf16_fragment_stays_utf8():
    fragment = "<li>Home</li><li>News</li>".encode("utf-16-le") * 40   # 2 KB of 8 KB read
    html = page("Le gouvernement a approuvé le budget, a déclaré le porte-parole. " * 100, "utf-8").encode()
    data = html[:70] + fragment + html[70:]
    text, codec = decode_html(data)
    assert codec == "utf-8" and "approuvé le budget" in text


def test_iso_2022_jp_with_half_width_katakana():
    japanese = "東京都はｶﾀｶﾅの予算を承認した。"
    text, _ = decode_html(page(japanese, "iso-2022-jp").encode("iso2022_jp_ext"))
    assert japanese in text


def test_undeclared_korean_is_not_read_as_gb18030():
    korean = ("삼성전자는 27일 3분기 영업이익이 10조원을 넘었다고 밝혔다. 반도체 부문의 회복이 실적을 "
              "이끌었다고 회사 측은 설명했다. LG전자도 같은 날 실적을 발표했다.")
    assert decode_html(page(korean).encode("euc-kr")) == (page(korean), "cp949")


@pytest.mark.parametrize("line", ["오늘의 뉴스", "많이 본 뉴스", "개인정보 처리방침", "로그인 회원가입"])
def test_a_short_undeclared_korean_line_is_not_read_as_gb18030(line):
    html = page(line)    # too few syllables for the share of common ones to tell
    assert decode_html(html.encode("euc-kr")) == (html, "cp949")


@pytest.mark.parametrize("line", ["新闻 中心", "体育 新闻", "财经 频道", "北京 上海", "国家统计局 发布"])
def test_a_short_undeclared_chinese_line_with_spaces_stays_gb18030(line):
    html = page(line)
    assert decode_html(html.encode("gbk")) == (html, "gb18030")


@pytest.mark.parametrize("line", [" 全球阿里巴巴", "年回家 回家", ZH])
def test_chinese_with_spaces_is_not_taken_for_korean(line):
    html = page(line)   # these bytes also read as Hangul, with spaces between
    assert decode_html(html.encode("gb18030")) == (html, "gb18030")


@pytest.mark.parametrize("charset", ["hz-gb-2312", None])
def test_hz_gb_2312_is_not_taken_for_ascii(charset):
    html = page(ZH, charset)
    assert decode_html(html.encode("hz")) == (html, "hz")
    assert ZH[:20] in extract(html.encode("hz")).text      # the parser's own UTF-8 shortcut too


@pytest.mark.parametrize("body", ["var x = ~{a: 1, b: 2}; ~}", "tildes ~{ab~} here"])
def test_ascii_with_hz_shifts_that_decode_to_little_or_nothing_stays_ascii(body):
    html = page(body)
    assert decode_html(html.encode()) == (html, "utf-8")


def test_ascii_words_between_hz_shifts_are_not_read_as_hz():
    html = page("Use the ~{template~} and ~{fragment~} markers.")   # 8 rare hanzi as HZ
    assert decode_html(html.encode()) == (html, "utf-8")


def test_a_declared_hz_page_with_a_bad_pair_is_still_hz():
    data = page(ZH, "hz-gb-2312").encode("hz").replace(b"~{", b"~{\x21\x7f", 1)
    text, codec = decode_html(data)
    assert codec == "hz" and ZH[10:40] in text


def test_the_common_hanzi_are_the_most_frequent_of_jiebas_dictionary():
    from collections import Counter

    import jieba

    from newsml.input.decode import COMMON_HANZI

    counts: Counter[str] = Counter()
    with jieba.dt.get_dict_file() as lines:
        for line in lines:
            word, frequency = line.decode("utf-8").split(" ")[:2]
            for char in word:
                counts[char] += int(frequency)
    assert {char for char, _ in counts.most_common(len(COMMON_HANZI))} == COMMON_HANZI


STORY = ("<html><body><div><p>The harbour closed on Monday as the storm reached the coast, "
         "officials said.</p><p>Ferries will resume on Wednesday, if the wind drops below gale "
         "force.</p></div><footer>Copyright 2024 Coast News. All rights reserved.</footer></body></html>")


def test_shift_jis_without_a_declaration_is_not_read_as_gb18030(default_method):
    article = extract("<p>カタカナとひらがな</p>".encode("shift_jis"), method=default_method)
    assert article.text == "カタカナとひらがな" and article.encoding == "cp932"


def test_chinese_without_a_declaration_is_still_gb18030(default_method):
    article = extract("<p>国家统计局今天发布了数据，经济增长稳定。</p>".encode("gbk"), method=default_method)
    assert article.text == "国家统计局今天发布了数据，经济增长稳定。" and article.encoding == "gb18030"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_text_not_binary(codec, default_method):
    article = extract(STORY.replace("Monday", "Monday (星期一)").encode(codec), method=default_method)
    assert article.encoding == codec and "Monday (星期一) as the storm" in article.text


@pytest.mark.parametrize("codec", ["utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_unicode_with_a_bom(codec):
    bom = {"utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00", "utf-32-be": b"\x00\x00\xfe\xff"}
    doc = load_page(bom[codec] + "<p>Wide, text.</p>".encode(codec))
    assert doc.encoding == codec and doc.nodes[0].text == "Wide, text."


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400),
       st.sampled_from(["", "utf-8", "gb2312", "base64", "utf-16le", "cp037", "rot13"]))
def test_arbitrary_bytes_with_any_declaration_parse_or_raise_invalid_page(data, charset):
    page = (f'<meta charset="{charset}">'.encode() if charset else b"") + b"<p>" + data
    try:
        nodes = load_page(page).nodes
    except InvalidPageError:
        return
    assert all(node.text.strip() for node in nodes)
