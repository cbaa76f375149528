# cython: language_level=3
"""The semantics family's marks of a page's kinds of elements in C (optional): per kind
(tag, class, id, itemprop), the bits of the families its tag and its words name, as
``newsml.features.semantics._key_families`` gives them (:func:`key_marks`).

The family reads a few hundred kinds of elements a page, each with a few words, and a
page of a site not met before brings dozens of words not met before, each searched with
the families' pattern. Here an ASCII string is cut at its spaces in C, each word's mark
read from the family's table, and a new ASCII word searched by :class:`FamilyMatcher`,
which takes the pattern's alternatives in the pattern's order, as its search does; only
a string beyond ASCII (whose spaces and cases are Unicode's) goes to the family's Python
code.

Built when the package is installed with a C compiler at hand; the family uses its Python
code otherwise (or when ``NEWSML_PURE_PYTHON`` is set).
"""

import numpy as np

cimport cython
from cpython.dict cimport PyDict_GetItemWithError
from cpython.object cimport PyObject
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc


cdef inline bint _space(unsigned char c) noexcept nogil:
    """What str.split() cuts an ASCII string at."""
    return c == 32 or 9 <= c <= 13 or 28 <= c <= 31


cdef class FamilyMatcher:
    """The families' search over a lower-cased ASCII word (``_BY_FIRST_LETTER.finditer``):
    at each place the alternatives that start with its letter are tried in order, each
    optional character taken first, then left out; the first that matches gives its family
    and the search goes on after it, else it goes on a character later.

    ``alternatives``: (first letter, the rest of the alternative, family bit), in the
    pattern's order; the rest holds letters, ``_`` and ``-``, each maybe followed by ``?``,
    and maybe ends in ``\\b``.
    """
    cdef bytes chars            # the alternatives' rests, one after another
    cdef bytes optional         # 1 where a character of chars may be left out
    cdef Py_ssize_t[27] letter_start    # the alternatives of letter a..z: letter_start[l]..[l + 1]
    cdef Py_ssize_t* starts             # per alternative (in letter order): where its rest starts,
    cdef Py_ssize_t* ends               # ends, whether it ends in \\b, and its bit
    cdef unsigned char* boundary
    cdef int64_t* bits

    def __cinit__(self):
        self.starts = self.ends = NULL
        self.boundary = NULL
        self.bits = NULL

    def __dealloc__(self):
        free(self.starts)
        free(self.ends)
        free(self.boundary)
        free(self.bits)

    def __init__(self, list alternatives not None):
        parsed = []
        for first, rest, bit in alternatives:
            if not isinstance(first, str) or len(first) != 1 or not "a" <= first <= "z":
                raise ValueError(f"an alternative must start with a letter a-z, not {first!r}")
            chars, optional, boundary = bytearray(), bytearray(), False
            for i, c in enumerate(rest):
                if rest[i:] == "\\b":
                    boundary = True
                    break
                if c == "?" and chars and not optional[-1]:
                    optional[-1] = 1
                elif c.isascii() and (c.islower() or c in "-_"):
                    chars.append(ord(c))
                    optional.append(0)
                elif c != "\\" or rest[i + 1:] != "b":
                    raise ValueError(f"alternative {first + rest!r}: not a plain lower-case word")
            bit = int(bit)
            if not 0 < bit < 2 ** 62:
                raise ValueError(f"a family bit must be positive and below 2**62, not {bit}")
            parsed.append((first, bytes(chars), bytes(optional), boundary, bit))
        parsed.sort(key=lambda alternative: alternative[0])     # (stable: each letter's in order)
        # everything checked: the tables are made apart, then take the old ones' place
        cdef Py_ssize_t n = len(parsed), k
        cdef Py_ssize_t* starts = <Py_ssize_t*>malloc(max(n, 1) * sizeof(Py_ssize_t))
        cdef Py_ssize_t* ends = <Py_ssize_t*>malloc(max(n, 1) * sizeof(Py_ssize_t))
        cdef unsigned char* boundaries = <unsigned char*>malloc(max(n, 1))
        cdef int64_t* bits = <int64_t*>malloc(max(n, 1) * sizeof(int64_t))
        if starts is NULL or ends is NULL or boundaries is NULL or bits is NULL:
            free(starts)
            free(ends)
            free(boundaries)
            free(bits)
            raise MemoryError()
        all_chars, all_optional = bytearray(), bytearray()
        for k in range(n):
            first, chars, optional, boundary, bit = parsed[k]
            starts[k] = len(all_chars)
            all_chars += chars
            all_optional += optional
            ends[k] = len(all_chars)
            boundaries[k] = boundary
            bits[k] = bit
        free(self.starts)
        free(self.ends)
        free(self.boundary)
        free(self.bits)
        self.starts, self.ends, self.boundary, self.bits = starts, ends, boundaries, bits
        self.chars, self.optional = bytes(all_chars), bytes(all_optional)
        letters = [alternative[0] for alternative in parsed]
        for k in range(27):
            self.letter_start[k] = sum(1 for first in letters if ord(first) - 97 < k)

    def mark(self, str word not None):
        """The bits of the families the lower-cased ASCII ``word`` names."""
        if not word.isascii():
            raise ValueError("FamilyMatcher reads ASCII words only")
        cdef bytes data = word.encode("ascii")
        return self._mark(data, len(data))

    cdef int64_t _mark(self, const unsigned char* s, Py_ssize_t n) noexcept:
        cdef Py_ssize_t pos = 0, end, k
        cdef int64_t mark = 0
        cdef const unsigned char* chars = self.chars
        cdef const unsigned char* optional = self.optional
        while pos < n:
            end = -1
            if 97 <= s[pos] <= 122:
                for k in range(self.letter_start[s[pos] - 97], self.letter_start[s[pos] - 96]):
                    end = _match(s, n, pos + 1, chars, optional, self.starts[k], self.ends[k],
                                 self.boundary[k])
                    if end >= 0:
                        mark |= self.bits[k]
                        break
            pos = end if end >= 0 else pos + 1
        return mark


cdef inline bint _word_char(const unsigned char* s, Py_ssize_t n, Py_ssize_t at) noexcept:
    return 0 <= at < n and (97 <= s[at] <= 122 or 48 <= s[at] <= 57 or s[at] == 95 or 65 <= s[at] <= 90)


cdef Py_ssize_t _match(const unsigned char* s, Py_ssize_t n, Py_ssize_t at, const unsigned char* chars,
                       const unsigned char* optional, Py_ssize_t i, Py_ssize_t length, bint boundary) noexcept:
    """Where the rest ``chars[i:]`` of an alternative matching from ``at`` ends, or -1 (an
    optional character taken first, then left out, as the pattern backtracks)."""
    cdef Py_ssize_t end
    if i == length:
        if boundary and _word_char(s, n, at - 1) == _word_char(s, n, at):
            return -1
        return at
    if at < n and s[at] == chars[i]:
        end = _match(s, n, at + 1, chars, optional, i + 1, length, boundary)
        if end >= 0:
            return end
    if optional[i]:
        return _match(s, n, at, chars, optional, i + 1, length, boundary)
    return -1


cdef int64_t _mark(object value, dict word_marks, object word_mark, object string_marks,
                   FamilyMatcher matcher, Py_ssize_t most, Py_ssize_t longest) except? -1:
    """The bits of the families the words of the string ``value`` name."""
    if not isinstance(value, str):
        raise TypeError(f"class, id and itemprop values must be str or None, not {type(value).__name__}")
    if not (<str>value).isascii():
        return string_marks(value)
    cdef bytes data = (<str>value).encode("ascii")
    cdef bytes lowered
    cdef const unsigned char* s = data
    cdef Py_ssize_t n = len(data), i = 0, j
    cdef int64_t mark = 0, found_mark
    cdef PyObject* found
    while i < n:
        if _space(s[i]):
            i += 1
            continue
        j = i + 1
        while j < n and not _space(s[j]):
            j += 1
        word = (<str>value)[i:j] if (i or j < n) else value
        found = PyDict_GetItemWithError(word_marks, word)
        if found is not NULL:
            found_mark = <int64_t>(<object>found)
        elif matcher is None:
            found_mark = <int64_t>word_mark(word)
        else:
            lowered = data[i:j].lower()
            found_mark = matcher._mark(lowered, j - i)
            if j - i <= longest:
                if len(word_marks) >= most:
                    word_marks.clear()
                word_marks[word] = found_mark
        mark |= found_mark
        i = j
    return mark


@cython.boundscheck(False)
@cython.wraparound(False)
def key_marks(list keys not None, dict tag_marks not None, dict word_marks not None, object word_mark,
              object string_marks, FamilyMatcher matcher=None, Py_ssize_t most=16384, Py_ssize_t longest=64):
    """Per kind of element of ``keys`` ((tag, class, id, itemprop) tuples): ``tag_marks[tag]``
    (0 for a tag of no family) or-ed with the marks of its class, id and itemprop words,
    each ``word_marks[word]``; a word not in it is searched by ``matcher`` and kept in
    ``word_marks`` (at most ``most`` words of at most ``longest`` characters; a full table
    starts again), or without a matcher is ``word_mark(word)``; a string beyond ASCII is
    ``string_marks(value)``."""
    cdef tuple kinds = tuple(keys)           # (the callbacks may change the list they were given)
    cdef Py_ssize_t n = len(kinds), i
    out = np.zeros(n, dtype=np.int64)
    cdef int64_t[::1] marks = out
    cdef int64_t mark
    cdef PyObject* found
    for i in range(n):
        key = kinds[i]
        if not isinstance(key, tuple) or len(<tuple>key) != 4:
            raise TypeError("keys must be (tag, class, id, itemprop) tuples")
        found = PyDict_GetItemWithError(tag_marks, (<tuple>key)[0])
        mark = <int64_t>(<object>found) if found is not NULL else 0
        for value in (<tuple>key)[1:]:
            if value is not None and value:
                mark |= _mark(value, word_marks, word_mark, string_marks, matcher, most, longest)
        marks[i] = mark
    return out
