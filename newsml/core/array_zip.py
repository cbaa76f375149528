"""Numeric arrays read from a zip archive (a model file): never with pickle, never past a
member's declared size, never more in all than the caller's budget.

numpy's ``load`` allocates an array of the size a ``.npy`` header claims before it reads
the data; :func:`read_npy` checks the claim against the member's size first.
"""

from __future__ import annotations

import math
import zipfile

import numpy as np

from ..errors import ModelError

#: The most members an archive may have.
MAX_MEMBERS = 10_000
#: The kinds of array an archive may hold: truth values and numbers.
ARRAY_KINDS = frozenset("biuf")


def zip_members(archive: zipfile.ZipFile, source: str, limit: int) -> dict[str, zipfile.ZipInfo]:
    """The archive's members by name, once each checked: plainly compressed, not encrypted,
    and all together within ``limit`` bytes decompressed."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ModelError(f"cannot read {source}: it has {len(infos)} members, more than a model file may")
    by_name = {info.filename: info for info in infos}
    if len(by_name) != len(infos):
        raise ModelError(f"cannot read {source}: two of its members have one name")
    for info in infos:
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 1:
            raise ModelError(f"cannot read {source}: its member {info.filename} is encrypted or "
                             "compressed in a way newsml does not read")
    total = sum(info.file_size for info in infos)
    if total > limit:
        raise ModelError(f"refusing to load {source}: it would decompress to {total:,} bytes, more than "
                         f"the {limit:,} a model file of its size may take")
    return by_name


def member_bytes(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's bytes: no more than its declared size (reading stops there), checked
    against its CRC."""
    with archive.open(info) as member:
        data = member.read(info.file_size)
        if len(data) != info.file_size or member.read(1):
            raise ValueError(f"member {info.filename} is not of its declared size")
    return data


def read_npy(archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> np.ndarray:
    """The array of a ``.npy`` member: numbers only (an array of objects would need
    pickle, which is never used), as many bytes as its header says and its member holds."""
    with archive.open(info) as member:
        version = np.lib.format.read_magic(member)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(member)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(member)
        else:
            raise ValueError(f"member {info.filename} is .npy version {version}, which newsml does not read")
        if dtype.kind not in ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
            raise ModelError(f"refusing to load {source}: it holds an array of type {dtype.str!r}; "
                             "model files hold arrays of numbers only")
        size = math.prod(shape) * dtype.itemsize
        if size != info.file_size - member.tell():
            raise ValueError(f"member {info.filename} does not hold the {size} bytes its header says")
        buffer = bytearray(size)
        if member.readinto(buffer) != size or member.read(1):   # type: ignore[attr-defined]
            raise ValueError(f"member {info.filename} is cut short")
    array = np.frombuffer(buffer, dtype=dtype).reshape(shape, order="F" if fortran else "C")
    return array if dtype.isnative else array.astype(dtype.newbyteorder("="))
