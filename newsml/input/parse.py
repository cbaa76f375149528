"""UTF-8 markup into an lxml tree, with no text lost to libxml2's depth limit.

The fourth step of the input stage (read, decode, sanitize, parse, clean). Malformed
markup never raises; input in which the parser finds no document raises
:class:`~newsml.errors.InvalidPageError`. Markup nested past libxml2's limit is flattened
and parsed again (:mod:`newsml.input.recover`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from lxml import etree

from ..core.tags import Element
from ..errors import InvalidPageError
from .recover import SAFE_DEPTHS, flatten_deep_markup, text_only_markup
from .sanitize import utf8

log = logging.getLogger(__name__)

def parse_markup(markup: bytes, text: str | Callable[[], str]) -> tuple[Element, bool]:
    """Parse UTF-8 ``markup`` without losing what lies past libxml2's depth limit: markup
    nested deeper is flattened below ever shallower depths (:data:`SAFE_DEPTHS`), and as a
    last resort parsed as its text only, a line per block. ``text`` is the same markup as
    text, or what makes it (only a page too deep needs it). Also say whether it was
    flattened."""
    root, lost = _parse_utf8(markup)
    if not lost:
        return root, False
    source = text if isinstance(text, str) else text()
    for depth in SAFE_DEPTHS:
        log.debug("markup nested past the parser's limit: flattening below depth %d", depth)
        root, lost = _parse_utf8(utf8(flatten_deep_markup(source, depth)))
        if not lost:
            return root, True
    log.debug("flattened markup still loses text: parsing its text only, a line per block")
    return _parse_utf8(utf8(text_only_markup(source)))[0], True


def _parse_utf8(data: bytes) -> tuple[Element, bool]:
    """Parse UTF-8 bytes; also say whether libxml2 dropped content at its depth limit.

    No table of ``id`` attributes is kept (``collect_ids``): nothing looks elements up by id.
    """
    parser = etree.HTMLParser(encoding="utf-8", huge_tree=True, remove_comments=True,
                              remove_pis=True, default_doctype=False, collect_ids=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise InvalidPageError(f"not HTML: the parser found no document ({exc})") from None
    if root is None:
        raise InvalidPageError("not HTML: the parser found no document")
    lost = any(err.type_name == "ERR_RESOURCE_LIMIT" for err in parser.error_log)
    return root, lost
