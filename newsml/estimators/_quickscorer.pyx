# cython: language_level=3
"""The leaf masks of :class:`newsml.estimators.trees.FrozenTrees` read in C (optional).

The same reading as ``FrozenTrees._read_masks`` (QuickScorer: per row and feature, the
table row of the splits it goes right at, ANDed per tree; each tree's leftmost leaf left
is the row's leaf), one row at a time: a row's words stay in the processor's cache and
no (row, tree) array is made per feature. On news pages of a few hundred nodes numpy's
calls, four per feature, cost more than the reading itself. Returns the leaf values, so
that their sums are numpy's, as in the Python reading (the same bits).
"""

import numpy as np

cimport cython
from libc.math cimport isnan
from libc.stdint cimport int64_t, uint8_t, uint64_t

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static int newsml_lowest_bit(unsigned long long x) {
        unsigned long at; _BitScanForward64(&at, x); return (int)at;
    }
    #else
    static int newsml_lowest_bit(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int newsml_lowest_bit(unsigned long long x) nogil

cdef extern from *:
    """
    #include <stdint.h>
    /* the ANDs take most of the time: where the compiler and C library can choose at load
       time, a copy for processors with AVX2 (four words an instruction) is made too */
    #if defined(__GNUC__) && defined(__x86_64__) && defined(__GLIBC__)
    __attribute__((target_clones("avx2", "default")))
    #endif
    static void newsml_and_into(uint64_t* __restrict word, const uint64_t* __restrict line, Py_ssize_t n) {
        for (Py_ssize_t t = 0; t < n; t++) word[t] &= line[t];
    }
    """
    void newsml_and_into(uint64_t* word, const uint64_t* line, Py_ssize_t n) nogil


cdef inline Py_ssize_t _below(const double* ascending, Py_ssize_t n, double x) noexcept nogil:
    """How many of the ``n`` values at ``ascending`` are below ``x`` (not NaN): a binary
    search whose steps choose without a branch (a conditional move), since the
    comparisons are as likely true as false."""
    cdef const double* base = ascending
    cdef Py_ssize_t half
    if n == 0:
        return 0
    while n > 1:
        half = n >> 1
        base = base + half if base[half - 1] < x else base
        n -= half
    return base - ascending + (base[0] < x)


cdef tuple _outputs(Py_ssize_t n_rows, Py_ssize_t n_trees):
    """A reader's leaf values (a row per row, a column per tree) and one row's words, or
    None for the words when there is nothing to read."""
    out = np.empty((n_rows, n_trees), dtype=np.float64)
    return out, (np.empty(n_trees, dtype=np.uint64) if n_rows and n_trees else None)


cdef inline void _all_leaves_left(uint64_t* word, Py_ssize_t n_trees) noexcept nogil:
    """A row's words before its first feature: every leaf of every tree still possible."""
    cdef Py_ssize_t t
    for t in range(n_trees):
        word[t] = ~(<uint64_t>0)


cdef inline void _leaf_values_into(const uint64_t* word, const double* values, double* out,
                                   Py_ssize_t n_trees) noexcept nogil:
    """Each tree's value at the leftmost leaf its word leaves (a row always keeps its own
    leaf: no word is all zeros)."""
    cdef Py_ssize_t t
    cdef uint64_t bits
    for t in range(n_trees):
        bits = word[t]
        out[t] = values[64 * t + newsml_lowest_bit(bits)] if bits else 0.0


@cython.boundscheck(False)      # every index is checked against the shapes before the loop
@cython.wraparound(False)
def leaf_values(const double[:, ::1] X not None, const int64_t[::1] features not None,
                const double[::1] thresholds not None, const int64_t[::1] bounds not None,
                const int64_t[::1] starts not None, const uint64_t[:, ::1] table not None,
                const double[::1] values not None):
    """Per row of ``X`` and tree: the value of the row's leaf.

    ``features[j]`` is split on at ``thresholds[bounds[j]:bounds[j + 1]]`` (ascending);
    its table rows start at ``starts[j]``: one per number of those thresholds below the
    value, then one for NaN. ``values`` are the leaf values at tree * 64 + leaf number.
    """
    cdef Py_ssize_t n_rows = X.shape[0], n_trees = table.shape[1], n_features = features.shape[0]
    cdef Py_ssize_t i, j, low, high, row
    if bounds.shape[0] != n_features + 1 or starts.shape[0] != n_features:
        raise ValueError("one start and one pair of bounds per feature")
    if values.shape[0] != 64 * n_trees:
        raise ValueError("64 leaf values per tree")
    for j in range(n_features):        # (checked once: the loop below reads without checks)
        if not 0 <= features[j] < X.shape[1]:
            raise ValueError(f"feature {features[j]} outside the rows' {X.shape[1]} columns")
        if not 0 <= bounds[j] <= bounds[j + 1] <= thresholds.shape[0]:
            raise ValueError("threshold bounds outside the thresholds")
        if not 0 <= starts[j] or starts[j] + bounds[j + 1] - bounds[j] + 1 >= table.shape[0]:
            raise ValueError("table rows outside the table")
    out, word_array = _outputs(n_rows, n_trees)
    if word_array is None:
        return out
    cdef double[:, ::1] result = out
    cdef uint64_t[::1] words = word_array
    cdef uint64_t* word = &words[0]
    cdef const double* threshold = &thresholds[0] if thresholds.shape[0] else NULL
    cdef double x
    with nogil:
        for i in range(n_rows):
            _all_leaves_left(word, n_trees)
            for j in range(n_features):
                x = X[i, features[j]]
                low, high = bounds[j], bounds[j + 1]
                if isnan(x):
                    row = starts[j] + high - low + 1
                else:          # how many thresholds lie below x (numpy's searchsorted, left)
                    row = starts[j] + _below(threshold + low, high - low, x)
                newsml_and_into(word, &table[row, 0], n_trees)
            _leaf_values_into(word, &values[0], &result[i, 0], n_trees)
    return out


@cython.boundscheck(False)      # every index is checked against the table before it is read
@cython.wraparound(False)
def leaf_values_of_rows(const uint8_t[:, ::1] rows not None, const int64_t[::1] starts not None,
                        const uint64_t[:, ::1] table not None, const double[::1] values not None):
    """:func:`leaf_values` from table rows found beforehand: ``starts[j] + rows[i, j]`` is
    the table row of row i's value of the j-th feature split on
    (``FrozenTrees.write_table_rows``). A large page keeps this byte per node and feature
    instead of its evidence matrix's eight."""
    cdef Py_ssize_t n_rows = rows.shape[0], n_columns = rows.shape[1], n_trees = table.shape[1]
    cdef Py_ssize_t n_table = table.shape[0], i, j, row
    cdef bint outside = False
    if starts.shape[0] != n_columns:
        raise ValueError("one start per column of table rows")
    if values.shape[0] != 64 * n_trees:
        raise ValueError("64 leaf values per tree")
    # a feature's rows end where the next's start (the last's at the table's end)
    ends_array = np.append(np.asarray(starts)[1:], n_table).astype(np.int64)
    cdef const int64_t[::1] ends = ends_array
    for j in range(n_columns):
        if not 0 <= starts[j] <= ends[j] <= n_table:
            raise ValueError("feature starts outside the table or not ascending")
    out, word_array = _outputs(n_rows, n_trees)
    if word_array is None:
        return out
    cdef double[:, ::1] result = out
    cdef uint64_t[::1] words = word_array
    cdef uint64_t* word = &words[0]
    with nogil:
        for i in range(n_rows):
            _all_leaves_left(word, n_trees)
            for j in range(n_columns):
                row = starts[j] + rows[i, j]
                if row >= ends[j]:          # (a code past its feature's rows)
                    outside = True
                    break
                newsml_and_into(word, &table[row, 0], n_trees)
            if outside:
                break
            _leaf_values_into(word, &values[0], &result[i, 0], n_trees)
    if outside:
        raise ValueError("a table row outside its feature's rows")
    return out
