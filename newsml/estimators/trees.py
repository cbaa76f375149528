"""A fitted binary gradient-boosting model kept as plain arrays.

Fusion's second stage is trained with scikit-learn's HistGradientBoostingClassifier.
Pickling that object would tie the shipped model to the scikit-learn release that
made it (its tree records are internal and change between releases), and its predict
walks the trees one Python call at a time. :class:`FrozenTrees` copies the trees'
splits and leaf values into numpy arrays once, after fitting, and predicts all trees
for all rows together: the same probabilities, loadable under any scikit-learn.

Trees of at most 64 leaves (the default's have 63) are not walked at all but read as
bit masks, as in QuickScorer (Lucchese et al., SIGIR 2015): going right at a split rules
out the leaves on its left, so a row's leaf in a tree is the leftmost leaf that none of
the splits it goes right at rules out. The splits a row goes right at on one feature are
those whose thresholds lie below its value, a prefix of them in ascending order; a table
holds each prefix's masks ANDed per tree, so a row costs one table row per feature
instead of one step per level and tree, faster than the walk. A model with any tree of
more leaves takes the walk. The table has a row per distinct threshold of a feature and a
column per tree, built when the model first scores. When the package was built
with a C compiler, the masks are read a row at a time in C
(:mod:`newsml.estimators._quickscorer`): the same leaves, without numpy's calls per
feature, which cost most of a news page's time here. Rows held as their table rows (a
byte per feature, :meth:`FrozenTrees.write_table_rows`) are read to the same scores.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..core.speedups import choose
from .frozen import expit

if TYPE_CHECKING:
    from sklearn.ensemble import HistGradientBoostingClassifier

#: Most rows walked together (see :meth:`FrozenTrees.decision_function`): a page's nodes
#: go in blocks of about equal size, none larger. A block's arrays (of one entry per row
#: and tree) then stay within the processor's cache: on news pages this size scores fastest
#: per row.
ROWS_PER_BLOCK = 256
#: The descent looks for (row, tree) pairs that reached a leaf every this many levels,
#: and drops them once fewer than ``COMPACT_BELOW`` of the pairs it holds still move:
#: a look and a drop cost about as much as a step, while a pair left on its leaf only
#: repeats a step in place (both chosen by timing news pages).
LEVELS_PER_CHECK = 3
COMPACT_BELOW = 0.7
#: Masks are one 64-bit word per tree: trees with more leaves take the walk.
MASK_BITS = 64
#: Most rows read together from the masks: a block holds two words per row and tree, and
#: blocks this large read large pages faster per row than smaller ones, and news pages no
#: slower than larger ones.
MASK_ROWS_PER_BLOCK = 1024


class _Walk(NamedTuple):
    """The nodes renumbered for the descent, built once per loaded model.

    Split nodes come first, so a node ``k >= first_leaf`` is a leaf. The descent holds
    each (row, tree) pair at a *place*, ``2 * k`` for node ``k``: every per-node array
    has node k's entry at places 2k and 2k + 1, and a step goes from place ``p`` to
    ``child[p + went_right]`` (one addition, no doubling per step). A leaf is its own
    child both ways and never goes right (threshold +inf, NaN stays left), so a pair on
    a leaf can take more steps unchanged.
    """

    feature: np.ndarray            # per place: the split's feature (0 on leaves)
    threshold: np.ndarray          # per place: go right when x > threshold (+inf on leaves)
    nan_right: np.ndarray          # per place: whether NaN goes right (False on leaves)
    child: np.ndarray              # at place + went_right: the next node's place
    value: np.ndarray              # per place: the leaf's value (0 on split nodes)
    roots: np.ndarray              # the places of the trees' first nodes
    first_leaf: int                # the place of the first leaf


class _Masks(NamedTuple):
    """The splits as leaf masks (QuickScorer), built once per loaded model.

    Leaves are numbered left to right within their tree; bit ``i`` of a tree's word
    stands for its leaf ``i``. For feature ``features[j]``, ``thresholds[j]`` are its
    splits' distinct thresholds in ascending order; ``table`` rows ``starts[j] + k`` hold,
    per tree, the AND of the masks of its splits at the first ``k`` of them (all ones
    where none is in that tree), and row ``starts[j] + len(thresholds[j]) + 1`` the AND
    of the masks of the splits that send NaN right. Splits of one threshold in many trees
    share a row, so the table has fewer rows than the trees have splits.
    """

    features: np.ndarray           # the features split on
    thresholds: list[np.ndarray]   # per feature: its thresholds, ascending
    starts: np.ndarray             # per feature: its first row in table
    table: np.ndarray              # uint64, one row per prefix (and one for NaN), one column per tree
    values: np.ndarray             # leaf values at tree * MASK_BITS + leaf number
    flat_thresholds: np.ndarray    # the thresholds back to back, feature by feature
    bounds: np.ndarray             # per feature j: its thresholds in flat_thresholds[bounds[j]:bounds[j + 1]]


class FrozenTrees:
    """Additive regression trees plus a baseline; ``predict_proba`` like a binary classifier.

    Node arrays hold every tree's nodes back to back: ``feature``, ``threshold`` (go
    left when ``x <= threshold``), ``missing_left`` (where NaN goes), ``left``/``right``
    (global indices of the children), ``leaf`` and ``value``; ``roots`` are the trees'
    first nodes.
    """

    def __init__(self, feature: np.ndarray, threshold: np.ndarray, missing_left: np.ndarray,
                 left: np.ndarray, right: np.ndarray, leaf: np.ndarray, value: np.ndarray,
                 roots: np.ndarray, baseline: float, n_features: int):
        self.feature = feature
        self.threshold = threshold
        self.missing_left = missing_left
        self.left = left
        self.right = right
        self.leaf = leaf
        self.value = value
        self.roots = roots
        self.baseline = baseline
        self.n_features = n_features

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_walk", None)     # derived from the node arrays: rebuilt after loading
        state.pop("_masks", None)
        return state

    @cached_property
    def _walk(self) -> _Walk:
        split, leaves = np.flatnonzero(~self.leaf), np.flatnonzero(self.leaf)
        new = np.empty(len(self.leaf), dtype=np.int64)
        new[np.concatenate([split, leaves])] = np.arange(len(self.leaf))
        first_leaf = len(split)
        feature = np.concatenate([self.feature[split], np.zeros(len(leaves), dtype=np.int64)])
        threshold = np.concatenate([self.threshold[split], np.full(len(leaves), np.inf)])
        nan_right = np.concatenate([~self.missing_left[split], np.zeros(len(leaves), dtype=bool)])
        children = np.column_stack([new[self.left[split]], new[self.right[split]]]).ravel()
        child = np.concatenate([children, np.repeat(np.arange(first_leaf, len(self.leaf)), 2)])
        value = np.concatenate([np.zeros(first_leaf), self.value[leaves]])
        return _Walk(np.repeat(feature, 2), np.repeat(threshold, 2), np.repeat(nan_right, 2), 2 * child,
                     np.repeat(value, 2), 2 * new[self.roots], 2 * first_leaf)

    @classmethod
    def from_estimator(cls, model: HistGradientBoostingClassifier, check_rows: np.ndarray | None = None,
                       ) -> FrozenTrees:
        """Copy a fitted binary HistGradientBoostingClassifier on numeric features.

        The copy reads scikit-learn's private tree records; with ``check_rows`` it
        predicts them both ways and raises RuntimeError if a release changed their meaning.
        """
        if len(model.classes_) != 2:
            raise ValueError("FrozenTrees holds binary classifiers only")
        records = [tree.nodes for (tree,) in model._predictors]
        categorical = getattr(model, "is_categorical_", None)
        if (categorical is not None and np.any(categorical)) or any(
                nodes["is_categorical"].any() for nodes in records):
            raise ValueError("FrozenTrees does not support categorical features")
        offsets = np.cumsum([0] + [len(nodes) for nodes in records[:-1]]).astype(np.int64)
        nodes = np.concatenate(records)
        shift = np.repeat(offsets, [len(r) for r in records])
        leaf = nodes["is_leaf"].astype(bool)
        frozen = cls(
            feature=nodes["feature_idx"].astype(np.int64),
            threshold=nodes["num_threshold"].astype(float),
            missing_left=nodes["missing_go_to_left"].astype(bool),
            left=np.where(leaf, np.arange(len(nodes)), nodes["left"].astype(np.int64) + shift),
            right=np.where(leaf, np.arange(len(nodes)), nodes["right"].astype(np.int64) + shift),
            leaf=leaf,
            value=nodes["value"].astype(float),
            roots=offsets,
            baseline=float(np.ravel(model._baseline_prediction)[0]),
            n_features=int(model.n_features_in_),
        )
        if check_rows is not None and len(check_rows) and not np.allclose(
                frozen.predict_proba(check_rows), model.predict_proba(check_rows), atol=1e-9):
            raise RuntimeError("this scikit-learn's boosted trees cannot be copied: their internal "
                               "records changed; please report it with your scikit-learn version")
        return frozen

    @classmethod
    def constant(cls, probability: float, n_features: int) -> FrozenTrees:
        """No trees: every row gets ``probability`` (for training rows of one class)."""
        p = min(max(probability, 1e-6), 1.0 - 1e-6)
        empty_int, empty = np.zeros(0, dtype=np.int64), np.zeros(0)
        return cls(empty_int, empty, empty.astype(bool), empty_int, empty_int, empty.astype(bool), empty,
                   empty_int, float(np.log(p / (1.0 - p))), n_features)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """Raw score (log-odds of the positive class) per row.

        Rows go through in equal blocks of at most :data:`MASK_ROWS_PER_BLOCK` (or
        :data:`ROWS_PER_BLOCK` for the walk): both keep arrays of one entry per
        (row, tree) pair.
        """
        X = np.ascontiguousarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.n_features:
            raise ValueError(f"expected rows of {self.n_features} features, got shape {X.shape}")
        if self._masks is None:
            return _in_blocks(X, self._descend, ROWS_PER_BLOCK)
        return _in_blocks(X, self._read_masks, MASK_ROWS_PER_BLOCK)

    # -- table rows: the masks' reading in two steps, for rows held as table rows ------------
    def new_table_rows(self, n_rows: int) -> np.ndarray | None:
        """An empty array of ``n_rows`` rows for :meth:`write_table_rows`, a column per
        feature split on, or None for trees walked (more than 64 leaves). A byte per row and
        feature while no feature has more than 254 distinct thresholds (scikit-learn's 255
        bins allow 254 finite ones and +inf), more bytes past that. A large page's evidence
        can then be kept as table rows, an eighth of its floats, and read by
        :meth:`decision_from_table_rows` to the same scores."""
        masks = self._masks
        if masks is None:
            return None
        most = max((len(t) + 1 for t in masks.thresholds), default=0)     # (the NaN row's code)
        dtype = next(t for t in (np.uint8, np.uint16, np.int64) if most <= np.iinfo(t).max)
        return np.empty((n_rows, len(masks.features)), dtype=dtype)

    def write_table_rows(self, columns: np.ndarray, first: int, out: np.ndarray) -> None:
        """Write into ``out`` (:meth:`new_table_rows`) each value's table row, counted from
        its feature's first, for ``columns``, the features ``first`` to ``first +
        columns.shape[1] - 1``: for a feature split on, how many of its thresholds lie below
        the value (numpy's searchsorted, left), or its NaN row; other features are skipped."""
        masks = self._masks
        if masks is None:
            raise ValueError("these trees have more than 64 leaves: they are walked, not read as masks")
        columns = np.asarray(columns, dtype=float)
        width = columns.shape[1] if columns.ndim == 2 else -1
        if width < 0 or len(columns) != len(out) or not 0 <= first <= self.n_features - width:
            raise ValueError(f"columns of shape {columns.shape} from feature {first} do not fit "
                             f"{len(out)} rows of {self.n_features} features")
        low, high = np.searchsorted(masks.features, [first, first + columns.shape[1]]).tolist()
        # (the features' columns contiguous: searched faster)
        for j, column in enumerate(columns.T[masks.features[low:high] - first], start=low):
            row = np.searchsorted(masks.thresholds[j], column)
            absent = np.isnan(column)
            if absent.any():
                row[absent] = len(masks.thresholds[j]) + 1
            out[:, j] = row

    def decision_from_table_rows(self, rows: np.ndarray) -> np.ndarray:
        """:meth:`decision_function` of the rows whose table rows are ``rows``
        (:meth:`write_table_rows`, every feature written): the same scores."""
        masks = self._masks
        if masks is None or rows.ndim != 2 or rows.shape[1] != len(masks.features):
            raise ValueError("table rows need trees read as masks and one column per feature split on")
        return _in_blocks(np.ascontiguousarray(rows), self._leaves_of_table_rows, MASK_ROWS_PER_BLOCK)

    @cached_property
    def _masks(self) -> _Masks | None:
        n_nodes, n_trees = len(self.leaf), len(self.roots)
        tree = np.repeat(np.arange(n_trees), np.diff(np.append(self.roots, n_nodes)))
        all_bits = 2 ** MASK_BITS - 1
        number = [0] * n_nodes                              # leaves: left-to-right within the tree
        masks = [all_bits] * n_nodes                        # splits: all but their left leaves
        is_leaf, lefts, rights = self.leaf.tolist(), self.left.tolist(), self.right.tolist()
        for root in self.roots.tolist():
            under: dict[int, int] = {}                     # node: bits of the leaves below it
            count, stack = 0, [(root, False)]
            while stack:                                    # (post-order, left before right)
                node, seen = stack.pop()
                if is_leaf[node]:
                    if count == MASK_BITS:
                        return None
                    number[node], under[node], count = count, 1 << count, count + 1
                elif seen:
                    left = under[lefts[node]]
                    under[node] = left | under[rights[node]]
                    masks[node] = ~left & all_bits
                else:
                    stack += [(node, True), (rights[node], False), (lefts[node], False)]
        mask = np.array(masks, dtype=np.uint64)
        split = np.flatnonzero(~self.leaf)
        features = np.unique(self.feature[split])
        tables, thresholds = [], []
        for feature in features:
            nodes = split[self.feature[split] == feature]
            nodes = nodes[np.argsort(self.threshold[nodes], kind="stable")]
            prefixes = np.full((len(nodes) + 1, n_trees), ~np.uint64(0))
            prefixes[np.arange(1, len(nodes) + 1), tree[nodes]] = mask[nodes]
            np.bitwise_and.accumulate(prefixes, axis=0, out=prefixes)
            # splits of equal thresholds go the same way: one row per distinct threshold below
            distinct, first = np.unique(self.threshold[nodes], return_index=True)
            nan_right = nodes[~self.missing_left[nodes]]
            nan_row = np.full((1, n_trees), ~np.uint64(0))
            np.bitwise_and.at(nan_row[0], tree[nan_right], mask[nan_right])
            tables += [prefixes[np.append(first, len(nodes))], nan_row]
            thresholds.append(distinct)
        rows = np.array([len(t) + 2 for t in thresholds], dtype=np.int64)   # prefixes and NaN row
        starts = np.cumsum(rows) - rows
        table = np.concatenate(tables) if tables else np.zeros((0, n_trees), dtype=np.uint64)
        values = np.zeros(n_trees * MASK_BITS)
        leaves = np.flatnonzero(self.leaf)
        values[tree[leaves] * MASK_BITS + np.array(number, dtype=np.int64)[leaves]] = self.value[leaves]
        bounds = np.cumsum([0, *map(len, thresholds)]).astype(np.int64)
        flat = np.ascontiguousarray(np.concatenate(thresholds) if thresholds else np.zeros(0),
                                    dtype=np.float64)
        # (each feature's thresholds a view of the flat ones, not a second copy)
        return _Masks(features.astype(np.int64), [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:])],
                      starts, table, values, flat, bounds)

    def _read_masks(self, X: np.ndarray) -> np.ndarray:
        return self.baseline + _leaf_values(self, X).sum(axis=1)

    def _leaves_of_table_rows(self, rows: np.ndarray) -> np.ndarray:
        return self.baseline + _leaf_values_of_rows(self, rows).sum(axis=1)

    def _descend(self, X: np.ndarray) -> np.ndarray:
        walk = self._walk
        n_rows, n_trees, n_features = len(X), len(walk.roots), X.shape[1]
        flat = X.ravel()
        missing = bool(np.isnan(flat).any())

        def step(place: np.ndarray, x: np.ndarray, threshold: np.ndarray) -> np.ndarray:
            """Each pair's next place (``take``: faster than indexing with an array)."""
            went_right = x > threshold
            if missing:
                absent = np.isnan(x)
                went_right[absent] = walk.nan_right.take(place[absent])
            return walk.child.take((place + went_right).ravel())

        # every pair starts at its tree's root: the roots' columns of X, in pair order
        # (row i, tree j at i * n_trees + j)
        place = step(np.broadcast_to(walk.roots, (n_rows, n_trees)), X[:, walk.feature[walk.roots]],
                     walk.threshold[walk.roots])
        start = np.repeat(np.arange(0, n_rows * n_features, n_features), n_trees)   # row's offset in flat
        pair = np.arange(len(place))
        leaf = np.empty(len(place), dtype=np.int64)           # each pair's leaf place, once it is dropped
        held = len(place)
        while True:
            moving = place < walk.first_leaf
            n_moving = int(np.count_nonzero(moving))
            if n_moving == 0:
                leaf[pair] = place
                break
            if n_moving < COMPACT_BELOW * held:               # drop the pairs that stopped
                stopped, kept = np.flatnonzero(~moving), np.flatnonzero(moving)
                leaf[pair.take(stopped)] = place.take(stopped)
                place, start, pair = place.take(kept), start.take(kept), pair.take(kept)
                held = n_moving
            for _ in range(LEVELS_PER_CHECK):
                place = step(place, flat.take(start + walk.feature.take(place)), walk.threshold.take(place))
        return self.baseline + walk.value.take(leaf).reshape(n_rows, n_trees).sum(axis=1)

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """``[P(0), P(1)]`` per row."""
        positive = expit(self.decision_function(X))
        return np.column_stack([1.0 - positive, positive])


def _in_blocks(rows: np.ndarray, score: Callable[[np.ndarray], np.ndarray], most: int) -> np.ndarray:
    """``score`` of ``rows`` in equal blocks of at most ``most`` rows, back to back."""
    if len(rows) <= most:
        return score(rows)
    n_blocks = -(-len(rows) // most)
    size = -(-len(rows) // n_blocks)          # 300 rows: two blocks of 150, not 256 and 44
    return np.concatenate([score(rows[i:i + size]) for i in range(0, len(rows), size)])


def leaf_values_in_python(trees: FrozenTrees, X: np.ndarray) -> np.ndarray:
    """Per row of ``X`` and per tree, the value of the leaf the row reaches: the row's table
    rows (:meth:`FrozenTrees.write_table_rows`) read by :func:`rows_read_in_python`."""
    rows = trees.new_table_rows(len(X))
    assert rows is not None
    trees.write_table_rows(X, 0, rows)
    return _leaves_of(trees, rows)


def rows_read_in_python(trees: FrozenTrees, rows: np.ndarray) -> np.ndarray:
    """Per row of table rows and per tree, the value of the leaf the row reaches; ValueError
    for a row outside its feature's rows."""
    masks = trees._masks
    assert masks is not None
    if len(rows) and ((rows < 0) | (rows > [len(t) + 1 for t in masks.thresholds])).any():
        raise ValueError("a table row outside its feature's rows")
    return _leaves_of(trees, rows)


def _leaves_of(trees: FrozenTrees, rows: np.ndarray) -> np.ndarray:
    """The leaf values of table rows known to be in range: the AND of each row's masks, whose
    lowest set bit is the tree's leftmost leaf left."""
    masks = trees._masks
    assert masks is not None
    n_trees = len(trees.roots)
    word = np.full((len(rows), n_trees), ~np.uint64(0))
    for row, start in zip(rows.T, masks.starts.tolist()):
        np.bitwise_and(word, masks.table.take(row.astype(np.int64) + start, axis=0), out=word)
    lowest = word & (~word + np.uint64(1))               # each tree's leftmost leaf left
    # its number: the exponent of that power of two, exact as a float (any numpy)
    leaf = np.frexp(lowest.astype(np.float64))[1].astype(np.int64) - 1
    leaf += np.arange(0, n_trees * MASK_BITS, MASK_BITS)
    return masks.values.take(leaf)


def _leaf_values_in_c(quickscorer: ModuleType) -> Callable[[FrozenTrees, np.ndarray], np.ndarray]:
    def leaf_values(trees: FrozenTrees, X: np.ndarray) -> np.ndarray:
        masks = trees._masks
        assert masks is not None
        return quickscorer.leaf_values(X, masks.features, masks.flat_thresholds, masks.bounds,
                                       masks.starts, masks.table, masks.values)
    return leaf_values


def _rows_read_in_c(quickscorer: ModuleType) -> Callable[[FrozenTrees, np.ndarray], np.ndarray]:
    def leaf_values_of_rows(trees: FrozenTrees, rows: np.ndarray) -> np.ndarray:
        if rows.dtype != np.uint8:    # (wider codes: numpy's reading)
            return rows_read_in_python(trees, rows)
        masks = trees._masks
        assert masks is not None
        return quickscorer.leaf_values_of_rows(rows, masks.starts, masks.table, masks.values)
    return leaf_values_of_rows


_leaf_values = choose("estimators._quickscorer", leaf_values_in_python, _leaf_values_in_c)
_leaf_values_of_rows = choose("estimators._quickscorer", rows_read_in_python, _rows_read_in_c)
