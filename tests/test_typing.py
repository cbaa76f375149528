"""The package type-checks clean with mypy (configured in pyproject.toml)."""

from __future__ import annotations

import pytest
from conftest import REPO


def test_mypy_finds_no_errors_in_the_package():
    api = pytest.importorskip("mypy.api", reason="mypy comes with the test extra: pip install '.[test]'")
    out, err, status = api.run(["--config-file", str(REPO / "pyproject.toml"), str(REPO / "newsml")])
    assert status == 0, out + err
