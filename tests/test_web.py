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
    # .animclip playback: walk on its glTF rig (dropped together), and a looping Luna clip with root motion
    out.append({"name": "walk+biped_rig", "files": [str(samples.EXAMPLES / "walk.animclip"), str(samples.EXAMPLES / "biped_rig.glb")],
                "via": "drop"})
    # the same rig under a turned, moved node above its armature: the clip's roots are in the
    # scene's space whatever a rig has above them (docs/axes.md), in the viewer too
    from test_roundtrip_paths import ABOVE, wrap

    turned = edge_dir / "turned_biped_rig.glb"
    turned.write_bytes(wrap((samples.EXAMPLES / "biped_rig.glb").read_bytes(), ABOVE[-1]))
    out.append({"name": "walk+turned_biped_rig", "files": [str(samples.EXAMPLES / "walk.animclip"), str(turned)],
                "via": "drop"})
    luna_loop = ROOT / "tests" / "fixtures" / "luna" / "root_motion_loop.animclip"
    out.append({"name": luna_loop.name, "files": [str(luna_loop)], "via": "input"})
    # a clip whose frames do not decode (an element names joint 7 of 5): the page says why
    from test_animclip_samples import clip_file, random_clip

    broken = random_clip(9)
    broken.small[2] = (7, 4) + broken.small[2][2:]
    (edge_dir / "edge_undecodable.animclip").write_bytes(clip_file(broken, frames=len(broken.samples)))
    out.append({"name": "edge_undecodable.animclip", "files": [str(edge_dir / "edge_undecodable.animclip")], "via": "input"})
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
        expected = [(p.name, "gltf" if p.suffix in (".glb", ".gltf") else samples.detect(p.read_bytes(), p.name)) for p in files]
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


# --- .animclip frames: the viewer's decoder against Python's ----------------------------------

JS_CLIP = ROOT / "tests" / "web" / "js_clip.js"


def _synthetic_clips(folder: Path) -> list[Path]:
    """What the examples and Luna's clips never use (Luna writes shift 0, no large elements,
    no frame lookup): clips from tests/test_animclip_samples.py's bit-level builders with
    large elements, shifts, straddling and 32-bit fields, frame lookups (looping or not), two
    elements on one component, the scale divisor and translation shift moving, Spider-Man 2's
    paged and resident blocks, and root motion."""
    import random

    from test_animclip_samples import (
        HAS_MOTION, LOOKUP, LOOPING, Clip, built_payload, clip_file, dat1_file, motion_payload, random_clip,
    )
    from animspec.common.hashes import crc32

    out = {f"random_{seed}.animclip": clip_file(random_clip(seed), frames=7) for seed in (1, 2, 3)}
    wide = Clip(2, random.Random(7))
    wide.small = [(0, 4, 13, 0), (0, 5, 16, 1), (1, 8, 9, 0)]  # the 2nd straddles words 0 and 1
    wide.large = [(1, 9, 32, 0), (0, 6, 31, 2), (1, 0, 17, 0)]
    wide.samples = [[(1 << w) - 1 for _, _, w, _ in wide.elements], [0] * 6, [1 << (w - 1) for _, _, w, _ in wide.elements]]
    wide.random_fields(4)
    out["wide_fields.animclip"] = clip_file(wide, frames=7)
    out["lookup_loop.animclip"] = clip_file(random_clip(6, samples=3), frames=7, flags=LOOKUP | LOOPING,
                                            lookup=[0, 0, 1, 1, 1, 2, 0, 0])
    out["lookup_once.animclip"] = clip_file(random_clip(7, samples=2), frames=9, flags=LOOKUP, lookup=[1, 0, 1, 0, 1, 0, 0, 1, 1])
    twice = Clip(1, random.Random(2))
    twice.small = [(0, 8, 4, 0), (0, 8, 4, 2), (0, 0, 5, 0), (0, 3, 3, 0), (0, 11, 2, 0)]
    twice.samples = [[3, 5, 16, 0, 0], [0, 4, 0, 4, 1], [15, 15, 31, 7, 3]]
    out["same_component.animclip"] = clip_file(twice, frames=3)
    motion = motion_payload([((0, 0, 0, 32767), (k * 256, -k * 64, 3), 8) for k in range(4)]
                            + [((0, 23170, 0, 23170), (256, -512, 1024), 40)])
    out["root_motion_synthetic.animclip"] = clip_file(random_clip(8, samples=5), frames=5, flags=LOOPING | HAS_MOTION, motion=motion)
    split = random_clip(21, samples=4)
    stride = split.stride()
    sections = {
        crc32("Anim Clip Built"): built_payload(joints=5, frames=4, elements=len(split.small), large=len(split.large),
                                                stride=stride, resident=2, resident_fps=15.0),
        crc32("Anim Clip Base State"): split.base_payload(),
        crc32("Anim Clip Sample Elem"): split.elem_payload(),
        crc32("Anim Clip Sample Data Paged"): split.sample_payload(stride),
        crc32("Anim Clip Sample Data Resident"): split.sample_payload(stride)[stride: 3 * stride],
    }
    out["msm2_paged.animclip"] = dat1_file(sections)
    del sections[crc32("Anim Clip Sample Data Paged")]
    out["msm2_resident.animclip"] = dat1_file(sections)
    paths = []
    for name, data in out.items():
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    return paths


def _clip_files(folder: Path) -> list[Path]:
    """walk.animclip, walk_lz4.animclip (and the other examples), every Luna fixture, and the
    synthetic clips above."""
    examples = [p for p in samples.example_files() if samples.detect(p.read_bytes(), p.name) == "animclip"]
    luna = sorted((ROOT / "tests" / "fixtures" / "luna").glob("*.animclip"))
    return examples + luna + _synthetic_clips(folder)


def _assert_f32_equal(js, py, what):
    """Equal within float32 rounding: both sides sum the components in float64 and round once
    to float32; only the order of float64 operations (a norm's sum) may move the last bit."""
    js = np.asarray(js, dtype=np.float32)
    py = np.asarray(py, dtype=np.float32)
    assert js.shape == py.shape, (what, js.shape, py.shape)
    np.testing.assert_array_max_ulp(js, py, maxulp=1, dtype=np.float32)


def test_viewer_decodes_every_animclip_frame_as_python_does(tmp_path):
    from animspec.animclip import read_file
    from animspec.animclip.frames.pose import clip_frames

    files = _clip_files(tmp_path)
    names = {p.name for p in files}
    assert {"walk.animclip", "walk_lz4.animclip", "loop_walk.animclip", "root_motion.animclip", "lookup_loop.animclip"} <= names
    r = subprocess.run([NODE, str(JS_CLIP), *map(str, files)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    shown = json.loads(r.stdout)["clips"]
    assert len(shown) == len(files)
    moving = 0
    for path, js in zip(files, shown):
        assert js["error"] is None and "decode_error" not in js, (path.name, js)
        py = clip_frames(read_file(path), str(path))
        poses = py.frames()
        assert js["frame_count"] == py.frame_count, path.name
        assert js["joints"] == len(py.joint_hashes), path.name
        assert js["joint_hashes"] == [int(h) for h in py.joint_hashes], path.name
        assert js["fps"] == pytest.approx(py.fps, rel=1e-12), path.name
        assert js["looping"] == py.coding.looping and js["animated"] == py.animated, path.name
        n, j = py.frame_count, len(py.joint_hashes)
        _assert_f32_equal(np.array(js["rotation"]).reshape(n, j, 4), poses.rotation, (path.name, "rotation"))
        _assert_f32_equal(np.array(js["translation"]).reshape(n, j, 3), poses.translation, (path.name, "translation"))
        _assert_f32_equal(np.array(js["scale"]).reshape(n, j, 3), poses.scale, (path.name, "scale"))
        if py.root_motion is None:
            assert js["root_motion"] is None, path.name
        else:
            np.testing.assert_allclose(np.array(js["root_motion"]["translation"]).reshape(-1, 3),
                                       py.root_motion.translation, rtol=1e-12, atol=1e-15, err_msg=path.name)
            np.testing.assert_allclose(np.array(js["root_motion"]["rotation"]).reshape(-1, 4),
                                       py.root_motion.rotation, rtol=1e-12, atol=1e-15, err_msg=path.name)
        if py.animated and np.ptp(poses.rotation, axis=0).max() > 1e-3:
            moving += 1
    assert moving >= 3  # real motion is compared, not base poses only


def _clip_runs(runs, cases):
    """Runs where an .animclip plays in the 3D view, with the clip's path and rig (if any)."""
    out = []
    for r in runs:
        if r["loaded"]["player"] != "clip":
            continue
        files = [Path(f) for f in _case(cases, r["case"])["files"]]
        clip = next(p for p in files if p.name == r["loaded"]["clip"]["name"])
        rig = next((p for p in files if p.suffix == ".glb"), None)
        out.append((r, clip, rig))
    return out


def test_animclip_plays_frame_by_frame_in_the_3d_view(runs, cases):
    from PIL import Image

    checked = _clip_runs(runs, cases)
    assert {r["case"] for r, _, _ in checked} >= {"walk.animclip", "walk_lz4.animclip", "walk+biped_rig", "walk+turned_biped_rig",
                                                  "root_motion_loop.animclip"}
    for r, clip, rig in checked:
        where = f"{r['case']} via {r['url']}"
        first, middle = r["clipFrames"]
        count = r["loaded"]["clip"]["frameCount"]
        assert (first["frame"], middle["frame"]) == (0, count // 2)
        assert first["state"]["clip"]["frame"] == 0 and middle["state"]["clip"]["frame"] == count // 2, where
        assert f"frame {count // 2} / {count - 1}" in middle["shown"]["hud"], where
        assert r["shown"]["canvas"] and r["canvas"]["colours"] > 20, where
        assert r["clipPlayed"]["clip"]["frame"] > 0, where  # Play moved it on (0.5 s at the clip's fps)
        if rig is not None:
            assert r["loaded"]["rig"] == rig.name and "21 of 21 clip joints matched" in first["shown"]["hud"], where
        else:
            assert "chain of the clip's" in first["shown"]["hud"], where
        a = np.asarray(Image.open(first["screenshot"]).convert("RGB"), dtype=np.int16)
        b = np.asarray(Image.open(middle["screenshot"]).convert("RGB"), dtype=np.int16)
        changed = int((np.abs(a - b).max(axis=2) > 24).sum())
        if r["loaded"]["clip"]["animated"]:
            assert changed > 500, (where, changed)  # the skeleton moved between the two frames


def test_animclip_pose_in_the_viewer_is_python_forward_kinematics(runs, cases):
    """The viewer's joint positions at the middle frame (root motion off) equal the Python
    decoder's frame composed down the same skeleton: the glTF rig read by animspec (bones
    matched by name hash, as ``animspec play --skeleton`` does), or the viewer's stand-in
    chain of the clip's joints in file order."""
    from animspec.animclip import read_file
    from animspec.animclip.frames.pose import clip_frames, frames_report
    from animspec.gltf.rig import skeleton_from_gltf
    from animspec.quaternion import xyzw_to_wxyz
    from animspec.skeleton import Skeleton, forward_kinematics

    checked = _clip_runs(runs, cases)
    assert any(rig for _, _, rig in checked) and any(not rig for _, _, rig in checked)
    for r, clip, rig in checked:
        state = r["clipWithoutMotion"]
        frame = state["clip"]["frame"]
        model = read_file(clip)
        decoded = clip_frames(model, str(clip))
        if rig is not None:
            skeleton = skeleton_from_gltf(str(rig))
            assert state["boneNames"] == skeleton.names
            positions = frames_report(model, decoded, skeleton).world_positions[frame]
        else:
            poses = decoded.frames()
            n = len(decoded.joint_hashes)
            chain = Skeleton(np.arange(-1, n - 1), np.zeros((n, 3)), np.tile([1.0, 0, 0, 0], (n, 1)), [str(j) for j in range(n)])
            positions = forward_kinematics(chain, xyzw_to_wxyz(poses.rotation[frame][None].astype(np.float64)),
                                           poses.translation[frame][None].astype(np.float64))[0][:, :3, 3]
        shown = state["sceneJointPositions"] if rig is not None else state["jointPositions"]
        np.testing.assert_allclose(np.array(shown), positions, atol=1e-5, err_msg=r["case"])


def test_viewer_refuses_the_clips_python_refuses(tmp_path):
    """Where Python's decoder raises a ParseError, the viewer's refuses too (the page then
    shows the reason instead of playing), naming the same section."""
    from test_animclip_samples import LOOKUP, built_payload, clip_file, dat1_file, random_clip
    from animspec.animclip import read_file
    from animspec.animclip.frames.pose import clip_frames
    from animspec.common.errors import ParseError
    from animspec.common.hashes import crc32

    bad = {}
    clip = random_clip(9)
    clip.small[2] = (7, 4) + clip.small[2][2:]
    bad["joint_past_the_clip.animclip"] = clip_file(clip, frames=len(clip.samples))
    clip = random_clip(10)
    bad["stride_too_small.animclip"] = clip_file(clip, frames=len(clip.samples), declared_stride=clip.stride() - 4)
    bad["lookup_past_the_samples.animclip"] = clip_file(random_clip(13, samples=2), frames=3, flags=LOOKUP, lookup=[0, 1, 5])
    bad["frames_past_the_samples.animclip"] = clip_file(random_clip(14, samples=2), frames=9)
    clip = random_clip(15)
    bad["counts_past_the_section.animclip"] = dat1_file({
        crc32("Anim Clip Built"): built_payload(joints=5, frames=7, elements=0x7FFFFFFF, large=0x7FFFFFFF, stride=clip.stride()),
        crc32("Anim Clip Base State"): clip.base_payload(), crc32("Anim Clip Sample Elem"): clip.elem_payload(),
        crc32("Anim Clip Sample Data"): clip.sample_payload(clip.stride())})
    # a large element Built declares but the section lacks: the spec's view falls back to
    # ALERT's split (the small table alone), which would decode; the counts must be refused
    clip = random_clip(16, large=False)
    bad["large_table_missing.animclip"] = dat1_file({
        crc32("Anim Clip Built"): built_payload(joints=5, frames=len(clip.samples), elements=len(clip.small), large=1,
                                                stride=clip.stride()),
        crc32("Anim Clip Base State"): clip.base_payload(), crc32("Anim Clip Sample Elem"): clip.elem_payload(),
        crc32("Anim Clip Sample Data"): clip.sample_payload(clip.stride())})
    paths = []
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    r = subprocess.run([NODE, str(JS_CLIP), *map(str, paths)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    for path, js in zip(paths, json.loads(r.stdout)["clips"]):
        with pytest.raises(ParseError) as py:
            clip_frames(read_file(path), str(path))
        assert js.get("decode_error"), (path.name, js)
        assert js["decode_error"]["name"] == "ClipDecodeError", (path.name, js)
        section = py.value.field.split(".")[0].replace("frame_lookup", "lookup")
        assert js["decode_error"]["field"].split(".")[0] == section, (path.name, js["decode_error"], py.value.field)


def test_a_clip_whose_frames_do_not_decode_says_why(runs):
    for r in _runs_for(runs, lambda r: r["case"] == "edge_undecodable.animclip"):
        assert r["loaded"]["player"] is None and r["loaded"]["clip"] is None, r["loaded"]
        error = r["shown"]["clipDecodeError"]
        assert error and "sample_elem.elems[2].ofs_component" in error and "joint 7" in error, error
        assert r["shown"]["sections"]  # the structure is still shown
