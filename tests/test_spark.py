"""Apache Spark in local mode (``local[2]``): the same records as extraction on one machine.

Skipped when pyspark (the ``spark`` extra) or Java is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import LABELED, shared_corpus, warc_record, write_warc

from newsml.errors import ConfigurationError
from newsml.input.sources import expand_inputs, iter_pages
from newsml.learning.persistence import get_method, save_model
from newsml.run.records import RecordOptions, ScorerSpec, page_record, source_record

pyspark = pytest.importorskip("pyspark", reason="the spark extra (pyspark) is not installed")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java 17 or later (no java on PATH, no JAVA_HOME)", allow_module_level=True)

from newsml import spark as newsml_spark  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (SparkSession.builder.master("local[2]").appName("newsml-tests")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def one_machine(paths: list[str], spec: ScorerSpec = ScorerSpec()) -> list[dict]:
    """The records ``newsml predict`` writes for ``paths``, page for page."""
    scorer, options = spec.load(), RecordOptions(method=spec.asked)
    return [present(source_record(source, payload, scorer, options=options))
            for source, payload in iter_pages(paths)]


def present(record: dict) -> dict:
    """A record without its null fields: Spark's rows hold them as nulls, and its JSON
    writer leaves them out."""
    return {key: value for key, value in record.items() if value is not None}


def plain(rows) -> list[dict]:
    """Spark rows as records: the columns a record does not have are null in a row."""
    return [{key: value for key, value in row.asDict().items() if value is not None} for row in rows]


@pytest.fixture(scope="module")
def corpus_inputs(tmp_path_factory) -> list[str]:
    """Real pages in English and Chinese, a WARC file of corpus pages, and a missing file."""
    pages = sorted(shared_corpus("daniel_zh").glob("*.html"))[:12]
    pages += sorted(shared_corpus("cleaneval_en").glob("*.html"))[:12]
    folder = tmp_path_factory.mktemp("crawl")
    records = [warc_record(f"https://example.org/{page.stem}", page.read_bytes())
               for page in sorted(shared_corpus("wcxb_dev").glob("*.html"))[:8]]
    warc = write_warc(folder / "crawl.warc.gz", records)
    return [str(page) for page in pages] + [str(warc), str(folder / "missing.html")]


def test_files_and_warc_give_the_one_machine_records(spark, corpus_inputs):
    rows = newsml_spark.extract_paths(spark, corpus_inputs, partitions=3).collect()
    expected = one_machine(corpus_inputs)
    assert len(expected) == 12 + 12 + 8 + 1
    assert plain(rows) == expected
    assert sum("error" in record for record in expected) == 1  # the missing file, as a record
    assert {record["url"] for record in expected if "record_id" in record} == {
        f"https://example.org/{page.stem}" for page in sorted(shared_corpus("wcxb_dev").glob("*.html"))[:8]}


def test_a_dataframe_of_ids_and_html(spark):
    pages = sorted(LABELED.glob("*.html"))[:6]
    pairs = [(page.stem, page.read_bytes()) for page in pages] + [("junk", b"\x00\x01")]
    frame = spark.createDataFrame(pairs, "id string, html binary")
    rows = newsml_spark.extract_dataframe(frame).orderBy("id").collect()
    scorer, options = get_method("default"), RecordOptions(method="default")      # (named as asked)
    expected = sorted([present(page_record(page.read_bytes(), scorer, {"id": page.stem}, options=options))
                       for page in pages]
                      + [page_record(b"\x00\x01", scorer, {"id": "junk"})], key=lambda r: r["id"])
    assert plain(rows) == expected
    assert "error" in expected[-1] and "text" not in expected[-1]
    assert all(record["text"] for record in expected[:-1])


def test_null_and_text_html_are_rows_not_failed_tasks(spark):
    """Crawl tables hold null bodies; a str column is HTML text. Neither may fail the job."""
    page = sorted(LABELED.glob("*.html"))[0]
    frame = spark.createDataFrame([("null", None), ("text", page.read_text(encoding="utf-8"))],
                                  "id string, html string")
    rows = {row["id"]: row for row in newsml_spark.extract_dataframe(frame).collect()}
    # broken text (a lone surrogate) reaches the extractor as "?", in its own row
    broken = list(newsml_spark.extract_partition([("broken", "<p>A lone \ud800 surrogate in a page.</p>")],
                                                 method="econ"))
    assert len(broken) == 1 and broken[0][0] == "broken"
    assert "null" in rows["null"]["error"] and rows["null"]["text"] is None
    html = page.read_text(encoding="utf-8").encode("utf-8")
    expected = present(page_record(html, "default", {"id": "text"}))
    assert plain([rows["text"]]) == [expected]


def test_a_negative_time_limit_is_refused(spark):
    with pytest.raises(ConfigurationError, match="time limit"):
        newsml_spark.extract_paths(spark, ["x.html"], timeout=-1)


def test_a_model_file_is_shipped_to_the_executors(spark, tmp_path):
    model = save_model(get_method("econ"), tmp_path / "econ.joblib")
    paths = [str(page) for page in sorted(LABELED.glob("*.html"))[:4]]
    rows = newsml_spark.extract_paths(spark, paths, model=model).collect()
    assert plain(rows) == one_machine(paths, ScorerSpec(model=str(model)))
    assert {row["method"] for row in rows} == {"econ"}


def test_a_method_and_a_model_together_are_refused(spark, tmp_path):
    model = save_model(get_method("econ"), tmp_path / "econ.joblib")
    with pytest.raises(ConfigurationError, match="not both"):
        newsml_spark.extract_paths(spark, ["x.html"], model=model, method="cetr")


def test_the_job_writes_jsonl_and_parquet(spark, tmp_path):
    folder = tmp_path / "pages"
    shutil.copytree(LABELED, folder, ignore=shutil.ignore_patterns("*.txt", "*.json"))
    jsonl, parquet = tmp_path / "out-jsonl", tmp_path / "out-parquet"
    assert newsml_spark.main([str(folder), "-o", str(jsonl), "-f", "jsonl", "--partitions", "2"]) == 0
    assert newsml_spark.main([str(folder), "-o", str(parquet)]) == 0
    expected = one_machine(list(expand_inputs([str(folder)])))
    from_json = [json.loads(line) for part in sorted(jsonl.glob("part-*")) for line in part.open()]
    assert from_json == expected
    by_path = sorted(plain(spark.read.parquet(str(parquet)).collect()), key=lambda record: record["path"])
    assert by_path == sorted(expected, key=lambda record: record["path"])
    # an existing output folder is never written into
    assert newsml_spark.main([str(folder), "-o", str(jsonl), "-f", "jsonl"]) == 2
    assert [json.loads(line) for part in sorted(jsonl.glob("part-*")) for line in part.open()] == expected


def test_the_job_refuses_a_folder_without_pages_and_standard_input(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert newsml_spark.main([str(tmp_path / "empty"), "-o", str(tmp_path / "out")]) == 2
    assert "no input files" in capsys.readouterr().err
    assert newsml_spark.main(["-", "-o", str(tmp_path / "out")]) == 2
    assert "standard input" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_python_dash_m_runs_the_job(tmp_path):
    """The module run as a program: what the executors receive must not live in __main__."""
    import subprocess

    folder = tmp_path / "pages"
    folder.mkdir()
    pages = sorted(LABELED.glob("*.html"))[:3]
    for page in pages:
        shutil.copy(page, folder)
    out = tmp_path / "out"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    done = subprocess.run([sys.executable, "-m", "newsml.spark", str(folder), "-o", str(out), "-f", "jsonl",
                           "--master", "local[1]"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    records = [json.loads(line) for part in sorted(out.glob("part-*")) for line in part.open()]
    assert records == one_machine(list(expand_inputs([str(folder)])))


def test_files_read_by_spark_binaryfile(spark):
    """The route for HDFS and object storage: Spark reads the files, newsml extracts."""
    files = spark.read.format("binaryFile").option("pathGlobFilter", "zh0*.html").load(str(LABELED))
    rows = newsml_spark.extract_dataframe(files, id_col="path", html_col="content").collect()
    scorer = get_method("default")
    expected = {Path(page).name: page_record(Path(page).read_bytes(), scorer, {})["text"]
                for page in sorted(LABELED.glob("zh0*.html"))}
    assert {Path(row["id"].removeprefix("file:")).name: row["text"] for row in rows} == expected
    assert len(expected) == 9
