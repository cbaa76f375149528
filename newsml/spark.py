"""Apache Spark: newsml over a cluster, one partition at a time.

Two ways in, both extracting inside ``mapPartitions`` with the model loaded once per
executor process (Python workers are reused between tasks, and the loaded model is
cached in this module):

- :func:`extract_rdd` / :func:`extract_dataframe` turn an RDD or DataFrame of
  ``(id, html bytes)`` into article rows (:data:`ROW_FIELDS`);
- the job, ``python -m newsml.spark INPUT... -o OUT`` (or ``spark-submit`` on this
  file), reads WARC files and HTML files or folders and writes Parquet or JSON lines.
  The driver only lists the paths; each executor opens the files it is given, as
  Common Crawl's cc-pyspark does with WARC files.

A page that fails becomes a row with ``error`` set and no article, as in the one-machine
JSONL output (:func:`newsml.run.records.page_record`), so the two outputs compare row for row.
Needs the ``spark`` extra (pyspark) and Java 17 or later on every machine. The imports
are absolute so that ``spark-submit`` can run this file as a script.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from newsml.article import LIST_FIELDS, RECORD_FIELDS
from newsml.errors import ConfigurationError, NewsmlError
from newsml.input.sources import expand_inputs, iter_pages
from newsml.run.records import (
    DEFAULT_TIMEOUT,
    RecordOptions,
    ScorerSpec,
    check_timeout,
    error_record,
    page_record,
    source_record,
)

if TYPE_CHECKING:
    from pyspark import RDD
    from pyspark.sql import DataFrame, SparkSession

    from newsml.methods import NodeMethod

#: Columns of an article row, in order: who the page is, then the article or the error.
ROW_FIELDS = tuple(dict.fromkeys(("id", "path", "url", "record_id", *RECORD_FIELDS, "error")))
_LIST_TYPES = {name: "array<double>" if name == "scores" else "array<string>" for name in LIST_FIELDS}
ROW_SCHEMA = ", ".join(f"{name} {_LIST_TYPES.get(name, 'string')}" for name in ROW_FIELDS)


def _pyspark() -> Any:
    try:
        import pyspark
    except ImportError as exc:
        raise ConfigurationError("newsml.spark needs pyspark: pip install 'newsml[spark]'") from exc
    return pyspark


@cache
def _scorer(model: str | None, method: str) -> NodeMethod:
    """The method an executor extracts with, loaded once per Python worker process; a model
    file is the copy :func:`_ship_model` sent to this executor."""
    if model is not None:
        from pyspark import SparkFiles

        model = SparkFiles.get(model)
    return ScorerSpec(method=method, model=model).load()


def _options(model: str | None, method: str) -> RecordOptions:
    """The rows' options: the method named as asked (a model file's names itself)."""
    return RecordOptions(method=method if model is None else None)


def _row(record: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(record.get(name) for name in ROW_FIELDS)


def extract_partition(pages: Iterable[tuple[str, bytes]], model: str | None = None,
                      method: str = "default", timeout: float | None = DEFAULT_TIMEOUT
                      ) -> Iterator[tuple[Any, ...]]:
    """Article rows (:data:`ROW_FIELDS` order) of ``(id, html)`` pairs; ``html`` is bytes,
    a bytearray or a str. A null or any other value is an error row, not a failed task."""
    scorer, options = _scorer(model, method), _options(model, method)
    for key, html in pages:
        identity = {"id": None if key is None else str(key)}
        if isinstance(html, str):  # text: UTF-8, a lone surrogate (broken text) as "?"
            html = html.encode("utf-8", "replace")
        if isinstance(html, (bytes, bytearray, memoryview)):
            yield _row(page_record(bytes(html), scorer, identity, timeout=timeout, options=options))
        else:
            what = "null" if html is None else type(html).__name__
            yield _row(error_record(identity, f"no HTML: the html column is {what}, not bytes or a string"))


def _check_options(model: str | None, method: str, timeout: float | None = None) -> None:
    check_timeout(timeout)
    if model is not None and method != "default":
        raise ConfigurationError("give either a method or a model file, not both")
    if model is not None and not Path(model).is_file():
        raise ConfigurationError(f"model file {model} does not exist")


def _ship_model(spark: SparkSession, model: str | None) -> None:
    if model is not None:
        spark.sparkContext.addFile(str(Path(model).resolve()))


def extract_rdd(rdd: RDD, model: str | Path | None = None, method: str = "default",
                timeout: float | None = DEFAULT_TIMEOUT) -> RDD:
    """An RDD of ``(id, html bytes)`` to an RDD of article rows (tuples in
    :data:`ROW_FIELDS` order), extracted per partition."""
    name = None if model is None else str(model)
    _check_options(name, method, timeout)
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    _ship_model(spark, name)
    shipped = None if name is None else Path(name).name

    def run(partition: Iterable[tuple[str, bytes]]) -> Iterator[tuple[Any, ...]]:
        return extract_partition(partition, shipped, method, timeout)

    return rdd.mapPartitions(run)


def extract_dataframe(frame: DataFrame, id_col: str = "id", html_col: str = "html",
                      model: str | Path | None = None, method: str = "default",
                      timeout: float | None = DEFAULT_TIMEOUT) -> DataFrame:
    """A DataFrame with an id and an HTML (binary or string) column to a DataFrame of
    article rows (:data:`ROW_SCHEMA`)."""
    for column in (id_col, html_col):
        if column not in frame.columns:
            raise ConfigurationError(f"the DataFrame has no column {column!r} (columns: {frame.columns})")
    pairs = frame.select(id_col, html_col).rdd.map(tuple)
    rows = extract_rdd(pairs, model=model, method=method, timeout=timeout)
    return frame.sparkSession.createDataFrame(rows, ROW_SCHEMA)


def extract_paths(spark: SparkSession, paths: Sequence[str], model: str | Path | None = None,
                  method: str = "default", partitions: int | None = None,
                  timeout: float | None = DEFAULT_TIMEOUT) -> DataFrame:
    """Article rows of every page in ``paths`` (files, as listed by the driver), each file
    read by the executor that extracts it."""
    name = None if model is None else str(model)
    _check_options(name, method, timeout)
    _ship_model(spark, name)
    shipped = None if name is None else Path(name).name
    slices = max(1, min(len(paths), partitions or spark.sparkContext.defaultParallelism * 4))

    def run(partition: Iterable[str]) -> Iterator[tuple[Any, ...]]:
        scorer, options = _scorer(shipped, method), _options(shipped, method)
        for source, payload in iter_pages(partition):
            yield _row(source_record(source, payload, scorer, timeout, options=options))

    rows = spark.sparkContext.parallelize(list(paths), slices).mapPartitions(run)
    return spark.createDataFrame(rows, ROW_SCHEMA)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m newsml.spark",
        description="Extract the articles of HTML files, folders and WARC files with Apache Spark.")
    parser.add_argument("inputs", nargs="+", help="HTML files, folders (searched recursively) or WARC files")
    parser.add_argument("-o", "--output", required=True, help="output folder (must not exist)")
    parser.add_argument("-f", "--format", choices=("parquet", "jsonl"), default="parquet")
    parser.add_argument("--model", help="a model file from `newsml train` (shipped to the executors)")
    parser.add_argument("-m", "--method", default="default", help="method name (see `newsml methods`)")
    parser.add_argument("--glob", help="file name pattern inside folders (default: HTML pages)")
    parser.add_argument("--partitions", type=int, help="tasks to split the files into")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per page (0: none)")
    parser.add_argument("--master", help="Spark master when not run by spark-submit (default local[*])")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """The job: list the inputs, extract on the executors, write the output folder."""
    args = _arguments(argv)
    if os.path.exists(args.output):
        print(f"newsml: error: {args.output} exists; give a new output folder", file=sys.stderr)
        return 2
    try:
        _check_options(args.model, args.method, args.timeout)
        paths = list(expand_inputs(args.inputs, glob=args.glob))
    except NewsmlError as exc:
        print(f"newsml: error: {exc}", file=sys.stderr)
        return 2
    if "-" in paths:
        print("newsml: error: the Spark job reads files, not standard input", file=sys.stderr)
        return 2
    if not paths:
        print(f"newsml: error: no input files found in {' '.join(args.inputs)}", file=sys.stderr)
        return 2
    try:
        _pyspark()
    except ConfigurationError as exc:
        print(f"newsml: error: {exc}", file=sys.stderr)
        return 2
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    builder = SparkSession.builder.appName("newsml")
    if running is None and (args.master or "PYSPARK_GATEWAY_PORT" not in os.environ):
        # not started by spark-submit: a local master, whose workers run this Python
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = builder.master(args.master or "local[*]")
    spark = builder.getOrCreate()
    try:
        frame = extract_paths(spark, paths, model=args.model, method=args.method,
                              partitions=args.partitions, timeout=args.timeout or None)
        writer = frame.write.mode("errorifexists")
        (writer.parquet if args.format == "parquet" else writer.json)(args.output)
    finally:
        if running is None:  # a session the caller started is the caller's to stop
            spark.stop()
    print(f"newsml: wrote the articles of {len(paths)} input files to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    # Run the module's own copy, not __main__'s: the functions sent to the executors must
    # be found there under newsml.spark (their __main__ is Spark's worker daemon).
    from newsml.spark import main as job

    sys.exit(job())
