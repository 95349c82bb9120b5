"""Per-tick poses of an ANIMBIN animation, as ``animspec play`` reports them.

Engine mode gives what the console computes each rendered frame (the frame counter and each
joint's int16 FP12 quaternion); reference mode gives the authored clip at the same instants
(float quaternions). With a skeleton, world positions of every bone are added (forward
kinematics as the engine composes bone matrices).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TextIO

import numpy as np

from ..common import jsonfmt
from ..skeleton import Skeleton, forward_kinematics, world_positions
from .model import FP12_ONE, Animation
from .playback import (
    ReferenceSampler,
    Refresh,
    check_vsyncs,
    play_engine_chunks,
    refresh_hz,
    ticks_per_chunk,
    vsync_deltas,
)

Mode = Literal["engine", "reference"]

MAX_JSON_POSES = 1 << 21
"""Ticks x joints ``animspec play --json`` prints at most (about 120 MB of JSON; the same
bound as the glTF bake's): a longer run is refused, naming the ``--seconds`` that fits."""


@dataclass
class PoseChunk:
    """Consecutive ticks of a :class:`PoseStream`, from ``first_tick`` on."""

    first_tick: int
    times: np.ndarray
    frames: np.ndarray
    rotations: np.ndarray
    positions: np.ndarray | None = None


def _tick_json(mode: Mode, tick: int, time: float, frame: Any, rotations: np.ndarray,
               positions: np.ndarray | None) -> dict[str, Any]:
    joints = []
    for j in range(rotations.shape[0]):
        q = rotations[j]
        joint: dict[str, Any] = {
            "joint": j,
            "rotation": [int(v) for v in q] if mode == "engine" else [round(float(v), 6) for v in q],
        }
        if positions is not None:
            joint["position"] = [round(float(v), 6) for v in positions[j]]
        joints.append(joint)
    return {
        "tick": tick,
        "time": round(float(time), 6),
        "frame": int(frame) if mode == "engine" else round(float(frame), 4),
        "joints": joints,
    }


@dataclass
class PoseSequence:
    animation: str
    mode: Mode
    region_hz: float
    deltas: list[int]
    """deltaTime of each tick (vsyncs since the previous rendered frame)."""
    times: np.ndarray
    """[ticks] seconds since the clip started."""
    frames: np.ndarray
    """[ticks] the clip frame each tick shows (engine: the uint16 counter; reference: fractional)."""
    rotations: np.ndarray
    """[ticks, joints, 4] w, x, y, z: int16 FP12 (engine) or unit floats (reference)."""
    positions: np.ndarray | None = None
    """[ticks, joints, 3] world positions of the bones when a skeleton was given."""

    def to_json(self) -> dict[str, Any]:
        ticks = [
            _tick_json(self.mode, t, self.times[t], self.frames[t], self.rotations[t],
                       None if self.positions is None else self.positions[t])
            for t in range(self.frames.shape[0])
        ]
        return {"animation": self.animation, "mode": self.mode, "region_hz": self.region_hz, "ticks": ticks}

    def summary(self) -> str:
        summary = _Summary(self.animation, self.mode, self.region_hz, self.rotations.shape[1])
        summary.add(PoseChunk(0, self.times, self.frames, self.rotations, self.positions))
        return summary.text()


class _Summary:
    """What :meth:`PoseSequence.summary` says, gathered tick chunk by tick chunk in memory that
    does not grow with the ticks' joints (one digest per distinct pose, a few runs)."""

    MAX_RUNS_SHOWN = 8

    def __init__(self, animation: str, mode: Mode, region_hz: float, joints: int) -> None:
        self.animation, self.mode, self.region_hz, self.joints = animation, mode, region_hz, joints
        self.ticks = 0
        self.last_time = 0.0
        self.digests: set[bytes] = set()
        self.runs: list[list[int]] = []  # [start, end] of the first MAX_RUNS_SHOWN runs
        self.run_count = 0
        self.previous_frame = -2
        self.first_pose: np.ndarray | None = None
        self.swing = np.zeros(joints)
        self.first_positions: np.ndarray | None = None
        self.travel: np.ndarray | None = None
        """Per joint, the farthest its world position gets from the first tick's (a skeleton given)."""

    def add(self, chunk: PoseChunk) -> None:
        n = chunk.frames.shape[0]
        if n == 0:
            return
        self.ticks += n
        self.last_time = float(chunk.times[-1])
        if self.mode == "engine":
            for row in chunk.rotations:
                row_bytes = np.ascontiguousarray(row, dtype=np.int16).tobytes()
                self.digests.add(hashlib.blake2b(row_bytes, digest_size=16).digest())
            for f in (int(v) for v in chunk.frames):
                if self.run_count and f == self.previous_frame + 1:
                    if self.run_count <= self.MAX_RUNS_SHOWN:
                        self.runs[-1][1] = f
                else:
                    self.run_count += 1
                    if self.run_count <= self.MAX_RUNS_SHOWN:
                        self.runs.append([f, f])
                self.previous_frame = f
        q = chunk.rotations.astype(np.float64)
        if self.mode == "engine":
            q = q / FP12_ONE
        if self.first_pose is None:
            self.first_pose = _unit(q[0])
        # Swing: the largest rotation away from the joint's pose on the first tick.
        dot = np.abs(np.sum(_unit(q) * self.first_pose, axis=-1))
        self.swing = np.maximum(self.swing, np.degrees(2 * np.arccos(np.clip(dot, 0, 1))).max(axis=0))
        if chunk.positions is not None:
            if self.first_positions is None or self.travel is None:  # (both set on the first chunk)
                self.first_positions = np.array(chunk.positions[0], dtype=np.float64)
                self.travel = np.zeros(chunk.positions.shape[1])
            moved = np.linalg.norm(chunk.positions - self.first_positions, axis=-1).max(axis=0)
            self.travel = np.maximum(self.travel, moved)

    def text(self) -> str:
        n = self.ticks
        lines = [
            f"{self.animation!r}, {self.mode} mode at {self.region_hz:.2f} Hz: {n} ticks "
            f"({self.last_time if n else 0:.3f} s), {self.joints} joints",
        ]
        if self.mode == "engine":
            lines.append(f"  frames shown: {self._frame_runs()}")
            lines.append(f"  distinct poses: {len(self.digests)} of {n} ticks")
        for j in range(self.joints):
            line = f"  joint {j}: swings up to {self.swing[j]:.1f} deg from its first pose"
            if self.travel is not None:
                # With a skeleton: how far the bone's world position travels (--json has them all).
                line += f", its position moves up to {self.travel[j]:.2f} units"
            lines.append(line)
        return "\n".join(lines)

    def _frame_runs(self) -> str:
        """[0 1 2 3 0 1] -> "0-3, 0-1": the frame counter's runs between resets."""
        shown = ", ".join(f"{a}-{b}" if b != a else f"{a}" for a, b in self.runs)
        return shown + (f", ... ({self.run_count} runs)" if self.run_count > self.MAX_RUNS_SHOWN else "")


def _unit(q: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(q, axis=-1, keepdims=True)
    return q / np.where(norm > 0, norm, 1.0)


@dataclass
class PoseStream:
    """A run of :func:`pose_stream`: the ticks' times are known, the poses are computed
    chunk by chunk when :meth:`chunks` (or :meth:`write_json`, :meth:`summary`) asks."""

    animation: Animation
    mode: Mode
    region_hz: float
    deltas: list[int]
    times: np.ndarray
    skeleton: Skeleton | None = None

    @property
    def name(self) -> str:
        return str(self.animation.name)

    @property
    def num_joints(self) -> int:
        if self.skeleton is not None:
            return int(self.skeleton.bone_count)
        return max((t.joint_id + 1 for t in self.animation.tracks), default=0)

    @property
    def num_ticks(self) -> int:
        return len(self.deltas)

    def chunks(self) -> Iterator[PoseChunk]:
        skeleton = self.skeleton
        joints = skeleton.bone_count if skeleton is not None else None
        rest = None
        if skeleton is not None:
            rest = np.round(skeleton.rest_rotation * FP12_ONE).astype(np.int64)
        if self.mode == "engine":
            engine_chunks = play_engine_chunks(self.animation, self.deltas, num_joints=joints, rest_rotations=rest)
            for first, played in engine_chunks:
                yield self._chunk(first, played.frames, played.rotations, played.rotations_float())
        else:
            sampler = ReferenceSampler(self.animation, num_joints=joints, rest_rotations=rest)
            size = ticks_per_chunk(self.animation, sampler.num_joints)
            for first in range(0, len(self.times), size):
                sampled = sampler.at_times(self.times[first:first + size], self.region_hz)
                yield self._chunk(first, sampled.frames, sampled.rotations, sampled.rotations)

    def _chunk(self, first: int, frames: np.ndarray, rotations: np.ndarray, float_rotations: np.ndarray) -> PoseChunk:
        positions = None
        if self.skeleton is not None:
            positions = world_positions(forward_kinematics(self.skeleton, float_rotations))
        times = self.times[first:first + frames.shape[0]]
        return PoseChunk(first, times, frames, rotations, positions)

    def write_json(self, out: TextIO) -> None:
        """Write what ``jsonfmt.dumps(poses(...).to_json())`` gives, one tick at a time."""
        head = {"animation": self.name, "mode": self.mode, "region_hz": self.region_hz}
        out.write("{\n")
        for key, value in head.items():
            out.write(f"  {json.dumps(key)}: {jsonfmt.dumps(value)},\n")
        if not len(self.times):
            out.write('  "ticks": []\n}')
            return
        out.write('  "ticks": [\n')
        separator = ""
        for chunk in self.chunks():
            for i in range(chunk.frames.shape[0]):
                tick = _tick_json(self.mode, chunk.first_tick + i, chunk.times[i], chunk.frames[i], chunk.rotations[i],
                                  None if chunk.positions is None else chunk.positions[i])
                text = jsonfmt.dumps(tick).replace("\n", "\n    ")
                out.write(f"{separator}    {text}")
                separator = ",\n"
        out.write("\n  ]\n}")

    def summary(self) -> str:
        summary: _Summary | None = None
        for chunk in self.chunks():
            if summary is None:
                summary = _Summary(self.name, self.mode, self.region_hz, chunk.rotations.shape[1])
            summary.add(chunk)
        if summary is None:
            return _Summary(self.name, self.mode, self.region_hz, 0).text()
        return summary.text()


def pose_stream(
    animation: Animation,
    *,
    mode: Mode = "engine",
    region: Refresh = "ntsc",
    seconds: float | None = None,
    step: int = 1,
    deltas: Sequence[int] | None = None,
    skeleton: Skeleton | None = None,
) -> PoseStream:
    """:func:`poses` without holding the poses: memory stays that of one chunk of ticks
    (:data:`.playback.CHUNK_ELEMENTS`) however long the run. ``seconds`` may be at most
    :func:`.playback.max_seconds` (ValueError otherwise)."""
    hz = refresh_hz(region)
    if deltas is None:
        vsyncs = int(round(seconds * hz)) if seconds is not None else max(animation.length, 1)
        check_vsyncs(vsyncs, hz)
        deltas = vsync_deltas(max(1, -(-vsyncs // step)), step)
    deltas = [int(d) for d in deltas]
    # Tick i is rendered after the deltas before it have elapsed.
    elapsed = np.concatenate([[0], np.cumsum(deltas[:-1])]) if deltas else np.zeros(0)
    return PoseStream(animation, mode, hz, deltas, elapsed / hz, skeleton)


def poses(
    animation: Animation,
    *,
    mode: Mode = "engine",
    region: Refresh = "ntsc",
    seconds: float | None = None,
    step: int = 1,
    deltas: Sequence[int] | None = None,
    skeleton: Skeleton | None = None,
) -> PoseSequence:
    """Play ``animation`` for ``seconds`` (default: one pass through the clip), every tick
    held in memory (:func:`pose_stream` for long runs).

    ``step`` is the game's frame pacing (1: every vsync, 2: half rate); ``deltas`` replaces
    it with an explicit list of deltaTime values (a hitch: ``[1, 1, 7, 1]``).
    """
    stream = pose_stream(animation, mode=mode, region=region, seconds=seconds, step=step, deltas=deltas,
                         skeleton=skeleton)
    chunks = list(stream.chunks())
    joints = skeleton.bone_count if skeleton is not None else None
    if chunks:
        frames = np.concatenate([c.frames for c in chunks])
        rotations = np.concatenate([c.rotations for c in chunks])
        positions = None if chunks[0].positions is None else np.concatenate([c.positions for c in chunks])
    else:
        n = joints if joints is not None else max((t.joint_id + 1 for t in animation.tracks), default=0)
        frames = np.zeros(0, dtype=np.uint16 if mode == "engine" else np.float64)
        rotations = np.zeros((0, n, 4), dtype=np.int16 if mode == "engine" else np.float64)
        positions = None if skeleton is None else np.zeros((0, n, 3))
    return PoseSequence(stream.name, mode, stream.region_hz, stream.deltas, stream.times, frames, rotations, positions)
