"""scripts/benchmark.py: each peer runs at its documented article settings, and the summary
sets newsml's default against the best peer and against trafilatura."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO, load_script

SCRIPT = REPO / "scripts" / "benchmark.py"
ARTICLE = ("The council approved the new budget on Tuesday after a long debate about schools. "
           "Members said the plan would add teachers and repair three old buildings in the city. ") * 4
COMMENT = "Totally agree with this decision, finally some sense from the council members here."
PAGE = (f"<html><head><title>Budget</title></head><body><article><h1>Budget approved</h1><p>{ARTICLE}</p>"
        f"<p>{ARTICLE}</p></article><div id='comments' class='comments'><h3>Comments</h3>"
        f"<div class='comment'><p>{COMMENT}</p></div></div></body></html>")


@pytest.fixture(scope="module")
def bench():
    module = load_script("benchmark")
    yield module
    del sys.modules["benchmark"]


def test_trafilatura_runs_as_two_rows_without_comments(bench):
    assert bench.TRAFILATURA == {
        "trafilatura": {"include_comments": False},
        "trafilatura-precision": {"include_comments": False, "favor_precision": True}}
    assert bench.REFERENCE == "trafilatura"
    assert bench.PEERS["trafilatura"].call == "trafilatura.extract(html, include_comments=False)"


def test_every_peer_states_its_call_and_documentation(bench):
    assert set(bench.PEERS) == {"trafilatura", "trafilatura-precision", "readability-lxml", "justext",
                                "boilerpy3", "goose3", "newspaper4k", "resiliparse"}
    for peer in bench.PEERS.values():
        assert peer.call and peer.basis, peer.name
    assert bench.RESILIPARSE == {"main_content": True, "comments": False}
    assert "zh" not in bench.JUSTEXT_STOPLISTS  # Chinese runs in jusText's language-independent mode


def test_goose3_gets_its_chinese_stop_words_on_chinese_pages(bench):
    text = pytest.importorskip("goose3.text")
    assert bench.goose3_config("zh") == {"use_meta_language": False, "target_language": "zh",
                                         "stopwords_class": text.StopWordsChinese}
    assert bench.goose3_config("en") == {"use_meta_language": False, "target_language": "en"}


def test_trafilatura_rows_leave_the_comments_out(bench):
    trafilatura = pytest.importorskip("trafilatura")
    assert COMMENT in trafilatura.extract(PAGE)  # the library default keeps comments
    for name in bench.TRAFILATURA:
        run, version = bench.peer_tool(name)
        extracted = run(PAGE.encode(), PAGE, "en")
        assert "approved the new budget" in extracted, (name, version)
        assert COMMENT not in extracted, (name, version)


def test_the_script_imports_no_newsml_so_a_peer_probe_measures_the_peer_alone():
    code = (f"import sys; sys.path.insert(0, {str(SCRIPT.parent)!r}); import benchmark; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('newsml', 'sklearn')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_summary_names_the_best_peer_and_the_ratios_to_trafilatura(bench):
    def tool(f1, ms, mb, pages):
        return {"f1": f1, "median_ms": ms, "peak_mb": mb, "page_f1": pages}

    figures = {"newsml:default": tool(0.8, 10.0, 150.0, [0.8, 0.8, 0.8]),
               "newsml:econ": tool(0.95, 5.0, 140.0, [0.95] * 3),  # a newsml method is no peer
               "trafilatura": tool(0.7, 20.0, 75.0, [0.7, 0.7, 0.7]),
               "readability-lxml": tool(0.9, 12.0, 60.0, [0.9, 0.9, 0.9])}
    summary = bench.summarize(figures)
    assert summary["best_peer"] == "readability-lxml"
    assert summary["best_peer_f1"] == 0.9
    assert summary["difference"] == pytest.approx(-0.1)
    assert summary["difference_ci95"] == pytest.approx([-0.1, -0.1])
    assert summary["time_ratio"] == pytest.approx(0.5)
    assert summary["memory_ratio"] == pytest.approx(2.0)


def test_a_lost_article_is_a_page_below_half_where_another_tool_has_four_fifths(bench):
    figures = {"newsml:default": {"page_f1": [0.4, 0.9, 0.3, 0.49]},
               "newsml:econ": {"page_f1": [1.0, 0.0, 1.0, 0.0]},     # no rival of the others
               "trafilatura": {"page_f1": [0.8, 0.3, 0.7, 0.2]},
               "readability-lxml": {"page_f1": [0.2, 0.2, 0.79, 0.9]}}
    assert bench.lost_articles(figures) == {"newsml:default": 2, "newsml:econ": 2, "trafilatura": 2,
                                            "readability-lxml": 2}
    table = bench.lost_table({"a": figures, "b": figures})
    assert table[0] == "| corpus | newsml:default | trafilatura | readability-lxml |"
    assert table[-1] == "| all | 4 | 4 | 4 |"


@pytest.fixture(scope="module")
def against():
    return load_script("cv_against_peers")


#: page a/3 was never scored out of fold (training skipped it)
OUT_OF_FOLD = {"method": "fusion", "params": {}, "folds": 5, "f1": {"a/1": 0.9, "a/2": 0.6, "b/1": 0.5}}
TRAIN_RUN = {"date": "2026-12-02", "split": "train", "corpora": {
    "a": {"page_ids": ["1", "2", "3"], "tools": {
        "newsml:default": {"page_f1": [1.0, 1.0, 1.0]},
        "peer-x": {"page_f1": [0.8, 0.8, 0.0]}, "peer-y": {"page_f1": [0.6, 0.6, 1.0]}}},
    "b": {"page_ids": ["1"], "tools": {"peer-y": {"page_f1": [0.75]}}}}}


def test_out_of_fold_figures_meet_the_best_peer_of_each_corpus_on_the_same_pages(against):
    rows = against.comparison_rows(OUT_OF_FOLD["f1"], TRAIN_RUN)
    # on the pages scored both ways, a's best peer is x (0.8, not y's 0.6 there); newsml's own
    # figures on the benchmark's pages do not count, its out-of-fold ones do
    assert rows == ["| a | 2 | 0.750 | peer-x | 0.800 | -0.050 (-0.200 to +0.100) |",
                    "| b | 1 | 0.500 | peer-y | 0.750 | -0.250 (-0.250 to -0.250) |"]
    skipped = against.unpaired(OUT_OF_FOLD["f1"], TRAIN_RUN)
    assert skipped == {"a": 1}
    text = against.section(OUT_OF_FOLD, TRAIN_RUN, rows, skipped, "cmd")
    assert "peers: peer-x, peer-y" in text and "5 folds by site" in text and "at its defaults" in text
    assert "training skipped (no out-of-fold score), left out: a 1." in text
    assert "readability" not in text        # its caveat only where that corpus is


def test_out_of_fold_section_is_written_once_and_replaced_in_place(against, bench, tmp_path):
    assert against.HEADING in bench.OTHER_SECTIONS       # so a rewrite of the report keeps it
    rows = against.comparison_rows(OUT_OF_FOLD["f1"], TRAIN_RUN)
    new = against.section(OUT_OF_FOLD, TRAIN_RUN, rows, {}, "cmd")
    row = rows[0]
    assert against.replace_section("", new) == new
    text = "# Benchmark\n\n## Throughput\n\nkept\n"
    for _ in range(2):
        text = against.replace_section(text, new)
    assert text.count(against.HEADING) == 1 and text.startswith("# Benchmark\n\n## Throughput\n\nkept\n\n")
    later = against.replace_section(text + "\n## Later\n\nmore\n", against.section(
        {**OUT_OF_FOLD, "f1": {}}, TRAIN_RUN, [], {}, "cmd"))
    assert later.endswith("\n\n## Later\n\nmore\n") and row not in later and later.count(against.HEADING) == 1
    first = against.replace_section(new + "\n## Later\n", new)        # the heading opens the file
    assert first.count(against.HEADING) == 1 and first.endswith("## Later\n")


@pytest.mark.parametrize("run, message", [
    ({**TRAIN_RUN, "split": "test"}, "split 'test'"),
    ({**TRAIN_RUN, "corpora": [1]}, "no 'corpora'"),
    ({**TRAIN_RUN, "corpora": {"a": {"tools": {}}}}, "no page_ids and tools"),
    ({**TRAIN_RUN, "corpora": {"a": {"page_ids": ["1", "2"], "tools": {"p": {"page_f1": [0.5]}}}}},
     "not one number per page"),
    ({**TRAIN_RUN, "corpora": {"a": {"page_ids": ["1"], "tools": {"p": {"page_f1": [None]}}}}},
     "not one number per page"),
])
def test_out_of_fold_inputs_that_cannot_be_paired_are_refused(against, tmp_path, run, message):
    cv, bench_file = tmp_path / "cv.json", tmp_path / "bench.json"
    cv.write_text(json.dumps(OUT_OF_FOLD), encoding="utf-8")
    bench_file.write_text(json.dumps(run), encoding="utf-8")
    with pytest.raises(against.InputError, match=message):
        against.read_inputs(cv, bench_file)
    cv.write_text(json.dumps({"f1": [0.5]}), encoding="utf-8")
    with pytest.raises(against.InputError, match="no 'f1' by page"):
        against.read_inputs(cv, bench_file)


def test_cv_compare_says_when_a_cached_run_was_made_by_other_code():
    # a cache's scores from other sources or libraries are not taken silently for this
    # code's: the same settings trained on another machine score otherwise
    cv_compare = load_script("cv_compare")
    made = cv_compare.made_with()
    assert set(made) == {"sources", *cv_compare.NUMERIC_LIBRARIES}
    assert cv_compare._other_making(made, made) == ""
    said = cv_compare._other_making({**made, "sources": "0123456789abcdef"}, made)
    assert "sources 0123456789abcdef (now " + made["sources"] + ")" in said
    assert "numpy not recorded" in cv_compare._other_making({"sources": made["sources"]}, made)


def test_cv_compare_fits_the_folds_once_for_variants_that_fit_the_same_way(tmp_path):
    # variants that differ only at prediction share one set of fold models, kept on disk
    # and reused by a later run; each gets its own prediction switches; the scores are
    # those of cross-validation without the kept fits
    import argparse

    from conftest import LABELED

    from newsml.article import extract_text
    from newsml.input.corpus import load_corpus
    from newsml.learning.training import cross_validated_scores, labeled_pages
    from newsml.measure.scoring import score
    from newsml.methods import new_method

    cv_compare = load_script("cv_compare")
    kept, _ = labeled_pages(load_corpus(LABELED))
    pages, labels = [page for _, page, _ in kept], [node_labels for _, _, node_labels in kept]
    golds, sites = [page.gold for page, _, _ in kept], [page.id for page, _, _ in kept]
    args = argparse.Namespace(method="fusion", folds=2, jobs=1, fits=tmp_path, fresh=False)
    made = cv_compare.made_with()
    dropping, making = cv_compare.fold_models(args, {}, pages, labels, sites, sites, made)
    written = sorted(tmp_path.rglob("fold*.joblib"))
    assert len(written) == 2 and [model.islands for model in dropping] == ["drop", "drop"] and making == made
    held_by = cv_compare.fold_of_pages(2, sites)
    assert sorted(set(held_by)) == [0, 1]                                        # both folds hold pages
    with_fits = [score(extract_text(page, dropping[fold]), gold).f1
                 for page, gold, fold in zip(pages, golds, held_by)]
    without = cross_validated_scores(lambda: new_method("fusion"), pages, labels, golds, 2, groups=sites)
    assert with_fits == [result.f1 for result in without]
    stamps = [path.stat().st_mtime_ns for path in written]
    keeping, _ = cv_compare.fold_models(args, {"islands": "keep"}, pages, labels, sites, sites, made)
    assert [model.islands for model in keeping] == ["keep", "keep"]
    assert sorted(tmp_path.rglob("fold*.joblib")) == written                    # no new fits
    assert [path.stat().st_mtime_ns for path in written] == stamps               # nor the old redone
    # --fresh fits again, once for the run, and leaves no partial folder behind
    fresh = argparse.Namespace(**{**vars(args), "fresh": True})
    cv_compare._FITTED_NOW.clear()                              # (as in a new run of the script)
    cv_compare.fold_models(fresh, {}, pages, labels, sites, sites, made)
    refitted = [path.stat().st_mtime_ns for path in written]
    assert refitted != stamps
    cv_compare.fold_models(fresh, {"islands": "keep"}, pages, labels, sites, sites, made)
    assert [path.stat().st_mtime_ns for path in written] == refitted
    assert sorted(path.name for path in tmp_path.iterdir()) == [written[0].parent.name]
