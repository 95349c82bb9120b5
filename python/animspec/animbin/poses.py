"""Per-tick poses of an ANIMBIN animation, as ``animspec play`` reports them.

Engine mode gives what the console computes each rendered frame (the frame counter and each
joint's int16 FP12 quaternion); reference mode gives the authored clip at the same instants
(float quaternions). With a skeleton, world positions of every bone are added (forward
kinematics as the engine composes bone matrices).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Sequence

import numpy as np

from ..skeleton import Skeleton, forward_kinematics, world_positions
from .model import FP12_ONE, Animation
from .playback import Refresh, play_engine, refresh_hz, sample_reference, vsync_deltas

Mode = Literal["engine", "reference"]


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
        ticks = []
        for t in range(self.frames.shape[0]):
            joints = []
            for j in range(self.rotations.shape[1]):
                q = self.rotations[t, j]
                joint: dict[str, Any] = {
                    "joint": j,
                    "rotation": [int(v) for v in q] if self.mode == "engine" else [round(float(v), 6) for v in q],
                }
                if self.positions is not None:
                    joint["position"] = [round(float(v), 6) for v in self.positions[t, j]]
                joints.append(joint)
            frame = self.frames[t]
            ticks.append({
                "tick": t,
                "time": round(float(self.times[t]), 6),
                "frame": int(frame) if self.mode == "engine" else round(float(frame), 4),
                "joints": joints,
            })
        return {"animation": self.animation, "mode": self.mode, "region_hz": self.region_hz, "ticks": ticks}

    def summary(self) -> str:
        n = self.frames.shape[0]
        lines = [
            f"{self.animation!r}, {self.mode} mode at {self.region_hz:.2f} Hz: {n} ticks "
            f"({self.times[-1] if n else 0:.3f} s), {self.rotations.shape[1]} joints",
        ]
        if self.mode == "engine":
            distinct = len({tuple(map(int, r.ravel())) for r in self.rotations})
            lines.append(f"  frames shown: {_frame_runs(self.frames)}")
            lines.append(f"  distinct poses: {distinct} of {n} ticks")
        for j in range(self.rotations.shape[1]):
            q = self.rotations[:, j].astype(np.float64)
            if self.mode == "engine":
                q = q / FP12_ONE
            # Swing: the largest rotation away from the joint's pose on the first tick.
            dot = np.abs(np.sum(_unit(q) * _unit(q[0]), axis=-1))
            swing = np.degrees(2 * np.arccos(np.clip(dot, 0, 1))).max() if n else 0.0
            line = f"  joint {j}: swings up to {swing:.1f} deg from its first pose"
            if self.positions is not None and n:
                # With a skeleton: how far the bone's world position travels (--json has them all).
                p = self.positions[:, j]
                line += f", its position moves up to {np.linalg.norm(p - p[0], axis=-1).max():.2f} units"
            lines.append(line)
        return "\n".join(lines)


def _unit(q: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(q, axis=-1, keepdims=True)
    return q / np.where(norm > 0, norm, 1.0)


def _frame_runs(frames: np.ndarray) -> str:
    """[0 1 2 3 0 1] -> "0-3, 0-1": the frame counter's runs between resets."""
    runs, start, prev = [], None, None
    for f in (int(v) for v in frames):
        if start is None:
            start = prev = f
        elif f == prev + 1:
            prev = f
        else:
            runs.append(f"{start}-{prev}" if prev != start else f"{start}")
            start = prev = f
    if start is not None:
        runs.append(f"{start}-{prev}" if prev != start else f"{start}")
    shown = ", ".join(runs[:8])
    return shown + (f", ... ({len(runs)} runs)" if len(runs) > 8 else "")


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
    """Play ``animation`` for ``seconds`` (default: one pass through the clip).

    ``step`` is the game's frame pacing (1: every vsync, 2: half rate); ``deltas`` replaces
    it with an explicit list of deltaTime values (a hitch: ``[1, 1, 7, 1]``).
    """
    hz = refresh_hz(region)
    if deltas is None:
        vsyncs = int(round(seconds * hz)) if seconds is not None else max(animation.length, 1)
        deltas = vsync_deltas(max(1, -(-vsyncs // step)), step)
    deltas = [int(d) for d in deltas]
    # Tick i is rendered after the deltas before it have elapsed.
    elapsed = np.concatenate([[0], np.cumsum(deltas[:-1])]) if deltas else np.zeros(0)
    times = elapsed / hz
    joints = skeleton.bone_count if skeleton is not None else None
    rest = None
    if skeleton is not None:
        rest = np.round(skeleton.rest_rotation * FP12_ONE).astype(np.int64)
    if mode == "engine":
        played = play_engine(animation, deltas, num_joints=joints, rest_rotations=rest)
        frames, rotations = played.frames, played.rotations
        float_rotations = played.rotations_float()
    else:
        sampled = sample_reference(animation, times, refresh=hz, num_joints=joints, rest_rotations=rest)
        frames, rotations = sampled.frames, sampled.rotations
        float_rotations = rotations
    positions = None
    if skeleton is not None:
        positions = world_positions(forward_kinematics(skeleton, float_rotations))
    return PoseSequence(str(animation.name), mode, hz, deltas, times, frames, rotations, positions)
