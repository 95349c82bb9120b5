"""animspec play / compare / plot / convert, run as a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from conftest import EXAMPLES, ROOT

from animspec.animbin import read_file


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "animspec", *args], capture_output=True, text=True)


def test_play_summary_shows_stepping_on_pal():
    r = run("play", str(EXAMPLES / "sparse.animbin"), "--region", "pal", "--seconds", "1")
    assert r.returncode == 0, r.stderr
    assert "engine mode at 50.00 Hz: 50 ticks" in r.stdout and "distinct poses: 6 of 50 ticks" in r.stdout


def test_play_json_with_a_hitch_and_a_skeleton():
    r = run("play", str(EXAMPLES / "swing.animbin"), "--deltas", "1,1,7,1", "--skeleton",
            str(EXAMPLES / "pendulum.meshbin"), "--json")
    doc = json.loads(r.stdout)
    assert [t["frame"] for t in doc["ticks"]] == [0, 1, 2, 9]
    assert doc["ticks"][0]["joints"][1]["position"] == [0.0, 0.0, 0.015625]  # 64 raw units below the root (+Z is down)


def test_play_reference_and_half_rate():
    r = run("play", str(EXAMPLES / "swing.animbin"), "--anim", "nod", "--mode", "reference", "--step", "2", "--json")
    doc = json.loads(r.stdout)
    assert doc["mode"] == "reference" and [t["frame"] for t in doc["ticks"]] == [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]


def test_play_unknown_animation_is_a_clear_error():
    r = run("play", str(EXAMPLES / "swing.animbin"), "--anim", "run")
    assert r.returncode == 2 and "no animation named 'run'" in r.stderr and "'swing', 'nod'" in r.stderr


def test_play_animclip_base_pose_and_custom_tracks():
    r = run("play", str(EXAMPLES / "walk.animclip"), "--seconds", "0.5", "--json")
    doc = json.loads(r.stdout)
    assert doc["clip"] == "walk_forward" and len(doc["joints"]) == 21
    assert set(doc["custom_tracks"]) == {"foot_plant_l", "foot_plant_r", "camera_fov_scale"}


def test_compare_and_its_json():
    r = run("compare", str(EXAMPLES / "sparse.animbin"), "--json")
    (report,) = json.loads(r.stdout)
    assert report["joints"][3]["held_ticks"] == 24 and report["joints"][3]["max_degrees"] > 30
    r = run("compare", str(EXAMPLES / "swing.animbin"), "--authored", "pal")
    assert "plays 20% faster than authored" in r.stdout and "'nod'" in r.stdout


def test_plot_writes_a_png(tmp_path):
    out = tmp_path / "curves.png"
    r = run("plot", str(EXAMPLES / "swing.animbin"), "--anim", "swing", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_play_refuses_a_meshbin():
    r = run("compare", str(EXAMPLES / "pendulum.meshbin"))
    assert r.returncode == 2 and "plays ANIMBIN animations" in r.stderr


def test_convert_gltf_to_animbin_and_back(tmp_path):
    animbin = tmp_path / "rig.animbin"
    r = run("convert", str(EXAMPLES / "pendulum_rig.glb"), "-o", str(animbin))
    assert r.returncode == 0, r.stderr
    assert f"{animbin}: ok" in r.stdout
    model = read_file(animbin)
    assert [str(a.name) for a in model.animations] == ["swing", "nod"]
    glb = tmp_path / "back.glb"
    r = run("convert", str(animbin), "--skeleton", str(EXAMPLES / "pendulum_rig.glb"), "-o", str(glb))
    assert r.returncode == 0, r.stderr
    assert glb.read_bytes()[:4] == b"glTF"


@pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules" / "gltf-validator").exists(),
                    reason="node or node_modules/ missing: cannot run the Khronos glTF validator")
@pytest.mark.parametrize("extra", [[], ["--bake-engine"], ["--no-skin"]])
def test_convert_animbin_to_gltf_is_valid(tmp_path, extra):
    glb = tmp_path / "swing.glb"
    r = run("convert", str(EXAMPLES / "swing.animbin"), "--skeleton", str(EXAMPLES / "pendulum.meshbin"), "-o", str(glb), *extra)
    assert r.returncode == 0, r.stderr
    v = subprocess.run(["node", str(ROOT / "tools" / "gltf_validate.js"), str(glb)], capture_output=True, text=True)
    assert v.returncode == 0, v.stdout + v.stderr


def test_convert_animclip_needs_a_rig(tmp_path):
    r = run("convert", str(EXAMPLES / "walk.animclip"), "-o", str(tmp_path / "w.glb"))
    assert r.returncode == 2 and "--skeleton RIG.glb" in r.stderr
    r = run("convert", str(EXAMPLES / "walk.animclip"), "--skeleton", str(EXAMPLES / "pendulum_rig.glb"), "-o", str(tmp_path / "w.glb"))
    assert r.returncode == 0 and "matched by CRC32" in r.stdout


@pytest.mark.parametrize("command", [["play"], ["compare"], ["plot", "-o", "never.png"]])
def test_seconds_whose_vsyncs_overflow_are_refused_not_a_traceback(command, tmp_path):
    # --seconds 1e308 x 59.94 Hz is inf: round() raised OverflowError (exit 1, a traceback)
    # before the "longer than the console can play apart" refusal (adversarial pass, issue 27).
    args = [command[0], str(EXAMPLES / "swing.animbin"), *[str(tmp_path / a) if a.endswith(".png") else a for a in command[1:]]]
    r = run(*args, "--seconds", "1e308")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert "--seconds 1e+308 is longer than the console can play apart" in r.stderr
    assert not (tmp_path / "never.png").exists()
