"""Batch extraction on the command line: writing records, ``--resume``, and the run.

- :class:`RecordWriter` writes records as text, a JSON array (streamed) or JSON lines;
  :func:`completed_keys` reads a JSON-lines output back for ``--resume``.
- :func:`run` extracts the pages not done yet and writes their records, with an
  extractor from :func:`newsml.run.pool.extraction`.

The page record and the worker pool live in :mod:`newsml.run.records` and :mod:`newsml.run.pool`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.progress import ProgressHook, hook
from ..errors import NewsmlError, OutputError
from ..input.sources import HTML_PATTERNS, Payload, Source, expand_inputs, iter_pages, read_list, record_key
from .output import STDIN, Output, OutputLock, check_output, is_compressed, partial_path
from .pool import Extractor
from .stops import StopHold, Terminated, stops_guarded

# -- output -------------------------------------------------------------------------------------

#: The formats of ``newsml predict``: JSON records, or each article as a document.
FORMATS = ("text", "markdown", "html", "json", "jsonl")


def plain_text(title: str, text: str) -> str:
    """An article as text: its title, a blank line, its body; the body's first line left out
    where it is the title again (the headline in the body)."""
    lines = text.split("\n")
    if title and lines and lines[0].strip() == title.strip():
        lines = lines[1:]
    body = "\n".join(lines)
    return f"{title}\n\n{body}\n" if title else f"{body}\n"


class RecordWriter:
    """Records to an :class:`~newsml.run.output.Output` as ``text``, ``markdown``, ``html``,
    ``json`` or ``jsonl``.

    jsonl is one record a line, error records included; json is one object (``single``)
    or an array streamed record by record; text is the title and the body of each
    article, markdown and html each article as a document (a ``==> name <==`` line first
    unless ``single``; errors only on stderr).
    """

    def __init__(self, output: Output, fmt: str, single: bool = False) -> None:
        self.output = output
        self.format = fmt
        self.single = single
        self.count = 0
        self._started = False
        self._closed = False

    def start(self) -> None:
        """Begin the output (the opening bracket of a json array), before the first record:
        a Ctrl-C in :meth:`write` then still leaves :meth:`close` a valid array to end."""
        if self.format == "json" and not self.single and not self._started:
            self._started = True
            self.output.write("[")

    def write(self, record: dict[str, Any]) -> None:
        """Write one record."""
        if self.format == "jsonl":   # each line handed to the system: a KILL leaves whole records
            self.output.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.output.flush()
        elif self.format == "json":
            text = json.dumps(record, ensure_ascii=False, indent=2)
            if self.single:
                self.output.write(text + "\n")
            else:
                self.start()
                self.output.write(("\n" if self.count == 0 else ",\n") + textwrap.indent(text, "  "))
        elif "error" not in record:
            self._write_text(record)
        self.count += 1

    def _write_text(self, record: dict[str, Any]) -> None:
        if not self.single:
            self.output.write(f"==> {record.get('url') or record['path']} <==\n")
        if self.format == "markdown":
            self.output.write(record["markdown"])
        elif self.format == "html":
            self.output.write(record["html"])
        else:
            self.output.write(plain_text(record["title"], record["text"]))
        if not self.single:
            self.output.write("\n")

    def close(self) -> None:
        """End the output (the closing bracket of a json array)."""
        if self._closed:
            return
        self._closed = True
        if self.format == "json" and not self.single:
            self.start()
            self.output.write("\n]\n" if self.count else "]\n")


def completed_keys(path: str | Path, report: Callable[[str], None] | None = None) -> set[str]:
    """The keys (:attr:`~newsml.input.sources.Source.key`) of the records in a JSON-lines output,
    for ``--resume``.

    A last line that is a whole record but lacks its newline gets one. A last line that is
    not a record, after at least one that is (a run killed while writing it), is removed,
    so that appending continues a valid file; ``report`` (default: stderr) is told what
    was dropped. Raises OutputError when the file cannot be read, or when its first line
    or a line before the last is not a record: it is then not a newsml output.
    """
    report = report if report is not None else _to_stderr
    keys: set[str] = set()
    try:
        with open(path, "rb+") as handle:
            good_end = 0
            for number, line in enumerate(handle, 1):
                record = _parse_line(line)
                if record is None:
                    if number == 1 or handle.read(1):  # not a newsml output, or not its end
                        raise OutputError(f"cannot resume {path}: line {number} is not a JSON record "
                                          "(is it a newsml JSON-lines output?)")
                    handle.truncate(good_end)
                    report(f"newsml: {path}: dropped its last line, not a whole record "
                           f"(a run cut short?): {_preview(line)}")
                    break
                key = record_key(record)
                if key is None:
                    raise OutputError(f"cannot resume {path}: line {number} names no page (no path)")
                keys.add(key)
                good_end += len(line)
                if not line.endswith(b"\n"):  # a whole record: keep it, end its line
                    handle.seek(good_end)
                    handle.write(b"\n")
    except OSError as exc:
        raise OutputError(f"cannot resume {path}: {exc.strerror or exc}") from None
    return keys


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _preview(line: bytes, width: int = 60) -> str:
    text = line.decode("utf-8", "backslashreplace").rstrip("\n")
    return repr(text if len(text) <= width else text[:width] + "...") + f" ({len(line)} bytes)"


def _parse_line(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def stderr_line(record: dict[str, Any]) -> str | None:
    """The stderr line of an error record (None for an article)."""
    if "error" not in record:
        return None
    name = record["path"] if not record.get("url") else f"{record['path']} {record['url']}"
    return f"newsml: error: {name}: {record['error']}"     # (the path shown as written already)


# -- a run of the command line -----------------------------------------------------------------

def output_format(fmt: str | None, output: str | Path | None) -> str:
    """The format asked for, else the one the output's name implies (``.jsonl``, ``.json``,
    ``.md``, ``.html``), else text."""
    if fmt is not None:
        return fmt
    name = Path(output).name.lower() if output is not None else ""
    suffix = Path(name.removesuffix(".gz")).suffix       # out.jsonl.gz: JSON lines, compressed
    return {".jsonl": "jsonl", ".json": "json", ".md": "markdown", ".html": "html", ".htm": "html"
            }.get(suffix, "text")


def collect_paths(args: Iterable[str], from_file: str | os.PathLike[str] | Sequence[str] | None = None,
                  glob: str | None = None) -> list[str]:
    """The files to read: ``args`` then the paths listed in ``from_file`` (one list, or
    several in turn), folders expanded.

    Raises NewsmlError when there is none, or standard input is asked for twice.
    """
    if glob is not None and not glob.strip():
        raise NewsmlError("--glob needs a pattern, such as '*.htm' (it is matched against each "
                          "file's path inside the folder)")
    args = list(args)
    lists = [os.fspath(from_file)] if isinstance(from_file, (str, os.PathLike)) else list(from_file or ())
    if lists.count(STDIN) > 1:
        raise NewsmlError("standard input can be read as a list of paths once only (--from-file -)")
    listed = [path for one in lists for path in read_list(one)]
    if STDIN in lists and STDIN in args + listed:
        raise NewsmlError("standard input cannot be both the list of paths (--from-file -) and a page ('-')")
    paths = list(expand_inputs(args + listed, glob))
    if not paths:
        if not args and not listed:
            raise NewsmlError("no pages given: name files or folders, or --from-file LIST")
        raise NewsmlError(f"no pages found: no file matches {glob or ', '.join(HTML_PATTERNS)} "
                          "in the folders given (--glob chooses other names)")
    return paths


def open_output(output: str | Path | None, paths: list[str], fmt: str, resume: bool = False,
                force: bool = False, others: Iterable[str | Path] = ()) -> tuple[Output, set[str]]:
    """The output to write to, and the keys of the pages it already holds (``resume``).

    An existing file is refused unless ``force`` (replace it) or ``resume`` (append the
    pages it lacks); one of the input ``paths``, or of the ``others`` read (the lists of
    paths, the model file), always. Raises NewsmlError (OutputError) saying what to do.
    """
    if resume and force:
        raise NewsmlError("--resume continues the output and --force replaces it: give one")
    if resume and (output is None or fmt != "jsonl"):
        raise NewsmlError("--resume needs a JSON-lines output file (-o FILE.jsonl)")
    if resume and output is not None and is_compressed(output):
        raise NewsmlError("--resume cannot continue a gzip output, which is written whole: "
                          "resume into a plain .jsonl file and compress it after")
    done: set[str] = set()
    lock = None
    if output is not None:
        target = check_output(output, paths)  # not a folder, not one of the inputs: before anything else
        check_output(output, others, what="files read (the lists of paths, the model file)")
        if not target.exists() or target.is_file():       # (not a device, not a pipe)
            lock = OutputLock(target, output)
    try:
        if output is not None:
            _stopped_run(output, target, fmt, resume=resume, force=force)
        if output is not None and os.path.isfile(output):
            if resume:
                done = completed_keys(output)
            elif not force:
                raise OutputError(f"{output} exists: --force replaces it, --resume (JSON lines) "
                                  "adds the pages it lacks")
        return Output(output, inputs=paths, append=resume, lock=lock), done
    except BaseException:
        if lock is not None:
            lock.release()
        raise


def _stopped_run(output: str | Path, target: Path, fmt: str, resume: bool, force: bool) -> None:
    """Deal with what a run to ``output`` stopped by KILL (or a power cut) left: its records
    in :func:`~newsml.run.output.partial_path`. ``resume`` continues that run: its file
    becomes the output (what it was writing to replace); ``force`` replaces it; else it
    is refused, as an existing output is. An empty one is removed."""
    partial = partial_path(target)
    try:
        size = os.path.getsize(partial)
    except OSError:
        return
    if not size:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        return
    if force:
        return                                         # replaced when the run starts
    if resume:
        try:
            os.replace(partial, target)
        except OSError as exc:
            reason = exc.strerror or exc
            raise OutputError(f"cannot resume {output}: cannot rename {partial}: {reason}") from None
        _to_stderr(f"newsml: {output}: continuing the run that was stopped before it finished "
                   f"(its records were in {partial.name})")
        return
    how = "--resume continues it, --force starts again" if fmt == "jsonl" else "--force starts again"
    raise OutputError(f"a run to {output} was stopped before it finished and left its records in "
                      f"{partial}: {how}")


@dataclass
class Outcome:
    """What a run did: records written, pages that failed (in them), whether Ctrl-C or
    SIGTERM stopped it (``terminated``: SIGTERM)."""

    written: int = 0
    failures: int = 0
    skipped: int = 0
    interrupted: bool = False
    terminated: bool = False
    cut_short: bool = False       # a second stop came while a record was written: it may be partial


def run(paths: list[str], destination: Output, writer: RecordWriter, extract: Extractor,
        done: AbstractSet[str] = frozenset(), report: Callable[[str], None] | None = None,
        progress: ProgressHook | None = None, total: int | None = None,
        warc: AbstractSet[str] | None = None, timeout: float | None = None) -> Outcome:
    """Extract the pages of ``paths`` not in ``done`` and write their records, in order.

    ``warc``: which of ``paths`` are WARC files, when the caller looked already (else each
    path whose name does not say is sniffed). ``timeout``: the seconds a pipe or standard
    input may wait for its next bytes (None: no limit).

    ``report`` gets the stderr line of each failed page. The output is committed at the
    end when a page succeeded (else an existing file stays as it was), and on Ctrl-C or
    SIGTERM (:func:`terminate_as_interrupt`) with what was written so far: every record
    is whole, and ``--resume`` continues.
    """
    outcome = Outcome()
    progress = hook(progress)
    progress.start("extracting", total)
    writer.start()

    def todo() -> Iterator[tuple[Source, Payload]]:
        for source, payload in iter_pages(paths, warc=warc, timeout=timeout):
            if source.key in done:
                outcome.skipped += 1
                progress.advance()
            else:
                yield source, payload

    hold: StopHold | None = None
    try:
        with stops_guarded() as hold:
            for record in extract(todo()):
                line = stderr_line(record)
                with hold.step():             # (a stop waits: the message names every record written)
                    writer.write(record)
                    outcome.written += 1
                    if line is not None:
                        outcome.failures += 1
                if line is not None and report is not None:
                    report(line)
                progress.advance()
    except KeyboardInterrupt as exc:
        outcome.interrupted = True
        outcome.terminated = isinstance(exc, Terminated)
        outcome.cut_short = hold is not None and hold.cut_short
    writer.close()
    if outcome.written > outcome.failures or outcome.interrupted and outcome.written:
        destination.commit()
    return outcome
