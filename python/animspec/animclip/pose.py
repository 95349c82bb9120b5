"""The base pose of an .animclip on a skeleton, and custom tracks sampled in time.

What is known (Tkachov/ALERT, animclip_to_gltf.py): Base State holds one local transform
per Joint Hashes entry, which ALERT's animclip_to_gltf.py applies by joint-name hash as the
joint's parent-relative rotation and translation, replacing the rig's rest values. No
per-frame data can be decoded (Sample Data's encoding is unknown), so the base pose is the
only pose there is. Custom tracks hold one float per frame (LABELLED: ALERT's
"frames count" note), sampled here with linear interpolation at the clip's fps (also
LABELLED, Built +0x0C).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..common.errors import AnimspecError
from ..common.hashes import crc32
from ..quaternion import xyzw_to_wxyz
from ..skeleton import Skeleton, forward_kinematics, world_positions
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
    if skeleton is None:
        skeleton = Skeleton.flat(len(joints))
        skeleton.names = [j.name or f"{j.hash:08X}" for j in joints]
        by_hash = {j.hash: i for i, j in enumerate(joints)}
    else:
        by_hash = {crc32(name): i for i, name in enumerate(skeleton.names)}
    rotations = np.array(skeleton.rest_rotation, dtype=np.float64, copy=True)
    translations = np.array(skeleton.rest_translation, dtype=np.float64, copy=True)
    matched, clip_only = [], []
    for joint in joints:
        bone = by_hash.get(joint.hash)
        if bone is None:
            clip_only.append(joint.index)
            continue
        rotations[bone] = xyzw_to_wxyz(joint.rotation)
        if joint.translation is not None:
            translations[bone] = joint.translation
        matched.append((joint.index, bone))
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
