"""scikit-learn estimators of the papers: they work on any numeric X.

They import scikit-learn, so they are imported on first use: prediction needs only
their fitted state (:mod:`.frozen`, :mod:`.trees`), which does not.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .dempster_shafer import DempsterShaferClassifier
    from .naive_bayes import PAPER_BINS, DiscretizedNaiveBayes

_HOMES = {"DempsterShaferClassifier": "dempster_shafer", "DiscretizedNaiveBayes": "naive_bayes",
          "PAPER_BINS": "naive_bayes"}

__all__ = ["DempsterShaferClassifier", "DiscretizedNaiveBayes", "PAPER_BINS"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
