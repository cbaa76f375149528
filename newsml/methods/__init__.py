"""The registry of extraction methods, reachable by name.

A name without options gives the method as shipped: rule methods as the papers define
them, learned methods with the model trained for them in ``models/`` (when there is
one). Options give a fresh, untrained instance with those parameters.
"""

from __future__ import annotations

from typing import Any

from ..errors import NewsmlError
from .base import NodeMethod
from .cedst import Cedst, CedstNoContent, CedstTopic
from .cepr import Cepr
from .cetd import Cetd
from .cetr import Cetr
from .econ import Econ
from .fusion import Fusion
from .nb import NaiveBayesMethod
from .title_relevance import TitleRelevance
from .twcem import Twcem

#: Method name -> class. "default" is resolved by :func:`resolve_name`.
METHODS: dict[str, type[NodeMethod]] = {
    cls.name: cls for cls in (Econ, NaiveBayesMethod, Cedst, CedstNoContent, CedstTopic, Fusion,
                              Twcem, TitleRelevance, Cetr, Cepr, Cetd)
}
#: The method behind "default": the shipped fusion model.
DEFAULT = "fusion"


def resolve_name(name: str) -> str:
    """The registered name behind ``name`` ("default" -> the current default method)."""
    key = name.strip().lower()
    if key == "default":
        return DEFAULT
    if key not in METHODS:
        known = ", ".join(["default", *sorted(METHODS)])
        raise NewsmlError(f"unknown method {name!r}: choose one of {known}")
    return key


def new_method(name: str, **options: Any) -> NodeMethod:
    """A fresh (untrained) instance of the method called ``name``."""
    cls = METHODS[resolve_name(name)]
    try:
        return cls(**options)
    except TypeError as exc:
        raise NewsmlError(f"bad option for method {cls.name!r}: {exc}") from None


def get_method(name: str = "default", **options: Any) -> NodeMethod:
    """The method called ``name``: its shipped model when it has one and no options are given."""
    key = resolve_name(name)
    if not options:
        from ..persistence import load_model, shipped_model_path

        path = shipped_model_path(key)
        if path is not None:
            return load_model(path)[0]
        if METHODS[key].requires_fit:
            raise NewsmlError(f"method {key!r} must be trained and no model for it is installed: "
                              f"run `newsml train CORPUS --method {key} -o MODEL.joblib`")
    return new_method(key, **options)


def describe() -> dict[str, str]:
    """Method name -> one-line description, "default" first."""
    return {"default": f"the recommended method: the shipped {DEFAULT} model",
            **{name: cls.summary for name, cls in sorted(METHODS.items())}}


__all__ = ["METHODS", "DEFAULT", "NodeMethod", "get_method", "new_method", "resolve_name", "describe"]
