"""Blender's .animclip import refuses what it cannot hold, before it makes anything (issue 27
items 2 and 10).

A 133 KB clip (102 joints, 65,535 frames through a frame lookup to one sample) crashed Blender
keying 6.7 million bone keys; an fps 1.4e-45 clip set the scene to fps 1, fps_base 1e6; an fps
3.4e38 clip was refused only after its action was made and assigned. The decision is
:func:`animspec.animclip.frames.blender_import.plan_blender_import` (no bpy: tested here directly,
fuzzed by tests/fuzz/targets.py); tests/blender/animclip_bounds_check.py runs the operator in
bpy and records what is left.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess

import pytest
from conftest import ROOT
from test_animclip_samples import LOOKUP, LOOPING, Clip, clip_file

from animspec.animclip import read_bytes
from animspec.animclip.frames.blender_import import (
    BLENDER_BYTES_PER_BONE_KEY,
    BLENDER_IMPORT_FLOOR,
    BLENDER_FPS_BASE_RANGE,
    BLENDER_SCENE_FPS_MAX,
    HIGHEST_FPS,
    LOWEST_FPS,
    BlenderFpsError,
    BlenderImportTooLargeError,
    blender_import_bound,
    plan_blender_import,
    scene_rate,
)
from animspec.animclip.frames.pose import clip_frames
from animspec.animclip.frames.inputs import memory_bound

CHECK_SCRIPT = ROOT / "tests" / "blender" / "animclip_bounds_check.py"
COMMAND_LINE_OPTION = re.compile(r"(?<![\w-])--[a-z]")


def one_sample_clip(frames: int, joints: int = 102, fps: float = 30.0) -> bytes:
    """``joints`` joints (named joint_0 ...), ``frames`` frames all showing one sample."""
    clip = Clip(joints, random.Random(0))
    clip.small = [(0, 4, 1, 0)]
    clip.samples = [[0]]
    return clip_file(clip, frames=frames, flags=LOOKUP | LOOPING, lookup=[0] * (frames + 1), built_extra={"fps": fps})


def plan(data: bytes, bones: int = 102, size: int | None = None):
    return plan_blender_import(clip_frames(read_bytes(data, "c.animclip"), "c.animclip"), "c.animclip",
                               len(data) if size is None else size, bones=bones)


# --- the decision, without Blender -------------------------------------------------------------


def test_the_issues_clip_is_refused_with_its_numbers():
    data = one_sample_clip(65535)
    assert 130_000 < len(data) < 136_000  # the issue's 133 KB
    with pytest.raises(BlenderImportTooLargeError) as info:
        plan(data)
    e = info.value
    assert (e.frames, e.bones, e.keys) == (65535, 102, 65535 * 102)
    assert e.need == 65535 * 102 * BLENDER_BYTES_PER_BONE_KEY and e.limit == blender_import_bound(len(data)) == BLENDER_IMPORT_FLOOR


def test_just_inside_and_just_outside_the_bound():
    limit = blender_import_bound(0)
    assert limit == BLENDER_IMPORT_FLOOR > memory_bound(0)  # a small file: the floor
    most = limit // BLENDER_BYTES_PER_BONE_KEY
    frames = most // 102
    data = one_sample_clip(frames)
    assert plan(data).keys == frames * 102 <= most
    with pytest.raises(BlenderImportTooLargeError):
        plan(one_sample_clip(frames + 1))
    # the bound grows with the file on disk: 64 x its size past the floor
    big = (frames + 1) * 102 * BLENDER_BYTES_PER_BONE_KEY // 64 + 1
    assert blender_import_bound(big) == memory_bound(big) > BLENDER_IMPORT_FLOOR
    assert plan(one_sample_clip(frames + 1), size=big).keys == (frames + 1) * 102
    assert plan(one_sample_clip(frames + 1), bones=101).keys == (frames + 1) * 101  # the matched bones count


@pytest.mark.parametrize("fps", [1.4e-45, 9.9e-7, 3.4e38, 3.3e9, float("nan"), float("inf"), 0.0, -30.0])
def test_a_rate_a_scene_cannot_hold_is_refused(fps):
    with pytest.raises(BlenderFpsError) as info:
        scene_rate(fps, "c.animclip")
    assert info.value.path == "c.animclip"


@pytest.mark.parametrize("fps, scene", [(30.0, (30, 1.0)), (29.97, (30, 30 / 29.97)), (1e-6, (1, 1e6)),
                                        (0.25, (1, 4.0)), (40000.0, (32767, 32767 / 40000)),
                                        (HIGHEST_FPS, (32767, 1e-5))])
def test_a_rate_a_scene_can_hold_becomes_fps_over_base(fps, scene):
    whole, base = scene_rate(fps, "c.animclip")
    assert whole == scene[0] and base == pytest.approx(scene[1])
    assert 1 <= whole <= BLENDER_SCENE_FPS_MAX
    assert BLENDER_FPS_BASE_RANGE[0] * (1 - 1e-9) <= base <= BLENDER_FPS_BASE_RANGE[1]
    assert whole / base == pytest.approx(fps)


def test_the_rate_is_checked_before_the_size():
    # The decoder refuses fps 1.4e-45 itself (clip-timing, the narrower range): the plan's own
    # rate check is reached with a decoded clip given that rate, 65,535 frames long.
    import dataclasses

    from animspec.animclip.frames.inputs import SampleInputError

    with pytest.raises(SampleInputError, match="clip-timing"):
        plan(one_sample_clip(65535, fps=1.4e-45))
    clip = clip_frames(read_bytes(one_sample_clip(65535), "c.animclip"), "c.animclip")
    with pytest.raises(BlenderFpsError):
        plan_blender_import(dataclasses.replace(clip, fps=1.4e-45), "c.animclip", 1000, bones=102)
    assert LOWEST_FPS == 1e-6


def test_the_refusals_in_the_panels_words():
    import importlib.util

    spec = importlib.util.spec_from_file_location("wording", ROOT / "blender" / "animspec_blender" / "wording.py")
    wording = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wording)
    with pytest.raises(BlenderImportTooLargeError) as info:
        plan(one_sample_clip(65535))
    text = wording.animclip_import_refusal(info.value)
    assert "65,535 frames for 102 bones: 6,684,570 bone keys would take about 10.0 GB in Blender" in text
    assert "the limit for a 133 KB file is 2.1 GB" in text and not COMMAND_LINE_OPTION.search(text)
    with pytest.raises(BlenderFpsError) as info:
        scene_rate(1.4e-45, "c.animclip")
    text = wording.animclip_import_refusal(info.value)
    assert "1.4e-45 frames per second" in text and "Frame Rate" in text and not COMMAND_LINE_OPTION.search(text)


# --- in Blender ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def blender_run(tmp_path_factory) -> dict:
    from test_blender_gltf import bpy_python

    out = tmp_path_factory.mktemp("bounds")
    clips = {
        "huge": one_sample_clip(65535),
        "tiny_fps": one_sample_clip(30, fps=1.4e-45),
        "huge_fps": one_sample_clip(30, fps=3.4e38),
        "fine": one_sample_clip(1000),
    }
    for name, data in clips.items():
        (out / f"{name}.animclip").write_bytes(data)
    cases = {name: {"path": str(out / f"{name}.animclip"), "bones": 102} for name in clips}
    cases["fails_mid_way"] = {"path": str(out / "fine.animclip"), "bones": 102, "fail_at": 5}
    (out / "cases.json").write_text(json.dumps(cases))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT / "blender"), env.get("PYTHONPATH", "")])
    proc = subprocess.run([bpy_python(), str(CHECK_SCRIPT), str(out)], capture_output=True, text=True, timeout=600,
                          env=env)
    assert proc.returncode == 0, f"{CHECK_SCRIPT.name} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return json.loads((out / "bounds.json").read_text())


def _left_as_it_was(got: dict) -> None:
    assert got["actions"] == ["before"]  # no action made, or the one made removed
    assert got["assigned"] == "before" and got["slot"] == "rig"
    assert got["fps"] == [24, 1.0]
    assert got["joint_0_mode"] == "XYZ"


@pytest.mark.blender
@pytest.mark.parametrize("case, words", [
    ("huge", "6,684,570 bone keys would take about 10.0 GB in Blender"),
    # (the decoder's own clip-timing refusal: its playable range is narrower than a scene's)
    ("tiny_fps", "clip-timing: fps is 1.4013e-45"),
    ("huge_fps", "clip-timing: fps is 3.4e+38"),
    ("fails_mid_way", "made to fail after the action was made"),
])
def test_a_refused_import_leaves_the_scene_as_it_was(blender_run, case, words):
    got = blender_run[case]
    errors = [m["text"] for m in got["messages"] if m["level"] == "ERROR"]
    assert len(errors) == 1 and words in errors[0], got["messages"]
    assert not any(COMMAND_LINE_OPTION.search(m["text"]) for m in got["messages"])
    assert got["result"] in (["CANCELLED"],) or got["result"][0].startswith("RAISED"), got["result"]
    _left_as_it_was(got)
    # refused before keying: Blender's peak grew by far less than the bound for the file
    assert got["peak_after"] - got["peak_before"] < memory_bound(0), got


@pytest.mark.blender
def test_a_clip_inside_the_bound_is_imported(blender_run):
    got = blender_run["fine"]
    assert got["result"] == ["FINISHED"], got["messages"]
    assert got["assigned"] == "fine" and "fine" in got["actions"]
    assert got["fps"] == [30, 1.0]
    # the measured cost per bone key (BLENDER_BYTES_PER_BONE_KEY) is not an underestimate by much
    assert got["peak_after"] - got["peak_before"] <= 1.25 * 1000 * 102 * BLENDER_BYTES_PER_BONE_KEY


@pytest.mark.blender
def test_the_rate_limits_are_blenders(blender_run):
    rna = blender_run["rna"]
    assert rna["fps"] == [1, BLENDER_SCENE_FPS_MAX]
    assert rna["fps_base"][0] == pytest.approx(BLENDER_FPS_BASE_RANGE[0]) and rna["fps_base"][1] == BLENDER_FPS_BASE_RANGE[1]
