"""newsml/input/parsed.py: a page through the whole input stage, one documented error for
what is no page, and the page's text made from the caller's own bytes."""

from __future__ import annotations

import pytest

from newsml import InvalidPageError
from newsml.dom.page import load_page


@pytest.mark.parametrize(("data", "fragment"), [
    (b"", "empty"),
    ("   \n\t ", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG"),
    (b"%PDF-1.7\n%\xe2\xe3", "PDF"),
    (bytes(range(256)) * 8, "binary"),
    ("just a line of plain text, no markup at all", "not HTML"),
    ('{"json": true, "html": false}', "not HTML"),
    (b"\x1f\x8b\x08\x00garbage", "gzip"),
])
def test_bad_input_raises_one_documented_error(data, fragment):
    with pytest.raises(InvalidPageError, match=fragment):
        load_page(data)


def test_invalid_page_error_is_a_value_error():
    assert issubclass(InvalidPageError, ValueError)


def test_the_page_text_is_made_from_the_callers_bytes_when_asked_for():
    data = '<?xml version="1.0"?><html><body><p>Caf\u00e9\x00 prices rose.</p></body></html>'.encode()
    parsed = load_page(data).parsed
    assert parsed.data is data and "text" not in vars(parsed)      # no decoded copy held
    assert parsed.text == "<html><body><p>Caf\u00e9 prices rose.</p></body></html>"
