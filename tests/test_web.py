"""The browser viewer (web/) in a real headless Chromium, from file:// and from a local server.

tools/build_web.js builds a copy of web/ in a temp folder; tests/web/browser_check.js
(playwright-core) opens it, loads every example (file input, and a drop event for one case),
steps and plays, and reports what the page shows; this module asserts on it, recomputing
what the page should show with the Python package (names, findings, sections, and the
engine's int16 quaternions after N ticks). Screenshots go to test-output/web/ (gitignored).

Skipped, with the reason, when node, node_modules/ or a Chromium binary is missing
(ANIMSPEC_CHROMIUM overrides /usr/bin/chromium).
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from kaitaistruct import KaitaiStream

from conftest import ROOT

from animspec.animbin import read_bytes as read_animbin
from animspec.animbin import validate
from animspec.animbin.playback import play_engine, sample_reference_frames

_spec = importlib.util.spec_from_file_location("js_samples", ROOT / "tests" / "web" / "samples.py")
samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(samples)

NODE = shutil.which("node")
OUTPUT = ROOT / "test-output" / "web"
STEPS, CLICKS, REFERENCE_STEPS = 37, 3, 23


def _chromium() -> str | None:
    for candidate in (os.environ.get("ANIMSPEC_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def _skip_reason() -> str | None:
    if NODE is None:
        return "node is not installed (CI has node)"
    missing = [m for m in ("kaitai-struct-compiler", "kaitai-struct", "js-yaml", "three", "playwright-core")
               if not (ROOT / "node_modules" / m).exists()]
    if missing:
        return f"node_modules/ lacks {', '.join(missing)}: run `npm ci` (make test does)"
    if _chromium() is None:
        return "no Chromium: install Debian's chromium (apt-get install chromium) or set ANIMSPEC_CHROMIUM"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


# --- what the page should show, from the Python side ------------------------------------------


def meshbin_bones(data: bytes) -> list[tuple[int, tuple[int, int, int], tuple[int, int, int, int]]]:
    from animspec.generated.meshbin import Meshbin

    root = Meshbin(KaitaiStream(io.BytesIO(data)))
    root._read()
    if not root.has_skeleton_data:
        return []
    return [(b.parent, (b.position.x, b.position.y, b.position.z), (b.rotation.w, b.rotation.x, b.rotation.y, b.rotation.z))
            for b in root.bones]


def animclip_sections(data: bytes) -> list[str]:
    from animspec.animclip.compression import inflate
    from animspec.generated.animclip import Animclip

    if data[:4] == b"STG\0":  # Spider-Man 2's wrapper: never compressed
        root = Animclip(KaitaiStream(io.BytesIO(data)))
        root._read()
        return [f"{int(s.tag):08X}" for s in root.dat1.sections]
    dat1, _ = inflate(data[36:], outer_size=int.from_bytes(data[4:8], "little"))
    root = Animclip(KaitaiStream(io.BytesIO(data[:36] + dat1)))
    root._read()
    return [f"{int(s.tag):08X}" for s in root.dat1.sections]


def skeleton_for(case_files: list[Path]) -> tuple[int | None, list | None]:
    """(num_joints, rest_rotations) the page plays on: the case's MESHBIN bones, else a chain."""
    for p in case_files:
        if samples.detect(p.read_bytes(), p.name) == "meshbin":
            bones = meshbin_bones(p.read_bytes())
            if bones:
                return len(bones), [list(b[2]) for b in bones]
    for p in case_files:
        if samples.detect(p.read_bytes(), p.name) == "animbin":
            model = read_animbin(p.read_bytes())
            n = max([1] + [t.joint_id + 1 for a in model.animations for t in a.tracks])
            return n, [[4096, 0, 0, 0]] * n
    return None, None


# --- running the browser ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A built copy of web/ (index.html, viewer.css, js/, build/)."""
    out = tmp_path_factory.mktemp("site") / "web"
    shutil.copytree(ROOT / "web", out, ignore=shutil.ignore_patterns("build"))
    r = subprocess.run([NODE, str(ROOT / "tools" / "build_web.js"), "--out", str(out / "build")],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr + r.stdout
    return out


@pytest.fixture(scope="module")
def server(site):
    proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(site)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"port (\d+)", line)
        assert m, line
        yield f"http://127.0.0.1:{m.group(1)}/index.html"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def cases(tmp_path_factory) -> list[dict]:
    edge_dir = tmp_path_factory.mktemp("edge-web")
    edge = {}
    for name, data in samples.edge_files().items():
        (edge_dir / name).write_bytes(data)
        edge[name] = edge_dir / name
    examples = samples.example_files()
    out = [{"name": p.name, "files": [str(p)], "via": "input"} for p in examples]
    animbins = [p for p in examples if p.suffix == ".animbin"]
    meshes = [p for p in examples if samples.detect(p.read_bytes(), p.name) == "meshbin" and meshbin_bones(p.read_bytes())]
    if animbins and meshes:
        swing = next((p for p in animbins if p.name == "swing.animbin"), animbins[0])
        out.append({"name": f"{swing.stem}+{meshes[0].stem}", "files": [str(swing), str(meshes[0])], "via": "drop"})
    for name in ("edge_synthetic_lz4.animclip", "edge_msm2_stg.animclip", "edge_hazards.animbin", "edge_bad_magic.animbin"):
        out.append({"name": name, "files": [str(edge[name])], "via": "input"})
    for c in out:
        c.update(steps=STEPS, clicks=CLICKS, reference_steps=REFERENCE_STEPS)
    return out


@pytest.fixture(scope="module")
def runs(site, server, cases, tmp_path_factory) -> list[dict]:
    config = {
        "chromium": _chromium(),
        "urls": {"file": (site / "index.html").as_uri(), "http": server},
        "screenshots": str(OUTPUT),
        "cases": cases,
    }
    cfg = tmp_path_factory.mktemp("browser") / "config.json"
    cfg.write_text(json.dumps(config))
    r = subprocess.run([NODE, str(ROOT / "tests" / "web" / "browser_check.js"), str(cfg)],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert r.returncode == 0, r.stderr[-4000:]
    return json.loads(r.stdout)["runs"]


def _runs_for(runs, predicate):
    chosen = [r for r in runs if predicate(r)]
    assert chosen
    return chosen


def _case(cases, name):
    return next(c for c in cases if c["name"] == name)


# --- tests --------------------------------------------------------------------------------------


def test_page_loads_cleanly_from_file_and_http(runs, cases):
    assert {r["url"] for r in runs} == {"file", "http"}
    assert len(runs) == 2 * len(cases)
    for r in runs:
        where = f"{r['case']} via {r['url']}"
        assert not r["pageErrors"], (where, r["pageErrors"])
        assert not r["console"], (where, r["console"])
        assert not r["requests"], (where, r["requests"])  # nothing but the page's own files
        assert r["before"]["webgl"], f"{where}: WebGL unavailable"
        assert r["shown"]["canvas"]
        assert Path(r["screenshot"]).stat().st_size > 10_000


def test_every_file_is_detected_and_shown(runs, cases):
    for r in runs:
        files = [Path(f) for f in _case(cases, r["case"])["files"]]
        expected = [(p.name, samples.detect(p.read_bytes(), p.name)) for p in files]
        got = [(f["name"], f["format"]) for f in r["loaded"]["files"]]
        assert sorted(got) == sorted(expected), r["case"]
        assert sorted(r["shown"]["tabs"]) == sorted(p.name for p in files)
        if not r["shown"]["parseError"]:
            assert r["shown"]["structure"], f"{r['case']}: no structure tree"


def _animbin_runs(runs, cases):
    out = []
    for r in runs:
        if r["loaded"]["animbin"] and r["loaded"]["active"] == r["loaded"]["animbin"]:
            files = [Path(f) for f in _case(cases, r["case"])["files"]]
            path = next(p for p in files if p.name == r["loaded"]["animbin"])
            out.append((r, files, read_animbin(path.read_bytes())))
    return out


def test_animbin_names_counts_and_findings(runs, cases):
    checked = _animbin_runs(runs, cases)
    assert {r["case"] for r, _, _ in checked} >= {"swing.animbin", "sparse.animbin", "edge_hazards.animbin"}
    for r, files, model in checked:
        names = [str(a.name) for a in model.animations]
        assert r["shown"]["animations"] == names, r["case"]
        assert r["loaded"]["animations"] == names
        assert len(r["shown"]["animationOptions"]) == len(names)
        assert r["shown"]["format"].lower() == "animbin"
        num_joints, _ = skeleton_for(files)
        bone_count = num_joints if r["loaded"]["meshbin"] else None
        expected = [(f.code, f.severity.value) for f in validate(model, bone_count=bone_count)]
        assert [(f["code"], f["severity"]) for f in r["shown"]["findings"]] == expected, r["case"]
        assert r["shown"]["noFindings"] == (not expected)
    sparse = [r for r, _, _ in checked if r["case"] == "sparse.animbin"]
    assert all("sparse-keys" in {f["code"] for f in r["shown"]["findings"]} for r in sparse)


def test_engine_mode_shows_python_play_engine_quaternions(runs, cases):
    ticks = STEPS + CLICKS
    for r, files, model in _animbin_runs(runs, cases):
        num_joints, rest = skeleton_for(files)
        anim = model.animations[0]
        py = play_engine(anim, [1] * ticks, num_joints=num_joints, rest_rotations=rest)
        state = r["engine"]
        assert state["mode"] == "engine" and state["tick"] == ticks
        assert state["frame"] == int(py.frames[-1]), r["case"]
        assert state["engineRotations"] == py.rotations[-1].tolist(), r["case"]
        shown = [[int(c) for c in q.split(",")] for q in r["engineShown"]["poseRows"]]
        assert shown == py.rotations[-1].tolist()[:32]
        assert f"frame {int(py.frames[-1])} / {anim.length}" in r["engineShown"]["hud"]
        expected_skeleton = "meshbin" if r["loaded"]["meshbin"] else "chain"
        assert state["skeleton"] == expected_skeleton


def test_playback_runs_in_real_time(runs, cases):
    for r, _, _ in _animbin_runs(runs, cases):
        # 0.5 s at 59.94 Hz is about 30 ticks; ask for a few, in case the machine is busy
        assert r["afterPlay"]["tick"] > r["engine"]["tick"] + 3, (r["case"], r["engine"]["tick"], r["afterPlay"]["tick"])
        assert not r["afterPlay"]["playing"]


def test_reference_mode_pal_matches_python(runs, cases):
    for r, files, model in _animbin_runs(runs, cases):
        num_joints, rest = skeleton_for(files)
        state = r["reference"]
        assert state["mode"] == "reference" and state["refresh"] == "pal"
        anim = model.animations[0]
        rest_t = None
        for p in files:
            if samples.detect(p.read_bytes(), p.name) == "meshbin":
                bones = meshbin_bones(p.read_bytes())
                if bones:
                    rest_t = [list(b[1]) for b in bones]
        if rest_t is None:
            rest_t = [[0, 0, 64 if i else 0] for i in range(num_joints)]  # app.js's stand-in chain hangs along +Z
        py = sample_reference_frames(anim, [REFERENCE_STEPS], rest_rotations=rest, rest_translations=rest_t)
        assert state["frame"] == pytest.approx(float(py.frames[0]))
        np.testing.assert_allclose(np.array(state["pose"]), py.rotations[0], atol=1e-9)


def test_engine_events_are_listed(runs):
    hazards = _runs_for(runs, lambda r: r["case"] == "edge_hazards.animbin")
    for r in hazards:
        assert any(e.startswith("joint_beyond_max_bones") for e in r["engineShown"]["events"]), r["engineShown"]["events"]


def test_animclip_sections_and_clip_data(runs, cases):
    clips = _runs_for(runs, lambda r: r["loaded"]["format"] == "animclip" if r["loaded"]["files"] else False)
    for r in clips:
        path = Path(_case(cases, r["case"])["files"][0])
        assert [s["tag"] for s in r["shown"]["sections"]] == animclip_sections(path.read_bytes()), r["case"]
        assert all(s["name"] for s in r["shown"]["sections"])
    synthetic = [r for r in clips if r["case"] == "edge_synthetic_lz4.animclip"]
    for r in synthetic:
        assert [s["name"] for s in r["shown"]["sections"]] == [
            "custom_track_data", "custom_tracks", "base_state", "built", "joint_hashes", "sample_elem"]
        assert '"clip_name"' in r["shown"]["clip"] and "30.000" in r["shown"]["clip"]
        assert len(r["shown"]["customTracks"]) == 1 and "track_a" in r["shown"]["customTracks"][0]
        assert len(r["shown"]["baseState"]) == 2 and "865696D5" in r["shown"]["baseState"][0]
    msm2 = [r for r in clips if r["case"] == "edge_msm2_stg.animclip"]
    assert msm2
    for r in msm2:
        assert "sample_data_resident" in [s["name"] for s in r["shown"]["sections"]]
        assert "DEADDEAD" in r["shown"]["clip"] and "28 bytes" in r["shown"]["clip"]  # sound event hash, stride


def test_meshbin_alone_shows_its_skeleton(runs, cases):
    for r in runs:
        if r["loaded"]["format"] != "meshbin" or r["loaded"]["animbin"]:
            continue
        path = Path(_case(cases, r["case"])["files"][0])
        bones = meshbin_bones(path.read_bytes())
        assert len(r["shown"]["bones"]) == len(bones)
        assert r["loaded"]["meshbin"] == path.name
        if bones:
            assert "at rest" in (r["shown"]["viewportNote"] or "")
            assert r["canvas"]["colours"] > 20


def test_the_pendulum_hangs_down_in_the_viewer(runs):
    """+Z is down in the console's model space (the viewer turns it +90 degrees about X into
    three.js's Y-up world, as the glTF writer does): pendulum.meshbin at rest, and the
    stand-in chain under swing.animbin alone at frame 0, hang straight along +Z from the root."""
    for case in ("pendulum.meshbin", "swing.animbin"):
        for r in _runs_for(runs, lambda r: r["case"] == case):
            joints = np.array(r["loaded"]["jointPositions"])
            assert len(joints) == 4, (case, r["url"], joints)
            # At rest (and on swing's frame 0, where only the joints below the root turn, about
            # X) the chain never leaves the vertical Y-Z plane; at rest it is the +Z axis itself.
            assert np.allclose(joints[:, 0], 0.0, atol=1e-9), (case, joints)
            assert np.all(np.diff(joints[:, 2]) > 0), (case, joints)  # every joint below its parent
            if case == "pendulum.meshbin":
                np.testing.assert_allclose(joints, [[0, 0, 0], [0, 0, 64], [0, 0, 128], [0, 0, 192]], atol=1e-9)


def test_a_broken_file_shows_the_parse_error(runs):
    for r in _runs_for(runs, lambda r: r["case"] == "edge_bad_magic.animbin"):
        assert r["shown"]["parseError"] and "ValidationNotEqualError" in r["shown"]["parseError"]
        assert r["loaded"]["animbin"] is None


def test_the_3d_view_draws_something(runs):
    for r in runs:
        if r["loaded"]["animbin"]:
            assert r["canvas"]["colours"] > 20, (r["case"], r["url"], r["canvas"])
