"""What a page declares about itself, read before cleaning removes it: ``<meta>`` tags
(all of them, repeated ones included), JSON-LD scripts, the canonical link, microdata
values, ``<time>`` elements, the links marked ``rel="author"`` and the document's language.

Cleaning drops scripts, ``<meta>`` and ``<link>``; the metadata of an article
(:mod:`newsml.document.metadata`) reads what they said from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from lxml import etree

from ..core.speedups import choose
from ..core.tags import Element
from ..core.text import normalize_space

#: Microdata properties read (their values; a nested item's ``name`` for an author).
ITEM_PROPERTIES = frozenset({"datePublished", "dateModified", "dateCreated", "uploadDate", "author",
                             "creator", "publisher", "headline", "description", "keywords", "image",
                             "articleSection"})
#: At most this many characters of one JSON-LD script or one value are kept.
MAX_VALUE_CHARS = 200_000
_ITEMPROPS = etree.XPath("//*[@itemprop]")
#: A ``rel="author"`` link's text longer than this is no name.
MAX_NAME_CHARS = 100


@dataclass
class Declared:
    """A page's declarations. ``metas``: (name or property, lower-cased, and content) in
    document order, a tag of several names once for each; ``json_ld``: the texts of its
    JSON-LD scripts; ``items``: microdata property -> values (an attribute's, else the
    element's text); ``times``: each ``<time>``'s ``datetime`` and text; ``canonical``: the
    canonical link's address; ``rel_authors``: the texts of the ``<a rel="author">`` links
    (HTML's link type for the article's author), in document order."""

    metas: list[tuple[str, str]] = field(default_factory=list)
    json_ld: list[str] = field(default_factory=list)
    items: dict[str, list[str]] = field(default_factory=dict)
    times: list[tuple[str, str]] = field(default_factory=list)
    rel_authors: list[str] = field(default_factory=list)
    canonical: str | None = None
    lang: str | None = None

    def meta(self, *names: str) -> list[str]:
        """The contents of the ``<meta>`` tags named any of ``names``: those of the first
        name first (callers name the best first), each name's in document order."""
        by_name = self._metas_by_name
        return [content for name in dict.fromkeys(name.lower() for name in names)
                for content in by_name.get(name, ())]

    @cached_property
    def _metas_by_name(self) -> dict[str, list[str]]:
        """:attr:`metas` by name, each name's in document order (made once: the metadata
        asks for a dozen names, after reading is done)."""
        by_name: dict[str, list[str]] = {}
        for key, content in self.metas:
            by_name.setdefault(key, []).append(content)
        return by_name


def declaring_in_python(root: Element) -> tuple[list[Element], list[Element]]:
    """The elements read for what they declare, in two lists in document order: the
    ``<meta>``, ``<script>``, ``<link>`` and ``<time>`` elements of ``root`` and its ``<a>``
    that have a ``rel`` attribute; and the elements of its whole document that have an
    ``itemprop`` (markup after ``</html>`` can stand beside the root)."""
    tagged = [element for element in root.iter("meta", "script", "link", "time", "a")
              if element.tag != "a" or element.get("rel") is not None]
    return tagged, _ITEMPROPS(root)


#: The elements of ``root`` read for what they declare (:func:`declaring_in_python`); found
#: in C where the input stage's compiled module is in use (one walk of the tree, several
#: times faster than the iteration and the XPath).
declaring_elements = choose("input._cleaning", declaring_in_python, "declaring_elements")


def read_declared(root: Element) -> Declared:
    """The declarations of a parsed page (before cleaning)."""
    found = Declared(lang=(root.get("lang") or root.get("xml:lang") or "").strip() or None)
    tagged, with_itemprop = declaring_elements(root)
    for element in tagged:
        tag = element.tag
        if tag == "meta":
            content = element.get("content")
            if content and content.strip():
                for key in _meta_keys(element):
                    found.metas.append((key, content.strip()[:MAX_VALUE_CHARS]))
        elif tag == "script":
            if (element.get("type") or "").strip().lower() == "application/ld+json" and element.text:
                found.json_ld.append(element.text[:MAX_VALUE_CHARS])
        elif tag == "a":
            if "author" in (element.get("rel") or "").lower().split():
                name = normalize_space(element.xpath("string()") or "")
                if 0 < len(name) <= MAX_NAME_CHARS:
                    found.rel_authors.append(name)
        elif tag == "link":
            rel = (element.get("rel") or "").lower().split()
            href = (element.get("href") or "").strip()
            if "canonical" in rel and href and found.canonical is None:
                found.canonical = href
        else:
            found.times.append(((element.get("datetime") or "").strip(),
                                normalize_space(element.xpath("string()") or "")[:MAX_VALUE_CHARS]))
    for element in with_itemprop:
        for name in (element.get("itemprop") or "").split():
            if name in ITEM_PROPERTIES:
                value = _item_value(element, name)
                if value:
                    found.items.setdefault(name, []).append(value)
    return found


def _meta_keys(element: Element) -> list[str]:
    """The names a ``<meta>`` tag gives its content, lower-cased: each of its ``property``
    values (RDFa allows several, space-separated), its ``name``, ``itemprop`` and
    ``http-equiv``."""
    keys = (element.get("property") or "").lower().split()
    for attribute in ("name", "itemprop", "http-equiv"):
        key = (element.get(attribute) or "").strip().lower()
        if key and key not in keys:
            keys.append(key)
    return keys


def _item_value(element: Element, name: str) -> str:
    """A microdata value: the ``content``, ``datetime``, ``href`` or ``src`` attribute, else
    the element's text (an author item's ``name`` when it has one)."""
    for attribute in ("content", "datetime"):
        value = element.get(attribute)
        if value and value.strip():
            return value.strip()[:MAX_VALUE_CHARS]
    if name == "image":
        return (element.get("src") or element.get("href") or "").strip()
    if name in ("author", "creator", "publisher"):
        for inner in element.iter():
            if inner is not element and "name" in (inner.get("itemprop") or "").split():
                return normalize_space(inner.get("content") or inner.xpath("string()") or "")
    return normalize_space(element.xpath("string()") or "")[:MAX_VALUE_CHARS]
