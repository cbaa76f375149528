"""Dates as pages write them, read into ISO 8601 (newsml/document/dates.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsml.document.dates import date_in_address, dates_in, day_of, parse_date


@pytest.mark.parametrize("text, expected", [
    ("2024-03-13T23:58:00-05:00", "2024-03-13T23:58:00-05:00"),
    ("2015-03-27T13:07:55.096Z", "2015-03-27T13:07:55+00:00"),
    ("2021-11-01T10:52:50+0100", "2021-11-01T10:52:50+01:00"),
    ("Posted 2024/03/13", "2024-03-13"),
    ("March 13, 2024, 11:58 p.m.", "2024-03-13T23:58"),
    ("Updated June 8, 2024 1:47 PM", "2024-06-08T13:47"),
    ("Sunday 21 April 2024, 18:05", "2024-04-21T18:05"),
    ("Mar. 13th 2024", "2024-03-13"),
    ("Wed, 13 Mar 2024 23:58:00 GMT", "2024-03-13T23:58:00+00:00"),
    ("13. März 2024 um 10:15 Uhr", "2024-03-13T10:15"),
    ("13 de marzo de 2024", "2024-03-13"),
    ("31/12/2023", "2023-12-31"),             # the first number cannot be a month: day first
    ("03/13/2024", "2024-03-13"),             # the second cannot: month first
    ("1700000000", "2023-11-14T22:13:20+00:00"),
])
def test_latin_forms(text, expected):
    assert parse_date(text, last_year=2026) == expected


@pytest.mark.parametrize("text, expected", [
    ("2019年08月12日 10:23", "2019-08-12T10:23"),
    ("2019年8月12日", "2019-08-12"),
    ("发布时间：2012-01-12 09:30:15 来源：新华网", "2012-01-12T09:30:15"),
    ("2011年12月9日 下午3:05", "2011-12-09T15:05"),
    ("2012年01月12日10时23分", "2012-01-12T10:23"),
    ("2012.01.12 02:09 am", "2012-01-12T02:09"),
])
def test_chinese_forms(text, expected):
    assert parse_date(text, last_year=2026) == expected


def test_what_is_no_date():
    for text in ("", "no date here", "2024-13-01", "2024-02-30", "1850-01-01", "version 2.0.1", "2099-01-01",
                 "by Lucas Nolan22 Dec 2016651"):
        assert parse_date(text, last_year=2026) is None, text


def test_every_date_of_a_line_in_its_order_and_the_day():
    assert [day_of(date) for date in dates_in("August 16, 2019 - Updated July 9, 2025")] == ["2019-08-16",
                                                                                          "2025-07-09"]
    assert day_of("2024-03-13T23:58") == "2024-03-13" and day_of(None) is None
    # two <time> elements the page's markup glues together: both read
    assert dates_in("May 21, 2025April 24, 2025 by The Ritualist") == ["2025-05-21", "2025-04-24"]
    for inside_a_word in ("Summay 3, 2024", "id_mar 3, 2024"):    # a month name ending a word is none
        assert dates_in(inside_a_word) == [], inside_a_word


def test_dates_in_addresses():
    assert date_in_address("https://e.com/news/2024/03/13/slug") == "2024-03-13"
    assert date_in_address("https://e.com/a/20120112/abc.html") == "2012-01-12"
    assert date_in_address("/2024-03/13/content_1.htm") == "2024-03-13"
    assert date_in_address("https://e.com/2024/13/45/x") is None and date_in_address("") is None


_PIECES = ["2025-12-15T12:15:15-08:00", "2024/03/13", "2019年08月12日 10:23", "March 13, 2024 11:58 p.m.",
           "13 March 2024, 18:05", "10/12/2023 7:38:01 PM", "On 8 Oct 2022", "Updated ", "by Ana ", ", ",
           "12:30", "1999", "2031-02-30", " | ", "20", "-", "年", "Dec. 3rd 2021", "1700000000"]


@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6))
@settings(max_examples=400, deadline=None)
def test_the_first_date_is_the_first_of_all_the_dates(pieces):
    """parse_date stops early (a date at the text's start leaves only the others there to
    read): it gives the first of every date the text holds all the same."""
    text = "".join(pieces)
    assert parse_date(text) == next(iter(dates_in(text)), None)
