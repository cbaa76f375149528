"""Labeling: turn a saved page into a labeled page whose gold a person checks and corrects.

:func:`draft_label` writes, into a labeled folder (see ``load_corpus``):

- ``<id>.html``: the page's bytes as they were (not re-encoded: a GBK page stays GBK);
- ``<id>.txt``: a draft gold, the current extraction, one paragraph a line, for a person
  to correct in an editor (delete what is not the article, add what is missing);
- ``<id>.json``: what is known of the page (source file, URL, title, language, encoding),
  without ``split``, so training takes it;
- with ``review``, ``<id>.review.html``: every text node of the page in order, the kept
  ones highlighted, the dropped ones in grey, so a person sees at a glance what the draft
  kept and dropped. It has no ``.txt`` beside it, so it is no page of the corpus.

Nothing is overwritten unless asked: an existing file of the same name stops the whole
draft before anything is written (an identical ``<id>.html`` is left as it is).
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import numpy as np

from .._version import __version__
from ..article import extract_scored
from ..dom.page import Page, load_page
from ..errors import InvalidPageError, NewsmlError, OutputError
from ..input.read import maybe_gunzip, read_page
from ..input.sources import displayable
from ..learning.persistence import get_method
from ..methods import NodeMethod
from .output import Output

#: Paragraphs listed as worth a look: kept ones with the lowest scores, dropped ones with
#: the highest.
BORDERLINE = 3

_UNSAFE = re.compile(r"[^\w.-]+")
#: Longest file name most file systems allow, in bytes: a page id's files must fit it.
MAX_NAME_BYTES = 255


def page_id(path: str | Path) -> str:
    """A labeled page's id from its file name: the stem, other characters than letters,
    digits, ``.``, ``-`` and ``_`` replaced by ``-``."""
    stem = Path(path).name
    for suffix in (".gz", ".html", ".htm", ".xhtml"):
        if stem.lower().endswith(suffix):       # PAGE.HTML as page.html
            stem = stem[:-len(suffix)]
    return _UNSAFE.sub("-", stem).strip("-.") or "page"


@dataclass
class Draft:
    """What :func:`draft_label` wrote and what a person should check."""

    id: str
    written: list[Path]
    paragraphs: list[str]
    unsure_kept: list[tuple[float, str]] = field(default_factory=list)
    unsure_dropped: list[tuple[float, str]] = field(default_factory=list)

    def checks(self) -> list[str]:
        """Lines telling a person what to check in the draft gold."""
        gold = next(path for path in self.written if path.suffix == ".txt")
        lines = [f"{gold}: {len(self.paragraphs)} paragraphs drafted by newsml. Open it in an editor and "
                 "make it the article exactly:",
                 "  - delete lines that are not the article (menus, bylines, captions, 'read more',"
                 " comments);",
                 "  - add paragraphs it missed, copied from the page, one paragraph a line;",
                 "  - keep or drop the headline, the same way on every page of the site."]
        if self.unsure_kept:
            lines.append("Kept, but the model was least sure of:")
            lines += [f"  {score:.2f}  {_short(text)}" for score, text in self.unsure_kept]
        if self.unsure_dropped:
            lines.append("Dropped, but the model was least sure of:")
            lines += [f"  {score:.2f}  {_short(text)}" for score, text in self.unsure_dropped]
        return lines


def draft_label(source: str | Path, folder: str | Path | None = None, method: NodeMethod | None = None,
                id: str | None = None, review: bool = False, force: bool = False) -> Draft:
    """Write ``<id>.html``, a draft ``<id>.txt`` and ``<id>.json`` for the page at ``source``.

    ``folder`` defaults to the page's own folder; ``method`` to the shipped default.
    Raises OutputError, before writing anything, when a file would be overwritten
    (unless ``force``), and InvalidPageError when ``source`` is not an HTML page.
    """
    source = Path(source)
    if source.is_dir():
        raise NewsmlError(f"{source} is a folder: label takes one page (label each page of it in turn)")
    if not source.is_file():
        raise NewsmlError(f"page not found: {source}")
    data = read_page(source)
    try:
        raw = maybe_gunzip(data) if isinstance(data, bytes) else data.encode("utf-8")  # <id>.html as text
        page = load_page(raw)
    except InvalidPageError as exc:
        raise InvalidPageError(f"{displayable(str(source))}: {exc}") from None
    scorer = method if method is not None else get_method("default")
    name = id or page_id(source)
    if _UNSAFE.search(name) or name in (".", ".."):
        raise NewsmlError(f"bad page id {name!r}: use letters, digits, '.', '-' and '_'")
    target = Path(folder) if folder is not None else source.parent
    if target.exists() and not target.is_dir():
        raise OutputError(f"cannot write to {target}: it is a file, not a folder")
    paths = {suffix: target / f"{name}{suffix}" for suffix in (".html", ".txt", ".json")}
    if review:
        paths[".review.html"] = target / f"{name}.review.html"
    longest = max(len(path.name.encode()) for path in paths.values())
    if longest > MAX_NAME_BYTES:
        raise NewsmlError(f"page id too long: its file names would take {longest} bytes, past the "
                          f"{MAX_NAME_BYTES} a file system allows (give a shorter --id)")
    copy_html = not _same_file(source, paths[".html"])
    _refuse_overwrites(paths, raw if copy_html else None, force)

    article, scores, keep = extract_scored(page, scorer)
    try:
        target.mkdir(parents=True, exist_ok=True)     # -o mine/: made when missing
    except OSError as exc:
        raise OutputError(f"cannot create the folder {target}: {exc.strerror or exc}") from None
    written = []
    if copy_html and not (paths[".html"].is_file() and paths[".html"].read_bytes() == raw):
        _write(paths[".html"], raw)
        written.append(paths[".html"])
    _write(paths[".txt"], "".join(f"{paragraph}\n" for paragraph in article.paragraphs))
    written.append(paths[".txt"])
    meta = _meta(name, source, page, scorer)
    _write(paths[".json"], json.dumps(meta, ensure_ascii=False, indent=1) + "\n")
    written.append(paths[".json"])
    if review:
        _write(paths[".review.html"], review_page(page, keep, scores, name))
        written.append(paths[".review.html"])
    order = np.argsort(scores)
    kept = [(float(scores[i]), page.nodes[i].text) for i in order if keep[i] and page.nodes[i].n_tokens]
    dropped = [(float(scores[i]), page.nodes[i].text) for i in order[::-1]
               if not keep[i] and page.nodes[i].n_tokens >= 5]
    return Draft(id=name, written=written, paragraphs=article.paragraphs,
                 unsure_kept=kept[:BORDERLINE], unsure_dropped=dropped[:BORDERLINE])


def review_page(page: Page, keep: np.ndarray, scores: np.ndarray, name: str) -> str:
    """An HTML page listing every text node: kept ones highlighted (class ``kept``), the
    others in grey (class ``dropped``), each with its score."""
    rows = []
    first = int(np.flatnonzero(keep)[0]) if np.any(keep) else -1
    for node in page.nodes:
        kind = "kept" if keep[node.index] else "dropped"
        anchor = ' id="first-kept"' if node.index == first else ""
        rows.append(f'<p class="{kind}"{anchor} title="score {scores[node.index]:.2f}">'
                    f'<span class="score">{scores[node.index]:.2f}</span> {html.escape(node.text)}</p>')
    title = html.escape(page.title or name)
    return f"""<!DOCTYPE html>
<html lang="{html.escape(page.lang)}"><head><meta charset="utf-8">
<title>Review: {title}</title>
<style>
body {{ font: 16px/1.45 sans-serif; max-width: 50em; margin: 2em auto; padding: 0 1em; }}
p {{ margin: 0.25em 0; padding: 0.15em 0.4em; }}
.kept {{ background: #fff1a8; border-left: 4px solid #d9a400; color: #111; }}
.dropped {{ color: #9a9a9a; border-left: 4px solid transparent; }}
.score {{ font: 12px monospace; color: #777; margin-right: 0.5em; }}
.legend span {{ padding: 0.1em 0.4em; }}
</style></head><body>
<h1>{title}</h1>
<p class="legend"><span class="kept">kept: in the draft {html.escape(name)}.txt</span>
<span class="dropped">grey: dropped</span> &mdash; {int(np.sum(keep))} of {len(page.nodes)} text nodes kept
(<a href="#first-kept">first kept</a>); correct the .txt, not this page.</p>
{chr(10).join(rows)}
</body></html>
"""


def _meta(name: str, source: Path, page: Page, scorer: NodeMethod) -> dict[str, object]:
    meta: dict[str, object] = {"id": name, "source": displayable(str(source))}
    url = page.parsed.meta.get("og:url") or _canonical(page)
    if url:
        meta["url"] = url
        host = urlparse(url).hostname
        if host:
            meta["site"] = host.removeprefix("www.")
    meta.update({"title": page.title, "lang": page.lang, "encoding": page.encoding,
                 "gold_method": f"draft by newsml {__version__} ({scorer.name}), corrected by hand",
                 "labeled": dt.date.today().isoformat()})
    return meta


def _canonical(page: Page) -> str:
    for link in page.root.iter("link"):
        if (link.get("rel") or "").strip().lower() == "canonical" and link.get("href"):
            return str(link.get("href")).strip()
    return ""


def _same_file(a: Path, b: Path) -> bool:
    try:
        return b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def _refuse_overwrites(paths: dict[str, Path], html_bytes: bytes | None, force: bool) -> None:
    """Raise OutputError naming the files that exist and would be replaced."""
    if force:
        return
    taken = []
    for suffix, path in paths.items():
        if not path.exists():
            continue
        if suffix == ".html" and (html_bytes is None or (path.is_file() and path.read_bytes() == html_bytes)):
            continue   # the page itself, or the same bytes: nothing is lost
        taken.append(str(path))
    if taken:
        exists = "it exists" if len(taken) == 1 else "they exist"
        raise OutputError(f"not overwriting {', '.join(taken)}: {exists} (nothing was written; "
                          "use --force to replace, or --id for another name)")


def _write(path: Path, data: str | bytes) -> None:
    """Write text (UTF-8) or bytes (as they are) to ``path``, atomically (see :class:`Output`)."""
    with Output(path, binary=isinstance(data, bytes)) as out:
        out.write(data)
        out.commit()


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["Draft", "draft_label", "page_id", "review_page"]
