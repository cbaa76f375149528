"""Pages per second over many pages: `newsml predict` in one and two processes, trafilatura's
command line on the same files, and a WARC.gz against FastWARC + Resiliparse.

The pages are the public corpora of ../shared/data (every corpus, interleaved, repeated
when there are fewer than asked for), copied to a temporary folder; the WARC.gz is built
there from the first --warc-pages of them, one gzip member per record as crawls are.
Every run is a separate command, timed from start to exit (start-up included), and the
configurations are interleaved round by round so other load on the cores slows them alike; the
table gives the median over rounds. Prints a markdown section (for docs/benchmark.md).

    OMP_NUM_THREADS=1 python scripts/throughput.py --pages 2000 --warc-pages 600 --out section.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _shared import SHARED_DATA  # scripts/_shared.py, beside this script
from _warc import warc_record  # scripts/_warc.py, beside this script (the tests use it too)

DATA = SHARED_DATA

FLOOR = """
import sys, time
from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding
from resiliparse.parse.html import HTMLTree
pages = chars = 0
with open(sys.argv[1], "rb") as stream:
    for record in ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=True):
        if "html" not in (record.http_content_type or ""):
            continue
        body = record.reader.read()
        tree = HTMLTree.parse(bytes_to_str(body, detect_encoding(body)))
        chars += len(extract_plain_text(tree, main_content=True))
        pages += 1
print(pages, chars)
"""


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_speedup(n: int = 5_000_000) -> float:
    """How much faster two processes finish two pure-Python loops than one process does,
    now: what the machine gives a 2-process run at this moment (2.0 on two idle cores)."""
    import multiprocessing

    started = time.perf_counter()
    _spin(n)
    _spin(n)
    serial = time.perf_counter() - started
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_spin, [n, n])
    return serial / (time.perf_counter() - started)


def corpus_pages(n: int) -> list[Path]:
    """``n`` pages of every corpus, interleaved corpus by corpus, repeated if needed."""
    corpora = [sorted(folder.glob("*.html")) for folder in sorted(DATA.iterdir()) if folder.is_dir()]
    corpora = [pages for pages in corpora if pages]
    if not corpora:
        sys.exit(f"no corpora in {DATA} (set NEWSML_SHARED_DATA)")
    interleaved = [page for group in zip_longest_all(corpora) for page in group]
    return [interleaved[i % len(interleaved)] for i in range(n)]


def zip_longest_all(lists: list[list[Path]]) -> list[list[Path]]:
    longest = max(len(pages) for pages in lists)
    return [[pages[i] for pages in lists if i < len(pages)] for i in range(longest)]


def tree_rss(pid: int) -> int:
    """Resident memory (bytes) of a process and its children, from /proc (0 where there is none)."""
    total = 0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            total += next((int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:")), 0)
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii").split()
    except OSError:
        return total
    return total + sum(tree_rss(int(child)) for child in children)


def timed(command: list[str], env: dict[str, str],
          ) -> tuple[float, float, subprocess.CompletedProcess, list[int]]:
    """Run ``command``; its seconds, its CPU seconds (with every process it waited for), its
    result and its memory sampled every 0.25 s."""
    started = time.perf_counter()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    samples = []
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=err)
        while process.poll() is None:
            samples.append(tree_rss(process.pid))
            time.sleep(0.25)
        seconds = time.perf_counter() - started
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        err.seek(0)
        result = subprocess.CompletedProcess(command, process.returncode, out.read().decode(),
                                             err.read().decode())
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return seconds, cpu, result, [sample for sample in samples if sample]


def flat_memory(samples: list[int]) -> str:
    """Memory of the process tree early in the run and at its end: the median of the second
    tenth of the samples (start-up over) and of the last tenth, in MB."""
    tenth = max(1, len(samples) // 10)
    early = statistics.median(samples[tenth:2 * tenth] or samples)
    late = statistics.median(samples[-tenth:])
    return f"{early / 2**20:.0f} MB early, {late / 2**20:.0f} MB at the end"


def jsonl_counts(path: Path) -> tuple[int, int]:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return len(records), sum("error" in record for record in records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--warc-pages", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=1, help="interleaved repetitions (median reported)")
    parser.add_argument("--memory-pages", type=int, default=0,
                        help="then newsml --jobs 2 over this many pages (the set repeated), for memory")
    parser.add_argument("--out", type=Path, help="write the markdown section here too")
    args = parser.parse_args()
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    newsml = [sys.executable, "-m", "newsml"]
    trafilatura = shutil.which("trafilatura", path=str(Path(sys.executable).parent)) or "trafilatura"
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="throughput-") as tmp:
        root = Path(tmp)
        pages_dir = root / "pages"
        pages_dir.mkdir()
        chosen = corpus_pages(args.pages)
        for i, page in enumerate(chosen):
            shutil.copyfile(page, pages_dir / f"{i:05d}-{page.parent.name}-{page.name}")
        warc = root / "pages.warc.gz"
        with open(warc, "wb") as handle:
            for i, page in enumerate(chosen[:args.warc_pages]):
                handle.write(gzip.compress(warc_record(f"https://corpus.example/{page.parent.name}/{i}",
                                                       page.read_bytes(), "text/html")))
        runs: dict[str, list[float]] = {}
        cpus: dict[str, list[float]] = {}
        notes: dict[str, str] = {}
        configs = {
            "newsml --jobs 1": (newsml + ["predict", str(pages_dir), "-j", "1"], args.pages),
            "newsml --jobs 2": (newsml + ["predict", str(pages_dir), "-j", "2"], args.pages),
            "trafilatura --input-dir --parallel 2": (
                [trafilatura, "--input-dir", str(pages_dir), "--parallel", "2"], args.pages),
            "newsml WARC.gz --jobs 1": (newsml + ["predict", str(warc), "-j", "1"], args.warc_pages),
            "newsml WARC.gz --jobs 2": (newsml + ["predict", str(warc), "-j", "2"], args.warc_pages),
            "FastWARC + Resiliparse (one process)": (
                [sys.executable, "-c", FLOOR, str(warc)], args.warc_pages),
        }
        if not args.warc_pages:     # no WARC.gz to read: the runs on files only
            configs = {name: config for name, config in configs.items() if config[1]}
        speedups = []
        for round_ in range(args.rounds):
            speedups.append(machine_speedup())
            print(f"round {round_ + 1}: two processes of a pure-Python loop: {speedups[-1]:.2f}x one",
                  file=sys.stderr)
            for number, (name, (command, _)) in enumerate(configs.items()):
                out = root / f"out-{round_}-{number}"
                if command[0] == trafilatura:
                    shutil.rmtree(out, ignore_errors=True)
                    full = command + ["-o", str(out)]
                elif "newsml" in command:
                    full = command + ["-o", str(out) + ".jsonl"]
                else:
                    full = command
                seconds, cpu, result, samples = timed(full, env)
                cpus.setdefault(name, []).append(cpu)
                if result.returncode not in (0, 1):  # 1: some pages failed, in the output as errors
                    sys.exit(f"{' '.join(full)} failed ({result.returncode}): {result.stderr[-2000:]}")
                runs.setdefault(name, []).append(seconds)
                if "newsml" in command:
                    total, failed = jsonl_counts(Path(str(out) + ".jsonl"))
                    notes[name] = f"{total} records, {failed} errors; {flat_memory(samples)}"
                elif command[0] == trafilatura:
                    files = sum(1 for path in out.rglob("*") if path.is_file())  # in folders of 1,000
                    notes[name] = f"{files} output files"
                else:
                    done = result.stdout.split()
                    notes[name] = f"{done[0]} pages" if done else result.stderr[-200:]
                print(f"round {round_ + 1}: {name}: {seconds:.1f} s, {cpu:.1f} s CPU ({notes[name]})",
                      file=sys.stderr)
        memory = ""
        if args.memory_pages:
            listing = root / "list.txt"
            listing.write_text("".join(f"{path}\n" for path in sorted(pages_dir.iterdir()))
                               * -(-args.memory_pages // args.pages), encoding="utf-8")
            command = newsml + ["predict", "--from-file", str(listing), "-j", "2",
                                "-o", str(root / "mem.jsonl")]
            seconds, _, result, samples = timed(command, env)
            total, failed = jsonl_counts(root / "mem.jsonl")
            tenths = [statistics.median(samples[k * len(samples) // 10:(k + 1) * len(samples) // 10])
                      for k in range(10)]
            memory = (f"Memory over a longer run: `newsml predict --from-file LIST --jobs 2` over {total} "
                      f"pages (the {args.pages} above, repeated; {failed} errors) in {seconds:.0f} s, "
                      "parent and workers together, median of each tenth of the run: "
                      + ", ".join(f"{value / 2**20:.0f}" for value in tenths) + " MB.")
            print(memory, file=sys.stderr)
        speedups.append(machine_speedup())
    load_after = os.getloadavg()
    rate = {name: configs[name][1] / statistics.median(times) for name, times in runs.items()}
    lines = [
        "## Throughput over many pages",
        "",
        f"`python scripts/throughput.py --pages {args.pages} --warc-pages {args.warc_pages} "
        f"--rounds {args.rounds}` on {dt.date.today().isoformat()}: {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, OMP_NUM_THREADS={env['OMP_NUM_THREADS']}, load average "
        f"{load_before[0]:.1f} before and {load_after[0]:.1f} after (the figures are noisy). "
        "Each run is one command timed from start to exit, start-up and writing included; "
        f"the {args.pages} pages are every corpus of `../shared/data` interleaved, as files in one "
        f"folder; the WARC.gz holds the first {args.warc_pages} of them (one gzip member per record). "
        "Median of the rounds. CPU seconds are those of the command and every process it "
        "waited for (its workers): when other processes compete for the cores, pages/s measures the share "
        "of the cores a run got, pages per CPU second the work it needed. Memory is that of the "
        "process tree (parent and workers), sampled every 0.25 s (resident memory summed, so pages "
        "the workers share with the parent count in each).",
        "",
        "| input | run | pages | seconds | pages/s | CPU seconds | pages per CPU second | outcome |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, times in runs.items():
        kind = "WARC.gz" if "WARC" in name else "files"
        cpu = statistics.median(cpus[name])
        lines.append(f"| {kind} | {name} | {configs[name][1]} | {statistics.median(times):.1f} | "
                     f"{rate[name]:.1f} | {cpu:.1f} | {configs[name][1] / cpu:.1f} | {notes[name]} |")
    lines += [
        "",
        "- What the machine gave two processes: two pure-Python loops in two processes against one "
        f"process, before each round and after the last: {', '.join(f'{x:.2f}x' for x in speedups)} "
        "(2.0 on two idle cores).",
        f"- `--jobs 2` / `--jobs 1` on files: {rate['newsml --jobs 2'] / rate['newsml --jobs 1']:.2f}x"
        + (f"; on the WARC.gz: {rate['newsml WARC.gz --jobs 2'] / rate['newsml WARC.gz --jobs 1']:.2f}x."
           if args.warc_pages else "."),
        f"- newsml `--jobs 2` / trafilatura `--parallel 2`: "
        f"{rate['newsml --jobs 2'] / rate['trafilatura --input-dir --parallel 2']:.2f}x.",
        *([f"- newsml WARC.gz `--jobs 2` / FastWARC + Resiliparse in one process: "
           f"{rate['newsml WARC.gz --jobs 2'] / rate['FastWARC + Resiliparse (one process)']:.2f}x."]
          if args.warc_pages else []),
        "",
    ]
    if memory:
        lines += [memory, ""]
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
