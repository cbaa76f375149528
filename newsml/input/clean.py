"""A parsed tree cleaned of what browsers do not show.

The last step of the input stage (read, decode, sanitize, parse, clean): scripts, styles,
templates and hidden elements go. MathML is text, and so is an ``<object>``'s content,
which browsers show now that its plugins are gone; ``<audio>`` and ``<video>`` content is
not (see :data:`newsml.core.tags.INVISIBLE_TAGS`). Content that browsers show only without
scripts (``<noscript>``), never (``<template>``) or in a frame of their own (``<iframe
srcdoc>``) is read when it holds :data:`FALLBACK_RATIO` times the prose (text outside
links) of the rest of the page: the article of a script-rendered page, not the menus,
"enable JavaScript" notes and tracking pixels of an ordinary one.

React's streamed rendering sends a part of the page late, in a hidden ``<div id="S:0">``
at the end of the body, with a script call (``$RC("B:0","S:0")``, ``$RS("S:0","P:0")``)
that moves it into the place of the ``<template id="B:0">`` (or ``"P:0"``) waiting for it.
Browsers show it there, often the whole article; so does newsml, by making the same moves
before hidden elements go.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from types import ModuleType

from lxml import etree

from ..core.speedups import choose
from ..core.tags import INVISIBLE_TAGS, Element, is_link
from ..core.text import visible_chars
from ..errors import InvalidPageError
from .parse import parse_markup
from .sanitize import utf8, xml_safe

log = logging.getLogger(__name__)

#: Hidden elements, in document order. Stepping from the elements' attributes back to the
#: elements reads only the attributes, far faster than a test of every element
#: (``//*[@hidden or ...]``); ``/descendant::*`` visits elements only, ``//`` every node.
_HIDDEN_XPATH = etree.XPath(
    "/descendant::*/@hidden/.. | /descendant::*/@aria-hidden[. = 'true']/.. | "
    "/descendant::*/@style[contains(translate(., 'DISPLAYNOE ', 'displaynoe'), 'display:none')]/.."
)


_STRING_VALUE = etree.XPath("string()", smart_strings=False)


#: Containers of content shown only without scripts, never, or in a frame of its own.
_FALLBACK_TAGS = frozenset({"noscript", "template", "iframe"})


#: That content is read when it holds this many times the prose of the rest of the page.
FALLBACK_RATIO = 2


def clean(root: Element) -> bool:
    """Remove invisible content in place: scripts, styles, templates and hidden elements.

    Comments and processing instructions are already gone: the parser drops them. The
    content of ``<noscript>``, ``<template>`` and ``<iframe srcdoc>`` stays when it holds
    most of the page's prose (see the module notes); returns whether it did.
    """
    place_streamed_segments(root)
    fallbacks = _unwrap_fallbacks(root)
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    for element in hidden_elements(root):
        if element.getparent() is not None:
            drop_keeping_tail(element)
    fallbacks = [div for div in fallbacks if any(up is root for up in div.iterancestors())]
    if not fallbacks:
        return False
    hidden = sum(_prose_chars(div) for div in fallbacks)
    if hidden and hidden > FALLBACK_RATIO * (_prose_chars(root) - hidden):
        log.debug("the page's prose is in noscript/template/srcdoc content: reading it")
        return True
    for div in fallbacks:
        drop_keeping_tail(div)
    return False


def hidden_in_python(root: Element) -> list[Element]:
    """The elements of ``root``'s document, in document order, that a ``hidden`` attribute,
    ``aria-hidden="true"`` or a style with ``display: none`` hides (:data:`_HIDDEN_XPATH`)."""
    return _HIDDEN_XPATH(root)


def _hidden_in_c(cleaning: ModuleType) -> Callable[[Element], list[Element]]:
    def hidden_elements(root: Element) -> list[Element]:
        found = cleaning.hidden_elements(root)   # (None: values it does not read; the XPath's then)
        return hidden_in_python(root) if found is None else found
    return hidden_elements


#: The hidden elements of ``root``'s document (:func:`hidden_in_python`).
hidden_elements = choose("input._cleaning", hidden_in_python, _hidden_in_c)


#: React's calls that move a streamed segment into its place: ``$RC(boundary, segment)``
#: and ``$RS(segment, placeholder)``, as its inline scripts write them.
_REACT_MOVE = re.compile(r'\$R([CS])\(\s*"([^"\\]{1,40})"\s*,\s*"([^"\\]{1,40})"')


def place_streamed_segments(root: Element) -> int:
    """Move each streamed segment of React's rendering that a script call places (see the
    module notes) into the place of its template, shown; return how many were moved. A
    segment no call places stays hidden, and goes with the other hidden elements."""
    calls = [call for script in root.iter("script") if "$R" in (script.text or "")
             for call in _REACT_MOVE.findall(script.text or "")]
    if not calls:
        return 0
    by_id = {element.get("id"): element for element in root.iter("template", "div") if element.get("id")}
    moved = 0
    for kind, first, second in calls:           # (in the page's order, as the browser runs them)
        place, segment = (by_id.get(first), by_id.get(second)) if kind == "C" else \
            (by_id.get(second), by_id.get(first))
        if place is None or segment is None or place.tag != "template" or segment.tag != "div" \
                or place.getparent() is None or segment.getparent() is None \
                or any(up is segment for up in place.iterancestors()):
            continue
        segment.attrib.pop("hidden", None)
        _leave_tail(segment)                    # (the text after it stays where it was)
        segment.tail = place.tail
        place.getparent().replace(place, segment)
        moved += 1
    return moved


def _unwrap_fallbacks(root: Element) -> list[Element]:
    """Put a ``<div>`` holding its content in the place of each outermost noscript,
    template and iframe with ``srcdoc``; return the divs."""
    divs = []
    for container in list(root.iter(*_FALLBACK_TAGS)):
        parent = container.getparent()
        if (parent is None or (container.tag == "iframe" and container.get("srcdoc") is None)
                or any(up.tag in _FALLBACK_TAGS for up in container.iterancestors())):
            continue
        div = etree.Element("div")
        if container.tag == "iframe":
            source = _parsed_body(xml_safe(container.get("srcdoc") or ""))
        elif len(container) == 0 and "<" in (container.text or ""):  # kept as raw text by libxml2
            source = _parsed_body(f"<html><body>{container.text}</body></html>")
        else:
            source = container
        if source is None:
            continue
        div.text = source.text
        div.extend(list(source))
        div.tail = container.tail
        parent.replace(container, div)
        divs.append(div)
    return divs


def _parsed_body(document: str) -> Element | None:
    """The body of markup parsed on its own (its root without a body), or None when the
    parser finds no document in it."""
    try:
        root, _ = parse_markup(utf8(document), document)
    except InvalidPageError:
        return None
    body = root.find("body")
    return body if body is not None else root


def _prose_chars(element: Element) -> int:
    """Non-space characters of the text under ``element`` that is not inside a link.

    (An XPath for the links' text, ``.//a//text()``, is slow on large pages.)
    """
    links = sum(visible_chars(text_of(link)) for link in element.iter("a") if is_link(link))
    return max(visible_chars(text_of(element)) - links, 0)


def text_of(element: Element) -> str:
    """The text under ``element``: ``"".join(element.itertext())``, faster."""
    if not len(element):
        return element.text or ""  # a leaf (most links): no XPath needed
    return _STRING_VALUE(element)


def drop_keeping_tail(element: Element) -> None:
    """Remove ``element`` and its subtree, keeping the text that follows it (its tail)."""
    parent = element.getparent()
    _leave_tail(element)
    parent.remove(element)


def _leave_tail(element: Element) -> None:
    """Hand the text that follows ``element`` (its tail, which lxml moves and removes with
    it) to what comes before it: its previous sibling's tail, else its parent's text."""
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent = element.getparent()
            parent.text = (parent.text or "") + tail
        element.tail = None
