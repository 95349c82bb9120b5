"""An Insomniac .animclip's base state shown on a glTF rig.

ALERT's ``animclip_to_gltf.py`` procedure (Tkachov/ALERT), restated:
joints are matched purely by name hash: every node name of the rig is hashed with the DAT1
CRC32 (dat1lib/crc32.py, case-sensitive, :func:`animspec.common.hashes.crc32`) and compared with the
clip's joint hashes. A matched node gets a two-key animation: its rig (bind) pose at t = 0,
the base-state local rotation and translation at t = ``key_seconds`` (ALERT: 1/25 s), LINEAR.
Base-state values REPLACE the node's local values (as ALERT's glTF nodes do); nothing is additive.
Unmatched joints are reported both ways. Custom tracks (per-frame float arrays) have no glTF
counterpart: they are kept in the animation's ``extras``.

A rig made for another skeleton (or another naming scheme) matches few joints or none: no
match at all is an error (there is nothing to pose); fewer than
:data:`MIN_MATCHED_FRACTION` of the clip's joints is a ``few-joints-matched`` warning, since
the output then mostly shows the rig's own pose.

The clip is read through a minimal protocol, not through ``animspec.animclip`` (written
separately): an iterable of joints, each either an object with ``hash``, ``rotation`` and
``translation`` attributes or a ``(hash, rotation, translation)`` tuple, where rotation is
x, y, z, w already dequantised (ALERT: raw / 32768; need not be unit length, it is
normalised here, a zero quaternion becoming the identity) and translation is x, y, z
(raw / 2**E15) or None to keep the rig's; an optional ``name`` attribute (from
``--joint-names``) labels the joint in the report. Custom tracks: objects with ``name`` and
``values`` or ``(name, values)`` tuples.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from pygltflib import ANIM_LINEAR

from ..common.errors import AnimspecError
from ..common.findings import Finding, Severity
from ..common.hashes import crc32
from ..quaternion import normalize, quat_multiply, sign_continuous, xyzw_to_wxyz
from .builder import Channel, DocumentBuilder, add_scene_if_none, use_trs
from .document import copy_gltf
from .rig import GltfSource, load_gltf, node_locals, node_name, node_rest, nodes_above, split_trs, trs_matrices

NO_JOINT = 0xFFFF_FFFF
"""A Joint Hashes entry that names no joint (its terminator): skipped, as ALERT skips it."""

ALERT_KEY_SECONDS = 1 / 25
"""Where ALERT puts the base-state key ("25 seems to be default blender fps")."""

MIN_MATCHED_FRACTION = 0.5
"""Below this share of the clip's joints finding a rig node, the output is reported as
mostly the rig's own pose (``few-joints-matched``). Why a half: a game clip may carry
helper joints (twist, IK, camera) that a user's rig lacks, so a few misses are normal and
the rig is still the right one; but base-state values are LOCAL (each replaces a node's
rotation relative to its parent), so once most joints are missing, most of the chain
between the matched ones stays in the rig pose and the silhouette is not the clip's. A rig
from another skeleton sits far below a half (the pendulum rig: 1 of 21), the clip's own
far above (21 of 21)."""


class ClipJointLike(Protocol):
    hash: int
    rotation: Sequence[float]
    translation: Sequence[float] | None


class CustomTrackLike(Protocol):
    name: str
    values: Sequence[float]


JointInput = ClipJointLike | tuple[int, Sequence[float], Sequence[float] | None]
TrackInput = CustomTrackLike | tuple[str, Sequence[float]]


@dataclass
class AnimclipMatch:
    """How the clip's joints met the rig's nodes."""

    matched: list[tuple[str, int]] = field(default_factory=list)
    """(node name, hash) of every node that received the base state."""
    clip_only: list[int] = field(default_factory=list)
    """Clip joint hashes no rig node name hashes to."""
    rig_only: list[str] = field(default_factory=list)
    """Rig joints (skin joints, or every named node when there is no skin) the clip lacks."""
    clip_joints: int = 0
    """Distinct clip joint hashes (the "no joint" entry left out)."""
    lines: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    """``few-joints-matched`` (warning) when fewer than MIN_MATCHED_FRACTION of the clip's
    joints found a node."""

    @property
    def matched_joints(self) -> int:
        """Clip joints that found at least one node."""
        return self.clip_joints - len(self.clip_only)

    def conclude(self, gltf: Any, clip_hashes: Collection[int], hit: set[int], rig_joints: Sequence[int],
                 node_hash: Mapping[int, int], repeated: int, names: dict[int, str], rig: Any,
                 *, found_any: bool) -> None:
        """Fill in what matched and what did not, once every clip joint has been tried: the
        report lines, AnimspecError when no node was posed, ``few-joints-matched`` when too
        few were (``rig``: the rig's path, for the messages, or its bytes)."""
        self.clip_only = sorted(h for h in clip_hashes if h not in hit)
        self.rig_only = [node_name(gltf, n) for n in rig_joints if node_hash.get(n) not in clip_hashes]
        self.clip_joints = len(clip_hashes)
        self.lines.append(f"{len(clip_hashes)} clip joint(s), {len(rig_joints)} rig joint(s): "
                          f"{len(self.matched)} node(s) matched by CRC32 of the name")
        if repeated:
            self.lines.append(f"{repeated} clip joint hash(es) listed more than once: the last one wins")
        if self.clip_only:
            self.lines.append("clip joints with no rig node: " + ", ".join(_label(h, names) for h in self.clip_only))
        if self.rig_only:
            self.lines.append("rig joints the clip does not pose (left in the rig pose): " + ", ".join(self.rig_only))
        rig_label = f"{os.fspath(rig)}: " if isinstance(rig, (str, os.PathLike)) else ""
        if not found_any:
            raise AnimspecError(
                f"{rig_label}no rig node name hashes to any of the clip's {len(clip_hashes)} joint(s), so there is "
                "nothing to pose: give the rig the clip was made for with --skeleton (its node names must "
                "be the clip's joint names; --joint-names FILE labels the clip's joints in this report); "
                + "; ".join(self.lines)
            )
        if self.matched_joints < MIN_MATCHED_FRACTION * self.clip_joints:
            self.findings.append(Finding(
                "few-joints-matched", Severity.WARNING,
                f"only {self.matched_joints} of the clip's {self.clip_joints} joints found a node in "
                f"{os.fspath(rig) if rig_label else 'the rig'} "
                f"(fewer than {MIN_MATCHED_FRACTION:.0%}): the output mostly shows the rig's own pose, not the "
                "clip's; give the rig the clip was made for with --skeleton (node names = the clip's joint "
                "names; --joint-names FILE names the missing ones above)",
            ))


def _joint(item: Any) -> tuple[int, np.ndarray, np.ndarray | None, str | None]:
    if isinstance(item, tuple):
        h, rotation, translation = item
        name = None
    else:
        h, rotation, translation = item.hash, item.rotation, item.translation
        name = getattr(item, "name", None)
    q = np.asarray(rotation, dtype=np.float64).reshape(4)
    t = None if translation is None else np.asarray(translation, dtype=np.float64).reshape(3)
    return int(h) & 0xFFFF_FFFF, q, t, name


def _label(h: int, names: dict[int, str]) -> str:
    return f"{names[h]} ({h:08X})" if h in names else f"{h:08X}"


def _track(item: Any) -> tuple[str, list[float | str]]:
    name, values = item if isinstance(item, tuple) else (item.name, item.values)
    return str(name), [_json_float(float(v)) for v in values]


def _json_float(v: float) -> float | str:
    """JSON has no NaN or infinity (and glTF extras are JSON): those are written as the
    strings "nan", "inf", "-inf", as animspec's dumps write f32 values."""
    if math.isfinite(v):
        return v
    return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")


def animclip_pose_to_gltf(
    joints: Iterable[JointInput],
    rig: GltfSource,
    *,
    custom_tracks: Iterable[TrackInput] = (),
    name: str = "base_state",
    key_seconds: float = ALERT_KEY_SECONDS,
    bind_key: bool = True,
) -> tuple[bytes, AnimclipMatch]:
    """The rig as GLB with one more animation: the clip's base state on its matched nodes.

    ``bind_key``: key the rig pose at t = 0 and the base state at ``key_seconds`` (ALERT's
    layout); False keys only the base state, at t = 0. Raises :class:`AnimspecError` when
    no node matches any joint (the animation would have no channel, which glTF forbids).
    """
    if not key_seconds > 0:
        raise AnimspecError("key_seconds must be positive")
    gltf = copy_gltf(load_gltf(rig))
    base: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
    names: dict[int, str] = {}
    repeated = 0
    for item in joints:
        h, q, t, joint_name = _joint(item)
        if h == NO_JOINT:
            continue
        repeated += h in base
        base[h] = (q, t)
        if joint_name:
            names[h] = joint_name

    match = AnimclipMatch()
    rig_joints = sorted({j for skin in gltf.skins for j in (skin.joints or [])}) or [
        i for i, n in enumerate(gltf.nodes) if n.name
    ]
    node_hash = {i: crc32(node_name(gltf, i)) for i, n in enumerate(gltf.nodes) if n.name}
    hit_hashes: set[int] = set()
    channels = []
    times = np.array([0.0, key_seconds]) if bind_key else np.array([0.0])
    posed = [node for node, h in node_hash.items() if h in base]
    above, above_rotation = nodes_above(gltf, posed, rig_joints)
    for k, node in enumerate(posed):
        h = node_hash[node]
        q, t = base[h]
        norm = np.linalg.norm(q)
        target_q = normalize(xyzw_to_wxyz(q / norm)) if norm > 0 else np.array([1.0, 0.0, 0.0, 0.0])
        rest = node_rest(gltf, node)
        use_trs(gltf, node, rest.translation, rest.rotation, rest.scale)  # the node is animated
        # The base state is the joint's transform in the space of the joint above it (the
        # scene for a root), as every frame is (animclip_to_gltf); where it leaves the
        # translation out, the rig's own stands, and the scale is always the rig's.
        rig_q = quat_multiply(above_rotation[k], rest.rotation)
        rig_t, rig_s = split_trs(above[k] @ trs_matrices(rest.translation, rest.rotation, rest.scale), rig_q,
                                 [node_name(gltf, node)])
        local_t, local_q, _ = node_locals(above[k:k + 1], above_rotation[k:k + 1],
                                          (rig_t if t is None else t)[None, None], target_q[None, None],
                                          rig_s[None, None], [node_name(gltf, node)])
        target_q = local_q[0, 0]
        rotations = np.vstack([rest.rotation, target_q]) if bind_key else target_q[None]
        if bind_key:
            rotations = sign_continuous(rotations)  # the base state reached the short way
        channels.append(Channel(node, "rotation", times, rotations, ANIM_LINEAR))
        if t is not None:
            moves = np.vstack([rest.translation, local_t[0, 0]]) if bind_key else local_t[0]
            channels.append(Channel(node, "translation", times, moves, ANIM_LINEAR))
        match.matched.append((node_name(gltf, node), h))
        hit_hashes.add(h)
    match.conclude(gltf, base, hit_hashes, rig_joints, node_hash, repeated, names, rig, found_any=bool(channels))
    roots = add_scene_if_none(gltf, name="animclip")
    if roots is not None:
        match.lines.append(f"the rig has no scene: added one holding its {len(roots)} root node(s), so viewers show it")

    tracks = dict(_track(t) for t in custom_tracks)
    if tracks:
        match.lines.append(f"{len(tracks)} custom track(s) kept in the animation's extras (glTF has no place for them)")
    extras = {
        "animclip": {
            "source": "base state (the Base State section, as Tkachov/ALERT animclip_to_gltf.py applies it)",
            "custom_tracks": tracks,
            "unmatched_clip_hashes": [f"{h:08X}" for h in match.clip_only],
            "unposed_rig_joints": match.rig_only,
        }
    }
    builder = DocumentBuilder(gltf)
    builder.animation(name, channels, extras)
    return builder.glb(), match


# ---------------------------------------------------------------------------- every frame

ROOT_MOTION_NODE = "animclip_root_motion"
"""The node added above the rig's roots to carry the clip's root motion."""
CAMERA_NODE = "animclip_camera"
MOTION_KEYS = "Motion Data sample"
"""What a root-motion or camera key is in the clip (messages name it so)."""
DEFAULT_XFOV = math.pi / 4
"""Horizontal field of view when a camera clip has no XFOV track (an assumption: 45 degrees)."""
CAMERA_ASPECT = 16 / 9
"""glTF cameras take a vertical field of view; an .animclip's XFOV track is horizontal. The
aspect ratio is not in the clip: 16:9 is assumed (and written as the camera's aspectRatio)."""


@dataclass
class ClipAnimation:
    """A decoded clip as this module takes it (built by :func:`animspec.convert` from
    :class:`animspec.animclip.frames.decode.ClipFrames`; arrays, no animclip types)."""

    joint_hashes: np.ndarray
    """(joints,) u32 joint-name CRC32s."""
    times: np.ndarray
    """(frames,) seconds."""
    rotation: np.ndarray
    """(frames, joints, 4) local rotations x, y, z, w (unit)."""
    translation: np.ndarray
    """(frames, joints, 3)"""
    scale: np.ndarray
    """(frames, joints, 3)"""
    root_motion_times: np.ndarray | None = None
    root_motion_translation: np.ndarray | None = None
    """(n, 3) the character's root translation per motion sample, None without root motion."""
    root_motion_rotation: np.ndarray | None = None
    """(n, 4) x, y, z, w"""
    loop_end: float | None = None
    """A looping clip's length in seconds (frames / fps), where it is frame 0 again; None for
    a clip that plays once. A key there repeats frame 0, so the glTF's animation lasts as
    long as the clip loops, and sampling it back gives every frame (its last one included)."""


@dataclass
class CameraAnimation:
    """A camera clip: the camera's world transform per motion sample and its field of view."""

    times: np.ndarray
    translation: np.ndarray
    """(n, 3)"""
    rotation: np.ndarray
    """(n, 4) x, y, z, w"""
    xfov: np.ndarray | None = None
    """Horizontal field of view per frame, radians (the clip's XFOV track), if any."""


def _continuous_wxyz(xyzw: np.ndarray) -> np.ndarray:
    """(keys, 4) x, y, z, w -> w, x, y, z, each key on the side of the previous one (LINEAR
    interpolation then takes the short way)."""
    return sign_continuous(xyzw_to_wxyz(np.asarray(xyzw, np.float64)))


def _varies(values: np.ndarray, *, not_equal_to: Sequence[float] | np.ndarray | None = None) -> bool:
    values = np.asarray(values)
    if np.ptp(values, axis=0).max() > 0:  # (one frame: a range of 0)
        return True
    return not_equal_to is not None and not np.allclose(values[0], not_equal_to, rtol=0, atol=1e-9)


def animclip_to_gltf(
    clip: ClipAnimation,
    rig: GltfSource,
    *,
    name: str = "animclip",
    root_motion: bool = True,
    custom_tracks: Iterable[TrackInput] = (),
    joint_names: dict[int, str] | None = None,
    check_keys: Callable[[int, int], None] | None = None,
) -> tuple[bytes, AnimclipMatch]:
    """The rig as GLB with one more animation: every frame of the clip on the nodes whose name
    hashes (DAT1 CRC32) to a clip joint, LINEAR keys at the frames' times. Each matched node
    gets rotation and translation channels, and scale where the clip's scale moves or is not 1.
    ``root_motion`` and a clip with root motion: a node named :data:`ROOT_MOTION_NODE` is added
    above the rig's roots and animated with it (translation and rotation), so the character
    travels; False leaves the character in place. One frame gives one key per channel.

    Matching is reported as :func:`animclip_pose_to_gltf` does (``few-joints-matched`` below half);
    no match at all raises :class:`AnimspecError`. ``check_keys(frames, nodes)`` is called once
    the animated nodes are known, before any key is built (it raises to refuse)."""
    gltf = copy_gltf(load_gltf(rig))
    names = dict(joint_names or {})
    hashes = [int(h) & 0xFFFF_FFFF for h in np.asarray(clip.joint_hashes).tolist()]
    column: dict[int, int] = {}
    repeated = 0
    for j, h in enumerate(hashes):
        if h == NO_JOINT:
            continue
        repeated += h in column
        column[h] = j
    match = AnimclipMatch()
    rig_joints = sorted({j for skin in gltf.skins for j in (skin.joints or [])}) or [
        i for i, n in enumerate(gltf.nodes) if n.name
    ]
    node_hash = {i: crc32(node_name(gltf, i)) for i, n in enumerate(gltf.nodes) if n.name}
    times = np.asarray(clip.times, np.float64)
    channels = []
    hit: set[int] = set()
    animated = [(node, h, column[h]) for node, h in node_hash.items() if h in column]
    if check_keys is not None:
        check_keys(int(times.size), len(animated))  # (a looping clip's closing key aside: one more)
    columns = [j for _, _, j in animated]
    rotations, translations, scales = clip.rotation[:, columns], clip.translation[:, columns], clip.scale[:, columns]
    if clip.loop_end is not None and clip.loop_end > times[-1]:
        times = np.append(times, clip.loop_end)
        rotations, translations, scales = (np.concatenate([v, v[:1]]) for v in (rotations, translations, scales))
    # The rig's nodes between a joint and the joint above it (for a root: up to the scene)
    # stay; each node gets what puts the joint where the clip says (rig.node_locals).
    above, above_rotation = nodes_above(gltf, [node for node, _, _ in animated], rig_joints)
    translation, rotation, scale = node_locals(
        above, above_rotation, translations, xyzw_to_wxyz(np.asarray(rotations)), scales,
        [node_name(gltf, node) for node, _, _ in animated],
    )
    for k, (node, h, _) in enumerate(animated):
        rest = node_rest(gltf, node)
        use_trs(gltf, node, rest.translation, rest.rotation, rest.scale)
        channels.append(Channel(node, "rotation", times, sign_continuous(rotation[:, k]), ANIM_LINEAR, "frame"))
        channels.append(Channel(node, "translation", times, translation[:, k], ANIM_LINEAR, "frame"))
        if _varies(scale[:, k], not_equal_to=rest.scale):
            channels.append(Channel(node, "scale", times, scale[:, k], ANIM_LINEAR, "frame"))
        match.matched.append((node_name(gltf, node), h))
        hit.add(h)
    match.conclude(gltf, column, hit, rig_joints, node_hash, repeated, names, rig, found_any=bool(channels))
    roots = add_scene_if_none(gltf, name="animclip")
    if roots is not None:
        match.lines.append(f"the rig has no scene: added one holding its {len(roots)} root node(s), so viewers show it")
    builder = DocumentBuilder(gltf)
    has_motion = clip.root_motion_translation is not None and len(clip.root_motion_translation)
    if has_motion and root_motion:
        # (set together: a clip with root motion has its times, translations and rotations)
        assert clip.root_motion_translation is not None and clip.root_motion_rotation is not None
        carrier = builder.parent_of_roots(ROOT_MOTION_NODE)
        motion_times = np.asarray(clip.root_motion_times, np.float64)
        channels.append(Channel(carrier, "translation", motion_times, clip.root_motion_translation, ANIM_LINEAR,
                                    MOTION_KEYS))
        channels.append(
            Channel(
                carrier, "rotation", motion_times, _continuous_wxyz(clip.root_motion_rotation), ANIM_LINEAR, MOTION_KEYS
            )
        )
        match.lines.append(
            f"root motion: {len(motion_times)} key(s) on a node {ROOT_MOTION_NODE!r} above the rig's roots"
        )
    elif has_motion:
        match.lines.append("root motion left out, as asked: the character stays in place")
    tracks = dict(_track(t) for t in custom_tracks)
    if tracks:
        match.lines.append(f"{len(tracks)} custom track(s) kept in the animation's extras (glTF has no place for them)")
    extras = {
        "animclip": {
            "source": "every frame: Base State plus the Sample Data deltas (Pcniado/luna_engine_io_tools "
            "anim_import.py describes the coding)",
            "frames": int(times.size),
            "custom_tracks": tracks,
            "unmatched_clip_hashes": [f"{h:08X}" for h in match.clip_only],
            "unposed_rig_joints": match.rig_only,
        }
    }
    builder.animation(name, channels, extras)
    return builder.glb(), match


def camera_animation_to_gltf(camera: CameraAnimation, *, name: str = "animclip_camera") -> tuple[bytes, list[str]]:
    """A GLB holding one perspective camera on a node animated with the clip's camera path.

    The camera looks down its local -Z with +Y up in the clip as in glTF (Luna
    camera_anim.py maps the engine camera onto Blender's camera, which has glTF's convention,
    without a basis change besides the world's Y-up to Z-up), so the transform is written as
    decoded. The field of view: glTF's core has no animated camera property, so the first
    XFOV value sets ``yfov`` (through :data:`CAMERA_ASPECT`) and every value is kept in the
    animation's extras."""
    builder = DocumentBuilder()
    xfov = float(camera.xfov[0]) if camera.xfov is not None and len(camera.xfov) else DEFAULT_XFOV
    if not (0 < xfov < math.pi):
        xfov = DEFAULT_XFOV
    yfov = 2 * math.atan(math.tan(xfov / 2) / CAMERA_ASPECT)
    node = builder.camera_node(CAMERA_NODE, yfov=yfov, aspect_ratio=CAMERA_ASPECT, znear=0.01)
    builder.scene("animclip camera", [node])
    times = np.asarray(camera.times, np.float64)
    channels = [
        Channel(node, "translation", times, camera.translation, ANIM_LINEAR, MOTION_KEYS),
        Channel(node, "rotation", times, _continuous_wxyz(camera.rotation), ANIM_LINEAR, MOTION_KEYS),
    ]
    extras = {
        "animclip": {
            "xfov": [_json_float(float(v)) for v in camera.xfov] if camera.xfov is not None else [],
            "aspect_ratio_assumed": CAMERA_ASPECT,
        }
    }
    builder.animation(name, channels, extras)
    lines = [
        f"camera clip: {len(times)} key(s) on node {CAMERA_NODE!r}, yfov {math.degrees(yfov):.2f} deg "
        f"(XFOV {math.degrees(xfov):.2f} deg at an assumed {CAMERA_ASPECT:.4g} aspect)"
    ]
    return builder.glb(), lines
