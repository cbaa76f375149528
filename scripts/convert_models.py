#!/usr/bin/env python3
"""Re-save model files in the current form, without retraining them.

Usage: python scripts/convert_models.py [MODEL.joblib ...] [--out DIR]   (default: every file in models/)

Loading converts what older files hold into what this newsml keeps (the scikit-learn
classifiers of fusion, nb and cedst become the plain arrays of
:mod:`newsml.estimators.frozen`, so that predicting with the file imports no
scikit-learn); saving writes that form with the file's metadata (training corpora,
date, versions) unchanged, plus a ``converted`` note. Check that nothing changed with
``scripts/compare_predictions.py`` (record with the old file, then the new one).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from newsml.learning.persistence import load_model, save_model

REPO = Path(__file__).resolve().parent.parent


def convert(path: Path, out: Path) -> Path:
    """Load ``path`` (converting as it loads) and save it to ``out`` with its metadata."""
    method, metadata = load_model(path)
    kept = {key: value for key, value in metadata.items()
            if key not in ("format", "format_version", "method", "params")}
    kept.setdefault("converted", []).append(
        f"{dt.date.today().isoformat()}: classifiers kept as numpy arrays (scripts/convert_models.py)")
    return save_model(method, out, overwrite=True, **kept)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, help="folder for the converted files (default: in place)")
    args = parser.parse_args()
    paths = args.models or sorted((REPO / "models").glob("*.joblib"))
    for path in paths:
        target = (args.out / path.name) if args.out else path
        print(f"{path} -> {convert(path, target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
