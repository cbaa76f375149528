"""Islands: runs of kept text far from the article, left out after the cut."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import predicted_text

from newsml import ConfigurationError, extract
from newsml.dom.page import Page, load_page
from newsml.rules.islands import CONFIDENT, GAP_TOKENS, SECTION_CONFIDENT, kept_runs, without_islands


def words(count: int, word: str = "word") -> str:
    return " ".join(f"{word}{i}" for i in range(count))


def page_of(*blocks: tuple[str, int], title: str = "") -> Page:
    """A page of one <p> per block, (word, tokens) each; its first block is the headline
    when ``title`` is its text."""
    head = f"<head><title>{title}</title></head>" if title else ""
    body = "".join(f"<p>{words(tokens, word)}</p>" for word, tokens in blocks)
    return load_page(f"<html>{head}<body>{body}</body></html>")


def test_runs_part_where_enough_dropped_tokens_lie_between():
    page = page_of(("story", 30), ("menu", GAP_TOKENS - 1), ("story", 30), ("menu", GAP_TOKENS), ("more", 30))
    assert list(page.token_counts) == [30, GAP_TOKENS - 1, 30, GAP_TOKENS, 30]
    keep = np.array([True, False, True, False, True])
    assert [run.tolist() for run in kept_runs(page, keep)] == [[0, 2], [4]]
    assert kept_runs(page, np.zeros(5, dtype=bool)) == []
    assert [run.tolist() for run in kept_runs(page, keep & (np.arange(5) == 4))] == [[4]]


def test_a_far_run_scored_below_the_article_is_left_out_unless_confident():
    page = page_of(("story", 60), ("menu", GAP_TOKENS), ("teaser", 40))
    keep = np.array([True, False, True])
    assert without_islands(page, keep, np.array([0.9, 0.1, 0.5])).tolist() == [True, False, False]
    confident = np.array([0.95, 0.1, CONFIDENT])
    assert without_islands(page, keep, confident) is keep           # a confident run stays: unchanged
    near = page_of(("story", 60), ("menu", GAP_TOKENS - 1), ("teaser", 40))
    assert without_islands(near, keep, np.array([0.9, 0.1, 0.5])) is keep     # one run


def test_a_later_section_inside_the_articles_container_stays_and_a_teaser_beside_it_goes():
    """A long post whose sections are parted by lists the cut dropped: the sections lie in
    the post's own container; a teaser run of the same score lies beside it."""
    menu = "".join(f"<li>{words(10, f'item{k}_')}</li>" for k in range(GAP_TOKENS // 10 + 1))
    html = (f"<html><body><div class='post'><p>{words(60, 'intro')}</p><ul>{menu}</ul>"
            f"<p>{words(60, 'section')}</p></div>"
            f"<div class='related'><ul>{menu}</ul><p>{words(60, 'teaser')}</p></div></body></html>")
    page = load_page(html)
    kinds = [node.text.split()[0].rstrip("0123456789_") for node in page.nodes]
    keep = np.array([kind in ("intro", "section", "teaser") for kind in kinds])
    scores = np.where(keep, SECTION_CONFIDENT, 0.1)
    scores[kinds.index("intro")] = 0.95
    kept = without_islands(page, keep, scores)
    assert [kind for kind, flag in zip(kinds, kept) if flag] == ["intro", "section"]
    # less sure of the section, the trees leave it out as before
    scores[kinds.index("section")] = SECTION_CONFIDENT - 0.05
    assert [kind for kind, flag in zip(kinds, without_islands(page, keep, scores)) if flag] == ["intro"]
    # and on a page whose article sits in <body> itself, the page is no container
    flat = load_page(html.replace("<div class='post'>", "").replace("</p></div><div", "</p><div"))
    flat_kinds = [node.text.split()[0].rstrip("0123456789_") for node in flat.nodes]
    flat_keep = np.array([kind in ("intro", "section", "teaser") for kind in flat_kinds])
    flat_scores = np.where(flat_keep, SECTION_CONFIDENT, 0.1)
    flat_scores[flat_kinds.index("intro")] = 0.95
    assert [kind for kind, flag in zip(flat_kinds, without_islands(flat, flat_keep, flat_scores))
            if flag] == ["intro"]


def test_the_container_is_the_main_runs_not_a_wrapper_that_the_headline_widens_it_to():
    """A headline in the page's header, a story in <article>, a teaser in <aside>, all
    inside one wrapper: the wrapper holds them all, the story's container does not."""
    menu = "".join(f"<li>{words(10, f'item{k}_')}</li>" for k in range(GAP_TOKENS // 10 + 1))
    html = (f"<html><head><title>headline0 headline1 headline2</title></head><body><div id='wrap'>"
            f"<header><h1>{words(3, 'headline')}</h1></header><nav><ul>{menu}</ul></nav>"
            f"<article><p>{words(60, 'story')}</p><p>{words(60, 'more')}</p></article>"
            f"<aside><ul>{menu}</ul><p>{words(40, 'teaser')}</p></aside></div></body></html>")
    page = load_page(html)
    assert page.headline_node == 0
    kinds = [node.text.split()[0].rstrip("0123456789_") for node in page.nodes]
    keep = np.array([kind in ("headline", "story", "more", "teaser") for kind in kinds])
    scores = np.where(keep, SECTION_CONFIDENT + 0.05, 0.1)
    kept = without_islands(page, keep, scores)
    assert [kind for kind, flag in zip(kinds, kept) if flag] == ["headline", "story", "more"]


def test_the_weightiest_run_and_the_headline_run_are_the_article():
    # the headline's run is short and its paragraph scores low, the long run later is the body
    headline = "headline0 headline1 headline2"
    blocks = [("headline", 3), ("lead", 10), ("menu", GAP_TOKENS), ("body", 200), ("menu", GAP_TOKENS),
              ("teaser", 30)]
    page = page_of(*blocks, title=headline)
    assert page.headline_node == 0
    keep = np.array([True, True, False, True, False, True])
    scores = np.array([0.6, 0.5, 0.0, 0.8, 0.0, 0.6])
    assert without_islands(page, keep, scores).tolist() == [True, True, False, True, False, False]
    # without a headline, only the weightiest run is sure to stay
    untitled = page_of(*blocks)
    assert untitled.headline_node is None
    assert without_islands(untitled, keep, scores).tolist() == [False, False, False, True, False, False]
    # a headline's run the trees are sure of is the article alone, however much follows it
    sure = np.array([0.95, 0.5, 0.0, 0.8, 0.0, 0.6])
    assert without_islands(page, keep, sure).tolist() == [True, True, False, False, False, False]
    # a headline the cut dropped: the run after it is the article's
    keep_after = np.array([False, True, False, True, False, True])
    assert without_islands(page, keep_after, scores).tolist() == [False, True, False, True, False, False]
    assert without_islands(page, keep_after.tolist(), scores).dtype == bool    # a list of flags works too


def test_a_body_found_by_its_markup_is_not_weighed_again():
    """The marked-body rule adds a story the trees scored low; the islands rule would weigh
    it against the higher-scored lines the cut kept, and drop it."""
    from newsml.extract import scorer_for

    story = STORY
    menu = "".join(f"<li><a href='/s/{i}'>Section number {i} of the site menu</a></li>" for i in range(30))
    lines = "".join(f"<div><span>Short line {i} without end words</span></div>" for i in range(20))
    body = "".join(f"<p>{line}</p>" for line in story)
    page = load_page(f"<html><head><title>Budget news today</title></head><body><ul>{menu}</ul>"
                     f"<article><h1>Council approves budget</h1>{body}</article><ul>{menu}</ul>{lines}"
                     "</body></html>")
    texts = [node.text for node in page.nodes]
    scores = np.array([0.7 if text.startswith("Short line") else 0.2 if text in story else 0.05
                       for text in texts])
    method = scorer_for("default")
    cut = method.assembly_.select(scores)
    assert not any(cut[texts.index(line)] for line in story)          # the cut missed the story
    keep = method.select(page, scores)
    assert all(keep[texts.index(line)] for line in story)             # the body found it again


STORY = ["The city council approved a new budget on Tuesday after a long debate about roads, schools "
         "and the harbour, officials said.",
         "The plan keeps property taxes flat for a second year and adds money for bus routes, the mayor "
         "told reporters at city hall.",
         "Opponents said the harbour project would cost more than the council expects and asked for an "
         "independent review of the figures."]
TEASERS = [("Bridge repairs to start in spring", "Work on the old river bridge will close one lane for six "
            "months while crews replace the deck, the transport office said on Monday. Drivers are "
            "asked to take the ring road during the morning rush."),
           ("School board names new head", "The school board chose a former teacher from the north district "
            "to lead the city's schools, ending a search that took a year. She starts in August and "
            "will meet parents at every school in the first term."),
           ("Harbour festival returns", "The summer festival at the harbour is back after two years, with "
            "music, boats and food stalls along the water front all weekend long. Tickets for the "
            "evening concerts go on sale next week at the library."),
           ("Library extends its hours", "The central library will stay open until nine on weekdays from "
            "next month, after readers asked for more evening hours to study. Staff said the extra "
            "hours are paid for by a grant from the state.")]
MOST_READ = ["Storm leaves thousands without power across the region",
             "Police search for driver after crash on the ring road",
             "New bakery opens in the old post office building downtown",
             "Five things to do in the city this weekend with children",
             "Rents rise again as students return to the city in autumn",
             "Local team wins cup after a penalty shoot-out on Sunday",
             "Hospital opens a new wing for children and young mothers",
             "Why the tram line is late and what happens next for riders"]
SECTIONS = ("news sport business culture travel weather opinion science health money cars homes jobs "
            "video photos podcasts events obituaries letters puzzles games").split()


def story_with_teasers() -> str:
    """A short story, a box of the most read headlines, then teasers of related stories (two
    sentences each: long enough that the trees' cut keeps them, so the islands rule has
    something to leave out)."""
    menu = "".join(f'<li><a href="/s/{i}">Section {name}</a></li>' for i, name in enumerate(SECTIONS))
    popular = "".join(f'<li><a href="/p/{i}">{line}</a></li>' for i, line in enumerate(MOST_READ))
    teasers = "".join(f'<div class="teaser"><h3><a href="/t/{i}">{head}</a></h3><p>{text}</p></div>'
                      for i, (head, text) in enumerate(TEASERS))
    story = "".join(f"<p>{line}</p>" for line in STORY)
    return (f"<html><head><title>Council approves budget</title></head><body><ul>{menu}</ul>"
            f"<div class='story'><h1>Council approves budget</h1>{story}</div>"
            f"<div class='popular'><h2>Most read</h2><ol>{popular}</ol></div>"
            f"<div class='more'><h2>More from the city</h2>{teasers}</div>"
            f"<div class='footer'><ul>{menu}</ul><p>Copyright 2026 City News</p></div></body></html>")


def test_the_default_leaves_out_related_teasers_unless_asked():
    html = story_with_teasers()
    text = extract(html).text
    assert all(line in text for line in STORY)
    assert not any(teaser in text for _, teaser in TEASERS)
    kept = extract(html, islands="keep").text
    assert all(line in kept for line in STORY)
    assert any(teaser in kept for _, teaser in TEASERS)           # the trees' cut kept some
    with pytest.raises(ConfigurationError, match="islands must be 'drop' or 'keep'"):
        extract(html, islands="maybe")


def test_keep_islands_on_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from newsml.run.cli import app

    page = tmp_path / "story.html"
    page.write_text(story_with_teasers(), encoding="utf-8")
    dropped, kept = predicted_text(page), predicted_text(page, "--keep-islands")
    assert TEASERS[0][1] not in dropped
    assert len(kept) > len(dropped)
    never = CliRunner().invoke(app, ["predict", str(page), "-m", "econ", "--keep-islands"])
    assert never.exit_code == 2 and "keeps runs of text far from the article already" in never.output


def test_model_files_from_before_get_the_default():
    from newsml.methods.fusion import Fusion

    method = Fusion()
    state = method.__getstate__()
    state.pop("islands")
    older = Fusion.__new__(Fusion)
    older.__setstate__(state)
    assert older.islands == "drop" and older.get_params()["islands"] == "drop"


def test_comments_kept_on_request_keep_the_islands_too():
    html = story_with_teasers()
    with_comments = extract(html, comments="keep").text
    assert with_comments == extract(html, comments="keep", islands="keep").text
    assert any(teaser in with_comments for _, teaser in TEASERS)
