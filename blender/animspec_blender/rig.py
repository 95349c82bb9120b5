"""Where an ANIMBIN key meets a Blender bone: the joint list and the rest of each joint.

The engine's Blender exporter (the console's only source of ANIMBIN files) numbers joints
in the armature's deform-bone order and writes, per joint, the bone's FULL local rotation:

* a root bone (no parent): ``D @ pose_bone.matrix`` in armature space, with D = diag(1, -1, -1)
  (the exporter calls it Z-up to Y-down; D is a half turn about X, taking up (+Z) to -Z, and its own inverse);
* any other bone: ``pose_bone.parent.matrix^-1 @ pose_bone.matrix``.

Blender composes ``pose_bone.matrix = parent.matrix @ (parent.bone.matrix_local^-1 @
bone.matrix_local) @ matrix_basis`` (a root: ``bone.matrix_local @ matrix_basis``). So the key
of a bone is ``rest_key @ basis`` with ``rest_key`` the key the bone has at rest, and the pose
that shows a key is ``basis = rest_key^-1 @ key``: it depends only on the bone's own key and
rest, never on its parent's pose. :func:`rest_keys` and :func:`basis_for_key` are that rule;
the importer and the tests use nothing else.

A MESHBIN skeleton (:func:`build_armature`) is in the console's model space; its bones become
Blender bones whose rest keys are the MESHBIN's rest rotations: armature-space rest matrix
``D @ W`` where W is the bone's model-space rest transform (forward kinematics of the
MESHBIN's local positions and rotations).
"""

from __future__ import annotations

from collections.abc import Sequence

import bpy
import numpy as np
from mathutils import Matrix, Quaternion, Vector

from animspec.common.errors import AnimspecError

AXIS_CHANGE = Matrix(((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0)))
"""diag(1, -1, -1): Blender's armature space <-> the console's model space, both ways."""

AXIS_CHANGE_4 = AXIS_CHANGE.to_4x4()
"""The same turn as a 4x4 matrix, as the engine's two exporters write it and multiply it with
a pose bone's matrix in Blender's float32 ``mathutils`` before the decomposition (the same
float operations give the same bits)."""

JOINTS_PROPERTY = "animbin_joints"
"""On an armature object: bone name per joint id, when it is not the deform-bone order
(an armature made from a MESHBIN whose bone order is not Blender's depth-first order)."""

MESHBIN_BONES_PROPERTY = "meshbin_bones"
"""Custom property on the armature: the bone names of the last MESHBIN exported from it, in
bone order (the ANIMBIN export compares its joint order with it)."""

MIN_BONE_LENGTH = 1e-3
"""Blender deletes a bone whose head and tail meet; a leaf bone of a MESHBIN skeleton (no
child to point at) gets its parent's length, or this."""


def deform_bones(arm: bpy.types.Object) -> list[str]:
    """The armature's deform bones in the order the exporter numbers them (joint id = index)."""
    return [b.name for b in arm.data.bones if b.use_deform]


def joint_bones(arm: bpy.types.Object, joint_names: Sequence[str] | None = None) -> list[str]:
    """Bone name per joint id: the deform-bone order, or ``joint_names`` (one per joint id,
    as in a joint-names file), every one of which must be a bone of ``arm``."""
    if joint_names is None:
        return deform_bones(arm)
    missing = [n for n in joint_names if n not in arm.data.bones]
    if missing:
        raise AnimspecError(
            f"joint names {missing} are not bones of armature {arm.name!r} (its bones: "
            f"{[b.name for b in arm.data.bones]})"
        )
    return list(joint_names)


def armature_joints(arm: bpy.types.Object, joint_names: Sequence[str] | None = None) -> list[str]:
    """Bone per joint id: ``joint_names``, else the armature's stored order, else deform order."""
    if joint_names is None and JOINTS_PROPERTY in arm:
        joint_names = [str(n) for n in arm[JOINTS_PROPERTY]]
    return joint_bones(arm, joint_names)


def joint_parents(arm: bpy.types.Object, bones: Sequence[str]) -> list[str | None]:
    """Per joint, the nearest ancestor bone that is a joint too (None: a root). The engine's
    exporter takes the bone's Blender parent, which is the same bone whenever every parent
    of a deform bone deforms (the glTF conversion composes through the others the same way)."""
    joints = set(bones)
    parents: list[str | None] = []
    for name in bones:
        parent = arm.data.bones[name].parent
        while parent is not None and parent.name not in joints:
            parent = parent.parent
        parents.append(parent.name if parent is not None else None)
    return parents


def read_joint_names(path: str) -> list[str]:
    """A joint-names file: one bone name per line, joint 0 first; blank lines and # comments skipped."""
    with open(path, encoding="utf-8") as f:
        names = [line.split("#", 1)[0].strip() for line in f]
    return [n for n in names if n]


def rest_key(bone: bpy.types.Bone) -> Quaternion:
    """The key the exporter writes for ``bone`` in its rest pose (unit quaternion)."""
    if bone.parent is None:
        m = AXIS_CHANGE @ bone.matrix_local.to_3x3()
    else:
        m = bone.parent.matrix_local.to_3x3().inverted() @ bone.matrix_local.to_3x3()
    return m.to_quaternion()


def rest_keys(arm: bpy.types.Object, bones: Sequence[str]) -> list[Quaternion]:
    return [rest_key(arm.data.bones[name]) for name in bones]


def basis_for_key(rest: Quaternion, key: Sequence[float]) -> Quaternion:
    """``pose_bone.rotation_quaternion`` that makes the bone show ``key`` (w, x, y, z, any
    length: Blender normalises, as the engine's Normalize does)."""
    q = Quaternion(key)
    q.normalize()
    return rest.inverted() @ q


def key_of_pose(pose_bone: bpy.types.PoseBone) -> Quaternion:
    """The exporter's key for the bone's current (evaluated) pose."""
    if pose_bone.parent is None:
        m = AXIS_CHANGE @ pose_bone.matrix.to_3x3()
    else:
        m = pose_bone.parent.matrix.to_3x3().inverted() @ pose_bone.matrix.to_3x3()
    return m.normalized().to_quaternion()


# --- an armature from a MESHBIN skeleton -----------------------------------------------------


def _model_space_rest(parents: np.ndarray, translation: np.ndarray, rotation: np.ndarray) -> list[Matrix]:
    """Each bone's rest transform in the console's model space: world = parent.world @ local."""
    world: list[Matrix] = []
    for i, parent in enumerate(parents.tolist()):
        q = Quaternion([float(c) for c in rotation[i]])
        q.normalize()
        local = Matrix.Translation(Vector([float(c) for c in translation[i]])) @ q.to_matrix().to_4x4()
        world.append(local if parent < 0 else world[parent] @ local)
    return world


def build_armature(
    name: str, parents: np.ndarray, translation: np.ndarray, rotation: np.ndarray, bone_names: Sequence[str],
    scale: float = 1.0, collection: bpy.types.Collection | None = None, axis: Matrix = AXIS_CHANGE,
) -> bpy.types.Object:
    """A new armature object whose deform bones, in order, are the skeleton's joints.

    ``translation`` (n, 3) in model units and ``rotation`` (n, 4) w, x, y, z are each bone's
    rest relative to its parent (:class:`animspec.skeleton.Skeleton`); ``scale`` multiplies
    positions only (rotations, hence keys, do not depend on it). Parents come before children.
    ``axis`` turns the skeleton's space into armature space: diag(1, -1, -1) for the console's
    model space (a MESHBIN); the identity for a skeleton already in Blender's axes. Each
    bone's frame is its joint's frame, so a bone's pose relative to its parent is the joint's
    local transform.
    """
    n = len(parents)
    world = _model_space_rest(np.asarray(parents), np.asarray(translation, float) * scale, np.asarray(rotation, float))
    d4 = axis.to_4x4()
    in_armature = [d4 @ w for w in world]
    heads = [m.to_translation() for m in in_armature]
    lengths = []
    for i in range(n):
        children = [c for c in range(n) if parents[c] == i]
        reach = max(((heads[c] - heads[i]).length for c in children), default=0.0)
        lengths.append(reach)
    for i in range(n):
        if lengths[i] < MIN_BONE_LENGTH:
            parent = int(parents[i])
            inherited = parent >= 0 and lengths[parent] >= MIN_BONE_LENGTH
            lengths[i] = lengths[parent] if inherited else max(MIN_BONE_LENGTH, 0.1 * scale)

    data = bpy.data.armatures.new(name)
    arm = bpy.data.objects.new(name, data)
    (collection or bpy.context.scene.collection).objects.link(arm)
    previous = bpy.context.view_layer.objects.active
    bpy.context.view_layer.objects.active = arm
    mode = bpy.context.object.mode if bpy.context.object else "OBJECT"
    bpy.ops.object.mode_set(mode="EDIT")
    try:
        edit: list[bpy.types.EditBone] = []
        for i in range(n):
            eb = data.edit_bones.new(bone_names[i])
            eb.head = Vector((0.0, 0.0, 0.0))
            eb.tail = Vector((0.0, lengths[i], 0.0))
            # Setting the matrix keeps the length and sets head, direction and roll, so the
            # bone's frame is exactly the rest rotation (its Y axis along the bone).
            eb.matrix = in_armature[i].normalized()
            eb.use_deform = True
            if parents[i] >= 0:
                eb.parent = edit[int(parents[i])]
                eb.use_connect = False
            edit.append(eb)
    finally:
        bpy.ops.object.mode_set(mode="OBJECT")
    if previous is not None and mode == "OBJECT":
        bpy.context.view_layer.objects.active = arm
    for pb in arm.pose.bones:
        pb.rotation_mode = "QUATERNION"
    return arm


def order_mismatch(arm: bpy.types.Object, joints: Sequence[str]) -> str | None:
    """The ANIMBIN export's warning when its joint order is not the bone order of a MESHBIN
    from the same armature: the last one exported, else (when a mesh is skinned to it) what
    the MESHBIN export would use with 'Joint order' at 'Armature's order'. None when they
    agree, or when there is no mesh to export."""
    if MESHBIN_BONES_PROPERTY in arm:
        reference, what = [str(n) for n in arm[MESHBIN_BONES_PROPERTY]], "the MESHBIN last exported from it"
    elif any(o.type == "MESH" and o.find_armature() == arm for o in bpy.data.objects):
        reference, what = armature_joints(arm, None), "a MESHBIN exported from it with Joint order 'Armature's order'"
    else:
        return None  # no mesh to export with this armature
    if list(joints) == reference:
        return None
    first = next((i for i, (a, b) in enumerate(zip(joints, reference)) if a != b), min(len(joints), len(reference)))
    here = joints[first] if first < len(joints) else "nothing"
    there = reference[first] if first < len(reference) else "nothing"
    return (
        f"joint order does not match {what} on {arm.name!r}: joint {first} is {here!r} here but bone {first} is "
        f"{there!r} there ({len(joints)} joints, {len(reference)} bones), so the console would move the wrong "
        "bones; choose the same 'Joint order' in both exports"
    )
