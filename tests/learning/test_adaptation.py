"""Adaptation to one site: the default model corrected by a few labeled pages of the site."""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import LABELED, SHARED_DATA, load_script, shared_corpus
from typer.testing import CliRunner

from newsml import (
    ConfigurationError,
    NewsExtractor,
    NewsmlError,
    TrainingWarning,
    load_corpus,
    load_model,
    save_model,
    score,
)
from newsml.article import extract_page
from newsml.dom.page import load_page
from newsml.learning.adaptation import AdaptedMethod
from newsml.learning.persistence import get_method
from newsml.learning.site_votes import MIXED, node_keys, vote_scores
from newsml.learning.training import labeled_pages, train_method
from newsml.methods import NodeMethod
from newsml.run.cli import app


def _site(corpus: str, site: str) -> list:
    pages = [page for page in load_corpus(shared_corpus(corpus), split="test") if page.site == site]
    assert len(pages) >= 7, f"{corpus}/{site}: {len(pages)} test pages"
    return pages


def _f1s(method, pages) -> list[float]:
    return [score(extract_page(load_page(page.html), method).text, page.gold).f1 for page in pages]


def _adapt(pages) -> AdaptedMethod:
    kept, skipped = labeled_pages(pages)
    assert not skipped
    return AdaptedMethod().fit([parsed for _, parsed, _ in kept], [labels for _, _, labels in kept])


# -- on real pages of one site (shared corpora) -------------------------------------------------

def _site_curves():
    """scripts/site_curves.py as a module: the test measures what docs/adaptation.md reports."""
    return load_script("site_curves")


def test_five_labeled_pages_beat_the_default_on_average_over_every_train_site():
    """Every site of the shared corpora's *train* splits with 7+ pages (the sites the
    adaptation's constants were chosen on; the test splits choose nothing), 5 pages labeled,
    the 10 draws of ``site_curves.py`` (seed 0): mean over sites of adapted minus default on
    the site's other pages (one draw alone is too noisy to test). The figure depends on the
    base, which saw these pages: with the default shipped now, +0.0134; the votes before
    the backoff (the most specific one deciding alone) give +0.0117 with it, so the mean of
    the 10 draws must stay above that. (With the default retrained with the first
    named-anchor rule the two were +0.0127 and +0.0140: in-sample, the base decides much;
    the backoff was chosen on bases that never saw the sites, docs/adaptation.md.)"""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared corpora not found at {SHARED_DATA}")
    curves = _site_curves()
    sites = curves.find_sites(SHARED_DATA, 7, split="train")
    assert len(sites) >= 20, f"{len(sites)} train sites with 7+ pages"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrainingWarning)
        results, _ = curves.run(sites, [5], draws=10, seed=0)
    gains = [np.mean([adapted - default for adapted, default in results[(site.name, 5)]]) for site in sites]
    mean = float(np.mean(gains))
    assert mean > 0.0117, f"adapted minus default, mean over {len(sites)} train sites: {mean:+.4f}"


def test_heldout_bases_leave_out_every_other_train_site_and_score_each_site_with_its_own():
    """``site_curves.py --heldout-bases``: two halves of the train-split sites, each base
    trained without exactly the pages of its half, and each site scored by the base that
    never saw it (here a rule method, so nothing is trained)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared corpora not found at {SHARED_DATA}")
    curves = _site_curves()
    sites = curves.find_sites(SHARED_DATA, 7, split="train")
    first, second = curves.halves(sites)
    assert abs(len(first) - len(second)) <= 1 and len(first) + len(second) == len(sites)
    ordered = sorted((site.corpus, site.name) for site in sites)
    assert [(site.corpus, site.name) for site in first] == ordered[0::2]
    assert [(site.corpus, site.name) for site in second] == ordered[1::2]
    pages = [page for folder in sorted(p for p in SHARED_DATA.iterdir() if p.is_dir())
             for page in load_corpus(folder, split="train")]
    for half, other in ((first, second), (second, first)):
        kept = curves.without_sites(pages, half)
        assert len(pages) - len(kept) == sum(len(site.pages) for site in half)
        seen = {(page.corpus, curves.site_of(page)) for page in kept}
        assert not seen & {(site.corpus, site.name) for site in half}
        assert {(site.corpus, site.name) for site in other} <= seen
    site = min(first, key=lambda site: len(site.pages))
    rule = get_method("cetr")
    results, _ = curves.run([site], [0], draws=1, seed=0, bases={site.name: rule})
    assert site.default_f1 == pytest.approx(_f1s(rule, site.pages))
    assert results[(site.name, 0)][0][0] == pytest.approx(np.mean(_f1s(rule, site.pages)))
    assert site.default_f1 != pytest.approx(_f1s(get_method("default"), site.pages))


def _train_sites(corpus: str, least: int, most: int) -> dict[str, list]:
    """The sites of ``corpus``'s *train* split with ``least`` to ``most`` pages: a stated
    rule, so no site is picked by how adaptation fares on it (and no test page is used)."""
    by_site: dict[str, list] = {}
    for page in load_corpus(shared_corpus(corpus), split="train"):
        by_site.setdefault(page.site, []).append(page)
    return {site: pages for site, pages in sorted(by_site.items()) if least <= len(pages) <= most}


def test_one_labeled_page_is_no_worse_than_the_default_on_the_other_pages():
    """Each page of a site in turn is the one labeled page; the site's others are scored.
    Sites: every daniel_en train-split site with 7 to 12 pages (five sites)."""
    sites = _train_sites("daniel_en", 7, 12)
    assert len(sites) >= 3, sorted(sites)
    default = get_method("default")
    for site, pages in sites.items():
        base_f1 = dict(zip((p.id for p in pages), _f1s(default, pages)))
        adapted, base = [], []
        for i, page in enumerate(pages):
            held = pages[:i] + pages[i + 1:]
            adapted.append(np.mean(_f1s(_adapt([page]), held)))
            base.append(np.mean([base_f1[p.id] for p in held]))
        assert np.mean(adapted) >= np.mean(base) - 1e-9, (site, np.mean(adapted), np.mean(base))


# -- the model, its base and its file ------------------------------------------------------------

@pytest.fixture(scope="module")
def adapted_labeled(tmp_path_factory):
    """The default adapted to the English train pages of labeled/ (a site of its own), saved."""
    folder = tmp_path_factory.mktemp("site") / "mine"
    folder.mkdir()
    for page in load_corpus(LABELED, split="train"):
        if page.id.startswith("en"):
            for suffix in (".html", ".txt"):          # no json: a user's own pages name no split
                shutil.copy(page.html_path.with_suffix(suffix), folder)
    method, metadata = train_method("default", [folder], base="default")
    path = save_model(method, folder.parent / "site.joblib", **metadata)
    return folder, method, metadata, path


def test_the_model_file_records_its_base_and_the_pages_it_saw(adapted_labeled):
    folder, method, metadata, path = adapted_labeled
    ids = sorted(p.stem for p in folder.glob("*.html"))
    assert metadata["training"]["corpora"] == {"mine": len(ids)}       # pages without json count
    assert sorted(i.split("/")[1] for i in metadata["training"]["page_ids"]) == ids
    assert metadata["base"] == {"name": "fusion", "newsml_version": method.base_version_,
                                "kept": "by reference"}
    loaded, meta = load_model(path)
    assert meta["method"] == "adapted" and meta["base"]["name"] == "fusion"
    assert loaded.base == "default" and len(loaded.pages_) == len(ids)
    assert all(len(p["sha1"]) == 16 and p["nodes"] > 0 for p in loaded.pages_)
    # by reference: the file holds votes, not a copy of the shipped model
    assert "_base_cache" not in loaded.__dict__ and path.stat().st_size < 100_000
    page = load_page(next(folder.glob("*.html")))
    np.testing.assert_allclose(loaded.score_nodes(page), method.score_nodes(page))


def test_a_base_that_changed_since_the_adaptation_is_reported(adapted_labeled):
    _, method, _, _ = adapted_labeled
    copy = pickle.loads(pickle.dumps(method))
    copy.base_probe_ = [0.123] * len(method.base_probe_)
    with pytest.warns(UserWarning, match="changed since this model was adapted"):
        copy.base_method()


class _KeepsParagraphs(NodeMethod):
    """A base that keeps the nodes of <p> blocks, wherever they are (not registered)."""

    def score_nodes(self, page):
        return np.array([0.9 if node.tag == "p" else 0.1 for node in page.nodes])


def _wrapped_page(article: str, box: str) -> str:
    menu = "".join(f"<li><a href='/s{i}'>Section number {i} of the site menu</a></li>" for i in range(40))
    return (f"<html><body><div class='wrap'><ul class='menu'>{menu}</ul>"
            f"<{box}><p>{article}</p><p>{article} again, said the officials.</p></{box}></div></body></html>")


def test_votes_given_the_base_decision_keep_what_the_base_keeps_in_a_wrapper_of_noise():
    """On the labeled pages, div.wrap holds a long menu (noise) and the article, which the
    base keeps: the wrapper's plain vote is noise, but among the nodes the base kept in it,
    all were content. A new page's article in a box never seen (only div.wrap is known)
    stays kept; the votes counted without the base's decision dropped it."""
    stories = ["The harbour reopened on Monday after the storm", "Repairs to the outer wall took weeks",
               "The ferries left on time for the first time"]
    pages = [load_page(_wrapped_page(story, "div class='story'")) for story in stories]
    labels = [np.array([0.0 if node.tag == "li" else 1.0 for node in page.nodes]) for page in pages]
    method = AdaptedMethod(base=_KeepsParagraphs(), prior=0.25).fit(pages, labels)
    share, seen_on = method.votes_["a:div.wrap"]
    assert share < MIXED and seen_on == 3                      # the wrapper alone: noise
    assert method.votes_["a:div.wrap|kept"] == (1.0, 3)
    new = load_page(_wrapped_page("Officials said the council approved the budget", "section"))
    kept = method.predict([new])[0]
    assert [node.tag for node, keep in zip(new.nodes, kept) if keep] == ["p", "p"]
    plain = {key: vote for key, vote in method.votes_.items() if "|" not in key}
    scores = vote_scores(node_keys(new), method.base_method().score_nodes(new),
                         method.base_method().score_nodes(new) >= 0.5, plain, prior=0.25)
    assert not (scores >= 0.5).any()


def test_extractor_with_a_base_adapts_it(adapted_labeled):
    folder, _, _, _ = adapted_labeled
    pages = sorted(folder.glob("*.html"))[:3]
    golds = [p.with_suffix(".txt").read_text(encoding="utf-8") for p in pages]
    extractor = NewsExtractor(base="default").fit(pages, golds)
    assert isinstance(extractor.method_, AdaptedMethod) and extractor.n_train_pages_ == 3
    assert extractor.method_.base_name_ == "fusion"
    assert extractor.score(pages, golds) >= NewsExtractor().fit(pages).score(pages, golds)
    with pytest.raises(ConfigurationError, match="not both"):
        NewsExtractor(method="nb", base="default").fit(pages, golds)


def test_adapting_a_model_file_keeps_it_by_value(adapted_labeled, tmp_path):
    folder, _, _, _ = adapted_labeled
    pages = sorted(folder.glob("*.html"))[:2]
    golds = [p.with_suffix(".txt").read_text(encoding="utf-8") for p in pages]
    base = NewsExtractor(method="econ").fit(pages).method_
    path = save_model(base, tmp_path / "econ.joblib")
    method = NewsExtractor(base=str(path)).fit(pages, golds).method_
    assert not method.base_by_reference() and method.base_name_ == "econ"
    page = load_page(pages[0])
    expected = method.score_nodes(page)
    saved = save_model(method, tmp_path / "site.joblib")
    path.unlink()                           # the adapted file must not need the base file
    loaded = load_model(saved)[0]
    assert "_base_cache" not in loaded.__dict__
    np.testing.assert_allclose(loaded.score_nodes(page), expected)
    np.testing.assert_allclose(pickle.loads(pickle.dumps(method)).score_nodes(page), expected)


# -- the command line ----------------------------------------------------------------------------

def _fresh(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """``newsml ARGS`` in a new interpreter: nothing imported beforehand, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "newsml", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def test_an_adapted_model_is_used_by_predict_and_evaluate_in_fresh_processes(adapted_labeled, tmp_path):
    folder, _, _, _ = adapted_labeled
    model = tmp_path / "site.joblib"
    trained = _fresh("train", str(folder), "--base", "default", "-o", str(model))
    assert trained.returncode == 0, trained.stderr
    pages = sorted(str(p) for p in folder.glob("*.html"))[:2]
    expected = [extract_page(load_page(Path(p)), load_model(model)[0]).text for p in pages]
    for jobs in ("1", "2"):
        run = _fresh("predict", *pages, "--model", str(model), "-j", jobs, "-f", "jsonl")
        assert run.returncode == 0, run.stderr
        records = sorted((json.loads(line) for line in run.stdout.splitlines()), key=lambda r: r["path"])
        assert [record["text"] for record in records] == expected, f"-j {jobs}"
    evaluated = _fresh("evaluate", str(folder), "--model", str(model), "--split", "all")
    assert evaluated.returncode == 0, evaluated.stderr
    loaded = subprocess.run([sys.executable, "-c", "import sys; from newsml import load_model; "
                             "print(load_model(sys.argv[1])[0].name)", str(model)],
                            capture_output=True, text=True, timeout=300)
    assert loaded.stdout.strip() == "adapted", loaded.stderr


def test_methods_lists_adapted_in_a_fresh_process():
    listed = _fresh("methods")
    assert listed.returncode == 0, listed.stderr
    assert "adapted" in [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]


def test_cli_train_with_base_writes_an_adapted_model(adapted_labeled, tmp_path):
    folder, _, _, _ = adapted_labeled
    out = tmp_path / "site.joblib"
    result = CliRunner().invoke(app, ["train", str(folder), "--base", "default", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "adapted fusion to" in result.stdout and out.is_file()
    assert load_model(out)[0].name == "adapted"
    both = CliRunner().invoke(app, ["train", str(folder), "--base", "default", "-m", "nb", "-o",
                                    str(tmp_path / "x.joblib")])
    assert both.exit_code == 2 and "not both" in both.stderr


def test_base_is_a_model_file_whatever_its_suffix_else_a_method_name(adapted_labeled, tmp_path):
    folder, _, _, _ = adapted_labeled
    econ = save_model(NewsExtractor(method="econ").fit([]).method_, tmp_path / "econ.joblib")
    renamed = econ.rename(tmp_path / "econmodel.bin")
    out = tmp_path / "site.joblib"
    result = CliRunner().invoke(app, ["train", str(folder), "--base", str(renamed), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "adapted econ to" in result.stdout and load_model(out)[1]["base"]["kept"] == "by value"
    neither = CliRunner().invoke(app, ["train", str(folder), "--base", str(tmp_path / "missing.bin"),
                                       "-o", str(tmp_path / "x.joblib")])
    assert neither.exit_code == 1
    assert "no model file" in neither.stderr and "no method" in neither.stderr
    assert not (tmp_path / "x.joblib").exists()


def test_cv_folds_with_base_is_refused(adapted_labeled, tmp_path):
    folder, _, _, _ = adapted_labeled
    result = CliRunner().invoke(app, ["train", str(folder), "--base", "default", "--cv-folds", "3",
                                      "-o", str(tmp_path / "x.joblib")])
    assert result.exit_code == 2 and "--cv-folds" in result.stderr and "leave-one-page-out" in result.stderr
    assert not (tmp_path / "x.joblib").exists()


def test_a_folder_without_gold_pairs_is_a_clear_error(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(LABELED / "en01-council-budget.html", folder)
    with pytest.raises(NewsmlError, match=r"mine: no labeled page .* gold text .*en01-council-budget\.txt"):
        train_method("default", [folder], base="default")
    result = CliRunner().invoke(app, ["train", str(folder), "--base", "default",
                                      "-o", str(tmp_path / "m.joblib")])
    assert result.exit_code == 2                    # a usage error, as evaluate's for the same cause
    assert "mine has its gold text beside it" in result.stderr and "en01-council-budget.txt" in result.stderr
    assert not (tmp_path / "m.joblib").exists()


def test_pages_without_split_train_beside_other_corpora(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    for name in ("en01-council-budget", "en02-flood-warning"):
        for suffix in (".html", ".txt"):
            shutil.copy(LABELED / f"{name}{suffix}", mine)
    (mine / "en02-flood-warning.json").write_text('{"url": "https://example.com/a"}', encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, metadata = train_method("econ", [LABELED, mine], cv_folds=0)
    assert metadata["training"]["corpora"]["mine"] == 2
    assert len(load_corpus(mine, split="test")) == 0      # ... but they are no test pages
