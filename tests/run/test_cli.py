"""newsml/run/cli.py: the newsml command through typer's test runner, its commands, options and
one-line errors."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import LABELED, REPO, story_pages, write_corpus
from typer.testing import CliRunner

from newsml import extract
from newsml.article import RECORD_FIELDS
from newsml.errors import ConfigurationError
from newsml.learning.persistence import load_model
from newsml.methods import methods
from newsml.run.cli import app

ARTICLE = """<html><head><title>Storm closes the harbour - Coast News</title></head><body>
<ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li></ul>
<div class="story">
<p>The harbour closed on Monday as the storm reached the coast, officials said.</p>
<p>Ferries will resume on Wednesday, if the wind drops below gale force.</p>
</div>
<div class="footer"><a href="/about">About us</a> <a href="/contact">Contact</a></div>
</body></html>"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "story.html"
    path.write_text(ARTICLE, encoding="utf-8")
    return path


def test_predict_text_prints_title_and_body(runner, page):
    result = runner.invoke(app, ["predict", str(page)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Storm closes the harbour\n\n")  # site name stripped
    assert "Ferries will resume on Wednesday" in result.stdout
    assert "About us" not in result.stdout and "Home" not in result.stdout


def test_predict_json_has_every_field(runner, page):
    result = runner.invoke(app, ["predict", str(page), "--format", "json"])
    record = json.loads(result.stdout)
    assert set(record) == {"path", *RECORD_FIELDS}
    assert record["path"] == str(page) and record["method"] == "default"      # the name asked for
    assert record["markdown"].startswith("# Storm closes the harbour\n\nThe harbour closed on Monday")
    assert len(record["paragraphs"]) == len(record["scores"]) == 2


def test_text_output_gives_the_headline_once(runner, tmp_path):
    page = tmp_path / "headline.html"
    page.write_text("<html><head><title>Storm closes the harbour</title></head><body><article>"
                    "<h1>Storm closes the harbour</h1><p>The harbour closed on Monday as the storm "
                    "reached the coast, officials said.</p><p>Ferries resume on Wednesday, if the wind "
                    "drops.</p></article></body></html>", encoding="utf-8")
    result = runner.invoke(app, ["predict", str(page), "-m", "econ"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Storm closes the harbour") == 1
    assert result.stdout.startswith("Storm closes the harbour\n\nThe harbour closed on Monday")


def structured_page() -> Path:
    """A page of labeled/ whose article holds headings, lists and a table."""
    return LABELED / "en14-bus-network-guide.html"


def test_markdown_output_gives_headings_lists_and_a_table(runner):
    result = runner.invoke(app, ["predict", str(structured_page()), "-f", "markdown"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    title = json.loads(structured_page().with_suffix(".json").read_text(encoding="utf-8"))["title"]
    assert lines[0] == f"# {title}" and sum(line.startswith("# ") for line in lines) == 1
    assert "### What changes on Monday" in lines and "### Frequency on the main corridors" in lines
    assert sum(line.startswith("- ") for line in lines) == 4
    assert [line[:3] for line in lines if line[:1].isdigit()] == ["1. ", "2. ", "3. "]
    table = [line for line in lines if line.startswith("|")]
    assert table[0] == "| Corridor | Old frequency | New frequency | Route |"
    assert table[1].startswith("| --- |")
    assert len(table) == 2 + 4 and all(line.count(" | ") == 3 for line in table)


def test_html_output_parses_as_the_article(runner, tmp_path):
    from html.parser import HTMLParser

    import lxml.html

    out = tmp_path / "article.html"
    result = runner.invoke(app, ["predict", str(structured_page()), "-o", str(out)])   # (.html: the format)
    assert result.exit_code == 0, result.output
    fragment = out.read_text(encoding="utf-8")
    opened: list[str] = []

    class Nesting(HTMLParser):        # each end tag closes the element opened last
        def handle_starttag(self, tag, attrs):
            if tag not in ("br", "img"):
                opened.append(tag)

        def handle_endtag(self, tag):
            assert opened and opened.pop() == tag, tag

    Nesting().feed(fragment)
    assert opened == []
    root = lxml.html.fragment_fromstring(fragment)
    assert root.tag == "article" and root.findtext("h1").startswith("Riverton")
    headings = [h.text for h in root.iter("h3")]
    assert headings[:2] == ["What changes on Monday", "Frequency on the main corridors"]
    assert len(root.findall("ul/li")) == 4 and len(root.findall("ol/li")) == 3
    assert [cell.text for cell in root.find("table").iter("th")] == ["Corridor", "Old frequency",
                                                                      "New frequency", "Route"]
    assert len(root.find("table").findall("tbody/tr")) == 4


def test_links_in_markdown_only_when_asked(runner, page, tmp_path):
    linked = tmp_path / "linked.html"
    anchor = 'if <a href="https://e.org/wind">the wind</a> drops'
    linked.write_text(ARTICLE.replace("if the wind drops", anchor), encoding="utf-8")
    plain = runner.invoke(app, ["predict", str(linked), "-f", "markdown"]).stdout
    with_links = runner.invoke(app, ["predict", str(linked), "-f", "markdown", "--links"]).stdout
    assert "](" not in plain and "if the wind drops" in plain
    assert "if [the wind](https://e.org/wind) drops" in with_links


def test_predict_jsonl_one_line_per_page_and_stdin(runner, page):
    result = runner.invoke(app, ["predict", str(page), "-", "-f", "jsonl"], input=ARTICLE)
    lines = result.stdout.strip().splitlines()
    assert [json.loads(line)["path"] for line in lines] == [str(page), "-"]


def test_a_web_address_as_page_is_an_error_that_says_to_save_the_page_first(runner):
    result = runner.invoke(app, ["predict", "https://example.com/story.html"])
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "a web address, not a file" in result.stderr
    assert "curl -L -o page.html 'https://example.com/story.html'" in result.stderr


def test_a_failing_page_does_not_stop_the_others(runner, page, tmp_path):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.html"
    result = runner.invoke(app, ["predict", str(empty), str(missing), str(page), "-f", "jsonl"])
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["path"] for r in records] == [str(empty), str(missing), str(page)]  # one record per input
    assert [sorted(r)[:1] for r in records[:2]] == [["error"], ["error"]] and "error" not in records[2]
    assert records[0]["error"].startswith("empty page") and records[1]["error"].startswith("no such file")
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 2
    assert "empty.html: empty page" in errors[0] and "missing.html: no such file" in errors[1]
    assert "Traceback" not in result.stderr


def test_output_file_and_refusal_to_overwrite_an_input(runner, page, tmp_path):
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["predict", str(page), "-f", "jsonl", "-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["lang"] == "en"
    before = page.read_bytes()
    result = runner.invoke(app, ["predict", str(page), "-o", str(page)])
    assert result.exit_code == 2 and "refusing to overwrite" in result.stderr
    assert page.read_bytes() == before


def test_unknown_method_is_a_clear_error(runner, page):
    result = runner.invoke(app, ["predict", str(page), "--method", "nope"])
    assert result.exit_code == 2 and "unknown method 'nope'" in result.stderr


def test_methods_lists_default_and_econ(runner):
    result = runner.invoke(app, ["methods"])
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names[0] == "default" and "econ" in names


def test_evaluate_json_keys_and_values(runner, tmp_path, page):
    corpus = tmp_path / "mini"
    corpus.mkdir()
    (corpus / "a.html").write_text(ARTICLE, encoding="utf-8")
    (corpus / "a.txt").write_text(
        "The harbour closed on Monday as the storm reached the coast, officials said.\n"
        "Ferries will resume on Wednesday, if the wind drops below gale force.\n", encoding="utf-8")
    (corpus / "a.json").write_text('{"split": "test"}', encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(corpus), "--format", "json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)
    assert {"corpus", "method", "split", "pages", "precision", "recall", "f1", "ms_per_page",
            "correct", "wrong", "missed"} <= set(row)
    assert row["corpus"] == "mini" and row["pages"] == 1 and row["f1"] == 1.0 and row["correct"] == 1
    train = runner.invoke(app, ["evaluate", str(corpus), "--split", "train", "-f", "json"])
    assert train.exit_code == 2 and not train.stdout and "no labeled pages for split 'train'" in train.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "b.html").write_text(ARTICLE, encoding="utf-8")
    (empty / "b.txt").write_text("The harbour closed.\n", encoding="utf-8")
    (empty / "b.json").write_text('{"split": "train"}', encoding="utf-8")
    both = runner.invoke(app, ["evaluate", str(corpus), str(empty), "--split", "test", "-f", "jsonl"])
    assert both.exit_code == 0
    assert [json.loads(line)["corpus"] for line in both.stdout.splitlines()] == ["mini"]
    (other := tmp_path / "other").mkdir()
    for name in ("a.html", "a.txt", "a.json"):
        (other / name).write_bytes((corpus / name).read_bytes())
    two = runner.invoke(app, ["evaluate", str(corpus), str(other), "-f", "json"])
    assert [row["corpus"] for row in json.loads(two.stdout)] == ["mini", "other"]   # one document
    lines = runner.invoke(app, ["evaluate", str(corpus), str(other), "-f", "jsonl"])
    assert [json.loads(line)["corpus"] for line in lines.stdout.splitlines()] == ["mini", "other"]
    assert "empty: no labeled pages for split 'test'" in both.stderr


def test_evaluate_table_and_missing_corpus(runner, tmp_path):
    corpus = tmp_path / "mini"
    corpus.mkdir()
    (corpus / "a.html").write_text(ARTICLE, encoding="utf-8")
    (corpus / "a.txt").write_text("The harbour closed on Monday.\n", encoding="utf-8")
    table = runner.invoke(app, ["evaluate", str(corpus), "--method", "econ"])
    header, rule, row = table.stdout.strip().splitlines()
    assert header.startswith("| corpus | method | split | pages | precision")
    assert row.startswith("| mini | econ | all | 1 |")
    result = runner.invoke(app, ["evaluate", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "corpus folder not found" in result.stderr


def test_train_reports_bad_outputs_and_bad_json_without_tracebacks(tmp_path):
    corpus = write_corpus(tmp_path / "c", story_pages(6))
    runner = CliRunner()
    for folds in ("1", "-3"):
        result = runner.invoke(app, ["train", str(corpus), "-o", str(tmp_path / "m.joblib"),
                                     "--cv-folds", folds])
        assert result.exit_code == 2
        assert "--cv-folds must be 0 (no cross-validation) or 2 or more" in result.stderr
    folder = tmp_path / "out"
    folder.mkdir()
    result = runner.invoke(app, ["train", str(corpus), "-o", str(folder), "--force", "--split", "all"])
    assert result.exit_code == 2 and "is a directory" in result.stderr
    result = runner.invoke(app, ["train", str(corpus), "-o", str(tmp_path / "no" / "m.joblib")])
    assert result.exit_code == 2 and "not a writable folder" in result.stderr
    (corpus / "p0.json").write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(corpus)])
    assert result.exit_code == 2 and "not valid UTF-8 JSON" in result.stderr
    assert "Traceback" not in result.stderr


def test_train_never_writes_over_its_own_training_files_or_base(tmp_path):
    """--force replaces an old model, never a gold text, a page or the base being adapted."""
    corpus = write_corpus(tmp_path / "c", story_pages(6))
    base = tmp_path / "base.joblib"
    base.write_bytes(b"not a model, but the user's file")
    runner = CliRunner()
    for target, extra in ((corpus / "p0.txt", []), (corpus / "p1.html", []), (base, ["--base", str(base)])):
        before = target.read_bytes()
        result = runner.invoke(app, ["train", str(corpus), "-o", str(target), "--force", *extra])
        assert result.exit_code == 2, result.output
        assert "one of the training files or the base model" in result.stderr
        assert target.read_bytes() == before


def test_the_adapted_method_by_name_says_how_to_make_one(runner, page):
    result = runner.invoke(app, ["predict", "-m", "adapted", str(page)])
    assert result.exit_code == 2 and "newsml train PAGES --base default" in result.stderr


def test_the_spark_job_without_pyspark_is_a_one_line_error(tmp_path, page, monkeypatch, capsys):
    import newsml.spark as spark_module

    def missing():
        raise ConfigurationError("newsml.spark needs pyspark: pip install 'newsml[spark]'")

    monkeypatch.setattr(spark_module, "_pyspark", missing)
    assert spark_module.main([str(page), "-o", str(tmp_path / "out")]) == 2
    expected = "newsml: error: newsml.spark needs pyspark: pip install 'newsml[spark]'\n"
    assert capsys.readouterr().err == expected


def test_evaluate_skips_pages_whose_gold_is_empty_and_says_so(runner, tmp_path):
    corpus = tmp_path / "mini"
    corpus.mkdir()
    gold = ("The harbour closed on Monday as the storm reached the coast, officials said.\n"
            "Ferries will resume on Wednesday, if the wind drops below gale force.\n")
    for name, text in (("a", gold), ("empty", ""), ("blank", " \n\n")):
        (corpus / f"{name}.html").write_text(ARTICLE, encoding="utf-8")
        (corpus / f"{name}.txt").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(corpus), "--format", "json"])
    row = json.loads(result.stdout)
    assert result.exit_code == 0 and row["pages"] == 1 and row["f1"] == 1.0 and row["skipped"] == 2
    assert "mini/empty: its gold text is empty: not scored" in result.stderr
    assert "mini/blank: its gold text is empty" in result.stderr


def test_api_and_evaluate_errors_say_what_to_give(runner, tmp_path, page):
    from newsml import ConfigurationError

    with pytest.raises(ConfigurationError, match="newsml train PAGES --base default"):
        extract(page, method="adapted")
    with pytest.raises(TypeError, match="title must be a str or None, not int"):
        extract(page, title=5)
    result = runner.invoke(app, ["evaluate", str(page)])
    assert result.exit_code == 2 and "is a file: give the folder of labeled pages it is in" in result.stderr
    nogold = tmp_path / "nogold"
    nogold.mkdir()
    (nogold / "a.html").write_text(ARTICLE, encoding="utf-8")
    for command in (["evaluate", str(nogold)], ["train", str(nogold), "-o", str(tmp_path / "m.joblib")]):
        result = runner.invoke(app, command)       # the same cause, the same exit code
        assert result.exit_code == 2, command
        assert "has its gold text beside it (<id>.txt for a.html: a.txt)" in result.stderr
    assert not (tmp_path / "m.joblib").exists()


def test_evaluate_fails_when_every_gold_is_empty(runner, tmp_path):
    corpus = tmp_path / "blank"
    corpus.mkdir()
    for name in ("a", "b"):
        (corpus / f"{name}.html").write_text(ARTICLE, encoding="utf-8")
        (corpus / f"{name}.txt").write_text(" \n", encoding="utf-8")
    result = runner.invoke(app, ["evaluate", str(corpus), "-m", "econ", "-f", "json"])
    assert result.exit_code == 2 and not result.stdout and "every gold text" in result.stderr


def test_train_takes_the_method_parameters_as_key_value_pairs(tmp_path):

    corpus = write_corpus(tmp_path / "c", story_pages(6))
    runner = CliRunner()
    model = tmp_path / "m.joblib"
    result = runner.invoke(app, ["train", str(corpus), "-o", str(model), "--cv-folds", "0",
                                 "--param", "comments=keep", "-p", "mates=true",
                                 "-p", 'tree_evidence=["density", "style"]'])
    assert result.exit_code == 0, result.output
    fitted = load_model(model)[0]
    assert (fitted.comments, fitted.mates, fitted.tree_evidence) == ("keep", True, ("density", "style"))
    assert fitted.feature_names()[-2:] == ["context:mates0", "context:mates1"]
    for params, message in ((["-p", "colour=blue"], "not a parameter of 'fusion'; its parameters: "),
                            (["-p", "mates"], "--param takes KEY=VALUE, not 'mates'"),
                            (["-p", "mates=true", "-p", "mates=false"], "--param mates is given twice"),
                            (["-p", "base=nb", "--base", "default"], "not a parameter of 'adapted'"),
                            (["-p", "prior=2", "--base", "default"], None)):
        result = runner.invoke(app, ["train", str(corpus), "-o", str(tmp_path / "x.joblib"), *params])
        if message is None:         # the adaptation's own parameters, with --base
            assert result.exit_code == 0, result.output
            assert load_model(tmp_path / "x.joblib")[0].prior == 2
            continue
        assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr
    # a value the method refuses: its own message, before any page is read or fold is run
    result = runner.invoke(app, ["train", str(corpus), "-o", str(tmp_path / "y.joblib"), "-p", "mates=3"])
    assert result.exit_code == 1 and "mates must be True or False" in result.stderr
    assert not (tmp_path / "y.joblib").exists()


def _cli(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "newsml", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_predict_to_a_full_device_is_one_line_of_error(page):
    result = _cli("predict", str(page), "-o", "/dev/full")
    assert result.returncode == 1
    assert result.stderr.strip() == "newsml: error: cannot write /dev/full: No space left on device"
    assert Path("/dev/full").is_char_device()  # written in place, never renamed over
    with open("/dev/full", "w") as full:
        result = _cli("predict", str(page), stdout=full)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == "newsml: error: cannot write standard output: No space left on device"


def test_predict_to_a_missing_folder_or_a_folder_is_a_clear_error(page, tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["predict", str(page), "-o", str(tmp_path / "missing" / "dir" / "out.jsonl")])
    assert result.exit_code == 2 and "is not a writable folder (it does not exist)" in result.stderr
    result = runner.invoke(app, ["predict", str(page), "-o", str(tmp_path)])
    assert result.exit_code == 2 and "it is a directory" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_bad_list_glob_timeout_and_label_id_are_one_line_errors(page, tmp_path):
    runner = CliRunner()
    listing = tmp_path / "list.txt"
    listing.write_bytes(b"a\0b\n")
    cases = [
        (["predict", "--from-file", str(listing)], 1, "no such file"),
        (["predict", "--glob=", str(tmp_path)], 2, "--glob needs a pattern"),
        (["predict", "--timeout", "inf", str(page)], 2, "the time limit must be 0 (none) or up to"),
        (["predict", "--timeout", "1e300", str(page)], 2, "the time limit must be 0 (none) or up to"),
        (["label", str(page), "-o", str(tmp_path), "--id", "a" * 300], 2, "page id too long: its file names"),
        (["label", str(page), "-o", str(tmp_path), "--id", "a" * 245, "--format", "html"], 2,
         "would take 257 bytes"),   # fits as .html, not as .review.html
    ]
    for args, code, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == code, (args, result.stderr)
        assert message in result.stderr and "Traceback" not in result.stderr
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_train_with_a_gold_that_is_not_utf8_is_a_clear_error(tmp_path):
    corpus = write_corpus(tmp_path / "c", story_pages(6))
    (corpus / "p2.txt").write_bytes("Story number 2, caf\u00e9.".encode("latin-1"))
    result = CliRunner().invoke(app, ["train", str(corpus), "-o", str(tmp_path / "m.joblib"),
                                      "--split", "all"])
    assert result.exit_code == 1
    assert "p2.txt: gold text is not UTF-8" in result.stderr and "Traceback" not in result.stderr


def test_every_registered_method_is_listed():
    listed = CliRunner().invoke(app, ["methods"]).stdout
    for name in methods():
        assert name in listed


PAGES = sorted(LABELED.glob("*.html"))


def test_method_with_model_is_an_error_not_ignored(tmp_path):
    for command in ("predict", "evaluate"):
        result = CliRunner().invoke(app, [command, str(PAGES[0]), "--method", "econ", "--model", "m.joblib"])
        assert result.exit_code == 2 and "--method and --model both given" in result.stderr


def test_version():
    from newsml import __version__

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"newsml {__version__}\n"


LIGHT = {"__future__", "json", "traceback", "warnings", "collections.abc", "contextlib", "enum", "pathlib",
         "typing", "typer", "newsml._version", "newsml.errors"}


def test_the_command_line_module_imports_only_light_modules_at_its_top():
    tree = ast.parse((REPO / "newsml" / "run" / "cli.py").read_text(encoding="utf-8"))
    top = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            top.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            top.add(f"newsml.{node.module}" if node.level else node.module)
    assert top <= LIGHT, top - LIGHT


def test_version_and_help_load_no_numpy_or_sklearn():
    # The package facade (newsml/__init__.py) is left out, so that this checks the command
    # line's own imports whatever the facade loads.
    run = ("import sys, types\n"
           "package = types.ModuleType('newsml'); package.__path__ = [{folder!r}]\n"
           "sys.modules['newsml'] = package\n"
           "from newsml.run.cli import app; sys.argv = ['newsml', {flag!r}]\n"
           "try:\n    app()\nexcept SystemExit:\n    pass\n"
           "print(sorted({{'numpy', 'sklearn', 'scipy', 'lxml'}} & set(sys.modules)), file=sys.stderr)")
    for flag in ("--version", "--help"):
        code = run.format(folder=str(REPO / "newsml"), flag=flag)
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert result.stderr.strip().splitlines()[-1] == "[]", (flag, result.stderr)
        assert ("newsml " if flag == "--version" else "predict") in result.stdout


def test_text_output_is_the_text_of_the_whole_extraction(runner, tmp_path):
    """Text output skips the metadata and the document, and prints the same title and text;
    its header names a file by its path, not by the canonical address it no longer reads."""
    from newsml import extract
    from newsml.run.batch import plain_text

    pages = sorted(LABELED.glob("*.html"))[:3]
    result = runner.invoke(app, ["predict", *map(str, pages), "-j", "1"])
    assert result.exit_code == 0, result.output
    for path in pages:
        article = extract(path)
        assert f"==> {path} <==\n{plain_text(article.title, article.text)}\n" in result.stdout
