"""What every extraction method is: a scorer of text nodes with a fit/predict interface.

A method is a :class:`NodeMethod` subclass in one module of this package. Its class
declares what the rest of newsml needs to know of it, and defining it registers it:

- ``name`` and ``summary``: how users call it and what ``newsml methods`` says of it;
- ``requires_fit``: it cannot score pages before ``fit`` (learned methods);
- ``ships_model``: a model trained for it ships in ``models/`` and is what its name
  gives (``scripts/train_models.py`` trains every such method);
- ``search_space``: parameter values that training may choose among by page F1
  (:func:`newsml.measure.model_selection.grid_search`);
- :meth:`NodeMethod.feature_names`: the columns it learns from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ..core.params import Parametrized, raise_not_fitted
from ..core.registry import Registry
from ..dom.page import Page
from ..errors import ConfigurationError

#: The method behind the name "default".
DEFAULT_METHOD = "fusion"

_METHODS: Registry[NodeMethod] = Registry("newsml.methods", "method")


class NodeMethod(Parametrized):
    """Scores each text node of a page in [0, 1]; :meth:`select` picks the article's nodes.

    ``X`` is a sequence of pages (:class:`~newsml.dom.page.Page`), ``y`` the matching
    per-node 0/1 labels (:func:`newsml.measure.align.align_labels`). Rule-based methods keep the
    paper's constants as constructor parameters and need no ``fit``; learned methods
    set ``requires_fit`` and keep their fitted state in ``_`` attributes.

    Methods follow scikit-learn's estimator protocol (``get_params``, ``set_params``,
    ``sklearn.base.clone``) without inheriting from scikit-learn, so that loading a
    model imports no scikit-learn (see :mod:`newsml.core.params`).
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    requires_fit: ClassVar[bool] = False
    ships_model: ClassVar[bool] = False
    search_space: ClassVar[dict[str, list[Any]]] = {}
    #: Parameters that act at prediction only: ``extract(page, name, **them)`` applies them
    #: to a copy of the shipped model instead of asking for a fresh, untrained instance.
    prediction_params: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("name"):
            _METHODS.add(cls, cls.name)

    def fit(self, X: Sequence[Page], y: Sequence[np.ndarray] | None = None,
            groups: Sequence[object] | None = None) -> NodeMethod:
        """Learn from pages and their per-node labels; rules keep their parameters.

        ``groups`` (one per page, e.g. its site) keep a group's pages on one side of any
        internal cross-validation, so internal choices generalize to unseen groups.
        """
        return self

    def check_params(self) -> None:
        """Raise :class:`~newsml.errors.ConfigurationError` for a parameter that ``fit``
        would refuse. Training calls it before it reads any page, so that a wrong setting
        fails at once, not after the pages are read and a fold has run."""

    def score_nodes(self, page: Page) -> np.ndarray:
        """One score in [0, 1] per text node of ``page`` (``len(page.nodes)`` values)."""
        raise NotImplementedError

    def select(self, page: Page, scores: np.ndarray) -> np.ndarray:
        """Boolean mask of the nodes that make up the article, from their scores."""
        return scores >= 0.5

    def predict(self, X: Sequence[Page]) -> list[np.ndarray]:
        """Per page, the boolean mask of its article nodes."""
        return [self.select(page, self.score_nodes(page)) for page in X]

    def feature_names(self) -> list[str]:
        """Names of the columns the method learns from (none for rule methods)."""
        return []

    def _reset(self) -> None:
        """Forget what an earlier ``fit`` learned (a new fit starts from scratch)."""
        for key in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, key)

    def __sklearn_is_fitted__(self) -> bool:
        """Rule methods are usable as built; learned ones once ``fit`` has run."""
        if not self.requires_fit:
            return True
        return any(key.endswith("_") and not key.startswith("_") for key in vars(self))


def check_fitted(method: NodeMethod, attribute: str) -> None:
    """Raise scikit-learn's NotFittedError unless ``method`` has the fitted ``attribute``
    (``check_is_fitted(method, attribute)``, without importing scikit-learn when it has)."""
    if not hasattr(method, attribute):
        raise_not_fitted(method, attribute)


def methods() -> dict[str, type[NodeMethod]]:
    """Every registered method class by name."""
    return _METHODS.all()


def shipped_names() -> list[str]:
    """Names of the methods whose trained model ships with newsml."""
    return sorted(name for name, cls in methods().items() if cls.ships_model)


def ready_names() -> list[str]:
    """Names of the methods usable as installed: rule methods and methods whose model ships."""
    return sorted(name for name, cls in methods().items() if cls.ships_model or not cls.requires_fit)


#: What to do with the ``adapted`` method, which no name alone can give (it is listed by
#: ``newsml methods``, but registered only once :mod:`newsml.learning.adaptation` is imported).
ADAPTED_HINT = ("an adapted model is made from your labeled pages of a site: newsml train PAGES --base "
                "default -o site.joblib (or NewsExtractor(base='default').fit), then give it with "
                "--model site.joblib (or load_model)")


def resolve_name(name: str) -> str:
    """The registered name behind ``name`` ("default" -> the current default method)."""
    key = name.strip().lower()
    if key == "default":
        return DEFAULT_METHOD
    if key not in methods():
        if key == "adapted":         # (adaptation not imported yet)
            raise ConfigurationError(ADAPTED_HINT)
        known = ", ".join(["default", *sorted(methods())])
        raise ConfigurationError(f"unknown method {name!r}: choose one of {known}")
    return key


def method_class(name: str) -> type[NodeMethod]:
    """The class of the method called ``name`` ("default" included)."""
    return methods()[resolve_name(name)]


def new_method(name: str, **options: Any) -> NodeMethod:
    """A fresh (untrained) instance of the method called ``name``."""
    cls = method_class(name)
    try:
        return cls(**options)
    except TypeError as exc:
        raise ConfigurationError(f"bad option for method {cls.name!r}: {exc}") from None


def describe() -> dict[str, str]:
    """Method name -> one-line description, "default" first."""
    return {"default": f"the recommended method: the shipped {DEFAULT_METHOD} model",
            **{name: cls.summary for name, cls in sorted(methods().items())}}
