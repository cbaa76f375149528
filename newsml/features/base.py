"""The common shape of feature families: pages in, one row per text node out.

A family is a :class:`NodeFeatures` subclass with a ``name``; defining it registers it,
so ``Fusion(evidence=(..., name))`` and CEDST find it by that name. Adding a family is
one new module in this package (see :func:`families`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ..core.params import Parametrized
from ..core.registry import Registry
from ..dom.page import Page

_FAMILIES: Registry[NodeFeatures] = Registry("newsml.features", "feature family")


class NodeFeatures(Parametrized):
    """Turns parsed pages into a matrix with one row per text node (pages concatenated).

    Rows follow the pages in order and the nodes of each page in document order, so
    every family lines up row for row inside a :class:`~sklearn.pipeline.FeatureUnion`.
    Subclasses implement :meth:`page_features` and declare:

    - ``name``: the evidence name the family is found by (none: not registered);
    - ``feature_names``: its output columns;
    - ``polarity``: +1 when high values support content in its paper, -1 against,
      0 when the sign is left to learning.

    A scikit-learn transformer by protocol, not by inheritance: prediction computes
    features without importing scikit-learn (see :mod:`newsml.core.params`).
    """

    name: ClassVar[str] = ""
    feature_names: ClassVar[tuple[str, ...]] = ()
    polarity: ClassVar[int] = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("name"):
            _FAMILIES.add(cls, cls.name)

    def fit(self, pages: Sequence[Page], y: object = None) -> NodeFeatures:
        """Nothing to learn: features are computed per page. Returns self."""
        self.n_features_out_ = len(self.feature_names)
        return self

    def transform(self, pages: Sequence[Page]) -> np.ndarray:
        """Stacked rows of every page's text nodes."""
        width = len(self.feature_names)
        blocks = [self.page_features(page) for page in pages]
        if not blocks:
            return np.zeros((0, width))
        return np.vstack([block.reshape(-1, width) for block in blocks])

    def fit_transform(self, pages: Sequence[Page], y: object = None) -> np.ndarray:
        """``fit(pages).transform(pages)``."""
        return self.fit(pages, y).transform(pages)

    def page_features(self, page: Page) -> np.ndarray:
        """The rows of one page: shape ``(len(page.nodes), len(feature_names))``."""
        raise NotImplementedError

    def get_feature_names_out(self, input_features: object = None) -> np.ndarray:
        """Names of the output columns, prefixed by nothing (FeatureUnion adds its own)."""
        return np.asarray(self.feature_names, dtype=object)

    def __sklearn_tags__(self) -> Any:
        """A transformer's tags, for scikit-learn's meta-estimators."""
        from sklearn.utils import TransformerTags

        tags = super().__sklearn_tags__()
        tags.transformer_tags = TransformerTags()
        return tags


def families() -> dict[str, type[NodeFeatures]]:
    """Every registered feature family by name."""
    return _FAMILIES.all()


def family(name: str) -> type[NodeFeatures] | None:
    """The feature family registered as ``name``, or None."""
    return _FAMILIES.get(name)


def configured(cls: type[NodeFeatures], owner: Parametrized) -> NodeFeatures:
    """An instance of ``cls`` taking every parameter of its own that ``owner`` also has.

    CEDST's ``gamma`` and ``n_keywords``, for example, are the topic family's parameters.
    """
    shared = owner.get_params(deep=False)
    return cls(**{key: shared[key] for key in cls._get_param_names() if key in shared})
