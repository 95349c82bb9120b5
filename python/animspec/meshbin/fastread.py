"""A bulk reader for MESHBIN: numpy over the fixed-size record arrays.

The generated parser builds one Python object per field (about 30 per quad), so a file of
a few megabytes of vertices would take minutes and gigabytes. Every MESHBIN array is a run
of fixed-size records sized by a header count, so numpy reads each in one call, after
checking that the count's records are really there. The records and their order come from
:mod:`.layout` (shared with the writer); this reader is held to the generated parser by
the tests (same model or the same error on every example, every truncation and fuzzed
inputs); errors are still worded by the generated types, through :mod:`.adapt`, imported
on the error path only: a valid file never loads the debug-mode parser.
"""

from __future__ import annotations

import numpy as np
from kaitaistruct import EndOfStreamError

from ..common.errors import ParseError
from ..kaitai_read import describe
from .layout import BONE, COLOUR, HEADER, MAGIC, QUAD, SKELETON_HEADER, UV, VEC3_S2, VEC3_S4
from .model import BSPHERE_VERSION, MAX_BONES, Bone, Face, MeshbinFile, Vertex

# The tables' numpy dtypes, from the layout's records.
VEC3_S4_DTYPE, COLOUR_DTYPE, QUAD_DTYPE = VEC3_S4.numpy_dtype(), COLOUR.numpy_dtype(), QUAD.numpy_dtype()
VEC3_S2_DTYPE, UV_DTYPE, BONE_DTYPE = VEC3_S2.numpy_dtype(), UV.numpy_dtype(), BONE.numpy_dtype()
_HEAD = len(MAGIC) + HEADER.size
BSPHERE_RADIUS = np.dtype("<i4")


def read(data: bytes, path: str | None = None) -> MeshbinFile:
    """The model of a MESHBIN file, or the ParseError the generated parser would raise; time
    and memory proportional to the bytes really there, whatever the counts say."""
    size = len(data)
    version_at = len(MAGIC)
    header = _HEAD + SKELETON_HEADER.size if size > version_at and data[version_at] > 1 else _HEAD
    if size < header or data[:version_at] != MAGIC:
        from . import adapt

        adapt.raise_header_error(data, path)  # the header is what is wrong
    version, mesh_type, nv, ni, nf, nn, nu = HEADER.struct.unpack_from(data, version_at)
    has_skeleton = num_bones = 0
    if version > 1:
        has_skeleton, num_bones = SKELETON_HEADER.struct.unpack_from(data, _HEAD)
    pos = header

    def cut_short(record: str, at: int, name: str) -> Exception:
        # record: the generated type that words the error (imported on this path only).
        from . import adapt

        return adapt.cut_record_error(record, data, at, name, path)

    def array(dtype: np.dtype, count: int, name: str, record: str) -> np.ndarray:
        nonlocal pos
        if pos + count * dtype.itemsize > size:
            k = (size - pos) // dtype.itemsize  # the first record cut short
            raise cut_short(record, pos + k * dtype.itemsize, f"{name}[{k}]" if name else "")
        out = np.frombuffer(data, dtype, count, pos)
        pos += count * dtype.itemsize
        return out

    def one(dtype: np.dtype, name: str, record: str) -> tuple:
        nonlocal pos
        if pos + dtype.itemsize > size:
            raise cut_short(record, pos, name)
        pos += dtype.itemsize
        return tuple(np.frombuffer(data, dtype, 1, pos - dtype.itemsize).tolist()[0])

    vertices = array(VEC3_S4_DTYPE, nv, "vertices", "Vec3S4").tolist()
    colours = array(COLOUR_DTYPE, nv, "vertex_colours", "ColourRgb").tolist()
    vertex_indices = array(QUAD_DTYPE, ni, "vertex_indices", "IndexQuad").tolist()
    normals = array(VEC3_S2_DTYPE, nn, "normals", "Vec3S2").tolist()
    normal_indices = array(QUAD_DTYPE, ni, "normal_indices", "IndexQuad").tolist()
    uvs = array(UV_DTYPE, nu, "uvs", "Uv").tolist()
    uv_indices = array(QUAD_DTYPE, ni, "uv_indices", "IndexQuad").tolist()
    aabb_min = one(VEC3_S2_DTYPE, "aabb_min", "Vec3S2")
    aabb_max = one(VEC3_S2_DTYPE, "aabb_max", "Vec3S2")
    bsphere_centre, bsphere_radius = (0, 0, 0), 0
    if version >= BSPHERE_VERSION:
        bsphere_centre = one(VEC3_S2_DTYPE, "bsphere_centre", "Vec3S2")
        if pos + BSPHERE_RADIUS.itemsize > size:
            exc = EndOfStreamError("", BSPHERE_RADIUS.itemsize, size - pos)
            raise ParseError(path, pos, "bsphere_radius", describe(exc))
        bsphere_radius = int(np.frombuffer(data, BSPHERE_RADIUS, 1, pos)[0])
        pos += BSPHERE_RADIUS.itemsize
    skeleton = version > 1 and has_skeleton != 0
    bones: list[Bone] = []
    vertex_bones: list[int] = []
    if skeleton:
        rows = array(BONE_DTYPE, min(num_bones, MAX_BONES), "bones", "Bone").tolist()
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
        bsphere_centre=bsphere_centre,
        bsphere_radius=bsphere_radius,
        has_skeleton=has_skeleton if version > 1 else 0,
        bones=bones,
        vertex_bones=vertex_bones,
        declared_faces=nf,
        declared_bones=num_bones if version > 1 else None,
        trailing=bytes(data[pos:]),
    )
