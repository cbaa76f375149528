"""Labeled corpora: folders of ``<id>.html`` + gold ``<id>.txt`` (+ optional ``<id>.json``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..errors import ConfigurationError, NewsmlError

SPLITS = ("train", "test")


@dataclass(frozen=True)
class LabeledPage:
    """One labeled page; its HTML is read from disk only when asked for."""

    id: str
    html_path: Path
    gold: str
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def html(self) -> bytes:
        """The page's bytes, read in place."""
        return self.html_path.read_bytes()

    @property
    def corpus(self) -> str:
        """Name of the folder the page comes from."""
        return self.html_path.parent.name

    @property
    def site(self) -> str:
        """The page's site, for cross-validation folds grouped by site: the json's ``site``,
        else its URL's host (without ``www.``), else the page's own id in its corpus."""
        site = self.meta.get("site")
        if isinstance(site, str) and site:
            return site
        url = self.meta.get("url")
        host = urlparse(url).hostname if isinstance(url, str) and "://" in url else None
        return host.removeprefix("www.") if host else f"{self.corpus}/{self.id}"

    @property
    def split(self) -> str | None:
        """'train', 'test' or None when the page's json names no split."""
        return self.meta.get("split")


def load_corpus(folder: str | Path, split: str | None = None, unsplit: bool = False) -> list[LabeledPage]:
    """Pages of a labeled folder, sorted by id; ``split`` keeps only 'train' or 'test' pages.

    A page needs ``<id>.html`` and ``<id>.txt``; an html without gold is skipped. With a
    ``split``, pages whose json names no split (or that have no json) are left out, unless
    ``unsplit`` (training takes them: a user's own labeled pages rarely name a split).
    """
    root = Path(folder)
    if root.is_file():
        raise NewsmlError(f"{root} is a file: give the folder of labeled pages it is in")
    if not root.is_dir():
        raise NewsmlError(f"corpus folder not found: {root}")
    if split not in (None, "all", *SPLITS):
        raise ConfigurationError(f"unknown split {split!r}: use 'train', 'test' or 'all'")
    pages = []
    for html_path in sorted(root.glob("*.html")):
        gold_path = html_path.with_suffix(".txt")
        if not gold_path.is_file():
            continue
        meta_path = html_path.with_suffix(".json")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        except (ValueError, UnicodeDecodeError) as exc:
            raise NewsmlError(f"{meta_path}: not valid UTF-8 JSON ({exc})") from None
        if not isinstance(meta, dict):
            raise NewsmlError(f"{meta_path}: expected a JSON object")
        if split in SPLITS and meta.get("split") != split and not (unsplit and meta.get("split") is None):
            continue
        try:
            gold = gold_path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise NewsmlError(f"{gold_path}: gold text is not UTF-8 ({exc.reason} at byte {exc.start}); "
                              "re-encode it as UTF-8") from None
        pages.append(LabeledPage(id=html_path.stem, html_path=html_path, gold=gold, meta=meta))
    return pages


def missing_gold(folder: str | Path) -> str:
    """Why a folder holds no labeled page, for an error message ("" when it holds one)."""
    root = Path(folder)
    if not root.is_dir():
        return f"{root} is not a folder"
    pages = sorted(root.glob("*.html"))
    if not pages:
        return f"{root} holds no <id>.html page"
    if any(page.with_suffix(".txt").is_file() for page in pages):
        return ""
    return (f"none of the {len(pages)} .html pages in {root} has its gold text beside it "
            f"(<id>.txt for {pages[0].name}: {pages[0].with_suffix('.txt').name})")
