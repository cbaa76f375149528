"""Comment sections: reader comments, replies and their forms, left out of the article.

An article extractor leaves the comments behind (trafilatura with
``include_comments=False``; "comment" among readability's unlikely candidates). The
labeled pages disagree on them: CleanEval's gold keeps every text block of a page, and
of dragnet's blog pages only those whose comment section was published apart have it
removed from the gold. A model trained on them keeps what looks like prose, comments
included, so the default removes the nodes inside a comment section after its cut.

A comment section is an element (not ``body`` or ``html``) whose ``id`` or one of whose
``class`` names has a word (split at ``-``, ``_``, digits and camelCase) among
:data:`COMMENT_WORDS`, unless a word says the section's state (``comments-open``, a
body class some themes put on the article). When every kept node lies in comment
sections, the page is kept as cut: it is a comment page, or its article is misnamed.
"""

from __future__ import annotations

import re

import numpy as np
from lxml import etree

from .page import Page

#: Words of an ``id`` or ``class`` that name a comment section or one comment.
COMMENT_WORDS = frozenset({"comment", "comments", "commentlist", "reply", "replies", "respond",
                           "disqus", "talkback"})
#: Words that describe whether comments are allowed, not where they are.
STATE_WORDS = frozenset({"open", "closed"})

_HINT = re.compile(r"omment|epl|espond|isqus|alkback")
_WORD_BREAKS = re.compile(r"[-_\s\d]+|(?<=[a-z])(?=[A-Z])")


def names_comments(value: str | None) -> bool:
    """Whether an ``id`` or ``class`` value names a comment section (see the module)."""
    if not value:
        return False
    for name in value.split():
        words = {word.lower() for word in _WORD_BREAKS.split(name) if word}
        if words & COMMENT_WORDS and not words & STATE_WORDS:
            return True
    return False


def is_comment_section(element: etree._Element) -> bool:
    """Whether ``element`` itself is a comment section (not whether it lies in one)."""
    if element.tag in ("body", "html"):
        return False
    return any(value and _HINT.search(value) and names_comments(value)
               for value in (element.get("id"), element.get("class")))


def without_comments(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` without the nodes whose block lies in a comment section; ``keep`` itself
    when that would leave nothing.

    Only the kept nodes' blocks and their ancestors are looked at, each element once.
    """
    kept = np.flatnonzero(keep)
    inside: dict[etree._Element, bool] = {}
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
