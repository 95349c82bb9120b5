"""animspec play's per-tick poses: pacing, modes and world positions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import EXAMPLES

from animspec.animbin import Animation, Name, RotationKey, Track, read_file
from animspec.animbin.poses import poses
from animspec.skeleton import Skeleton

Q90 = (round(math.cos(math.pi / 4) * 4096), 0, 0, round(math.sin(math.pi / 4) * 4096))  # (2896, 0, 0, 2896)


def clip(length: int = 4, looping: bool = True) -> Animation:
    keys = [RotationKey(f, 4096, 0, 0, 0) for f in range(length)]
    return Animation(Name(b"c"), length, [Track(0, keys)], flags=1 if looping else 0)


def test_default_is_one_pass_at_full_rate():
    p = poses(clip(4))
    assert p.frames.tolist() == [0, 1, 2, 3] and p.deltas == [1, 1, 1, 1]
    np.testing.assert_allclose(p.times, np.arange(4) * 1001 / 60000)


def test_half_rate_and_a_hitch():
    # Half rate on a 5-frame loop: 0, 2, 4, then 6 >= 5 resets to 0 (not 1: a reset, not a modulo).
    assert poses(clip(5), step=2, seconds=4 / (60000 / 1001)).frames.tolist() == [0, 2]
    p = poses(clip(5), deltas=[1, 1, 7, 1])
    assert p.frames.tolist() == [0, 1, 2, 0]
    assert p.times.tolist() == pytest.approx([0, 1, 2, 9] / np.float64(60000 / 1001))
    once = poses(clip(5, looping=False), deltas=[1, 1, 7, 1])
    assert once.frames.tolist() == [0, 1, 2, 4]  # clamped to length - 1


def test_seconds_on_pal():
    assert len(poses(clip(4), region="pal", seconds=1.0).frames) == 50


def test_world_positions_follow_the_rotated_root():
    # Root turned 90 degrees about Z: the chain's -Y offsets turn onto +X.
    anim = Animation(Name(b"r"), 1, [Track(0, [RotationKey(0, *Q90)])])
    p = poses(anim, skeleton=Skeleton.chain(3, bone_length=2.0, axis=(0.0, -1.0, 0.0)))
    np.testing.assert_allclose(p.positions[0], [[0, 0, 0], [2, 0, 0], [4, 0, 0]], atol=2e-3)
    assert p.rotations[0, 1].tolist() == [4096, 0, 0, 0]  # untracked joints keep the rest pose


def test_reference_mode_interpolates_where_the_engine_holds():
    sparse = read_file(EXAMPLES / "sparse.animbin").animations[0]
    engine = poses(sparse)
    ref = poses(sparse, mode="reference")
    # Frames 0..4 all show key 0 on the console; the reference moves every frame.
    assert len({tuple(engine.rotations[t, 3]) for t in range(5)}) == 1
    assert len({tuple(np.round(ref.rotations[t, 3], 6)) for t in range(5)}) == 5
    doc = ref.to_json()
    assert doc["mode"] == "reference" and isinstance(doc["ticks"][1]["joints"][3]["rotation"][0], float)
    assert "distinct poses: 6 of 30 ticks" in engine.summary()
