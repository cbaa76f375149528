# cython: language_level=3
"""The segmentation walk of :func:`newsml.dom.nodes.segment_tree`, compiled (optional); also the
two other readings of every element that a page's Python time went to: the signatures of
a parent's children (:func:`children_by_mark`, sibling repetition) and the attributes of
the block tree's elements (:func:`attribute_kinds`).

The same walk, step for step, as the Python one in :mod:`newsml.dom.nodes`, but it reads
lxml's tree through lxml's public C API: the elements are visited as libxml2 nodes, and
an element object is made only for what the result holds (the nodes' blocks and the
elements above them). The texts, tags and element objects come from lxml's own
functions (``textOf``, ``tailOf``, ``namespacedName``, ``elementFactory``), so they are
what ``.text``, ``.tail``, ``.tag`` and the tree's elements give in Python. Built when
the package is installed with a C compiler at hand; ``newsml.dom.nodes`` uses it only when it
was built against the lxml it runs with (:data:`BUILT_FOR_LXML`), and falls back to the
Python walk otherwise (or when ``NEWSML_PURE_PYTHON`` is set).
"""

cimport lxml.includes.etreepublic as cetree
from cpython.unicode cimport (
    Py_UNICODE_ISSPACE, PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ,
)
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport strcmp
from lxml.includes cimport tree

from newsml.core._libxml2 cimport (
    NEWSML_LXML_VERSION, first_element as _first_element, has_attribute as _has_attribute,
    next_element as _next_element,
)

cetree.import_lxml__etree()

import numpy as np

from newsml.dom.nodes import Pieces, Segmentation, TextNode, block_tree_from
from newsml.core.tags import BLOCK_TAGS, BREAK_TAGS, normal_class
from newsml.core.text import normalize_space

#: The version of lxml this module was compiled against (its C structures are that one's).
BUILT_FOR_LXML = NEWSML_LXML_VERSION.decode("ascii")

cdef frozenset _BLOCK = frozenset(BLOCK_TAGS)
cdef frozenset _BREAK = frozenset(BREAK_TAGS)


cdef inline tree.xmlNode* _parent_element(tree.xmlNode* c):
    """The parent if it is an element (``getparent()``), else NULL."""
    cdef tree.xmlNode* parent = c.parent
    if parent is NULL or parent.type != tree.XML_ELEMENT_NODE:
        return NULL
    return parent


cdef Py_ssize_t _visible_chars(str text):
    """:func:`newsml.core.text.visible_chars`: the characters that are not whitespace as
    ``str.split`` reads it (``Py_UNICODE_ISSPACE``), counted without splitting."""
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(text), visible = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    for i in range(n):
        visible += not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))
    return visible


cdef bint _is_normal(str text):
    """Whether :func:`newsml.core.text.normalize_space` leaves ``text`` as it is: no whitespace
    (as ``str.split`` reads it) at either end, and only single spaces inside. Most texts
    are; they then make no second string."""
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 char
    cdef bint after_space = True        # (a space at the start is one too many)
    for i in range(n):
        char = PyUnicode_READ(kind, data, i)
        if Py_UNICODE_ISSPACE(char):
            if after_space or char != 32:
                return False
            after_space = True
        else:
            after_space = False
    return not after_space or n == 0


cdef inline bint _is_link(tree.xmlNode* c):
    """:func:`newsml.core.tags.is_link` of an ``<a>``."""
    return _has_attribute(c, b"href") or not _has_attribute(c, b"name")


cdef void* _grown(void* buffer, Py_ssize_t* capacity, size_t item, Py_ssize_t step) except NULL:
    """``buffer`` reallocated for ``2 * capacity + step`` items of ``item`` bytes, the new
    capacity written back; MemoryError (the old buffer kept) when that fails."""
    cdef Py_ssize_t wanted = 2 * capacity[0] + step
    cdef void* grown = realloc(buffer, wanted * item)
    if grown is NULL:
        raise MemoryError()
    capacity[0] = wanted
    return grown


cdef object _tag(tree.xmlNode* c, dict names):
    """The element's ``.tag``; ``names`` holds those made for the names met so far."""
    if c.ns is not NULL:
        return cetree.namespacedName(c)
    key = <size_t>c.name
    found = names.get(key)
    if found is None:
        found = names[key] = cetree.namespacedName(c)
    return found


cdef class _Numbers:
    """A growing array of int64 (the Python walk's ``array("q")``), read as numpy at the end."""

    cdef int64_t* values
    cdef Py_ssize_t size, capacity

    def __dealloc__(self):
        free(self.values)

    cdef int append(self, int64_t value) except -1:
        if self.size == self.capacity:
            self.values = <int64_t*>_grown(self.values, &self.capacity, sizeof(int64_t), 256)
        self.values[self.size] = value
        self.size += 1
        return 0

    cdef object array(self):
        out = np.empty(self.size, dtype=np.int64)
        cdef int64_t[::1] view = out
        cdef Py_ssize_t i
        for i in range(self.size):
            view[i] = self.values[i]
        return out


cdef struct _Slot:
    size_t key          # (0: an empty slot; no node sits at address 0)
    int64_t value


cdef class _PointerMap:
    """Numbers by libxml2 node (open addressing in C): the walk's tables of its elements
    held no Python number per element, whose freed memory a large page's walk left behind
    at its peak."""

    cdef _Slot* slots
    cdef Py_ssize_t size, used
    cdef int bits

    def __dealloc__(self):
        free(self.slots)

    cdef inline Py_ssize_t _at(self, size_t key) noexcept:
        """The slot of ``key``, or the empty one where it would go."""
        cdef Py_ssize_t at = <Py_ssize_t>(((<uint64_t>key >> 3) * 11400714819323198485ULL) >> (64 - self.bits))
        while self.slots[at].key != 0 and self.slots[at].key != key:
            at = (at + 1) & (self.size - 1)
        return at

    cdef int64_t get(self, size_t key) noexcept:
        """The number of ``key``, or -1."""
        if self.slots is NULL:
            return -1
        cdef _Slot* slot = &self.slots[self._at(key)]
        return slot.value if slot.key != 0 else -1

    cdef int put(self, size_t key, int64_t value) except -1:
        """``key``'s number is ``value`` (kept to a load of at most a half)."""
        cdef _Slot* old = self.slots
        cdef Py_ssize_t old_size = self.size, i
        cdef int bits
        cdef _Slot* slot
        if 2 * (self.used + 1) > self.size:
            bits = self.bits + 1 if self.bits else 10
            slot = <_Slot*>calloc(<size_t>1 << bits, sizeof(_Slot))
            if slot is NULL:
                raise MemoryError()        # (the map as it was)
            self.slots, self.bits, self.size = slot, bits, <Py_ssize_t>1 << bits
            for i in range(old_size):
                if old[i].key != 0:
                    self.slots[self._at(old[i].key)] = old[i]
            free(old)
        slot = &self.slots[self._at(key)]
        if slot.key == 0:
            slot.key = key
            self.used += 1
        slot.value = value
        return 0


cdef class _Walk:
    """The walk's state: the variables of the Python walk, the open elements as nodes."""

    cdef cetree._Document doc
    cdef bint keep_pieces
    cdef list nodes, parts, piece_owners, piece_texts, piece_chars, piece_ends, tags, blocks, elements
    cdef list element_tags
    cdef _Numbers parents, spans, node_blocks
    cdef dict paths, names
    cdef _PointerMap index, groups
    cdef list group_numbers
    cdef Py_ssize_t chars, link_chars, line, last_value, link_depth, p_seen, run_depth, n_opened, capacity
    cdef object run_path, last_line
    cdef tree.xmlNode* run_block
    cdef tree.xmlNode** opened

    def __dealloc__(self):
        free(self.opened)

    cdef Py_ssize_t place(self, tree.xmlNode* block) except -1:
        cdef int64_t found = self.index.get(<size_t>block)
        if found >= 0:
            return found
        cdef tree.xmlNode* element = block
        cdef tree.xmlNode* above
        cdef Py_ssize_t depth = self.run_depth
        while True:
            self.index.put(<size_t>element, self.parents.size)
            self.elements.append(cetree.elementFactory(self.doc, element))
            self.element_tags.append(_tag(element, self.names))
            self.spans.append(-1)
            self.spans.append(-1)
            depth -= 1
            above = self.opened[depth] if depth >= 0 else _parent_element(element)
            if above is NULL:
                self.parents.append(self.parents.size)
                break
            found = self.index.get(<size_t>above)
            self.parents.append(self.parents.size + 1 if found < 0 else found)
            if found >= 0:
                break
            element = above
        return self.index.get(<size_t>block)

    cdef object line_number(self):
        """The current line as a Python number: the one of the node before when the line is
        the same (most nodes of a page share their line with the one before)."""
        if self.last_line is None or self.last_value != self.line:
            self.last_line = self.line
            self.last_value = self.line
        return self.last_line

    cdef int flush(self) except -1:
        cdef tree.xmlNode* parent
        cdef size_t key
        cdef int64_t number
        if self.chars:
            parent = self.opened[self.run_depth - 1] if self.run_depth > 0 else _parent_element(self.run_block)
            key = <size_t>(parent if parent is not NULL else self.run_block)
            number = self.groups.get(key)
            if number < 0:
                number = len(self.group_numbers)
                self.groups.put(key, number)
                self.group_numbers.append(number)
            group = self.group_numbers[number]      # (one number object per group)
            self.node_blocks.append(self.place(self.run_block))
            text = "".join(self.parts)
            if "\n" in text and "pre" in self.run_path:
                normal = "\n".join(line for line in map(normalize_space, text.split("\n")) if line)
            elif _is_normal(text):
                normal = text
            else:
                normal = normalize_space(text)
            self.nodes.append(TextNode(len(self.nodes), text if normal == text else normal, self.chars,
                                       self.link_chars, cetree.elementFactory(self.doc, self.run_block),
                                       self.run_path, group, self.line_number()))
            if self.keep_pieces:
                self.piece_ends.append(len(self.piece_owners))
        self.parts = []
        self.chars = 0
        self.link_chars = 0
        return 0

    cdef int add(self, str text, tree.xmlNode* owner, tree.xmlNode* source) except -1:
        cdef Py_ssize_t visible = _visible_chars(text)
        if not self.parts:
            block = self.blocks[-1]
            self.run_block = <tree.xmlNode*><size_t>block[0]
            self.run_path = block[1]
            self.run_depth = block[3]
        self.parts.append(text)
        if visible:
            if not self.chars:
                if 0 < source.line < 65535:              # (lxml's sourceline, read in place)
                    self.line = source.line
                else:                                    # (0, or 65,535: lxml works out which)
                    self.line = cetree.elementFactory(self.doc, source).sourceline or 0
            if self.keep_pieces:
                self.piece_owners.append(cetree.elementFactory(self.doc, owner))
                self.piece_texts.append(text)
                self.piece_chars.append(visible)
            self.chars += visible
            if self.link_depth > 0:
                self.link_chars += visible
        return 0

    cdef int push(self, tree.xmlNode* c) except -1:
        if self.n_opened == self.capacity:
            self.opened = <tree.xmlNode**>_grown(self.opened, &self.capacity, sizeof(tree.xmlNode*), 64)
        self.opened[self.n_opened] = c
        self.n_opened += 1
        return 0

    cdef int enter(self, tree.xmlNode* c) except -1:
        """An element starts (the Python walk's loop body for the element)."""
        tag = _tag(c, self.names)
        self.push(c)
        self.tags.append(tag)
        if tag in _BLOCK:
            if self.parts:
                self.flush()
            path = tuple(self.tags)
            self.blocks.append((<size_t>c, self.paths.setdefault(path, path), self.p_seen, self.n_opened - 1))
            if tag == "p":
                self.p_seen += 1
        elif tag in _BREAK:
            if self.parts:
                self.flush()
        elif tag == "a" and _is_link(c):
            self.link_depth += 1
        text = cetree.textOf(c)
        if text and (self.parts or not text.isspace()):
            self.add(text, c, c)
        return 0

    cdef int leave(self, tree.xmlNode* c) except -1:
        """An element ends (the Python walk's loop over the elements that end)."""
        cdef Py_ssize_t at
        self.n_opened -= 1
        ended_tag = self.tags.pop()
        if ended_tag in _BLOCK:
            if self.parts:
                self.flush()
            before = self.blocks.pop()[2]
            at = self.index.get(<size_t>c)
            if at >= 0:
                self.spans.values[2 * at] = before
                self.spans.values[2 * at + 1] = self.p_seen
        elif ended_tag == "a" and _is_link(c):
            self.link_depth -= 1
        tail = cetree.tailOf(c)
        if tail and self.blocks and (self.parts or not tail.isspace()):
            self.add(tail, self.opened[self.n_opened - 1] if self.n_opened else _parent_element(c), c)
        return 0


def plain(cetree._Element element not None):
    """Whether the C readings apply to ``element``'s tree: an element (not a comment or an
    entity reference) in a document whose DTD declares no attributes (lxml's ``get`` also
    answers a DTD's default values, which the C readings do not see). Pages from
    :func:`newsml.input.parsed.parse` always are."""
    cdef tree.xmlDoc* document = element._doc._c_doc
    if element._c_node.type != tree.XML_ELEMENT_NODE:
        return False
    return not ((document.intSubset is not NULL and document.intSubset.attributes is not NULL)
                or (document.extSubset is not NULL and document.extSubset.attributes is not NULL))


def segment_tree(cetree._Element body not None, bint pieces=False):
    """:func:`newsml.dom.nodes.segment_tree`, walked in C (for a :func:`plain` tree)."""
    cdef cetree._Element root = body
    cdef _Walk walk = _Walk()
    cdef tree.xmlNode* c = root._c_node
    cdef tree.xmlNode* following = NULL
    walk.doc = root._doc
    walk.keep_pieces = pieces
    walk.nodes, walk.parts, walk.blocks, walk.elements, walk.element_tags = [], [], [], [], []
    walk.piece_owners, walk.piece_texts, walk.piece_chars, walk.piece_ends = [], [], [], []
    walk.parents, walk.spans, walk.node_blocks = _Numbers(), _Numbers(), _Numbers()
    walk.groups, walk.paths, walk.index, walk.names = _PointerMap(), {}, _PointerMap(), {}
    walk.group_numbers = []
    walk.tags = [] if body.tag == "html" else ["html"]
    walk.run_path, walk.run_block = (), c
    while True:
        walk.enter(c)
        following = _first_element(c)
        if following is not NULL:
            c = following
            continue
        while True:     # c has no element left inside: it ends, and so does each parent
            walk.leave(c)        # whose last element it was, up to the walk's root
            if c is root._c_node:
                break
            following = _next_element(c)
            if following is not NULL:
                break
            c = _parent_element(c)
        if c is root._c_node:
            break
        c = following
    nodes = walk.nodes
    block_tree = block_tree_from(walk.parents.array(), walk.node_blocks.array(), walk.elements, walk.element_tags)
    paragraphs = np.full((len(block_tree.elements), 2), -1, dtype=np.int64)
    if nodes:
        paragraphs[block_tree.block] = walk.spans.array().reshape(-1, 2)[block_tree.block]
    if not pieces:
        return Segmentation(nodes, block_tree, paragraphs, None)
    ends = np.asarray(walk.piece_ends, dtype=np.int64)
    piece_node = np.repeat(np.arange(len(nodes)), np.diff(ends, prepend=np.int64(0)))
    if len(piece_node) != len(walk.piece_owners):
        raise AssertionError("segmentation: a piece outside every node")
    piece_chars = np.asarray(walk.piece_chars, dtype=np.int64)
    for shared in (piece_chars, piece_node):
        shared.setflags(write=False)
    return Segmentation(nodes, block_tree, paragraphs,
                        Pieces(walk.piece_owners, walk.piece_texts, piece_chars, piece_node))


cdef object _attribute(cetree._Document doc, tree.xmlNode* c, const char* name):
    """``element.get(name)``: the value of a plain attribute read from its one text node,
    lxml's reading for any other (or None when the element has no such attribute)."""
    cdef tree.xmlAttr* attribute = c.properties
    cdef tree.xmlNode* value
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*>attribute.name, name) == 0:
            value = attribute.children
            if value is not NULL and value.next is NULL and value.type == tree.XML_TEXT_NODE \
                    and value.content is not NULL:
                return (<const char*>value.content).decode("utf-8")
            return cetree.getAttributeValue(cetree.elementFactory(doc, c), name.decode("ascii"), None)
        attribute = attribute.next
    return None


def children_by_mark(cetree._Element parent not None):
    """:func:`newsml.features.repetition._children_by_mark` of ``parent``: how many element
    children have each signature (:func:`newsml.dom.groupings.signature`: the tag, and the class
    with its white space normalized); None for a parent of at most one child."""
    return _children_by_mark(parent, {}, {})


cdef object _children_by_mark(cetree._Element element, dict names, dict normals):
    """:func:`children_by_mark`, with ``names`` holding the tags (:func:`_tag`) and
    ``normals`` each class attribute's :func:`~newsml.core.tags.normal_class` as they are
    met, for all the parents of one page (its children repeat the same classes many times:
    a dict lookup instead of a call each)."""
    if element is None:
        raise TypeError("children_by_mark reads an element, not None")
    cdef tree.xmlNode* c = element._c_node.children
    if element._c_node.type != tree.XML_ELEMENT_NODE:
        raise TypeError("children_by_mark reads an element's children")
    cdef Py_ssize_t n = 0
    while c is not NULL:        # len(parent): elements, comments, entities and PIs
        if c.type in (tree.XML_ELEMENT_NODE, tree.XML_COMMENT_NODE, tree.XML_ENTITY_REF_NODE, tree.XML_PI_NODE):
            n += 1
        c = c.next
    if n <= 1:
        return None
    cdef dict counts = {}
    c = _first_element(element._c_node)
    while c is not NULL:
        raw = _attribute(element._doc, c, b"class")
        normal = normals.get(raw)
        if normal is None:
            normal = normals[raw] = normal_class(raw)
        mark = (_tag(c, names), normal)
        counts[mark] = counts.get(mark, 0) + 1
        c = _next_element(c)
    return counts


def attribute_kinds(list elements, list tags):
    """:func:`newsml.dom.nodes.attribute_kinds` of elements with these tags: each one's kind
    (index of its distinct tag, class, id and itemprop) and the distinct keys in order."""
    cdef dict keys = {}
    cdef list kinds = []
    cdef cetree._Element element
    cdef tree.xmlNode* c
    for item, tag in zip(elements, tags):
        if item is None:
            raise TypeError("attribute_kinds reads elements, not None")
        element = item
        c = element._c_node
        key = (tag, _attribute(element._doc, c, b"class"), _attribute(element._doc, c, b"id"),
               _attribute(element._doc, c, b"itemprop"))
        kinds.append(keys.setdefault(key, len(keys)))
    return kinds, list(keys)


def alike_siblings(list elements, const int64_t[::1] parents, const int64_t[::1] kinds, list kind_marks):
    """For each (parent, kind) pair: how many element children of ``elements[parent]``
    carry the mark ``kind_marks[kind]`` (:func:`children_by_mark`, read once per parent); 1
    where the parent has at most one child (the loop of
    :class:`newsml.features.repetition.RepetitionFeatures`), as an int64 array. The pairs
    are taken parent by parent, so only one parent's counts are held at a time."""
    if parents.shape[0] != kinds.shape[0]:
        raise ValueError("one kind per parent")
    out = np.ones(parents.shape[0], dtype=np.int64)
    cdef int64_t[::1] alike = out
    cdef const int64_t[::1] order = np.argsort(parents, kind="stable")
    cdef Py_ssize_t j, i
    cdef int64_t current = -1
    cdef dict names = {}, normals = {}
    counts = None
    for j in range(order.shape[0]):
        i = order[j]
        if parents[i] != current:
            current = parents[i]
            counts = _children_by_mark(elements[current], names, normals)
        if counts is not None:
            alike[i] = counts[kind_marks[kinds[i]]]
    return out
