"""newsml/run/records.py: one page's record, the article or the error, within a time limit."""

from __future__ import annotations

import signal
import time

import pytest
from conftest import LABELED

import newsml.run.pool as pool_module
import newsml.run.records as records_module
from newsml.errors import ConfigurationError
from newsml.methods import new_method
from newsml.run.records import ScorerSpec, page_record

PAGES = sorted(LABELED.glob("*.html"))
ECON = new_method("econ")  # a rule method: no model to load, fast


def test_page_record_holds_the_article_or_the_error_and_never_raises():
    ok = page_record(PAGES[0].read_bytes(), ECON, {"path": "p.html"})
    assert ok["path"] == "p.html" and ok["text"] and ok["method"] == "econ" and "error" not in ok
    for bad, reason in [(b"", "empty page"), (b"%PDF-1.4 binary", "binary data: the input is a PDF")]:
        record = page_record(bad, ECON, {"path": "bad", "url": "https://x/"})
        assert record == {"path": "bad", "url": "https://x/", "error": record["error"]}
        assert record["error"].startswith(reason)


def test_page_record_takes_a_method_name_and_refuses_an_unknown_one():
    record = page_record(PAGES[0].read_bytes(), "econ", {"path": "p.html"})
    assert record["method"] == "econ" and record["text"] and "error" not in record
    with pytest.raises(ConfigurationError, match="unknown method"):
        page_record(PAGES[0].read_bytes(), "no-such-method", {"path": "p.html"})


def test_a_page_over_the_time_limit_is_an_error_record(monkeypatch):
    def slow(page, scorer, *options):
        time.sleep(5)

    monkeypatch.setattr(records_module, "extract_page", slow)
    handler = signal.getsignal(signal.SIGALRM)
    started = time.monotonic()
    record = page_record(PAGES[0].read_bytes(), ECON, {"path": "p.html"}, timeout=0.2)
    assert record == {"path": "p.html", "error": "took longer than 0.2 s (--timeout)"}
    assert time.monotonic() - started < 4  # interrupted, not waited out
    assert signal.getsignal(signal.SIGALRM) == handler  # the handler before it is back
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left behind


def test_a_negative_time_limit_is_refused():
    from newsml.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="time limit"), records_module.time_limit(-1):
        pass
    with pytest.raises(ConfigurationError, match="time limit"):
        page_record(PAGES[0].read_bytes(), ECON, {"path": "p.html"}, timeout=-1)
    negative = pool_module.extraction(ScorerSpec("econ"), jobs=1, timeout=-1)
    with pytest.raises(ConfigurationError, match="time limit"), negative:
        pass
