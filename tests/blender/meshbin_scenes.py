"""The models of tests/fixtures/madnight/, built the same way every time in bpy (imported by
the scripts in tests/blender/ that run in the bpy interpreter; not a test module itself).

Each model is one mesh skinned to one armature, made so that the engine's two-step pipeline
(its Blender OBJ+skeleton exporter, then obj-to-meshbin.py) accepts it: every vertex is in
the vertex group of a deform bone, UVs lie in [0, 1], faces are quads and triangles only.

* ``column``: a tube of quads closed by triangle fans, a three-bone chain, UVs, no colours;
  the mesh and the armature are moved and turned (object transforms are applied);
* ``critter``: a branching rig with rolled bones pointing every way, a non-deform control
  bone, quads and triangles, a vertex colour layer (some channels under 0.1), UVs;
* ``posed``: ``column`` with its armature posed (the engine's exporter writes the pose the
  armature is in, and the Armature modifier deforms the mesh it writes).
"""

from __future__ import annotations

import math

import bpy
from mathutils import Euler, Quaternion, Vector

MODELS = ("column", "critter", "posed")
TEXTURE_SIZE = {"column": 256, "critter": 128, "posed": 256}
"""The texture size given to obj-to-meshbin.py for each model (texels per UV unit)."""


def clear() -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)


def _armature(name: str, bones: list[tuple], location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0)) -> bpy.types.Object:
    """bones: (name, parent, head, tail, roll degrees, deform)."""
    data = bpy.data.armatures.new(name)
    arm = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(arm)
    arm.location = location
    arm.rotation_euler = Euler(rotation)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    for bone, parent, head, tail, roll, deform in bones:
        eb = data.edit_bones.new(bone)
        eb.head, eb.tail, eb.roll = Vector(head), Vector(tail), math.radians(roll)
        eb.use_deform = deform
        if parent:
            eb.parent = data.edit_bones[parent]
    bpy.ops.object.mode_set(mode="OBJECT")
    for pb in arm.pose.bones:
        pb.rotation_mode = "QUATERNION"
    return arm


def _mesh(name: str, verts, faces, uvs, groups, arm, location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0),
          colours=None) -> bpy.types.Object:
    """uvs: one (u, v) per face corner, in face order; groups: one bone name per vertex."""
    me = bpy.data.meshes.new(name)
    me.from_pydata([Vector(v) for v in verts], [], faces)
    me.update()
    layer = me.uv_layers.new(name="UVMap")
    for i, uv in enumerate(uvs):
        layer.data[i].uv = uv
    if colours is not None:
        attr = me.color_attributes.new("Col", "FLOAT_COLOR", "POINT")
        for i, c in enumerate(colours):
            attr.data[i].color = (*c, 1.0)
        me.color_attributes.active_color = attr
    obj = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    obj.rotation_euler = Euler(rotation)
    for bone in dict.fromkeys(groups):
        group = obj.vertex_groups.new(name=bone)
        group.add([i for i, g in enumerate(groups) if g == bone], 1.0, "REPLACE")
    obj.parent = arm
    mod = obj.modifiers.new("Armature", "ARMATURE")
    mod.object = arm
    return obj


def _tube(segments: int, rings: list[float], radius: float):
    """Vertices, faces (quads around, triangle fans at both ends) and per-corner UVs."""
    verts = []
    for z in rings:
        for s in range(segments):
            a = 2.0 * math.pi * s / segments
            verts.append((radius * math.cos(a), radius * math.sin(a), z))
    bottom, top = len(verts), len(verts) + 1
    verts += [(0.0, 0.0, rings[0]), (0.0, 0.0, rings[-1])]
    faces, uvs = [], []
    span = rings[-1] - rings[0]
    for r in range(len(rings) - 1):
        for s in range(segments):
            t = (s + 1) % segments
            faces.append((r * segments + s, r * segments + t, (r + 1) * segments + t, (r + 1) * segments + s))
            u0, u1 = s / segments, (s + 1) / segments
            v0, v1 = (rings[r] - rings[0]) / span, (rings[r + 1] - rings[0]) / span
            uvs += [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
    last = (len(rings) - 1) * segments
    for s in range(segments):
        t = (s + 1) % segments
        faces.append((t, s, bottom))
        uvs += [(0.25, 0.1), (0.3, 0.2), (0.2, 0.2)]
        faces.append((last + s, last + t, top))
        uvs += [(0.75, 0.9), (0.8, 0.8), (0.7, 0.8)]
    return verts, faces, uvs


def build_column(posed: bool = False) -> tuple[bpy.types.Object, bpy.types.Object]:
    arm = _armature(
        "ColumnRig",
        [("base", None, (0, 0, 0), (0, 0, 1.0), 0.0, True),
         ("mid", "base", (0, 0, 1.0), (0, 0, 2.0), 0.0, True),
         ("top", "mid", (0, 0, 2.0), (0, 0, 3.0), 15.0, True)],
        location=(0.5, -0.25, 0.1), rotation=(0.0, 0.0, math.radians(30.0)),
    )
    rings = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    verts, faces, uvs = _tube(6, rings, 0.4)
    groups = []
    for x, y, z in verts:
        groups.append("base" if z < 0.9 else "mid" if z < 1.9 else "top")
    mesh = _mesh("Column", verts, faces, uvs, groups, arm, location=(0.0, 0.0, 0.0))
    if posed:
        arm.pose.bones["mid"].rotation_quaternion = Quaternion(Vector((1.0, 0.0, 0.0)), math.radians(35.0))
        arm.pose.bones["top"].rotation_quaternion = Quaternion(Vector((0.0, 1.0, 0.3)).normalized(), math.radians(-50.0))
        arm.pose.bones["base"].location = Vector((0.0, 0.2, 0.0))
        bpy.context.view_layer.update()
    return mesh, arm


def build_critter() -> tuple[bpy.types.Object, bpy.types.Object]:
    arm = _armature(
        "CritterRig",
        [("hips", None, (0, 0, 0.6), (0, 0.1, 1.0), 0.0, True),
         ("chest", "hips", (0, 0.1, 1.0), (0, 0.05, 1.5), 10.0, True),
         ("head", "chest", (0, 0.05, 1.5), (0, -0.1, 1.9), -20.0, True),
         ("arm.L", "chest", (0.2, 0.05, 1.4), (0.7, 0.2, 1.1), 45.0, True),
         ("arm.R", "chest", (-0.2, 0.05, 1.4), (-0.7, 0.2, 1.1), -45.0, True),
         ("ctrl", None, (0, -0.8, 0), (0, -1.2, 0), 0.0, False),
         ("tail", "hips", (0, 0.2, 0.6), (0, 0.9, 0.3), 90.0, True)],
        location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0),
    )
    verts = [
        # body box (hips/chest)
        (-0.25, -0.15, 0.5), (0.25, -0.15, 0.5), (0.25, 0.25, 0.5), (-0.25, 0.25, 0.5),
        (-0.2, -0.1, 1.5), (0.2, -0.1, 1.5), (0.2, 0.2, 1.5), (-0.2, 0.2, 1.5),
        # head pyramid
        (0.0, 0.0, 1.95),
        # arms: a triangle each
        (0.7, 0.2, 1.1), (0.6, 0.25, 1.2),
        (-0.7, 0.2, 1.1), (-0.6, 0.25, 1.2),
        # tail quad end
        (-0.05, 0.9, 0.3), (0.05, 0.9, 0.3),
    ]
    faces = [
        (0, 3, 2, 1), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7),
        (4, 5, 8), (5, 6, 8), (6, 7, 8), (7, 4, 8),
        (5, 9, 10), (6, 10, 9),
        (4, 12, 11), (7, 11, 12),
        (2, 3, 13, 14),
    ]
    uvs = []
    for f in faces:
        for k, _ in enumerate(f):
            uvs.append(((0.13 * (len(uvs) % 7) + 0.05 * k) % 1.0, (0.09 * (len(uvs) % 11)) % 1.0))
    groups = ["hips"] * 4 + ["chest"] * 4 + ["head"] + ["arm.L"] * 2 + ["arm.R"] * 2 + ["tail"] * 2
    colours = [((i * 37 % 100) / 100.0, (i * 53 % 100) / 100.0, (i * 71 % 100) / 100.0) for i in range(len(verts))]
    mesh = _mesh("Critter", verts, faces, uvs, groups, arm, location=(0.0, 0.3, 0.0),
                 rotation=(0.0, 0.0, math.radians(-12.0)), colours=colours)
    return mesh, arm


def build(model: str) -> tuple[bpy.types.Object, bpy.types.Object]:
    """A fresh scene with ``model``; its mesh selected and active (what both exporters export)."""
    clear()
    if model == "column":
        mesh, arm = build_column()
    elif model == "posed":
        mesh, arm = build_column(posed=True)
    elif model == "critter":
        mesh, arm = build_critter()
    else:
        raise ValueError(model)
    bpy.context.view_layer.update()
    for obj in bpy.context.scene.objects:
        obj.select_set(False)
    mesh.select_set(True)
    bpy.context.view_layer.objects.active = mesh
    return mesh, arm
