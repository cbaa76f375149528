# cython: language_level=3
"""Counts of many texts' characters taken in C (optional), a text at a time, with no array
per character: the prose family's eight counts per text (:func:`batch_counts`), as its
numpy batch (``newsml.features.prose._batch_counts``) takes them: each character's class
bits looked up in the same table, the Latin words found by the same rule (a word starts
at a letter that no word character runs into; quotes only continue a word), a word a stop
word when, lower-cased, it is in the same set; and the sentence marks of each text
(:func:`marks_each`, ``newsml.core.text.punctuation_counts``). On a news page of a few hundred
texts numpy's calls cost more than the counting, and on a large page its arrays were the
largest thing the family held.

Built when the package is installed with a C compiler at hand; the family uses numpy
otherwise (or when ``NEWSML_PURE_PYTHON`` is set).
"""

import numpy as np

cimport cython
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint64_t

from newsml.core._ascending cimport among

#: the class bits, as in newsml.features.prose (_CLASSES)
cdef enum:
    LETTER = 1
    UPPER = 2
    WORD_CHAR = 4
    ALNUM = 8
    DIGIT = 16
    HAN = 32
    FUNCTION = 64
    MARK = 128
    LONGEST_STOP = 12       # letters of a word a code holds: five bits each


def word_code(word: bytes) -> int:
    """A word of at most 12 lower-case ASCII letters as a number: its letters' places in
    the alphabet (1 to 26), five bits each, the first lowest (distinct words, distinct codes)."""
    if len(word) > LONGEST_STOP or not word.isalpha() or not word.islower() or not word.isascii():
        raise ValueError(f"not a word of at most {LONGEST_STOP} lower-case ASCII letters: {word!r}")
    return sum((letter - 96) << (5 * place) for place, letter in enumerate(word))


cdef object _checked(object text):
    """``text``, which must be a str (or a subclass, read as one)."""
    if not isinstance(text, str):
        raise TypeError(f"texts must be str, not {type(text).__name__}")
    return text


cdef inline unsigned int _letter(Py_UCS4 char) noexcept nogil:
    """The place in the alphabet (1 to 26) of an ASCII letter of either case."""
    return (<unsigned int>char | 0x20) - 96


@cython.boundscheck(False)
@cython.wraparound(False)
def batch_counts(texts, const uint8_t[::1] table not None, astral_bits,
                 const uint64_t[::1] stop_codes not None):
    """Per text: stop words and function characters, words, Han characters, CJK marks,
    letters and digits, digits, Latin words, capitalized Latin words (int64, one row each).

    ``table`` holds the class bits of every character of the Basic Multilingual Plane;
    ``astral_bits(character)`` gives those of one past it. ``stop_codes`` are the
    :func:`word_code` of the stop words, ascending."""
    cdef Py_ssize_t row, i, n, length
    if table.shape[0] != 0x10000:
        raise ValueError("the class table must cover the Basic Multilingual Plane")
    for i in range(1, stop_codes.shape[0]):
        if stop_codes[i - 1] >= stop_codes[i]:
            raise ValueError("stop codes must be distinct and ascending")
    cdef tuple items = tuple(texts)     # (held: the callback cannot change what is read)
    out = np.zeros((len(items), 8), dtype=np.int64)
    cdef int64_t[:, ::1] counts = out
    cdef dict astral = {}
    cdef int kind
    cdef void* data
    cdef Py_UCS4 char
    cdef uint8_t bits
    cdef bint in_word, plain
    cdef uint64_t code
    cdef int64_t stops, latin, han, marks, alnum, digits, capitals, function
    for row in range(len(items)):
        text = _checked(items[row])
        n = PyUnicode_GET_LENGTH(text)
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        stops = latin = han = marks = alnum = digits = capitals = function = 0
        in_word = False
        plain = False
        length = 0
        for i in range(n + 1):
            if i < n:
                char = PyUnicode_READ(kind, data, i)
                if char < 0x10000:
                    bits = table[char]
                else:
                    found = astral.get(char)
                    if found is None:
                        found = astral[char] = int(astral_bits(chr(char)))
                    bits = <uint8_t>found
                han += (bits & HAN) != 0
                function += (bits & FUNCTION) != 0
                marks += (bits & MARK) != 0
                alnum += (bits & ALNUM) != 0
                digits += (bits & DIGIT) != 0
            else:
                bits = 0          # past the end: ends the last word
            if in_word:
                if bits & WORD_CHAR:
                    if plain:     # (a word with a quote, or longer than a code holds, is no stop word)
                        if bits & LETTER and length < LONGEST_STOP:
                            code |= <uint64_t>_letter(char) << (5 * length)
                            length += 1
                        else:
                            plain = False
                    continue
                in_word = False
                if plain and among(code, stop_codes):
                    stops += 1
            if bits & LETTER:
                in_word = plain = True
                latin += 1
                capitals += (bits & UPPER) != 0
                code = _letter(char)
                length = 1
        counts[row, 0] = stops + function
        counts[row, 1] = latin + han
        counts[row, 2] = han
        counts[row, 3] = marks
        counts[row, 4] = alnum
        counts[row, 5] = digits
        counts[row, 6] = latin
        counts[row, 7] = capitals
    return out



@cython.boundscheck(False)
@cython.wraparound(False)
def marks_each(texts, const uint8_t[::1] table not None):
    """Per text: how many of its characters ``table`` marks (int64), ``table`` holding a
    byte per character of the Basic Multilingual Plane, 1 for a mark; every character past
    the plane is looked up at U+FFFF, as ``newsml.core.text._run_marks`` does."""
    if table.shape[0] != 0x10000:
        raise ValueError("the mark table must cover the Basic Multilingual Plane")
    cdef tuple items = tuple(texts)
    out = np.zeros(len(items), dtype=np.int64)
    cdef int64_t[::1] counts = out
    cdef Py_ssize_t row, i, n
    cdef int kind
    cdef void* data
    cdef const uint8_t* latin1
    cdef const uint16_t* ucs2
    cdef const Py_UCS4* ucs4
    cdef int64_t total
    for row in range(len(items)):
        text = _checked(items[row])
        n = PyUnicode_GET_LENGTH(text)
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        total = 0
        if kind == 1:
            latin1 = <const uint8_t*>data
            for i in range(n):
                total += table[latin1[i]]
        elif kind == 2:
            ucs2 = <const uint16_t*>data
            for i in range(n):
                total += table[ucs2[i]]
        else:
            ucs4 = <const Py_UCS4*>data
            for i in range(n):
                total += table[ucs4[i] if ucs4[i] < 0xFFFF else 0xFFFF]
        counts[row] = total
    return out
