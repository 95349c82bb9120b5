"""An Insomniac .animclip's base pose onto a Blender armature, by joint-name hash.

What is known of the format (Tkachov/ALERT's animclip_to_gltf.py, restated): Base State
holds one transform per joint, matched to a rig by the DAT1 CRC32 of the joint's name
(:func:`animspec.common.hashes.crc32`, case-sensitive); each REPLACES the joint's transform relative
to its parent (rotation, and translation when the clip has one). Every frame of a clip is imported by
:mod:`.animclip_anim`; this keys the base state alone. Custom tracks are plain
float curves (one value per frame, LABELLED) with no Blender counterpart.

Here a bone named so that its hash is a clip joint's gets, at one frame, the pose whose
transform relative to its parent bone is the first frame's, measured in the armature's own bone
frames; a bone without parent is placed in the root space the animation import uses
(:data:`ROOT_SPACES`, shared with :mod:`.animclip_anim`: by default the game's Y-up space turned into Blender's
Z-up, so a game clip stands upright). That is the clip's meaning when the bones' frames are the
game rig's joint frames turned into Z-up: on an armature from Blender's own glTF import of a
Y-up rig (its default Bone Dir keeps each bone in its node's frame, turned by +90 degrees about
X), on one built by :func:`armature_from_gltf` (the same turn), or on one a Luna model import
made. Custom tracks are kept on the action as the custom property ``animclip_tracks`` (name ->
values) and its fps as ``animclip_fps``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import bpy
from mathutils import Matrix, Quaternion, Vector

from animspec.common.errors import AnimspecError
from animspec.common.hashes import crc32

TRACKS_PROPERTY = "animclip_tracks"
FPS_PROPERTY = "animclip_fps"

ENGINE_FROM_BLENDER = Matrix.Rotation(-math.pi / 2, 4, "X")
"""Blender's Z-up armature space to the engine's Y-up joint space (tools/luna_check.py)."""

ROOT_SPACES = ("engine", "armature")
"""Where a bone without parent is: "engine", the engine's Y-up space turned into Blender's Z-up
(Luna's convention, the game's, and the turn Blender's own glTF importer gives a Y-up rig: the
right choice for a game clip on an armature from Blender's glTF import, from
:func:`armature_from_gltf`, from a Luna model import, or built in Blender);
"armature", the armature's own axes (a clip whose roots were authored in Blender's Z-up
axes, by a tool that does not turn them)."""


def root_turn(root_space: str) -> Matrix:
    """Blender's armature space to the root space (:data:`ROOT_SPACES`); any other name is refused."""
    if root_space not in ROOT_SPACES:
        raise AnimspecError(f"root space {root_space!r} is not one of {ROOT_SPACES}")
    return ENGINE_FROM_BLENDER if root_space == "engine" else Matrix.Identity(4)


def rest_local(bone: bpy.types.Bone, root_space: str = "engine") -> Matrix:
    """The bone's rest relative to its parent's rest (a root: in the root space)."""
    if bone.parent is None:
        return root_turn(root_space) @ bone.matrix_local
    return bone.parent.matrix_local.inverted() @ bone.matrix_local


@dataclass
class BasePoseReport:
    action: str
    matched: list[tuple[str, str]] = field(default_factory=list)
    """(bone, clip joint label) pairs."""
    clip_only: list[str] = field(default_factory=list)
    bones_only: list[str] = field(default_factory=list)
    tracks: list[str] = field(default_factory=list)


def armature_from_gltf(path: str, *, joint_names: Sequence[str] | None = None) -> bpy.types.Object:
    """An armature whose bones are a glTF rig's skin joints with the nodes' own frames, the
    glTF's Y-up turned into Blender's Z-up as Blender's own glTF importer turns it (+90 degrees
    about X), so the rig stands upright and the game's clips play on it in the default root
    space."""
    from animspec.gltf import skeleton_from_gltf

    from .rig import build_armature

    skeleton = skeleton_from_gltf(path, joint_names=joint_names)
    name = os.path.splitext(os.path.basename(path))[0]
    return build_armature(name, skeleton.parents, skeleton.rest_translation, skeleton.rest_rotation, skeleton.names,
                          axis=ENGINE_FROM_BLENDER.inverted().to_3x3())


def import_base_pose(
    arm: bpy.types.Object, clip_path: str, *, frame: int = 0, joint_names: Sequence[str] | None = None,
    root_space: str = "engine",
) -> BasePoseReport:
    """Key the clip's first frame (Base State plus sample 0: Base State alone is the base the
    samples are added to, not a pose, for a joint the clip animates) on the bones whose names
    hash to its joints (one new action named after the clip). ``joint_names`` only label clip
    joints in the report. ``root_space``: where a bone without parent is, as for the animation
    import (:data:`ROOT_SPACES`)."""
    from animspec.animclip import read_file
    from animspec.animclip.frames.pose import clip_frames, first_frame

    if arm is None or arm.type != "ARMATURE":
        raise AnimspecError("select the armature to pose (its bone names must hash to the clip's joints)")
    root_turn(root_space)  # an unknown root space is refused before anything is read
    model = read_file(clip_path)
    clip = model.clip(list(joint_names) if joint_names else None)
    frames = clip_frames(model, clip_path)
    rotations, translations, _scales = first_frame(frames)
    first = {int(h): j for j, h in enumerate(frames.joint_hashes)}
    joints = [j for j in clip.joints if j.hash is not None and j.rotation is not None]
    by_hash = {crc32(b.name): b.name for b in arm.data.bones}
    report = BasePoseReport(action="")
    matched = []
    for joint in joints:
        label = joint.name or f"{joint.hash:08X}"
        bone = by_hash.get(cast(int, joint.hash))  # joints without a hash were left out above
        if bone is None:
            report.clip_only.append(label)
        else:
            matched.append((bone, joint))
            report.matched.append((bone, label))
    if not matched:
        raise AnimspecError(
            f"{clip_path}: no bone of {arm.name!r} has a name whose CRC32 is one of the clip's {len(joints)} joint "
            "hashes; the armature must use the game's joint names"
        )
    posed = {bone for bone, _ in matched}
    report.bones_only = [b.name for b in arm.data.bones if b.name not in posed]

    arm.animation_data_create()
    action = bpy.data.actions.new(clip.name or os.path.splitext(os.path.basename(clip_path))[0])
    action.use_fake_user = True
    arm.animation_data.action = action
    for bone_name, joint in matched:
        bone = arm.data.bones[bone_name]
        pb = arm.pose.bones[bone_name]
        j = first[cast(int, joint.hash)]
        x, y, z, w = (float(c) for c in rotations[j])
        rotation = Quaternion((w, x, y, z))
        rotation.normalize()
        rest = rest_local(bone, root_space)
        translation = Vector([float(c) for c in translations[j]])
        local = Matrix.Translation(translation) @ rotation.to_matrix().to_4x4()
        basis = rest.inverted() @ local
        pb.rotation_mode = "QUATERNION"
        pb.location = basis.to_translation()
        pb.rotation_quaternion = basis.to_quaternion()
        pb.keyframe_insert("location", frame=frame, group=bone_name)
        pb.keyframe_insert("rotation_quaternion", frame=frame, group=bone_name)
    tracks = {}
    for track in clip.custom_tracks:
        name = track.name or f"{track.hash:08X}"
        tracks[name] = [float(v) for v in track.values]
    if tracks:
        action[TRACKS_PROPERTY] = tracks
        report.tracks = list(tracks)
    if clip.fps:
        action[FPS_PROPERTY] = float(clip.fps)
    report.action = action.name
    bpy.context.scene.frame_set(frame)
    return report
