# cython: language_level=3
"""The hidden elements of a parsed page found in C (optional): those that
:func:`newsml.input.clean.clean` removes for a ``hidden`` attribute, ``aria-hidden="true"`` or a
style that hides them, the same elements in the same order as its XPath finds. Also the
elements that declare the page's metadata (:func:`declaring_elements`), which
:func:`newsml.input.declared.read_declared` reads before cleaning.

The elements and their attribute values are read as libxml2 nodes, and an element object
is made, through lxml's public C API (``elementFactory``), only for those found. Built when the package is installed with a C compiler at hand; ``newsml.input.parse``
uses it only when it was built against the lxml it runs with (:data:`BUILT_FOR_LXML`).
"""

cimport lxml.includes.etreepublic as cetree
from libc.string cimport strcmp
from lxml.includes cimport tree

from newsml.core._libxml2 cimport (
    NEWSML_LXML_VERSION, first_element as _first_element, has_attribute as _has_attribute,
    next_element as _next_element,
)

cetree.import_lxml__etree()

#: The version of lxml this module was compiled against (its C structures are that one's).
BUILT_FOR_LXML = NEWSML_LXML_VERSION.decode("ascii")


cdef bint _folded_has_display_none(const char* value) noexcept:
    """Whether ``value`` (UTF-8) holds ``display:none`` once spaces (U+0020) are dropped and
    the letters of DISPLAYNOE lower-cased: the XPath's translate() and contains(), on bytes
    (only ASCII changes, and an ASCII pattern matches UTF-8 bytes where it matches text).

    Matched as the bytes come, with no folded copy: ``d`` stands only first in the
    pattern, so where a byte breaks a partial match no later start lies inside it, and the
    match starts again at that byte."""
    cdef const char* pattern = b"display:none"
    cdef size_t matched = 0
    cdef char byte
    while value[0] != 0:
        byte = value[0]
        value += 1
        if byte == b" ":
            continue
        if byte in b"DISPLAYNOE":
            byte = byte + 32
        if byte == pattern[matched]:
            matched += 1
            if matched == 12:
                return True
        else:
            matched = byte == b"d"
    return False


cdef enum:
    SHOWN = 0
    HIDDEN = 1
    UNUSUAL = 2     # an attribute value that is not one text: left to the XPath


cdef const char* _value(tree.xmlAttr* attribute):
    """The attribute's value when it is one text node ("" for none), else NULL (entity
    references kept as nodes, in XML parsed without resolving them: the XPath compares
    those in its own way)."""
    cdef tree.xmlNode* text = attribute.children
    if text is NULL:
        return b""
    if text.next is NULL and text.type == tree.XML_TEXT_NODE and text.content is not NULL:
        return <const char*>text.content
    return NULL


cdef int _hides(tree.xmlNode* c) except -1:
    """HIDDEN when the element has a ``hidden`` attribute, ``aria-hidden="true"`` or a
    style with ``display:none`` (attributes outside any namespace, as XPath's ``@name``
    reads them), UNUSUAL when one of those values is not one text, else SHOWN."""
    cdef tree.xmlAttr* attribute = c.properties
    cdef const char* name
    cdef const char* value
    cdef bint aria
    while attribute is not NULL:
        if attribute.ns is NULL:
            name = <const char*>attribute.name
            if strcmp(name, b"hidden") == 0:
                return HIDDEN
            aria = strcmp(name, b"aria-hidden") == 0
            if aria or strcmp(name, b"style") == 0:
                value = _value(attribute)
                if value is NULL:
                    return UNUSUAL
                if strcmp(value, b"true") == 0 if aria else _folded_has_display_none(value):
                    return HIDDEN
        attribute = attribute.next
    return SHOWN


def hidden_elements(cetree._Element element not None):
    """The elements of ``element``'s document (all of it, as XPath's ``/descendant::*``), in
    document order, that have a ``hidden`` attribute, ``aria-hidden="true"`` or a style
    that holds ``display:none`` once spaces (U+0020) are dropped and DISPLAYNOE
    lower-cased; None when a value of those attributes is not one text node (the caller
    asks the XPath then). Nothing in the tree changes while it is walked: no Python code
    runs but the making of the element objects found."""
    cdef tree.xmlNode* top = <tree.xmlNode*>element._doc._c_doc
    cdef tree.xmlNode* c = _first_element(top)
    cdef tree.xmlNode* following
    cdef list found = []
    cdef int hides
    while c is not NULL:
        hides = _hides(c)
        if hides == UNUSUAL:
            return None
        if hides == HIDDEN:
            found.append(cetree.elementFactory(element._doc, c))
        following = _first_element(c)
        while following is NULL and c is not top:    # no child: the next sibling, or above
            following = _next_element(c)
            c = c.parent
        c = following
    return found


cdef inline bint _declaring_tag(const char* name, tree.xmlNode* c) noexcept:
    """Whether an element of that name is read for what it declares: a ``<meta>``,
    ``<script>``, ``<link>`` or ``<time>``, or an ``<a>`` with a ``rel`` attribute."""
    if strcmp(name, b"a") == 0:
        return _has_attribute(c, b"rel")
    return (strcmp(name, b"meta") == 0 or strcmp(name, b"script") == 0 or strcmp(name, b"link") == 0
            or strcmp(name, b"time") == 0)


def declaring_elements(cetree._Element root not None):
    """Two lists of elements, each in document order: the ``<meta>``, ``<script>``, ``<link>``
    and ``<time>`` elements of ``root`` (itself included) and its ``<a>`` that have a ``rel``
    attribute (tags outside any namespace, as ``iter(tag)`` matches them); and the elements
    of ``root``'s whole document that have an ``itemprop`` attribute (as ``//*[@itemprop]``
    finds them: markup after ``</html>`` can stand beside the root). What
    :func:`newsml.input.declared.declaring_in_python` gives, in one walk in which nothing
    runs but the making of the element objects found. (Attributes a DTD gives by default,
    which HTML never has, are not read.)"""
    cdef tree.xmlNode* top = <tree.xmlNode*>root._doc._c_doc
    cdef tree.xmlNode* inner = root._c_node
    cdef tree.xmlNode* c = _first_element(top)
    cdef tree.xmlNode* following
    cdef list tagged = [], with_itemprop = []
    cdef bint inside = False       # whether c is root or below it
    while c is not NULL:
        if c is inner:
            inside = True
        if inside and c.ns is NULL and _declaring_tag(<const char*>c.name, c):
            tagged.append(cetree.elementFactory(root._doc, c))
        if _has_attribute(c, b"itemprop"):
            with_itemprop.append(cetree.elementFactory(root._doc, c))
        following = _first_element(c)
        while following is NULL and c is not top:    # no child: the next sibling, or above
            if c is inner:
                inside = False
            following = _next_element(c)
            c = c.parent
        c = following
    return tagged, with_itemprop
