"""Model files: a trained method plus what is needed to trust and reproduce it.

A model file holds a record: ``format``, ``format_version``, the ``estimator`` (a
fitted :class:`~newsml.methods.NodeMethod`) and metadata (newsml and scikit-learn
versions, method, feature names, training corpora and sizes, creation date). Loading
checks all of it and raises :class:`~newsml.errors.ModelError` with a plain message
instead of a traceback.

Model files are data. The format (version 2, :mod:`newsml.learning.model_zip`) is a zip
archive of a JSON manifest and numpy arrays, read without pickle; files of version 1
(joblib pickles) are read by :mod:`newsml.learning.legacy_pickle`, which interprets the
pickle's opcodes as data and never unpickles. Either way the objects are made by
:func:`~newsml.learning.model_objects.build`, only of the classes a model may hold, each
checked (:mod:`newsml.learning.model_checks`) before use, and a file may ask for at most
a bounded multiple of its size in memory: whatever its bytes, loading a file runs none
of its code, cannot crash the process or change its state, and gives the model or a
ModelError (docs/decisions/2026-12-03-model-files-as-data.md).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..core.shipped import shipped_file
from ..errors import ConfigurationError, ModelError, NewsmlError, OutputError
from ..methods import NodeMethod, method_class, new_method, resolve_name
from ..methods.base import ADAPTED_HINT
from . import legacy_pickle, model_zip
from .model_objects import build

FORMAT = "newsml-model"
#: The format ``save_model`` writes: 2, the zip archive; 1 was a joblib pickle (still read).
FORMAT_VERSION = 2
PICKLE_FORMAT_VERSION = 1


def read_record(path: str | Path) -> tuple[dict[str, Any], int]:
    """The record in a model file, as plain values and unmade objects
    (:mod:`newsml.learning.model_objects`), and the format version its form implies."""
    with open(path, "rb") as handle:
        head = handle.read(4)
    if model_zip.is_model_zip(head):
        return model_zip.read(path, str(path)), FORMAT_VERSION
    return legacy_pickle.read(path, str(path)), PICKLE_FORMAT_VERSION


def save_model(method: NodeMethod, path: str | Path, overwrite: bool = False, **metadata: Any) -> Path:
    """Write ``method`` and its metadata to ``path`` (atomically: a crash leaves no half file).

    An existing file is replaced only with ``overwrite=True``: a model that took long to
    train is not lost to a reused name (OutputError otherwise).
    """
    import sklearn

    path = Path(path)
    if path.exists() and not path.is_file():  # renaming over a device or a folder would replace it
        raise OutputError(f"cannot write {path}: not a regular file")
    if path.exists() and not overwrite:
        raise OutputError(f"{path} exists: pass overwrite=True to replace it")
    record = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "newsml_version": __version__,
        "sklearn_version": sklearn.__version__,
        "python_version": platform.python_version(),
        "method": method.name,
        "params": method.get_params(deep=False),
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        **metadata,
        "estimator": method,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        try:
            model_zip.write(record, tmp)
        except ValueError as exc:
            raise OutputError(f"cannot write {path}: {exc}") from None
        with open(tmp, "rb+") as written:  # on disk before it takes the real name
            os.fsync(written.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes private files; a model is meant to be shared
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def load_model(path: str | Path) -> tuple[NodeMethod, dict[str, Any]]:
    """Read a model file; return ``(method, metadata)``. Raises ModelError on any problem."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"model file not found: {path}")
    try:
        record, form = read_record(path)
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise ModelError(f"{path} is not a newsml model file")
        if record.get("format_version") != form:
            raise ModelError(f"{path} has model format {record.get('format_version')!r}; "
                             f"this newsml reads format {FORMAT_VERSION} (and {PICKLE_FORMAT_VERSION}): "
                             "retrain it")
        made_by = str(record.get("newsml_version", "?"))
        if _breaking(made_by) != _breaking(__version__):
            raise ModelError(f"{path} was made by newsml {made_by}; this is newsml {__version__}, "
                             "which cannot use it: retrain it with `newsml train`")
        record = build(str(path), record)
    except ModelError:
        raise
    except (MemoryError, RecursionError) as exc:
        raise ModelError(f"cannot read {path}: it asks for more than newsml gives a model file "
                         f"({type(exc).__name__})") from None
    except Exception as exc:  # a cut or foreign file can fail in many ways
        raise ModelError(f"cannot read {path}: it is truncated or not a newsml model "
                         f"({type(exc).__name__}: {exc})") from None
    method = record.get("estimator")
    if not isinstance(method, NodeMethod):
        raise ModelError(f"{path} holds no newsml method")
    borrowed = sorted(_sklearn_objects(method))
    if borrowed:   # newsml's own estimators predict the same under any scikit-learn
        import sklearn  # (imported already, with the classes of those objects)

        made_with = str(record.get("sklearn_version", "?"))
        if made_with.split(".")[:2] != sklearn.__version__.split(".")[:2]:
            warnings.warn(f"{path} was trained with scikit-learn {made_with}, this is {sklearn.__version__}, "
                          f"and it holds scikit-learn objects ({', '.join(borrowed)}): results may "
                          "differ; retrain it to be sure", stacklevel=2)
    metadata = {key: value for key, value in record.items() if key != "estimator"}
    return method, metadata


def _sklearn_objects(root: object, limit: int = 10_000) -> set[str]:
    """Names of the scikit-learn classes among the objects reachable from ``root``.

    Only their pickled state depends on the scikit-learn release; newsml's estimators
    keep plain numpy arrays. Follows attributes, dicts, lists and tuples (numpy arrays
    and strings are leaves), at most ``limit`` objects.
    """
    found: set[str] = set()
    seen: set[int] = set()
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, bool, type(None), np.ndarray)):
            continue
        seen.add(id(obj))
        module = type(obj).__module__ or ""
        if module == "sklearn" or module.startswith("sklearn."):
            found.add(type(obj).__name__)
        if isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
    return found


def shipped_model_path(name: str) -> Path | None:
    """The model shipped for method ``name`` (installed package, else the source tree)."""
    return shipped_file(f"{name}.joblib")


def _breaking(version: str) -> tuple[str, ...]:
    """The part of a version that must match: major, and minor too while major is 0."""
    parts = version.split(".")
    return tuple(parts[:2]) if parts[0] == "0" else tuple(parts[:1])


def get_method(name: str = "default", **options: Any) -> NodeMethod:
    """The method called ``name``: its shipped model when it has one and no options are given.

    With ``options``, a fresh (untrained) instance with those parameters.
    """
    key = resolve_name(name)
    if not options:
        path = shipped_model_path(key) if method_class(key).ships_model else None
        if path is not None:
            return load_model(path)[0]
        if key == "adapted":
            raise ConfigurationError(ADAPTED_HINT)
        if method_class(key).requires_fit:
            raise NewsmlError(f"method {key!r} must be trained and no model for it is installed: "
                              f"run `newsml train CORPUS --method {key} -o MODEL.joblib`")
    return new_method(key, **options)
