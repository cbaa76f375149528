# A binary search in an ascending table, shared by the compiled modules that look numbers up
# in one (newsml/core/_text_counts.pyx: stop-word codes; newsml/methods/_markup_tokens.pyx: comment
# token ids): inline, so nothing is imported at run time.

cimport cython
from libc.stdint cimport int64_t, uint64_t

ctypedef fused ascending_value:
    int64_t
    uint64_t


@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline bint among(ascending_value value, const ascending_value[::1] ascending) noexcept nogil:
    """Whether ``value`` is among the ascending ``ascending``."""
    cdef Py_ssize_t low = 0, high = ascending.shape[0], middle
    while low < high:
        middle = (low + high) >> 1
        if ascending[middle] < value:
            low = middle + 1
        else:
            high = middle
    return low < ascending.shape[0] and ascending[low] == value
