"""newsml/methods/title_relevance.py: the blocks around the one most like the title."""

from __future__ import annotations

from newsml import extract
from newsml.methods.title_relevance import title_keywords


def test_title_relevance_keywords_drop_stop_words_and_possessives():
    assert title_keywords("The Mayor's plan for the city's parents'") == ["mayor", "plan", "city", "parents"]
    assert title_keywords("北京市发布暴雨预警") == ["北京市", "发布", "暴雨", "预警"]


def test_title_relevance_keeps_cousin_blocks_out():
    html = """<html><head><title>Harbour at Riverton closes for the storm</title></head><body>
      <div id="main"><div class="story">
      <p>The harbour at Riverton closes for the storm, officials said today.</p>
      <p>Ferries stay in port until the wind drops over the weekend.</p></div>
      <div class="promo"><p>Subscribe now and save on your first year of news.</p>
      <p>Win a car in our draw.</p></div>
      </div></body></html>"""
    paragraphs = extract(html, method="title-relevance").paragraphs
    assert paragraphs[0].startswith("The harbour") and not any("Subscribe" in p for p in paragraphs)
