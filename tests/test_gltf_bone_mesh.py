"""The stick figure a rig without a mesh gets (gltf/builder.py ``bone_mesh``), checked as
geometry against what its docstring promises, from the bind pose alone: per joint six
vertices skinned to it, the joint and a tip (towards its first child; a leaf half its parent's
bone further; a lone root half the typical bone along its own y, a typical bone being 1 unit
where no bone has a length), a square ring a fifth of the way up at a tenth of the bone's
length around the axis, and eight triangles wound counter-clockwise seen from outside (their
normals point away from the bone's axis).

The mutation run of issue 31 found the shape untested: a swapped winding, a ring off the
axis or a tip at the wrong joint all passed (docs/mutation.md)."""

from __future__ import annotations

import numpy as np
import pytest

from animspec.gltf.builder import bone_mesh
from animspec.skeleton import Skeleton


def _turn(axis, degrees) -> np.ndarray:
    """w, x, y, z of a turn about ``axis``."""
    a = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    h = np.radians(degrees) / 2
    return np.concatenate([[np.cos(h)], np.sin(h) * a])


def _matrix(q) -> np.ndarray:
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _world(skeleton: Skeleton) -> np.ndarray:
    out = np.zeros((skeleton.bone_count, 4, 4))
    for j in range(skeleton.bone_count):
        local = np.eye(4)
        local[:3, :3] = _matrix(skeleton.rest_rotation[j])
        local[:3, 3] = skeleton.rest_translation[j]
        p = skeleton.parents[j]
        out[j] = local if p < 0 else out[p] @ local
    return out


@pytest.fixture
def rig() -> Skeleton:
    """0: a root, turned; 1: its child 2 units up (bone 0 -> 1); 2: a leaf under 1, 1 unit along
    x in 1's space; 3: a second child of 0, 3 units off; 4: a lone root, turned 90 degrees about z."""
    parents = np.array([-1, 0, 1, 0, -1])
    translation = np.array([[0.5, 0.0, 0.0], [0.0, 2.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 3.0], [5.0, 0.0, 0.0]])
    rotation = np.array([_turn((1, 1, 0), 30), _turn((0, 0, 1), 20), [1.0, 0, 0, 0], [1.0, 0, 0, 0],
                         _turn((0, 0, 1), 90)])
    return Skeleton(parents, translation, rotation, [f"j{i}" for i in range(5)])


def t_pose() -> Skeleton:
    """Bones exactly along the axes, as a T-pose's arms are: 0 a root, 1 a spine 1 unit up,
    2 and 3 arms 1 unit along +x and -x with leaves 4 and 5 further along, 6 a foot along z."""
    parents = np.array([-1, 0, 1, 1, 2, 3, 0])
    translation = np.array([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [-1.0, 0.0, 0.0],
                            [1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    return Skeleton(parents, translation, np.tile([1.0, 0.0, 0.0, 0.0], (7, 1)), [f"j{i}" for i in range(7)])


def test_bones_along_the_axes_get_their_rings_too():
    """A bone along x needs a side axis other than x (the cross product with its own axis is
    zero): every bone of a T-pose still gets its square ring, wound the same way."""
    skeleton = t_pose()
    positions, _, _ = bone_mesh(skeleton, _world(skeleton))
    assert np.isfinite(positions).all()
    _rings_are_squares_around_the_bones(skeleton)
    _triangles_face_outwards(skeleton)


def test_bones_along_the_diagonals_get_their_rings_too():
    """A bone along (1, 1, 0) or (1, 0, 1) is no nearer x than others, but it is parallel to
    any side axis with two equal components: the side axis must stay off every bone's
    direction (x, or y for bones nearly along x), so these get their square rings."""
    parents = np.array([-1, 0, -1, 2, -1, 4])
    translation = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [5.0, 0.0, 0.0], [1.0, 0.0, 1.0],
                            [0.0, 5.0, 0.0], [-1.0, 1.0, 0.0]])
    skeleton = Skeleton(parents, translation, np.tile([1.0, 0.0, 0.0, 0.0], (6, 1)), [f"j{i}" for i in range(6)])
    positions, _, _ = bone_mesh(skeleton, _world(skeleton))
    assert np.isfinite(positions).all()
    _rings_are_squares_around_the_bones(skeleton)
    _triangles_face_outwards(skeleton)


def test_each_joint_gets_a_bone_from_itself_to_where_its_docstring_says(rig):
    world = _world(rig)
    positions, joints, triangles = bone_mesh(rig, world)
    origins = world[:, :3, 3]
    assert positions.shape == (30, 3) and list(joints) == [j for j in range(5) for _ in range(6)]
    assert triangles.shape == (40, 3) and triangles.min() == 0 and triangles.max() == 29
    typical = np.median([2.0, 1.0, 3.0])  # the non-root bones' lengths
    tips = {0: origins[1],  # the first child, not the second
            1: origins[2],
            2: origins[2] + 0.5 * (origins[2] - origins[1]),  # a leaf: half its parent's bone on
            3: origins[3] + 0.5 * (origins[3] - origins[0]),
            4: origins[4] + world[4, :3, :3] @ [0.0, 0.5 * typical, 0.0]}  # lone root: its own y
    for j in range(5):
        bone = positions[6 * j: 6 * j + 6]
        np.testing.assert_allclose(bone[0], origins[j], atol=1e-12)
        np.testing.assert_allclose(bone[1], tips[j], atol=1e-12)


def test_joints_all_at_one_point_get_bones_half_a_unit_along_their_own_y():
    """With no bone of any length there is no typical length to scale by: it is 1 unit, so
    every bone (a root, and a child sitting on its parent) is half a unit along its own y."""
    parents = np.array([-1, 0, 0])
    rotation = np.array([_turn((0, 0, 1), 90), [1.0, 0, 0, 0], _turn((1, 0, 0), 90)])
    skeleton = Skeleton(parents, np.zeros((3, 3)), rotation, ["a", "b", "c"])
    world = _world(skeleton)
    positions, _, _ = bone_mesh(skeleton, world)
    for j in range(3):
        np.testing.assert_allclose(positions[6 * j + 1] - positions[6 * j], world[j, :3, :3] @ [0.0, 0.5, 0.0],
                                   atol=1e-12)
    _rings_are_squares_around_the_bones(skeleton)
    _triangles_face_outwards(skeleton)


def test_each_ring_is_a_square_around_the_bone_a_fifth_of_the_way_up(rig):
    _rings_are_squares_around_the_bones(rig)


def _rings_are_squares_around_the_bones(rig: Skeleton) -> None:
    world = _world(rig)
    positions, _, _ = bone_mesh(rig, world)
    for j in range(rig.bone_count):
        root, tip, ring = positions[6 * j], positions[6 * j + 1], positions[6 * j + 2: 6 * j + 6]
        axis = tip - root
        length = np.linalg.norm(axis)
        centre = root + 0.2 * axis
        np.testing.assert_allclose(ring.mean(axis=0), centre, atol=1e-12)
        offsets = ring - centre
        np.testing.assert_allclose(np.linalg.norm(offsets, axis=1), 0.1 * length, rtol=1e-12)
        np.testing.assert_allclose(offsets @ axis, 0.0, atol=1e-12)  # in the plane across the bone
        for k in range(4):  # consecutive corners a quarter turn apart, all turning the same way
            np.testing.assert_allclose(offsets[k] @ offsets[(k + 1) % 4], 0.0, atol=1e-12)
            turn = np.cross(offsets[k], offsets[(k + 1) % 4]) @ axis
            assert turn > 0, (j, k)


def test_triangles_face_outwards(rig):
    _triangles_face_outwards(rig)


def _triangles_face_outwards(rig: Skeleton) -> None:
    world = _world(rig)
    positions, joints, triangles = bone_mesh(rig, world)
    for a, b, c in triangles:
        assert joints[a] == joints[b] == joints[c]
        j = joints[a]
        root, tip = positions[6 * j], positions[6 * j + 1]
        axis = (tip - root) / np.linalg.norm(tip - root)
        normal = np.cross(positions[b] - positions[a], positions[c] - positions[a])
        centroid = (positions[a] + positions[b] + positions[c]) / 3
        outward = centroid - root - ((centroid - root) @ axis) * axis  # away from the axis
        assert normal @ outward > 0, (j, a, b, c)
