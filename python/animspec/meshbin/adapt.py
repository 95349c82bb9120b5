"""Read MESHBIN bytes into the typed model through the parser generated from ksy/meshbin.ksy:
the reference reader, and the one that words every error.

This is the only MESHBIN module that imports generated code, and the others import it only
when they need it (:mod:`.parse` for ``fast=False``, :mod:`.fastread` for an error): the
generated code is compiled in debug mode, and a valid file read the fast way, or a file
only being detected, does not pay for it. It adapts the generated objects field
by field; it never looks at bytes itself.
"""

from __future__ import annotations

from typing import NoReturn

from ..common.errors import ParseError
from ..generated.meshbin import Meshbin
from ..kaitai_read import parse, record_error
from .model import Bone, Face, MeshbinFile, Vertex


def read(data: bytes, path: str | None = None) -> MeshbinFile:
    """The model of ``data`` read by the generated parser alone (one Python object per field,
    so for small files: the reference the tests hold the bulk reader to)."""
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
        bsphere_centre=_vec3(root.bsphere_centre) if root.version >= 3 else (0, 0, 0),
        bsphere_radius=root.bsphere_radius if root.version >= 3 else 0,
        has_skeleton=root.has_skeleton if has_header_skeleton else 0,
        bones=[_bone(b) for b in root.bones] if skeleton else [],
        vertex_bones=list(root.bone_for_vertex) if skeleton else [],
        declared_faces=root.num_faces,
        declared_bones=root.num_bones_declared if has_header_skeleton else None,
        trailing=bytes(root.trailing),
    )


def raise_header_error(data: bytes, path: str | None = None) -> NoReturn:
    """Raise the ParseError of a file whose header is what is wrong (too short, wrong magic),
    as the generated parser words it."""
    parse(Meshbin, data, path)  # raises
    raise AssertionError("the generated parser read a file the bulk reader could not")


def cut_record_error(record: str, data: bytes, pos: int, field: str, path: str | None) -> ParseError:
    """The ParseError of a record cut short at ``pos``, worded by its generated type
    (``record``, a class of the generated Meshbin: "Vec3S4", "ColourRgb", "IndexQuad"...)."""
    return record_error(getattr(Meshbin, record), data, pos, field, path)


def _vec3(v: Meshbin.Vec3S4 | Meshbin.Vec3S2) -> tuple[int, int, int]:
    return (v.x, v.y, v.z)


def _quad(q: Meshbin.IndexQuad) -> tuple[int, int, int, int]:
    return (q.i0, q.i1, q.i2, q.i3)


def _bone(b: Meshbin.Bone) -> Bone:
    r = b.rotation
    return Bone(b.parent, _vec3(b.position), (r.w, r.x, r.y, r.z))
