"""A stopped `newsml predict`: its workers end with it, whatever the signal, and its work is kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import LABELED

PAGES = sorted(LABELED.glob("*.html"))

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; Linux signals")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()        # state, parent id, ...


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def _wait_for(condition, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def many_pages(folder: Path, count: int) -> Path:
    """``count`` pages in ``folder`` (hard links of the labeled ones): a run that lasts."""
    folder.mkdir()
    for i in range(count):
        os.link(PAGES[i % len(PAGES)], folder / f"p{i:05}.html")
    return folder


def start_predict(*args: str, cwd: Path | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "newsml", "predict", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_when_the_run_is_killed_or_terminated(tmp_path, signum):
    """After KILL or TERM of `predict -j 2`, its two workers lived on, forever."""
    pages = many_pages(tmp_path / "pages", 3000)
    run = start_predict(str(pages), "-o", str(tmp_path / "out.jsonl"), "-j", "2", "-m", "econ")
    workers: list[int] = []
    try:
        assert _wait_for(lambda: len(_children(run.pid)) == 2), run.stderr
        workers = _children(run.pid)
        time.sleep(0.5)                              # pages in flight
        run.send_signal(signum)
        run.wait(60)
        assert _wait_for(lambda: not any(_alive(pid) for pid in workers), 20), "workers outlived the run"
    finally:
        run.kill()
        for pid in workers:             # orphans of a failed test: not left behind, holding its pipes
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        run.communicate()
