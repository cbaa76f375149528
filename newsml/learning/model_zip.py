"""The model file format: a zip archive of a JSON manifest and numpy arrays, no code.

A model file (still named ``.joblib``, as users know it) holds ``manifest.json`` and one
``arrays/<n>.npy`` per array. The manifest is a JSON object: the record's metadata as
plain JSON, and the method as tagged values:

- ``{"object": "module.Class", "state": ...}`` an object of an allowed class and its attributes;
- ``{"array": "arrays/0.npy"}`` an array (numbers or truth values, read with numpy's
  ``.npy`` header, never with pickle);
- ``{"tuple": [...]}``, ``{"set": [...]}``, ``{"frozenset": [...]}``, ``{"dict": {...}}``
  (string keys), ``{"pairs": [[key, value], ...]}`` (other keys) and
  ``{"float": "nan" | "inf" | "-inf"}``; other JSON values are themselves.

Nothing in the file is code and nothing of it is called: reading it gives the plain
values of :mod:`newsml.learning.model_objects`, which builds and checks the objects.
Every member's size is checked against the file's budget before it is read, and read
no further than its declared size (zip members carry it, and reading stops there).
``numpy.load(path)`` and any zip tool read the same file.
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..core.array_zip import member_bytes, read_npy, zip_members
from ..errors import ModelError
from .model_objects import ARRAY_KINDS, MAX_DEPTH, Instance, allowed, allowed_class, budget

MANIFEST = "manifest.json"
#: The first bytes of a zip archive (and so of a model file in this format).
MAGIC = b"PK\x03\x04"
#: Most members a model file may have (the shipped default has a few dozen).
#: The manifest may open at most this many JSON objects and arrays, plus one per
#: :data:`BYTES_PER_CONTAINER` of its bytes: each costs the reader far more memory than
#: its two bytes in the file.
MAX_CONTAINERS = 10_000
BYTES_PER_CONTAINER = 16
_PLAIN = (str, int, float, bool, type(None))
_TIMESTAMP = (1980, 1, 1, 0, 0, 0)     # the same model gives the same bytes
_SPECIAL_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def is_model_zip(head: bytes) -> bool:
    """Whether a file starting with ``head`` is in this format (a zip archive)."""
    return head.startswith(MAGIC)


def write(record: dict[str, Any], path: str | Path) -> None:
    """Write ``record`` (metadata and the method under ``estimator``) to ``path``.

    ValueError for a value no model file holds (an object of a class a model file may
    not name, an array of Python objects, a reference cycle).
    """
    encoder = _Encoder()
    manifest = {key: encoder.encode(value, 0) for key, value in record.items()}
    text = json.dumps(manifest, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    with zipfile.ZipFile(path, "w") as archive:
        _add(archive, MANIFEST, text.encode("utf-8"))
        for i, array in enumerate(encoder.arrays):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            _add(archive, f"arrays/{i}.npy", buffer.getvalue())


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_TIMESTAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data, compresslevel=9)


class _Encoder:
    """Plain values to tagged JSON; arrays set aside to be written as members."""

    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []
        self.open: set[int] = set()

    def encode(self, value: Any, depth: int) -> Any:
        if value is None or isinstance(value, (bool, int, str)):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, np.generic) and value.dtype.kind in ARRAY_KINDS:
            return self.encode(value.item(), depth)
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in ARRAY_KINDS or value.dtype.fields is not None:
                raise ValueError(f"cannot write an array of {value.dtype} to a model file")
            self.arrays.append(value)
            return {"array": f"arrays/{len(self.arrays) - 1}.npy"}
        if depth > MAX_DEPTH or id(value) in self.open:
            raise ValueError("cannot write a value nested this deep or containing itself to a model file")
        self.open.add(id(value))
        try:
            return self._container(value, depth + 1)
        finally:
            self.open.discard(id(value))

    def _container(self, value: Any, depth: int) -> Any:
        if isinstance(value, list):
            return [self.encode(item, depth) for item in value]
        if isinstance(value, tuple):
            return {"tuple": [self.encode(item, depth) for item in value]}
        if isinstance(value, (set, frozenset)):
            tag = "frozenset" if isinstance(value, frozenset) else "set"
            return {tag: [self.encode(item, depth) for item in sorted(value, key=repr)]}
        if isinstance(value, dict):
            if all(isinstance(key, str) for key in value):
                return {"dict": {key: self.encode(item, depth) for key, item in value.items()}}
            return {"pairs": [[self.encode(key, depth), self.encode(item, depth)]
                              for key, item in value.items()]}
        cls = type(value)
        if not allowed(cls.__module__, cls.__qualname__):
            raise ValueError(f"cannot write a {cls.__module__}.{cls.__qualname__} to a model file")
        state = value.__getstate__()
        if state is None:
            state = {}
        if not isinstance(state, dict):
            raise ValueError(f"cannot write a {cls.__qualname__}: its state is not its attributes")
        return {"object": f"{cls.__module__}.{cls.__qualname__}", "state": self.encode(state, depth)}


def read(path: str | Path, source: str) -> dict[str, Any]:
    """The record in the model file ``path`` as plain values (see
    :mod:`newsml.learning.model_objects`); ModelError for anything else."""
    limit = budget(os.path.getsize(path))
    try:
        with zipfile.ZipFile(path) as archive:
            infos = zip_members(archive, source, limit)
            if MANIFEST not in infos:
                raise ModelError(f"cannot read {source}: it is a zip archive without a model manifest")
            text = member_bytes(archive, infos[MANIFEST]).decode("utf-8")
            containers = text.count("{") + text.count("[")
            if containers > MAX_CONTAINERS + len(text) // BYTES_PER_CONTAINER:
                raise ModelError(f"cannot read {source}: its manifest holds {containers} objects and lists, "
                                 "more than a model file of its size may")
            manifest = json.loads(text, parse_constant=_no_constant)
            if not isinstance(manifest, dict):
                raise ModelError(f"{source} is not a newsml model file")
            decoder = _Decoder(archive, infos, source)
            record = {key: decoder.decode(value, 0) for key, value in manifest.items()}
            unused = set(infos) - {MANIFEST} - decoder.used
            if unused:
                raise ModelError(f"cannot read {source}: it holds members no model file has "
                                 f"({sorted(unused)[0]})")
            return record
    except ModelError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, RecursionError,
            NotImplementedError, UnicodeError, TypeError) as exc:
        raise ModelError(f"cannot read {source}: it is truncated or not a newsml model "
                         f"({type(exc).__name__}: {exc})") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"the manifest holds {name}, which JSON does not")


class _Decoder:
    """Tagged JSON to plain values; each array member read when first named."""

    def __init__(self, archive: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo], source: str):
        self.archive, self.infos, self.source = archive, infos, source
        self.arrays: dict[str, np.ndarray] = {}
        self.used: set[str] = set()

    def decode(self, value: Any, depth: int) -> Any:
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if depth > MAX_DEPTH:
            raise ModelError(f"cannot read {self.source}: its values nest more than {MAX_DEPTH} deep")
        if isinstance(value, list):
            return [self.decode(item, depth + 1) for item in value]
        if not isinstance(value, dict) or not value:
            raise ModelError(f"cannot read {self.source}: its manifest holds a value no model file has")
        tag = next(iter(value))
        body = value[tag]
        if tag == "object" and set(value) == {"object", "state"} and isinstance(body, str):
            module, _, name = body.rpartition(".")
            return Instance(allowed_class(self.source, module, name), self.decode(value["state"], depth + 1))
        if len(value) != 1:
            raise ModelError(f"cannot read {self.source}: its manifest holds a value no model file has")
        if tag == "tuple" and isinstance(body, list):
            return tuple(self.decode(item, depth + 1) for item in body)
        if tag in ("set", "frozenset") and isinstance(body, list):
            items = [self.decode(item, depth + 1) for item in body]
            return set(items) if tag == "set" else frozenset(items)
        if tag == "dict" and isinstance(body, dict):
            if all(type(item) in _PLAIN for item in body.values()):     # (a vocabulary: at once)
                return body
            return {key: self.decode(item, depth + 1) for key, item in body.items()}
        if tag == "pairs" and isinstance(body, list) and all(
                isinstance(pair, list) and len(pair) == 2 for pair in body):
            return {self.decode(k, depth + 1): self.decode(v, depth + 1) for k, v in body}
        if tag == "float" and body in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[body]
        if tag == "array" and isinstance(body, str) and body.startswith("arrays/") and body in self.infos:
            if body not in self.arrays:
                self.arrays[body] = read_npy(self.archive, self.infos[body], self.source)
                self.used.add(body)
            return self.arrays[body]
        raise ModelError(f"cannot read {self.source}: its manifest holds a value no model file has ({tag!r})")
