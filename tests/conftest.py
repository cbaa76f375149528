"""Shared fixtures: the repository's labeled/ pages and the shared corpora beside the repo."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

# In CI the fuzz tests draw the same examples every run, so a red CI always means a change
# broke something; on a developer's machine they draw new examples each run and find new cases.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

REPO = Path(__file__).resolve().parent.parent
LABELED = REPO / "labeled"
#: Real public corpora live beside the repository, never inside it.
SHARED_DATA = Path(os.environ.get("NEWSML_SHARED_DATA", REPO.parent / "shared" / "data"))


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module, its helpers beside it on the path as when it runs,
    and registered by name (dataclasses look their module up)."""
    path = REPO / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


@functools.cache
def warc_script() -> ModuleType:
    """scripts/_warc.py, the one WARC writer of the scripts and the tests."""
    return load_script("_warc")


def warc_record(*args, **kwargs) -> bytes:
    """One WARC record (:func:`warc_script`'s ``warc_record``)."""
    return warc_script().warc_record(*args, **kwargs)


def write_warc(*args, **kwargs) -> Path:
    """A WARC file of records (:func:`warc_script`'s ``write_warc``)."""
    return warc_script().write_warc(*args, **kwargs)


def crawl(path: Path, n: int = 3, compress: bool = True) -> Path:
    """A WARC file of ``n`` labeled pages, a JSON response and a request record between them."""
    pages = sorted(LABELED.glob("*.html"))
    records = [warc_record(f"https://example.com/{i}", pages[i].read_bytes()) for i in range(n)]
    records.insert(1, warc_record("https://example.com/data.json", b'{"a": 1}', "application/json"))
    request = warc_record("https://example.com/req", b"GET / HTTP/1.1\r\n\r\n", record_type="request")
    records.insert(2, request)
    return write_warc(path, records, compress)


def undecodable_crawl(path):
    """A WARC file of a good page, three records whose bodies cannot be decoded, a good page."""
    import gzip

    from newsml.input.read import MAX_PAGE_BYTES

    pages = sorted(LABELED.glob("*.html"))
    bomb = gzip.compress(b"\0" * (MAX_PAGE_BYTES + 2**20), 1)
    raw = warc_script().raw_response
    records = [warc_record("https://example.com/0", pages[0].read_bytes()),
               raw("https://example.com/chunks", b"Transfer-Encoding: chunked\r\n",
                   b"zz\r\nnot a chunk size\r\n0\r\n\r\n"),
               raw("https://example.com/plain", b"Content-Encoding: gzip\r\n", pages[1].read_bytes()),
               raw("https://example.com/bomb", b"Content-Encoding: gzip\r\n", bomb),
               warc_record("https://example.com/1", pages[1].read_bytes())]
    return write_warc(path, records)


def shared_corpus(name: str) -> Path:
    """Path of a shared corpus, or skip the test with the reason when it is absent."""
    folder = SHARED_DATA / name
    if not folder.is_dir():
        pytest.skip(f"shared corpus {name!r} not found at {folder} (set NEWSML_SHARED_DATA)")
    return folder


def compiled_or_skip(name: str, fallback: str) -> ModuleType:
    """The compiled module ``newsml.<name>`` in use, or skip the test saying why there is
    none (``fallback``: what does its work then)."""
    from newsml.core.speedups import loaded, status

    module = loaded(name)
    if module is None:
        pytest.skip(f"newsml.{name} is {status(name)}: {fallback} (same results, slower)")
    return module


def in_python(make):
    """What ``make()`` gives with every compiled module turned off (their Python twins do
    the work)."""
    from newsml.core.speedups import python_only

    with python_only():
        return make()


def python_twins(monkeypatch) -> None:
    """Every compiled module turned off for the rest of the test (as :func:`in_python`, for
    tests that go on patching the Python twins' settings)."""
    from newsml.core import speedups

    monkeypatch.setattr(speedups, "_python_only", True)


def control_characters(text: str) -> list[str]:
    """The characters of ``text`` that no extracted text may hold: C0 controls other than line
    feed and tab, DEL, U+FFFE and U+FFFF."""
    return [ch for ch in text if ord(ch) < 32 and ch not in "\n\t" or ch in "\x7f\ufffe\uffff"]


def speedups_afresh(monkeypatch) -> None:
    """Each compiled module asked for afresh for the rest of the test (the seam keeps what it
    found for the process), for tests of what the seam says and chooses."""
    from newsml.core import speedups

    monkeypatch.setattr(speedups, "_load", speedups._load.__wrapped__)


def labeled_and_corpus_pages(*corpora: str, each: int) -> list[Path]:
    """The labeled pages, and the first ``each`` pages of each shared corpus present."""
    paths = sorted(LABELED.glob("*.html"))
    for name in corpora:
        with contextlib.suppress(pytest.skip.Exception):
            paths += sorted(shared_corpus(name).glob("*.html"))[:each]
    return paths


@pytest.fixture(scope="session")
def default_method():
    """The shipped default method, loaded once (never fitted or changed by a test)."""
    from newsml import get_method

    return get_method("default")


@pytest.fixture(scope="session")
def labeled():
    """The labeled/ corpus: its train pages parsed, their node labels, and both splits."""
    from newsml import load_corpus

    train, test = load_corpus(LABELED, split="train"), load_corpus(LABELED, split="test")
    pages, labels = parsed_with_labels(train)
    return pages, labels, train, test


def parsed_with_labels(pages) -> tuple[list, list]:
    """Parsed pages and their node labels, for labeled pages that all parse."""
    from newsml.learning.training import labeled_pages

    kept, skipped = labeled_pages(pages)
    assert not skipped, skipped
    return [page for _, page, _ in kept], [labels for _, _, labels in kept]


def write_corpus(folder: Path, pages: dict) -> Path:
    """A labeled folder of ``{id: (html bytes, gold)}``."""
    folder.mkdir()
    for name, (html, gold) in pages.items():
        (folder / f"{name}.html").write_bytes(html)
        (folder / f"{name}.txt").write_text(gold, encoding="utf-8")
    return folder


def story_pages(n: int, empty: int | None = None) -> dict:
    """``n`` small pages of a menu and a story (page ``empty`` has no bytes), with their gold."""
    out = {}
    for i in range(n):
        # a menu cell and a story block: two blocks of the naive-Bayes paper
        body = ("<table><tr><td><a>Menu</a> <a>Home</a></td></tr></table>"
                f"<div><p>Story number {i}, with a sentence.</p><p>Another line, here.</p></div>")
        out[f"p{i}"] = (b"" if i == empty else f"<html><body>{body}</body></html>".encode(),
                        f"Story number {i}, with a sentence.\nAnother line, here.\n")
    return out


def predicted_text(page: Path | str, *options: str) -> str:
    """The article text of ``newsml predict PAGE -f json OPTIONS``, run in this process (no
    worker processes); the test fails, showing the command's output, when it does."""
    from typer.testing import CliRunner

    from newsml.run.cli import app

    in_process = ["--timeout", "0", "-j", "1"]
    result = CliRunner().invoke(app, ["predict", str(page), "-f", "json", *in_process, *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["text"]


#: A small news page: navigation, a story with a headline, a link and a line break, a footer.
NEWS_PAGE = """<html><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li></ul></div>
<div id="story">
  <h1>Headline</h1>
  <p>First paragraph with <a href="/x">a link</a> in the middle, and more text.</p>
  <p>Second <b>bold</b> paragraph.<br>After a line break.</p>
</div>
<div id="footer">Copyright 2026</div>
</body></html>"""
#: A story and a list of three short comments after it.
COMMENTS_PAGE = """<html><head><title>Bridge opens</title></head><body>
<h1>Bridge opens</h1>
<div class="story"><p>The new bridge opened on Monday, the council said.</p>
<p>Traffic flowed at once.</p></div>
<ol class="comments">
<li class="comment"><p>Great news!</p></li><li class="comment"><p>About time.</p></li>
<li class="comment"><p>Finally</p></li>
</ol></body></html>"""


def markdown_counts(markdown: str) -> dict[str, int]:
    """What a CommonMark parser (markdown-it-py, of the test extra, with GitHub's tables) reads
    in ``markdown``: its headings, tables, list items, items of ordered lists, code blocks and
    block quotes (each quote opened, nested ones too)."""
    from markdown_it import MarkdownIt

    counts = dict.fromkeys(("heading", "table", "item", "ordered", "code", "quote"), 0)
    lists: list[str] = []
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            lists.append(token.type)
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif token.type == "list_item_open":
            counts["item"] += 1
            counts["ordered"] += lists[-1] == "ordered_list_open"
        kind = {"heading_open": "heading", "table_open": "table", "fence": "code", "code_block": "code",
                "blockquote_open": "quote"}.get(token.type)
        if kind:
            counts[kind] += 1
    return counts


def document_counts(title: str, blocks: list) -> dict[str, int]:
    """The same, of a document's blocks as newsml's Markdown should give them: the title is a
    heading, and a quote opens where a block's quote depth rises over the block before it
    (consecutive blocks of one depth share a quote)."""
    depths = [0, *(block.quote for block in blocks)]
    return {"heading": sum(block.kind == "heading" for block in blocks) + bool(title),
            "table": sum(block.kind == "table" for block in blocks),
            "item": sum(block.kind == "item" for block in blocks),
            "ordered": sum(block.kind == "item" and block.ordered for block in blocks),
            "code": sum(block.kind == "code" for block in blocks),
            "quote": sum(max(0, after - before) for before, after in zip(depths, depths[1:]))}
