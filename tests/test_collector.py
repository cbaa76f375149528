"""Extraction pauses Python's cyclic collector for the page and gives it back as it was."""

from __future__ import annotations

import gc
import threading

import pytest
from conftest import LABELED

from newsml import InvalidPageError, extract
from newsml.dom.page import load_page
from newsml.features.thread import ThreadFeatures
from newsml.methods import new_method, shipped_names

PAGE = "<html><body><p>The council approved the budget on Monday, after a long debate.</p></body></html>"


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.fixture
def watched(monkeypatch):
    """An ECON method that notes whether the collector is on each time it scores a page,
    and the list of what it noted."""
    method = new_method("econ")
    seen: list[bool] = []
    real = type(method).score_nodes
    monkeypatch.setattr(type(method), "score_nodes",
                        lambda self, page: seen.append(gc.isenabled()) or real(self, page))
    return method, seen


def test_the_collector_is_paused_during_a_page_and_enabled_after(collector_on, watched):
    method, seen = watched
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


def test_with_other_threads_running_the_collector_is_left_alone(collector_on, watched):
    """Another thread may need the collector while a page is extracted."""
    method, seen = watched
    release = threading.Event()
    other = threading.Thread(target=release.wait, args=(10,))
    other.start()
    try:
        extract(PAGE, method=method)
    finally:
        release.set()
        other.join(10)
    assert seen == [True]


@pytest.mark.parametrize("method", [*shipped_names(), "econ", "cetr", "cetd", "cepr", "twcem",
                                    "title-relevance"])
def test_extraction_makes_no_reference_cycles(collector_on, method):
    """What the pause relies on: a page's objects, its lxml tree above all, are freed by
    reference counting, not left for the collector."""
    pages = [LABELED / "en01-council-budget.html", LABELED / "zh01-park-regulation.html"]
    for page in pages:
        extract(page, method=method)
    gc.collect()
    gc.disable()
    try:
        for page in pages:
            extract(page, method=method)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_thread_family_makes_no_reference_cycles(collector_on):
    page = load_page(LABELED / "en01-council-budget.html")
    gc.collect()
    gc.disable()
    try:
        ThreadFeatures().page_features(page)
        del page
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_pages_extracted_from_several_threads_at_once_get_the_text_they_get_alone():
    """A crawler's thread pool may share the process's models, caches and jieba: nothing
    one page's extraction keeps may leak into another's (the collector stays on, as it
    does with threads running)."""
    from concurrent.futures import ThreadPoolExecutor

    pages = [path.read_bytes() for path in sorted(LABELED.glob("*.html"))]
    alone = [extract(page).text for page in pages]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda page: extract(page).text, pages * 2))
    assert together == alone * 2 and all(alone)
