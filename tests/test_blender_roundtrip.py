"""In Blender, a game clip stands upright at the import operators' defaults, and import ->
export gives the clip back, for both formats (headless bpy).

The test writes a Y-up rig (a glTF, as the game's and glTF's axes are) and a walk made for it
(an .animclip written by animspec's encoder; joints with rest turns, legs and arms pointing
down, swinging about the lateral axis); tests/blender/roundtrip_check.py imports them in
Blender at the operators' defaults, on Blender's own glTF import of the rig, on the armature the
first-pose import builds from it, and (a Luna fixture) on an armature built in edit mode; it
exports the animations back and runs ANIMBIN -> Blender -> ANIMBIN. Here both ends are decoded
with animspec's decoders (the ones ``play`` uses) and compared: every frame's local transforms
within the error asked of the export plus the format's quantisation, and every joint's world
position. What Blender shows is compared with the decoded clip put through forward kinematics
in the game's space and turned into Blender's Z-up by +90 degrees about X (glTF's Y-up to
Blender's Z-up, what Blender's glTF importer does), written out here, not taken from the add-on.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from test_blender_gltf import run_in_blender

from animspec.animbin import read_file as read_animbin
from animspec.animbin.poses import poses
from animspec.animclip import read_file, write_bytes
from animspec.animclip.frames.encode import Frames, encode, joint_hashes, tolerance_for
from animspec.animclip.frames.pose import clip_frames
from animspec.animclip.frames.sections import clip_model
from animspec.common.hashes import crc32
from animspec.meshbin import read_file as read_meshbin
from animspec.meshbin.model import skeleton_from_meshbin
from animspec.skeleton import Skeleton

pytestmark = pytest.mark.blender

CHECK_SCRIPT = ROOT / "tests" / "blender" / "roundtrip_check.py"
LUNA = ROOT / "tests" / "fixtures" / "luna"
EXAMPLES = ROOT / "examples"
FRAMES = 16
FLOAT32 = 2e-5
"""Blender keys and poses in float32: positions of a 2 m rig agree to about 1e-6 (allowed: 2e-5)."""
Y_UP_TO_BLENDER = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])
"""+90 degrees about X: glTF's and the game's up (+Y) to Blender's (+Z), (x, y, z) -> (x, -z, y)."""


# --- a Y-up biped and a walk made for it --------------------------------------------------------


def axis_angle(axis, degrees: float) -> np.ndarray:
    """x, y, z, w."""
    a = math.radians(degrees) / 2
    v = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.array([*(v * math.sin(a)), math.cos(a)])


def multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product of x, y, z, w quaternions."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def matrix(q: np.ndarray) -> np.ndarray:
    x, y, z, w = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


DOWN = axis_angle((0, 0, 1), 180)
"""A limb's rest: its +Y (the way it points) turned down."""
# name, parent, rest translation (in the parent's frame, Y-up metres), rest rotation x y z w
BIPED = [
    ("root", -1, (0.0, 0.0, 0.0), axis_angle((0, 1, 0), 0)),
    ("pelvis", 0, (0.0, 0.95, 0.0), axis_angle((0, 1, 0), 25)),
    ("spine", 1, (0.0, 0.25, 0.02), axis_angle((1, 0, 0), -8)),
    ("head", 2, (0.0, 0.45, 0.0), axis_angle((1, 0, 0), 8)),
    ("thigh_l", 1, (0.1, -0.05, 0.0), DOWN),
    ("shin_l", 4, (0.0, 0.45, 0.0), axis_angle((1, 0, 0), 0)),
    ("thigh_r", 1, (-0.1, -0.05, 0.0), DOWN),
    ("shin_r", 6, (0.0, 0.45, 0.0), axis_angle((1, 0, 0), 0)),
    ("arm_l", 2, (0.2, 0.4, 0.0), multiply(DOWN, axis_angle((0, 0, 1), 10))),
    ("hand_l", 8, (0.0, 0.55, 0.0), axis_angle((0, 1, 0), 30)),
    ("arm_r", 2, (-0.2, 0.4, 0.0), multiply(DOWN, axis_angle((0, 0, 1), -10))),
    ("hand_r", 10, (0.0, 0.55, 0.0), axis_angle((0, 1, 0), -30)),
]
NAMES = [b[0] for b in BIPED]
PARENTS = [b[1] for b in BIPED]
SWING = {"thigh_l": 30, "thigh_r": -30, "arm_l": -20, "arm_r": 20, "spine": 4}
"""Degrees each joint swings about its lateral axis (X) over the step."""


def walk_locals() -> tuple[np.ndarray, np.ndarray]:
    """Per frame and joint, the local rotation (x, y, z, w) and translation of a walk in place."""
    rot = np.empty((FRAMES, len(BIPED), 4))
    pos = np.empty((FRAMES, len(BIPED), 3))
    for f in range(FRAMES):
        a = 2 * math.pi * f / FRAMES
        for j, (name, _, t, q) in enumerate(BIPED):
            swing = axis_angle((1, 0, 0), SWING.get(name, 0) * math.sin(a))
            if name.startswith("shin"):
                phase = a if name.endswith("l") else a + math.pi
                swing = axis_angle((1, 0, 0), -35 * max(0.0, math.sin(phase)))
            rot[f, j] = multiply(q, swing)
            pos[f, j] = t
        pos[f, 1, 1] += 0.03 * math.cos(2 * a)  # the pelvis bobs twice a step
    return rot, pos


def write_rig(path: Path) -> None:
    """The biped as a glTF skin (no mesh, no inverse bind matrices: the rest is the nodes')."""
    nodes: list[dict] = []
    for name, _, t, q in BIPED:
        nodes.append({"name": name, "translation": list(t), "rotation": [float(c) for c in q]})
    for j, parent in enumerate(PARENTS):
        if parent >= 0:
            nodes[parent].setdefault("children", []).append(j)
    gltf = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
            "skins": [{"joints": list(range(len(BIPED))), "skeleton": 0}]}
    path.write_text(json.dumps(gltf))


def write_clip(path: Path) -> None:
    rot, pos = walk_locals()
    encoded = encode(Frames(rot, pos), tolerance_for(0.01, 1e-4), looping=True)
    path.write_bytes(write_bytes(clip_model(encoded, joint_hashes(NAMES), fps=30.0, name="walk_y_up")))


# --- decoding ---------------------------------------------------------------------------------


def decoded(path: Path, names: list[str]):
    """Per frame, the decoded local rotation (x, y, z, w), translation of the joints ``names``."""
    frames = clip_frames(read_file(str(path)), str(path))
    poses_ = frames.frames()
    column = {int(h): j for j, h in enumerate(frames.joint_hashes)}
    cols = [column[crc32(n)] for n in names]
    return frames, poses_.rotation[:, cols], poses_.translation[:, cols]


def world(rot: np.ndarray, pos: np.ndarray, parents: list[int], scl: np.ndarray | None = None) -> np.ndarray:
    """Forward kinematics: per frame and joint, the world 4x4 of local rotations, scales (None:
    1) and translations, each local transform T R S."""
    out = np.zeros((*rot.shape[:2], 4, 4))
    for f in range(rot.shape[0]):
        for j, parent in enumerate(parents):
            local = np.eye(4)
            local[:3, :3], local[:3, 3] = matrix(rot[f, j]), pos[f, j]
            if scl is not None:
                local[:3, :3] = local[:3, :3] * np.asarray(scl[f, j], float)[None, :]
            out[f, j] = local if parent < 0 else out[f, parent] @ local
    return out


def vertex_errors(read: np.ndarray, reference: np.ndarray, shell: float) -> np.ndarray:
    """Object-space error as the Animation Compression Library defines it (nfrechette/acl, its
    "virtual vertex" metric), per frame and joint: three points ``shell`` along the joint's own
    x, y and z axes (its object-space 4x4, scale included) and the joint itself carried along;
    the largest of the three distances between where ``read`` and ``reference`` put them."""
    moved = (read[..., :3, :3] - reference[..., :3, :3]) * shell + (read[..., :3, 3] - reference[..., :3, 3])[..., None]
    return np.linalg.norm(moved, axis=-2).max(axis=-1)


def blender_world(world_clip: np.ndarray) -> np.ndarray:
    """A clip's object space (the game's Y-up) as Blender's armature space: turned +90 degrees
    about X (what a root's quarter turn undoes)."""
    turn = np.eye(4)
    turn[:3, :3] = Y_UP_TO_BLENDER
    return turn @ world_clip


# --- running Blender ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("roundtrip")
    write_rig(out / "biped.gltf")
    write_clip(out / "walk_y_up.animclip")
    convert = [sys.executable, "-m", "animspec", "convert", str(out / "walk_y_up.animclip"), "--skeleton",
               str(out / "biped.gltf"), "-o", str(out / "walk.glb")]
    made = subprocess.run(convert, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    inputs = {"rig": str(out / "biped.gltf"), "clip": str(out / "walk_y_up.animclip"), "frames": FRAMES,
              "glb": str(out / "walk.glb"),
              "luna_clip": str(LUNA / "loop_walk.animclip"), "luna_json": str(LUNA / "loop_walk.json"),
              "swing": str(EXAMPLES / "swing.animbin"), "meshbin": str(EXAMPLES / "pendulum.meshbin")}
    (out / "inputs.json").write_text(json.dumps(inputs))
    run_in_blender(CHECK_SCRIPT, out)
    results = json.loads((out / "roundtrip.json").read_text())
    assert results["blender"].startswith("5.0"), results["blender"]
    return out, results


def shown(case: dict, names: list[str]) -> np.ndarray:
    """Frames x joints x 3: the bone heads Blender showed."""
    return np.stack([np.asarray(case["heads"][n]) for n in names], axis=1)


# --- up is up -------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["gltf_animation", "gltf_first_pose", "rig_first_pose", "rig_animation"])
def test_a_y_up_clip_stands_upright_at_the_defaults(run, case):
    """The Y-up walk on Blender's own glTF import of its Y-up rig, and on the armature the
    first-pose import builds from that rig, each import at its defaults: every joint is where
    the decoded clip puts it in the game's space, turned Z-up as Blender's glTF importer turns
    the rig; the head is above the pelvis and the feet below it on Blender's +Z on every frame."""
    out, results = run
    got = results["y_up"][case]
    assert got["result"] == ["FINISHED"]
    heads = shown(got, NAMES)
    _, rot, pos = decoded(out / "walk_y_up.animclip", NAMES)
    want = world(rot, pos, PARENTS)[: len(heads), :, :3, 3] @ Y_UP_TO_BLENDER.T
    assert np.abs(heads - want).max() < FLOAT32, np.abs(heads - want).max()
    z = heads[..., 2]
    pelvis, head, shin = NAMES.index("pelvis"), NAMES.index("head"), NAMES.index("shin_l")
    assert (z[:, head] > z[:, pelvis] + 0.5).all() and (z[:, shin] < z[:, pelvis] - 0.3).all()
    hands = [NAMES.index("hand_l"), NAMES.index("hand_r")]
    assert (z[:, hands] < z[:, [head]]).all()


def test_the_clip_shows_what_blenders_gltf_importer_shows_of_its_conversion(run):
    """``animspec convert`` of the clip onto its Y-up rig, imported by Blender's own glTF
    importer (rig and animation), and the clip imported by the add-on at its defaults onto that
    armature: on every frame every bone is where Blender's glTF import of the conversion put
    it, so the add-on turns Y-up into Z-up as Blender does; upright."""
    _, results = run
    got = results["glb"]
    assert got["animation"]["result"] == ["FINISHED"] and got["animation"]["action"] != got["blender_gltf"]["action"]
    theirs, ours = shown(got["blender_gltf"], NAMES), shown(got["animation"], NAMES)
    assert len(ours) == FRAMES and np.abs(ours - theirs).max() < FLOAT32, np.abs(ours - theirs).max()
    z = ours[..., 2]
    assert (z[:, NAMES.index("head")] > z[:, NAMES.index("pelvis")] + 0.5).all()


@pytest.mark.parametrize("case", ["built_animation", "built_first_pose"])
def test_a_game_clip_stands_upright_on_an_armature_built_in_blender(run, case):
    """A clip Luna Engine IO Tools wrote from an armature built in Blender (Z-up, edit-mode
    bones with rolls), imported onto that armature at the defaults: the bones are where the
    decoded clip puts them (each bone's frame its joint's; a root in the game's Y-up space,
    turned Z-up), head above hips on every frame."""
    _, results = run
    got = results["luna"][case]
    assert got["result"] == ["FINISHED"]
    record = json.loads((LUNA / "loop_walk.json").read_text())
    names = [j["name"] for j in record["joints"]]
    parents = [j["parent"] for j in record["joints"]]
    heads = shown(got, names)
    _, rot, pos = decoded(LUNA / "loop_walk.animclip", names)
    w = world(rot, pos, parents)[: len(heads)]
    want = w[..., :3, 3] @ Y_UP_TO_BLENDER.T
    assert np.abs(heads - want).max() < FLOAT32, np.abs(heads - want).max()
    z = heads[..., 2]
    assert (z[:, names.index("head")] > z[:, names.index("hips")] + 0.3).all()


# --- import -> export gives the clip back ------------------------------------------------------


EXPORTS = [
    ("gltf_export", "gltf.again.animclip", None, "y_up"),
    ("rig_export", "rig.again.animclip", None, "y_up"),
    ("built_export", "built.again.animclip", LUNA / "loop_walk.animclip", "luna"),
]
DISPLAYED = 5e-3
"""The report writes a length with 3 significant digits: read back, within half a unit of the
third digit."""
SAMPLING = 2e-6
"""The export samples Blender's float32 pose matrices (each child's relative to its parent's):
against the matrices themselves a reader's error differs by about 1e-7 units on these rigs."""


def start_and_names(out: Path, start: Path | None) -> tuple[Path, list[str], list[int]]:
    if start is None:
        return out / "walk_y_up.animclip", NAMES, PARENTS
    record = json.loads((LUNA / "loop_walk.json").read_text())
    return start, [j["name"] for j in record["joints"]], [j["parent"] for j in record["joints"]]


@pytest.mark.parametrize("case, again, start, kind", EXPORTS)
def test_import_then_export_gives_the_clip_back(run, case, again, start, kind):
    """Import at the defaults, export with 'Max Error' and 'Shell Distance' set: decoded with
    animspec's decoder and posed by forward kinematics, every joint's virtual vertices ('Shell
    Distance' along its axes) are where the start's put them within the 'Max Error' asked, plus
    Blender's float32 keys: the root's too (the way in and the way out turn the same quarter
    turn, so a root is not left turned, which would move every vertex by far more)."""
    out, results = run
    got = results[kind][case]
    assert got["result"] == ["FINISHED"]
    start, names, parents = start_and_names(out, start)
    first, rot0, pos0 = decoded(start, names)
    second, rot1, pos1 = decoded(out / again, names)
    assert second.frame_count == first.frame_count and second.fps == first.fps
    assert second.coding.looping == first.coding.looping
    asked, shell = results["errors"]["max_error"], results["errors"]["shell"]
    errors = vertex_errors(world(rot1, pos1, parents), world(rot0, pos0, parents), shell)
    assert errors.max() <= asked + FLOAT32, (errors.max(), asked)
    assert errors.max() > 0.1 * asked  # (the bound was used: the clip is not stored losslessly)


@pytest.mark.parametrize("case, again, start, kind", EXPORTS)
def test_the_reported_object_space_error_is_measured_on_the_written_file(run, case, again, start, kind):
    """The export's report (read back by Blender's unit parser) gives the object-space error of
    the written file: decoded with animspec's decoder, posed by forward kinematics over the
    armature's bone hierarchy, turned into Blender's armature space, against the bones' posed
    matrices Blender showed when it exported, at the 'Shell Distance' asked: max and 99th
    percentile, the worst bone at its frame, the bytes; within the 'Max Error' asked. And the file
    imported back onto the armature puts every bone's virtual vertices within that error."""
    out, results = run
    got = results[kind][case]
    assert got["result"] == got["reimport"] == ["FINISHED"]
    said, shell = got["report"], results["errors"]["shell"]
    assert said is not None, [m["text"] for m in results["messages"] if m["case"] == case.replace("_", " ")]
    assert said["shell"] == pytest.approx(shell, rel=DISPLAYED)
    assert said["bytes"] == (out / again).stat().st_size
    frames = clip_frames(read_file(str(out / again)), str(out / again))
    poses_ = frames.frames()
    column = {int(h): j for j, h in enumerate(frames.joint_hashes)}
    cols = [column[crc32(b)] for b in got["bones"]]
    read = blender_world(world(poses_.rotation[:, cols], poses_.translation[:, cols], got["parents"],
                               poses_.scale[:, cols]))
    source = np.asarray(got["source"], float)
    errors = vertex_errors(read, source, shell)
    assert errors.shape == source.shape[:2]
    assert said["max"] == pytest.approx(errors.max(), rel=DISPLAYED, abs=SAMPLING)
    assert said["p99"] == pytest.approx(np.percentile(errors, 99), rel=DISPLAYED, abs=SAMPLING)
    worst = errors[said["frame"], got["bones"].index(said["bone"])]
    assert worst == pytest.approx(errors.max(), rel=DISPLAYED, abs=SAMPLING)
    assert said["max"] <= results["errors"]["max_error"] * (1 + DISPLAYED)
    back = vertex_errors(np.asarray(got["reimported"], float), source, shell)
    assert back.max() <= said["max"] * (1 + DISPLAYED) + SAMPLING, (back.max(), said["max"])


def animbin_ticks(path: Path, skeleton=None):
    """Per animation, what ``play`` computes: the engine's FP12 rotation of every joint on every
    vsync, and joint positions on ``skeleton``."""
    animations = read_animbin(str(path)).animations
    return {str(a.name): poses(a, mode="engine", region="ntsc", skeleton=skeleton) for a in animations}


def test_animbin_import_then_export_at_the_defaults_plays_the_same(run):
    """swing.animbin imported onto the pendulum MESHBIN's armature and exported at the
    defaults: the console plays the same FP12 rotations on every vsync and puts every joint
    where it was (the file's own integers are kept where Blender's pose still rounds to them)."""
    out, results = run
    got = results["animbin"]
    assert got["pendulum_import"] == ["FINISHED"] and got["pendulum_export"] == ["FINISHED"]
    skeleton = skeleton_from_meshbin(read_meshbin(str(EXAMPLES / "pendulum.meshbin")))
    start = animbin_ticks(EXAMPLES / "swing.animbin", skeleton)
    again = animbin_ticks(out / "swing.again.animbin", skeleton)
    assert list(again) == list(start)
    for name, sequence in start.items():
        np.testing.assert_array_equal(again[name].rotations, sequence.rotations)
        np.testing.assert_allclose(again[name].positions, sequence.positions, atol=1e-9)


def test_animbin_import_then_export_on_an_armature_built_in_blender(run):
    """An ANIMBIN exported from an armature built in Blender (Z-up, a root pointing up, bones
    turned from their parents), imported onto a fresh copy and exported again from Blender's
    poses alone (not the file's integers): on every vsync the console's FP12 rotations are the
    start's within one FP12 step per component (the rounding of Blender's float32 pose), the
    root's included: the half turn into the console's space is undone on the way back; every
    joint, posed on the armature's skeleton, is where it was within what one step allows."""
    out, results = run
    got = results["animbin"]
    assert got["built_start"] == ["FINISHED"] and got["built_import"] == ["FINISHED"]
    assert got["built_export"] == ["FINISHED"]
    rig = got["built_skeleton"]
    n = len(rig["names"])
    skeleton = Skeleton(np.asarray(rig["parents"]), np.asarray(rig["translation"], float),
                        np.tile([1.0, 0.0, 0.0, 0.0], (n, 1)), rig["names"])
    start = animbin_ticks(out / "built.animbin", skeleton)
    again = animbin_ticks(out / "built.again.animbin", skeleton)
    assert sorted(again) == sorted(start) == ["swing", "walk"]
    for name, sequence in start.items():
        a, b = np.asarray(again[name].rotations, int), np.asarray(sequence.rotations, int)
        assert a.shape == b.shape and len(a) > 1
        apart = np.minimum(np.abs(a - b).max(-1), np.abs(a + b).max(-1))  # q and -q: one rotation
        assert apart.max() <= 1, (name, int(apart.max()))
        # One FP12 step per component turns a joint by at most 4 / 4096 rad; a joint has at most
        # 4 ancestors on this rig, each at most 2.5 units away: 4 x 1e-3 x 2.5 = 1e-2 units
        # (measured: 6.9e-4). In the console's space, whose up is -Z.
        moved = np.linalg.norm(np.asarray(again[name].positions) - np.asarray(sequence.positions), axis=-1)
        assert moved.max() < 1e-2, (name, float(moved.max()))
    travel = np.ptp(np.asarray(start["walk"].positions), axis=0).max()  # the walk moves a joint (the shin)
    assert travel > 0.1, travel


def test_a_missing_action_is_named_with_the_actions_there_are(run):
    """'Named actions' with a name no action has: the message names what was asked, the
    nearest action, the armature's actions, and the panel's field to correct."""
    _, results = run
    assert results["animbin"]["named_missing"] == ["CANCELLED"]
    errors = [m["text"] for m in results["messages"] if m["case"] == "named missing" and m["level"] == "ERROR"]
    assert len(errors) == 1, errors
    text = errors[0]
    for part in ("'Named actions' asks for 'swng', 'wav'", "(did you mean 'swing'?)",
                 "armature 'pendulum' has 'swing', 'nod'", "'Names' on the Export panel"):
        assert part in text, (part, text)
