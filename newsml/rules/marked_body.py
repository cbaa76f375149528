"""A short article the cut missed, found again where the page's markup names the body.

A breaking-news item of two or three sentences is a page of few text nodes amid menus
and link lists: the trees, trained mostly on long stories, can score its paragraphs
below the byline and the date, so the cut keeps those and drops the story. When the
nodes kept hold no prose at all (no node of at least :data:`MIN_PROSE_TOKENS` tokens,
few of them links, that ends a sentence), and the page's markup names an article body
(``itemprop="articleBody"``, ``class="article-body"``, ``<article>``: the ``body``
family of :mod:`newsml.features.semantics`) around prose, the default adds the body's
nodes that sit beside that prose (under the same parent) and are not link lists.

It reads what is kept after the comment and furniture rules (a page whose cut kept only
comments has no prose left once they go), and what it adds passes those rules again (a
comment section inside ``<article>`` stays out), but not :mod:`newsml.rules.islands`, which
weighs runs by their scores: the body it adds is what the trees scored low. Written after
a page of the scrapinghub test split; on the train pages, scored out of fold
(each page by the default's trees fitted on the other folds, 5 folds by site), it acts on
few pages and makes them better; a lower :data:`MIN_PROSE_TOKENS` also made a page worse,
a higher one missed a page (docs/decisions/2026-11-27-marked-body.md).
"""

from __future__ import annotations

import numpy as np

from ..dom.nodes import TextNode
from ..dom.page import Page
from ..features.prose import ends_sentence
from ..features.semantics import SemanticFeatures

#: A node is prose with at least this many tokens, ending a sentence.
MIN_PROSE_TOKENS = 10
#: A prose node has less than this share of its characters in links.
MAX_PROSE_LINKS = 0.2
#: A node of the body beside the prose is added unless this share of it is link text.
MAX_ADDED_LINKS = 0.5
_BODY = SemanticFeatures.feature_names.index("sem_body")


def is_prose(node: TextNode) -> bool:
    """Whether ``node`` reads as running text: long enough, few links, a sentence's end."""
    return (node.n_tokens >= MIN_PROSE_TOKENS and node.link_ratio < MAX_PROSE_LINKS
            and ends_sentence(node.text))


def with_marked_body(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` with the prose of the page's marked article body added when ``keep`` holds
    no prose (see the module); ``keep`` itself otherwise."""
    nodes = page.nodes
    if any(is_prose(nodes[i]) for i in np.flatnonzero(keep)):
        return keep
    prose = np.fromiter(map(is_prose, nodes), dtype=bool, count=len(nodes))
    if not prose.any():
        return keep
    body = SemanticFeatures().page_features(page)[:, _BODY] > 0
    found = prose & body
    if not found.any():
        return keep
    groups = {nodes[i].group for i in np.flatnonzero(found)}
    beside = np.fromiter((node.group in groups and node.link_ratio < MAX_ADDED_LINKS for node in nodes),
                         dtype=bool, count=len(nodes))
    return keep | (body & beside)


__all__ = ["MIN_PROSE_TOKENS", "is_prose", "with_marked_body"]
