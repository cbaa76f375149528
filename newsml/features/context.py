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
- ``between``: 1 between the first and the last node with belief >= 0.5.

All columns lie in [0, 1], so they can be evidence for the combiner too.
"""

from __future__ import annotations

import numpy as np

from ..assemble import gaussian_smooth
from ..nodes import BlockTree
from ..page import Page

CONTEXT_NAMES = ("belief", "near2", "near5", "box1", "box2", "box3", "in_main", "between")


def belief_context(page: Page, belief: np.ndarray, main_share: float = 0.8,
                   out: np.ndarray | None = None) -> np.ndarray:
    """The ``CONTEXT_NAMES`` columns for one page's nodes, given one belief per node;
    written into ``out`` (one row per node, a column per name) when given, and returned:
    fusion writes them into the evidence matrix's last columns, with no copy of them."""
    n = len(page.nodes)
    if out is None:
        out = np.zeros((n, len(CONTEXT_NAMES)))
    if out.shape != (n, len(CONTEXT_NAMES)):
        raise ValueError(f"out has shape {out.shape}, not {(n, len(CONTEXT_NAMES))}")
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
    return out


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
