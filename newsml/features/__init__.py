"""Feature transformers: parsed pages in, one row per text node out (FeatureUnion-ready)."""

from .base import NodeFeatures
from .blocks import NaiveBayesFeatures
from .cedst import HyperlinkFeature, TextClusterFeature, TextVarianceFeature
from .semantics import SemanticFeatures
from .shape import ShapeFeatures
from .topic import TopicFeature

__all__ = ["NodeFeatures", "NaiveBayesFeatures", "TextClusterFeature", "TextVarianceFeature",
           "HyperlinkFeature", "TopicFeature", "ShapeFeatures", "SemanticFeatures"]
