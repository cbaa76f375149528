"""newsml: pull the article (title and body text) out of news web pages.

>>> import newsml
>>> article = newsml.extract("<html><body><p>One sentence, with a comma.</p></body></html>")
>>> article.text
'One sentence, with a comma.'
"""

from .article import Article
from .corpus import LabeledPage, load_corpus
from .errors import InvalidPageError, ModelError, NewsmlError
from .extract import extract
from .scoring import Score, score

__version__ = "0.1.0"

__all__ = [
    "Article",
    "InvalidPageError",
    "LabeledPage",
    "ModelError",
    "NewsmlError",
    "Score",
    "extract",
    "load_corpus",
    "score",
    "__version__",
]
