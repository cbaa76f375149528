"""Which of newsml's optional compiled modules this process uses.

Installing with a C compiler at hand builds Cython modules that do a few hot loops in C
(``setup.py``); each has a Python counterpart that gives the same results, used when the
module was not built, or when ``NEWSML_PURE_PYTHON`` is set (to anything but 0, false or
no; read when the module that wants it is imported).
"""

from __future__ import annotations

import importlib
import logging
import os
from types import ModuleType

log = logging.getLogger(__name__)


def pure_python() -> bool:
    """Whether ``NEWSML_PURE_PYTHON`` asks for the Python code everywhere."""
    return os.environ.get("NEWSML_PURE_PYTHON", "").strip().lower() not in ("", "0", "false", "no")


def compiled_module(name: str) -> ModuleType | None:
    """The compiled module ``newsml.<name>``, or None: when it was not built (or fails to
    load), when :func:`pure_python` says so, or when it reads lxml's C structures
    (``BUILT_FOR_LXML``) and was compiled against another version of lxml than the one in use."""
    if pure_python():
        return None
    try:
        module = importlib.import_module(f"newsml.{name}")
    except (ImportError, ValueError) as exc:   # (lxml's C structures checked at import: ValueError)
        log.debug("newsml.%s is not compiled here: its Python counterpart is used (%s)", name, exc)
        return None
    built_for = getattr(module, "BUILT_FOR_LXML", None)
    if built_for is not None:
        from lxml import etree

        if etree.__version__ != built_for:
            log.debug("newsml.%s was compiled for lxml %s, not %s: its Python counterpart is used",
                      name, built_for, etree.__version__)
            return None
    return module
