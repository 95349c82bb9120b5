"""Timing of ANIMBIN playback: engine-faithful and reference modes.

Run: ``python bench/playback.py`` (with the package installed, e.g. ``.venv/bin/python``).

The clip is the largest the engine holds: 50 tracks x 30 keys (a key on every frame, as the
exporter bakes), played for 10 s of NTSC vsyncs. Absolute times depend on the machine, so
each mode is also printed as a ratio against a baseline measured in the same run: a plain
numpy nlerp + normalise over the same key data and the same ticks, i.e. the least work any
player of this clip has to do.
"""

from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np

from animspec.animbin.model import Animation, Name, RotationKey, Track
from animspec.animbin.playback import (
    EngineSkeleton,
    play_engine,
    sample_reference,
    vsync_count,
    vsync_deltas,
)
from animspec.fixed_point import normalize_table

N_TRACKS, N_KEYS = 50, 30
SECONDS = 10.0


def make_clip(seed: int = 1) -> Animation:
    """Smooth random rotations, FP12-encoded like the exporter (truncation toward zero)."""
    rng = np.random.default_rng(seed)
    tracks = []
    for joint in range(N_TRACKS):
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        start, speed = rng.uniform(0, math.pi), rng.uniform(-0.1, 0.1)
        keys = []
        for frame in range(N_KEYS):
            half = (start + speed * frame) / 2
            q = (math.cos(half), *(math.sin(half) * axis))
            keys.append(RotationKey(frame, *(int(c * 4096) for c in q)))
        tracks.append(Track(joint, keys))
    return Animation(Name(b"bench"), N_KEYS, tracks)


def best_of(fn: Callable[[], object], repeat: int) -> float:
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    clip = make_clip()
    ticks = vsync_count(SECONDS, "ntsc")
    deltas = vsync_deltas(ticks)
    times = np.arange(ticks) / (60000 / 1001)

    start = time.perf_counter()
    normalize_table.cache_clear()
    normalize_table()
    table_s = time.perf_counter() - start

    keys = np.array([[k.quaternion for k in t.keys] for t in clip.tracks], dtype=np.float64) / 4096
    frames = np.arange(ticks) % N_KEYS

    def baseline() -> np.ndarray:
        prev = keys[:, frames].transpose(1, 0, 2)
        nxt = keys[:, np.minimum(frames + 1, N_KEYS - 1)].transpose(1, 0, 2)
        q = 0.5 * prev + 0.5 * nxt
        return q / np.linalg.norm(q, axis=-1, keepdims=True)

    def engine() -> object:
        return play_engine(clip, deltas)

    def stepper() -> object:
        sk = EngineSkeleton(animation=clip)
        for d in deltas:
            sk.play(d)
        return sk

    def reference() -> object:
        return sample_reference(clip, times, refresh="ntsc")

    base = best_of(baseline, 20)
    rows = [
        ("numpy nlerp baseline", base),
        ("engine play_engine (vectorised)", best_of(engine, 10)),
        ("engine EngineSkeleton (per tick)", best_of(stepper, 2)),
        ("reference sample_reference", best_of(reference, 10)),
    ]
    print(f"clip: {N_TRACKS} tracks x {N_KEYS} keys, {ticks} NTSC ticks ({SECONDS:g} s)")
    print(f"normalize table build (once per process): {table_s * 1e3:.1f} ms")
    print(f"{'mode':<36}{'best ms':>10}{'x baseline':>12}{'us/tick':>10}")
    for name, seconds in rows:
        print(f"{name:<36}{seconds * 1e3:>10.2f}{seconds / base:>12.1f}{seconds / ticks * 1e6:>10.1f}")


if __name__ == "__main__":
    main()
