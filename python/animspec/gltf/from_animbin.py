"""ANIMBIN -> glTF 2.0 (GLB), so a clip can be looked at in any glTF viewer.

One glTF animation per ANIMBIN animation; key times are ``frame / refresh_hz`` for the
chosen region (one ANIMBIN frame per vsync). Joints are nodes in the skeleton's hierarchy,
named after it; with ``skinned`` (default) a skin and a small octahedral "bone" mesh per
joint, rigidly bound to it, make the motion visible.

Two ways to show a clip:

* keys (default): the keys as authored, LINEAR (glTF slerp between keys, the artist's
  intent, as :func:`animspec.animbin.playback.sample_reference` plays them), translation
  keys included. With keys on every frame this is also what the console shows.
* ``bake_engine``: one STEP key per vsync of what the console computes
  (:func:`animspec.animbin.playback.play_engine`: held keys, FP12 nlerp, translations never
  applied). STEP is the honest interpolation: the console changes pose once per vsync.

A looping clip gets a closing key at ``length / refresh_hz`` (the moment the engine resets
to frame 0) holding the last pose, so a viewer's loop takes the clip's real duration.

Axes: ANIMBIN root rotations are in the console's model space (Blender's Z-up armature
space through the exporter's diag(1, -1, -1)); :mod:`.axes` turns them into glTF's Y-up
world. A skeleton from MESHBIN (or the default chain) is in that space too and gets the same
change on its roots; a skeleton read from a glTF rig is already in glTF space
(``skeleton_space="gltf"``).

On a glTF rig (``rig=``, :func:`.rig.read_rig`, with the joint mapping the clip was made
with) the result is the rig's own document, meshes and every node above the skeleton kept,
its animations replaced by the clip's: joint id j drives the rig's j-th mapped joint, and a
key is turned back into that node's own local rotation through the rest transform of the
nodes between it and its exported parent (or the scene root), exactly inverting
:mod:`.to_animbin`.

Round trip: with keys as authored, the key values are written as stored (not renormalised,
not sign-flipped) and each animation's ``extras.animbin`` carries the clip's layout (length,
flags, file version, per track its joint, track type, and key frames and types), so
:func:`animspec.gltf.gltf_to_animbin` rebuilds the same bytes from the GLB.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pygltflib import ANIM_LINEAR, ANIM_STEP, GLTF2

from ..animbin.model import FP12_ONE, Animation as AnimbinAnimation, AnimbinFile, RotationKey, TranslationKey
from ..animbin.playback import Refresh, play_engine, refresh_hz, vsync_deltas
from ..common.errors import AnimspecError
from ..quaternion import normalize, quat_multiply, sign_continuous
from ..skeleton import Skeleton, forward_kinematics
from .axes import PS1_TO_GLTF, PS1_TO_GLTF_MATRIX
from .builder import Channel, DocumentBuilder, add_scene_if_none
from .document import write_glb
from .rig import Rig, taken_out
from .to_animbin import MAX_SAMPLES

# --- the skeleton in glTF axes -----------------------------------------------------------


def _gltf_rest(skeleton: Skeleton, to_gltf_axes: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rest translations and unit rotations, the roots turned into glTF axes if asked."""
    translation = np.array(skeleton.rest_translation, dtype=np.float64, copy=True)
    rotation = normalize(skeleton.rest_rotation)
    if to_gltf_axes:
        roots = skeleton.parents < 0
        rotation[roots] = quat_multiply(PS1_TO_GLTF, rotation[roots])
        translation[roots] = translation[roots] @ PS1_TO_GLTF_MATRIX.T
    return translation, rotation


# --- animations ----------------------------------------------------------------------------


def _joint_keys(anim: AnimbinAnimation, kind: type) -> dict[int, list]:
    """Per joint, the keys of one type the clip can show: sorted by frame, frames at or past
    the clip's end dropped (never shown), one key per frame (the later wins), later tracks
    on the same joint replacing earlier ones (as they do, per tick, in the engine)."""
    out: dict[int, list] = {}
    for track in anim.tracks:
        keys = {k.frame: k for k in track.keys if isinstance(k, kind) and k.frame < anim.length}
        if keys:
            out[track.joint_id] = [keys[f] for f in sorted(keys)]
    return out


@dataclass
class _Placement:
    """Where each ANIMBIN joint's keys go: its node, and the transform that turns a key (in
    the exported parent's space, or the console's model space for a root) into the node's
    own local transform."""

    nodes: list[int]
    rotation: np.ndarray
    """(joints, 4): node local rotation = rotation[j] * key."""
    matrix: np.ndarray
    """(joints, 4, 4): node local translation = matrix[j] @ (key translation, 1)."""

    @classmethod
    def build(cls, nodes: list[int], roots: np.ndarray, axis_change: bool,
              above: np.ndarray | None = None, above_rotation: np.ndarray | None = None) -> _Placement:
        n = len(nodes)
        rotation = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
        matrix = np.tile(np.eye(4), (n, 1, 1))
        if axis_change:
            rotation[roots] = PS1_TO_GLTF
            matrix[roots, :3, :3] = PS1_TO_GLTF_MATRIX
        if above is not None and above_rotation is not None:  # the rig's nodes above, taken out
            inverse, inverse_matrix = taken_out(above, above_rotation)
            rotation = quat_multiply(inverse, rotation)
            matrix = inverse_matrix @ matrix
        return cls(nodes, rotation, matrix)

    def rotations(self, joint: int, q: np.ndarray) -> np.ndarray:
        return quat_multiply(self.rotation[joint], q)

    def translations(self, joint: int, t: np.ndarray) -> np.ndarray:
        m = self.matrix[joint]
        return t @ m[:3, :3].T + m[:3, 3]


def _key_channels(anim: AnimbinAnimation, place: _Placement, hz: float) -> list[Channel]:
    channels = []
    closing = anim.is_looping
    for joint, keys in sorted(_joint_keys(anim, RotationKey).items()):
        frames = [k.frame for k in keys]
        q = place.rotations(joint, np.array([k.quaternion for k in keys], dtype=np.float64) / FP12_ONE)
        if closing and frames[-1] < anim.length:
            frames, q = frames + [anim.length], np.vstack([q, q[-1:]])
        channels.append(Channel(place.nodes[joint], "rotation", np.array(frames) / hz, q, ANIM_LINEAR))
    for joint, keys in sorted(_joint_keys(anim, TranslationKey).items()):
        frames = [k.frame for k in keys]
        t = place.translations(joint, np.array([k.vector for k in keys], dtype=np.float64) / FP12_ONE)
        if closing and frames[-1] < anim.length:
            frames, t = frames + [anim.length], np.vstack([t, t[-1:]])
        channels.append(Channel(place.nodes[joint], "translation", np.array(frames) / hz, t, ANIM_LINEAR))
    return channels


def _engine_channels(anim: AnimbinAnimation, place: _Placement, hz: float, rest_raw: np.ndarray) -> list[Channel]:
    # One tick per vsync; a looping clip gets one more tick: the reset to frame 0.
    ticks = anim.length + (1 if anim.is_looping else 0)
    joints = len(place.nodes)
    if ticks == 0:
        return []  # a zero-length one-shot clip shows nothing: no channel, left out
    if ticks * joints > MAX_SAMPLES:
        raise AnimspecError(
            f"animation {str(anim.name)!r}: {ticks} vsyncs on {joints} joints is more than {MAX_SAMPLES} "
            "poses to bake; convert the keys as authored (no --bake-engine) or give a skeleton with fewer bones"
        )
    played = play_engine(anim, vsync_deltas(ticks), num_joints=joints, rest_rotations=rest_raw)
    q = normalize(played.rotations_float())
    times = np.arange(ticks) / hz
    channels = []
    for joint in sorted({t.joint_id for t in anim.tracks if t.joint_id < joints}):
        rotation = normalize(place.rotations(joint, q[:, joint]))
        channels.append(Channel(place.nodes[joint], "rotation", times, sign_continuous(rotation), ANIM_STEP))
    return channels


def _layout(anim: AnimbinAnimation) -> list[dict[str, Any]] | None:
    """Each track's joint, type and (frame, key type) per key; None when a key has a type
    glTF cannot carry (its payload is unknown)."""
    tracks = []
    for track in anim.tracks:
        if any(not isinstance(k, (RotationKey, TranslationKey)) for k in track.keys):
            return None
        tracks.append({
            "joint": track.joint_id,
            "track_type": track.track_type,
            "keys": [[k.frame, int(k.key_type)] for k in track.keys],
        })
    return tracks


def _animation_extras(anim: AnimbinAnimation, animbin: AnimbinFile, hz: float, bake_engine: bool) -> dict[str, Any]:
    info: dict[str, Any] = {
        "length": anim.length,
        "looping": anim.is_looping,
        "flags": anim.flags,
        "refresh_hz": hz,
        "mode": "engine" if bake_engine else "keys",
        "version": animbin.version,
    }
    layout = None if bake_engine else _layout(anim)
    if layout is not None:
        info["tracks"] = layout
    return {
        "markers": [{"name": str(m.name), "frame": m.frame, "time": m.frame / hz} for m in anim.markers],
        "animbin": info,
    }


def _add_animations(builder: DocumentBuilder, animbin: AnimbinFile, place: _Placement, hz: float, bake_engine: bool,
                    rest_raw: np.ndarray) -> None:
    for anim in animbin.animations:
        if bake_engine:
            channels = _engine_channels(anim, place, hz, rest_raw)
        else:
            channels = _key_channels(anim, place, hz)
        if channels:
            builder.animation(str(anim.name), channels, _animation_extras(anim, animbin, hz, bake_engine))


def on_rig_document(animbin: AnimbinFile, rig: Rig, region: Refresh = "ntsc", bake_engine: bool = False,
                    *, ps1_space: bool = False, skinned: bool = True, notes: list[str] | None = None) -> GLTF2:
    """The clip on a glTF rig's own document (see the module's docstring); what had to be
    changed in the rig's own data is added to ``notes``."""
    hz = refresh_hz(region)
    needed = max((t.joint_id + 1 for a in animbin.animations for t in a.tracks), default=0)
    if needed > len(rig.nodes):
        raise AnimspecError(
            f"a track animates joint {needed - 1}; the rig maps {len(rig.nodes)} joint(s): "
            "give the --joints FILE the clip was made with"
        )
    builder = DocumentBuilder.extending(rig.gltf)
    builder.gltf.animations = []
    builder.embed_images()
    fixed = builder.normalise_weights()
    if fixed and notes is not None:
        notes.append(f"the rig's skin weights of {fixed} vertices did not sum to 1; normalised, as glTF requires")
    roots = rig.skeleton.parents < 0
    place = _Placement.build(rig.nodes, roots, not ps1_space, rig.above, rig.above_rotation)
    add_scene_if_none(builder.gltf)  # nodes in no scene are shown by no viewer
    if skinned and not builder.gltf.meshes and rig.nodes:  # a glTF skin lists at least one joint
        world = forward_kinematics(rig.skeleton, rig.skeleton.rest_rotation[None])[0]
        builder.skin(rig.skeleton, rig.nodes, world, mesh=True)
    rest = rig.ps1_skeleton(ps1_space).rest_rotation
    rest_raw = np.rint(normalize(rest) * FP12_ONE).astype(np.int64)
    _add_animations(builder, animbin, place, hz, bake_engine, rest_raw)
    return builder.document()


def animbin_to_gltf_document(
    animbin: AnimbinFile,
    skeleton: Skeleton | None = None,
    region: Refresh = "ntsc",
    bake_engine: bool = False,
    *,
    skeleton_space: Literal["ps1", "gltf"] = "ps1",
    axis_change: bool = True,
    skinned: bool = True,
) -> GLTF2:
    """The glTF document of :func:`animbin_to_gltf` (for inspection or further editing)."""
    hz = refresh_hz(region)
    needed = max((t.joint_id + 1 for a in animbin.animations for t in a.tracks), default=1)
    if skeleton is None:
        skeleton = Skeleton.chain(needed)
    elif skeleton.bone_count < needed:
        raise AnimspecError(f"a track animates joint {needed - 1}; the skeleton has {skeleton.bone_count} bones")
    if skeleton_space not in ("ps1", "gltf"):
        raise AnimspecError(f"unknown skeleton space {skeleton_space!r}; use 'ps1' or 'gltf'")
    try:
        skeleton.depth_levels()  # parents before children, or a ValueError naming the bone
    except ValueError as exc:
        raise AnimspecError(f"the skeleton cannot be posed: {exc}") from None
    translation, rotation = _gltf_rest(skeleton, axis_change and skeleton_space == "ps1")

    builder = DocumentBuilder()
    nodes = builder.skeleton_nodes(skeleton, translation, rotation)
    builder.scene("animbin", [nodes[i] for i in range(skeleton.bone_count) if skeleton.parents[i] < 0])
    if skinned:
        gltf_skeleton = Skeleton(skeleton.parents, translation, rotation, skeleton.names)
        world = forward_kinematics(gltf_skeleton, rotation[None])[0]
        builder.skin(gltf_skeleton, nodes, world, mesh=True)

    roots = skeleton.parents < 0
    rest_raw = np.rint(normalize(skeleton.rest_rotation) * FP12_ONE).astype(np.int64)
    _add_animations(builder, animbin, _Placement.build(nodes, roots, axis_change), hz, bake_engine, rest_raw)
    return builder.document()


def animbin_to_gltf(
    animbin: AnimbinFile,
    skeleton: Skeleton | None = None,
    region: Refresh = "ntsc",
    bake_engine: bool = False,
    *,
    skeleton_space: Literal["ps1", "gltf"] = "ps1",
    axis_change: bool = True,
    skinned: bool = True,
) -> bytes:
    """GLB bytes showing every animation of ``animbin`` on ``skeleton``.

    ``skeleton``: a MESHBIN skeleton (:func:`animspec.meshbin.skeleton_from_meshbin`), a glTF
    rig (:func:`animspec.gltf.rig.skeleton_from_gltf`, with ``skeleton_space="gltf"``) or
    None for a chain of as many bones as the highest joint id needs. ``region``: the vsync
    rate that turns frames into seconds. ``bake_engine``: STEP keys of what the console
    computes, one per vsync, instead of the file's keys. ``axis_change``: undo the
    exporter's diag(1, -1, -1) on root rotations (False leaves PS1 axes). ``skinned``: add
    a skin and a bone mesh (False: joint nodes only).

    An animation with no tracks has no channels and is left out (glTF requires at least one
    channel per animation).
    """
    return write_glb(
        animbin_to_gltf_document(
            animbin, skeleton, region, bake_engine,
            skeleton_space=skeleton_space, axis_change=axis_change, skinned=skinned,
        )
    )


def animbin_to_gltf_on_rig(
    animbin: AnimbinFile,
    rig: Rig,
    region: Refresh = "ntsc",
    bake_engine: bool = False,
    *,
    ps1_space: bool = False,
    skinned: bool = True,
    notes: list[str] | None = None,
) -> bytes:
    """GLB bytes of the rig ``rig`` (:func:`.rig.read_rig` with the clip's joint mapping)
    playing every animation of ``animbin``: the rig's meshes and nodes kept, its animations
    replaced. ``ps1_space``: the clip was converted with ``ps1_space`` (no axis change on
    roots). ``skinned``: add a bone mesh when the rig has no mesh of its own. ``notes``:
    gets a line for each change made to the rig's own data (skin weights normalised)."""
    return write_glb(
        on_rig_document(animbin, rig, region, bake_engine, ps1_space=ps1_space, skinned=skinned, notes=notes)
    )
