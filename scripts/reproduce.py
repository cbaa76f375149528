#!/usr/bin/env python3
"""Reproduce the papers' comparison tables on the shared corpora.

    python scripts/reproduce.py --out docs/reproduction.md

Every method of the papers' tables runs over every page of every corpus in
``../shared/data``; the output follows Table 1 of the CEDST paper: corpora as rows,
methods as columns, with recall, precision, F1 (%) and median ms/page sections, and
the ECON paper's page outcomes, then each paper's claims against this run's figures
(``scripts/paper_claims.py``). Learned methods use the shipped models, which saw the
``train`` pages of these corpora: their "all pages" figures include those pages.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from _shared import SHARED_DATA  # scripts/_shared.py, beside this script
from paper_claims import claims_table

from newsml.input.corpus import load_corpus
from newsml.learning.persistence import get_method
from newsml.methods import DEFAULT_METHOD, ready_names, shipped_names
from newsml.run.evaluate import evaluate_pages

#: Every method of the papers' tables (all registered methods), then newsml's default.
METHODS = (*(name for name in ready_names() if name != DEFAULT_METHOD), "default")
#: Methods whose shipped models were trained on the corpora's train pages.
LEARNED = {*shipped_names(), "default"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--methods", nargs="+", default=list(METHODS))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    corpora = sorted(p for p in args.data.iterdir() if p.is_dir())
    if not corpora:
        print(f"no corpora in {args.data}", file=sys.stderr)
        return 1
    rows: dict[str, dict[str, dict]] = {}
    for folder in corpora:
        pages = load_corpus(folder)
        for name in args.methods:
            print(f"{folder.name}: {name}", file=sys.stderr, flush=True)
            summary = evaluate_pages(pages, get_method(name), folder.name, "all").summary()
            rows.setdefault(folder.name, {})[name] = summary
    lines = [f"Command: `python scripts/reproduce.py {' '.join(sys.argv[1:])}`, "
             f"{dt.date.today().isoformat()}; all pages of each corpus. Columns marked * are "
             "learned: their shipped models were trained on the corpora's `train` pages (but "
             "wcxb_dev2's: models/README.md).", ""]
    header = "| corpus | " + " | ".join(m + ("*" if m in LEARNED else "") for m in args.methods) + " |"
    rule = "|---" * (len(args.methods) + 1) + "|"
    for key, title, fmt in (("recall", "R (%)", "{:.2f}"), ("precision", "P (%)", "{:.2f}"),
                            ("f1", "F1 (%)", "{:.2f}"), ("ms_per_page", "median ms/page", "{:.1f}")):
        lines += [f"**{title}**", "", header, rule]
        means = []
        for corpus, by_method in rows.items():
            values = [by_method[m][key] * (100 if key != "ms_per_page" else 1) for m in args.methods]
            means.append(values)
            lines.append(f"| {corpus} | " + " | ".join(fmt.format(v) for v in values) + " |")
        average = [sum(col) / len(col) for col in zip(*means)]
        lines += ["| **average** | " + " | ".join(fmt.format(v) for v in average) + " |", ""]
    lines += ["**ECON's page outcomes (correct / wrong / missed, % of pages)**", "", header, rule]
    for corpus, by_method in rows.items():
        cells = []
        for m in args.methods:
            r = by_method[m]
            n = max(r["pages"], 1)
            shares = (100 * r[k] / n for k in ("correct", "wrong", "missed"))
            cells.append(" / ".join(f"{share:.0f}" for share in shares))
        lines.append(f"| {corpus} | " + " | ".join(cells) + " |")
    lines += ["", *claims_table(rows)]
    table = "\n".join(lines)
    print(table)
    if args.out:
        text = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        start, end = "<!-- table:start -->", "<!-- table:end -->"
        if start in text and end in text:
            text = text[: text.index(start) + len(start)] + "\n" + table + "\n" + text[text.index(end):]
        else:
            text = f"# Reproduction of the papers' tables\n\n{start}\n{table}\n{end}\n"
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
