"""Pages per second of the Spark job in local mode against `newsml predict --jobs N` on the
same files, and what Spark costs on top.

The pages are those of scripts/throughput.py (every corpus of ../shared/data interleaved),
copied to a temporary folder. Three commands, each timed from start to exit and
interleaved round by round (a busy machine slows them alike); the table gives the median
over rounds:

- ``newsml predict DIR --jobs N -o out.jsonl``;
- ``python -m newsml.spark DIR -o out -f jsonl --master local[N]`` (JVM start included);
- the same extraction in a Spark session already running (:func:`newsml.spark.extract_paths`
  counted), which is what a long job on a cluster sees per page.

    OMP_NUM_THREADS=1 python scripts/spark_throughput.py --pages 2000 --out section.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import corpus_pages  # noqa: E402


def copy_pages(pages: list[Path], folder: Path) -> None:
    for i, page in enumerate(pages):
        shutil.copyfile(page, folder / f"{i:06d}-{page.parent.name}-{page.name}")


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def in_session(folder: Path, jobs: int, rounds: int) -> list[float]:
    """Seconds of extract_paths over ``folder`` in a warm local[jobs] session, per round."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from newsml.input.sources import expand_inputs
    from newsml.spark import extract_paths

    spark = (SparkSession.builder.master(f"local[{jobs}]").config("spark.ui.enabled", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    paths = list(expand_inputs([str(folder)]))
    extract_paths(spark, paths[: 4 * jobs]).count()  # start the Python workers, load the model
    seconds = []
    for _ in range(rounds):
        start = time.perf_counter()
        extract_paths(spark, paths).count()
        seconds.append(time.perf_counter() - start)
    spark.stop()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write the markdown section here too")
    args = parser.parse_args()
    newsml = str(Path(sys.executable).with_name("newsml"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "pages"
        folder.mkdir()
        copy_pages(corpus_pages(args.pages), folder)
        runs: dict[str, list[float]] = {"predict": [], "job": []}
        for round_ in range(args.rounds):
            out = Path(tmp) / f"out{round_}"
            runs["predict"].append(timed([newsml, "predict", str(folder), "--jobs", str(args.jobs),
                                          "-o", f"{out}.jsonl"]))
            runs["job"].append(timed([sys.executable, "-m", "newsml.spark", str(folder), "-o", str(out),
                                      "-f", "jsonl", "--master", f"local[{args.jobs}]"]))
        runs["session"] = in_session(folder, args.jobs, args.rounds)
    median = {name: statistics.median(seconds) for name, seconds in runs.items()}
    rate = {name: args.pages / seconds for name, seconds in median.items()}
    lines = [
        f"### Apache Spark in local mode ({args.pages} pages, {args.jobs} cores)",
        "",
        f"Measured {dt.date.today()} on {platform.machine()} with Python {platform.python_version()}, "
        f"`scripts/spark_throughput.py --pages {args.pages} --jobs {args.jobs}`; median of "
        f"{args.rounds} interleaved rounds.",
        "",
        "| run | seconds | pages/s | vs `predict --jobs` |",
        "|---|---:|---:|---:|",
    ]
    labels = {"predict": f"`newsml predict DIR --jobs {args.jobs}`",
              "job": f"`python -m newsml.spark DIR --master local[{args.jobs}]` (JVM start included)",
              "session": f"`extract_paths` in a running local[{args.jobs}] session"}
    for name in ("predict", "job", "session"):
        lines.append(f"| {labels[name]} | {median[name]:.1f} | {rate[name]:.0f} | "
                     f"{rate[name] / rate['predict']:.2f}x |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
