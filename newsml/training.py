"""From labeled pages to what node methods learn from: parsed pages and per-node labels."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from .align import MIN_SHARE, align_labels
from .corpus import LabeledPage
from .errors import NewsmlError
from .parse import Document, parse


def labeled_documents(pages: Iterable[LabeledPage], min_share: float = MIN_SHARE,
                      on_page: Callable[[], None] | None = None,
                      ) -> tuple[list[Document], list[np.ndarray], list[str]]:
    """Parse each page and label its text nodes from the gold (see :mod:`newsml.align`).

    Pages that cannot be parsed are skipped and named in the third list.
    """
    docs, labels, skipped = [], [], []
    for page in pages:
        try:
            doc = parse(page.html)
        except NewsmlError:
            skipped.append(page.id)
        else:
            docs.append(doc)
            labels.append(align_labels(doc.nodes, page.gold, min_share))
        if on_page is not None:
            on_page()
    return docs, labels, skipped
