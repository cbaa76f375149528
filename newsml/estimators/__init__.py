"""scikit-learn estimators of the papers: they work on any numeric X."""

from .dempster_shafer import DempsterShaferClassifier
from .naive_bayes import PAPER_BINS, DiscretizedNaiveBayes

__all__ = ["DempsterShaferClassifier", "DiscretizedNaiveBayes", "PAPER_BINS"]
