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

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

import numpy as np

from ...common import jsonfmt
from ...common.errors import AnimspecError
from ...common.hashes import crc32
from ...quaternion import xyzw_to_wxyz
from ...skeleton import Skeleton, forward_kinematics, world_positions
from ..model import AnimclipFile
from ..view import ClipView, name_table
from .decode import ClipFrames, decode_clip
from .inputs import BUILT_WORLD_POSITION_BYTES, check_built, file_size_on_disk


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
    joints: list[tuple[int, int, np.ndarray, np.ndarray | None]] = []
    labels: list[str] = []
    for j in clip.joints:
        if j.hash is not None and j.hash != 0xFFFFFFFF and j.rotation is not None:
            joints.append((j.index, j.hash, j.rotation, j.translation))
            labels.append(j.name or f"{j.hash:08X}")
    return _pose_on(skeleton, joints, labels)


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


def sample_custom_track(
    values: np.ndarray, fps: float, *, seconds: float | None = None, frame: float | None = None
) -> float:
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
        lines = [
            f"{self.clip!r}: base pose on {pose.skeleton.bone_count} bone(s), {len(pose.matched)} posed by joint hash"
        ]
        if self.on_rig:
            lines.append(
                f"  {len(pose.clip_only)} clip joint(s) not in the skeleton, "
                f"{len(pose.skeleton_only)} bone(s) not in the clip (rest pose)"
            )
        spread = np.ptp(pose.positions, axis=0) if pose.skeleton.bone_count else np.zeros(3)
        lines.append(f"  posed extent: {spread[0]:.3f} x {spread[1]:.3f} x {spread[2]:.3f}")
        lines += [
            f"  custom track {name!r} at {self.seconds:g} s: {value:.6g}" for name, value in self.custom_tracks.items()
        ]
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
            tracks[track.name or f"{track.hash:08X}"] = sample_custom_track(
                track.values, clip.fps or 0.0, seconds=seconds
            )
        except ValueError as exc:
            raise AnimspecError(f"custom track {track.name!r}: {exc}") from None
    named = (sum(1 for j in clip.joints if j.name), len(clip.joints))
    return BasePoseReport(clip.name, seconds, clip.fps, base_pose(clip, skeleton), tracks, skeleton is not None, named)


# ---------------------------------------------------------------------------- every frame


def clip_frames(model: AnimclipFile, path: str | None = None) -> ClipFrames:
    """Every frame of ``model`` (:func:`animspec.animclip.frames.decode.decode_clip`, which takes its
    inputs from the model); errors name ``path``, the byte and the field."""
    return decode_clip(model, path)


def first_frame(frames: ClipFrames) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Frame 0's local (rotation x, y, z, w, translation, scale) per joint: the base plus
    sample 0, or the base alone for a clip without samples."""
    pose = frames.first_frame
    return pose.rotation[0], pose.translation[0], pose.scale[0]


def first_frame_pose(
    model: AnimclipFile,
    skeleton: Skeleton | None = None,
    *,
    path: str | None = None,
    joint_names: Mapping[int, str] | Iterable[str] | None = None,
) -> BasePose:
    """The clip's first frame (base + sample 0) as a :class:`BasePose` on ``skeleton``
    (matched by CRC32 of its bone names; bones the clip does not pose keep their rest), or on
    one independent root per clip joint. What a "pose of the clip" should show: for an
    animated joint, Base State alone is the minimum of each component, not a pose."""
    frames = clip_frames(model, path)
    rotation, translation, _scale = first_frame(frames)
    hashes = [int(h) for h in frames.joint_hashes]
    columns = [j for j, h in enumerate(hashes) if h != 0xFFFFFFFF]
    table = name_table(joint_names)
    labels = [table.get(hashes[j], f"{hashes[j]:08X}") for j in columns]
    return _pose_on(skeleton, [(j, hashes[j], rotation[j], translation[j]) for j in columns], labels)


FRAME_CHUNK_VALUES = 1 << 18
"""``play`` computes and prints an .animclip's frames in chunks of about this many values
(each frame's poses, and on a rig its local and world 4x4 transforms): what it holds beyond
the decode stays a few megabytes however many frames and bones there are."""

BONE_FRAME_VALUES = 2 * 16 + 7
"""Float64 values per rig bone and frame while world transforms are computed: local and
world 4x4, local rotation and translation."""


@dataclass
class FramesChunk:
    """Frames ``first`` to ``first + n`` of a :class:`FramesReport`."""

    first: int
    poses: Any
    """:class:`.decode.Transforms` of the chunk's frames (frames x clip joints x ...)."""
    positions: np.ndarray | None
    """(frames, bones, 3) world positions on the rig, else None."""


@dataclass
class FramesReport:
    """What ``animspec play`` shows of an .animclip whose frames decode: every frame's local
    transforms per joint (and world positions on a rig), root motion, custom tracks. It is
    computed a chunk of frames at a time (:meth:`chunks`): :meth:`write_json` and
    :meth:`summary` hold one chunk beyond the decode."""

    clip: str | None
    frames: ClipFrames
    names: list[str]
    """Per clip joint: its name (from --joint-names or the rig) or its hash in hex."""
    skeleton: Skeleton | None = None
    bone_of_joint: dict[int, int] = field(default_factory=dict)
    custom_tracks: dict[str, list[float]] = field(default_factory=dict)
    clip_hash: int | None = None
    """Built's name hash, shown when the file holds no name (Spider-Man 2 clips, Luna's)."""

    def label(self) -> str:
        if self.clip is not None:
            return repr(self.clip)
        return f"clip {self.clip_hash:08X} (no name in the file)" if self.clip_hash else "unnamed clip"

    def chunks(self) -> Iterator[FramesChunk]:
        """The frames in order, a chunk of about :data:`FRAME_CHUNK_VALUES` values at a time."""
        f = self.frames
        bones = self.skeleton.bone_count if self.skeleton is not None else 0
        per_frame = 10 * len(self.names) + BONE_FRAME_VALUES * bones
        step = max(1, FRAME_CHUNK_VALUES // max(1, per_frame))
        for first in range(0, f.frame_count, step):
            poses = f.frames(first, first + step)
            yield FramesChunk(first, poses, None if self.skeleton is None else self._positions(poses))

    def _positions(self, poses: Any) -> np.ndarray:
        """World positions (frames, bones, 3) of ``poses`` on the rig: the rest transform for
        bones the clip does not pose."""
        skeleton = self.skeleton
        assert skeleton is not None
        n = poses.rotation.shape[0]
        rotations = np.repeat(np.asarray(skeleton.rest_rotation, np.float64)[None], n, axis=0)
        translations = np.repeat(np.asarray(skeleton.rest_translation, np.float64)[None], n, axis=0)
        for j, bone in self.bone_of_joint.items():
            rotations[:, bone] = xyzw_to_wxyz(poses.rotation[:, j])
            translations[:, bone] = poses.translation[:, j]
        return world_positions(forward_kinematics(skeleton, rotations, translations))

    @property
    def world_positions(self) -> np.ndarray | None:
        """(frames, bones, 3) world positions of every frame on the rig, else None: all at once
        (for a library caller; ``play`` goes through :meth:`chunks`)."""
        if self.skeleton is None:
            return None
        # (on a rig, every chunk has its positions)
        parts = [cast(np.ndarray, c.positions) for c in self.chunks()]
        return np.concatenate(parts) if parts else np.zeros((0, self.skeleton.bone_count, 3))

    def _head(self) -> list[tuple[str, Any]]:
        """The JSON's members in order, ``frames`` as :data:`_FRAMES` (written a chunk at a time)."""
        f = self.frames
        r6 = _r6
        out: list[tuple[str, Any]] = [
            ("clip", self.clip),
            ("fps", round(f.fps, 6)),
            ("frame_count", f.frame_count),
            ("animated", f.animated),
            ("looping", f.coding.looping),
            ("camera", f.coding.camera),
            ("joints", self.names),
            ("frames", _FRAMES),
            ("custom_tracks", {k: [round(float(v), 6) for v in vals] for k, vals in self.custom_tracks.items()}),
            ("notes", list(f.notes)),
        ]
        if f.root_motion is not None:
            out.append(
                (
                    "root_motion",
                    {
                        "seconds": r6(np.arange(len(f.root_motion.translation)) / f.fps),
                        "translation": r6(f.root_motion.translation),
                        "rotation_xyzw": r6(f.root_motion.rotation),
                    },
                )
            )
        return out

    def _frames_json(self) -> Iterator[dict[str, Any]]:
        f = self.frames
        for chunk in self.chunks():
            rot, tra, sca = _r6(chunk.poses.rotation), _r6(chunk.poses.translation), _r6(chunk.poses.scale)
            positions = None if chunk.positions is None else _r6(chunk.positions)
            for k in range(len(rot)):
                i = chunk.first + k
                frame: dict[str, Any] = {
                    "frame": i,
                    "seconds": round(i / f.fps, 6),
                    "sample": int(f.frame_sample[i]),
                    "rotation_xyzw": rot[k],
                    "translation": tra[k],
                    "scale": sca[k],
                }
                if positions is not None:
                    frame["bone_positions"] = positions[k]
                yield frame

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON value (every frame in memory: :meth:`write_json` streams it)."""
        return {key: list(self._frames_json()) if value is _FRAMES else value for key, value in self._head()}

    def write_json(self, out: TextIO) -> None:
        """Write what ``jsonfmt.dumps(self.to_json())`` gives, a chunk of frames at a time."""
        separator = "{\n"
        for key, value in self._head():
            out.write(f"{separator}  {json.dumps(key)}: ")
            separator = ",\n"
            if value is not _FRAMES:
                out.write(jsonfmt.dumps(value).replace("\n", "\n  "))
                continue
            before = "[\n"
            for frame in self._frames_text():
                out.write(before + "    " + frame)
                before = ",\n"
            out.write("[]" if before == "[\n" else "\n  ]")
        out.write("\n}")

    def _frames_text(self) -> Iterator[str]:
        """Each frame's text as ``jsonfmt.dumps`` lays it out in the frames list (one line per
        joint's values), a chunk's numbers encoded by one ``json.dumps`` call: the per-value
        calls cost 40x more than the numbers (play --json of 65,535 frames x 102 joints)."""
        if not self.names or (self.skeleton is not None and not self.skeleton.bone_count):
            # (empty lists: jsonfmt may put a frame on one line)
            for frame in self._frames_json():
                yield jsonfmt.dumps(frame).replace("\n", "\n    ")
            return
        f = self.frames
        for chunk in self.chunks():
            p = chunk.poses
            kinds = [("rotation_xyzw", p.rotation), ("translation", p.translation), ("scale", p.scale)]
            if chunk.positions is not None:
                kinds.append(("bone_positions", chunk.positions))
            rows = [(key, _rows_text(values)) for key, values in kinds]
            for k in range(p.rotation.shape[0]):
                i = chunk.first + k
                parts = [
                    f'{{\n      "frame": {i},\n      "seconds": {json.dumps(round(i / f.fps, 6))},'
                    f'\n      "sample": {int(f.frame_sample[i])}'
                ]
                parts += [
                    f',\n      "{key}": [\n        ' + ",\n        ".join(text[k]) + "\n      ]" for key, text in rows
                ]
                yield "".join(parts) + "\n    }"

    def summary(self) -> str:
        f = self.frames
        joints = len(self.names)
        what = "animated" if f.animated else "no samples: every frame is the base pose"
        lines = [
            f"{self.label()}: {f.frame_count} frame(s) at {f.fps:g} fps, {joints} joint(s), {what}"
            + (", looping" if f.coding.looping else "")
            + (", camera clip" if f.coding.camera else "")
        ]
        # Over the chunks: each joint's range of every component, and the rig's extent.
        low = high = None
        spread_low = spread_high = None
        for chunk in self.chunks():
            p = chunk.poses
            values = np.concatenate([p.rotation, p.translation, p.scale], axis=2)
            low = values.min(axis=0) if low is None else np.minimum(low, values.min(axis=0))
            high = values.max(axis=0) if high is None else np.maximum(high, values.max(axis=0))
            if chunk.positions is not None and chunk.positions.size:
                flat = chunk.positions.reshape(-1, 3)
                spread_low = flat.min(axis=0) if spread_low is None else np.minimum(spread_low, flat.min(axis=0))
                spread_high = flat.max(axis=0) if spread_high is None else np.maximum(spread_high, flat.max(axis=0))
        moving = np.zeros(0, int)
        if low is not None and high is not None:
            ptp = high - low  # (joints, 4 + 3 + 3): rotation, translation, scale
            moving = np.flatnonzero(
                (ptp[:, :4].max(axis=1, initial=0) > 1e-9)
                | (ptp[:, 4:7].max(axis=1, initial=0) > 1e-9)
                | (ptp[:, 7:].max(axis=1, initial=0) > 1e-9)
            )
        if f.animated:
            lines.append(
                f"  {len(moving)} joint(s) move: "
                + ", ".join(self.names[j] for j in moving[:12])
                + (" ..." if len(moving) > 12 else "")
            )
        if f.root_motion is not None:
            travel = f.root_motion.translation[-1] - f.root_motion.translation[0]
            lines.append(
                f"  root motion: {len(f.root_motion.translation)} sample(s), travel "
                f"{travel[0]:.3f} {travel[1]:.3f} {travel[2]:.3f}"
            )
        if self.skeleton is not None:
            spread = spread_high - spread_low if spread_low is not None and spread_high is not None else np.zeros(3)
            lines.append(
                f"  on the rig: {len(self.bone_of_joint)} of {joints} joint(s) matched a bone; "
                f"extent over the clip {spread[0]:.3f} x {spread[1]:.3f} x {spread[2]:.3f}"
            )
        lines += [f"  note: {n}" for n in f.notes]
        if not joints:
            lines.append(
                "  no joints: the clip poses nothing (its frames carry only their timing"
                + (", root motion" if f.root_motion is not None else "")
                + (" and custom tracks)" if self.custom_tracks else ")")
            )
            return "\n".join(lines)
        # Frame by frame, one joint: the first that moves (the first joint when none does).
        j = int(moving[0]) if moving.size else 0
        step = max(1, f.frame_count // 8)
        shown = range(0, f.frame_count, step) if moving.size else range(min(1, f.frame_count))
        if len(shown):
            every = f"every {step} frames" if step > 1 else "every frame"
            lines.append(
                f"  {self.names[j]}, the first joint that moves, {every} (--json: every joint and frame):"
                if moving.size
                else f"  {self.names[j]} (no joint moves) (--json: every joint and frame):"
            )
        for i in shown:
            pose = f.frames(i, i + 1)
            q, t = pose.rotation[0, j], pose.translation[0, j]
            lines.append(
                f"  frame {i:4d} ({i / f.fps:7.3f} s) {self.names[j]}: rotation xyzw "
                f"{q[0]:+.4f} {q[1]:+.4f} {q[2]:+.4f} {q[3]:+.4f}, translation {t[0]:+.4f} {t[1]:+.4f} {t[2]:+.4f}"
            )
        return "\n".join(lines)


def _rows_text(values: np.ndarray) -> list[list[str]]:
    """(frames, rows, width) numbers rounded to 6 places -> per frame, each row's JSON text
    ("[a, b, c]", as ``json.dumps`` writes the row)."""
    text = json.dumps(_r6(values))  # "[[[a, b], [c, d]], [[e, f], [g, h]]]"; numbers only
    return [["[" + row + "]" for row in frame.split("], [")] for frame in text[3:-3].split("]], [[")]


_FRAMES = object()
"""Where the frames go among a :class:`FramesReport`'s JSON members."""


def _r6(a: np.ndarray) -> Any:
    return np.round(a, 6).tolist()


def frames_report(
    model: AnimclipFile,
    frames: ClipFrames,
    skeleton: Skeleton | None = None,
    joint_names: Mapping[int, str] | Iterable[str] | None = None,
) -> FramesReport:
    """``frames`` for ``animspec play``: names from ``joint_names`` (or the rig's bones), world
    positions on ``skeleton`` (matched by CRC32 of its bone names; bones the clip does not
    pose keep their rest transform). On a rig, frames x bones is held to the bound of what is
    built from a decode (:func:`.inputs.check_built`: :class:`.inputs.BuildTooLarge`) before
    anything is computed."""
    table = name_table(joint_names)
    bone_by_hash = {crc32(n): i for i, n in enumerate(skeleton.names)} if skeleton is not None else {}
    if skeleton is not None:
        check_built(
            "world positions on the rig",
            frames.frame_count,
            skeleton.bone_count,
            BUILT_WORLD_POSITION_BYTES,
            file_size_on_disk(model),
        )
        table.update({crc32(n): n for n in skeleton.names})
    hashes = [int(h) for h in frames.joint_hashes]
    names = [table.get(h, f"{h:08X}") for h in hashes]
    tracks = {}
    for track in model.clip().custom_tracks:
        tracks[track.name or f"{track.hash:08X}"] = [float(v) for v in track.values]
    built = model.built
    report = FramesReport(
        model.clip_name, frames, names, custom_tracks=tracks, clip_hash=None if built is None else int(built.name_hash)
    )
    if skeleton is not None:
        report.skeleton = skeleton
        report.bone_of_joint = {j: bone_by_hash[h] for j, h in enumerate(hashes) if h in bone_by_hash}
    return report
