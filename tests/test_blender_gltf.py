"""Blender's own glTF export of a rigged scene, converted, must give the ANIMBIN the engine's
Blender exporter would write on that scene (issue 11, item 4).

tests/blender/make_scene.py runs in an interpreter that has Blender's ``bpy`` module (5.0.x
from PyPI; ``make test`` installs it into .venv-blender, see the Makefile). It builds a
12-bone armature (a root with a rest rotation, three branches, rolled bones), moves and turns
the armature OBJECT, keys five actions with different frame ranges at 60 fps, exports a GLB
with the glTF exporter's default settings, and writes the reference ANIMBIN computed from
Blender's evaluated poses by the engine exporter's rules (restated at the top of that
script). The reference shares no code with animspec.

Here the GLB goes through ``animspec convert --region 60`` (the scene's 60 fps on a 60 Hz
display: one Blender frame per vsync) and every key of every bone is compared, roots
included. Quaternions are compared up to sign (q and -q are one rotation; the engine never
blends, so the sign of a key changes nothing on screen).

The ANIMBIN is read back with ``struct`` from the byte layout, not with animspec's reader.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from gltf_reference import multiply as quat_multiply

pytestmark = pytest.mark.blender

SCENE_SCRIPT = ROOT / "tests" / "blender" / "make_scene.py"
BLENDER_VENV_PYTHON = ROOT / ".venv-blender" / "bin" / "python"
INSTALL_HINT = (
    "run `make .venv-blender/.installed` (a venv with `pip install -e '.[blender]'`: Blender's "
    "bpy 5.0.x from PyPI, which exists for Python 3.11 only), or set ANIMSPEC_BPY_PYTHON to an "
    "interpreter that can `import bpy`"
)
FPS = 60


# --- running Blender ---------------------------------------------------------------------


def bpy_python() -> str:
    """The interpreter that runs the scene script; a test failure (never a skip) without one."""
    candidates = [os.environ.get("ANIMSPEC_BPY_PYTHON"), str(BLENDER_VENV_PYTHON), sys.executable]
    tried = []
    for exe in [c for c in candidates if c]:
        if not Path(exe).exists() and not shutil.which(exe):
            tried.append(f"{exe}: not found")
            continue
        probe = subprocess.run([exe, "-c", "import bpy; print(bpy.app.version_string)"],
                               capture_output=True, text=True, timeout=120)
        if probe.returncode == 0:
            return exe
        tail = (probe.stderr.strip().splitlines() or ["no output"])[-1]
        tried.append(f"{exe}: {tail}")
    pytest.fail("no interpreter can import bpy (" + "; ".join(tried) + "): " + INSTALL_HINT, pytrace=False)


def run_in_blender(script: Path, out: Path, timeout: int = 600) -> None:
    """Run ``script OUT`` in the bpy interpreter with the worktree's python/ and blender/ first
    on its path; a test failure with the script's output when it fails."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT / "blender"), env.get("PYTHONPATH", "")])
    proc = subprocess.run([bpy_python(), str(script), str(out)], capture_output=True, text=True, timeout=timeout,
                          env=env)
    assert proc.returncode == 0, f"{script.name} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"


@pytest.fixture(scope="module")
def scene(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("blender")
    run = subprocess.run([bpy_python(), str(SCENE_SCRIPT), str(out)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{SCENE_SCRIPT.name} failed:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    reference = json.loads((out / "reference.json").read_text())
    assert reference["blender"].startswith("5.0"), f"expected Blender 5.0.x, got {reference['blender']}"
    return out / "scene.glb", reference


def fp12_option() -> list[str]:
    """``--fp12 trunc`` when the converter has a truncating mode (then keys must be exact)."""
    helptext = subprocess.run([sys.executable, "-m", "animspec", "convert", "--help"],
                              capture_output=True, text=True, timeout=120).stdout
    return ["--fp12", "trunc"] if "--fp12" in helptext else []


def convert_scene(glb: Path, out: Path, *extra: str) -> tuple[dict, bool, str]:
    trunc = fp12_option()
    # --fit cut: the longest action is 48 frames and the exporter's ALL mode cuts every action
    # to the engine's 30 keys, so the reference holds its first 30 frames.
    cmd = [sys.executable, "-m", "animspec", "convert", str(glb), "--region", str(FPS), "--fit", "cut", "-o", str(out),
           *trunc, *extra]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{' '.join(cmd)} failed:\n{run.stdout}\n{run.stderr}"
    return read_animbin(out.read_bytes()), bool(trunc), run.stdout + run.stderr


@pytest.fixture(scope="module")
def converted(scene, tmp_path_factory) -> tuple[dict, bool, str]:
    """The default conversion: roots stand as in a glTF viewer, the armature object's
    transform included."""
    return convert_scene(scene[0], tmp_path_factory.mktemp("converted") / "scene.animbin")


@pytest.fixture(scope="module")
def converted_armature_space(scene, tmp_path_factory) -> tuple[dict, bool, str]:
    """--armature-space: roots measured as the engine's exporter measures them."""
    return convert_scene(scene[0], tmp_path_factory.mktemp("armature") / "scene.animbin", "--armature-space")


# --- an independent ANIMBIN reader -------------------------------------------------------


def read_animbin(data: bytes) -> dict:
    """The file as plain data, read with struct from the layout (little-endian): magic[7],
    u1 version, u1 count; per animation name[32], u4 flags, u2 length, u2 tracks,
    u2 markers; per track u1 type, u1 joint, u2 keys; per key u2 frame, u1 keyType and
    4 x s2 (w, x, y, z) for a rotation or 3 x s4 for a translation; per marker name[32], u2."""
    assert data[:7] == b"ANIMBIN"
    version, count = data[7], data[8]
    pos = 9
    animations = []
    for _ in range(count):
        name = data[pos : pos + 32].split(b"\0")[0].decode("ascii")
        flags, length, n_tracks, n_markers = struct.unpack_from("<IHHH", data, pos + 32)
        pos += 42
        tracks = []
        for _ in range(n_tracks):
            track_type, joint, n_keys = struct.unpack_from("<BBH", data, pos)
            pos += 4
            keys = []
            for _ in range(n_keys):
                frame, key_type = struct.unpack_from("<HB", data, pos)
                pos += 3
                if key_type == 0:
                    keys.append((frame, struct.unpack_from("<4h", data, pos)))
                    pos += 8
                else:
                    keys.append((frame, None))
                    pos += 12
            tracks.append({"type": track_type, "joint": joint, "keys": keys})
        pos += 34 * n_markers
        animations.append({"name": name, "flags": flags, "length": length, "tracks": tracks, "markers": n_markers})
    assert pos == len(data), f"{len(data) - pos} trailing bytes"
    return {"version": version, "animations": animations}


def rotation_keys(animation: dict, joint: int) -> np.ndarray:
    track = next(t for t in animation["tracks"] if t["joint"] == joint and t["keys"] and t["keys"][0][1] is not None)
    return np.array([v for _, v in track["keys"]], dtype=np.int64)


# --- comparing keys ----------------------------------------------------------------------


def angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    a = np.asarray(a, float) / np.linalg.norm(a)
    b = np.asarray(b, float) / np.linalg.norm(b)
    return math.degrees(2 * math.acos(min(1.0, abs(float(np.dot(a, b))))))


def key_errors(got: np.ndarray, want: np.ndarray, floats: np.ndarray, exact: bool) -> np.ndarray:
    """Per key: the largest component difference in FP12 units, up to the key's sign. With
    ``exact`` (both sides truncate) a component counts as 0 when the reference value lies
    within 0.01 unit of an integer boundary: glTF holds float32, whose rounding can put such
    a value on either side of the boundary, so no converter can be exact there."""
    diff = np.minimum(np.abs(got - want), np.abs(got + want))
    if exact:
        scaled = np.abs(floats * 4096)
        ambiguous = np.abs(scaled - np.rint(scaled)) < 0.01
        diff = np.where(ambiguous & (diff <= 1), 0, diff)
    return diff.max(axis=-1)


def describe_offset(got: np.ndarray, reference: dict, joint: int) -> str:
    """Which reference key each of the first converted keys matches best (a frame shift
    shows as repeated or offset indices), and the rotation D with got[0] = D * reference[0]
    (a constant turn of the root shows there)."""
    floats = np.array(reference["quaternions"])[:, joint]
    best = [int(np.argmin([angle_deg(g, f) for f in floats])) for g in got[:4]]
    d = quat_multiply(got[0] / np.linalg.norm(got[0]), floats[0] * [1, -1, -1, -1])
    d = d if d[0] >= 0 else -d
    axis = d[1:] / (np.linalg.norm(d[1:]) or 1.0)
    turn = math.degrees(2 * math.acos(min(1.0, d[0])))
    text = f"keys 0..3 look like reference keys {best}"
    if turn > 0.5:
        text += f"; key 0 = {turn:.1f} deg about {np.round(axis, 3).tolist()} * reference key 0"
    return text


def check_keys(converted, scene, bones: str) -> None:
    (animbin, exact, _log), (_glb, reference) = converted, scene
    by_name = {a["name"]: a for a in animbin["animations"]}
    roots = [j for j, p in enumerate(reference["parents"]) if p is None]
    joints = roots if bones == "roots" else [j for j in range(len(reference["parents"])) if j not in roots]
    tolerance = 0 if exact else 1
    problems = []
    for clip in reference["animations"]:
        anim = by_name.get(clip["name"])
        if anim is None:
            problems.append(f"{clip['name']}: missing")
            continue
        # The exporter's own bytes (truncated). A rounding converter is within 1 unit of them;
        # clip["keys_round"] holds the rounded encoding for a closer look.
        want_all = np.array(clip["keys_trunc"])
        floats_all = np.array(clip["quaternions"])
        for j in joints:
            got = rotation_keys(anim, j)
            n = min(len(got), len(want_all))
            err = key_errors(got[:n], want_all[:n, j], floats_all[:n, j], exact)
            bad = np.flatnonzero(err > tolerance)
            if len(got) != len(want_all) or bad.size:
                worst = max((angle_deg(got[k], want_all[k, j]) for k in range(n)), default=0.0)
                problems.append(
                    f"{clip['name']} joint {j} ({reference['deform_bones'][j]}): {len(got)} keys for {len(want_all)}, "
                    f"{bad.size} off by more than {tolerance} FP12 unit(s), worst {worst:.2f} deg; "
                    + describe_offset(got, clip, j)
                )
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# --- the tests ---------------------------------------------------------------------------


def test_blender_gltf_layout(scene):
    """What Blender's glTF exporter writes for this scene at default settings: the facts the
    converter has to undo. A change of Blender version that breaks them shows here first."""
    glb, reference = scene
    data = glb.read_bytes()
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20 : 20 + json_len])
    bin_start = 20 + json_len + 8
    nodes = doc["nodes"]

    def floats(accessor: int) -> np.ndarray:
        acc = doc["accessors"][accessor]
        view = doc["bufferViews"][acc["bufferView"]]
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[acc["type"]]
        assert acc["componentType"] == 5126
        start = bin_start + view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        return np.frombuffer(data, np.float32, acc["count"] * width, start).reshape(acc["count"], width)

    # The skin's joints are the deform bones, in deform-bone order (so skin order = joint id).
    skin = doc["skins"][0]
    assert [nodes[j]["name"] for j in skin["joints"]] == reference["deform_bones"]
    # Above the root joint there is exactly one node: the armature object, carrying the
    # object's transform turned to Y-up (q_gltf = (x, z, -y, w) of Blender's (w, x, y, z)).
    root = skin["joints"][0]
    parents = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}
    above = []
    node = root
    while node in parents:
        node = parents[node]
        above.append(node)
    assert [nodes[i]["name"] for i in above] == [reference["armature_object"]["name"]]
    w, x, y, z = reference["armature_object"]["rotation_quaternion_wxyz"]
    np.testing.assert_allclose(nodes[above[0]]["rotation"], [x, z, -y, w], atol=1e-6)
    lx, ly, lz = reference["armature_object"]["location"]
    np.testing.assert_allclose(nodes[above[0]]["translation"], [lx, lz, -ly], atol=1e-6)

    # One glTF animation per action, named after it; rotations baked on every frame from
    # the action's first frame, at the time first_frame / fps (no "slide to zero").
    clips = {c["name"]: c for c in reference["animations"]}
    assert sorted(a["name"] for a in doc["animations"]) == sorted(clips)
    root_rest = nodes[root]["rotation"]
    for anim in doc["animations"]:
        clip = clips[anim["name"]]
        for channel in anim["channels"]:
            if channel["target"]["path"] != "rotation":
                continue
            sampler = anim["samplers"][channel["sampler"]]
            times = floats(sampler["input"])[:, 0]
            np.testing.assert_allclose(times * FPS, np.arange(clip["first_frame"], clip["last_frame"] + 1), atol=1e-3)
            assert sampler["interpolation"] == "LINEAR"
        assert root_rest is not None
    # The engine exporter measures the root in armature space: moving the armature object
    # changes none of its keys (checked in Blender by the scene script).
    assert reference["root_keys_independent_of_object_transform"] is True


def test_clip_headers(converted, scene):
    """Five clips, named after the actions, version 1, looping, no markers, one rotation track
    per deform bone, a key on every frame 0..length-1 and length = last - first + 1 (cut to
    30 for the 48-frame action, as the exporter's ALL mode does)."""
    (animbin, _exact, log), (_glb, reference) = converted, scene
    assert animbin["version"] == 1
    got = {a["name"]: a for a in animbin["animations"]}
    assert sorted(got) == sorted(c["name"] for c in reference["animations"]), log
    problems = []
    for clip in reference["animations"]:
        anim = got[clip["name"]]
        if (anim["flags"], anim["markers"]) != (1, 0):
            problems.append(f"{clip['name']}: flags {anim['flags']} markers {anim['markers']}, want 1 and 0")
        if anim["length"] != clip["length"]:
            problems.append(
                f"{clip['name']} (frames {clip['first_frame']}..{clip['last_frame']}): length {anim['length']}, "
                f"the exporter writes {clip['length']}"
            )
        joints = [t["joint"] for t in anim["tracks"]]
        if joints != list(range(len(reference["deform_bones"]))):
            problems.append(f"{clip['name']}: track joints {joints}")
        for t in anim["tracks"]:
            frames = [f for f, _ in t["keys"]]
            if frames != list(range(clip["length"])) or any(v is None for _, v in t["keys"]):
                problems.append(f"{clip['name']} joint {t['joint']}: key frames {frames[:3]}..{frames[-1:]} ({len(frames)})")
                break
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_child_bone_keys(converted, scene):
    """Every key of every non-root bone: the pose relative to the parent's pose, key k at the
    action's first frame + k, within 1 FP12 unit (exact with a truncating --fp12 mode)."""
    check_keys(converted, scene, "children")


def test_root_bone_keys_in_armature_space(converted_armature_space, scene):
    """Every key of the root bone with --armature-space: the axis change diag(1, -1, -1)
    times the root's pose in Blender's armature space (the armature object's own transform
    left out, as the exporter leaves it out), key k at the action's first frame + k, within
    1 FP12 unit (exact with a truncating --fp12 mode)."""
    check_keys(converted_armature_space, scene, "roots")


def test_child_bone_keys_in_armature_space(converted_armature_space, scene):
    check_keys(converted_armature_space, scene, "children")


def test_root_bone_keys_keep_the_armature_object(converted, scene):
    """By default the root is its glTF world rotation, so the armature object's rotation R
    (this scene turns it by (20, -15, 40) degrees) is part of every root key:
    key = diag(1, -1, -1) * R * pose = D R D^-1 * (the exporter's key). The model then stands
    on the console as it stands in Blender and in a glTF viewer."""
    (animbin, _exact, _log), (_glb, reference) = converted, scene
    d = np.array([0.0, 1.0, 0.0, 0.0])  # diag(1, -1, -1): a half turn about X
    r = np.array(reference["armature_object"]["rotation_quaternion_wxyz"])
    turn = quat_multiply(quat_multiply(d, r), d * [1, -1, -1, -1])
    assert angle_deg(turn, [1.0, 0, 0, 0]) > 10  # the scene's object really is turned
    by_name = {a["name"]: a for a in animbin["animations"]}
    roots = [j for j, p in enumerate(reference["parents"]) if p is None]
    worst = 0.0
    for clip in reference["animations"]:
        floats = np.array(clip["quaternions"])
        for j in roots:
            got = rotation_keys(by_name[clip["name"]], j)
            for k in range(len(got)):
                worst = max(worst, angle_deg(got[k], quat_multiply(turn, floats[k, j])))
    # One FP12 unit per component is at most 2 asin(1/4096) ~ 0.028 degrees (truncation: twice).
    assert worst < 0.06, f"root keys differ from D R D^-1 * exporter key by up to {worst:.3f} deg"


def test_round_trip_imports_into_blender_as_it_was(converted, scene, tmp_path):
    """glTF -> ANIMBIN -> glTF back onto the same rig, imported by Blender's own glTF importer:
    every bone moves a skinned mesh in the world as the original scene does (world pose times
    inverse world rest, a measure that does not depend on how the importer orients bones), at
    every frame the clip holds. Before issue 11 every bone came back turned 90 degrees."""
    (_animbin, _exact, _log), (glb, reference) = converted, scene
    clip_file, back, poses = tmp_path / "clip.animbin", tmp_path / "back.glb", tmp_path / "poses.json"
    for cmd in (
        [str(glb), "--region", str(FPS), "--fit", "cut", "-o", str(clip_file)],
        [str(clip_file), "--skeleton", str(glb), "--region", str(FPS), "-o", str(back)],
    ):
        run = subprocess.run([sys.executable, "-m", "animspec", "convert", *cmd], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
    bones = reference["deform_bones"]
    run = subprocess.run([bpy_python(), str(ROOT / "tests" / "blender" / "import_pose.py"), str(back), str(poses), *bones],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    imported = json.loads(poses.read_text())
    worst = 0.0
    for clip in reference["animations"]:
        name = next((n for n in imported if n == clip["name"] or n.startswith(clip["name"] + "_")), None)
        assert name is not None, f"{clip['name']} not among Blender's imported actions {sorted(imported)}"
        got = imported[name]["deformations"]
        assert len(got) >= clip["length"], f"{name}: {len(got)} frames imported, the clip has {clip['length']}"
        for k in range(clip["length"]):
            for b in range(len(bones)):
                worst = max(worst, angle_deg(got[k][b], clip["world_deformations"][k][b]))
    # FP12 rounding: at most 0.028 degrees per key, added up along a chain of at most 5 bones.
    assert worst < 0.15, f"bones move differently in Blender after the round trip: up to {worst:.3f} deg"


@pytest.fixture(scope="module")
def unturned_scene(tmp_path_factory) -> tuple[Path, dict]:
    """The same scene with the armature object moved but not rotated, as Blender makes it."""
    out = tmp_path_factory.mktemp("blender_unturned")
    run = subprocess.run([bpy_python(), str(SCENE_SCRIPT), str(out), "--unturned"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{SCENE_SCRIPT.name} failed:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    reference = json.loads((out / "reference.json").read_text())
    assert angle_deg(reference["armature_object"]["rotation_quaternion_wxyz"], [1.0, 0, 0, 0]) < 1e-6
    return out / "scene.glb", reference


@pytest.mark.parametrize("bones", ["roots", "children"])
def test_default_conversion_equals_the_exporter_when_the_armature_is_not_turned(unturned_scene, tmp_path, bones):
    """Issue 11's promise for a Blender scene as Blender makes it: the plain conversion, no
    --armature-space, gives the engine exporter's keys for every bone, roots included (the
    armature object's location is not a rotation, so it changes no key)."""
    converted = convert_scene(unturned_scene[0], tmp_path / "scene.animbin")
    check_keys(converted, unturned_scene, bones)
