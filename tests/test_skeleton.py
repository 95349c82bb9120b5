"""Forward kinematics: a known rotation of a known skeleton gives known world positions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from animspec.skeleton import Skeleton, angle_between, forward_kinematics, quat_multiply, quat_to_matrix, world_positions

S = math.sqrt(0.5)
ROT_Z_90 = (S, 0.0, 0.0, S)  # w, x, y, z: +90 degrees about Z
ID = (1.0, 0.0, 0.0, 0.0)


def test_rest_pose_of_a_chain_stacks_the_bones():
    # The stand-in chain hangs down in the console's model space, where down is +Z (the
    # engine exporter's diag(1, -1, -1) takes Blender's up, +Z, to -Z).
    sk = Skeleton.chain(3, bone_length=2.0)
    pos = world_positions(forward_kinematics(sk, np.tile(ID, (1, 3, 1))))
    np.testing.assert_allclose(pos[0], [[0, 0, 0], [0, 0, 2], [0, 0, 4]], atol=1e-12)


def test_rotating_the_root_swings_the_whole_chain():
    # Root turned +90 degrees about Z maps the chain's -Y direction onto +X:
    # (0, -1, 0) -> (1, 0, 0), so the bones sit at x = 0, 2, 4.
    sk = Skeleton.chain(3, bone_length=2.0, axis=(0.0, -1.0, 0.0))
    rot = np.array([[ROT_Z_90, ID, ID]])
    pos = world_positions(forward_kinematics(sk, rot))
    np.testing.assert_allclose(pos[0], [[0, 0, 0], [2, 0, 0], [4, 0, 0]], atol=1e-12)


def test_rotations_accumulate_down_the_chain():
    # Root and bone 1 each +90 about Z: bone 2 hangs from bone 1 rotated 180 degrees in
    # total, so its offset (0, -2, 0) becomes (0, +2, 0) from bone 1 at (2, 0, 0).
    sk = Skeleton.chain(3, bone_length=2.0, axis=(0.0, -1.0, 0.0))
    rot = np.array([[ROT_Z_90, ROT_Z_90, ID]])
    pos = world_positions(forward_kinematics(sk, rot))
    np.testing.assert_allclose(pos[0], [[0, 0, 0], [2, 0, 0], [2, 2, 0]], atol=1e-12)


def test_branching_hierarchy_and_several_frames():
    # 0 root; 1 and 2 children of 0; 3 child of 2 (two bones at the same depth).
    sk = Skeleton(np.array([-1, 0, 0, 2]), np.array([[0, 0, 0], [1, 0, 0], [-1, 0, 0], [0, 1, 0]], float),
                  np.tile(ID, (4, 1)), ["a", "b", "c", "d"])
    rot = np.array([[ID] * 4, [ROT_Z_90, ID, ID, ID]])
    pos = world_positions(forward_kinematics(sk, rot))
    np.testing.assert_allclose(pos[0], [[0, 0, 0], [1, 0, 0], [-1, 0, 0], [-1, 1, 0]], atol=1e-12)
    # Frame 1: +90 about Z maps (x, y) -> (-y, x).
    np.testing.assert_allclose(pos[1], [[0, 0, 0], [0, 1, 0], [0, -1, 0], [-1, -1, 0]], atol=1e-12)


def test_parent_after_child_is_refused():
    sk = Skeleton(np.array([1, -1]), np.zeros((2, 3)), np.tile(ID, (2, 1)), ["a", "b"])
    with pytest.raises(ValueError, match="bone 0"):
        forward_kinematics(sk, np.tile(ID, (1, 2, 1)))


def test_quaternion_helpers():
    np.testing.assert_allclose(quat_to_matrix(np.array(ROT_Z_90)), [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-12)
    np.testing.assert_allclose(quat_multiply(np.array(ROT_Z_90), np.array(ROT_Z_90)), [0, 0, 0, 1], atol=1e-12)
    assert angle_between(np.array(ID), np.array(ROT_Z_90)) == pytest.approx(90.0)
    assert angle_between(np.array(ROT_Z_90), -np.array(ROT_Z_90)) == pytest.approx(0.0, abs=1e-6)
    np.testing.assert_allclose(quat_to_matrix(np.zeros(4)), np.eye(3))  # zero -> identity
