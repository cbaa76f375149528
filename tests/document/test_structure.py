"""The roles of kept nodes (newsml/document/structure.py): what each block of the document is."""

from __future__ import annotations

import numpy as np

from newsml.document.html import to_html
from newsml.document.markdown import to_markdown
from newsml.document.structure import Block, Span, document_blocks, is_data_table
from newsml.dom.page import load_page


def blocks_of(html: str, **options) -> list[Block]:
    """The blocks of every node of a page (all kept), its title left out as extraction does."""
    page = load_page(html)
    return document_blocks(page, np.ones(len(page.nodes), dtype=bool), page.title, **options)


def kinds(blocks: list[Block]) -> list[tuple[str, int]]:
    return [(block.kind, block.level) for block in blocks]


def test_headings_keep_their_level_and_the_title_is_given_once():
    blocks = blocks_of("<html><head><title>Bridge opens</title></head><body><h1>Bridge opens</h1>"
                       "<p>First paragraph, here.</p><h2>Costs</h2><p>More.</p><h4>Notes</h4></body></html>")
    assert kinds(blocks) == [("paragraph", 0), ("heading", 2), ("paragraph", 0), ("heading", 4)]
    assert [block.text for block in blocks] == ["First paragraph, here.", "Costs", "More.", "Notes"]


def test_lists_nest_and_know_their_kind():
    blocks = blocks_of("<body><p>Intro.</p><ol><li>One<ul><li>a</li><li>b</li></ul></li><li>Two</li></ol>"
                       "<ul><li>x</li></ul></body>")
    items = [block for block in blocks if block.kind == "item"]
    assert [(item.text, item.level, item.ordered) for item in items] == [
        ("One", 1, True), ("a", 2, False), ("b", 2, False), ("Two", 1, True), ("x", 1, False)]


def test_a_br_makes_a_line_break_within_one_block():
    (paragraph,) = blocks_of("<body><p>Line one<br>line two<br>line three</p></body>")
    assert paragraph.kind == "paragraph" and len(paragraph.lines) == 3
    (item,) = blocks_of("<body><ul><li>first<br>second</li></ul></body>")
    assert item.kind == "item" and item.text == "first\nsecond"


def test_a_data_table_is_given_whole_once_any_cell_is_kept():
    html = ("<body><p>Before the table, a sentence.</p>"
            "<table><thead><tr><th>Club</th><th>Points</th></tr></thead>"
            "<tr><td>Port Ellis</td><td>58</td></tr><tr><td>Gulls</td><td>53</td></tr></table></body>")
    page = load_page(html)
    keep = np.array(["58" in node.text for node in page.nodes])      # one cell only
    (table,) = document_blocks(page, keep, page.title)
    assert table.kind == "table" and table.header
    assert table.rows == [["Club", "Points"], ["Port Ellis", "58"], ["Gulls", "53"]]


def test_a_table_keeps_its_caption_as_its_line():
    html = ("<body><p>Before the table, a sentence.</p><table>"
            "<caption> Table 6-1. Example  symptoms </caption><tr><th>Symptom</th><th>Cause</th></tr>"
            "<tr><td>500s</td><td>Database down</td></tr></table></body>")
    (_paragraph, table) = blocks_of(html)
    assert table.kind == "table" and table.lines == [[Span("Table 6-1. Example symptoms")]]
    assert table.rows == [["Symptom", "Cause"], ["500s", "Database down"]]
    markdown = to_markdown("", [table])
    assert markdown.startswith("Table 6-1. Example symptoms\n\n| Symptom | Cause |")
    assert "<caption>Table 6-1. Example symptoms</caption>" in to_html("", [table])


def test_a_table_without_a_row_of_text_is_its_caption_or_nothing():
    rows = "<tr><td></td><td> </td></tr><tr><td></td><td></td></tr>"
    (_paragraph, caption) = blocks_of(f"<body><p>A sentence first.</p><table><caption>Table 2. None</caption>"
                                      f"{rows}</table></body>")
    assert caption.kind == "paragraph" and caption.text == "Table 2. None"


def test_a_table_leaves_out_its_rows_without_text():
    html = ("<body><table><tr><td></td><td> </td></tr><tr><th>Club</th><th>Points</th></tr>"
            "<tr><td>Gulls</td><td>53</td></tr><tr><td></td><td></td></tr></table></body>")
    (table,) = blocks_of(html)
    assert table.rows == [["Club", "Points"], ["Gulls", "53"]] and table.header


def test_a_layout_table_is_not_a_table_of_the_document():
    layout = ("<body><table><tr><td><div><p>Menu</p><p>Home</p><p>News</p></div></td>"
              "<td><p>" + "A long article paragraph, with words. " * 20 + "</p></td></tr>"
              "<tr><td>foot</td><td>er</td></tr></table></body>")
    page = load_page(layout)
    assert not is_data_table(next(page.root.iter("table")))
    assert "table" not in [block.kind for block in blocks_of(layout)]
    nested = "<body><table><tr><td><table><tr><td>a</td><td>b</td></tr></table></td><td>c</td></tr>" \
             "<tr><td>d</td><td>e</td></tr></table></body>"
    assert not is_data_table(next(load_page(nested).root.iter("table")))
    # many small cells around one that holds the page's text: still a layout
    menu = "".join(f"<tr><td>Link {i}</td><td>Link {i + 40}</td></tr>" for i in range(30))
    story = "The story goes on, sentence after sentence. " * 40
    page = load_page(f"<body><table>{menu}<tr><td>Story</td><td><p>{story}</p></td></tr></table></body>")
    assert not is_data_table(next(page.root.iter("table")))


def test_a_table_that_holds_the_headline_lays_out_the_page():
    html = ("<html><head><title>Bridge opens</title></head><body><table>"
            "<tr><td><h1>Bridge opens</h1></td><td>Page 1</td></tr>"
            "<tr><td>2005-04-05 06:40</td><td>Source: wire</td></tr></table>"
            "<p>The bridge opened on Monday, after years of work.</p></body></html>")
    assert "table" not in [block.kind for block in blocks_of(html)]


def test_a_data_table_may_hold_a_few_long_cells():
    description = "A long description of the film, its plot and its reception, sentence after sentence. " * 6
    rows = "".join(f"<tr><td>Film {i}</td><td>{1990 + i}</td>"
                   f"<td>{description if i % 10 == 0 else 'Short.'}</td></tr>" for i in range(30))
    html = f"<body><table><tr><th>Film</th><th>Year</th><th>Description</th></tr>{rows}</table></body>"
    assert is_data_table(next(load_page(html).root.iter("table")))
    (table,) = blocks_of(html)
    assert table.kind == "table" and len(table.rows) == 31 and table.rows[1][:2] == ["Film 0", "1990"]


def test_quotes_code_and_figures():
    figure = "<figure><img src='/a.jpg'><figcaption>The bridge at dawn.</figcaption></figure>"
    blocks = blocks_of("<body><blockquote><p>Said, once.</p><blockquote><p>Deeper.</p></blockquote>"
                       "</blockquote><pre>def f():\n    return 1\n</pre>" + figure + "</body>", images=True)
    assert [(block.kind, block.quote) for block in blocks] == [
        ("paragraph", 1), ("paragraph", 2), ("code", 0), ("figure", 0)]
    assert blocks[2].text == "def f():\n    return 1"          # indentation as written
    assert blocks[3].src == "/a.jpg" and blocks[3].text == "The bridge at dawn."
    assert blocks_of(f"<body>{figure}</body>")[0].src is None


def test_links_only_when_asked_and_only_followable_ones():
    html = ("<body><p>Read <a href='https://e.org/x'>the  report</a> and <a href='javascript:go()'>this</a>"
            " or <a href='#top'>top</a>.</p></body>")
    (plain,) = blocks_of(html)
    assert all(span.href is None for span in plain.lines[0])
    (linked,) = blocks_of(html, links=True)
    spans = linked.lines[0]
    assert [(span.text, span.href) for span in spans if span.href] == [("the report", "https://e.org/x")]
    assert "".join(span.text for span in spans) == plain.text      # the same text either way


def test_a_flat_list_half_kept_is_given_whole_and_a_list_mostly_left_out_is_not():
    html = "<body><ul>" + "".join(f"<li>Item number {i}, a step.</li>" for i in range(6)) + "</ul></body>"
    page = load_page(html)
    half = np.array([node.index % 2 == 0 for node in page.nodes])
    items = document_blocks(page, half, page.title)
    assert [block.text for block in items] == [f"Item number {i}, a step." for i in range(6)]
    few = np.array([node.index == 0 for node in page.nodes])
    assert [block.text for block in document_blocks(page, few, page.title)] == ["Item number 0, a step."]


ENCLOSED = """<html><body><h1>Bridge opens</h1>
<p>The new bridge opened to traffic on Wednesday morning, two months ahead of schedule.</p>
<h2>What it cost</h2>
<p>The city paid less than it planned, the council said, and the state paid the rest.</p>
<ul><li>Steel from two mills</li><li>Concrete poured in winter</li></ul>
<ul><li><a href="/a">Related story one</a></li><li><a href="/b">Related story two</a></li></ul>
<p>Drivers crossed it before dawn, and cyclists soon after, on lanes of their own.</p>
<h2>Read next</h2><p><a href="/c">More news from the city</a></p></body></html>"""


def test_headings_and_lists_inside_the_article_that_the_cut_left_out_are_the_documents():
    page = load_page(ENCLOSED)
    paragraphs = np.array([node.block.tag == "p" and not node.link_chars for node in page.nodes])
    texts = [block.text for block in document_blocks(page, paragraphs, page.title)]
    assert "What it cost" in texts
    assert "Steel from two mills" in texts and "Concrete poured in winter" in texts
    assert "Related story one" not in texts           # a list of links stays out
    assert "Read next" not in texts                   # after the article's last kept node


def test_a_heading_that_links_to_itself_and_a_table_of_contents_are_the_documents_but_skip_links_are_not():
    html = ENCLOSED.replace(
        "<h2>What it cost</h2>",
        '<ul><li><a href="#main">Skip to main content</a></li>'
        '<li><a href="#nav">Skip to navigation</a></li></ul>'
        '<ol><li><a href="#cost">1. What it cost</a></li><li><a href="#next">2. Who paid</a></li></ol>'
        '<h2><a class="toclink" href="#cost">What it cost</a></h2>').replace(
        "<p>Drivers", '<h3><a href="/elsewhere">Who paid</a></h3><p>Drivers')
    page = load_page(html)
    paragraphs = np.array([node.block.tag == "p" and not node.link_chars for node in page.nodes])
    texts = [block.text for block in document_blocks(page, paragraphs, page.title)]
    assert "What it cost" in texts                    # its one link leads to itself
    assert "1. What it cost" in texts and "2. Who paid" in texts      # the contents name the headings
    assert "Skip to main content" not in texts        # in-page links that name no heading
    assert "Who paid" not in texts                    # a heading that links elsewhere is navigation


def test_a_list_of_links_inside_a_kept_list_item_is_that_items_own():
    html = ENCLOSED.replace(
        "<ul><li>Steel from two mills</li>",
        '<ul><li>Steel from two mills, tested by<ul><li><a href="/lab-one">Lab One</a></li>'
        '<li><a href="/lab-two">Lab Two</a></li></ul></li>')
    page = load_page(html)
    item_text = np.array([node.block.tag in ("p", "li") and not node.link_chars for node in page.nodes])
    blocks = document_blocks(page, item_text, page.title)
    assert [(block.text, block.level) for block in blocks if block.text.startswith("Lab")] == \
        [("Lab One", 2), ("Lab Two", 2)]
    assert "Related story one" not in [block.text for block in blocks]   # a list of links on its own


def test_a_list_item_that_wraps_the_whole_article_does_not_take_its_lists_of_links():
    html = ("<html><body><ul class='posts'><li><div>" + ENCLOSED.split("<body>")[1].split("</body>")[0] +
            '<div><ul><li><a href="/x">Mayor resigns over budget</a></li>'
            '<li><a href="/y">Rail strike called off</a></li></ul></div>'
            "<p>The bridge's second span opens next spring, the council said.</p>"
            "</div></li></ul></body></html>")
    page = load_page(html)
    paragraphs = np.array([node.block.tag == "p" and not node.link_chars for node in page.nodes])
    document = "\n".join(block.text for block in document_blocks(page, paragraphs, page.title))
    assert "Drivers crossed it before dawn" in document and "second span opens" in document
    assert "Mayor resigns over budget" not in document and "Rail strike called off" not in document


def test_a_headings_permalink_mark_is_not_its_text_but_a_csharp_heading_keeps_its_sign():
    permalink = '<h2 id="cost">What it cost<a class="headerlink" href="#cost">¶</a></h2>'
    html = ENCLOSED.replace("<h2>What it cost</h2>", permalink).replace("<h2>Read next</h2>",
                                                                        "<h2>Learning C#</h2>")
    page = load_page(html)
    texts = [block.text for block in blocks_of(html)]
    assert "What it cost" in texts and "What it cost¶" not in texts
    assert "Learning C#" in texts                     # no link to itself: the sign is the heading's
    assert any(node.text == "What it cost¶" for node in page.nodes)    # the text keeps what it read


def test_a_long_number_in_a_heading_is_read_at_once():
    from newsml.document.structure import _heading_name

    assert _heading_name("1" * 60 + "x") == "1" * 60 + "x"      # (no backtracking: one pass)
    assert _heading_name("2.1. Setting up ¶") == "setting up"


def test_furniture_and_button_rows_inside_the_article_stay_out_of_the_document():
    furniture = ("<aside><h3>Newsletter</h3><ul><li>Daily</li><li>Weekly</li></ul></aside>"
                 "<ul><li><button>Share</button></li><li><button>Tweet</button></li></ul>"
                 "<ul><li>Share this</li><li>Email</li></ul>")
    html = ENCLOSED.replace("<ul><li>Steel", furniture + "<ul><li>Steel")
    page = load_page(html)
    paragraphs = np.array([node.block.tag == "p" and not node.link_chars for node in page.nodes])
    texts = [block.text for block in document_blocks(page, paragraphs, page.title)]
    assert "Steel from two mills" in texts
    assert not {"Newsletter", "Daily", "Share", "Tweet", "Share this", "Email"} & set(texts)


def test_the_enclosed_headings_and_lists_change_the_document_not_the_text():
    from newsml.article import Article

    page = load_page(ENCLOSED)
    keep = np.array([node.block.tag == "p" and not node.link_chars for node in page.nodes])
    article = Article.from_nodes(page, keep, np.ones(len(page.nodes)), method="test", title=page.title)
    lines = article.markdown.splitlines()
    assert "What it cost" not in article.text and "### What it cost" in lines
    assert "- Steel from two mills" in lines
