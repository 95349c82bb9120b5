"""Poses of an .animclip on a skeleton: the base pose, every frame, custom tracks in time.

What is known (Tkachov/ALERT, animclip_to_gltf.py): Base State holds one record per Joint
Hashes entry, which ALERT's animclip_to_gltf.py applies by joint-name hash as the joint's
parent-relative rotation and translation, replacing the rig's rest values (:func:`base_pose`,
kept as ALERT's view). Since Pcniado/luna_engine_io_tools (anim_import.py) made the sample
coding public, Base State is known to be the base the per-sample deltas are added to, so the
clip's first pose is base + sample 0: :func:`clip_frames` decodes every frame
(:mod:`.samples`), :func:`first_frame` gives frame 0 and :func:`frames_report` is what
``animspec play`` prints. Custom tracks hold one float per frame (LABELLED: ALERT's "frames
count" note), sampled here with linear interpolation at the clip's fps (also LABELLED,
Built +0x0C).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..common.errors import AnimspecError
from ..common.hashes import crc32
from ..quaternion import xyzw_to_wxyz
from ..skeleton import Skeleton, forward_kinematics, world_positions
from .content import AnimclipFile
from .samples import ClipFrames, decode_clip
from .views import ClipView


@dataclass
class BasePose:
    skeleton: Skeleton
    """The skeleton posed: the given rig, or one independent root per clip joint."""
    rotations: np.ndarray
    """(bones, 4) local rotations w, x, y, z (base state where matched, rest otherwise)."""
    translations: np.ndarray
    """(bones, 3) local translations."""
    world: np.ndarray
    """(bones, 4, 4) world transforms."""
    matched: list[tuple[int, int]] = field(default_factory=list)
    """(clip joint index, bone index) pairs matched by hash."""
    clip_only: list[int] = field(default_factory=list)
    """Clip joints whose hash names no bone of the skeleton."""
    skeleton_only: list[int] = field(default_factory=list)
    """Bones the clip does not pose (they keep their rest transform)."""

    @property
    def positions(self) -> np.ndarray:
        return world_positions(self.world[None])[0]


def base_pose(clip: ClipView, skeleton: Skeleton | None = None) -> BasePose:
    """Pose ``skeleton`` (matched by CRC32 of its bone names) with the clip's base state;
    without a skeleton, every clip joint becomes its own root at its base-state transform."""
    joints = [j for j in clip.joints if j.hash is not None and j.hash != 0xFFFFFFFF and j.rotation is not None]
    labels = [j.name or f"{j.hash:08X}" for j in joints]
    return _pose_on(skeleton, [(j.index, j.hash, j.rotation, j.translation) for j in joints], labels)


def _pose_on(skeleton: Skeleton | None, joints: list[tuple[int, int, np.ndarray, np.ndarray | None]],
             labels: list[str]) -> BasePose:
    """(clip index, hash, rotation xyzw, translation or None) per clip joint, put on the bones
    of ``skeleton`` whose names hash to theirs (the others keep their rest), or on a flat
    skeleton of one root per joint named ``labels``; with forward kinematics."""
    if skeleton is None:
        skeleton = Skeleton.flat(len(joints))
        skeleton.names = list(labels)
        by_hash = {h: i for i, (_, h, _, _) in enumerate(joints)}
    else:
        by_hash = {crc32(name): i for i, name in enumerate(skeleton.names)}
    rotations = np.array(skeleton.rest_rotation, dtype=np.float64, copy=True)
    translations = np.array(skeleton.rest_translation, dtype=np.float64, copy=True)
    matched, clip_only = [], []
    for index, h, rotation, translation in joints:
        bone = by_hash.get(h)
        if bone is None:
            clip_only.append(index)
            continue
        rotations[bone] = xyzw_to_wxyz(rotation)
        if translation is not None:
            translations[bone] = translation
        matched.append((index, bone))
    posed = {bone for _, bone in matched}
    world = forward_kinematics(skeleton, rotations[None], translations[None])[0]
    return BasePose(
        skeleton, rotations, translations, world, matched, clip_only,
        [b for b in range(skeleton.bone_count) if b not in posed],
    )


def sample_custom_track(values: np.ndarray, fps: float, *, seconds: float | None = None, frame: float | None = None) -> float:
    """A custom track's value at ``seconds`` (converted with ``fps``) or at a fractional
    ``frame``, linearly interpolated and clamped to the track's frames."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        raise ValueError("the track has no values")
    if frame is None:
        if seconds is None:
            raise ValueError("give seconds or frame")
        if not fps or not np.isfinite(fps) or fps <= 0:
            raise ValueError(f"the clip's fps ({fps}) cannot convert seconds to frames")
        frame = seconds * fps
    position = float(np.clip(frame, 0.0, values.size - 1))
    low = int(np.floor(position))
    high = min(low + 1, values.size - 1)
    t = position - low
    return float(values[low] * (1 - t) + values[high] * t)


@dataclass
class BasePoseReport:
    """What ``animspec play`` shows of an .animclip: its base pose (on a rig, or on one root
    per clip joint) and each custom track's value at a time, as JSON or as a summary."""

    clip: str | None
    seconds: float
    fps: float | None
    pose: BasePose
    custom_tracks: dict[str, float]
    """Track name (or its hash, 8 hex digits, when the name is unknown) -> value at ``seconds``."""
    on_rig: bool
    """Posed on a given skeleton (so clip joints and bones may be left unmatched)."""
    named_joints: tuple[int, int] = (0, 0)
    """(joints with a name, joints): what a joint-names file did (--joint-names)."""

    def to_json(self) -> dict[str, Any]:
        pose = self.pose
        return {
            "clip": self.clip,
            "seconds": self.seconds,
            "fps": self.fps,
            "joints": [
                {
                    "bone": b,
                    "name": pose.skeleton.names[b],
                    "rotation": [round(float(v), 6) for v in pose.rotations[b]],
                    "translation": [round(float(v), 6) for v in pose.translations[b]],
                    "position": [round(float(v), 6) for v in pose.positions[b]],
                }
                for b in range(pose.skeleton.bone_count)
            ],
            "custom_tracks": {k: round(v, 6) for k, v in self.custom_tracks.items()},
            "unmatched_clip_joints": pose.clip_only,
            "unposed_bones": pose.skeleton_only,
        }

    def summary(self) -> str:
        pose = self.pose
        lines = [f"{self.clip!r}: base pose on {pose.skeleton.bone_count} bone(s), {len(pose.matched)} posed by joint hash"]
        if self.on_rig:
            lines.append(f"  {len(pose.clip_only)} clip joint(s) not in the skeleton, "
                         f"{len(pose.skeleton_only)} bone(s) not in the clip (rest pose)")
        spread = np.ptp(pose.positions, axis=0) if pose.skeleton.bone_count else np.zeros(3)
        lines.append(f"  posed extent: {spread[0]:.3f} x {spread[1]:.3f} x {spread[2]:.3f}")
        lines += [f"  custom track {name!r} at {self.seconds:g} s: {value:.6g}" for name, value in self.custom_tracks.items()]
        if self.named_joints[0]:
            lines.append(f"  joint names: {self.named_joints[0]} of {self.named_joints[1]} clip joint(s) named")
        return "\n".join(lines)


def base_pose_report(
    clip: ClipView, skeleton: Skeleton | None = None, *, seconds: float | None = None
) -> BasePoseReport:
    """The clip's base pose on ``skeleton`` (see :func:`base_pose`) and its custom tracks
    sampled at ``seconds`` (default 0). A track that cannot be sampled (no values, no usable
    fps) raises AnimspecError naming it."""
    seconds = seconds or 0.0
    tracks = {}
    for track in clip.custom_tracks:
        try:
            tracks[track.name or f"{track.hash:08X}"] = sample_custom_track(track.values, clip.fps or 0.0, seconds=seconds)
        except ValueError as exc:
            raise AnimspecError(f"custom track {track.name!r}: {exc}") from None
    named = (sum(1 for j in clip.joints if j.name), len(clip.joints))
    return BasePoseReport(clip.name, seconds, clip.fps, base_pose(clip, skeleton), tracks, skeleton is not None, named)


# ---------------------------------------------------------------------------- every frame


def clip_frames(model: AnimclipFile, path: str | None = None) -> ClipFrames:
    """Every frame of ``model`` (:func:`animspec.animclip.samples.decode_clip`, which takes its
    inputs from the model); errors name ``path``, the byte and the field."""
    return decode_clip(model, path)


def first_frame(frames: ClipFrames) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Frame 0's local (rotation x, y, z, w, translation, scale) per joint: the base plus
    sample 0, or the base alone for a clip without samples."""
    pose = frames.first_frame
    return pose.rotation[0], pose.translation[0], pose.scale[0]


def first_frame_pose(
    model: AnimclipFile, skeleton: Skeleton | None = None, *, path: str | None = None,
    joint_names: Mapping[int, str] | Iterable[str] | None = None,
) -> BasePose:
    """The clip's first frame (base + sample 0) as a :class:`BasePose` on ``skeleton``
    (matched by CRC32 of its bone names; bones the clip does not pose keep their rest), or on
    one independent root per clip joint. What a "pose of the clip" should show: for an
    animated joint, Base State alone is the minimum of each component, not a pose."""
    from .views import name_table

    frames = clip_frames(model, path)
    rotation, translation, _scale = first_frame(frames)
    hashes = [int(h) for h in frames.joint_hashes]
    columns = [j for j, h in enumerate(hashes) if h != 0xFFFFFFFF]
    table = name_table(joint_names)
    labels = [table.get(hashes[j], f"{hashes[j]:08X}") for j in columns]
    return _pose_on(skeleton, [(j, hashes[j], rotation[j], translation[j]) for j in columns], labels)


@dataclass
class FramesReport:
    """What ``animspec play`` shows of an .animclip whose frames decode: every frame's local
    transforms per joint (and world positions on a rig), root motion, custom tracks."""

    clip: str | None
    frames: ClipFrames
    names: list[str]
    """Per clip joint: its name (from --joint-names or the rig) or its hash in hex."""
    world: np.ndarray | None = None
    """(frames, bones, 4, 4) on a rig, else None."""
    skeleton: Skeleton | None = None
    bone_of_joint: dict[int, int] = field(default_factory=dict)
    custom_tracks: dict[str, list[float]] = field(default_factory=dict)
    clip_hash: int | None = None
    """Built's name hash, shown when the file holds no name (Spider-Man 2 clips, Luna's)."""

    def label(self) -> str:
        if self.clip is not None:
            return repr(self.clip)
        return f"clip {self.clip_hash:08X} (no name in the file)" if self.clip_hash else "unnamed clip"

    def to_json(self) -> dict[str, Any]:
        f = self.frames
        poses = f.frames()
        out: dict[str, Any] = {
            "clip": self.clip,
            "fps": round(f.fps, 6),
            "frame_count": f.frame_count,
            "animated": f.animated,
            "looping": f.coding.looping,
            "camera": f.coding.camera,
            "joints": self.names,
            "frames": [],
            "custom_tracks": {k: [round(float(v), 6) for v in vals] for k, vals in self.custom_tracks.items()},
            "notes": list(f.notes),
        }
        r6 = lambda a: np.round(a, 6).tolist()  # noqa: E731
        rot, tra, sca = r6(poses.rotation), r6(poses.translation), r6(poses.scale)
        positions = None
        if self.world is not None:
            positions = r6(self.world[..., :3, 3])
        for i in range(f.frame_count):
            frame: dict[str, Any] = {
                "frame": i, "seconds": round(i / f.fps, 6), "sample": int(f.frame_sample[i]),
                "rotation_xyzw": rot[i], "translation": tra[i], "scale": sca[i],
            }
            if positions is not None:
                frame["bone_positions"] = positions[i]
            out["frames"].append(frame)
        if f.root_motion is not None:
            out["root_motion"] = {
                "seconds": r6(np.arange(len(f.root_motion.translation)) / f.fps),
                "translation": r6(f.root_motion.translation),
                "rotation_xyzw": r6(f.root_motion.rotation),
            }
        return out

    def summary(self) -> str:
        f = self.frames
        poses = f.frames()
        what = "animated" if f.animated else "no samples: every frame is the base pose"
        lines = [f"{self.label()}: {f.frame_count} frame(s) at {f.fps:g} fps, {len(self.names)} joint(s), {what}"
                 + (", looping" if f.coding.looping else "") + (", camera clip" if f.coding.camera else "")]
        moving = np.flatnonzero(
            (np.ptp(poses.rotation, axis=0).max(axis=1) > 1e-9) | (np.ptp(poses.translation, axis=0).max(axis=1) > 1e-9)
            | (np.ptp(poses.scale, axis=0).max(axis=1) > 1e-9)
        ) if f.frame_count else np.zeros(0, int)
        if f.animated:
            lines.append(f"  {len(moving)} joint(s) move: " + ", ".join(self.names[j] for j in moving[:12])
                         + (" ..." if len(moving) > 12 else ""))
        if f.root_motion is not None:
            travel = f.root_motion.translation[-1] - f.root_motion.translation[0]
            lines.append(f"  root motion: {len(f.root_motion.translation)} sample(s), travel "
                         f"{travel[0]:.3f} {travel[1]:.3f} {travel[2]:.3f}")
        if self.world is not None and self.skeleton is not None:
            spread = np.ptp(self.world[:, :, :3, 3].reshape(-1, 3), axis=0) if self.skeleton.bone_count else np.zeros(3)
            lines.append(f"  on the rig: {len(self.bone_of_joint)} of {len(self.names)} joint(s) matched a bone; "
                         f"extent over the clip {spread[0]:.3f} x {spread[1]:.3f} x {spread[2]:.3f}")
        lines += [f"  note: {n}" for n in f.notes]
        # Frame by frame, one joint: the first that moves (the first joint when none does).
        j = int(moving[0]) if moving.size else 0
        step = max(1, f.frame_count // 8)
        shown = range(0, f.frame_count, step) if moving.size else range(min(1, f.frame_count))
        if self.names and len(shown):
            every = f"every {step} frames" if step > 1 else "every frame"
            lines.append(f"  {self.names[j]}, the first joint that moves, {every} (--json: every joint and frame):"
                         if moving.size else f"  {self.names[j]} (no joint moves) (--json: every joint and frame):")
        for i in shown:
            q, t = poses.rotation[i, j], poses.translation[i, j]
            if self.names:
                lines.append(f"  frame {i:4d} ({i / f.fps:7.3f} s) {self.names[j]}: rotation xyzw "
                             f"{q[0]:+.4f} {q[1]:+.4f} {q[2]:+.4f} {q[3]:+.4f}, translation {t[0]:+.4f} {t[1]:+.4f} {t[2]:+.4f}")
        return "\n".join(lines)


def frames_report(
    model: AnimclipFile, frames: ClipFrames, skeleton: Skeleton | None = None,
    joint_names: Mapping[int, str] | Iterable[str] | None = None,
) -> FramesReport:
    """``frames`` for ``animspec play``: names from ``joint_names`` (or the rig's bones), world
    transforms on ``skeleton`` (matched by CRC32 of its bone names; bones the clip does not
    pose keep their rest transform)."""
    from .views import name_table

    table = name_table(joint_names)
    bone_by_hash = {crc32(n): i for i, n in enumerate(skeleton.names)} if skeleton is not None else {}
    if skeleton is not None:
        table.update({crc32(n): n for n in skeleton.names})
    hashes = [int(h) for h in frames.joint_hashes]
    names = [table.get(h, f"{h:08X}") for h in hashes]
    tracks = {}
    for track in model.clip().custom_tracks:
        tracks[track.name or f"{track.hash:08X}"] = [float(v) for v in track.values]
    built = model.built
    report = FramesReport(model.clip_name, frames, names, custom_tracks=tracks,
                          clip_hash=None if built is None else int(built.name_hash))
    if skeleton is not None:
        poses = frames.frames()
        n = frames.frame_count
        rotations = np.repeat(np.asarray(skeleton.rest_rotation, np.float64)[None], n, axis=0)
        translations = np.repeat(np.asarray(skeleton.rest_translation, np.float64)[None], n, axis=0)
        for j, h in enumerate(hashes):
            bone = bone_by_hash.get(h)
            if bone is None:
                continue
            report.bone_of_joint[j] = bone
            rotations[:, bone] = xyzw_to_wxyz(poses.rotation[:, j])
            translations[:, bone] = poses.translation[:, j]
        report.world = forward_kinematics(skeleton, rotations, translations)
        report.skeleton = skeleton
    return report
