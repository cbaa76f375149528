#!/usr/bin/env python3
"""Train the models shipped in models/ on the train split of the shared corpora.

Usage: python scripts/train_models.py [--data ../shared/data] [--methods fusion nb ... bylines]
                                      [--all-corpora]

The text models train on every corpus but those of ``NOT_IN_SHIPPED_TEXT_MODELS``
(scripts/_shared.py, which says why); ``--all-corpora`` takes them too.

``bylines`` is the byline model (models/bylines.npz, ``scripts/train_bylines.py``), trained
after the methods: its examples are the default's articles.

Only pages whose json says ``"split": "train"`` are used; test pages stay unseen so
that ``newsml evaluate --split test`` measures the shipped models honestly.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import train_bylines  # scripts/train_bylines.py, beside this script
from _shared import LABELS, NOT_IN_SHIPPED_TEXT_MODELS, SHARED_DATA  # scripts/_shared.py

from newsml.core.processes import available_cores
from newsml.core.progress import progress_bar
from newsml.learning.persistence import load_model, save_model
from newsml.learning.training import train_method
from newsml.methods import shipped_names

REPO = Path(__file__).resolve().parent.parent
#: The name of the byline model among --methods.
BYLINES = "bylines"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--methods", nargs="+", default=[*shipped_names(), BYLINES],
                        help=f"methods to train, and {BYLINES} for the byline model (default: every "
                             "shipped model)")
    parser.add_argument("--out", type=Path, default=REPO / "models")
    parser.add_argument("--cv-folds", type=int, default=5)
    parser.add_argument("--all-corpora", action="store_true",
                        help="train the text models on every corpus, also "
                             f"{', '.join(NOT_IN_SHIPPED_TEXT_MODELS)} (not what ships)")
    parser.add_argument("--jobs", type=int, default=available_cores(),
                        help="processes fitting the cross-validation's folds and the model side by side "
                             "(default: the cores)")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error(f"--jobs must be 1 or more, not {args.jobs}")
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out must be a folder: {args.out} is a file")
    args.out.mkdir(parents=True, exist_ok=True)      # (before the training, not after it)
    corpora = sorted(path for path in args.data.iterdir() if path.is_dir()
                     and (args.all_corpora or path.name not in NOT_IN_SHIPPED_TEXT_MODELS))
    if not corpora:
        print(f"no corpora in {args.data}", file=sys.stderr)
        return 1
    for name in [name for name in args.methods if name != BYLINES]:
        start = time.perf_counter()
        with progress_bar() as progress:
            method, metadata = train_method(name, corpora, split="train", cv_folds=args.cv_folds,
                                            progress=progress, jobs=args.jobs)
        path = save_model(method, args.out / f"{name}.joblib", overwrite=True, **metadata)
        info = metadata["training"]
        print(f"{name}: {info['pages']} train pages {info['corpora']}, cv F1 {_figure(metadata['cv_f1'])}, "
              f"{time.perf_counter() - start:.0f} s -> {path}", flush=True)
    if BYLINES in args.methods:    # on the articles of the default just trained, or of the one in --out
        default = args.out / "fusion.joblib"
        scorer = load_model(default)[0] if default.is_file() else None
        return train_bylines.train(args.data, LABELS, args.out / "bylines.npz", scorer)
    return 0


def _figure(value: float | None) -> str:
    return "not measured" if value is None else f"{value:.4f}"


if __name__ == "__main__":
    sys.exit(main())
