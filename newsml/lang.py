"""A page's language, as far as the script of its text and its markup tell."""

from __future__ import annotations

import re

from .text import han_ratio

_KANA_RE = re.compile("[\u3040-\u30ff]")
_HANGUL_RE = re.compile("[\uac00-\ud7af]")
_WORD_RE = re.compile(r"[a-z]+")
#: The most frequent English function words: a fifth of running English text.
_ENGLISH_STOP_WORDS = frozenset(
    "the of and to a in is that for on it with as was by at be this are from have has".split()
)


def detect_lang(text: str, declared: str | None = None) -> str:
    """ISO 639-1 code: 'zh'/'ja'/'ko' from the script; else the declared ``lang``; else 'en'
    when English function words are frequent; else 'und'.

    The script wins over the declaration because templates often keep ``lang="en"`` on
    pages written in Chinese.
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
    if declared:
        code = declared.strip().lower().replace("_", "-").split("-")[0]
        if code.isalpha() and 2 <= len(code) <= 3:
            return code
    latin = _WORD_RE.findall(sample.lower())
    if len(latin) >= 20 and sum(w in _ENGLISH_STOP_WORDS for w in latin) / len(latin) > 0.12:
        return "en"
    return "und"
