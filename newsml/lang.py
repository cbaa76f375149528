"""A page's language, as far as the script of its text and its markup tell."""

from __future__ import annotations

import re

from .text import han_ratio

_KANA_RE = re.compile("[\u3040-\u30ff]")
_HANGUL_RE = re.compile("[\uac00-\ud7af]")


def detect_lang(text: str, declared: str | None = None) -> str:
    """ISO 639-1 code: 'zh'/'ja'/'ko' from the script; else the declared ``lang``; else 'und'.

    The script wins over the declaration because templates often keep ``lang="en"`` on
    pages written in Chinese.
    """
    sample = text[:5000]
    if _KANA_RE.search(sample) and len(_KANA_RE.findall(sample)) > 20:
        return "ja"
    if len(_HANGUL_RE.findall(sample)) > 20:
        return "ko"
    if han_ratio(sample) > 0.3:
        return "zh"
    if declared:
        code = declared.strip().lower().replace("_", "-").split("-")[0]
        if code.isalpha() and 2 <= len(code) <= 3:
            return code
    return "und"
