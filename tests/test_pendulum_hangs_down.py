"""The sample pendulum hangs down and swings in a vertical plane, in every form it ships in.

The console's model space is the engine exporter's: Blender's Z-up armature space through
diag(1, -1, -1), so "down" there is +Z, and in a Y-up glTF world it is -Y. The samples were
once authored as if the console were Y-down, which laid the pendulum on its side in every
viewer; these tests fail if any sample (or the writer's rest pose) stops pointing down.

The forward kinematics here are written out with plain numpy on purpose, not with
animspec.skeleton, so that a mistake in the library's own pose code cannot hide one in the
samples (or the other way round).
"""

from __future__ import annotations

import numpy as np
import pytest
from pygltflib import GLTF2

from animspec.animbin import read_file as read_animbin
from animspec.gltf import animbin_to_gltf
from animspec.meshbin import read_file as read_meshbin
from animspec.rigs import load_skeleton
from conftest import EXAMPLES

DOWN_CONSOLE = np.array([0.0, 0.0, 1.0])
DOWN_GLTF = np.array([0.0, -1.0, 0.0])


def rotation_matrix(w: float, x: float, y: float, z: float) -> np.ndarray:
    """3x3 matrix of a (normalised) quaternion w, x, y, z."""
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def chain_positions(offsets: list[np.ndarray], rotations: list[np.ndarray]) -> np.ndarray:
    """World positions of a parent -> child chain: joint j at parent + parent_world_rot @ offset."""
    world_rot, world_pos, out = np.eye(3), np.zeros(3), []
    for offset, rot in zip(offsets, rotations):
        world_pos = world_pos + world_rot @ offset
        world_rot = world_rot @ rot
        out.append(world_pos)
    return np.array(out)


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def test_meshbin_rest_chain_and_mesh_hang_along_plus_z():
    m = read_meshbin(EXAMPLES / "pendulum.meshbin")
    assert [b.parent for b in m.bones] == [-1, 0, 1, 2]
    assert all(b.rotation == (4096, 0, 0, 0) for b in m.bones)  # identity rest rotations
    joints = chain_positions([np.array(b.position, float) for b in m.bones], [np.eye(3)] * 4)
    assert np.allclose(unit(joints[-1] - joints[0]), DOWN_CONSOLE)
    assert np.all(np.diff(joints[:, 2]) > 0)  # every joint lower than its parent
    # The mesh follows: every vertex at or below the root, the bob (tip's box) lowest, and the
    # whole thing much taller (Z) than wide (X, Y).
    pos = np.array([v.position for v in m.vertices], float)
    assert pos[:, 2].min() == 0 and pos[:, 2].max() == 3 * 64 + 32
    assert np.abs(pos[:, :2]).max() == 16
    tip = np.array([b == 3 for b in m.vertex_bones])
    assert pos[tip, 2].min() == joints[3, 2] and pos[~tip, 2].max() <= joints[3, 2]


def _gltf_world(gltf: GLTF2, node: int, parents: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """World rotation and position of a node from its rest TRS (no scale in these files)."""
    chain = []
    while node is not None:
        chain.append(node)
        node = parents.get(node)
    rot, pos = np.eye(3), np.zeros(3)
    for n in reversed(chain):
        t = np.array(gltf.nodes[n].translation or [0.0, 0.0, 0.0])
        x, y, z, w = gltf.nodes[n].rotation or [0.0, 0.0, 0.0, 1.0]
        pos = pos + rot @ t
        rot = rot @ rotation_matrix(w, x, y, z)
    return rot, pos


def _rest_joint_positions(gltf: GLTF2) -> np.ndarray:
    parents = {c: i for i, n in enumerate(gltf.nodes) for c in (n.children or [])}
    return np.array([_gltf_world(gltf, j, parents)[1] for j in gltf.skins[0].joints])


def test_pendulum_rig_glb_rest_pose_hangs_along_minus_y():
    gltf = GLTF2.load_from_bytes((EXAMPLES / "pendulum_rig.glb").read_bytes())
    joints = _rest_joint_positions(gltf)
    assert np.allclose(unit(joints[-1] - joints[0]), DOWN_GLTF)
    assert np.all(np.diff(joints[:, 1]) < 0)
    # The skinned mesh's bind-pose vertices agree: a tall box hanging below the root.
    acc = gltf.accessors[gltf.meshes[0].primitives[0].attributes.POSITION]
    lo, hi = np.array(acc.min), np.array(acc.max)
    assert hi[1] == pytest.approx(0.0) and lo[1] < -1.5
    assert (hi - lo)[1] > 5 * max((hi - lo)[0], (hi - lo)[2])


def test_animbin_to_gltf_with_the_meshbin_skeleton_hangs_along_minus_y():
    # The writer's rest pose (console root turned into glTF's Y-up world) must point down too.
    data = animbin_to_gltf(read_animbin(EXAMPLES / "swing.animbin"), load_skeleton(EXAMPLES / "pendulum.meshbin"), "ntsc")
    joints = _rest_joint_positions(GLTF2.load_from_bytes(data))
    assert np.allclose(unit(joints[-1] - joints[0]), DOWN_GLTF)


def _console_tip_path(animation, offsets: list[np.ndarray]) -> np.ndarray:
    """Tip position on every frame, each track holding its last key (keys are every frame or
    every 5th: the engine steps between them)."""
    tracks = {t.joint_id: t for t in animation.tracks}
    path = []
    for frame in range(animation.length):
        rots = []
        for j in range(len(offsets)):
            keys = [k for k in tracks[j].keys if k.frame <= frame] if j in tracks else []
            rots.append(rotation_matrix(*keys[-1].quaternion) if keys else np.eye(3))
        path.append(chain_positions(offsets, rots)[-1])
    return np.array(path)


@pytest.mark.parametrize("sample", ["swing.animbin", "sparse.animbin"])
def test_swing_stays_below_the_root_in_the_vertical_x_z_plane(sample):
    offsets = [np.array(b.position, float) for b in read_meshbin(EXAMPLES / "pendulum.meshbin").bones]
    swing = read_animbin(EXAMPLES / sample).animation("swing")
    tip = _console_tip_path(swing, offsets)
    assert np.abs(tip[:, 1]).max() < 1e-9  # a turn about Y never leaves the X-Z plane
    assert tip[:, 2].min() > 0  # always below the root
    assert tip[:, 0].min() < -64 and tip[:, 0].max() > 64  # and out to both sides
    # Seen from the front (console +X to the right), the markers name where the tip is.
    frames = {str(m.name): m.frame for m in swing.markers}
    assert tip[frames["left"], 0] < -64 and tip[frames["right"], 0] > 64


def test_nod_moves_the_tip_out_of_the_swing_plane():
    offsets = [np.array(b.position, float) for b in read_meshbin(EXAMPLES / "pendulum.meshbin").bones]
    nod = read_animbin(EXAMPLES / "swing.animbin").animation("nod")
    # Joint 3's own offset is turned by its parent, not by itself: follow a point one segment
    # below the tip joint instead, which the tip's rotation does move.
    tip = _console_tip_path(nod, offsets + [np.array([0.0, 0.0, 64.0])])
    assert np.abs(tip[:, 0]).max() < 1e-9 and tip[:, 1].min() < -30  # about X: towards -Y
