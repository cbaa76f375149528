"""Islands: runs of kept text far from the article, left out of it.

After the cut, a short article often keeps company further down or up the page: the
teasers of further articles, a blog's promotion of its company, a copyright notice. Each
is a run of nodes that scored above the page's threshold (the threshold falls when such
runs are many) but below the article, and the page between them and the article is what
the cut dropped: links, headings, boxes. So the kept nodes are split into runs wherever
at least :data:`GAP_TOKENS` tokens of dropped nodes lie between two kept ones. The
article is the run that holds the headline (else the first after it) when one of its
nodes scores :data:`CONFIDENT` or more; otherwise the run of the most score-weighted
tokens, and the headline's run too. Any other run is left out, unless one of its nodes
scores :data:`CONFIDENT` or more: an article split by a large box keeps its second half;
or unless it lies inside the article's own container with a node scored
:data:`SECTION_CONFIDENT` or more: a long post's later sections, parted from its first by
lists or boxes the cut dropped, are no teasers (those sit beside the story, not inside
its container). The container is the nearest element holding every node of the
article's main run (the sure one, or the weightiest), below ``<body>``; not the
headline's run when it is not sure: a headline in the page's header would widen it to a
wrapper of the whole page.

On the train pages, scored out of fold (each page by the default's trees fitted on the
other folds, 5 folds by site), it makes more pages better than worse: teasers of
further articles below a short story, a blog's promotion of its company below a post, a
portal's copyright notice go; the pages made worse have golds that keep what follows the
story, such as a slideshow of further stories. The gap and the score were chosen there
(docs/decisions/2026-11-28-islands.md); the sections' rule, too
(docs/decisions/2026-12-07-islands-inside-the-article.md).
"""

from __future__ import annotations

import numpy as np

from ..core.tags import Element
from ..dom.page import Page

#: Tokens of dropped nodes between two kept ones that part their runs.
GAP_TOKENS = 80
#: A run with a node scored at least this stays, wherever it lies.
CONFIDENT = 0.9
#: A run inside the article's container with a node scored at least this stays.
SECTION_CONFIDENT = 0.8
#: Containers that hold the whole page, not an article.
_PAGE_ELEMENTS = frozenset({"html", "body"})


def kept_runs(page: Page, keep: np.ndarray) -> list[np.ndarray]:
    """The kept nodes (indices) in runs, in document order: a run ends where at least
    :data:`GAP_TOKENS` tokens of nodes not kept follow it."""
    kept = np.flatnonzero(keep)
    if len(kept) < 2:
        return [kept] if len(kept) else []
    before = np.concatenate([[0.0], np.cumsum(page.token_counts)])   # tokens before each node
    between = before[kept[1:]] - before[kept[:-1] + 1]
    return np.split(kept, np.flatnonzero(between >= GAP_TOKENS) + 1)


def without_islands(page: Page, keep: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``keep`` (one bool per node) less the runs far from the article (see the module):
    ``keep`` itself when it is one run or none is left out, else a new array."""
    keep = np.asarray(keep, dtype=bool)
    runs = kept_runs(page, keep)
    if len(runs) < 2:
        return keep
    headline = page.headline_node
    under_headline = (None if headline is None else
                      next((k for k, run in enumerate(runs) if run[-1] >= headline), None))
    if under_headline is not None and scores[runs[under_headline]].max() >= CONFIDENT:
        main = under_headline                 # a story the trees are sure of, under its headline
        article = {main}
    else:
        weights = page.token_counts
        main = int(np.argmax([float(scores[run] @ weights[run]) for run in runs]))
        article = {main}
        if under_headline is not None:
            article.add(under_headline)
    dropped = [run for k, run in enumerate(runs) if k not in article and scores[run].max() < CONFIDENT]
    if dropped:
        container = _container([page.nodes[i].block for i in runs[main]])
        if container is not None:
            dropped = [run for run in dropped if not (scores[run].max() >= SECTION_CONFIDENT
                                                      and _all_inside(page, run, container))]
    if not dropped:
        return keep
    out = keep.copy()
    out[np.concatenate(dropped)] = False
    return out


def _container(elements: list[Element]) -> Element | None:
    """The nearest element that holds all of ``elements`` (a paragraph's container is its
    parent), or None when that is the page itself (``<body>``, ``<html>``). Each element's
    walk up stops where it meets the first one's ancestors: a few steps, not the depth."""
    chain = list(elements[0].iterancestors())    # the candidates, nearest first
    position = {ancestor: at for at, ancestor in enumerate(chain)}
    at = 0
    for element in elements[1:]:
        for ancestor in element.iterancestors():
            met = position.get(ancestor)
            if met is not None:
                at = max(at, met)
                break
    if not chain or chain[at].tag in _PAGE_ELEMENTS:
        return None
    return chain[at]


def _all_inside(page: Page, run: np.ndarray, container: Element) -> bool:
    """Whether every node of ``run`` lies inside ``container`` (or is it): its block, walked
    up to the container's depth, is the container."""
    depth = sum(1 for _ in container.iterancestors()) + 1     # (html is 1, as a node's depth)
    for index in run:
        node = page.nodes[index]
        element: Element | None = node.block
        for _ in range(node.depth - depth):
            element = element.getparent() if element is not None else None
        if element is not container:
            return False
    return True
