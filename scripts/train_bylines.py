#!/usr/bin/env python3
"""Train the byline model (models/bylines.npz) and measure what it adds to the rules.

Usage: python scripts/train_bylines.py [--data ../shared/data] [--out models/bylines.npz]

Pages: the train split of every corpus with author gold (wcxb_dev, wcxb_dev2 and
readability's json; daniel_zh and cwced_zh's hand labels in labeled/metadata). Each page is
extracted with the shipped default; its short lines around the article are the examples.
Cross-validation grouped by site compares, per corpus, the author agreement of the rules
alone (the byline beside the headline, then the declared author) with the rules followed by
the model (where the rules name no author) at each threshold of :data:`THRESHOLDS`; the
threshold of the best mean agreement over the corpora (a page is right when the gold author
is named, or no author where the page gives none) is the one the shipped model keeps.
Test pages are never read.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import _document_gold as gold_rules  # scripts/_document_gold.py, beside this script
import numpy as np
from _shared import LABELS, METADATA_KEYS, REPO, SHARED_DATA, corpus_labels, metadata_gold

from newsml.core.progress import progress_bar
from newsml.document.lines import LineModel, best_author, candidate_lines, line_features
from newsml.document.metadata import chosen_author, declared_authors, declared_organization, read_metadata
from newsml.dom.page import load_page
from newsml.input.corpus import load_corpus
from newsml.learning.lines import byline_labels, fit_line_model
from newsml.learning.persistence import get_method
from newsml.methods import NodeMethod

THRESHOLDS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7)
FOLDS = 5


@dataclass
class Example:
    """A train page: its corpus, site, gold author, the rules' author, the organization it
    declares as its author, and its candidate lines."""

    corpus: str
    site: str
    gold: str | None
    rules: str | None
    source: str | None
    organization: str | None
    rows: np.ndarray
    labels: np.ndarray
    texts: list[str]
    next_texts: list[str]


def examples(data: Path, labels_folder: Path, scorer: NodeMethod) -> list[Example]:
    """Every train page with author gold (a page without an author counts: the model must
    name none there), its article's nodes those ``scorer`` keeps."""
    corpora = [name for name in (*METADATA_KEYS, "daniel_zh", "cwced_zh") if (data / name).is_dir()]
    out = []
    for corpus in corpora:
        labels = corpus_labels(corpus, labels_folder)
        pages = load_corpus(data / corpus, split="train")
        with progress_bar() as progress:
            progress.start(corpus, len(pages))
            for page in pages:
                progress.advance()
                has_gold, _, author = metadata_gold(corpus, page.id, page.meta, labels)
                if not has_gold:
                    continue
                parsed = load_page(page.html)
                keep = np.asarray(scorer.select(parsed, scorer.score_nodes(parsed)), dtype=bool)
                candidates = candidate_lines(parsed, keep)
                nodes = parsed.nodes
                rules = read_metadata(parsed, keep, organizations_allowed=False)
                out.append(Example(
                    corpus, _site(page.meta, f"{corpus}/{page.id}"), author, rules.author, rules.source,
                    declared_organization(parsed),
                    line_features(parsed, keep, candidates, declared_authors(parsed)),
                    byline_labels(parsed, candidates, author),
                    [nodes[i].text for i in candidates],
                    [nodes[i + 1].text if i + 1 < len(nodes) else "" for i in candidates]))
    return out


def cross_validate(pages: list[Example]) -> dict[float, dict[str, float]]:
    """Author agreement per corpus, out of fold, over every page with gold (right: the gold
    author named, or none named where the page has none): the rules alone (key -1) and the
    rules then the model at each threshold of :data:`THRESHOLDS`."""
    from sklearn.model_selection import GroupKFold

    sites = np.array([page.site for page in pages])
    scores: list[np.ndarray | None] = [None] * len(pages)
    for train, test in GroupKFold(FOLDS).split(pages, groups=sites):
        rows = np.vstack([pages[i].rows for i in train if len(pages[i].rows)])
        labels = np.concatenate([pages[i].labels for i in train])
        model = fit_line_model(rows, labels, threshold=0.0)
        for i in test:
            scores[i] = model.trees.predict_proba(pages[i].rows)[:, 1] if len(pages[i].rows) else np.zeros(0)
    table: dict[float, dict[str, float]] = {}
    for threshold in (-1.0, *THRESHOLDS):   # -1: the rules alone
        right: dict[str, list[bool]] = {}
        for page, score in zip(pages, scores):
            model = None if threshold < 0 or score is None else functools.partial(
                best_author, page.texts, page.next_texts, score, threshold)
            predicted = chosen_author(page.rules, page.source, model, page.organization)
            right.setdefault(page.corpus, []).append(
                gold_rules.author_matches(predicted, page.gold) if page.gold else predicted is None)
        table[threshold] = {corpus: statistics.mean(values) for corpus, values in right.items()}
    return table


def _site(meta: dict[str, str], fallback: str) -> str:
    return meta.get("site") or urllib.parse.urlparse(meta.get("url") or "").netloc or fallback


def train(data: Path, labels_folder: Path, out: Path, scorer: NodeMethod | None = None) -> int:
    """Cross-validate, print the table, fit on every page and write ``out``; 1 without pages.
    ``scorer``: the default whose articles the examples are (the shipped one when None)."""
    pages = examples(data, labels_folder, scorer if scorer is not None else get_method("default"))
    if not pages:
        print(f"no train pages with author gold in {data}", file=sys.stderr)
        return 1
    table = cross_validate(pages)
    corpora = list(table[-1.0])
    print("| rule | " + " | ".join(corpora) + " | mean |")
    print("|---|" + "---|" * (len(corpora) + 1))
    for threshold, figures in table.items():
        name = "rules alone" if threshold < 0 else f"rules, then model >= {threshold}"
        print(f"| {name} | " + " | ".join(f"{figures[c]:.3f}" for c in corpora)
              + f" | {statistics.mean(figures.values()):.3f} |")
    best = max(THRESHOLDS, key=lambda t: (statistics.mean(table[t].values()), t))
    rows = np.vstack([page.rows for page in pages if len(page.rows)])
    labels = np.concatenate([page.labels for page in pages])
    path = fit_line_model(rows, labels, threshold=best).save(out, overwrite=True)
    print(f"threshold {best}: {len(pages)} pages, {len(rows)} lines, {int(labels.sum())} bylines -> {path}")
    LineModel.load(path)   # what was written reads back
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--out", type=Path, default=REPO / "models" / "bylines.npz")
    args = parser.parse_args()
    return train(args.data, args.labels, args.out)


if __name__ == "__main__":
    sys.exit(main())
