"""The registry of extraction methods, reachable by name."""

from __future__ import annotations

from typing import Any

from ..errors import NewsmlError
from .base import NodeMethod
from .cedst import Cedst, CedstNoContent, CedstTopic
from .econ import Econ
from .fusion import Fusion
from .nb import NaiveBayesMethod

#: Method name -> class. "default" is resolved by :func:`resolve_name`.
METHODS: dict[str, type[NodeMethod]] = {
    cls.name: cls for cls in (Econ, NaiveBayesMethod, Cedst, CedstNoContent, CedstTopic, Fusion)
}
DEFAULT = "econ"


def resolve_name(name: str) -> str:
    """The registered name behind ``name`` ("default" -> the current default method)."""
    key = name.strip().lower()
    if key == "default":
        return DEFAULT
    if key not in METHODS:
        known = ", ".join(["default", *sorted(METHODS)])
        raise NewsmlError(f"unknown method {name!r}: choose one of {known}")
    return key


def get_method(name: str = "default", **options: Any) -> NodeMethod:
    """A new instance of the method called ``name``, with ``options`` as its parameters."""
    cls = METHODS[resolve_name(name)]
    try:
        return cls(**options)
    except TypeError as exc:
        raise NewsmlError(f"bad option for method {cls.name!r}: {exc}") from None


def describe() -> dict[str, str]:
    """Method name -> one-line description, "default" first."""
    return {"default": f"the recommended method (now: {DEFAULT})",
            **{name: cls.summary for name, cls in sorted(METHODS.items())}}


__all__ = ["METHODS", "DEFAULT", "NodeMethod", "get_method", "resolve_name", "describe"]
