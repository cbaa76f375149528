"""newsml/run/batch.py: `newsml predict` over folders, lists and WARC files, in order, resumable, in
worker processes."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from conftest import LABELED, crawl, undecodable_crawl
from typer.testing import CliRunner

import newsml.run.batch as batch
import newsml.run.pool as pool_module
import newsml.run.records as records_module
from newsml.errors import OutputError
from newsml.methods import new_method
from newsml.run.batch import completed_keys
from newsml.run.cli import app
from newsml.run.records import page_record

PAGES = sorted(LABELED.glob("*.html"))
ECON = new_method("econ")  # a rule method: no model to load, fast


def predict(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(app, ["predict", *args], input=input)


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture
def folder(tmp_path):
    """Eight labeled pages in a folder tree, with files that are not pages beside them."""
    root = tmp_path / "pages"
    for i, page in enumerate(PAGES[:8]):
        target = root / ("sub" if i % 2 else "") / page.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(page.read_bytes())
    (root / "notes.txt").write_text("not a page", encoding="utf-8")
    return root


# -- the command line: inputs -------------------------------------------------------------------

def test_a_folder_is_walked_for_html_files_in_sorted_order(folder):
    result = predict(str(folder), "-f", "jsonl", "--method", "econ", "-j", "1")
    assert result.exit_code == 0, result.output
    paths = [r["path"] for r in records(result.stdout)]
    assert len(paths) == 8 and paths == sorted(paths) and all(p.endswith(".html") for p in paths)
    assert [os.path.basename(os.path.dirname(p)) for p in paths] == ["pages"] * 4 + ["sub"] * 4
    only = predict(str(folder), "--glob", "sub/*.html", "-f", "jsonl", "-m", "econ", "-j", "1")
    assert [r["path"] for r in records(only.stdout)] == paths[4:]
    none = predict(str(folder), "--glob", "*.xml", "-m", "econ")
    assert none.exit_code == 2 and "no pages found: no file matches *.xml" in none.stderr


def test_from_file_reads_a_list_of_paths_and_stdin(folder, tmp_path):
    listed = [str(PAGES[3]), str(PAGES[1])]
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(listed) + "\n\n", encoding="utf-8")
    result = predict(str(PAGES[0]), "--from-file", str(listing), "-f", "jsonl", "-m", "econ", "-j", "1")
    assert [r["path"] for r in records(result.stdout)] == [str(PAGES[0]), *listed]
    result = predict("--from-file", "-", "-f", "jsonl", "-m", "econ", input="\n".join(listed))
    assert [r["path"] for r in records(result.stdout)] == listed
    result = predict("-", "--from-file", "-", "-m", "econ", input="x")
    assert result.exit_code == 2 and "standard input cannot be both" in result.stderr
    assert predict("-m", "econ").exit_code == 2
    other = tmp_path / "other.txt"
    other.write_text(str(PAGES[2]) + "\n", encoding="utf-8")
    result = predict("--from-file", str(listing), "--from-file", str(other), "-f", "jsonl", "-m", "econ")
    assert [r["path"] for r in records(result.stdout)] == [*listed, str(PAGES[2])]


def test_a_warc_file_gives_one_record_per_html_response(tmp_path):
    path = crawl(tmp_path / "crawl.warc.gz", n=3)
    result = predict(str(path), "-f", "jsonl", "-m", "econ", "-j", "1")
    assert result.exit_code == 0, result.output
    found = records(result.stdout)
    assert [r["url"] for r in found] == [f"https://example.com/{i}" for i in range(3)]
    assert all(r["path"] == str(path) and r["record_id"].startswith("<urn:uuid:") for r in found)
    alone = [page_record(PAGES[i].read_bytes(), ECON, {})["text"] for i in range(3)]
    assert [r["text"] for r in found] == alone  # the page itself: no WARC or HTTP header in it
    assert all("WARC-" not in r["text"] and "HTTP/1.1" not in r["text"] for r in found)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_records_after_an_undecodable_warc_record_are_extracted(tmp_path, jobs):
    """A bad chunked body, gzip named on a plain body or a gzip bomb ended the WARC file there."""
    path = undecodable_crawl(tmp_path / "c.warc.gz")
    result = predict(str(path), "-f", "jsonl", "-m", "econ", "-j", jobs)
    assert result.exit_code == 1
    found = records(result.stdout)
    assert [r["url"] for r in found] == ["https://example.com/0", "https://example.com/chunks",
                                         "https://example.com/plain", "https://example.com/bomb",
                                         "https://example.com/1"]
    assert found[0]["text"] and found[4]["text"]
    assert "cannot decode the body of this WARC record: bad chunked encoding" in found[1]["error"]
    assert "not the gzip data its Content-Encoding says" in found[2]["error"]
    assert found[3]["error"].startswith("page too large")
    assert "https://example.com/chunks: cannot decode the body" in result.stderr


def test_a_file_whose_name_does_not_say_what_it_is_is_opened_once_to_tell(tmp_path, monkeypatch):
    """A WARC file named crawl.dat and a page named page.dat: each is looked into once
    (the command line decides the number of jobs with it and tells the reader)."""
    import newsml.input.sources as sources_module

    crawled = crawl(tmp_path / "crawl.warc.gz", n=2).rename(tmp_path / "crawl.dat")
    page = tmp_path / "page.dat"
    page.write_bytes(PAGES[0].read_bytes())
    looked, real = [], sources_module.is_warc
    monkeypatch.setattr(sources_module, "is_warc",
                        lambda path, **options: looked.append(path) or real(path, **options))
    result = predict(str(crawled), str(page), "-f", "jsonl", "-m", "econ", "-j", "1")
    assert result.exit_code == 0, result.output
    canonical = json.loads(PAGES[0].with_suffix(".json").read_text(encoding="utf-8"))["url"]
    assert [r.get("url") for r in records(result.stdout)] == [   # (a file's: its canonical address)
        "https://example.com/0", "https://example.com/1", canonical]
    assert sorted(looked) == sorted([str(crawled), str(page)])

# -- the command line: output -------------------------------------------------------------------

def test_failed_pages_are_error_records_in_order(tmp_path):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    args = [str(PAGES[0]), str(empty), str(tmp_path / "missing.html"), str(PAGES[1])]
    result = predict(*args, "-f", "jsonl", "-m", "econ", "-j", "2")
    assert result.exit_code == 1
    found = records(result.stdout)
    assert [r["path"] for r in found] == args
    assert ["error" in r for r in found] == [False, True, True, False]
    assert len(result.stderr.splitlines()) == 2 and "missing.html: no such file" in result.stderr


def test_an_output_named_jsonl_is_json_lines(tmp_path):
    out = tmp_path / "out.jsonl"
    assert predict(str(PAGES[0]), str(PAGES[1]), "-o", str(out), "-m", "econ").exit_code == 0
    assert [r["path"] for r in records(out.read_text(encoding="utf-8"))] == [str(PAGES[0]), str(PAGES[1])]
    text = tmp_path / "out.txt"
    assert predict(str(PAGES[0]), "-o", str(text), "-m", "econ", "-f", "text").exit_code == 0
    assert not text.read_text(encoding="utf-8").startswith("{")


def test_json_streams_an_array_equal_to_the_records(tmp_path):
    result = predict(str(PAGES[0]), str(PAGES[1]), "-f", "json", "-m", "econ", "-j", "1")
    lines = predict(str(PAGES[0]), str(PAGES[1]), "-f", "jsonl", "-m", "econ", "-j", "1")
    assert json.loads(result.stdout) == records(lines.stdout)
    assert result.stdout == json.dumps(records(lines.stdout), ensure_ascii=False, indent=2) + "\n"


def test_an_existing_output_is_refused_unless_forced_or_resumed(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    result = predict(str(PAGES[0]), "-o", str(out), "-m", "econ")
    assert result.exit_code == 2 and "exists: --force replaces it" in result.stderr
    assert out.read_text(encoding="utf-8") == "precious\n"
    assert predict(str(PAGES[0]), "-o", str(out), "-m", "econ", "--force").exit_code == 0
    assert records(out.read_text(encoding="utf-8"))[0]["path"] == str(PAGES[0])
    both = predict(str(PAGES[0]), "-o", str(out), "--force", "--resume")
    assert both.exit_code == 2 and "give one" in both.stderr
    text = predict(str(PAGES[0]), "-o", str(tmp_path / "out.txt"), "--resume")
    assert text.exit_code == 2 and "--resume needs a JSON-lines output" in text.stderr


def test_force_never_writes_over_a_list_of_paths_or_the_model_file(tmp_path):
    """Pages given as -o were refused, but --force replaced a --from-file list or the --model file."""
    listing = tmp_path / "list.txt"
    listing.write_text(f"{PAGES[0]}\n", encoding="utf-8")
    model = tmp_path / "m.joblib"
    model.write_bytes(b"a model file")
    for args in (["--from-file", str(listing), "-o", str(listing)],
                 [str(PAGES[0]), "--model", str(model), "-o", str(model)]):
        result = predict(*args, "--force", "-f", "jsonl")
        assert result.exit_code == 2, result.output
        assert "it is one of the files read (the lists of paths, the model file)" in result.stderr
    assert listing.read_text(encoding="utf-8") == f"{PAGES[0]}\n" and model.read_bytes() == b"a model file"


def test_resume_skips_the_pages_done_and_appends_the_rest(tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    warc = crawl(tmp_path / "crawl.warc.gz", n=3)
    inputs = [str(PAGES[0]), str(warc), str(PAGES[1])]
    full = predict(*inputs, "-f", "jsonl", "-m", "econ", "-j", "1")
    # a first run that did the first page and the first WARC record, then was killed mid-line
    first_two = full.stdout.splitlines(keepends=True)[:2]
    out.write_text("".join(first_two) + first_two[0][:25], encoding="utf-8")
    assert completed_keys(out) == {str(PAGES[0]), records(first_two[1])[0]["record_id"]}
    assert out.read_text(encoding="utf-8") == "".join(first_two)  # the cut line is gone
    seen = []
    original = pool_module.source_record

    def counting(source, *args, **kwargs):
        seen.append(source.key)
        return original(source, *args, **kwargs)

    monkeypatch.setattr(pool_module, "source_record", counting)
    result = predict(*inputs, "-o", str(out), "--resume", "-m", "econ", "-j", "1", "--timeout", "0")
    assert result.exit_code == 0, result.output
    assert len(seen) == 3 and str(PAGES[0]) not in seen  # two WARC records and the last page
    assert out.read_text(encoding="utf-8") == full.stdout
    again = predict(*inputs, "-o", str(out), "--resume", "-m", "econ", "-j", "1")
    assert again.exit_code == 0 and out.read_text(encoding="utf-8") == full.stdout


def test_resume_refuses_a_file_that_is_not_json_lines(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("a plain line\n{\"path\": \"x\"}\n", encoding="utf-8")
    with pytest.raises(OutputError, match="line 1 is not a JSON record"):
        completed_keys(out)
    result = predict(str(PAGES[0]), "-o", str(out), "--resume", "-m", "econ")
    assert result.exit_code == 2 and out.read_text(encoding="utf-8").startswith("a plain line")
    for content in ["my precious notes\n", "my precious notes"]:  # one line: not a cut-short record
        out.write_text(content, encoding="utf-8")
        with pytest.raises(OutputError, match="line 1 is not a JSON record"):
            completed_keys(out)
        result = predict(str(PAGES[0]), "-o", str(out), "--resume", "-m", "econ", "-j", "1")
        assert result.exit_code == 2 and out.read_text(encoding="utf-8") == content


def test_resume_keeps_a_whole_last_record_without_its_newline(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text('{"path": "zzz.html", "title": "keep me"}', encoding="utf-8")
    result = predict(str(PAGES[0]), "-o", str(out), "--resume", "-m", "econ", "-j", "1")
    assert result.exit_code == 0, result.output
    lines = records(out.read_text(encoding="utf-8"))
    assert [line["path"] for line in lines] == ["zzz.html", str(PAGES[0])]
    assert lines[0]["title"] == "keep me"


def test_resume_says_what_it_drops(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    out.write_text('{"path": "a.html"}\n{"path": "b.ht', encoding="utf-8")
    assert completed_keys(out) == {"a.html"}
    assert out.read_text(encoding="utf-8") == '{"path": "a.html"}\n'
    err = capsys.readouterr().err
    assert "dropped its last line" in err and '{"path": "b.ht' in err


def test_ctrl_c_keeps_the_finished_records_and_resume_continues(tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    inputs = [str(page) for page in PAGES[:5]]
    expected = predict(*inputs, "-f", "jsonl", "-m", "econ", "-j", "1").stdout
    original = pool_module.source_record

    def interrupted(source, *args, **kwargs):
        if source.path == inputs[3]:
            raise KeyboardInterrupt
        return original(source, *args, **kwargs)

    monkeypatch.setattr(pool_module, "source_record", interrupted)
    result = predict(*inputs, "-o", str(out), "-m", "econ", "-j", "1", "--timeout", "0")  # in this process
    assert result.exit_code == 130 and "interrupted after 3 pages" in result.stderr
    assert "--resume continues it" in result.stderr
    assert out.read_text(encoding="utf-8") == "".join(expected.splitlines(keepends=True)[:3])
    monkeypatch.setattr(pool_module, "source_record", original)
    assert predict(*inputs, "-o", str(out), "-m", "econ", "--resume").exit_code == 0
    assert out.read_text(encoding="utf-8") == expected


# -- worker processes ---------------------------------------------------------------------------

def test_two_jobs_give_the_same_records_in_the_same_order(folder, tmp_path):
    warc = crawl(tmp_path / "crawl.warc.gz", n=4)
    args = [str(folder), str(warc), str(PAGES[9])]
    one = predict(*args, "-f", "jsonl", "-j", "1")
    two = predict(*args, "-f", "jsonl", "-j", "2")
    assert one.exit_code == two.exit_code == 0
    assert len(records(two.stdout)) == 8 + 4 + 1 and two.stdout == one.stdout


def test_a_slow_page_in_a_worker_is_an_error_record(tmp_path, monkeypatch):
    original = records_module.extract_page
    slow_title = "Flash flood warning"

    def slow_on_one_page(page, scorer, *options):
        if page.title.startswith(slow_title):
            time.sleep(30)
        return original(page, scorer, *options)

    monkeypatch.setattr(records_module, "extract_page", slow_on_one_page)  # workers are forked with it
    args = [str(page) for page in PAGES[:4]]
    result = predict(*args, "-f", "jsonl", "-m", "econ", "-j", "2", "--timeout", "0.5")
    assert result.exit_code == 1
    found = records(result.stdout)
    assert [r["path"] for r in found] == args
    failed = [r for r in found if "error" in r]
    assert len(failed) == 1 and failed[0]["error"] == "took longer than 0.5 s (--timeout)"
    assert "en02-flood-warning.html" in failed[0]["path"]


def test_one_job_with_a_time_limit_stops_a_page_stuck_in_c_code(monkeypatch):
    original = records_module.extract_page

    def stuck(page, scorer, *options):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)
        return original(page, scorer)

    monkeypatch.setattr(records_module, "extract_page", stuck)
    started = time.monotonic()
    result = predict(str(PAGES[0]), "-f", "jsonl", "-m", "econ", "-j", "1", "--timeout", "0.3")
    assert result.exit_code == 1 and time.monotonic() - started < 20
    [record] = records(result.stdout)
    assert record["error"].endswith("its worker was stopped")


def test_a_method_that_cannot_load_is_one_clear_error(tmp_path):
    for jobs in ("1", "2"):
        result = predict(str(PAGES[0]), str(PAGES[1]), "--model", str(tmp_path / "none.joblib"), "-j", jobs)
        assert result.exit_code == 2 and "model file not found" in result.stderr, jobs
        assert "Traceback" not in result.stderr


# -- names, resumption and interruption -------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")
def test_a_named_pipe_in_a_folder_is_an_error_record_and_does_not_hang_the_run(tmp_path):
    import subprocess
    import sys

    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.html").write_bytes(PAGES[0].read_bytes())
    os.mkfifo(folder / "b.html")
    out = tmp_path / "o.jsonl"
    result = subprocess.run([sys.executable, "-m", "newsml", "predict", str(folder), "-o", str(out),
                             "-m", "econ", "--timeout", "2"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    first, second = records(out.read_text(encoding="utf-8"))
    assert first["path"] == str(folder / "a.html") and first["text"]
    assert second["path"] == str(folder / "b.html")
    assert "not a regular file but a named pipe" in second["error"]
    assert "b.html: not a regular file" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")
@pytest.mark.parametrize("name", ["b.html", "b.warc"])   # (a .warc name is not looked into first)
def test_a_named_pipe_on_the_command_line_is_bounded_by_the_timeout(tmp_path, name):
    """Named as an input (not found in a folder), a pipe that no program writes to blocked the
    run in open(), before any page and whatever --timeout said."""
    import subprocess
    import sys

    page, pipe = tmp_path / "a.html", tmp_path / name
    page.write_bytes(PAGES[0].read_bytes())
    os.mkfifo(pipe)
    out = tmp_path / "o.jsonl"
    result = subprocess.run([sys.executable, "-m", "newsml", "predict", str(pipe), str(page), "-o", str(out),
                             "-m", "econ", "--timeout", "2"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    first, second = records(out.read_text(encoding="utf-8"))
    assert first["path"] == str(pipe) and "no bytes came for 2 s" in first["error"]
    assert second["path"] == str(page) and second["text"]
    assert "Traceback" not in result.stderr


def test_a_file_name_that_is_not_utf8_gets_a_record_and_resumes(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    try:
        (folder / os.fsdecode(b"\xff.html")).write_bytes(PAGES[0].read_bytes())
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a file name that is not UTF-8")
    out = tmp_path / "out.jsonl"
    result = predict(str(folder), "-o", str(out), "-m", "econ", "-j", "1")
    assert result.exit_code == 0, result.output
    [record] = records(out.read_text(encoding="utf-8"))
    assert record["path"] == str(folder / "\\xff.html") and record["text"]
    again = predict(str(folder), "-o", str(out), "-m", "econ", "-j", "1", "--resume")
    assert again.exit_code == 0 and len(records(out.read_text(encoding="utf-8"))) == 1


def test_two_file_names_never_share_a_path_and_resume_tells_them_apart(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    try:
        (folder / os.fsdecode(b"lat\xe9n.html")).write_bytes(PAGES[0].read_bytes())
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a file name that is not UTF-8")
    out = tmp_path / "out.jsonl"
    assert predict(str(folder), "-o", str(out), "-m", "econ", "-j", "1").exit_code == 0
    (folder / "lat\\xe9n.html").write_bytes(PAGES[1].read_bytes())   # named with a backslash
    again = predict(str(folder), "-o", str(out), "-m", "econ", "-j", "1", "--resume")
    assert again.exit_code == 0, again.output
    paths = [r["path"] for r in records(out.read_text(encoding="utf-8"))]
    assert paths == [str(folder / "lat\\xe9n.html"), str(folder / "lat\\\\xe9n.html")]


def test_resume_keys_are_normalized_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.html").write_bytes(PAGES[0].read_bytes())
    assert predict("a.html", "-o", "r.jsonl", "-m", "econ", "-j", "1").exit_code == 0
    again = predict("./a.html", "-o", "r.jsonl", "-m", "econ", "-j", "1", "--resume")
    assert again.exit_code == 0, again.output
    assert [r["path"] for r in records((tmp_path / "r.jsonl").read_text(encoding="utf-8"))] == ["a.html"]


def test_a_warc_file_without_pages_is_not_passed_over_in_silence(tmp_path):
    from conftest import warc_record, write_warc

    info = warc_record("https://example.com/", b"x", record_type="warcinfo")
    path = write_warc(tmp_path / "x.warc", [info])
    result = predict(str(path), "-o", str(tmp_path / "w.json"), "-m", "econ")
    assert result.exit_code == 0 and "x.warc: no HTML response records (1 record skipped)" in result.stderr


def test_ctrl_c_inside_the_first_json_record_still_leaves_valid_json():
    class Interrupted:
        """An output that takes the first record, then is interrupted before it returns."""

        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> None:
            self.text += text
            if '"path"' in text and text.count('"path"') == self.text.count('"path"') == 1:
                raise KeyboardInterrupt

        def commit(self) -> None:
            pass

    output = Interrupted()
    writer = batch.RecordWriter(output, "json")  # type: ignore[arg-type]
    outcome = batch.run(["a.html"], output, writer, lambda pages: iter([{"path": "a.html", "text": "x"}]))
    assert outcome.interrupted and json.loads(output.text) == [{"path": "a.html", "text": "x"}]
    empty = Interrupted()
    batch.RecordWriter(empty, "json").close()  # type: ignore[arg-type]
    assert empty.text == "[]\n"


def test_collect_paths_takes_a_list_file_as_a_path(tmp_path):
    from newsml.run.batch import collect_paths

    listing = tmp_path / "list.txt"
    listing.write_text(f"{PAGES[0]}\n{PAGES[1]}\n", encoding="utf-8")
    assert collect_paths([], listing) == [str(PAGES[0]), str(PAGES[1])]
