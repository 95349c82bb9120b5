"""Issue 27 (items 2, 3, 7, 10): what is built from an .animclip's decode is bounded like the
decode (animspec.animclip.frames.inputs.check_built), the decode bound is on the file's size on disk,
a clip with no joints plays, --seconds is refused past the clip's end, and a reader gone away
ends play with 141. Every hostile clip is built here; peak memory of each command is measured
on its own subprocess (ru_maxrss)."""

from __future__ import annotations

import hashlib
import os
import random
import resource
import subprocess
import sys
from pathlib import Path

import lz4.block
import numpy as np
import pytest

from test_animclip_samples import LOOKUP, LOOPING, Clip, clip_file
from test_gltf_support import JointSpec, build_glb

from animspec.animclip import read_bytes
from animspec.animclip.frames import pose as pose_module
from animspec.animclip.frames.pose import clip_frames, frames_report
from animspec.animclip.frames.inputs import BuildTooLarge, file_size_on_disk, memory_bound
from animspec.common import jsonfmt
from animspec.common.errors import ParseError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LUNA = ROOT / "tests" / "fixtures" / "luna"
MiB = 1 << 20


def lookup_clip(joints: int, frames: int = 65535) -> bytes:
    """``joints`` joints, ``frames`` frames all showing one sample through a looping frame
    lookup: 2 bytes a frame on disk, 40 bytes a joint and frame decoded."""
    clip = Clip(joints, random.Random(0))
    clip.small = [(0, 4, 1, 0)]
    clip.samples = [[1]]
    return clip_file(clip, frames=frames, flags=LOOKUP | LOOPING, lookup=[0] * (frames + 1))


def flat_rig(bones: int) -> bytes:
    """A glTF rig of ``bones`` nodes named as :func:`lookup_clip`'s joints (joint_0 ...)."""
    return build_glb([JointSpec(f"joint_{i}", -1 if i == 0 else 0) for i in range(bones)])


def run(*args: object) -> tuple[subprocess.CompletedProcess, int]:
    """``animspec ARGS`` and the peak resident memory (bytes) of that one subprocess."""
    script = ("import resource, subprocess, sys\n"
              "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
              "sys.stdout.buffer.write(b'%d %d\\n' % (done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
              "sys.stdout.buffer.write(done.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script, sys.executable, "-m", "animspec", *map(str, args)],
                          capture_output=True, text=True, timeout=600)
    head, _, stderr = done.stdout.partition("\n")
    code, kb = map(int, head.split())
    return subprocess.CompletedProcess(args, code, "", stderr), kb * 1024


def assert_refused(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    for w in words:
        assert w in done.stderr, (w, done.stderr)


# ---------------------------------------------------------------------------- item 2


def test_play_json_streams_a_long_clip_in_bounded_memory(tmp_path):
    # 102 joints x 65,535 frames through a lookup to one sample (133 KB): 546 MB of JSON that
    # took 5.9 GB; now the decode (within max(256 MiB, 64 x file)) plus a chunk.
    path = tmp_path / "long.animclip"
    path.write_bytes(lookup_clip(102))
    done, peak = run("play", path, "--json", "--seconds", "60")  # 1,801 frames: the test stays quick
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert peak < 150 * MiB, peak  # decode: 1 sample; the old code held every frame's values


@pytest.mark.parametrize("clip, rig", [(LUNA / "root_motion_loop.animclip", None),
                                       (EXAMPLES / "walk.animclip", EXAMPLES / "biped_rig.glb")])
def test_play_json_in_chunks_is_the_text_of_the_whole_report(monkeypatch, clip, rig):
    # write_json's frames (one json.dumps per chunk, cut into rows) against jsonfmt's layout
    # of to_json() (one call per value), over chunks of one or two frames.
    from animspec.rigs import load_skeleton

    model = read_bytes(clip.read_bytes())
    frames = clip_frames(model)
    skeleton = load_skeleton(rig) if rig else None
    whole = jsonfmt.dumps(frames_report(model, frames, skeleton).to_json())
    monkeypatch.setattr(pose_module, "FRAME_CHUNK_VALUES", 40 if rig is None else 2000)
    report = frames_report(model, frames, skeleton)
    assert len(list(report.chunks())) > 2

    class Out:
        parts: list[str] = []

        def write(self, text: str) -> None:
            self.parts.append(text)

    out = Out()
    report.write_json(out)
    assert "".join(out.parts) == whole
    assert max(len(p) for p in out.parts) < len(whole) / 4  # written a piece at a time


OLD_OUTPUT = [  # sha256 of `animspec play ARGS` as the code before issue 27 (f6634a7) prints it, on the
    # examples as they are now (re-taken with that code when the examples change): byte for byte the same
    ("examples/walk.animclip --json", "e01d6ab45e5ab19b197231829cb66e8c007a15d34f94e8b3cd9eaae5c3bb8cd3"),
    ("examples/walk.animclip", "d8775673d5c83e37feb36c2462eba7db95307cff9dbbec5d6793261076d1c9b1"),
    ("examples/walk.animclip --json --skeleton examples/biped_rig.glb",
     "80c4ef1c59d981a4272340acea7e2aa0e20a71294a178b00a521ae857a37731c"),
    ("examples/walk.animclip --skeleton examples/biped_rig.glb",
     "dd98c303e2e00c5152bda05f2994a3096dbd4f96631f559c12ce2add86a017da"),
    ("examples/walk.animclip --json --joint-names examples/joint_names.txt --seconds 0.5",
     "a27ca29445030fa8d9766d36ac10dbe850384518f2a27ecc1ce5542b639f849c"),
    ("examples/walk_lz4.animclip --json", "e01d6ab45e5ab19b197231829cb66e8c007a15d34f94e8b3cd9eaae5c3bb8cd3"),
    ("examples/wave.performanceclip --json", "b374a57e7d2cb3a6ecc0b36cac2c0d31026782b74912299e70fee0aa519fe078"),
    ("examples/wave.performanceclip", "9c92e59943391de3f297ac902ef34f94f2ac2e3c7c3dbbf24aaf269ca0d6b090"),
    ("examples/wave.performanceclip --json --skeleton examples/biped_rig.glb",
     "0973e30a036b01a42119cc4534088b5973084adaa7f1fa075162449038c88291"),
    ("examples/walk.animclip --json --skeleton examples/pendulum_rig.glb",
     "52c15bdc9cc25d9b4ea5599dcec211f625784c87519b369f48abefa9a5bd40bb"),
    ("tests/fixtures/luna/loop_walk.animclip --json", "2fa8f69c3cb366d42a6fd0d95bf5a7d5bbf7e278ac45569e3fee2021cfc7660e"),
    ("tests/fixtures/luna/loop_walk.animclip", "6237e44138f2ca6fd3853875dce8febffe71d70b7a55b5a845b399cc29f6cb2e"),
    ("tests/fixtures/luna/root_motion_loop.animclip --json",
     "c40bc997c375f56407e54f1dc491de8bc42d03479082cda5307804a99f134585"),
    ("tests/fixtures/luna/root_motion.animclip", "3dc1d58fc44e1b6087dc8df9e615aa2a90af09f301b87424fe7aa766787181f2"),
    ("tests/fixtures/luna/holds.animclip --json", "845db7295c232bde4099c4ccd8cb3f4f17ee18b73e442bfdb911178f64882cca"),
    ("tests/fixtures/luna/scale_keys.animclip --json", "925a2873177da17d68f6a189a8d43d75f13369d8ef3b141aa1b37ed359975538"),
]


@pytest.mark.parametrize("args, digest", OLD_OUTPUT, ids=[a for a, _ in OLD_OUTPUT])
def test_play_prints_what_it_printed_before(args, digest):
    done = subprocess.run([sys.executable, "-m", "animspec", "play", *args.split()], cwd=ROOT,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert hashlib.sha256(done.stdout).hexdigest() == digest


def test_a_clip_on_a_big_rig_is_refused_before_world_transforms(tmp_path):
    # 1 joint x 65,535 frames on a 4,096-bone rig: 8 GiB of 4x4 transforms asked at once and
    # a traceback before; now frames x bones x 24 bytes is checked first and refused.
    clip, rig = tmp_path / "one.animclip", tmp_path / "big_rig.glb"
    clip.write_bytes(lookup_clip(1))
    rig.write_bytes(flat_rig(4096))
    done, peak = run("play", clip, "--skeleton", rig)
    assert_refused(done, str(clip), "--skeleton", "65,535 frame(s) x 4,096 bone(s)", "256 MiB", "--seconds")
    assert peak < 200 * MiB, peak


def test_play_on_a_rig_computes_world_positions_in_chunks(tmp_path):
    # 102 joints x 65,535 frames on a 102-bone rig: 3.1 GB before; 160 MB of positions is
    # within the bound, and only a chunk of them is held.
    clip, rig = tmp_path / "long.animclip", tmp_path / "rig.glb"
    clip.write_bytes(lookup_clip(102, frames=8000))
    rig.write_bytes(flat_rig(102))
    done, peak = run("play", clip, "--skeleton", rig)
    assert done.returncode == 0, done.stderr
    assert peak < 150 * MiB, peak  # all frames at once: 8000 x 102 x (128 + 56) bytes = 150 MB more


def test_convert_refuses_a_glb_past_the_bound_naming_it(tmp_path):
    # 102 joints x 65,535 frames: a 187 MB GLB that took 1.25 GB to build; refused before keys
    # are built, after the decode (within the decode bound).
    clip, rig, out = tmp_path / "long.animclip", tmp_path / "rig.glb", tmp_path / "out.glb"
    clip.write_bytes(lookup_clip(102))
    rig.write_bytes(flat_rig(102))
    done, peak = run("convert", clip, "--skeleton", rig, "-o", out)
    assert_refused(done, str(clip), "GLB", "65,535 frame(s) x 102 node(s)", "256 MiB", f"{clip.stat().st_size:,} bytes")
    assert not out.exists() and not list(tmp_path.glob("*.tmp*"))
    assert peak < 450 * MiB, peak  # the decode's 267 MB of frames, not the 1.25 GB build


def test_the_build_rule_is_the_decode_bound():
    e = BuildTooLarge("x", 10, 3, 999, 500, 7)
    assert (e.frames, e.bones, e.need, e.bound, e.file_size) == (10, 3, 999, 500, 7)
    assert e.frames_that_fit() == 5
    assert memory_bound(10) == 256 * MiB and memory_bound(100 * MiB) == 6400 * MiB


# ---------------------------------------------------------------------------- item 3


def test_the_lz4_decode_bound_is_on_the_file_size_on_disk(tmp_path):
    # 4,000 joints x 2,000 frames, no lookup: 320 MB decoded. The DAT1 is ~6 MB (the old bound,
    # 64 x 6 MB = 384 MB, let it through); LZ4 packs it to ~2 MB on disk: 256 MiB, refused.
    rng = np.random.default_rng(1)

    class Noisy(Clip):  # each 3,000-byte sample: its field, 1,000 random bytes, zeros
        def sample_payload(self, stride: int, lookup: list[int] | None = None) -> bytes:
            rows = np.zeros((2000, stride), np.uint8)
            rows[:, :1] = rng.integers(0, 256, (2000, 1), dtype=np.uint8)
            rows[:, 4:1004] = rng.integers(0, 256, (2000, 1000), dtype=np.uint8)
            return rows.tobytes()

    clip = Noisy(4000, random.Random(1))
    clip.records = [clip.records[0]] * 4000  # the block's first literal run stays short (the magic 1-3 bytes in)
    clip.small = [(0, 4, 8, 0)]
    clip.samples = [[0]] * 2000
    plain = clip_file(clip, frames=2000, stride=3000)
    packed = plain[:36] + lz4.block.compress(plain[36:], store_size=False)
    assert 40 * 4000 * 2000 <= 64 * (len(plain) - 36)  # within the old (per-DAT1) bound
    assert 40 * 4000 * 2000 > memory_bound(len(packed))  # past the bound on the file's size
    model = read_bytes(packed)
    assert file_size_on_disk(model) == len(packed) and model.layout.compression is not None
    with pytest.raises(ParseError, match="size on disk"):
        clip_frames(model)
    path = tmp_path / "bomb.animclip"
    path.write_bytes(packed)
    done, peak = run("play", path)
    assert_refused(done, str(path), "decode-size", "256 MiB")
    assert peak < 150 * MiB, peak  # the 6 MB DAT1, not the 320 MB decode
    validate = subprocess.run([sys.executable, "-m", "animspec", "validate", str(path)], capture_output=True, text=True,
                              timeout=120)
    assert "decode-size" in validate.stdout and validate.returncode == 1


# ---------------------------------------------------------------------------- item 7


def test_a_clip_with_no_joints_plays_its_frames_and_is_refused_on_a_rig(tmp_path):
    clip, rig = tmp_path / "empty.animclip", tmp_path / "rig.glb"
    clip.write_bytes(clip_file(Clip(0, random.Random(0)), frames=10))
    rig.write_bytes(flat_rig(3))
    for extra in ([], ["--json"], ["--skeleton", str(rig)], ["--json", "--skeleton", str(rig)]):
        done = subprocess.run([sys.executable, "-m", "animspec", "play", str(clip), *extra], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert ("no joints: the clip poses nothing" in done.stdout) or '"frame_count": 10' in done.stdout
    info = subprocess.run([sys.executable, "-m", "animspec", "info", str(clip)], capture_output=True, text=True, timeout=120)
    assert info.returncode == 0 and "no joints" in info.stdout
    done, _ = run("convert", clip, "--skeleton", rig, "-o", tmp_path / "out.glb")
    assert_refused(done, str(clip), "no joints", "--skeleton")


# ---------------------------------------------------------------------------- item 10


def test_seconds_past_the_clip_or_overflowing_is_refused_naming_the_largest(tmp_path):
    data = bytearray(lookup_clip(2, frames=100))
    model = read_bytes(bytes(data))
    fps_at = 36 + model.built.offset + 0x0C
    # The fastest playable fps (frames.inputs.PLAYABLE_FPS; 3.4e38 is refused as clip-timing): 1e300 s
    # of it is past any frame count, and 1 s is past this clip's 100 frames.
    data[fps_at : fps_at + 4] = np.float32(1e6).tobytes()
    path = tmp_path / "fast.animclip"
    path.write_bytes(bytes(data))
    for seconds in ("1e300", "1"):
        done, _ = run("play", path, "--seconds", seconds)
        assert_refused(done, "--seconds", "the largest --seconds", str(path))
    ok = subprocess.run([sys.executable, "-m", "animspec", "play", str(path), "--seconds", "1e-40"], capture_output=True,
                        text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr


def test_play_json_piped_to_head_ends_with_sigpipe_status(tmp_path):
    path = tmp_path / "long.animclip"
    path.write_bytes(lookup_clip(20, frames=3000))  # several MB of JSON: more than a pipe holds
    shell = f"{sys.executable} -m animspec play {path} --json | head -3; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300)
    assert done.returncode == 141, done.stderr
    assert done.stderr == "" and len(done.stdout.splitlines()) == 3
