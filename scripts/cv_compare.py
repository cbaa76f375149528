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

With ``--fits DIR``, each fold's fitted model is kept in ``DIR`` (a newsml model file) and
reused by every variant that fits the same way: variants that differ only in parameters
that act at prediction share one set of fits, and so does the same variant before and
after a change to the code that runs after the trees (the islands, comments or furniture
rules), which is then compared in seconds, not in a quarter of an hour. Fits made by other
code are said so when reused; after a change to what training runs, use ``--fresh``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
import warnings
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from _shared import SHARED_DATA  # scripts/_shared.py, beside this script

from newsml.article import extract_text
from newsml.core.processes import available_cores, limited_threads
from newsml.core.progress import progress_bar
from newsml.errors import ProcessDiedError, TrainingWarning
from newsml.learning.persistence import load_model, save_model
from newsml.learning.training import (
    TRAINING_THREADS,
    cross_validated_models,
    cross_validated_scores,
    labeled_folders,
    labeled_pages,
)
from newsml.measure.model_selection import page_folds
from newsml.measure.scoring import paired_bootstrap, score
from newsml.methods import method_class, new_method

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
    parser.add_argument("--fits", type=Path, metavar="DIR",
                        help="keep each fold's fitted model and reuse it for variants that fit the same way")
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
                if "fits_made_with" in stored:
                    differs += _other_making(stored["fits_made_with"], made).replace("made with", "its fits")
                print(f"{name}: reused {cached}{differs}", flush=True)
                continue
        start = time.perf_counter()
        fitted: dict[str, Any] = {}
        if args.fits is not None:
            models, fitted["fits_made_with"] = fold_models(args, params, parsed, labels, sites, ids, made)
            held_by = fold_of_pages(args.folds, sites)
            results[name] = np.array([score(extract_text(page, models[fold]), gold).f1
                                      for page, gold, fold in zip(parsed, golds, held_by)])
        else:
            make = partial(new_method, args.method, **params)
            with progress_bar() as progress, limited_threads(TRAINING_THREADS):
                scores = cross_validated_scores(make, parsed, labels, golds, args.folds, groups=sites,
                                                progress=progress, jobs=args.jobs)
            results[name] = np.array([s.f1 for s in scores])
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps({**record, "made_with": made, **fitted,
                                          "f1": dict(zip(ids, results[name].tolist()))}),
                              encoding="utf-8")
    report(names, results, [page_id.split("/")[0] for page_id in ids])
    return 0


def fold_of_pages(folds: int, sites: list) -> list[int]:
    """Which fold holds out each page: the folds of ``cross_validated_scores``."""
    held_by = [0] * len(sites)
    for fold, (_, held) in enumerate(page_folds(len(sites), folds, 0, groups=sites)):
        for page in held:
            held_by[page] = fold
    return held_by


def fold_models(args: argparse.Namespace, params: dict, pages: list, labels: list, sites: list,
                ids: list[str], made: dict[str, str]) -> tuple[list, dict[str, str]]:
    """The variant's model of each fold (fitted on the other folds), with what made the fits:
    from ``args.fits`` when a variant that fits the same way left them there, else fitted
    now (folds side by side, in forked processes where that is safe) and kept there; the
    variant's prediction parameters set on them.

    Fits are keyed by the method's fitting parameters as it resolves them (defaults
    included), the folds, the pages and their sites; written to a new folder that takes
    its name only when every fold is fitted, so a failed run leaves no mixed set."""
    predicting = set(method_class(args.method).prediction_params)
    fitting = {key: value for key, value in params.items() if key not in predicting}
    resolved = {key: value for key, value in new_method(args.method, **fitting).get_params(deep=False).items()
                if key not in predicting}
    key = json.dumps({"method": args.method, "params": resolved, "folds": args.folds, "pages": ids,
                      "sites": sites}, sort_keys=True, default=repr)
    folder = args.fits / hashlib.sha256(key.encode()).hexdigest()[:16]
    paths = [folder / f"fold{fold}.joblib" for fold in range(args.folds)]
    if (args.fresh and folder not in _FITTED_NOW) or not all(path.is_file() for path in paths):
        partial_folder = folder.with_name(f"{folder.name}.part{os.getpid()}")
        shutil.rmtree(partial_folder, ignore_errors=True)
        try:
            with progress_bar() as progress, limited_threads(TRAINING_THREADS):
                fitted = cross_validated_models(partial(new_method, args.method, **fitting), pages, labels,
                                                args.folds, groups=sites, progress=progress, jobs=args.jobs)
        except ProcessDiedError:
            raise SystemExit("a fitting process died (out of memory?): try fewer --jobs") from None
        partial_folder.mkdir(parents=True)
        for path, (_, model) in zip(paths, fitted):
            save_model(model, partial_folder / path.name, made_with=made)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(partial_folder, folder)
        _FITTED_NOW.add(folder)
    models, makings = [], []
    for path in paths:
        model, metadata = load_model(path)
        makings.append(metadata.get("made_with", {}))
        models.append(model.set_params(**{k: v for k, v in params.items() if k in predicting}))
    if any(making != makings[0] for making in makings):
        raise SystemExit(f"the fits in {folder} were made by different code: run again with --fresh")
    differs = _other_making(makings[0], made)
    if differs:
        print(f"fits reused from {folder}{differs}", flush=True)
    return models, makings[0]


#: The folders of fits made by this run (``--fresh`` fits each once, not once per variant).
_FITTED_NOW: set[Path] = set()


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
