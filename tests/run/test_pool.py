"""newsml/run/pool.py: worker processes that extract pages, replaced when they die or hang."""

from __future__ import annotations

import os
import signal
import time

from conftest import LABELED

import newsml.run.pool as pool_module
import newsml.run.records as records_module
from newsml.input.sources import Source
from newsml.run.pool import WorkerPool
from newsml.run.records import ScorerSpec

PAGES = sorted(LABELED.glob("*.html"))


def test_a_worker_stuck_where_the_alarm_cannot_reach_is_replaced(monkeypatch):
    original = records_module.extract_page

    def stuck(page, scorer, *options):  # as a long call into C: the alarm signal is held back
        if page.title.startswith("Flash flood warning"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(60)
        return original(page, scorer)

    monkeypatch.setattr(records_module, "extract_page", stuck)
    pages = [(Source(str(page)), None) for page in PAGES[:5]]
    with WorkerPool(ScorerSpec("econ"), jobs=2, timeout=0.3) as pool:
        found = list(pool.records(pages))
    assert [r["path"] for r in found] == [str(page) for page in PAGES[:5]]
    assert [r.get("error", "") for r in found][1].endswith("its worker was stopped")
    assert sum("error" in r for r in found) == 1


def test_one_job_leaves_the_callers_thread_settings_as_they_were(monkeypatch):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    with pool_module.extraction(ScorerSpec("econ"), jobs=1, timeout=None) as extract:
        assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
        [record] = list(extract([(Source(str(PAGES[0])), None)]))
    assert record["text"] and "OPENBLAS_NUM_THREADS" not in os.environ


def test_a_worker_that_dies_costs_its_page_only(monkeypatch):
    original = records_module.extract_page

    def crash(page, scorer, *options):
        if page.title.startswith("Flash flood warning"):
            os._exit(3)
        return original(page, scorer)

    monkeypatch.setattr(records_module, "extract_page", crash)
    pages = [(Source(str(page)), None) for page in PAGES[:5]]
    with WorkerPool(ScorerSpec("econ"), jobs=2, timeout=None) as pool:
        found = list(pool.records(pages))
    assert [r.get("error") for r in found] == [
        None, "the worker process extracting it died (exit code 3)", None, None, None]


def test_a_worker_killed_while_idle_is_replaced():
    pages = [(Source(str(page)), None) for page in PAGES[:4]]
    with WorkerPool(ScorerSpec("econ"), jobs=2, timeout=5) as pool:
        first = pool._workers[0].process
        first.kill()
        first.join()
        found = list(pool.records(pages))
        assert pool._workers[0].process is not first and pool._workers[0].process.is_alive()
    assert [r["path"] for r in found] == [str(page) for page in PAGES[:4]]
    assert not any("error" in r for r in found)


def _ended(process, seconds: float = 10) -> bool:
    process.join(seconds)
    return not process.is_alive()


def test_workers_end_when_their_pipe_to_the_pool_closes():
    """A forked worker held a copy of the pool's end of its own pipe (and of the others'):
    it never saw the pipe close when the pool's process died, and lived on."""
    with WorkerPool(ScorerSpec("econ"), jobs=3, timeout=None) as pool:
        workers = list(pool._workers)
        for worker in workers:      # as when this process dies: its ends close, nothing is sent
            worker.conn.close()
        assert all(_ended(worker.process) for worker in workers)
