"""The labeling helper: a saved page becomes <id>.html + a draft <id>.txt + <id>.json."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import LABELED
from typer.testing import CliRunner

from newsml import NewsExtractor, NewsmlError, extract, load_corpus, save_model
from newsml.errors import OutputError
from newsml.learning.persistence import get_method
from newsml.run.cli import app
from newsml.run.labeling import draft_label, page_id

PAGE = LABELED / "zh02-rainstorm-warning.html"    # a GBK page: its bytes must survive the copy


def test_draft_writes_the_page_a_draft_gold_and_its_json(tmp_path):
    draft = draft_label(PAGE, tmp_path)
    stem = "zh02-rainstorm-warning"
    assert [p.name for p in draft.written] == [f"{stem}.html", f"{stem}.txt", f"{stem}.json"]
    assert (tmp_path / f"{stem}.html").read_bytes() == PAGE.read_bytes()
    gold = (tmp_path / f"{stem}.txt").read_text(encoding="utf-8")
    assert gold.splitlines() == extract(PAGE).paragraphs and gold.endswith("\n")
    meta = json.loads((tmp_path / f"{stem}.json").read_text(encoding="utf-8"))
    assert meta["id"] == stem and meta["lang"] == "zh" and "split" not in meta
    assert meta["encoding"].lower() in {"gbk", "gb18030", "gb2312"}
    # the folder is a labeled corpus whose page trains (no split: a training page)
    pages = load_corpus(tmp_path, split="train", unsplit=True)
    assert [p.id for p in pages] == [stem] and pages[0].gold == gold
    checks = "\n".join(draft.checks())
    assert f"{stem}.txt" in checks and "one paragraph a line" in checks


def test_an_existing_file_is_never_overwritten_silently(tmp_path):
    draft_label(PAGE, tmp_path)
    gold = tmp_path / "zh02-rainstorm-warning.txt"
    gold.write_text("my corrected gold\n", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(OutputError, match=r"not overwriting .*rainstorm-warning\.txt.*nothing was written"):
        draft_label(PAGE, tmp_path, review=True)
    assert gold.read_text(encoding="utf-8") == "my corrected gold\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before        # no review page either
    (tmp_path / "zh02-rainstorm-warning.html").write_bytes(b"<html><body><p>another page</p></body></html>")
    with pytest.raises(OutputError, match=r"zh02-rainstorm-warning\.html"):
        draft_label(PAGE, tmp_path, force=False)
    draft_label(PAGE, tmp_path, force=True)
    assert gold.read_text(encoding="utf-8") != "my corrected gold\n"
    assert (tmp_path / "zh02-rainstorm-warning.html").read_bytes() == PAGE.read_bytes()


def test_labeling_in_the_page_folder_does_not_copy_the_page(tmp_path):
    page = tmp_path / "My Page (1).html"
    shutil.copy(LABELED / "en05-greenway-results.html", page)
    draft = draft_label(page)
    assert page_id(page) == "My-Page-1"
    assert [p.name for p in draft.written] == ["My-Page-1.html", "My-Page-1.txt", "My-Page-1.json"]
    page.unlink()
    same = tmp_path / "same.html"
    shutil.copy(LABELED / "en05-greenway-results.html", same)
    assert [p.name for p in draft_label(same).written] == ["same.txt", "same.json"]


def test_review_page_shows_kept_and_dropped_nodes(tmp_path):
    page = tmp_path / "p.html"
    page.write_text("<html><head><title>Harbour reopens</title></head><body>"
                    "<div class='menu'><a href='/'>Home</a> <a href='/n'>News &amp; more</a></div>"
                    "<div class='story'><p>The harbour at Riverton reopened on Monday after the storm, "
                    "the port authority said, and the first ferries left on time.</p>"
                    "<p>Repairs to the wall took three weeks, <b>officials</b> said &lt;today&gt;.</p></div>"
                    "</body></html>", encoding="utf-8")
    draft_label(page, review=True)
    review = (tmp_path / "p.review.html").read_text(encoding="utf-8")
    assert 'class="kept"' in review and 'class="dropped"' in review
    assert "said &lt;today&gt;." in review and "News &amp; more" in review     # text, escaped
    kept = [line for line in review.splitlines() if line.startswith('<p class="kept"')]
    dropped = [line for line in review.splitlines() if line.startswith('<p class="dropped"')]
    assert any("harbour at Riverton" in line for line in kept) and 'id="first-kept"' in kept[0]
    assert any("Home" in line for line in dropped) and not any("Home" in line for line in kept)


def test_cli_label_prints_what_to_check_and_refuses_to_overwrite(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["label", str(PAGE), "-o", str(tmp_path), "--format", "html"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stdout and "zh02-rainstorm-warning.review.html" in result.stdout
    assert "Open it in an editor" in result.stdout
    again = runner.invoke(app, ["label", str(PAGE), "-o", str(tmp_path)])
    assert again.exit_code == 2 and "not overwriting" in again.stderr
    missing = runner.invoke(app, ["label", str(tmp_path / "nope.html")])
    assert missing.exit_code == 2 and "page not found" in missing.stderr
    made = runner.invoke(app, ["label", str(PAGE), "-o", str(tmp_path / "new" / "folder")])
    assert made.exit_code == 0 and (tmp_path / "new" / "folder" / "zh02-rainstorm-warning.txt").is_file()
    (tmp_path / "a-file").write_text("x")
    onto_file = runner.invoke(app, ["label", str(PAGE), "-o", str(tmp_path / "a-file")])
    assert onto_file.exit_code == 2 and "not a folder" in onto_file.stderr


def test_label_names_a_page_by_its_stem_in_any_case_and_writes_a_gzip_page_as_html(tmp_path):
    import gzip

    page = tmp_path / "STORY.HTML.GZ"
    page.write_bytes(gzip.compress(PAGE.read_bytes()))
    draft = draft_label(page, tmp_path / "out")
    assert draft.id == "STORY"
    assert (tmp_path / "out" / "STORY.html").read_bytes() == PAGE.read_bytes()


def test_a_file_that_is_not_html_is_a_clear_error(tmp_path):
    binary = tmp_path / "x.html"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(NewsmlError):
        draft_label(binary, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.html"]


def test_a_folder_is_not_a_page(tmp_path):
    with pytest.raises(NewsmlError, match=r"is a folder: label takes one page"):
        draft_label(tmp_path)
    result = CliRunner().invoke(app, ["label", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.stderr and "not found" not in result.stderr


def test_each_node_is_scored_once(tmp_path):
    method = get_method("default")
    calls = []
    score_nodes = method.score_nodes
    method.score_nodes = lambda page: (calls.append(page), score_nodes(page))[1]
    draft = draft_label(PAGE, tmp_path, method, review=True)
    assert len(calls) == 1
    assert draft.paragraphs == extract(PAGE).paragraphs


def test_cli_label_drafts_with_a_model_file(tmp_path):
    model = save_model(NewsExtractor(method="econ").fit([]).method_, tmp_path / "econ.joblib")
    folder = tmp_path / "site"
    folder.mkdir()
    result = CliRunner().invoke(app, ["label", str(PAGE), "-o", str(folder), "--model", str(model)])
    assert result.exit_code == 0, result.output
    gold = (folder / f"{PAGE.stem}.txt").read_text(encoding="utf-8")
    assert gold.splitlines() == extract(PAGE, method="econ").paragraphs
    assert "(econ)" in json.loads((folder / f"{PAGE.stem}.json").read_text(encoding="utf-8"))["gold_method"]
    both = CliRunner().invoke(app, ["label", str(PAGE), "-o", str(folder), "--model", str(model),
                                    "-m", "econ", "--force"])
    assert both.exit_code == 2 and "--model" in both.stderr


def test_a_page_whose_file_name_is_not_utf8_is_labeled_whole(tmp_path):
    """The name's bytes become escapes in the json (they cannot be UTF-8 text); before, the
    .html and .txt were written and the .json failed."""
    source = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9.html"))
    source.write_bytes(PAGE.read_bytes())
    result = CliRunner().invoke(app, ["label", str(source), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["caf.html", "caf.json", "caf.txt"]
    meta = json.loads((tmp_path / "out" / "caf.json").read_text(encoding="utf-8"))
    assert meta["source"].endswith("caf\\xe9.html")


def test_label_errors_name_the_page_and_say_usage_from_failure(tmp_path):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    failed = CliRunner().invoke(app, ["label", str(empty), "-o", str(tmp_path / "out")])
    assert failed.exit_code == 1 and str(empty) in failed.stderr and "empty" in failed.stderr
    bad_id = CliRunner().invoke(app, ["label", str(PAGE), "-o", str(tmp_path / "out"), "--id", "a/b"])
    assert bad_id.exit_code == 2 and "bad page id" in bad_id.stderr
