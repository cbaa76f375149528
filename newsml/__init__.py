"""newsml: pull the article (title and body text) out of news web pages.

>>> import newsml
>>> article = newsml.extract("<html><body><p>One sentence, with a comma.</p></body></html>", method="econ")
>>> article.text
'One sentence, with a comma.'

The package flows one way, a folder per stage, each importing only from itself and
earlier ones (``tests/test_architecture.py`` checks it; ``docs/design.md`` describes them):
``core`` (text, markup vocabulary, the seam to the compiled modules), ``input`` (read,
decode, sanitize, parse, clean), ``dom`` (text nodes, block tree, title, language),
``features``, ``estimators``, ``rules`` (the cut and what follows it), ``measure``
(scores against gold, folds), ``methods``, ``learning`` (training, model files,
adaptation), then the modules here (:mod:`newsml.article`, :mod:`newsml.extract`,
:mod:`newsml.extractor`) and ``run`` (the command line, batches, Spark).

Logging: modules log their fallbacks (flattened markup, skipped training pages) at
debug level under the ``newsml`` logger, which has a NullHandler until the application
configures logging. A skipped training page is also a ``TrainingWarning`` naming it.

Prediction imports numpy and lxml (a model file is a zip of JSON and numpy arrays, no
pickle) and jieba for Chinese words, never scikit-learn or SciPy: what needs them
(training, the estimators, :class:`NewsExtractor`) is imported on first use.
"""

import importlib
import logging
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .article import Article
from .errors import (
    ConfigurationError,
    InvalidPageError,
    ModelError,
    NewsmlError,
    OutputError,
    PageNotFoundError,
    PageTimeoutError,
    ProcessDiedError,
    TrainingWarning,
)
from .extract import extract  # bound now: the name is also a submodule's
from .input.corpus import LabeledPage, load_corpus
from .learning.persistence import get_method, load_model, save_model
from .measure.scoring import Score, score

if TYPE_CHECKING:
    from .estimators import DempsterShaferClassifier, DiscretizedNaiveBayes
    from .extractor import NewsExtractor

#: Exports whose modules import scikit-learn: imported when first asked for.
_LAZY = {"DempsterShaferClassifier": ".estimators", "DiscretizedNaiveBayes": ".estimators",
         "NewsExtractor": ".extractor"}

logging.getLogger(__name__).addHandler(logging.NullHandler())


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
    "PageNotFoundError",
    "PageTimeoutError",
    "ProcessDiedError",
    "Score",
    "TrainingWarning",
    "__version__",
    "extract",
    "get_method",
    "load_corpus",
    "load_model",
    "save_model",
    "score",
]
