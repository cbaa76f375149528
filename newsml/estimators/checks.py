"""Checks of a frozen estimator's arrays and numbers as a model file gives them, before any
use: types, shapes, finite values, and a forest of trees that are trees (each node in
range, no cycle, no node shared). A check raises ValueError naming what is wrong.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .trees import FrozenTrees

#: Largest number a parameter may be (a width in nodes, a count of features...).
LARGEST_PARAMETER = 1e6


def array(obj: object, name: str, kind: str, ndim: int, length: int | None = None) -> np.ndarray:
    """The attribute ``name`` of ``obj``, an array of ``ndim`` dimensions whose type is
    ``kind``: numpy's kind letters ("iu"), or a type's name ("int64"); given ``length``, of
    that many rows."""
    value = getattr(obj, name, None)
    if not isinstance(value, np.ndarray) or value.ndim != ndim or not (
            value.dtype.kind in kind if len(kind) <= 4 else value.dtype == np.dtype(kind)):
        raise ValueError(f"{name} must be a {ndim}-d array of kind {kind!r}, not "
                         f"{describe(value)}")
    if length is not None and len(value) != length:
        raise ValueError(f"{name} has {len(value)} entries, expected {length}")
    if value.dtype.kind == "f" and np.isnan(value).any():   # (a threshold of NaN sends no row either way)
        raise ValueError(f"{name} holds NaN")
    return value


def number(obj: object, name: str, low: float, high: float, integer: bool = False,
           optional: bool = False) -> None:
    """The attribute ``name`` of ``obj`` is a number in [low, high] (an int if ``integer``)."""
    value: Any = getattr(obj, name, None)
    if optional and value is None:
        return
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    as_float = math.nan if isinstance(value, bool) or not isinstance(value, kinds) else float(value)
    if not low <= as_float <= high:
        raise ValueError(f"{name} must be a{'n integer' if integer else ' number'} in [{low:g}, {high:g}], "
                         f"not {describe(value)}")


def describe(value: Any) -> str:
    """A value as an error message names it: an array by its type and shape."""
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype} and shape {value.shape}"
    text = repr(value)
    return text if len(text) <= 40 else f"a {type(value).__name__}"


def check_trees(trees: FrozenTrees) -> None:
    """The node arrays agree in length and type, and ``roots`` start a forest of binary
    trees laid back to back: each split's children lie in its own tree, every node but a
    root is the child of exactly one split, and every node is reached from its root (so
    no cycle: ``left[root] = root`` would make the descent and the masks loop)."""
    leaf = array(trees, "leaf", "b", 1)
    n = len(leaf)
    feature = array(trees, "feature", "int64", 1, n)
    array(trees, "threshold", "float64", 1, n)
    array(trees, "missing_left", "b", 1, n)
    array(trees, "value", "float64", 1, n)
    left, right = array(trees, "left", "int64", 1, n), array(trees, "right", "int64", 1, n)
    roots = array(trees, "roots", "int64", 1)
    number(trees, "n_features", 1, LARGEST_PARAMETER, integer=True)
    number(trees, "baseline", -math.inf, math.inf)
    if not np.isfinite(trees.value).all() or not math.isfinite(trees.baseline):
        raise ValueError("the trees' values must be finite")
    if n == 0:
        if len(roots):
            raise ValueError("roots name nodes of no tree")
        return
    if not len(roots) or roots[0] != 0 or (np.diff(roots) <= 0).any() or roots[-1] >= n:
        raise ValueError("roots must start at node 0 and ascend within the nodes")
    tree = np.repeat(np.arange(len(roots)), np.diff(np.append(roots, n)))
    split = np.flatnonzero(~leaf)
    if ((feature[split] < 0) | (feature[split] >= trees.n_features)).any():
        raise ValueError("a split reads a feature the trees do not have")
    children = np.concatenate([left[split], right[split]]).astype(np.int64)
    if ((children < 0) | (children >= n)).any():
        raise ValueError("a split's child is outside the nodes")
    if (tree[children] != np.concatenate([tree[split], tree[split]])).any():
        raise ValueError("a split's child lies in another tree")
    parents = np.bincount(children, minlength=n)
    is_root = np.zeros(n, dtype=bool)
    is_root[roots] = True
    if (parents[is_root] != 0).any() or (parents[~is_root] != 1).any():
        raise ValueError("the trees are not trees: a node is the child of none or of several "
                         "splits, or a root is a child")
    reached, frontier = len(roots), roots.astype(np.int64)
    while len(frontier):        # every node is some split's child once: each is met once
        frontier = frontier[~leaf[frontier]]
        frontier = np.concatenate([left[frontier], right[frontier]]).astype(np.int64)
        reached += len(frontier)
    if reached != n:
        raise ValueError("the trees are not trees: some nodes form a cycle apart from the roots")
