"""One page's output record: the article, or ``"error"`` saying why there is none.

- :func:`page_record` extracts one page and never raises for the page's own failure: the
  record holds the article, or ``"error"`` saying why there is none, so that nothing is
  lost silently in a crawl of thousands of pages.
- :func:`time_limit` bounds a page's time with ``SIGALRM`` (Unix, main thread), which
  interrupts Python code, not a long call into C (:mod:`newsml.run.pool` stops those).
- :class:`ScorerSpec` names the method to extract with, loadable in a worker process.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from ..article import collector_paused, extract_page
from ..document.structure import PLAIN, DocumentOptions
from ..dom.page import load_page
from ..errors import ConfigurationError, NewsmlError, PageTimeoutError
from ..extract import scorer_for
from ..input.read import read_page
from ..input.sources import Payload, Source

if TYPE_CHECKING:
    from ..methods import NodeMethod

#: The default time limit of a page, in seconds.
DEFAULT_TIMEOUT = 10.0
#: The longest time limit taken, in seconds (11.6 days): past it, waiting overflows the
#: system's clocks (for no limit, give 0).
MAX_TIMEOUT = 1_000_000


# -- one page -----------------------------------------------------------------------------------

def describe(exc: BaseException) -> str:
    """One line saying what went wrong, for stderr and for an error record."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, NewsmlError):
        return str(exc)
    return f"{type(exc).__name__}: {exc} (run with --debug for details)"


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise PageTimeoutError in the block once ``seconds`` have passed (None or 0: no limit).

    Works in the main thread on Unix (``SIGALRM``); elsewhere the block runs unbounded.
    The alarm interrupts Python code, not a long call into C. Raises ConfigurationError
    for a negative ``seconds``.
    """
    check_timeout(seconds)
    if not seconds or not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise PageTimeoutError(f"took longer than {seconds:g} s (--timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_timeout(seconds: float | None) -> None:
    """Raise ConfigurationError unless ``seconds`` is a time limit: None, 0 (none) or positive."""
    if seconds is not None and not 0 <= seconds <= MAX_TIMEOUT:
        raise ConfigurationError(f"the time limit must be 0 (none) or up to {MAX_TIMEOUT:,} seconds, "
                                 f"not {seconds:g}")


@dataclass(frozen=True)
class RecordOptions:
    """What a page's record holds besides the article's fields: its Markdown and HTML's
    options (``document``), and the method's name as the user asked for it (``method``:
    "default" rather than the name of the method it stands for; None: the method's own)."""

    document: DocumentOptions = PLAIN
    method: str | None = None


PLAIN_RECORDS = RecordOptions()


def page_record(data: bytes, scorer: NodeMethod | str, identity: dict[str, Any], timeout: float | None = None,
                *, debug: bool = False, options: RecordOptions = PLAIN_RECORDS) -> dict[str, Any]:
    """The identity and the article's fields (:meth:`~newsml.article.Article.to_dict`; the identity's
    ``url`` kept), or ``{**identity, "error": ...}``
    when it cannot be extracted (not a page, too large, over ``timeout`` seconds, a bug).
    ``scorer``: a method instance, or a method name ("default": the shipped model, loaded
    once per process).

    Never raises for the page's own failure (KeyboardInterrupt and SystemExit pass);
    raises ConfigurationError for a negative ``timeout`` or an unknown method, the caller's.
    """
    check_timeout(timeout)
    if isinstance(scorer, str) and options.method is None:
        options = RecordOptions(options.document, scorer)
    scorer = scorer_for(scorer)
    try:
        with time_limit(timeout), collector_paused():
            article = extract_page(load_page(data, declared=not options.document.text_only), scorer,
                                   options.document)
            # (the identity's url, a WARC record's address, stays: the article's canonical
            # address fills it only where the record has none)
            record = {**identity, **{key: value for key, value in article.to_dict().items()
                                     if key not in identity or identity[key] is None}}
            if options.document.html:
                record["html"] = article.html
            if options.method is not None:
                record["method"] = options.method
        return record
    except Exception as exc:
        if debug:
            traceback.print_exc()
        return {**identity, "error": describe(exc)}


def source_record(source: Source, payload: Payload, scorer: NodeMethod, timeout: float | None = None,
                  *, debug: bool = False, options: RecordOptions = PLAIN_RECORDS) -> dict[str, Any]:
    """The record of one page from :func:`~newsml.input.sources.iter_pages`: a file (payload
    None) is read here, an error payload becomes an error record."""
    identity = source.identity()
    if isinstance(payload, Exception):
        return error_record(identity, payload)
    if payload is None:
        try:
            payload = _read(source.path)
        except Exception as exc:
            if debug:
                traceback.print_exc()
            return error_record(identity, exc)
    return page_record(payload, scorer, identity, timeout, debug=debug, options=options)


def _read(path: str) -> bytes:
    data = read_page(Path(path))
    assert isinstance(data, bytes)
    return data


def error_record(identity: dict[str, Any], exc: BaseException | str) -> dict[str, Any]:
    """The record of a page that has no article."""
    return {**identity, "error": exc if isinstance(exc, str) else describe(exc)}


# -- the method ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScorerSpec:
    """Which method to extract with, loadable in a worker: a registered name, or a model file,
    and which of the default's switches of what it leaves out (:data:`LEAVING_OUT`: the
    method's parameters ``comments``, ``furniture``, ``islands``) to set to "keep"."""

    method: str = "default"
    model: str | None = None
    keep: tuple[str, ...] = ()

    @property
    def asked(self) -> str | None:
        """The method's name as asked for (a model file's method names itself: None)."""
        return self.method if self.model is None else None

    def load(self) -> NodeMethod:
        """The method: the model file's, else the named method (its shipped model if any)."""
        from ..learning.persistence import get_method, load_model

        method = load_model(self.model)[0] if self.model is not None else get_method(self.method)
        for switch in self.keep:
            method = keeping(method, switch)
        return method


#: The default's switches of what it leaves out after the cut, and what each leaves out.
LEAVING_OUT = {"comments": "comment sections", "furniture": "page furniture",
               "islands": "runs of text far from the article"}


def keeping(method: NodeMethod, switch: str) -> NodeMethod:
    """``method`` with its ``switch`` parameter (of :data:`LEAVING_OUT`) set to "keep" (an
    adapted model's base is set), or a ConfigurationError naming a method that never
    leaves that out."""
    if switch not in LEAVING_OUT:
        raise ConfigurationError(f"no switch {switch!r} of what is left out: one of {', '.join(LEAVING_OUT)}")
    target = method.base_method() if hasattr(method, "base_method") else method
    if switch not in target.get_params():
        raise ConfigurationError(f"method {method.name!r} keeps {LEAVING_OUT[switch]} already: "
                                 "only the default (fusion) leaves them out")
    target.set_params(**{switch: "keep"})
    return method


#: The environment variables that set the threads of the math libraries.
