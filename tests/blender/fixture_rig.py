"""A small rig and five actions for the add-on's exactness checks; imported by the scripts in
tests/blender/ that run in the bpy interpreter, not a test module itself.

The rig has bones at rest relative to their parent (the identity key, [4096, 0, 0, 0] when
truncated exactly), bones turned 90 and 180 degrees from their parent at rest, and a root
that points up. The actions are the shapes where truncation is most fragile:

* ``idle_breathe``: the spine breathes, every other bone stays at rest (identity keys);
* ``quat_sign_flip``: an arm turns a full circle about its own axis (w crosses zero);
* ``swing``: a hand swings left and right through its rest pose;
* ``walk``: a leg and shin step, from Blender frame 1, the first frame at rest;
* ``turns``: exact quarter and half turns about X, Y and Z, held (CONSTANT) on each frame.
"""

from __future__ import annotations

import math

import bpy
from mathutils import Euler, Quaternion, Vector

# name, parent, head, tail
BONES = [
    ("root", None, (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    ("spine", "root", (0.0, 0.0, 1.0), (0.0, 0.0, 2.0)),
    ("head", "spine", (0.0, 0.0, 2.0), (0.0, 0.0, 2.5)),
    ("arm.L", "spine", (0.0, 0.0, 1.8), (1.0, 0.0, 1.8)),
    ("hand.L", "arm.L", (1.0, 0.0, 1.8), (1.5, 0.0, 1.8)),
    ("arm.R", "spine", (0.0, 0.0, 1.8), (-1.0, 0.0, 1.8)),
    ("leg.L", "root", (0.2, 0.0, 0.0), (0.2, 0.0, -1.0)),
    ("shin.L", "leg.L", (0.2, 0.0, -1.0), (0.2, 0.0, -2.0)),
]

ACTIONS = ("idle_breathe", "quat_sign_flip", "swing", "walk", "turns")


def build_rig(name: str = "Rig", control_bone: bool = False) -> bpy.types.Object:
    """The armature, linked to the scene and active; with ``control_bone`` also a bone that
    does not deform (animated by the actions, never exported)."""
    data = bpy.data.armatures.new(name)
    arm = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    for bone, parent, head, tail in BONES:
        eb = data.edit_bones.new(bone)
        eb.head, eb.tail, eb.roll = Vector(head), Vector(tail), 0.0
        eb.use_deform = True
        if parent:
            eb.parent = data.edit_bones[parent]
    if control_bone:
        eb = data.edit_bones.new("ctrl")
        eb.head, eb.tail, eb.use_deform = Vector((0.0, 1.0, 0.0)), Vector((0.0, 1.5, 0.0)), False
    bpy.ops.object.mode_set(mode="OBJECT")
    for pb in arm.pose.bones:
        pb.rotation_mode = "QUATERNION"
    arm.animation_data_create()
    return arm


def _key(arm, action, bone: str, frame: int, q: Quaternion, interpolation: str | None = None) -> None:
    pb = arm.pose.bones[bone]
    pb.rotation_quaternion = q
    pb.keyframe_insert("rotation_quaternion", frame=frame)
    if interpolation:
        for bag in _bags(action):
            for curve in bag.fcurves:
                for point in curve.keyframe_points:
                    point.interpolation = interpolation


def _bags(action):
    for layer in action.layers:
        for strip in layer.strips:
            for slot in action.slots:
                bag = strip.channelbag(slot)
                if bag is not None:
                    yield bag


def _turn(axis: str, degrees: float) -> Quaternion:
    return Quaternion(Vector({"X": (1, 0, 0), "Y": (0, 1, 0), "Z": (0, 0, 1)}[axis]), math.radians(degrees))


def make_actions(arm: bpy.types.Object) -> list[bpy.types.Action]:
    made = []
    rest = Quaternion()

    def new(name: str) -> bpy.types.Action:
        action = bpy.data.actions.new(name)
        action.use_fake_user = True
        arm.animation_data.action = action
        for pb in arm.pose.bones:
            pb.rotation_quaternion = rest
        made.append(action)
        return action

    action = new("idle_breathe")
    for frame in (0, 10, 20, 29):
        _key(arm, action, "spine", frame, Euler((0.04 * math.sin(frame / 5.0), 0.0, 0.0)).to_quaternion())
    _key(arm, action, "head", 0, rest)
    _key(arm, action, "head", 29, rest)

    action = new("quat_sign_flip")
    for k, frame in enumerate((0, 5, 10, 15, 19)):
        _key(arm, action, "arm.L", frame, _turn("Y", 90.0 * k))
    if "ctrl" in arm.pose.bones:
        arm.pose.bones["ctrl"].keyframe_insert("location", frame=0)
        arm.pose.bones["ctrl"].keyframe_insert("location", frame=19)

    action = new("swing")
    for frame, degrees in ((0, 0.0), (7, 45.0), (15, 0.0), (22, -45.0), (29, 0.0)):
        _key(arm, action, "hand.L", frame, _turn("Z", degrees))

    action = new("walk")
    for frame, degrees in ((1, 0.0), (7, 30.0), (13, 0.0), (19, -30.0), (24, 0.0)):
        _key(arm, action, "leg.L", frame, _turn("X", degrees))
        _key(arm, action, "shin.L", frame, _turn("X", abs(degrees) * 1.5))

    action = new("turns")
    for frame, (axis, degrees) in enumerate(
        [("X", 0.0), ("X", 90.0), ("X", 180.0), ("Y", 90.0), ("Y", 180.0), ("Z", 90.0), ("Z", 180.0),
         ("X", -90.0), ("Z", 270.0), ("Y", -180.0)]
    ):
        for bone in ("root", "spine", "hand.L", "leg.L"):
            _key(arm, action, bone, frame, _turn(axis, degrees), "CONSTANT")
    return made


def exporter_keys(arm: bpy.types.Object, action: bpy.types.Action) -> list[list[list[int]]]:
    """Per frame of the action (first..last, at most 30), per deform bone, the key the
    engine's exporter writes, by its rule restated here (psyqo-madnight-engine
    tools/blender_animbin.py, write_animation): the evaluated pose after frame_set; a bone
    without a parent as diag(1, -1, -1) @ its pose matrix, any other relative to its parent's
    pose matrix; the rotation of the 4x4 matrix's decomposition; int(v * 4096) clamped to
    int16."""
    from mathutils import Matrix

    axis = Matrix(((1, 0, 0, 0), (0, -1, 0, 0), (0, 0, -1, 0), (0, 0, 0, 1)))
    scene = bpy.context.scene
    # Bones the action does not key: at rest (the exporter would keep whatever pose the
    # previous action left them in; Blender's glTF exporter resets them, so does the add-on).
    for pb in arm.pose.bones:
        pb.matrix_basis.identity()
    arm.animation_data.action = action
    if action.slots:
        arm.animation_data.action_slot = action.slots[0]
    first = int(action.frame_range[0])
    last = min(int(action.frame_range[1]), first + 29)
    deform = [b.name for b in arm.pose.bones if b.bone.use_deform]
    frames = []
    for frame in range(first, last + 1):
        scene.frame_set(frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        depsgraph.update()
        pose = arm.evaluated_get(depsgraph).pose.bones
        keys = []
        for name in deform:
            pb = pose[name]
            m = axis @ pb.matrix if pb.parent is None else pb.parent.matrix.inverted_safe() @ pb.matrix
            q = m.decompose()[1]
            keys.append([max(-32768, min(32767, int(v * 4096))) for v in (q.w, q.x, q.y, q.z)])
        frames.append(keys)
    return frames
