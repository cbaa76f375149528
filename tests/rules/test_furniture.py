"""Page furniture: small boxes named as share bars, tag lists, ads... left out after the cut."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import LABELED, predicted_text

from newsml import ConfigurationError, extract
from newsml.dom.page import load_page
from newsml.rules.furniture import (
    is_furniture,
    names_furniture,
    names_overlay,
    names_slideshow,
    without_furniture,
    without_overlays,
    without_slideshows,
)

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


@pytest.mark.parametrize("value, expected", [
    ("hp-slideshow", True), ("full-gallery", True), ("article-gallery lightGallery", True),
    ("carousel-wrapper relative", True), ("gallery galleryid-2 gallery-columns-6", True),
    ("slider", True), ("photoCarousel", True),
    ("listicle-slides", False),                     # a listicle's slides are its article
    ("format-gallery", False), ("tag-gallery", False),   # the post's kind, not a box
    ("has_eae_slider elementor-column", False), ("carousel-disabled", False),   # flags
    ("story-body", False), ("slideout-menu", False), ("", False), (None, False),
])
def test_names_of_slideshows(value, expected):
    assert names_slideshow(value) is expected


CAPTION = ("Jamaica's Usain Bolt competes in a men's 200-meter heat during the athletics "
           "in the Olympic Stadium.")


def _slideshow_page(before: str) -> str:
    slides = "".join(f"<li><h4>Usain Bolt</h4><p>{CAPTION}</p></li>" for _ in range(6))
    return f"""<html><head><title>Bolt wins gold</title></head><body>
<div class="entry"><h1>Bolt wins gold</h1>{before}
<p>Also on the site:</p><div class="promo"><ul class="hp-slideshow">{slides}</ul></div></div></body></html>"""


def test_a_slideshow_after_the_story_is_left_out():
    page = load_page(_slideshow_page(f"<p>{STORY}</p><p>{STORY}</p>"))
    everything = np.ones(len(page.nodes), dtype=bool)
    kept = [node.text for node, k in zip(page.nodes, without_slideshows(page, everything)) if k]
    assert kept == ["Bolt wins gold", STORY, STORY, "Also on the site:"]


def test_a_slideshow_is_kept_where_it_is_the_page():
    """A page of captions alone (one paragraph before them) keeps them, and so does a page
    whose headline sits inside the gallery."""
    page = load_page(_slideshow_page(f"<p>{STORY}</p>"))
    everything = np.ones(len(page.nodes), dtype=bool)
    assert without_slideshows(page, everything) is everything
    inside = load_page(f"""<html><head><title>Bolt in pictures</title></head><body>
<div class="intro"><p>{STORY}</p><p>{STORY}</p></div>
<div class="gallery"><h1>Bolt in pictures</h1><p>{CAPTION}</p><p>{CAPTION}</p></div></body></html>""")
    assert inside.nodes[inside.headline_node].text == "Bolt in pictures"
    everything = np.ones(len(inside.nodes), dtype=bool)
    assert without_slideshows(inside, everything) is everything


def test_the_default_leaves_the_slideshow_out_and_keeps_it_on_request():
    html = _slideshow_page(f"<p>{STORY}</p><p>{STORY}</p><p>{STORY}</p>")
    assert STORY[:40] in extract(html).text and CAPTION[:40] not in extract(html).text
    assert CAPTION[:40] in extract(html, furniture="keep").text


@pytest.mark.parametrize("value, expected", [
    ("modal-window window", True), ("cookie-consent", True), ("gdprBanner", True), ("popup", True),
    ("newsletter-overlay", True), ("ui-dialog", True), ("cookies", True),
    ("has-overlay", False), ("no-popup", False),             # flags of the page, not the dialog
    ("article__body article-overlay-", False),               # the article, styled
    ("caption-overlay", False), ("image-overlay", False),     # a figure's styling
    ("category-cookies", False),                              # the post's kind
    ("modality", False), ("cookiecutter", False), ("article-body", False), ("", False), (None, False),
])
def test_names_of_overlays(value, expected):
    assert names_overlay(value) is expected


PRIVACY = ("We are committed to protecting your personal information and we have updated our Privacy "
           "Policy to comply with the General Data Protection Regulation, which took effect this year.")


def _page_with_modal(story: str) -> str:
    return f"""<html><head><title>Budget approved</title></head><body>
<div class="story"><h1>Budget approved</h1>{story}</div>
<div class="related"><a href="/1">Other news</a></div>
<div class="modal-window window"><section class="body"><form><div class="field"><p>{PRIVACY}</p>
<p>{PRIVACY}</p></div></form></section></div></body></html>"""


def test_a_dialog_over_the_page_is_left_out():
    page = load_page(_page_with_modal(f"<p>{STORY}</p><p>{STORY}</p>"))
    everything = np.ones(len(page.nodes), dtype=bool)
    kept = [node.text for node, k in zip(page.nodes, without_overlays(page, everything)) if k]
    assert STORY in kept and PRIVACY not in kept


def test_an_article_shown_in_a_modal_is_kept():
    # the modal holding the headline is no dialog
    page = load_page(f"""<html><body><div class="modal"><h1>Budget approved</h1><p>{STORY}</p></div>
<div class="modal"><p>{PRIVACY}</p></div></body></html>""")
    everything = np.ones(len(page.nodes), dtype=bool)
    left = [node.text for node, k in zip(page.nodes, without_overlays(page, everything)) if k]
    assert STORY in left and PRIVACY not in left
    # nor is anything left out when every kept node is in a dialog (a page without a headline)
    bare = load_page(f"""<html><body><p>Menu</p><div class="popup"><p>{STORY}</p><p>{STORY}</p></div>
</body></html>""")
    kept = np.array([STORY in node.text for node in bare.nodes])
    assert bare.headline_node is None or not kept[bare.headline_node]
    assert without_overlays(bare, kept) is kept


def test_dialogs_holding_most_of_what_is_kept_stay():
    page = load_page(f"""<html><head><title>Budget approved</title></head><body>
<h1>Budget approved</h1><p>The council met.</p>
<div class="modal"><p>{STORY}</p><p>{STORY}</p></div></body></html>""")
    everything = np.ones(len(page.nodes), dtype=bool)
    assert without_overlays(page, everything) is everything


def test_the_default_leaves_the_dialog_out_and_keeps_it_on_request():
    html = _page_with_modal(f"<p>{STORY}</p><p>{STORY}</p><p>{STORY}</p>")
    assert PRIVACY[:40] not in extract(html).text
    assert PRIVACY[:40] in extract(html, furniture="keep").text
