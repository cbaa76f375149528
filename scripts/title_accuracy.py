#!/usr/bin/env python3
"""Title extraction accuracy against the ``title`` field of each corpus's json.

    python scripts/title_accuracy.py [--data ../shared/data] [--corpora NAME ...]

The shared corpora's ``title`` is usually the page's raw ``<title>``, site name
included, while newsml returns the headline without it; so besides the exact match the
script reports the match against the reference with its site name stripped the same
way, and token F1 (the scoring of docs/design.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from _shared import SHARED_DATA  # scripts/_shared.py, beside this script

from newsml.core.text import normalize_space
from newsml.dom.page import load_page
from newsml.dom.title import strip_site_name
from newsml.input.corpus import load_corpus
from newsml.measure.scoring import score

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--corpora", nargs="*", default=None)
    parser.add_argument("--labeled", type=Path, default=REPO / "labeled")
    args = parser.parse_args()
    folders = [args.labeled] + ([args.data / c for c in args.corpora] if args.corpora
                                else sorted(p for p in args.data.iterdir() if p.is_dir()))
    print("| corpus | pages with a title | exact | exact vs site-stripped reference | token F1 |")
    print("|---|---|---|---|---|")
    for folder in folders:
        pages = [p for p in load_corpus(folder) if p.meta.get("title")]
        if not pages:
            continue
        exact = stripped = f1 = 0.0
        for page in pages:
            title, reference = load_page(page.html).title, normalize_space(page.meta["title"])
            exact += title == reference
            stripped += title == strip_site_name(reference)
            f1 += score(title, reference).f1
        n = len(pages)
        print(f"| {folder.name} | {n} | {exact / n:.3f} | {stripped / n:.3f} | {f1 / n:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
