"""``Page``: a parsed page and the views every method derives from it, each computed once.

:func:`newsml.input.parsed.parse` gives the passive result of parsing (tree, encoding, meta);
``Page`` owns what is derived from it: the text nodes, the tree of their blocks, their
token counts, the title and the language. Each view is a cached property, computed on
first use and shared by every method and feature that reads the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from ..core.tags import Element
from ..core.text import count_tokens_each, normalize_space, punctuation_counts, tokens
from ..input.parsed import ParsedPage, parse
from .lang import detect_lang
from .nodes import AttributeKinds, BlockTree, Pieces, Segmentation, TextNode
from .title import extract_title
from .walk import attribute_kinds, segment_tree


@dataclass(eq=False)
class Page:
    """A parsed page and its derived views.

    ``given_title`` is a title known from elsewhere (a feed, the link text), used for
    :attr:`title` when sane.
    """

    parsed: ParsedPage
    given_title: str | None = None

    @property
    def root(self) -> Element:
        """The cleaned lxml tree."""
        return self.parsed.root

    @property
    def encoding(self) -> str:
        """The encoding the page was decoded with ("unicode" for text input)."""
        return self.parsed.encoding

    @property
    def source(self) -> str:
        """The decoded page as it was parsed."""
        return self.parsed.text

    @cached_property
    def segmentation(self) -> Segmentation:
        """The walk of the page's elements that gives :attr:`nodes` and :attr:`block_tree`
        (:func:`newsml.dom.nodes.segment_tree`).

        The walk starts at ``<html>``, not ``<body>``: content that malformed markup
        left inside ``<head>`` is still content.
        """
        return segment_tree(self.parsed.root)

    @cached_property
    def pieces(self) -> Pieces:
        """The raw strings the nodes' texts are made of (:class:`~newsml.dom.nodes.Pieces`), for
        DOM-level methods (ECON): a walk of its own, the same as :attr:`segmentation`'s but
        keeping them, so that a page scored without them holds none."""
        found = segment_tree(self.parsed.root, pieces=True).pieces
        assert found is not None
        return found

    @cached_property
    def nodes(self) -> list[TextNode]:
        """The page's text nodes in document order (see :mod:`newsml.dom.nodes`)."""
        return self.segmentation.nodes

    @cached_property
    def token_counts(self) -> np.ndarray:
        """Scoring tokens per node (float): the weight of a node in token-level scores."""
        counts = count_tokens_each([node.text for node in self.nodes]).astype(float)
        counts.setflags(write=False)  # shared by every reader of the page
        return counts

    @cached_property
    def char_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """Per node: its visible characters and those inside links (int; read by several
        features)."""
        nodes = self.nodes
        chars = np.fromiter((node.chars for node in nodes), dtype=np.int64, count=len(nodes))
        links = np.fromiter((node.link_chars for node in nodes), dtype=np.int64, count=len(nodes))
        for counts in (chars, links):
            counts.setflags(write=False)
        return chars, links

    @cached_property
    def punctuation_counts(self) -> np.ndarray:
        """Sentence punctuation marks per node (:func:`newsml.core.text.count_punctuation`), int."""
        counts = punctuation_counts([node.text for node in self.nodes])
        counts.setflags(write=False)  # shared by every reader of the page
        return counts

    @cached_property
    def block_tree(self) -> BlockTree:
        """Index arrays of the nodes' blocks and their ancestors (:class:`newsml.dom.nodes.BlockTree`);
        several features climb this tree."""
        return self.segmentation.tree

    @cached_property
    def attribute_kinds(self) -> AttributeKinds:
        """The elements of :attr:`block_tree` by their tag and class, id and itemprop
        (:func:`newsml.dom.nodes.attribute_kinds`), read once for the families of markup words."""
        return attribute_kinds(self.block_tree)

    @cached_property
    def block_levels(self) -> list[np.ndarray]:
        """The elements of :attr:`block_tree` by depth (:meth:`~newsml.dom.nodes.BlockTree.levels`),
        found once for every subtree sum of the page."""
        return self.block_tree.levels()

    @cached_property
    def tree_totals(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per element of :attr:`block_tree`: the visible characters, link characters and text
        nodes under it (float; read by several features)."""
        tree, levels = self.block_tree, self.block_levels
        node_chars, node_links = self.char_counts
        chars = tree.subtree_sums(node_chars.astype(float), levels)
        links = tree.subtree_sums(node_links.astype(float), levels)
        count = tree.subtree_sums(np.ones(len(node_chars)), levels)
        for total in (chars, links, count):
            total.setflags(write=False)
        return chars, links, count

    @cached_property
    def title(self) -> str:
        """The article's title (:func:`newsml.dom.title.extract_title`), the caller's if sane."""
        return extract_title(self.parsed, self.given_title)

    @cached_property
    def headline_node(self) -> int | None:
        """Index of the first node whose text is the headline (:attr:`title`: equal, or the
        same tokens), or None."""
        title = normalize_space(self.title).lower()
        if not title:
            return None
        wanted = tokens(title)
        nodes = self.nodes
        # a text equal to the title has its tokens too: only nodes of as many tokens are read
        for index in np.flatnonzero(self.token_counts == len(wanted)).tolist():
            text = nodes[index].text.lower()
            if text == title or (wanted and tokens(text) == wanted):
                return index
        return None

    @cached_property
    def headline_path(self) -> np.ndarray:
        """Indices in :attr:`block_tree` of the headline's block and the elements above it,
        the article's containers (none without a :attr:`headline_node`). Rules that read
        names (comment sections, furniture, markup words) never count them against it."""
        headline = self.headline_node
        if headline is None:
            return np.zeros(0, dtype=np.int64)
        tree = self.block_tree
        return np.asarray(tree.path_up(int(tree.block[headline])), dtype=np.int64)

    @cached_property
    def lang(self) -> str:
        """Language code (see :func:`newsml.dom.lang.detect_lang`), judged on the longest texts.

        The longest text nodes are the likeliest prose; menus in front of them are not.
        """
        nodes = self.nodes
        # (a stable sort of the counts, longest first: ties stay in document order)
        longest = np.argsort(-self.char_counts[0], kind="stable")[:30].tolist()
        return detect_lang(" ".join(nodes[index].text for index in longest), self.parsed.root.get("lang"))


def load_page(page: bytes | str | Path, title: str | None = None, *, declared: bool = True) -> Page:
    """Parse ``page`` (HTML bytes, HTML text or a path) into a :class:`Page`.

    ``declared=False`` skips reading what the page declares (JSON-LD, meta tags,
    microdata), which only its metadata needs: for the title and text alone.

    Raises :class:`~newsml.errors.InvalidPageError` for input that is not an HTML page,
    TypeError for a ``title`` that is no text.
    """
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str or None, not {type(title).__name__}")
    return Page(parse(page, declared=declared), given_title=title)
