"""``NewsExtractor``: the page-level estimator, raw HTML in, article text out.

It fits the node model of a method from pages and their gold texts, predicts article
texts, and is a transformer, so it can head a scikit-learn pipeline::

    make_pipeline(NewsExtractor(), TfidfVectorizer(), LogisticRegression())

In such a pipeline ``fit`` receives the pipeline's target (classes, not article texts).
With ``train="auto"`` the extractor trains on ``y`` only when it looks like gold text
(strings, most of them at least ``MIN_GOLD_TOKENS`` tokens long); otherwise it uses
the method as shipped and ignores ``y``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .article import ensure_usable
from .core.progress import ProgressHook, hook
from .core.text import tokens
from .errors import ConfigurationError, NewsmlError
from .extract import extract
from .learning.adaptation import AdaptedMethod
from .learning.persistence import get_method, load_model
from .learning.training import fit_method, labeled_pages
from .measure.scoring import macro, score
from .methods import NodeMethod, new_method

#: A target whose strings are mostly at least this many tokens long is gold text.
MIN_GOLD_TOKENS = 10

Page = bytes | str | Path


@dataclass(frozen=True)
class _Gold:
    """A labeled page built from an in-memory (html, gold) pair."""

    id: str
    html: Page
    gold: str


class NewsExtractor(TransformerMixin, BaseEstimator):
    """Extract article texts from HTML pages with a newsml method.

    Parameters
    ----------
    method : str
        A method name (``newsml methods``); "default" is the shipped fusion model.
    method_params : dict or None
        Parameters of the method when it is trained here (a fresh instance).
    model : str, Path or None
        A model file (``newsml train -o``) to use instead of ``method``; never retrained
        (gold ``y`` then only serves :meth:`score`).
    base : str, Path, NodeMethod or None
        Adapt this model ("default": the shipped one; a model file; a method) to the
        pages of ``fit`` (:class:`~newsml.learning.adaptation.AdaptedMethod`) instead of training
        ``method`` from scratch: a few labeled pages of one site are enough.
    train : "auto", True or False
        Whether ``fit`` trains the method on ``y`` as gold texts (see module notes).
    min_share : float
        Share of a node's tokens that must align with the gold to label it content.
    on_error : "raise" or "empty"
        A page that is not HTML raises, or (with a warning) yields an empty text.
    """

    def __init__(self, method: str = "default", method_params: dict[str, Any] | None = None,
                 model: str | Path | None = None, train: str | bool = "auto", min_share: float = 0.5,
                 on_error: str = "raise", base: str | Path | NodeMethod | None = None):
        self.method = method
        self.method_params = method_params
        self.model = model
        self.base = base
        self.train = train
        self.min_share = min_share
        self.on_error = on_error

    def fit(self, X: Sequence[Page], y: Sequence[Any] | None = None, *,
            progress: ProgressHook | None = None) -> NewsExtractor:
        """Train the method on pages ``X`` and gold texts ``y``, or take it as shipped.

        ``progress`` (see :mod:`newsml.core.progress`) hears of each training page read.
        """
        if self.on_error not in ("raise", "empty"):
            raise ConfigurationError(f"on_error must be 'raise' or 'empty', not {self.on_error!r}")
        pages = _page_list(X)
        if self._trains_on(y):
            golds = list(y) if y is not None else []
            if len(pages) != len(golds):
                raise ValueError(f"{len(pages)} pages but {len(golds)} gold texts")
            method = self._new_method()
            progress = hook(progress)
            progress.start("reading and aligning", len(pages))
            kept, skipped = labeled_pages(
                (_Gold(str(i), page, gold) for i, (page, gold) in enumerate(zip(pages, golds))),
                min_share=self.min_share, progress=progress)
            if skipped:
                warnings.warn(f"{len(skipped)} training pages were skipped (the warnings before say why)",
                              stacklevel=2)
            self.method_, _ = fit_method(method, [page for _, page, _ in kept], [lab for _, _, lab in kept])
            self.n_train_pages_ = len(kept)
        else:
            self.method_ = self._shipped_method()
            ensure_usable(self.method_)  # fail now, not at every predict
            self.n_train_pages_ = 0
        return self

    def predict(self, X: Sequence[Page]) -> list[str]:
        """The article text of each page (paragraphs joined by newlines)."""
        check_is_fitted(self, "method_")
        return [self._extract(page) for page in _page_list(X)]

    def transform(self, X: Sequence[Page]) -> list[str]:
        """Same as :meth:`predict`: article texts, ready for a text vectorizer."""
        return self.predict(X)

    def score(self, X: Sequence[Page], y: Sequence[str]) -> float:
        """Macro token F1 of the predicted texts against gold texts ``y`` (for model selection)."""
        pages, golds = _page_list(X), list(y)
        if len(pages) != len(golds):
            raise ValueError(f"{len(pages)} pages but {len(golds)} gold texts")
        return macro(score(text, gold) for text, gold in zip(self.predict(pages), golds)).f1

    def _extract(self, page: Page) -> str:
        try:
            return extract(page, method=self.method_).text
        except NewsmlError as exc:
            if self.on_error == "raise":
                raise
            warnings.warn(f"page skipped: {exc}", stacklevel=3)
            return ""

    def _trains_on(self, y: Sequence[Any] | None) -> bool:
        if self.train not in ("auto", True, False):
            raise ConfigurationError(f"train must be 'auto', True or False, not {self.train!r}")
        if self.base is not None and self.model is not None:
            raise ConfigurationError("a model file is used as it is; to adapt it, give it as base")
        if self.train is True and self.model is not None:
            raise ConfigurationError("a model file is used as it is; drop `model` to train here")
        if y is None or self.train is False:
            if self.train is True:
                raise ConfigurationError("train=True needs gold texts as y")
            return False
        if self.train is True:
            return True
        if self.model is not None:  # "auto" with a model file: y is for scoring, not training
            return False
        values = list(y)
        if not values or not all(isinstance(v, str) for v in values):
            return False
        long_enough = sum(len(tokens(v)) >= MIN_GOLD_TOKENS for v in values)
        return long_enough * 2 > len(values)

    def _new_method(self) -> NodeMethod:
        """What ``fit`` trains: the base adapted, or a fresh ``method``."""
        if self.base is None:
            return new_method(self.method, **(self.method_params or {}))
        if self.method != "default":
            raise ConfigurationError(f"give either base (adapt a trained model) or method={self.method!r} "
                                     "(train one from scratch), not both")
        return AdaptedMethod(base=self.base, **(self.method_params or {}))

    def _shipped_method(self) -> NodeMethod:
        if self.base is not None:   # nothing to adapt to: the base as it is
            return AdaptedMethod(base=self.base).base_method()
        if self.model is not None:
            return load_model(self.model)[0]
        return get_method(self.method, **(self.method_params or {}))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        tags.requires_fit = True
        return tags


__all__ = ["NewsExtractor"]


def _page_list(X: Any) -> list[Any]:
    """The pages of ``X``, a sequence of pages; one page alone (HTML text or bytes, not in a
    list) is refused: iterated, it would be read as one page per character."""
    if isinstance(X, (str, bytes, bytearray, memoryview)):
        raise TypeError("X must be a sequence of pages (HTML text, bytes or paths), not one page: "
                        "give [page]")
    return list(X)
