"""The input stage of batch extraction: folders, lists of paths, WARC files."""

from __future__ import annotations

import io

import pytest
from conftest import LABELED, crawl, undecodable_crawl, warc_record, write_warc
from hypothesis import given, settings
from hypothesis import strategies as st

from newsml.errors import InvalidPageError
from newsml.input.read import MAX_PAGE_BYTES
from newsml.input.sources import Skipped, Source, expand_inputs, is_warc, iter_pages, read_list, warc_pages

PAGES = sorted(LABELED.glob("*.html"))


def test_source_key_and_identity():
    page = Source("a/b.html")
    record = Source("crawl.warc.gz", url="https://x/1", record_id="<urn:uuid:1>")
    assert page.key == "a/b.html" and page.identity() == {"path": "a/b.html"}
    assert record.key == "<urn:uuid:1>"
    assert record.identity() == {"path": "crawl.warc.gz", "url": "https://x/1", "record_id": "<urn:uuid:1>"}
    with pytest.raises(AttributeError):
        page.path = "other"  # frozen


def test_folders_are_walked_recursively_in_sorted_order(tmp_path):
    names = ["b.html", "a.HTM", "sub/c.html.gz", "sub/deeper/d.htm", "notes.txt", "x.json", "sub/e.warc.gz"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"<p>x</p>")
    found = [p[len(str(tmp_path)) + 1:] for p in expand_inputs([str(tmp_path)])]
    assert found == ["a.HTM", "b.html", "sub/c.html.gz", "sub/deeper/d.htm"]
    assert [p.rsplit("/", 1)[1] for p in expand_inputs([str(tmp_path)], glob="*.warc.gz")] == ["e.warc.gz"]
    assert list(expand_inputs([str(tmp_path)], glob="deeper/*")) == [str(tmp_path / "sub/deeper/d.htm")]
    # in lower case on both sides, as the default patterns ("a.HTM" is found above)
    assert [p.rsplit("/", 1)[1] for p in expand_inputs([str(tmp_path)], glob="*.HTM")] == ["a.HTM", "d.htm"]
    # files and '-' pass through as given, folders in place
    assert list(expand_inputs(["-", "missing.html", str(tmp_path / "sub" / "deeper")])) == [
        "-", "missing.html", str(tmp_path / "sub/deeper/d.htm")]


def test_warc_pages_are_the_html_responses_without_http_headers(tmp_path):
    path = crawl(tmp_path / "crawl.warc.gz")
    pages = list(warc_pages(path))
    assert [source.url for source, _ in pages] == [f"https://example.com/{i}" for i in range(3)]
    assert all(source.path == str(path) and source.record_id.startswith("<urn:uuid:") for source, _ in pages)
    assert len({source.key for source, _ in pages}) == 3
    assert [body for _, body in pages] == [PAGES[i].read_bytes() for i in range(3)]
    # uncompressed, and from a stream
    plain = crawl(tmp_path / "plain.warc", compress=False)
    with open(plain, "rb") as stream:
        assert [body for _, body in warc_pages(stream)] == [body for _, body in pages]


def test_a_warc_file_without_pages_is_named_on_stderr(tmp_path, capsys):
    info = warc_record("https://example.com/", b"software: x\r\n", record_type="warcinfo")
    json_only = warc_record("https://example.com/a.json", b'{"a": 1}', "application/json")
    path = write_warc(tmp_path / "x.warc.gz", [info, json_only])
    assert list(iter_pages([str(path)])) == []
    assert capsys.readouterr().err == f"newsml: {path}: no HTML response records (2 records skipped)\n"
    notes: list[str] = []
    assert list(warc_pages(path, report=notes.append)) == [] and len(notes) == 1
    assert list(iter_pages([str(crawl(tmp_path / "crawl.warc.gz"))])) and not capsys.readouterr().err


def test_a_response_without_a_content_type_is_a_page(tmp_path):
    path = write_warc(tmp_path / "x.warc", [warc_record("https://example.com/", b"<p>Hi</p>", None)])
    [(source, body)] = list(warc_pages(path))
    assert source.url == "https://example.com/" and body == b"<p>Hi</p>"


def test_a_warc_file_is_recognised_by_name_or_by_content(tmp_path):
    path = crawl(tmp_path / "crawl.warc.gz")
    disguised = tmp_path / "crawl.dat"
    disguised.write_bytes(path.read_bytes())
    assert is_warc(str(path)) and is_warc(str(disguised))
    assert not is_warc(str(PAGES[0])) and not is_warc("-") and not is_warc(str(tmp_path / "missing"))
    sources = [source for source, _ in iter_pages([str(disguised), str(PAGES[0])])]
    assert [s.url for s in sources] == [f"https://example.com/{i}" for i in range(3)] + [None]


def test_a_damaged_warc_yields_its_records_then_an_error(tmp_path):
    good = crawl(tmp_path / "good.warc.gz").read_bytes()
    broken = tmp_path / "broken.warc.gz"
    broken.write_bytes(good + b"this is no gzip member, and no WARC record\r\n\r\n")
    items = list(iter_pages([str(broken)]))
    assert [source.url for source, _ in items[:3]] == [f"https://example.com/{i}" for i in range(3)]
    source, error = items[-1]
    assert source == Source(str(broken)) and isinstance(error, InvalidPageError)
    assert "cannot read the WARC file" in str(error) and "after 4 response records" in str(error)
    not_warc = tmp_path / "page.warc"
    not_warc.write_bytes(PAGES[0].read_bytes())
    [(source, error)] = list(iter_pages([str(not_warc)]))
    assert isinstance(error, InvalidPageError) and "at its start" in str(error)


def test_files_are_read_by_the_worker_and_stdin_here(tmp_path):
    items = list(iter_pages([str(PAGES[0]), "-"], stdin=io.BytesIO(b"<p>from stdin</p>")))
    assert items == [(Source(str(PAGES[0])), None), (Source("-"), b"<p>from stdin</p>")]


def test_lists_of_paths_skip_blank_lines(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text("a.html\n\n  \nsub dir/b.html\r\n", encoding="utf-8")
    assert list(read_list(str(listing))) == ["a.html", "sub dir/b.html"]
    assert list(read_list("-", stdin=io.BytesIO(b"x.html\ny.html"))) == ["x.html", "y.html"]
    with pytest.raises(InvalidPageError, match="cannot read the list of paths"):
        list(read_list(str(tmp_path / "none.txt")))


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
def test_special_files_in_a_folder_are_error_records_never_opened(tmp_path):
    """A named pipe in a folder blocked the run in open() while it was looked at for WARC."""
    import os
    import socket

    (tmp_path / "a.html").write_bytes(b"<p>x</p>")
    os.mkfifo(tmp_path / "b.html")
    (tmp_path / "c.html").symlink_to("/dev/null")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "d.html"))
        paths = list(expand_inputs([str(tmp_path)]))
        assert paths == [str(tmp_path / name) for name in ("a.html", "b.html", "c.html", "d.html")]
        assert [type(path) for path in paths] == [str, Skipped, Skipped, Skipped]
        assert not any(is_warc(path) for path in paths)
        assert list(expand_inputs([str(tmp_path)], glob="*.warc")) == []
        pages = list(iter_pages(paths))
    assert [source.path for source, _ in pages] == paths and pages[0][1] is None
    reasons = [str(error) for _, error in pages[1:]]
    assert all(isinstance(error, InvalidPageError) for _, error in pages[1:])
    assert [reason.split(":")[0] for reason in reasons] == [
        "not a regular file but a named pipe", "not a regular file but a character device",
        "not a regular file but a socket"]
    # a pipe named on its own is read as before (<(zcat crawl.warc.gz)), not skipped
    assert list(expand_inputs([str(tmp_path / "b.html")])) == [str(tmp_path / "b.html")]
    assert type(next(expand_inputs([str(tmp_path / "b.html")]))) is str


def _fifo_holding(tmp_path, data: bytes, name: str = "pipe", first: int = 0):
    """A named pipe that a thread fills with ``data`` (as ``<(cat page.html)`` would);
    with ``first``, that many bytes come alone, a moment before the rest."""
    import os
    import threading
    import time

    path = tmp_path / name
    os.mkfifo(path)

    def fill():
        with open(path, "wb") as pipe:
            if first:
                pipe.write(data[:first])
                pipe.flush()
                time.sleep(0.2)
            pipe.write(data[first:])

    threading.Thread(target=fill, daemon=True).start()
    return path


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
def test_a_page_from_a_pipe_keeps_its_first_bytes(tmp_path):
    html = PAGES[0].read_bytes()
    assert len(html) > 4096              # what is_warc's look at the start used to take away
    path = str(_fifo_holding(tmp_path, html))
    assert not is_warc(path)
    [(source, data)] = list(iter_pages([path]))
    assert source.path == path and data == html


def _in_thread(work, seconds: float = 60):
    """What ``work()`` returns, from a thread given ``seconds`` (a hang fails the test,
    not the session)."""
    import threading

    result = []
    thread = threading.Thread(target=lambda: result.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    return result[0]


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
def test_a_named_pipe_nobody_writes_to_is_an_error_after_the_timeout(tmp_path):
    """open() of a named pipe waited for a writer without limit, before --timeout applied."""
    import os

    path = str(tmp_path / "pipe.html")
    os.mkfifo(path)
    assert _in_thread(lambda: is_warc(path, timeout=0.5)) is False
    [(source, error)] = _in_thread(lambda: list(iter_pages([path], timeout=0.5)))
    assert source.path == path and isinstance(error, InvalidPageError)
    assert "no bytes came for 0.5 s" in str(error)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
def test_a_pipe_that_writes_within_the_timeout_is_read_whole(tmp_path):
    html = PAGES[0].read_bytes()
    path = str(_fifo_holding(tmp_path, html, first=2))          # two bytes, a pause, the rest
    assert not is_warc(path, timeout=30)
    [(source, data)] = list(iter_pages([path], timeout=30))
    assert data == html


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
def test_the_timeout_bounds_each_wait_not_the_whole_stream(tmp_path):
    """A slow producer (<(curl ...), ssh host cat) that pauses less than the limit each time
    is read to its end, however long it takes in all."""
    import os
    import threading
    import time

    html = PAGES[0].read_bytes()
    path = tmp_path / "slow.html"
    os.mkfifo(path)

    def fill():
        with open(path, "wb") as pipe:
            for start in range(0, len(html), len(html) // 5 + 1):
                pipe.write(html[start:start + len(html) // 5 + 1])
                pipe.flush()
                time.sleep(0.3)             # 5 pauses of 0.3 s: 1.5 s in all, against 1 s

    threading.Thread(target=fill, daemon=True).start()
    [(_, data)] = _in_thread(lambda: list(iter_pages([str(path)], timeout=1)))
    assert data == html


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
def test_a_pipe_named_as_a_warc_file_is_bounded_too(tmp_path):
    """is_warc does not look into a .warc name, so the reader is opened by iter_pages."""
    import os

    path = str(tmp_path / "crawl.warc")
    os.mkfifo(path)
    assert is_warc(path)
    [(source, error)] = _in_thread(lambda: list(iter_pages([path], warc={path}, timeout=0.5)))
    assert source.path == path and "no bytes came for 0.5 s" in str(error)


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_a_pipe_read_for_its_page_is_closed_after(tmp_path):
    import os

    before = len(os.listdir("/proc/self/fd"))
    held = []                                # (an error's traceback holds the reader's frame)
    for name, timeout in (("a", 30), ("b", 0)):          # (0: no limit, the reader closed all the same)
        path = str(_fifo_holding(tmp_path, PAGES[0].read_bytes(), name=name))
        held += list(iter_pages([path], timeout=timeout))
        assert held[-1][1] == PAGES[0].read_bytes()
    os.mkfifo(tmp_path / "c.html")
    held += _in_thread(lambda: list(iter_pages([str(tmp_path / "c.html")], timeout=0.2)))
    assert isinstance(held[-1][1], InvalidPageError)
    assert len(os.listdir("/proc/self/fd")) == before


def test_standard_input_that_gives_nothing_is_an_error_after_the_timeout():
    import os

    reading, writing = os.pipe()                  # a writer that never writes nor closes
    try:
        with open(reading, "rb", closefd=False) as stdin:
            pages = _in_thread(lambda: list(iter_pages(["-"], stdin=stdin, timeout=0.5)))
        [(source, error)] = pages
        assert source.path == "-" and "no bytes came for 0.5 s" in str(error)
    finally:
        os.close(reading)
        os.close(writing)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
@pytest.mark.parametrize("first", [0, 2])          # 2: the pipe gives two bytes, then the rest
def test_a_warc_file_from_a_pipe_is_read_as_one(tmp_path, first):
    warc = crawl(tmp_path / "crawl.warc.gz").read_bytes()
    path = str(_fifo_holding(tmp_path, warc, first=first))
    assert is_warc(path)
    assert [source.url for source, _ in iter_pages([path], warc={path})] == [
        f"https://example.com/{i}" for i in range(3)]


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="named pipes need a POSIX system")
def test_warc_pages_reads_a_pipe_it_cannot_seek_in(tmp_path):
    path = _fifo_holding(tmp_path, crawl(tmp_path / "crawl.warc.gz").read_bytes())
    with open(path, "rb") as stream:
        urls = [source.url for source, _ in warc_pages(stream)]
    assert urls == [f"https://example.com/{i}" for i in range(3)]


def test_a_warc_file_on_standard_input_is_read_as_one(tmp_path):
    warc = crawl(tmp_path / "crawl.warc.gz").read_bytes()
    assert is_warc("-", stdin=io.BufferedReader(io.BytesIO(warc)))
    pages = list(iter_pages(["-"], stdin=io.BufferedReader(io.BytesIO(warc))))
    assert [source.url for source, _ in pages] == [f"https://example.com/{i}" for i in range(3)]
    assert all(data == PAGES[i].read_bytes() for i, (_, data) in enumerate(pages))


def test_a_warc_file_is_no_page(tmp_path):
    from newsml import extract

    for warc in (crawl(tmp_path / "c.warc.gz"), crawl(tmp_path / "c.warc", compress=False)):
        data = warc.read_bytes()
        with pytest.raises(InvalidPageError, match="a WARC file, not an HTML page"):
            extract(data)


def test_a_warc_file_cut_off_inside_a_record_ends_with_an_error_naming_it(tmp_path):
    whole = crawl(tmp_path / "whole.warc", compress=False).read_bytes()
    second = whole.index(b"WARC-Target-URI: https://example.com/1")
    cut = tmp_path / "cut.warc"
    cut.write_bytes(whole[:second + 900])        # inside the second page's body
    items = list(iter_pages([str(cut)]))
    assert [source.url for source, _ in items] == ["https://example.com/0", None]
    assert items[0][1] == PAGES[0].read_bytes()
    error = items[1][1]
    assert isinstance(error, InvalidPageError) and "https://example.com/1 is cut off" in str(error)
    assert "after 2 response records" in str(error)    # page 0 and the JSON read whole, not the cut one


def test_a_chunked_response_is_not_taken_for_a_cut_off_one(tmp_path):
    from fastwarc.warc import WarcRecord, WarcRecordType

    body = PAGES[0].read_bytes()
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:500], body[500:])) + b"0\r\n\r\n"
    record = WarcRecord()
    record.init_headers(record_type=WarcRecordType.response, record_urn=b"uuid:1")
    record.headers.append("WARC-Target-URI", "https://example.com/chunked")
    record.headers.append("Content-Type", "application/http; msgtype=response")
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
    record.set_bytes_content(head + chunks)
    buffer = io.BytesIO()
    record.write(buffer)
    path = write_warc(tmp_path / "chunked.warc.gz", [buffer.getvalue()])
    assert [data for _, data in warc_pages(str(path))] == [body]


@pytest.mark.parametrize("compress", [True, False])
def test_an_undecodable_record_is_an_error_in_its_place_and_the_next_ones_are_read(tmp_path, compress):
    """A body FastWARC could not decode ended the WARC file there: the records after it were lost."""
    path = undecodable_crawl(tmp_path / "c.warc")
    if not compress:
        path.write_bytes(__import__("gzip").decompress(path.read_bytes()))
    items = list(iter_pages([str(path)]))
    assert [source.url for source, _ in items] == [
        "https://example.com/0", "https://example.com/chunks", "https://example.com/plain",
        "https://example.com/bomb", "https://example.com/1"]
    assert items[0][1] == PAGES[0].read_bytes() and items[4][1] == PAGES[1].read_bytes()
    chunks, plain = items[1][1], items[2][1]
    assert isinstance(chunks, InvalidPageError) and "bad chunked encoding" in str(chunks)
    assert isinstance(plain, InvalidPageError) and "not the gzip data its Content-Encoding says" in str(plain)
    assert isinstance(items[3][1], bytes) and len(items[3][1]) == MAX_PAGE_BYTES + 1  # refused as too large


def test_bodies_are_decoded_within_bounds():
    import gzip
    import zlib

    import brotli

    from newsml.input.http_body import decode_body

    body = PAGES[0].read_bytes()
    parts = (body[:700], body[700:])
    chunked = b"".join(b"%x;x=1\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"
    assert decode_body(chunked, "chunked", None, 10**8) == body
    assert decode_body(gzip.compress(body), None, "gzip", 10**8) == body
    assert decode_body(zlib.compress(body), None, "deflate", 10**8) == body
    assert decode_body(zlib.compress(body)[2:-4], None, "deflate", 10**8) == body       # raw deflate
    assert decode_body(brotli.compress(body), None, "br", 10**8) == body
    assert decode_body(body, None, "identity, x-unknown", 10**8) == body
    cut = decode_body(gzip.compress(body)[:-20], None, "gzip", 10**8)     # cut off: what there is
    assert cut and body.startswith(cut)
    for coding in ("gzip", "br"):
        packed = gzip.compress(b"\0" * 10**6) if coding == "gzip" else brotli.compress(b"\0" * 10**6)
        assert len(decode_body(packed, None, coding, 1000)) == 1001
    with pytest.raises(InvalidPageError, match="not the brotli data"):
        decode_body(body, None, "br", 10**8)


def test_a_folder_that_cannot_be_read_is_an_error_record_in_its_place(tmp_path, monkeypatch):
    """An unreadable subfolder of a folder input was skipped with no record and no message."""
    import os

    for name in ("a.html", "locked/b.html", "z/c.html"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(b"<p>x</p>")
    scandir = os.scandir

    def refusing(path="."):     # as for a folder of mode 000 (which root reads anyway)
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    paths = list(expand_inputs([str(tmp_path)]))
    assert paths == [str(tmp_path / "a.html"), str(tmp_path / "locked"), str(tmp_path / "z/c.html")]
    assert isinstance(paths[1], Skipped)
    [(source, error)] = [item for item in iter_pages(paths) if isinstance(item[1], Exception)]
    assert source.path == str(tmp_path / "locked")
    assert str(error) == "cannot read the folder: Permission denied; its files are not read"

    def refusing_all(path="."):
        raise PermissionError(13, "Permission denied", os.fspath(path))

    monkeypatch.setattr(os, "scandir", refusing_all)
    assert [(p, p.reason) for p in expand_inputs([str(tmp_path)])] == [   # the folder named itself
        (str(tmp_path), "cannot read the folder: Permission denied; its files are not read")]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["\\", "x", "e", "9", "ff", "a", "/", ".html", "\udce9", "\udc80", "é",
                                 "x4"]), max_size=12).map("".join))
def test_a_shown_path_reads_back_as_the_path(path):
    from newsml.input.sources import displayable, undisplayable

    shown = displayable(path)
    assert undisplayable(shown) == path
    shown.encode("utf-8")                                        # writable anywhere


def test_two_names_never_show_alike():
    """'lat<0xE9>n.html' and a file named 'lat\\xe9n.html' got one path: --resume skipped the second."""
    from newsml.input.sources import displayable

    raw, literal = "lat\udce9n.html", "lat\\xe9n.html"
    assert displayable(raw) == "lat\\xe9n.html" and displayable(literal) == "lat\\\\xe9n.html"
    assert Source(raw).key != Source(literal).key
    assert displayable("a\\b.html") == "a\\b.html" and displayable("caf\u00e9.html") == "caf\u00e9.html"
