"""Blender actions -> ANIMBIN, through the same conversion as ``animspec convert``.

The armature's actions go through Blender's own glTF exporter to a temporary GLB (only the
armature and a throw-away skinned mesh selected: the exporter writes no skin without one),
then :func:`animspec.gltf.gltf_to_animbin` with ``armature_space=True`` turns them into the keys the
engine's exporter would write (root: diag(1, -1, -1) times the armature-space pose; others:
relative to the parent), on the chosen region, fit and FP12 rounding. The validator's
findings come back with the result; the caller writes nothing when one is an error.

What each action carries (set by :mod:`.importer`, or by hand as custom properties):

* ``animbin_looping``: the loop flag of that clip (default: looping, as the exporter sets it);
* pose markers: the clip's markers, at their time from the action's first frame;
* ``animbin`` (an imported clip's layout, exported by Blender as the glTF animation's
  extras): the clip is rebuilt on the same tracks and key frames, values read from Blender's
  pose. It is dropped (the action sampled afresh with the chosen fit) as soon as the action's
  keyframes no longer sit on the layout's frames, or its frame range changed length;
* ``animbin_raw``: the file's FP12 values. Blender keeps only unit rotations, and a file's
  rounded key is not always the rounding of its own normalised value (1 unit apart in 10 of
  the 140 keys of examples/swing.animbin), so a key whose pose still encodes to
  ``round(normalise(stored) * 4096)`` (up to sign) is written with the stored integers: the
  same rotation, the file's own bytes.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import bpy
import numpy as np

from animspec.animbin.budget import CONSOLE_ERROR_LABEL, ConsoleError, console_error, console_error_text
from animspec.animbin.model import FP12_ONE, LOOPING_FLAG, MAX_MARKERS, Animation, AnimbinFile, RotationKey
from animspec.animbin.playback import Refresh, refresh_hz
from animspec.animbin.validate import validate
from animspec.animbin.write import write_bytes
from animspec.common.atomic import write_atomic
from animspec.common.errors import AnimspecError
from animspec.common.findings import Finding, Severity
from animspec.gltf import gltf_to_animbin
from animspec.gltf.document import GltfError
from animspec.gltf.to_animbin import SHOWN_LINE, Fit, Fp12

from .importer import (
    INDEX_PROPERTY,
    LAYOUT_PROPERTY,
    LOOPING_PROPERTY,
    RAW_PROPERTY,
    blender_frames_per_vsync,
    scene_fps,
)
from .rig import AXIS_CHANGE_4, JOINTS_PROPERTY, armature_joints, deform_bones, joint_parents, order_mismatch
from .wording import ANIMBIN_ERRORS, WHICH, in_blender_words, label, region_text

MAX_ACTIONS = 5
"""The engine holds five animations per file."""

Which = Literal["active", "all", "chosen"]


@dataclass
class ExportResult:
    animbin: AnimbinFile
    data: bytes
    lines: list[str]
    warnings: list[str]
    findings: list[Finding]
    kept_raw_keys: int = 0
    """Keys written with the file's own stored integers (see the module doc)."""
    fresh: list[str] = field(default_factory=list)
    """Actions whose stored layout no longer matched their keyframes (sampled afresh)."""
    references: list[np.ndarray] = field(default_factory=list)
    """Per animation, Blender's pose at each console frame (:func:`console_references`)."""
    console_errors: list[ConsoleError | None] = field(default_factory=list)
    """Per animation, what the console shows of the file as written against ``references``
    (:func:`animspec.animbin.budget.console_error`): the figure the Export report and the
    budget panel both give."""

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == Severity.ERROR]


def armature_actions(arm: bpy.types.Object) -> list[bpy.types.Action]:
    """Actions that animate this armature's bones (the ones Blender's glTF exporter takes)."""
    names = {b.name for b in arm.pose.bones}
    found = []
    for action in bpy.data.actions:
        for bag in channelbags(action):
            if any(_bone_of(c.data_path) in names for c in bag.fcurves):
                found.append(action)
                break
    return found


def channelbags(action: bpy.types.Action):
    """Every F-curve container of a layered action (Blender 4.4+: layers > strips > one
    channelbag per slot); Blender 5.0 has no ``action.fcurves`` any more."""
    for layer in action.layers:
        for strip in layer.strips:
            for slot in action.slots:
                bag = strip.channelbag(slot)
                if bag is not None:
                    yield bag


def _bone_of(data_path: str) -> str | None:
    if not data_path.startswith('pose.bones["'):
        return None
    return data_path[len('pose.bones["'):].split('"]', 1)[0].replace('\\"', '"').replace("\\\\", "\\")


def select_actions(arm: bpy.types.Object, which: Which, chosen: Sequence[str] = ()) -> list[bpy.types.Action]:
    if which == "active":
        action = arm.animation_data.action if arm.animation_data else None
        if action is None:
            raise AnimspecError(f"armature {arm.name!r} has no active action; choose 'all' or name the actions")
        return [action]
    if which == "all":
        actions = _in_file_order(armature_actions(arm))
    else:
        missing = [n for n in chosen if n not in bpy.data.actions]
        if missing:
            raise AnimspecError(missing_actions(arm, missing))
        actions = [bpy.data.actions[n] for n in chosen]
    if not actions:
        raise AnimspecError(f"armature {arm.name!r} has no actions to export")
    if len(actions) > MAX_ACTIONS:
        raise AnimspecError(
            f"{len(actions)} actions ({', '.join(a.name for a in actions)}); the engine holds {MAX_ACTIONS} per "
            "ANIMBIN file: set Actions to 'Named actions' and name at most five"
        )
    return actions


def _in_file_order(actions: list[bpy.types.Action]) -> list[bpy.types.Action]:
    """The imported file's order first (joint ids and game code refer to clips by index)."""
    return sorted(actions, key=lambda a: (a.get(INDEX_PROPERTY, MAX_ACTIONS), a.name))


def missing_actions(arm: bpy.types.Object, missing: Sequence[str]) -> str:
    """'Names' asks for actions the file does not have: each one named, with the actions there
    are (the armature's first, as 'All actions' would export them) and the nearest name."""
    import difflib

    own = [a.name for a in _in_file_order(armature_actions(arm))]
    others = [a.name for a in bpy.data.actions if a.name not in own]
    asked = ", ".join(repr(n) for n in missing)
    there = (f"armature {arm.name!r} has {', '.join(repr(n) for n in own)}" if own
             else f"armature {arm.name!r} has none")
    if others:
        there += f"; other actions in the file: {', '.join(repr(n) for n in others)}"
    near = [m for n in missing for m in difflib.get_close_matches(n, own + others, n=1)]
    hint = f" (did you mean {', '.join(repr(n) for n in near)}?)" if near else ""
    names = "that name" if len(missing) == 1 else "those names"
    return (f"'{label(WHICH, 'chosen')}' asks for {asked}, but no action has {names}{hint}: {there}; correct "
            "'Names' on the Export panel")


def _layout_is_current(arm, action, bones: list[str], per_vsync: float) -> bool:
    """The action still has keys exactly on its stored layout's frames (nothing added or
    moved, no bone keyed that the layout leaves out) and the same length."""
    layout = action.get(LAYOUT_PROPERTY)
    if layout is None:
        return False
    layout = layout.to_dict() if hasattr(layout, "to_dict") else dict(layout)
    try:
        start, end = action.frame_range
        if int(round((end - start) / per_vsync)) + 1 != int(layout["length"]):
            return False
        want: dict[str, set[int]] = {}
        for track in layout["tracks"]:
            joint = int(track["joint"])
            if joint >= len(bones):
                return False
            want.setdefault(bones[joint], set()).update(int(f) for f, kt in track["keys"] if int(kt) == 0)
    except (KeyError, TypeError, ValueError):
        return False
    have: dict[str, set[int]] = {}
    for bag in channelbags(action):
        for curve in bag.fcurves:
            bone = _bone_of(curve.data_path)
            if bone is None:
                continue
            frames = have.setdefault(bone, set())
            for point in curve.keyframe_points:
                rel = (point.co[0] - start) / per_vsync
                if abs(rel - round(rel)) > 1e-3:
                    return False
                frames.add(int(round(rel)))
    return all(want.get(bone, set()) == frames for bone, frames in have.items() if frames)


def skin_mesh(arm: bpy.types.Object, bones: list[str]) -> bpy.types.Object:
    """A tiny triangle per joint bone, weighted to it: Blender's glTF exporter writes a skin
    (the joints convert needs) only for an armature that deforms a mesh."""
    verts, faces = [], []
    for i, name in enumerate(bones):
        head = arm.data.bones[name].head_local
        verts += [tuple(head), (head.x + 1e-3, head.y, head.z), (head.x, head.y, head.z + 1e-3)]
        faces.append((3 * i, 3 * i + 1, 3 * i + 2))
    mesh = bpy.data.meshes.new("animspec_skin")
    mesh.from_pydata(verts, [], faces)
    obj = bpy.data.objects.new("animspec_skin", mesh)
    bpy.context.scene.collection.objects.link(obj)
    for i, name in enumerate(bones):
        obj.vertex_groups.new(name=name).add([3 * i, 3 * i + 1, 3 * i + 2], 1.0, "REPLACE")
    obj.parent = arm
    obj.modifiers.new("Armature", "ARMATURE").object = arm
    return obj


def gltf_frame_rate(scene: bpy.types.Scene) -> float:
    """Frames per second of the glTF timeline Blender's exporter writes: it divides frame
    numbers by ``fps * fps_base`` (io_scene_gltf2, blender/exp/animation/sampled/armature/
    sampler.py, Blender 5.0), not by the scene's real rate ``fps / fps_base``. Equal when
    fps_base is 1; an NTSC scene (60 / 1.001) comes out 0.2% fast, which the conversion
    undoes by reading the GLB at this rate."""
    return scene.render.fps * scene.render.fps_base


def export_glb(arm: bpy.types.Object, bones: list[str], path: str, layouts: dict[str, dict | None]) -> None:
    """The armature's actions as a GLB by Blender's own exporter (defaults, plus: only the
    armature, custom properties as extras, each action starting at time 0). ``layouts``:
    per action name, the layout its extras must carry during the export (None: none); the
    actions' own properties are put back afterwards."""
    view_layer = bpy.context.view_layer
    selected = [o for o in view_layer.objects if o.select_get()]
    active, assigned = view_layer.objects.active, arm.animation_data.action if arm.animation_data else None
    slot = arm.animation_data.action_slot if arm.animation_data else None
    saved = {}
    for name, layout in layouts.items():
        action = bpy.data.actions[name]
        if LAYOUT_PROPERTY in action:
            saved[name] = action[LAYOUT_PROPERTY].to_dict()
            del action[LAYOUT_PROPERTY]
        if layout is not None:
            action[LAYOUT_PROPERTY] = layout
    skin = skin_mesh(arm, bones)
    try:
        for o in selected:
            o.select_set(False)
        arm.select_set(True)
        skin.select_set(True)
        view_layer.objects.active = arm
        bpy.ops.export_scene.gltf(
            filepath=path, export_format="GLB", use_selection=True, export_extras=True,
            export_anim_slide_to_zero=True, export_animation_mode="ACTIONS",
        )
    finally:
        mesh = skin.data
        bpy.data.objects.remove(skin)
        bpy.data.meshes.remove(mesh)
        for name in layouts:
            action = bpy.data.actions[name]
            if LAYOUT_PROPERTY in action:
                del action[LAYOUT_PROPERTY]
            if name in saved:
                action[LAYOUT_PROPERTY] = saved[name]
        arm.select_set(arm in selected)
        for o in selected:
            o.select_set(True)
        view_layer.objects.active = active
        if arm.animation_data:
            arm.animation_data.action = assigned
            if assigned is not None and slot is not None:
                arm.animation_data.action_slot = slot


def exporter_quaternions(
    arm: bpy.types.Object, action: bpy.types.Action, bones: Sequence[str], frames: Sequence[float],
) -> dict[float, list[tuple[float, float, float, float]]]:
    """The quaternion (w, x, y, z) the engine's exporter takes for each joint at each Blender
    frame of ``action``, computed as it computes it (psyqo-madnight-engine
    tools/blender_animbin.py, write_animation): the evaluated pose after ``frame_set``, the root
    as ``diag(1, -1, -1) @ pose_bone.matrix``, any other bone as ``parent.matrix.inverted_safe()
    @ pose_bone.matrix``, the rotation of ``.decompose()``. Going through a float32 glTF file
    and float64 instead moves some values by a few 1e-8, which is enough for truncation to
    write 4095 where the exporter writes 4096 (a bone at rest). A frame that is not whole is
    evaluated between Blender frames (subframe), where the exporter never samples."""
    scene = bpy.context.scene
    data = arm.animation_data
    assigned, slot = data.action, data.action_slot
    frame_before = scene.frame_current
    parents = joint_parents(arm, bones)
    # Bones the action does not key start at rest, as Blender's glTF exporter resets them
    # (the engine's exporter keeps whatever pose the previous action left there).
    saved = {pb.name: pb.matrix_basis.copy() for pb in arm.pose.bones}
    for pb in arm.pose.bones:
        pb.matrix_basis.identity()
    data.action = action
    if action.slots:
        data.action_slot = action.slots[0]
    found: dict[float, list[tuple[float, float, float, float]]] = {}
    try:
        for frame in frames:
            whole = math.floor(frame)
            scene.frame_set(int(whole), subframe=float(frame - whole))  # a float frame: between frames
            depsgraph = bpy.context.evaluated_depsgraph_get()
            depsgraph.update()
            pose = arm.evaluated_get(depsgraph).pose.bones
            values = []
            for name, parent in zip(bones, parents):
                matrix = pose[name].matrix
                transform = AXIS_CHANGE_4 @ matrix if parent is None else pose[parent].matrix.inverted_safe() @ matrix
                q = transform.decompose()[1]
                values.append((q.w, q.x, q.y, q.z))
            found[frame] = values
    finally:
        data.action = assigned
        if assigned is not None and slot is not None:
            data.action_slot = slot
        for pb in arm.pose.bones:
            pb.matrix_basis = saved[pb.name]
        scene.frame_set(frame_before)
    return found


def truncate_as_the_exporter(anim: Animation, arm: bpy.types.Object, action: bpy.types.Action,
                             bones: Sequence[str]) -> int:
    """Every rotation key of ``anim`` replaced by ``int(v * 4096)`` of the exporter's own
    quaternion at that frame (:func:`exporter_quaternions`), in the hemisphere of the
    converted key (the add-on's sign continuity; truncation is odd, so -key is exact too).
    Only for clips whose key k is Blender frame ``first + k`` (the scene at the region's
    rate). Returns how many keys changed."""
    first = int(round(action.frame_range[0]))
    wanted = sorted({k.frame for t in anim.tracks for k in t.keys if isinstance(k, RotationKey)})
    exact = exporter_quaternions(arm, action, bones, [first + f for f in wanted])
    changed = 0
    for track in anim.tracks:
        if not 0 <= track.joint_id < len(bones):
            continue
        for key in track.keys:
            if not isinstance(key, RotationKey):
                continue
            raw = [max(-0x8000, min(0x7FFF, int(v * FP12_ONE))) for v in exact[first + key.frame][track.joint_id]]
            if sum(a * b for a, b in zip(raw, key.quaternion)) < 0:
                raw = [-c for c in raw]
            if tuple(raw) != tuple(key.quaternion):
                key.w, key.x, key.y, key.z = raw
                changed += 1
    return changed


def _restore_raw(anim: Animation, action: bpy.types.Action) -> int:
    """Keys whose converted value is what the stored key becomes after Blender's
    normalisation get the stored integers back. Returns how many keys that changed."""
    raw = action.get(RAW_PROPERTY)
    if raw is None:
        return 0
    stored_tracks = [list(t) for t in raw]
    changed = 0
    for track, stored in zip(anim.tracks, stored_tracks):
        for i, key in enumerate(track.keys):
            if not isinstance(key, RotationKey) or 4 * i + 4 > len(stored):
                continue
            s = np.array(stored[4 * i : 4 * i + 4], dtype=np.int64)
            norm = np.linalg.norm(s)
            if norm == 0:
                continue
            renormalised = np.rint(s / norm * FP12_ONE).astype(np.int64)
            got = np.array(key.quaternion, dtype=np.int64)
            if np.array_equal(got, s):
                continue
            if np.array_equal(got, renormalised) or np.array_equal(got, -renormalised):
                key.w, key.x, key.y, key.z = (int(c) for c in s)
                changed += 1
    return changed


_COMPONENTS = {"rotation_quaternion": "wxyz", "rotation_euler": "xyz", "location": "xyz", "scale": "xyz",
               "rotation_axis_angle": "wxyz"}


def _channel_text(data_path: str, index: int) -> str:
    prop = data_path.rsplit(".", 1)[-1]
    names = _COMPONENTS.get(prop)
    return f"{prop}.{names[index]}" if names and 0 <= index < len(names) else f"{prop}[{index}]"


def non_finite_keys(action: bpy.types.Action) -> list[tuple[str, str, float, float]]:
    """(bone, channel, frame, value) of every keyframe of ``action`` whose value, frame or
    handle is NaN or infinite: Blender keeps them, the engine would play garbage."""
    found = []
    for bag in channelbags(action):
        for curve in bag.fcurves:
            bone = _bone_of(curve.data_path)
            for point in curve.keyframe_points:
                numbers = (*point.co, *point.handle_left, *point.handle_right)
                if not all(math.isfinite(v) for v in numbers):
                    found.append((bone or curve.data_path, _channel_text(curve.data_path, curve.array_index),
                                  point.co[0], point.co[1]))
    return found


def non_finite_poses(arm: bpy.types.Object, action: bpy.types.Action, bones: Sequence[str]) -> list[tuple[str, int]]:
    """(bone, frame) where the evaluated pose (drivers and constraints included) is not
    finite, each bone once, frames first..last of the action."""
    first, last = (int(math.floor(f)) for f in action.frame_range)
    frames = list(range(first, last + 1))
    bad: dict[str, int] = {}
    for frame, quats in zip(frames, exporter_quaternions(arm, action, bones, frames).values()):
        for bone, q in zip(bones, quats):
            if bone not in bad and not all(math.isfinite(c) for c in q):
                bad[bone] = frame
    return sorted(bad.items(), key=lambda item: (item[1], item[0]))


def _refuse_non_finite(arm: bpy.types.Object, actions: Sequence[bpy.types.Action], bones: Sequence[str],
                       evaluate: bool) -> None:
    for action in actions:
        keys = non_finite_keys(action)
        if keys:
            bone, channel, frame, value = keys[0]
            more = f" (and {len(keys) - 1} more key(s))" if len(keys) > 1 else ""
            raise AnimspecError(
                f"action {action.name!r}, bone {bone!r}, frame {frame:g}: the {channel} key is {value} "
                f"(not a finite number){more}; key a number there"
            )
        if evaluate:
            poses = non_finite_poses(arm, action, bones)
            if poses:
                bone, frame = poses[0]
                raise AnimspecError(
                    f"action {action.name!r}, bone {bone!r}, frame {frame}: the pose is not a finite rotation "
                    "(a driver or constraint gives NaN or infinity there)"
                )


def console_references(arm: bpy.types.Object, actions: Sequence[bpy.types.Action], animbin: AnimbinFile,
                       bones: Sequence[str], per_vsync: float) -> list[np.ndarray]:
    """Per action, Blender's pose by the engine exporter's rule at each console frame's time
    (w, x, y, z per frame and joint): what the console should show."""
    out = []
    for action, anim in zip(actions, animbin.animations):
        first = action.frame_range[0]
        frames = [first + k * per_vsync for k in range(anim.length)]
        quats = exporter_quaternions(arm, action, bones, frames)
        out.append(np.array([quats[f] for f in frames], dtype=np.float64).reshape(len(frames), len(bones), 4))
    return out


def _order_text(arm: bpy.types.Object, joint_names: Sequence[str] | None) -> str:
    """How the joints were chosen, in the Export panel's terms."""
    if joint_names is None:
        return "in the order saved on the armature" if JOINTS_PROPERTY in arm else "its deform bones"
    return "its deform bones" if list(joint_names) == deform_bones(arm) else "from the names file"


def export_animbin(
    arm: bpy.types.Object,
    *,
    which: Which = "all",
    chosen: Sequence[str] = (),
    region: Refresh = "ntsc",
    fit: Fit = "best",
    fp12: Fp12 = "round",
    max_error_deg: float = ANIMBIN_ERRORS.max_error,
    keep_file_keys: bool = True,
    joint_names: Sequence[str] | None = None,
) -> ExportResult:
    """The chosen actions of ``arm`` as an ANIMBIN (nothing written; see :func:`write_animbin`)."""
    if arm is None or arm.type != "ARMATURE":
        raise AnimspecError("select the armature whose actions to export")
    actions = select_actions(arm, which, chosen)
    bones = armature_joints(arm, joint_names)
    _refuse_non_finite(arm, actions, bones, evaluate=False)
    for action in actions:
        if len(action.pose_markers) > MAX_MARKERS:
            raise AnimspecError(
                f"action {action.name!r} has {len(action.pose_markers)} pose markers; the engine holds {MAX_MARKERS} "
                "per animation: remove some in the Action Editor"
            )
    scene = bpy.context.scene
    hz = refresh_hz(region)
    per_vsync = blender_frames_per_vsync(scene, region)
    # One console frame is per_vsync Blender frames; on the GLB's timeline that is
    # per_vsync / gltf_frame_rate seconds, so the GLB is read at this many "vsyncs" a second.
    gltf_hz = gltf_frame_rate(scene) / per_vsync
    stale = [a for a in actions
             if a.get(LAYOUT_PROPERTY) is not None and not _layout_is_current(arm, a, bones, per_vsync)]
    layouts: dict[str, dict | None] = {}
    for action in actions:
        if action.get(LAYOUT_PROPERTY) is not None:
            layouts[action.name] = (None if action in stale
                                    else dict(action[LAYOUT_PROPERTY].to_dict(), refresh_hz=gltf_hz))
    markers = {}
    for action in actions:
        start = action.frame_range[0]
        markers[action.name] = [
            {"name": m.name, "time": (m.frame - start) / gltf_frame_rate(scene)} for m in action.pose_markers
        ]
    with tempfile.TemporaryDirectory(prefix="animspec_blender_") as folder:
        glb = os.path.join(folder, "actions.glb")
        export_glb(arm, bones, glb, layouts)
        try:
            conversion = gltf_to_animbin(
                glb, animations=[a.name for a in actions], joint_names=bones, region=gltf_hz, fit=fit, fp12=fp12,
                max_error_deg=max_error_deg, armature_space=True, markers=markers,
            )
        except AnimspecError as exc:
            if isinstance(exc, GltfError) and "NaN" in str(exc):  # not on a key: evaluate the poses to say where
                _refuse_non_finite(arm, actions, bones, evaluate=True)
            phrased = in_blender_words(exc, region=region, armature=arm.name, order=_order_text(arm, joint_names))
            if phrased == str(exc):
                raise
            raise AnimspecError(phrased) from exc
    animbin = conversion.animbin
    kept = truncated = 0
    exact_truncation = fp12 == "trunc" and fit != "best" and per_vsync == 1.0
    for action, anim, clip in zip(actions, animbin.animations, conversion.clips):
        looping = bool(action.get(LOOPING_PROPERTY, True))
        anim.flags = (anim.flags | LOOPING_FLAG) if looping else (anim.flags & ~LOOPING_FLAG)
        if keep_file_keys and action not in stale and action.get(LAYOUT_PROPERTY) is not None:
            kept += _restore_raw(anim, action)
        elif exact_truncation and not clip.layout:
            truncated += truncate_as_the_exporter(anim, arm, action, bones)
    findings = validate(animbin, bone_count=len(bones))
    # The conversion's own lines speak of the GLB (its skin, its timeline's rate): the
    # add-on says those in Blender's terms instead.
    glb_terms = ("skin 0: ", "skin joints not in the mapping", f"region {gltf_hz}: ")
    lines = [
        f"joints ({_order_text(arm, joint_names)}): " + ", ".join(f"{i}={n}" for i, n in enumerate(bones)),
        f"region {region_text(region)}, one key per console frame; FP12 "
        + ("chosen by Best fit" if fit == "best"
           else "truncated toward zero from Blender's pose, as the engine's exporter does" if fp12 == "trunc"
           else "rounded to nearest (the engine's exporter truncates)"),
    ] + [line for line in conversion.lines if not line.startswith(glb_terms)]
    # The error on screen as the budget panel measures it: the file as written (raw and
    # truncated keys included), played by the engine, against Blender's own pose rather than
    # the GLB's float32 curves.
    references = console_references(arm, actions, animbin, bones, per_vsync)
    console = [console_error(anim, ref) for anim, ref in zip(animbin.animations, references)]
    shown = iter(zip(actions, console, conversion.clips))
    # (the conversion's own line measures against the GLB's curves: the budget's figure replaces it)
    lines = [_console_line(*next(shown)) if line.startswith(SHOWN_LINE) else line for line in lines]
    # Bones that are not joints (control bones, bones left out of the joint order) are in
    # Blender's GLB with their keys: one line for all of them, not a warning per channel.
    left_out = [c for c in conversion.ignored if c.reason == "not on an exported joint"]
    warnings = [w for w in conversion.warnings if w not in {c.warning for c in left_out}]
    names = sorted({c.node_name or f"node {c.node}" for c in left_out})
    if names:
        lines.append(f"not exported (not joints): {', '.join(names)}; their keys are left out")
    mismatch = order_mismatch(arm, bones)
    if mismatch:
        warnings.append(mismatch)
    if per_vsync != 1.0:
        # Measured on swing.animbin imported and exported at 24 fps: up to 310 FP12 units off
        # (30 fps: 210; 120 fps: 5).
        warnings.append(
            f"the scene runs at {scene_fps(scene):.3f} fps, not the region's {hz:.3f}: Blender's glTF exporter "
            "samples whole frames only, so console frames that fall between Blender frames are interpolated; "
            "set the scene to the region's rate for exact keys"
        )
    if abs(gltf_hz - hz) > 1e-9:
        lines.append(
            f"region {region}: {hz:.4f} Hz; Blender's glTF timeline runs at {gltf_frame_rate(scene):.4f} fps for this "
            f"scene ({scene.render.fps} x fps_base {scene.render.fps_base:g}), read at {gltf_hz:.4f} Hz so that one "
            "console frame is one Blender frame"
        )
    if stale:
        lines.append("edited since import, sampled afresh: " + ", ".join(a.name for a in stale))
    if exact_truncation:
        lines.append(
            f"FP12 truncated from Blender's own pose matrices, as the engine's exporter computes them "
            f"({truncated} key(s) differ from a truncation of the glTF file's float32 values)"
        )
    if kept:
        lines.append(f"{kept} key(s) written with the file's own FP12 integers (same rotation as Blender's pose)")
    return ExportResult(animbin, write_bytes(animbin), lines, warnings, findings, kept,
                        [a.name for a in stale], references, console)


def _console_line(action: bpy.types.Action, error: ConsoleError | None, clip) -> str:
    shown = "no rotation track" if error is None else console_error_text(error)
    return (f"  {CONSOLE_ERROR_LABEL}: {shown}; {clip.between_max_error_deg:.4f} deg between console frames "
            "(the console holds one pose per vsync)")


def write_animbin(result: ExportResult, path: str, *, force: bool = False) -> None:
    """Write atomically; refused when the validator found errors or (without ``force``) the file exists."""
    if result.errors:
        raise AnimspecError(
            f"{path}: not written, the engine would misbehave: "
            + "; ".join(f"{f.code}: {f.message}" for f in result.errors)
        )
    if os.path.exists(path) and not force:
        raise AnimspecError(f"{path} exists; tick Overwrite on the Export panel to replace it")
    write_atomic(path, result.data)
