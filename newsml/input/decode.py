"""Decide how a page's bytes are decoded.

Order:

1. a byte-order mark;
2. UTF-16 without a byte-order mark, when the NUL bytes of the markup's ASCII fall on
   one side of each byte pair (:func:`utf16_without_bom`);
3. a 7-bit ISO-2022 encoding (ISO-2022-JP, or the one declared) when the bytes shift
   into it with escape sequences (:func:`_iso2022`), or HZ-GB-2312 when they shift into
   GB2312 with ``~{`` (:func:`_hz`);
4. UTF-8, when the bytes are UTF-8 (whatever the page declares: archived pages are
   often re-encoded to UTF-8 but keep their old ``<meta charset>``). A page cut off in
   the middle of a character, or with a stray invalid byte among plenty of valid
   multi-byte text, is still UTF-8: the damage becomes U+FFFD, not a whole page of
   mojibake;
5. the declared charset (meta or XML declaration, in the first 8 KB or anywhere before
   ``<body>``), when the bytes fit it (a cut-off tail and rare bad bytes tolerated as above);
   but under a Latin-1 or Windows-1252 label, which nearly any bytes fit, bytes that are
   plainly Chinese read as GB18030 or Big5 (:func:`_chinese_under_a_western_label`);
6. Shift-JIS (Windows-932), when the bytes decode cleanly to text rich in kana: such
   bytes also decode as GB18030, into rare Chinese characters;
7. EUC-KR (Windows-949), when they decode cleanly to Korean (:func:`_korean`), which
   GB18030 would also read;
8. GB18030, when it decodes the bytes cleanly into mostly CJK text (short Chinese
   pages without a declaration are where statistical detection errs most); else Big5
   (HKSCS), when it does, in characters that are not glued to Latin letters (Big5's
   second bytes are often ASCII letters, which GB18030's check takes for Western text);
9. statistical detection (charset-normalizer) on the bytes from the first non-ASCII one
   (the chunks it samples of a whole page may all fall in a long script before the
   text), except for pages with only a handful of
   non-ASCII bytes: there the evidence is too thin and Windows-1252, the web's most
   common legacy encoding, is the better guess. Between Windows-1252 and Windows-1250
   (and a Windows-1257 guess), the page's accented letters decide: the code page in
   which one language spells them all wins (:func:`_by_alphabets`). With no answer at
   all, the declared charset with replacement characters, else Windows-1252.

Declared GB2312/GBK are read as GB18030 and Latin-1/ASCII as Windows-1252, their
supersets, as browsers do. Declarations that cannot be an HTML page's encoding (not
ASCII-compatible, or not a text codec at all, such as ``base64``) are ignored, and a
declared UTF-16/UTF-32 without a byte-order mark means UTF-8 (WHATWG).

Bytes that are no text at all (images, PDFs, archives, executables, a WARC file) are
refused before any of this (:func:`reject_binary`).
"""

from __future__ import annotations

import codecs
import re

from ..errors import InvalidPageError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
#: Byte-order marks, longest first (UTF-32-LE starts with UTF-16-LE's mark).
BOMS = tuple(bom for bom, _ in _BOMS)

_DECLARED_RE = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)"""
    rb"""|<\?xml[^>]+encoding\s*=\s*["']([a-zA-Z0-9_:.\-]+)""",
    re.IGNORECASE,
)
_SNIFF_BYTES = 8192
#: Where a declaration after the first :data:`_SNIFF_BYTES` is still looked for: before
#: ``<body``, within this many bytes.
_HEAD_BYTES = 1 << 18
_BODY_START_RE = re.compile(rb"<body[\s>]", re.IGNORECASE)
_HIGH_BYTES = bytes(range(128, 256))
_NON_ASCII_RE = re.compile("[^\x00-\x7f]")
_KANA_RE = re.compile("[\u3040-\u30ff]")
_CJK_RE = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
_HANGUL = "[\uac00-\ud7a3]"
_HANGUL_RE = re.compile(_HANGUL)
#: Syllables among the most frequent in Korean text (particles, endings, common roots):
#: a large share of a Korean text's syllables; Hangul read from Chinese bytes is mostly others.
_COMMON_HANGUL = frozenset("이다는의에가을를고하한지서로으기도사자대리어인정수시전일해있었것아나부보주소조국"
                           "미상제들위게라장구세성원동면만우요과와적년생경회중진실발개무신내관공학문방물선연분그거오은")


def _beside(character: str, neighbour: str) -> re.Pattern[str]:
    """A ``character`` (a pattern of one) with a ``neighbour`` just before or after it."""
    return re.compile(f"(?<={neighbour}){character}|{character}(?={neighbour})")


#: A Hangul syllable just before or after a space: where Korean words part.
_HANGUL_BY_SPACE_RE = _beside(_HANGUL, " ")
#: A Hangul syllable, and a CJK character, with an ASCII letter just before or after it.
_HANGUL_BY_LATIN_RE = _beside(_HANGUL, "[A-Za-z]")
_CJK_BY_LATIN_RE = _beside(_CJK_RE.pattern, "[A-Za-z]")


#: Labels seen on real pages that Python's codec registry does not know.
_ALIASES = {"x-gbk": "gbk", "x-gb2312": "gb2312", "gb_2312-80": "gb2312", "x-sjis": "shift_jis",
            "x-euc-jp": "euc_jp", "x-cp1252": "cp1252", "unicode": "utf-8", "windows-874": "cp874",
            "x-user-defined": "cp1252"}
#: Declared names read as a superset, the way browsers do (WHATWG Encoding standard).
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "ascii": "cp1252",
    "latin_1": "cp1252",
    "iso8859_1": "cp1252",
    "big5": "big5hkscs",
    "euc_kr": "cp949",
    "shift_jis": "cp932",
    "utf_16": "utf-8",
    "utf_16_le": "utf-8",
    "utf_16_be": "utf-8",
    "utf_32": "utf-8",
    "utf_32_le": "utf-8",
    "utf_32_be": "utf-8",
}
#: Text codecs that keep ASCII as ASCII yet are no page encoding.
_NOT_PAGE_ENCODINGS = frozenset({"unicode_escape", "raw_unicode_escape", "punycode", "idna", "undefined",
                                  "utf_7"})
#: Below this many non-ASCII bytes, detection is not trusted (see the module notes).
_FEW_NON_ASCII = 20
#: CJK characters an undeclared page must decode into to be read as HZ-GB-2312.
_MIN_HZ_CJK = 4
#: Share of those that must be GB2312 symbols or first-level hanzi (:func:`_common_gb2312`).
_COMMON_GB2312_SHARE = 0.8
#: One replacement character per this many good non-ASCII characters is tolerated.
_TOLERANCE = 50
#: A Korean text of at most this many syllables is short: its share of common syllables
#: varies too much to tell it from Chinese read as EUC-KR (see :func:`_korean`).
_SHORT_KOREAN = 12
#: How many of the most frequent Chinese characters count as common (:func:`_uncommon_chinese`).
_COMMON_HANZI_COUNT = 1000
#: The :data:`_COMMON_HANZI_COUNT` most frequent Chinese characters: each character of
#: jieba's dictionary counted with the frequencies of the words it is in (in code point
#: order; tests/input/test_decode.py recounts them from the installed jieba).
COMMON_HANZI = frozenset(
    "一七万三上下不与专且世业东两严个中丰临为主举久么义之乎乐九也习乡书买乱了争事二于云互五亚些交产京亮亲"
    "人亿什仅今介仍从他代令以们件价任份企伊众优会传伤伯似但位低住体何余作你使例供依侧便俄保信修倒候值假做"
    "停像儿元兄充先光克免党入全八公六兰共关兴兵其具典养内再写军农冲决况冷准减几出击刀分切划列刘则刚创初判"
    "利别到制刺刻前剑剧副力办功加务动助劳势包化北区医十千升半华协单卖南博占卫印危即却厂历压原去县参又及友"
    "双反发取受变口古句另只叫召可台史右叶号司吃各合同名后向吗否吧含听吴吸告员呢周味呼命和咱品哈响哥哪唐商"
    "啊善喜喝器四回因团园围固国图土在地场均坐块坚型城域基堂境墙增士声处备复夏外多夜够大天太夫央失头奇女她"
    "好如妇妈始姑姓委威娘子字存孙季学孩宁它守安宋完宗官定宜宝实审客宣室宫害家容密富察对导封射将小少尔尚就"
    "尼尽局层居届展属山岁岛岸州工左差己已巴市布师希帝带席帮常干平年并广庆序应底府度座庭康建开异式引弟张弹"
    "强归当录形彩影往征待很律得微德心必志忙快念忽怀态怎怕思急性怪总恩息恶情惊想意感愿慢成我或战户房所手才"
    "打执扩批找承技把投抗护报担拉招括拿持指按挥换据授掌排探接控推提支收改攻放政故效敌救教敢散数整文斗料断"
    "斯新方施旁旅族无既日旧早时昌明易星春是显晚普景暗曲更曾最月有服望朝期木未本术朱机杀杂权李材村条来杨松"
    "板极构林果枪架某查标树校样核根格案桥检植楚楼模次欢欧止正此步武死段殿母每毒比毕毛毫民气水永求汉江沉沙"
    "没河油治沿法波注泽洋洞洪洲活派流测济海消深清渐温港游湖湾源满演激火灵炮点烈热然照熟爱父爷片版牌牙牛物"
    "特状独献率玉王环现班球理甚生用田由甲电男画界留略病痛登白百的皇皮益监盘盛目直相省看真眼着督知短石矿研"
    "破础确示礼社祖神票禁福离种科秘积称移程稳究空穿突立站竟章端笑笔第等筑答策简算管米类精系素索紧红约级纪"
    "纳线练组细织终经结给绝统继续维编网罗罪置美群老考者而职联肉股育背胜胡能脑脚脸臣自至致航般船良色艺节花"
    "苏若苦英范茶荆草药获菜营落著蒙藏虽血行街衣补表被装襄西要见观规视觉角解言警计认让训议记讲许论设证评识"
    "诉词试诗话该语说请读谁调谈谷象负财责败货质贵费资赛走赶起超越足跟路身车转轮软轻载较辑输辖边达过迎运近"
    "还这进远连述追退送适选逐通速造遇道遗那邦部都鄂配酒采里重量金钟钱铁银销错镇长门问间闻队防阳阵阶阿附际"
    "陆陈降限院除险陵随难雄集雨雷需露青静非靠面革音顶项顺须顾顿预领题额风飞食饭馆首香马验骨高鱼鲜黄黑齐龙"
)
#: Below this share of common characters, a short text read as Chinese is taken for Korean:
#: more short Korean lines read right, next to no short Chinese ones read as Korean
#: (docs/decisions/2026-11-25-decoding-undeclared-pages.md).
_COMMON_HANZI_SHARE = 0.25
#: Share of common characters (see :data:`COMMON_HANZI`) that makes bytes declared Latin-1
#: or Windows-1252 Chinese (:func:`_chinese_under_a_western_label`): below the share of every
#: Chinese corpus page, traditional ones included, whose characters are rarer in the list
#: (docs/decisions/2026-11-27-decoding-big5-latin1-label.md).
_WESTERN_LABEL_HANZI_SHARE = 0.4
#: Japanese prose is rich in kana; Chinese decoded as Shift-JIS has next to none.
_KANA_SHARE = 0.2
#: Single-byte encodings no browser decodes (absent from the WHATWG Encoding standard):
#: DOS code pages but IBM866, HP Roman-8, and the Mac encodings. A statistical guess
#: among them is read as Windows-1252: on the corpora's Western pages saved in
#: Windows-1252 without a declaration, every such guess was wrong.
_NOT_WEB_ENCODINGS = frozenset({
    *(f"cp{n}" for n in (437, 720, 737, 775, 850, 852, 855, 856, 857, 858, 860, 861, 862, 863, 864,
                         865, 869, 1006, 1125)),
    "hp-roman8", "mac-roman", "mac-latin2", "mac-cyrillic", "mac-greek", "mac-iceland", "mac-turkish",
    "mac-croatian", "mac-romanian", "johab", "kz1048", "ptcp154",
})
#: Languages of charset-normalizer's guesses that are written in Windows-1252.
#: (Not the Nordic ones: short Hungarian and Czech in Windows-1250 get labelled Finnish or
#: Swedish, and tie with Windows-1252 too.)
_WINDOWS_1252_LANGUAGES = frozenset({"English", "French", "German", "Spanish", "Portuguese", "Italian",
                                     "Dutch"})
#: The letters beyond ASCII of the languages written in each legacy European code page
#: (lower case). Undeclared bytes that Windows-1252 and Windows-1250 both decode are read
#: by the one in which one language explains the page's accented letters best
#: (:func:`_by_alphabets`): Czech in Windows-1252 mixes Italian ``ì`` and ``è`` with
#: Danish ``ø``, Polish gets symbols inside words (``by³``), and French in Windows-1250
#: mixes Czech ``č`` with Polish ``ę``. (Windows-1257, for the Baltic languages, is only
#: ever a statistical guess that the other two may overrule: Hungarian gets read as it.)
_ALPHABETS = {
    "cp1252": ("àâæçéèêëîïôœùûüÿ", "äöüß", "áéíñóúü", "àèéìíîòóùú", "áâãàçéêíóôõúü", "áéèëïóöü",
               "æøåéó", "åäöé", "äöåšž", "áðéíóúýþæö", "àèéíïòóúüç"),
    "cp1250": ("ąćęłńóśźż", "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "čšžćđé", "áéíóöőúüű", "ăâîşţ",
               "äöüß"),
    "cp1257": ("ąčęėįšųūž", "āčēģīķļņšūž", "äõöüšž"),
}
#: Code pages :func:`_by_alphabets` may choose, in the order that breaks a tie.
_ALPHABET_CHOICES = ("cp1252", "cp1250")
#: 16 KB from a page's first byte past ASCII hold letters enough to tell its code page:
#: the rest of a long page need not be read.
_HIGH_BYTE_RE = re.compile(b"[\x80-\xff]")
_ALPHABET_BYTES = 16 * 1024
#: A word: a run of two letters or more, any script.
_WORD_RE = re.compile(r"[^\W\d_]{2,}")
#: Letters no word of the code page's languages ends with, though the other's do: Danish
#: and Norwegian ``æ`` is the Polish and Croatian ``ć`` of infinitives and surnames.
_NEVER_LAST = {"cp1252": "æ"}
#: A GB18030 character: four bytes, or a lead byte and its trail byte.
_GB_CHARACTER_RE = re.compile(rb"[\x81-\xfe][\x30-\x39][\x81-\xfe][\x30-\x39]|[\x81-\xfe][\x40-\xfe]")
#: Past this share of GB18030 characters ending in an ASCII byte, the bytes are no Chinese.
_LATIN_PAIR_SHARE = 0.4


def canonical_encoding(name: str) -> str | None:
    """The Python codec for a charset label, widened to its superset; None if unusable."""
    label = name.strip().lower()
    try:
        info = codecs.lookup(_ALIASES.get(label, label))
    except LookupError:
        return None
    key = info.name.replace("-", "_")
    if key in _SUPERSETS:
        return _SUPERSETS[key]
    if key in _NOT_PAGE_ENCODINGS or not getattr(info, "_is_text_encoding", True):
        return None
    try:
        if "<meta charset>".encode(info.name) != b"<meta charset>":
            return None  # not ASCII-compatible (EBCDIC, UTF-7): cannot be what the bytes say
    except (UnicodeError, LookupError):
        return None
    return info.name


def declared_encoding(data: bytes) -> str | None:
    """The charset a page declares (meta or XML declaration), if usable: in its first
    :data:`_SNIFF_BYTES`, else anywhere before its ``<body>`` (within :data:`_HEAD_BYTES`).

    Browsers honour a ``<meta charset>`` met later in the head too, by decoding the page
    again; pages that open with kilobytes of inline script or style put it there.
    """
    match = _DECLARED_RE.search(data[:_SNIFF_BYTES])
    if not match and len(data) > _SNIFF_BYTES:
        body = _BODY_START_RE.search(data, 0, _HEAD_BYTES)
        match = _DECLARED_RE.search(data, 0, body.start() if body else _HEAD_BYTES)
    if not match:
        return None
    label = (match.group(1) or match.group(2)).decode("ascii", "ignore")
    return canonical_encoding(label)


def decode_html(data: bytes) -> tuple[str, str]:
    """Decode page bytes to text; return ``(text, encoding)``, never raising."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace"), name
    wide = utf16_without_bom(data)
    if wide:
        return data.decode(wide, errors="replace"), wide
    shifted = _iso2022(data)
    if shifted:
        text = _decode_mostly(data, shifted)
        if text is not None:
            return text, shifted
    text = _hz(data)
    if text is not None:
        return text, "hz"
    text = _decode_mostly(data, "utf-8")
    if text is not None:
        return text, "utf-8"
    declared = declared_encoding(data)
    if declared == "cp1252":            # (also every Latin-1 and ASCII declaration)
        chinese = _chinese_under_a_western_label(data)
        if chinese is not None:
            return chinese
    if declared and declared != "utf-8":
        text = _decode_mostly(data, declared)
        if text is not None:
            return text, declared
    text = _decode_mostly(data, "cp932", tolerance=None)
    if text is not None and _kana_rich(text):
        return text, "cp932"
    text = _decode_mostly(data, "cp949", tolerance=None)
    if text is not None and _korean(text, data):
        return text, "cp949"
    text = _decode_mostly(data, "gb18030", tolerance=None)
    if text is not None and _mostly_cjk(text) and not _latin_pairs(data, text):
        return text, "gb18030"
    text = _decode_mostly(data, "big5hkscs", tolerance=None)
    if text is not None and _mostly_cjk(text) and not _glued_to_latin(text):
        return text, "big5hkscs"
    non_ascii_bytes = len(data) - len(data.translate(None, _HIGH_BYTES))
    detected = "cp1252" if non_ascii_bytes < _FEW_NON_ASCII else _detect(data)
    if detected in _ALPHABETS:
        detected = _by_alphabets(data, detected)
    if detected:
        text = _decode_mostly(data, detected)
        if text is not None:
            return text, detected
    fallback = declared or detected or "cp1252"
    return data.decode(fallback, errors="replace"), fallback


def _iso2022(data: bytes) -> str | None:
    """The ISO-2022 encoding of 7-bit ``data`` that shifts into another character set with
    escape sequences: the one it declares, or ISO-2022-JP for its escapes to JIS kanji
    (``ESC $ B``, ``ESC $ @``), which no ASCII page holds. Such bytes are also ASCII, so
    the UTF-8 test would take them, escapes and all."""
    if b"\x1b" not in data or not data.isascii():
        return None
    declared = declared_encoding(data)
    if declared and declared.startswith("iso2022"):
        return "iso2022_jp_ext" if declared == "iso2022_jp" and b"\x1b(I" in data else declared
    if b"\x1b$B" not in data and b"\x1b$@" not in data:
        return None
    return "iso2022_jp_ext" if b"\x1b(I" in data else "iso2022_jp"   # ext: half-width katakana


def _hz(data: bytes) -> str | None:
    """The text of 7-bit ``data`` in HZ-GB-2312 (RFC 1843), which shifts into GB2312 with
    ``~{`` and out with ``~}``: when it declares HZ (damage replaced), or, undeclared,
    when it decodes cleanly into at least :data:`_MIN_HZ_CJK` CJK characters, mostly of
    GB2312's first level and symbols (:func:`_common_gb2312`). An ASCII page whose script
    holds ``~{`` is not HZ: a space or a line break between the shifts fails the decoding,
    and lower-case words between them decode into second-level characters."""
    if b"~{" not in data or not data.isascii():
        return None
    if declared_encoding(data) == "hz":
        return _decode_mostly(data, "hz") or data.decode("hz", errors="replace")
    text = _decode_mostly(data, "hz", tolerance=None)
    if text is None or len(_CJK_RE.findall(text)) < _MIN_HZ_CJK or not _common_gb2312(text):
        return None
    return text


def _common_gb2312(text: str) -> bool:
    """Whether most CJK characters of ``text`` are GB2312 symbols or first-level hanzi
    (the 3,755 common ones, lead byte below 0xD8): real Chinese is, while ASCII letters
    read as GB2312 pairs fall in the second level."""
    found = _CJK_RE.findall(text)
    leads = [char.encode("gb2312", errors="ignore")[:1] for char in found]
    common = sum(1 for lead in leads if lead and lead < b"\xd8")
    return common >= _COMMON_GB2312_SHARE * len(found)


def _decode_mostly(data: bytes, codec: str, tolerance: int | None = _TOLERANCE) -> str | None:
    """``data`` decoded with ``codec`` if it fits: a cut-off last character is dropped, and
    (with a ``tolerance``) rare invalid bytes among plenty of good non-ASCII text become
    U+FFFD. None when the bytes do not fit the codec."""
    decoder = codecs.getincrementaldecoder(codec)(errors="strict")
    try:
        return decoder.decode(data, final=False)
    except UnicodeDecodeError:
        if tolerance is None:
            return None
    text = codecs.getincrementaldecoder(codec)(errors="replace").decode(data, final=False)
    bad = text.count("\ufffd")
    good = len(_NON_ASCII_RE.findall(text)) - bad
    return text if good >= tolerance * bad else None


def utf16_without_bom(data: bytes) -> str | None:
    """"utf-16-le" or "utf-16-be" when ``data`` looks like UTF-16 text without a byte-order
    mark, else None.

    The ASCII of markup puts a NUL byte in every other position: on the odd side for
    little-endian, the even side for big-endian, while the other side has (almost) none.
    A page mostly of Chinese text has NULs in far fewer pairs, and some on the other side
    (U+4E00 is ``00 4E``): NULs in 10% of the pairs are enough, with at most 5%, and a
    quarter as many, on the other side, when the bytes are not UTF-8 (a UTF-8 page holding
    a fragment of UTF-16 is UTF-8); with fewer than 30%, they never are.
    """
    head = data[:_SNIFF_BYTES]
    head = head[: len(head) - len(head) % 2]
    if len(head) < 8:
        return None
    half = len(head) // 2
    even, odd = head[0::2].count(0), head[1::2].count(0)
    for zeros, others, codec in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if (zeros >= 0.1 * half and others <= min(0.05 * half, zeros / 4)
                and (zeros >= 0.3 * half or _decode_mostly(head, "utf-8", tolerance=None) is None)
                and "<" in head.decode(codec, "replace")):
            return codec
    return None


def _kana_rich(text: str) -> bool:
    """Whether kana make up a good share of the non-ASCII characters of ``text``."""
    non_ascii = len(_NON_ASCII_RE.findall(text))
    return non_ascii >= 2 and len(_KANA_RE.findall(text)) >= _KANA_SHARE * non_ascii


def _korean(text: str, data: bytes) -> bool:
    """Whether ``text`` (``data`` read as EUC-KR) is Korean: Hangul syllables make nearly
    all its non-ASCII characters, in words that spaces part, seldom glued to Latin letters,
    and many of them the syllables Korean uses most (particles, endings), or, in a text
    too short for that share to tell (a line of a few words), ``data`` reads as GB18030
    into mostly uncommon Chinese characters (:func:`_uncommon_chinese`).
    EUC-KR bytes also read as GB18030, into Chinese characters. Chinese read as EUC-KR
    gives Hangul too, but in runs without spaces, mixed with Hanja; Windows-1252 read as
    EUC-KR gives a Hangul syllable glued to a word (``that\x92s``: 'that뭩')."""
    hangul = _HANGUL_RE.findall(text)
    non_ascii = len(_NON_ASCII_RE.findall(text))
    if not (len(hangul) >= 4 and len(hangul) >= 0.9 * non_ascii
            and len(_HANGUL_BY_SPACE_RE.findall(text)) >= len(hangul) / 8
            and len(_HANGUL_BY_LATIN_RE.findall(text)) <= len(hangul) / 2):
        return False
    if sum(syllable in _COMMON_HANGUL for syllable in hangul) >= 0.45 * len(hangul):
        return True
    return len(hangul) <= _SHORT_KOREAN and _uncommon_chinese(data)


def _uncommon_chinese(data: bytes) -> bool:
    """Whether ``data`` reads as GB18030 into CJK characters of which fewer than
    :data:`_COMMON_HANZI_SHARE` are among the :data:`_COMMON_HANZI_COUNT` most frequent in
    Chinese: Korean bytes read as Chinese give characters picked almost evenly from the
    first level of GB2312 (3,755 characters), while even a short Chinese line is mostly
    common characters."""
    chinese = _decode_mostly(data, "gb18030", tolerance=None)
    return chinese is None or not _common_hanzi_share(chinese, _COMMON_HANZI_SHARE)


def _common_hanzi_share(text: str, share: float) -> bool:
    """Whether at least ``share`` of the CJK characters of ``text`` are among
    :data:`COMMON_HANZI` (true for a text without any)."""
    found = _CJK_RE.findall(text)
    return sum(char in COMMON_HANZI for char in found) >= share * len(found)


def _chinese_under_a_western_label(data: bytes) -> tuple[str, str] | None:
    """``data`` read as GB18030 or Big5, and which, when it is plainly Chinese though it
    declares Latin-1 or Windows-1252 (a server's or a template's default label, which
    nearly any bytes fit): it decodes cleanly into mostly CJK text, not Western letter
    pairs, in which at least :data:`_WESTERN_LABEL_HANZI_SHARE` of the characters are
    among the most frequent Chinese ones (Western text read so makes rare characters)."""
    if data.isascii():
        return None
    for codec in ("gb18030", "big5hkscs"):
        text = _decode_mostly(data, codec, tolerance=None)
        # (Western letter pairs read as GB18030, _latin_pairs, are glued to Latin letters too)
        if text is not None and _mostly_cjk(text) and not _glued_to_latin(text) \
                and _common_hanzi_share(text, _WESTERN_LABEL_HANZI_SHARE):
            return text, codec
    return None


def _mostly_cjk(text: str) -> bool:
    """Whether the non-ASCII characters of ``text`` are mostly CJK (and there are some)."""
    non_ascii = len(_NON_ASCII_RE.findall(text))
    return non_ascii >= 2 and len(_CJK_RE.findall(text)) >= 0.9 * non_ascii


def _latin_pairs(data: bytes, text: str) -> bool:
    """Whether ``data`` is Western text in Windows-1252 that GB18030 reads as ``text``: an
    accented letter and the letter after it make one character (``B\xfcrger``: 'B黵ger'),
    so its two-byte characters often end in an ASCII byte, and touch Latin letters. Chinese
    text seldom has the first (though a short traditional line can), and most of its
    characters have no Latin letter beside them."""
    characters = _GB_CHARACTER_RE.findall(data[:_SNIFF_BYTES * 8])
    ascii_ended = sum(1 for character in characters if len(character) == 2 and character[1] < 0x80)
    if ascii_ended <= _LATIN_PAIR_SHARE * len(characters):
        return False
    return _glued_to_latin(text)


def _glued_to_latin(text: str) -> bool:
    """Whether most CJK characters of ``text`` touch a Latin letter: Western text read as a
    double-byte code (an accented letter and the letter after it make one character:
    ``B\xfcrger`` in Big5 is 'B僱ger'), not Chinese, whose characters seldom do."""
    head = text[:_SNIFF_BYTES * 8]
    return len(_CJK_BY_LATIN_RE.findall(head)) > 0.5 * len(_CJK_RE.findall(head))


def _by_alphabets(data: bytes, guess: str) -> str:
    """Windows-1252 or Windows-1250 for ``data``, or ``guess`` (a code page of
    :data:`_ALPHABETS`): the one in which a language explains most of the page's
    accented letters (:func:`_alphabet_score`), ``guess`` when it ties for best.
    Statistical detection has too little to go on in a short text, and mixes these up in
    longer ones: Slovene and Croatian spell ``č`` where French and Italian spell ``è``,
    with the same byte."""
    scores = {}
    first = _HIGH_BYTE_RE.search(data)       # from the first accented letter on (not the head's markup)
    start = max(0, first.start() - 64) if first else 0
    head = data[start:start + _ALPHABET_BYTES]
    for codec in dict.fromkeys((guess, *_ALPHABET_CHOICES)):
        text = _decode_mostly(head, codec, tolerance=None)
        if text is not None:
            scores[codec] = _alphabet_score(text, codec)
    if not scores:
        return guess
    return max(scores, key=scores.__getitem__)     # the first best: guess wins a tie


def _alphabet_score(text: str, codec: str) -> int:
    """How well the best language of ``codec`` (:data:`_ALPHABETS`) explains the accented
    letters of ``text``: those in its alphabet less those not, counted in words of two
    letters or more cased as words are (lower, upper or title case), so that a symbol
    read as a letter (``£20`` as ``Ł20``, ``¿Qué`` as ``żQué``) counts for nothing. A
    letter in :data:`_NEVER_LAST` at the end of a word counts as unexplained."""
    letters: list[str] = []
    never_last = _NEVER_LAST.get(codec, "")
    for word in _WORD_RE.findall(text):
        if word.isascii() or not (word.islower() or word.isupper() or word.istitle()):
            continue
        word = word.lower()
        letters += [letter for letter in word if not letter.isascii()]
        if word[-1] in never_last:
            letters[-1] = "?"
    if not letters:
        return 0
    return max(2 * sum(letter in alphabet for letter in letters) - len(letters)
               for alphabet in _ALPHABETS[codec])


def _from_first_non_ascii(data: bytes) -> bytes:
    """``data`` from shortly before its first non-ASCII byte: what the detector should
    weigh. It samples a few chunks of what it is given, and on a page that opens with
    kilobytes of inline script those held ASCII alone: a Big5 page was read as
    Windows-1250."""
    first = _HIGH_BYTE_RE.search(data)
    return data[max(0, first.start() - 512):] if first else data


def _detect(data: bytes) -> str | None:
    """Statistical guess of the encoding (charset-normalizer), widened to its superset, made
    from the first non-ASCII byte on (:func:`_from_first_non_ascii`).

    Among guesses it ranks alike (as messy and as coherent), Windows-1252 wins when the
    text reads as a language written in it: Spanish reads as well in Windows-1250 (``ñ``
    as ``ń``), which comes first in such ties.
    """
    from charset_normalizer import from_bytes

    matches = from_bytes(_from_first_non_ascii(data))
    best = matches.best()
    if best is None:
        return None
    if best.language.rstrip("—") in _WINDOWS_1252_LANGUAGES and any(
            canonical_encoding(match.encoding) == "cp1252" for match in matches
            if (match.chaos, match.coherence) == (best.chaos, best.coherence)):
        return "cp1252"
    name = canonical_encoding(best.encoding)
    return "cp1252" if name in _NOT_WEB_ENCODINGS else name


_BINARY_MAGIC = {
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"GIF8": "a GIF image",
    b"\xff\xd8\xff": "a JPEG image",
    b"PK\x03\x04": "a ZIP archive (or an Office document)",
    b"\x7fELF": "an executable",
    b"RIFF": "a RIFF media file",
}


#: C0 controls other than tab, line feed, form feed and carriage return, and DEL.
_CONTROL_BYTES = bytes([*range(0, 9), 11, *range(14, 32), 127])


def reject_binary(data: bytes) -> None:
    """Raise InvalidPageError for bytes that are plainly not text (images, PDFs, archives)
    or that are a WARC file (whose records would be read as one page of garbage)."""
    for magic, what in _BINARY_MAGIC.items():
        if data.startswith(magic):
            raise InvalidPageError(f"binary data: the input is {what}, not an HTML page")
    if data.startswith(b"WARC/"):   # a crawl, never one page
        raise InvalidPageError("a WARC file, not an HTML page: give it to `newsml predict` under a name "
                               "ending in .warc or .warc.gz, or read its pages with "
                               "newsml.input.sources.warc_pages")
    head = data[:4096]
    if head.startswith(BOMS) or utf16_without_bom(head):  # UTF-16/32 text is full of NUL bytes
        return
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if controls > max(len(head) // 20, 8):
        raise InvalidPageError("binary data: control bytes where an HTML page has text")
