"""The byline found by the node machinery: a learned classifier of a page's short lines.

The rules of :mod:`newsml.document.metadata` read the byline beside the headline and the
author the page declares. Where they find none, the page may still show its author: an
author box after the article, a name line in the byline's markup far from the headline, a
"Written by" line among the tags. :class:`LineModel` scores each short line around the
article (its place against the headline and the kept nodes, its length, its byline cues,
its markup, whether it holds a date or a declared author's name) with boosted trees
trained on the author gold of the shared corpora, and the best line above the model's
threshold gives the author. Rules first, then the model: chosen by cross-validation on the
train pages grouped by site (``scripts/train_bylines.py``; docs/decisions record the
figures).

The shipped model is ``models/bylines.npz``: a zip of a JSON manifest and one ``.npy``
array per tree array, read as numbers (never with pickle, never past a member's size)
and checked (names, types, the trees' structure) before use, so loading it runs nothing.
"""

from __future__ import annotations

import io
import json
import re
import warnings
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..core.array_zip import member_bytes, read_npy, zip_members
from ..core.shipped import shipped_file
from ..dom.page import Page
from ..errors import ModelError, OutputError
from ..estimators.checks import check_trees
from ..estimators.trees import FrozenTrees
from .bylines import (
    bracketed_author,
    chinese_parts,
    english_byline,
    in_byline_markup_each,
    is_bare_by,
    is_controls,
    is_name_line,
    is_person,
    reads_as_name,
)
from .dates import parse_date

#: What each column of :func:`line_features` measures.
FEATURES = (
    "offset_from_start",        # nodes after the headline (or the first kept node), clipped
    "offset_from_last_kept",    # nodes after the article's last kept node, clipped
    "kept",                     # the body kept this node
    "has_headline",
    "chars", "words",
    "english_byline",           # "By …" reads as a byline
    "by_prefix",                # starts with by, written by, posted by, author
    "name_line",                # a name alone (Lisa Pham)
    "chinese_author",           # 作者/记者/文/ part
    "chinese_source",           # 来源 part
    "after_bare_by",            # the line before is "By" alone
    "byline_markup",            # class, id, itemprop or rel of the byline, three levels up
    "has_date",
    "link_share",               # share of the line's characters inside links
    "declared_author",          # holds a name the page declares as its author
    "bracketed_author",         # （记者 张三）
    "is_link",
    "page_position",            # node index over the page's node count
    "has_han",
    "role_word",                # editor, reporter, writer, contributor, staff
)
#: Lines longer than this are prose, not a byline.
MAX_LINE_CHARS = 160
#: Lines read before the article's start and after its last kept node.
BEFORE_START = 20
AFTER_LAST = 25
#: Kept lines this far inside the article are its body, not a byline.
INSIDE_FROM_START = 15
INSIDE_FROM_END = 5
#: The English words that label a byline line ("By", "Written by", "Author").
_LABEL_WORDS = r"(?:by|written by|posted by|author)\b"
_BY_PREFIX = re.compile(rf"\s*{_LABEL_WORDS}", re.IGNORECASE)
#: (searched in the line in lower case: several times faster than ignoring case)
_ROLE_WORD = re.compile(r"\b(?:editor|reporter|writer|contributor|staff)\b")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_DIGIT = re.compile(r"\d")
_LEADING_LABEL = re.compile(rf"^\s*(?:{_LABEL_WORDS}|作者|记者|記者)\s*[:：]?\s*", re.IGNORECASE)
_NORMAL = re.compile(r"[\W_]+")
_INNER_BY = re.compile(r"\s(?:by|von|par|por)\s", re.IGNORECASE)


def candidate_lines(page: Page, keep: np.ndarray) -> list[int]:
    """Indices of the short lines that may hold the byline: from a little before the
    headline (or the article's first kept node) to a little after its last kept node,
    the body's own lines left out."""
    nodes = page.nodes
    kept = np.flatnonzero(keep)
    start = article_start(page, kept)
    last = int(kept[-1]) if len(kept) else start
    out = []
    for index in range(max(start - BEFORE_START, 0), min(last + AFTER_LAST + 1, len(nodes))):
        text = nodes[index].text
        if len(text) > MAX_LINE_CHARS or not text.strip() or index == page.headline_node:
            continue
        if keep[index] and start + INSIDE_FROM_START < index < last - INSIDE_FROM_END:
            continue
        out.append(index)
    return out


def line_features(page: Page, keep: np.ndarray, candidates: list[int], declared: list[str]) -> np.ndarray:
    """One row of :data:`FEATURES` per candidate line (``declared``: the page's declared
    author names)."""
    nodes = page.nodes
    kept = np.flatnonzero(keep)
    start = article_start(page, kept)
    last = int(kept[-1]) if len(kept) else start
    names = [name for name in (words_only(name) for name in declared) if name]
    marked = in_byline_markup_each(page, candidates)
    rows = []
    for row, index in enumerate(candidates):
        node = nodes[index]
        line = node.text
        parts = chinese_parts(line)
        rows.append((
            min(max(index - start, -30), 60), min(max(index - last, -40), 30), float(keep[index]),
            float(page.headline_node is not None), len(line), len(line.split()),
            english_byline(line) is not None, _BY_PREFIX.match(line) is not None, is_name_line(line),
            "author" in parts, "source" in parts, index > 0 and is_bare_by(nodes[index - 1].text),
            marked[row],
            parse_date(line) is not None,
            node.link_chars / max(node.chars, 1),
            bool(names) and _holds_any(words_only(line), names), bracketed_author(line) is not None,
            node.block.tag == "a",
            index / max(len(nodes), 1), _HAN.search(line) is not None,
            _ROLE_WORD.search(line.lower()) is not None,
        ))
    # (one conversion of all rows: a row written into an array converts its values one by one)
    return np.array(rows, dtype=float).reshape(len(rows), len(FEATURES))


def author_in_line(line: str, next_line: str = "") -> str | None:
    """The author a byline line names (``next_line``: the line after a bare "By"), or None
    when the line reads as no byline."""
    if is_bare_by(line):
        return english_byline("By " + next_line) or chinese_parts("作者：" + next_line).get("author")
    found = english_byline(line) or chinese_parts(line).get("author") or bracketed_author(line)
    if found:
        return found
    if is_name_line(line):
        return line
    labelled = _LEADING_LABEL.match(line) is not None
    line = _LEADING_LABEL.sub("", line).strip()
    if _HAN.search(line):
        return line if is_person(line) and reads_as_name(line) else None
    short = 0 < len(line.split()) <= 6 and len(line) <= 60
    plain = not _DIGIT.search(line) and ":" not in line and not is_controls(line)
    return line if short and plain and (labelled or _reads_as_title(line)) else None


def _reads_as_title(line: str) -> bool:
    """Whether a short line without a label is written as names and titles are: half its
    words or more not in lower case (capitalized, or in a script without case), and no "by"
    inside (``Delivered by FeedBurner``, ``Photo by …`` credit another thing; ``Login or
    register to post comments`` is a sentence)."""
    words = line.split()
    capitalized = sum(not word[:1].islower() for word in words)
    return 2 * capitalized >= len(words) and _INNER_BY.search(line) is None


def _holds_any(line: str, names: list[str]) -> bool:
    """Whether a line holds one of ``names`` (:func:`holds_name`)."""
    return any(holds_name(line, name) for name in names)


def holds_name(line: str, name: str) -> bool:
    """Whether a line holds a name, both as :func:`words_only` gives them: as whole words,
    or anywhere in Chinese (no spaces between its words)."""
    if _HAN.search(name):
        return name in line
    return f" {name} " in f" {line} "


def best_author(texts: list[str], next_texts: list[str], scores: np.ndarray, threshold: float) -> str | None:
    """The author named by the likeliest of the candidate lines (their texts, the texts after
    them and their scores), or None when none reaches ``threshold``."""
    if not len(scores) or scores.max() < threshold:
        return None
    best = int(np.argmax(scores))
    return author_in_line(texts[best], next_texts[best])


@dataclass(frozen=True)
class LineModel:
    """Boosted trees over :data:`FEATURES` and the probability a line needs to be the byline."""

    trees: FrozenTrees
    threshold: float

    def line_scores(self, page: Page, keep: np.ndarray, declared: list[str]) -> tuple[list[int], np.ndarray]:
        """The candidate lines of ``page`` and the probability that each is its byline."""
        candidates = candidate_lines(page, keep)
        if not candidates:
            return candidates, np.zeros(0)
        rows = line_features(page, keep, candidates, declared)
        return candidates, self.trees.predict_proba(rows)[:, 1]

    def author(self, page: Page, keep: np.ndarray, declared: list[str]) -> str | None:
        """The author named by the page's most likely byline line, or None when no line
        reaches the threshold."""
        candidates, scores = self.line_scores(page, keep, declared)
        nodes = page.nodes
        return best_author([nodes[i].text for i in candidates],
                           [nodes[i + 1].text if i + 1 < len(nodes) else "" for i in candidates],
                           scores, self.threshold)

    def save(self, path: str | Path, overwrite: bool = False) -> Path:
        """Write the model as a zip of a JSON manifest and one ``.npy`` array per tree array
        (the same model, the same bytes); an existing file is replaced only with
        ``overwrite=True`` (OutputError otherwise)."""
        path = Path(path)
        if path.exists() and not overwrite:
            raise OutputError(f"{path} exists: pass overwrite=True to replace it")
        manifest = {"format": FORMAT, "format_version": FORMAT_VERSION, "features": list(FEATURES),
                    "threshold": self.threshold, "baseline": self.trees.baseline}
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(zipfile.ZipInfo(MANIFEST, _TIMESTAMP), json.dumps(manifest, sort_keys=True))
            for name in _ARRAYS:
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, np.ascontiguousarray(getattr(self.trees, name)),
                                          allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", _TIMESTAMP)
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, buffer.getvalue())
        return path

    @classmethod
    def load(cls, path: str | Path) -> LineModel:
        """Read a model written by :meth:`save`, checking all of it before use; ModelError
        otherwise. Nothing of the file is run, and no array is allocated beyond what its
        member holds."""
        source = str(path)
        try:
            limit = MAX_UNPACKED_RATIO * Path(path).stat().st_size + MAX_UNPACKED_EXTRA
            with zipfile.ZipFile(path) as archive:
                members = zip_members(archive, source, limit)
                if set(members) != {MANIFEST, *(f"{name}.npy" for name in _ARRAYS)}:
                    raise ModelError(f"{source} is not a newsml byline model: it holds {sorted(members)}")
                manifest = json.loads(member_bytes(archive, members[MANIFEST]))
                arrays = {name: read_npy(archive, members[f"{name}.npy"], source) for name in _ARRAYS}
        except ModelError:
            raise
        except Exception as exc:  # zipfile, zlib, numpy and json raise many types on foreign or cut files
            raise ModelError(f"cannot read {source}: not a newsml byline model "
                             f"({type(exc).__name__}: {exc})") from None
        return cls(_checked_trees(source, manifest, arrays), _checked_threshold(source, manifest))


FORMAT = "newsml-byline-model"
FORMAT_VERSION = 1
#: The tree arrays a model file holds, with their dtype kind and dimensions.
_ARRAYS = {"feature": "i", "threshold": "f", "missing_left": "b", "left": "i", "right": "i",
           "leaf": "b", "value": "f", "roots": "i"}
#: What a model file's arrays may unpack to: this many times the file's size, plus a little.
MAX_UNPACKED_RATIO = 50
MAX_UNPACKED_EXTRA = 1 << 20
_SHIPPED = "bylines.npz"
MANIFEST = "manifest.json"
_TIMESTAMP = (1980, 1, 1, 0, 0, 0)     # the same model gives the same bytes


@cache
def shipped_line_model() -> LineModel | None:
    """The shipped byline model, or None (with a warning, once) where the install lacks it
    or holds a broken one: the rules alone then find the byline."""
    path = shipped_file(_SHIPPED)
    if path is None:
        warnings.warn(f"the byline model {_SHIPPED} is missing from this install: bylines are "
                      "read by the rules alone", stacklevel=2)
        return None
    try:
        return LineModel.load(path)
    except ModelError as exc:
        warnings.warn(f"{exc}; bylines are read by the rules alone: reinstall newsml", stacklevel=2)
        return None


def _checked_trees(source: str, manifest: Any, arrays: dict[str, np.ndarray]) -> FrozenTrees:
    """The trees of a model file once its manifest and arrays hold together: a forest of
    trees that are trees (:func:`~newsml.estimators.checks.check_trees`) over the features
    of this newsml."""
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ModelError(f"{source} is not a newsml byline model")
    if manifest.get("format_version") != FORMAT_VERSION or manifest.get("features") != list(FEATURES):
        raise ModelError(f"{source} is a byline model for another newsml: retrain it with "
                         "scripts/train_bylines.py")
    baseline = manifest.get("baseline")
    if isinstance(baseline, bool) or not isinstance(baseline, (int, float)):
        raise ModelError(f"{source}: its baseline is not a number")
    for name, kind in _ARRAYS.items():
        if arrays[name].dtype.kind != kind:
            raise ModelError(f"{source}: its array {name!r} has the wrong type")
    trees = FrozenTrees(arrays["feature"].astype(np.int64), arrays["threshold"].astype(float),
                        arrays["missing_left"].astype(bool), arrays["left"].astype(np.int64),
                        arrays["right"].astype(np.int64), arrays["leaf"].astype(bool),
                        arrays["value"].astype(float), arrays["roots"].astype(np.int64),
                        float(baseline), len(FEATURES))
    try:
        check_trees(trees)
    except ValueError as exc:
        raise ModelError(f"{source}: its trees are malformed ({exc})") from None
    return trees


def _checked_threshold(source: str, manifest: dict[str, Any]) -> float:
    threshold = manifest.get("threshold")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
        raise ModelError(f"{source}: its threshold is not a probability")
    return float(threshold)


def article_start(page: Page, kept: np.ndarray) -> int:
    """The headline's node, else the article's first kept node, else the page's first."""
    if page.headline_node is not None:
        return page.headline_node
    return int(kept[0]) if len(kept) else 0


def words_only(text: str) -> str:
    """Lower-case words of ``text``, one space between, punctuation and symbols gone."""
    return _NORMAL.sub(" ", text.lower()).strip()
