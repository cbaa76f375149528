"""The one seam between newsml's Python code and its optional compiled modules.

Installing with a C compiler at hand builds a Cython module for each of a few hot loops
(every ``newsml/**/*.pyx``, see ``setup.py``); each sits beside the Python module that
holds its twin, the same computation in Python. :data:`SPEEDUPS` names them all. A caller
asks :func:`choose` for a function once, at import, and gets one that runs the compiled
form where it is in use and the twin otherwise: no caller asks which.

A compiled module is in use unless ``NEWSML_PURE_PYTHON`` is set (to anything but 0,
false or no; read when a module is first asked for), it was not built (no compiler at
install: newsml says so only at debug level), or it cannot be used: it fails to import, or
it reads lxml's C structures and was built against another lxml than the one installed.
Those last two were expected to work, so they are a :class:`RuntimeWarning`.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import logging
import os
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, TypeVar, cast

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Speedup:
    """A compiled module: the modules that hold its Python twins (and choose between the
    two), what it does in C, and whether it reads lxml's C structures."""

    twins: tuple[str, ...]
    does: str
    reads_lxml: bool = False


#: Every compiled module, by its name under ``newsml``.
SPEEDUPS: dict[str, Speedup] = {
    "core._text_counts": Speedup(
        ("newsml.core.text", "newsml.features.prose"),
        "counts of marked characters and of the prose family's classes, a text at a time"),
    "input._page_bytes": Speedup(
        ("newsml.input.sanitize",),
        "the look at a UTF-8 page's bytes that decides whether they go to the parser as they are"),
    "input._cleaning": Speedup(
        ("newsml.input.clean", "newsml.input.declared"),
        "the hidden elements a parsed page loses, and the elements that declare its metadata",
        reads_lxml=True),
    "dom._walk": Speedup(
        ("newsml.dom.walk", "newsml.features.repetition"),
        "the segmentation walk, the elements' kinds of attributes, and alike siblings counted",
        reads_lxml=True),
    "dom._tree_passes": Speedup(
        ("newsml.dom.nodes",), "the block tree's passes: depths, sums up the tree, values handed down"),
    "estimators._quickscorer": Speedup(
        ("newsml.estimators.trees",), "the boosted trees' leaf masks read row by row"),
    "methods._markup_tokens": Speedup(
        ("newsml.methods.markup",), "the markup family's class and id words and its sums of token weights"),
    "features._semantic_marks": Speedup(
        ("newsml.features.semantics",), "the semantics family's marks of each kind of element"),
}

_python_only = False


def pure_python() -> bool:
    """Whether ``NEWSML_PURE_PYTHON`` asks for the Python twins everywhere."""
    return os.environ.get("NEWSML_PURE_PYTHON", "").strip().lower() not in ("", "0", "false", "no")


def loaded(name: str) -> ModuleType | None:
    """The compiled module ``newsml.<name>`` of :data:`SPEEDUPS` when it is in use here, else
    None (:func:`status` says why)."""
    return _load(name)[0]


def status(name: str) -> str:
    """"in use", or why the compiled module ``newsml.<name>`` is not."""
    return _load(name)[1]


@cache
def _load(name: str) -> tuple[ModuleType | None, str]:
    if name not in SPEEDUPS:
        raise KeyError(f"newsml.{name} is no compiled module of newsml (see SPEEDUPS)")
    if pure_python():
        return None, "turned off by NEWSML_PURE_PYTHON"
    full = f"newsml.{name}"
    try:
        built = importlib.util.find_spec(full) is not None
    except (ImportError, ValueError):
        built = False
    if not built:
        log.debug("%s is not compiled here (no C compiler at install): its Python twin is used", full)
        return None, ("not built (no C compiler at install), or not on the import path "
                      "(python -m pytest runs the source folder, not the installed package)")
    try:
        module = importlib.import_module(full)
    except (ImportError, ValueError) as exc:   # (lxml's C structures checked at import: ValueError)
        return _unusable(full, f"it cannot be imported ({exc})")
    built_for = getattr(module, "BUILT_FOR_LXML", None)   # (set by those that read lxml's C structures)
    if built_for is not None and built_for != lxml_build():
        return _unusable(full, f"it was built for lxml {built_for}, not for the installed {lxml_build()}")
    return module, "in use"


def lxml_build() -> str:
    """The installed lxml's version and the libxml2 version it was compiled with: the C
    structures a compiled module that reads them was built against must be these."""
    from lxml import etree

    return f"{etree.__version__} libxml2 {'.'.join(map(str, etree.LIBXML_COMPILED_VERSION))}"


def _unusable(full: str, why: str) -> tuple[None, str]:
    warnings.warn(f"{full} is installed but not used: {why}; its Python twin is used (the same "
                  "results, slower). Reinstall newsml to rebuild it.", RuntimeWarning, stacklevel=4)
    return None, f"unusable: {why}"


def choose(name: str, python: F, compiled: str | Callable[[ModuleType], Callable[..., Any] | None]) -> F:
    """``python``, or the compiled form of it that the module ``newsml.<name>`` gives where it
    is in use: its attribute ``compiled``, or what ``compiled(module)`` makes of the module
    (None: the twin). Within :func:`python_only` the returned function runs the twin."""
    module = loaded(name)
    fast: Callable[..., Any] | None = None
    if module is not None:
        fast = getattr(module, compiled) if isinstance(compiled, str) else compiled(module)
    if fast is None:
        return python

    def chosen(*args: Any, **kwargs: Any) -> Any:
        return (python if _python_only else fast)(*args, **kwargs)

    chosen.__doc__ = python.__doc__
    chosen.__name__ = getattr(python, "__name__", "chosen")
    return cast(F, chosen)


@contextlib.contextmanager
def python_only() -> Iterator[None]:
    """Every function of :func:`choose` runs its Python twin until the block ends: how the
    twins' equality with the compiled forms is tested in one process."""
    global _python_only
    before, _python_only = _python_only, True
    try:
        yield
    finally:
        _python_only = before
