"""newsml: pull the article (title and body text) out of news web pages.

>>> import newsml
>>> article = newsml.extract("<html><body><p>One sentence, with a comma.</p></body></html>", method="econ")
>>> article.text
'One sentence, with a comma.'
"""

from ._version import __version__
from .article import Article
from .corpus import LabeledPage, load_corpus
from .errors import InvalidPageError, ModelError, NewsmlError
from .estimators import DempsterShaferClassifier, DiscretizedNaiveBayes
from .extract import extract
from .extractor import NewsExtractor
from .persistence import load_model, save_model
from .scoring import Score, score

__all__ = [
    "Article",
    "DempsterShaferClassifier",
    "DiscretizedNaiveBayes",
    "InvalidPageError",
    "LabeledPage",
    "ModelError",
    "NewsExtractor",
    "NewsmlError",
    "Score",
    "__version__",
    "extract",
    "load_corpus",
    "load_model",
    "save_model",
    "score",
]
