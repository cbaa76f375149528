#!/usr/bin/env python3
"""Record a model's predictions on corpus pages, or compare two such records.

Usage:
  python scripts/compare_predictions.py record MODEL.joblib OUT.npz [--data ../shared/data] [--split test]
  python scripts/compare_predictions.py compare OLD.npz NEW.npz [--atol 1e-9]

``record`` stores, for every page of the split of every corpus, the model's node scores
and the extracted title and text. It uses only the public API, so records made by two
versions of newsml (run one from an older checkout with ``PYTHONPATH``) or by two forms
of one model (``scripts/convert_models.py``) can be compared: ``compare`` exits 1 unless
every page has the same nodes, scores within ``atol`` and the same title and text.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from _shared import SHARED_DATA  # scripts/_shared.py, beside this script


def record(model: Path, data: Path, split: str, out: Path) -> int:
    from newsml import load_corpus
    from newsml.article import extract_page
    from newsml.dom.page import load_page
    from newsml.learning.persistence import load_model

    method = load_model(model)[0]
    scores: dict[str, np.ndarray] = {}
    texts: dict[str, list[str]] = {}
    for corpus in sorted(path for path in data.iterdir() if path.is_dir()):
        for labeled in load_corpus(corpus, split=split):
            key = f"{corpus.name}/{labeled.id}"
            page = load_page(labeled.html)
            scores[key] = method.score_nodes(page)
            article = extract_page(page, method)
            texts[key] = [article.title, article.text]
    arrays = {f"scores:{key}": values for key, values in scores.items()}
    np.savez_compressed(out, texts=np.array(json.dumps(texts)), **arrays)
    print(f"{len(texts)} pages recorded -> {out}")
    return 0


def compare(old_path: Path, new_path: Path, atol: float) -> int:
    old, new = np.load(old_path), np.load(new_path)
    old_texts, new_texts = json.loads(str(old["texts"])), json.loads(str(new["texts"]))
    problems = []
    if sorted(old_texts) != sorted(new_texts):
        problems.append(f"different pages: {len(old_texts)} vs {len(new_texts)}")
    worst = 0.0
    for key in sorted(set(old_texts) & set(new_texts)):
        a, b = old[f"scores:{key}"], new[f"scores:{key}"]
        if a.shape != b.shape:
            problems.append(f"{key}: {a.shape[0]} vs {b.shape[0]} nodes")
            continue
        gap = float(np.max(np.abs(a - b))) if a.size else 0.0
        worst = max(worst, gap)
        if gap > atol:
            problems.append(f"{key}: scores differ by {gap:.3g}")
        if old_texts[key] != new_texts[key]:
            problems.append(f"{key}: {'title' if old_texts[key][0] != new_texts[key][0] else 'text'} differs")
    print(f"{len(old_texts)} pages; largest score difference {worst:.3g}; "
          f"{sum(old_texts[k] == new_texts.get(k) for k in old_texts)} identical titles and texts")
    for problem in problems[:50]:
        print(problem)
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record")
    rec.add_argument("model", type=Path)
    rec.add_argument("out", type=Path)
    rec.add_argument("--data", type=Path, default=SHARED_DATA)
    rec.add_argument("--split", default="test")
    cmp = commands.add_parser("compare")
    cmp.add_argument("old", type=Path)
    cmp.add_argument("new", type=Path)
    cmp.add_argument("--atol", type=float, default=1e-9)
    args = parser.parse_args()
    if args.command == "record":
        return record(args.model, args.data, args.split, args.out)
    return compare(args.old, args.new, args.atol)


if __name__ == "__main__":
    sys.exit(main())
