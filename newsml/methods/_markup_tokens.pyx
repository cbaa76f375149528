# cython: language_level=3
"""The markup family's readings in C (optional): the token ids of an ASCII class or id
string (:func:`class_word_ids`, what ``newsml.methods.markup._class_words`` finds, looked
up in the model's words), and the sum of the learned weights of the tokens each kind of
node carries (:func:`token_sums`).

``MarkupTokens._kind_columns`` gathers each kind of node's tokens, the union over its
levels of the tags and class and id words of the elements it sees, as (kind, token)
pairs in numpy arrays, sorted to drop repeats, and sums their weights by kind: a Python
loop over every (level, element) the kinds see, and a dozen numpy calls, for a page of a
few hundred nodes. Here each kind's tokens are gathered, sorted and summed in one loop,
in the order the sparse product of training sums them (ascending token ids): the same
sums, to the last bit.

Built when the package is installed with a C compiler at hand; the family uses its
Python code otherwise (or when ``NEWSML_PURE_PYTHON`` is set).
"""

import numpy as np

cimport cython
from cpython.dict cimport PyDict_GetItemWithError
from cpython.object cimport PyObject
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc, realloc

from newsml.core._ascending cimport among


cdef inline bint _ascii_letter(unsigned char c) noexcept nogil:
    return (c | 0x20) >= 97 and (c | 0x20) <= 122


cdef inline bint _lower_or_digit(unsigned char c) noexcept nogil:
    return (97 <= c <= 122) or (48 <= c <= 57)


def class_word_ids(str value not None, dict word_ids not None):
    """The ids ``word_ids`` gives the words of the class or id string ``value`` (in order,
    repeats kept, words it lacks left out); None for a string beyond ASCII, whose
    lower-casing is Unicode's.

    A word is what ``[a-z][a-z0-9]+`` finds in the string lower-cased after a camelCase
    cut (a space between a lower-case letter or digit and a capital): a letter followed
    by letters and digits, two characters at least, not across a cut.
    """
    if not value.isascii():
        return None
    cdef bytes data = value.encode("ascii")
    cdef const unsigned char* s = data
    cdef Py_ssize_t n = len(data), i = 0, j, k
    cdef char word[256]
    found = []
    while i < n:
        if not _ascii_letter(s[i]):
            i += 1
            continue
        j = i + 1
        while j < n and (_ascii_letter(s[j]) or 48 <= s[j] <= 57) and not (
                _lower_or_digit(s[j - 1]) and 65 <= s[j] <= 90):
            j += 1
        if j - i < 2:
            i += 1
            continue
        if j - i <= 256:
            for k in range(j - i):
                word[k] = s[i + k] | 0x20 if 65 <= s[i + k] <= 90 else s[i + k]
            key = word[:j - i].decode("ascii")
        else:
            key = data[i:j].decode("ascii").lower()
        found_id = word_ids.get(key)
        if found_id is not None:
            found.append(found_id)
        i = j
    return tuple(found)


cdef class _Ids:
    """A growable array of token ids."""
    cdef int64_t* values
    cdef Py_ssize_t size, capacity

    def __dealloc__(self):
        free(self.values)

    cdef int append(self, int64_t value) except -1:
        cdef int64_t* grown
        if self.size == self.capacity:
            grown = <int64_t*>realloc(self.values, (2 * self.capacity + 64) * sizeof(int64_t))
            if grown is NULL:
                raise MemoryError()
            self.values = grown
            self.capacity = 2 * self.capacity + 64
        self.values[self.size] = value
        self.size += 1
        return 0


cdef int _add_ids(_Ids into, object ids, Py_ssize_t vocabulary) except -1:
    """Append the ids of the tuple ``ids``, each checked to be a token of the vocabulary."""
    if not isinstance(ids, tuple):
        raise TypeError(f"token ids must come as a tuple, not {type(ids).__name__}")
    cdef int64_t token
    for item in <tuple>ids:
        token = item
        if token < 0 or token >= vocabulary:
            raise ValueError(f"token id {token} outside the vocabulary of {vocabulary}")
        into.append(token)
    return 0


@cython.boundscheck(False)
@cython.wraparound(False)
def token_sums(combinations, list keys not None, dict words not None, object of_words, dict tags not None,
               object tag_ids, const int64_t[::1] comment not None, const double[::1] coef not None):
    """Per column of ``combinations`` (a kind of node: the element kind it sees at each level,
    -1 for none), the sum of ``coef`` over its distinct tokens in ascending order.

    An element kind ``k`` is ``keys[k % len(keys)]`` (tag, class, id, itemprop); from
    ``len(keys)`` on it is a headline container, whose class and id give no ``comment``
    tokens (ascending ids). Its class and id words are ``words[value]``, else
    ``of_words(value)``; its tag's tokens at levels 0, 1 and 2 or more are ``tags[tag]``,
    else ``tag_ids(tag)`` (three ids, -1 for none). The callbacks may change what they were
    given: ``combinations`` and ``keys`` are read from copies taken first.
    """
    cdef const int64_t[:, ::1] kinds_seen = np.array(combinations, dtype=np.int64, order="C", copy=True)
    cdef tuple key_of = tuple(keys)
    cdef Py_ssize_t levels = kinds_seen.shape[0], n = kinds_seen.shape[1], n_keys = len(key_of)
    cdef Py_ssize_t vocabulary = coef.shape[0], level, c, k, i, j, start, end, n_kinds = 2 * n_keys
    cdef int64_t kind, token
    cdef PyObject* cached
    for level in range(levels):
        for c in range(n):
            if kinds_seen[level, c] >= n_kinds:
                raise ValueError(f"element kind {kinds_seen[level, c]} of {n_kinds} kinds")
    cdef int64_t[::1] starts = np.full(n_kinds + 1, -1, dtype=np.int64)   # each kind's ids, once read
    cdef int64_t[::1] ends = np.zeros(n_kinds + 1, dtype=np.int64)
    cdef int64_t[::1] tag_of = np.full(3 * n_kinds, -1, dtype=np.int64)
    cdef _Ids ids = _Ids()
    cdef _Ids kept = _Ids()
    out = np.zeros(n, dtype=np.float64)
    cdef double[::1] sums = out
    cdef double total
    cdef int64_t* buffer = NULL
    cdef int64_t* grown
    cdef Py_ssize_t capacity = 0, size
    try:
        for c in range(n):
            for level in range(levels):
                kind = kinds_seen[level, c]
                if kind < 0 or starts[kind] >= 0:
                    continue
                key = key_of[kind % n_keys]
                if not isinstance(key, tuple) or len(<tuple>key) < 3:
                    raise TypeError("keys must be tuples of (tag, class, id, ...)")
                starts[kind] = ids.size
                for value in ((<tuple>key)[1], (<tuple>key)[2]):
                    if value is None or not value:
                        continue
                    cached = PyDict_GetItemWithError(words, value)
                    _add_ids(ids, <object>cached if cached is not NULL else of_words(value), vocabulary)
                if kind >= n_keys and comment.shape[0]:
                    kept.size = 0
                    for i in range(starts[kind], ids.size):
                        if not among(ids.values[i], comment):
                            kept.append(ids.values[i])
                    ids.size = starts[kind]
                    for i in range(kept.size):
                        ids.append(kept.values[i])
                ends[kind] = ids.size
                tag = (<tuple>key)[0]
                cached = PyDict_GetItemWithError(tags, tag)
                triple = <object>cached if cached is not NULL else tag_ids(tag)
                if not isinstance(triple, tuple) or len(<tuple>triple) != 3:
                    raise TypeError("a tag's token ids must be three")
                for i in range(3):
                    token = (<tuple>triple)[i]
                    if token >= vocabulary or token < -1:
                        raise ValueError(f"token id {token} outside the vocabulary of {vocabulary}")
                    tag_of[3 * kind + i] = token
            # this kind of node's tokens: gathered, sorted (insertion: a few dozen), summed once each
            size = 0
            for level in range(levels):
                kind = kinds_seen[level, c]
                if kind < 0:
                    continue
                start, end = starts[kind], ends[kind]
                if size + (end - start) + 1 > capacity:
                    capacity = 2 * (size + (end - start) + 1) + 64
                    grown = <int64_t*>realloc(buffer, capacity * sizeof(int64_t))
                    if grown is NULL:
                        raise MemoryError()
                    buffer = grown
                token = tag_of[3 * kind + (level if level < 2 else 2)]
                if token >= 0:
                    buffer[size] = token
                    size += 1
                for i in range(start, end):
                    buffer[size] = ids.values[i]
                    size += 1
            for i in range(1, size):
                token = buffer[i]
                j = i - 1
                while j >= 0 and buffer[j] > token:
                    buffer[j + 1] = buffer[j]
                    j -= 1
                buffer[j + 1] = token
            total = 0.0
            for i in range(size):
                if i == 0 or buffer[i] != buffer[i - 1]:
                    total += coef[buffer[i]]
            sums[c] = total
    finally:
        free(buffer)
    return out
