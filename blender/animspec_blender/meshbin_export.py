"""A mesh and its armature -> MESHBIN, in one step, with the bytes of the engine's two.

The engine's users export a mesh with its Blender script (tools/blender_obj_skeleton_exporter.py
in Forceh91/psyqo-madnight-engine: an OBJ with ``skel``, ``bone`` and ``vw`` lines) and convert
that with tools/obj-to-meshbin.py. This module reads the same Blender data the same way (the
evaluated mesh transformed by the exporter's axis change at its defaults, Forward Z, Up -Y,
Scale 1; the pose bones' matrices; Blender's float32 vectors for the bounding sphere) and
hands arrays to :func:`animspec.meshbin.build.build_meshbin`, which quantises them as the OBJ
text and the converter do. On the models of tests/fixtures/madnight/ the bytes are the
pipeline's; docs/blender.md lists where the add-on refuses what the pipeline writes.

The bones are the armature's joints in the order the Export panel's 'Joint order' gives
(:func:`.rig.armature_joints`), the same order the ANIMBIN export numbers its joints, so
a clip's joint id i animates the MESHBIN's bone i. The order exported is saved on the
armature (:data:`.rig.MESHBIN_BONES_PROPERTY`) and the ANIMBIN export warns when its own differs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import bpy
import numpy as np
from bpy_extras.io_utils import axis_conversion
from mathutils import Matrix, Vector

from animspec.common.atomic import write_atomic
from animspec.common.errors import AnimspecError
from animspec.common.findings import Finding, Severity
from animspec.meshbin.build import BoundingSphere, MeshArrays, MeshbinBuildError, SkeletonBone, build_meshbin
from animspec.meshbin.model import MAX_BONES, MeshbinFile
from animspec.meshbin.validate import validate
from animspec.meshbin.write import write_bytes

from .rig import AXIS_CHANGE_4, JOINTS_PROPERTY, MESHBIN_BONES_PROPERTY, armature_joints, joint_parents
from .wording import meshbin_finding_in_blender_words, meshbin_refusal, too_many_bones_refusal

MIN_DIRECTION = 0.0001
"""Below this length the exporter takes a bone's translation from the heads alone."""


def console_matrix() -> Matrix:
    """The exporter's global matrix at its defaults (Forward Z, Up -Y, Scale 1)."""
    return axis_conversion(from_forward="Y", from_up="Z", to_forward="Z", to_up="-Y").to_4x4() @ Matrix.Scale(1.0, 4)


@dataclass
class MeshbinExport:
    """What :func:`export_meshbin` made: the model, its bytes, what to tell the user."""

    model: MeshbinFile
    data: bytes
    bones: list[str]
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]


def _mesh_arrays(obj: bpy.types.Object, me: bpy.types.Mesh, bones: Sequence[str] | None) -> MeshArrays:
    n = len(me.vertices)
    co = np.empty(n * 3, dtype=np.float32)
    me.vertices.foreach_get("co", co)
    starts = np.empty(len(me.polygons), dtype=np.int32)
    totals = np.empty(len(me.polygons), dtype=np.int32)
    me.polygons.foreach_get("loop_start", starts)
    me.polygons.foreach_get("loop_total", totals)
    loop_vertices = np.empty(len(me.loops), dtype=np.int32)
    me.loops.foreach_get("vertex_index", loop_vertices)
    faces = [loop_vertices[s : s + t].tolist() for s, t in zip(starts.tolist(), totals.tolist())]
    uvs = None
    if me.uv_layers.active is not None:
        raw = np.empty(len(me.loops) * 2, dtype=np.float32)
        me.uv_layers.active.data.foreach_get("uv", raw)
        uvs = raw.reshape(-1, 2).astype(float).tolist()
    colours = None
    attr = me.color_attributes.active_color if len(me.color_attributes) else None
    if attr is not None:
        raw = np.empty(len(attr.data) * 4, dtype=np.float32)
        attr.data.foreach_get("color", raw)
        # The exporter reads the active layer at each vertex's index, whatever its domain.
        colours = raw.reshape(-1, 4)[:n, :3].astype(float).tolist()
    vertex_bones = None
    if bones is not None:
        index = {name: i for i, name in enumerate(bones)}
        vertex_bones = []
        for v in me.vertices:
            if len(v.groups):
                heaviest = max(v.groups, key=lambda g: g.weight)  # the first of equal weights
                vertex_bones.append(index.get(obj.vertex_groups[heaviest.group].name, -1))
            else:
                vertex_bones.append(-1)
    return MeshArrays(co.reshape(-1, 3).astype(float).tolist(), faces, starts.tolist(), uvs, colours,
                      vertex_bones, obj.name)


def _sphere(me: bpy.types.Mesh) -> BoundingSphere:
    """The exporter's bounding sphere, in Blender's float32 vectors as it computes it."""
    centre = Vector()
    for v in me.vertices:
        centre = centre + v.co
    centre = centre / len(me.vertices)
    radius = max((v.co - centre).length for v in me.vertices)
    return BoundingSphere(tuple(centre), radius)


def skeleton_bones(arm: bpy.types.Object, bones: Sequence[str]) -> list[SkeletonBone]:
    """Each bone's rest relative to its parent joint, by the exporter's rule: a root's pose
    matrix turned by diag(1, -1, -1), any other relative to its parent's pose matrix; the
    rotation of that; the translation's direction with the length between the two bones'
    heads in the console's space (a root: its head's distance from the armature's origin)."""
    parents = joint_parents(arm, bones)
    position = {name: i for i, name in enumerate(bones)}
    arm_world = console_matrix() @ arm.matrix_world
    out = []
    for name, parent in zip(bones, parents):
        pb = arm.pose.bones[name]
        if parent is None:
            transform = AXIS_CHANGE_4 @ pb.matrix
            offset = arm_world @ pb.head
        else:
            transform = arm.pose.bones[parent].matrix.inverted_safe() @ pb.matrix
            offset = (arm_world @ pb.head) - (arm_world @ arm.pose.bones[parent].head)
        translation, rotation, _scale = transform.decompose()
        if translation.length > MIN_DIRECTION:
            translation = translation.normalized() * offset.length
        else:
            translation = offset
        out.append(SkeletonBone(name, -1 if parent is None else position[parent], tuple(translation), tuple(rotation)))
    return out


def export_meshbin(
    obj: bpy.types.Object,
    *,
    apply_modifiers: bool = True,
    texture_size: int = 256,
    joint_names: Sequence[str] | None = None,
) -> MeshbinExport:
    """The MESHBIN of mesh ``obj`` and its armature (``obj.find_armature()``; none: a mesh
    without skeleton). Nothing is written (see :func:`write_meshbin`); a mesh the engine
    cannot take raises AnimspecError worded in the Export panel's terms."""
    if obj is None or obj.type != "MESH":
        raise AnimspecError("select the mesh to export (its armature comes with it)")
    arm = obj.find_armature()
    bones = armature_joints(arm, joint_names) if arm is not None else None
    if bones is not None and len(bones) > MAX_BONES:
        raise AnimspecError(too_many_bones_refusal(arm.name, len(bones), MAX_BONES))
    depsgraph = bpy.context.evaluated_depsgraph_get()
    source = obj.evaluated_get(depsgraph) if apply_modifiers else obj
    me = source.to_mesh()
    try:
        me.transform(console_matrix() @ obj.matrix_world)
        arrays = _mesh_arrays(obj, me, bones)
        sphere = _sphere(me) if len(me.vertices) else None
    finally:
        source.to_mesh_clear()
    skeleton = skeleton_bones(arm, bones) if bones is not None else None
    try:
        model = build_meshbin(arrays, skeleton, texture_size=texture_size, sphere=sphere)
    except MeshbinBuildError as exc:
        raise AnimspecError(meshbin_refusal(exc, obj.name, bones or [], texture_size)) from exc
    findings = validate(model)
    lines = [f"{obj.name}: {len(model.vertices)} vertices, {len(model.faces)} faces, {len(model.uvs)} UVs "
             f"(texture size {texture_size})"]
    warnings = []
    outside = [i for i, uv in enumerate(arrays.uvs or []) if not all(0.0 <= c <= 1.0 for c in uv)]
    if outside:
        warnings.append(
            f"{obj.name}: {len(outside)} UV(s) lie outside 0..1 (first: loop {outside[0]}); the engine adds them to "
            "the texture's place in video memory, so they show whatever lies beside the texture"
        )
    if bones is not None:
        lines.append(f"bones of {arm.name!r}: " + ", ".join(f"{i}={n}" for i, n in enumerate(bones)))
        saved = [str(n) for n in arm[JOINTS_PROPERTY]] if JOINTS_PROPERTY in arm else None
        if saved is not None and saved != list(bones):
            warnings.append(
                f"these bones are not in the joint order saved on {arm.name!r} for ANIMBIN "
                f"({', '.join(saved)}): clips exported with it would move the wrong bones; use the same "
                "'Joint order' for both exports"
            )
    else:
        lines.append(f"{obj.name} has no armature: no skeleton written")
    data = b"" if any(f.severity is Severity.ERROR for f in findings) else write_bytes(model)
    return MeshbinExport(model, data, list(bones or []), lines, warnings, findings)


def refusals(result: MeshbinExport, mesh: str) -> list[str]:
    """The validator's errors, each in the Export panel's terms."""
    return [meshbin_finding_in_blender_words(f, mesh) for f in result.errors]


def write_meshbin(result: MeshbinExport, path: str, arm: bpy.types.Object | None = None, *,
                  mesh: str = "", force: bool = False) -> None:
    """Write atomically; refused when the validator found errors or (without ``force``) the
    file exists. Saves the bone order on ``arm`` (what the ANIMBIN export compares with)."""
    if result.errors:
        raise AnimspecError(f"{path}: not written: " + "; ".join(refusals(result, mesh)))
    if os.path.exists(path) and not force:
        raise AnimspecError(f"{path} exists; tick Overwrite on the Export panel to replace it")
    write_atomic(path, result.data)
    if arm is not None and result.bones:
        arm[MESHBIN_BONES_PROPERTY] = list(result.bones)
