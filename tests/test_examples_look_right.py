"""examples/walk.animclip looks like a walk and wave.performanceclip like a wave, the right way
up, as a reader of them sees them.

The clip is converted the way the README shows (``animspec convert walk.animclip --skeleton
biped_rig.glb``), and the glTF written is read back twice, by hand with pygltflib and numpy
(forward kinematics written out here, not animspec's) and by three.js (GLTFLoader and an
AnimationMixer under node): each gives every joint's world position on every frame. The
game's axes are glTF's (docs/axes.md): +Y up, metres, the character facing +Z, so its left
is +X. The checks are a person's: standing upright, hands hanging between head and feet, the
feet taking turns in front, the arms swinging against the legs about the lateral axis, and
the whole walking forward; for the wave, a hand raised over the head going from side to side.
They are also made in the clip's own space (the rig's nodes above
the skeleton left out), since that is what the game plays: a rig that stands a lying clip
up would otherwise hide it.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT
from gltf_reference import slerp
from pygltflib import GLTF2

from animspec.cli import main

UP, FORWARD, LEFT = np.eye(3)[1], np.eye(3)[2], np.eye(3)[0]
JOINTS = ["root", "pelvis", "head", "upperarm_l", "upperarm_r", "hand_l", "hand_r",
          "thigh_l", "thigh_r", "foot_l", "foot_r"]
NODE = shutil.which("node")
THREE_SCRIPT = ROOT / "tests" / "web" / "three_world_positions.mjs"
FPS = 30.0


# --- forward kinematics over the glTF, by hand --------------------------------------------------


def _accessor(gltf: GLTF2, index: int) -> np.ndarray:
    acc = gltf.accessors[index]
    view = gltf.bufferViews[acc.bufferView]
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[acc.type]
    assert acc.componentType == 5126 and view.byteStride in (None, 4 * width)  # float32, packed
    start = (view.byteOffset or 0) + (acc.byteOffset or 0)
    values = np.frombuffer(gltf.binary_blob(), "<f4", acc.count * width, start)
    return values.reshape(acc.count, width).astype(np.float64)


def _quaternion_matrix(q) -> np.ndarray:
    x, y, z, w = np.asarray(q, dtype=np.float64) / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def _sample(times: np.ndarray, values: np.ndarray, interpolation: str, path: str, t: float) -> np.ndarray:
    """A channel's value at time t (glTF 2.0, Animations): held before the first and after
    the last key, STEP or LINEAR between (slerp for rotations)."""
    assert interpolation in ("LINEAR", "STEP"), interpolation
    k = int(np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 1))
    if interpolation == "STEP" or t <= times[0] or k == len(times) - 1:
        return values[k]
    u = (t - times[k]) / (times[k + 1] - times[k])
    return slerp(values[k], values[k + 1], u) if path == "rotation" else (1 - u) * values[k] + u * values[k + 1]


def world_positions(path, names: list[str], frames: int, *, above_skeleton: bool = True) -> np.ndarray:
    """[frame, name, xyz]: each named node's world position with the file's first animation
    at frame / FPS. ``above_skeleton=False`` leaves out every node above the skeleton's root
    joint that is not animated (the rig's armature and turn nodes): the clip's own space."""
    gltf = GLTF2().load(str(path))
    nodes = gltf.nodes
    parent = {c: i for i, n in enumerate(nodes) for c in (n.children or [])}
    animation = gltf.animations[0]
    channels = [(c.target.node, c.target.path, _accessor(gltf, s.input)[:, 0], _accessor(gltf, s.output),
                 s.interpolation) for c in animation.channels for s in [animation.samplers[c.sampler]]]
    animated = {node for node, *_ in channels}
    skin_joints = set(gltf.skins[0].joints)
    rig_above: set[int] = set()
    for j in skin_joints:
        i = parent.get(j)
        while i is not None and i not in skin_joints:
            if i not in animated:
                rig_above.add(i)
            i = parent.get(i)
    index = {n.name: i for i, n in enumerate(nodes)}
    out = np.zeros((frames, len(names), 3))
    for f in range(frames):
        local = []
        for i, n in enumerate(nodes):
            assert n.matrix is None or n.matrix == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
            trs = {"translation": np.array(n.translation or [0, 0, 0], dtype=np.float64),
                   "rotation": np.array(n.rotation or [0, 0, 0, 1], dtype=np.float64),
                   "scale": np.array(n.scale or [1, 1, 1], dtype=np.float64)}
            for node, what, times, values, interpolation in channels:
                if node == i:
                    trs[what] = _sample(times, values, interpolation, what, f / FPS)
            m = np.eye(4)
            if above_skeleton or i not in rig_above:
                m[:3, :3] = _quaternion_matrix(trs["rotation"]) * trs["scale"]
                m[:3, 3] = trs["translation"]
            local.append(m)
        for k, name in enumerate(names):
            i, m = index[name], np.eye(4)
            while i is not None:
                m = local[i] @ m
                i = parent.get(i)
            out[f, k] = m[:3, 3]
    return out


def three_positions(path, names: list[str], frames: int) -> np.ndarray:
    r = subprocess.run([NODE, str(THREE_SCRIPT), str(path), str(FPS), str(frames), *names],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return np.array(json.loads(r.stdout)["positions"])


# --- the converted walk, as three readers see it ------------------------------------------------


@pytest.fixture(scope="module")
def walk_glb(tmp_path_factory):
    out = tmp_path_factory.mktemp("look") / "walk.glb"
    rig = str(EXAMPLES / "biped_rig.glb")
    assert main(["convert", str(EXAMPLES / "walk.animclip"), "--skeleton", rig, "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def frames() -> int:
    from animspec.animclip import read_file
    return read_file(EXAMPLES / "walk.animclip").built.num_frames


@pytest.fixture(scope="module")
def readers(walk_glb, frames) -> dict[str, np.ndarray]:
    assert NODE, "node is needed (three.js reads the glTF)"
    return {
        "world, pygltflib": world_positions(walk_glb, JOINTS, frames),
        "world, three.js": three_positions(walk_glb, JOINTS, frames),
        "clip space, pygltflib": world_positions(walk_glb, JOINTS, frames, above_skeleton=False),
    }


READERS = ["world, pygltflib", "world, three.js", "clip space, pygltflib"]


def _at(positions: np.ndarray, name: str) -> np.ndarray:
    return positions[:, JOINTS.index(name)]


def test_three_js_and_the_hand_reading_agree(readers):
    """Two independent readings of the same file: what three.js shows is what the hand-written
    forward kinematics computes, on every frame, to float32's precision."""
    np.testing.assert_allclose(readers["world, three.js"], readers["world, pygltflib"], atol=2e-5)


def test_the_rig_puts_nothing_between_the_scene_and_the_skeleton(readers):
    """The example rig is in the game's axes, so the clip's space is the scene's: no node
    above the skeleton turns or moves it (a Blender export's armature node, if any, is the
    identity)."""
    np.testing.assert_allclose(readers["clip space, pygltflib"], readers["world, pygltflib"], atol=1e-9)


@pytest.mark.parametrize("reader", READERS)
def test_walk_stands_upright_on_plus_y(readers, reader):
    """On every frame: the pelvis about a metre above the root (the ground), the head 0.5 m
    or more above the pelvis and over it, the hips level and across the lateral axis X."""
    p = readers[reader]
    pelvis, head, root = _at(p, "pelvis"), _at(p, "head"), _at(p, "root")
    assert np.all(np.abs((pelvis - root) @ UP - 0.95) < 0.1), (pelvis - root) @ UP
    rise = head - pelvis
    assert np.all(rise @ UP > 0.5), rise
    assert np.all(np.linalg.norm(rise - np.outer(rise @ UP, UP), axis=1) < 0.15), rise  # over it, not beside
    hips = _at(p, "thigh_l") - _at(p, "thigh_r")
    assert np.all(hips @ LEFT > 0.9 * np.linalg.norm(hips, axis=1)), hips  # left hip on +X: facing +Z


@pytest.mark.parametrize("reader", READERS)
def test_hands_hang_between_head_and_feet(readers, reader):
    """On every frame, both hands below the head (by 0.3 m: not raised) and above both feet,
    and each beside its own hip (left hand on +X), not in front of the face."""
    p = readers[reader]
    head = _at(p, "head") @ UP
    feet = np.maximum(_at(p, "foot_l") @ UP, _at(p, "foot_r") @ UP)
    for side, sign in (("l", 1), ("r", -1)):
        hand = _at(p, f"hand_{side}")
        assert np.all(hand @ UP < head - 0.3), (side, hand @ UP, head)
        assert np.all(hand @ UP > feet + 0.3), (side, hand @ UP, feet)
        assert np.all(sign * ((hand - _at(p, "pelvis")) @ LEFT) > 0.1), (side, hand)


@pytest.mark.parametrize("reader", READERS)
def test_feet_stay_under_the_pelvis_and_take_turns_in_front(readers, reader):
    """Both feet 0.6 m or more below the pelvis on every frame; the left foot ahead of the
    right (along +Z, where the biped faces) by 0.3 m on some frames and behind by 0.3 m on
    others: a stride, not a shuffle or a sideways swing."""
    p = readers[reader]
    pelvis = _at(p, "pelvis") @ UP
    for side in ("l", "r"):
        assert np.all(_at(p, f"foot_{side}") @ UP < pelvis - 0.6), side
    ahead = (_at(p, "foot_l") - _at(p, "foot_r")) @ FORWARD
    assert ahead.max() > 0.3 and ahead.min() < -0.3, ahead
    sideways = (_at(p, "foot_l") - _at(p, "foot_r")) @ LEFT
    assert np.ptp(sideways) < 0.1 * np.ptp(ahead), sideways


@pytest.mark.parametrize("reader", READERS)
def test_arms_swing_against_the_legs_about_the_lateral_axis(readers, reader):
    """Each hand, seen from its shoulder, moves forward and back by 0.15 m or more and hardly
    sideways: a swing about the lateral axis. The left hand is ahead when the left foot is
    behind: the arms swing opposite to the legs. Forward and sideways are the body's own
    here (sideways along the hips, forward across them and up), so that an arm swinging out
    to the side fails even on a body turned the wrong way."""
    p = readers[reader]
    hips = _at(p, "thigh_l") - _at(p, "thigh_r")
    side = hips / np.linalg.norm(hips, axis=1)[:, None]
    ahead = np.cross(side, UP)
    ahead /= np.linalg.norm(ahead, axis=1)[:, None]

    def along(v, axis):
        return np.einsum("fi,fi->f", v, axis)

    for s in ("l", "r"):
        reach = _at(p, f"hand_{s}") - _at(p, f"upperarm_{s}")
        assert np.ptp(along(reach, ahead)) > 0.15, (s, reach)
        assert np.ptp(along(reach, side)) < 0.25 * np.ptp(along(reach, ahead)), (s, reach)
    hands = along(_at(p, "hand_l") - _at(p, "hand_r"), ahead)
    feet = along(_at(p, "foot_l") - _at(p, "foot_r"), ahead)
    assert np.corrcoef(hands, feet)[0, 1] < -0.8, (hands, feet)


@pytest.mark.parametrize("reader", READERS)
def test_walk_moves_forward(readers, reader):
    """The pelvis goes 1 m or more forward (+Z) over the clip, every frame no further back
    than the one before, and neither sideways nor up by more than 0.1 m."""
    p = readers[reader]
    travel = _at(p, "pelvis") - _at(p, "pelvis")[0]
    assert travel[-1] @ FORWARD > 1.0, travel[-1]
    assert np.all(np.diff(travel @ FORWARD) >= -1e-9), travel @ FORWARD
    assert np.all(np.abs(travel @ LEFT) < 0.1) and np.all(np.abs(travel @ UP) < 0.1), travel


# --- the wave ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wave_readers(tmp_path_factory) -> dict[str, np.ndarray]:
    from animspec.animclip import read_file

    out = tmp_path_factory.mktemp("look") / "wave.glb"
    clip = EXAMPLES / "wave.performanceclip"
    assert main(["convert", str(clip), "--skeleton", str(EXAMPLES / "biped_rig.glb"), "-o", str(out)]) == 0
    frames = read_file(clip).built.num_frames
    return {"world, pygltflib": world_positions(out, JOINTS, frames),
            "world, three.js": three_positions(out, JOINTS, frames)}


@pytest.mark.parametrize("reader", ["world, pygltflib", "world, three.js"])
def test_wave_raises_a_hand_over_the_head_and_waves_it(wave_readers, reader):
    """On every frame the right hand is 0.1 m or more above the head and the left one hangs
    below it; the raised hand goes from side to side (along X) by 0.2 m or more, back and
    forth more than once, and never further out than its arm's reach beside the shoulder."""
    p = wave_readers[reader]
    head = _at(p, "head") @ UP
    assert np.all(_at(p, "hand_r") @ UP > head + 0.1), (_at(p, "hand_r") @ UP, head)
    assert np.all(_at(p, "hand_l") @ UP < head - 0.3)
    across = (_at(p, "hand_r") - _at(p, "upperarm_r")) @ LEFT
    assert np.ptp(across) > 0.2, across
    speed = np.diff(across)
    turns = np.count_nonzero(np.diff(np.sign(speed[np.abs(speed) > 1e-6])))
    assert turns >= 3, across
    assert np.all(np.abs(across) < 0.45), across
