#!/usr/bin/env python3
"""Re-save model files in the current form, without retraining them.

Usage: python scripts/convert_models.py [MODEL.joblib ...] [--out DIR]   (default: every file in models/)

Loading converts what older files hold into what this newsml keeps (the joblib pickles
of format 1 become zip archives of a JSON manifest and numpy arrays, format 2, which
hold no code; the scikit-learn classifiers of older files become the plain arrays of
:mod:`newsml.estimators.frozen`, so that predicting with the file imports no
scikit-learn); saving writes that form with the file's metadata (training corpora,
date, versions) unchanged, plus a ``converted`` note (``--note``). Check that nothing
changed with ``scripts/compare_predictions.py`` (record with the old file, then the new one).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from newsml.learning.persistence import load_model, save_model

REPO = Path(__file__).resolve().parent.parent


#: What the ``converted`` note of the metadata says by default: the latest conversion.
NOTE = "model file format 2, a zip of a JSON manifest and numpy arrays"


def convert(path: Path, out: Path, note: str = NOTE) -> Path:
    """Load ``path`` (converting as it loads) and save it to ``out`` with its metadata."""
    method, metadata = load_model(path)
    kept = {key: value for key, value in metadata.items()
            if key not in ("format", "format_version", "method", "params")}
    kept.setdefault("converted", []).append(
        f"{dt.date.today().isoformat()}: {note} (scripts/convert_models.py)")
    return save_model(method, out, overwrite=True, **kept)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, help="folder for the converted files (default: in place)")
    parser.add_argument("--note", default=NOTE, help="what the conversion changed, for the metadata")
    args = parser.parse_args()
    paths = args.models or sorted((REPO / "models").glob("*.joblib"))
    for path in paths:
        target = (args.out / path.name) if args.out else path
        print(f"{path} -> {convert(path, target, args.note)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
