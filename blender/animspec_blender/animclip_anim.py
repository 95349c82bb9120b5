"""A whole Insomniac .animclip / .performanceclip animation onto a Blender armature, and an
action back to .animclip.

Which bone is which joint: a clip's Joint Hashes hold, per joint, the DAT1 CRC32 of the joint's
name (:func:`animspec.common.hashes.crc32`). The name is hashed exactly as written, case and all:
ALERT hashes model joint names without its path normalisation (Tkachov/ALERT,
dat1lib/types/sections/model/joints.py: ``crc32.hash(name, False)``; the normalising variant,
which lower-cases, is for asset paths), and Luna Engine IO Tools hashes each Blender bone's
name as it is to find the bone of a joint, on import and on export (Pcniado/luna_engine_io_tools,
anim_import.py and anim_export.py: the CRC32 of the bone name's bytes). So "Spine" and "spine" are
different joints, and Blender's ".001" suffixes break a match.

What a joint's local transform is relative to (the convention of Luna's importer and exporter,
measured in tests/fixtures/luna/README.md): the bone frames are Blender's own (Y along the
bone); a joint with a parent bone is relative to its parent's posed frame
(``parent.matrix.inverted() @ bone.matrix`` in armature space); a bone without a parent is in
the engine's Y-up space, i.e. Blender's Z-up armature space turned -90 degrees about X. So the
pose-bone channels (Blender's basis, relative to the rest pose) of a bone whose clip-local
transform is ``L`` are ``rest_local.inverted() @ L``, with ``rest_local`` the bone's rest
relative to its parent's rest (a root: the Y-up turn times its rest). A rest frame is a rigid
motion, so this is done per bone on all frames at once: rotation ``rest_q^-1 * q``, location
``rest_R^T (t - rest_t)``, scale unchanged.

Root motion (Motion Data: per sample, the root's transform in engine space relative to frame
0, sample ``i`` at time ``i / fps``) goes onto the armature object, composed with where the
object stands when the clip is imported; the export writes the object's movement back as
Motion Data (a template's is kept only when the action does not move the object). Looping and
fps are noted on the action (:data:`LOOPING_PROPERTY`, :data:`FPS_PROPERTY`); the export reads
them back.

The export samples the evaluated pose on every frame of the action's range (what the viewport
shows, constraints included), takes each bone's clip-local transform as above and encodes them
with animspec's encoder (:mod:`animspec.animclip.frames.encode`) within the error asked: by
default the object-space error (:mod:`animspec.animclip.frames.object_space`: virtual vertices a
shell distance from each bone, the armature's bone hierarchy as the joints' parents), a distance
in Blender units (the clip's units); the sections the encoder does not produce come from a
template clip byte for byte (:mod:`animspec.animclip.frames.sections`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import bpy
import numpy as np
from mathutils import Matrix, Quaternion, Vector

from animspec.common.errors import AnimspecError
from animspec.common.hashes import crc32
from animspec.quaternion import conjugate, quat_multiply, sign_continuous, xyzw_to_wxyz

from .animclip_pose import FPS_PROPERTY, rest_local, root_turn
from .wording import (
    CLIP_ERRORS,
    CLIP_MAX_ERROR_LABEL,
    CLIP_OPTION_LABELS,
    ERROR_MEASURE_LABEL,
    ERROR_MEASURES,
    LOCAL_CLIP_ERRORS,
    MAX_ROTATION_ERROR_LABEL,
    MAX_TRANSLATION_ERROR_LABEL,
    OVERWRITE_LABEL,
    TEMPLATE_LABEL,
    animclip_import_refusal,
    clip_error_text,
    label,
    object_error_text,
    worst_bone_text,
)

if TYPE_CHECKING:
    from animspec.animclip.frames.encode import Tolerance
    from animspec.animclip.frames.object_space import ObjectTolerance

LOOPING_PROPERTY = "animclip_looping"
"""On an imported action: the clip loops (Built's looping flag); the export writes it back."""
ROOT_SPACE_PROPERTY = "animclip_root_space"
"""On an imported action: the root space it was imported with; the export uses it again."""
NO_JOINT = 0xFFFF_FFFF



def _few(items: list[str], limit: int = 12) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _joint_label(h: int) -> str:
    return f"0x{h:08X}"


# ------------------------------------------------------------------------------ import


@dataclass
class AnimclipImport:
    """What an import did, for the operator's messages (:meth:`lines`) and for tests."""

    action: str
    frames: int
    fps: float
    looping: bool
    matched: list[tuple[str, str]] = field(default_factory=list)
    """(bone, joint hash) pairs."""
    joints_without_bone: list[str] = field(default_factory=list)
    bones_without_joint: list[str] = field(default_factory=list)
    root_motion: str = ""
    """What became of the clip's root motion, in a few words."""
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[tuple[str, str]]:
        """(level, text): one line per kind of news, each list in one line."""
        out = []
        if self.joints_without_bone:
            out.append(("WARNING", "clip joints with no bone of that name (name hashes): "
                                   f"{_few(self.joints_without_bone)}"))
        if self.bones_without_joint:
            out.append(("INFO", f"bones the clip does not move: {_few(self.bones_without_joint)}"))
        for note in self.notes:
            out.append(("WARNING", note))
        loop = ", looping" if self.looping else ""
        out.append(("INFO", f"{self.action}: {self.frames} frame(s) at {self.fps:g} fps{loop}, {len(self.matched)} "
                            f"bone(s) keyed on every frame; root motion: {self.root_motion}"))
        return out


def clip_local_to_basis(rest_local: Matrix, rotation_xyzw: np.ndarray, translation: np.ndarray,
                        scale: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pose-bone channels (location, rotation w x y z, scale), one row per frame, of a bone whose
    clip-local transforms are given (frames x 4 / 3 / 3): ``rest_local^-1 @ L`` (module doc)."""
    loc, rot, _ = rest_local.decompose()
    rest_r = np.array(rot.to_matrix(), dtype=np.float64)
    rest_q = np.array([rot.w, rot.x, rot.y, rot.z], dtype=np.float64)
    q = quat_multiply(conjugate(rest_q)[None], xyzw_to_wxyz(np.asarray(rotation_xyzw, dtype=np.float64)))
    location = (np.asarray(translation, dtype=np.float64) - np.array(loc)[None]) @ rest_r  # rest_R^T (t - rest_t)
    return location, sign_continuous(q), np.asarray(scale, dtype=np.float64)


def _channelbag(owner: bpy.types.ID, action: bpy.types.Action):
    from bpy_extras import anim_utils

    owner.animation_data_create()
    owner.animation_data.action = action
    slot = owner.animation_data.action_slot
    if slot is None:  # a new action has no slot yet (Blender 4.4+ layered actions)
        slot = action.slots.new(id_type="OBJECT", name=owner.name)
        owner.animation_data.action_slot = slot
    return anim_utils.action_ensure_channelbag_for_slot(action, slot)


_LINEAR = bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items.keys().index("LINEAR")


def _key(bag, path: str, group: str, frames: np.ndarray, values: np.ndarray) -> None:
    """One F-curve per component of ``values`` (frames x components), a LINEAR key per frame,
    written in one go (exact values, no keying sets)."""
    for axis in range(values.shape[1]):
        curve = bag.fcurves.find(path, index=axis)
        if curve is not None:
            bag.fcurves.remove(curve)
        curve = bag.fcurves.new(path, index=axis, group_name=group)
        curve.keyframe_points.add(len(frames))
        co = np.empty((len(frames), 2), dtype=np.float64)
        co[:, 0], co[:, 1] = frames, values[:, axis]
        curve.keyframe_points.foreach_set("co", co.ravel())
        curve.keyframe_points.foreach_set("interpolation", [_LINEAR] * len(frames))
        curve.update()


def import_animclip(arm: bpy.types.Object, path: str, *, first_frame: int = 0, root_motion: bool = True,
                    set_scene_fps: bool = True, root_space: str = "engine") -> AnimclipImport:
    """Key every frame of the clip at ``path`` on the bones of ``arm`` whose names hash to its
    joints (one new action, named after the file), and its root motion on ``arm`` itself
    unless ``root_motion`` is False. Frame ``i`` of the clip is Blender frame ``first_frame + i``.
    ``root_space``: see :data:`.animclip_pose.ROOT_SPACES`."""
    from animspec.animclip import read_file
    from animspec.animclip.frames.blender_import import BlenderFpsError, BlenderImportTooLargeError, plan_blender_import
    from animspec.animclip.frames.pose import clip_frames

    if arm is None or arm.type != "ARMATURE":
        raise AnimspecError("select the armature to animate (its bone names must be the game's joint names)")
    root_turn(root_space)
    model = read_file(path)
    clip = clip_frames(model, path)
    if clip.coding.camera:
        raise AnimspecError(f"{path} is a camera clip (it moves a camera, not bones); this import keys armatures only")
    hashes = [int(h) for h in clip.joint_hashes]
    by_hash = {crc32(b.name): b.name for b in arm.data.bones}
    name = os.path.splitext(os.path.basename(path))[0]
    report = AnimclipImport(action="", frames=clip.frame_count, fps=float(clip.fps), looping=clip.coding.looping,
                            notes=list(clip.notes))
    columns: dict[str, int] = {}
    for j, h in enumerate(hashes):
        if h == NO_JOINT:
            continue
        bone = by_hash.get(h)
        if bone is None:
            report.joints_without_bone.append(_joint_label(h))
        elif bone not in columns:
            columns[bone] = j
            report.matched.append((bone, _joint_label(h)))
    if not columns:
        raise AnimspecError(
            f"{path}: no bone of armature {arm.name!r} has a name whose hash is one of the clip's {len(hashes)} "
            "joints; the bones must carry the game's joint names, exactly (case matters)")
    report.bones_without_joint = [b.name for b in arm.data.bones if b.name not in columns]

    try:
        plan = plan_blender_import(clip, path, os.path.getsize(path), bones=len(columns), root_motion=root_motion)
    except (BlenderFpsError, BlenderImportTooLargeError) as exc:
        raise AnimspecError(animclip_import_refusal(exc)) from None

    with _undone_on_failure(arm, [*columns]) as made:
        action = bpy.data.actions.new(name)
        made.append(action)
        _key_clip(arm, action, clip, columns, first_frame, root_motion, root_space, report)
        if set_scene_fps:
            render = bpy.context.scene.render
            render.fps, render.fps_base = plan.scene_fps, plan.fps_base
        report.action = action.name
        bpy.context.scene.frame_set(first_frame)
    return report


def _key_clip(arm: bpy.types.Object, action: bpy.types.Action, clip, columns: dict[str, int], first_frame: int,
              root_motion: bool, root_space: str, report: AnimclipImport) -> None:
    """Every frame of ``clip`` on the bones of ``columns`` (bone -> joint), its root motion on
    ``arm``, in ``action`` (assigned to ``arm``); its looping, root space and rate noted on it."""
    poses = clip.frames()
    keyed = first_frame + np.arange(clip.frame_count, dtype=np.float64)
    action.use_fake_user = True
    bag = _channelbag(arm, action)
    for bone_name, j in columns.items():
        bone = arm.data.bones[bone_name]
        location, rotation, scale = clip_local_to_basis(
            rest_local(bone, root_space), poses.rotation[:, j], poses.translation[:, j], poses.scale[:, j])
        arm.pose.bones[bone_name].rotation_mode = "QUATERNION"
        prefix = f'pose.bones["{bpy.utils.escape_identifier(bone_name)}"]'
        _key(bag, f"{prefix}.location", bone_name, keyed, location)
        _key(bag, f"{prefix}.rotation_quaternion", bone_name, keyed, rotation)
        _key(bag, f"{prefix}.scale", bone_name, keyed, scale)

    motion = clip.root_motion
    if motion is None:
        report.root_motion = "none in the clip"
    elif not root_motion:
        report.root_motion = f"left out ({len(motion.translation)} sample(s) in the clip)"
    else:
        _key_root_motion(arm, bag, motion, first_frame, root_turn(root_space))
        report.root_motion = f"{len(motion.translation)} sample(s) keyed on armature {arm.name!r}"

    action[LOOPING_PROPERTY] = bool(clip.coding.looping)
    action[ROOT_SPACE_PROPERTY] = root_space
    action[FPS_PROPERTY] = float(clip.fps)
    action.use_frame_range = True
    action.frame_start = first_frame
    action.frame_end = first_frame + max(clip.frame_count - 1, 0)


@contextmanager
def _undone_on_failure(arm: bpy.types.Object, bones: list[str]) -> Iterator[list[bpy.types.Action]]:
    """Whatever fails in the block (a refusal, an error Blender raises, Ctrl-C), the armature
    is left as it was: the actions the block lists are removed, the armature's action and slot
    (or its lack of animation data), its bones' and its own rotation modes, and the scene's
    rate and frame are put back."""
    scene = bpy.context.scene
    data = arm.animation_data
    assigned = (data.action, data.action_slot) if data is not None else None
    modes = {b: arm.pose.bones[b].rotation_mode for b in bones}
    own_mode = arm.rotation_mode
    rate, frame = (scene.render.fps, scene.render.fps_base), scene.frame_current
    made: list[bpy.types.Action] = []
    try:
        yield made
    except BaseException:
        if assigned is None:
            arm.animation_data_clear()
        else:
            _put_back(arm.animation_data, *assigned)
        for action in made:
            bpy.data.actions.remove(action)
        for b, mode in modes.items():
            arm.pose.bones[b].rotation_mode = mode
        arm.rotation_mode = own_mode
        scene.render.fps, scene.render.fps_base = rate
        scene.frame_set(frame)
        raise


def _put_back(data, action: bpy.types.Action | None, slot) -> None:
    """``action`` and its ``slot`` assigned again to animation data ``data``."""
    data.action = action
    if action is not None and slot is not None:
        data.action_slot = slot


def _key_root_motion(arm: bpy.types.Object, bag, motion, first_frame: int, turn: Matrix) -> None:
    """Motion sample ``i`` (the root space, relative to frame 0) on the armature object at frame
    ``first_frame + i``, after the object's transform at import."""
    start = arm.matrix_basis.copy()
    turn_back = turn.inverted()
    locations, rotations = [], []
    for t, q in zip(motion.translation, motion.rotation):
        engine = Matrix.Translation(Vector(t.tolist())) @ Quaternion((q[3], q[0], q[1], q[2])).to_matrix().to_4x4()
        loc, rot, _ = (start @ turn_back @ engine @ turn).decompose()
        locations.append(tuple(loc))
        rotations.append((rot.w, rot.x, rot.y, rot.z))
    arm.rotation_mode = "QUATERNION"
    keyed = first_frame + np.arange(len(locations), dtype=np.float64)
    _key(bag, "location", "Object Transforms", keyed, np.array(locations))
    _key(bag, "rotation_quaternion", "Object Transforms", keyed, sign_continuous(np.array(rotations)))


# ------------------------------------------------------------------------------ export


@dataclass
class AnimclipExport:
    """An action encoded as a clip, not yet written (:func:`write_animclip`)."""

    data: bytes
    action: str
    frames: int
    fps: float
    looping: bool
    bones: list[str]
    parents: list[int]
    """Each bone's parent among ``bones`` (-1: none): the hierarchy the object-space error is measured on."""
    object_error: object
    """:class:`animspec.animclip.frames.object_space.ObjectError`: the object-space error a reader of
    ``data`` sees, in Blender units (the clip's), frames counted from the action's first frame"""
    error: object
    """:class:`animspec.animclip.frames.encode.ClipError`: each joint's own error a reader of ``data`` sees"""
    tolerance: object
    """:class:`animspec.animclip.frames.object_space.ObjectTolerance` (or, expert measure 'local',
    :class:`animspec.animclip.frames.encode.Tolerance`): the bound the encoder was given"""
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    summary: str = ""
    """The object-space error's max, bone and frame in the scene's unit, for the line that ends
    the report (the one Blender's status bar keeps)."""


def _action_of(arm: bpy.types.Object, action_name: str | None) -> bpy.types.Action:
    if action_name:
        action = bpy.data.actions.get(action_name)
        if action is None:
            raise AnimspecError(f"there is no action {action_name!r}")
        return action
    data = arm.animation_data
    if data is None or data.action is None:
        raise AnimspecError(f"armature {arm.name!r} has no action assigned: assign the action to export "
                            "(Dope Sheet > Action Editor)")
    return data.action


def sample_action(arm: bpy.types.Object, action: bpy.types.Action, frames: list[int],
                  bones: list[str], root_space: str = "engine") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per frame and bone, the clip-local rotation (x, y, z, w), translation and scale of the
    evaluated pose (module doc). The armature's action, slot and frame are put back."""
    turn = root_turn(root_space)
    rot = np.empty((len(frames), len(bones), 4))
    pos = np.empty((len(frames), len(bones), 3))
    scl = np.empty((len(frames), len(bones), 3))
    with _action_assigned(arm, action) as scene:
        for i, frame in enumerate(frames):
            scene.frame_set(frame)
            depsgraph = bpy.context.evaluated_depsgraph_get()
            pose = arm.evaluated_get(depsgraph).pose.bones
            for j, name in enumerate(bones):
                pb = pose[name]
                parent = pb.parent
                local = turn @ pb.matrix if parent is None else parent.matrix.inverted_safe() @ pb.matrix
                t, q, s = local.decompose()
                rot[i, j], pos[i, j], scl[i, j] = (q.x, q.y, q.z, q.w), tuple(t), tuple(s)
    return rot, pos, scl


@contextmanager
def _action_assigned(arm: bpy.types.Object, action: bpy.types.Action) -> Iterator[bpy.types.Scene]:
    """``action`` on ``arm`` (its first slot when none is chosen) while the block samples it;
    the armature's action, slot and the scene's frame are put back after."""
    scene = bpy.context.scene
    data = arm.animation_data
    assigned, slot = data.action, data.action_slot
    frame_before = scene.frame_current
    data.action = action
    if data.action_slot is None and action.slots:
        data.action_slot = action.slots[0]
    try:
        yield scene
    finally:
        _put_back(data, assigned, slot)
        scene.frame_set(frame_before)


def sample_object_motion(arm: bpy.types.Object, action: bpy.types.Action, frames: list[int],
                         root_space: str = "engine") -> tuple[np.ndarray, np.ndarray]:
    """Per frame, the armature object's transform in the root space: translation and rotation
    (x, y, z, w) of ``turn @ basis @ turn^-1``, the inverse of how the import keys root motion
    (the object's transform at import cancels once the encoder makes the motion relative to the
    first frame). The armature's action, slot and frame are put back."""
    turn = root_turn(root_space)
    turn_back = turn.inverted()
    pos = np.empty((len(frames), 3))
    rot = np.empty((len(frames), 4))
    with _action_assigned(arm, action) as scene:
        for i, frame in enumerate(frames):
            scene.frame_set(frame)
            basis = arm.evaluated_get(bpy.context.evaluated_depsgraph_get()).matrix_basis
            t, q, _ = (turn @ basis @ turn_back).decompose()
            pos[i], rot[i] = tuple(t), (q.x, q.y, q.z, q.w)
    return pos, rot


def _object_moves(action: bpy.types.Action) -> bool:
    from .exporter import channelbags

    return any(c.data_path in ("location", "rotation_quaternion", "rotation_euler")
               for bag in channelbags(action) for c in bag.fcurves)


LENGTH_SYMBOLS = {"KILOMETERS": "km", "METERS": "m", "CENTIMETERS": "cm", "MILLIMETERS": "mm", "MICROMETERS": "µm",
                  "MILES": "mi", "FEET": "'", "INCHES": '"', "THOU": "thou"}
"""Blender's fixed length units (Scene > Units > Length) by the symbol Blender writes after a
length in that unit (and reads back: :func:`bpy.utils.units.to_value`)."""


def scene_length(scene: bpy.types.Scene) -> Callable[[float], str]:
    """How the scene writes a length given in Blender units: times its Unit Scale, in its Length
    unit (Adaptive: the unit Blender's own :func:`bpy.utils.units.to_string` picks for the value);
    a scene with Unit System 'None' gets plain Blender units."""
    units = scene.unit_settings
    scale, system = float(units.scale_length), units.system
    if system == "NONE":
        return lambda v: f"{v * scale:.3g} Blender units"
    symbol = LENGTH_SYMBOLS.get(units.length_unit)
    if symbol is None:
        return lambda v: bpy.utils.units.to_string(system, "LENGTH", v * scale, precision=3)
    per = float(bpy.utils.units.to_value(system, "LENGTH", "1" + symbol))
    gap = "" if symbol in ("'", '"') else " "
    return lambda v: f"{v * scale / per:.3g}{gap}{symbol}"


def bone_parents(arm: bpy.types.Object, bones: list[str]) -> list[int]:
    """Each of ``bones``' parent bone as an index into ``bones`` (-1: none): the joints' hierarchy."""
    at = {name: j for j, name in enumerate(bones)}
    return [at[b.parent.name] if b.parent is not None and b.parent.name in at else -1
            for b in (arm.data.bones[n] for n in bones)]


def export_animclip(arm: bpy.types.Object, *, action: str | None = None, template: str | None = None,
                    measure: str = "object", max_error: float = CLIP_ERRORS.max_error,
                    shell: float = cast(float, CLIP_ERRORS.shell),
                    max_rotation_error_deg: float = LOCAL_CLIP_ERRORS.max_error,
                    max_translation_error: float = cast(float, LOCAL_CLIP_ERRORS.max_translation_error),
                    looping: bool | None = None, root_space: str | None = None) -> AnimclipExport:
    """Encode an action of ``arm`` (the assigned one, or the one named ``action``) on every
    frame of its range. ``measure`` "object" (the default): its object-space error, measured at
    virtual vertices ``shell`` from each bone over the armature's bone hierarchy, within
    ``max_error`` (both distances in Blender units); "local" (expert): each bone's own rotation
    within ``max_rotation_error_deg`` and translation and scale within ``max_translation_error``.
    ``looping`` None: as the action notes it (an imported clip), else as the
    template's Built says, else not. ``root_space`` None: as the action notes it, else "engine"
    (:data:`.animclip_pose.ROOT_SPACES`). Refusals are :class:`AnimspecError` in the Export panel's words."""
    from animspec.animclip import read_file, write_bytes
    from animspec.animclip.frames.encode import (
        FPS,
        MAX_FRAMES,
        EncodeError,
        Frames,
        encode,
        joint_hashes,
        read_back_errors,
        tolerance_for,
    )
    from animspec.animclip.frames.object_space import ObjectTolerance
    from animspec.animclip.frames.sections import clip_model
    from animspec.animclip.tags import FLAG_LOOPING
    from animspec.common.ranges import OptionRangeError
    from animspec.gltf.to_animbin import MAX_SAMPLES

    if arm is None or arm.type != "ARMATURE":
        raise AnimspecError("select the armature whose action to export")
    act = _action_of(arm, action)
    if measure not in ("object", "local"):
        raise AnimspecError(f"'{ERROR_MEASURE_LABEL}' is {measure!r}: choose "
                            f"{' or '.join(repr(label(ERROR_MEASURES, k)) for k, _, _ in ERROR_MEASURES)}")
    tolerance: Tolerance | ObjectTolerance
    try:  # the library's ranges of the bounds (the command line's --max-error, --shell, --local-...)
        # (the shell is checked with either measure: the object-space error is reported with both)
        object_bound = ObjectTolerance(max_error if measure == "object" else CLIP_ERRORS.max_error, shell)
        tolerance = (object_bound if measure == "object"
                     else tolerance_for(max_rotation_error_deg, max_translation_error))
    except OptionRangeError as exc:
        named = CLIP_OPTION_LABELS.get(exc.option, exc.option)
        raise AnimspecError(f"'{named}' is {exc.value}: {exc.allowed}") from None
    template_model = None
    if template:
        try:
            template_model = read_file(template)
        except AnimspecError as exc:
            raise AnimspecError(f"the '{TEMPLATE_LABEL}' cannot be read as a clip: {exc}") from None
    start, end = (int(round(v)) for v in act.frame_range)
    bones = [b.name for b in arm.data.bones]
    parents = bone_parents(arm, bones)
    count = end - start + 1  # (counted before a list of frames is made: the range may be huge)
    if count > MAX_FRAMES:
        raise AnimspecError(f"action {act.name!r}: frames {start}..{end} are {count:,} frames; an .animclip holds at "
                            f"most {MAX_FRAMES:,}: shorten the action's frame range")
    if count * len(bones) > MAX_SAMPLES:
        raise AnimspecError(f"action {act.name!r}: {count:,} frames on {len(bones):,} bones is more than the "
                            f"{MAX_SAMPLES:,} samples an export computes: shorten the action's frame range")
    frames = list(range(start, end + 1))
    if looping is None:
        if LOOPING_PROPERTY in act:
            looping = bool(act[LOOPING_PROPERTY])
        elif template_model is not None and template_model.built is not None:
            looping = bool(template_model.built.flags & FLAG_LOOPING)
        else:
            looping = False
    scene = bpy.context.scene
    fps = float(act[FPS_PROPERTY]) if FPS_PROPERTY in act else scene.render.fps / scene.render.fps_base
    if not FPS.contains(fps):
        whose = f"the action's {FPS_PROPERTY} property" if FPS_PROPERTY in act else "the scene's Frame Rate"
        raise AnimspecError(f"the frame rate is {fps:g} fps ({whose}): {FPS.allowed()}")
    hashes = joint_hashes(bones, [f"bone {b!r}" for b in bones])  # (JointNameError: rename a bone)
    if root_space is None:
        root_space = str(act.get(ROOT_SPACE_PROPERTY, "engine"))
    rot, pos, scl = sample_action(arm, act, frames, bones, root_space)
    # The armature object's movement is the clip's root motion (as the import keys it).
    moves = _object_moves(act)
    root_pos, root_rot = sample_object_motion(arm, act, frames, root_space) if moves else (None, None)

    for what, values in (("rotation", rot), ("location", pos), ("scale", scl)):
        bad = np.argwhere(~np.isfinite(values).all(axis=-1))
        if bad.size:
            f, j = bad[0]
            raise AnimspecError(f"action {act.name!r}: bone {bones[j]!r} has a {what} that is not a number at frame "
                                f"{frames[f]}; fix its keys")
    flat = np.argwhere((scl <= 1e-9).any(axis=-1))
    if flat.size:
        f, j = flat[0]
        raise AnimspecError(f"action {act.name!r}: bone {bones[j]!r} has a zero or negative scale at frame "
                            f"{frames[f]}; the clip stores scale as a positive ratio: key a positive scale there")
    length = scene_length(scene)
    try:
        encoded = encode(Frames(rot, pos, scl), tolerance, looping=looping, parents=parents, shell=shell,
                         root_translation=root_pos, root_rotation=root_rot, joint_labels=[f"bone {b!r}" for b in bones])
    except EncodeError as exc:
        if "error shift" in str(exc):
            asked = (f"'{CLIP_MAX_ERROR_LABEL}' {length(max_error)}" if measure == "object"
                     else f"'{MAX_TRANSLATION_ERROR_LABEL}' {max_translation_error:g}")
            raise AnimspecError(
                f"action {act.name!r}: a bone moves or turns too far in this action to be stored in 16-bit steps "
                f"within {asked}: raise it") from None
        raise AnimspecError(f"action {act.name!r}: {exc}") from None
    model = clip_model(encoded, hashes, fps=fps, template=template_model,
                       name=act.name if template_model is None else None)
    data = write_bytes(model)

    # what a reader of the written bytes sees, decoded as `animspec play` decodes them
    e, oe = read_back_errors(data, Frames(rot, pos, scl), parents, shell)
    result = AnimclipExport(data=data, action=act.name, frames=len(frames), fps=fps, looping=looping, bones=bones,
                            parents=parents, object_error=oe, error=e, tolerance=tolerance)
    result.lines.append(object_error_text(oe, bones, start, len(data), length))
    result.summary = f"object-space error {worst_bone_text(oe, bones, start, length)}"
    result.lines.append(clip_error_text(e, bones, start))
    result.lines.append(
        f"action {act.name!r}: frames {start}..{end} ({len(frames)}) at {fps:g} fps{', looping' if looping else ''}, "
        f"{len(bones)} bone(s), {encoded.stride} bytes per frame, {encoded.unique_samples} distinct pose(s)")
    if measure == "object" and oe.max > max_error:
        result.warnings.append(f"the clip's precision reaches only the error above (asked: '{CLIP_MAX_ERROR_LABEL}' "
                               f"{length(max_error)})")
    if not isinstance(tolerance, ObjectTolerance) and not e.within(tolerance):
        result.warnings.append(
            f"the clip's precision reaches only the error above (asked: '{MAX_ROTATION_ERROR_LABEL}' "
            f"{max_rotation_error_deg:g}, '{MAX_TRANSLATION_ERROR_LABEL}' {max_translation_error:g})")
    if template_model is not None:
        from animspec.animclip.sections import JointHashes
        from animspec.animclip.tags import TAG_JOINT_HASHES

        section = template_model.section(TAG_JOINT_HASHES)
        template_joints = {int(h) for h in section.hashes} - {NO_JOINT} if isinstance(section, JointHashes) else set()
        missing = sorted(template_joints - set(int(h) for h in hashes))
        if missing:
            result.warnings.append(f"template joints that no bone names (not in the new clip): "
                                   f"{_few([_joint_label(h) for h in missing])}")
    from animspec.animclip.tags import TAG_MOTION_DATA

    template_motion = template_model is not None and template_model.section(TAG_MOTION_DATA) is not None
    if moves:
        result.lines.append(
            f"root motion: the armature object's movement, {len(frames) + looping} sample(s)"
            + (", replacing the template's Motion Data" if template_motion else ""))
    elif template_motion:
        result.lines.append("root motion: the template's Motion Data, kept (the action does not move the armature "
                            "object)")
    return result


def write_animclip(result: AnimclipExport, path: str, *, template: str | None = None, force: bool = False) -> None:
    """Write atomically; refused (nothing written) over the template, or over an existing file
    unless ``force``."""
    from animspec.animclip import read_bytes
    from animspec.common.atomic import write_atomic

    if template and os.path.exists(path) and os.path.samefile(path, template):
        raise AnimspecError(f"{path} is the '{TEMPLATE_LABEL}': choose another file to export to")
    if os.path.exists(path) and not force:
        raise AnimspecError(f"{path} exists; tick '{OVERWRITE_LABEL}' on the Export panel to replace it")
    write_atomic(path, result.data, lambda written: read_bytes(written, path))
