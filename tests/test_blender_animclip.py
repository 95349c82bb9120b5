"""The Blender add-on's .animclip animation import and export (issue 22 item 4), headless bpy.

tests/blender/animclip_check.py runs once in the bpy interpreter: it builds the rig the
Luna-made fixtures were made on (tests/fixtures/luna; bones with non-identity rest rotations,
rolls, a bone along X) from each fixture's own joint table, imports every fixture with the
add-on, exports (a hand-keyed action with translation and scale keys; imported clips with their
fixture as template), imports the exports again and triggers each refusal. The checks here
compare what Blender shows with what Luna Engine IO Tools' importer gave on the same clips (the
fixtures' JSON) and decode the exported clips with animspec's own decoder.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT
from test_blender_gltf import bpy_python
from test_blender_roundtrip import blender_world, vertex_errors, world

from animspec.animclip import read_file
from animspec.animclip.frames.pose import clip_frames
from animspec.common.hashes import crc32
from animspec.common.ranges import ANIMCLIP_ERRORS

pytestmark = pytest.mark.blender

CHECK_SCRIPT = ROOT / "tests" / "blender" / "animclip_check.py"
LUNA = ROOT / "tests" / "fixtures" / "luna"
FIXTURES = sorted(p.stem for p in LUNA.glob("*.animclip"))
FLOAT32_KEYS = 2e-5
"""Luna keys float32 F-curves and goes through Blender's float32 matrices (its README allows
the same); the add-on keys float32 too."""
ROTATION_TOLERANCE = math.radians(0.05) / 2
"""The export's 'Max rotation error (degrees)' 0.05, per unit-quaternion component (an angle a
moves a unit quaternion by 2 sin(a / 4) < a / 2)."""
TRANSLATION_TOLERANCE = 1e-4
IMPORT_ROUNDING = 5e-6
"""The add-on's import against Luna's on the same clip: both decode the same integers; float32
keys of values up to 11 units differ by about 1e-6 (measured: 1.9e-6 at most, in wide_range)."""
COMMAND_LINE_OPTION = re.compile(r"(?<![\w-])--[a-z]")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("animclip")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT / "blender"), env.get("PYTHONPATH", "")])
    proc = subprocess.run([bpy_python(), str(CHECK_SCRIPT), str(out)], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, f"{CHECK_SCRIPT.name} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    results = json.loads((out / "animclip.json").read_text())
    assert results["blender"].startswith("5.0"), results["blender"]
    return out, results


def fixture(stem: str) -> dict:
    return json.loads((LUNA / f"{stem}.json").read_text())


def rotation_apart(a, b) -> float:
    """Largest component difference of two quaternion arrays (..., 4), each row up to sign."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.minimum(np.abs(a - b).max(-1), np.abs(a + b).max(-1)).max())


def apart(a, b) -> float:
    return float(np.abs(np.asarray(a, float) - np.asarray(b, float)).max())


# --- import ----------------------------------------------------------------------------------


@pytest.mark.parametrize("stem", FIXTURES)
def test_import_shows_what_lunas_importer_gives_on_every_frame(run, stem):
    """Per frame and bone, the clip-local transform Blender shows (rebuilt from the rest matrices
    and the keyed channels) and the channels themselves equal Luna's importer's on the same clip
    (the fixture's ``luna_import``), within float32 rounding."""
    _, results = run
    got, want = results["imports"][stem], fixture(stem)
    assert got["result"] == ["FINISHED"]
    n = want["frames"]
    shown, luna = got["shown"], want["luna_import"]
    assert apart(np.asarray(shown["translation"])[:n], luna["engine_local"]["translation"]) < IMPORT_ROUNDING
    assert rotation_apart(np.asarray(shown["rotation_xyzw"])[:n], luna["engine_local"]["rotation_xyzw"]) < IMPORT_ROUNDING
    assert apart(np.asarray(shown["local_scale"])[:n], luna["engine_local"]["scale"]) < IMPORT_ROUNDING
    assert apart(np.asarray(shown["location"])[:n], luna["pose_basis"]["location"]) < IMPORT_ROUNDING
    assert rotation_apart(np.asarray(shown["rotation_wxyz"])[:n], luna["pose_basis"]["rotation_wxyz"]) < IMPORT_ROUNDING
    assert apart(np.asarray(shown["scale"])[:n], luna["pose_basis"]["scale"]) < IMPORT_ROUNDING


def test_the_rig_has_rest_rotations_that_matter(run):
    """The fixtures' rig is a real test of the conversion: the channels keyed differ from the
    clip-local transforms (rest rotations that are not the identity) on most bones."""
    _, results = run
    shown = results["imports"]["loop_walk"]["shown"]
    local = np.asarray(shown["rotation_xyzw"])[0]
    basis = np.asarray(shown["rotation_wxyz"])[0][:, [1, 2, 3, 0]]
    differ = [rotation_apart(a, b) > 0.1 for a, b in zip(local, basis)]
    assert sum(differ) >= 4, differ


@pytest.mark.parametrize("stem", ["root_motion", "root_motion_loop"])
def test_root_motion_moves_the_armature_object(run, stem):
    """The armature object's motion (engine space, relative to frame 0) is the source's root
    motion within the clip's quantisation (README: 1.2e-4), sample i on frame i; a looping
    clip's extra sample lands on frame N, back at the start of the circle."""
    _, results = run
    got, want = results["imports"][stem]["motion"], fixture(stem)
    src = want["source"]["root_motion"]["engine_relative_to_frame_0"]
    n = want["frames"]
    assert apart(np.asarray(got["translation"])[:n], src["translation"]) < 1.5e-4
    assert rotation_apart(np.asarray(got["rotation_xyzw"])[:n], src["rotation_xyzw"]) < 1e-4
    moved = np.linalg.norm(np.asarray(got["translation"])[:n], axis=1).max()
    assert moved > 0.5, moved
    if want["looping"]:
        assert apart(got["translation"][n], got["translation"][0]) < 1.5e-4
    else:
        luna = want["luna_import"]["root_motion"]["engine_relative_to_frame_0"]
        assert apart(got["translation"], luna["translation"]) < FLOAT32_KEYS * 5


def test_without_root_motion_the_object_stays(run):
    _, results = run
    objects = np.asarray(results["imports"]["loop_walk"]["shown"]["object"])
    assert apart(objects, objects[:1].repeat(len(objects), 0)) == 0


@pytest.mark.parametrize("stem", FIXTURES)
def test_looping_and_rate_are_noted_on_the_action(run, stem):
    _, results = run
    got, want = results["imports"][stem], fixture(stem)
    assert got["looping_property"] is want["looping"]
    assert got["fps_property"] == want["fps"]
    assert got["frame_range"] == [0, max(want["frames"] - 1, 0)]


def test_unmatched_joints_and_bones_make_one_line_each(run):
    _, results = run
    lines = [m for m in results["messages"] if m["case"] == "import_partial"]
    assert results["refusals"]["import_partial"] == ["FINISHED"]
    joints = [m for m in lines if "clip joints with no bone" in m["text"]]
    bones = [m for m in lines if "bones the clip does not move" in m["text"]]
    assert [m["level"] for m in joints] == ["WARNING"] and [m["level"] for m in bones] == ["INFO"]
    assert joints[0]["text"].endswith(f"0x{crc32('hand_l'):08X}")
    assert bones[0]["text"].endswith(": tail_extra")
    assert "5 bone(s) keyed on every frame" in lines[-1]["text"]
    # exported back with the clip as template: the template's joint without a bone, in one line
    assert results["refusals"]["export_partial"] == ["FINISHED"]
    warned = [m["text"] for m in results["messages"] if m["case"] == "export_partial" and m["level"] == "WARNING"]
    assert warned == [f"template joints that no bone names (not in the new clip): 0x{crc32('hand_l'):08X}"]


def test_root_bones_in_the_armatures_axes_on_an_armature_built_from_a_gltf_rig(run):
    """'Root bones': 'Armature's own axes' on the armature Import .animclip base pose builds from
    a glTF rig (bones in the nodes' frames, the rig turned Z-up): each bone's transform relative
    to its parent (a root: to the armature) is, on every frame, the one animspec's decoder gives
    for its joint; exported back (the action remembers the root space) it decodes to the same
    frames within the errors."""
    out, results = run
    got = results["gltf_rig"]
    frames, poses = decoded(ROOT / "examples" / "walk.animclip")
    column = {int(h): j for j, h in enumerate(frames.joint_hashes)}
    cols = [column[crc32(b)] for b in got["bones"]]
    assert len(cols) >= 10 and got["frames"] == frames.frame_count > 1
    heights = got["rest_heights"]  # the armature stands at rest: the rig's Y-up is Blender's +Z
    assert heights["head"] > heights["pelvis"] + 0.5 > heights["foot_l"] + 0.5
    local = got["local"]
    assert apart(local["translation"], poses.translation[:, cols]) < IMPORT_ROUNDING
    assert rotation_apart(local["rotation_xyzw"], poses.rotation[:, cols]) < IMPORT_ROUNDING
    assert apart(local["scale"], poses.scale[:, cols]) < IMPORT_ROUNDING
    again, again_poses = decoded(out / "walk.again.animclip")
    a_cols = [{int(h): j for j, h in enumerate(again.joint_hashes)}[crc32(b)] for b in got["bones"]]
    assert rotation_apart(again_poses.rotation[:, a_cols], poses.rotation[:, cols]) <= ROTATION_TOLERANCE + FLOAT32_KEYS
    assert apart(again_poses.translation[:, a_cols], poses.translation[:, cols]) <= TRANSLATION_TOLERANCE + FLOAT32_KEYS


# --- export ----------------------------------------------------------------------------------


def decoded(path: Path):
    frames = clip_frames(read_file(str(path)), str(path))
    poses = frames.frames()
    return frames, poses


def test_an_exported_action_decodes_within_the_error_asked(run):
    """A hand-keyed action (rotation, translation and non-uniform scale keys on a rig with rest
    rotations) exported without template: animspec's decoder gives, on every frame and joint,
    the transform Blender showed (rebuilt from rest matrices and channels) within the errors
    asked, and the error the export reported is what the decoder measures."""
    out, results = run
    got = results["exports"]["hand"]
    source = got["source"]
    frames, poses = decoded(out / "hand.animclip")
    assert [int(h) for h in frames.joint_hashes] == [crc32(n) for n in got["joints"]]
    assert frames.frame_count == 20 and frames.fps == 30 and not frames.coding.looping
    rot = rotation_apart(poses.rotation, source["rotation_xyzw"])
    pos = apart(poses.translation, source["translation"])
    scl = apart(poses.scale, source["local_scale"])
    assert rot <= ROTATION_TOLERANCE + 1e-6 and pos <= TRANSLATION_TOLERANCE + 1e-6 and scl <= TRANSLATION_TOLERANCE + 1e-6
    assert np.ptp(np.asarray(source["local_scale"])[:, 5, 0]) > 0.3  # the scale keys are there
    # what the export reports is what a reader of the file sees: the angle, the distance, the ratio
    q, want = np.asarray(poses.rotation, float), np.asarray(source["rotation_xyzw"], float)
    angle = np.degrees(2 * np.arccos(np.minimum(np.abs((q * want).sum(-1)), 1.0))).max()
    distance = np.linalg.norm(np.asarray(poses.translation, float) - source["translation"], axis=-1).max()
    ratio = np.abs(np.asarray(poses.scale, float) / source["local_scale"] - 1).max()
    reported = got["error"]
    # (the source here is rebuilt from Blender's float32 matrices: FLOAT32_KEYS per component,
    # as an angle up to 4 x that, from the pose the export sampled, and again in the decode)
    assert reported["rotation"] <= 0.05 and abs(reported["rotation"] - angle) < math.degrees(8 * FLOAT32_KEYS)
    assert abs(reported["translation"] - distance) < 1e-6 and abs(reported["scale"] - ratio) < 1e-6
    assert any(line.startswith("each bone's own error read back: rotation ") for line in got["lines"])


def measured_object_error(out: Path, got: dict, file: str):
    """(F, J) the object-space error of the written clip, measured here: decoded by animspec's
    decoder, posed by forward kinematics over the armature's bone hierarchy (written out in
    tests/test_blender_roundtrip.py, not the library's), turned into Blender's armature space,
    against the bones' posed matrices Blender showed when it exported (``source``)."""
    frames, poses = decoded(out / file)
    column = {int(h): j for j, h in enumerate(frames.joint_hashes)}
    cols = [column[crc32(b)] for b in got["bones"]]
    w = blender_world(world(poses.rotation[:, cols], poses.translation[:, cols], got["parents"],
                            poses.scale[:, cols]))
    source = np.asarray(got["source"], float)
    return vertex_errors(w[: len(source)], source, got["object_error"]["shell"])


SAMPLING = 2e-6
"""The export samples Blender's float32 pose matrices (the child's relative to its parent's):
against the matrices themselves, a reader's error differs by about 1e-7 units on this rig."""


def test_the_object_space_error_reported_is_the_one_measured_on_the_file(run):
    """At the Export panel's defaults ('Error Measure' 'Object space'), an action with rotation,
    translation and scale keys: the object-space error the export reports (max, 99th percentile,
    bone and frame) is what a measurement of the written file gives against Blender's own
    pose (decoded, forward kinematics, virtual vertices 'Shell Distance' from each bone), it is
    within the default 'Max Error', and the operator's report says the same figures in the
    scene's length unit (read back by Blender's unit parser), with the file's size."""
    out, results = run
    got = results["exports"]["hand_object"]
    assert got["result"] == [["FINISHED"], ["FINISHED"]] and not got["warnings"]
    assert got["parents_exported"] == got["parents"] and got["parents"].count(-1) < len(got["parents"]) - 3
    reported = got["object_error"]
    assert reported["shell"] == pytest.approx(ANIMCLIP_ERRORS.shell, rel=1e-6)
    errors = measured_object_error(out, got, "hand_object.animclip")
    assert errors.shape == (20, len(got["bones"]))
    assert abs(errors.max() - reported["max"]) < SAMPLING, (errors.max(), reported["max"])
    assert abs(np.percentile(errors, 99) - reported["p99"]) < SAMPLING, (np.percentile(errors, 99), reported["p99"])
    assert abs(errors[reported["frame"], reported["joint"]] - reported["max"]) < SAMPLING
    np.testing.assert_allclose(errors.max(axis=0), reported["per_joint"], atol=SAMPLING)
    assert 0.1 * ANIMCLIP_ERRORS.max_error < reported["max"] <= ANIMCLIP_ERRORS.max_error * (1 + 1e-6)
    # the operator's words: the same figures in the scene's unit, the worst bone and its frame
    for said in (got["report"], got["report_inches"]):
        assert said["bone"] == got["bones"][reported["joint"]] and said["frame"] == reported["frame"], said
        assert said["max"] == pytest.approx(reported["max"], rel=5e-3)
        assert said["p99"] == pytest.approx(reported["p99"], rel=5e-3)
        assert said["shell"] == pytest.approx(reported["shell"], rel=5e-3)
        assert said["bytes"] == got["bytes"] == (out / "hand_object.animclip").stat().st_size
        # the line that ends the report (the one Blender's status bar keeps): the file, its size, the max
        assert said["last"].endswith(f".animclip: {got['bytes']:,} bytes, object-space error max {said['max_text']} "
                                     f"(bone {said['bone']!r} at frame {said['frame']})"), said["last"]
    assert re.search(r"max [\d.]+ (mm|µm) \(bone", got["report"]["text"]), got["report"]["text"]
    assert re.search(r'max [\d.]+(e-\d+)?" \(bone', got["report_inches"]["text"]), got["report_inches"]["text"]
    assert got["lines"][1].startswith("each bone's own error read back: rotation ")
    # the manual shows this report as the add-on words it
    manual = (ROOT / "docs" / "blender.md").read_text()
    assert f"{got['report']['text']}\n{got['lines'][1]}\n" in manual


def test_what_blender_reimports_is_within_the_reported_error(run):
    """The clip exported at the defaults, imported onto a fresh copy of the rig: every bone's
    virtual vertices are where Blender showed them at export within the object-space error the
    export reported (plus the export's sampling of Blender's float32 pose, as above)."""
    _, results = run
    got = results["exports"]["hand_object"]
    again, source = np.asarray(got["reimported"], float), np.asarray(got["source"], float)
    errors = vertex_errors(again, source, got["object_error"]["shell"])
    assert errors.max() <= got["object_error"]["max"] + SAMPLING, (errors.max(), got["object_error"]["max"])
    assert errors.max() > 0.2 * got["object_error"]["max"]  # (the file's error shows: the re-import is not the source)


@pytest.mark.parametrize("stem", ["loop_walk", "wide_range", "root_motion"])
def test_import_export_import_is_stable(run, stem):
    """Import a Luna clip, export it with that clip as template, import the export: every frame
    is where the first import put it, within the errors asked; the template's sections the
    encoder does not write (Motion Data here) are kept byte for byte, and looping with them."""
    out, results = run
    got = results["exports"][stem]
    assert got["result"] == ["FINISHED"]
    first, second = got["first"], got["second"]
    assert rotation_apart(second["rotation_xyzw"], first["rotation_xyzw"]) <= ROTATION_TOLERANCE + FLOAT32_KEYS
    assert apart(second["translation"], first["translation"]) <= TRANSLATION_TOLERANCE + FLOAT32_KEYS
    again, template = read_file(str(out / f"{stem}.again.animclip")), read_file(str(LUNA / f"{stem}.animclip"))
    motion = 0xE08AA35F  # "Anim Clip Motion Data"
    assert again.section(motion) is not None
    t_frames, _ = decoded(LUNA / f"{stem}.animclip")
    a_frames, _ = decoded(out / f"{stem}.again.animclip")
    if t_frames.root_motion is None:  # the action does not move the object: the template's block stays
        assert bytes(again.section(motion).data) == bytes(template.section(motion).data)
    else:  # the object's movement, written back: the same root motion within float32 keys and quantisation
        assert bytes(again.section(motion).data) != bytes(template.section(motion).data)
        np.testing.assert_allclose(a_frames.root_motion.translation, t_frames.root_motion.translation, atol=1e-4)
        dots = np.abs(np.sum(a_frames.root_motion.rotation * t_frames.root_motion.rotation, axis=1))
        np.testing.assert_allclose(dots, 1.0, atol=1e-6)
    assert a_frames.coding.looping == t_frames.coding.looping and a_frames.frame_count == t_frames.frame_count
    # exported a second time: the same frames again
    _, a_poses = decoded(out / f"{stem}.again.animclip")
    _, t_poses = decoded(out / f"{stem}.third.animclip")
    assert rotation_apart(t_poses.rotation, a_poses.rotation) <= ROTATION_TOLERANCE + FLOAT32_KEYS
    assert apart(t_poses.translation, a_poses.translation) <= TRANSLATION_TOLERANCE + FLOAT32_KEYS


def test_an_action_that_moves_the_object_exports_it_as_root_motion(run):
    _, results = run
    said = [(m["level"], m["text"]) for m in results["messages"] if m["case"] == "export root_motion"]
    assert ("INFO", "root motion: the armature object's movement, 20 sample(s), replacing the template's "
                    "Motion Data") in said
    assert not [text for level, text in said if level == "WARNING"]
    kept = [m["text"] for m in results["messages"] if m["case"] == "export loop_walk"]
    assert "root motion: the template's Motion Data, kept (the action does not move the armature object)" in kept


# --- refusals --------------------------------------------------------------------------------


def test_refusals_are_in_blenders_words_and_write_nothing(run):
    out, results = run
    refused = results["refusals"]
    cases = ["import_no_armature", "import_other_names", "import_cut", "export_no_action", "export_exists",
             "export_over_template", "export_bad_template", "export_zero_scale", "export_zero_max_error_panel"]
    assert {c: refused[c] for c in cases} == {c: ["CANCELLED"] for c in cases}
    assert refused["exists_kept"] and refused["template_kept"] and refused["bad_not_written"]
    assert refused["zero_error_not_written"]
    assert not (out / "none.animclip").exists() and not (out / "zero.animclip").exists()
    errors = {m["case"]: m["text"] for m in results["messages"] if m["level"] == "ERROR"}
    assert set(errors) == set(cases)
    assert [t for t in (m["text"] for m in results["messages"]) if COMMAND_LINE_OPTION.search(t)] == []
    assert "case matters" in errors["import_other_names"]
    assert errors["import_cut"].startswith(str(out / "cut.animclip") + ": ") and refused["cut_left_no_action"]
    assert "tick 'Overwrite'" in errors["export_exists"]
    assert "'Template clip'" in errors["export_over_template"] and "'Template clip'" in errors["export_bad_template"]
    assert "bone 'hand_l'" in errors["export_zero_scale"] and "frame 3" in errors["export_zero_scale"]
    # issue 27: the library's ranges and joint-name rule, quoted with the panel's labels
    assert refused["export_nan_rotation_error"].startswith("'Max rotation error (degrees)' is nan: expected a number")
    assert refused["export_zero_translation_error"].startswith("'Max translation error' is 0.0: expected a number")
    assert refused["export_zero_max_error"].startswith("'Max Error' is 0.0: expected a number")
    assert refused["export_nan_shell"].startswith("'Shell Distance' is nan: expected a number")
    assert errors["export_zero_max_error_panel"].startswith("'Max Error' is 0.0: expected a number")
    assert "'bone29685295'" in refused["export_crc_names"] and "'bone32060020'" in refused["export_crc_names"]
    assert "0x7FB996D4" in refused["export_crc_names"]
    for case in ("export_nan_rotation_error", "export_zero_translation_error", "export_zero_max_error",
                 "export_nan_shell", "export_crc_names"):
        assert not COMMAND_LINE_OPTION.search(refused[case]), refused[case]


def test_the_quoted_options_are_the_export_operators_labels():
    """The labels the refusals quote are the ones the operator's properties are built from."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("wording", ROOT / "blender" / "animspec_blender" / "wording.py")
    wording = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wording)
    source = (ROOT / "blender" / "animspec_blender" / "__init__.py").read_text()
    for name in ("TEMPLATE_LABEL", "CLIP_MAX_ERROR_LABEL", "SHELL_LABEL", "ERROR_MEASURE_LABEL",
                 "MAX_ROTATION_ERROR_LABEL", "MAX_TRANSLATION_ERROR_LABEL", "OVERWRITE_LABEL"):
        assert f"name={name}" in source, name
        assert getattr(wording, name)
