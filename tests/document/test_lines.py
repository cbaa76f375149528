"""The byline model (newsml/document/lines.py): its shipped file, what loading refuses, how
a line gives its author, and the author it finds on real pages where the rules find none."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
from conftest import shared_corpus

from newsml.core import shipped as shipped_files
from newsml.document import lines
from newsml.document.lines import (
    AFTER_LAST,
    BEFORE_START,
    FEATURES,
    LineModel,
    author_in_line,
    best_author,
    candidate_lines,
    holds_name,
    line_features,
    shipped_line_model,
)
from newsml.document.metadata import declared_authors, read_metadata
from newsml.dom.page import load_page
from newsml.errors import ModelError, OutputError
from newsml.extract import scorer_for


def shipped() -> LineModel:
    model = shipped_line_model()
    assert model is not None, "models/bylines.npz is missing"
    return model


def test_the_shipped_model_loads_with_a_probability_threshold():
    model = shipped()
    assert 0.0 < model.threshold < 1.0
    assert model.trees.n_features == len(FEATURES)


def test_a_saved_model_reads_back_to_the_same_scores(tmp_path):
    model = shipped()
    path = model.save(tmp_path / "lines.npz")
    rows = np.random.default_rng(0).uniform(-5, 60, size=(200, len(FEATURES)))
    again = LineModel.load(path)
    assert again.threshold == model.threshold
    assert np.array_equal(again.trees.predict_proba(rows), model.trees.predict_proba(rows))
    with pytest.raises(OutputError, match="exists"):
        model.save(path)


def members_of(path) -> dict:
    """A model file's manifest (``"manifest"``, a dict) and arrays, by name."""
    with zipfile.ZipFile(path) as archive:
        found: dict = {"manifest": json.loads(archive.read("manifest.json"))}
        for name in archive.namelist():
            if name.endswith(".npy"):
                found[name[:-4]] = np.lib.format.read_array(io.BytesIO(archive.read(name)))
    return found


def written(path, members: dict, compress: int = zipfile.ZIP_STORED) -> str:
    with zipfile.ZipFile(path, "w", compress) as archive:
        archive.writestr("manifest.json", json.dumps(members["manifest"]))
        for name, value in members.items():
            if name != "manifest":
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, np.asarray(value), allow_pickle=True)
                archive.writestr(f"{name}.npy", buffer.getvalue())
    return str(path)


def rewritten(tmp_path, change) -> str:
    """The shipped model written again with ``change`` applied to its manifest and arrays."""
    members = members_of(shipped().save(tmp_path / "good.npz"))
    change(members)
    return written(tmp_path / "bad.npz", members)


def cycle(arrays):
    root = int(arrays["roots"][0])
    arrays["left"][root] = root          # a tree whose root is its own child


def manifest(**changes):
    def change(members):
        members["manifest"].update(changes)
    return change


def shuffled_roots(arrays):
    arrays["roots"] = arrays["roots"][::-1].copy()


def shared_roots(arrays):
    arrays["roots"] = np.zeros(20_000, dtype=np.int8)


def nan_split(arrays):
    split = int(np.flatnonzero(~arrays["leaf"])[0])
    arrays["threshold"][split] = np.nan


@pytest.mark.parametrize("change, message", [
    (cycle, "malformed"),
    (shuffled_roots, "malformed"),
    (shared_roots, "malformed"),
    (nan_split, "malformed"),
    (lambda arrays: arrays.update(left=arrays["left"] + 10**6), "malformed"),
    (lambda arrays: arrays.update(value=arrays["value"] * np.nan), "malformed"),
    (lambda arrays: arrays.update(feature=arrays["feature"].astype(float)), "wrong type"),
    (lambda arrays: arrays.update(extra=np.zeros(3)), "not a newsml byline model"),
    (manifest(features=["chars"]), "another newsml"),
    (manifest(format="other"), "not a newsml byline model"),
    (manifest(threshold=3), "not a probability"),
    (manifest(threshold=True), "not a probability"),
    (manifest(baseline="x"), "baseline"),
    (manifest(baseline=True), "baseline"),
])
def test_loading_refuses_a_malformed_model(tmp_path, change, message):
    with pytest.raises(ModelError, match=message):
        LineModel.load(rewritten(tmp_path, change))


def test_loading_refuses_objects_and_files_that_are_no_model(tmp_path):
    members = members_of(shipped().save(tmp_path / "good.npz"))
    members["value"] = np.array([{"format": "newsml-byline-model"}], dtype=object)
    objects = written(tmp_path / "objects.npz", members)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(shipped().save(tmp_path / "whole.npz").read_bytes()[:500])
    text = tmp_path / "text.npz"
    text.write_text("not a model")
    for path in (objects, cut, text, tmp_path / "missing.npz"):
        with pytest.raises(ModelError):
            LineModel.load(path)
    with pytest.raises(ModelError, match="numbers only"):
        LineModel.load(objects)


@pytest.mark.parametrize("line, after, author", [
    ("By Jane Doe | March 3, 2024", "", "Jane Doe"),
    ("By", "Jane Doe", "Jane Doe"),
    ("作者：张三 2019年08月12日", "", "张三"),
    ("Maria Lopez", "", "Maria Lopez"),
    ("Author: maria lopez", "", "maria lopez"),
    ("The council met on Tuesday to discuss the budget for the coming year and beyond.", "", None),
    ("Thomas More", "", "Thomas More"),
    ("Share Tweet Share", "", None),
    ("Related Stories", "", None),
    ("Advertisement", "", None),
    ("Read more", "", None),
    ("【華視新聞╱報導】", "", None),
    ("Login or register to post comments", "", None),
    ("Delivered by FeedBurner", "", None),
    ("茉莉", "", "茉莉"),
    ("赵培", "", "赵培"),
    ("马上发表", "", None),
    ("关闭", "", None),
    ("中国", "", None),
    ("打印 关闭", "", None),
    ("By HOT TOPICS: ASSEMBLY POLLS", "", None),
    ("Authorities said the fire was set", "", None),
    ("김철수", "", "김철수"),
])
def test_a_line_gives_the_author_it_names(line, after, author):
    assert author_in_line(line, after) == author


def test_the_rules_keep_their_byline_and_the_model_reads_none_where_they_name_one():
    html = """<html><body><article><h1>Bridge opens</h1><p>By Ana Diaz</p>
    <p>The new bridge opened to traffic on Wednesday morning, the city said, two months ahead of
    schedule, and drivers crossed it before dawn.</p></article></body></html>"""
    page = load_page(html)
    keep = np.ones(len(page.nodes), dtype=bool)
    assert read_metadata(page, keep, shipped()).author == read_metadata(page, keep).author == "Ana Diaz"


def _unseen_page(corpus: str, page_id: str) -> tuple[dict, object, np.ndarray]:
    """A test page's meta, the page, and the nodes the default keeps."""
    folder = shared_corpus(corpus)
    meta = json.loads((folder / f"{page_id}.json").read_text(encoding="utf-8"))
    assert meta["split"] == "test"
    page = load_page((folder / f"{page_id}.html").read_bytes())
    scorer = scorer_for("default")
    return meta, page, np.asarray(scorer.select(page, scorer.score_nodes(page)), dtype=bool)


@pytest.mark.parametrize("corpus, page_id", [("wcxb_dev", "4267"), ("wcxb_dev2", "0067"),
                                             ("wcxb_dev2", "0418")])
def test_the_model_finds_the_author_the_rules_miss_on_pages_it_never_saw(corpus, page_id):
    meta, page, keep = _unseen_page(corpus, page_id)
    assert read_metadata(page, keep).author is None
    assert read_metadata(page, keep, shipped()).author == meta["author"]


@pytest.mark.parametrize("corpus, page_id", [("wcxb_dev", "4267"), ("wcxb_dev2", "0067"),
                                             ("wcxb_dev2", "0418")])
def test_the_models_likeliest_line_names_the_author_the_rules_miss(corpus, page_id):
    meta, page, keep = _unseen_page(corpus, page_id)
    model = shipped()
    candidates, scores = model.line_scores(page, keep, declared_authors(page))
    best = candidates[int(np.argmax(scores))]
    nodes = page.nodes
    assert author_in_line(nodes[best].text, nodes[best + 1].text if best + 1 < len(nodes) else "") \
        == meta["author"]


def test_loading_refuses_arrays_that_unpack_far_beyond_the_file(tmp_path):
    members = members_of(shipped().save(tmp_path / "good.npz"))
    members["value"] = np.zeros(20_000_000)          # 160 MB of zeros, a few hundred KB packed
    bomb = written(tmp_path / "bomb.npz", members, zipfile.ZIP_DEFLATED)
    with pytest.raises(ModelError, match="decompress"):
        LineModel.load(bomb)


def test_the_best_line_names_the_author_only_above_the_threshold():
    texts, after = ["Share", "By Ana Diaz", "2024-05-01"], ["", "", ""]
    assert best_author(texts, after, np.array([0.1, 0.6, 0.2]), 0.5) == "Ana Diaz"
    assert best_author(texts, after, np.array([0.1, 0.4, 0.2]), 0.5) is None
    assert best_author(["Read more"], [""], np.array([0.9]), 0.5) is None     # a line naming no one
    assert best_author([], [], np.zeros(0), 0.5) is None


def test_candidate_lines_reach_from_before_the_headline_to_after_the_article():
    paragraphs = "".join(f"<p>Line {i}</p>" for i in range(80))
    page = load_page(f"<html><body>{paragraphs}</body></html>")
    keep = np.zeros(len(page.nodes), dtype=bool)
    keep[30:40] = True
    candidates = candidate_lines(page, keep)
    assert candidates[0] == 30 - BEFORE_START and candidates[-1] == 39 + AFTER_LAST
    rows = line_features(page, keep, candidates, ["Line 35"])
    assert rows.shape == (len(candidates), len(FEATURES))
    held = rows[:, FEATURES.index("declared_author")]
    assert held[candidates.index(35)] == 1 and held.sum() == 1


def test_a_name_is_held_as_whole_words_and_anywhere_in_chinese():
    assert holds_name("by ap staff", "ap") and not holds_name("maps and charts", "ap")
    assert holds_name("本报记者张三报道", "张三")


def test_a_missing_or_broken_shipped_model_leaves_the_rules_with_a_warning(tmp_path, monkeypatch):
    load = shipped_line_model.__wrapped__
    monkeypatch.setattr(lines, "_SHIPPED", "none-such.npz")
    with pytest.warns(UserWarning, match="missing"):
        assert load() is None
    (tmp_path / "broken.npz").write_bytes(b"not a model")
    monkeypatch.setattr(lines, "_SHIPPED", "broken.npz")
    monkeypatch.setattr(shipped_files, "SOURCE_MODELS", tmp_path)
    with pytest.warns(UserWarning, match="rules alone"):
        assert load() is None
