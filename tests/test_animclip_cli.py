"""The animspec command on .animclip files, run as a user runs it."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys

import pytest
from conftest import EXAMPLES
from test_animclip_support import read_header

from animspec.cli import main
from animspec.common.hashes import crc32

CLIPS = ["walk.animclip", "wave.performanceclip", "walk_lz4.animclip"]
NAMES = str(EXAMPLES / "joint_names.txt")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "animspec", *args], capture_output=True, text=True)


def test_info_with_and_without_joint_names():
    r = run("info", str(EXAMPLES / "walk.animclip"))
    assert r.returncode == 0, r.stderr
    assert "clip 'walk_forward' (hash ok)" in r.stdout
    assert "fps 30, duration 1 s, frames 31" in r.stdout
    assert f"[0] {crc32('root'):08X}  rot" in r.stdout
    assert "'camera_fov_scale': 31 value(s)" in r.stdout
    assert "11 section(s), in table order" in r.stdout and "Anim Clip Sample Data" in r.stdout
    r = run("info", str(EXAMPLES / "walk.animclip"), "--joint-names", NAMES)
    assert f"[2] {crc32('spine_01'):08X} spine_01  rot" in r.stdout
    r = run("info", str(EXAMPLES / "walk_lz4.animclip"))
    assert "LZ4-compressed DAT1" in r.stdout


def test_format_is_detected_from_bytes_not_extension(tmp_path):
    renamed = tmp_path / "clip.bin"
    shutil.copy(EXAMPLES / "wave.performanceclip", renamed)
    r = run("info", str(renamed))
    assert r.returncode == 0 and "clip 'wave_hello'" in r.stdout and "Rift Apart" in r.stdout
    assert run("validate", str(renamed)).returncode == 0


@pytest.mark.parametrize("name", CLIPS)
def test_dump_then_pack_is_byte_identical(tmp_path, name, capsys):
    dumped, out = tmp_path / f"{name}.json", tmp_path / name
    assert main(["dump", str(EXAMPLES / name), "-o", str(dumped)]) == 0
    assert main(["pack", str(dumped), "-o", str(out)]) == 0
    assert out.read_bytes() == (EXAMPLES / name).read_bytes()


def test_dump_shape_and_joint_names(capsys):
    assert main(["dump", str(EXAMPLES / "walk.animclip"), "--joint-names", NAMES]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "animclip" and set(doc) == {"format", "clip", "raw"}
    clip = doc["clip"]
    assert (clip["name"], clip["fps"], clip["duration"]) == ("walk_forward", 30.0, 1.0)
    pelvis = clip["joints"][1]
    assert pelvis["name"] == "pelvis" and pelvis["hash"] == f"{crc32('pelvis'):08X}"
    assert len(pelvis["rotation"]) == 4 and pelvis["translation"] == [0.0, 3891 / 4096, 0.0]
    assert [t["name"] for t in clip["custom_tracks"]] == ["foot_plant_l", "foot_plant_r", "camera_fov_scale"]
    assert len(clip["custom_tracks"][2]["values"]) == 31
    assert {s["section"] for s in doc["raw"]["sections"]} >= {"Anim Clip Built", "Anim Clip Sample Data"}


def test_edited_dump_packs_relaid_and_reads_back(tmp_path, capsys):
    main(["dump", str(EXAMPLES / "walk_lz4.animclip")])
    doc = json.loads(capsys.readouterr().out)
    doc["clip"]["name"] = "walk_backward"
    doc["clip"]["custom_tracks"][0]["values"] = [0.25] * 40
    doc["clip"]["triggers"].append({"a": "00000001", "b": "00000000", "c": 0, "d": 30, "e": 0})
    src, out = tmp_path / "edit.json", tmp_path / "edit.animclip"
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(out)]) == 0
    data = out.read_bytes()
    h = read_header(data)
    assert data[36:40] == b"1TAD", "an edited LZ4 clip is written uncompressed"
    assert h["outer_size"] == h["size"] == len(data) - 36
    assert all(off % 16 == 0 for _, off, _ in h["table"])
    capsys.readouterr()
    main(["dump", str(out)])
    back = json.loads(capsys.readouterr().out)["clip"]
    assert back["name"] == "walk_backward"
    assert back["custom_tracks"][0]["values"] == [0.25] * 40
    assert back["custom_tracks"][1]["values"] == doc["clip"]["custom_tracks"][1]["values"]
    assert back["triggers"][-1] == {"a": "00000001", "b": "00000000", "c": 0, "d": 30, "e": 0}


def test_raw_only_dump_packs_and_raw_edits_count(tmp_path, capsys):
    main(["dump", str(EXAMPLES / "wave.performanceclip")])
    doc = json.loads(capsys.readouterr().out)
    del doc["clip"]
    built = next(s for s in doc["raw"]["sections"] if s["section"] == "Anim Clip Built")
    built["fps"] = 24.0
    src, out = tmp_path / "raw.json", tmp_path / "raw.performanceclip"
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(out)]) == 0
    capsys.readouterr()
    main(["dump", str(out)])
    assert json.loads(capsys.readouterr().out)["clip"]["fps"] == 24.0


def test_an_edit_of_raw_and_of_clip_at_once_is_refused_by_path(tmp_path, capsys):
    """raw's fps edited to 24 while clip.fps says 30: pack cannot tell which edit is meant
    (it used to let clip win in silence); with raw alone edited and clip made to agree, both
    apply, and a clip joint edit is applied to the frames."""
    main(["dump", str(EXAMPLES / "wave.performanceclip")])
    doc = json.loads(capsys.readouterr().out)
    built = next(s for s in doc["raw"]["sections"] if s["section"] == "Anim Clip Built")
    built["fps"] = 24.0
    doc["clip"]["duration"] = 2.5
    src, out = tmp_path / "both.json", tmp_path / "both.performanceclip"
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(out)]) == 2
    assert "$.clip.fps: differs from what raw gives (24.0), and raw was edited too" in capsys.readouterr().err
    assert not out.exists()
    built["fps"] = 30.0  # raw back as read: clip's edits apply
    doc["clip"]["joints"][0]["rotation"] = [1, 0, 0, 0]
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(out)]) == 0
    capsys.readouterr()
    main(["dump", str(out)])
    clip = json.loads(capsys.readouterr().out)["clip"]
    assert (clip["fps"], clip["duration"]) == (30.0, 2.5)
    assert clip["joints"][0]["rotation"] == pytest.approx([1, 0, 0, 0], abs=1e-4)


def test_pack_reports_json_paths(tmp_path, capsys):
    main(["dump", str(EXAMPLES / "walk.animclip")])
    doc = json.loads(capsys.readouterr().out)
    doc["clip"]["custom_tracks"][1]["values"][3] = "lots"
    src, out = tmp_path / "bad.json", tmp_path / "bad.animclip"
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(out)]) == 2
    assert "$.clip.custom_tracks[1].values[3]: expected a number" in capsys.readouterr().err
    doc["clip"]["custom_tracks"][1]["values"][3] = 0.0
    doc["clip"]["custom_tracks"].pop()
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(out)]) == 2
    assert "$.clip.custom_tracks: lists 2 tracks but the raw view has 3" in capsys.readouterr().err
    assert not out.exists()


def test_validate_exit_codes(tmp_path):
    clean = [str(EXAMPLES / n) for n in CLIPS]
    assert run("validate", *clean).returncode == 0
    bad = tmp_path / "bad.animclip"
    data = bytearray((EXAMPLES / "walk.animclip").read_bytes())
    struct.pack_into("<I", data, 4, 7)  # stale outer size
    bad.write_bytes(bytes(data))
    r = run("validate", str(bad), "--json", "--joint-names", NAMES)
    assert r.returncode == 1
    [report] = json.loads(r.stdout)
    # (and walk's stand-in Sample Data / Motion Data as INFO: see test_animclip_validate.py)
    assert [f["code"] for f in report["findings"] if f["severity"] != "info"] == ["outer-size-mismatch"]
    cut = tmp_path / "cut.animclip"
    cut.write_bytes(bytes(data[:500]))
    r = run("validate", str(cut))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "cut.animclip: byte" in r.stderr


@pytest.mark.parametrize("command", ["info", "dump", "validate"])
def test_truncated_clip_is_one_line_without_traceback(tmp_path, command):
    f = tmp_path / "t.animclip"
    f.write_bytes((EXAMPLES / "walk_lz4.animclip").read_bytes()[:700])
    r = run(command, str(f))
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1
    assert "byte 36 (0x24), field dat1: LZ4-compressed DAT1 body" in r.stderr
