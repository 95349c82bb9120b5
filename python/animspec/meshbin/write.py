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
from ..common.fieldwriter import S4, U1, FieldWriter
from .layout import BONE, COLOUR, HEADER, MAGIC, QUAD, SKELETON_HEADER, UV, VEC3_S2, VEC3_S4
from .model import MAX_BONES, MeshbinFile


def write_bytes(model: MeshbinFile) -> bytes:
    """The MESHBIN bytes of ``model``; raises :class:`WriteError` when something does not fit."""
    m = model
    out = FieldWriter()
    out.buf += MAGIC
    out.record(HEADER, (m.version, m.mesh_type, len(m.vertices), len(m.faces), m.num_faces, len(m.normals), len(m.uvs)))
    if m.version > 1:
        out.record(SKELETON_HEADER, (m.has_skeleton, m.num_bones))
    _check_skeleton_shape(m)
    for i, v in enumerate(m.vertices):
        out.record(VEC3_S4, v.position, f"vertices[{i}]")
    for i, v in enumerate(m.vertices):
        out.record(COLOUR, v.colour, f"vertex_colours[{i}]")
    for i, f in enumerate(m.faces):
        out.record(QUAD, f.vertices, f"vertex_indices[{i}]")
    for i, n in enumerate(m.normals):
        out.record(VEC3_S2, n, f"normals[{i}]")
    for i, f in enumerate(m.faces):
        out.record(QUAD, f.normals, f"normal_indices[{i}]")
    for i, t in enumerate(m.uvs):
        out.record(UV, t, f"uvs[{i}]")
    for i, f in enumerate(m.faces):
        out.record(QUAD, f.uvs, f"uv_indices[{i}]")
    out.record(VEC3_S2, m.aabb_min, "aabb_min")
    out.record(VEC3_S2, m.aabb_max, "aabb_max")
    if m.has_bsphere:
        out.record(VEC3_S2, m.bsphere_centre, "bsphere_centre")
        out.int(S4, m.bsphere_radius, "bsphere_radius")
    elif tuple(m.bsphere_centre) != (0, 0, 0) or m.bsphere_radius:
        raise WriteError("bsphere_centre", f"version {m.version} has no bounding sphere (only version 3 and later)")
    if m.skeleton_present:
        for i, b in enumerate(m.bones):
            out.record(BONE, (b.parent, b.position, b.rotation), f"bones[{i}]")
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
