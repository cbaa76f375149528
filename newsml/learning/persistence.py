"""Model files: a trained method plus what is needed to trust and reproduce it.

A model file is a joblib pickle of a dict: ``format``, ``format_version``, the
``estimator`` (a fitted :class:`~newsml.methods.NodeMethod`) and metadata (newsml and
scikit-learn versions, method, feature names, training corpora and sizes, creation
date). Loading checks all of it and raises :class:`~newsml.errors.ModelError` with a
plain message instead of an unpickling traceback.

Security: joblib files are pickles, and unpickling runs code. Models are read by a
restricted unpickler (:func:`restricted_load`) that resolves only the classes on an
allow-list (:data:`ALLOWED_GLOBALS` and newsml's method classes): a file naming any
other callable (``os.system``, ``builtins.eval``...) is a ModelError before any of its
code runs. It narrows what a hostile file can do; it is no sandbox. Load models only
from sources you trust (the ones shipped with newsml, or ones you trained).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
import tempfile
import warnings
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..errors import ConfigurationError, ModelError, NewsmlError, OutputError
from ..methods import NodeMethod, method_class, methods, new_method, resolve_name
from ..methods.base import ADAPTED_HINT

FORMAT = "newsml-model"
FORMAT_VERSION = 1
_SOURCE_MODELS = Path(__file__).resolve().parents[2] / "models"

#: The globals a model file may name besides the registered method classes: what the
#: shipped models hold and what ``newsml train`` writes for any registered method
#: (``tests/learning/test_persistence.py`` checks both). Arrays come as joblib's wrappers.
ALLOWED_GLOBALS = frozenset({
    ("joblib.numpy_pickle", "NumpyArrayWrapper"),
    ("numpy", "dtype"),
    ("numpy", "ndarray"),
    ("newsml.rules.assembly", "Assembly"),
    ("newsml.rules.assembly", "FixedCut"),
    ("newsml.rules.assembly", "OtsuCut"),
    # a method of a later stage, so not in the method registry until its module is imported:
    # named here, it is imported by the unpickler when a file names it (no import cycle)
    ("newsml.learning.adaptation", "AdaptedMethod"),
    # model files from before the classifiers were kept frozen (converted as they load)
    ("newsml.estimators.dempster_shafer", "DempsterShaferClassifier"),
    ("newsml.estimators.naive_bayes", "DiscretizedNaiveBayes"),
    ("newsml.estimators.frozen", "FrozenDempsterShafer"),
    ("newsml.estimators.frozen", "FrozenNaiveBayes"),
    ("newsml.estimators.trees", "FrozenTrees"),
})
#: Modules of the classes a model file may name, as files written before the package was
#: laid out in stage folders name them: read as the modules that hold those classes now.
MOVED_MODULES = {
    "newsml.assemble": "newsml.rules.assembly",
    "newsml.adaptation": "newsml.learning.adaptation",
}


def _allowed(module: str, name: str) -> bool:
    if (module, name) in ALLOWED_GLOBALS:
        return True
    return any(cls.__module__ == module and cls.__qualname__ == name for cls in methods().values())


@cache
def _unpickler_class() -> type:
    """joblib's unpickler, resolving only allowed globals (joblib >= 1.6 routes the nested
    pickles of object arrays through this ``find_class`` too). Built on first use: joblib
    is imported when a model is read, not when newsml is."""
    from joblib.numpy_pickle import NumpyUnpickler

    class _ModelUnpickler(NumpyUnpickler):
        def find_class(self, module: str, name: str) -> Any:
            module = MOVED_MODULES.get(module, module)
            if not _allowed(module, name):
                if _exists_here(module, name):   # a NewsExtractor pickled whole, say
                    raise ModelError(f"cannot read {self.filename}: it holds a {module}.{name}, which is no "
                                     "model file; write one with `newsml train` or "
                                     "newsml.save_model(extractor.method_, path)")
                if module == "newsml" or module.startswith("newsml."):
                    raise ModelError(f"cannot read {self.filename}: it was made by another version of newsml "
                                     f"(it names {module}.{name}, which this newsml does not load); "
                                     "retrain it with `newsml train`")
                raise ModelError(f"refusing to load {self.filename}: it names {module}.{name}, which is "
                                 "not a class newsml models hold (nothing in the file was run)")
            return super().find_class(module, name)

    return _ModelUnpickler


def _exists_here(module: str, name: str) -> bool:
    """Whether this newsml has the class ``module.name`` among its modules already loaded
    (nothing is imported for a file's sake)."""
    if module != "newsml" and not module.startswith("newsml."):
        return False
    return isinstance(getattr(sys.modules.get(module), name, None), type)


def restricted_load(path: str | Path) -> Any:
    """``joblib.load(path)``, resolving only the globals a newsml model may name.

    Raises ModelError for a file naming anything else, before the unpickler calls it.
    """
    from joblib.numpy_pickle_utils import _validate_fileobject_and_memmap

    name = str(path)
    with open(name, "rb") as handle, _validate_fileobject_and_memmap(handle, name, None) as (stream, _):
        if isinstance(stream, str):  # joblib < 0.10 kept arrays in side files
            raise ModelError(f"cannot read {path}: a pickle from a joblib older than 0.10")
        return _unpickler_class()(name, stream, True).load()


def save_model(method: NodeMethod, path: str | Path, overwrite: bool = False, **metadata: Any) -> Path:
    """Write ``method`` and its metadata to ``path`` (atomically: a crash leaves no half file).

    An existing file is replaced only with ``overwrite=True``: a model that took long to
    train is not lost to a reused name (OutputError otherwise).
    """
    import joblib
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
        joblib.dump(record, tmp, compress=3)
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
        record = restricted_load(path)
    except ModelError:
        raise
    except (AttributeError, ImportError) as exc:  # a class the file names no longer exists
        raise ModelError(f"cannot read {path}: it was made by another version of newsml or "
                         f"scikit-learn ({type(exc).__name__}: {exc}); retrain it with `newsml train`"
                         ) from None
    except Exception as exc:  # joblib/pickle raise many types on foreign or cut files
        raise ModelError(f"cannot read {path}: it is truncated or not a newsml model "
                         f"({type(exc).__name__}: {exc})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ModelError(f"{path} is not a newsml model file")
    if record.get("format_version") != FORMAT_VERSION:
        raise ModelError(f"{path} has model format {record.get('format_version')}; "
                         f"this newsml reads format {FORMAT_VERSION}: retrain it")
    made_by = str(record.get("newsml_version", "?"))
    if _breaking(made_by) != _breaking(__version__):
        raise ModelError(f"{path} was made by newsml {made_by}; this is newsml {__version__}, "
                         "which cannot use it: retrain it with `newsml train`")
    method = record.get("estimator")
    if not isinstance(method, NodeMethod):
        raise ModelError(f"{path} holds no newsml method")
    borrowed = sorted(_sklearn_objects(method))
    if borrowed:   # newsml's own estimators predict the same under any scikit-learn
        import sklearn  # already imported by the unpickler, for these objects

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
    try:
        candidate = resources.files("newsml.models") / f"{name}.joblib"
        if candidate.is_file():
            return Path(str(candidate))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    local = _SOURCE_MODELS / f"{name}.joblib"
    return local if local.is_file() else None


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
