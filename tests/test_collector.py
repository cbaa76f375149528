"""Extraction pauses Python's cyclic collector for the page and gives it back as it was."""

from __future__ import annotations

import gc
import threading

import pytest

from newsml import InvalidPageError, extract
from newsml.extract import collector_paused
from newsml.methods import new_method

PAGE = "<html><body><p>The council approved the budget on Monday, after a long debate.</p></body></html>"


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_paused_during_a_page_and_enabled_after(collector_on, monkeypatch):
    method = new_method("econ")
    seen = []
    real = type(method).score_nodes
    monkeypatch.setattr(type(method), "score_nodes",
                        lambda self, page: seen.append(gc.isenabled()) or real(self, page))
    assert extract(PAGE, method=method).text
    assert seen == [False]
    assert gc.isenabled()


def test_an_error_gives_the_collector_back(collector_on):
    with pytest.raises(InvalidPageError):
        extract(b"\x00\x01\x02 not a page \x00" * 50, method="econ")
    assert gc.isenabled()


def test_a_caller_that_disabled_the_collector_keeps_it_disabled(collector_on):
    gc.disable()
    extract(PAGE, method="econ")
    assert not gc.isenabled()
    gc.enable()


def test_threads_in_flight_share_one_pause(collector_on):
    """The collector comes back when the last extraction in flight ends, not the first."""
    inside, release = threading.Event(), threading.Event()

    def slow() -> None:
        with collector_paused():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=slow)
    thread.start()
    inside.wait(10)
    extract(PAGE, method="econ")         # starts and ends while the other is in flight
    assert not gc.isenabled()
    release.set()
    thread.join(10)
    assert gc.isenabled()
