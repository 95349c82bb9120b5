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
from .playback import Refresh, play_engine, refresh_hz, sample_reference, sample_reference_frames, vsync_deltas

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
    engine = play_engine(animation, vsync_deltas(ticks), num_joints=num_joints)
    joints = engine.num_joints
    # The engine samples its counter *before* adding deltaTime, so tick i shows the clip at
    # i vsyncs after the start: i / hz seconds.
    times = np.arange(ticks) / hz
    reference = sample_reference(animation, times, refresh=authored_hz, num_joints=joints)
    # The authored clip at exactly the frames the engine showed separates playback effects
    # (held keys, quantisation) from timing.
    same_frames = sample_reference_frames(animation, engine.frames.astype(np.float64), num_joints=joints)
    engine_q = engine.rotations_float()
    angles = angle_between(engine_q, reference.rotations)
    playback_angles = angle_between(engine_q, same_frames.rotations)
    timing_angles = angle_between(same_frames.rotations, reference.rotations)

    keyed = _keyed_frames(animation, joints)
    report_joints = []
    for j in range(joints):
        if not reference.has_rotation[j]:
            continue
        a = angles[:, j]
        worst = int(np.argmax(a))
        on_key = np.isin(engine.frames, list(keyed[j]))
        held = int(np.count_nonzero(~on_key))
        p = playback_angles[:, j]
        diff = JointDifference(
            joint=j,
            max_degrees=float(a[worst]),
            mean_degrees=float(a.mean()),
            worst_tick=worst,
            worst_frame=int(engine.frames[worst]),
            worst_seconds=float(times[worst]),
            held_ticks=held,
            max_held_degrees=_max(p[~on_key]),
            max_quantisation_degrees=_max(p[on_key]),
            max_timing_degrees=_max(timing_angles[:, j]),
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


def _keyed_frames(animation: Animation, joints: int) -> list[set[int]]:
    keyed: list[set[int]] = [set() for _ in range(joints)]
    for track in animation.tracks:
        if track.joint_id < joints:
            keyed[track.joint_id].update(k.frame for k in track.keys if isinstance(k, RotationKey))
    return keyed


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


def _max(values: np.ndarray) -> float:
    return float(values.max()) if values.size else 0.0


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
