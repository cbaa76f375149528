#!/usr/bin/env python3
"""Benchmark newsml's methods against peers at their documented article settings, in one run.

    python scripts/benchmark.py --scaling --out docs/benchmark.md --summary-out summary.md --json bench.json

Every tool sees the same pages, interleaved page by page (the order of tools rotates
from page to page), so drift of the machine hits all tools alike. newsml gets the
page bytes (its time includes decoding); peers get the text newsml decoded, so none
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from _memory import status_mb  # scripts/_memory.py, beside this script
from _shared import SHARED_DATA  # scripts/_shared.py, beside this script

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


def _newspaper4k() -> Extractor:
    import newspaper
    from newspaper.languages import get_available_languages

    known = set(get_available_languages())

    def run(_data, text, lang):
        article = newspaper.article(NEWSPAPER_URL, language=lang if lang in known else None,
                                    input_html=text, fetch_images=False)
        return article.text or ""
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
        return extract(data, method=scorer).text    # as a user calls it
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


def run_corpus(pages: list[LabeledPage], tools: dict[str, Extractor]) -> dict[str, ToolResult]:
    """Every tool on every page, interleaved; the tool order rotates page by page."""
    from newsml.input.decode import decode_html
    from newsml.measure.scoring import score

    warm_up(tools, sorted({page_lang(page) for page in pages}))
    results = {name: ToolResult() for name in tools}
    names = list(tools)
    for k, page in enumerate(pages):
        data = page.html
        text, _ = decode_html(data)
        lang = page_lang(page)
        for name in names[k % len(names):] + names[:k % len(names)]:
            start = time.perf_counter()
            try:
                extracted = tools[name](data, text, lang)
            except Exception:  # a peer's failure on one page is a data point, not a crash
                extracted = ""
                results[name].failures += 1
            results[name].ms.append((time.perf_counter() - start) * 1000)
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
             "given the page's URL. Extracted text is scored as it is returned.", "",
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
    folders = [args.data / c for c in args.corpora] if args.corpora else \
        sorted(p for p in args.data.iterdir() if p.is_dir())
    methods = args.methods or list(newsml_methods())
    learned = learned_methods()
    names = [f"newsml:{m}" for m in methods] + list(args.peers)
    tools, versions, skipped = make_tools(names)
    runs: dict[str, CorpusRun] = {}
    for folder in folders:
        pages = load_corpus(folder, split=split)[: args.limit]
        if not pages:
            continue
        print(f"{folder.name}: {len(pages)} pages x {len(tools)} tools", file=sys.stderr, flush=True)
        results = run_corpus(pages, tools)
        if not args.no_memory:
            with tempfile.TemporaryDirectory() as tmp:
                probe_input = Path(tmp) / "pages.jsonl"
                write_probe_input(pages, probe_input)
                for name in tools:
                    results[name].peak_mb = peak_memory_mb(name, probe_input)
        runs[folder.name] = CorpusRun(pages, results)
    figures = {corpus: {name: tool_figures(result) for name, result in run.results.items()}
               for corpus, run in runs.items()}
    command = "python scripts/benchmark.py " + " ".join(sys.argv[1:])
    date = dt.date.today().isoformat()
    lines = ["# Benchmark", "",
             f"Command: `{command}`  ",
             f"Date: {date}; Python {platform.python_version()}, "
             f"{os.cpu_count()} CPUs; tools: " + ", ".join(f"{n} {v}" for n, v in versions.items()), ""]
    if skipped:
        lines += ["Skipped: " + "; ".join(f"{n}: {why}" for n, why in skipped.items()), ""]
    lines += ["Macro precision/recall/F1 over pages (token overlap, CJK characters as tokens); "
              "times are per page in one process, tools interleaved page by page, each tool warmed up "
              "first on a small page in each language of the corpus (one-time loads such as jieba's "
              "dictionary are not per-page time); peak MB is "
              "the peak resident size of a separate process running only that tool over the same pages "
              f"(it imports nothing else). Ratios are to {REFERENCE} (`include_comments=False`) in the same "
              "run.", ""]
    summary = summary_table(runs, figures, args.split)
    legend = summary_legend(command, sum(not name.startswith("newsml:") for name in tools))
    lines += ["## Summary: newsml's default against the best peer per corpus", "", *summary, "", *legend, ""]
    lines += peer_settings_section(versions, skipped)
    lines += ["## Per corpus", ""]
    for corpus, run in runs.items():
        lines += corpus_table(corpus, run, figures[corpus], args.split, learned) + [""]
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
    lines += caveats()
    report = "\n".join(lines)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        kept = kept_sections(args.out)
        args.out.write_text(report.rstrip("\n") + "\n" + (f"\n{kept}" if kept else ""), encoding="utf-8")
    if args.summary_out:
        args.summary_out.parent.mkdir(parents=True, exist_ok=True)
        args.summary_out.write_text("\n".join([*summary, "", *legend, ""]), encoding="utf-8")
    if args.json:
        raw = {"command": command, "date": date, "split": args.split, "limit": args.limit,
               "default": DEFAULT_TOOL, "reference": REFERENCE, "versions": versions, "skipped": skipped,
               "settings": {name: PEERS[name].call for name in args.peers},
               "corpora": {corpus: {"pages": len(run.pages), "lang": run.lang,
                                    "page_ids": [page.id for page in run.pages],
                                    "tools": figures[corpus], "summary": summarize(figures[corpus])}
                           for corpus, run in runs.items()}}
        args.json.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
