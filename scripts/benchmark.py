#!/usr/bin/env python3
"""Benchmark newsml's methods against peers at their documented article settings, in one run.

    python scripts/benchmark.py --scaling --out docs/benchmark.md --summary-out summary.md --json bench.json

Every tool sees the same pages, interleaved page by page (the order of tools rotates
from page to page), so drift of the machine hits all tools alike. newsml gets the
page bytes (its time includes decoding) and is asked for the text alone
(``extract(html_bytes, text_only=True).text``, as the peers' calls give text without
metadata); peers get the text newsml decoded, so none
of them loses a page to a wrong encoding guess. Each peer runs with the settings its
own documentation gives for main-article text (``PEERS`` below; the report lists the
exact call and the documentation it follows). A peer that is not installed is skipped
with a note. Peak memory is the peak resident size of a separate process that runs
one tool over the same pages and imports nothing else (lxml's C allocations included).

``--split test`` (the default) keeps only pages whose json says ``"split": "test"``:
the shipped learned models never saw them. The summary (``--summary-out``) sets
newsml's default beside the best peer of each corpus, with the time and peak memory
as ratios to trafilatura's in the same run. ``--scaling`` adds ms/page by page size
and the time of a real page grown 1x, 2x, 4x and 8x.

The document section (``--document``, on by default; ``--document-only`` runs it alone) runs
newsml's default and the document peers (trafilatura's metadata and Markdown, htmldate,
newspaper4k, GNE on Chinese corpora) once per page of the corpora with date, author or
structure gold: date and author accuracy, dates and authors given where the gold has none,
and the recall of the gold's headings, list items (and, on Readability.js's expected output,
table cells and block quotes) by the tool's Markdown; the rules are in
``scripts/_document_gold.py``. newsml's time with metadata and Markdown is set against
trafilatura's text extraction in the same loop.

    python scripts/benchmark.py --document-only --corpora wcxb_dev wcxb_dev2 readability --json doc.json

This module imports newsml only where newsml runs, so that a memory probe of a peer
measures the peer alone.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import logging
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import _document_gold as gold_rules  # scripts/_document_gold.py, beside this script
from _memory import status_mb  # scripts/_memory.py, beside this script
from _shared import (  # scripts/_shared.py, beside this script
    LABELED_METADATA,
    LABELS,
    METADATA_KEYS,
    SHARED_DATA,
    corpus_labels,
    metadata_gold,
)

if TYPE_CHECKING:
    from newsml.input.corpus import LabeledPage
    from newsml.measure.scoring import Score

SIZE_BUCKETS = ((0, 50), (50, 100), (100, 200), (200, 400), (400, 10**9))  # KB
WARM_UP = (("<html><body><p>A first sentence, to warm up. Another one.</p></body></html>", "en"),
           ("<html><body><p>北京时间昨天晚上，国家统计局发布了数据。</p></body></html>", "zh"))
#: newsml's row in the summary, and the peer that times and memory are set against.
DEFAULT_TOOL = "newsml:default"
REFERENCE = "trafilatura"

Extractor = Callable[[bytes, str, str], str]  # (html bytes, decoded text, lang) -> article text


# -- peers and their settings ---------------------------------------------------------
#: trafilatura's library default keeps comments (include_comments=True); its docs turn them
#: off for the main text (usage-python "Choice of HTML elements") and so does its own
#: comparison script (tests/comparison.py). favor_precision is its documented switch for
#: "less and more central" text. Tables stay in (include_tables=True is the documented
#: default; turning it off is listed only under "Optimizing for speed"), fallbacks stay on.
TRAFILATURA = {"trafilatura": {"include_comments": False},
               "trafilatura-precision": {"include_comments": False, "favor_precision": True}}
#: resiliparse's main-content mode; ``comments`` ("treat comment sections as main content")
#: defaults to True and is turned off for article text, as for trafilatura.
RESILIPARSE = {"main_content": True, "comments": False}
#: jusText's stop lists for the corpora's languages; any other language (zh, ja) runs in
#: the language-independent mode its CLI documents: an empty stop list with both
#: stop-word thresholds at 0.
JUSTEXT_STOPLISTS = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese",
                     "cs": "Czech", "it": "Italian", "nl": "Dutch", "ru": "Russian", "pl": "Polish"}
#: newspaper4k needs a URL; none of the tools is given the page's real one.
NEWSPAPER_URL = "https://example.com/article.html"


@dataclass(frozen=True)
class Peer:
    """A peer: how it is called for article text, and on what documentation that rests."""

    name: str
    distribution: str  # installed distribution, for its version
    call: str  # the exact call, as the report prints it
    basis: str  # the documentation the settings follow
    make: Callable[[], Extractor]


def _kwargs(options: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in options.items())


def _trafilatura(options: dict[str, Any]) -> Callable[[], Extractor]:
    def make() -> Extractor:
        import trafilatura

        def run(_data, text, _lang):
            return trafilatura.extract(text, **options) or ""
        return run
    return make


def _readability() -> Extractor:
    import lxml.html
    from readability import Document

    def run(_data, text, _lang):
        summary = Document(text).summary()
        # text nodes joined by spaces, as readability-lxml's own benchmark (readability/benchmark.py)
        # reads a summary: text_content() would glue the words of adjacent blocks together
        return " ".join(lxml.html.fromstring(summary).itertext()) if summary.strip() else ""
    return run


def _justext() -> Extractor:
    import justext

    def run(_data, text, lang):
        if lang in JUSTEXT_STOPLISTS:
            paragraphs = justext.justext(text, justext.get_stoplist(JUSTEXT_STOPLISTS[lang]))
        else:
            paragraphs = justext.justext(text, frozenset(), stopwords_low=0, stopwords_high=0)
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)
    return run


def _boilerpy3() -> Extractor:
    from boilerpy3 import extractors

    extractor = extractors.ArticleExtractor(raise_on_failure=False)

    def run(_data, text, _lang):
        return extractor.get_content(text) or ""
    return run


def goose3_config(lang: str) -> dict[str, Any]:
    """goose3's configuration for a page in ``lang``: the language forced, as its README shows
    for pages whose meta language is missing or wrong; Chinese also needs its stop-word class."""
    config: dict[str, Any] = {"use_meta_language": False, "target_language": lang}
    if lang == "zh":
        from goose3.text import StopWordsChinese

        config["stopwords_class"] = StopWordsChinese
    return config


def _goose3() -> Extractor:
    from goose3 import Goose

    by_lang: dict[str, Any] = {}

    def run(_data, text, lang):
        if lang not in by_lang:
            by_lang[lang] = Goose(goose3_config(lang))
        return by_lang[lang].extract(raw_html=text).cleaned_text or ""
    return run


def _newspaper4k_reader() -> Callable[[str, str], Any]:
    """newspaper4k's article of a page's HTML, in the page's language where newspaper4k
    knows it (its own guess otherwise), images not fetched."""
    import newspaper
    from newspaper.languages import get_available_languages

    known = set(get_available_languages())

    def read(text: str, lang: str) -> Any:
        return newspaper.article(NEWSPAPER_URL, language=lang if lang in known else None,
                                 input_html=text, fetch_images=False)
    return read


def _newspaper4k() -> Extractor:
    read = _newspaper4k_reader()

    def run(_data, text, lang):
        return read(text, lang).text or ""
    return run


def _resiliparse() -> Extractor:
    from resiliparse.extract.html2text import extract_plain_text

    def run(_data, text, _lang):
        return extract_plain_text(text, **RESILIPARSE) or ""
    return run


PEERS: dict[str, Peer] = {peer.name: peer for peer in (
    *(Peer(name, "trafilatura", f"trafilatura.extract(html, {_kwargs(options)})",
           "trafilatura docs, usage-python: \"Choice of HTML elements\" (`include_comments=False`: "
           "no comments in output), \"Optimizing for precision and recall\" (`favor_precision`); "
           "include_tables is on by default. trafilatura's tests/comparison.py runs it with "
           "include_comments=False.",
           _trafilatura(options)) for name, options in TRAFILATURA.items()),
    Peer("readability-lxml", "readability-lxml",
         "readability.Document(html).summary(), its text nodes joined by spaces",
         "readability-lxml README (Usage: `Document(...).summary()`); the text is read from the summary's "
         "HTML as in readability-lxml's own readability/benchmark.py.", _readability),
    Peer("justext", "justext",
         "justext.justext(html, justext.get_stoplist(\"English\")) (the page's language's stop list: "
         + ", ".join(f"{k} {v}" for k, v in JUSTEXT_STOPLISTS.items() if k != "en")
         + "); other languages (zh, ja): justext.justext(html, frozenset(), stopwords_low=0, "
         "stopwords_high=0); the paragraphs that are not boilerplate, one a line",
         "jusText README (Python API) and its command line's help: an empty stop list "
         "(`-s None`) \"activates a language-independent mode\", which sets both stop-word thresholds to 0.",
         _justext),
    Peer("boilerpy3", "boilerpy3",
         "boilerpy3.extractors.ArticleExtractor(raise_on_failure=False).get_content(html)",
         "BoilerPy3 README: ArticleExtractor is \"tuned towards news articles\"; raise_on_failure=False "
         "returns the text extracted before an error instead of raising.", _boilerpy3),
    Peer("goose3", "goose3",
         "Goose({\"use_meta_language\": False, \"target_language\": lang})"
         ".extract(raw_html=html).cleaned_text; for zh also "
         "\"stopwords_class\": goose3.text.StopWordsChinese",
         "goose3 README: \"Goose is now language aware\" (forcing `target_language` with "
         "`use_meta_language: False`) and \"Goose in Chinese\" (`StopWordsChinese`, which needs jieba).",
         _goose3),
    Peer("newspaper4k", "newspaper4k",
         f"newspaper.article({NEWSPAPER_URL!r}, language=lang, input_html=html, fetch_images=False).text",
         "newspaper4k README and user guide (`newspaper.article(url, language=..., input_html=...)`, "
         "\"Parameters and Configurations\": `fetch_images=False`; languages page: zh among 37 languages). "
         "No page URL is given to any tool, so it gets a placeholder.", _newspaper4k),
    Peer("resiliparse", "resiliparse",
         f"resiliparse.extract.html2text.extract_plain_text(html, {_kwargs(RESILIPARSE)})",
         "Resiliparse manual, HTML2Text \"Main Content Extraction\" (`main_content=True`); `comments` "
         "(\"treat comment sections as main content\", default True) turned off for article text.",
         _resiliparse),
)}


# -- tools ----------------------------------------------------------------------------
def newsml_methods() -> tuple[str, ...]:
    """newsml's default and every other method usable as installed."""
    from newsml.methods import DEFAULT_METHOD, ready_names

    return ("default", *(name for name in ready_names() if name != DEFAULT_METHOD))


def learned_methods() -> set[str]:
    """Methods whose shipped models were trained on the corpora's train pages."""
    from newsml.methods import shipped_names

    return {"default", *shipped_names()}


def newsml_tool(method: str) -> Extractor:
    from newsml import extract
    from newsml.learning.persistence import get_method

    scorer = get_method(method)

    def run(data: bytes, _text: str, _lang: str) -> str:
        # as a user calls it for the text alone (the document section times the rest)
        return extract(data, method=scorer, text_only=True).text
    return run


def peer_tool(name: str) -> tuple[Extractor | None, str]:
    """The peer's extractor and its version, or None and why it is missing."""
    if name not in PEERS:
        return None, "unknown peer"
    peer = PEERS[name]
    try:
        return peer.make(), _version(peer.distribution)
    except ImportError as exc:
        return None, f"not installed ({exc.name})"


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


def make_tools(names: list[str]) -> tuple[dict[str, Extractor], dict[str, str], dict[str, str]]:
    """Extractors by tool name, their versions, and notes for the ones skipped."""
    tools, versions, skipped = {}, {}, {}
    for name in names:
        if name.startswith("newsml:"):
            from newsml import __version__

            tools[name] = newsml_tool(name.split(":", 1)[1])
            versions[name] = __version__
        else:
            run, info = peer_tool(name)
            if run is None:
                skipped[name] = info
            else:
                tools[name], versions[name] = run, info
    warm_up(tools, [lang for _, lang in WARM_UP])
    return tools, versions, skipped


def warm_up(tools: dict[str, Extractor], langs: list[str]) -> None:
    """Run each tool once on a small page in each language: one-time loads (jieba's dictionary,
    stop lists, a peer's per-language set-up) are not per-page time."""
    samples = {lang: html for html, lang in WARM_UP}
    for run in tools.values():
        for lang in langs:
            html = samples.get(lang, WARM_UP[0][0])
            with contextlib.suppress(Exception):
                run(html.encode(), html, lang)


# -- the timed run ----------------------------------------------------------------------
@dataclass
class ToolResult:
    scores: list[Score] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    sizes_kb: list[float] = field(default_factory=list)
    failures: int = 0
    peak_mb: float | None = None


@dataclass
class CorpusRun:
    pages: list[LabeledPage]
    results: dict[str, ToolResult]

    @property
    def lang(self) -> str:
        langs = Counter(page_lang(page) for page in self.pages)
        return next(iter(langs)) if len(langs) == 1 else "mixed"


def page_lang(page: LabeledPage) -> str:
    return str(page.meta.get("lang", "en")).split("-")[0].lower()


def interleaved(pages: list[LabeledPage], tools: dict[str, Callable[[bytes, str, str], Any]]
                ) -> Iterator[tuple[LabeledPage, bytes, str, dict[str, tuple[Any, float]]]]:
    """Every tool on every page, the tool order rotating page by page so that drift of the
    machine hits all tools alike: per page, its bytes, its decoded text, and each tool's
    output (None when the tool raised: a failure is a data point, not a crash) and ms."""
    from newsml.input.decode import decode_html

    names = list(tools)
    for k, page in enumerate(pages):
        data = page.html
        text, _ = decode_html(data)
        lang = page_lang(page)
        calls: dict[str, tuple[Any, float]] = {}
        for name in names[k % len(names):] + names[:k % len(names)]:
            start = time.perf_counter()
            try:
                output = tools[name](data, text, lang)
            except Exception:
                output = None
            calls[name] = (output, (time.perf_counter() - start) * 1000)
        yield page, data, text, calls


def run_corpus(pages: list[LabeledPage], tools: dict[str, Extractor]) -> dict[str, ToolResult]:
    """Every tool on every page, interleaved (:func:`interleaved`)."""
    from newsml.measure.scoring import score

    warm_up(tools, sorted({page_lang(page) for page in pages}))
    results = {name: ToolResult() for name in tools}
    for page, data, _text, calls in interleaved(pages, tools):
        for name, (extracted, ms) in calls.items():
            if extracted is None:
                extracted = ""
                results[name].failures += 1
            results[name].ms.append(ms)
            results[name].scores.append(score(extracted, page.gold))
            results[name].sizes_kb.append(len(data) / 1024)
    return results


def write_probe_input(pages: list[LabeledPage], path: Path) -> None:
    """The pages a memory probe runs over, one JSON line each: the HTML's path (newsml reads
    the bytes), the decoded text (peers get it) and the language."""
    from newsml.input.decode import decode_html

    with path.open("w", encoding="utf-8") as out:
        for page in pages:
            text, _ = decode_html(page.html)
            out.write(json.dumps({"path": str(page.html_path), "text": text, "lang": page_lang(page)}) + "\n")


def peak_memory_mb(tool: str, probe_input: Path) -> float | None:
    """Peak resident size of a fresh process running ``tool`` over the probe's pages (MB)."""
    command = [sys.executable, __file__, "--memory-probe", tool, str(probe_input)]
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=True)
        return float(out.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError):
        return None


def memory_probe(tool: str, probe_input: Path) -> None:
    """Child process of :func:`peak_memory_mb`: run one tool page by page, print peak RSS in MB.

    Only the tool's own imports are loaded: a peer's probe never imports newsml."""
    run = make_tools([tool])[0][tool]
    with probe_input.open(encoding="utf-8") as lines:
        for line in lines:
            page = json.loads(line)
            data = Path(page["path"]).read_bytes()
            with contextlib.suppress(Exception):
                run(data, page["text"], page["lang"])
    print(_peak_rss_mb())


def _peak_rss_mb() -> float:
    """This process's peak resident size. Linux keeps ru_maxrss across fork and exec, so a
    child would report its parent's peak; VmHWM belongs to the process's own memory."""
    peak = status_mb("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- scaling --------------------------------------------------------------------------
def grown_page(page: LabeledPage, factor: int) -> bytes:
    """The page with its body's blocks (article and boilerplate alike) repeated ``factor`` times."""
    import lxml.html

    from newsml.input.decode import decode_html

    text, _ = decode_html(page.html)
    root = lxml.html.document_fromstring(text)
    body = root.find("body")
    inner = "".join(lxml.html.tostring(child, encoding="unicode") for child in body)
    head = lxml.html.tostring(root.find("head"), encoding="unicode") if root.find("head") is not None else ""
    return f"<html>{head}<body>{inner * factor}</body></html>".encode()


def scaling(pages: list[LabeledPage], tools: dict[str, Extractor], factors=(1, 2, 4, 8),
            repeats: int = 3) -> tuple[LabeledPage, dict[str, list[float]]]:
    """The median-size page, and the median ms of each tool on each grown version of it."""
    from newsml.input.decode import decode_html

    page = sorted(pages, key=lambda p: len(p.html))[len(pages) // 2]
    grown = {f: grown_page(page, f) for f in factors}
    texts = {f: decode_html(data)[0] for f, data in grown.items()}
    out: dict[str, list[float]] = {}
    for name, run in tools.items():
        times = []
        for f in factors:
            runs = []
            for _ in range(repeats):
                start = time.perf_counter()
                with contextlib.suppress(Exception):
                    run(grown[f], texts[f], page_lang(page))
                runs.append((time.perf_counter() - start) * 1000)
            times.append(statistics.median(runs))
        out[name] = times
    return page, out


def growth_exponent(factors: tuple[int, ...], times: list[float]) -> float:
    """Slope of log(time) against log(size): 1 is linear, 2 quadratic."""
    xs, ys = [math.log(f) for f in factors], [math.log(max(t, 1e-6)) for t in times]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


# -- document: dates, authors and structure ---------------------------------------------
#: The folder, beside the readability corpus's pages, of Readability.js's accepted output HTML.
EXPECTED = "expected"
#: The row the document section times newsml against: trafilatura's text extraction.
DOCUMENT_REFERENCE = f"{REFERENCE} (text)"
#: trafilatura's Markdown output, as its docs give it (usage-python "Formatting" and output formats).
TRAFILATURA_MARKDOWN = {"output_format": "markdown", "include_formatting": True, "include_tables": True,
                        "include_comments": False}


@dataclass
class DocumentOutput:
    """What a tool gives of a page's document: None where it gives no such field."""

    date: Any = None
    author: Any = None
    markdown: str | None = None


DocumentTool = Callable[[bytes, str, str], DocumentOutput]  # (html bytes, decoded text, lang) -> output


@dataclass(frozen=True)
class DocumentPeer:
    """A peer of the document section: its call, what it gives, the pages it runs on."""

    name: str
    distribution: str
    call: str
    basis: str
    fields: tuple[str, ...]  # of "date", "author", "markdown"
    make: Callable[[], DocumentTool]
    langs: frozenset[str] | None = None  # it runs on corpora in these languages only (None: all)


def _field(record: Any, name: str) -> Any:
    if record is None:
        return None
    return record.get(name) if isinstance(record, dict) else getattr(record, name, None)


def _trafilatura_document() -> DocumentTool:
    import trafilatura

    def run(_data, text, _lang):
        metadata = trafilatura.bare_extraction(text, with_metadata=True)
        markdown = trafilatura.extract(text, **TRAFILATURA_MARKDOWN)
        return DocumentOutput(_field(metadata, "date"), _field(metadata, "author"), markdown or "")
    return run


def _htmldate() -> DocumentTool:
    from htmldate import find_date

    def run(_data, text, _lang):
        return DocumentOutput(date=find_date(text, original_date=True))
    return run


def _newspaper4k_document() -> DocumentTool:
    read = _newspaper4k_reader()

    def run(_data, text, lang):
        article = read(text, lang)
        return DocumentOutput(date=article.publish_date, author=article.authors)
    return run


def _gne() -> DocumentTool:
    from gne import GeneralNewsExtractor

    extractor = GeneralNewsExtractor()

    def run(_data, text, _lang):
        result = extractor.extract(text)
        return DocumentOutput(date=_field(result, "publish_time"), author=_field(result, "author"))
    return run


DOCUMENT_PEERS: dict[str, DocumentPeer] = {peer.name: peer for peer in (
    DocumentPeer("trafilatura", "trafilatura",
                 "trafilatura.bare_extraction(html, with_metadata=True) (.date, .author); "
                 f"trafilatura.extract(html, {_kwargs(TRAFILATURA_MARKDOWN)})",
                 "trafilatura docs, usage-python: \"Extraction with metadata\" (`with_metadata=True`, "
                 "`bare_extraction` for Python objects) and \"Output formats\"/\"Formatting\" "
                 "(`output_format=\"markdown\"`, `include_formatting=True`); `include_comments=False` as "
                 "for its text.", ("date", "author", "markdown"), _trafilatura_document),
    DocumentPeer("htmldate", "htmldate", "htmldate.find_date(html, original_date=True)",
                 "htmldate docs, \"Usage\": `original_date=True` looks for the original publication date "
                 "rather than the last modification (extensive search on by default).", ("date",), _htmldate),
    DocumentPeer("newspaper4k", "newspaper4k",
                 f"newspaper.article({NEWSPAPER_URL!r}, language=lang, input_html=html, fetch_images=False)"
                 " (.publish_date, .authors)",
                 "newspaper4k README and user guide (`newspaper.article(url, input_html=...)`, the article's "
                 "`authors` and `publish_date`).", ("date", "author"), _newspaper4k_document),
    DocumentPeer("gne", "gne", "gne.GeneralNewsExtractor().extract(html) (\"publish_time\", \"author\")",
                 "GNE README (GeneralNewsExtractor for Chinese news pages; `extract(html)` returns title, "
                 "author, publish_time, content): run on Chinese corpora only.", ("date", "author"), _gne,
                 frozenset({"zh"})),
)}


def newsml_document() -> DocumentTool:
    """newsml as a user calls it for a document: ``extract(html_bytes)``, then its metadata and
    Markdown (fields read with getattr, None where the Article has no such field)."""
    from newsml import extract

    def run(data, _text, _lang):
        article = extract(data)
        return DocumentOutput(getattr(article, "date", None), getattr(article, "author", None),
                              getattr(article, "markdown", None))
    return run


def reference_document() -> DocumentTool:
    """trafilatura's text extraction (the text benchmark's reference call), timed only."""
    extract_text = PEERS[REFERENCE].make()

    def run(data, text, lang):
        extract_text(data, text, lang)
        return DocumentOutput()
    return run


@dataclass
class DocumentTools:
    run: dict[str, DocumentTool]
    fields: dict[str, tuple[str, ...]]
    langs: dict[str, frozenset[str] | None]
    versions: dict[str, str]
    skipped: dict[str, str]

    def for_pages(self, pages: list[LabeledPage]) -> dict[str, DocumentTool]:
        """The tools that run on these pages (a peer for some languages only on pages all in them)."""
        langs = {page_lang(page) for page in pages}
        return {name: run for name, run in self.run.items()
                if self.langs[name] is None or langs <= self.langs[name]}


def make_document_tools(peers: list[str]) -> DocumentTools:
    """newsml's default, the document peers asked for (those installed) and the timed reference."""
    from newsml import __version__

    tools = DocumentTools({DEFAULT_TOOL: newsml_document()}, {DEFAULT_TOOL: ("date", "author", "markdown")},
                          {DEFAULT_TOOL: None}, {DEFAULT_TOOL: __version__}, {})
    for name in peers:
        peer = DOCUMENT_PEERS[name]
        try:
            tools.run[name] = peer.make()
        except ImportError as exc:
            tools.skipped[name] = f"not installed ({exc.name})"
            continue
        tools.fields[name], tools.langs[name] = peer.fields, peer.langs
        tools.versions[name] = _version(peer.distribution)
    try:
        tools.run[DOCUMENT_REFERENCE] = reference_document()
        tools.fields[DOCUMENT_REFERENCE], tools.langs[DOCUMENT_REFERENCE] = (), None
        tools.versions[DOCUMENT_REFERENCE] = _version(PEERS[REFERENCE].distribution)
    except ImportError as exc:
        tools.skipped[DOCUMENT_REFERENCE] = f"not installed ({exc.name})"
    return tools


def document_gold_note(folder: Path, labels: Path) -> tuple[bool, str | None]:
    """Whether a corpus has document gold, and a note when it is left out for want of labels."""
    if corpus_labels(folder.name, labels) is not None or folder.name in METADATA_KEYS:
        return True, None
    if folder.name in LABELED_METADATA:
        path = labels / f"{folder.name}.json"
        return False, f"{folder.name}: skipped, no date and author labels at {path}"
    return (folder / EXPECTED).is_dir() or any(folder.glob("*.md")), None


@dataclass
class DocumentGold:
    """A page's gold for the document section."""

    metadata: bool  # the page has date and author gold (either may be None: the page gives none)
    date: str | None
    author: str | None
    lines: dict[str, list[str]]  # the gold's lines the page marks as heading / list item
    expected: dict[str, list[str]] | None  # units of Readability.js's expected output
    partial_date: bool = False  # the gold's date is no day (a month): the page is left out of the date


def document_gold(page: LabeledPage, text: str, labels: dict[str, Any] | None) -> DocumentGold:
    """The page's date and author (from the corpus's labels, else its json), the gold lines
    the page marks as heading or list item (the ``.md`` gold's, else the ``.txt`` gold's),
    and the units of Readability.js's expected output where there is one."""
    metadata, date, author = metadata_gold(page.corpus, page.id, page.meta, labels)
    markdown = page.html_path.with_suffix(".md")
    lines = (gold_rules.gold_markdown_lines(markdown.read_text(encoding="utf-8")) if markdown.is_file()
             else gold_rules.gold_text_lines(page.gold))
    expected = page.html_path.parent / EXPECTED / f"{page.id}.html"
    author = author if gold_rules.normalize_author(author) else None
    day = gold_rules.day(date)
    return DocumentGold(metadata, day, author,
                        gold_rules.gold_structure(lines, gold_rules.page_marks(text)),
                        gold_rules.expected_units(expected.read_bytes()) if expected.is_file() else None,
                        partial_date=day is None and bool(date))


@dataclass
class DocumentResult:
    outputs: list[DocumentOutput] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    errors: int = 0


@dataclass
class DocumentRun:
    pages: list[LabeledPage]
    golds: list[DocumentGold]
    results: dict[str, DocumentResult]


def run_document(pages: list[LabeledPage], tools: dict[str, DocumentTool],
                 labels: dict[str, Any] | None) -> DocumentRun:
    """Every tool once on every page for its date, author and Markdown, interleaved as in
    :func:`run_corpus` (the order rotates page by page); a failure is an empty output."""
    warm_up(tools, sorted({page_lang(page) for page in pages} | {"en"}))
    results = {name: DocumentResult() for name in tools}
    golds = []
    for page, _data, text, calls in interleaved(pages, tools):
        golds.append(document_gold(page, text, labels))
        for name, (output, ms) in calls.items():
            if output is None:
                output = DocumentOutput()
                results[name].errors += 1
            results[name].ms.append(ms)
            results[name].outputs.append(output)
    return DocumentRun(pages, golds, results)


def _share(hits: int, n: int) -> dict[str, Any]:
    return {"recalled": hits, "n": n, "recall": hits / n if n else None}


def _is_right(name: str, gold: DocumentGold, output: DocumentOutput) -> bool:
    """The tool's date (author) is the gold's: the same day (normalized containment)."""
    if name == "date":
        return gold_rules.day(output.date) == gold.date
    return gold_rules.author_matches(output.author, gold.author)


def _is_given(name: str, output: DocumentOutput) -> bool:
    """The tool gives a date (an author)."""
    if name == "date":
        return gold_rules.day(output.date) is not None
    return bool(gold_rules.normalize_author(output.author))


def document_figures(golds: list[DocumentGold], result: DocumentResult,
                     fields: tuple[str, ...]) -> dict[str, Any]:
    """A tool's figures on a corpus: date and author accuracy over the pages with such gold, what
    it gives where the gold has none, and the recall of the gold's structure by its Markdown."""
    figures: dict[str, Any] = {"median_ms": statistics.median(result.ms) if result.ms else None,
                               "errors": result.errors}
    with_metadata = [(gold, output) for gold, output in zip(golds, result.outputs) if gold.metadata]
    for name in ("date", "author"):
        if name not in fields:
            figures[name] = None
            continue
        with_gold = [(g, o) for g, o in with_metadata if getattr(g, name) is not None]
        without = [o for g, o in with_metadata
                   if getattr(g, name) is None and not (name == "date" and g.partial_date)]
        correct = sum(_is_right(name, g, o) for g, o in with_gold)
        figures[name] = {"correct": correct, "n": len(with_gold),
                         "accuracy": correct / len(with_gold) if with_gold else None,
                         "given_without_gold": sum(_is_given(name, o) for o in without),
                         "without_gold": len(without)}
    if "markdown" not in fields:
        figures["structure"] = figures["expected"] = None
        return figures
    totals: dict[str, list[int]] = {"heading": [0, 0], "list": [0, 0]}
    expected: dict[str, list[int]] = {kind: [0, 0] for kind in gold_rules.KINDS}
    has_expected = False
    for gold, output in zip(golds, result.outputs):
        for kind, (hits, n) in gold_rules.structure_recall(gold.lines, output.markdown).items():
            totals[kind][0] += hits
            totals[kind][1] += n
        if gold.expected is not None:
            has_expected = True
            for kind, (hits, n) in gold_rules.structure_recall(gold.expected, output.markdown).items():
                expected[kind][0] += hits
                expected[kind][1] += n
    figures["structure"] = {kind: _share(*counts) for kind, counts in totals.items()}
    figures["expected"] = ({kind: _share(*counts) for kind, counts in expected.items()}
                           if has_expected else None)
    return figures


def document_summary(run: DocumentRun, figures: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """newsml's default against the best peer of each field, and its time against trafilatura's text."""
    ours = figures.get(DEFAULT_TOOL, {})
    peers = {name: f for name, f in figures.items() if name not in (DEFAULT_TOOL, DOCUMENT_REFERENCE)}
    summary: dict[str, Any] = {}
    for name in ("date", "author"):
        scored = {peer: f[name]["accuracy"] for peer, f in peers.items()
                  if f.get(name) and f[name]["accuracy"] is not None}
        best = max(scored, key=scored.__getitem__) if scored else None
        summary[name] = {"newsml": (ours.get(name) or {}).get("accuracy"), "best_peer": best,
                         "best_peer_accuracy": scored[best] if best else None}
    for kind in ("heading", "list"):
        peer = (peers.get(REFERENCE) or {}).get("structure") or {}
        summary[kind] = {"newsml": ((ours.get("structure") or {}).get(kind) or {}).get("recall"),
                         REFERENCE: (peer.get(kind) or {}).get("recall")}
    reference = figures.get(DOCUMENT_REFERENCE, {}).get("median_ms")
    summary["time_ratio"] = (ours["median_ms"] / reference
                             if ours.get("median_ms") is not None and reference else None)
    return summary


# -- figures --------------------------------------------------------------------------
def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def tool_figures(result: ToolResult) -> dict[str, Any]:
    from newsml.measure.scoring import macro

    mean = macro(result.scores)
    return {"precision": mean.precision, "recall": mean.recall, "f1": mean.f1,
            "median_ms": statistics.median(result.ms), "p95_ms": p95(result.ms),
            "peak_mb": result.peak_mb, "failures": result.failures,
            "page_f1": [s.f1 for s in result.scores]}


#: A tool loses the article on a page when it scores below LOST_BELOW where another tool (a
#: peer, or newsml's default) scores LOST_RIVAL or more: the page a user would call lost.
LOST_BELOW = 0.5
LOST_RIVAL = 0.8


def lost_articles(figures: dict[str, dict[str, Any]]) -> dict[str, int]:
    """Per tool, the pages of one corpus on which it lost the article (:data:`LOST_BELOW`):
    newsml's default and each peer against the best of the others; newsml's other methods
    against the peers and the default."""
    rivals = [name for name in figures if not name.startswith("newsml:") or name == DEFAULT_TOOL]
    lost = {}
    for name, figure in figures.items():
        others = [figures[other]["page_f1"] for other in rivals if other != name]
        if others:
            lost[name] = sum(f1 < LOST_BELOW and max(other[page] for other in others) >= LOST_RIVAL
                             for page, f1 in enumerate(figure["page_f1"]))
    return lost


def lost_table(figures: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Lost articles per corpus (rows) and tool (columns: newsml's default, then the peers)."""
    first = next(iter(figures.values()), {})
    names = [name for name in first if name == DEFAULT_TOOL or not name.startswith("newsml:")]
    lines = ["| corpus | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    totals = dict.fromkeys(names, 0)
    for corpus, corpus_figures in figures.items():
        lost = lost_articles(corpus_figures)
        for name in names:
            totals[name] += lost.get(name, 0)
        lines.append(f"| {corpus} | " + " | ".join(str(lost.get(name, "-")) for name in names) + " |")
    lines.append("| all | " + " | ".join(str(totals[name]) for name in names) + " |")
    return lines


def summarize(figures: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """newsml's default against the best peer (by macro F1) and against trafilatura on one corpus."""
    from newsml.measure.scoring import paired_bootstrap

    if DEFAULT_TOOL not in figures:
        return None
    ours = figures[DEFAULT_TOOL]
    peers = {name: f for name, f in figures.items() if not name.startswith("newsml:")}
    summary: dict[str, Any] = {"newsml_f1": ours["f1"], "best_peer": None, "best_peer_f1": None,
                               "difference": None, "difference_ci95": None,
                               "time_ratio": None, "memory_ratio": None}
    if peers:
        best = max(peers, key=lambda name: peers[name]["f1"])
        mean, low, high = paired_bootstrap(ours["page_f1"], peers[best]["page_f1"])
        summary.update(best_peer=best, best_peer_f1=peers[best]["f1"], difference=mean,
                       difference_ci95=[low, high])
    reference = figures.get(REFERENCE)
    if reference:
        if reference["median_ms"] > 0:
            summary["time_ratio"] = ours["median_ms"] / reference["median_ms"]
        if ours["peak_mb"] and reference["peak_mb"]:
            summary["memory_ratio"] = ours["peak_mb"] / reference["peak_mb"]
    return summary


# -- report ---------------------------------------------------------------------------
def _ratio(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def summary_table(runs: dict[str, CorpusRun], figures: dict[str, dict[str, dict[str, Any]]],
                  split: str) -> list[str]:
    label = "newsml F1" + (" (unseen pages)" if split == "test" else "")
    lines = [f"| corpus | lang | pages | {label} | best peer | best peer F1 | newsml - best peer "
             "(95% CI) | time / trafilatura | peak memory / trafilatura |",
             "|---|---|---|---|---|---|---|---|---|"]
    for corpus, run in runs.items():
        summary = summarize(figures[corpus])
        if summary is None:
            continue
        if summary["best_peer"]:
            low, high = summary["difference_ci95"]
            best, best_f1 = summary["best_peer"], f"{summary['best_peer_f1']:.3f}"
            difference = f"{_signed(summary['difference'])} ({_signed(low)} to {_signed(high)})"
        else:
            best = best_f1 = difference = "-"
        lines.append(f"| {corpus} | {run.lang} | {len(run.pages)} | {summary['newsml_f1']:.3f} | {best} | "
                     f"{best_f1} | {difference} | {_ratio(summary['time_ratio'])} | "
                     f"{_ratio(summary['memory_ratio'])} |")
    return lines


def summary_legend(command: str, peers: int) -> list[str]:
    from newsml.measure.scoring import BOOTSTRAP_SAMPLES

    return [f"newsml's default against the best of {peers} peer settings on each corpus (the peer with "
            "the highest macro F1 on those very pages, each at its documented article settings: "
            "`docs/benchmark.md`), one run, same pages. The difference is the mean per-page F1 difference "
            f"with a 95% paired bootstrap interval over pages ({BOOTSTRAP_SAMPLES} resamples). Time is the "
            "median ms/page, memory the peak resident size of a process running the tool alone, each as "
            f"a ratio to trafilatura's (`include_comments=False`); below 1 is faster or smaller. "
            f"`{command}`"]


def peer_settings_section(versions: dict[str, str], skipped: dict[str, str]) -> list[str]:
    lines = ["## Peers and their settings", "",
             "Each peer runs with the settings its own documentation gives for main-article text, on the "
             "text newsml decoded from the page (so no peer loses a page to an encoding guess) and the "
             "page's language from the corpus (`lang` in its json) where the peer takes one. No peer is "
             "given the page's URL. Extracted text is scored as it is returned. newsml's methods get the "
             "page's bytes and are asked for the text alone, `newsml.extract(html_bytes, method=..., "
             "text_only=True).text`, as the peers' calls give text without metadata; the document section "
             "times newsml with its metadata and Markdown.", "",
             "| peer | version | call | documentation |", "|---|---|---|---|"]
    for name, peer in PEERS.items():
        version = versions.get(name) or f"skipped: {skipped.get(name, 'not run')}"
        lines.append(f"| {name} | {version} | `{peer.call}` | {peer.basis} |")
    return lines + [""]


def corpus_table(corpus: str, run: CorpusRun, figures: dict[str, dict[str, Any]], split: str,
                 learned: set[str]) -> list[str]:
    reference = figures.get(REFERENCE, {}).get("median_ms")
    reference_mb = figures.get(REFERENCE, {}).get("peak_mb")
    lines = [f"### {corpus} ({len(run.pages)} pages, lang: {run.lang}, split: {split})", "",
             "| tool | P | R | F1 | median ms | p95 ms | peak MB | failures | time / trafilatura | "
             "memory / trafilatura |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name, f in figures.items():
        label = name
        if name.startswith("newsml:") and name.split(":", 1)[1] in learned:
            label += " (unseen pages)" if split == "test" else " (includes training pages)"
        ratio = _ratio(f["median_ms"] / reference) if reference else "-"
        memory = _ratio(f["peak_mb"] / reference_mb) if f["peak_mb"] and reference_mb else "-"
        peak = f"{f['peak_mb']:.0f}" if f["peak_mb"] else "-"
        lines.append(f"| {label} | {f['precision']:.3f} | {f['recall']:.3f} | {f['f1']:.3f} | "
                     f"{f['median_ms']:.1f} | {f['p95_ms']:.1f} | {peak} | {f['failures']} | {ratio} | "
                     f"{memory} |")
    return lines


def size_table(runs: dict[str, CorpusRun]) -> list[str]:
    names = list(next(iter(runs.values())).results)
    header = " | ".join(f"{lo}-{hi} KB" if hi < 10**9 else f">{lo} KB" for lo, hi in SIZE_BUCKETS)
    lines = [f"| tool | {header} |", "|---" * (len(SIZE_BUCKETS) + 1) + "|"]
    for name in names:
        cells = []
        for lo, hi in SIZE_BUCKETS:
            times = [ms for run in runs.values()
                     for ms, kb in zip(run.results[name].ms, run.results[name].sizes_kb) if lo <= kb < hi]
            cells.append(f"{statistics.median(times):.1f} ({len(times)})" if times else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def caveats() -> list[str]:
    return ["## Caveats", "",
            "- The best peer is picked on the same pages it is scored on, which favours the peers.",
            "- Gold conventions differ by corpus (`../shared/data/README.md`): some golds include the "
            "headline, cleaneval_en's covers all non-boilerplate text, and the `readability` corpus's gold "
            "is Readability.js output, not independent human gold.",
            "- readability-lxml 0.9's changelog says its quality fixtures include the complete 130-page "
            "Mozilla Readability corpus and Dragnet pages: on `readability` and `dragnet` it may be scored "
            "on pages it was tuned on.",
            "- Peers get decoded text while newsml's time includes decoding the bytes.", ""]


def _accuracy(figure: dict[str, Any] | None) -> str:
    if not figure:
        return "-"
    accuracy = figure["accuracy"]
    return f"{accuracy:.3f} ({figure['n']})" if accuracy is not None else f"- ({figure['n']})"


def _given(figure: dict[str, Any] | None) -> str:
    return f"{figure['given_without_gold']}/{figure['without_gold']}" if figure else "-"


def _recall(figure: dict[str, Any] | None) -> str:
    if not figure:
        return "-"
    return f"{figure['recall']:.3f} ({figure['n']})" if figure["recall"] is not None else f"- ({figure['n']})"


def _value(value: float | None) -> str:
    return f"{value:.3f}" if value is not None else "-"


def document_legend() -> list[str]:
    return [
        "Each tool runs once per page for its date, author and Markdown, on the pages of the text "
        "benchmark (the corpus's pages of the split, the same for every tool), "
        "interleaved page by page (the order rotates), warmed up first. newsml is "
        "`newsml.extract(html_bytes)` with the Article's `date`, `author` and `markdown` (a field the "
        "Article lacks counts as not given); its time includes rendering the Markdown. "
        f"`{DOCUMENT_REFERENCE}` is `{PEERS[REFERENCE].call}` in the same loop, timed only: "
        "time / trafilatura is newsml's median ms per page against it.", "",
        "- **Gold.** Dates and authors: wcxb_dev/wcxb_dev2 json `date`, `author`; readability json "
        "`publishedTime`, `byline`; " + ", ".join(LABELED_METADATA) + " the hand labels in "
        "`labeled/metadata/<corpus>.json` (pages without a label, and dates that are no day, such as "
        "a month, are left out of these columns). "
        "Headings and list items: the gold's lines (the `.md` gold's heading lines and list lines, "
        "else every line of the `.txt` gold), Markdown marks and inline links and emphasis stripped, "
        "whose normalized text is the whole text of an `<h2>`-`<h6>` (an `<li>`) element of the page; "
        "a line the page marks both ways counts as a heading. Readability.js's expected output "
        f"(`{EXPECTED}/<id>.html`): the texts of its `h1`-`h6`, `li` (without nested lists), `td`/`th` "
        "and outermost `blockquote` elements. readability's date and author are Readability.js's "
        "fixture metadata: null there means Readability.js found none, not that the page has none.",
        "- **Date accuracy (n)**: the predicted day (first ten characters of an ISO date; a peer's "
        "datetime or a string such as `2011-12-09 10:23:00` or `2011年12月09日` read as its day) equals "
        "the gold day, over the n pages with a gold date. **Dates given without gold**: pages with a "
        "predicted date where the gold has none / pages whose gold has none.",
        "- **Author accuracy (n)**: normalized containment: both sides NFKC, lower case, punctuation and "
        "symbols as spaces, a leading `by`, `作者` or `记者` dropped, spaces collapsed; right when the "
        "gold's form is contained in the prediction's or the prediction's in the gold's (neither empty; "
        "at word boundaries except in CJK text). A list of authors is joined with commas.",
        "- **Heading / list-item recall (n gold lines)**: the share of gold headings (list items) for "
        "which a heading line (`#`-line or setext) / list line (`-`, `*`, `+`, `1.`; an item with the "
        "lines that continue it, as CommonMark reads it, here and in the `.md` gold) of the tool's "
        "Markdown is the same line: normalized texts equal, or one contains the other with a token F1 "
        f"of at least {gold_rules.NEAR_F1} (tokens: words, each CJK character alone). On the expected "
        "HTML, a cell is recalled by a cell of a `| a | b |` row, a block quote by a `>` line or a run of "
        "consecutive `>` lines. Counts are pooled over the corpus's pages.",
        "- A peer's error on a page is counted and leaves that page without output."]


def document_section(runs: dict[str, DocumentRun], figures: dict[str, dict[str, dict[str, Any]]],
                     tools: DocumentTools, notes: list[str], split: str) -> list[str]:
    lines = ["## Document: dates, authors and structure", "", *document_legend(), ""]
    if tools.skipped or notes:
        lines += ["Skipped: " + "; ".join([*(f"{n}: {why}" for n, why in tools.skipped.items()), *notes]), ""]
    lines += ["| tool | version | call | documentation |", "|---|---|---|---|"]
    lines.append(f"| {DEFAULT_TOOL} | {tools.versions.get(DEFAULT_TOOL, '?')} | `newsml.extract(html_bytes)` "
                 "(.date, .author, .markdown) | the Article's contract |")
    for name, peer in DOCUMENT_PEERS.items():
        version = tools.versions.get(name) or f"skipped: {tools.skipped.get(name, 'not run')}"
        lines.append(f"| {name} | {version} | `{peer.call}` | {peer.basis} |")
    lines += ["", "### Summary: newsml's default against the best peer", "",
              "| corpus | pages | newsml date | best peer date | newsml author | best peer author | "
              f"newsml headings | {REFERENCE} headings | newsml list items | {REFERENCE} list items | "
              "time / trafilatura (text) |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for corpus, run in runs.items():
        summary = document_summary(run, figures[corpus])
        best = {name: (f"{summary[name]['best_peer']} {_value(summary[name]['best_peer_accuracy'])}"
                       if summary[name]["best_peer"] else "-") for name in ("date", "author")}
        lines.append(f"| {corpus} | {len(run.pages)} | {_value(summary['date']['newsml'])} | "
                     f"{best['date']} | "
                     f"{_value(summary['author']['newsml'])} | {best['author']} | "
                     f"{_value(summary['heading']['newsml'])} | {_value(summary['heading'][REFERENCE])} | "
                     f"{_value(summary['list']['newsml'])} | {_value(summary['list'][REFERENCE])} | "
                     f"{_ratio(summary['time_ratio'])} |")
    ours = [ms for run in runs.values() for ms in run.results[DEFAULT_TOOL].ms]
    reference = [ms for run in runs.values() if DOCUMENT_REFERENCE in run.results
                 for ms in run.results[DOCUMENT_REFERENCE].ms]
    if ours and reference:
        lines += ["", f"Over all {len(ours)} pages: newsml with metadata and Markdown "
                  f"{statistics.median(ours):.1f} ms per page (median), {DOCUMENT_REFERENCE} "
                  f"{statistics.median(reference):.1f} ms: ratio "
                  f"{statistics.median(ours) / statistics.median(reference):.2f}."]
    lines.append("")
    for corpus, run in runs.items():
        with_metadata = sum(gold.metadata for gold in run.golds)
        lines += [f"### {corpus} ({len(run.pages)} pages, {with_metadata} with date and author gold, "
                  f"split: {split})", "",
                  "| tool | date (n) | dates without gold | author (n) | authors without gold | "
                  "headings (n) | list items (n) | median ms | errors |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for name, f in figures[corpus].items():
            structure = f.get("structure") or {}
            ms = f"{f['median_ms']:.1f}" if f["median_ms"] is not None else "-"
            lines.append(f"| {name} | {_accuracy(f['date'])} | {_given(f['date'])} | "
                         f"{_accuracy(f['author'])} | "
                         f"{_given(f['author'])} | {_recall(structure.get('heading'))} | "
                         f"{_recall(structure.get('list'))} | {ms} | {f['errors']} |")
        expected = {name: f["expected"] for name, f in figures[corpus].items() if f.get("expected")}
        if expected:
            lines += ["", f"Readability.js's expected output (`{EXPECTED}/<id>.html`), recall (n units):", "",
                      "| tool | headings | list items | table cells | block quotes |",
                      "|---|---|---|---|---|"]
            for name, f in expected.items():
                cells = " | ".join(_recall(f[kind]) for kind in gold_rules.KINDS)
                lines.append(f"| {name} | {cells} |")
        lines.append("")
    return lines


def document_json(runs: dict[str, DocumentRun], figures: dict[str, dict[str, dict[str, Any]]],
                  tools: DocumentTools, notes: list[str]) -> dict[str, Any]:
    settings = {name: DOCUMENT_PEERS[name].call for name in tools.run if name in DOCUMENT_PEERS}
    settings[DEFAULT_TOOL] = "newsml.extract(html_bytes) (.date, .author, .markdown)"
    settings[DOCUMENT_REFERENCE] = PEERS[REFERENCE].call
    return {"versions": tools.versions, "skipped": tools.skipped, "notes": notes, "settings": settings,
            "near_f1": gold_rules.NEAR_F1,
            "corpora": {corpus: {"pages": len(run.pages),
                                 "pages_with_metadata": sum(gold.metadata for gold in run.golds),
                                 "page_ids": [page.id for page in run.pages],
                                 "tools": figures[corpus],
                                 "summary": document_summary(run, figures[corpus])}
                        for corpus, run in runs.items()}}


def text_report(lines: list[str], runs: dict[str, CorpusRun], figures: dict[str, dict[str, dict[str, Any]]],
                tools: dict[str, Extractor], versions: dict[str, str], skipped: dict[str, str], command: str,
                split: str, learned: set[str]) -> tuple[list[str], list[str]]:
    """Append the text benchmark's sections to ``lines``; the summary table and its legend."""
    lines += ["Macro precision/recall/F1 over pages (token overlap, CJK characters as tokens); "
              "times are per page in one process, tools interleaved page by page, each tool warmed up "
              "first on a small page in each language of the corpus (one-time loads such as jieba's "
              "dictionary are not per-page time); peak MB is "
              "the peak resident size of a separate process running only that tool over the same pages "
              f"(it imports nothing else). Ratios are to {REFERENCE} (`include_comments=False`) in the same "
              "run.", ""]
    summary = summary_table(runs, figures, split)
    legend = summary_legend(command, sum(not name.startswith("newsml:") for name in tools))
    lines += ["## Summary: newsml's default against the best peer per corpus", "", *summary, "", *legend, ""]
    lines += ["## Lost articles", "",
              f"Pages on which a tool lost the article: its F1 below {LOST_BELOW} where another tool "
              f"(a peer, or newsml's default) has {LOST_RIVAL} or more.", "", *lost_table(figures), ""]
    lines += peer_settings_section(versions, skipped)
    lines += ["## Per corpus", ""]
    for corpus, run in runs.items():
        lines += corpus_table(corpus, run, figures[corpus], split, learned) + [""]
    return summary, legend


#: Sections of docs/benchmark.md that other scripts write (throughput.py, spark_throughput.py,
#: cv_against_peers.py): a rewrite of the file keeps them, from the first of these headings to
#: the end.
OTHER_SECTIONS = ("## Throughput over many pages", "## Out of fold on the train pages")


def kept_sections(path: Path) -> str:
    """The part of an existing report that other scripts wrote, to append to a new report."""
    if not path.is_file():
        return ""
    text = path.read_text(encoding="utf-8")
    starts = [text.find(f"\n{heading}") for heading in OTHER_SECTIONS if f"\n{heading}" in text]
    return text[min(starts) + 1:] if starts else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--corpora", nargs="+", default=None, help="corpus folder names (default: all)")
    parser.add_argument("--methods", nargs="+", default=None, help="newsml methods (default: all)")
    parser.add_argument("--peers", nargs="*", default=list(PEERS), choices=list(PEERS), metavar="PEER",
                        help=f"peers to run (default: all of {', '.join(PEERS)})")
    parser.add_argument("--split", choices=("test", "train", "all"), default="test")
    parser.add_argument("--limit", type=int, default=None, help="at most N pages per corpus")
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory processes")
    parser.add_argument("--document", action=argparse.BooleanOptionalAction, default=True,
                        help="the document section (on by default): newsml's default and the document "
                             "peers once per page for date, author and Markdown, scored against the date, "
                             "author and structure gold of the corpora that have it (wcxb_dev, wcxb_dev2, "
                             "readability; " + ", ".join(LABELED_METADATA) + " with labels)")
    parser.add_argument("--document-only", action="store_true",
                        help="run only the document section, not the text benchmark (with --out, the report "
                             "then holds only that section)")
    parser.add_argument("--document-peers", nargs="*", default=list(DOCUMENT_PEERS),
                        choices=list(DOCUMENT_PEERS), metavar="PEER",
                        help=f"document peers to run (default: all of {', '.join(DOCUMENT_PEERS)})")
    parser.add_argument("--labels", type=Path, default=LABELS,
                        help="folder of <corpus>.json date and author labels (default: labeled/metadata)")
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown report here")
    parser.add_argument("--summary-out", type=Path, default=None,
                        help="write the summary table (newsml's default against the best peer per corpus, "
                             "Markdown) here, for the README")
    parser.add_argument("--json", type=Path, default=None, help="write raw figures as JSON here")
    parser.add_argument("--memory-probe", nargs=2, metavar=("TOOL", "PAGES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    if args.memory_probe:
        memory_probe(args.memory_probe[0], Path(args.memory_probe[1]))
        return 0
    from newsml.input.corpus import load_corpus

    split = None if args.split == "all" else args.split
    if not args.data.is_dir():
        print(f"no corpora at {args.data}", file=sys.stderr)
        return 1
    document = args.document or args.document_only
    folders = [args.data / c for c in args.corpora] if args.corpora else \
        sorted(p for p in args.data.iterdir() if p.is_dir())
    tools: dict[str, Extractor] = {}
    versions: dict[str, str] = {}
    skipped: dict[str, str] = {}
    learned: set[str] = set()
    if not args.document_only:
        methods = args.methods or list(newsml_methods())
        learned = learned_methods()
        names = [f"newsml:{m}" for m in methods] + list(args.peers)
        tools, versions, skipped = make_tools(names)
    document_tools = make_document_tools(args.document_peers) if document else None
    runs: dict[str, CorpusRun] = {}
    document_runs: dict[str, DocumentRun] = {}
    document_notes: list[str] = []
    for folder in folders:
        pages = load_corpus(folder, split=split)[: args.limit]
        if not pages:
            continue
        if not args.document_only:
            print(f"{folder.name}: {len(pages)} pages x {len(tools)} tools", file=sys.stderr, flush=True)
            results = run_corpus(pages, tools)
            if not args.no_memory:
                with tempfile.TemporaryDirectory() as tmp:
                    probe_input = Path(tmp) / "pages.jsonl"
                    write_probe_input(pages, probe_input)
                    for name in tools:
                        results[name].peak_mb = peak_memory_mb(name, probe_input)
            runs[folder.name] = CorpusRun(pages, results)
        if document_tools is not None:
            has_gold, note = document_gold_note(folder, args.labels)
            if note:
                document_notes.append(note)
            if has_gold:
                corpus_tools = document_tools.for_pages(pages)
                print(f"{folder.name}: document, {len(pages)} pages x {len(corpus_tools)} tools",
                      file=sys.stderr, flush=True)
                labels = corpus_labels(folder.name, args.labels)
                document_runs[folder.name] = run_document(pages, corpus_tools, labels)
                if labels is not None and not any(page.id in labels for page in pages):
                    document_notes.append(f"{folder.name}: none of its {args.split} pages has date and "
                                          "author labels (they cover its train pages: --split train)")
    figures = {corpus: {name: tool_figures(result) for name, result in run.results.items()}
               for corpus, run in runs.items()}
    document_figures_ = {corpus: {name: document_figures(run.golds, result, document_tools.fields[name])
                                  for name, result in run.results.items()}
                         for corpus, run in document_runs.items()} if document_tools is not None else {}
    command = "python scripts/benchmark.py " + " ".join(sys.argv[1:])
    date = dt.date.today().isoformat()
    all_versions = {**versions, **(document_tools.versions if document_tools is not None else {})}
    lines = ["# Benchmark", "",
             f"Command: `{command}`  ",
             f"Date: {date}; Python {platform.python_version()}, "
             f"{os.cpu_count()} CPUs; tools: " + ", ".join(f"{n} {v}" for n, v in all_versions.items()), ""]
    if skipped:
        lines += ["Skipped: " + "; ".join(f"{n}: {why}" for n, why in skipped.items()), ""]
    summary: list[str] = []
    legend: list[str] = []
    if not args.document_only:
        summary, legend = text_report(lines, runs, figures, tools, versions, skipped, command, args.split,
                                      learned)
    if document_tools is not None:
        lines += document_section(document_runs, document_figures_, document_tools, document_notes,
                                  args.split)
    if args.scaling and runs:
        lines += ["## Time by page size", "", "Median ms/page (pages) over all corpora above.", ""]
        lines += size_table(runs) + [""]
        first = next(iter(runs))
        page, growth = scaling(runs[first].pages, tools)
        factors = (1, 2, 4, 8)
        lines += ["## Growth", "",
                  f"The median-size page of {first} ({page.id}) with its body blocks repeated 1x, 2x, 4x, "
                  "8x: median ms of 3 runs, and the log-log slope (1 = linear, 2 = quadratic).", "",
                  "| tool | 1x | 2x | 4x | 8x | slope |", "|---|---|---|---|---|---|"]
        for name, times in growth.items():
            lines.append(f"| {name} | " + " | ".join(f"{t:.1f}" for t in times) +
                         f" | {growth_exponent(factors, times):.2f} |")
        lines.append("")
    if not args.document_only:
        lines += caveats()
    report = "\n".join(lines)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        kept = kept_sections(args.out)
        args.out.write_text(report.rstrip("\n") + "\n" + (f"\n{kept}" if kept else ""), encoding="utf-8")
    if args.summary_out and not args.document_only:
        args.summary_out.parent.mkdir(parents=True, exist_ok=True)
        args.summary_out.write_text("\n".join([*summary, "", *legend, ""]), encoding="utf-8")
    if args.json:
        raw = {"command": command, "date": date, "split": args.split, "limit": args.limit,
               "default": DEFAULT_TOOL, "reference": REFERENCE, "versions": versions, "skipped": skipped,
               "settings": {name: PEERS[name].call for name in args.peers} if not args.document_only else {},
               "corpora": {corpus: {"pages": len(run.pages), "lang": run.lang,
                                    "page_ids": [page.id for page in run.pages],
                                    "tools": figures[corpus], "summary": summarize(figures[corpus]),
                                    "lost_articles": lost_articles(figures[corpus])}
                           for corpus, run in runs.items()}}
        if document_tools is not None:
            raw["document"] = document_json(document_runs, document_figures_, document_tools, document_notes)
        args.json.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
