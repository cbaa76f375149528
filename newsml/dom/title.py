"""The article's title (Algorithm 2 of TWCEM: Tan et al., *Title-Based Extraction of News
Contents for Text Mining*, IEEE Access 2018).

1. A title given by the caller (from a feed or link text) is used when it is sane.
2. Otherwise the meta title (``og:title``, ``twitter:title``, ``<title>``) is compared
   with the headings ``<h1>``-``<h6>``: the heading at the smallest edit distance is the
   title, when it is close enough; else the meta title. ``<title>`` usually carries the
   site name (" - WSJ", "_新浪新闻", "|人民网") at one end: its headline segment (the end
   that is not ``og:site_name``, else the longer end) is compared as well, and kept
   when no heading is close.
   ``og:title`` and ``twitter:title`` name the article alone and are kept whole, but the
   ``<title>``'s segments are compared with the headings too (a promotional ``og:title``
   has no heading near it); an ``og:title`` that copies ``<title>`` is read as
   ``<title>``, and stays whole without a close heading unless the site's end is known
   (``og:site_name`` at one end, or three segments). Of three segments or more, the
   longest inner one is compared as well ("Name | Headline | Site"). A heading that
   ends in its reference after a sponsor's label or a breadcrumb gives the reference.
3. Without meta title or headings: ``[id^=title]``, ``[id$=title]``, ``[class^=title]``.

Edit distance is counted over scoring tokens (words, CJK characters) and divided by
the longer length: the paper's character distance over every heading is slow and
favours short headings ("News" beats a long true headline).
"""

from __future__ import annotations

import re

from ..core.text import has_token, normalize_space, tokens
from ..input.clean import text_of
from ..input.parsed import ParsedPage

#: Separators between a headline and the site name in ``<title>``: spaced dashes, bars,
#: colons and guillemets; bars without spaces; underscores and dashes next to CJK text.
_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_SITE_SEPARATORS = re.compile(
    rf"\s+(?:[-|–—:·»]+|::)\s+|\s*[|｜]\s*|(?<=[{_CJK}])\s*[_—–-]+\s*|\s*[_—–-]+\s*(?=[{_CJK}])")
_URL_START_RE = re.compile(r"^(https?://|www\.)")
#: What comes before a headline in a heading without being part of it: a sponsor's label
#: ("Sponsored by", "Presented by"), or a breadcrumb ending in a separator.
_LABEL_OR_CRUMBS_RE = re.compile(r"(?:\b(?:sponsored|presented|brought to you|powered) by\W*$)|[〉>»›]\s*$",
                                 re.IGNORECASE)
#: An inner segment of the ``<title>`` is compared with the headings from this many tokens.
MIDDLE_TOKENS = 3
#: A heading at a normalized token distance above this is not taken for the meta title's.
MAX_DISTANCE = 0.5
#: Titles are compared on their first tokens only (a heading is not a paragraph).
_MAX_TOKENS = 48
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_TITLE_ATTRIBUTE_XPATH = ("//*[starts-with(@id, 'title') or substring(@id, string-length(@id) - 4) = 'title'"
                          " or starts-with(@class, 'title')]")


def is_sane_title(text: str | None) -> bool:
    """A usable title: 2-300 characters, mostly letters, digits or CJK, not a URL."""
    return text is not None and _is_sane_normalized(normalize_space(text))


def _is_sane_normalized(text: str) -> bool:
    """:func:`is_sane_title` of a text whose whitespace is already normalized."""
    if not 2 <= len(text) <= 300 or _URL_START_RE.match(text):
        return False
    return has_token(text) and sum(map(str.isalnum, text)) >= len(text.replace(" ", "")) / 2


def title_segments(title: str, site_name: str = "") -> list[str]:
    """The full ``<title>`` and its likely headline segment, when it has site separators.

    Site names sit at an end. With a known ``site_name`` (``og:site_name``) the end
    segment that is not the site is the headline; without one, the longer end segment.
    """
    title = normalize_space(title)
    parts = _title_parts(title)
    if len(parts) < 2:
        return [title]
    first, last = parts[0], parts[-1]
    site = normalize_space(site_name).lower()
    if site and (site in first.lower() or first.lower() in site):
        return [title, last]
    if site and (site in last.lower() or last.lower() in site):
        return [title, first]
    return [title, first if len(tokens(first)) >= len(tokens(last)) else last]


def _title_parts(title: str) -> list[str]:
    """The segments of a ``<title>`` between its site separators."""
    return [part.strip() for part in _SITE_SEPARATORS.split(normalize_space(title)) if part.strip()]


def _site_end_known(title: str, site_name: str) -> bool:
    """Whether :func:`title_segments` knows, not guesses, which end of ``title`` is the
    site's: ``site_name`` is at one end, or three segments or more ("Headline | Section |
    Site", where the headline end is the longer one)."""
    parts = [part.lower() for part in _title_parts(title)]
    if len(parts) >= 3:
        return True
    site = normalize_space(site_name).lower()
    return len(parts) == 2 and bool(site) and any(site in end or end in site for end in (parts[0], parts[-1]))


def _middle_segment(title: str) -> list[str]:
    """An inner segment of a ``<title>`` of three segments or more ("Name | Headline |
    Site"), which :func:`title_segments` (the ends) does not offer, when it is the longest
    segment and of :data:`MIDDLE_TOKENS` tokens or more; else none (an inner "News" or
    "Sport" names a section, and a heading of the same name is no headline)."""
    parts = _title_parts(title)
    if len(parts) < 3:
        return []
    sizes = [len(tokens(part)) for part in parts]
    longest = max(range(len(parts)), key=sizes.__getitem__)
    return [parts[longest]] if 0 < longest < len(parts) - 1 and sizes[longest] >= MIDDLE_TOKENS else []


def strip_site_name(title: str, site_name: str = "") -> str:
    """The headline part of a ``<title>`` (see :func:`title_segments`)."""
    return title_segments(title, site_name)[-1]


def token_distance(a: list[str], b: list[str], limit: int | None = None) -> int:
    """Levenshtein distance between two token lists.

    With a ``limit``, a distance past it comes back as ``limit + 1``: the count stops as
    soon as every entry of a row of the table exceeds ``limit``.
    """
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1  # a shared beginning and end cost nothing
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    a, b = a[start:end_a], b[start:end_b]
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        left = i
        for j, y in enumerate(b, 1):
            left = min(previous[j] + 1, left + 1, previous[j - 1] + (x != y))
            current.append(left)
        if limit is not None and min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1] if limit is None else min(previous[-1], limit + 1)


def _accepted_limit(longest: int, best_distance: float) -> int:
    """The largest token distance ``d`` with ``d / longest`` below ``best_distance`` and
    at most MAX_DISTANCE: a heading further off can neither win nor be the title."""
    limit = min(longest, int(min(best_distance, MAX_DISTANCE) * longest) + 1)
    while limit >= 0 and (limit / longest >= best_distance or limit / longest > MAX_DISTANCE):
        limit -= 1
    return limit


def extract_title(doc: ParsedPage, given: str | None = None) -> str:
    """The article's title (see the module notes); '' when the page has none."""
    if given is not None and is_sane_title(given):
        return normalize_space(given)
    social = next((normalize_space(doc.meta[k]) for k in ("og:title", "twitter:title")
                   if is_sane_title(doc.meta.get(k))), "")
    site = doc.meta.get("og:site_name") or doc.meta.get("application-name") or ""
    social = _headline_of_social(social, site)
    segments = title_segments(doc.title_text, site) if is_sane_title(doc.title_text) else []
    if social and segments and social == segments[0]:
        # og:title copied from <title>, site name and all: its segments are compared with
        # the headings as the <title>'s are; without a heading near one, it stays whole
        # unless the site's end is known (which end is the site's is otherwise a guess:
        # "金锺国 - 维基百科，自由的百科全书", "Klatch Coffee | Shopify App Store")
        meta = segments[-1] if _site_end_known(doc.title_text, site) else social
        references = [*segments, *_middle_segment(doc.title_text)]
    elif social:
        # the <title>'s segments too: a promotional og:title ("Visit our blog") has no
        # heading near it, while the headline the page shows is near the <title>'s
        references, meta = [social, *segments[1:], *_middle_segment(doc.title_text)], social
    elif segments:
        references, meta = [*segments, *_middle_segment(doc.title_text)], segments[-1]
    else:
        references, meta = [], ""
    candidates = _headings(doc)
    if candidates and references:
        # The first heading nearest to a reference, if within MAX_DISTANCE; headings
        # further off change nothing, so their distances are not counted to the end.
        best, best_distance = "", 2.0
        candidate_tokens = [tokens(candidate)[:_MAX_TOKENS] for candidate in candidates]
        for reference in references:
            ref_tokens = tokens(reference)[:_MAX_TOKENS]
            for candidate, cand_tokens in zip(candidates, candidate_tokens):
                longest = max(len(ref_tokens), len(cand_tokens), 1)
                limit = _accepted_limit(longest, best_distance)
                if abs(len(ref_tokens) - len(cand_tokens)) > limit:
                    continue  # the distance is at least the length difference
                distance = token_distance(ref_tokens, cand_tokens, limit)
                if distance <= limit:
                    best, best_distance, nearest = candidate, distance / longest, reference
        if best_distance > MAX_DISTANCE:
            return meta
        # a heading that ends in its reference after a label or a breadcrumb ("Sponsored by",
        # "Site 〉 Section 〉") has the headline in the reference alone; other words before or
        # after it ("Is breast really best?", ", killing three") are the headline's own
        at = best.lower().find(nearest.lower())
        if at > 0 and at + len(nearest) == len(best) and _LABEL_OR_CRUMBS_RE.search(best[:at]):
            return nearest
        return best
    if meta:
        return meta
    if candidates:
        return candidates[0]
    for element in doc.root.xpath(_TITLE_ATTRIBUTE_XPATH):
        text = normalize_space(text_of(element))
        if is_sane_title(text):
            return text
    return ""


def _headline_of_social(social: str, site: str) -> str:
    """The headline an ``og:title`` gives: none when it is the site's own name
    (``og:site_name``), as on the article pages of some sites, else all of it."""
    return "" if normalize_space(site).lower() == social.lower() else social


def _headings(doc: ParsedPage, limit: int = 30) -> list[str]:
    """Texts of the first ``limit`` sane headings, in document order."""
    found = []
    for element in doc.root.iter(*_HEADINGS):
        text = normalize_space(text_of(element))
        if _is_sane_normalized(text):
            found.append(text)
            if len(found) >= limit:
                break
    return found
