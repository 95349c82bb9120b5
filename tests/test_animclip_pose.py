"""Base pose by joint hash onto a skeleton, and custom tracks sampled in time."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT

from animspec.animclip import read_file
from animspec.animclip.frames.pose import base_pose, base_pose_report, sample_custom_track
from animspec.common import jsonfmt
from animspec.common.errors import AnimspecError
from animspec.skeleton import Skeleton


@pytest.fixture(scope="module")
def walk():
    return read_file(EXAMPLES / "walk.animclip").clip((EXAMPLES / "joint_names.txt").read_text().split())


# walk.animclip's Base State starts at DAT1 0x130 (file 0x154); record 1 (pelvis, Joint
# Hashes entry 1 = 0x8E59B33F = crc32("pelvis")) is the 16 bytes at file 0x164:
#   00 00 5a 03 00 00 f4 7f 00 00 33 0f 00 00 00 0c
# qx = 0, qy = 0x035a = 858, qz = 0, qw = 0x7ff4 = 32756; x = 0, y = 0x0f33 = 3891, z = 0;
# log_scale 0, log_scale2 = 0x0c = 12. So the translation is (0, 3891 / 2^12, 0) (Y is up)
# and the rotation (0, 858, 0, 32756) / |(858, 32756)|, a turn about Y whose cosine and sine
# are (qw^2 - qy^2) / n2 and 2 qw qy / n2 with n2 = qw^2 + qy^2 (the /32768 cancels out).
PELVIS_Y = 3891 / 4096  # 0.949951171875
QY, QW = 858, 32756
N2 = QW * QW + QY * QY  # 1073691700
PELVIS_WXYZ = [QW / math.sqrt(N2), 0.0, QY / math.sqrt(N2), 0.0]
COS, SIN = (QW * QW - QY * QY) / N2, 2 * QW * QY / N2  # 1072219372 / n2, 56209296 / n2
# Record 2 (spine_01, 0x449B89DC) at file 0x174: 5a 03 00 00 00 00 f4 7f 00 00 ec 01 00 00 00 0c:
# qx = 858, qw = 32756, y = 0x01ec = 492, log_scale2 12: translation (0, 492 / 4096, 0).
SPINE_Y = 492 / 4096  # 0.1201171875


def test_walk_records_are_the_bytes_the_comments_derive_from():
    data = (EXAMPLES / "walk.animclip").read_bytes()
    assert data[0x164:0x174].hex(" ") == "00 00 5a 03 00 00 f4 7f 00 00 33 0f 00 00 00 0c"
    assert data[0x174:0x184].hex(" ") == "5a 03 00 00 00 00 f4 7f 00 00 ec 01 00 00 00 0c"


def test_flat_pose_uses_each_joint_base_state(walk):
    pose = base_pose(walk)
    assert pose.skeleton.bone_count == len(pose.matched) == 21
    assert pose.skeleton.names[1] == "pelvis"
    np.testing.assert_allclose(pose.translations[1], [0, PELVIS_Y, 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(pose.positions[1], [0, PELVIS_Y, 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(pose.rotations[1], PELVIS_WXYZ, rtol=0, atol=1e-12)
    # The world rotation of a root is its local one: its columns are Ry(angle)'s.
    np.testing.assert_allclose(pose.world[1][:3, :3], [[COS, 0, SIN], [0, 1, 0], [-SIN, 0, COS]], rtol=0, atol=1e-12)
    np.testing.assert_allclose(pose.translations[2], [0, SPINE_Y, 0], rtol=0, atol=1e-12)
    # spine_01 turns about X: (qx, qw) = (858, 32756), so w, x = (32756, 858) / |(32756, 858)|.
    n = math.sqrt(32756 * 32756 + 858 * 858)  # sqrt(1073691700)
    np.testing.assert_allclose(pose.rotations[2], [32756 / n, 858 / n, 0, 0], rtol=0, atol=1e-12)


def test_pose_on_a_named_skeleton_matches_by_hash(walk):
    # A rig of root -> pelvis -> spine_01, plus two bones the clip does not know: "tail"
    # under root and "hip_marker" one unit along X under pelvis.
    rig = Skeleton(np.array([-1, 0, 1, 0, 1]),
                   np.array([[0, 0, 0], [0, 0, 5], [0, 0, 5], [1, 0, 0], [1, 0, 0]], float),
                   np.tile([1.0, 0, 0, 0], (5, 1)), ["root", "pelvis", "spine_01", "tail", "hip_marker"])
    pose = base_pose(walk, rig)
    assert [bone for _, bone in pose.matched] == [0, 1, 2]
    assert pose.skeleton_only == [3, 4] and len(pose.clip_only) == 18
    np.testing.assert_allclose(pose.translations[3], [1, 0, 0])  # unmatched: rest kept
    # Root's record is (0, 0, 0, 32767) with no translation: the identity at the origin.
    np.testing.assert_allclose(pose.positions[0], [0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(pose.positions[1], [0, PELVIS_Y, 0], rtol=0, atol=1e-12)
    # spine_01 sits on pelvis's Y axis, which pelvis's turn about Y leaves in place.
    np.testing.assert_allclose(pose.positions[2], [0, PELVIS_Y + SPINE_Y, 0], rtol=0, atol=1e-12)
    # hip_marker is pelvis's (1, 0, 0) turned by pelvis: (cos, 0, -sin) beside pelvis.
    np.testing.assert_allclose(pose.positions[4], [COS, PELVIS_Y, -SIN], rtol=0, atol=1e-12)
    np.testing.assert_allclose(pose.positions[3], [1, 0, 0], rtol=0, atol=1e-12)
    # The rig itself is not changed: the pose works on copies of its rest values.
    np.testing.assert_array_equal(rig.rest_rotation, np.tile([1.0, 0, 0, 0], (5, 1)))
    np.testing.assert_array_equal(rig.rest_translation[1], [0, 0, 5])


def test_matches_pair_the_clip_joint_with_the_bone(walk):
    # Bones in another order than the clip's joints: pelvis (clip joint 1) is bone 0.
    rig = Skeleton(np.array([-1, -1]), np.zeros((2, 3)), np.tile([1.0, 0, 0, 0], (2, 1)), ["pelvis", "root"])
    pose = base_pose(walk, rig)
    assert pose.matched == [(0, 1), (1, 0)]
    np.testing.assert_allclose(pose.translations[0], [0, PELVIS_Y, 0], rtol=0, atol=1e-12)


def test_joints_without_a_record_or_with_the_ffffffff_hash_are_not_posed():
    # Appendix A: Joint Hashes root, pelvis, FFFFFFFF over 2 Base State records. Swapping the
    # last two hashes gives root, FFFFFFFF (with record 1), pelvis (no record): only root poses.
    from test_animclip_support import appendix_a

    from animspec.animclip import read_bytes

    data = bytearray(appendix_a())
    hashes = 36 + 0x110
    assert data[hashes + 4 : hashes + 8] == bytes.fromhex("3fb3598e") and data[hashes + 8 : hashes + 12] == b"\xff" * 4
    data[hashes + 4 : hashes + 12] = data[hashes + 8 : hashes + 12] + data[hashes + 4 : hashes + 8]
    pose = base_pose(read_bytes(bytes(data)).clip(["root", "x", "pelvis"]))
    assert pose.skeleton.names == ["root"] and pose.matched == [(0, 0)]
    pose = base_pose(read_bytes(appendix_a()).clip(["root", "pelvis"]))  # the third hash has no record
    assert pose.skeleton.names == ["root", "pelvis"] and pose.matched == [(0, 0), (1, 1)]


def test_custom_track_sampling():
    values = np.array([0.0, 1.0, 3.0])
    assert sample_custom_track(values, 30.0, seconds=1 / 60) == pytest.approx(0.5)  # frame 0.5
    assert sample_custom_track(values, 30.0, frame=1.25) == pytest.approx(1.5)
    assert sample_custom_track(values, 30.0, seconds=10.0) == 3.0  # clamped to the last frame
    assert sample_custom_track(values, 30.0, frame=-2) == 0.0
    with pytest.raises(ValueError, match="fps"):
        sample_custom_track(values, 0.0, seconds=1.0)
    with pytest.raises(ValueError, match="fps"):
        sample_custom_track(values, -30.0, seconds=1.0)
    assert sample_custom_track(values, 0.5, seconds=2.0) == 1.0  # a slow clip: frame 1
    assert sample_custom_track(np.array([2.5]), 30.0, frame=4) == 2.5  # one value: always it
    with pytest.raises(ValueError, match="no values"):
        sample_custom_track(np.array([]), 30.0, frame=0)


def test_the_play_report_is_the_pose_and_the_tracks_sampled(walk):
    report = base_pose_report(walk, seconds=0.5)
    pose = base_pose(walk)
    doc = report.to_json()
    assert doc["clip"] == walk.name and doc["fps"] == walk.fps and doc["seconds"] == 0.5
    assert len(doc["joints"]) == pose.skeleton.bone_count == len(pose.matched)
    pelvis = next(j for j in doc["joints"] if j["name"] == "pelvis")
    assert pelvis["rotation"] == pytest.approx(PELVIS_WXYZ, abs=1e-6)
    assert pelvis["translation"] == pytest.approx([0.0, PELVIS_Y, 0.0], abs=1e-6)
    assert doc["custom_tracks"] == {
        t.name: round(sample_custom_track(t.values, walk.fps, seconds=0.5), 6) for t in walk.custom_tracks
    }
    assert len(doc["custom_tracks"]) == len(walk.custom_tracks) > 0
    lines = report.summary().splitlines()
    assert lines[0] == f"{walk.name!r}: base pose on {pose.skeleton.bone_count} bone(s), {len(pose.matched)} posed by joint hash"
    assert not any("not in the skeleton" in line for line in lines)  # no rig given
    named = sum(1 for j in walk.joints if j.name)  # (the fixture's clip has joint names: one line says so)
    assert lines[2 + len(walk.custom_tracks):] == [f"  joint names: {named} of {len(walk.joints)} clip joint(s) named"]


def test_the_play_report_on_a_rig_says_what_did_not_match(walk):
    rig = Skeleton.flat(3)
    rig.names = ["pelvis", "spine_01", "not_in_the_clip"]
    report = base_pose_report(walk, rig)
    assert report.seconds == 0.0
    doc = report.to_json()
    assert doc["unposed_bones"] == [2]
    assert len(doc["unmatched_clip_joints"]) == len(base_pose(walk).matched) - 2
    assert report.summary().splitlines()[1] == (
        f"  {len(doc['unmatched_clip_joints'])} clip joint(s) not in the skeleton, 1 bone(s) not in the clip (rest pose)"
    )


def test_a_custom_track_that_cannot_be_sampled_is_named(walk):
    with pytest.raises(AnimspecError, match=rf"custom track {walk.custom_tracks[0].name!r}: the clip's fps"):
        base_pose_report(dataclasses.replace(walk, fps=None), seconds=1.0)


def test_play_prints_the_library_report():
    # The CLI only prints: its output is the frames report's, byte for byte (--seconds 0.5:
    # the frames up to 0.5 s).
    from animspec.animclip.frames.pose import clip_frames, frames_report

    names = str(EXAMPLES / "joint_names.txt")
    model = read_file(EXAMPLES / "walk.animclip")
    frames = clip_frames(model, str(EXAMPLES / "walk.animclip"))
    frames.frame_sample = frames.frame_sample[:16]
    report = frames_report(model, frames, None, (EXAMPLES / "joint_names.txt").read_text().split())
    assert report.frames.frame_count == 16 and report.frames.animated
    for extra, expected in (([], report.summary() + "\n"), (["--json"], jsonfmt.dumps(report.to_json()) + "\n")):
        r = subprocess.run([sys.executable, "-m", "animspec", "play", str(EXAMPLES / "walk.animclip"), "--seconds", "0.5",
                            "--joint-names", names, *extra], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stdout == expected


def test_play_names_a_clip_without_a_name_by_its_hash_and_says_what_the_frames_show():
    """Spider-Man 2 clips (Luna's among them) hold no name string: the summary shows Built's
    name hash, never "None", and the frame lines say whose frames they are and how sparse."""
    from animspec.animclip.frames.pose import clip_frames, frames_report

    path = ROOT / "tests" / "fixtures" / "luna" / "loop_walk.animclip"
    model = read_file(path)
    assert model.clip_name is None
    text = frames_report(model, clip_frames(model, str(path))).summary()
    first = text.splitlines()[0]
    assert first.startswith(f"clip {model.built.name_hash:08X} (no name in the file): ") and "None" not in first
    assert "the first joint that moves, every 3 frames (--json: every joint and frame):" in text
