"""Page furniture inside the article: share bars, tag lists, ad slots, left out of it.

A trained model keeps what sits inside the article's container, and the container
often holds small boxes that are no part of the story: "Share this article Facebook X
Email", "Topics: Football", "Advertisement", a breadcrumb, a print or e-mail link, a
newsletter sign-up, a related-stories box. Their markup says what they are. After the
cut, the default leaves out a kept node when its block or one of the two elements above
it is such a box:

- a ``class`` name or the ``id`` has a word of :data:`FURNITURE_WORDS` (split at ``-``,
  ``_`` and camelCase; words glued to digits, as in a hash ``a9ad7f``, are not words);
  a name of more than :data:`MAX_NAME_WORDS` words is a slug (WordPress gives headings
  ids such as ``what-share-of-adolescents-report``), not a box's name;
- the box holds at most :data:`MAX_BOX_TOKENS` tokens: a wrapper named ``share-wrap``
  around the whole story is no share bar;
- it is no heading, and does not hold the headline.

Nothing is left out when every kept node would be. On the train pages, scored
out of fold (each page by the default's trees fitted on the other folds, 5 folds by
site), it makes far more pages better than worse, by little since the boxes are short;
the pages made worse are golds that keep such a line ("Tagged as: History, Science",
"SIGN UP FOR OUR NEWSLETTER"). Figures: docs/decisions/2026-11-27-page-furniture.md.
"""

from __future__ import annotations

import re

import numpy as np

from ..core.tags import Element
from ..core.text import cached_when_short, count_tokens
from ..dom.page import Page
from ..input.clean import text_of

#: Words that name a box of page furniture, by family: sharing, tags, related stories,
#: print and e-mail links, newsletter sign-ups, advertising, breadcrumbs.
FURNITURE_WORDS = frozenset({
    "share", "sharing", "sharebar", "social", "sociallinks", "addthis", "sharethis",
    "tags", "tag", "taglist", "topics", "keywords",
    "related", "recommended", "recirculation",
    "print", "printer", "email",
    "newsletter", "subscribe", "signup", "subscription",
    "ad", "ads", "advert", "advertisement", "sponsor", "sponsored", "promo",
    "breadcrumb", "breadcrumbs", "crumbs",
})
#: A class name or id of more words than this is a slug, not a box's name.
MAX_NAME_WORDS = 4
#: A box holds at most this many tokens.
MAX_BOX_TOKENS = 40
#: Elements looked at per kept node: its block and the ones above it.
LEVELS = 3

#: Elements that are never boxes: headings (a heading named "share-of-..." is a heading),
#: and the page's root and body.
_NEVER_BOXES = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "body", "html"})
_NAME_BREAKS = re.compile(r"[-_\s]+|(?<=[a-z])(?=[A-Z])")
# a cheap look for a furniture word before a name is split into words
_HINT = re.compile(r"shar|social|addthis|tag|topic|keyword|relat|recommend|recirc|print|mail|newslett"
                   r"|subscri|signup|ad|sponsor|promo|crumb", re.IGNORECASE)


@cached_when_short()
def names_furniture(value: str | None) -> bool:
    """Whether a ``class`` value or an ``id`` names a box of page furniture (see the module)."""
    if not value or not _HINT.search(value):
        return False
    for name in value.split():
        words = [word.lower() for word in _NAME_BREAKS.split(name) if word]
        if len(words) <= MAX_NAME_WORDS and FURNITURE_WORDS.intersection(
                word for word in words if word.isalpha()):
            return True
    return False


def _named_as_box(tag: str, class_: str | None, id_: str | None) -> bool:
    """Whether an element of this tag, ``class`` and ``id`` is named as a box of furniture
    (its size aside)."""
    return tag not in _NEVER_BOXES and (names_furniture(class_) or names_furniture(id_))


def is_furniture(element: Element) -> bool:
    """Whether ``element`` itself is a box of page furniture (see the module)."""
    return (_named_as_box(element.tag, element.get("class"), element.get("id"))
            and count_tokens(text_of(element)) <= MAX_BOX_TOKENS)


def without_furniture(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` without the nodes inside a box of page furniture; ``keep`` itself when that
    would leave nothing.

    Worked out on the page's block tree, for all kept nodes at once: which kinds of
    element above them are named as boxes (each kind of tag, class and id once), and
    only when one is, the tokens under each element.
    """
    kept = np.flatnonzero(keep)
    if kept.size == 0:
        return keep
    tree, attributes = page.block_tree, page.attribute_kinds
    climbed = [tree.block[kept]]              # each kept node's block and the elements above it
    for _ in range(LEVELS - 1):               # (the root is its own parent, and never a box)
        climbed.append(tree.parent[climbed[-1]])
    kinds = attributes.kind[np.concatenate(climbed)]
    named = np.zeros(len(attributes.keys), dtype=bool)
    for kind in set(kinds.tolist()):          # each kind of tag, class and id looked at once
        named[kind] = _named_as_box(*attributes.keys[kind][:3])
    if not named[kinds].any():
        return keep
    box = named[attributes.kind] & (tree.subtree_sums(page.token_counts, page.block_levels) <= MAX_BOX_TOKENS)
    box[page.headline_path] = False           # the headline's block and its containers: no box
    inside = np.logical_or.reduce([box[level] for level in climbed])
    if not inside.any() or inside.all():
        return keep
    result = keep.copy()
    result[kept[inside]] = False
    return result


__all__ = ["FURNITURE_WORDS", "is_furniture", "names_furniture", "without_furniture"]
