"""The exceptions newsml raises on purpose, so callers can catch exactly these."""

from __future__ import annotations


class NewsmlError(Exception):
    """Base class of every error newsml raises deliberately."""


class InvalidPageError(NewsmlError, ValueError):
    """The input is not an HTML page: empty, binary, or text without any HTML markup.

    Malformed HTML is *not* an error: it is repaired by the parser. This is raised only
    when there is nothing a browser would render as a page.
    """


class PageNotFoundError(InvalidPageError, FileNotFoundError):
    """The page named is no file: an :class:`InvalidPageError`, and a ``FileNotFoundError``
    for callers that catch that."""


class ConfigurationError(NewsmlError, ValueError):
    """A method, option or parameter value that newsml does not accept (unknown method
    name, bad evidence list, out-of-range parameter)."""


class ModelError(NewsmlError):
    """A model file cannot be used: truncated, not a newsml model, or from another version."""


class OutputError(NewsmlError):
    """Results cannot be written: the output is a folder, in a missing folder, one of the
    inputs, or the disk (or pipe) refused the bytes."""


class PageTimeoutError(NewsmlError):
    """A page took longer than the time limit (``--timeout``, or ``timeout=`` of a batch)."""


class ReadTimeoutError(PageTimeoutError, TimeoutError):
    """A pipe or standard input gave no bytes for longer than the time limit; an OSError
    too, as the read that waited for them is."""


class ProcessDiedError(NewsmlError):
    """A worker process died (killed, or out of memory) before it finished its work."""


class TrainingWarning(UserWarning):
    """A labeled page was skipped in training, or looks wrong: the message names it and says why."""
