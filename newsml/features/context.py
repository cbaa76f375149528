"""Page context of a per-node belief: what the nodes around a node were judged to be.

A node's own evidence says little about a short line inside an article or a long
teaser beside it; the belief of its neighbours and of its container says more. Given a
first belief per node (the fused Dempster-Shafer belief), these columns describe each
node's surroundings:

- ``belief``: the belief itself;
- ``near2`` / ``near5``: the belief smoothed along document order (Gaussian, sigma 2
  and 5 nodes);
- ``box1`` .. ``box3``: mean belief of all the nodes under the block's parent,
  grandparent and great-grandparent, weighted by tokens (at least 1 per node);
- ``in_main``: 1 inside the main container, the deepest element that holds at least
  ``main_share`` of the page's belief mass (belief times tokens);
- ``between``: 1 between the first and the last node with belief >= 0.5;
- with ``mates``, ``mates0``: mean belief of the other nodes whose block carries the tag
  and class of the node's block; ``mates1``: of those whose block's parent carries those
  of the node's block's parent (:func:`~newsml.features.style.style_marks`); weighted by
  tokens (at least 1 per node); a node alone of its mark gets its own belief.
  A site styles its article's lines alike, so a list or a short line of the article, cut
  off from the paragraphs by a box of links, still shares their class.

All columns lie in [0, 1], so they can be evidence for the combiner too.
"""

from __future__ import annotations

import numpy as np

from ..core.signal import gaussian_smooth
from ..dom.nodes import BlockTree
from ..dom.page import Page
from .style import mark_totals, style_marks

CONTEXT_NAMES = ("belief", "near2", "near5", "box1", "box2", "box3", "in_main", "between")
MATE_NAMES = ("mates0", "mates1")


def context_names(mates: bool = False) -> tuple[str, ...]:
    """The columns of :func:`belief_context`, with or without the style mates' belief."""
    return CONTEXT_NAMES + MATE_NAMES if mates else CONTEXT_NAMES


def belief_context(page: Page, belief: np.ndarray, main_share: float = 0.8,
                   out: np.ndarray | None = None, mates: bool = False) -> np.ndarray:
    """The :func:`context_names` columns for one page's nodes, given one belief per node;
    written into ``out`` (one row per node, a column per name) when given, and returned:
    fusion writes them into the evidence matrix's last columns, with no copy of them."""
    n, width = len(page.nodes), len(context_names(mates))
    if out is None:
        out = np.zeros((n, width))
    if out.shape != (n, width):
        raise ValueError(f"out has shape {out.shape}, not {(n, width)}")
    if n == 0:
        return out
    belief = np.asarray(belief, dtype=float)
    tokens = page.token_counts
    tree = page.block_tree
    parent, block = tree.parent, tree.block
    levels = page.block_levels
    out[:, 0] = belief
    out[:, 1] = gaussian_smooth(belief, 2.0)
    out[:, 2] = gaussian_smooth(belief, 5.0)
    weight = np.maximum(tokens, 1.0)            # a node without tokens ("|", "—") still counts
    mass = tree.subtree_sums(belief * weight, levels)
    size = tree.subtree_sums(weight, levels)
    ancestor = block
    for column in (3, 4, 5):
        ancestor = parent[ancestor]
        out[:, column] = mass[ancestor] / size[ancestor]
    out[:, 6] = _inside_main(tree, levels, belief * tokens, main_share)
    confident = np.flatnonzero(belief >= 0.5)
    out[:, 7] = 0.0
    if confident.size:
        out[confident[0]:confident[-1] + 1, 7] = 1.0
    if mates:
        _mates_belief(page, belief, weight, out[:, len(CONTEXT_NAMES):])
    return out


def _mates_belief(page: Page, belief: np.ndarray, weight: np.ndarray, out: np.ndarray) -> None:
    """The ``MATE_NAMES`` columns, written into ``out``."""
    mass_of_node = belief * weight
    for level, (mark, marks) in enumerate(style_marks(page, len(MATE_NAMES))):
        mass = mark_totals(mark, marks, mass_of_node) - mass_of_node
        size = mark_totals(mark, marks, weight) - weight
        alone = size < 0.5          # (weights are 1 or more: a mate weighs at least 1)
        out[:, level] = np.where(alone, belief, np.clip(mass / np.where(alone, 1.0, size), 0.0, 1.0))


def _inside_main(tree: BlockTree, levels: list[np.ndarray], mass_of_node: np.ndarray,
                 main_share: float) -> np.ndarray:
    """1 for nodes under the deepest element holding ``main_share`` of the belief mass."""
    parent, depth, block = tree.parent, tree.depth, tree.block
    total = mass_of_node.sum()
    if total <= 0:
        return np.zeros(len(block))
    mass = tree.subtree_sums(mass_of_node, levels)
    holders = np.flatnonzero(mass >= main_share * total * (1.0 - 1e-9))
    if not holders.size:            # several roots share the mass: no single main container
        return np.zeros(len(block))
    main = holders[np.argmax(depth[holders])]
    inside = np.zeros(len(parent), dtype=bool)
    inside[main] = True
    return tree.inherited(inside, inside.copy(), levels)[block].astype(float)
