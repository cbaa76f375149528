#!/usr/bin/env python3
"""A method scored out of fold on the train pages, against the peers on those pages.

    python scripts/cv_compare.py default='{}' --cache cv-results/
    python scripts/benchmark.py --split train --methods default --no-memory --json train.json
    python scripts/cv_against_peers.py cv-results/default.json train.json --into docs/benchmark.md

A corpus's test split is small (cleaneval_en has 36 pages), so its comparison with the
peers moves with a page or two. Its train split is 1.6 to 2.4 times larger, and each
train page scored by a model fitted on the other folds (grouped by site) was as unseen
as a test page: the peers run on the same pages. This sets the two side by side per
corpus: newsml's out-of-fold F1 (``cv_compare.py``'s page scores of one variant), the
best peer's F1 (the benchmark's page scores), and the mean per-page difference with a
95% paired bootstrap interval. No choice is made from it: it is a second sample of the
same comparison.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

from newsml.measure.scoring import paired_bootstrap

HEADING = "## Out of fold on the train pages"


class InputError(ValueError):
    """An input file that is not what this script reads."""


def comparison_rows(out_of_fold: dict[str, float], benchmark: dict[str, Any]) -> list[str]:
    """One Markdown row per corpus of the benchmark: pages scored both ways, newsml's F1,
    the best peer and its F1, and the difference with its interval."""
    rows = []
    for corpus, run in sorted(benchmark["corpora"].items()):
        ids = run["page_ids"]
        both = [at for at, page in enumerate(ids) if f"{corpus}/{page}" in out_of_fold]
        if not both:
            continue
        ours = np.array([out_of_fold[f"{corpus}/{ids[at]}"] for at in both])
        peers = {tool: np.asarray(figures["page_f1"], dtype=float)[both]
                 for tool, figures in run["tools"].items() if not tool.startswith("newsml")}
        if not peers:
            continue
        best = max(peers, key=lambda tool: peers[tool].mean())
        mean, low, high = paired_bootstrap(ours.tolist(), peers[best].tolist())
        rows.append(f"| {corpus} | {len(both)} | {ours.mean():.3f} | {best} | {peers[best].mean():.3f} "
                    f"| {mean:+.3f} ({low:+.3f} to {high:+.3f}) |")
    return rows


def unpaired(out_of_fold: dict[str, float], benchmark: dict[str, Any]) -> dict[str, int]:
    """Per corpus, the benchmark's pages without an out-of-fold score (pages training skips)."""
    missing = {corpus: sum(f"{corpus}/{page}" not in out_of_fold for page in run["page_ids"])
               for corpus, run in benchmark["corpora"].items()}
    return {corpus: count for corpus, count in sorted(missing.items()) if count}


def section(cv: dict[str, Any], benchmark: dict[str, Any], rows: list[str], skipped: dict[str, int],
            command: str) -> str:
    """The report's section, its heading first: the table's ``rows`` (:func:`comparison_rows`)
    and the pages ``skipped`` (:func:`unpaired`) of the cv cache ``cv`` and the ``benchmark``."""
    runs = benchmark["corpora"]
    peers = sorted({tool for run in runs.values() for tool in run["tools"] if not tool.startswith("newsml")})
    params = cv.get("params") or {}
    variant = f"`{cv.get('method', 'fusion')}` with {json.dumps(params)}" if params else \
        f"`{cv.get('method', 'fusion')}` at its defaults"
    lines = [HEADING, "",
             f"`{command}` ({benchmark.get('date', 'undated')} benchmark run, split "
             f"{benchmark.get('split', '?')}; peers: {', '.join(peers)}). newsml's figure is {variant}, "
             f"each train page extracted by a model fitted on the other folds (`scripts/cv_compare.py`, "
             f"{cv.get('folds', '?')} folds by site), the peers' the same pages in the benchmark run; "
             "the difference is the mean per-page F1 difference with a 95% paired bootstrap interval.", "",
             "| corpus | train pages | newsml out of fold | best peer | best peer F1 "
             "| newsml - best peer (95% CI) |",
             "|---|---|---|---|---|---|", *rows, ""]
    if skipped:
        lines += ["Pages of the benchmark that training skipped (no out-of-fold score), left out: "
                  + ", ".join(f"{corpus} {count}" for corpus, count in skipped.items()) + ".", ""]
    lines.append("The caveats of the test pages hold here too: the best peer is picked on the pages it "
                 "is scored on" + (", and on `readability`, whose gold is Readability.js output, "
                                   "readability-lxml may have been tuned on these very pages."
                                   if "readability" in runs else "."))
    return "\n".join([*lines, ""])


def replace_section(text: str, new: str) -> str:
    """``text`` with its section under :data:`HEADING` (to the next ``## `` heading) replaced
    by ``new``, or ``new`` appended when it has none."""
    found = re.search(rf"(?m)^{re.escape(HEADING)}[ \t]*\r?$", text)
    if found is None:
        return (text.rstrip("\r\n") + "\n\n" if text.strip() else "") + new
    after = re.search(r"(?m)^## ", text[found.end():])
    return text[:found.start()] + new + ("\n" + text[found.end() + after.start():] if after else "")


def read_inputs(cv_path: Path, benchmark_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The cv cache and the benchmark's figures, checked; InputError says what is wrong."""
    try:
        cv = json.loads(cv_path.read_text(encoding="utf-8"))
        benchmark = json.loads(benchmark_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the inputs: {exc}") from None
    if not isinstance(cv, dict) or not isinstance(cv.get("f1"), dict):
        raise InputError(f"{cv_path}: not a page-score file of cv_compare.py --cache (no 'f1' by page)")
    if not isinstance(benchmark, dict) or not isinstance(benchmark.get("corpora"), dict):
        raise InputError(f"{benchmark_path}: not a benchmark.py --json file (no 'corpora')")
    if benchmark.get("split") not in ("train", "all"):
        raise InputError(f"{benchmark_path}: a run of split {benchmark.get('split')!r}; out-of-fold scores "
                         "are of train pages: run benchmark.py --split train")
    for corpus, run in benchmark["corpora"].items():
        if not isinstance(run, dict) or not isinstance(run.get("page_ids"), list) \
                or not isinstance(run.get("tools"), dict):
            raise InputError(f"{benchmark_path}: corpus {corpus!r} has no page_ids and tools")
        for tool, figures in run["tools"].items():
            scores = figures.get("page_f1") if isinstance(figures, dict) else None
            if not isinstance(scores, list) or len(scores) != len(run["page_ids"]) \
                    or not all(isinstance(value, (int, float)) for value in scores):
                raise InputError(f"{benchmark_path}: {corpus} {tool}: page_f1 is not one number per page")
    return cv, benchmark


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cv", type=Path, help="a variant's page scores kept by cv_compare.py --cache")
    parser.add_argument("benchmark", type=Path, help="benchmark.py --split train --json output")
    parser.add_argument("--into", type=Path, help="write the section into this Markdown report")
    args = parser.parse_args()
    try:
        cv, benchmark = read_inputs(args.cv, args.benchmark)
    except InputError as exc:
        parser.error(str(exc))
    rows, skipped = comparison_rows(cv["f1"], benchmark), unpaired(cv["f1"], benchmark)
    if not rows:
        parser.error("no page of the benchmark has an out-of-fold score: were both run on the same data?")
    for corpus, count in skipped.items():
        print(f"{corpus}: {count} pages without an out-of-fold score, left out", file=sys.stderr)
    command = "python scripts/cv_against_peers.py " + " ".join(
        [str(args.cv), str(args.benchmark), *(["--into", str(args.into)] if args.into else [])])
    new = section(cv, benchmark, rows, skipped, command)
    if args.into is None:
        print(new, end="")
        return 0
    text = args.into.read_text(encoding="utf-8") if args.into.is_file() else ""
    args.into.write_text(replace_section(text, new), encoding="utf-8")
    print(f"wrote {HEADING[3:]!r} into {args.into}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
