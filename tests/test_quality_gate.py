"""Quality gate: the shipped default method must not fall below pinned F1 floors.

The floors live in ``quality_floors.json``, set from a measured run minus 0.005.
Raising a floor is a normal commit; lowering one needs a reason in its message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import shared_corpus

from newsml import load_corpus
from newsml.learning.persistence import get_method
from newsml.run.evaluate import evaluate_pages

FLOORS = json.loads((Path(__file__).parent / "quality_floors.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("corpus", sorted(FLOORS["corpora"]))
def test_default_method_holds_its_floor_on_the_test_split(corpus):
    pages = load_corpus(shared_corpus(corpus), split="test")
    floor = FLOORS["corpora"][corpus]
    summary = evaluate_pages(pages, get_method(FLOORS["method"]), corpus, "test").summary()
    assert summary["failures"] == 0
    assert summary["f1"] >= floor["f1"], (
        f"{corpus}: macro F1 {summary['f1']:.4f} fell below the floor {floor['f1']:.4f} "
        f"(measured {floor['measured']:.4f} on {floor['date']})")
