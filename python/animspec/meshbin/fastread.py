"""A bulk reader for MESHBIN: numpy over the fixed-size record arrays.

The generated parser builds one Python object per field (about 30 per quad), so a file of
a few megabytes of vertices would take minutes and gigabytes. Every MESHBIN array is a run
of fixed-size records sized by a header count, so numpy reads each in one call, after
checking that the count's records are really there. The records and their order come from
:mod:`.layout` (shared with the writer); this reader is held to the generated parser by
the tests (same model or the same error on every example, every truncation and fuzzed
inputs); errors are still worded by the generated types
(:func:`animspec.kaitai_read.record_error`).
"""

from __future__ import annotations

import numpy as np
from kaitaistruct import EndOfStreamError

from ..common.errors import ParseError
from ..kaitai_read import describe, parse, record_error
from .layout import BONE, COLOUR, HEADER, MAGIC, QUAD, SKELETON_HEADER, UV, VEC3_S2, VEC3_S4
from .model import MAX_BONES, Bone, Face, MeshbinFile, Vertex

# The tables' numpy dtypes, from the layout's records.
VEC3_S4_DTYPE, COLOUR_DTYPE, QUAD_DTYPE = VEC3_S4.numpy_dtype(), COLOUR.numpy_dtype(), QUAD.numpy_dtype()
VEC3_S2_DTYPE, UV_DTYPE, BONE_DTYPE = VEC3_S2.numpy_dtype(), UV.numpy_dtype(), BONE.numpy_dtype()
_HEAD = len(MAGIC) + HEADER.size


def read(data: bytes, path: str | None = None) -> MeshbinFile:
    """The model of a MESHBIN file, or the ParseError the generated parser would raise; time
    and memory proportional to the bytes really there, whatever the counts say."""
    from ..generated.meshbin import Meshbin

    size = len(data)
    version_at = len(MAGIC)
    header = _HEAD + SKELETON_HEADER.size if size > version_at and data[version_at] > 1 else _HEAD
    if size < header or data[:version_at] != MAGIC:
        parse(Meshbin, data, path)  # raises: the header is what is wrong
        raise AssertionError("the generated parser read a file the bulk reader could not")
    version, mesh_type, nv, ni, nf, nn, nu = HEADER.struct.unpack_from(data, version_at)
    has_skeleton = num_bones = 0
    if version > 1:
        has_skeleton, num_bones = SKELETON_HEADER.struct.unpack_from(data, _HEAD)
    pos = header

    def array(dtype: np.dtype, count: int, name: str, cls: type) -> np.ndarray:
        nonlocal pos
        if pos + count * dtype.itemsize > size:
            k = (size - pos) // dtype.itemsize  # the first record cut short
            raise record_error(cls, data, pos + k * dtype.itemsize, f"{name}[{k}]" if name else "", path)
        out = np.frombuffer(data, dtype, count, pos)
        pos += count * dtype.itemsize
        return out

    def one(dtype: np.dtype, name: str, cls: type) -> tuple:
        nonlocal pos
        if pos + dtype.itemsize > size:
            raise record_error(cls, data, pos, name, path)
        pos += dtype.itemsize
        return tuple(np.frombuffer(data, dtype, 1, pos - dtype.itemsize).tolist()[0])

    vertices = array(VEC3_S4_DTYPE, nv, "vertices", Meshbin.Vec3S4).tolist()
    colours = array(COLOUR_DTYPE, nv, "vertex_colours", Meshbin.ColourRgb).tolist()
    vertex_indices = array(QUAD_DTYPE, ni, "vertex_indices", Meshbin.IndexQuad).tolist()
    normals = array(VEC3_S2_DTYPE, nn, "normals", Meshbin.Vec3S2).tolist()
    normal_indices = array(QUAD_DTYPE, ni, "normal_indices", Meshbin.IndexQuad).tolist()
    uvs = array(UV_DTYPE, nu, "uvs", Meshbin.Uv).tolist()
    uv_indices = array(QUAD_DTYPE, ni, "uv_indices", Meshbin.IndexQuad).tolist()
    aabb_min = one(VEC3_S2_DTYPE, "aabb_min", Meshbin.Vec3S2)
    aabb_max = one(VEC3_S2_DTYPE, "aabb_max", Meshbin.Vec3S2)
    skeleton = version > 1 and has_skeleton != 0
    bones: list[Bone] = []
    vertex_bones: list[int] = []
    if skeleton:
        rows = array(BONE_DTYPE, min(num_bones, MAX_BONES), "bones", Meshbin.Bone).tolist()
        bones = [Bone(parent, position, rotation) for parent, position, rotation in rows]
        if pos + nv > size:
            exc = EndOfStreamError("", nv, size - pos)
            raise ParseError(path, pos, "bone_for_vertex", describe(exc))
        vertex_bones = list(data[pos : pos + nv])
        pos += nv
    return MeshbinFile(
        version=version,
        mesh_type=mesh_type,
        vertices=[Vertex(p, c) for p, c in zip(vertices, colours)],
        faces=[Face(v, n, t) for v, n, t in zip(vertex_indices, normal_indices, uv_indices)],
        normals=normals,
        uvs=uvs,
        aabb_min=aabb_min,
        aabb_max=aabb_max,
        has_skeleton=has_skeleton if version > 1 else 0,
        bones=bones,
        vertex_bones=vertex_bones,
        declared_faces=nf,
        declared_bones=num_bones if version > 1 else None,
        trailing=bytes(data[pos:]),
    )
