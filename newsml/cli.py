"""The ``newsml`` command: predict, evaluate, train, label, methods."""

from __future__ import annotations

import json
import sys
import traceback
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from . import methods as registry
from .adaptation import AdaptedMethod
from .corpus import load_corpus
from .errors import NewsmlError, OutputError, TrainingWarning
from .evaluate import evaluate_pages
from .extract import extract_page
from .labeling import draft_label
from .methods import NodeMethod
from .output import Output, check_output
from .page import load_page
from .parse import read_page
from .persistence import get_method, load_model, save_model
from .progress import progress_bar
from .report import evaluation_table
from .training import train_method

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    help="Extract news articles (title and body text) from web pages.",
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


class TableFormat(str, Enum):
    table = "table"
    json = "json"


class LabelFormat(str, Enum):
    text = "text"
    html = "html"


class Split(str, Enum):
    train = "train"
    test = "test"
    all = "all"


MethodOption = Annotated[
    str, typer.Option("--method", "-m", help="Method name (see `newsml methods`).")]
DebugOption = Annotated[bool, typer.Option("--debug", help="Show Python tracebacks on errors.")]
ModelOption = Annotated[
    Path | None, typer.Option("--model", help="A model file from `newsml train` (trusted sources only).")]


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"newsml: error: {message}", err=True)
    raise typer.Exit(code)


def _scorer(method: str, model: Path | None = None) -> NodeMethod:
    try:
        if model is not None:
            return load_model(model)[0]
        return get_method(method)
    except NewsmlError as exc:
        _fail(str(exc))


@app.command()
def predict(
    pages: Annotated[list[str], typer.Argument(help="HTML files to extract; '-' reads standard input.")],
    method: MethodOption = "default",
    model: ModelOption = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="Output format.")] = OutputFormat.text,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE, not standard output.")] = None,
    debug: DebugOption = False,
) -> None:
    """Extract the article of each PAGE.

    text prints the title and the body; json prints one object (an array for several
    pages); jsonl prints one object per line. A page that fails is reported on stderr
    and the others still run; the exit code is then 1.
    """
    scorer = _scorer(method, model)
    try:
        destination = Output(output, inputs=pages)
    except OutputError as exc:
        _fail(str(exc))
    records: list[dict[str, object]] = []
    failures = 0
    with destination:
        try:
            with progress_bar() as progress:
                progress.start("extracting", len(pages))
                for name in pages:
                    try:
                        data = sys.stdin.buffer.read() if name == "-" else read_page(Path(name))
                        article = extract_page(load_page(data), scorer)
                    except Exception as exc:  # one bad page must not stop the others
                        failures += 1
                        if debug:
                            traceback.print_exc()
                        typer.echo(f"newsml: error: {name}: {_describe(exc)}", err=True)
                        progress.advance()
                        continue
                    record = {"path": name, **article.to_dict()}
                    if output_format is OutputFormat.json:
                        records.append(record)
                    else:
                        _write_record(destination, record, output_format, several=len(pages) > 1)
                    progress.advance()
            if output_format is OutputFormat.json and records:
                payload = records[0] if len(pages) == 1 else records
                destination.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
            if failures < len(pages):  # when every page failed, an existing output stays as it was
                destination.commit()
        except OutputError as exc:
            _fail(str(exc), code=1)
    if failures:
        raise typer.Exit(1)


def _describe(exc: Exception) -> str:
    if isinstance(exc, (NewsmlError, OSError)):
        return str(exc) if not isinstance(exc, OSError) else (exc.strerror or str(exc))
    return f"{type(exc).__name__}: {exc} (run with --debug for details)"


def _write_record(stream: Output, record: dict[str, object], fmt: OutputFormat, several: bool) -> None:
    if fmt is OutputFormat.jsonl:
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        return
    if several:
        stream.write(f"==> {record['path']} <==\n")
    if record["title"]:
        stream.write(f"{record['title']}\n\n")
    stream.write(f"{record['text']}\n")
    if several:
        stream.write("\n")


@app.command()
def evaluate(
    corpora: Annotated[list[Path], typer.Argument(help="Labeled folders (<id>.html + <id>.txt gold).")],
    method: MethodOption = "default",
    model: ModelOption = None,
    split: Annotated[
        Split, typer.Option("--split", help="Pages to score, by the split in their json.")] = Split.all,
    output_format: Annotated[
        TableFormat, typer.Option("--format", "-f", help="Output format.")] = TableFormat.table,
    debug: DebugOption = False,
) -> None:
    """Score a method on labeled corpora: macro precision, recall, F1, ms/page, page outcomes.

    Outcomes follow the ECON paper: correct (P and R >= 0.95), wrong (R >= 0.95 but
    P < 0.95: noise included), missed (R < 0.95).
    """
    scorer = _scorer(method, model)
    try:
        loaded = [(folder, load_corpus(folder, split=split.value)) for folder in corpora]
    except NewsmlError as exc:
        _fail(str(exc))
    rows = []
    total = sum(len(pages) for _, pages in loaded)
    with progress_bar() as progress:
        progress.start("evaluating", total)
        for folder, pages in loaded:
            if not pages:
                typer.echo(f"newsml: warning: {folder}: no labeled pages for split {split.value!r}", err=True)
            try:
                report = evaluate_pages(pages, scorer, corpus=folder.name, split=split.value,
                                        progress=progress)
            except Exception as exc:
                if debug:
                    traceback.print_exc()
                _fail(f"{folder}: {_describe(exc)}", code=1)
            rows.append(report.summary())
            for page in report.pages:
                if page.error:
                    typer.echo(f"newsml: warning: {folder.name}/{page.id}: {page.error}", err=True)
    if output_format is TableFormat.json:
        for row in rows:
            typer.echo(json.dumps(row, ensure_ascii=False))
    else:
        typer.echo(evaluation_table(rows))


@app.command()
def train(
    corpora: Annotated[list[Path], typer.Argument(help="Labeled folders (<id>.html + <id>.txt gold).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Model file to write.")],
    method: MethodOption = "default",
    split: Annotated[
        Split, typer.Option("--split", help="Pages to train on, by the split in their json.")] = Split.train,
    cv_folds: Annotated[
        int, typer.Option("--cv-folds", help="Folds of the reported cross-validated F1 (0: skip).")] = 5,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing model file.")] = False,
    base: Annotated[str | None, typer.Option(
        "--base", help="Adapt this model (`default`, or a model file) to the pages instead of "
                       "training from scratch: a few labeled pages of one site are enough.")] = None,
    debug: DebugOption = False,
) -> None:
    """Train a method on labeled pages and write a model file.

    Prints the training-set size and the F1 of pages extracted by models trained on
    the other folds (with `--base`: of each page scored by the votes of the others).
    Pages whose json names no split, or that have no json, are training pages.
    """
    try:
        check_output(output)
    except OutputError as exc:
        _fail(str(exc))
    if output.exists() and not output.is_file():
        _fail(f"cannot write {output}: not a regular file")
    if output.exists() and not force:
        _fail(f"{output} exists; use --force to overwrite it")
    if base is not None and method != "default":
        _fail("give --base (adapt a trained model) or --method (train one from scratch), not both")
    try:
        name = registry.resolve_name(method)
        with progress_bar() as progress, _warnings_on_stderr():
            fitted, metadata = train_method(name, corpora, split=split.value, cv_folds=cv_folds,
                                            progress=progress, base=base)
        save_model(fitted, output, **metadata)
    except (NewsmlError, OSError) as exc:
        if debug:
            traceback.print_exc()
        _fail(str(exc) if isinstance(exc, NewsmlError) else f"cannot write {output}: {exc}", code=1)
    info = metadata["training"]
    sizes = ", ".join(f"{corpus} {n}" for corpus, n in info["corpora"].items())
    if isinstance(fitted, AdaptedMethod):
        typer.echo(f"{fitted.summary_line()} ({sizes}), {info['nodes']} text nodes")
    else:
        typer.echo(f"trained {name} on {info['pages']} pages ({sizes}), {info['nodes']} text nodes")
    if metadata["cv_f1"] is not None and not isinstance(fitted, AdaptedMethod):
        typer.echo(f"cross-validated F1 ({cv_folds} folds over pages): {metadata['cv_f1']:.4f}")
    typer.echo(f"wrote {output}")


@contextmanager
def _warnings_on_stderr() -> Iterator[None]:
    """Print the warnings raised inside (skipped training pages...) as one line each on stderr,
    when the block ends, failed or not."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TrainingWarning)
        try:
            yield
        finally:
            for warning in caught:
                typer.echo(f"newsml: warning: {warning.message}", err=True)


@app.command()
def label(
    page: Annotated[Path, typer.Argument(help="A saved HTML page to label.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Labeled folder to write to (default: the page's folder).")] = None,
    output_format: Annotated[LabelFormat, typer.Option(
        "--format", "-f", help="html also writes <id>.review.html: kept text highlighted, "
                               "dropped text in grey.")] = LabelFormat.text,
    page_id: Annotated[str | None, typer.Option("--id", help="Page id (default: the file name).")] = None,
    method: MethodOption = "default",
    force: Annotated[bool, typer.Option("--force", help="Replace existing files of that id.")] = False,
) -> None:
    """Draft a labeled page: <id>.html, <id>.txt (the current extraction, one paragraph a
    line, for you to correct) and <id>.json. Prints what to check."""
    try:
        draft = draft_label(page, output, _scorer(method), id=page_id,
                            review=output_format is LabelFormat.html, force=force)
    except NewsmlError as exc:
        _fail(str(exc), code=1)
    for path in draft.written:
        typer.echo(f"wrote {path}")
    for line in draft.checks():
        typer.echo(line)


@app.command("methods")
def list_methods() -> None:
    """List the available extraction methods."""
    for name, summary in registry.describe().items():
        typer.echo(f"{name:<16} {summary}")


if __name__ == "__main__":  # pragma: no cover
    app()
