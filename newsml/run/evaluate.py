"""Run a method over labeled pages and measure it (the numbers ``newsml evaluate`` prints)."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.progress import ProgressHook, hook
from ..core.text import tokens
from ..errors import NewsmlError
from ..extract import extract
from ..input.corpus import LabeledPage
from ..measure.scoring import Score, macro, outcome, score
from ..methods import NodeMethod


@dataclass
class PageResult:
    """One page's outcome: its score, the time taken, or the error it raised."""

    id: str
    score: Score
    ms: float
    error: str | None = None


@dataclass
class CorpusReport:
    """Macro scores, timing and the ECON paper's page outcomes over one corpus."""

    corpus: str
    method: str
    split: str
    pages: list[PageResult] = field(default_factory=list)
    #: Pages not scored, with why: their gold text holds no token (nothing to score against).
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        """The json record of ``newsml evaluate --format json``."""
        mean = macro(p.score for p in self.pages)
        outcomes = Counter(outcome(p.score) for p in self.pages)
        times = [p.ms for p in self.pages if p.error is None]
        return {
            "corpus": self.corpus,
            "method": self.method,
            "split": self.split,
            "pages": len(self.pages),
            "precision": round(mean.precision, 4),
            "recall": round(mean.recall, 4),
            "f1": round(mean.f1, 4),
            "ms_per_page": round(statistics.median(times), 2) if times else None,
            "correct": outcomes["correct"],
            "wrong": outcomes["wrong"],
            "missed": outcomes["missed"],
            "failures": sum(1 for p in self.pages if p.error is not None),
            "skipped": len(self.skipped),
        }


def evaluate_pages(pages: Iterable[LabeledPage], scorer: NodeMethod, corpus: str, split: str,
                   progress: ProgressHook | None = None) -> CorpusReport:
    """Extract every page with ``scorer`` and score it against its gold.

    Time counts parsing and extraction (what a user waits for), not reading the file.
    A page whose extraction fails (bad input, or a bug) counts as an empty extraction
    and is reported with its error; it never stops the corpus. A page whose gold holds no
    token is not scored (it would count as F1 0 whatever the method does) and is listed in
    ``skipped``, as training skips it.
    """
    progress = hook(progress)
    report = CorpusReport(corpus=corpus, method=scorer.name, split=split)
    for page in pages:
        if not tokens(page.gold):
            report.skipped.append((page.id, "its gold text is empty: not scored"))
            progress.advance()
            continue
        html = page.html
        start = time.perf_counter()
        try:
            text = extract(html, method=scorer).text
            error = None
        except NewsmlError as exc:
            text, error = "", str(exc)
        except Exception as exc:  # a bug on one page must not hide the other pages' results
            text, error = "", f"{type(exc).__name__}: {exc}"
        elapsed = (time.perf_counter() - start) * 1000
        report.pages.append(PageResult(page.id, score(text, page.gold), elapsed, error))
        progress.advance()
    return report

