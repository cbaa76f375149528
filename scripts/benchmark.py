#!/usr/bin/env python3
"""Benchmark newsml's methods against installed peers on the shared corpora, in one run.

    python scripts/benchmark.py --split test --out docs/benchmark.md

Every tool sees the same pages, interleaved page by page (the order of tools rotates
from page to page), so drift of the machine hits all tools alike. newsml gets the
page bytes (its time includes decoding); peers get the text newsml decoded, so none
of them loses a page to a wrong encoding guess. A peer that is not installed is
skipped with a note. Peak memory is the peak resident size of a separate process
that runs one tool over the corpus (lxml's C allocations included).

``--split test`` keeps only pages whose json says ``"split": "test"``: the shipped
learned models never saw them. ``--scaling`` adds ms/page by page size and the time
of a real page grown 1x, 2x, 4x and 8x.
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
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import lxml.html

import newsml
from newsml.corpus import LabeledPage, load_corpus
from newsml.encoding import decode_html
from newsml.extract import extract_page
from newsml.methods import DEFAULT_METHOD, methods, shipped_names
from newsml.page import load_page
from newsml.persistence import get_method
from newsml.scoring import Score, macro, score

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data"
#: newsml's default and every other registered method.
NEWSML_METHODS = ("default", *sorted(name for name in methods() if name != DEFAULT_METHOD))
#: Methods whose shipped models were trained on the corpora's train pages.
LEARNED = {"default", *shipped_names()}
PEERS = ("trafilatura", "readability-lxml", "justext", "boilerpy3", "goose3", "newspaper4k", "resiliparse")
SIZE_BUCKETS = ((0, 50), (50, 100), (100, 200), (200, 400), (400, 10**9))  # KB
WARM_UP = (("<html><body><p>A first sentence, to warm up. Another one.</p></body></html>", "en"),
           ("<html><body><p>北京时间昨天晚上，国家统计局发布了数据。</p></body></html>", "zh"))

Extractor = Callable[[bytes, str, str], str]  # (html bytes, decoded text, lang) -> article text


# -- tools ----------------------------------------------------------------------------
def newsml_tool(method: str) -> Extractor:
    scorer = get_method(method)

    def run(data: bytes, _text: str, _lang: str) -> str:
        return extract_page(load_page(data), scorer).text
    return run


def peer_tool(name: str) -> tuple[Extractor | None, str]:
    """The peer's extractor and its version, or None and why it is missing."""
    try:
        if name == "trafilatura":
            import trafilatura

            def run(_data, text, _lang):
                return trafilatura.extract(text) or ""
            return run, trafilatura.__version__
        if name == "readability-lxml":
            from readability import Document

            def run(_data, text, _lang):
                summary = Document(text).summary(html_partial=True)
                return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
            return run, _version("readability-lxml")
        if name == "justext":
            import justext

            english = justext.get_stoplist("English")

            def run(_data, text, lang):
                # jusText has no Chinese stop list: its documented mode for such languages
                # is an empty stop list with the stop-word thresholds at zero
                if lang == "zh":
                    paragraphs = justext.justext(text, frozenset(), stopwords_low=0, stopwords_high=0)
                else:
                    paragraphs = justext.justext(text, english)
                return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)
            return run, _version("justext")
        if name == "boilerpy3":
            from boilerpy3 import extractors

            extractor = extractors.ArticleExtractor(raise_on_failure=False)

            def run(_data, text, _lang):
                return extractor.get_content(text) or ""
            return run, _version("boilerpy3")
        if name == "goose3":
            from goose3 import Goose

            english, chinese = Goose(), Goose({"target_language": "zh", "use_meta_language": False})

            def run(_data, text, lang):
                return (chinese if lang == "zh" else english).extract(raw_html=text).cleaned_text or ""
            return run, _version("goose3")
        if name == "newspaper4k":
            import newspaper

            def run(_data, text, lang):
                article = newspaper.Article("https://example.com/", language="zh" if lang == "zh" else "en")
                article.download(input_html=text)
                article.parse()
                return article.text or ""
            return run, _version("newspaper4k")
        if name == "resiliparse":
            from resiliparse.extract.html2text import extract_plain_text

            def run(_data, text, _lang):
                return extract_plain_text(text, main_content=True) or ""
            return run, _version("resiliparse")
    except ImportError as exc:
        return None, f"not installed ({exc.name})"
    return None, "unknown peer"


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


# -- the timed run ----------------------------------------------------------------------
@dataclass
class ToolResult:
    scores: list[Score] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    sizes_kb: list[float] = field(default_factory=list)
    failures: int = 0
    peak_mb: float | None = None


def run_corpus(pages: list[LabeledPage], tools: dict[str, Extractor]) -> dict[str, ToolResult]:
    """Every tool on every page, interleaved; the tool order rotates page by page."""
    results = {name: ToolResult() for name in tools}
    names = list(tools)
    for k, page in enumerate(pages):
        data = page.html
        text, _ = decode_html(data)
        lang = page.meta.get("lang", "en")
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


def peak_memory_mb(tool: str, corpus: Path, split: str | None) -> float | None:
    """Peak resident size of a fresh process running ``tool`` over ``corpus`` (MB)."""
    command = [sys.executable, __file__, "--memory-probe", tool, str(corpus), "--split", split or "all"]
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=True)
        return float(out.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError):
        return None


def memory_probe(tool: str, corpus: Path, split: str) -> None:
    """Child process of :func:`peak_memory_mb`: run one tool, print peak RSS in MB."""
    run = make_tools([tool])[0][tool]
    for page in load_corpus(corpus, split=None if split == "all" else split):
        text, _ = decode_html(page.html)
        with contextlib.suppress(Exception):
            run(page.html, text, page.meta.get("lang", "en"))
    print(_peak_rss_mb())


def _peak_rss_mb() -> float:
    """This process's peak resident size. Linux keeps ru_maxrss across fork and exec, so a
    child would report its parent's peak; VmHWM belongs to the process's own memory."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_tools(names: list[str]) -> tuple[dict[str, Extractor], dict[str, str], dict[str, str]]:
    """Extractors by tool name, their versions, and notes for the ones skipped."""
    tools, versions, skipped = {}, {}, {}
    for name in names:
        if name.startswith("newsml:"):
            tools[name] = newsml_tool(name.split(":", 1)[1])
            versions[name] = newsml.__version__
        else:
            run, info = peer_tool(name)
            if run is None:
                skipped[name] = info
            else:
                tools[name], versions[name] = run, info
    for run in tools.values():  # one-time loads (jieba's dictionary, stop lists) are not per-page time
        for html, lang in WARM_UP:
            with contextlib.suppress(Exception):
                run(html.encode(), html, lang)
    return tools, versions, skipped


# -- scaling --------------------------------------------------------------------------
def grown_page(page: LabeledPage, factor: int) -> bytes:
    """The page with its body's blocks (article and boilerplate alike) repeated ``factor`` times."""
    text, _ = decode_html(page.html)
    root = lxml.html.document_fromstring(text)
    body = root.find("body")
    inner = "".join(lxml.html.tostring(child, encoding="unicode") for child in body)
    head = lxml.html.tostring(root.find("head"), encoding="unicode") if root.find("head") is not None else ""
    return f"<html>{head}<body>{inner * factor}</body></html>".encode()


def scaling(pages: list[LabeledPage], tools: dict[str, Extractor], factors=(1, 2, 4, 8),
            repeats: int = 3) -> dict[str, list[float]]:
    """Median ms of each tool on each grown version of the median-size page."""
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
                    run(grown[f], texts[f], page.meta.get("lang", "en"))
                runs.append((time.perf_counter() - start) * 1000)
            times.append(statistics.median(runs))
        out[name] = times
    return out


def growth_exponent(factors: tuple[int, ...], times: list[float]) -> float:
    """Slope of log(time) against log(size): 1 is linear, 2 quadratic."""
    xs, ys = [math.log(f) for f in factors], [math.log(max(t, 1e-6)) for t in times]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


# -- report ---------------------------------------------------------------------------
def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def corpus_table(corpus: str, results: dict[str, ToolResult], split: str) -> list[str]:
    reference = statistics.median(results["trafilatura"].ms) if "trafilatura" in results else None
    lines = [f"### {corpus} ({len(next(iter(results.values())).scores)} pages, split: {split})", "",
             "| tool | P | R | F1 | median ms | p95 ms | peak MB | failures | time / trafilatura |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, result in results.items():
        mean = macro(result.scores)
        median = statistics.median(result.ms)
        ratio = f"{median / reference:.2f}" if reference else "-"
        peak = f"{result.peak_mb:.0f}" if result.peak_mb else "-"
        label = name
        if name.startswith("newsml:") and name.split(":", 1)[1] in LEARNED:
            label += " (unseen pages)" if split == "test" else " (includes training pages)"
        lines.append(f"| {label} | {mean.precision:.3f} | {mean.recall:.3f} | {mean.f1:.3f} | {median:.1f} | "
                     f"{p95(result.ms):.1f} | {peak} | {result.failures} | {ratio} |")
    return lines


def size_table(all_results: dict[str, dict[str, ToolResult]]) -> list[str]:
    names = list(next(iter(all_results.values())))
    header = " | ".join(f"{lo}-{hi} KB" if hi < 10**9 else f">{lo} KB" for lo, hi in SIZE_BUCKETS)
    lines = [f"| tool | {header} |", "|---" * (len(SIZE_BUCKETS) + 1) + "|"]
    for name in names:
        cells = []
        for lo, hi in SIZE_BUCKETS:
            times = [ms for results in all_results.values()
                     for ms, kb in zip(results[name].ms, results[name].sizes_kb) if lo <= kb < hi]
            cells.append(f"{statistics.median(times):.1f} ({len(times)})" if times else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--corpora", nargs="+", default=None, help="corpus folder names (default: all)")
    parser.add_argument("--methods", nargs="+", default=list(NEWSML_METHODS))
    parser.add_argument("--peers", nargs="*", default=list(PEERS))
    parser.add_argument("--split", choices=("test", "train", "all"), default="test")
    parser.add_argument("--limit", type=int, default=None, help="at most N pages per corpus")
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory processes")
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown report here")
    parser.add_argument("--json", type=Path, default=None, help="write raw figures as JSON here")
    parser.add_argument("--memory-probe", nargs=2, metavar=("TOOL", "CORPUS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    split = None if args.split == "all" else args.split
    if args.memory_probe:
        memory_probe(args.memory_probe[0], Path(args.memory_probe[1]), args.split)
        return 0
    if not args.data.is_dir():
        print(f"no corpora at {args.data}", file=sys.stderr)
        return 1
    folders = [args.data / c for c in args.corpora] if args.corpora else \
        sorted(p for p in args.data.iterdir() if p.is_dir())
    names = [f"newsml:{m}" for m in args.methods] + list(args.peers)
    tools, versions, skipped = make_tools(names)
    all_results: dict[str, dict[str, ToolResult]] = {}
    for folder in folders:
        pages = load_corpus(folder, split=split)[: args.limit]
        if not pages:
            continue
        print(f"{folder.name}: {len(pages)} pages x {len(tools)} tools", file=sys.stderr, flush=True)
        results = run_corpus(pages, tools)
        if not args.no_memory:
            for name in tools:
                results[name].peak_mb = peak_memory_mb(name, folder, args.split)
        all_results[folder.name] = results
    command = "python scripts/benchmark.py " + " ".join(sys.argv[1:])
    lines = ["# Benchmark", "",
             f"Command: `{command}`  ",
             f"Date: {dt.date.today().isoformat()}; Python {platform.python_version()}, "
             f"{os.cpu_count()} CPUs; tools: " + ", ".join(f"{n} {v}" for n, v in versions.items()), ""]
    if skipped:
        lines += ["Skipped: " + "; ".join(f"{n}: {why}" for n, why in skipped.items()), ""]
    lines += ["Macro precision/recall/F1 over pages (token overlap, CJK characters as tokens); "
              "times are per page in one process, tools interleaved page by page, each tool warmed up "
              "once first (one-time loads such as jieba's dictionary are not per-page time); peak MB is "
              "the peak resident size of a separate process running the tool over the corpus.", ""]
    for corpus, results in all_results.items():
        lines += corpus_table(corpus, results, args.split) + [""]
    if args.scaling and all_results:
        lines += ["## Time by page size", "", "Median ms/page (pages) over all corpora above.", ""]
        lines += size_table(all_results) + [""]
        first = folders[0]
        growth = scaling(load_corpus(first, split=split)[: args.limit], tools)
        factors = (1, 2, 4, 8)
        lines += ["## Growth", "",
                  f"The median-size page of {first.name} with its body blocks repeated 1x, 2x, 4x, 8x: "
                  "median ms of 3 runs, and the log-log slope (1 = linear, 2 = quadratic).", "",
                  "| tool | 1x | 2x | 4x | 8x | slope |", "|---|---|---|---|---|---|"]
        for name, times in growth.items():
            lines.append(f"| {name} | " + " | ".join(f"{t:.1f}" for t in times) +
                         f" | {growth_exponent(factors, times):.2f} |")
        lines.append("")
    report = "\n".join(lines)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report, encoding="utf-8")
    if args.json:
        figures = {corpus: {name: {**macro(r.scores)._asdict(), "median_ms": statistics.median(r.ms),
                                   "failures": r.failures, "peak_mb": r.peak_mb}
                            for name, r in results.items()}
                   for corpus, results in all_results.items()}
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
