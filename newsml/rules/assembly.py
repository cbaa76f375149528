"""Page assembly: from per-node scores to the nodes that make the article.

Smoothing of the scores in document order (:func:`newsml.core.signal.gaussian_smooth`),
then a cut: Otsu's threshold (:func:`newsml.core.signal.otsu_threshold`) or a fixed one.
:class:`Assembly` composes the two; methods hold one, and model selection
(:func:`newsml.measure.model_selection.choose_assembly`) picks one from candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from ..core.signal import gaussian_smooth, otsu_select
from ..errors import ConfigurationError


class Cut(Protocol):
    """Chooses the article's nodes from one page's (smoothed) scores."""

    def __call__(self, scores: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class OtsuCut:
    """Nodes above the page's Otsu threshold (``>= fallback`` when Otsu cannot split).

    With ``keep_above``, nodes scoring at least that stay whatever the threshold: Otsu
    always splits a page's scores in two, so on a page whose nodes are all confidently
    article (two paragraphs both scored near 1) it drops some of them. None (the
    papers' cut) keeps only what lies above the threshold.
    """

    step: float = 0.01
    fallback: float = 0.5
    keep_above: float | None = None

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        keep = otsu_select(scores, self.step, self.fallback)
        if self.keep_above is not None:
            keep |= scores >= self.keep_above
        return keep

    def __str__(self) -> str:
        return "otsu" if self.keep_above is None else f"otsu, or >= {self.keep_above:g}"


@dataclass(frozen=True)
class FixedCut:
    """Nodes whose score reaches ``threshold``, the same on every page."""

    threshold: float = 0.5

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        return scores >= self.threshold

    def __str__(self) -> str:
        return f"{self.threshold:g}"


@dataclass(frozen=True)
class Assembly:
    """Gaussian smoothing of ``sigma`` nodes, then a cut."""

    sigma: float = 0.0
    cut: Cut = field(default_factory=OtsuCut)

    def smooth(self, scores: np.ndarray) -> np.ndarray:
        """The scores smoothed along document order."""
        return gaussian_smooth(scores, self.sigma)

    def select(self, smoothed: np.ndarray) -> np.ndarray:
        """The article's nodes, from already smoothed scores."""
        return self.cut(smoothed)

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        """The article's nodes, from raw scores: smoothed, then cut."""
        return self.select(self.smooth(scores))


def as_cut(value: object) -> Cut:
    """A cut from a parameter value: a cut object, "otsu", or a number (a fixed threshold)."""
    if isinstance(value, (OtsuCut, FixedCut)):
        return value
    if value == "otsu":
        return OtsuCut()
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return FixedCut(float(value))
    if callable(value):
        return value
    raise ConfigurationError(f"cut must be 'otsu', a threshold in [0, 1] or a cut object, not {value!r}")
