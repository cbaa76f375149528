"""The seam to the compiled modules (newsml/core/speedups.py): what it chooses, and when."""

from __future__ import annotations

import importlib

import pytest
from conftest import speedups_afresh

from newsml.core import speedups


@pytest.fixture
def afresh(monkeypatch):
    """Each module asked for afresh (the seam keeps what it found for the process)."""
    speedups_afresh(monkeypatch)


def test_choose_gives_the_compiled_form_where_in_use_and_the_twin_otherwise():
    def depths(parent):
        return "python"

    chosen = speedups.choose("dom._tree_passes", depths, "depths")
    module = speedups.loaded("dom._tree_passes")
    if module is None:
        assert chosen is depths                      # nothing between the caller and its twin
        return
    assert chosen is not depths and chosen.__name__ == "depths"
    import numpy as np

    parent = np.array([0, 0, 1], dtype=np.int64)
    assert chosen(parent).tolist() == [0, 1, 2]     # the compiled one's answer
    with speedups.python_only():
        assert chosen(parent) == "python"
    assert chosen(parent).tolist() == [0, 1, 2]     # and back after the block


def test_a_factory_makes_the_compiled_form_or_declines():
    made = []

    def factory(module):
        made.append(module)
        return lambda: "compiled"

    chosen = speedups.choose("dom._tree_passes", lambda: "python", factory)
    declined = speedups.choose("dom._tree_passes", lambda: "python", lambda module: None)
    assert declined() == "python"
    if speedups.loaded("dom._tree_passes") is None:
        assert made == [] and chosen() == "python"
    else:
        assert made == [speedups.loaded("dom._tree_passes")] and chosen() == "compiled"


def test_only_known_compiled_modules_are_asked_for():
    with pytest.raises(KeyError, match="no compiled module"):
        speedups.loaded("dom.walk")
    with pytest.raises(KeyError):
        speedups.choose("no_such_module", print, "print")


@pytest.mark.parametrize("value, off", [("1", True), ("yes", True), ("0", False), ("false", False),
                                        ("No", False), ("", False)])
def test_the_environment_turns_every_module_off(monkeypatch, afresh, value, off):
    monkeypatch.setenv("NEWSML_PURE_PYTHON", value)
    assert speedups.pure_python() is off
    for name in speedups.SPEEDUPS:
        if off:
            assert speedups.loaded(name) is None
            assert speedups.status(name) == "turned off by NEWSML_PURE_PYTHON"
        else:
            assert (speedups.loaded(name) is None) == (speedups.status(name) != "in use")


def test_a_module_built_but_unusable_is_a_warning_and_its_twin_runs(monkeypatch, afresh):
    monkeypatch.delenv("NEWSML_PURE_PYTHON", raising=False)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())   # (as if built)

    def fails(name):
        raise ImportError(f"undefined symbol in {name}")

    monkeypatch.setattr(importlib, "import_module", fails)
    with pytest.warns(RuntimeWarning, match="newsml.core._text_counts is installed but not used: it cannot "
                                            "be imported"):
        assert speedups.loaded("core._text_counts") is None
    with pytest.warns(RuntimeWarning):
        assert speedups.status("core._text_counts").startswith("unusable")
        assert speedups.choose("core._text_counts", len, "marks_each") is len


def test_a_module_not_built_is_no_warning(monkeypatch, afresh, recwarn):
    monkeypatch.delenv("NEWSML_PURE_PYTHON", raising=False)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert speedups.loaded("input._cleaning") is None
    assert speedups.status("input._cleaning").startswith("not built")
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_every_compiled_module_says_what_it_does_and_where_its_twins_are():
    for name, speedup in speedups.SPEEDUPS.items():
        assert speedup.does and speedup.twins, name
        for twin in speedup.twins:
            importlib.import_module(twin)          # (the twins are importable modules)
