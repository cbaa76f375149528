"""Reading labeled folders."""

from __future__ import annotations

import json

import pytest

from newsml import NewsmlError, load_corpus


@pytest.fixture
def folder(tmp_path):
    for i, split in enumerate(["train", "test", None]):
        (tmp_path / f"p{i}.html").write_text(f"<p>page {i}</p>", encoding="utf-8")
        (tmp_path / f"p{i}.txt").write_text(f"page {i}\n", encoding="utf-8")
        if split:
            (tmp_path / f"p{i}.json").write_text(json.dumps({"split": split, "lang": "en"}), encoding="utf-8")
    (tmp_path / "orphan.html").write_text("<p>no gold</p>", encoding="utf-8")
    return tmp_path


def test_loads_pages_with_gold_sorted_by_id(folder):
    pages = load_corpus(folder)
    assert [p.id for p in pages] == ["p0", "p1", "p2"]
    assert pages[0].gold == "page 0\n" and pages[0].html == b"<p>page 0</p>"
    assert pages[0].meta["lang"] == "en" and pages[2].meta == {}
    assert pages[0].corpus == folder.name


def test_split_filters_on_the_json_field(folder):
    assert [p.id for p in load_corpus(folder, split="train")] == ["p0"]
    assert [p.id for p in load_corpus(folder, split="test")] == ["p1"]
    assert len(load_corpus(folder, split="all")) == 3


def test_bad_folder_and_bad_split_are_clear_errors(folder, tmp_path):
    with pytest.raises(NewsmlError, match="not found"):
        load_corpus(tmp_path / "missing")
    with pytest.raises(NewsmlError, match="unknown split"):
        load_corpus(folder, split="dev")
