"""newsml/run/output.py: where results go. A file is written in a temporary file renamed into
place, never over an input page, and left as it was when every page fails; '-' and
/dev/stdout are standard output, a name ending .gz is compressed, and text that cannot be
written is an OutputError."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import LABELED
from typer.testing import CliRunner

from newsml.errors import OutputError
from newsml.run.cli import app

STORY = ("<html><body><div><p>The harbour closed on Monday as the storm reached the coast, "
         "officials said.</p><p>Ferries will resume on Wednesday, if the wind drops below gale "
         "force.</p></div><footer>Copyright 2024 Coast News. All rights reserved.</footer></body></html>")
FIRST = "The harbour closed on Monday as the storm reached the coast, officials said."


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "in1.html"
    path.write_text(STORY, encoding="utf-8")
    return path


def test_output_onto_a_hard_link_of_an_input_is_refused(page, tmp_path):
    other = tmp_path / "in2.html"
    os.link(page, other)
    before = page.read_bytes()
    result = CliRunner().invoke(app, ["predict", str(other), "-o", str(page)])
    assert result.exit_code == 2 and "it is one of the input pages" in result.stderr
    assert page.read_bytes() == before == other.read_bytes()


def test_output_is_renamed_into_place_and_kept_when_every_page_fails(page, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("earlier results\n", encoding="utf-8")
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    result = CliRunner().invoke(app, ["predict", str(page), "-o", str(out)])
    assert result.exit_code == 2 and "exists: --force replaces it" in result.stderr
    result = CliRunner().invoke(app, ["predict", str(empty), str(tmp_path / "none.html"), "-o", str(out),
                                      "--force"])
    assert result.exit_code == 1 and out.read_text(encoding="utf-8") == "earlier results\n"
    result = CliRunner().invoke(app, ["predict", str(page), "-o", str(out), "--force"])  # *.jsonl: jsonl
    assert result.exit_code == 0 and json.loads(out.read_text(encoding="utf-8"))["text"].startswith(FIRST)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.html", "in1.html", "out.jsonl"]


def test_binary_output_is_renamed_into_place_or_left_as_it_was(tmp_path):
    from newsml.run.output import Output

    out = tmp_path / "page.html"
    out.write_bytes(b"earlier")
    with Output(out, binary=True) as stream:
        stream.write("\u6696".encode("gbk"))          # bytes as they are, never re-encoded
    assert out.read_bytes() == b"earlier"               # no commit: the file stays as it was
    with Output(out, binary=True) as stream:
        stream.write("\u6696".encode("gbk"))
        stream.commit()
    assert out.read_bytes() == "\u6696".encode("gbk") and sorted(tmp_path.iterdir()) == [out]


PAGES = sorted(LABELED.glob("*.html"))


def predict(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(app, ["predict", *args], input=input)


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_an_output_named_gz_is_compressed_in_the_format_its_inner_name_says(tmp_path):
    """-o out.jsonl.gz wrote plain text, neither compressed nor JSON."""
    import gzip

    lines = tmp_path / "out.jsonl.gz"
    assert predict(str(PAGES[0]), str(PAGES[1]), "-o", str(lines), "-m", "econ").exit_code == 0
    text = gzip.decompress(lines.read_bytes()).decode("utf-8")
    assert [r["path"] for r in records(text)] == [str(PAGES[0]), str(PAGES[1])]
    array = tmp_path / "out.json.gz"
    assert predict(str(PAGES[0]), str(PAGES[1]), "-o", str(array), "-m", "econ").exit_code == 0
    assert [r["path"] for r in json.loads(gzip.decompress(array.read_bytes()))] == [str(PAGES[0]),
                                                                                    str(PAGES[1])]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json.gz", "out.jsonl.gz"]  # no temporary left
    resumed = predict(str(PAGES[0]), "-o", str(lines), "-m", "econ", "--resume")
    assert resumed.exit_code == 2 and "cannot continue a gzip output" in resumed.stderr


def test_an_output_refusing_text_is_an_output_error(tmp_path):
    from newsml.run.output import Output

    with Output(tmp_path / "out.txt") as output, pytest.raises(OutputError, match="cannot write"):
        output.write("\udcff")


def test_output_dash_is_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = predict(str(PAGES[0]), "-o", "-", "-f", "jsonl", "-m", "econ")
    assert result.exit_code == 0 and [r["path"] for r in records(result.stdout)] == [str(PAGES[0])]
    assert not (tmp_path / "-").exists()


def test_output_to_dev_stdout_is_standard_output(tmp_path):
    """-o /dev/stdout failed on a pipe ('No such file or directory') and, redirected to a
    file, asked for --force: it is standard output, whatever that is."""
    command = [sys.executable, "-m", "newsml", "predict", str(PAGES[0]), "-m", "econ", "-f", "jsonl",
               "-o", "/dev/stdout", "--timeout", "0"]
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0, piped.stderr
    assert [r["path"] for r in records(piped.stdout)] == [str(PAGES[0])]
    existing = tmp_path / "out.jsonl"
    existing.write_text("old\n", encoding="utf-8")
    with open(existing, "w", encoding="utf-8") as stdout:
        redirected = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    assert redirected.returncode == 0, redirected.stderr
    assert [r["path"] for r in records(existing.read_text(encoding="utf-8"))] == [str(PAGES[0])]


def test_a_second_run_on_an_output_is_refused_while_the_first_holds_it(page, tmp_path):
    from pathlib import Path

    from newsml.run.output import OutputLock

    out = tmp_path / "out.jsonl"
    held = OutputLock(Path(out), out)
    result = CliRunner().invoke(app, ["predict", str(page), "-o", str(out), "-m", "econ"])
    assert result.exit_code == 2 and "another newsml run is writing" in result.stderr and not out.exists()
    with pytest.raises(OutputError, match="another newsml run is writing"):
        OutputLock(Path(out), out)
    held.release()
    result = CliRunner().invoke(app, ["predict", str(page), "-o", str(out), "-m", "econ"])
    assert result.exit_code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["in1.html", "out.jsonl"]
