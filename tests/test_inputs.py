"""Issue 12: what animspec reads. Only regular files (a FIFO or device is reported, never
waited on), up to a size limit checked before reading; side files that are not UTF-8, hex
strings that are not u32s, and nonsense values are one clear error or finding, never a
traceback or silence.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc

import pytest
from conftest import EXAMPLES

from animspec.cli import main
from animspec.common.errors import ParseError

SWING = EXAMPLES / "swing.animbin"
WALK = EXAMPLES / "walk.animclip"
PYTHON = [sys.executable, "-m", "animspec"]
GIB = 1 << 30


def run(*args, cwd=None, memory=None, timeout=60):
    """The CLI in a child process: a hang is a TimeoutExpired (the test fails, nothing waits
    forever), and ``memory`` caps its heap so a read without a limit fails fast."""

    def limit():
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))

    return subprocess.run(PYTHON + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, preexec_fn=limit)


# --------------------------------------------------------------------------- special files


@pytest.mark.parametrize("command", ["validate", "info", "dump", "play"])
def test_a_fifo_named_directly_is_refused_at_once(tmp_path, command):
    fifo = tmp_path / "clip.animbin"
    os.mkfifo(fifo)
    r = run(command, fifo, timeout=30)
    assert r.returncode == 2, r.stderr
    assert f"{fifo}: a FIFO (named pipe), not a regular file" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("command", ["validate", "info", "convert"])
def test_a_fifo_in_a_folder_is_reported_and_skipped(tmp_path, command):
    folder = tmp_path / "clips"
    folder.mkdir()
    (folder / "swing.animbin").write_bytes(SWING.read_bytes())
    os.mkfifo(folder / "stuck.animbin")
    extra = ["-o", tmp_path / "out"] if command == "convert" else []
    r = run(command, folder, "--no-progress", *extra, timeout=60)
    assert r.returncode == 0, r.stderr
    assert f"animspec: warning: {folder / 'stuck.animbin'}: a FIFO (named pipe), not a regular file: not read" in r.stderr
    assert "1 skipped" in r.stdout


def test_side_files_that_are_fifos_are_refused(tmp_path):
    fifo = tmp_path / "names.txt"
    os.mkfifo(fifo)
    r = run("hash", "--names-file", fifo, timeout=30)
    assert r.returncode == 2 and "not a regular file" in r.stderr


def test_a_device_is_refused_before_reading(tmp_path):
    # Without the check this reads /dev/zero until memory runs out (capped here at 1 GiB).
    start = time.perf_counter()
    r = run("validate", "/dev/zero", memory=GIB, timeout=60)
    assert r.returncode == 2 and "/dev/zero: a character device, not a regular file" in r.stderr, r.stderr
    assert time.perf_counter() - start < 30


def test_a_file_past_the_size_limit_is_refused_from_its_size(tmp_path):
    from animspec.common.inputs import MAX_INPUT_BYTES

    big = tmp_path / "big.animbin"
    with open(big, "wb") as f:  # sparse: no disk space used
        f.write(SWING.read_bytes())
        f.truncate(MAX_INPUT_BYTES + 1)
    r = run("validate", big, memory=GIB // 2, timeout=60)
    assert r.returncode == 2, r.stderr
    assert f"{big}: {MAX_INPUT_BYTES + 1} bytes is more than the {MAX_INPUT_BYTES} bytes (1 GiB) animspec reads" in r.stderr
    from animspec.animbin import read_file

    tracemalloc.start()
    try:
        with pytest.raises(ParseError, match="more than the"):
            read_file(big)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # nothing of it was read


def test_the_size_limit_is_the_largest_dat1_accepted():
    from animspec.animclip.compression import MAX_DAT1_SIZE
    from animspec.common.inputs import MAX_INPUT_BYTES

    assert MAX_INPUT_BYTES == MAX_DAT1_SIZE == GIB


@pytest.mark.parametrize("module", ["animbin", "meshbin", "animclip"])
def test_read_file_raises_only_parse_error(tmp_path, module):
    import importlib

    read_file = importlib.import_module(f"animspec.{module}").read_file
    os.mkfifo(tmp_path / "fifo")
    for path, reason in [(tmp_path / "missing", "No such file"), (tmp_path, "a folder"), (tmp_path / "fifo", "a FIFO")]:
        with pytest.raises(ParseError) as info:
            read_file(path)
        assert info.value.path == str(path) and reason in str(info.value)
        assert str(info.value).startswith(f"{path}: ")


# --------------------------------------------------------------------------- text side files


LATIN1 = "Hüfte\nKnie\n".encode("latin-1")  # not UTF-8: 0xFC at byte 1


@pytest.mark.parametrize("args", [
    lambda f: ["validate", str(WALK), "--joint-names", f],
    lambda f: ["info", str(WALK), "--joint-names", f],
    lambda f: ["dump", str(WALK), "--joint-names", f],
    lambda f: ["hash", "--names-file", f],
    lambda f: ["convert", str(EXAMPLES / "pendulum_rig.glb"), "-o", f + ".animbin", "--joints", f],
    lambda f: ["convert", str(EXAMPLES / "pendulum_rig.glb"), "-o", f + ".animbin", "--markers", f],
], ids=["validate", "info", "dump", "hash", "convert-joints", "convert-markers"])
def test_a_side_file_that_is_not_utf8_is_one_error(tmp_path, capsys, args):
    side = tmp_path / "side.txt"
    side.write_bytes(LATIN1)
    assert main(args(str(side))) == 2
    err = capsys.readouterr().err
    assert f"{side}: byte 1 (0x1), field line 1: this" in err and "is not UTF-8 text (byte 0xfc); save it as UTF-8" in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- dumps


def _walk_dump(tmp_path):
    out = tmp_path / "walk.json"
    assert main(["dump", str(WALK), "-o", str(out)]) == 0
    return json.loads(out.read_text())


def _section(doc, name):
    return next(s for s in doc["raw"]["sections"] if s["section"] == name)


def _pack(tmp_path, doc, capsys):
    src = tmp_path / "edited.json"
    src.write_text(json.dumps(doc))
    status = main(["pack", str(src), "-o", str(tmp_path / "out.animclip")])
    return status, capsys.readouterr().err, src


@pytest.mark.parametrize("bad", ["-1", "+1", " 1", "1_0", "0x-1"])
def test_a_hex_u32_that_is_not_hex_digits_is_refused(tmp_path, capsys, bad):
    doc = _walk_dump(tmp_path)
    hashes = _section(doc, "Anim Clip Joint Hashes")
    index = doc["raw"]["sections"].index(hashes)
    hashes["hashes"][0] = bad
    status, err, src = _pack(tmp_path, doc, capsys)
    assert status == 2 and "Traceback" not in err
    assert f"{src}: $.raw.sections[{index}].hashes[0]: expected up to 8 hex digits" in err


def test_a_custom_track_offset_of_minus_one_is_refused(tmp_path, capsys):
    doc = _walk_dump(tmp_path)
    tracks = _section(doc, "Anim Clip Custom Tracks")
    index = doc["raw"]["sections"].index(tracks)
    entry = tracks["entries"][0]
    key = "ofs_data" if "ofs_data" in entry else next(k for k, v in entry.items() if isinstance(v, str))
    entry[key] = "-1"
    status, err, src = _pack(tmp_path, doc, capsys)
    assert status == 2 and f"{src}: $.raw.sections[{index}].entries[0].{key}: expected up to 8 hex digits" in err


@pytest.mark.parametrize("value", ["nan", "inf", -30.0, 0.0])
def test_a_nonsense_clip_fps_edit_is_refused(tmp_path, capsys, value):
    doc = _walk_dump(tmp_path)
    doc["clip"]["fps"] = value
    status, err, src = _pack(tmp_path, doc, capsys)
    assert status == 2 and f"{src}: $.clip.fps: {value!r} is not a clip fps: expected a positive number" in err


def test_a_nan_fps_in_the_file_is_a_validation_error(tmp_path, capsys):
    """raw.sections keeps what a file really holds, so a NaN packs; validate says so."""
    doc = _walk_dump(tmp_path)
    _section(doc, "Anim Clip Built")["fps"] = "nan"
    doc["clip"]["fps"] = None
    status, err, _ = _pack(tmp_path, doc, capsys)
    assert status == 0, err
    out = tmp_path / "out.animclip"
    assert main(["validate", str(out)]) == 1
    assert "error: clip-timing:" in capsys.readouterr().out


def test_a_null_custom_track_name_is_refused_not_ignored(tmp_path, capsys):
    doc = _walk_dump(tmp_path)
    named = [i for i, t in enumerate(doc["clip"]["custom_tracks"]) if t["name"] is not None]
    assert named, "the example clip has named custom tracks"
    doc["clip"]["custom_tracks"][named[0]]["name"] = None
    status, err, src = _pack(tmp_path, doc, capsys)
    assert status == 2 and f"{src}: $.clip.custom_tracks[{named[0]}].name: null would remove the track name" in err


def _swing_dump(tmp_path):
    out = tmp_path / "swing.json"
    assert main(["dump", str(SWING), "-o", str(out)]) == 0
    return json.loads(out.read_text())


@pytest.mark.parametrize("member, index, path", [
    ("rotation", 1, "rotation[1]"),
    ("rotation", 0, "rotation[0]"),
])
def test_pack_range_errors_name_the_file_and_the_json_path(tmp_path, capsys, member, index, path):
    doc = _swing_dump(tmp_path)
    key = doc["animations"][0]["tracks"][0]["keys"][2]
    key[member][index] = 40000  # an s2 holds -32768..32767
    src = tmp_path / "edited.json"
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(tmp_path / "o.animbin")]) == 2
    err = capsys.readouterr().err
    assert f"{src}: $.animations[0].tracks[0].keys[2].{path}: 40000 does not fit (-32768..32767)" in err


def test_pack_range_errors_of_other_fields(tmp_path, capsys):
    doc = _swing_dump(tmp_path)
    doc["animations"][0]["tracks"][0]["type"] = 300
    src = tmp_path / "edited.json"
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(tmp_path / "o.animbin")]) == 2
    assert f"{src}: $.animations[0].tracks[0].type: 300 does not fit (0..255)" in capsys.readouterr().err
    mesh = tmp_path / "mesh.json"
    assert main(["dump", str(EXAMPLES / "pendulum.meshbin"), "-o", str(mesh)]) == 0
    doc = json.loads(mesh.read_text())
    doc["vertices"][1]["position"][2] = 1 << 40
    mesh.write_text(json.dumps(doc))
    assert main(["pack", str(mesh), "-o", str(tmp_path / "o.meshbin")]) == 2
    assert f"{mesh}: $.vertices[1].position[2]: {1 << 40} does not fit" in capsys.readouterr().err


def test_translation_range_errors_name_the_translation(tmp_path):
    from animspec.animbin.jsonio import json_path

    doc = {"animations": [{"tracks": [{"keys": [{"translation": [0, 0, 0]}]}]}]}
    assert json_path("animations[0].tracks[0].keys[0].value.z", doc) == "$.animations[0].tracks[0].keys[0].translation[2]"
    assert json_path("animations[0].tracks[0].keys[0].value.z") == "$.animations[0].tracks[0].keys[0].rotation[3]"


# --------------------------------------------------------------------------- options, selections


@pytest.mark.parametrize("args", [
    ["validate", str(SWING), "--bones", "-1"],
    ["validate", str(SWING), "--bones", "0"],
    ["play", str(SWING), "--step", "0"],
    ["play", str(SWING), "--seconds", "nan"],
    ["play", str(SWING), "--seconds", "inf"],
])
def test_nonsense_numbers_on_the_command_line_are_refused(capsys, args):
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    assert f"error: argument {args[2]}: " in capsys.readouterr().err


def test_a_folder_and_a_glob_that_select_nothing_agree(tmp_path, capsys):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "readme.txt").write_text("no clips here\n")
    results = {}
    for arg in [str(folder), str(tmp_path / "*.animbin"), str(folder / "*.txt")]:
        status = main(["validate", arg, "--no-progress"])
        results[arg] = (status, capsys.readouterr())
    for arg, (status, captured) in results.items():
        assert status == 2, (arg, captured)
        assert f"animspec: error: {arg}: " in captured.err
        assert "summary: 1 file(s): 0 ok, 0 with errors, 1 failed" in captured.out
    assert "no file animspec reads is in this folder (1 file(s) of no known format skipped)" in results[str(folder)][1].err
    assert "this glob matches no path" in results[str(tmp_path / "*.animbin")][1].err
