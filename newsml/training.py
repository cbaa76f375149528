"""Training: labeled pages -> parsed pages and per-node labels -> a fitted method."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.model_selection import KFold

from .align import MIN_SHARE, align_labels
from .corpus import LabeledPage
from .errors import NewsmlError
from .features import NaiveBayesFeatures
from .methods import NodeMethod
from .parse import Document, parse


def labeled_documents(pages: Iterable[LabeledPage], min_share: float = MIN_SHARE,
                      on_page: Callable[[], None] | None = None,
                      ) -> tuple[list[Document], list[np.ndarray], list[str]]:
    """Parse each page and label its text nodes from the gold (see :mod:`newsml.align`).

    Pages that cannot be parsed are skipped and named in the third list.
    """
    kept, skipped = parse_labeled(pages, min_share, on_page)
    return [doc for _, doc, _ in kept], [labels for _, _, labels in kept], skipped


def parse_labeled(pages: Iterable[LabeledPage], min_share: float = MIN_SHARE,
                  on_page: Callable[[], None] | None = None,
                  ) -> tuple[list[tuple[LabeledPage, Document, np.ndarray]], list[str]]:
    """``(page, parsed page, node labels)`` for each page that parses, and the ids of the rest."""
    kept, skipped = [], []
    for page in pages:
        try:
            doc = parse(page.html)
        except NewsmlError:
            skipped.append(page.id)
        else:
            kept.append((page, doc, align_labels(doc.nodes, page.gold, min_share)))
        if on_page is not None:
            on_page()
    return kept, skipped


def node_feature_names(method: NodeMethod) -> list[str]:
    """Names of the columns a method learns from (for a model file's metadata)."""
    if hasattr(method, "feature_names"):
        return list(method.feature_names())
    if hasattr(method, "evidence"):
        return list(method.evidence)
    if method.name == "nb":
        return list(NaiveBayesFeatures.feature_names)
    return []


def cross_validated_f1(make: Callable[[], NodeMethod], docs: Sequence[Document],
                       labels: Sequence[np.ndarray], golds: Sequence[str], folds: int = 5,
                       random_state: int = 0) -> float:
    """Macro F1 against the gold texts of pages extracted by models fitted on the other folds."""
    from .extract import extract_document
    from .scoring import macro, score

    if folds < 2 or len(docs) < folds:
        raise NewsmlError(f"cross-validation needs at least {max(folds, 2)} pages and 2 folds")
    results = []
    for train, held in KFold(folds, shuffle=True, random_state=random_state).split(docs):
        method = make().fit([docs[i] for i in train], [labels[i] for i in train])
        results.extend(score(extract_document(docs[i], method).text, golds[i]) for i in held)
    return macro(results).f1


def train_method(name: str, corpora: Sequence[str | Path], split: str | None = "train",
                 params: dict[str, Any] | None = None, cv_folds: int = 5, min_share: float = MIN_SHARE,
                 on_page: Callable[[], None] | None = None,
                 ) -> tuple[NodeMethod, dict[str, Any]]:
    """Train method ``name`` on labeled folders; return it with the metadata of its model file."""
    from .corpus import load_corpus
    from .methods import new_method

    pages: list[LabeledPage] = []
    sizes: dict[str, int] = {}
    for folder in corpora:
        found = load_corpus(folder, split=split)
        sizes[Path(folder).name] = len(found)
        pages.extend(found)
    if not pages:
        raise NewsmlError(f"no labeled pages for split {split!r} in {', '.join(map(str, corpora))}")
    kept, skipped = parse_labeled(pages, min_share=min_share, on_page=on_page)
    docs = [doc for _, doc, _ in kept]
    labels = [node_labels for _, _, node_labels in kept]
    golds = [page.gold for page, _, _ in kept]
    make = partial(new_method, name, **(params or {}))
    cv_f1 = cross_validated_f1(make, docs, labels, golds, cv_folds) if cv_folds else None
    method = make().fit(docs, labels)
    metadata = {
        "training": {"corpora": sizes, "split": split or "all", "pages": len(docs),
                     "skipped": skipped, "nodes": int(sum(len(lab) for lab in labels)),
                     "min_share": min_share},
        "feature_names": node_feature_names(method),
        "cv_f1": cv_f1,
        "cv_folds": cv_folds,
    }
    return method, metadata
