"""Where the files shipped with newsml are: the installed ``newsml.models`` package, else
the source tree's ``models/`` folder (a checkout used in place)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The models folder of a source checkout.
SOURCE_MODELS = Path(__file__).resolve().parents[2] / "models"


def shipped_file(name: str) -> Path | None:
    """The shipped file ``name`` (``fusion.joblib``, ``bylines.npz``), or None without one."""
    try:
        candidate = resources.files("newsml.models") / name
        if candidate.is_file():
            return Path(str(candidate))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    local = SOURCE_MODELS / name
    return local if local.is_file() else None
