"""newsml: pull the article (title and body text) out of news web pages.

>>> import newsml
>>> article = newsml.extract("<html><body><p>One sentence, with a comma.</p></body></html>", method="econ")
>>> article.text
'One sentence, with a comma.'

The package flows one way. Each module belongs to a stage and imports only from its
own stage and earlier ones (``tests/test_architecture.py`` checks it):

1. foundation: _version, errors, text, tags, progress, report, _registry, output
2. input: encoding, parse, corpus, sources
3. segmentation: nodes, groupings
4. page: lang, title, page
5. measurement: scoring, align
6. assembly: assemble
7. features: features, estimators
8. selection: model_selection
9. methods: methods
10. use: article, persistence, extract, training, extractor, evaluate, batch, cli, spark

Logging: modules log their fallbacks (flattened markup, skipped training pages) at
debug level under the ``newsml`` logger, which has a NullHandler until the application
configures logging. A skipped training page is also a ``TrainingWarning`` naming it.
"""

import logging

from ._version import __version__
from .article import Article
from .corpus import LabeledPage, load_corpus
from .errors import (
    ConfigurationError,
    InvalidPageError,
    ModelError,
    NewsmlError,
    OutputError,
    TrainingWarning,
)
from .estimators import DempsterShaferClassifier, DiscretizedNaiveBayes
from .extract import extract
from .extractor import NewsExtractor
from .persistence import load_model, save_model
from .scoring import Score, score

logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "Article",
    "ConfigurationError",
    "DempsterShaferClassifier",
    "DiscretizedNaiveBayes",
    "InvalidPageError",
    "LabeledPage",
    "ModelError",
    "NewsExtractor",
    "NewsmlError",
    "OutputError",
    "Score",
    "TrainingWarning",
    "__version__",
    "extract",
    "load_corpus",
    "load_model",
    "save_model",
    "score",
]
