"""What the engine's MESHBIN loader, renderer and skinning will get wrong (``animspec validate``).

Facts from psyqo-madnight-engine ``src/mesh/mesh_manager.cpp``/``.hh`` (the loader, the
face limit), ``src/mesh/skeleton/skeleton.hh`` (the bone limit) and
``src/render/renderer.cpp`` (what is drawn: ``facesCount`` index records, a triangle where
the second corner is -1, vertices through the GTE's 16-bit vertex registers)
(Forceh91/psyqo-madnight-engine), explained in docs/meshbin.md. Every check works on the
typed model.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..common.findings import Finding, Severity, capped
from ..skeleton import Skeleton
from .model import BSPHERE_VERSION, MAX_BONES, MAX_FACES_PER_MESH, MISSING_INDEX, MeshbinFile, skeleton_from_meshbin

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

VERTEX_LIMIT = 0x7FFF
"""Largest raw coordinate the engine can use: the bounding box and sphere are int16 in the
file (src/mesh/mesh_manager.cpp) and the GTE's vertex registers hold 16 bits; 255.99
Blender units at the converter's 128 per unit."""

MAX_INDEXED = 0x8000
"""Index records are int16 (MeshBinIndex, src/mesh/mesh_manager.hh): vertices and UVs past
this many cannot be reached."""

TRIANGLE_CORNER = 1
"""The corner that is -1 in a triangle's record (the renderer's ``i2 != -1`` test for a quad)."""

UNIT_TOLERANCE = 0.01
"""How far a rest quaternion's length may stray from 1 before it is mentioned."""


def check_skeleton(skeleton: Skeleton) -> list[Finding]:
    """Everything wrong with a bone hierarchy, as findings; never raises on bad data.

    The engine (SkeletonController::UpdateSkeletonBoneMatrices) computes world matrices in
    bone order in a single pass, reading ``bones[parent]`` without a range check, so a
    parent must be a valid, earlier bone.
    """
    return list(_skeleton(skeleton))


def _skeleton(sk: Skeleton) -> Iterator[Finding]:
    n = sk.bone_count
    if n > MAX_BONES:
        yield Finding(
            "too-many-bones", ERROR,
            f"{n} bones; the engine has room for {MAX_BONES}",
        )
    for i in range(n):
        parent = int(sk.parents[i])
        where = {"bone": i}
        if parent == -1:
            pass
        elif parent < -1 or parent >= n:
            yield Finding(
                "bone-parent-out-of-range", ERROR,
                f"parent {parent} is not a bone (0..{n - 1}) or -1; the engine reads outside "
                "its bone array",
                where,
            )
        elif parent == i:
            yield Finding("bone-parent-self", ERROR, "the bone is its own parent", where)
        elif parent > i:
            yield Finding(
                "bone-parent-after-child", ERROR,
                f"parent {parent} comes after this bone; the engine builds world matrices in "
                "bone order in one pass, so this bone uses its parent's matrix before it is computed",
                where,
            )
        rot = sk.rest_rotation[i]
        length = float(np.sqrt(np.dot(rot, rot)))
        if length == 0.0:
            yield Finding(
                "rest-rotation-zero", WARNING,
                "rest rotation is (0, 0, 0, 0); the engine normalises it to identity",
                where,
            )
        elif abs(length - 1.0) > UNIT_TOLERANCE:
            yield Finding(
                "rest-rotation-not-unit", INFO,
                f"rest rotation has length {length:.4f}; the engine normalises it before use",
                where,
            )
    roots = [i for i in range(n) if int(sk.parents[i]) == -1]
    if n and not roots:
        yield Finding("no-root-bone", ERROR, "no bone has parent -1")


def validate(model: MeshbinFile, *, bone_count: int | None = None) -> list[Finding]:
    """Every finding for ``model``: what the loader refuses or misreads, indices that point
    outside their arrays, and the skeleton's hierarchy problems.

    ``bone_count`` is accepted for the signature every format shares (the CLI's ``--bones``
    is for ANIMBIN); a MESHBIN carries its own bone table, so it is not used.
    """
    return capped(_file(model))


def _file(m: MeshbinFile) -> Iterator[Finding]:
    if m.num_faces >= MAX_FACES_PER_MESH:
        yield Finding(
            "too-many-faces", ERROR,
            f"face count {m.num_faces}; the loader refuses meshes with {MAX_FACES_PER_MESH} or more",
        )
    if m.declared_faces is not None and m.declared_faces > len(m.faces):
        yield Finding(
            "faces-past-index-records", ERROR,
            f"the header says {m.declared_faces} faces but there are {len(m.faces)} index records; "
            "the renderer draws header-count records and reads past the index arrays (the "
            "converter writes this for faces of five or more corners)",
        )
    elif m.declared_faces is not None:
        yield Finding(
            "face-count-mismatch", WARNING,
            f"the header says {m.declared_faces} faces but there are {len(m.faces)} index "
            f"records; the renderer draws only the first {m.declared_faces}",
        )
    if len(m.vertices) > MAX_INDEXED:
        yield Finding(
            "too-many-vertices", ERROR,
            f"{len(m.vertices)} vertices; int16 face indices reach the first {MAX_INDEXED}",
        )
    wide = [i for i, v in enumerate(m.vertices) if max(abs(c) for c in v.position) > VERTEX_LIMIT]
    if wide:
        yield Finding(
            "vertex-out-of-range", ERROR,
            f"{len(wide)} vertices (first: {wide[0]}) have a coordinate outside -{VERTEX_LIMIT}..{VERTEX_LIMIT}; "
            "the int16 bounding box and sphere cannot hold them and the GTE reads 16 bits",
            {"vertex": wide[0]},
        )
    yield from _faces(m)
    if tuple(m.aabb_min) != m.bounds()[0] or tuple(m.aabb_max) != m.bounds()[1]:
        lo, hi = m.bounds()
        yield Finding(
            "aabb-mismatch", INFO,
            f"bounding box {m.aabb_min}..{m.aabb_max} is not the vertices' bounds {lo}..{hi}",
        )
    if m.version < BSPHERE_VERSION and any(c < 0 for c in (*m.aabb_min, *m.aabb_max)):
        # Loaders before the one that reads version 3 (engine commit 3aa4e82) copied each
        # int16 into a zeroed 32-bit value; that one and later sign-extend.
        yield Finding(
            "aabb-negative", WARNING,
            "the bounding box has negative components; loaders older than version 3 files copy "
            "each int16 into the low half of a 32-bit value without sign extension, so they read 65536 + value",
        )
    if m.has_bsphere and m.bsphere_radius < 0:
        yield Finding("bsphere-negative-radius", WARNING, f"bounding sphere radius {m.bsphere_radius} is negative")
    if m.skeleton_present:
        yield from _skin(m)
    if m.trailing:
        yield Finding(
            "trailing-bytes", WARNING,
            f"{len(m.trailing)} bytes after the last field; the engine never reads them",
        )


def _faces(m: MeshbinFile) -> Iterator[Finding]:
    # Normal and uv indices of -1 are what the converter writes when the OBJ face has none;
    # how the renderer copes is not established, so those are warnings.
    arrays = (
        ("vertices", len(m.vertices), "face-vertex-index-out-of-range", ERROR),
        ("normals", len(m.normals), "face-normal-index-out-of-range", WARNING),
        ("uvs", len(m.uvs), "face-uv-index-out-of-range", WARNING),
    )
    for i, face in enumerate(m.faces):
        triangle = face.vertices[TRIANGLE_CORNER] == -1
        for name, size, code, severity in arrays:
            corners = list(getattr(face, name))
            if name == "normals" and tuple(corners) == MISSING_INDEX:
                continue  # the converter's "no normal"; the renderer never reads normals
            if triangle:
                del corners[TRIANGLE_CORNER]  # unused: the renderer draws corners 0, 2, 3
            bad = [c for c in corners if not 0 <= c < size]
            if bad:
                yield Finding(code, severity, f"{name} indices {bad} point outside the {size} {name}", {"face": i})


def _skin(m: MeshbinFile) -> Iterator[Finding]:
    if m.num_bones > MAX_BONES:
        yield Finding(
            "too-many-bones", ERROR,
            f"the header declares {m.num_bones} bones; the loader reads {MAX_BONES} records and "
            "takes the following bytes as the per-vertex bone indices",
        )
    elif m.declared_bones is not None:
        yield Finding(
            "bone-count-mismatch", ERROR,
            f"the header declares {m.declared_bones} bones but {len(m.bones)} records are stored",
        )
    if not m.bones:
        yield Finding("skeleton-without-bones", WARNING, "the skeleton flag is set but there are no bones")
    for i, bone in enumerate(m.vertex_bones):
        if bone >= len(m.bones):
            yield Finding(
                "vertex-bone-out-of-range", ERROR,
                f"vertex follows bone {bone}; the skeleton has {len(m.bones)}",
                {"vertex": i},
            )
    sk = skeleton_from_meshbin(m)
    for f in check_skeleton(sk):
        # check_skeleton also counts bones; the header check above already covers that.
        if f.code != "too-many-bones":
            yield f
