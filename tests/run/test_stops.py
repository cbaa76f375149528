"""A stopped `newsml predict`: its workers end with it, whatever the signal, and its work is kept."""

from __future__ import annotations

import json
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


def predict(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "newsml", "predict", *args], capture_output=True, text=True,
                          timeout=300)


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


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _stopped(tmp_path: Path, signum: int, *options: str) -> tuple[subprocess.Popen, str, Path, Path]:
    """A run over 1,000 pages to out.jsonl, sent ``signum`` once it has written 20 records."""
    pages = many_pages(tmp_path / "pages", 1000)
    out = tmp_path / "out.jsonl"
    run = start_predict(str(pages), "-o", str(out), "-m", "econ", *options)
    assert _wait_for(lambda: _lines(tmp_path / ".out.jsonl.partial") >= 20), run.communicate()
    run.send_signal(signum)
    _, stderr = run.communicate(timeout=60)
    return run, stderr, pages, out


@pytest.mark.parametrize("options", [("-j", "2"), ("-j", "1", "--timeout", "0")])
def test_sigterm_keeps_the_finished_records_as_ctrl_c_does(tmp_path, options):
    """TERM (timeout, systemd, docker stop) ended a run with no message, no output and the
    finished records in a hidden temporary file, never removed."""
    run, stderr, pages, out = _stopped(tmp_path, signal.SIGTERM, *options)
    assert run.returncode == 143
    kept = _records(out)
    assert len(kept) >= 20 and all(r["text"] for r in kept)
    assert f"newsml: terminated (SIGTERM) after {len(kept)} pages; {out} holds them " \
           "(--resume continues it)" in stderr and "Traceback" not in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "pages"]    # nothing left over
    again = predict(str(pages), "-o", str(out), "-m", "econ", "--resume")
    assert again.returncode == 0, again.stderr
    assert sorted(r["path"] for r in _records(out)) == sorted(str(p) for p in pages.iterdir())


def test_after_a_kill_resume_continues_the_run(tmp_path):
    """KILL left the finished records in a temporary file that --resume ignored: every page
    was done again, and the temporary files piled up."""
    run, _, pages, out = _stopped(tmp_path, signal.SIGKILL, "-j", "2")
    partial = tmp_path / ".out.jsonl.partial"
    assert run.returncode == -signal.SIGKILL and not out.exists() and _lines(partial) >= 20
    fresh = predict(str(pages), "-o", str(out), "-m", "econ")
    assert fresh.returncode == 2 and "--resume continues it, --force starts again" in fresh.stderr
    done = len(_records_whole(partial))
    again = predict(str(pages), "-o", str(out), "-m", "econ", "--resume")
    assert again.returncode == 0, again.stderr
    assert "continuing the run that was stopped before it finished" in again.stderr
    paths = [r["path"] for r in _records(out)]
    assert sorted(paths) == sorted(str(p) for p in pages.iterdir())              # each page once
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "pages"]
    assert done >= 20


def _records_whole(path: Path) -> list[dict]:
    """The whole records of a file a killed run wrote (its last line may be cut)."""
    found = []
    for line in path.read_bytes().splitlines(keepends=True):
        if line.endswith(b"\n"):
            found.append(json.loads(line))
    return found


def test_one_run_at_a_time_per_output(tmp_path):
    """Two --resume runs on one output both exited 0, every record written twice."""
    pages = many_pages(tmp_path / "pages", 1000)
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"")
    first = start_predict(str(pages), "-o", str(out), "-m", "econ", "-j", "1", "--resume")
    try:
        assert _wait_for(lambda: _lines(out) >= 5), first.communicate()
        second = predict(str(pages), "-o", str(out), "-m", "econ", "--resume")
        assert second.returncode == 2
        lock = tmp_path / ".out.jsonl.lock"
        assert f"newsml: error: another newsml run is writing {out} (it holds {lock}): " \
               "wait for it to end, or give another -o" in second.stderr
        first.communicate(timeout=300)
    finally:
        first.kill()
        first.communicate()
    assert first.returncode == 0
    assert sorted(r["path"] for r in _records(out)) == sorted(str(p) for p in pages.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "pages"]



class _SignallingWriter:
    """A record writer that sends this process ``signals`` while it writes record ``at``."""

    def __init__(self, at: int, signals: tuple[int, ...]) -> None:
        self.at, self.signals, self.records = at, signals, []

    def start(self) -> None:
        pass

    def write(self, record: dict) -> None:
        if len(self.records) == self.at:
            for signum in self.signals:
                os.kill(os.getpid(), signum)
        self.records.append(record)

    def close(self) -> None:
        pass


class _Destination:
    committed = False

    def commit(self) -> None:
        self.committed = True


def _run(writer: _SignallingWriter):
    from newsml.run.batch import run

    def extract(pages):
        return ({"path": source.key, "title": "", "text": ""} for source, _ in pages)

    destination = _Destination()
    return run([str(page) for page in PAGES[:5]], destination, writer, extract), destination


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_during_a_write_comes_after_the_record_is_counted(signum):
    from newsml.run.stops import terminate_as_interrupt

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    writer = _SignallingWriter(at=2, signals=(signum,))
    with terminate_as_interrupt():
        outcome, destination = _run(writer)
    assert outcome.interrupted and outcome.terminated == (signum == signal.SIGTERM)
    assert outcome.written == len(writer.records) == 3 and not outcome.cut_short
    assert destination.committed
    assert {s: signal.getsignal(s) for s in before} == before


def test_a_second_stop_during_a_write_stops_it_at_once():
    from newsml.run.stops import terminate_as_interrupt

    writer = _SignallingWriter(at=1, signals=(signal.SIGINT, signal.SIGINT))
    with terminate_as_interrupt():
        outcome, _ = _run(writer)
    assert outcome.interrupted and outcome.cut_short
    assert outcome.written == len(writer.records) == 1      # (the record being written is not)


def test_an_ignored_stop_is_left_ignored_and_handlers_come_back():
    from newsml.run.stops import stops_guarded

    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with stops_guarded() as hold:
            assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
            assert signal.getsignal(signal.SIGINT) == hold.handle
            with hold.step():
                os.kill(os.getpid(), signal.SIGTERM)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGTERM, previous)
