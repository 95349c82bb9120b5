"""The engine-vs-reference difference report explains what a user will see on the console."""

from __future__ import annotations

import math

import pytest
from conftest import EXAMPLES

from animspec.animbin import Animation, Name, RotationKey, Track, read_file
from animspec.animbin.compare import compare


def z_rotation(frame: int, degrees: float) -> RotationKey:
    half = math.radians(degrees) / 2
    return RotationKey(frame, round(math.cos(half) * 4096), 0, 0, round(math.sin(half) * 4096))


def test_fully_keyed_clip_differs_only_by_quantisation():
    report = compare(read_file(EXAMPLES / "swing.animbin").animations[0])
    assert [j.joint for j in report.joints] == [0, 1, 2, 3]
    for j in report.joints:
        assert j.held_ticks == 0
        # One FP12 step on a component is about 2 * asin(1/4096) = 0.028 degrees.
        assert j.max_degrees < 0.06
        assert j.causes[0].startswith("FP12 quantisation")


def test_sparse_keys_step_on_the_console():
    # Keys 0 deg at frame 0 and 90 deg at frame 10: the reference is at 45 deg on frame 5;
    # the engine still shows 0 deg there, and 81 deg behind on frame 9.
    anim = Animation(Name(b"step"), 11, [Track(0, [z_rotation(0, 0), z_rotation(10, 90)])], flags=0)
    report = compare(anim, region="pal")
    (j,) = report.joints
    assert j.held_ticks == 9  # frames 1..9
    assert j.max_degrees == pytest.approx(81.0, abs=0.05)
    assert j.worst_frame == 9
    assert j.causes[0].startswith("held keys: up to 81.")
    assert report.ticks == 11 and report.region_hz == 50.0


def test_region_timing_is_reported_when_authored_for_the_other_region():
    anim = read_file(EXAMPLES / "swing.animbin").animations[0]
    report = compare(anim, region="ntsc", authored="pal")
    assert all("plays 20% faster than authored" in " ".join(j.causes) for j in report.joints)
    assert max(j.max_timing_degrees for j in report.joints) > 10
    assert "NTSC plays 20% faster" in report.text()
    slow = compare(anim, region="pal", authored="ntsc")
    assert "slower than authored" in " ".join(slow.joints[0].causes)


def test_opposite_hemisphere_keys_are_listed():
    k0 = RotationKey(0, 4096, 0, 0, 0)
    k1 = RotationKey(1, -4000, 0, 0, 880)  # the same side as k0 as a rotation, negative dot
    anim = Animation(Name(b"flip"), 2, [Track(0, [k0, k1])])
    (j,) = compare(anim).joints
    assert j.opposite_hemisphere_pairs == [(0, 1)]
    assert any("opposite hemispheres" in c for c in j.causes)


def test_report_serialises():
    doc = compare(read_file(EXAMPLES / "sparse.animbin").animations[0]).to_json()
    assert doc["animation"] == "swing" and len(doc["joints"]) == 4
    assert doc["joints"][0]["held_ticks"] == 24
