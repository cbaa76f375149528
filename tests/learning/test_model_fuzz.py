"""Fuzzing model files: mutated shipped models (zip archives, their manifests and arrays, and
the same models as the joblib pickles of format 1) and hand-made pickles may only load a
model that extracts a page, or raise ModelError: no crash, no other exception, no code run,
nothing of the process changed. Bounded and, in CI, derandomized like tests/test_fuzz.py.
"""

from __future__ import annotations

import copy
import io
import json
import pickle
import zipfile
from pathlib import Path

import joblib
import numpy as np
import pytest
from conftest import LABELED
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import newsml
from newsml import ModelError, extract, load_model
from newsml.learning.persistence import FORMAT, shipped_model_path

# (numbers cast between types, and scores of odd models, warn on the way)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
PAGE = (LABELED / "en01-council-budget.html").read_bytes()
_SHIPPED = {name: shipped_model_path(name) for name in ("nb", "cedst", "fusion")}
_ZIPS = {name: path.read_bytes() for name, path in _SHIPPED.items() if path is not None}


def _format1(name: str) -> bytes:
    """The shipped model ``name`` as an uncompressed joblib pickle of format 1."""
    method, metadata = load_model(_SHIPPED[name])
    record = {**metadata, "format_version": 1, "estimator": method}
    buffer = io.BytesIO()
    joblib.dump(record, buffer)
    return buffer.getvalue()


_PICKLES = {name: _format1(name) for name in ("nb", "cedst")}


def _loads_or_refuses(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "fuzzed.joblib"
    path.write_bytes(data)
    try:
        method, _ = load_model(path)
    except ModelError:
        return
    article = extract(PAGE, method=method)
    assert isinstance(article.text, str)


@st.composite
def mutated_bytes(draw, seeds: dict[str, bytes]) -> bytes:
    data = bytearray(seeds[draw(st.sampled_from(sorted(seeds)))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["flip", "insert", "delete", "cut"]))
        if kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 64))]
        elif kind == "cut":
            del data[at:]
    return bytes(data)


@FUZZ
@given(data=mutated_bytes(_ZIPS))
def test_fuzz_mutated_model_archives(data, tmp_path):
    _loads_or_refuses(data, tmp_path)


@FUZZ
@given(data=mutated_bytes(_PICKLES))
def test_fuzz_mutated_format1_pickles(data, tmp_path):
    _loads_or_refuses(data, tmp_path)


# -- manifests and arrays changed, then zipped again (so the archive itself is valid) ------------

_ODD_VALUES = [None, True, -1, 0, 2**63, 1e308, -1e-308, "", "auto", "x" * 300, [], {}, {"tuple": []},
               {"float": "nan"}, {"float": "inf"}, {"object": "os.system", "state": {"dict": {}}},
               {"object": "newsml.estimators.trees.FrozenTrees", "state": {"dict": {}}},
               {"array": "arrays/0.npy"}, {"array": "arrays/999.npy"}, {"pairs": [[[], 1]]},
               {"dict": {"__class__": 1}}, [[[[[[[[]]]]]]]]]


def _paths(value, prefix=()):
    """Every place in a decoded manifest: (path of keys and indices, value)."""
    yield prefix, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*prefix, i))


def _set(root, path, value):
    for step in path[:-1]:
        root = root[step]
    root[path[-1]] = value


def _odd_array(draw, array: np.ndarray) -> np.ndarray:
    kind = draw(st.sampled_from(["values", "dtype", "shape", "empty"]))
    if kind == "values" and array.size:
        array = array.copy()
        flat = array.reshape(-1)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, flat.size - 1))
            if array.dtype.kind == "f":
                flat[i] = draw(st.sampled_from([np.nan, np.inf, -np.inf, 1e300, -1.0, 0.0]))
            elif array.dtype.kind in "iu":
                limits = np.iinfo(array.dtype)
                flat[i] = min(max(draw(st.sampled_from([-1, 0, 1, flat.size, 2**31, int(flat[i]) ^ 1])),
                                  limits.min), limits.max)
            else:
                flat[i] = not flat[i]
        return array
    if kind == "dtype":
        return array.astype(draw(st.sampled_from([np.int32, np.float32, np.uint8, bool, np.complex128])))
    if kind == "shape":
        return array.reshape(-1)[: max(array.size - 1, 0)] if array.ndim == 1 else array.reshape(-1)
    return array[:0]


@st.composite
def edited_archives(draw) -> bytes:
    with zipfile.ZipFile(io.BytesIO(_ZIPS[draw(st.sampled_from(sorted(_ZIPS)))])) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    manifest = json.loads(members["manifest.json"])
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            places = [path for path, _ in _paths(manifest) if path]
            path = draw(st.sampled_from(places))
            _set(manifest, path, copy.deepcopy(draw(st.sampled_from(_ODD_VALUES))))   # (never changed)
        else:
            names = sorted(name for name in members if name.endswith(".npy"))
            if names:
                name = draw(st.sampled_from(names))
                array = np.load(io.BytesIO(members[name]), allow_pickle=False)
                buffer = io.BytesIO()
                np.save(buffer, _odd_array(draw, array), allow_pickle=False)
                members[name] = buffer.getvalue()
    members["manifest.json"] = json.dumps(manifest).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


@FUZZ
@given(data=edited_archives())
def test_fuzz_edited_manifests_and_arrays(data, tmp_path):
    _loads_or_refuses(data, tmp_path)


# -- hand-made pickles: the opcodes of hostile files in any order -----------------------------------

_FRAGMENTS = [
    b"cjoblib.numpy_pickle\nNumpyArrayWrapper\n", b"cnumpy\ndtype\n", b"cnumpy\nndarray\n",
    b"cposix\nsystem\n", b"cbuiltins\neval\n", b"cnewsml.estimators.trees\nFrozenTrees\n",
    b"cnewsml.methods.nb\nNaiveBayesMethod\n",
    b"cnewsml.rules.assembly\nOtsuCut\n", b"ccopyreg\n_reconstructor\n",
    b"X\x01\x00\x00\x00O", b"X\x02\x00\x00\x00f8", b"X\x02\x00\x00\x00V8", b"X\x04\x00\x00\x00read",
    b"X\x05\x00\x00\x00shape", b"X\x05\x00\x00\x00dtype", b"X\x05\x00\x00\x00order", b"X\x01\x00\x00\x00C",
    b"X\x08\x00\x00\x00subclass", b"K\x03", b"K\x00", b"J\xff\xff\xff\x7f", b"N", b"\x88", b"\x89",
    b"C\x08BBBBBBBB", b"B\xff\xff\xff\x7f", b"(", b")", b"]", b"}", b"t", b"\x85", b"\x86", b"\x87",
    b"R", b"b", b"\x81", b"s", b"u", b"a", b"e", b"0", b"1", b"2", b"\x94", b"h\x00", b"h\x01", b"q\x00",
    b"\x8f", b"\x90", b"\x91", b"\x95\x00\x00\x00\x00\x00\x00\x00\x00", b"I01\n", b"L99999\n", b"F1e309\n",
]


@FUZZ
@given(parts=st.lists(st.sampled_from(_FRAGMENTS), max_size=40))
def test_fuzz_hand_made_pickles(parts, tmp_path):
    from joblib.numpy_pickle import NumpyArrayWrapper

    before = dict(vars(NumpyArrayWrapper))
    _loads_or_refuses(b"\x80\x04" + b"".join(parts) + b".", tmp_path)
    assert dict(vars(NumpyArrayWrapper)) == before


def test_a_plain_pickle_of_an_array_is_refused(tmp_path):
    # numpy pickles an array by calling its reconstructor, which a model file never names
    payload = pickle.dumps({"format": FORMAT, "format_version": 1, "newsml_version": newsml.__version__,
                            "estimator": np.array([1.0])}, protocol=4)
    path = tmp_path / "array.joblib"
    path.write_bytes(payload)
    with pytest.raises(ModelError, match="names numpy.core.multiarray._reconstruct|numpy._core"):
        load_model(path)
