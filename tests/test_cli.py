"""The animspec command, run as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import EXAMPLES, one_clip, raw_key, rot_key

from animspec.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "animspec", *args], capture_output=True, text=True)


def test_python_dash_m_runs_info():
    r = run("info", str(EXAMPLES / "swing.animbin"))
    assert r.returncode == 0, r.stderr
    assert "'swing': 30 frames (0.501 s NTSC, 0.600 s PAL), looping" in r.stdout
    assert "2 marker(s): 'left'@7, 'right'@22" in r.stdout


def test_dump_then_pack_is_byte_identical(tmp_path, capsys):
    for name in ("swing.animbin", "sparse.animbin"):
        src = EXAMPLES / name
        dumped = tmp_path / f"{name}.json"
        out = tmp_path / name
        assert main(["dump", str(src), "-o", str(dumped)]) == 0
        assert main(["pack", str(dumped), "-o", str(out)]) == 0
        assert out.read_bytes() == src.read_bytes()


def test_dump_has_the_documented_shape(capsys):
    assert main(["dump", str(EXAMPLES / "swing.animbin")]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "animbin" and doc["version"] == 1
    anim = doc["animations"][0]
    assert set(anim) == {"name", "flags", "length", "tracks", "markers"}
    assert anim["markers"][0] == {"name": "left", "frame": 7}
    key = anim["tracks"][0]["keys"][0]
    assert key == {"frame": 0, "key_type": 0, "rotation": [4096, 0, 0, 0]}


def test_edited_dump_packs_to_the_edit(tmp_path, capsys):
    main(["dump", str(EXAMPLES / "swing.animbin")])
    doc = json.loads(capsys.readouterr().out)
    doc["animations"][0]["markers"][0]["frame"] = 9
    doc["animations"][0]["tracks"][1]["keys"].append({"frame": 5, "key_type": 1, "translation": [1, 2, 3]})
    src = tmp_path / "edit.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "edit.animbin"
    assert main(["pack", str(src), "-o", str(out)]) == 0
    r = run("dump", str(out))
    back = json.loads(r.stdout)
    assert back["animations"][0]["markers"][0]["frame"] == 9
    assert back["animations"][0]["tracks"][1]["keys"][-1] == {"frame": 5, "key_type": 1, "translation": [1, 2, 3]}


def test_pack_reports_the_json_path_and_writes_nothing(tmp_path, capsys):
    main(["dump", str(EXAMPLES / "swing.animbin")])
    doc = json.loads(capsys.readouterr().out)
    doc["animations"][1]["tracks"][0]["keys"][3]["rotation"] = [1, 2, "three", 4]
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "bad.animbin"
    assert main(["pack", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "$.animations[1].tracks[0].keys[3].rotation[2]: expected an integer" in err
    assert not out.exists()
    assert os.listdir(tmp_path) == ["bad.json"]


def test_pack_value_out_of_range_leaves_existing_output_untouched(tmp_path, capsys):
    out = tmp_path / "keep.animbin"
    out.write_bytes(b"precious")
    src = tmp_path / "big.json"
    src.write_text(json.dumps({"format": "animbin", "version": 1, "animations": [
        {"name": "a", "flags": 1, "length": 70000, "tracks": [], "markers": []}]}))
    assert main(["pack", str(src), "-o", str(out)]) == 2
    assert "animations[0].length: 70000 does not fit" in capsys.readouterr().err
    assert out.read_bytes() == b"precious"
    assert sorted(os.listdir(tmp_path)) == ["big.json", "keep.animbin"]


def test_validate_exit_status_and_json(tmp_path):
    bad = tmp_path / "bad.animbin"
    bad.write_bytes(one_clip([rot_key(0, 4096, 0, 0, 0), raw_key(1, 7)]))
    broken = tmp_path / "broken.animbin"
    broken.write_bytes(b"ANIMBIN\x01\x01")
    clean = str(EXAMPLES / "swing.animbin")

    assert run("validate", clean).returncode == 0
    assert run("validate", str(EXAMPLES / "sparse.animbin")).returncode == 0  # warnings only
    r = run("validate", clean, str(bad), "--json")
    assert r.returncode == 1
    reports = json.loads(r.stdout)
    assert [rep["file"] for rep in reports] == [clean, str(bad)]
    assert reports[0]["findings"] == []
    f = next(f for f in reports[1]["findings"] if f["code"] == "unknown-key-type")
    assert f["severity"] == "error" and f["where"]["key"] == 1 and set(f) == {"code", "severity", "message", "where"}

    r = run("validate", str(bad), str(broken))
    assert r.returncode == 2
    assert "broken.animbin: byte 9 (0x9), field animations[0].name" in r.stderr


@pytest.mark.parametrize("command", ["info", "dump", "validate"])
def test_unreadable_input_is_one_line_without_traceback(tmp_path, command):
    f = tmp_path / "t.animbin"
    f.write_bytes((EXAMPLES / "swing.animbin").read_bytes()[:100])
    r = run(command, str(f))
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    # 9 header + 42 animation header + 4 track header + 4 keys of 11 bytes = 99: key 4's frame.
    assert r.stderr.count("\n") == 1
    assert f"{f}: byte 99 (0x63), field animations[0].tracks[0].keys[4].frame: data ends too early" in r.stderr


def test_unknown_format_and_missing_file(tmp_path):
    f = tmp_path / "x.bin"
    f.write_bytes(b"GLTF....")
    r = run("info", str(f))
    assert r.returncode == 2 and "not a file animspec knows" in r.stderr and "Traceback" not in r.stderr
    r = run("info", str(tmp_path / "missing.animbin"))
    assert r.returncode == 2 and "No such file" in r.stderr and "Traceback" not in r.stderr


def test_pack_refuses_to_overwrite_its_input(tmp_path):
    src = tmp_path / "a.json"
    src.write_text("{}")
    r = run("pack", str(src), "-o", str(src))
    assert r.returncode == 2 and src.read_text() == "{}"
