"""The look at a page's bytes made in C (newsml/input/_page_bytes.pyx) answers as its Python
counterpart (``sanitize.bytes_scan``), on every kind of byte a page may hold.

Skipped, with the reason, where the package was installed without it (no C compiler):
there the Python scan is the only one, and every other test runs on it.
"""

from __future__ import annotations

import random

import pytest
from conftest import compiled_or_skip, in_python, labeled_and_corpus_pages, speedups_afresh

from newsml.core import speedups
from newsml.input import sanitize


@pytest.fixture(scope="module")
def compiled():
    return compiled_or_skip("input._page_bytes", "sanitize.bytes_scan looks at the bytes")


#: Pieces of pages around every branch of the scan: delimiters, character references
#: (safe, unsafe, too long, cut short), controls, C1 controls, U+FFFE/U+FFFF, well-formed
#: and ill-formed UTF-8 (overlong, surrogates, past U+10FFFF, cut short), HZ's ``~{``.
PIECES = [
    b"<", b">", b"<p>", b"a", b" ", b"\t", b"\n", b"\r", b"&", b"&#", b"&#x", b"&#X", b"x", b"0", b"9",
    b"1F", b"7f", b"D800", b"dfff", b"fffe", b"FFFF", b"110000", b"10FFFF", b"000000000065", b"65",
    b";", b"~", b"{", b"\x00", b"\x08", b"\x0b", b"\x0c", b"\x1f", b"\x7f", b"&#128;", b"&#160;",
    b"&#x9F;", b"\xc2\x80", b"\xc2\x9f", b"\xc2\xa0", b"\xef\xbf\xbe", b"\xef\xbf\xbf", b"\xef\xbf\xbd",
    b"\xe0\x80\x80", b"\xe0\xa0\x80", b"\xed\xa0\x80", b"\xed\x9f\xbf", b"\xf0\x8f\xbf\xbf",
    b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5", b"\xc0\xaf", b"\xc1",
    b"\x80", b"\xbf", b"\xff", b"\xe4\xb8", b"\xe4\xb8\xad", b"\xf0\x9f\x98",
]


def test_the_compiled_scan_answers_as_python_on_pieces(compiled):
    rng = random.Random(11)
    answers = {"refused": 0, "long run": 0, "none long": 0}
    for _ in range(20000):
        data = b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10)))
        for long_run in (1, 2, 3, 5):
            found = compiled.ready_scan(data, long_run)
            assert found == sanitize.bytes_scan(data, long_run), (data, long_run)
            answers["refused" if found is None else "long run" if found[1] else "none long"] += 1
    assert min(answers.values()) > 300, answers


def test_the_compiled_scan_answers_as_python_on_random_bytes(compiled):
    rng = random.Random(12)
    for _ in range(5000):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
        assert compiled.ready_scan(data, 2) == sanitize.bytes_scan(data, 2), data


def test_the_compiled_scan_finds_each_long_run_once(compiled):
    """A run of exactly ``long_run`` bytes counts, one short does not; a multi-byte
    character counts its bytes, as the Python scan of the bytes does."""
    data = b"<a " + b"x" * 30 + b"><b" + "中".encode() * 3 + b"<c" + b"y" * 8 + b">" + b"<" + b"z" * 10
    assert compiled.ready_scan(data, 10) == (4, [0, 34, 56]) == sanitize.bytes_scan(data, 10)


def test_the_compiled_scan_on_labeled_and_corpus_pages(compiled):
    """Real pages, and the same with pieces put in at random places."""
    rng = random.Random(13)
    pages = [path.read_bytes() for path in labeled_and_corpus_pages("cwced_zh", each=40)]
    refused = 0
    for data in pages:
        for long_run in (sanitize._LONG_RUN, 40):
            assert compiled.ready_scan(data, long_run) == sanitize.bytes_scan(data, long_run)
        mutated = bytearray(data)
        for _ in range(3):
            at = rng.randrange(len(mutated) + 1)
            mutated[at:at] = rng.choice(PIECES)
        refused += compiled.ready_scan(bytes(mutated), sanitize._LONG_RUN) is None
        assert compiled.ready_scan(bytes(mutated), sanitize._LONG_RUN) == sanitize.bytes_scan(bytes(mutated),
                                                                                         sanitize._LONG_RUN)
    assert 0 < refused < len(pages)


def test_the_scan_falls_back_to_python_when_told(monkeypatch, compiled):
    speedups_afresh(monkeypatch)
    monkeypatch.setenv("NEWSML_PURE_PYTHON", "1")
    assert speedups.loaded("input._page_bytes") is None
    monkeypatch.undo()
    page = "<html><body><p>Grüße, 中文 &amp; &#x41; text.</p></body></html>".encode()
    declared = b"<?xml version='1.0' encoding='utf-8'?>" + page
    pages = (page, declared, page + b"&#1;")
    ready = [sanitize._ready_utf8(data) for data in pages]
    assert in_python(lambda: [sanitize._ready_utf8(data) for data in pages]) == ready == [page, page, None]
