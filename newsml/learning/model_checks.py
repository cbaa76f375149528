"""Checks of what a model file holds, run on each object as it loads and before any use.

Each class a model file may name has its check here: every array's type and shape, the
trees' structure (each node in range, each tree a tree: no cycle, no node shared), the
sizes that agree between the parts of a method, and the parameters that set how much
work or memory a page takes (a smoothing width, an Otsu step, a number of levels).
A check raises ValueError naming what is wrong; the loader turns it into a ModelError.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..estimators.checks import LARGEST_PARAMETER, array, check_trees, describe, number
from ..estimators.frozen import FrozenDempsterShafer, FrozenNaiveBayes
from ..estimators.trees import FrozenTrees
from ..methods import NodeMethod, methods
from ..methods.cedst import Cedst
from ..methods.fusion import Fusion
from ..methods.markup import MarkupTokens
from ..methods.nb import NaiveBayesMethod
from ..rules.assembly import Assembly, FixedCut, OtsuCut

#: Smallest Otsu step: the cut tries ``1 / step`` thresholds per page.
SMALLEST_STEP = 1e-4
#: Widest Gaussian smoothing, in nodes: its kernel has about ``8 * sigma`` weights.
WIDEST_SIGMA = 1e4
#: Most ancestor levels a markup model may read per node.
MOST_LEVELS = 64


def check_object(obj: object) -> None:
    """Raise ValueError unless ``obj``, just loaded from a model file, is usable as written."""
    for cls in type(obj).__mro__:
        check = _CHECKS.get(cls)
        if check is not None:
            check(obj)
    check = _CHECKS_BY_NAME.get((type(obj).__module__, type(obj).__qualname__))
    if check is not None:
        check(obj)
    if isinstance(obj, NodeMethod):
        _check_method(obj)


def check_dempster_shafer(model: FrozenDempsterShafer) -> None:
    """Evidence arrays of one length each, finite; two classes and their background."""
    weights = array(model, "weights_", "f", 1)
    k = len(weights)
    for name in ("scale_min_", "scale_span_"):
        if not np.isfinite(array(model, name, "f", 1, k)).all():
            raise ValueError(f"{name} must be finite")
    if not np.isfinite(weights).all() or not np.isfinite(array(model, "background_", "f", 1, 2)).all():
        raise ValueError("weights_ and background_ must be finite")
    array(model, "positive_", "b", 1, k)
    _binary_classes(model)
    if model.n_features_in_ != k:
        raise ValueError(f"n_features_in_ is {model.n_features_in_!r}, the weights {k}")


def _binary_classes(model: object) -> np.ndarray:
    """``classes_`` of a binary classifier of newsml's labels: 0, then 1."""
    classes = array(model, "classes_", "biuf", 1, 2)
    if classes.tolist() != [0, 1]:
        raise ValueError(f"classes_ must be [0, 1], not {classes.tolist()}")
    return classes


def check_naive_bayes(model: FrozenNaiveBayes) -> None:
    """Per feature, ascending bin edges and a table of one column per bin and row per class."""
    classes = _binary_classes(model)
    prior = array(model, "class_log_prior_", "f", 1, len(classes))
    if not np.isfinite(prior).all():
        raise ValueError("class_log_prior_ must be finite")
    edges, tables = model.edges_, model.feature_log_prob_
    if not isinstance(edges, list) or not isinstance(tables, list) or len(edges) != len(tables):
        raise ValueError("edges_ and feature_log_prob_ must be lists of one array per feature")
    for j, (column_edges, table) in enumerate(zip(edges, tables)):
        if not isinstance(column_edges, np.ndarray) or column_edges.ndim != 1 \
                or column_edges.dtype.kind != "f" or np.isnan(column_edges).any() \
                or not (np.diff(column_edges) >= 0).all():     # (NaN-safe: digitize needs this)
            raise ValueError(f"the bin edges of feature {j} must ascend")
        if not isinstance(table, np.ndarray) or table.dtype.kind != "f" \
                or table.shape != (len(prior), len(column_edges) + 1) or not np.isfinite(table).all():
            raise ValueError(f"the table of feature {j} must have one row per class and one "
                             "finite column per bin")
    if model.n_features_in_ != len(edges):
        raise ValueError(f"n_features_in_ is {model.n_features_in_!r}, the edges {len(edges)}")


def check_markup(method: MarkupTokens) -> None:
    """The vocabulary numbers its tokens 0..n-1, one weight each."""
    number(method, "levels", 1, MOST_LEVELS, integer=True)
    vocabulary = getattr(method, "vocabulary_", None)
    if vocabulary is None:
        return
    if not isinstance(vocabulary, dict) or not all(isinstance(k, str) and type(v) is int
                                                   for k, v in vocabulary.items()):
        raise ValueError("vocabulary_ must map token strings to ids")
    if sorted(vocabulary.values()) != list(range(len(vocabulary))):
        raise ValueError("vocabulary_ must number its tokens 0 to n - 1")
    if not np.isfinite(array(method, "coef_", "float64", 1, len(vocabulary))).all():
        raise ValueError("coef_ must be finite")
    number(method, "intercept_", -math.inf, math.inf)


def check_assembly(assembly: Assembly) -> None:
    """A smoothing width that makes a kernel of bounded size, and a cut newsml makes."""
    number(assembly, "sigma", 0, WIDEST_SIGMA)
    if not isinstance(assembly.cut, (OtsuCut, FixedCut)):
        raise ValueError(f"the cut must be Otsu's or a fixed one, not {describe(assembly.cut)}")


def check_otsu(cut: OtsuCut) -> None:
    number(cut, "step", SMALLEST_STEP, 1)
    number(cut, "fallback", 0, 1)
    number(cut, "keep_above", 0, 1, optional=True)


def check_fixed(cut: FixedCut) -> None:
    number(cut, "threshold", 0, 1)


def check_nb(method: NaiveBayesMethod) -> None:
    classifier = getattr(method, "classifier_", None)
    if classifier is not None and (not isinstance(classifier, FrozenNaiveBayes)
                                   or classifier.n_features_in_ != len(method.feature_names())):
        raise ValueError("classifier_ must be a naive Bayes over the method's features")


def check_cedst(method: Cedst) -> None:
    number(method, "sigma", 0, WIDEST_SIGMA)
    number(method, "otsu_step", SMALLEST_STEP, 1)
    classifier = getattr(method, "classifier_", None)
    if classifier is not None and (not isinstance(classifier, FrozenDempsterShafer)
                                   or classifier.n_features_in_ != len(method.evidence)):
        raise ValueError("classifier_ must be a Dempster-Shafer fusion of the method's evidence")


def check_fusion(method: Fusion) -> None:
    """Members of the registered classes; combiner and trees as wide as the evidence."""
    from ..features.base import family
    from ..features.context import context_names

    if method.sigma != "auto":
        number(method, "sigma", 0, WIDEST_SIGMA)
    if not hasattr(method, "combiner_"):
        return
    members = getattr(method, "members_", None)
    if not isinstance(members, dict) or not all(
            isinstance(member, methods().get(name, ())) for name, member in members.items()):
        raise ValueError("members_ must map method names to methods of those names")
    if set(members) != {name for name in method._names() if family(name) is None}:
        raise ValueError("members_ must hold a method for each piece of evidence that is one")
    if not isinstance(method.combiner_, FrozenDempsterShafer) \
            or method.combiner_.n_features_in_ != method._width(method.evidence):
        raise ValueError("combiner_ must combine the columns of the evidence")
    if not isinstance(getattr(method, "assembly_", None), Assembly):
        raise ValueError("assembly_ must be an Assembly")
    booster = getattr(method, "booster_", None)
    if booster is not None:
        width = method._width(method._names()) + len(context_names(method.mates))
        if not isinstance(booster, FrozenTrees) or booster.n_features != width:
            raise ValueError(f"booster_ must be trees over the {width} columns of the evidence")


def check_votes(method: Any) -> None:
    """An adapted model's votes: per template key, a share of content and a page count."""
    votes = getattr(method, "votes_", None)
    if votes is None:
        return
    if not isinstance(votes, dict) or not all(
            isinstance(key, str) and isinstance(vote, tuple) and len(vote) == 2
            and all(isinstance(v, (int, float)) and math.isfinite(v) for v in vote)
            for key, vote in votes.items()):
        raise ValueError("votes_ must map template keys to a share and a page count")
    number(method, "prior_", 0, LARGEST_PARAMETER, optional=True)


def _check_method(method: NodeMethod) -> None:
    """Every method: each parameter of the type of its default (a number for a number, a
    string, number or newsml object for a string such as "auto", strings in a tuple),
    numbers within :data:`LARGEST_PARAMETER`, and what ``fit`` accepts."""
    defaults = {name: p.default for name, p in inspect.signature(type(method).__init__).parameters.items()}
    for name, value in method.get_params(deep=False).items():
        if not _like(value, defaults.get(name)):
            raise ValueError(f"parameter {name} is {describe(value)}, not of the type of its default")
        if isinstance(value, (int, float)) and not isinstance(value, bool) \
                and not abs(value) <= LARGEST_PARAMETER:
            raise ValueError(f"parameter {name} is {value!r}, beyond what any method takes")
    method.check_params()


def _like(value: Any, default: Any) -> bool:
    """Whether a parameter's ``value`` is of the kind its ``default`` is."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return number and isinstance(value, int)
    if isinstance(default, float):
        return number
    if isinstance(default, str):
        return number or isinstance(value, str) or type(value).__module__.startswith("newsml.")
    if isinstance(default, (tuple, frozenset)):
        return isinstance(value, type(default)) and all(isinstance(item, str) for item in value)
    return True


_CHECKS: dict[type, Callable[[Any], None]] = {
    FrozenTrees: check_trees,
    FrozenDempsterShafer: check_dempster_shafer,
    FrozenNaiveBayes: check_naive_bayes,
    MarkupTokens: check_markup,
    Assembly: check_assembly,
    OtsuCut: check_otsu,
    FixedCut: check_fixed,
    NaiveBayesMethod: check_nb,
    Cedst: check_cedst,
    Fusion: check_fusion,
}
#: Classes of a later module of this stage, checked by name (importing them would be a cycle).
_CHECKS_BY_NAME: dict[tuple[str, str], Callable[[Any], None]] = {
    ("newsml.learning.adaptation", "AdaptedMethod"): check_votes,
}
