"""Training on labeled folders: page ids, skipped pages, cross-validated F1."""

from __future__ import annotations

import pytest
from conftest import story_pages, write_corpus

from newsml.errors import ConfigurationError
from newsml.learning.training import train_method


def test_training_on_corpora_that_share_ids_keeps_golds_aligned(tmp_path):
    a = write_corpus(tmp_path / "a", story_pages(6, empty=1))
    b = write_corpus(tmp_path / "b", story_pages(6))
    method, meta = train_method("nb", [a, b], split=None, cv_folds=2)
    assert meta["training"]["pages"] == 11 and meta["training"]["skipped"] == ["p1"]
    assert meta["cv_f1"] > 0.5


@pytest.mark.parametrize("name, params, base, message", [
    ("fusion", {"mates": 3}, None, "mates must be True or False"),
    ("fusion", {"weighting": "pages"}, None, "weighting must be 'tokens' or 'nodes'"),
    ("fusion", {"evidence": ("nb", "nope")}, None, r"unknown evidence \['nope'\]"),
    ("cedst", {"evidence": ("topic",)}, None, "bad option for method 'cedst'"),
    ("fusion", {"prior": 0}, "default", "prior must be 'auto' or a number > 0"),
])
def test_a_setting_fit_would_refuse_fails_before_any_page_is_read(tmp_path, name, params, base, message):
    missing = tmp_path / "no-such-folder"          # never read: the setting fails first
    with pytest.raises(ConfigurationError, match=message):
        train_method(name, [missing], params=params, base=base)
