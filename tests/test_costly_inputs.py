"""Issue 21, item 3: inputs that cost far more than their size.

A few hundred bytes of ANIMBIN may declare a clip of 65,535 frames on 255 joints: ``play``,
``compare`` and ``plot`` stream it in chunks of ticks (memory of one chunk, whatever the
length), ``--seconds`` past the console's 16-bit frame counter and ``play --json`` /
``plot`` past what they print or draw are refused with the largest value that fits.
Section tables, findings and dumps stay inside their documented bounds, and the web
viewer's LZ4 has the Python side's ratio cap. Memory is measured with tracemalloc, as in
tests/test_hardening.py; the bounds are those of docs/hardening.md.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import struct
import subprocess
import tracemalloc

import lz4.block
import pytest
from conftest import ROOT, anim_header, header, rot_key, track_header
from test_animclip_support import assemble

from animspec.animbin import read_bytes as read_animbin
from animspec.animbin.playback import MAX_VSYNCS, max_seconds
from animspec.animbin.poses import MAX_JSON_POSES
from animspec.cli import main

MB = 1 << 20

PLAYBACK_PEAK_BYTES = 48 * MB
"""docs/hardening.md: peak traced memory of play, compare and plot, whatever the clip's length."""
JSON_PEAK_BYTES = 16 * MB
"""docs/hardening.md: peak traced memory of ``play --json``, whatever the clip's length."""


def long_clip(joints: int) -> bytes:
    """One looping animation of 65,535 frames, two keys on each of ``joints`` joints: 441
    bytes for 15 joints, 6,681 for 255."""
    body = b"".join(
        track_header(0, j, 2) + rot_key(0, 4096, 0, 0, 0) + rot_key(65534, 0, 4096, 0, 0) for j in range(joints)
    )
    return header(1) + anim_header(b"long", 1, 65535, joints, 0) + body


class _Counting(io.TextIOBase):
    """A stdout that only counts what is written to it."""

    def __init__(self) -> None:
        self.chars = 0

    def write(self, text: str) -> int:
        self.chars += len(text)
        return len(text)


def run_traced(argv: list[str]) -> tuple[int, int, int, str]:
    """(exit status, peak traced bytes, characters written to stdout, stderr) of ``argv``."""
    out, err = _Counting(), io.StringIO()
    tracemalloc.start()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return status, peak, out.chars, err.getvalue()


@pytest.fixture(scope="module")
def long_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("long")
    files = {}
    for joints, size in ((15, 441), (255, 6681)):
        data = long_clip(joints)
        assert len(data) == size
        path = folder / f"long{joints}.animbin"
        path.write_bytes(data)
        files[joints] = path
    return files


# --------------------------------------------------------------------------- ANIMBIN playback


# The 255-joint file is played for 30 s (1,798 ticks, seven chunks): the whole clip is 16.7 M
# joint-ticks of arithmetic, about 30 s of CPU even streamed, too slow under tracemalloc for a
# test; the 15-joint file is played whole (65,535 ticks).
RUNS = {15: [], 255: ["--seconds", "30"]}


@pytest.mark.parametrize("joints", [15, 255])
def test_compare_of_a_long_clip_is_streamed_in_bounded_memory(long_files, joints):
    argv = ["compare", str(long_files[joints]), "--json"] + RUNS[joints]
    status, peak, chars, err = run_traced(argv)
    assert status == 0, err
    assert peak <= PLAYBACK_PEAK_BYTES, f"{peak / MB:.1f} MB"
    report = json.loads(_stdout(argv))
    assert report[0]["ticks"] == (65535 if joints == 15 else 1798) and len(report[0]["joints"]) == joints


def _stdout(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue()


@pytest.mark.parametrize("joints", [15, 255])
def test_play_summary_of_a_long_clip_is_streamed_in_bounded_memory(long_files, joints):
    argv = ["play", str(long_files[joints])] + ([] if joints == 15 else ["--seconds", "120"])
    status, peak, chars, err = run_traced(argv)
    assert status == 0, err
    assert peak <= PLAYBACK_PEAK_BYTES, f"{peak / MB:.1f} MB"


def test_play_json_prints_tick_by_tick_in_bounded_memory(long_files):
    """The 441-byte file for 60 s (3,596 ticks x 15 joints): printed as it goes, so memory
    does not grow with the ticks (the whole clip, 58 MB of JSON, measured 6.7 MB)."""
    status, peak, chars, err = run_traced(["play", str(long_files[15]), "--json", "--seconds", "60"])
    assert status == 0, err
    assert chars > 3_000_000  # every tick was printed ...
    assert peak <= JSON_PEAK_BYTES, f"{peak / MB:.1f} MB"  # ... none of them held


def test_play_json_past_its_cap_is_refused_naming_the_seconds_that_fit(long_files, capsys):
    assert main(["play", str(long_files[255]), "--json"]) == 2
    err = capsys.readouterr().err
    fits = MAX_JSON_POSES // 255  # 8,224 ticks
    assert "65,535 ticks x 255 joints" in err and f"--seconds S with S at most {fits / (60000 / 1001):.3f}" in err
    assert main(["play", str(long_files[255]), "--json", "--seconds", f"{(fits + 2) / (60000 / 1001):.3f}"]) == 2
    assert f"{fits + 2:,} ticks x 255 joints" in capsys.readouterr().err


def test_streamed_json_is_the_whole_documents_text(long_files, capsys):
    """Streaming changes nothing in what is printed (README transcripts rely on it)."""
    from animspec.animbin.poses import pose_stream, poses
    from animspec.common import jsonfmt

    animation = read_animbin(long_files[15].read_bytes()).animations[0]
    for mode in ("engine", "reference"):
        whole = jsonfmt.dumps(poses(animation, mode=mode, deltas=[1, 1, 7, 1] * 300).to_json())
        out = io.StringIO()
        pose_stream(animation, mode=mode, deltas=[1, 1, 7, 1] * 300).write_json(out)
        assert out.getvalue() == whole


@pytest.mark.parametrize("command", ["play", "compare", "plot"])
def test_seconds_past_the_frame_counter_are_refused_with_the_largest_value(long_files, tmp_path, capsys, command):
    argv = [command, str(long_files[15]), "--seconds", "1e9"]
    if command == "plot":
        argv += ["-o", str(tmp_path / "out.png")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"the largest is {max_seconds('ntsc'):.3f} at 59.94 Hz ({MAX_VSYNCS:,} vsyncs" in err
    assert "Traceback" not in err and not (tmp_path / "out.png").exists()


def test_plot_past_its_tick_cap_is_refused_and_a_narrower_run_is_drawn(long_files, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "curves.png"
    assert main(["plot", str(long_files[15]), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "65535 vsyncs" in err and "at most 8192 (136.670 s)" in err and "--seconds" in err
    assert not out.exists()
    status, peak, _, err = run_traced(["plot", str(long_files[255]), "-o", str(out), "--seconds", "60"])
    assert status == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert peak <= PLAYBACK_PEAK_BYTES, f"{peak / MB:.1f} MB"


# --------------------------------------------------------------------------- web viewer LZ4

NODE_INFLATE = r"""
const path = require('path');
const Plain = Uint8Array;
let largest = 0;
globalThis.Uint8Array = class extends Plain {
  constructor(...args) { super(...args); if (typeof args[0] === 'number') largest = Math.max(largest, args[0]); }
};
const formats = require(path.resolve(process.argv[1]));
const data = new Plain(require('fs').readFileSync(process.argv[2]));
const result = formats.inflateAnimclip(data);
process.stdout.write(JSON.stringify({ largest: largest, error: (result && result.error) || null }));
"""


def lz4_declaring(size: int) -> bytes:
    """A tiny LZ4-compressed .animclip whose headers declare a DAT1 of ``size`` bytes."""
    plain = assemble([], outer_size=size, dat1_size=size)
    return plain[:36] + lz4.block.compress(plain[36:], store_size=False)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (CI has node)")
def test_the_web_viewers_lz4_refuses_a_ratio_past_64_before_allocating(tmp_path):
    bomb = tmp_path / "bomb.animclip"
    bomb.write_bytes(lz4_declaring(1 << 30))
    block = len(bomb.read_bytes()) - 36
    run = subprocess.run(["node", "-e", NODE_INFLATE, str(ROOT / "web" / "js" / "formats.js"), str(bomb)],
                         capture_output=True, text=True, timeout=120, check=True)
    result = json.loads(run.stdout)
    assert result["largest"] <= 64 * block + 64, f"allocated {result['largest']} bytes from a {block}-byte block"
    assert "64x" in result["error"]


# --------------------------------------------------------------------------- findings, tables, dumps


def many_findings_animbin(tracks: int = 1000, keys: int = 11) -> bytes:
    """About 37 KB: every track on a joint past the bones, every key of an unknown type
    (3 bytes each), past the clip's end and not after the previous one: four findings of
    different codes per key or track."""
    body = b"".join(
        track_header(9, 250, keys) + b"".join(struct.pack("<HB", 65535 - k, 7) for k in range(keys))
        for _ in range(tracks)
    )
    return header(1) + anim_header(b"x", 0xFF00, 3, tracks, 0) + body


def traced_call(run) -> tuple[object, int]:
    tracemalloc.start()
    try:
        result = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


@pytest.mark.parametrize("tracks, keys", [(1000, 11), (200, 58)])
def test_many_findings_on_a_small_animbin_stay_inside_the_animbin_bound(tracks, keys):
    from animspec.animbin import validate

    data = many_findings_animbin(tracks, keys)
    validate(read_animbin(many_findings_animbin(2, 3)))  # first-use imports are not the file's cost
    findings, peak = traced_call(lambda: validate(read_animbin(data)))
    assert {"unknown-key-type", "key-after-end", "keys-not-increasing", "joint-out-of-range"} <= {f.code for f in findings}
    assert any("more unknown-key-type finding(s) not listed" in f.message for f in findings)  # counted, not listed
    assert peak <= 48 * len(data) + MB, f"{peak / len(data):.1f}x the file"


@pytest.mark.parametrize("case", ["animbin unknown keys", "meshbin uvs"])
def test_a_dump_stays_inside_its_documented_multiple_of_the_file(case, tmp_path):
    from test_hardening import HOSTILE

    from animspec.dumps import DUMP_MEMORY_MULTIPLE, dump_file, dump_text

    fmt, make = HOSTILE[case]
    data = make(MB // 8)
    source = tmp_path / f"hostile.{fmt}"
    source.write_bytes(data)
    dump_text(str(source))  # first-use imports are not the file's cost
    bound = DUMP_MEMORY_MULTIPLE * len(data) + MB
    text, peak = traced_call(lambda: dump_text(str(source)))
    assert peak <= bound, f"stdout: {peak / len(data):.1f}x the file"
    written, peak = traced_call(lambda: dump_file(str(source), str(tmp_path / "out.json")))
    assert peak <= bound, f"-o: {peak / len(data):.1f}x the file"
    assert written == text == (tmp_path / "out.json").read_text()


def test_streamed_dump_text_is_the_one_jsonfmt_gives():
    from animspec.common import jsonfmt
    from animspec.formats import NO_OPTIONS, load

    for example in sorted((ROOT / "examples").iterdir()):
        if example.suffix not in {".animbin", ".meshbin", ".animclip", ".performanceclip"}:
            continue
        fmt, model = load(str(example))
        doc = fmt.to_json(model, NO_OPTIONS)
        assert "".join(jsonfmt.iter_dumps(doc)) == jsonfmt.dumps(doc), example.name


TABLE_ENTRY_BYTES_ACCEPTED = 512
TABLE_ENTRY_BYTES_REFUSED = 1536
"""docs/hardening.md: an .animclip costs at most 24x its DAT1 + 1 MB, plus this much per
section-table entry (a 12-byte entry is at least one Python object; a refusal is worded by
the generated parser, which keeps a record per entry it read)."""


@pytest.mark.parametrize("tag, size, align, outcome", [
    (0xD070D358, 5, 1, "accepted"),  # Sample Elem: one record each
    (0xD070D358, 4, 4, "accepted"),  # Sample Elem: leftover bytes only
    (0x9DF23F77, 4, 4, "refused"),  # Built: too short, refused at entry 0's payload
])
def test_sixteen_thousand_sections_of_one_tag_stay_inside_the_animclip_bound(tag, size, align, outcome):
    from animspec.common.errors import ParseError
    from animspec.formats import by_name

    animclip = by_name("animclip")

    def read_and_validate(data: bytes) -> str:
        try:
            model = animclip.read(data, "hostile")
        except ParseError:
            return "refused"
        animclip.validate(model)
        return "accepted"

    read_and_validate(assemble([(tag, bytes(size))] * 100, align=align))  # first-use imports
    data = assemble([(tag, bytes(size))] * 16000, align=align)
    got, peak = traced_call(lambda: read_and_validate(data))
    assert got == outcome
    per_entry = TABLE_ENTRY_BYTES_ACCEPTED if outcome == "accepted" else TABLE_ENTRY_BYTES_REFUSED
    dat1 = len(data) - 36
    assert peak <= 24 * dat1 + MB + per_entry * 16000, f"{peak / dat1:.1f}x the DAT1"


# --------------------------------------------------------------------------- chunks change nothing


@pytest.mark.parametrize("chunk", [1, 3, 7, 64])
def test_engine_playback_in_chunks_is_the_playback_in_one_piece(chunk):
    import numpy as np

    from animspec.animbin.playback import play_engine, play_engine_chunks

    for example in ("swing.animbin", "sparse.animbin"):
        for animation in read_animbin((ROOT / "examples" / example).read_bytes()).animations:
            deltas = [1, 1, 7, 1, 2, 3] * 20
            whole = play_engine(animation, deltas)
            pieces = list(play_engine_chunks(animation, deltas, chunk_ticks=chunk))
            assert [first for first, _ in pieces] == list(range(0, len(deltas), chunk))
            assert np.array_equal(np.concatenate([p.frames for _, p in pieces]), whole.frames)
            assert np.array_equal(np.concatenate([p.rotations for _, p in pieces]), whole.rotations)
            assert pieces[-1][1].end_frame == whole.end_frame


def test_play_and_compare_say_the_same_whatever_the_chunk_size(monkeypatch):
    """Summaries, JSON and comparisons gathered over many chunks equal the one-chunk ones."""
    from animspec.animbin import playback
    from animspec.animbin.compare import compare
    from animspec.animbin.poses import pose_stream

    animation = read_animbin((ROOT / "examples" / "sparse.animbin").read_bytes()).animations[0]

    def outputs():
        texts = []
        for mode in ("engine", "reference"):
            stream = pose_stream(animation, mode=mode, seconds=3.0, step=2)
            out = io.StringIO()
            stream.write_json(out)
            texts.append(stream.summary() + out.getvalue())
        report = compare(animation, seconds=3.0, authored="pal").to_json()
        return texts[0], texts[1], report

    one_piece = outputs()
    monkeypatch.setattr(playback, "CHUNK_ELEMENTS", 5)  # a tick or two per chunk
    summary, text, report = outputs()
    assert summary == one_piece[0] and text == one_piece[1]
    assert report["joints"] and _same_report(report, one_piece[2])


def _same_report(got: dict, want: dict) -> bool:
    for a, b in zip(got["joints"], want["joints"], strict=True):
        for key, value in b.items():
            if isinstance(value, float):
                assert a[key] == pytest.approx(value, rel=1e-9, abs=1e-9), key
            else:
                assert a[key] == value, key
    assert {k: v for k, v in got.items() if k != "joints"} == {k: v for k, v in want.items() if k != "joints"}
    return True


def test_validating_many_sections_of_one_tag_looks_each_lookup_up_once():
    """Each section's check looked sections up by scanning them all: 16,000 Sample Elem
    sections took 10 s of CPU, 65,535 about three minutes. Counted, not timed: the model's
    section list is walked a bounded number of times, whatever the number of sections."""
    from animspec.formats import by_name

    animclip = by_name("animclip")
    model = animclip.read(assemble([(0xD070D358, bytes(4))] * 4000, align=4), "many")

    class CountingList(list):
        walks = 0

        def __iter__(self):
            CountingList.walks += 1
            return super().__iter__()

    model.sections = CountingList(model.sections)
    findings = animclip.validate(model)
    assert any(f.code == "duplicate-section" for f in findings)
    assert CountingList.walks < 100, f"{CountingList.walks} walks over 4,000 sections"
    assert "section" not in vars(model)  # the lookup table is gone after validation
