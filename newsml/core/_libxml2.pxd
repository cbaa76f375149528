# Readings of libxml2's nodes shared by the compiled modules that walk lxml's trees
# (newsml/dom/_walk.pyx, newsml/input/_cleaning.pyx): inline, so nothing is imported at run time.

from libc.string cimport strcmp
from lxml.includes cimport tree


cdef extern from *:
    """
    #ifndef NEWSML_LXML_VERSION
    #define NEWSML_LXML_VERSION ""
    #endif
    """
    # the lxml, and the libxml2 it was compiled with, the module is compiled against
    # (setup.py defines it; newsml.core.speedups.lxml_build() reads the same at run time)
    const char* NEWSML_LXML_VERSION


cdef inline tree.xmlNode* first_element(tree.xmlNode* c):
    """The first child of ``c`` that is an element, or NULL."""
    c = c.children
    while c is not NULL and c.type != tree.XML_ELEMENT_NODE:
        c = c.next
    return c


cdef inline tree.xmlNode* next_element(tree.xmlNode* c):
    """The next sibling of ``c`` that is an element, or NULL."""
    c = c.next
    while c is not NULL and c.type != tree.XML_ELEMENT_NODE:
        c = c.next
    return c


cdef inline bint has_attribute(tree.xmlNode* c, const char* name) noexcept:
    """Whether the element has an attribute ``name`` outside any namespace (``get(name)``
    is not None)."""
    cdef tree.xmlAttr* attribute = c.properties
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*>attribute.name, name) == 0:
            return True
        attribute = attribute.next
    return False
