"""Writing WARC records, for the scripts and the tests that need a crawl to read.

Writing WARC files is no part of newsml (it reads them): this helper lives beside the
scripts, which import it directly; the tests load it from here.
"""

from __future__ import annotations

import gzip
import io
import uuid
from pathlib import Path


def warc_record(url: str, body: bytes, content_type: str | None = "text/html; charset=utf-8",
                record_type: str = "response") -> bytes:
    """One WARC record with an HTTP response (headers, then ``body``) inside, written with
    FastWARC; ``content_type`` None leaves out the HTTP Content-Type."""
    from fastwarc.warc import WarcRecord, WarcRecordType

    record = WarcRecord()
    record.init_headers(record_type=getattr(WarcRecordType, record_type),
                        record_urn=f"uuid:{uuid.uuid4()}".encode())
    record.headers.append("WARC-Target-URI", url)
    record.headers.append("Content-Type", "application/http; msgtype=response")
    typed = f"Content-Type: {content_type}\r\n" if content_type is not None else ""
    http = f"HTTP/1.1 200 OK\r\n{typed}Content-Length: {len(body)}\r\n\r\n".encode() + body
    record.set_bytes_content(http)
    buffer = io.BytesIO()
    record.write(buffer)
    return buffer.getvalue()


def raw_response(url: str, head: bytes, body: bytes) -> bytes:
    """One WARC response record whose HTTP message is sent as given: the status line and a
    text/html Content-Type, then the header lines ``head`` and ``body`` untouched (no
    Content-Length added), for bodies a crawler would have to decode (chunked, gzip)."""
    from fastwarc.warc import WarcRecord, WarcRecordType

    record = WarcRecord()
    record.init_headers(record_type=WarcRecordType.response, record_urn=f"uuid:{uuid.uuid4()}".encode())
    record.headers.append("WARC-Target-URI", url)
    record.headers.append("Content-Type", "application/http; msgtype=response")
    record.set_bytes_content(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + head + b"\r\n" + body)
    buffer = io.BytesIO()
    record.write(buffer)
    return buffer.getvalue()


def write_warc(path: Path, records: list[bytes], compress: bool = True) -> Path:
    """A WARC file of ``records``, each its own gzip member when compressed (as crawls are)."""
    path.write_bytes(b"".join(gzip.compress(r) if compress else r for r in records))
    return path
