"""Model files of earlier releases (joblib pickles), read as data: no unpickling.

Before the zip format (:mod:`newsml.learning.model_zip`), a model file was a joblib
pickle. Unpickling calls what the file names, and even an allow-list of harmless
classes is not enough: numpy's ``dtype.__setstate__`` takes flags saying an object
type holds no Python objects (a crash), and a BUILD on an allowed class sets that
class's attributes for the rest of the process. So such files are not unpickled. This
module reads the pickle's opcodes itself (argument parsing is :mod:`pickletools`'),
with a stack and memo of plain values: a global is a name checked against the
allow-list, calling it makes an :class:`~newsml.learning.model_objects.Instance` record
or a numpy type made here from its name, a BUILD fills a record's state, and joblib's
array wrappers are read as joblib writes them, into arrays made from bytes. Nothing
the file names is called and no class is touched; :func:`~newsml.learning.
model_objects.build` then makes and checks the objects, as for the current format.

Bounds: the file is decompressed (zlib, gzip, bz2, lzma or xz, as joblib writes them)
to at most :func:`~newsml.learning.model_objects.budget` bytes, each array's bytes must
be in the file before they are allocated, and the stack, memo and containers a file
makes are counted against its decompressed size.
"""

from __future__ import annotations

import bz2
import io
import lzma
import math
import os
import pickletools
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError
from .model_objects import ARRAY_KINDS, Instance, allowed_class, budget, refuse_global

#: Most containers (lists, dicts, tuples, objects) and memo entries a file may make: this
#: many, plus one per :data:`BYTES_PER_CONTAINER` of its decompressed size (each costs
#: the reader dozens of times its byte or two of opcodes).
MOST_CONTAINERS = 10_000
BYTES_PER_CONTAINER = 16
_NUMPY_TYPES = {("numpy", "dtype"), ("numpy", "ndarray"),
                ("joblib.numpy_pickle", "NumpyArrayWrapper")}
_ARRAY_WRAPPER = ("joblib.numpy_pickle", "NumpyArrayWrapper")


@dataclass(frozen=True)
class _Global:
    """A class or function a file names (resolved only if it is an allowed class)."""

    module: str
    name: str
    cls: type | None = None


class _Wrapper:
    """joblib's array wrapper, whose BUILD is followed by the array's bytes."""


@dataclass
class _Type:
    """A numpy type the file asks for by name, pending its state (byte order)."""

    dtype: np.dtype


#: What may key a dict or be in a set (hashable without calling anything of the file's).
_KEYS = (str, int, float, bool, type(None), tuple, bytes)


_OPCODES = {op.code: op for op in pickletools.opcodes}


class _Mark:
    pass


_MARK = _Mark()


def _decompressors() -> list[tuple[bytes, Callable[[], Any]]]:
    return [(b"\x78", lambda: zlib.decompressobj(15)),          # joblib's default (zlib)
            (b"\x1f\x8b", lambda: zlib.decompressobj(31)),      # gzip
            (b"BZh", bz2.BZ2Decompressor),
            (b"\xfd7zXZ", lzma.LZMADecompressor),
            (b"]\x00\x00", lzma.LZMADecompressor)]


def decompress(data: bytes, source: str, limit: int) -> bytes:
    """The pickle in a joblib file's bytes, inflated to at most ``limit`` bytes."""
    if data.startswith(b"\x04\x22\x4d\x18"):
        raise ModelError(f"cannot read {source}: it is compressed with lz4, which newsml does not read; "
                         "save the model again with newsml")
    for magic, make in _decompressors():
        if data.startswith(magic):
            return _inflate(data, make, source, limit)
    return data                         # (an uncompressed pickle: no larger than the file)


def _inflate(data: bytes, make: Callable[[], Any], source: str, limit: int) -> bytes:
    out = bytearray()
    pending, decompressor = data, make()
    while True:
        room = limit + 1 - len(out)
        if isinstance(decompressor, type(zlib.decompressobj())):
            out += decompressor.decompress(pending, room)
            pending = decompressor.unconsumed_tail
            stalled = not pending
        else:
            out += decompressor.decompress(pending, max_length=room)
            pending = b""
            stalled = decompressor.needs_input
        if len(out) > limit:
            raise ModelError(f"refusing to load {source}: it decompresses to more than {limit:,} bytes, "
                             "more than a model file of its size may take")
        if decompressor.eof:
            rest = decompressor.unused_data
            if not rest.strip(b"\x00"):
                return bytes(out)
            pending, decompressor = rest, make()        # another stream after this one
        elif stalled:
            raise ModelError(f"cannot read {source}: it is truncated (its compressed data ends early)")


def read(path: str | Path, source: str) -> Any:
    """The record of the joblib pickle ``path``, as plain values and Instance records."""
    with open(path, "rb") as handle:
        raw = handle.read()
    data = decompress(raw, source, budget(os.path.getsize(path)))
    with warnings.catch_warnings():     # (pickletools' text readers warn of odd escapes)
        warnings.simplefilter("ignore", DeprecationWarning)
        return _Machine(io.BytesIO(data), source, MOST_CONTAINERS + len(data) // BYTES_PER_CONTAINER).run()


class _Machine:
    """A pickle's stack machine over plain values: nothing it meets is called."""

    def __init__(self, stream: io.BytesIO, source: str, most: int):
        self.stream, self.source, self.most = stream, source, most
        self.stack: list[Any] = []
        self.metastack: list[list[Any]] = []
        self.memo: dict[int, Any] = {}
        self.made = 0
        self.size = len(stream.getbuffer())

    def fail(self, why: str) -> ModelError:
        return ModelError(f"cannot read {self.source}: {why}")

    def count(self, n: int = 1) -> None:
        self.made += n
        if self.made > self.most:
            raise ModelError(f"refusing to load {self.source}: it makes more values than a model file of "
                             "its size may")

    def run(self) -> Any:
        while True:
            code = self.stream.read(1)
            if not code:
                raise self.fail("it is truncated or not a newsml model (the pickle does not end)")
            try:
                op = _OPCODES[code.decode("latin-1")]
            except KeyError:
                raise self.fail(f"it is truncated or not a newsml model (byte {code!r} is no pickle "
                                "opcode)") from None
            arg = op.arg.reader(self.stream) if op.arg is not None else None
            if op.name == "STOP":
                if len(self.stack) != 1 or self.metastack:
                    raise self.fail("it is truncated or not a newsml model (the pickle is malformed)")
                return self.stack.pop()
            handler = getattr(self, f"op_{op.name}", None)
            if handler is None:
                raise self.fail(f"it uses the pickle opcode {op.name}, which model files do not")
            handler(arg)

    # -- the stack ----------------------------------------------------------------------
    def pop(self) -> Any:
        if not self.stack:
            raise self.fail("it is truncated or not a newsml model (the pickle is malformed)")
        value = self.stack.pop()
        if value is _MARK:
            raise self.fail("it is truncated or not a newsml model (the pickle is malformed)")
        return value

    def top(self) -> Any:
        if not self.stack or self.stack[-1] is _MARK:
            raise self.fail("it is truncated or not a newsml model (the pickle is malformed)")
        return self.stack[-1]

    def pop_mark(self) -> list[Any]:
        if not self.metastack:
            raise self.fail("it is truncated or not a newsml model (the pickle is malformed)")
        items, self.stack = self.stack, self.metastack.pop()
        return items

    def push(self, value: Any, container: bool = False) -> None:
        if container:
            self.count()
        self.stack.append(value)

    # -- values -------------------------------------------------------------------------
    def op_PROTO(self, arg: int) -> None:
        pass

    def op_FRAME(self, arg: int) -> None:
        pass

    def _value(self, arg: Any) -> None:
        self.push(arg)

    op_INT = op_BININT = op_BININT1 = op_BININT2 = op_LONG = op_LONG1 = op_LONG4 = _value
    op_FLOAT = op_BINFLOAT = op_UNICODE = op_SHORT_BINUNICODE = op_BINUNICODE = op_BINUNICODE8 = _value
    op_BINBYTES = op_SHORT_BINBYTES = op_BINBYTES8 = _value

    def _ascii(self, arg: Any) -> None:
        data = arg if isinstance(arg, bytes) else str(arg).encode("latin-1")
        self.push(data.decode("ascii"))

    op_STRING = op_BINSTRING = op_SHORT_BINSTRING = _ascii

    def op_BYTEARRAY8(self, arg: bytes) -> None:
        self.push(bytes(arg))

    def op_NONE(self, arg: None) -> None:
        self.push(None)

    def op_NEWTRUE(self, arg: None) -> None:
        self.push(True)

    def op_NEWFALSE(self, arg: None) -> None:
        self.push(False)

    def op_MARK(self, arg: None) -> None:
        self.count()
        self.metastack.append(self.stack)
        self.stack = []

    def op_POP(self, arg: None) -> None:
        if not self.stack:
            raise self.fail("it is truncated or not a newsml model (the pickle is malformed)")
        self.stack.pop()

    def op_POP_MARK(self, arg: None) -> None:
        self.pop_mark()

    def op_DUP(self, arg: None) -> None:
        self.push(self.top())

    # -- containers ---------------------------------------------------------------------
    def op_EMPTY_LIST(self, arg: None) -> None:
        self.push([], container=True)

    def op_EMPTY_DICT(self, arg: None) -> None:
        self.push({}, container=True)

    def op_EMPTY_SET(self, arg: None) -> None:
        self.push(set(), container=True)

    def op_ADDITEMS(self, arg: None) -> None:
        items = self.pop_mark()
        target = self.top()
        if not isinstance(target, set) or not all(isinstance(item, _KEYS) for item in items):
            raise self.fail("it adds items to something other than a set, or items no set holds")
        target.update(items)

    def op_FROZENSET(self, arg: None) -> None:
        items = self.pop_mark()
        if not all(isinstance(item, _KEYS) for item in items):
            raise self.fail("it holds a set of items no set holds")
        self.push(frozenset(items), container=True)

    def op_EMPTY_TUPLE(self, arg: None) -> None:
        self.push(())

    def op_TUPLE(self, arg: None) -> None:
        self.push(tuple(self.pop_mark()), container=True)

    def op_TUPLE1(self, arg: None) -> None:
        self.push((self.pop(),), container=True)

    def op_TUPLE2(self, arg: None) -> None:
        second, first = self.pop(), self.pop()
        self.push((first, second), container=True)

    def op_TUPLE3(self, arg: None) -> None:
        third, second, first = self.pop(), self.pop(), self.pop()
        self.push((first, second, third), container=True)

    def op_LIST(self, arg: None) -> None:
        self.push(self.pop_mark(), container=True)

    def op_DICT(self, arg: None) -> None:
        items = self.pop_mark()
        target: dict[Any, Any] = {}
        self._set_items(target, items)
        self.push(target, container=True)

    def _list(self) -> list[Any]:
        target = self.top()
        if not isinstance(target, list):
            raise self.fail("it appends to something other than a list")
        return target

    def op_APPEND(self, arg: None) -> None:
        value = self.pop()
        self._list().append(value)

    def op_APPENDS(self, arg: None) -> None:
        items = self.pop_mark()
        self._list().extend(items)

    def _set_items(self, target: Any, items: list[Any]) -> None:
        if not isinstance(target, dict) or len(items) % 2:
            raise self.fail("it sets items of something other than a dict")
        for key, value in zip(items[::2], items[1::2]):
            if not isinstance(key, _KEYS):
                raise self.fail(f"it holds a dict keyed by a {type(key).__name__}")
            target[key] = value

    def op_SETITEM(self, arg: None) -> None:
        value, key = self.pop(), self.pop()
        self._set_items(self.top(), [key, value])

    def op_SETITEMS(self, arg: None) -> None:
        items = self.pop_mark()
        self._set_items(self.top(), items)

    # -- the memo -----------------------------------------------------------------------
    def _put(self, index: int) -> None:
        self.count()
        self.memo[index] = self.top()

    op_PUT = op_BINPUT = op_LONG_BINPUT = _put

    def op_MEMOIZE(self, arg: None) -> None:
        self._put(len(self.memo))

    def _get(self, index: int) -> None:
        if index not in self.memo:
            raise self.fail("it is truncated or not a newsml model (the pickle is malformed)")
        self.push(self.memo[index])

    op_GET = op_BINGET = op_LONG_BINGET = _get

    # -- names, calls and states: never run -------------------------------------------------
    def _name(self, module: str, name: str) -> None:
        if (module, name) in _NUMPY_TYPES:
            self.push(_Global(module, name))
            return
        self.push(_Global(module, name, allowed_class(self.source, module, name)))

    def op_GLOBAL(self, arg: str) -> None:
        module, _, name = arg.partition(" ")
        self._name(module, name)

    def op_STACK_GLOBAL(self, arg: None) -> None:
        name, module = self.pop(), self.pop()
        if not isinstance(module, str) or not isinstance(name, str):
            raise self.fail("it names a global by something other than strings")
        self._name(module, name)

    def op_REDUCE(self, arg: None) -> None:
        args, called = self.pop(), self.pop()
        if not isinstance(called, _Global):
            raise self.fail("it calls something other than a class")
        if (called.module, called.name) != ("numpy", "dtype"):
            raise ModelError(f"refusing to load {self.source}: it calls {called.module}.{called.name}, "
                             "which model files never do (nothing in the file was run)")
        if not isinstance(args, tuple) or not args or not isinstance(args[0], str):
            raise self.fail("it asks for a numpy type by something other than its name")
        self.push(_Type(self._dtype(args[0])))

    def _dtype(self, name: str) -> np.dtype:
        try:
            dtype = np.dtype(name)
        except (TypeError, ValueError, SyntaxError):
            raise self.fail(f"it asks for the numpy type {name!r}, which does not exist") from None
        if dtype.kind not in ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
            raise ModelError(f"refusing to load {self.source}: it holds an array of type {dtype.str!r}; "
                             "model files hold arrays of numbers only")
        return dtype

    def op_NEWOBJ(self, arg: None) -> None:
        args, cls = self.pop(), self.pop()
        self._new(cls, args, {})

    def op_NEWOBJ_EX(self, arg: None) -> None:
        kwargs, args, cls = self.pop(), self.pop(), self.pop()
        self._new(cls, args, kwargs)

    def _new(self, cls: Any, args: Any, kwargs: Any) -> None:
        if not isinstance(cls, _Global) or args != () or kwargs != {}:
            raise self.fail("it makes an object in a way model files do not")
        if (cls.module, cls.name) == _ARRAY_WRAPPER:
            self.push(_Wrapper(), container=True)
        elif cls.cls is None:
            raise ModelError(f"refusing to load {self.source}: it makes a {cls.module}.{cls.name} "
                             "directly, which model files never do (nothing in the file was run)")
        else:
            self.push(Instance(cls.cls), container=True)

    def op_BUILD(self, arg: None) -> None:
        state = self.pop()
        target = self.top()
        if isinstance(target, _Type):
            self.stack[-1] = self._typed(target, state)
        elif isinstance(target, _Wrapper):
            self.stack[-1] = self._array(state)
        elif isinstance(target, Instance) and target.state is None:
            if isinstance(state, tuple) and len(state) == 2 and state[1] is None:
                state = state[0]        # (dict state, no slots)
            if not isinstance(state, dict):
                raise self.fail(f"the state of a {target.cls.__name__} is not a set of attributes")
            target.state = state
        elif isinstance(target, _Global):
            raise ModelError(f"refusing to load {self.source}: it sets attributes of the class "
                             f"{target.module}.{target.name}, which model files never do (nothing in "
                             "the file was run)")
        else:
            raise self.fail("it sets the state of something that is not a new object")

    def _typed(self, pending: _Type, state: Any) -> np.dtype:
        """The numpy type, in the byte order its state gives (its other fields must be
        empty: no subarray, no fields, no object flags)."""
        if not isinstance(state, tuple) or len(state) not in (8, 9) or state[0] not in (3, 4):
            raise self.fail("it holds a numpy type of a form newsml does not read")
        _, order, subarray, names, fields = state[:5]
        if subarray is not None or names is not None or fields is not None \
                or order not in ("<", ">", "|", "="):
            raise ModelError(f"refusing to load {self.source}: it holds a structured numpy type; model files "
                             "hold arrays of numbers only")
        dtype = pending.dtype
        return dtype.newbyteorder(order) if order in "<>" and dtype.itemsize > 1 else dtype

    def _array(self, state: Any) -> np.ndarray:
        """The array after a joblib wrapper's BUILD: its bytes follow in the stream."""
        if not isinstance(state, dict):
            raise self.fail("a numpy array's wrapper has no attributes")
        subclass, shape, order, dtype = (state.get(k) for k in ("subclass", "shape", "order", "dtype"))
        if isinstance(dtype, _Type):
            dtype = dtype.dtype
        if not (isinstance(subclass, _Global) and (subclass.module, subclass.name) == ("numpy", "ndarray")):
            raise self.fail("it holds an array of a type other than numpy's")
        if not isinstance(dtype, np.dtype) or order not in ("C", "F") or not isinstance(shape, tuple) \
                or not all(type(n) is int and n >= 0 for n in shape):
            raise self.fail("it holds an array of a form newsml does not read")
        alignment = state.get("numpy_array_alignment_bytes")
        if alignment is not None:
            padding = self.stream.read(1)
            if padding:
                self.stream.read(padding[0])
        size = math.prod(shape) * dtype.itemsize
        if size > self.size - self.stream.tell():
            raise self.fail("it is truncated (an array's bytes are not all in the file)")
        buffer = bytearray(size)
        self.stream.readinto(buffer)
        flat = np.frombuffer(buffer, dtype=dtype)
        array = flat.reshape(shape[::-1]).T if order == "F" else flat.reshape(shape)
        return array if dtype.isnative else array.astype(dtype.newbyteorder("="))


__all__ = ["decompress", "read", "refuse_global"]
