"""What a model file may hold, and how its contents become objects: one path for every format.

A model file's readers (:mod:`newsml.learning.model_zip` for the current format,
:mod:`newsml.learning.legacy_pickle` for the joblib pickles of earlier releases) never
make an object of a class themselves: they give plain values (None, bools, numbers,
strings, lists, tuples, sets, dicts), numeric numpy arrays they made from bytes, and
:class:`Instance` records naming an allowed class and its state. :func:`build` turns
those into the model's objects, each checked by :func:`~newsml.learning.model_checks.
check_object` before it is used, so that whatever a file's bytes say, what loads is
the model newsml would have written, or a :class:`~newsml.errors.ModelError`.

Limits: a file may ask for at most :func:`budget` bytes of decompressed content, a bound
by its own size, and nest at most :data:`MAX_DEPTH` values deep.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.array_zip import ARRAY_KINDS
from ..errors import ModelError
from ..methods import methods

#: The classes a model file may name besides the registered method classes: what the
#: shipped models hold and what ``newsml train`` writes for any registered method
#: (``tests/learning/test_persistence.py`` checks both).
ALLOWED_GLOBALS = frozenset({
    ("newsml.rules.assembly", "Assembly"),
    ("newsml.rules.assembly", "FixedCut"),
    ("newsml.rules.assembly", "OtsuCut"),
    # a method of a later stage, so not in the method registry until its module is imported:
    # named here, it is imported when a file names it (no import cycle)
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
#: Decompressed bytes a model file may ask for: this much, plus :data:`EXPANSION` per
#: byte of the file. The shipped models need a few times their size.
ALLOWANCE = 1 << 20
EXPANSION = 16
#: How deep values may nest in a model file (the shipped models: under 10 levels).
MAX_DEPTH = 64


def budget(file_size: int) -> int:
    """The most decompressed bytes a model file of ``file_size`` bytes may ask for."""
    return ALLOWANCE + EXPANSION * file_size


@dataclass(eq=False)
class Instance:
    """An object a model file names: its class (allowed) and its state, not yet made."""

    cls: type[Any]
    state: Any = None


def refuse_global(source: str, module: str, name: str) -> ModelError:
    """The error for a file naming ``module.name``, which is not allowed: what it is, if
    this newsml can tell (nothing is imported for a file's sake)."""
    if _exists_here(module, name):   # a NewsExtractor pickled whole, say
        return ModelError(f"cannot read {source}: it holds a {module}.{name}, which is no model file; "
                          "write one with `newsml train` or newsml.save_model(extractor.method_, path)")
    if module == "newsml" or module.startswith("newsml."):
        return ModelError(f"cannot read {source}: it was made by another version of newsml "
                          f"(it names {module}.{name}, which this newsml does not load); "
                          "retrain it with `newsml train`")
    return ModelError(f"refusing to load {source}: it names {module}.{name}, which is not a class "
                      "newsml models hold (nothing in the file was run)")


def _exists_here(module: str, name: str) -> bool:
    if module != "newsml" and not module.startswith("newsml."):
        return False
    return isinstance(getattr(sys.modules.get(module), name, None), type)


def allowed(module: str, name: str) -> bool:
    """Whether a model file may name the class ``module.name`` (moved modules resolved)."""
    module = MOVED_MODULES.get(module, module)
    if (module, name) in ALLOWED_GLOBALS:
        return True
    return any(cls.__module__ == module and cls.__qualname__ == name for cls in methods().values())


def allowed_class(source: str, module: str, name: str) -> type:
    """The class ``module.name`` if a model file may name it, else ModelError (before
    anything of the file is used)."""
    module = MOVED_MODULES.get(module, module)
    if not allowed(module, name):
        raise refuse_global(source, module, name)
    __import__(module)
    found = getattr(sys.modules[module], name, None)
    if not isinstance(found, type):
        raise ModelError(f"cannot read {source}: it was made by another version of newsml "
                         f"({module}.{name} is not a class here); retrain it with `newsml train`")
    return found


def check_array(source: str, array: np.ndarray) -> np.ndarray:
    """``array`` if it holds numbers or truth values in a plain (unstructured) type."""
    dtype = array.dtype
    if dtype.kind not in ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise ModelError(f"refusing to load {source}: it holds an array of type {dtype.str!r}; "
                         "model files hold arrays of numbers only")
    return array


def build(source: str, value: Any) -> Any:
    """The objects ``value`` stands for, each instance made and checked; ModelError for
    anything no model file holds (a cycle, too deep a nesting, a failed check)."""
    return _Builder(source).build(value, 0)


_PLAIN = (str, int, float, bool, type(None), bytes)
#: Private attributes a file may set: the release of scikit-learn that wrote an old estimator.
_PRIVATE_KEPT = frozenset({"_sklearn_version"})


def _attribute(cls: type, key: object) -> bool:
    """Whether a file may set ``key`` on an object of ``cls``: a public name that is no
    method or property of the class. Private names are caches worked out after loading
    (the trees' masks, a vocabulary's token ids): a file setting one would skip its checks."""
    if not isinstance(key, str) or not key.isidentifier():
        return False
    if key.startswith("_"):
        return key in _PRIVATE_KEPT
    found = inspect.getattr_static(cls, key, None)
    return not (callable(found) or hasattr(found, "__get__") and not isinstance(found, (str, bytes)))


def _plain(value: list[Any] | dict[Any, Any]) -> bool:
    """Whether a list's items, or a dict's keys and values, are all plain values."""
    if isinstance(value, dict):
        return all(type(key) in _PLAIN for key in value) and all(type(v) in _PLAIN for v in value.values())
    return all(type(item) in _PLAIN for item in value)


class _Builder:
    """Makes objects depth first; a value met twice is made once (shared, as written)."""

    def __init__(self, source: str):
        self.source = source
        self.made: dict[int, Any] = {}
        self.making: set[int] = set()
        self.keep: list[Any] = []          # (the values whose ids key ``made``, alive)

    def build(self, value: Any, depth: int) -> Any:
        if value is None or isinstance(value, (bool, int, float, str, bytes)):
            return value
        if isinstance(value, np.ndarray):
            return check_array(self.source, value)
        if depth > MAX_DEPTH:
            raise ModelError(f"cannot read {self.source}: its values nest more than {MAX_DEPTH} deep")
        key = id(value)
        if key in self.made:
            return self.made[key]
        if key in self.making:
            raise ModelError(f"cannot read {self.source}: a value in it contains itself")
        self.making.add(key)
        self.keep.append(value)
        made = self._make(value, depth + 1)
        self.making.discard(key)
        self.made[key] = made
        return made

    def _make(self, value: Any, depth: int) -> Any:
        if type(value) in (list, dict) and _plain(value):    # (a vocabulary: copied at once)
            return value.copy()
        if isinstance(value, list):
            return [self.build(item, depth) for item in value]
        if isinstance(value, tuple):
            return tuple(self.build(item, depth) for item in value)
        if isinstance(value, (set, frozenset)):
            items = [self._key(item, depth) for item in value]
            return set(items) if isinstance(value, set) else frozenset(items)
        if isinstance(value, dict):
            made = {}
            for key, item in value.items():
                made[self._key(key, depth)] = self.build(item, depth)
            return made
        if isinstance(value, Instance):
            return self._instance(value, depth)
        raise ModelError(f"cannot read {self.source}: it holds a {type(value).__name__} where a model "
                         "holds values")

    def _key(self, key: Any, depth: int) -> Any:
        made = self.build(key, depth)
        if not isinstance(made, (str, int, float, bool, type(None), tuple)):
            raise ModelError(f"cannot read {self.source}: a dict key or set item is a {type(made).__name__}")
        return made

    def _instance(self, value: Instance, depth: int) -> Any:
        from .model_checks import check_object

        state = self.build(value.state if value.state is not None else {}, depth)
        if not isinstance(state, dict) or not all(_attribute(value.cls, key) for key in state):
            raise ModelError(f"cannot read {self.source}: the state of a {value.cls.__name__} is not "
                             "a set of its attributes")
        cls: Any = value.cls
        obj = cls.__new__(cls)
        try:
            if hasattr(obj, "__setstate__"):
                obj.__setstate__(state)
            else:
                obj.__dict__.update(state)
            check_object(obj)
        except ModelError:
            raise
        except Exception as exc:
            raise ModelError(f"cannot read {self.source}: its {value.cls.__name__} is not one newsml "
                             f"writes ({exc})") from None
        return obj
