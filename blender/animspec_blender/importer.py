"""ANIMBIN -> Blender actions on an armature.

Each ANIMBIN animation becomes an action. Keys land at Blender frame
``first_frame + key.frame * scene_fps / region_hz``: the time the console shows them on the
chosen region, which is ``first_frame + key.frame`` when the scene runs at the region's vsync
rate (``set_scene_fps``, the default: 60/1.001 fps for NTSC, 50 for PAL). Each key sets the
bone's ``rotation_quaternion`` so that the exporter's rule (:mod:`.rig`) gives back the key.

* ``console=False`` (keys as authored): one keyframe per ANIMBIN key, LINEAR (Blender then
  blends between keys the way the artist meant; the console does not, see the validator's
  sparse-keys warning).
* ``console=True`` ("as the console shows it"): the engine-faithful playback
  (:func:`animspec.animbin.playback.play_engine`, integer FP12, held keys) baked on every
  vsync with CONSTANT interpolation, so the stepping and the FP12 error are visible.

Bones a clip has no track for get no keys: Blender leaves them where they are, as the console
leaves a bone without a track where the previous clip left it (at rest on a fresh skeleton).

Each action keeps what Blender has no place for as custom properties (the exporter reads
them back, :mod:`.exporter`): ``animbin_looping`` (the flags' loop bit), ``animbin`` (the
clip's layout: length, flags, version, per track its joint, type and key frames, in the form
:func:`animspec.gltf.gltf_to_animbin` reads from a glTF animation's ``extras.animbin``, which is
where Blender's glTF exporter puts an action's custom properties) and ``animbin_raw`` (the
stored FP12 values, so keys nobody moved are written back with their exact bytes). Markers
become the action's pose markers. Translation keys (never applied by the engine) are not
imported; the importer says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import bpy
import numpy as np
from mathutils import Quaternion, Vector

from animspec.animbin.model import FP12_ONE, Animation, AnimbinFile, RotationKey, TranslationKey
from animspec.animbin.playback import Refresh, play_engine, refresh_hz, vsync_deltas
from animspec.common.errors import AnimspecError

from .rig import JOINTS_PROPERTY, armature_joints, basis_for_key, rest_keys

NTSC_FPS = (60, 1.001)
PAL_FPS = (50, 1.0)

LOOPING_PROPERTY = "animbin_looping"
INDEX_PROPERTY = "animbin_index"
"""The animation's index in the imported file: "all" exports actions in that order."""
LAYOUT_PROPERTY = "animbin"
RAW_PROPERTY = "animbin_raw"


@dataclass
class ImportReport:
    actions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    keys: int = 0


def set_scene_rate(scene: bpy.types.Scene, region: Refresh) -> None:
    """Scene fps = the region's vsync rate: one Blender frame per console frame."""
    hz = refresh_hz(region)
    if abs(hz - 60000 / 1001) < 1e-9:
        scene.render.fps, scene.render.fps_base = NTSC_FPS
    else:
        scene.render.fps, scene.render.fps_base = int(round(hz)), round(hz) / hz


def scene_fps(scene: bpy.types.Scene) -> float:
    return scene.render.fps / scene.render.fps_base


def blender_frames_per_vsync(scene: bpy.types.Scene, region: Refresh) -> float:
    """Blender frames per console frame: exactly 1 when the scene runs at the region's rate
    (snapped: Blender keeps fps_base 1.001 as a float32, 5e-8 off, and Blender's glTF
    exporter truncates a range end of 28.999... to 28)."""
    ratio = scene_fps(scene) / refresh_hz(region)
    return 1.0 if abs(ratio - 1.0) < 1e-6 else ratio  # fps_base is a float32


def _channelbag(arm: bpy.types.Object, action: bpy.types.Action):
    from bpy_extras import anim_utils

    slot = arm.animation_data.action_slot
    if slot is None:  # a new action has no slot yet (Blender 4.4+ layered actions)
        slot = action.slots.new(id_type="OBJECT", name=arm.name)
        arm.animation_data.action_slot = slot
    return anim_utils.action_ensure_channelbag_for_slot(action, slot)


def _write_curves(arm, action, per_bone: dict[str, tuple[list[float], list[Quaternion]]], interpolation: str) -> int:
    """Keyframes straight into the action's F-curves (fast, and exact: no keying sets)."""
    bag = _channelbag(arm, action)
    count = 0
    for bone, (frames, quats) in per_bone.items():
        path = f'pose.bones["{bpy.utils.escape_identifier(bone)}"].rotation_quaternion'
        for axis in range(4):
            curve = bag.fcurves.find(path, index=axis) or bag.fcurves.new(path, index=axis, group_name=bone)
            curve.keyframe_points.add(len(frames))
            values = [c for f, q in zip(frames, quats) for c in (f, q[axis])]
            curve.keyframe_points.foreach_set("co", values)
            curve.keyframe_points.foreach_set("interpolation", [_INTERPOLATION[interpolation]] * len(frames))
            curve.update()
        count += len(frames)
    return count


_INTERPOLATION = {
    name: i for i, name in enumerate(bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items.keys())
}


def _continuous(quats: list[Quaternion]) -> list[Quaternion]:
    """Each quaternion in the hemisphere of the previous one: Blender blends F-curves
    component by component, and q, -q (one rotation) would blend through a wrong pose."""
    out: list[Quaternion] = []
    for q in quats:
        if out and out[-1].dot(q) < 0:
            q = -q
        out.append(q)
    return out


def _layout(animation: Animation, version: int, hz: float) -> tuple[dict, list[list[int]]]:
    tracks, raw = [], []
    for track in animation.tracks:
        tracks.append({
            "joint": track.joint_id,
            "track_type": track.track_type,
            "keys": [[k.frame, int(k.key_type)] for k in track.keys],
        })
        raw.append([c for k in track.keys for c in (k.quaternion if isinstance(k, RotationKey) else (0, 0, 0, 0))])
    layout = {
        "length": animation.length,
        "flags": animation.flags,
        "looping": animation.is_looping,
        "refresh_hz": hz,
        "mode": "keys",
        "version": version,
        "tracks": tracks,
    }
    return layout, raw


def import_animbin(
    arm: bpy.types.Object,
    animbin: AnimbinFile,
    *,
    region: Refresh = "ntsc",
    first_frame: int = 0,
    console: bool = False,
    joint_names: Sequence[str] | None = None,
    set_scene_fps: bool = True,
    name_prefix: str = "",
) -> ImportReport:
    """Every animation of ``animbin`` as a new action on armature ``arm`` (the last one assigned)."""
    if arm is None or arm.type != "ARMATURE":
        raise AnimspecError("select an armature to import onto, or give a .meshbin to build one")
    scene = bpy.context.scene
    hz = refresh_hz(region)
    if set_scene_fps:
        set_scene_rate(scene, region)
    per_vsync = blender_frames_per_vsync(scene, region)
    bones = armature_joints(arm, joint_names)
    report = ImportReport()
    if per_vsync != 1.0:
        report.warnings.append(
            f"the scene runs at {scene_fps(scene):.3f} fps, not the region's {hz:.3f}: keys land between frames "
            "(shown as the console times them, but an export samples whole frames only)"
        )
    rests = rest_keys(arm, bones)
    rest_raw = np.array([[round(c * FP12_ONE) for c in q] for q in rests], dtype=np.int64)
    for pb in arm.pose.bones:
        pb.rotation_mode = "QUATERNION"
    arm.animation_data_create()

    for index, animation in enumerate(animbin.animations):
        name = name_prefix + (str(animation.name) or f"animation{index}")
        where = f"animation {index} ({str(animation.name)!r})"
        action = bpy.data.actions.new(name)
        action.use_fake_user = True
        arm.animation_data.action = action
        per_bone: dict[str, tuple[list[float], list[Quaternion]]] = {}
        skipped = sorted({t.joint_id for t in animation.tracks if t.joint_id >= len(bones)})
        if skipped:
            report.warnings.append(
                f"{where}: joints {skipped} have no bone (the armature has {len(bones)} joints); their tracks are not "
                "imported"
            )
        if console:
            ticks = max(animation.length, 1)
            played = play_engine(animation, vsync_deltas(ticks), rest_rotations=rest_raw)
            for event in played.events:
                report.warnings.append(f"{where}: the console meets {event.kind.value} on track {event.track} (joint "
                                       f"{event.joint_id})")
            animated = sorted({t.joint_id for t in animation.tracks if t.joint_id < len(bones)})
            for joint in animated:
                quats = [basis_for_key(rests[joint], [int(c) for c in played.rotations[t, joint]])
                         for t in range(ticks)]
                per_bone[bones[joint]] = ([first_frame + t * per_vsync for t in range(ticks)], _continuous(quats))
            report.keys += _write_curves(arm, action, per_bone, "CONSTANT")
        else:
            dropped = 0
            for track in animation.tracks:
                if track.joint_id >= len(bones):
                    continue
                keys = [k for k in track.keys if isinstance(k, RotationKey)]
                dropped += sum(isinstance(k, TranslationKey) for k in track.keys)
                keys.sort(key=lambda k: k.frame)
                if not keys:
                    continue
                bone = bones[track.joint_id]
                frames, quats = per_bone.setdefault(bone, ([], []))
                if frames:
                    report.warnings.append(f"{where}: several tracks on joint {track.joint_id}; the later one wins "
                                           "where both key a frame")
                for k in keys:
                    frames.append(first_frame + k.frame * per_vsync)
                    quats.append(basis_for_key(rests[track.joint_id], k.quaternion))
            for bone, (frames, quats) in list(per_bone.items()):
                merged = dict(zip(frames, quats))
                ordered = sorted(merged)
                per_bone[bone] = (ordered, _continuous([merged[f] for f in ordered]))
            if dropped:
                report.warnings.append(f"{where}: {dropped} translation key(s) not imported (the engine never applies "
                                       "them)")
            report.keys += _write_curves(arm, action, per_bone, "LINEAR")

        action.use_frame_range = True
        action.frame_start = first_frame
        action.frame_end = first_frame + max(animation.length - 1, 0) * per_vsync
        action.use_cyclic = False
        for marker in animation.markers:
            pm = action.pose_markers.new(str(marker.name))
            pm.frame = int(round(first_frame + marker.frame * per_vsync))
        action[LOOPING_PROPERTY] = animation.is_looping
        action[INDEX_PROPERTY] = index
        if not console:
            layout, raw = _layout(animation, animbin.version, hz)
            action[LAYOUT_PROPERTY] = layout
            action[RAW_PROPERTY] = raw
        report.actions.append(action.name)
    if bones:
        scene.frame_set(scene.frame_current)
    return report


# --- a MESHBIN: armature and skinned mesh ---------------------------------------------------


def import_meshbin(path: str, *, scale: float = 1.0, with_mesh: bool = True) -> bpy.types.Object:
    """An armature from a MESHBIN's skeleton (bone i = joint i, named ``bone<i>``) and, with
    ``with_mesh``, its quads as a mesh rigidly skinned by the file's per-vertex bone index.

    Everything is in the console's model space turned into Blender's armature space by
    diag(1, -1, -1), positions (raw 20.12) times ``scale``. The armature remembers its joint
    order (``animbin_joints``) when Blender's own bone order (depth first) differs from the
    file's, so import and export keep joint ids.
    """
    import os

    from animspec.meshbin import read_file as read_meshbin
    from animspec.meshbin.model import skeleton_from_meshbin

    from .rig import AXIS_CHANGE, build_armature

    model = read_meshbin(path)
    if not model.skeleton_present or not model.bones:
        raise AnimspecError(f"{path}: the MESHBIN has no skeleton (skeleton flag 0 or version < 2); select an armature "
                            "instead")
    skeleton = skeleton_from_meshbin(model)
    name = os.path.splitext(os.path.basename(path))[0]
    arm = build_armature(name, skeleton.parents, skeleton.rest_translation, skeleton.rest_rotation, skeleton.names,
                         scale)
    if [b.name for b in arm.data.bones if b.use_deform] != skeleton.names:
        arm[JOINTS_PROPERTY] = skeleton.names
    if with_mesh and model.vertices and model.faces:
        verts = [tuple(AXIS_CHANGE @ Vector(v.position) * (scale / FP12_ONE)) for v in model.vertices]
        # The PS1 quad corner order is a, d, b, c of the OBJ face a, b, c, d (see the model).
        faces = [(f.vertices[0], f.vertices[2], f.vertices[3], f.vertices[1]) for f in model.faces
                 if all(0 <= i < len(verts) for i in f.vertices)]
        mesh = bpy.data.meshes.new(name)
        mesh.from_pydata(verts, [], faces)
        mesh.validate()
        body = bpy.data.objects.new(f"{name}_mesh", mesh)
        bpy.context.scene.collection.objects.link(body)
        groups = [body.vertex_groups.new(name=n) for n in skeleton.names]
        for i, bone in enumerate(model.vertex_bones[: len(verts)]):
            if 0 <= bone < len(groups):
                groups[bone].add([i], 1.0, "REPLACE")
        body.parent = arm
        body.modifiers.new("Armature", "ARMATURE").object = arm
    return arm
