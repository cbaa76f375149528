"""The vocabulary of HTML markup that parsing, segmentation and the methods share.

Kept apart from :mod:`newsml.input.parse` and :mod:`newsml.dom.nodes` so that neither has to
import the other to know which tags are blocks.
"""

from __future__ import annotations

from lxml import etree

#: The element type of parsed pages: plain lxml elements, without lxml.html's per-element
#: Python class lookup (a cost on every page).
Element = etree._Element

#: Block-level elements: each starts and ends text nodes. Every other element is inline.
BLOCK_TAGS = frozenset(
    "address article aside blockquote body caption center col colgroup dd details dialog dir div "
    "dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header "
    "hgroup hr html legend li listing main marquee menu nav ol optgroup option p plaintext pre "
    "section summary table tbody td tfoot th thead title tr ul xmp".split()
)
#: Inline elements of HTML (for reference; anything outside BLOCK_TAGS behaves like them).
INLINE_TAGS = frozenset(
    "a abbr acronym b bdi bdo big button cite code data del dfn em font i img ins kbd label mark "
    "nobr q rp rt ruby s samp small span strike strong sub sup time tt u var wbr".split()
)
#: The heading elements.
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: Elements that end the current text node without opening a block of their own.
BREAK_TAGS = frozenset({"br"})
#: Elements that hold no content and have no closing tag.
VOID_TAGS = frozenset("area base br col embed hr img input link meta param source track wbr".split())
#: Elements whose content is never visible text. ``<head>`` itself is not among them:
#: libxml2 leaves the whole page inside it when an unknown tag precedes ``<body>``.
#: MathML (``<math>``) is text, inline like any element HTML does not define, less its
#: annotations (TeX source and the like, which browsers do not show).
#: ``newsml.input.clean.clean`` reads noscript, template and srcdoc content on the pages whose
#: prose is there. As in today's browsers, the content of ``<audio>`` and ``<video>`` is
#: hidden (it is shown only by browsers that cannot play them: "Download the file"),
#: while that of ``<object>`` is text: the plugins it named (Flash, Java) are gone, and
#: browsers show its content in its place (a video's caption, say; ``<param>`` has none).
INVISIBLE_TAGS = ("script", "style", "noscript", "template", "iframe", "embed", "audio", "video",
                  "svg", "annotation", "annotation-xml", "canvas", "select", "textarea", "title",
                  "meta", "link", "base", "noframes", "noembed")


def is_link(anchor: etree._Element) -> bool:
    """Whether an ``<a>`` is a link: anything but a named anchor, one with a ``name`` and no
    ``href``, which marks a place to jump to. Old pages open one before each section and
    never close it, so the parser puts the paragraphs that follow inside it: they are text,
    not link text. (An ``id`` alone does not make an anchor a place: script buttons such
    as ``<a id="load-more">`` have one.)"""
    return anchor.get("href") is not None or anchor.get("name") is None


def normal_class(value: str | None) -> str:
    """A class attribute with its whitespace normalized. (Not cached: a split and a join of
    a class attribute cost less than a look-up in a cache.)"""
    return " ".join((value or "").split())
