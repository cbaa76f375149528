"""A page's language, as far as the script of its text and its markup tell."""

from __future__ import annotations

import re

from .text import han_ratio

_KANA_RE = re.compile("[\u3040-\u30ff]")
_HANGUL_RE = re.compile("[\uac00-\ud7af]")
_WORD_RE = re.compile(r"[^\W\d_]+")
#: The most frequent function words of languages written in Latin letters: a fifth to a
#: quarter of running text in the language, a few hundredths in the others.
_STOP_WORDS = {
    "en": frozenset("the of and to a in is that for on it with as was by at be this are from have "
                    "has".split()),
    "de": frozenset("der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch "
                    "es an werden aus er hat dass".split()),
    "fr": frozenset("de la le et les des en du un une est que pour dans qui au sur pas par il ne se plus "
                    "sont avec".split()),
    "es": frozenset("de la que el en y a los del se las por un para con no una su al es lo como más".split()),
    "it": frozenset("di e il la che in a per un è del le non si da una sono al con i della".split()),
    "pt": frozenset("de a o que e do da em um para é com não uma os no se na por mais as dos".split()),
    "nl": frozenset("de en van het een in is dat op te die met voor zijn niet aan er ook als bij".split()),
}
#: A text whose share of a language's function words passes this is in that language.
_LANGUAGE_SHARE = 0.12
#: ... and a declared language of these lists whose share is below this is not the text's.
_NOT_THE_LANGUAGE = 0.04
#: Words needed before function words tell anything.
_MIN_WORDS = 20


def detect_lang(text: str, declared: str | None = None) -> str:
    """ISO 639-1 code: 'zh'/'ja'/'ko' from the script; else, for text in Latin letters,
    the language whose function words are frequent in it (:data:`_STOP_WORDS`) when the
    declared ``lang`` is missing or plainly not the text's; else the declared one; else
    'und'.

    The script wins over the declaration because templates often keep ``lang="en"`` on
    pages written in Chinese; and the words win over it when they plainly disagree,
    because they keep ``lang="de"`` on a German site's English pages too.
    """
    sample = text[:5000]
    han = han_ratio(sample)
    kana, hangul = len(_KANA_RE.findall(sample)), len(_HANGUL_RE.findall(sample))
    letters = max(len(sample), 1)
    if kana > 20 and kana / letters > 0.05:  # Japanese mixes kana into Han text
        return "ja"
    if hangul > 20 and hangul / letters > han:
        return "ko"
    if han > 0.3:
        return "zh"
    code = ""
    if declared:
        code = declared.strip().lower().replace("_", "-").split("-")[0]
        if not (code.isalpha() and 2 <= len(code) <= 3):
            code = ""
    words = _WORD_RE.findall(sample.lower())
    if len(words) < _MIN_WORDS:
        return code or "und"
    shares = {lang: sum(word in stop for word in words) / len(words) for lang, stop in _STOP_WORDS.items()}
    best = max(shares, key=shares.__getitem__)
    if shares[best] <= _LANGUAGE_SHARE:
        return code or "und"
    if not code or (code in shares and shares[code] < _NOT_THE_LANGUAGE):
        return best
    return code
