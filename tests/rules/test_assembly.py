"""newsml/rules/assembly.py: smoothing and the cut that turn node scores into the article."""

from __future__ import annotations

import numpy as np
import pytest

from newsml import extract
from newsml.rules.assembly import OtsuCut

ARTICLE = ("<p>The council approved the budget on Tuesday after a long debate about roads, "
           "schools and the new library.</p><p>Members voted seven to two, and the mayor said "
           "the plan would hold taxes flat for a second year.</p>")
FOOTER = "<footer><p>Copyright 2024 Town Times.</p><a href='/about'>About</a></footer>"


@pytest.mark.parametrize("after", ["", "<noscript>&#11;</noscript>", FOOTER])
def test_a_page_of_two_paragraphs_keeps_both(after, default_method):
    # Otsu's threshold alone splits any two scores: the cut's floor keeps a node the
    # model is sure of (the second paragraph was lost before it)
    text = extract(f"<html><body>{ARTICLE}{after}</body></html>", method=default_method).text
    assert "The council approved the budget on Tuesday" in text
    assert "hold taxes flat for a second year." in text


def test_otsu_with_a_floor_keeps_every_confident_node():
    # two paragraphs both confidently article: Otsu alone splits them, the floor keeps both
    scores = np.array([0.964, 0.978])
    assert OtsuCut()(scores).tolist() == [False, True]
    assert OtsuCut(keep_above=0.7)(scores).tolist() == [True, True]
    # below the floor, Otsu alone decides
    spread = np.array([0.1, 0.2, 0.5, 0.6, 0.65])
    assert OtsuCut(keep_above=0.7)(spread).tolist() == OtsuCut()(spread).tolist()
    # a cut pickled before the floor existed loads as the papers' cut
    old = OtsuCut.__new__(OtsuCut)
    old.__dict__.update({"step": 0.01, "fallback": 0.5})
    assert old.keep_above is None and old == OtsuCut() and str(old) == "otsu"
