"""A short article the cut missed is found again in the markup's named article body."""

from __future__ import annotations

import numpy as np
from conftest import shared_corpus

from newsml import extract
from newsml.dom.page import load_page
from newsml.rules.marked_body import is_prose, with_marked_body

SENTENCE = "The mayor said on Tuesday that the bridge would reopen next month after repairs."
PAGE = load_page(f"""<html><body>
<ul class="menu"><li><a href="/a">World</a></li><li><a href="/b">Sport</a></li></ul>
<div class="byline">By Staff Writer</div>
<div itemprop="articleBody"><p>{SENTENCE}</p><p>Traffic will use the old road until then.</p>
 <p><a href="/more">More from the city desk</a></p></div>
<div class="footer"><p>{SENTENCE}</p></div>
</body></html>""")


def _node(page, start):
    return next(node.index for node in page.nodes if node.text.startswith(start))


def test_prose_is_long_running_text_that_ends_a_sentence():
    nodes = {node.text[:12]: node for node in PAGE.nodes}
    assert is_prose(nodes[SENTENCE[:12]])
    assert not is_prose(nodes["By Staff Wri"])                 # short, no sentence end
    assert not is_prose(nodes["Traffic will"])                 # ends a sentence, but short


def test_the_body_beside_the_prose_is_added_when_no_prose_was_kept():
    keep = np.zeros(len(PAGE.nodes), dtype=bool)
    keep[_node(PAGE, "By Staff")] = True
    added = with_marked_body(PAGE, keep)
    assert added[_node(PAGE, "The mayor")] and added[_node(PAGE, "Traffic")]
    assert added[_node(PAGE, "By Staff")]                      # what was kept stays
    assert not added[_node(PAGE, "More from")]                 # a link beside it: no
    assert not added[_node(PAGE, "World")]
    footer = [node.index for node in PAGE.nodes if node.text == SENTENCE][-1]
    assert not added[footer]                                   # prose outside the body: no


def test_nothing_is_added_when_prose_was_kept_or_no_body_is_named():
    keep = np.zeros(len(PAGE.nodes), dtype=bool)
    footer = [node.index for node in PAGE.nodes if node.text == SENTENCE][-1]
    keep[footer] = True
    assert with_marked_body(PAGE, keep) is keep
    unnamed = load_page(f"<html><body><div class='byline'>By Staff</div>"
                        f"<div><p>{SENTENCE}</p></div></body></html>")
    nothing = np.zeros(len(unnamed.nodes), dtype=bool)
    assert not with_marked_body(unnamed, nothing).any()


def test_a_breaking_news_item_in_a_named_body_is_extracted():
    # three sentences in itemprop=articleBody amid menus: the trees scored them below the
    # byline and the date, and the cut kept those alone (token F1 0.03)
    page = shared_corpus("scrapinghub") / "e372e42c0a3df7b8.html"
    text = extract(page.read_bytes()).text
    assert "Fritz Eckart von Weizsäcker was stabbed to death" in text
    assert "Police arrested a 57-year-old man" in text
    assert "Customer Service Center" not in text


def test_what_the_body_adds_passes_the_comment_rule(default_method):
    # the body holds prose only in its comment section: adding it back would undo the
    # comment rule, so the default's selection leaves it out
    page = load_page(f"""<html><body><article><h1>Bridge news</h1><div class="byline">By Staff</div>
<div class="comments"><p>{SENTENCE}</p><p>{SENTENCE} I agree with the council.</p></div>
</article></body></html>""")
    model = default_method
    byline = np.zeros(len(page.nodes), dtype=bool)
    byline[_node(page, "By Staff")] = True
    assert with_marked_body(page, byline)[_node(page, "The mayor")]   # the rule alone adds it
    kept = model.select(page, np.where(byline, 0.9, 0.01))
    assert not kept[_node(page, "The mayor")]
