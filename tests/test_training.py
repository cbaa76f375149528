"""Training on labeled folders: page ids, skipped pages, cross-validated F1."""

from __future__ import annotations

from conftest import story_pages, write_corpus

from newsml.training import train_method


def test_training_on_corpora_that_share_ids_keeps_golds_aligned(tmp_path):
    a = write_corpus(tmp_path / "a", story_pages(6, empty=1))
    b = write_corpus(tmp_path / "b", story_pages(6))
    method, meta = train_method("nb", [a, b], split=None, cv_folds=2)
    assert meta["training"]["pages"] == 11 and meta["training"]["skipped"] == ["p1"]
    assert meta["cv_f1"] > 0.5
