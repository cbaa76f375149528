"""newsml/input/read.py: a path, bytes or text in; the page's bytes or text out, within the
size limit (files, pipes, gzip streams), and clear errors for what is no page file."""

from __future__ import annotations

import gzip
import os
import zlib
from pathlib import Path

import pytest

from newsml import InvalidPageError, extract
from newsml.dom.page import load_page
from newsml.input import read

STORY = ("<html><body><div><p>The harbour closed on Monday as the storm reached the coast, "
         "officials said.</p><p>Ferries will resume on Wednesday, if the wind drops below gale "
         "force.</p></div><footer>Copyright 2024 Coast News. All rights reserved.</footer></body></html>")
FIRST = "The harbour closed on Monday as the storm reached the coast, officials said."


def test_empty_text_unreadable_files_and_path_likes(tmp_path, monkeypatch, default_method):
    for empty in ("", "  \n"):
        with pytest.raises(InvalidPageError, match="empty page"):
            extract(empty, method=default_method)
    monkeypatch.chdir(tmp_path)
    Path("p.html").write_text(STORY, encoding="utf-8")
    from pathlib import PurePosixPath
    assert extract(PurePosixPath("p.html") if os.name == "posix" else Path("p.html"),
                   method=default_method).text.startswith(FIRST)
    if Path("/proc/self/mem").exists():   # opens, then fails to read: EIO
        with pytest.raises(InvalidPageError, match="cannot read /proc/self/mem"):
            extract(Path("/proc/self/mem"), method=default_method)


def test_a_str_naming_a_file_with_markup_in_its_name_is_read(tmp_path, monkeypatch, default_method):
    monkeypatch.chdir(tmp_path)
    Path("a<b>.html").write_text(STORY, encoding="utf-8")
    assert extract("a<b>.html", method=default_method).text.startswith(FIRST)
    with pytest.raises(InvalidPageError, match="not a file: .* is a folder"):
        extract(str(tmp_path), method=default_method)


def _gzip_bomb(size: int) -> bytes:
    """A gzip stream of ``size`` bytes of zeros after a tag, built without holding them."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = bytes(1 << 20)
    parts = [packer.compress(b"<p>")]
    for _ in range(size // len(chunk)):
        parts.append(packer.compress(chunk))
    return b"".join(parts) + packer.flush()


def test_a_gzip_bomb_stops_at_the_page_size_limit():
    bomb = _gzip_bomb(read.MAX_PAGE_BYTES + (1 << 20))
    assert len(bomb) < read.MAX_PAGE_BYTES // 500
    with pytest.raises(InvalidPageError, match="page too large: the gzip stream expands past"):
        load_page(bomb)


def test_junk_after_a_whole_gzip_stream_is_dropped_and_a_cut_stream_refused(default_method):
    packed = gzip.compress(STORY.encode())
    assert extract(packed + b"\r\n0\r\n\r\njunk", method=default_method).text.startswith(FIRST)
    with pytest.raises(InvalidPageError, match="damaged gzip stream"):
        extract(packed[: len(packed) // 2], method=default_method)


def test_gzip_below_the_limit_and_several_members_are_read():
    two = gzip.compress(b"<p>One, two, three.</p>") + gzip.compress(b"<p>Four, five, six.</p>")
    assert [node.text for node in load_page(two).nodes] == ["One, two, three.", "Four, five, six."]
    with pytest.raises(InvalidPageError, match="expands past 100 bytes"):
        read.maybe_gunzip(gzip.compress(b"<p>" + b"x" * 200), limit=100)


def test_pages_files_and_strings_past_the_size_limit_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(read, "MAX_PAGE_BYTES", 1000)
    big = "<p>" + "word " * 400 + "</p>"
    for page in (big, big.encode()):
        with pytest.raises(InvalidPageError, match="page too large"):
            load_page(page)
    path = tmp_path / "big.html"
    path.write_text(big, encoding="utf-8")
    with pytest.raises(InvalidPageError, match="page too large: the file"):
        load_page(path)
    assert load_page("<p>" + "word " * 100 + "</p>").nodes  # below the limit


def test_files_at_the_size_limit_and_pipes_are_read_whole(tmp_path, monkeypatch):
    """A regular file is read at its size, a pipe (no size) up to the limit: both whole."""
    import os
    import threading

    monkeypatch.setattr(read, "MAX_PAGE_BYTES", 1000)
    exact = ("<p>" + "x" * 993 + "</p>").encode()
    path = tmp_path / "exact.html"
    path.write_bytes(exact)
    assert read.read_page(path) == exact
    if not hasattr(os, "mkfifo"):
        return
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    for data, fits in ((exact, True), (exact + b" ", False)):
        writer = threading.Thread(target=fifo.write_bytes, args=(data,))
        writer.start()
        try:
            if fits:
                assert read.read_page(fifo) == data
            else:
                with pytest.raises(InvalidPageError, match="page too large: the file"):
                    read.read_page(fifo)
        finally:
            writer.join()


def test_missing_file_path_is_reported_as_such():
    with pytest.raises(InvalidPageError, match="no file of that name"):
        load_page("no/such/page.html")


def test_reads_a_path(tmp_path):
    path = tmp_path / "p.html"
    path.write_bytes(b"<p>From a file, really.</p>")
    assert extract(path).text == extract(str(path)).text == "From a file, really."


def test_gzipped_page_is_decompressed():
    assert extract(gzip.compress(b"<p>Compressed, yes.</p>")).text == "Compressed, yes."


@pytest.mark.parametrize(("page", "address"), [
    ("https://example.com/news/story.html", "https://example.com/news/story.html"),
    ("http://example.com", "http://example.com"),
    (Path("https://example.com/news/story.html"), "https://example.com/news/story.html"),  # "//" became "/"
])
def test_a_web_address_is_not_downloaded_and_the_error_says_how_to_get_the_page(page, address):
    with pytest.raises(InvalidPageError, match="a web address, not a file") as error:
        load_page(page)
    assert f"curl -L -o page.html '{address}'" in str(error.value)


def test_a_missing_windows_path_is_a_missing_file_not_a_web_address():
    with pytest.raises(InvalidPageError, match="no such file"):
        load_page(Path("C:/pages/story.html"))


def test_missing_path_objects_are_invalid_pages(tmp_path):
    with pytest.raises(InvalidPageError, match="no such file"):
        load_page(tmp_path / "nope.html")
    with pytest.raises(InvalidPageError, match="not a file"):
        load_page(tmp_path)


def test_check_size_allows_the_limit_and_names_what_passes_it():
    assert read.check_size(read.MAX_PAGE_BYTES) is None
    with pytest.raises(InvalidPageError, match=r"page too large: the stream holds more than [\d,]+ bytes"):
        read.check_size(read.MAX_PAGE_BYTES + 1, "the stream")


def test_read_page_gives_bytes_and_markup_as_they_are_and_refuses_the_rest():
    data = bytearray(b"<p>One, two.</p>")
    assert read.read_page(data) == bytes(data) and type(read.read_page(data)) is bytes
    assert read.read_page(memoryview(b"<p>x</p>")) == b"<p>x</p>"
    markup = "<p>A page given as text.</p>"
    assert read.read_page(markup) is markup
    with pytest.raises(InvalidPageError, match="not HTML: the text 'plain words' has no markup"):
        read.read_page("plain words")
    with pytest.raises(TypeError, match="not int"):
        read.read_page(42)


def test_gunzip_passes_other_bytes_through_and_skips_padding_between_members():
    plain = b"<p>Not compressed.</p>"
    assert read.maybe_gunzip(plain) is plain
    padded = gzip.compress(b"<p>One.</p>") + b"\x00" * 8 + gzip.compress(b"<p>Two.</p>")
    assert read.maybe_gunzip(padded) == b"<p>One.</p><p>Two.</p>"
    assert read.maybe_gunzip(gzip.compress(b"x" * 100), limit=100) == b"x" * 100   # at the limit: whole


def test_a_missing_file_is_both_an_invalid_page_and_a_file_not_found(tmp_path):
    from newsml import InvalidPageError, PageNotFoundError, extract

    for caught in (FileNotFoundError, InvalidPageError, PageNotFoundError):
        with pytest.raises(caught, match="no such file"):
            extract(tmp_path / "missing.html")
