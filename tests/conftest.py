"""Shared fixtures: the repository's labeled/ pages and the shared corpora beside the repo."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
LABELED = REPO / "labeled"
#: Real public corpora live beside the repository, never inside it.
SHARED_DATA = Path(os.environ.get("NEWSML_SHARED_DATA", REPO.parent / "shared" / "data"))


def shared_corpus(name: str) -> Path:
    """Path of a shared corpus, or skip the test with the reason when it is absent."""
    folder = SHARED_DATA / name
    if not folder.is_dir():
        pytest.skip(f"shared corpus {name!r} not found at {folder} (set NEWSML_SHARED_DATA)")
    return folder


def parsed_with_labels(pages) -> tuple[list, list]:
    """Parsed pages and their node labels, for labeled pages that all parse."""
    from newsml.training import labeled_pages

    kept, skipped = labeled_pages(pages)
    assert not skipped, skipped
    return [page for _, page, _ in kept], [labels for _, _, labels in kept]
