"""Site votes: what a site's labeled pages say about the template positions of its nodes.

A site's pages share a template: the article sits in the same container on every page,
and the same bylines, captions, share bars and comment threads come back page after
page. Each text node has *keys*, from the most specific to the least (:data:`KEY_ORDER`):

- ``t:`` its text (repeated lines: "Share this article", "Last updated at ...", a site's
  notice under every article; a text longer than :data:`TEXT_KEY_TOKENS` by a digest);
- ``f:`` the full path of its containers (tag, class and id, digits folded, below
  ``<body>``);
- ``p:`` the path of its block and the containers just above it (:data:`NEAR_LEVELS`);
- ``a:`` each container with a class or id, from the nearest up.

A key's *vote* is the token-weighted share of content among the labeled nodes that carry
it, with the number of labeled pages that carry it. The path and container keys are
also counted *given the base's decision* (``f:...|kept``, ``f:...|dropped``): among the
nodes of a container the base kept on the labeled pages, how many were content. That is
what the base gets wrong in that place of the template, rather than what the place holds:
a page-wide wrapper holds mostly menus and links, yet the nodes the base keeps in it are
the article.

A node's score starts from the base score, recentred on the base's own cut of the page
(:func:`recentre`: 0.5 is where the base decided), and backs off through its votes from
the least specific to the most: the container's vote (nearest container seen), the same
given the base's decision, the near path, the same given the decision, the full path,
the same given the decision, then the text. Each step shrinks the estimate so far toward
the key's vote, ``(n * vote + prior * estimate) / (n + prior)`` for a key seen on n
pages, so a key seen on few pages refines the estimate of the broader keys instead of
replacing it. A vote between :data:`MIXED` and ``1 - MIXED`` is skipped: a place that
holds content and noise alike (or whose gold keeps a disclaimer on some pages and drops
it on others) says nothing about one node in it. A node with no key seen keeps the base
decision.

Before, the nearest container seen replaced the mean over all the node's containers seen
(the mean mixed page-wide wrappers into the vote of the box the node sits in), and long
texts became keys by a digest (news.sina.com.hk's notice under every article, longer than
:data:`TEXT_KEY_TOKENS` tokens).

The backoff, the votes given the base's decision and the skipping of mixed votes were
chosen on the sites of the corpora's *train* splits only (``scripts/site_curves.py``, with
bases trained without the evaluated sites and with the shipped model); the figures, and
the forms tried and not kept, are in docs/decisions/2026-11-23-site-adaptation.md and
docs/decisions/2026-11-24-adaptation-backoff.md.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from ..core.tags import Element
from ..dom.page import Page

#: Key families, from the most specific: text, full path, near path, class/id container.
KEY_ORDER = ("t", "f", "p", "a")
#: Families whose keys are also counted given the base's decision on the node.
DECIDED = ("f", "p", "a")
#: A node's text is its own key up to this many tokens; a longer text is keyed by a digest
#: of it (a repeated notice in Chinese is easily longer, and the file stays small).
TEXT_KEY_TOKENS = 40
#: Containers in a node's near path: its block and the two above it.
NEAR_LEVELS = 3
#: A vote strictly between MIXED and 1 - MIXED is skipped (see the module notes).
MIXED = 0.1
#: What a key given the base's decision ends with.
KEPT, DROPPED = "|kept", "|dropped"

_DIGITS = re.compile(r"\d+")
_OUTSIDE = ("html", "body")

Votes = dict[str, tuple[float, int]]


def _signature(element: Element) -> str:
    """``tag.class.class#id`` of one element, digits folded (``post-123`` -> ``post-0``)."""
    classes = sorted(set(_DIGITS.sub("0", element.get("class") or "").split()))
    ident = _DIGITS.sub("0", (element.get("id") or "").strip())
    tag = element.tag if isinstance(element.tag, str) else "?"
    return tag + "".join(f".{name}" for name in classes) + (f"#{ident}" if ident else "")


def node_keys(page: Page) -> list[list[str]]:
    """Per text node, its template keys (``family:value``, see the module notes)."""
    memo: dict[Element, str] = {}
    keys = []
    for node in page.nodes:
        chain: list[str] = []
        element: Element | None = node.block
        while element is not None and element.tag not in _OUTSIDE:
            if element not in memo:
                memo[element] = _signature(element)
            chain.append(memo[element])
            element = element.getparent()
        chain = chain or ["body"]
        found = [f"f:{'<'.join(chain)}", f"p:{'<'.join(chain[:NEAR_LEVELS])}"]
        found += [f"a:{sig}" for sig in dict.fromkeys(chain[1:]) if "." in sig or "#" in sig]
        text = _DIGITS.sub("0", node.text.lower())
        if node.n_tokens > TEXT_KEY_TOKENS:      # a long boilerplate line, by its digest
            text = "#" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]
        found.append(f"t:{text}")
        keys.append(found)
    return keys


def with_decisions(keys: list[list[str]], keep: np.ndarray) -> list[list[str]]:
    """Each node's keys, and those of the :data:`DECIDED` families given the base's
    decision on the node (what :func:`count_votes` counts)."""
    return [node_keys_ + [key + (KEPT if kept else DROPPED) for key in node_keys_ if key[0] in DECIDED]
            for node_keys_, kept in zip(keys, np.asarray(keep, dtype=bool).tolist())]


def count_votes(keys: Sequence[list[list[str]]], labels: Sequence[np.ndarray],
                weights: Sequence[np.ndarray]) -> Votes:
    """Key -> (weighted share of content among the nodes carrying it, pages carrying it)."""
    content: dict[str, float] = {}
    total: dict[str, float] = {}
    pages: dict[str, int] = {}
    for page_keys, page_labels, page_weights in zip(keys, labels, weights):
        seen: set[str] = set()
        for node_keys_, label, weight in zip(page_keys, page_labels, page_weights):
            for key in node_keys_:
                content[key] = content.get(key, 0.0) + float(weight) * float(label)
                total[key] = total.get(key, 0.0) + float(weight)
                seen.add(key)
        for key in seen:
            pages[key] = pages.get(key, 0) + 1
    return {key: (content[key] / total[key], pages[key]) for key in total}


def recentre(scores: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Scores mapped piecewise linearly so that the base's cut of the page falls at 0.5.

    The cut is taken midway between the highest dropped and the lowest kept score; the
    result is >= 0.5 exactly for the kept nodes.
    """
    scores, keep = np.asarray(scores, dtype=float), np.asarray(keep, dtype=bool)
    if keep.any() and not keep.all():
        cut = min(max((scores[~keep].max() + scores[keep].min()) / 2, 1e-6), 1 - 1e-6)
        scores = np.where(scores <= cut, 0.5 * scores / cut, 0.5 + 0.5 * (scores - cut) / (1 - cut))
    return np.where(keep, np.maximum(scores, 0.5), np.minimum(scores, 0.4999))


def backoff_keys(node_keys_: list[str], kept: bool, votes: Votes) -> list[str]:
    """The node's keys with a vote, in the order they refine its score: per family from
    the container up to the text, the family's most specific key seen, then (for the
    :data:`DECIDED` families) that family's most specific key seen given the decision.
    Only that key speaks for its family: when its vote is mixed (skipped in
    :func:`vote_scores`), the family's broader keys are not asked in its place, since the
    nearest place seen is the one that knows the node."""
    mark = KEPT if kept else DROPPED
    chain = []
    for family in reversed(KEY_ORDER):
        in_family = [key for key in node_keys_ if key[0] == family]
        chain += [key for key in in_family if key in votes][:1]
        if family in DECIDED:
            chain += [key + mark for key in in_family if key + mark in votes][:1]
    return chain


def vote_scores(keys: list[list[str]], base_scores: np.ndarray, base_keep: np.ndarray, votes: Votes,
                prior: float | None) -> np.ndarray:
    """Scores of one page's nodes: the (recentred) base refined by the votes of its keys,
    from the least specific to the most (see the module notes). A node without a vote
    that is not mixed (or any node when ``prior`` is None) keeps the base decision."""
    base = recentre(base_scores, base_keep)
    scores = base.copy()
    if prior is None or not votes:
        return scores
    for i, (node_keys_, kept) in enumerate(zip(keys, np.asarray(base_keep, dtype=bool).tolist())):
        estimate = base[i]
        for key in backoff_keys(node_keys_, kept, votes):
            share, seen_on = votes[key]
            if MIXED < share < 1 - MIXED:
                continue
            estimate = (seen_on * share + prior * estimate) / (seen_on + prior)
        scores[i] = estimate
    return scores


__all__ = ["DECIDED", "KEY_ORDER", "MIXED", "backoff_keys", "count_votes", "node_keys", "recentre",
           "vote_scores", "with_decisions"]
