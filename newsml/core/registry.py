"""Self-registering classes: a subclass with a ``name`` is findable by that name.

Methods and feature families each live in one module of their package. Rather than a
list to edit next to every new module, each class registers itself when its module is
imported, and the registry imports every module of its package on first use. Adding
a method or a feature family is then one new file.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """Classes by name, filled by the classes themselves (see :meth:`add`)."""

    def __init__(self, package: str, what: str):
        self.package = package
        self.what = what
        self._classes: dict[str, type[T]] = {}
        self._discovered = False

    def add(self, cls: type[T], name: str) -> None:
        """Register ``cls`` under ``name`` (a later class of the same name is an error)."""
        known = self._classes.get(name)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise TypeError(f"two {self.what}s are named {name!r}: "
                            f"{known.__qualname__} and {cls.__qualname__}")
        self._classes[name] = cls

    def _discover(self) -> None:
        """Import every module of the package, once, so that its classes register."""
        if not self._discovered:
            module = importlib.import_module(self.package)
            for info in pkgutil.iter_modules(module.__path__):
                if not info.name.startswith("_"):
                    importlib.import_module(f"{self.package}.{info.name}")
            self._discovered = True

    def all(self) -> dict[str, type[T]]:
        """Every registered class by name (a copy)."""
        self._discover()
        return dict(self._classes)

    def get(self, name: str) -> type[T] | None:
        """The class registered as ``name``, or None (no copy: fusion looks families up
        for every page)."""
        self._discover()
        return self._classes.get(name)
