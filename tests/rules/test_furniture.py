"""Page furniture: small boxes named as share bars, tag lists, ads... left out after the cut."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import LABELED, predicted_text

from newsml import ConfigurationError, extract
from newsml.dom.page import load_page
from newsml.rules.furniture import is_furniture, names_furniture, without_furniture

STORY = " ".join(["The council approved the budget on Tuesday after a long debate, officials said."] * 3)
PAGE = load_page(f"""<html><head><title>Budget approved</title></head><body>
<div class="story"><h1>Budget approved</h1>
<div class="share-tools"><span>Share this article</span> <button>Facebook</button>
 <button>Email</button></div>
<p>{STORY}</p><p>{STORY}</p>
<div class="adSlot">Advertisement</div>
<div class="topics"><span>Topics</span> <a href="/t/1">Council</a> <a href="/t/2">Budget</a></div>
</div></body></html>""")


@pytest.mark.parametrize("value, expected", [
    ("share-tools", True), ("social-share", True), ("shareBar", True), ("post_tags", True),
    ("topics", True), ("ad-slot", True), ("adSlot", True), ("breadcrumb", True), ("print-link", True),
    ("newsletter-signup", True), ("related-stories", True), ("story sponsored", True),
    ("story-body", False), ("header", False), ("shared-header", False), ("headline", False),
    ("a9ad7f97", False),                                  # a hash: 'ad' glued to digits is no word
    ("what-share-of-adolescents-report-treatment", False),   # a heading's slug, not a box's name
    ("", False), (None, False),
])
def test_names_of_furniture(value, expected):
    assert names_furniture(value) is expected


def test_a_heading_or_a_large_box_is_no_furniture():
    heading = load_page("<html><body><h2 class='share'>Share of voters rises</h2><p>x</p></body></html>")
    assert not is_furniture(heading.root.find(".//h2"))
    wrapper = load_page(f"<html><body><div class='share-wrap'><p>{STORY}</p><p>{STORY}</p></div>"
                        "</body></html>")
    assert not is_furniture(wrapper.root.find(".//div"))      # it holds the story: no share bar


def test_kept_furniture_is_left_out_but_never_everything():
    keep = np.ones(len(PAGE.nodes), dtype=bool)
    texts = [node.text for node, kept in zip(PAGE.nodes, without_furniture(PAGE, keep)) if kept]
    assert texts == ["Budget approved", STORY, STORY]
    only_bar = np.array(["Share this article" in node.text for node in PAGE.nodes])
    assert (without_furniture(PAGE, only_bar) == only_bar).all()          # nothing else kept: as cut


def test_the_default_leaves_out_share_bars_and_tag_lists_unless_asked():
    page = LABELED / "en11-kingsbridge-manager.html"
    text = extract(page).text
    assert "Kingsbridge United have dismissed manager Colin Frayne" in text
    assert "Share this article" not in text and "Topics Football" not in text
    kept = extract(page, furniture="keep").text
    assert "Share this article" in kept or "Topics Football" in kept      # the model kept them
    with pytest.raises(ConfigurationError, match="furniture must be 'drop' or 'keep'"):
        extract(page, furniture="maybe")


def test_keep_furniture_on_the_command_line():
    from typer.testing import CliRunner

    from newsml.run.cli import app

    page = str(LABELED / "en11-kingsbridge-manager.html")
    dropped, kept = predicted_text(page), predicted_text(page, "--keep-furniture")
    assert "Share this article" not in dropped
    assert len(kept) > len(dropped)
    never = CliRunner().invoke(app, ["predict", page, "-m", "econ", "--keep-furniture"])
    assert never.exit_code == 2 and "keeps page furniture already" in never.output
