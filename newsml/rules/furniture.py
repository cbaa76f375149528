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

A slideshow, gallery or carousel after the story is furniture of another size: "Also on
HuffPost:" and fifty captioned photos, a testimonial carousel, another story's photo
gallery. Its captions read as prose and score as the story does. :func:`without_slideshows`
leaves out the kept nodes inside an element (its block or one of the
:data:`SLIDESHOW_LEVELS` - 1 above it) whose ``class`` name or ``id`` has a word of
:data:`SLIDESHOW_WORDS`, once the article has given :data:`MIN_PARAGRAPHS_BEFORE`
paragraphs outside such elements; never an element that holds the headline, and not a
name that is a flag (``has_eae_slider``, ``carousel-disabled``: :data:`FLAG_WORDS`) or a
post's kind (``format-gallery``).
``slides`` is no such word: a listicle's ``listicle-slides`` are the article.

A dialog over the page is furniture too: a consent or cookie notice, a privacy-policy
modal, a sign-up popup. Its prose is long and scores as an article's, and a node of it
scoring high is kept apart from the story by the islands rule. :func:`without_overlays`
leaves out the kept nodes inside an element (its block or one of the
:data:`OVERLAY_LEVELS` - 1 above it) whose name has a word of :data:`OVERLAY_WORDS`,
wherever they are. Not an element that holds the headline, nor a flag or a post's kind,
nor a name with a word of the article's containers (``article-overlay``:
:data:`CONTENT_WORDS`) or of a picture's styling (``image-overlay``: :data:`MEDIA_WORDS`);
and nothing
when the dialogs hold more of the kept tokens than the rest (a page that shows its article
in a modal).

Nothing is left out when every kept node would be. On the train pages, scored
out of fold (each page by the default's trees fitted on the other folds, 5 folds by
site), it makes far more pages better than worse, by little since the boxes are short;
the pages made worse are golds that keep such a line ("Tagged as: History, Science",
"SIGN UP FOR OUR NEWSLETTER"). Figures: docs/decisions/2026-11-27-page-furniture.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ..core.tags import HEADING_TAGS, Element
from ..core.text import cached_when_short, count_tokens
from ..dom.page import Page
from ..input.clean import text_of
from .comments import PARAGRAPH_CHARS, TAXONOMY_WORDS

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
_NEVER_BOXES = HEADING_TAGS | {"body", "html"}
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


def _small_boxes(page: Page) -> np.ndarray:
    """Per element of the block tree: whether it holds at most :data:`MAX_BOX_TOKENS` tokens."""
    return page.block_tree.subtree_sums(page.token_counts, page.block_levels) <= MAX_BOX_TOKENS


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
    inside = _inside_named(page, kept, LEVELS, _named_as_box, lambda: _small_boxes(page))
    if inside is None or not inside.any() or inside.all():
        return keep
    result = keep.copy()
    result[kept[inside]] = False
    return result


#: Words that name a slideshow, a gallery or a carousel of slides.
SLIDESHOW_WORDS = frozenset({"slideshow", "gallery", "carousel", "slider", "lightbox"})
#: Words that name a dialog over the page: a modal, a popup, a consent or cookie notice.
OVERLAY_WORDS = frozenset({"modal", "dialog", "popup", "overlay", "consent", "cookie", "cookies", "gdpr",
                           "interstitial"})
#: Words of the article's own containers: ``article-overlay`` is the article, styled.
CONTENT_WORDS = frozenset({"article", "body", "content", "post", "story", "entry", "main", "text"})
#: Words of pictures and their captions: ``image-overlay``, ``caption-overlay`` and
#: ``popup-gallery`` style a figure, they are no dialog.
MEDIA_WORDS = frozenset({"caption", "image", "img", "photo", "picture", "figure", "thumb", "thumbnail",
                         "video", "media", "gallery", "icon", "hover"})
#: Words that make a name a flag of the element, not its kind (``has-gallery``).
FLAG_WORDS = frozenset({"has", "no", "with", "without", "is", "enable", "enabled", "disabled"})
#: Elements looked at per kept node: its block and the ones above it.
SLIDESHOW_LEVELS = 5
OVERLAY_LEVELS = 6
#: Kept paragraphs (nodes of at least :data:`~newsml.rules.comments.PARAGRAPH_CHARS`
#: characters other than spaces) outside slideshows before a slideshow's nodes are left
#: out: a page that is a gallery keeps it.
MIN_PARAGRAPHS_BEFORE = 2
_ROOTS = frozenset({"body", "html"})
_SLIDESHOW_HINT = re.compile(r"slide|galler|carousel|lightbox", re.IGNORECASE)
_OVERLAY_HINT = re.compile(r"modal|dialog|popup|overlay|consent|cookie|gdpr|interstitial", re.IGNORECASE)


def _names_one_of(value: str | None, words: frozenset[str], hint: re.Pattern[str],
                  not_with: frozenset[str] = frozenset()) -> bool:
    """Whether one of the names of a ``class`` value (or an ``id``) has one of ``words``
    and is no flag (:data:`FLAG_WORDS`), no taxonomy name (``format-gallery``,
    ``category-cookies``: the post's kind), nor has a word of ``not_with``; ``hint`` is a
    cheap look first."""
    if not value or not hint.search(value):
        return False
    for name in value.split():
        listed = [word.lower() for word in _NAME_BREAKS.split(name) if word]
        found = set(listed)
        if found & words and not found & FLAG_WORDS and not found & not_with \
                and listed[0] not in TAXONOMY_WORDS:
            return True
    return False


def _named_as_slideshow(tag: str, class_: str | None, id_: str | None) -> bool:
    return tag not in _ROOTS and (names_slideshow(class_) or names_slideshow(id_))


def _named_as_overlay(tag: str, class_: str | None, id_: str | None) -> bool:
    return tag not in _ROOTS and (names_overlay(class_) or names_overlay(id_))


@cached_when_short()
def names_slideshow(value: str | None) -> bool:
    """Whether a ``class`` value or an ``id`` names a slideshow, a gallery or a carousel
    (see the module)."""
    return _names_one_of(value, SLIDESHOW_WORDS, _SLIDESHOW_HINT)


@cached_when_short()
def names_overlay(value: str | None) -> bool:
    """Whether a ``class`` value or an ``id`` names a dialog over the page (see the module)."""
    return _names_one_of(value, OVERLAY_WORDS, _OVERLAY_HINT, CONTENT_WORDS | MEDIA_WORDS)


def _inside_named(page: Page, kept: np.ndarray, levels: int,
                  named_as: Callable[[str, str | None, str | None], bool],
                  within: Callable[[], np.ndarray] | None = None) -> np.ndarray | None:
    """Per kept node: whether its block or one of the ``levels`` - 1 elements above it is
    one that ``named_as`` accepts by its tag, class and id (and, with ``within``, one of
    the elements its mask holds, asked for only when a name is found), never an element
    holding the headline; None when no element near a kept node is so named.

    Worked out on the page's block tree, for all kept nodes at once, each kind of tag,
    class and id looked at once."""
    tree, attributes = page.block_tree, page.attribute_kinds
    climbed = [tree.block[kept]]              # each kept node's block and the elements above it
    for _ in range(levels - 1):               # (the root is its own parent, and never named)
        climbed.append(tree.parent[climbed[-1]])
    kinds = attributes.kind[np.concatenate(climbed)]
    named = np.zeros(len(attributes.keys), dtype=bool)
    for kind in set(kinds.tolist()):
        named[kind] = named_as(*attributes.keys[kind][:3])
    if not named[kinds].any():
        return None
    element_named = named[attributes.kind]
    if within is not None:
        element_named &= within()
    element_named[page.headline_path] = False   # the headline's block and its containers
    return np.logical_or.reduce([element_named[level] for level in climbed])


def without_slideshows(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` without the nodes inside a slideshow, gallery or carousel that come after
    :data:`MIN_PARAGRAPHS_BEFORE` kept paragraphs outside them; ``keep`` itself when no
    such node is kept."""
    kept = np.flatnonzero(keep)
    inside = _inside_named(page, kept, SLIDESHOW_LEVELS, _named_as_slideshow) if kept.size else None
    if inside is None:
        return keep
    paragraphs = (page.char_counts[0][kept] >= PARAGRAPH_CHARS) & ~inside
    dropped = inside & (np.cumsum(paragraphs) - paragraphs >= MIN_PARAGRAPHS_BEFORE)
    if not dropped.any():
        return keep
    result = keep.copy()
    result[kept[dropped]] = False
    return result


def without_overlays(page: Page, keep: np.ndarray) -> np.ndarray:
    """``keep`` without the nodes inside a dialog over the page; ``keep`` itself when
    none is kept, or when the dialogs hold more of the kept tokens than the rest."""
    kept = np.flatnonzero(keep)
    inside = _inside_named(page, kept, OVERLAY_LEVELS, _named_as_overlay) if kept.size else None
    if inside is None or not inside.any() or inside.all():
        return keep
    tokens = page.token_counts[kept]
    if tokens[inside].sum() > tokens[~inside].sum():
        return keep                            # (a dialog is smaller than the article it covers)
    result = keep.copy()
    result[kept[inside]] = False
    return result


__all__ = ["FURNITURE_WORDS", "OVERLAY_WORDS", "SLIDESHOW_WORDS", "is_furniture", "names_furniture",
           "names_overlay", "names_slideshow", "without_furniture", "without_overlays", "without_slideshows"]
