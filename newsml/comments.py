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
"""

from __future__ import annotations

import re

import numpy as np
from lxml import etree

from .page import Page

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


def is_comment_section(element: etree._Element) -> bool:
    """Whether ``element`` itself is named a comment section (not whether it lies in one)."""
    if element.tag in ("body", "html"):
        return False
    name, classes = element.get("id"), element.get("class")
    return bool(name and _HINT.search(name) and names_comments(name, classes=False)
                or classes and _HINT.search(classes) and names_comments(classes))


def without_comments(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` without the nodes whose block lies in a comment section; ``keep`` itself
    when that would leave nothing.

    Only the kept nodes' blocks and their ancestors are looked at, each element once. The
    headline's block and its ancestors are never comment sections.
    """
    kept = np.flatnonzero(keep)
    if kept.size == 0:
        return keep
    inside: dict[etree._Element, bool] = {}
    headline = page.headline_node
    if headline is not None:
        block = page.nodes[headline].block
        for element in (block, *block.iterancestors()):
            inside[element] = False
    dropped = []
    for index in kept:
        element = page.nodes[index].block
        path = []
        while element is not None and element not in inside:
            path.append(element)
            element = element.getparent()
        verdict = inside[element] if element is not None else False
        for ancestor in reversed(path):
            verdict = verdict or is_comment_section(ancestor)
            inside[ancestor] = verdict
        if verdict:
            dropped.append(index)
    if not dropped or len(dropped) == kept.size:
        return keep
    result = keep.copy()
    result[dropped] = False
    return result
