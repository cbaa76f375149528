#!/usr/bin/env python3
"""The default scored out of fold on the train pages, against the peers on those pages.

    python scripts/cv_compare.py default='{}' --cache cv-results/
    python scripts/benchmark.py --split train --methods default --no-memory --json train.json \\
        --peers trafilatura trafilatura-precision readability-lxml
    python scripts/cv_against_peers.py cv-results/default.json train.json --into docs/benchmark.md

A corpus's test split is small (cleaneval_en has 36 pages), so its comparison with the
peers moves with a page or two. Its train split is two to three times larger, and each
train page scored by a model fitted on the other folds (5 folds by site) was as unseen
as a test page: the peers run on the same pages. This sets the two side by side per
corpus: newsml's out-of-fold F1 (``cv_compare.py``'s page scores), the best peer's F1 (the
benchmark's page scores), and the mean per-page difference with a 95% paired bootstrap
interval. No choice is made from it: it is a second sample of the same comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from newsml.scoring import paired_bootstrap

HEADING = "## Out of fold on the train pages"


def comparison_rows(out_of_fold: dict[str, float], benchmark: dict) -> list[str]:
    """One Markdown row per corpus of the benchmark: pages scored by both, newsml's F1,
    the best peer and its F1, and the difference with its interval."""
    rows = []
    for corpus, run in sorted(benchmark["corpora"].items()):
        ids = run["page_ids"]
        both = [at for at, page in enumerate(ids) if f"{corpus}/{page}" in out_of_fold]
        if not both:
            continue
        ours = np.array([out_of_fold[f"{corpus}/{ids[at]}"] for at in both])
        peers = {tool: np.asarray(figures["page_f1"])[both] for tool, figures in run["tools"].items()
                 if not tool.startswith("newsml")}
        if not peers:
            continue
        best = max(peers, key=lambda tool: peers[tool].mean())
        mean, low, high = paired_bootstrap(ours.tolist(), peers[best].tolist())
        rows.append(f"| {corpus} | {len(both)} | {ours.mean():.3f} | {best} | {peers[best].mean():.3f} "
                    f"| {mean:+.3f} ({low:+.3f} to {high:+.3f}) |")
    return rows


def section(out_of_fold: dict[str, float], benchmark: dict, command: str) -> str:
    """The report's section, its heading first."""
    peers = sorted({tool for run in benchmark["corpora"].values() for tool in run["tools"]
                    if not tool.startswith("newsml")})
    lines = [HEADING, "",
             f"`{command}` ({benchmark.get('date', 'undated')} benchmark run, split "
             f"{benchmark.get('split', '?')}; peers: {', '.join(peers)}). newsml's figure is each "
             "train page extracted by a model fitted on the other folds (`scripts/cv_compare.py`, "
             "5 folds by site), the peers' the same pages in the benchmark run; the difference is "
             "the mean per-page F1 difference with a 95% paired bootstrap interval.", "",
             "| corpus | train pages | newsml out of fold | best peer | best peer F1 "
             "| newsml - best peer (95% CI) |",
             "|---|---|---|---|---|---|", *comparison_rows(out_of_fold, benchmark), "",
             "The caveats of the test pages hold here too: the best peer is picked on the pages it is "
             "scored on, and on `readability`, whose gold is Readability.js output, readability-lxml "
             "may have been tuned on these very pages.", ""]
    return "\n".join(lines)


def replace_section(text: str, new: str) -> str:
    """``text`` with its section under :data:`HEADING` (to the next ``## `` heading) replaced
    by ``new``, or ``new`` appended when it has none."""
    start = text.find(f"\n{HEADING}\n")
    if start < 0:
        return text.rstrip("\n") + "\n\n" + new
    end = text.find("\n## ", start + 1)
    return text[:start + 1] + new + (text[end:] if end >= 0 else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cv", type=Path, help="a variant's page scores kept by cv_compare.py --cache")
    parser.add_argument("benchmark", type=Path, help="benchmark.py --split train --json output")
    parser.add_argument("--into", type=Path, help="write the section into this Markdown report")
    args = parser.parse_args()
    try:
        out_of_fold = json.loads(args.cv.read_text(encoding="utf-8"))["f1"]
        benchmark = json.loads(args.benchmark.read_text(encoding="utf-8"))
        benchmark["corpora"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        parser.error(f"cannot read the inputs: {exc}")
    command = "python scripts/cv_against_peers.py " + " ".join(
        [str(args.cv), str(args.benchmark), *(["--into", str(args.into)] if args.into else [])])
    new = section(out_of_fold, benchmark, command)
    if args.into is None:
        print(new)
        return 0
    text = args.into.read_text(encoding="utf-8") if args.into.is_file() else ""
    args.into.write_text(replace_section(text, new), encoding="utf-8")
    print(f"wrote {HEADING[3:]!r} into {args.into}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
