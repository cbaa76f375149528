#!/usr/bin/env python3
"""Hostile input: the outcome of each case of the reliability issue, for newsml and its peers.

    python scripts/hostile.py --out docs/reliability.md
    python scripts/hostile.py --scaling --quick --tools newsml --check     # as CI runs it

Every case runs in a subprocess of its own under a CPU-time and an address-space limit
(``resource.setrlimit``), so a blow-up is recorded as an outcome, not fatal. Page cases
run newsml (default method), trafilatura and readability-lxml on the same input;
command-line, training and model-file cases are newsml's alone. An outcome is ``ok``
when the tool kept the text it should (or refused the page with a clear error where a
guard is the answer), ``LOST`` when text went missing or wrong, ``CRASH`` for an
unexpected exception, ``TIMEOUT``/``MEMORY`` past the limits. Time is wall-clock
seconds of the extraction (after a warm-up page: imports and models loaded); memory the
peak resident size of the subprocess while it extracts (on Linux, the peak is reset once
the page is built), and for pages of 1 MB or more that peak's growth over the size before
the extraction, per byte of the page.

The last table measures the audit's pathological shapes (deep unclosed tags, a million flat
``<p>``, distinct classes, attributes, nesting, one long paragraph; and a list of many items
and a quote of many paragraphs, for newsml's document) at three sizes each: time and
memory against the page's size, and the power they grow by (newsml's extraction with the
article's Markdown and HTML). ``--check`` fails when
newsml's grows faster than the page's size to the power 1.5 (a quadratic cost reads 2), or
when it loses a text there; CI runs it at the small sizes of ``--quick``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from _memory import reset_peak, status_mb  # scripts/_memory.py, beside this script
from _warc import raw_response, write_warc  # scripts/_warc.py, beside this script

REPO = Path(__file__).resolve().parent.parent
TOOLS = ("newsml", "trafilatura", "readability-lxml")
CPU_SECONDS = 60
MEMORY_BYTES = 6 * 1024**3
ARTICLE = ("<p>The council approved the budget on Tuesday after a long debate about roads, schools "
           "and the new library.</p><p>Members voted seven to two, and the mayor said the plan would "
           "hold taxes flat for a second year.</p>")
NEEDLE = "The council approved the budget on Tuesday"
FOOTER = "<footer><p>Copyright 2024 Town Times.</p><a href='/about'>About</a></footer>"
STORY = f"<html><head><title>Budget</title></head><body><div>{ARTICLE}</div>{FOOTER}</body></html>"


def _flat(n: int) -> bytes:
    return ("<html><body>" + "<p>x</p>" * n + "</body></html>").encode()


def _long_run(what: str, container: str, unit: str, text: str) -> tuple[
        str, Callable[[int], str], tuple[int, ...], tuple[int, ...], Callable[[str], bool]]:
    """A shape of :data:`SHAPES`: the article, then one ``container`` of n ``unit`` elements
    of ``text``. The long run, which outweighs the short article, is what must be kept."""
    element = f"<{unit}>{text}, with a few words.</{unit}>"
    return (what, lambda n: f"<html><body><h1>Budget</h1>{ARTICLE}<{container}>{element * n}</{container}>"
                            "</body></html>",
            (50_000, 100_000, 200_000), (20_000, 40_000, 80_000), lambda t: t.count(text) >= 1000)


def _gzip_bomb(size: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [packer.compress(b"<html><body><p>")]
    chunk = bytes(1 << 20)
    parts += [packer.compress(chunk) for _ in range(size >> 20)]
    return b"".join(parts) + packer.flush()


def _paragraphs(megabytes: int) -> bytes:
    """A headline and article paragraphs of two sentences each (200 characters), up to ``megabytes``."""
    sentence = f"{NEEDLE} after a long debate about roads, schools and the harbour. "
    paragraph = f"<p>{sentence}{sentence}</p>\n"
    body = paragraph * (megabytes * 10**6 // len(paragraph))
    return f"<html><head><title>Budget</title></head><body><h1>Budget</h1>{body}</body></html>".encode()


def _real(megabytes: int) -> bytes:
    """Bodies of the labeled pages, one after another, up to ``megabytes``."""
    from newsml.input.decode import decode_html

    bodies = []
    for path in sorted((REPO / "labeled").glob("*.html")):
        text, _ = decode_html(path.read_bytes())
        start, end = text.find("<body"), text.rfind("</body>")
        if start >= 0 and end > start:
            bodies.append(text[text.index(">", start) + 1:end])
    one = "".join(bodies)
    return ("<html><body>" + one * (megabytes * 2**20 // len(one) + 1) + "</body></html>").encode()


def _no_controls(text: str) -> bool:
    return not any(ord(ch) < 32 and ch not in "\n\t" or ch == "\x7f" for ch in text)


#: name -> (what, page maker, check of the extracted text). A check returning True is ok.
PAGE_CASES: dict[str, tuple[str, Callable[[], bytes | str], Callable[[str], bool]]] = {
    "c0-beside-hidden": ("vertical tab beside a hidden element",
                         lambda: b"<p>x<span hidden>y</span>\x0btail</p>",
                         lambda t: "tail" in t and _no_controls(t)),
    "bel-in-text": ("BEL control character in a sentence",
                    lambda: "<p>The mayor said\x07 the plan would hold taxes flat for a second year.</p>",
                    lambda t: "hold taxes flat" in t and _no_controls(t)),
    "charref-control": ("&#11; character reference in noscript",
                        lambda: f"<html><body>{ARTICLE}<noscript>&#11;</noscript></body></html>",
                        lambda t: NEEDLE in t and _no_controls(t)),
    "shift-jis": ("Shift-JIS without a declaration",
                  lambda: "<html><body><p>カタカナとひらがなの文章です。</p></body></html>".encode("cp932"),
                  lambda t: "カタカナとひらがな" in t),
    "utf16-no-bom": ("UTF-16-LE without a byte-order mark", lambda: STORY.encode("utf-16-le"),
                     lambda t: NEEDLE in t),
    "mathml": ("MathML inside a sentence",
               lambda: ("<html><body><p>The ratio <math><mi>x</mi><mo>=</mo><mn>42</mn></math> was cited "
                        "in the annual report of the council, which met on Tuesday.</p></body></html>"),
               lambda t: "x=42" in t.replace(" ", "")),
    "noscript-article": ("article only inside <noscript>",
                         lambda: f"<html><body><div id=app></div><noscript>{ARTICLE}</noscript>{FOOTER}"
                                 "</body></html>",
                         lambda t: NEEDLE in t),
    "template-article": ("article only inside <template>",
                         lambda: f"<html><body><template>{ARTICLE}</template>{FOOTER}</body></html>",
                         lambda t: NEEDLE in t),
    "srcdoc-article": ("article only inside <iframe srcdoc>",
                       lambda: "<html><body><iframe srcdoc=\"" + ARTICLE.replace('"', "&quot;")
                               + f"\"></iframe>{FOOTER}</body></html>",
                       lambda t: NEEDLE in t),
    "cp1252-undeclared": ("German in Windows-1252 without a declaration",
                          lambda: ("<html><body><p>Der Bürgermeister von Zürich sagte, die Straßen würden "
                                   "über den Winter geräumt.</p></body></html>").encode("cp1252"),
                          lambda t: "Bürgermeister von Zürich" in t and "Straßen würden über" in t),
    "cp1250-undeclared": ("Polish in Windows-1250 without a declaration",
                          lambda: ("<html><body><p>Prezydent spotkał się w środę z ministrem spraw "
                                   "zagranicznych.</p></body></html>").encode("cp1250"),
                          lambda t: "spotkał się w środę" in t),
    "big5-long-head": ("Big5 without a declaration, after 11 KB of inline script",
                       lambda: ("<html><head><script>" + "var x = 1;\n" * 1000 + "</script></head><body>"
                                + "<p>氣象局發布海上颱風警報，全臺各縣市明日停止上班上課。</p>" * 2
                                + "</body></html>").encode("big5"),
                       lambda t: "氣象局發布海上颱風警報" in t),
    "gbk-latin1-label": ("GBK declared as iso-8859-1 (a server's default label)",
                         lambda: ("<html><head><meta charset='iso-8859-1'></head><body><p>市政府昨天宣布了"
                                  "新的预算计划，专家表示经济运行平稳。</p></body></html>").encode("gbk"),
                         lambda t: "新的预算计划" in t),
    "iso-2022-jp": ("Japanese in declared ISO-2022-JP (7-bit, escape sequences)",
                    lambda: ("<html><head><meta charset='iso-2022-jp'></head><body><p>東京都は火曜日、"
                             "新しい予算を承認した。</p></body></html>").encode("iso-2022-jp"),
                    lambda t: "新しい予算を承認した" in t),
    "hz-gb-2312": ("Chinese in HZ-GB-2312 without a declaration (7-bit, ~{ ~} shifts)",
                   lambda: ("<html><body><p>市政府昨天宣布了新的预算计划，专家表示经济运行平稳。</p>"
                            "</body></html>").encode("hz"),
                   lambda t: "新的预算计划" in t),
    "srcdoc-deep": ("article in <iframe srcdoc>, 2,100 elements deep",
                    lambda: ("<html><body><h1>Budget</h1><iframe srcdoc='" + "<div>" * 2100
                             + ARTICLE.replace("'", "&#39;") + "'></iframe></body></html>"),
                    lambda t: NEEDLE in t),
    "deep-unclosed-tags": ("5,000 open <div>, the article, 40,000 '<a x' never closed (187 KB)",
                           lambda: ("<html><body><h1>Budget</h1>" + "<div>" * 5000 + ARTICLE
                                    + "<a x" * 40_000),
                           lambda t: NEEDLE in t),
    "gzip-bomb": ("1 GB of gzip (1 MB compressed)", lambda: _gzip_bomb(2**30), lambda t: True),
    "100k-attributes": ("one element with 100,000 distinct attributes",
                        lambda: ("<html><body><p " + " ".join(f"a{i}=x" for i in range(100_000))
                                 + f">{NEEDLE}, the report said.</p></body></html>"),
                        lambda t: NEEDLE in t),
    "1M-flat-p": ("1,000,000 flat <p> elements (8 MB)", lambda: _flat(1_000_000), lambda t: "x" in t),
    "50MB-one-p": ("50 MB of text in one <p>",
                   lambda: "<html><body><p>" + "word " * 10_000_000 + "</p></body></html>",
                   lambda t: len(t) >= 49_000_000),
    "10MB-paragraphs": ("10 MB of article paragraphs (a headline, 48,000 <p> of 200 characters)",
                        lambda: _paragraphs(10), lambda t: len(t) > 9_000_000),
    "10MB-real": ("10 MB of real markup (labeled pages' bodies, repeated)", lambda: _real(10),
                  lambda t: len(t) > 1000),
}
#: Cases where a clear refusal (newsml.InvalidPageError) is the right outcome for newsml.
GUARDED = {"gzip-bomb": "MAX_PAGE_BYTES", "1M-flat-p": "MAX_TAGS"}


#: The audit's pathological shapes, for the table of time and memory against the page's size:
#: name -> (what, the page for a size n, the sizes, the sizes of --quick, check of the text).
#: Each shape is one every real page is far from; the sizes go up to the audit's pages.
SHAPES: dict[str, tuple[str, Callable[[int], str], tuple[int, ...], tuple[int, ...],
                        Callable[[str], bool]]] = {
    "deep-unclosed-tags": ("5,000 open <div>, the article, then n '<a x' never closed",
                           lambda n: "<html><body><h1>Budget</h1>" + "<div>" * 5000 + ARTICLE + "<a x" * n,
                           (40_000, 80_000, 160_000), (40_000, 80_000, 160_000), lambda t: NEEDLE in t),
    "flat-p": ("n flat <p>x, none closed", lambda n: "<html><body>" + "<p>x" * n + "</body></html>",
               (250_000, 500_000, 999_000), (25_000, 50_000, 100_000), lambda t: "x" in t),
    "distinct-classes": ("n <div> of a class each",
                         lambda n: "<html><body>" + "".join(f'<div class="c{i}">x</div>' for i in range(n))
                                   + ARTICLE + "</body></html>",
                         (100_000, 200_000, 400_000), (10_000, 20_000, 40_000), lambda t: NEEDLE in t),
    "many-attributes": ("one <p> with n distinct attributes",
                        lambda n: "<html><body><p " + " ".join(f"a{i}=x" for i in range(n))
                                  + f">{NEEDLE}, the report said.</p></body></html>",
                        (25_000, 50_000, 100_000), (25_000, 50_000, 100_000), lambda t: NEEDLE in t),
    "deep-nesting": ("the article inside n nested <div>",
                     lambda n: "<html><body><h1>Budget</h1>" + "<div>" * n + ARTICLE + "</div>" * n
                               + "</body></html>",
                     (25_000, 50_000, 100_000), (25_000, 50_000, 100_000), lambda t: NEEDLE in t),
    "one-long-p": ("n words in one <p>", lambda n: "<html><body><p>" + "word " * n + "</p></body></html>",
                   (2_500_000, 5_000_000, 10_000_000), (250_000, 500_000, 1_000_000),
                   lambda t: t.count("word") >= 1000),
    # (newsml's document too: its Markdown joins a list's items and a quote's blocks)
    "long-list": _long_run("the article, then one list of n items", "ul", "li", "One item of the long list"),
    "long-quote": _long_run("the article, then one quote of n paragraphs", "blockquote", "p",
                            "One paragraph of the long quote"),
}
#: How many times a measurement is taken while its runs take under SCALE_SECONDS in all (the
#: least time counts: a busy machine only adds to it; the largest pages run once, within the
#: CPU limit).
SCALE_REPEATS, SCALE_SECONDS = 3, 10
#: Below these, a time or a memory growth reads as this much: it is noise, not a cost.
TIME_FLOOR, MEMORY_FLOOR = 0.05, 10.0
#: --check: newsml's time and memory must grow at most as the page's size to this power
#: (a linear cost reads about 1, a quadratic one 2).
MAX_GROWTH_POWER = 1.5


def run_scale_case(shape: str, size: str, tool: str) -> dict[str, object]:
    """In the child: one shape at one size with ``tool``: the least wall time of
    :data:`SCALE_REPEATS` extractions and the peak memory's growth over that before them."""
    _, make, _, _, check = SHAPES[shape]
    _extract(tool, "<html><body><p>A first page, to warm up: imports and models.</p></body></html>",
             document=True)
    page = make(int(size)).encode()
    before = reset_peak()
    times: list[float] = []
    text = ""
    while len(times) < SCALE_REPEATS and sum(times) < SCALE_SECONDS:
        start = time.perf_counter()
        text = _extract(tool, page, document=True)
        times.append(time.perf_counter() - start)
    peak = status_mb("VmHWM")
    result: dict[str, object] = {"outcome": "ok" if check(text or "") else "LOST", "seconds": min(times),
                                 "page_mb": len(page) / 2**20}
    if before is not None and peak is not None:
        result["growth_mb"] = peak - before
    return result


def run_page_case(case: str, tool: str) -> dict[str, object]:
    """In the child: build the page, extract with ``tool``, judge the text."""
    what, make, check = PAGE_CASES[case]
    _extract(tool, "<html><body><p>A first page, to warm up: imports and models.</p></body></html>")
    page = make()
    before = reset_peak()
    start = time.perf_counter()
    try:
        text = _extract(tool, page)
    except Exception as exc:
        seconds = time.perf_counter() - start
        import newsml

        if isinstance(exc, newsml.InvalidPageError) and case in GUARDED:
            return {"outcome": "ok", "note": f"refused: {str(exc)[:70]}", "seconds": seconds}
        if isinstance(exc, MemoryError):
            return {"outcome": "MEMORY", "note": "MemoryError", "seconds": seconds}
        return {"outcome": "CRASH", "note": f"{type(exc).__name__}: {str(exc)[:70]}", "seconds": seconds}
    seconds = time.perf_counter() - start
    ok = check(text or "")
    note = "" if ok else f"got {(text or '')[:50]!r}"
    result: dict[str, object] = {"outcome": "ok" if ok else "LOST", "note": note, "seconds": seconds}
    peak = status_mb("VmHWM")
    if before is not None and peak is not None and len(page) >= 2**20:
        result["growth"] = (peak - before) * 2**20 / len(page)
    return result


def _extract(tool: str, page: bytes | str, document: bool = False) -> str:
    """The text ``tool`` extracts from ``page``; with ``document``, newsml also makes the
    article's Markdown and HTML (the peers' text calls have no such part)."""
    if tool == "newsml":
        import newsml

        article = newsml.extract(page)
        if document:
            article.markdown, article.html     # noqa: B018  (made for their time and memory)
        return article.text
    if tool == "trafilatura":
        import trafilatura

        return trafilatura.extract(page, include_comments=False) or ""
    if tool == "readability-lxml":
        import lxml.html
        from readability import Document

        summary = Document(page).summary()
        return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
    raise ValueError(tool)


# -- newsml's command line, training and model files ---------------------------------------------

def _newsml(*args: str, stdout=subprocess.PIPE, cwd: Path | None = None,
            timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "newsml", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, cwd=cwd, timeout=timeout)


def _one_line_error(result: subprocess.CompletedProcess, code: int, fragment: str) -> tuple[bool, str]:
    lines = result.stderr.strip().splitlines()
    ok = (result.returncode == code and len(lines) == 1 and fragment in lines[0]
          and "Traceback" not in result.stderr)
    return ok, lines[0] if lines else f"exit {result.returncode}, no message"


def cli_dev_full(tmp: Path) -> tuple[bool, str]:
    return _one_line_error(_newsml("predict", str(tmp / "in1.html"), "-o", "/dev/full"), 1, "No space left")


def cli_stdout_dev_full(tmp: Path) -> tuple[bool, str]:
    with open("/dev/full", "w") as full:
        return _one_line_error(_newsml("predict", str(tmp / "in1.html"), stdout=full), 1, "No space left")


def cli_missing_dir(tmp: Path) -> tuple[bool, str]:
    result = _newsml("predict", str(tmp / "in1.html"), "-o", str(tmp / "missing/dir/out.jsonl"))
    return _one_line_error(result, 2, "not a writable folder")


def cli_dir_as_output(tmp: Path) -> tuple[bool, str]:
    return _one_line_error(_newsml("predict", str(tmp / "in1.html"), "-o", str(tmp)), 2, "is a directory")


def cli_hard_link(tmp: Path) -> tuple[bool, str]:
    os.link(tmp / "in1.html", tmp / "in2.html")
    before = (tmp / "in1.html").read_bytes()
    ok, note = _one_line_error(_newsml("predict", str(tmp / "in2.html"), "-o", str(tmp / "in1.html")), 2,
                               "one of the input pages")
    return ok and (tmp / "in1.html").read_bytes() == before, note


def cli_all_fail(tmp: Path) -> tuple[bool, str]:
    out = tmp / "out.jsonl"
    out.write_text("earlier results\n", encoding="utf-8")
    result = _newsml("predict", str(tmp / "missing.html"), "-o", str(out), "--force")
    kept = out.read_text(encoding="utf-8") == "earlier results\n"
    return result.returncode == 1 and kept, "existing output kept" if kept else "existing output truncated"


def cli_str_path(tmp: Path) -> tuple[bool, str]:
    (tmp / "a<b>.html").write_text(STORY, encoding="utf-8")
    code = "import newsml; print(newsml.extract('a<b>.html').text)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp)
    return NEEDLE in result.stdout, result.stdout.strip() or result.stderr.strip().splitlines()[-1]


def cli_str_dir(tmp: Path) -> tuple[bool, str]:
    code = (f"import newsml\ntry:\n    newsml.extract({str(tmp)!r})\n"
            "except newsml.InvalidPageError as e:\n    print(e)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return "is a folder" in result.stdout, result.stdout.strip()


def _corpus(tmp: Path, golds: dict[str, str | bytes]) -> Path:
    folder = tmp / "corpus"
    folder.mkdir()
    for i in range(8):
        (folder / f"p{i}.html").write_text(
            f"<html><body><ul><li><a>Home</a></li><li><a>News</a></li></ul><div><p>Story number {i}, "
            "with a sentence.</p><p>Another line, here.</p></div></body></html>", encoding="utf-8")
        gold = golds.get(f"p{i}", f"Story number {i}, with a sentence.\nAnother line, here.\n")
        (folder / f"p{i}.txt").write_bytes(gold if isinstance(gold, bytes) else gold.encode())
    return folder


def train_non_utf8_gold(tmp: Path) -> tuple[bool, str]:
    corpus = _corpus(tmp, {"p2": "Story number 2, caf\u00e9.".encode("latin-1")})
    return _one_line_error(_newsml("train", str(corpus), "-o", str(tmp / "m.joblib"), "--split", "all",
                                   "--method", "nb"), 1, "not UTF-8")


def train_bad_golds(tmp: Path) -> tuple[bool, str]:
    corpus = _corpus(tmp, {"p3": "", "p5": "Election results from a far town, counted overnight by hand."})
    result = _newsml("train", str(corpus), "-o", str(tmp / "m.joblib"), "--split", "all", "--method", "nb",
                     "--cv-folds", "2")
    warned = [line for line in result.stderr.splitlines() if line.startswith("newsml: warning:")]
    ok = result.returncode == 0 and all(any(f"{page} skipped" in w for w in warned) for page in ("p3", "p5"))
    return ok, "; ".join(w.removeprefix("newsml: warning: training page ")[:45] for w in warned)


def model_payload(tmp: Path) -> tuple[bool, str]:
    marker = tmp / "ran"
    code = ("import joblib, os\nclass P:\n    def __reduce__(self):\n"
            f"        return (os.system, ('touch {marker}',))\n"
            f"joblib.dump({{'format': 'newsml-model', 'estimator': P()}}, {str(tmp / 'evil.joblib')!r})")
    subprocess.run([sys.executable, "-c", code], check=True)
    ok, note = _one_line_error(_newsml("predict", str(tmp / "in1.html"), "--model", str(tmp / "evil.joblib")),
                               2, "refusing to load")
    return ok and not marker.exists(), note if not marker.exists() else "the payload ran"


def cli_fifo_in_folder(tmp: Path) -> tuple[bool, str]:
    folder = tmp / "d"
    folder.mkdir()
    (folder / "a.html").write_text(STORY, encoding="utf-8")
    os.mkfifo(folder / "b.html")
    return _beside_a_pipe(tmp, [str(folder)], 1, "named pipe")


def cli_fifo_named(tmp: Path) -> tuple[bool, str]:
    (tmp / "a.html").write_text(STORY, encoding="utf-8")
    os.mkfifo(tmp / "b.html")
    return _beside_a_pipe(tmp, [str(tmp / "b.html"), str(tmp / "a.html")], 0, "no bytes came")


def _beside_a_pipe(tmp: Path, inputs: list[str], pipe_at: int, fragment: str) -> tuple[bool, str]:
    """``newsml predict`` of a page and a named pipe nobody writes to (record ``pipe_at``),
    --timeout 2: ok when it ends, the page has its text and the pipe an error saying ``fragment``."""
    out = tmp / "o.jsonl"
    try:
        result = _newsml("predict", *inputs, "-o", str(out), "--timeout", "2", timeout=60)
    except subprocess.TimeoutExpired:
        return False, "the run hangs (killed after 60 s)"
    got = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    if len(got) != 2:
        return False, f"exit {result.returncode}"
    pipe, page = got[pipe_at], got[1 - pipe_at]
    ok = result.returncode == 1 and NEEDLE in page.get("text", "") and fragment in pipe.get("error", "")
    return ok, pipe.get("error", f"exit {result.returncode}")


def _pages(tmp: Path, count: int) -> Path:
    folder = tmp / "pages"
    folder.mkdir()
    for i in range(count):
        (folder / f"p{i:05}.html").write_text(STORY, encoding="utf-8")
    return folder


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux: read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def cli_orphans(tmp: Path, signum: int) -> tuple[bool, str]:
    """Signal ``predict -j 2`` while its workers extract; are they gone 10 s later?"""
    run = subprocess.Popen([sys.executable, "-m", "newsml", "predict", str(_pages(tmp, 3000)), "-o",
                            str(tmp / "out.jsonl"), "-j", "2"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        if not _until(lambda: len(_children(run.pid)) == 2, 120):
            return False, "no workers started"
        workers = _children(run.pid)
        time.sleep(1)
        run.send_signal(signum)
        run.wait(60)
        gone = _until(lambda: not any(map(_alive, workers)), 10)
        return gone, "workers ended with the run" if gone else "workers outlived the run"
    finally:
        run.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, 9)
        run.wait()


def cli_stopped_run(tmp: Path, signum: int) -> tuple[bool, str]:
    """Signal a run once it has written 20 records; then --resume: is every page there, once,
    and no file left beside the output?"""
    pages, out = _pages(tmp, 1000), tmp / "out.jsonl"
    run = subprocess.Popen([sys.executable, "-m", "newsml", "predict", str(pages), "-o", str(out), "-j", "2"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def written() -> int:
        return sum(path.read_bytes().count(b"\n") for path in tmp.glob("*out.jsonl*") if path.is_file())

    try:
        if not _until(lambda: written() >= 20, 120):
            return False, "no records written"
        run.send_signal(signum)
        _, stderr = run.communicate(timeout=60)
    finally:
        run.kill()
        run.wait()
    message = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {run.returncode}, no message"
    if signum == 15 and (run.returncode != 143 or not out.exists()):
        return False, message
    again = _newsml("predict", str(pages), "-o", str(out), "--resume")
    paths = [json.loads(line)["path"] for line in out.read_text(encoding="utf-8").splitlines()] \
        if out.exists() else []
    left = sorted(path.name for path in tmp.iterdir() if path.name not in ("out.jsonl", "pages", "in1.html"))
    ok = again.returncode == 0 and sorted(paths) == sorted(map(str, pages.iterdir())) and not left
    return ok, (message if signum == 15 else "--resume: every page once") if ok else \
        f"{len(paths)} records for 1000 pages, left: {left}"


def cli_warc_undecodable(tmp: Path) -> tuple[bool, str]:
    """A WARC file: a page, a bad chunked body, gzip named on a plain body, a 2 GB gzip bomb
    body, a page. Are both pages extracted, and each bad record an error record?"""
    story = STORY.encode()
    bomb = zlib.compressobj(1, zlib.DEFLATED, 31)
    packed = b"".join(bomb.compress(b"\0" * 2**26) for _ in range(32)) + bomb.flush()
    path = write_warc(tmp / "crawl.warc.gz", [
        raw_response("https://example.com/0", b"", story),
        raw_response("https://example.com/chunks", b"Transfer-Encoding: chunked\r\n",
                     b"zz\r\nno\r\n0\r\n\r\n"),
        raw_response("https://example.com/plain", b"Content-Encoding: gzip\r\n", story),
        raw_response("https://example.com/bomb", b"Content-Encoding: gzip\r\n", packed),
        raw_response("https://example.com/1", b"", story)])
    result = _newsml("predict", str(path), "-f", "jsonl")
    got = [json.loads(line) for line in result.stdout.splitlines()]
    ok = (len(got) == 5 and all(NEEDLE in got[i].get("text", "") for i in (0, 4))
          and all("error" in got[i] for i in (1, 2, 3)))
    return ok, f"{len(got)} records: " + ", ".join("error" if "error" in r else "article" for r in got)


def cli_two_runs(tmp: Path) -> tuple[bool, str]:
    """Two --resume runs on one output at once: is the second refused, each page once?"""
    pages, out = _pages(tmp, 1000), tmp / "out.jsonl"
    out.write_bytes(b"")
    command = [sys.executable, "-m", "newsml", "predict", str(pages), "-o", str(out), "-j", "1", "--resume"]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not _until(lambda: out.read_bytes().count(b"\n") >= 5, 120):
            return False, "no records written"
        second = _newsml("predict", str(pages), "-o", str(out), "--resume")
        first.wait(600)
    finally:
        first.kill()
        first.wait()
    paths = [json.loads(line)["path"] for line in out.read_text(encoding="utf-8").splitlines()]
    ok, note = _one_line_error(second, 2, "another newsml run is writing")
    return ok and sorted(paths) == sorted(map(str, pages.iterdir())), note


def _model_refused(tmp: Path, path: Path, fragment: str) -> tuple[bool, str]:
    """``--model path`` is one clear error, and loading it leaves a process able to extract."""
    ok, note = _one_line_error(_newsml("predict", str(tmp / "in1.html"), "--model", str(path)), 2, fragment)
    code = (f"import newsml\ntry:\n    newsml.load_model({str(path)!r})\n"
            "except newsml.ModelError:\n    pass\n"
            f"print(newsml.extract(open({str(tmp / 'in1.html')!r}, 'rb').read()).text)")
    after = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if NEEDLE not in after.stdout:
        return False, f"the process changed: {(after.stderr.strip().splitlines() or ['no text'])[-1]}"
    return ok, note


def model_object_dtype(tmp: Path) -> tuple[bool, str]:
    path = tmp / "evil.joblib"
    code = ("import pickle, numpy as np\nclass R:\n"
            "    def __init__(s, f, a, st=None): s.f, s.a, s.st = f, a, st\n"
            "    def __reduce__(s): return (s.f, s.a) if s.st is None else (s.f, s.a, s.st)\n"
            "fake = R(np.dtype, ('O', False, True), (3, '|', None, None, None, -1, -1, 0))\n"
            "pickle.dump({'format': 'newsml-model', "
            "'format_version': R(np.ndarray, ((1,), fake, b'B' * 8))}, "
            f"open({str(path)!r}, 'wb'), protocol=4)")
    subprocess.run([sys.executable, "-c", code], check=True)
    return _model_refused(tmp, path, "refusing to load")


def model_build_on_a_class(tmp: Path) -> tuple[bool, str]:
    path = tmp / "evil.joblib"
    path.write_bytes(b"\x80\x02cjoblib.numpy_pickle\nNumpyArrayWrapper\nN}X\x04\x00\x00\x00read"
                     b"cnumpy\nndarray\ns\x86b0cposix\nsystem\nX\x04\x00\x00\x00true\x85R.")
    return _model_refused(tmp, path, "refusing to load")


def model_zlib_bomb(tmp: Path) -> tuple[bool, str]:
    import zlib

    path = tmp / "bomb.joblib"
    size = 1 << 30                   # 1 GB of zeros in bytes of a pickle, about 1 MB compressed
    head = (b"\x80\x04}(\x8c\x06format\x8c\x0cnewsml-model\x8c\x07padding\x8e"
            + size.to_bytes(8, "little"))
    packer, chunk = zlib.compressobj(9), bytes(16 << 20)
    with open(path, "wb") as out:
        out.write(packer.compress(head))
        for _ in range(size // len(chunk)):
            out.write(packer.compress(chunk))
        out.write(packer.compress(b"u.") + packer.flush())
    return _model_refused(tmp, path, "decompresses to more than")


def model_tree_cycle(tmp: Path) -> tuple[bool, str]:
    path = tmp / "cycle.joblib"
    code = ("import newsml\nfrom newsml.learning.persistence import shipped_model_path\n"
            "method, meta = newsml.load_model(shipped_model_path('fusion'))\n"
            "t = method.booster_\nt.left = t.left.copy()\nt.left[t.roots[0]] = t.roots[0]\n"
            f"newsml.save_model(method, {str(path)!r})")
    subprocess.run([sys.executable, "-c", code], check=True)
    return _model_refused(tmp, path, "the trees are not trees")


CLI_CASES: dict[str, tuple[str, Callable[[Path], tuple[bool, str]]]] = {
    "predict -o /dev/full": ("full device as -o", cli_dev_full),
    "predict > /dev/full": ("full device as standard output", cli_stdout_dev_full),
    "predict -o missing/dir/out": ("-o in a missing folder", cli_missing_dir),
    "predict -o DIR": ("a folder as -o", cli_dir_as_output),
    "predict in2 -o in1 (hard link)": ("-o a hard link of an input", cli_hard_link),
    "predict, every page fails": ("existing -o when every page fails", cli_all_fail),
    "predict -j 2, KILL": ("workers of a killed run", lambda tmp: cli_orphans(tmp, 9)),
    "predict -j 2, TERM": ("workers of a terminated run", lambda tmp: cli_orphans(tmp, 15)),
    "predict, TERM then --resume": ("a run terminated, then resumed", lambda tmp: cli_stopped_run(tmp, 15)),
    "predict, KILL then --resume": ("a run killed, then resumed", lambda tmp: cli_stopped_run(tmp, 9)),
    "predict, undecodable WARC records": ("bad chunks, gzip on a plain body, a 2 GB gzip bomb body; "
                                          "a page before and after", cli_warc_undecodable),
    "predict --resume, twice at once": ("two runs on one output", cli_two_runs),
    "predict DIR holding a FIFO": ("a named pipe among a folder's pages, --timeout 2", cli_fifo_in_folder),
    "predict FIFO page.html": ("a named pipe nobody writes to, named as an input, --timeout 2",
                               cli_fifo_named),
    "extract('a<b>.html')": ("str path with '<' in the name", cli_str_path),
    "extract(str of a folder)": ("str path to a folder", cli_str_dir),
    "train, non-UTF-8 gold": ("gold .txt in Latin-1", train_non_utf8_gold),
    "train, empty and foreign gold": ("pages named in warnings", train_bad_golds),
    "--model with a code payload": ("pickle calling os.system", model_payload),
    "--model, object type": ("143 bytes: a numpy type claiming an object type holds no objects",
                             model_object_dtype),
    "--model, BUILD on a class": ("a refused file setting an attribute of an allowed class",
                                  model_build_on_a_class),
    "--model, zlib bomb": ("1 GB of zeros in a 1 MB zlib pickle", model_zlib_bomb),
    "--model, tree with a cycle": ("the default with left[root] = root in one tree", model_tree_cycle),
}


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def run_in_child(args: list[str]) -> dict[str, object]:
    """Run this script on one case in a limited subprocess; turn its death into an outcome.

    The peak memory is the subprocess's own (``os.wait4``), whatever became of it.
    """
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([sys.executable, __file__, *args], stdout=out, stderr=err,
                                   preexec_fn=_limits)
        _, status, usage = os.wait4(process.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        process.returncode = code
        out.seek(0)
        err.seek(0)
        lines, errors = out.read().strip().splitlines(), err.read()
    if code == 0 and lines:
        result = json.loads(lines[-1])
    elif code in (-9, -24):  # SIGKILL, SIGXCPU: the CPU limit
        result = {"outcome": "TIMEOUT", "note": f"over {CPU_SECONDS} s of CPU"}
    elif "MemoryError" in errors or "Cannot allocate" in errors or "bad_alloc" in errors:
        result = {"outcome": "MEMORY", "note": f"over {MEMORY_BYTES // 1024**3} GB of address space"}
    else:
        last = (errors.strip().splitlines() or [f"exit {code}"])[-1]
        result = {"outcome": "CRASH", "note": last[:80]}
    result["memory"] = f"{usage.ru_maxrss // 1024} MB"
    return result


def child_main(kind: str, case: str, *rest: str) -> None:
    import logging
    import warnings

    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    if kind == "page":
        print(json.dumps(run_page_case(case, *rest)))
        return
    if kind == "scale":
        print(json.dumps(run_scale_case(case, *rest)))
        return
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        (tmp / "in1.html").write_text(STORY, encoding="utf-8")
        start = time.perf_counter()
        ok, note = CLI_CASES[case][1](tmp)
        # the table shows where a message points, not this run's temporary folder
        note = note.replace(os.path.realpath(folder), "TMP").replace(folder, "TMP")[:90]
        print(json.dumps({"outcome": "ok" if ok else "FAIL", "note": note,
                          "seconds": time.perf_counter() - start}))


def scaling_section(tools: list[str], quick: bool) -> tuple[list[str], list[str]]:
    """The lines of the table of time and memory against the page's size, each shape at its
    sizes with each tool, and what newsml failed of :data:`MAX_GROWTH_POWER` and of keeping
    the text (the failures, empty when none)."""
    lines = ["## Pathological pages: time and memory against the page's size", "",
             "Each shape at three sizes" + (" (the small sizes of `--quick`)" if quick else "")
             + ": wall seconds of the extraction (newsml's with the article's Markdown and HTML; "
             f"the least of up to {SCALE_REPEATS} runs, repeated while they take under {SCALE_SECONDS} s "
             "in all) · growth of the peak resident memory over the memory before it, in MB. "
             "The power is how the cost grows with the page: "
             "the slope of the least-squares line through (log page size, log cost) over the three sizes, "
             f"with costs under {TIME_FLOOR} s or {MEMORY_FLOOR:g} MB read as that much; a linear cost "
             f"reads about 1, a quadratic one 2.", "",
             "| shape | n | page | " + " | ".join(tools) + " |", "|---|---|---|" + "---|" * len(tools)]
    results: dict[tuple[str, str], list[dict[str, object]]] = {}
    for shape, (_, _, sizes, quick_sizes, _) in SHAPES.items():
        for size in quick_sizes if quick else sizes:
            cells, page_mb = [], None
            for tool in tools:
                result = run_in_child(["--child", "scale", shape, str(size), tool])
                results.setdefault((shape, tool), []).append(result)
                page_mb = result.get("page_mb", page_mb)
                cells.append(_scale_cell(result))
                print(f"{shape} {size:,} {tool}: {cells[-1]}", file=sys.stderr, flush=True)
            page = f"{page_mb:.2f} MB" if isinstance(page_mb, float) else "?"
            lines.append(f"| {shape} | {size:,} | {page} | " + " | ".join(cells) + " |")
    lines += ["", "| shape | what | " + " | ".join(f"{tool}: power of time, of memory" for tool in tools)
              + " |", "|---|---|" + "---|" * len(tools)]
    failures = []
    for shape, (what, *_) in SHAPES.items():
        cells = []
        for tool in tools:
            powers = _powers(results[(shape, tool)])
            cells.append(", ".join("—" if power is None else f"{power:.2f}".replace("-0.00", "0.00")
                                   for power in powers))
            if tool == "newsml" and powers[0] is not None and powers[1] is None:
                print(f"hostile.py: {shape}: newsml's memory not measured (no /proc/self/clear_refs)",
                      file=sys.stderr)
            if tool == "newsml":
                failures += [f"{shape}: newsml's {cost} grows as the page's size to the power {power:.2f}"
                             for cost, power in zip(("time", "memory"), powers)
                             if power is not None and power > MAX_GROWTH_POWER]
                failures += [f"{shape}: newsml {result['outcome']}" for result in results[(shape, tool)]
                             if result["outcome"] != "ok"]
        lines.append(f"| {shape} | {_markdown(what)} | " + " | ".join(cells) + " |")
    return lines, failures


def _scale_cell(result: dict[str, object]) -> str:
    if result["outcome"] not in ("ok", "LOST"):
        return f"{result['outcome']} · {result.get('memory', '')}"
    cell = f"{result['seconds']:.2f} s · {result.get('growth_mb', float('nan')):.0f} MB"
    return cell if result["outcome"] == "ok" else f"LOST · {cell}"


def _powers(results: list[dict[str, object]]) -> tuple[float | None, float | None]:
    """How the time and the memory grew with the page over its sizes: the slope of the
    least-squares line through (log page size, log cost), so that one noisy size moves it
    less than a ratio of two would (None: a size that did not finish, or no memory figure)."""
    import numpy as np

    def figures(key: str) -> list[float] | None:
        if any(key not in result for result in results):
            return None
        return [float(result[key]) for result in results]  # type: ignore[arg-type]

    pages, seconds, growth = figures("page_mb"), figures("seconds"), figures("growth_mb")
    if pages is None or seconds is None:
        return None, None

    def slope(costs: list[float], floor: float) -> float:
        return float(np.polyfit(np.log(pages), np.log(np.maximum(costs, floor)), 1)[0])

    return slope(seconds, TIME_FLOOR), None if growth is None else slope(growth, MEMORY_FLOOR)


def _cell(result: dict[str, object]) -> str:
    parts = [str(result["outcome"])]
    if "seconds" in result:
        parts.append(f"{result['seconds']:.2f} s")
    if result.get("memory") not in (None, "n/a"):
        parts.append(str(result["memory"]))
    if "growth" in result:
        parts.append(f"{result['growth']:.1f}x the page")
    note = _markdown(str(result.get("note") or ""))
    return " · ".join(parts) + (f"<br>{note}" if note else "")


def _markdown(text: str) -> str:
    """Text for a table cell: markup shown as text, no column breaks."""
    return html.escape(text, quote=False).replace("|", "/").replace("\n", " ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the Markdown report here (else print it)")
    parser.add_argument("--cases", nargs="*", help="only these cases (names as in the tables)")
    parser.add_argument("--tools", nargs="*", default=list(TOOLS), choices=TOOLS)
    parser.add_argument("--scaling", action="store_true",
                        help="only the table of time and memory against the page's size")
    parser.add_argument("--quick", action="store_true", help="that table at small sizes (as CI runs it)")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 when newsml loses a text of the size table or its time or memory grows "
                             f"faster than the page's size to the power {MAX_GROWTH_POWER}")
    args = parser.parse_args()
    if args.scaling:
        lines, failures = scaling_section(args.tools, args.quick)
        _report("\n".join(lines) + "\n", args.out)
        for failure in failures:
            print(f"hostile.py: {failure}", file=sys.stderr)
        sys.exit(1 if args.check and failures else 0)
    chosen = set(args.cases or [*PAGE_CASES, *CLI_CASES])
    versions = _versions()
    lines = ["# Reliability on hostile input", "",
             f"Made by `python scripts/hostile.py --out docs/reliability.md` on {dt.date.today()}, "
             f"Python {platform.python_version()}, {platform.machine()}; "
             + ", ".join(f"{name} {version}" for name, version in versions.items()) + ".", "",
             f"Each cell: outcome · wall seconds of the extraction (after a warm-up page) · peak resident "
             f"memory of its process while it extracts (the page built beforehand) · for pages of 1 MB "
             f"or more, that peak's growth over the memory before the extraction, per byte of the page "
             f"(limits: {CPU_SECONDS} s of CPU, {MEMORY_BYTES // 1024**3} GB of address space). "
             "`ok`: the text kept, or for newsml's guarded cases a clear `InvalidPageError` "
             "(for the gzip bomb and the flat page, any answer within the limits is `ok`); "
             "`LOST`: text missing or wrong; `CRASH`: an unexpected exception; `TIMEOUT`, "
             "`MEMORY`: past the limits.", "",
             "## Pages", "", "| case | input | " + " | ".join(args.tools) + " |",
             "|---|---|" + "---|" * len(args.tools)]
    for case, (what, _, _) in PAGE_CASES.items():
        if case not in chosen:
            continue
        cells = []
        for tool in args.tools:
            cells.append(_cell(run_in_child(["--child", "page", case, tool])))
            print(f"{case} {tool}: {cells[-1]}", file=sys.stderr, flush=True)
        lines.append(f"| {case} | {_markdown(what)} | " + " | ".join(cells) + " |")
    lines += ["", "## newsml's command line, training and model files", "", "| case | what | newsml |",
              "|---|---|---|"]
    for case, (what, _) in CLI_CASES.items():
        if case not in chosen:
            continue
        cell = _cell(run_in_child(["--child", "cli", case, "newsml"]))
        print(f"{case}: {cell}", file=sys.stderr, flush=True)
        lines.append(f"| {_markdown(case)} | {_markdown(what)} | {cell} |")
    lines += ["", "Model files are data, and loading one runs nothing in it "
              "([the record](decisions/2026-12-03-model-files-as-data.md)); each model-file case also "
              "checks that a process which loaded the file (refused) still extracts."]
    failures: list[str] = []
    if not args.cases:
        scaling, failures = scaling_section([tool for tool in args.tools if tool != "readability-lxml"],
                                            args.quick)
        lines += ["", *scaling]
    _report("\n".join(lines) + "\n", args.out)
    for failure in failures:
        print(f"hostile.py: {failure}", file=sys.stderr)
    sys.exit(1 if args.check and failures else 0)


def _report(report: str, out: Path | None) -> None:
    if out:
        out.write_text(report, encoding="utf-8")
    else:
        print(report)


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("newsml", "trafilatura", "readability-lxml", "lxml"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "--child":
        child_main(*sys.argv[2:])
    else:
        main()
