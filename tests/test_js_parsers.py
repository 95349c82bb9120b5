"""The JavaScript side (browser viewer, tools/js_dump.js) agrees with the Python side.

1. Parsers: the JavaScript parsers compiled from ksy/ and the Python parsers in generated/
   give the same tree, field by field (every seq field and instance, recursively), for every
   file under examples/ and for hand-made edge files (tests/web/samples.py).
2. Engine: web/js/engine.js plays every ANIMBIN clip to the same int16 quaternions, frames and
   events as Python's play_engine, and samples the same reference poses.
3. Validator: web/js/validate.js reports the same findings as animspec.animbin.validate.

Needs node and node_modules/ (`npm ci`); skipped with the reason otherwise.
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import io
import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from kaitaistruct import KaitaiStream, KaitaiStruct

from conftest import ROOT

from animspec.animbin import read_bytes as read_animbin
from animspec.animbin import validate as py_validate
from animspec.animbin.playback import play_engine, sample_reference_frames
from animspec.fixed_point import normalize_table

_spec = importlib.util.spec_from_file_location("js_samples", ROOT / "tests" / "web" / "samples.py")
samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(samples)

NODE = shutil.which("node")
NEEDED = ["kaitai-struct-compiler", "kaitai-struct", "js-yaml"]
JS_DUMP = ROOT / "tools" / "js_dump.js"
JS_ENGINE = ROOT / "tests" / "web" / "js_engine.js"


def _skip_reason() -> str | None:
    if NODE is None:
        return "node is not installed: cannot run the JavaScript parsers (CI has node)"
    missing = [m for m in NEEDED if not (ROOT / "node_modules" / m).exists()]
    if missing:
        return f"node_modules/ lacks {', '.join(missing)}: run `npm ci` (make test does)"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")

# Differences between the targets that come from the specs themselves, not from either
# runtime: (file-name pattern, field-path suffix, reason). test_known_spec_differences_still_occur
# asserts each one still shows, so fixing a spec makes it fail and the entry goes.
KNOWN_DIFFERENCES: list[tuple[str, str, str]] = [
]


# --- the files ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """name -> path: every example plus every edge file (written to a temp folder)."""
    out = {p.name: p for p in samples.example_files()}
    tmp = tmp_path_factory.mktemp("edge")
    for name, data in samples.edge_files().items():
        (tmp / name).write_bytes(data)
        out[name] = tmp / name
    return out


def run_js_dump(paths: list[Path], *extra: str) -> list[dict]:
    r = subprocess.run([NODE, str(JS_DUMP), "--compact", *extra, *map(str, paths)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    return doc if isinstance(doc, list) else [doc]


# --- the Python walk (the canonical form of web/js/ksy_walk.js) ----------------------------------


def _instance_names(cls: type) -> list[str]:
    return [n for n, v in vars(cls).items() if isinstance(v, property) and not n.startswith("_")]


def py_value(v, instances: bool, stack: list):
    if v is None or isinstance(v, KaitaiStream):
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, int):  # IntEnum included: its integer value
        return int(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return [py_value(e, instances, stack) for e in v]
    if isinstance(v, KaitaiStruct):
        return py_struct(v, instances, stack)
    return str(v)


def py_struct(obj: KaitaiStruct, instances: bool = True, stack: list | None = None) -> dict:
    stack = [] if stack is None else stack
    if any(o is obj for o in stack):
        return {"$cycle": True}
    stack.append(obj)
    out = {}
    for name in type(obj).SEQ_FIELDS:
        if name in vars(obj):
            v = py_value(getattr(obj, name), instances, stack)
            if v is not None:
                out[name] = v
    if instances:
        for name in _instance_names(type(obj)):
            try:
                v = py_value(getattr(obj, name), instances, stack)
            except Exception as exc:  # an instance that cannot be evaluated
                v = {"$error": type(exc).__name__}
            if v is not None:
                out[name] = v
    stack.pop()
    return out


def python_class(fmt: str):
    module = importlib.import_module(f"animspec.generated.{fmt}")
    return getattr(module, "".join(p.capitalize() for p in fmt.split("_")))


def python_parse(data: bytes, fmt: str) -> tuple[dict, str | None]:
    root = python_class(fmt)(KaitaiStream(io.BytesIO(data)))
    try:
        root._read()
    except Exception as exc:
        return py_struct(root, instances=False), type(exc).__name__
    return py_struct(root), None


def inflate_animclip(data: bytes) -> bytes:
    from animspec.animclip.compression import inflate

    dat1, _ = inflate(data[36:], outer_size=int.from_bytes(data[4:8], "little"))
    return data[:36] + dat1


# --- comparison --------------------------------------------------------------------------------

BIG = 2**53


def differences(js, py, path: str = "", out: list | None = None) -> list[str]:
    out = [] if out is None else out
    if isinstance(py, dict) and isinstance(js, dict):
        if "$error" in py or "$error" in js:
            if not ("$error" in py and "$error" in js):
                out.append(f"{path}: js {js!r} vs python {py!r}")
            return out
        for key in sorted(set(js) | set(py)):
            if key not in js or key not in py:
                out.append(f"{path}.{key}: only in {'python' if key in py else 'js'}")
            else:
                differences(js[key], py[key], f"{path}.{key}", out)
    elif isinstance(py, list) and isinstance(js, list):
        if len(js) != len(py):
            out.append(f"{path}: {len(js)} elements in js, {len(py)} in python")
        for i, (a, b) in enumerate(zip(js, py)):
            differences(a, b, f"{path}[{i}]", out)
    elif isinstance(py, bool) or isinstance(js, bool):
        if js is not py:
            out.append(f"{path}: js {js!r} vs python {py!r}")
    elif isinstance(py, (int, float)) and isinstance(js, (int, float)):
        if isinstance(py, float) or isinstance(js, float) or abs(py) > BIG:
            # JSON from JavaScript prints a large double without an exponent (it then loads
            # as an int), and JavaScript holds u8 values above 2**53 only approximately.
            ok = float(js) == float(py)
        else:
            ok = js == py
        if not ok:
            out.append(f"{path}: js {js!r} vs python {py!r}")
    elif js != py:
        out.append(f"{path}: js {js!r} vs python {py!r}")
    return out


def _known(name: str, diff: str) -> bool:
    field = diff.split(":", 1)[0]
    return any(fnmatch.fnmatch(name, pattern) and field.endswith(suffix) for pattern, suffix, _ in KNOWN_DIFFERENCES)


def file_formats(files: dict[str, Path]) -> dict[str, str]:
    return {name: samples.detect(p.read_bytes(), name) for name, p in files.items()}


def test_examples_are_found():
    names = [p.name for p in samples.example_files()]
    assert any(n.endswith(".animbin") for n in names), names


@pytest.fixture(scope="module")
def js_dumps(files) -> dict[str, dict]:
    names = sorted(files)
    return dict(zip(names, run_js_dump([files[n] for n in names])))


def test_js_and_python_parsers_agree_field_by_field(files, js_dumps):
    formats = file_formats(files)
    problems, known = [], []  # known: KNOWN_DIFFERENCES, checked by the next test
    for name in sorted(files):
        js = js_dumps[name]
        fmt = formats[name]
        assert js["format"] == fmt, name
        py_tree, py_error = python_parse(files[name].read_bytes(), fmt)
        assert (js["error"] is None) == (py_error is None), f"{name}: js error {js['error']}, python {py_error}"
        for d in differences(js["root"], py_tree):
            (known if _known(name, d) else problems).append(f"{name}{d}")
    assert not problems, "JS and Python parsers differ:\n" + "\n".join(problems[:40])


def test_known_spec_differences_still_occur(files, js_dumps):
    """Every KNOWN_DIFFERENCES entry still shows. When a spec is fixed this fails: drop the entry."""
    for pattern, suffix, reason in KNOWN_DIFFERENCES:
        name = pattern.replace("*", "")
        py_tree, _ = python_parse(files[name].read_bytes(), samples.detect(files[name].read_bytes(), name))
        diffs = differences(js_dumps[name]["root"], py_tree)
        assert any(d.split(":", 1)[0].endswith(suffix) for d in diffs), f"{name} {suffix} now agrees ({reason})"


def test_parse_errors_stop_at_the_same_field(files, js_dumps):
    """The partial trees were compared above; here the located field and byte offset, against
    python/animspec/kaitai_read.py (what `animspec` prints for a broken file)."""
    from animspec.kaitai_read import locate_failure

    failing = [n for n in files if js_dumps[n]["error"]]
    assert {"edge_truncated.animbin", "edge_bad_magic.animbin"} <= set(failing)
    for name in failing:
        data = files[name].read_bytes()
        root = python_class(samples.detect(data, name))(KaitaiStream(io.BytesIO(data)))
        with pytest.raises(Exception):
            root._read()
        field, offset = locate_failure(root)
        assert (js_dumps[name]["error"]["field"], js_dumps[name]["error"]["offset"]) == (field, offset), name


def test_inflated_animclip_bodies_agree(files):
    clips = sorted(n for n, f in file_formats(files).items() if f == "animclip" and not n.endswith("_cut.animclip"))
    dumps = run_js_dump([files[n] for n in clips], "--inflate")
    compressed = 0
    for name, js in zip(clips, dumps):
        data = files[name].read_bytes()
        inflated = inflate_animclip(data)
        compressed += inflated != data
        if inflated != data:
            assert js["inflated"] and js["inflated"]["size"] == len(inflated) - 36, js["inflated"]
        py_tree, py_error = python_parse(inflated, "animclip")
        assert js["error"] is None and py_error is None, name
        diffs = [name + d for d in differences(js["root"], py_tree) if not _known(name, d)]
        assert not diffs, diffs[:20]
    assert compressed >= 1  # the LZ4 edge file went through the JavaScript decoder


def test_js_dump_uses_web_build_parsers_when_given(files, tmp_path):
    """--parsers loads pre-compiled parsers (what `make web` puts in web/build/parsers)."""
    out = tmp_path / "parsers"
    specs = sorted(str(p) for p in (ROOT / "ksy").glob("*.ksy"))
    r = subprocess.run([NODE, str(ROOT / "tools" / "ksc.js"), "-t", "javascript", "--debug", "-d", str(out), *specs],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    swing = files["swing.animbin"]
    a = run_js_dump([swing], "--parsers", str(out))[0]
    b = run_js_dump([swing])[0]
    assert a == b


def test_js_dump_refuses_non_debug_parsers(files, tmp_path):
    out = tmp_path / "parsers"
    specs = sorted(str(p) for p in (ROOT / "ksy").glob("*.ksy"))
    subprocess.run([NODE, str(ROOT / "tools" / "ksc.js"), "-t", "javascript", "-d", str(out), *specs], check=True, cwd=ROOT)
    r = subprocess.run([NODE, str(JS_DUMP), "--parsers", str(out), str(files["swing.animbin"])], capture_output=True, text=True)
    assert r.returncode != 0 and "debug" in r.stderr


# --- engine, reference mode and validator ------------------------------------------------------


def run_js_engine(request: dict, tmp_path: Path) -> dict:
    req = tmp_path / "request.json"
    req.write_text(json.dumps(request))
    r = subprocess.run([NODE, str(JS_ENGINE), str(req)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_fp12_normalize_scale_matches_over_all_int16(tmp_path):
    js = run_js_engine({"normalize_table": True}, tmp_path)["normalize_scale"]
    table = normalize_table()
    for s in range(1, 32768):
        if table.divides_by_zero[s]:
            assert js[s] is None, s
        else:
            assert js[s] == int(table.scale[s]), s


def _animbin_files(files: dict[str, Path]) -> list[Path]:
    out = []
    for name, path in sorted(files.items()):
        if samples.detect(path.read_bytes(), name) != "animbin":
            continue
        try:
            read_animbin(path.read_bytes())
        except Exception:
            continue  # unreadable edge files: nothing to play
        out.append(path)
    return out


HITCHES = [1, 1, 7, 1, 2, 2, 1, 13, 1, 1, 3, 1, 65535, 1, 1]


def _engine_runs(model) -> list[dict]:
    joints = max((t.joint_id + 1 for a in model.animations for t in a.tracks), default=0)
    rng = np.random.default_rng(7)
    rest = rng.integers(-4096, 4097, size=(joints + 2, 4)).tolist()
    return [
        {"deltas": [1] * 95},
        {"deltas": [2] * 50},
        {"deltas": HITCHES * 4},
        {"deltas": [1] * 40, "rest_rotations": rest, "empty_track": "identity"},
        {"deltas": [1] * 40, "num_joints": 2},
    ]


def test_js_engine_plays_like_python_play_engine(files, tmp_path):
    paths = _animbin_files(files)
    assert any(p.name == "swing.animbin" for p in paths)
    request = {"files": []}
    models = {}
    for p in paths:
        model = read_animbin(p.read_bytes())
        models[str(p)] = model
        request["files"].append({"path": str(p), "engine_runs": _engine_runs(model)})
    result = run_js_engine(request, tmp_path)
    checked = 0
    for f in result["files"]:
        model = models[f["path"]]
        runs = _engine_runs(model)
        assert f["error"] is None
        assert len(f["animations"]) == len(model.animations)
        for anim, js_anim in zip(model.animations, f["animations"]):
            for run, js in zip(runs, js_anim["engine"]):
                py = play_engine(anim, run["deltas"], num_joints=run.get("num_joints"),
                                 rest_rotations=run.get("rest_rotations"),
                                 empty_track=run.get("empty_track", "unchanged"))
                where = f"{Path(f['path']).name} {str(anim.name)!r} deltas={run['deltas'][:3]}..."
                assert js["frames"] == py.frames.tolist(), where
                assert js["end_frame"] == py.end_frame, where
                js_rot = np.array(js["rotations"], dtype=np.int64).reshape(py.rotations.shape)
                bad = np.argwhere(js_rot != py.rotations)
                assert bad.size == 0, f"{where}: first difference at tick/joint {bad[0][:2].tolist()}"
                py_events = [{"kind": e.kind.value, "track": e.track, "joint_id": e.joint_id, "first_tick": e.first_tick,
                              "first_frame": e.first_frame, "count": e.count} for e in py.events]
                assert js["events"] == py_events, where
                checked += py.num_ticks
    assert checked > 1000


def test_js_reference_mode_samples_like_python(files, tmp_path):
    paths = _animbin_files(files)
    frames = np.linspace(-3.0, 70.0, 121).tolist()
    request = {"files": []}
    for p in paths:
        model = read_animbin(p.read_bytes())
        joints = max((t.joint_id + 1 for a in model.animations for t in a.tracks), default=0)
        rest_t = [[0, 64 * 4096 * i, 0] for i in range(joints)]
        request["files"].append({"path": str(p), "reference": {"frames": frames, "rest_translations": rest_t}})
    result = run_js_engine(request, tmp_path)
    for f, req in zip(result["files"], request["files"]):
        model = read_animbin(Path(f["path"]).read_bytes())
        for anim, js_anim in zip(model.animations, f["animations"]):
            py = sample_reference_frames(anim, frames, rest_translations=req["reference"]["rest_translations"])
            js = js_anim["reference"]
            np.testing.assert_allclose(js["frames"], py.frames, atol=1e-12)
            np.testing.assert_allclose(np.array(js["rotations"]).reshape(py.rotations.shape), py.rotations, atol=1e-9)
            np.testing.assert_allclose(np.array(js["translations"]).reshape(py.translations.shape), py.translations, atol=1e-9)
            assert js["has_rotation"] == py.has_rotation.tolist()
            assert js["has_translation"] == py.has_translation.tolist()


@pytest.mark.parametrize("bone_count", [None, 3])
def test_js_validator_reports_what_python_reports(files, tmp_path, bone_count):
    paths = _animbin_files(files)
    result = run_js_engine({"files": [{"path": str(p), "bone_count": bone_count} for p in paths]}, tmp_path)
    codes = set()
    for f in result["files"]:
        py = [x.to_json() for x in py_validate(read_animbin(Path(f["path"]).read_bytes()), bone_count=bone_count)]
        assert f["findings"] == py, Path(f["path"]).name
        codes |= {x["code"] for x in py}
    # the edge files exercise most checks
    assert {"sparse-keys", "unknown-key-type", "trailing-bytes", "keys-not-increasing", "not-unit-quaternion",
            "empty-track", "name-not-terminated", "joint-out-of-range", "duplicate-joint", "translation-ignored",
            "key-after-end", "unknown-flags", "zero-length", "duplicate-animation-name",
            "marker-name-not-terminated"} <= codes
