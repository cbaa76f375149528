"""The ``newsml`` command: predict, evaluate, train, label, methods."""

from __future__ import annotations

import json
import traceback
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from .._version import __version__
from ..errors import ConfigurationError, InvalidPageError, NewsmlError, OutputError, TrainingWarning

if TYPE_CHECKING:
    from ..core.params import Parametrized
    from ..methods import NodeMethod

# Only light modules are imported here: `newsml --version` and `--help` must not load
# numpy or scikit-learn. Each command imports what it needs.

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    help="Extract news articles (title and body text) from web pages.",
)


class OutputFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    html = "html"
    json = "json"
    jsonl = "jsonl"


class TableFormat(str, Enum):
    table = "table"
    json = "json"      # a JSON object, or an array of them
    jsonl = "jsonl"    # one JSON object a line


class LabelFormat(str, Enum):
    text = "text"
    html = "html"


class Split(str, Enum):
    train = "train"
    test = "test"
    all = "all"


MethodOption = Annotated[
    str, typer.Option("--method", "-m", help="Method name (see `newsml methods`).")]
ChoiceOption = Annotated[str | None, typer.Option(
    "--method", "-m", help="Method name (see `newsml methods`) [default: default].", show_default=False)]
DebugOption = Annotated[bool, typer.Option("--debug", help="Show Python tracebacks on errors.")]
ModelOption = Annotated[
    Path | None, typer.Option("--model", help="A model file from `newsml train` (trusted sources only).")]


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"newsml: error: {message}", err=True)
    raise typer.Exit(code)


def _one_method(method: str | None, model: Path | None) -> None:
    if method is not None and model is not None:
        _fail("--method and --model both given: a model file holds its own method; give one of them")
    if method is not None and method.strip().lower() == "adapted":   # listed by `newsml methods`
        from ..methods.base import ADAPTED_HINT

        _fail(ADAPTED_HINT)


def _scorer(method: str | None, model: Path | None = None) -> NodeMethod:
    from ..learning.persistence import get_method, load_model

    _one_method(method, model)
    try:
        if model is not None:
            return load_model(model)[0]
        return get_method(method or "default")
    except NewsmlError as exc:
        _fail(str(exc))


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"newsml {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_show_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Extract news articles (title and body text) from web pages."""


@app.command()
def predict(
    pages: Annotated[list[str] | None, typer.Argument(
        metavar="[PAGE]...",
        help="HTML files, folders (searched for *.html, *.htm, *.html.gz) and WARC files; "
             "'-' reads standard input.", show_default=False)] = None,
    method: ChoiceOption = None,
    model: ModelOption = None,
    output_format: Annotated[OutputFormat | None, typer.Option(
        "--format", "-f", help="Output format: text (title and body), markdown or html (the article as a "
                               "document), json or jsonl (records of every field) [default: by the -o "
                               "file's name: .jsonl, .json, .md, .html; else text].",
        show_default=False)] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE, not standard output ('-' or "
                                                        "/dev/stdout: standard output).")] = None,
    from_file: Annotated[list[str] | None, typer.Option(
        "--from-file", metavar="LIST",
        help="Also read the paths listed in LIST, one a line ('-': standard input); may be given "
             "more than once.")] = None,
    glob: Annotated[str | None, typer.Option(
        "--glob", metavar="PATTERN",
        help="In folders, read the files matching this pattern ('*.warc.gz') instead; names are "
             "compared in lower case.")] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", min=1, help="Worker processes [default: the machine's cores].",
        show_default=False)] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=0, help="Seconds a page may take before it is an error, reading it from a pipe "
                                 "included (0: no limit). Pages are "
                                 "then extracted in worker processes, even with -j 1, so that one stuck "
                                 "in C code is stopped too; 0 with -j 1 extracts in this process.")] = 10.0,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Skip the pages already in the -o JSON-lines file and append the others.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing -o file.")] = False,
    keep_comments: Annotated[bool, typer.Option(
        "--keep-comments", help="Keep the text of comment sections, which the default leaves out.")] = False,
    keep_furniture: Annotated[bool, typer.Option(
        "--keep-furniture", help="Keep share bars, tag lists, ad slots and such small boxes inside the "
                                 "article, slideshows after it and dialogs over the page (consent, "
                                 "cookies, popups), which the default leaves out.")] = False,
    keep_islands: Annotated[bool, typer.Option(
        "--keep-islands", help="Keep runs of text far from the article with no node scored 0.9 or more "
                               "(0.8 inside the article's container): teasers of further articles, a "
                               "copyright notice, which the default leaves out.")] = False,
    links: Annotated[bool, typer.Option(
        "--links", help="Keep the links' addresses in the Markdown and HTML.")] = False,
    images: Annotated[bool, typer.Option(
        "--images", help="Keep the figures' images (their addresses) in the Markdown and HTML.")] = False,
    debug: DebugOption = False,
) -> None:
    """Extract the article of each PAGE.

    text prints the title and the body; markdown and html print the article as a document
    (headings, lists, tables, quotes, code; --links and --images keep links and images);
    json prints one object (an array for several pages); jsonl prints one object per line,
    with the Markdown among the fields. Each record has the page's `path` (and for
    a WARC record its `url` and `record_id`); a page that fails has `"error"` instead of
    the article in json and jsonl, and a line on stderr; the exit code is then 1. The
    records are in input order.
    """
    from ..core.processes import available_cores
    from ..core.progress import progress_bar
    from ..document.structure import DocumentOptions
    from ..input.sources import is_warc
    from . import batch, stops
    from .output import STDIN, STDOUT_NAMES
    from .pool import extraction
    from .records import RecordOptions, ScorerSpec

    _one_method(method, model)
    # -o -: standard output, as '-' reads standard input; and the names of standard output,
    # which is a pipe or a terminal more often than a file to replace with a temporary one
    if output is not None and (str(output) == STDIN or str(output) in STDOUT_NAMES):
        output = None
    fmt = batch.output_format(output_format.value if output_format else None, output)
    try:
        paths = batch.collect_paths(pages or [], from_file, glob)
        read = [*(from_file or ()), *([model] if model is not None else [])]   # never written over
        destination, done = batch.open_output(output, paths, fmt, resume=resume, force=force, others=read)
    except NewsmlError as exc:
        _fail(str(exc))
    # --keep-comments and the others set the default's parameter of that name to "keep"
    keep = tuple(switch for switch, asked in (("comments", keep_comments), ("furniture", keep_furniture),
                                              ("islands", keep_islands)) if asked)
    spec = ScorerSpec(method or "default", str(model) if model is not None else None, keep)
    if keep:
        try:   # a method that keeps them anyway is an error before any page is read
            spec.load()
        except NewsmlError as exc:
            _fail(str(exc))
    # looked at once (batch.run is told); a pipe waits for its bytes --timeout at most
    warc = {path for path in paths if is_warc(path, timeout=timeout or None)}
    jobs = jobs or available_cores()
    if not warc:
        jobs = min(jobs, len(paths))
    writer = batch.RecordWriter(destination, fmt, single=len(paths) == 1 and not warc)
    with destination, stops.terminate_as_interrupt():
        try:
            options = RecordOptions(DocumentOptions(links=links, images=images, html=fmt == "html",
                                                    text_only=fmt == "text"),
                                    spec.asked)
            with extraction(spec, jobs, timeout or None, debug, options) as extract, \
                    progress_bar() as progress:
                outcome = batch.run(paths, destination, writer, extract, done,
                                    report=lambda line: typer.echo(line, err=True),
                                    progress=progress, total=None if warc else len(paths), warc=warc,
                                    timeout=timeout or None)
        except OutputError as exc:
            _fail(str(exc), code=1)
        except NewsmlError as exc:  # the method could not be loaded
            if debug:
                traceback.print_exc()
            _fail(str(exc))
        except KeyboardInterrupt as exc:  # before the first page: nothing to keep
            outcome = batch.Outcome(interrupted=True, terminated=isinstance(exc, stops.Terminated))
    if outcome.interrupted:
        where = f"; {output} holds them" if output is not None and outcome.written else ""
        hint = " (--resume continues it)" if where and fmt == "jsonl" else ""
        how = "terminated (SIGTERM)" if outcome.terminated else "interrupted"
        cut = " and one cut short by a second stop" if outcome.cut_short else ""
        typer.echo(f"newsml: {how} after {outcome.written} pages{cut}{where}{hint}", err=True)
        raise typer.Exit(143 if outcome.terminated else 130)
    if outcome.failures:
        raise typer.Exit(1)


@app.command()
def evaluate(
    corpora: Annotated[list[Path], typer.Argument(
        metavar="FOLDER...", help="Labeled folders (<id>.html + <id>.txt gold).")],
    method: ChoiceOption = None,
    model: ModelOption = None,
    split: Annotated[
        Split, typer.Option("--split", help="Pages to score, by the split in their json.")] = Split.all,
    output_format: Annotated[
        TableFormat, typer.Option("--format", "-f", help="Output format: a table, JSON (one object, an "
                                                        "array for several folders), or JSON lines.")
    ] = TableFormat.table,
    debug: DebugOption = False,
) -> None:
    """Score a method on labeled corpora: macro precision, recall, F1, ms/page, page outcomes.

    Outcomes follow the ECON paper: correct (P and R >= 0.95), wrong (R >= 0.95 but
    P < 0.95: noise included), missed (R < 0.95).
    """
    from ..core.progress import progress_bar
    from ..input.corpus import load_corpus, missing_gold
    from .evaluate import evaluate_pages
    from .records import describe
    from .report import evaluation_table

    scorer = _scorer(method, model)
    try:
        loaded = [(folder, load_corpus(folder, split=split.value)) for folder in corpora]
    except NewsmlError as exc:
        _fail(str(exc))
    rows = []
    total = sum(len(pages) for _, pages in loaded)
    if not total:       # a table of zeros would read as a score
        missing = [why for folder in corpora if (why := missing_gold(folder))]
        _fail("; ".join(missing) if missing else
              f"no labeled pages for split {split.value!r} in {', '.join(map(str, corpora))}")
    with progress_bar() as progress:
        progress.start("evaluating", total)
        for folder, pages in loaded:
            if not pages:
                typer.echo(f"newsml: warning: {folder}: no labeled pages for split {split.value!r}", err=True)
                continue
            try:
                report = evaluate_pages(pages, scorer, corpus=folder.name, split=split.value,
                                        progress=progress)
            except Exception as exc:
                if debug:
                    traceback.print_exc()
                _fail(f"{folder}: {describe(exc)}", code=1)
            for page_id, why in report.skipped:
                typer.echo(f"newsml: warning: {folder.name}/{page_id}: {why}", err=True)
            if report.pages:          # (no row of zeros for a folder of empty golds)
                rows.append(report.summary())
            for page in report.pages:
                if page.error:
                    typer.echo(f"newsml: warning: {folder.name}/{page.id}: {page.error}", err=True)
    if not rows:
        _fail(f"no page to score: every gold text in {', '.join(map(str, corpora))} is empty")
    if output_format is TableFormat.json:      # as predict: one folder, one object; else an array
        typer.echo(json.dumps(rows[0] if len(corpora) == 1 else rows, ensure_ascii=False, indent=1))
    elif output_format is TableFormat.jsonl:
        for row in rows:
            typer.echo(json.dumps(row, ensure_ascii=False))
    else:
        typer.echo(evaluation_table(rows))


@app.command()
def train(
    corpora: Annotated[list[Path], typer.Argument(
        metavar="FOLDER...", help="Labeled folders (<id>.html + <id>.txt gold).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Model file to write.")],
    method: MethodOption = "default",
    split: Annotated[
        Split, typer.Option("--split", help="Pages to train on, by the split in their json.")] = Split.train,
    cv_folds: Annotated[int | None, typer.Option(
        "--cv-folds", help="Folds of the reported cross-validated F1 (0: skip) [default: 5]. Refused "
                           "with --base, which reports a leave-one-page-out F1 instead.",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing model file.")] = False,
    base: Annotated[str | None, typer.Option(
        "--base", help="Adapt this model to the pages instead of training from scratch: a model "
                       "file (any existing file), else a method name such as `default`. A few "
                       "labeled pages of one site are enough.")] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", min=1, help="Processes fitting the cross-validation's folds, and the "
                                    "model on every page, side by side [default: the machine's "
                                    "cores].", show_default=False)] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", "-p", metavar="KEY=VALUE",
        help="A parameter of the method (or, with --base, of the adaptation), repeatable. "
             "VALUE is read as JSON when it is JSON (true, 0.5, [\"a\", \"b\"]), else as text: "
             "--param comments=keep --param mates=true.")] = None,
    debug: DebugOption = False,
) -> None:
    """Train a method on labeled pages and write a model file.

    Prints the training-set size and the F1 of pages extracted by models trained on
    the other folds (with `--base`: of each page scored by the votes of the others).
    Pages whose json names no split, or that have no json, are training pages.
    """
    from .. import methods as registry
    from ..core.processes import available_cores
    from ..core.progress import progress_bar
    from ..input.corpus import missing_gold
    from ..learning.adaptation import AdaptedMethod
    from ..learning.persistence import save_model
    from ..learning.training import train_method
    from .output import check_output

    # the labeled pages, their golds and the base model are inputs: never written over
    inputs = [path for folder in corpora if folder.is_dir() for path in folder.iterdir()]
    if base is not None and Path(base).is_file():
        inputs.append(Path(base))
    try:
        check_output(output, inputs, what="training files or the base model")
    except OutputError as exc:
        _fail(str(exc))
    if output.exists() and not output.is_file():
        _fail(f"cannot write {output}: not a regular file")
    if output.exists() and not force:
        _fail(f"{output} exists; use --force to overwrite it")
    missing = [why for folder in corpora if (why := missing_gold(folder))]
    if missing:             # (as evaluate: a folder without gold is a usage error, exit code 2)
        _fail("; ".join(missing))
    if base is not None and method != "default":
        _fail("give --base (adapt a trained model) or --method (train one from scratch), not both")
    if base is not None and cv_folds is not None:
        _fail("--cv-folds does not apply with --base: adaptation reports its own leave-one-page-out F1")
    folds = 5 if cv_folds is None else cv_folds
    if folds == 1 or folds < 0:
        _fail(f"--cv-folds must be 0 (no cross-validation) or 2 or more, not {folds}")
    try:
        name = registry.resolve_name(method)
        params = _method_params(param or [], AdaptedMethod, given=("base",)) if base is not None else \
            _method_params(param or [], registry.method_class(name))
    except NewsmlError as exc:
        _fail(str(exc))
    try:
        with progress_bar() as progress, _warnings_on_stderr():
            fitted, metadata = train_method(name, corpora, split=split.value, params=params, cv_folds=folds,
                                            progress=progress, base=base, jobs=jobs or available_cores())
        save_model(fitted, output, overwrite=force, **metadata)
    except (NewsmlError, OSError) as exc:
        if debug:
            traceback.print_exc()
        _fail(str(exc) if isinstance(exc, NewsmlError) else f"cannot write {output}: {exc}", code=1)
    info = metadata["training"]
    sizes = ", ".join(f"{n} from {corpus}" for corpus, n in info["corpora"].items())
    if isinstance(fitted, AdaptedMethod):
        typer.echo(f"{fitted.summary_line()}; pages: {sizes}; {info['nodes']} text nodes")
    else:
        typer.echo(f"trained {name} on {info['pages']} pages ({sizes}), {info['nodes']} text nodes")
    if metadata["cv_f1"] is not None and not isinstance(fitted, AdaptedMethod):
        typer.echo(f"cross-validated F1 ({folds} folds over pages): {metadata['cv_f1']:.4f}")
    typer.echo(f"wrote {output}")


def _method_params(texts: list[str], cls: type[Parametrized],
                   given: tuple[str, ...] = ()) -> dict[str, object]:
    """``KEY=VALUE`` texts as keyword arguments of ``cls``: each VALUE read as JSON when it is
    JSON (a list as a tuple, as the methods take names), else as the text itself. A key
    that is not a parameter of ``cls`` (or is one of those an option of its own ``given``),
    or is given twice, is a ConfigurationError."""
    known = [key for key in cls._get_param_names() if key not in given]
    params: dict[str, object] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigurationError(f"--param takes KEY=VALUE, not {text!r}")
        if key not in known:
            what = getattr(cls, "name", cls.__name__)
            raise ConfigurationError(f"--param {key}: not a parameter of {what!r}; "
                                     f"its parameters: {', '.join(known)}")
        if key in params:
            raise ConfigurationError(f"--param {key} is given twice")
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        params[key] = tuple(parsed) if isinstance(parsed, list) else parsed
    return params


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
    page: Annotated[Path, typer.Argument(metavar="PAGE", help="A saved HTML page to label.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Labeled folder to write to (default: the page's folder).")] = None,
    output_format: Annotated[LabelFormat, typer.Option(
        "--format", "-f", help="html also writes <id>.review.html: kept text highlighted, "
                               "dropped text in grey.")] = LabelFormat.text,
    page_id: Annotated[str | None, typer.Option("--id", help="Page id (default: the file name).")] = None,
    method: ChoiceOption = None,
    model: Annotated[Path | None, typer.Option(
        "--model", help="Draft with this model file, such as a site model from `newsml train --base` "
                        "(trusted sources only).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace existing files of that id.")] = False,
) -> None:
    """Draft a labeled page: <id>.html, <id>.txt (the current extraction, one paragraph a
    line, for you to correct) and <id>.json. Prints what to check."""
    from .labeling import draft_label

    scorer = _scorer(method, model)
    try:
        draft = draft_label(page, output, scorer, id=page_id,
                            review=output_format is LabelFormat.html, force=force)
    except InvalidPageError as exc:     # the page failed, as a page of predict does
        _fail(str(exc), code=1)
    except NewsmlError as exc:          # what was asked cannot be done: a usage error
        _fail(str(exc))
    for path in draft.written:
        typer.echo(f"wrote {path}")
    for line in draft.checks():
        typer.echo(line)


@app.command("methods")
def list_methods() -> None:
    """List the available extraction methods."""
    from .. import methods as registry
    from ..learning import adaptation  # noqa: F401  (registers `adapted`, which lives outside newsml.methods)

    for name, summary in registry.describe().items():
        typer.echo(f"{name:<16} {summary}")
