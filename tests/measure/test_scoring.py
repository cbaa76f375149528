"""Token-level P/R/F1, checked against cases computed by hand."""

from __future__ import annotations

import pytest

from newsml import score
from newsml.core.text import tokens
from newsml.measure.scoring import Score, macro, outcome, paired_bootstrap


def test_tokens_are_lowercase_word_runs_and_single_cjk_characters():
    assert tokens("The U.S. economy, 3.5%") == ["the", "u", "s", "economy", "3", "5"]
    assert tokens("北京abc中文 x_y") == ["北", "京", "abc", "中", "文", "x", "y"]
    assert tokens("  — ，。 ") == []


def test_partial_overlap():
    # extracted a b c, gold a b d: 2 of 3 either way
    p, r, f = score("a b c", "a b d")
    assert p == pytest.approx(2 / 3) and r == pytest.approx(2 / 3) and f == pytest.approx(2 / 3)


def test_overlap_is_a_multiset_intersection():
    # three "a" extracted, one in the gold: only one counts
    assert score("a a a", "a") == pytest.approx(Score(1 / 3, 1.0, 0.5))


def test_cjk_characters_count_one_each():
    # 中文 extracted, 中文字 gold: P = 2/2, R = 2/3, F1 = 0.8
    assert score("中文", "中文字") == pytest.approx(Score(1.0, 2 / 3, 0.8))


def test_empty_extraction_is_precision_one_recall_zero():
    assert score("", "some gold text") == Score(1.0, 0.0, 0.0)
    assert score("   ", "gold") == Score(1.0, 0.0, 0.0)


def test_disjoint_texts_score_zero():
    assert score("nothing shared", "entirely different") == Score(0.0, 0.0, 0.0)


def test_empty_gold():
    assert score("", "") == Score(1.0, 1.0, 1.0)
    assert score("noise", "") == Score(0.0, 1.0, 0.0)


def test_macro_averages_pages_equally():
    assert macro([Score(1, 0, 0), Score(0.5, 1, 2 / 3)]) == pytest.approx(Score(0.75, 0.5, 1 / 3))
    assert macro([]) == Score(0.0, 0.0, 0.0)


@pytest.mark.parametrize(("p", "r", "expected"), [
    (1.0, 1.0, "correct"), (0.95, 0.95, "correct"), (0.5, 0.99, "wrong"), (1.0, 0.5, "missed"),
])
def test_econ_paper_outcomes(p, r, expected):
    assert outcome(Score(p, r, 0.0)) == expected


def test_paired_bootstrap_interval_holds_the_mean_difference():
    ours, theirs = [0.9, 0.8, 1.0, 0.7, 0.95], [0.85, 0.9, 0.7, 0.75, 0.9]
    mean, low, high = paired_bootstrap(ours, theirs)
    assert mean == pytest.approx(0.05)
    assert low < mean < high
    assert paired_bootstrap(ours, theirs) == (mean, low, high)  # seeded
