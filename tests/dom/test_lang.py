"""Language from the script of the text, the page's declaration, or English function words."""

from __future__ import annotations

import pytest

from newsml.dom.lang import detect_lang

EN = "The council said on Monday that the plan for the new bridge was approved by a vote of the members."
ZH = "北京时间昨天晚上，国家统计局发布了最新的经济数据，专家表示经济运行平稳。"


@pytest.mark.parametrize(("text", "declared", "expected"), [
    (ZH * 3, "en", "zh"),                       # the script wins over a template's lang="en"
    (ZH * 3 + " 김종국 나만의 그대 모습 주영훈 단념 김종국 어릴적", None, "zh"),  # a few Korean titles
    ("日本語のテキストです。これは東京で書かれた記事です。" * 3, None, "ja"),
    ("한국어 텍스트입니다. 서울에서 작성된 기사입니다. 한글이 많습니다." * 3, None, "ko"),
    ("Le conseil municipal a voté le budget.", "fr-FR", "fr"),
    (EN * 2, None, "en"),
    ("Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor.", None, "und"),
    ("", None, "und"),
    # function words win over a declaration they plainly contradict (a template's lang)
    (EN * 2, "de", "en"),
    ("Das Universitätsklinikum bietet seit 2014 eine persönliche Akte für die Patienten an, die sich "
     "mit dem Arzt auf der Station und in der Praxis austauschen, und es ist nicht die erste.", "en", "de"),
    ("Clique e saiba os horários da TV do GP do Brasil, o 20º da temporada. Conheça a pista e os pneus "
     "que serão usados, com as zonas de DRS e o que mais se pode ver na corrida de domingo.", None, "pt"),
    (EN * 2, "en-GB", "en"),
    ("Rada miasta przyjęła budżet na przyszły rok, a burmistrz powiedział, że podatki nie wzrosną "
     "w tym roku ani w następnym, choć opozycja chciała zmian w wielu miejscach planu.", "pl", "pl"),
    # languages off the lists stay undetermined, not the nearest listed one
    ("Guvernul a adoptat miercuri proiectul de lege, iar ministrul a spus că taxele nu vor crește anul "
     "acesta. Poliția cercetează accidentul de pe autostradă, unde două mașini s-au ciocnit.", None, "und"),
    ("El Govern va aprovar dimecres el projecte de llei, i el ministre va dir que els impostos no pujaran "
     "aquest any. La policia investiga l'accident a l'autopista, on van xocar dos cotxes.", None, "und"),
    ("Regeringen vedtog onsdag lovforslaget, og ministeren sagde, at skatterne ikke stiger i år. Politiet "
     "efterforsker ulykken på motorvejen, hvor to biler stødte sammen.", "en", "en"),
])
def test_detect_lang(text, declared, expected):
    assert detect_lang(text, declared) == expected


def test_the_script_table_counts_what_its_patterns_match():
    """The one table lookup of a sample's script counts the characters the patterns match, in
    and past the Basic Multilingual Plane (and lone surrogates, U+FFFF), and its words are
    the pattern's."""
    import random

    from newsml.core.text import _HAN_RE
    from newsml.dom.lang import (
        _ALNUM_RE,
        _HANGUL_RE,
        _KANA_RE,
        _NON_ASCII_LETTER_RE,
        _WORD_RE,
        _Script,
        _words,
    )

    rnd = random.Random(7)

    def any_char() -> str:
        return chr(rnd.choice([rnd.randrange(0x110000), rnd.randrange(0x3000, 0xD800), rnd.randrange(128),
                               rnd.randrange(0xAC00, 0xD7B0), rnd.randrange(0xC0, 0x250)]))

    texts = ["", "___", "abc_1 ２３", "中文ab，。", "カタカナとひらがな", "한국어 텍스트", "naïve CAFÉ ǅ Ⅻ²",
             "\U00020000\U0003134f x \U0001F600 \ud800", "\uffff\U00010000", "\U0001d400\U0001d401 ab"]
    texts += ["".join(any_char() for _ in range(rnd.randrange(40))) for _ in range(2000)]
    texts += ["".join(map(chr, range(start, start + 256))) for start in range(0, 0x10000, 256)]
    for text in texts:
        script = _Script(text)
        letters = len(_ALNUM_RE.findall(text))
        assert script.han_ratio == (len(_HAN_RE.findall(text)) / letters if letters else 0.0), repr(text)
        assert (script.kana, script.hangul) == (len(_KANA_RE.findall(text)), len(_HANGUL_RE.findall(text)))
        assert script.non_ascii_letters() == (_NON_ASCII_LETTER_RE.search(text) is not None), repr(text)
        assert _words(text.lower()) == _WORD_RE.findall(text.lower()), repr(text)
