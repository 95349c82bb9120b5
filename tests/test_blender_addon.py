"""The Blender add-on (blender/animspec_blender, issue 16), driven headless with Blender's
``bpy`` module.

tests/blender/addon_check.py runs once in the bpy interpreter (see
tests/test_blender_gltf.py for how it is found) with this worktree's python/ and blender/
first on its path. It imports the ANIMBIN examples onto the armature it builds from
examples/pendulum.meshbin, reads back what Blender shows, exports with the add-on, and
exports a hand-keyed action through Blender's own glTF exporter too. The checks here compare
that with the files themselves (read with ``struct``), with ``animspec play --mode engine``
and with ``animspec convert``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import EXAMPLES, ROOT
from test_blender_gltf import bpy_python, read_animbin

pytestmark = pytest.mark.blender

CHECK_SCRIPT = ROOT / "tests" / "blender" / "addon_check.py"
ARTEFACTS = ROOT / "test-output" / "blender_addon"
POSE_TOLERANCE_UNITS = 0.05
"""How far (in FP12 units, 1/4096) a pose read back from Blender may be from the key it
shows: float32 matrices, far below the file's own resolution of 1 unit."""


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("addon")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT / "blender"), env.get("PYTHONPATH", "")])
    proc = subprocess.run([bpy_python(), str(CHECK_SCRIPT), str(out)], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, f"{CHECK_SCRIPT.name} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    results = json.loads((out / "results.json").read_text())
    results["stdout"] = proc.stdout
    assert results["blender"].startswith("5.0"), results["blender"]
    return out, results


def file_keys(data: bytes) -> list[tuple[str, int, int, np.ndarray]]:
    """(animation, joint, frame, raw w x y z) of every rotation key, read with struct."""
    keys = []
    for anim in read_animbin(data)["animations"]:
        for track in anim["tracks"]:
            for frame, value in track["keys"]:
                if value is not None:
                    keys.append((anim["name"], track["joint"], frame, np.array(value, dtype=np.int64)))
    return keys


def renormalised(raw: np.ndarray) -> np.ndarray:
    """What a key becomes through a tool that keeps only unit rotations (Blender), rounded."""
    return np.rint(raw / np.linalg.norm(raw) * 4096).astype(np.int64)


def units_apart(a, b) -> float:
    """Largest component difference, in FP12 units, of two rotations given as quaternions
    of any length (normalised first), up to sign."""
    a = np.asarray(a, float) / np.linalg.norm(a)
    b = np.asarray(b, float) / np.linalg.norm(b)
    return float(min(np.abs(a - b).max(), np.abs(a + b).max()) * 4096)


# --- import, then export -------------------------------------------------------------------


@pytest.mark.parametrize("example", ["swing", "sparse"])
def test_round_trip_gives_back_the_same_bytes(run, example):
    out, results = run
    original = (EXAMPLES / f"{example}.animbin").read_bytes()
    got = (out / f"{example}.keep.animbin").read_bytes()
    assert got == original
    # The file's own integers were put back exactly where Blender's unit rotation rounds to a
    # different integer, and nowhere else (the rest came through the conversion as they are).
    expected = sum(not np.array_equal(renormalised(raw), raw) for *_, raw in file_keys(original))
    assert results[example]["keep"]["kept"] == expected
    assert results[example]["keep"]["findings"] == [] or all(
        f["severity"] != "error" for f in results[example]["keep"]["findings"]
    )


@pytest.mark.parametrize("example", ["swing", "sparse"])
def test_round_trip_without_the_stored_values_differs_only_where_blender_normalises(run, example):
    """Without the stored FP12 values every key is what Blender's pose gives: the file's key
    where it is the rounding of its own unit rotation, else that rounding (1 unit away)."""
    out, _ = run
    original = file_keys((EXAMPLES / f"{example}.animbin").read_bytes())
    plain = file_keys((out / f"{example}.plain.animbin").read_bytes())
    assert [k[:3] for k in plain] == [k[:3] for k in original]
    differing = 0
    for (name, joint, frame, raw), (*_, got) in zip(original, plain):
        want = renormalised(raw)
        assert np.array_equal(got, want) or np.array_equal(got, -want), (name, joint, frame, raw, got)
        differing += not np.array_equal(got, raw)
        assert np.abs(got - raw).max() <= 1
    # examples/swing.animbin: 10 of its 140 keys; sparse: 2 of 24 (see exporter.py).
    assert differing == {"swing": 10, "sparse": 2}[example]


@pytest.mark.parametrize("example", ["swing", "sparse"])
def test_imported_pose_at_every_key_is_the_files_rotation(run, example):
    _, results = run
    original = file_keys((EXAMPLES / f"{example}.animbin").read_bytes())
    poses = results[example]["poses"]
    assert [(p["animation"], p["joint"], p["frame"]) for p in poses] == [k[:3] for k in original]
    worst = max(units_apart(p["pose"], raw) for p, (*_, raw) in zip(poses, original))
    assert worst < POSE_TOLERANCE_UNITS, f"a pose is {worst:.4f} FP12 units from its key"


def test_markers_and_loop_flags_are_kept_on_the_actions(run):
    _, results = run
    assert results["swing"]["markers"] == {"swing": [["left", 7], ["right", 22]], "nod": []}
    assert results["swing"]["looping"] == {"swing": True, "nod": False}
    assert results["swing"]["import_warnings"] == []


def test_an_edited_action_is_sampled_afresh(run):
    """A key added after the import: the stored layout no longer describes the action."""
    _, results = run
    for example in ("swing", "sparse"):
        assert results[example]["edited"]["fresh"] == ["swing"]
        assert results[example]["keep"]["fresh"] == []


# --- as the console shows it ---------------------------------------------------------------


@pytest.mark.parametrize("clip", ["swing/swing", "swing/nod", "sparse/swing"])
def test_console_view_is_the_engine_playback_tick_by_tick(run, clip):
    _, results = run
    example, name = clip.split("/")
    cmd = [sys.executable, "-m", "animspec", "play", str(EXAMPLES / f"{example}.animbin"), "--anim", name,
           "--mode", "engine", "--json", "--skeleton", str(EXAMPLES / "pendulum.meshbin")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    ticks = json.loads(proc.stdout)["ticks"]
    shown = results["console"][clip]
    assert shown["interpolations"] == ["CONSTANT"]
    assert len(shown["ticks"]) == len(ticks)
    worst = 0.0
    for engine, blender in zip(ticks, shown["ticks"]):
        for joint in engine["joints"]:
            j = joint["joint"]
            worst = max(worst, units_apart(blender["pose"][j], joint["rotation"]))
            # CONSTANT: half a frame later the pose has not moved.
            assert units_apart(blender["half_frame_later"][j], blender["pose"][j]) < POSE_TOLERANCE_UNITS
    assert worst < POSE_TOLERANCE_UNITS, f"{clip}: Blender shows up to {worst:.4f} FP12 units off the engine"


# --- export of an authored action ----------------------------------------------------------


def test_export_equals_convert_of_blenders_own_gltf(run, tmp_path):
    """A hand-keyed Bezier action on a moved and turned armature: the add-on's export
    against `animspec convert --armature-space` of the GLB Blender's glTF exporter writes at
    its defaults, within one FP12 unit per component; the add-on adds the pose marker and
    the action's loop flag, which the plain GLB does not carry."""
    out, results = run
    converted = tmp_path / "wiggle.animbin"
    cmd = [sys.executable, "-m", "animspec", "convert", str(out / "wiggle.glb"), "--armature-space",
           "--region", "60", "--fit", "bake", "-o", str(converted)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    mine = read_animbin((out / "wiggle.addon.animbin").read_bytes())
    theirs = read_animbin(converted.read_bytes())
    (a,), (b,) = mine["animations"], theirs["animations"]
    assert (a["name"], a["length"]) == (b["name"], b["length"]) == ("wiggle", 24)
    assert [(t["joint"], [f for f, _ in t["keys"]]) for t in a["tracks"]] == [
        (t["joint"], [f for f, _ in t["keys"]]) for t in b["tracks"]
    ]
    worst = max(
        units_apart(ka[1], kb[1]) for ta, tb in zip(a["tracks"], b["tracks"]) for ka, kb in zip(ta["keys"], tb["keys"])
    )
    assert worst <= 1.0, f"keys differ by up to {worst:.3f} FP12 units"
    assert a["flags"] == 0 and b["flags"] == 1  # the action's animbin_looping = False
    assert a["markers"] == 1 and b["markers"] == 0  # pose marker "hit"
    data = (out / "wiggle.addon.animbin").read_bytes()
    assert b"hit\0" in data and data[data.index(b"hit\0") + 32 : data.index(b"hit\0") + 34] == (8).to_bytes(2, "little")


def test_clips_over_the_engine_limits_are_refused_and_nothing_is_written(run):
    _, results = run
    refusals = results["refusals"]
    assert refusals["long_bake"]["refused"] and "48 frames" in refusals["long_bake"]["message"]
    assert "Fit 'Best fit'" in refusals["long_bake"]["message"] and "--" not in refusals["long_bake"]["message"]
    assert refusals["six_actions"]["refused"] and "holds 5 per ANIMBIN file" in refusals["six_actions"]["message"]
    assert refusals["validator_error"]["refused"] and refusals["validator_error"]["codes"] == ["too-many-keys"]
    assert "too-many-keys" in refusals["validator_error"]["message"]
    assert not any(refusals[name]["file_exists"] for name in ("long_bake", "six_actions", "validator_error"))


def test_render_of_an_imported_frame(run):
    """Frame 7 of the imported swing (the "left" marker), workbench engine: kept in
    test-output/blender_addon/ to look at. The picture must show something."""
    out, results = run
    assert "render_error" not in results, results.get("render_error")
    from matplotlib.image import imread

    picture = out / "swing_frame7.png"
    pixels = imread(str(picture))
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(picture, ARTEFACTS / picture.name)
    assert pixels.shape[:2] == (320, 320)
    covered = np.mean(np.any(np.abs(pixels[..., :3] - pixels[0, 0, :3]) > 0.1, axis=-1))
    assert 0.005 < covered < 0.5, f"{covered:.3%} of the picture differs from its background"


def test_file_menu_operators(run):
    """Registered as Blender registers the add-on: import with a MESHBIN, export back to the
    same bytes, refuse to replace a file without Overwrite, refuse an unknown action."""
    _, results = run
    ops = results["operators"]
    assert ops["import"] == [["FINISHED"], None]
    assert ops["armature"] == "pendulum"
    assert ops["export"] == [["FINISHED"], None] and ops["export_bytes_equal"]
    assert ops["export_again"][0] == ["CANCELLED"] and "tick Overwrite" in ops["export_again"][1]
    assert ops["export_overwrite"] == [["FINISHED"], None]
    assert ops["export_refused"][0] == ["CANCELLED"] and "nope" in ops["export_refused"][1]
    # The validator's findings in Blender's report (printed in background mode), file written.
    assert ops["export_sparse"] == [["FINISHED"], None]
    report = results["stdout"].split("--- export of sparse.animbin ---")[1].split("--- end ---")[0]
    assert report.count("Warning: sparse-keys: animation 0 ('swing'), track") == 4, report[-3000:]
    assert not ops["refused_exists"]


# --- the extension package -----------------------------------------------------------------


def test_extension_zip_builds_installs_and_works(tmp_path):
    """`tools/build_blender_extension.py --no-wheels` (offline; `make blender-extension`
    adds the wheels): Blender's own extension tool builds and validates the zip, Blender
    installs it from disk into an isolated user folder, and its operators import and export
    swing.animbin to the same bytes (the library from this worktree's python/ here, since
    the zip has no wheels)."""
    build = subprocess.run([sys.executable, str(ROOT / "tools" / "build_blender_extension.py"), "--no-wheels",
                            "--out", str(tmp_path / "build")], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    zip_path = tmp_path / "build" / "animspec_blender-0.1.0.zip"
    import zipfile

    with zipfile.ZipFile(zip_path) as z:
        names = sorted(z.namelist())
    sources = sorted(p.name for p in (ROOT / "blender" / "animspec_blender").iterdir() if p.suffix in (".py", ".toml"))
    assert names == sources
    env = dict(os.environ, BLENDER_USER_RESOURCES=str(tmp_path / "user"), PYTHONPATH=str(ROOT / "python"))
    run = subprocess.run([bpy_python(), str(ROOT / "tests" / "blender" / "install_extension.py"), str(zip_path), str(tmp_path)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    result = json.loads((tmp_path / "installed.json").read_text())
    assert result["install"] == ["FINISHED"]
    assert "bl_ext.user_default.animspec_blender" in result["modules"]
    assert result["import"] == ["FINISHED"] and result["export"] == ["FINISHED"] and result["same_bytes"]


def test_round_trip_on_pal_from_frame_1_with_a_control_bone(run):
    """Region PAL (scene at 50 fps), keys from Blender frame 1, a non-deform bone in the
    armature: still the same bytes; exporting only the named action gives that clip alone."""
    out, results = run
    variant = results["variant"]
    assert variant["fps"] == [50, 1.0]
    assert variant["frame_ranges"] == {"swing": [1.0, 30.0], "nod": [1.0, 20.0]}
    assert variant["markers"]["swing"] == [["left", 8], ["right", 23]]
    original = (EXAMPLES / "swing.animbin").read_bytes()
    assert (out / "swing.pal.animbin").read_bytes() == original
    nod = read_animbin((out / "nod.pal.animbin").read_bytes())
    assert [a["name"] for a in nod["animations"]] == ["nod"]
    assert nod["animations"][0] == read_animbin(original)["animations"][1]


def test_a_long_action_fits_in_30_keys_with_best_fit(run):
    """The 48-frame action refused with --fit bake exports with the default best fit: at
    most 30 keys per track, the length kept, no error from the validator."""
    out, results = run
    best = results["refusals"]["long_best"]
    (anim,) = read_animbin((out / "long_best.animbin").read_bytes())["animations"]
    assert anim["length"] == 48
    assert all(len(t["keys"]) <= 30 for t in anim["tracks"]) and len(anim["tracks"]) == 4
    assert "too-many-keys" not in best["findings"]
    assert any("x 30 key(s) (best)" in line for line in best["lines"])


# --- .animclip base pose -------------------------------------------------------------------


def test_animclip_base_pose_on_an_armature_from_its_rig(run):
    """walk.animclip onto the armature built from biped_rig.glb: every bone's world transform
    equals animspec's own first frame of the clip on that rig (forward kinematics of Base
    State plus sample 0, matched by name hash; walk animates its joints, so Base State alone
    would differ) in the game's Y-up space, turned into Blender's Z-up by +90 degrees about X
    (the armature is built Z-up, as Blender's glTF importer builds it, and a root bone is in the
    game's space turned so: the defaults); the clip's custom tracks are on the action."""
    from animspec.animclip import read_file
    from animspec.animclip.frames.pose import first_frame_pose
    from animspec.gltf import skeleton_from_gltf

    _, results = run
    clip_result = results["animclip"]
    assert clip_result["operator"] == ["FINISHED"]
    skeleton = skeleton_from_gltf(str(EXAMPLES / "biped_rig.glb"))
    model = read_file(str(EXAMPLES / "walk.animclip"))
    clip = model.clip()
    pose = first_frame_pose(model, skeleton)
    assert len(pose.matched) == 21 and clip_result["bones"] == skeleton.names
    assert clip_result["action"] == clip.name
    y_up_to_blender = np.array([[1.0, 0, 0, 0], [0, 0, -1.0, 0], [0, 1.0, 0, 0], [0, 0, 0, 1.0]])
    worst_pos = worst_rot = 0.0
    for i, name in enumerate(skeleton.names):
        got = np.array(clip_result["world"][name])
        want = y_up_to_blender @ pose.world[i]
        worst_pos = max(worst_pos, float(np.abs(got[:3, 3] - want[:3, 3]).max()))
        worst_rot = max(worst_rot, float(np.abs(got[:3, :3] - want[:3, :3]).max()))
    assert worst_pos < 1e-5 and worst_rot < 1e-5, (worst_pos, worst_rot)
    assert sorted(clip_result["tracks"]) == sorted(t.name for t in clip.custom_tracks)
    for track in clip.custom_tracks:  # float32 values, kept as Blender's float properties
        np.testing.assert_allclose(clip_result["tracks"][track.name], track.values, rtol=1e-6)
    assert clip_result["fps"] == pytest.approx(clip.fps)


def test_animclip_base_pose_refuses_an_armature_with_other_names(run):
    _, results = run
    assert "no bone of 'pendulum'" in results["animclip"]["unmatched"]


def test_joint_ids_follow_the_meshbin_not_blenders_bone_order(run):
    """Blender lists bones depth first (bone0, bone1, bone3, bone2 here); joint j still drives
    the MESHBIN's bone j, on import and on export."""
    out, results = run
    branching = results["branching"]
    assert branching["blender_order"] == ["bone0", "bone1", "bone3", "bone2"]
    keys = {track["joint"]: track["keys"][1][1] for track in read_animbin((out / "branch.animbin").read_bytes())["animations"][0]["tracks"]}
    for joint, key in keys.items():
        assert units_apart(branching["poses"][f"bone{joint}"], key) < POSE_TOLERANCE_UNITS, joint
    assert (out / "branch.back.animbin").read_bytes() == (out / "branch.animbin").read_bytes()


def test_a_scene_at_another_rate_is_warned_about(run):
    """At 30 fps a console frame is 0.5005 Blender frames: keys land where the console shows
    them in time (frame 29 at Blender frame 14.51), and both directions warn that an export
    samples whole frames only."""
    _, results = run
    off = results["off_rate"]
    assert off["frame_ranges"]["swing"] == pytest.approx([0.0, 29 * 30 / (60000 / 1001)], abs=1e-4)
    assert any("not the region's 59.940" in w for w in off["import"])
    assert any("samples whole frames only" in w for w in off["export"])


# --- issue 24: exact truncation, Blender's words, joint order, budget panel -----------------

UX_SCRIPT = ROOT / "tests" / "blender" / "ux_check.py"
COMMAND_LINE_OPTION = re.compile(r"(?<![\w-])--[a-z]")


@pytest.fixture(scope="module")
def ux(tmp_path_factory) -> tuple[Path, dict]:
    """tests/blender/ux_check.py on the rig of tests/blender/fixture_rig.py (its own run,
    so that `-k` picks these tests without the rest)."""
    out = tmp_path_factory.mktemp("ux")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT / "blender"), env.get("PYTHONPATH", "")])
    proc = subprocess.run([bpy_python(), str(UX_SCRIPT), str(out)], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, f"{UX_SCRIPT.name} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return out, json.loads((out / "ux.json").read_text())


@pytest.mark.parametrize("region", ["ntsc", "pal", "cut"])
def test_truncation_is_the_engine_exporters_on_every_key(ux, region):
    """FP12 'Truncate' with fit 'Every frame': every key of the five actions (rest poses,
    quarter and half turns, a full turn through w = 0, a swing, a walk from frame 1) equals
    what the engine's exporter writes by its own rule, up to the sign chosen for continuity.
    (The restated rule gave the same bytes as the engine's unmodified tools/blender_animbin.py
    on this rig, 912 keys, when this test was written.) "cut": a 48-frame action with fit
    'Cut', against the exporter's own cut (frames first..first + 29)."""
    _, results = ux
    got = results["exact"][region]
    deform = got["deform"]
    identity = half_turns = 0
    for name, frames in got["reference"].items():
        tracks = dict((j, keys) for j, keys in got["keys"][name])
        assert sorted(tracks) == list(range(len(deform))), name
        for joint, keys in tracks.items():
            assert [f for f, _ in keys] == list(range(len(frames))), (name, joint)
            for frame, value in keys:
                want = frames[frame][joint]
                assert value == want or value == [-c for c in want], (name, deform[joint], frame, value, want)
                identity += want == [4096, 0, 0, 0]
                half_turns += sorted(abs(c) for c in want)[-1] >= 4095 and want[0] == 0
    # The fragile cases are there: bones at rest, and exact half turns.
    if region == "cut":
        assert len(got["reference"]["long"]) == 30 and identity > 100, identity
    else:
        assert identity > 300 and half_turns > 10, (identity, half_turns)


def test_bones_that_are_not_exported_make_one_line_not_a_warning_per_channel(ux):
    _, results = ux
    got = results["exact"]["ntsc"]
    assert got["warnings"] == []
    assert [line for line in got["lines"] if "ctrl" in line] == ["not exported (not joints): ctrl; their keys are left out"]


def test_no_message_of_the_add_on_speaks_command_line(ux):
    """Every message the operators showed while each refusal was triggered (and while
    exporting, checking the budget, choosing the joint order): none names a command-line
    option; each refusal was shown and nothing was written."""
    _, results = ux
    messages = results["messages"]
    assert len(messages) > 100
    assert [m["text"] for m in messages if COMMAND_LINE_OPTION.search(m["text"])] == []
    refused = {m["case"] for m in messages if m["level"] == "ERROR"}
    cases = ["long_ntsc", "long_pal", "reduce_ntsc", "reduce_pal", "six_actions", "markers", "no_action",
             "blank_action", "no_names_file", "exists", "nan", "many_joints"]
    assert refused == set(cases)
    assert all(results["refusals"][case] == ["CANCELLED"] for case in cases)
    assert not results["refusals"]["target_exists"]


def errors(results: dict, case: str) -> str:
    (text,) = [m["text"] for m in results["messages"] if m["case"] == case and m["level"] == "ERROR"]
    return text


def test_refusals_name_the_panels_options_and_the_regions_rate(ux):
    _, results = ux
    ntsc, pal = errors(results, "long_ntsc"), errors(results, "long_pal")
    assert "48 frames at 59.94 Hz (NTSC)" in ntsc and "60.06" not in ntsc
    assert "48 frames at 50 Hz (PAL)" in pal
    for option in ("Fit 'Every frame'", "Fit 'Best fit'", "'Cut'", "'Reduce'", "'Max error (degrees)'"):
        assert option in ntsc, option
    reduce = errors(results, "reduce_ntsc")
    # (0.001 degree is below what any FP12 key shows through the engine's Normalize, which
    # reduce measures by: the first bone, the still root, is the first that cannot stay within it)
    assert "bone 'root'" in reduce and "raise 'Max error (degrees)' to" in reduce and "Fit 'Best fit'" in reduce
    joints = errors(results, "many_joints")
    assert "16 joints" in joints and "holds 15" in joints
    assert "'Joint order' to 'Names file' on the Export panel" in joints
    assert results["refusals"]["many_joints_budget"] == [f"refused: {joints}"]
    assert "set Actions to 'Named actions'" in errors(results, "six_actions")
    assert "6 pose markers" in errors(results, "markers")
    assert "have no keys on the bones of armature 'Rig'" in errors(results, "blank_action")


def test_every_quoted_option_in_a_refusal_is_on_the_export_panel(ux):
    """Each word a refusal quotes is a label or a choice the Export panel shows (read from the
    operator's registered properties while its draw() runs), or the name of an action, bone or
    armature of the scene: the joint order the 16-joint refusal points at exists."""
    _, results = ux
    panel = results["export_panel"]
    assert {"which", "chosen", "region", "fit", "fp12", "max_error", "joint_order", "joint_names",
            "save_joint_order", "overwrite"} <= set(panel["drawn"])
    assert panel["labels"]["joint_order"] == {
        "label": "Joint order", "choices": ["Armature's order", "Deform bones", "Names file"]}
    words = {v["label"] for v in panel["labels"].values()} | {c for v in panel["labels"].values() for c in v["choices"]}
    names = set(results["exact"]["ntsc"]["deform"]) | set(results["exact"]["ntsc"]["reference"]) | {
        "long", "fast", "extra", "blank", "nope", "Rig", "Many", "spine"} | {f"b{i}" for i in range(16)}
    quoted = {q for m in results["messages"] if m["level"] == "ERROR" for q in re.findall(r"(?<!\w)'([^']+)'(?!\w)", m["text"])}
    assert quoted - words - names == set()
    assert {"Joint order", "Names file", "Best fit", "Every frame", "Cut", "Reduce", "Max error (degrees)",
            "Named actions"} <= quoted


def test_the_animclip_export_panel_shows_the_joint_local_fields_only_for_that_measure(ux):
    """The .animclip Export panel: 'Max Error' and 'Shell Distance' with 'Error Measure' at
    'Object space' (the default); the two joint-local fields replace 'Max Error' only when
    'Each joint's own' is chosen."""
    _, results = ux
    drawn = results["export_panel"]["animclip"]
    assert drawn["object"] == ["template", "error_measure", "max_error", "shell", "looping", "root_space", "overwrite"]
    assert drawn["local"] == ["template", "error_measure", "max_rotation_error", "max_translation_error", "shell",
                              "looping", "root_space", "overwrite"]


def test_the_options_named_are_the_export_panels_own_labels():
    """The words the refusals use are the labels the Export panel shows (one list feeds both)."""
    import importlib.util

    # wording.py has no bpy in it: loaded on its own, without the add-on's package.
    spec = importlib.util.spec_from_file_location("wording", ROOT / "blender" / "animspec_blender" / "wording.py")
    wording = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wording)
    assert wording.fit_label("best") == "Best fit" and wording.label(wording.JOINT_ORDERS, "file") == "Names file"
    source = (ROOT / "blender" / "animspec_blender" / "__init__.py").read_text()
    for name in ("name=MAX_ERROR_LABEL", "name=JOINT_ORDER_LABEL", "items=JOINT_ORDERS", "items=FITS"):
        assert name in source, name


def test_a_refused_option_is_named_by_its_panel_label():
    """A library refusal carries its option (range or uselessness), and the add-on names it
    by the Export panel's label, never by a command-line flag."""
    import importlib.util

    from animspec.common.ranges import MAX_ERROR_DEG, OptionRangeError
    from animspec.convert import OptionRefused

    spec = importlib.util.spec_from_file_location("wording", ROOT / "blender" / "animspec_blender" / "wording.py")
    wording = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wording)
    with pytest.raises(OptionRangeError) as out_of_range:
        MAX_ERROR_DEG.check(0.0)
    text = wording.in_blender_words(out_of_range.value, region="pal")
    assert text.startswith("'Max error (degrees)' is 0.0: expected a number above 0") and "--" not in text
    refused = OptionRefused("max_error", "tolerance-without-reduce", fit="best")
    assert wording.in_blender_words(refused, region="ntsc") == (
        "'Max error (degrees)' is the tolerance of 'Fit' reduce; with 'Fit' best it does nothing: "
        "give 'Fit' reduce, or leave 'Max error (degrees)' out"
    )


def test_a_nan_key_names_the_action_bone_and_frame(ux):
    _, results = ux
    text = errors(results, "nan")
    assert text.startswith("action 'walk', bone 'leg.L', frame 13: the rotation_quaternion.x key is nan")
    assert "accessor" not in text
    budget_line = [m["text"] for m in results["messages"] if m["case"] == "budget_nan"]
    assert budget_line == [f"refused: {text}"]


def test_joint_order_is_chosen_on_the_export_panel_and_saved_on_the_armature(ux):
    """A names file (another order than Blender's), saved on the armature; the next export
    with 'Armature's order' gives the same bytes; 'Deform bones' numbers the joints in
    deform-bone order, each joint with the same keys as its bone had."""
    out, results = ux
    order = results["joint_order"]
    assert order["file"] == order["armature"] == order["deform"] == ["FINISHED"]
    assert order["saved"] == order["order"] != order["deform_order"]
    from_file = (out / "order_file.animbin").read_bytes()
    assert (out / "order_armature.animbin").read_bytes() == from_file
    by_file = read_animbin(from_file)["animations"]
    by_deform = read_animbin((out / "order_deform.animbin").read_bytes())["animations"]
    for a, b in zip(by_file, by_deform):
        deform_tracks = {t["joint"]: t["keys"] for t in b["tracks"]}
        for track in a["tracks"]:
            bone = order["order"][track["joint"]]
            assert track["keys"] == deform_tracks[order["deform_order"].index(bone)], (a["name"], bone)


def budget_dump(results: dict) -> str:
    return "\n".join(text for text, _ in results["budget"]["ntsc"])


def test_budget_panel_rows(ux):
    _, results = ux
    rows = results["budget"]["ntsc"]
    assert all(ok for _, ok in rows)
    text = budget_dump(results)
    assert "actions: 5 / 5" in text and "file size: " in text
    for action in ("idle_breathe", "quat_sign_flip", "swing", "walk", "turns"):
        for metric in ("frames", "keys per track", "tracks", "markers", "largest error on the console"):
            assert f"{action}: {metric}: " in text, (action, metric)
    assert "tracks: 8 / 50" in text and "keys per track: 30 / 30" in text
    assert "note" not in text  # the scene runs at the region's rate


CONSOLE_ERROR = re.compile(r"largest error on the console: ([^;]+?)(?:;|$)")


@pytest.mark.parametrize("case", ["ntsc", "reduce_24"])
def test_the_budget_panel_and_export_give_one_error_in_the_same_words(ux, case):
    """The panel's "largest error on the console" and Export's, same options: the same figure,
    unit and place, per action (Best fit at the region's rate; Reduce in a 24 fps scene, where
    console frames fall between Blender frames)."""
    _, results = ux
    rows = results["budget"][case]
    panel = [CONSOLE_ERROR.search(r if isinstance(r, str) else r[0]) for r in rows]
    export = [CONSOLE_ERROR.search(m) for m in results["budget"][f"{case}_export"]]
    panel_values = [m[1] for m in panel if m]
    assert panel_values and panel_values == [m[1] for m in export if m], (rows, results["budget"][f"{case}_export"])
    assert all(" deg (" in v and "FP12 units), joint " in v for v in panel_values)


def test_the_add_on_and_the_command_line_share_their_default_errors(ux):
    from animspec.common.ranges import ANIMCLIP_LOCAL_ERRORS
    from animspec.convert.options import DIRECTION_ERRORS

    _, results = ux
    found = results["defaults"]
    clip, animbin = DIRECTION_ERRORS["gltf-animclip"], DIRECTION_ERRORS["gltf-animbin"]
    assert found["same_objects"]
    # (Blender keeps a FloatProperty as float32)
    assert found["animclip_max_error"] == pytest.approx(clip.max_error, rel=1e-6)
    assert found["animclip_shell"] == pytest.approx(clip.shell, rel=1e-6)
    # the object-space bound is a distance: Blender shows it in the scene's length unit
    assert found["animclip_subtypes"] == ["DISTANCE", "DISTANCE"] and found["animclip_units"] == ["LENGTH", "LENGTH"]
    assert found["animclip_labels"] == ["Max Error", "Shell Distance", "Error Measure"]
    assert found["animclip_measure"] == "object"
    assert found["animclip_measures"] == ["Object space", "Each joint's own"]
    assert found["animclip_rotation"] == pytest.approx(ANIMCLIP_LOCAL_ERRORS.max_error, rel=1e-6)
    assert found["animclip_translation"] == pytest.approx(ANIMCLIP_LOCAL_ERRORS.max_translation_error, rel=1e-6)
    assert found["animbin"] == found["budget"] == pytest.approx(animbin.max_error, rel=1e-6)


def test_budget_panel_warns_about_the_scenes_rate(ux):
    """60/1 fps exported for NTSC: keys between frames, and the engine's exporter's keys
    (frame k as key k) measured against this export's; a 24 fps scene turns a 25-frame
    action into 61 console frames."""
    _, results = ux
    at_60 = results["budget"]["ntsc_at_60"]
    assert "note: the scene runs at 60.000 fps, the region at 59.940 Hz" in at_60
    units = float(re.search(r"up to ([0-9.]+) FP12 units", at_60).group(1))
    assert 1.0 < units < 100.0, units
    assert f"{units:.1f} FP12 units\non the test rig in a 60/1 fps scene" in (ROOT / "docs" / "blender.md").read_text()
    assert results["budget"]["walk_frames_at_24"] == [1.0, 25.0]
    at_24 = results["budget"]["at_24"]
    assert "walk: frames: 61 / 65535" in at_24 and "note: walk: 25 scene frames become 61 console frames" in at_24


def test_readme_shows_the_budget_panel_and_the_rendered_rig(ux):
    """The manual's text dump of the budget panel (docs/blender.md) is the panel's rows from this
    run, and its picture is the frame rendered here (kept in test-output/blender_addon/ to compare)."""
    out, results = ux
    readme = (ROOT / "docs" / "blender.md").read_text()
    assert budget_dump(results) in readme
    assert "](blender/budget_rig.png)" in readme
    from matplotlib.image import imread

    pixels = imread(str(out / "budget_rig.png"))
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(out / "budget_rig.png", ARTEFACTS / "budget_rig.png")
    committed = imread(str(ROOT / "docs" / "blender" / "budget_rig.png"))
    assert pixels.shape == committed.shape
    covered = np.mean(np.any(np.abs(pixels[..., :3] - pixels[0, 0, :3]) > 0.1, axis=-1))
    assert 0.005 < covered < 0.5, f"{covered:.3%} of the picture differs from its background"
    assert np.mean(np.abs(pixels - committed) > 0.1) < 0.01  # the same picture, up to the renderer's noise
