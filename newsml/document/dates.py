"""Dates as pages write them, read into ISO 8601: the day, with the time and the offset
when the text gives them.

Forms read: ISO 8601 and its variants (``2024-03-13T23:58:00-05:00``, ``2024-03-13
23:58``, ``2024/03/13``, ``2024.03.13``); Chinese (``2019年08月12日 10:23``, ``2019年8月12日``);
English and other Latin-script month names (``March 13, 2024, 11:58 p.m.``, ``Sunday 21
April 2024, 18:05``, ``13 Mar. 2024``); RFC 2822 (``Wed, 13 Mar 2024 23:58:00 +0000``);
numeric day and month (``13/03/2024``, read day first only where the first number cannot
be a month, else month first); Unix timestamps in declared values; and dates in addresses
(``/2024/03/13/``, ``/2024-03-13-``, ``20240313``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

#: Dates outside these years are not taken as a page's dates.
FIRST_YEAR = 1990
#: English month names and their short forms, with their numbers.
ENGLISH_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
#: An English month name or short form, a dot allowed after it (no group: for other patterns).
ENGLISH_MONTH = "(?:" + "|".join(sorted(ENGLISH_MONTHS, key=len, reverse=True)) + r")\.?"
_MONTHS = {
    **ENGLISH_MONTHS,
    # French, German, Spanish, Italian, Portuguese, Dutch: the common ones
    "janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6, "juillet": 7,
    "août": 8, "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11, "décembre": 12, "decembre": 12,
    "januar": 1, "februar": 2, "märz": 3, "maerz": 3, "juni": 6, "juli": 7, "oktober": 10, "dezember": 12,
    "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
    "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
    "gennaio": 1, "febbraio": 2, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7, "settembre": 9,
    "ottobre": 10, "dicembre": 12, "janeiro": 1, "fevereiro": 2, "março": 3, "maio": 5, "junho": 6,
    "julho": 7, "setembro": 9, "outubro": 10, "novembro": 11, "dezembro": 12, "januari": 1,
    "februari": 2, "maart": 3, "mei": 5, "augustus": 8,
}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
#: A month name of any language read (English and the others above), a dot allowed after
#: it (no group: for other patterns).
ANY_MONTH = "(?:" + _MONTH[1:]
_TIME = (r"(?:[\sT,|@]*(?:at\s+|um\s+|à\s+)?(\d{1,2})[:.h](\d{2})(?:[:.](\d{2}))?(?:\.\d+)?"
         r"\s*(a\.?\s?m\.?|p\.?\s?m\.?)?(?![\d/])"
         r"\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2}|[A-Z]{2,4}T)?)?")
_ZONES = {"Z": "+00:00", "UTC": "+00:00", "GMT": "+00:00", "EST": "-05:00", "EDT": "-04:00",
          "CST": "-06:00", "CDT": "-05:00", "MST": "-07:00", "MDT": "-06:00", "PST": "-08:00",
          "PDT": "-07:00", "BST": "+01:00", "CET": "+01:00", "CEST": "+02:00", "HKT": "+08:00",
          "JST": "+09:00", "KST": "+09:00", "IST": "+05:30", "AEST": "+10:00", "AEDT": "+11:00"}

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # 2024-03-13T23:58:00-05:00, 2024-03-13 23:58, 2024/03/13, 2024.03.13
    ("ymd", re.compile(r"(?<!\d)((?:19|20)\d{2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})(?!\d)" + _TIME,
                       re.IGNORECASE)),
    # 2019年08月12日 10:23, 2019年8月12日10时23分
    ("zh", re.compile(r"((?:19|20)\d{2})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"
                      r"(?:[\s,，]*(?:[上下]午|凌晨|晚上)?\s*(\d{1,2})\s*[:：时點点]\s*(\d{2})"
                      r"(?:\s*[:：分]\s*(\d{2}))?)?")),
    # March 13, 2024 11:58 p.m.; Mar. 13th 2024 (after a digit too, not after a letter or
    # "_": two dates glued by the page's markup, "May 21, 2025April 24, 2025")
    ("mdy", re.compile(r"(?<![^\W\d])" + _MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d{2})(?!\d)"
                       + _TIME, re.IGNORECASE)),
    # 13 March 2024, 18:05; 13. März 2024; 13 de marzo de 2024
    ("dmy", re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th|er|º)?\.?\s+(?:de\s+)?" + _MONTH
                       + r",?\s+(?:de\s+)?((?:19|20)\d{2})(?!\d)" + _TIME, re.IGNORECASE)),
    # 13/03/2024, 03/13/2024, 13.03.2024 (day first only where the month cannot come first)
    ("numeric", re.compile(r"(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.]((?:19|20)\d{2})(?!\d)" + _TIME,
                           re.IGNORECASE)),
]
_URL_DATE = re.compile(r"(?<![\d])((?:19|20)\d{2})[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])(?![\d])")
_CHINESE_NOON = re.compile(r"下午|晚上")
_TIMESTAMP = re.compile(r"^\d{10}(?:\d{3})?$")
#: What every pattern above needs: a year of four digits.
_ANY_YEAR = re.compile(r"(?:19|20)\d{2}")
#: A numeric time zone offset (+05:30, -0800).
_NUMERIC_ZONE = re.compile(r"([+-])(\d{2}):?(\d{2})")


def parse_date(text: str, *, last_year: int | None = None) -> str | None:
    """The first date of ``text`` in ISO 8601 (``YYYY-MM-DD``, then ``THH:MM`` and seconds
    when given, and the offset when the text names it), or None."""
    found = first_date_at(text, last_year=last_year)
    return found[1] if found else None


def first_date_at(text: str, *, last_year: int | None = None) -> tuple[int, str] | None:
    """Where the first date of ``text`` starts (in the text stripped of the spaces around
    it) and the date (as :func:`parse_date` gives it), or None."""
    found = _found(text, last_year, first_only=True)
    return found[0] if found else None


def dates_in(text: str, *, last_year: int | None = None) -> list[str]:
    """Every date of ``text``, in the order the text gives them."""
    return [value for _, value in _found(text, last_year, first_only=False)]


def _found(text: str, last_year: int | None, first_only: bool) -> list[tuple[int, str]]:
    """The dates of ``text`` (stripped) with where each starts, in order; the first alone
    with ``first_only``."""
    if not text:
        return []
    text = text.strip()
    if _TIMESTAMP.match(text):                       # a Unix timestamp, in seconds or milliseconds
        seconds = int(text[:10])
        stamp = dt.datetime.fromtimestamp(seconds, dt.UTC)
        return [(0, stamp.strftime("%Y-%m-%dT%H:%M:%S+00:00"))] if _plausible(stamp.year, last_year) else []
    if not _ANY_YEAR.search(text):                   # (most lines: one search, not five patterns)
        return []
    found: list[tuple[int, str]] = []
    at_start = False                    # whether a date found starts the text
    for kind, pattern in _PATTERNS:
        matches: Iterable[re.Match[str]]
        if first_only and at_start:
            # (only another date at the start can come first; most declared values are
            # such, and the patterns' scans of the rest cost more than the rest of the work)
            matches = [match] if (match := pattern.match(text)) is not None else []
        else:
            matches = pattern.finditer(text)
        for match in matches:
            value = _from_match(kind, match, last_year)
            if value is not None:
                found.append((match.start(), value))
                at_start = at_start or match.start() == 0
                if first_only:
                    break
    found.sort()
    return found[:1] if first_only else found


def date_in_address(address: str, *, last_year: int | None = None) -> str | None:
    """The day an address holds (``/2024/03/13/``, ``2024-03-13``, ``20240313``), or None."""
    for match in _URL_DATE.finditer(address or ""):
        day = _day(int(match.group(1)), int(match.group(2)), int(match.group(3)), last_year)
        if day is not None:
            return day
    return None


def day_of(value: str | None) -> str | None:
    """The day (``YYYY-MM-DD``) of an ISO date, or None."""
    return value[:10] if value and len(value) >= 10 else None


def _from_match(kind: str, match: re.Match[str], last_year: int | None) -> str | None:
    groups = match.groups()
    if kind == "ymd" or kind == "zh":
        year, month, day = int(groups[0]), int(groups[1]), int(groups[2])
        time = groups[3:]
    elif kind == "mdy":
        month, day, year = _MONTHS[groups[0].lower()], int(groups[1]), int(groups[2])
        time = groups[3:]
    elif kind == "dmy":
        day, month, year = int(groups[0]), _MONTHS[groups[1].lower()], int(groups[2])
        time = groups[3:]
    else:
        one, two, year = int(groups[0]), int(groups[1]), int(groups[2])
        month, day = (two, one) if one > 12 else (one, two)
        time = groups[3:]
    iso = _day(year, month, day, last_year)
    if iso is None:
        return None
    if kind == "zh":
        if time[0] is None:
            return iso
        shift = 12 if _CHINESE_NOON.search(match.group(0)) and int(time[0]) < 12 else 0
        return _with_time(iso, int(time[0]) + shift, time[1], time[2], None, None)
    hour, minute, second, half, zone = (tuple(time) + (None,) * 5)[:5]
    if hour is None:
        return iso
    return _with_time(iso, int(hour), minute, second, half, zone)


def _with_time(iso: str, hour: int, minute: str | None, second: str | None, half: str | None,
               zone: str | None) -> str:
    if half:
        pm = half.lower().startswith("p")
        if not 1 <= hour <= 12:
            return iso
        hour = hour % 12 + (12 if pm else 0)
    if not (0 <= hour <= 23 and minute is not None and 0 <= int(minute) <= 59
            and (second is None or 0 <= int(second) <= 60)):
        return iso
    out = f"{iso}T{hour:02d}:{int(minute):02d}" + (f":{int(second):02d}" if second is not None else "")
    offset = _offset(zone)
    return out + offset if offset else out


def _offset(zone: str | None) -> str | None:
    if not zone:
        return None
    zone = zone.strip()
    if zone.upper() in _ZONES:
        return _ZONES[zone.upper()]
    match = _NUMERIC_ZONE.fullmatch(zone)
    if match and int(match.group(2)) <= 14 and int(match.group(3)) < 60:
        return f"{match.group(1)}{match.group(2)}:{match.group(3)}"
    return None


def _day(year: int, month: int, day: int, last_year: int | None) -> str | None:
    if not _plausible(year, last_year):
        return None
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _plausible(year: int, last_year: int | None) -> bool:
    return FIRST_YEAR <= year <= (last_year if last_year is not None else dt.date.today().year + 1)
