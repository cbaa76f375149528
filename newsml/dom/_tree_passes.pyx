# cython: language_level=3
"""Passes over a page's block tree compiled (optional): the depth of every element
(:func:`depths`), sums carried up to the root (:func:`sums_up`) and answers handed down
from parents (:func:`inherit_down`).

:class:`newsml.dom.nodes.BlockTree` makes these passes with numpy a level at a time, a few
calls per level; the tree of a news page has a few hundred elements on some twenty
levels, so numpy's calls cost more than the work, and up to eight sums, four hand-downs and
the depths are made per page. Here each pass is one loop, in the order the level-by-level
code takes: the same results, to the last bit of every sum (each parent's children are
added to it in the same order).

Built when the package is installed with a C compiler at hand; ``newsml.dom.nodes`` uses
numpy otherwise (or when ``NEWSML_PURE_PYTHON`` is set).
"""

import numpy as np

cimport cython
from libc.stdint cimport int64_t, uint8_t

ctypedef fused value_t:
    int64_t
    uint8_t
    double


cdef int _check_tree(const int64_t[::1] parent, const int64_t[::1] by_depth,
                     const int64_t[::1] level_starts) except -1:
    """Raise ValueError unless the arrays are a tree's: parents and elements in range, level
    bounds ascending from 0 to the number of elements."""
    cdef Py_ssize_t n = parent.shape[0], i
    if by_depth.shape[0] != n:
        raise ValueError(f"by_depth holds {by_depth.shape[0]} elements, the tree {n}")
    if level_starts.shape[0] < 1 or level_starts[0] != 0 or level_starts[level_starts.shape[0] - 1] != n:
        raise ValueError("level_starts must run from 0 to the number of elements")
    for i in range(n):
        if parent[i] < 0 or parent[i] >= n or by_depth[i] < 0 or by_depth[i] >= n:
            raise ValueError("a parent or an element out of the tree's range")
    for i in range(1, level_starts.shape[0]):
        if level_starts[i] < level_starts[i - 1]:
            raise ValueError("level_starts must be ascending")
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def depths(const int64_t[::1] parent not None):
    """Each element's distance from its root (an element that is its own parent), as the
    numpy climb of ``newsml.dom.nodes._block_tree`` counts it; ValueError for parents that
    never reach a root."""
    cdef Py_ssize_t n = parent.shape[0], i, steps
    cdef int64_t e, known
    for i in range(n):
        if parent[i] < 0 or parent[i] >= n:
            raise ValueError("a parent out of the tree's range")
    out = np.full(n, -1, dtype=np.int64)
    cdef int64_t[::1] depth = out
    for i in range(n):
        # climb to a root or to an element whose depth is known, then count back down
        e, steps = i, 0
        while depth[e] < 0 and parent[e] != e:
            e = parent[e]
            steps += 1
            if steps > n:
                raise ValueError("the parents hold a cycle: no root above an element")
        known = depth[e] if depth[e] >= 0 else 0
        e = i
        while depth[e] < 0:
            depth[e] = known + steps
            e = parent[e]
            steps -= 1
    return out


@cython.boundscheck(False)
@cython.wraparound(False)
def sums_up(const int64_t[::1] parent not None, const int64_t[::1] by_depth not None,
            const int64_t[::1] level_starts not None, double[::1] total not None):
    """Add each element's ``total`` into its parent's, the deepest level first and each level
    in index order (``by_depth``: elements by depth, ``level_starts``: where each depth
    begins in it, and the end); in place. ``total`` holds each element's own part."""
    _check_tree(parent, by_depth, level_starts)
    if total.shape[0] != parent.shape[0]:
        raise ValueError(f"total holds {total.shape[0]} values for {parent.shape[0]} elements")
    cdef Py_ssize_t level, k
    cdef int64_t e
    with nogil:
        for level in range(level_starts.shape[0] - 2, 0, -1):
            for k in range(level_starts[level], level_starts[level + 1]):
                e = by_depth[k]
                total[parent[e]] += total[e]


@cython.boundscheck(False)
@cython.wraparound(False)
def inherit_down(const int64_t[::1] parent not None, const int64_t[::1] by_depth not None,
                 const int64_t[::1] level_starts not None, value_t[::1] values not None,
                 const uint8_t[::1] settled not None):
    """Give each element below the roots' level that is not ``settled`` its parent's value,
    the levels from the top down; in place."""
    _check_tree(parent, by_depth, level_starts)
    if values.shape[0] != parent.shape[0] or settled.shape[0] != parent.shape[0]:
        raise ValueError(f"values and settled must hold a value per element ({parent.shape[0]})")
    cdef Py_ssize_t k
    cdef int64_t e
    with nogil:
        if level_starts.shape[0] > 1:
            for k in range(level_starts[1], level_starts[level_starts.shape[0] - 1]):
                e = by_depth[k]
                if not settled[e]:
                    values[e] = values[parent[e]]
