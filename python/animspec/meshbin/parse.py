"""Read MESHBIN bytes into the typed model, through the parser generated from ksy/meshbin.ksy.

This is the only MESHBIN module that imports generated code. It adapts the generated
objects field by field; it never looks at bytes itself.
"""

from __future__ import annotations

import os

from ..generated.meshbin import Meshbin
from ..common.inputs import read_input
from ..kaitai_read import parse
from . import fastread
from .layout import MAGIC
from .model import Bone, Face, MeshbinFile, Vertex


def read_bytes(data: bytes, path: str | None = None, *, fast: bool = True) -> MeshbinFile:
    """Parse a whole MESHBIN file held in memory. ``path`` only labels errors.

    With ``fast`` (the default) the bulk reader (:mod:`.fastread`, numpy, proportional to the
    file whatever its counts claim) reads it; ``fast=False`` uses the generated parser
    throughout (the reference; one Python object per field, so only for small files).
    """
    if fast:
        return fastread.read(data, path)
    root = parse(Meshbin, data, path)
    skeleton = root.has_skeleton_data
    has_header_skeleton = root.version > 1
    return MeshbinFile(
        version=root.version,
        # resolve_enum hands back the plain int for values outside the enum.
        mesh_type=int(root.mesh_type),
        vertices=[Vertex(_vec3(p), (c.r, c.g, c.b)) for p, c in zip(root.vertices, root.vertex_colours)],
        faces=[
            Face(_quad(v), _quad(n), _quad(t))
            for v, n, t in zip(root.vertex_indices, root.normal_indices, root.uv_indices)
        ],
        normals=[_vec3(n) for n in root.normals],
        uvs=[(t.u, t.v) for t in root.uvs],
        aabb_min=_vec3(root.aabb_min),
        aabb_max=_vec3(root.aabb_max),
        has_skeleton=root.has_skeleton if has_header_skeleton else 0,
        bones=[_bone(b) for b in root.bones] if skeleton else [],
        vertex_bones=list(root.bone_for_vertex) if skeleton else [],
        declared_faces=root.num_faces,
        declared_bones=root.num_bones_declared if has_header_skeleton else None,
        trailing=bytes(root.trailing),
    )


def read_file(path: str | os.PathLike[str]) -> MeshbinFile:
    """Parse the MESHBIN file at ``path``."""
    data = read_input(path)
    return read_bytes(data, os.fspath(path))


def looks_like_meshbin(data: bytes) -> bool:
    """True when ``data`` starts with the MESHBIN magic (the loader's first check)."""
    return data[: len(MAGIC)] == MAGIC


def _vec3(v: Meshbin.Vec3S4 | Meshbin.Vec3S2) -> tuple[int, int, int]:
    return (v.x, v.y, v.z)


def _quad(q: Meshbin.IndexQuad) -> tuple[int, int, int, int]:
    return (q.i0, q.i1, q.i2, q.i3)


def _bone(b: Meshbin.Bone) -> Bone:
    r = b.rotation
    return Bone(b.parent, _vec3(b.position), (r.w, r.x, r.y, r.z))
