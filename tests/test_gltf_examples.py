"""examples/pendulum_rig.glb: reproducible, valid, and converting it gives the clip
examples/swing.animbin holds (the same pendulum, authored independently)."""

from __future__ import annotations

import importlib.util

import numpy as np

from animspec.animbin import read_file
from animspec.gltf import gltf_to_animbin, read_rig, animbin_to_gltf
from animspec.skeleton import angle_between
from conftest import EXAMPLES
from test_gltf_support import khronos_validate

RIG = EXAMPLES / "pendulum_rig.glb"


def _module():
    spec = importlib.util.spec_from_file_location("make_gltf_examples", EXAMPLES / "make_gltf_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_is_reproducible():
    for name, data in _module().examples().items():
        assert (EXAMPLES / name).read_bytes() == data, f"examples/{name} is stale: run examples/make_gltf_examples.py"


def test_example_is_valid(tmp_path):
    report = khronos_validate(RIG.read_bytes(), tmp_path)
    assert report["info"]["animationCount"] == 2 and report["info"]["hasSkins"]


def test_converted_swing_matches_swing_animbin():
    """Same motion, same joint order, same timing (30 NTSC vsyncs), same markers; the rig's
    quarter turn about X and the converter's axis change cancel on the root. The glTF holds
    LINEAR keys every 2 frames of a sine, so frames between them differ by at most the chord
    error A w^2 h^2 / 8 = 50 deg * (2 pi / 15)^2 / 8 = 1.10 deg (tip: A = 50, h = 1 key step)."""
    result = gltf_to_animbin(str(RIG), animations=["swing"])
    ours = result.animbin.animations[0]
    theirs = read_file(str(EXAMPLES / "swing.animbin")).animation("swing")
    assert ours.length == theirs.length == 30
    assert [(str(m.name), m.frame) for m in ours.markers] == [(str(m.name), m.frame) for m in theirs.markers]
    assert result.findings == [[]]
    for a, b in zip(ours.tracks, theirs.tracks):
        assert a.joint_id == b.joint_id
        qa = np.array([k.quaternion for k in a.keys]) / 4096
        qb = np.array([k.quaternion for k in b.keys]) / 4096
        assert float(angle_between(qa, qb).max()) < 1.15
        assert float(angle_between(qa[::2], qb[::2]).max()) < 0.06  # on the glTF's own keys


def test_nod_uses_cubic_and_step_curves():
    result = gltf_to_animbin(str(RIG), animations=["nod"], region="pal")
    anim = result.animbin.animations[0]
    assert anim.length == 21  # 0.4 s at 50 Hz: frames 0..20, both ends baked as the exporter does
    tip = np.array([k.quaternion for k in anim.tracks[3].keys]) / 4096
    identity = np.array([1.0, 0, 0, 0])
    assert float(angle_between(tip[10], np.array([np.cos(np.radians(15)), np.sin(np.radians(15)), 0, 0]))) < 0.03
    assert float(angle_between(tip[0], identity)) < 0.03
    lower = [round(float(angle_between(np.array(k.quaternion) / 4096, identity))) for k in anim.tracks[2].keys]
    assert lower == [0] * 10 + [15] * 11  # STEP at 0.2 s = PAL frame 10


def test_example_round_trips_to_a_valid_gltf(tmp_path):
    result = gltf_to_animbin(str(RIG))
    khronos_validate(animbin_to_gltf(result.animbin, read_rig(str(RIG)).skeleton, skeleton_space="gltf"), tmp_path)
