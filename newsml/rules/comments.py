"""Comment sections: reader comments, replies and their forms, left out of the article.

An article extractor leaves the comments behind (trafilatura with
``include_comments=False``; "comment" among readability's unlikely candidates). The
labeled pages disagree on them: CleanEval's gold keeps every text block of a page, and
of dragnet's blog pages only those whose comment section was published apart have it
removed from the gold. A model trained on them keeps what looks like prose, comments
included, so the default removes the nodes inside a comment section after its cut.

A comment section is an element (not ``body`` or ``html``, and not one holding the
headline's node: an article is no comment) whose ``id`` or one of whose ``class`` names
has a word (split at ``-``, ``_``, digits and camelCase; any case) among
:data:`COMMENT_WORDS`. Names that say whether comments are allowed or shown
(``comments-open``, ``has-comments``, ``no-comments``: :data:`STATE_WORDS`) and taxonomy
names (``category-comment``, ``tone-comment``: :data:`TAXONOMY_WORDS` first) are not.
When every kept node lies in comment sections, the page is kept as cut: it is a comment
page, or its article is misnamed.

A comment section without such a name often has a header line: "Comments", "13
Comment(s)", "Comments (0)", "12 thoughts on “Title”", "网友评论" (the whole line).
:func:`without_comment_header` leaves out a header line of :data:`COMMENT_HEADER` that the
cut kept, and every kept node after it, once the article has shown its body above it
(:data:`MIN_PARAGRAPHS_ABOVE` paragraphs): the same words beside the headline count the
comments, they do not start them. Prompts ("Leave a comment") are not headers: some pages
go on with the article after them. A header the cut left out is not read: a "Comments"
box in a sidebar sits beside the article's middle.

Forum replies and lists of posts often carry no such name. :func:`thread_posts` finds
them by their shape instead: a run of at least :data:`MIN_DATED_RECORDS` alike records
(:class:`~newsml.dom.groupings.RecordRuns`), at least half of which hold a date and a time, the
header of each post. :func:`without_threads` leaves those records out and cuts the
page again among the other nodes, so a forum page's first post, scored below the
replies around it, is what remains; unless little would remain (a live blog's updates
all carry a time) or the records sit between kept nodes (a dated timeline in a story).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import numpy as np

from ..core.tags import HEADING_TAGS, Element
from ..core.text import DATE_TIME
from ..dom.groupings import RECORD_TAGS, RecordRuns, signature
from ..dom.page import Page

#: Words of an ``id`` or ``class`` that name a comment section or one comment.
COMMENT_WORDS = frozenset({"comment", "comments", "commentlist", "reply", "replies", "respond",
                           "disqus", "talkback"})
#: Words that describe whether comments are allowed or shown, not where they are: themes
#: put ``comments-open`` or ``has-comments`` on the article itself.
STATE_WORDS = frozenset({"open", "closed", "has", "no", "with", "without", "show", "hide", "enable",
                         "enabled", "disable", "disabled", "allow", "allowed"})
#: First words of taxonomy class names (WordPress ``category-comment``, ``tag-reply``; a
#: newspaper's ``tone-comment`` for opinion pieces): the article's kind, not a section.
TAXONOMY_WORDS = frozenset({"category", "tag", "tone", "type", "format", "section", "topic"})

# a cheap look for a comment word before the split into words
_HINT = re.compile(r"omment|epl|espond|isqus|alkback", re.IGNORECASE)
#: The same hints in lower case, for lower-cased ASCII text.
_LOWER_HINT = re.compile(_HINT.pattern)
_WORD_BREAKS = re.compile(r"[-_\s\d]+|(?<=[a-z])(?=[A-Z])")


def names_comments(value: str | None, classes: bool = True) -> bool:
    """Whether a ``class`` value (``classes``) or an ``id`` names a comment section (see
    the module; taxonomy names are class names)."""
    if not value:
        return False
    for name in value.split():
        words = [word.lower() for word in _WORD_BREAKS.split(name) if word]
        if (words and not (classes and words[0] in TAXONOMY_WORDS)
                and not STATE_WORDS.intersection(words) and COMMENT_WORDS.intersection(words)):
            return True
    return False


def _names_section(tag: str, classes: str | None, name: str | None) -> bool:
    """Whether an element of this tag, ``class`` and ``id`` is itself named a comment
    section (not whether it lies in one)."""
    if tag in ("body", "html"):
        return False
    return bool(name and _HINT.search(name) and names_comments(name, classes=False)
                or classes and _HINT.search(classes) and names_comments(classes))


def _named_sections(keys: list[tuple[str, str | None, str | None, str | None]]) -> np.ndarray:
    """:func:`_names_section` of each kind of element (tag, class, id, itemprop).

    Only a class or id with a hint of a comment word can name one: the names of all kinds
    are searched for hints in one pass over their joined text, and only the kinds with a
    hint are read word by word (faster than a test of each kind apart).
    """
    named = np.zeros(len(keys), dtype=bool)
    texts = [f"{classes or ''} {name or ''}" for _, classes, name, _ in keys]
    joined = "\n".join(texts)
    # (no hint spans a space; ASCII lower-cased keeps its places and is what the pattern
    # ignores the case of, faster than its search ignoring case)
    found = _LOWER_HINT.finditer(joined.lower()) if joined.isascii() else _HINT.finditer(joined)
    hints = [match.start() for match in found]
    if hints:
        ends = np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 1)
        # (the hints come in order, so their kinds do: each kind once, ascending)
        for kind in dict.fromkeys(np.searchsorted(ends, hints, side="right").tolist()):
            named[kind] = _names_section(*keys[kind][:3])
    return named


def in_comment_sections(page: Page) -> np.ndarray:
    """Per element of the page's block tree: whether it lies in a comment section, at or
    below one with no headline container between (those are never in one).

    Names are read once per kind of element (:attr:`~newsml.dom.page.Page.attribute_kinds`),
    then passed down the tree a level at a time: a large page is answered quickly, where
    climbing from each kept node was slow.
    """
    tree, kinds = page.block_tree, page.attribute_kinds
    inside = _named_sections(kinds.keys)[kinds.kind]
    settled = inside.copy()                     # its own answer: named, or a headline container
    inside[page.headline_path] = False
    settled[page.headline_path] = True
    return tree.inherited(inside, settled, page.block_levels)


def without_comments(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` without the nodes whose block lies in a comment section; ``keep`` itself
    when that would leave nothing. The headline's block and its ancestors are never
    comment sections."""
    kept = np.flatnonzero(keep)
    if kept.size == 0:
        return keep
    dropped = kept[in_comment_sections(page)[page.block_tree.block[kept]]]
    if not dropped.size or dropped.size == kept.size:
        return keep
    result = keep.copy()
    result[dropped] = False
    return result


#: Records of one run holding a date and a time that make the run a thread of posts
#: (and at least half of the run's records).
MIN_DATED_RECORDS = 3
#: Tokens the page must keep besides its posts and headline for the posts to be left out:
#: a live blog whose updates all carry a time, or a forum whose first post is the first
#: record, would otherwise come out as its headline alone.
MIN_REST_TOKENS = 30


def thread_posts(page: Page, keep: np.ndarray) -> np.ndarray:
    """The nodes inside the records of every dated thread (see the module) that holds a
    kept node; the record holding the headline is not a post.

    A record holds a date and a time when one of its text nodes does: the page's texts
    are searched once (:func:`_dated_records`), not each record's subtree, which on deep
    markup would be read again at every level. Only runs with dated records are counted
    whole, and the tree is walked only when one of them is a thread.
    """
    posts = np.zeros(len(page.nodes), dtype=bool)
    runs = RecordRuns()
    threads = [(parent, mark) for (parent, mark), dated in _dated_records(page).items()
               if dated >= max(MIN_DATED_RECORDS, -(-runs.of(parent)[0][mark] // 2))]
    if not threads:
        return posts
    numbers = {key: number for number, key in enumerate(threads)}
    found = _nearest_thread(page, {element: number for key, number in numbers.items()
                                   for element in runs.members(*key)})
    # a run holds a kept node when it is the run of that node's nearest record
    holding_kept = set()
    for index in np.flatnonzero(np.asarray(keep, dtype=bool) & (found >= 0)).tolist():
        if (record := runs.record(page.nodes[index].block)) is not None:
            _, parent, _, _, mark = record
            if (parent, mark) in numbers:
                holding_kept.add(numbers[parent, mark])
    return np.isin(found, sorted(holding_kept)) if holding_kept else posts


def headline_containers(page: Page) -> tuple[Element, ...]:
    """The headline's block and its ancestors (none without a headline): the article's
    containers, which no comment word in their names makes a comment section."""
    elements = page.block_tree.elements
    return tuple(elements[index] for index in page.headline_path.tolist())


def _nearest_thread(page: Page, thread_of: dict[Element, int]) -> np.ndarray:
    """Per node: the number ``thread_of`` gives the nearest element at or above its block
    that it numbers; -1 when there is none, or when a headline container comes first (the
    section that holds the article's headline is no comment or post).

    Answered for every element of the block tree at once, a level at a time from the
    root down: an element has its own number, else its parent's answer (a walk up from
    each node is slow on large pages).
    """
    tree = page.block_tree
    answer = np.fromiter((thread_of.get(element, -1) for element in tree.elements), dtype=np.int64,
                         count=len(tree.elements))
    settled = answer >= 0
    settled[page.headline_path] = True
    answer[page.headline_path] = -1
    return tree.inherited(answer, settled, page.block_levels)[tree.block]


def _dated_records(page: Page) -> Counter[tuple[Element, tuple[str, str]]]:
    """Per run of alike records (parent, signature), how many of its records hold a text
    node with a date and a time; each element above such a node is counted once."""
    seen: set[Element] = set()
    counts: Counter[tuple[Element, tuple[str, str]]] = Counter()
    for node in page.nodes:
        if ":" in node.text and _holds_date_time(node.text):
            element: Element | None = node.block
            while element is not None and element not in seen:
                seen.add(element)
                parent = element.getparent()
                if parent is not None and element.tag in RECORD_TAGS:
                    counts[(parent, signature(element))] += 1
                element = parent
    return counts


#: A time of day, where :data:`~newsml.core.text.DATE_TIME` ends; the date is looked
#: for in the characters before it (a search of the whole pattern tries every digit of
#: a long text, and is slower).
_CLOCK = re.compile(r"\d:\d\d")
_DATE_BEFORE_CLOCK = 40


def _holds_date_time(text: str) -> bool:
    """Whether ``text`` holds a match of :data:`~newsml.core.text.DATE_TIME` that
    begins at most :data:`_DATE_BEFORE_CLOCK` characters before its time of day (its
    date and time are not parted by a long run of spaces)."""
    for clock in _CLOCK.finditer(text):
        if DATE_TIME.search(text, max(0, clock.start() - _DATE_BEFORE_CLOCK), clock.end()):
            return True
    return False


def without_threads(page: Page, keep: np.ndarray, scores: np.ndarray,
                    cut: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``keep`` cut again among the nodes that are not :func:`thread_posts` (the posts
    left out of the cut's figures too).

    ``keep`` itself when there are no posts; when the new cut keeps fewer than
    :data:`MIN_REST_TOKENS` tokens besides the headline (the posts were the article: a
    live blog, a forum whose first post is a record); or when it keeps nodes before the
    posts and that many tokens after them (they sit inside the article: a dated timeline
    in a story). One short line kept after a thread ("replies closed", a footer the cut let
    in) does not make the thread part of the article.
    """
    posts = thread_posts(page, keep)
    if not posts.any():
        return keep
    others = np.flatnonzero(~posts)
    rest = np.zeros(len(keep), dtype=bool)
    rest[others] = np.asarray(cut(scores[others]), dtype=bool)
    body = rest.copy()
    if page.headline_node is not None:
        body[page.headline_node] = False
    if page.token_counts[body].sum() < MIN_REST_TOKENS:
        return keep
    where = np.flatnonzero(posts)
    after = where[-1] + 1
    if rest[:where[0]].any() and page.token_counts[after:][body[after:]].sum() >= MIN_REST_TOKENS:
        return keep
    return rest


#: A line that heads a comment section, the whole line: "Comments", "Reader comments",
#: "13 Comment(s)", "Comments (0)", "| 13 Comments"; WordPress's "12 thoughts on “Title”"
#: and "One response to "Title""; "View all 40 comments"; the word alone or with a count in
#: German, French, Spanish, Portuguese, Italian, Dutch, Polish and Russian; in Chinese
#: 评论/評論/留言/跟帖/跟贴 alone, after 网友/读者/最新/热门/精彩 or with a count, 发表评论,
#: 我要评论, 查看评论, and 共 12 条评论 / 已有 12 条评论.
COMMENT_HEADER = re.compile(
    r"^\W*(?:\d+\s+)?(?:reader\s+|user\s+)?(?:comments|comments?\s*\(\d+\)|comment\(s\))\W*$"
    r"|^\W*\d+\s+comments?(?:\(s\))?\W*$"
    r"|^(?:\d+|one)\s+(?:responses?|replies|thoughts?|comments?)\s+(?:to|on)\s+[\"“‘'«„].*[\"”’'»“]\W*$"
    r"|^(?:join|view|show|read|see)\s+(?:the\s+)?(?:all\s+)?(?:\d+\s+)?comments?\W*$"
    r"|^\W*(?:\d+\s+)?(?:kommentare|commentaires|comentarios|comentários|commenti|reacties|komentarze"
    r"|комментарии)(?:\s*\(\d+\))?\W*$"
    r"|^\W*(?:网友|網友|读者|讀者|最新|热门|熱門|精彩)?(?:评论|評論|留言|跟帖|跟贴)(?:\s*[（(]?\d+[)）]?)?\W*$"
    r"|^\W*(?:发表|發表|我要|查看)(?:评论|評論|留言|跟帖|跟贴)\W*$"
    r"|^\W*(?:共|已有)\s*\d+\s*[条條](?:评论|評論|留言|跟帖|跟贴)\W*$", re.IGNORECASE)
#: Header lines are short (characters other than spaces; a WordPress header holds the
#: article's title).
MAX_HEADER_CHARS = 160
#: Paragraphs (kept nodes of this many characters other than spaces, not headings) above
#: a header line before it starts the comments: a count beside the headline does not.
MIN_PARAGRAPHS_ABOVE = 2
#: A paragraph's characters other than spaces, at least.
PARAGRAPH_CHARS = 80


def without_comment_header(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` without a kept :data:`COMMENT_HEADER` line below the article's paragraphs
    and every kept node after it; ``keep`` itself when no such line is kept."""
    kept = np.flatnonzero(keep)
    if not kept.size:
        return keep
    chars = page.char_counts[0][kept]
    tree = page.block_tree
    heading = np.array([tree.tags[block] in HEADING_TAGS for block in tree.block[kept].tolist()], dtype=bool)
    paragraphs = (chars >= PARAGRAPH_CHARS) & ~heading
    above = np.cumsum(paragraphs) - paragraphs
    nodes = page.nodes
    for at in np.flatnonzero((above >= MIN_PARAGRAPHS_ABOVE) & (chars <= MAX_HEADER_CHARS)).tolist():
        if COMMENT_HEADER.search(nodes[kept[at]].text.strip()):
            result = keep.copy()
            result[kept[at]:] = False
            return result
    return keep
