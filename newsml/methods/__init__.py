"""Extraction methods, reachable by name.

Each method is one module here; its class registers itself (see :mod:`.base`). A name
gives the method as shipped through :func:`newsml.learning.persistence.get_method`: rule methods
as the papers define them, learned methods with the model trained for them.
"""

from __future__ import annotations

from .base import (
    DEFAULT_METHOD,
    NodeMethod,
    describe,
    method_class,
    methods,
    new_method,
    ready_names,
    resolve_name,
    shipped_names,
)

__all__ = ["DEFAULT_METHOD", "NodeMethod", "describe", "method_class", "methods", "new_method",
           "ready_names", "resolve_name", "shipped_names"]
