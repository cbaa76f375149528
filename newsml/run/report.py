"""Markdown tables for evaluation summaries (the CLI's ``evaluate`` output and the scripts)."""

from __future__ import annotations

from collections.abc import Sequence

#: Columns of ``newsml evaluate``'s table, in order.
EVALUATION_COLUMNS = ("corpus", "method", "split", "pages", "precision", "recall", "f1", "ms_per_page",
                      "correct", "wrong", "missed")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table: one header row, then a row per sequence of cells."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)
    return "\n".join(lines)


def evaluation_table(summaries: Sequence[dict[str, object]]) -> str:
    """A Markdown table of evaluation summaries (:meth:`newsml.run.evaluate.CorpusReport.summary`)."""
    rows = []
    for summary in summaries:
        cells: list[object] = []
        for key in EVALUATION_COLUMNS:
            value = summary.get(key)
            if value is None:
                cells.append("-")
            elif isinstance(value, float) and key != "ms_per_page":
                cells.append(f"{value:.3f}")
            else:
                cells.append(value)
        rows.append(cells)
    return markdown_table(EVALUATION_COLUMNS, rows)
