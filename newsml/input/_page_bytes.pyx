# cython: language_level=3, boundscheck=False, wraparound=False
"""The look at a page's bytes that decides whether they go to the parser as they are
(optional): :func:`newsml.input.parse._ready_utf8`'s checks in one pass over the bytes instead
of a translation, a decoding and five searches.

Built when the package is installed with a C compiler at hand; ``newsml.input.parse`` uses its
Python counterpart otherwise, with the same answers.
"""

from libc.stdint cimport int64_t, uint8_t


cdef inline bint _is_control(uint8_t byte):
    """C0 controls but tab, line feed and carriage return, and DEL: bytes that UTF-8
    decodes into characters no XML tree holds (``parse._BYTE_SHAPES`` maps them to NUL)."""
    return byte < 32 and byte != 9 and byte != 10 and byte != 13 or byte == 127


cdef inline int _hex_value(uint8_t byte):
    if 48 <= byte <= 57:
        return byte - 48
    if 97 <= byte <= 102:
        return byte - 87
    if 65 <= byte <= 70:
        return byte - 55
    return -1


cdef bint _unsafe_code(int64_t code):
    """``parse._unsafe_reference`` for a code of at most eight digits."""
    if code > 0x10FFFF or 0x80 <= code < 0xA0:
        return True
    if code < 32:
        return code != 9 and code != 10 and code != 13
    return code == 0x7F or 0xD800 <= code <= 0xDFFF or code == 0xFFFE or code == 0xFFFF


cdef bint _unsafe_reference_at(const uint8_t* data, Py_ssize_t at, Py_ssize_t n):
    """Whether a character reference ``&#...`` starting at ``at`` (the ``&``) is one the
    text path replaces (``parse._CHAR_REF_RE`` and ``_unsafe_reference``); False where no
    reference starts (``&#`` followed by no digit)."""
    cdef Py_ssize_t i = at + 2, digits = 0
    cdef int64_t code = 0        # (eight hexadecimal digits at most: no overflow)
    cdef int value
    cdef bint hexadecimal = i < n and (data[i] == b"x" or data[i] == b"X")
    if hexadecimal:
        i += 1
        while i < n:
            value = _hex_value(data[i])
            if value < 0:
                break
            if digits < 8:
                code = code * 16 + value
            digits += 1
            i += 1
    else:
        while i < n and 48 <= data[i] <= 57:
            if digits < 8:
                code = code * 10 + (data[i] - 48)
            digits += 1
            i += 1
    if digits == 0:
        return False
    return digits > 8 or _unsafe_code(code)


#: Per lead byte of UTF-8: the sequence's length (0: no lead byte) and the range its
#: second byte must fall in (Unicode's table 3-7, as Python's strict decoder reads it:
#: no overlong forms, no surrogates, nothing past U+10FFFF).
cdef uint8_t _LENGTH[256]
cdef uint8_t _SECOND_LOW[256]
cdef uint8_t _SECOND_HIGH[256]
for _lead in range(256):
    _LENGTH[_lead] = 2 if 0xC2 <= _lead <= 0xDF else 3 if 0xE0 <= _lead <= 0xEF else 4 if 0xF0 <= _lead <= 0xF4 else 0
    _SECOND_LOW[_lead] = {0xE0: 0xA0, 0xF0: 0x90}.get(_lead, 0x80)
    _SECOND_HIGH[_lead] = {0xED: 0x9F, 0xF4: 0x8F}.get(_lead, 0xBF)
del _lead


cdef inline Py_ssize_t _utf8_length(const uint8_t* data, Py_ssize_t at, Py_ssize_t n):
    """Bytes in the well-formed UTF-8 sequence of more than one byte starting at ``at``, or
    0 for an ill-formed one."""
    cdef uint8_t lead = data[at]
    cdef Py_ssize_t length = _LENGTH[lead], k
    if length == 0 or at + length > n:
        return 0
    if not _SECOND_LOW[lead] <= data[at + 1] <= _SECOND_HIGH[lead]:
        return 0
    for k in range(2, length):
        if data[at + k] < 0x80 or data[at + k] > 0xBF:
            return 0
    return length


cdef uint8_t _PLAIN[256]
for _byte in range(256):    # bytes that need no look: ASCII but controls, < > & and ~
    _PLAIN[_byte] = _byte < 0x80 and not _is_control(_byte) and _byte not in b"<>&~"
del _byte


def ready_scan(const unsigned char[::1] page not None, Py_ssize_t long_run):
    """None when ``page`` cannot go to the parser as its own bytes: a control character
    (C0 but tab, line feed and carriage return; DEL), bytes that are not UTF-8, U+FFFE or
    U+FFFF, a C1 control (U+0080 to U+009F), an ASCII page holding ``~{`` (it may be
    HZ-GB-2312), or a character reference to anything of those, to a surrogate or past
    U+10FFFF, or of more than eight digits (``parse._unsafe_reference``). Else
    (the number of ``<``, where each ``<`` stands that is followed by ``long_run`` bytes or
    more with no ``<`` or ``>``).

    Byte-order marks, the markup test and the XML declaration are the caller's.
    """
    cdef const uint8_t* data = &page[0] if page.shape[0] else NULL
    cdef Py_ssize_t n = page.shape[0], i = 0, step, opened = -1, tags = 0
    cdef bint ascii = True, tilde_brace = False
    cdef uint8_t byte
    cdef list long_starts = []
    while True:
        while i < n and _PLAIN[data[i]]:
            i += 1
        if i == n:
            break
        byte = data[i]
        if byte == b"<" or byte == b">":
            if opened >= 0 and i - opened > long_run:
                long_starts.append(opened)
            if byte == b"<":
                tags += 1
                opened = i
            else:
                opened = -1
            i += 1
        elif byte == b"&":
            if i + 1 < n and data[i + 1] == b"#" and _unsafe_reference_at(data, i, n):
                return None
            i += 1
        elif byte == b"~":
            if i + 1 < n and data[i + 1] == b"{":
                tilde_brace = True
            i += 1
        elif byte < 0x80:      # a control character
            return None
        else:
            ascii = False
            step = _utf8_length(data, i, n)
            if step == 0:
                return None
            if byte == 0xC2 and data[i + 1] < 0xA0:                            # U+0080..U+009F
                return None
            if byte == 0xEF and data[i + 1] == 0xBF and data[i + 2] >= 0xBE:  # U+FFFE, U+FFFF
                return None
            i += step
    if opened >= 0 and n - opened > long_run:
        long_starts.append(opened)
    if ascii and tilde_brace:
        return None
    return tags, long_starts
