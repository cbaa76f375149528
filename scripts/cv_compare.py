#!/usr/bin/env python3
"""Compare settings of a learned method page by page, out of fold on the train splits.

    python scripts/cv_compare.py default='{}' \
        no-nb='{"evidence": ["cluster", "variance", "href", "shape", "semantics"]}' \
        --cache cv-results/

Each variant is ``NAME=PARAMS`` (PARAMS: JSON keyword arguments of the method, ``fusion``
unless ``--method``). Every train page of ``../shared/data`` is extracted by a model fitted
on the other folds (5 folds grouped by site, as ``newsml train`` cross-validates; the same
folds for every variant) and scored against its gold. The report gives each variant's
macro F1, and against the first: the mean per-page difference with a 95% paired bootstrap
interval, the pages better and worse, and the macro F1 per corpus. A choice is worth
making when the interval excludes 0: differences of a few thousandths come and go with
the seed of the trees. Test pages are never read.

With ``--cache DIR``, each variant's page scores are kept in ``DIR/NAME.json`` and reused
while its parameters and pages are the same, so a new variant costs one run, not all. The
file also records the newsml sources and the numeric libraries that made it: a variant
reused from other code or libraries is said so (the default's settings, with the fits of
2026-11-29, scored 0.9424 on one machine and 0.9431 on another), and ``--fresh`` runs
every variant again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import warnings
from functools import partial
from pathlib import Path

import numpy as np
from _shared import SHARED_DATA  # scripts/_shared.py, beside this script

from newsml.core.processes import available_cores, limited_threads
from newsml.core.progress import progress_bar
from newsml.errors import TrainingWarning
from newsml.learning.training import TRAINING_THREADS, cross_validated_scores, labeled_folders, labeled_pages
from newsml.measure.scoring import paired_bootstrap
from newsml.methods import new_method

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "newsml"
#: Libraries whose numerics a fit's result can depend on.
NUMERIC_LIBRARIES = ("numpy", "scipy", "scikit-learn", "lxml")


def made_with() -> dict[str, str]:
    """What produced a run's scores: a digest of the newsml sources and the numeric
    libraries' versions, so a cached run from other code is not taken for this code's."""
    from importlib.metadata import version

    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return {"sources": digest.hexdigest()[:16], **{name: version(name) for name in NUMERIC_LIBRARIES}}


def parse_variant(text: str) -> tuple[str, dict]:
    """``NAME=PARAMS`` -> (name, params); a clear error for anything else."""
    name, sep, params = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"a variant is NAME=PARAMS (JSON), not {text!r}")
    try:
        value = json.loads(params or "{}")
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"{name}: PARAMS is not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"{name}: PARAMS must be a JSON object of keyword arguments")
    # JSON has lists where the methods take tuples of names
    return name, {key: tuple(v) if isinstance(v, list) else v for key, v in value.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", type=parse_variant, metavar="NAME=PARAMS")
    parser.add_argument("--method", default="fusion")
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=available_cores())
    parser.add_argument("--cache", type=Path, metavar="DIR", help="keep and reuse each variant's page scores")
    parser.add_argument("--fresh", action="store_true", help="run every variant, reusing no cached scores")
    args = parser.parse_args()
    names = [name for name, _ in args.variants]
    if len(set(names)) != len(names):
        parser.error(f"variant names must differ: {names}")
    if not args.data.is_dir():
        parser.error(f"no corpora at {args.data}")
    corpora = sorted(path for path in args.data.iterdir() if path.is_dir())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrainingWarning)     # skipped pages: the same for every variant
        pages, _ = labeled_folders(corpora, "train")
        kept, _ = labeled_pages(pages)
    ids = [f"{page.corpus}/{page.id}" for page, _, _ in kept]
    parsed = [page for _, page, _ in kept]
    labels = [node_labels for _, _, node_labels in kept]
    golds = [page.gold for page, _, _ in kept]
    sites = [page.site for page, _, _ in kept]
    print(f"{len(kept)} train pages of {len(corpora)} corpora, {len(set(sites))} sites, "
          f"{args.folds} folds by site", flush=True)
    results: dict[str, np.ndarray] = {}
    made = made_with()
    for name, params in args.variants:
        cached = args.cache / f"{name}.json" if args.cache else None
        record = {"method": args.method, "params": {k: list(v) if isinstance(v, tuple) else v
                                                   for k, v in params.items()}, "folds": args.folds}
        if cached is not None and cached.is_file() and not args.fresh:
            stored = json.loads(cached.read_text(encoding="utf-8"))
            if {k: stored.get(k) for k in record} == record and list(stored["f1"]) == ids:
                results[name] = np.array(list(stored["f1"].values()))
                differs = _other_making(stored.get("made_with", {}), made)
                print(f"{name}: reused {cached}{differs}", flush=True)
                continue
        start = time.perf_counter()
        make = partial(new_method, args.method, **params)
        with progress_bar() as progress, limited_threads(TRAINING_THREADS):
            scores = cross_validated_scores(make, parsed, labels, golds, args.folds, groups=sites,
                                            progress=progress, jobs=args.jobs)
        results[name] = np.array([s.f1 for s in scores])
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps({**record, "made_with": made,
                                          "f1": dict(zip(ids, results[name].tolist()))}),
                              encoding="utf-8")
    report(names, results, [page_id.split("/")[0] for page_id in ids])
    return 0


def _other_making(stored: dict[str, str], made: dict[str, str]) -> str:
    """What differs between the making of a cached run and this one ("" when nothing)."""
    other = [f"{key} {stored.get(key, 'not recorded')} (now {value})"
             for key, value in made.items() if stored.get(key) != value]
    return "; made with other code or libraries: " + ", ".join(other) if other else ""


def report(names: list[str], results: dict[str, np.ndarray], corpus_of: list[str]) -> None:
    """The comparison table, every variant against the first."""
    first = results[names[0]]
    corpora = sorted(set(corpus_of))
    where = {corpus: np.array([c == corpus for c in corpus_of]) for corpus in corpora}
    print(f"\n| variant | macro F1 | - {names[0]} (95% CI) | pages better / worse | "
          + " | ".join(corpora) + " |")
    print("|---" * (4 + len(corpora)) + "|")
    for name in names:
        f1 = results[name]
        if name == names[0]:
            against, counts = "", ""
        else:
            mean, low, high = paired_bootstrap(f1.tolist(), first.tolist())
            against = f"{mean:+.4f} ({low:+.4f} to {high:+.4f})"
            counts = f"{int((f1 > first + 1e-9).sum())} / {int((f1 < first - 1e-9).sum())}"
        per_corpus = " | ".join(f"{f1[where[c]].mean():.4f}" for c in corpora)
        print(f"| {name} | {f1.mean():.5f} | {against} | {counts} | {per_corpus} |")


if __name__ == "__main__":
    sys.exit(main())
