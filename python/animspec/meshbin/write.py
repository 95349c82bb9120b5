"""Serialise the MESHBIN model to bytes: the exact inverse of ksy/meshbin.ksy.

This module writes what the spec reads, field by field in the spec's order; the tests hold
the two together (``read(write(m)) == m`` for every model, ``write(read(b)) == b`` for every
file the parser accepts). Every value is checked against its field's width first, and the
model's lists against each other (one colour and, with a skeleton, one bone index per
vertex; as many bone records as the loader will read), so a model that cannot be stored
raises :class:`WriteError` naming the field instead of writing a file that reads back
differently. Field names in errors are the spec's.
"""

from __future__ import annotations

from ..common.errors import WriteError
from ..common.fieldwriter import S1, S2, S4, U1, U4, FieldWriter
from .model import MAX_BONES, MeshbinFile
from .parse import MAGIC

def write_bytes(model: MeshbinFile) -> bytes:
    """The MESHBIN bytes of ``model``; raises :class:`WriteError` when something does not fit."""
    m = model
    out = FieldWriter()
    out.buf += MAGIC
    out.int(U1, m.version, "version")
    out.int(U1, m.mesh_type, "mesh_type")
    out.int(U4, len(m.vertices), "num_vertices")
    out.int(U4, len(m.faces), "num_indices")
    out.int(U4, m.num_faces, "num_faces")
    out.int(U4, len(m.normals), "num_normals")
    out.int(U4, len(m.uvs), "num_uvs")
    if m.version > 1:
        out.int(U1, m.has_skeleton, "has_skeleton")
        out.int(U1, m.num_bones, "num_bones_declared")
    _check_skeleton_shape(m)
    for i, v in enumerate(m.vertices):
        out.ints(S4, v.position, "xyz", f"vertices[{i}]")
    for i, v in enumerate(m.vertices):
        out.ints(U1, v.colour, "rgb", f"vertex_colours[{i}]")
    for i, f in enumerate(m.faces):
        out.ints(S2, f.vertices, ("i0", "i1", "i2", "i3"), f"vertex_indices[{i}]")
    for i, n in enumerate(m.normals):
        out.ints(S2, n, "xyz", f"normals[{i}]")
    for i, f in enumerate(m.faces):
        out.ints(S2, f.normals, ("i0", "i1", "i2", "i3"), f"normal_indices[{i}]")
    for i, t in enumerate(m.uvs):
        out.ints(U1, t, "uv", f"uvs[{i}]")
    for i, f in enumerate(m.faces):
        out.ints(S2, f.uvs, ("i0", "i1", "i2", "i3"), f"uv_indices[{i}]")
    out.ints(S2, m.aabb_min, "xyz", "aabb_min")
    out.ints(S2, m.aabb_max, "xyz", "aabb_max")
    if m.skeleton_present:
        for i, b in enumerate(m.bones):
            out.int(S1, b.parent, f"bones[{i}].parent")
            out.ints(S4, b.position, "xyz", f"bones[{i}].position")
            out.ints(S2, b.rotation, "wxyz", f"bones[{i}].rotation")
        for i, bone in enumerate(m.vertex_bones):
            out.int(U1, bone, f"bone_for_vertex[{i}]")
    out.buf += bytes(m.trailing)
    return bytes(out.buf)


def _check_skeleton_shape(m: MeshbinFile) -> None:
    """The skeleton parts of the model must be what the loader would read back."""
    if m.version <= 1:
        if m.has_skeleton:
            raise WriteError("has_skeleton", f"version {m.version} has no skeleton flag (only version 2 and later)")
        if m.declared_bones is not None:
            raise WriteError("num_bones_declared", f"version {m.version} has no bone count (only version 2 and later)")
    if not m.skeleton_present:
        if m.bones:
            raise WriteError("bones", "bones are only read when version > 1 and has_skeleton is not 0")
        if m.vertex_bones:
            raise WriteError("bone_for_vertex", "bone indices are only read when version > 1 and has_skeleton is not 0")
        return
    records = min(m.num_bones, MAX_BONES)
    if len(m.bones) != records:
        raise WriteError(
            "bones",
            f"{len(m.bones)} bones, but a bone count of {m.num_bones} makes the loader read {records} records",
        )
    if len(m.vertex_bones) != len(m.vertices):
        raise WriteError(
            "bone_for_vertex", f"{len(m.vertex_bones)} bone indices for {len(m.vertices)} vertices; need one per vertex"
        )
