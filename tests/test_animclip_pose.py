"""Base pose by joint hash onto a skeleton, and custom tracks sampled in time."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import EXAMPLES

from animspec.animclip import read_file
from animspec.animclip.pose import base_pose, sample_custom_track
from animspec.skeleton import Skeleton


@pytest.fixture(scope="module")
def walk():
    return read_file(EXAMPLES / "walk.animclip").clip((EXAMPLES / "joint_names.txt").read_text().split())


def test_flat_pose_uses_each_joint_base_state(walk):
    pose = base_pose(walk)
    assert pose.skeleton.bone_count == len(pose.matched) == 21
    j = walk.joints[1]  # pelvis: translation (0, 0, 0.95) in the example
    np.testing.assert_allclose(pose.positions[1], j.translation)
    x, y, z, w = j.rotation
    np.testing.assert_allclose(pose.rotations[1], [w, x, y, z])


def test_pose_on_a_named_skeleton_matches_by_hash(walk):
    # A rig of root -> pelvis -> spine_01 plus a bone the clip does not know.
    rig = Skeleton(np.array([-1, 0, 1, 0]), np.array([[0, 0, 0], [0, 0, 5], [0, 0, 5], [1, 0, 0]], float),
                   np.tile([1.0, 0, 0, 0], (4, 1)), ["root", "pelvis", "spine_01", "tail"])
    pose = base_pose(walk, rig)
    assert [bone for _, bone in pose.matched] == [0, 1, 2]
    assert pose.skeleton_only == [3] and len(pose.clip_only) == 18
    np.testing.assert_allclose(pose.translations[3], [1, 0, 0])  # unmatched: rest kept
    # spine_01 hangs from pelvis: its world position is pelvis + pelvis_rotation * (0, 0, 0.12).
    pelvis, spine = walk.joints[1], walk.joints[2]
    qx, qy, qz, qw = pelvis.rotation
    angle = 2 * math.atan2(qz, qw)  # pelvis turns about Z only in the example
    assert abs(qx) < 1e-9 and abs(qy) < 1e-9
    expected = np.array(pelvis.translation) + np.array([
        spine.translation[0] * math.cos(angle) - spine.translation[1] * math.sin(angle),
        spine.translation[0] * math.sin(angle) + spine.translation[1] * math.cos(angle),
        spine.translation[2],
    ])
    np.testing.assert_allclose(pose.positions[2], expected, atol=1e-9)


def test_custom_track_sampling():
    values = np.array([0.0, 1.0, 3.0])
    assert sample_custom_track(values, 30.0, seconds=1 / 60) == pytest.approx(0.5)  # frame 0.5
    assert sample_custom_track(values, 30.0, frame=1.25) == pytest.approx(1.5)
    assert sample_custom_track(values, 30.0, seconds=10.0) == 3.0  # clamped to the last frame
    assert sample_custom_track(values, 30.0, frame=-2) == 0.0
    with pytest.raises(ValueError, match="fps"):
        sample_custom_track(values, 0.0, seconds=1.0)
