"""The budget (animspec.animbin.budget): what the Blender add-on's budget panel shows, computed
without Blender."""

from __future__ import annotations

import math

import numpy as np
import pytest

from animspec.animbin.budget import budget, console_error, console_frames, scene_rate_notes
from animspec.animbin.model import Animation, AnimbinFile, Marker, Name, RotationKey, Track
from animspec.animbin.write import write_bytes
from animspec.quaternion import angle_between


def turn_z(degrees: float) -> np.ndarray:
    h = math.radians(degrees) / 2
    return np.array([math.cos(h), 0.0, 0.0, math.sin(h)])


def clip(name: str, frames: int, keyed: list[int], joints: int = 1, markers: int = 0) -> tuple[Animation, np.ndarray]:
    """A joint turning 3 degrees per frame about Z, keyed (rounded) on the frames ``keyed``;
    the reference is the exact turn on every frame."""
    reference = np.stack([np.stack([turn_z(3.0 * f)] * joints) for f in range(frames)])
    tracks = [Track(j, [RotationKey(f, *np.rint(reference[f, j] * 4096).astype(int).tolist()) for f in keyed])
              for j in range(joints)]
    anim = Animation(Name.from_str(name), frames, tracks, [Marker(Name.from_str(f"m{i}"), 0) for i in range(markers)])
    return anim, reference


def test_rows_count_against_the_engine_limits():
    small, _ = clip("small", 10, list(range(10)))
    many_keys, _ = clip("long", 31, list(range(31)), markers=6)
    file = AnimbinFile([small, many_keys] + [clip(f"c{i}", 2, [0, 1])[0] for i in range(4)])
    result = budget(file)
    rows = {row.label: row for row in result.rows()}
    assert rows["actions"].value == "6" and not rows["actions"].ok
    assert rows["small: keys per track"].ok and rows["small: keys per track"].value == "10"
    assert rows["long: keys per track"].value == "31" and not rows["long: keys per track"].ok
    assert rows["long: markers"].value == "6" and not rows["long: markers"].ok
    assert rows["small: tracks"].value == "1" and rows["small: tracks"].limit == "50"
    assert rows["file size"].value == f"{len(write_bytes(file))} bytes"
    assert not result.fits
    assert "OVER actions: 6 / 5" in result.text()


def test_console_error_of_a_clip_keyed_on_every_frame_is_the_fp12_step():
    anim, reference = clip("every", 20, list(range(20)), joints=2)
    error = console_error(anim, reference)
    assert error is not None and error.units <= 1.0 and error.degrees < 0.03


def test_console_error_of_held_keys_is_the_drift_until_the_next_key():
    """Keys on frames 0 and 15 only: the console holds frame 0's pose up to frame 14, 42
    degrees behind the turn there (the engine never interpolates)."""
    anim, reference = clip("sparse", 20, [0, 15])
    error = console_error(anim, reference)
    assert error.frame == 14 and error.joint == 0
    assert error.degrees == pytest.approx(float(angle_between(reference[14, 0], reference[0, 0])), abs=0.03)
    assert error.units > 900


def test_budget_takes_each_clips_reference():
    anim, reference = clip("sparse", 20, [0, 15])
    rows = budget(AnimbinFile([anim]), [reference]).rows()
    (row,) = [r for r in rows if r.label == "sparse: largest error on the console"]
    assert row.value.startswith("42.0") and "frame 14" in row.value


def test_a_24_fps_scene_makes_61_console_frames_of_25():
    assert console_frames(25, 24.0, "ntsc") == 61
    assert console_frames(25, 60000 / 1001, "ntsc") == 25
    notes = scene_rate_notes(24.0, "ntsc", [("walk", 25)])
    assert any("walk: 25 scene frames become 61 console frames" in n for n in notes)


def test_a_60_fps_scene_for_ntsc_is_noted_with_the_measured_difference():
    notes = scene_rate_notes(60.0, "ntsc", [("idle", 30)], exporter_units=20.0)
    assert "1.0010 scene frames" in notes[0]
    assert any("up to 20.0 FP12 units" in n for n in notes)
    assert scene_rate_notes(60000 / 1001, "ntsc", [("idle", 30)]) == []
    assert scene_rate_notes(50.0, "pal", [("idle", 30)]) == []
