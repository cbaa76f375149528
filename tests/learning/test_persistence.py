"""Model files: round trip, metadata, and clear errors for files that cannot be used."""

from __future__ import annotations

import json
import os
import sys
import types
import warnings
import zipfile
from pathlib import Path

import joblib
import numpy as np
import pytest
from conftest import LABELED, parsed_with_labels
from sklearn.linear_model import LogisticRegression
from typer.testing import CliRunner

import newsml
from newsml import ModelError, load_corpus, load_model, save_model
from newsml.learning import model_objects
from newsml.learning.persistence import FORMAT, shipped_model_path
from newsml.learning.training import fit_method, train_method
from newsml.methods import methods, new_method
from newsml.run.cli import app


@pytest.fixture(scope="module")
def nb_model(tmp_path_factory):
    method, metadata = train_method("nb", [LABELED], split="train", cv_folds=0)
    path = save_model(method, tmp_path_factory.mktemp("models") / "nb.joblib", **metadata)
    return path, method


def test_round_trip_keeps_the_method_and_metadata(nb_model):
    path, method = nb_model
    loaded, meta = load_model(path)
    assert loaded.name == "nb" and meta["method"] == "nb" and meta["format"] == FORMAT
    assert meta["training"]["corpora"] == {"labeled": len(load_corpus(LABELED, split="train"))}
    assert meta["feature_names"] == ["unlinked_chars", "link_ratio", "punct_ratio", "p_count"]
    assert {"newsml_version", "sklearn_version", "created", "params"} <= set(meta)
    docs, _ = parsed_with_labels(load_corpus(LABELED, split="test")[:2])
    for doc in docs:
        assert loaded.score_nodes(doc).tolist() == method.score_nodes(doc).tolist()


def edit_manifest(path: Path, out: Path, **changes) -> Path:
    """A copy of the model file ``path`` at ``out`` with ``changes`` to its manifest."""
    with zipfile.ZipFile(path) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    manifest = json.loads(members["manifest.json"])
    manifest.update(changes)
    members["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out


def _pickled_with_other_sklearn(method, path):
    """A model file of format 1 (a joblib pickle), as newsml wrote before format 2."""
    record = {"format": FORMAT, "format_version": 1, "newsml_version": newsml.__version__,
              "sklearn_version": "0.1.0", "method": method.name, "estimator": method}
    joblib.dump(record, path, compress=3)
    return path


def test_other_sklearn_release_warns_only_for_models_holding_its_objects(nb_model, tmp_path, monkeypatch):
    _, method = nb_model
    own = edit_manifest(save_model(method, tmp_path / "saved.joblib"), tmp_path / "own.joblib",
                        sklearn_version="0.1.0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # newsml's own estimators: no warning
        load_model(own)
    method.extra_ = LogisticRegression()
    try:
        borrowed = _pickled_with_other_sklearn(method, tmp_path / "borrowed.joblib")
    finally:
        del method.extra_
    # no method holds scikit-learn objects today: a model file of format 2 cannot hold
    # them, and one of format 1 naming them is refused
    with pytest.raises(ModelError, match="names sklearn.linear_model._logistic.LogisticRegression"):
        load_model(borrowed)
    # allowed, a scikit-learn object loads, with the warning about the release that wrote it
    logistic = ("sklearn.linear_model._logistic", "LogisticRegression")
    monkeypatch.setattr(model_objects, "ALLOWED_GLOBALS", model_objects.ALLOWED_GLOBALS | {logistic})
    with pytest.warns(UserWarning, match="scikit-learn objects \\(LogisticRegression\\)"):
        load_model(borrowed)


def test_truncated_file_is_a_clear_error(nb_model, tmp_path):
    path, _ = nb_model
    cut = tmp_path / "cut.joblib"
    cut.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ModelError, match="truncated or not a newsml model"):
        load_model(cut)


@pytest.mark.parametrize("payload", [{"weights": [1, 2]}, [1, 2, 3], "text"])
def test_other_joblib_files_are_not_models(tmp_path, payload):
    path = tmp_path / "other.joblib"
    joblib.dump(payload, path)
    with pytest.raises(ModelError, match="not a newsml model"):
        load_model(path)


def test_random_bytes_and_missing_files(tmp_path):
    junk = tmp_path / "junk.joblib"
    junk.write_bytes(b"\x00\x01 definitely not a pickle")
    with pytest.raises(ModelError, match="truncated or not a newsml model"):
        load_model(junk)
    with pytest.raises(ModelError, match="not found"):
        load_model(tmp_path / "missing.joblib")


def test_a_model_from_another_major_version_is_refused(nb_model, tmp_path):
    path, _ = nb_model
    old = edit_manifest(path, tmp_path / "old.joblib", newsml_version="9.0.0")
    with pytest.raises(ModelError, match="made by newsml 9.0.0"):
        load_model(old)


def test_saving_is_atomic_and_keeps_no_temporary_files(tmp_path):
    method = new_method("econ")
    path = save_model(method, tmp_path / "econ.joblib")
    assert [p.name for p in tmp_path.iterdir()] == ["econ.joblib"]
    assert path.stat().st_mode & 0o044  # readable by others, unlike mkstemp's default
    assert load_model(path)[0].name == "econ"


def test_an_existing_model_file_is_replaced_only_when_asked(tmp_path):
    path = save_model(new_method("econ"), tmp_path / "model.joblib")
    before = path.read_bytes()
    from newsml import OutputError

    with pytest.raises(OutputError, match="exists: pass overwrite=True"):
        save_model(new_method("cetr"), path)
    assert path.read_bytes() == before and load_model(path)[0].name == "econ"
    save_model(new_method("cetr"), path, overwrite=True)
    assert load_model(path)[0].name == "cetr"
    assert [p.name for p in tmp_path.iterdir()] == ["model.joblib"]


@pytest.mark.parametrize("name", ["fusion", "nb", "cedst", "cedst-nc", "cedst-tf"])
def test_shipped_models_load(name):
    path = shipped_model_path(name)
    assert path is not None, f"no shipped model for {name}: run scripts/train_models.py"
    method, meta = load_model(path)
    assert method.name == name and meta["training"]["split"] == "train"
    assert "test" not in json.dumps(meta["training"]["corpora"])


def test_cli_train_writes_a_model_that_predict_and_evaluate_use(tmp_path):
    runner = CliRunner()
    out = tmp_path / "m.joblib"
    result = runner.invoke(app, ["train", str(LABELED), "--method", "nb", "-o", str(out),
                                 "--cv-folds", "3"])
    assert result.exit_code == 0, result.output
    assert "trained nb on" in result.stdout and "cross-validated F1 (3 folds" in result.stdout
    again = runner.invoke(app, ["train", str(LABELED), "-o", str(out)])
    assert again.exit_code == 2 and "use --force" in again.stderr
    page = sorted(LABELED.glob("*.html"))[0]
    predicted = runner.invoke(app, ["predict", str(page), "--model", str(out), "-f", "json"])
    assert json.loads(predicted.stdout)["method"] == "nb"
    evaluated = runner.invoke(app, ["evaluate", str(LABELED), "--model", str(out), "--split", "test",
                                    "-f", "json"])
    assert json.loads(evaluated.stdout)["method"] == "nb"
    bad = tmp_path / "bad.joblib"
    bad.write_bytes(b"nope")
    failed = runner.invoke(app, ["predict", str(page), "--model", str(bad)])
    assert failed.exit_code == 2 and "not a newsml model" in failed.stderr
    assert "Traceback" not in failed.stderr


def test_a_model_naming_a_missing_class_asks_for_retraining(tmp_path):
    # a model pickled with a class from a module this newsml no longer has
    path = tmp_path / "old.joblib"
    fake = types.ModuleType("newsml.no_such_module")

    class Missing:
        pass

    Missing.__module__, Missing.__qualname__ = fake.__name__, "Missing"
    fake.Missing = Missing
    sys.modules[fake.__name__] = fake
    try:
        joblib.dump({"format": "newsml-model", "estimator": Missing()}, path)
    finally:
        del sys.modules[fake.__name__]
    with pytest.raises(ModelError, match="another version of newsml"):
        load_model(path)


def test_a_whole_news_extractor_pickled_is_told_apart_from_another_version(tmp_path):
    import joblib

    from newsml import NewsExtractor

    path = tmp_path / "extractor.joblib"
    joblib.dump(NewsExtractor(method="econ").fit([]), path)
    with pytest.raises(ModelError, match="holds a newsml.extractor.NewsExtractor, which is no model file"):
        load_model(path)


class _Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.mark.parametrize("wrap", [lambda p: p, lambda p: np.array([p, 1], dtype=object)])
def test_a_model_file_with_a_code_payload_is_refused_before_it_runs(tmp_path, wrap):
    marker = tmp_path / "ran"
    path = tmp_path / "evil.joblib"
    joblib.dump({"format": "newsml-model", "estimator": wrap(_Payload(marker))}, path, compress=3)
    # the payload's own global, or the type of the object array around it
    with pytest.raises(ModelError, match=r"refusing to load .* it (names (posix|nt)\.system|holds an array "
                                         r"of type '\|O')"):
        load_model(path)
    page = str(LABELED / "en01-council-budget.html")
    result = CliRunner().invoke(app, ["predict", page, "--model", str(path)])
    assert result.exit_code == 2 and "refusing to load" in result.stderr
    assert not marker.exists()


@pytest.mark.parametrize("name", ["fusion", "nb", "cedst", "cedst-nc", "cedst-tf"])
def test_shipped_models_load_under_the_restricted_unpickler(name):
    path = shipped_model_path(name)
    assert path is not None and load_model(path)[0].name == name


@pytest.mark.parametrize("name", sorted(set(methods())))
def test_what_train_writes_for_every_method_loads_under_the_restriction(name, labeled, tmp_path):
    pages, labels, _, _ = labeled
    method, choices = fit_method(new_method(name), pages, labels)   # what train_method fits
    path = save_model(method, tmp_path / f"{name}.joblib", training=choices)
    assert load_model(path)[0].get_params() == method.get_params()
