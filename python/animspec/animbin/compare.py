"""How far the console's playback is from what the artist authored, joint by joint.

The engine-faithful playback (:func:`.playback.play_engine`) is compared with the reference
(:func:`.playback.sample_reference`) at every vsync of one pass through the clip (or a given
number of seconds), and each joint's largest and mean angle between the two is explained:

- **held keys**: the engine never interpolates (its integer blend factor is 0 between keys),
  so wherever a track has no key on a frame the console shows the previous key;
- **FP12 quantisation**: on frames that do have a key, what is left is the int16 encoding
  and the engine's fixed-point Normalize;
- **region timing**: frames are vsyncs, so a clip authored for one refresh rate plays
  faster or slower on the other (NTSC 59.94 Hz is about 20% faster than PAL 50 Hz);
- **opposite-hemisphere keys**: the engine's blend ignores the shortest-path flip it
  computes. Because the blend factor is always 0 this never shows on the console, but the
  pairs are listed: they would if the engine ever blended.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..skeleton import angle_between
from .model import NTSC_VSYNC_HZ, PAL_VSYNC_HZ, Animation, RotationKey
from .playback import ReferenceSampler, Refresh, check_vsyncs, play_engine_chunks, refresh_hz, vsync_deltas

QUANTISATION_NOISE_DEGREES = 0.1
"""Differences below this on keyed frames are the int16 encoding, not a playback effect."""


@dataclass
class JointDifference:
    joint: int
    max_degrees: float
    mean_degrees: float
    worst_tick: int
    worst_frame: int
    """The engine's frame counter at the worst tick."""
    worst_seconds: float
    held_ticks: int
    """Ticks on which the engine showed a held key (no key on the sampled frame)."""
    max_held_degrees: float
    """Largest engine-vs-authored difference at the same frame on ticks showing a held key."""
    max_quantisation_degrees: float
    """Largest engine-vs-authored difference at the same frame on keyed ticks: FP12 encoding
    and the engine's fixed-point Normalize."""
    max_timing_degrees: float
    """Largest difference between the authored clip at the engine's frame and at the
    authored time: the region's timing error alone."""
    opposite_hemisphere_pairs: list[tuple[int, int]] = field(default_factory=list)
    """Consecutive key frames whose quaternions have a negative dot product."""
    causes: list[str] = field(default_factory=list)


@dataclass
class ComparisonReport:
    animation: str
    region: str
    region_hz: float
    authored_hz: float
    ticks: int
    seconds: float
    length_frames: int
    seconds_ntsc: float
    seconds_pal: float
    joints: list[JointDifference]

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        for j in doc["joints"]:
            j["opposite_hemisphere_pairs"] = [list(p) for p in j["opposite_hemisphere_pairs"]]
        return doc

    def text(self) -> str:
        speed = (NTSC_VSYNC_HZ / PAL_VSYNC_HZ - 1) * 100
        lines = [
            f"{self.animation!r}: {self.length_frames} frames = {self.seconds_ntsc:.3f} s on NTSC, "
            f"{self.seconds_pal:.3f} s on PAL (NTSC plays {speed:.0f}% faster)",
            f"engine on {self.region} ({self.region_hz:.2f} Hz) vs reference authored at {self.authored_hz:.2f} Hz, "
            f"{self.ticks} vsyncs ({self.seconds:.3f} s)",
            f"{'joint':>5} {'max deg':>8} {'mean deg':>9}  {'worst at':<32} why",
        ]
        for j in self.joints:
            at = f"tick {j.worst_tick} (frame {j.worst_frame}, {j.worst_seconds:.3f} s)"
            lines.append(f"{j.joint:>5} {j.max_degrees:>8.2f} {j.mean_degrees:>9.2f}  {at:<32} {'; '.join(j.causes)}")
        return "\n".join(lines)


def compare(
    animation: Animation,
    *,
    region: Refresh = "ntsc",
    authored: Refresh | None = None,
    seconds: float | None = None,
    num_joints: int | None = None,
) -> ComparisonReport:
    """Compare engine and reference playback of ``animation`` on ``region``.

    ``authored`` is the refresh rate the clip was made for (default: the same as
    ``region``); the reference runs at that rate, so a difference shows the region's timing
    error. ``seconds`` defaults to one pass through the clip on ``region``.
    """
    hz = refresh_hz(region)
    authored_hz = refresh_hz(authored) if authored is not None else hz
    ticks = max(1, int(round(seconds * hz)) if seconds is not None else max(animation.length, 1))
    check_vsyncs(ticks, hz)
    stats: _JointStats | None = None
    sampler: ReferenceSampler | None = None
    # Played in chunks of ticks, each joint's statistics gathered as they go: memory is one
    # chunk's, not ticks x joints.
    for first, engine in play_engine_chunks(animation, vsync_deltas(ticks), num_joints=num_joints):
        if sampler is None or stats is None:  # (both made on the first chunk)
            sampler = ReferenceSampler(animation, num_joints=engine.num_joints)
            stats = _JointStats(engine.num_joints, _keyed_codes(animation, engine.num_joints))
        # The engine samples its counter *before* adding deltaTime, so tick i shows the clip at
        # i vsyncs after the start: i / hz seconds.
        times = (first + np.arange(engine.num_ticks)) / hz
        reference = sampler.at_times(times, authored_hz)
        # The authored clip at exactly the frames the engine showed separates playback effects
        # (held keys, quantisation) from timing.
        same_frames = sampler.at_frames(engine.frames.astype(np.float64))
        engine_q = engine.rotations_float()
        stats.add(first, engine.frames, angle_between(engine_q, reference.rotations),
                  angle_between(engine_q, same_frames.rotations),
                  angle_between(same_frames.rotations, reference.rotations))
    assert stats is not None and sampler is not None  # ticks >= 1

    report_joints = []
    for j in range(stats.joints):
        if not sampler.has_rotation[j]:
            continue
        worst = int(stats.worst_tick[j])
        diff = JointDifference(
            joint=j,
            max_degrees=float(stats.max[j]),
            mean_degrees=float(stats.sum[j] / ticks),
            worst_tick=worst,
            worst_frame=int(stats.worst_frame[j]),
            worst_seconds=float(worst / hz),
            held_ticks=int(stats.held[j]),
            max_held_degrees=float(stats.max_held[j]),
            max_quantisation_degrees=float(stats.max_quantisation[j]),
            max_timing_degrees=float(stats.max_timing[j]),
            opposite_hemisphere_pairs=_opposite_pairs(animation, j),
        )
        diff.causes = _causes(diff, hz, authored_hz, ticks)
        report_joints.append(diff)

    name = str(animation.name)
    return ComparisonReport(
        animation=name,
        region=region if isinstance(region, str) else f"{hz:g} Hz",
        region_hz=hz,
        authored_hz=authored_hz,
        ticks=ticks,
        seconds=ticks / hz,
        length_frames=animation.length,
        seconds_ntsc=animation.seconds(NTSC_VSYNC_HZ),
        seconds_pal=animation.seconds(PAL_VSYNC_HZ),
        joints=report_joints,
    )


class _JointStats:
    """Per joint, what the report needs from every tick, gathered chunk by chunk."""

    def __init__(self, joints: int, keyed_codes: np.ndarray) -> None:
        self.joints = joints
        self.keyed_codes = keyed_codes
        self.max = np.full(joints, -1.0)
        self.worst_tick = np.zeros(joints, dtype=np.int64)
        self.worst_frame = np.zeros(joints, dtype=np.int64)
        self.sum = np.zeros(joints)
        self.held = np.zeros(joints, dtype=np.int64)
        self.max_held = np.zeros(joints)
        self.max_quantisation = np.zeros(joints)
        self.max_timing = np.zeros(joints)

    def add(self, first: int, frames: np.ndarray, angles: np.ndarray, playback: np.ndarray, timing: np.ndarray) -> None:
        """Ticks ``first..`` with the engine's ``frames`` and [ticks, joints] angles: engine vs
        authored, engine vs authored at the same frame, authored at that frame vs on time."""
        worst = np.argmax(angles, axis=0)
        cols = np.arange(self.joints)
        peak = angles[worst, cols]
        better = peak > self.max  # strictly: the first tick reaching the maximum is reported
        self.max = np.where(better, peak, self.max)
        self.worst_tick = np.where(better, first + worst, self.worst_tick)
        self.worst_frame = np.where(better, frames.astype(np.int64)[worst], self.worst_frame)
        self.sum += angles.sum(axis=0)
        codes = cols[None, :] * 0x10000 + frames.astype(np.int64)[:, None]
        on_key = np.isin(codes, self.keyed_codes)
        self.held += np.count_nonzero(~on_key, axis=0)
        self.max_held = np.maximum(self.max_held, np.where(on_key, 0.0, playback).max(axis=0, initial=0.0))
        on_keys = np.where(on_key, playback, 0.0).max(axis=0, initial=0.0)
        self.max_quantisation = np.maximum(self.max_quantisation, on_keys)
        self.max_timing = np.maximum(self.max_timing, timing.max(axis=0, initial=0.0))


def _keyed_codes(animation: Animation, joints: int) -> np.ndarray:
    """``joint * 65536 + frame`` for every ROTATION key of a joint played: the frames on which
    the joint has a key of its own (sorted, distinct)."""
    codes = {
        track.joint_id * 0x10000 + (k.frame & 0xFFFF)
        for track in animation.tracks if track.joint_id < joints
        for k in track.keys if isinstance(k, RotationKey)
    }
    return np.array(sorted(codes), dtype=np.int64)


def _opposite_pairs(animation: Animation, joint: int) -> list[tuple[int, int]]:
    pairs = []
    for track in animation.tracks:
        if track.joint_id != joint:
            continue
        keys = [k for k in track.keys if isinstance(k, RotationKey)]
        for a, b in zip(keys, keys[1:]):
            if sum(x * y for x, y in zip(a.quaternion, b.quaternion)) < 0:
                pairs.append((a.frame, b.frame))
    return pairs


def _causes(d: JointDifference, hz: float, authored_hz: float, ticks: int) -> list[str]:
    """The effects behind a joint's difference, largest first."""
    effects: list[tuple[float, str]] = []
    if d.held_ticks:
        effects.append((d.max_held_degrees,
                        f"held keys: up to {d.max_held_degrees:.2f} deg on {d.held_ticks} of {ticks} ticks "
                        "(the engine does not interpolate)"))
    if abs(hz - authored_hz) > 1e-9:
        pct = (hz / authored_hz - 1) * 100
        effects.append((d.max_timing_degrees,
                        f"region timing: up to {d.max_timing_degrees:.2f} deg, plays {abs(pct):.0f}% "
                        f"{'faster' if pct > 0 else 'slower'} than authored"))
    level = "noise" if d.max_quantisation_degrees < QUANTISATION_NOISE_DEGREES else "visible"
    effects.append((d.max_quantisation_degrees,
                    f"FP12 quantisation: up to {d.max_quantisation_degrees:.3f} deg on keyed frames ({level})"))
    causes = [text for _, text in sorted(effects, key=lambda e: -e[0])]
    if d.opposite_hemisphere_pairs:
        causes.append(
            f"{len(d.opposite_hemisphere_pairs)} key pair(s) in opposite hemispheres: the engine's blend "
            "would take the long way (it never blends between keys, so it does not show)"
        )
    return causes
