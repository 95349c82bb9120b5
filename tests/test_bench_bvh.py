"""The codec benchmark's ground truth (bench/bvh.py) and ACL's SJSON writer (tools/acl_check.py),
checked against results computed by hand from the definitions (issue 30.4):

* the BVH reader and its forward kinematics on a two-joint file whose object-space transforms
  are worked out below from the format's rules (position channels replace the root's OFFSET,
  rotation channels multiply left to right as written, End Sites are not joints);
* ACL's metric on known perturbations: turning the root by an angle a moves a vertex at
  distance r from the axis by 2 r sin(a / 2); moving it by t moves every vertex by |t|;
* the SJSON track list ACL reads, written and read back;
* the Debian clips, where installed: the frame, joint and rate counts the issue states.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest
from conftest import ROOT, tool_module

sys.path.insert(0, str(ROOT / "bench"))
import bvh  # noqa: E402  (bench/bvh.py)
import codec  # noqa: E402  (bench/codec.py)

acl_check = tool_module("acl_check")

TWO_JOINTS = """HIERARCHY
ROOT Hips
{
  OFFSET 5 5 5
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Arm
  {
    OFFSET 2 0 0
    CHANNELS 3 Xrotation Zrotation Yrotation
    End Site
    {
      OFFSET 0 1 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.5
1 2 3  90 0 0  0 0 0
0 0 0  0 0 90  90 90 0
"""

# Worked by hand (column vectors; Rz90: x->y, y->-x; Rx90: y->z, z->-y; Ry90: z->x, x->-z).
# Frame 0: Hips at (1, 2, 3) (the channels, not OFFSET 5 5 5), turned Rz90; Arm at
# (1, 2, 3) + Rz90 (2, 0, 0) = (1, 4, 3), turned as Hips.
# Frame 1: Hips at 0, turned Ry90; Arm's channels X 90, Z 90 are Rx90 @ Rz90, whose columns
# (the images of x, y, z) are (0, 0, 1), (-1, 0, 0), (0, -1, 0); after Ry90: (1, 0, 0),
# (0, 0, 1), (0, -1, 0); Arm at Ry90 (2, 0, 0) = (0, 0, -2).
RZ90 = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], float)
RY90 = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]], float)
ARM_1 = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float)  # columns (1,0,0), (0,0,1), (0,-1,0)
EXPECTED = {  # (frame, joint): (rotation, position)
    (0, 0): (RZ90, (1, 2, 3)),
    (0, 1): (RZ90, (1, 4, 3)),
    (1, 0): (RY90, (0, 0, 0)),
    (1, 1): (ARM_1, (0, 0, -2)),
}


def two_joints() -> bvh.Bvh:
    return bvh.parse(TWO_JOINTS)


def test_the_reader_reads_the_skeleton_and_the_motion():
    b = two_joints()
    assert b.names == ("Hips", "Arm")  # the End Site is not a joint
    assert b.parents.tolist() == [-1, 0]
    assert b.channels[1] == ("Xrotation", "Zrotation", "Yrotation")
    assert b.frames == 2 and b.fps == 2.0
    np.testing.assert_array_equal(b.local_translations()[:, 1], [[2, 0, 0], [2, 0, 0]])
    np.testing.assert_array_equal(b.local_translations(0.5)[:, 0], [[0.5, 1, 1.5], [0, 0, 0]])


@pytest.mark.parametrize("key", list(EXPECTED))
def test_forward_kinematics_matches_the_hand_worked_transforms(key):
    world = two_joints().object_transforms()
    rotation, position = EXPECTED[key]
    np.testing.assert_allclose(world[key][:3, :3], rotation, atol=1e-12)
    np.testing.assert_allclose(world[key][:3, 3], position, atol=1e-12)
    np.testing.assert_array_equal(world[key][3], [0, 0, 0, 1])


def test_the_quaternions_are_the_euler_rotations():
    b = two_joints()
    np.testing.assert_allclose(bvh.quaternion_matrices(b.local_quaternions()), b.local_matrices(), atol=1e-12)


def test_motion_lines_past_frames_are_left_out_and_short_motion_is_refused():
    longer = TWO_JOINTS + "7 7 7 0 0 0 0 0 0\n"
    assert bvh.parse(longer).frames == 2
    with pytest.raises(bvh.BvhError, match="motion values"):
        bvh.parse(TWO_JOINTS.rsplit("\n", 2)[0] + "\n")
    with pytest.raises(bvh.BvhError, match="unknown channel"):
        bvh.parse(TWO_JOINTS.replace("Xrotation Zrotation", "Xrotation Wrotation"))


def turned(b: bvh.Bvh, angle: float, axis: int = 2, shift: tuple[float, float, float] = (0, 0, 0)) -> np.ndarray:
    """``b``'s object space with the root turned by ``angle`` about ``axis`` (after its own
    rotation, in its parent's space) and moved by ``shift``."""
    rot = b.local_matrices()
    rot[:, 0] = bvh.axis_matrix(axis, np.full(b.frames, angle)) @ rot[:, 0]
    pos = b.local_translations()
    pos[:, 0] += shift
    return bvh.forward_kinematics(b.parents, rot, pos)


@pytest.mark.parametrize("angle", [1e-3, 0.01, 0.3])
def test_a_turned_root_moves_each_shell_by_the_chord(angle):
    """The root turns by ``angle`` about the z axis through its origin; a vertex moves by
    2 r sin(a/2), r its distance from that axis. Frame 1: Hips (at 0, Ry90) has shell vertices
    at s*(0, 0, -1) (on the axis), s*(0, 1, 0) and s*(1, 0, 0) (at s); Arm sits on the axis at
    (0, 0, -2) with vertices at s, on the axis, at s. Frame 0: Hips (Rz90) has two at s; Arm
    is 2 from Hips along +y and its local x vertex (Rz90 x = +y) is at 2 + s: the largest."""
    b = two_joints()
    shell = 0.25
    err = bvh.object_error(b.object_transforms(), turned(b, angle), shell).per_sample
    chord = 2 * math.sin(angle / 2)
    assert err[1, 0] == pytest.approx(chord * shell, rel=1e-9)
    assert err[1, 1] == pytest.approx(chord * shell, rel=1e-9)
    assert err[0, 1] == pytest.approx(chord * (2 + shell), rel=1e-9)
    assert err[0, 0] == pytest.approx(chord * shell, rel=1e-9)


def test_a_moved_root_moves_every_vertex_as_far():
    b = two_joints()
    err = bvh.object_error(b.object_transforms(), turned(b, 0.0, shift=(0.3, 0.0, 0.4)), 3.0)
    np.testing.assert_allclose(err.per_sample, 0.5, rtol=1e-12)
    assert err.max == pytest.approx(0.5) and err.p99 == pytest.approx(0.5)


def test_max_and_p99_over_joints_and_frames():
    per_sample = np.zeros((10, 20))
    per_sample.flat[:3] = [5.0, 4.0, 3.0]  # 3 of 200 samples: the 99th percentile lies below the top 2
    err = bvh.ObjectError(per_sample)
    assert err.max == 5.0 and err.worst == (0, 0)
    assert err.p99 == pytest.approx(np.percentile(per_sample, 99)) and 0 < err.p99 < 4.0


def test_the_acl_sjson_track_list_round_trips(tmp_path):
    b = two_joints()
    rot, pos = b.local_quaternions(), b.local_translations(0.01)
    path = tmp_path / "two.acl.sjson"
    acl_check.write_sjson(path, "two", b.names, b.parents, b.fps, rot, pos)
    back = acl_check.read_sjson_track_list(path)
    assert back["header"] == {"name": '"two"', "num_samples": "2", "sample_rate": "2.0", "is_binary_exact": "false"}
    assert [t["name"] for t in back["tracks"]] == ['"Hips"', '"Arm"']
    assert "parent_index" not in back["tracks"][0] and back["tracks"][1]["parent_index"] == "0"
    for k, track in enumerate(back["tracks"]):
        assert track["type"] == '"qvvf"' and float(track["precision"]) == acl_check.PRECISION_M
        assert float(track["shell_distance"]) == codec.SHELL_M and track["output_index"] == str(k)
        np.testing.assert_array_equal(track["data"][:, :4], rot[:, k])
        np.testing.assert_array_equal(track["data"][:, 4:7], pos[:, k])
        np.testing.assert_array_equal(track["data"][:, 7:], 1.0)


def test_acl_precision_is_its_default_in_metres():
    """ACL's defaults are 0.01 cm and 3 cm (includes/acl/core/track_desc.h), the clip in metres."""
    assert acl_check.PRECISION_M == pytest.approx(0.01 / 100) and codec.SHELL_M == pytest.approx(3 / 100)


CLIP_FACTS = {"01_01": (2752, 31, 120.0), "01_03": (4511, 31, 120.0), "Boxing_Toes": (3069, 21, 100.0)}
"""Frames, ROOT/JOINT bones and frame rate of the Debian clips (issue 30's figures)."""


@pytest.mark.debian_assets
@pytest.mark.parametrize("name", list(CLIP_FACTS))
def test_the_debian_clips_read_as_the_issue_counts_them(name):
    path = codec.BVH_DIR / f"{name}.bvh"
    if not path.is_file():
        reason = f"{path} is missing: install Debian's assimp-testmodels (tools/test_assets.sh)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    b = bvh.read(path)
    frames, joints, fps = CLIP_FACTS[name]
    assert (b.frames, b.joints) == (frames, joints)
    assert b.fps == pytest.approx(fps, rel=1e-5)
    world = b.object_transforms(codec.CLIPS[name])
    assert np.isfinite(world).all()
    # A rigid skeleton: a bone's distance to its parent is its OFFSET's length, every frame.
    for j, p in enumerate(b.parents):
        if p >= 0:
            gap = np.linalg.norm(world[:, j, :3, 3] - world[:, p, :3, 3], axis=-1)
            np.testing.assert_allclose(gap, np.linalg.norm(b.offsets[j]) * codec.CLIPS[name], rtol=1e-9, atol=1e-12)


def two_joint_clip() -> codec.Clip:
    b = two_joints()  # in metres, as the benchmark's clips are
    return codec.Clip("two", b, 1.0, b.object_transforms(), b.local_quaternions(), b.local_translations())


def test_the_codec_row_measures_the_written_file(monkeypatch):
    """bench/codec.py's error is that of the file written, read back and evaluated by the
    reference FK: an encoder that writes the root turned by 1 degree (about its parent's z)
    shows as the chord of 1 degree at Arm's farthest shell vertex (frame 0: 2 m + 3 cm)."""
    clip = two_joint_clip()
    faithful = codec.measure(clip, codec.component_setting(0.01))
    assert faithful["bytes"] > 0 and faithful["max_cm"] < 0.1
    real = codec.encode_clip
    turn = np.array([0.0, 0.0, math.sin(math.radians(0.5)), math.cos(math.radians(0.5))])

    def turned_encoder(frames, setting, parents):
        rot = np.array(frames.rotations)
        rot[:, 0] = bvh.quaternion_product(turn, rot[:, 0])
        return real(type(frames)(rot, frames.translations), setting, parents)

    monkeypatch.setattr(codec, "encode_clip", turned_encoder)
    wrong = codec.measure(clip, codec.component_setting(0.01))
    chord_cm = 2 * math.sin(math.radians(0.5)) * (2 + codec.SHELL_M) * 100
    assert wrong["max_cm"] == pytest.approx(chord_cm, abs=0.1)
    assert wrong["worst"] == "Arm@0"


def test_the_adapter_passes_the_bound_at_acls_shell_and_the_parents(monkeypatch):
    """The one adapter gives the encoder the bound in metres at ACL's 3 cm shell and the
    parents as a list; the default row asks for nothing but the parents."""
    from animspec.animclip.frames.object_space import ObjectTolerance

    calls = []

    def encode(frames, tolerance=None, *, parents=None, **kwargs):
        calls.append((frames, tolerance, parents))
        return "encoded"

    monkeypatch.setattr(codec.encoder, "encode", encode)
    assert "0.01 cm object" in [s.label for s in codec.settings(quick=True)]
    assert codec.encode_clip("frames", codec.Setting("x", max_error=1e-4), np.array([-1, 0, 1])) == "encoded"
    codec.encode_clip("frames", codec.Setting("default"), np.array([-1]))
    assert calls == [("frames", ObjectTolerance(1e-4, 0.03), [-1, 0, 1]), ("frames", None, [-1])]
