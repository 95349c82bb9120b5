"""animspec's benchmarks in one run, side by side (issues 8 and 15). ``make bench`` or
``python bench/run.py`` (with the package installed, e.g. ``.venv/bin/python``);
``--quick`` shrinks every workload to check the script itself in a few seconds; ``--only
PART`` (repeatable) runs some of the parts below.

Workloads, each with the project's way and its comparisons, timed in this process (best
of several runs; the median too, since fresh 16 MB buffers cost page faults on some runs):

1. The largest legal ANIMBIN (5 animations x 50 tracks x 30 keys, 5 markers each).
2. A 16 MB synthetic .animclip written by animspec's writer: a 16 MB Sample Data section
   plus Built, Base State (150 joints), Joint Hashes, 8 custom tracks x 600 values,
   Trigger Data, Trigger Joint Names, Path, Sample Elem (2,000 samples), Motion Data.
3. Engine-faithful playback of a 50 x 30 clip for 10 s of NTSC vsyncs (bench/playback.py).
4. Validation of 10,000 small files (ANIMBIN, MESHBIN, .animclip) in a temporary folder.
5. Decoding a 16 MB .animclip Sample Data block into every sample's transforms (issue 22.6,
   bench/decode.py): animspec against a per-frame bit reader and ``numpy.unpackbits``.
6. The .animclip encoder as a codec on real motion capture (issue 30.4, bench/codec.py): bytes,
   ratio to raw float32, ACL's object-space error of the written file against a float64
   evaluation of the BVH (bench/bvh.py), encode and decode CPU time, per clip and setting; its
   own table, after the others (``make acl-check`` puts ACL beside it).

0. Start-up: whole ``animspec validate|info`` processes on one ANIMBIN against bare
   ``python -c pass`` and ``python -c "import numpy"``, CPU time of the child processes.

Every row prints CPU time (this process plus its waited-for children, from getrusage) and
wall time, medians and minimums; ratios use medians of the same run, and the machine's load
average is printed at the start and the end. CPU time is what to compare on a shared machine.

For 1 and 2: "loader" is what animspec uses (animbin.read_bytes, animclip.read_bytes;
animclip.read_file also reads the file). An ANIMBIN load keeps rotation-only tracks as
packed key tables and makes a RotationKey only when a key is used alone, so the ANIMBIN rows
also time a load followed by decoding every key, and a load followed by validation;
"generated, eager" is the class compiled from ksy/ (debug mode) reading the whole file:
``_read()`` of every seq field, then ``_fetch_instances()``, Kaitai's own "evaluate every
instance", which also builds the lazy typed views (for Sample Data: u4, u2 and f32 lists of
the whole payload); "release build" is the same, compiled from ksy/ WITHOUT --debug into a
temporary folder at bench time (what the compiler gives a user by default; never committed);
"hand-written struct loop" is what a user would otherwise write for ANIMBIN (tuples, no
checks); "open().read()" is the .animclip file's bytes and nothing else; "numpy" is a
bare read of the same bytes into numpy arrays (one copy of
each bulk table, no validation, no model objects): the practical limit. All start from the
file's bytes in memory, and each is checked to give the loader's values.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import tracemalloc
from io import BytesIO
from pathlib import Path
from typing import Any, Callable

import numpy as np
from kaitaistruct import KaitaiStream

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import codec  # noqa: E402  (bench/codec.py: the encoder on motion capture)
import decode  # noqa: E402  (bench/decode.py: the .animclip sample-decoding workload)
import playback  # noqa: E402  (bench/playback.py: its clip and timing helpers)

from animspec import animbin, animclip  # noqa: E402
from animspec.animbin.model import Animation, AnimbinFile, Marker, Name  # noqa: E402
from animspec.animclip.sections.base_state import JOINT_DTYPE  # noqa: E402
from animspec.animclip.sections.trigger_data import TRIGGER_DTYPE  # noqa: E402
from animspec.animclip.tags import (  # noqa: E402
    MAGIC_MSMR_MM,
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_JOINT_HASHES,
    TAG_MOTION_DATA,
    TAG_PATH,
    TAG_SAMPLE_DATA,
    TAG_SAMPLE_ELEM,
    TAG_TRIGGER_DATA,
)
from animspec.animclip.model import (  # noqa: E402
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Path as ClipPath,
    RawSection,
    SampleElem,
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
)
from animspec.batch import ValidateTask, collect, run_batch  # noqa: E402
from animspec.generated.animbin import Animbin  # noqa: E402
from animspec.generated.animclip import Animclip  # noqa: E402
from animspec.common.hashes import crc32  # noqa: E402

EAGER = (
    "generated, eager = the ksy-compiled class (debug mode): _read() of every seq field, then "
    "_fetch_instances() (every instance evaluated, the lazy typed views included)"
)


# ---------------------------------------------------------------------------- timing


class Timing:
    """CPU and wall seconds over repeated runs: best and median of each. CPU time
    (time.process_time) is what the comparisons use: it is robust to other work on a shared
    machine, where wall time also counts the time the process waited for a core."""

    def __init__(self, cpu: list[float], wall: list[float]) -> None:
        self.cpu_best, self.cpu_median = min(cpu), statistics.median(cpu)
        self.wall_best, self.wall_median = min(wall), statistics.median(wall)



def _cpu() -> float:
    """CPU seconds of this process and of its waited-for children (worker pools, commands)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def timings(fn: Callable[[], object], repeat: int) -> Timing:
    """CPU and wall time of ``repeat`` runs of ``fn``; CPU includes child processes."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = _cpu(), time.perf_counter()
        fn()
        cpu.append(_cpu() - c)
        wall.append(time.perf_counter() - w)
    return Timing(cpu, wall)


def single(cpu: float, wall: float) -> Timing:
    return Timing([cpu], [wall])


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, Timing, Timing | None, str]] = []

    def add(self, workload: str, method: str, t: Timing, ref: Timing | None, note: str = "") -> None:
        self.rows.append((workload, method, t, ref, note))

    def print(self) -> None:
        print(f"{'workload':<29}{'method':<46}{'CPU med ms':>11}{'CPU min':>11}{'wall med':>11}{'wall min':>11}"
              f"{'x CPU':>8}{'x wall':>8}  note")
        last = None
        for workload, method, t, ref, note in self.rows:
            shown = workload if workload != last else ""
            last = workload
            def ratio(a: float, b: float | None) -> str:
                if not b:
                    return ""
                r = a / b
                return f"{r:.2f}" if r < 10 else f"{r:.0f}"
            rc = ratio(t.cpu_median, ref.cpu_median if ref else None)
            rw = ratio(t.wall_median, ref.wall_median if ref else None)
            print(f"{shown:<29}{method:<46}{t.cpu_median * 1e3:>11.2f}{t.cpu_best * 1e3:>11.2f}"
                  f"{t.wall_median * 1e3:>11.2f}{t.wall_best * 1e3:>11.2f}{rc:>8}{rw:>8}  {note}")


def faster(a: Timing, b: Timing) -> str:
    """How a compares with b, as 'N x faster' / 'N x slower'."""
    x, y = a.cpu_median, b.cpu_median
    return f"{y / x:.1f}x faster" if x <= y else f"{x / y:.1f}x slower"


# ---------------------------------------------------------------------------- ANIMBIN


def largest_animbin() -> bytes:
    """5 animations x 50 tracks x 30 keys, 5 markers each: every engine limit at its maximum."""
    animations = []
    for i in range(5):
        clip = playback.make_clip(seed=i + 1)
        markers = [Marker(Name(f"m{j}".encode()), 6 * j) for j in range(5)]
        animations.append(Animation(Name(f"clip_{i}".encode()), clip.length, clip.tracks, markers))
    return animbin.write_bytes(AnimbinFile(animations))


_ANIM_HEADER = struct.Struct("<32sIHHH")
# ksy/animbin.ksy's key with a quaternion_fp12 payload, packed: 11 bytes.
ROTATION_KEY = np.dtype([("frame", "<u2"), ("key_type", "u1"), ("w", "<i2"), ("x", "<i2"), ("y", "<i2"), ("z", "<i2")])
_MARKER = np.dtype([("name", "S32"), ("frame", "<u2")])


def numpy_animbin(data: bytes) -> list[tuple[bytes, np.ndarray, np.ndarray]]:
    """The practical limit for this file's shape: per animation, one structured array of its
    tracks (every track the same key count, all ROTATION keys; refused otherwise)."""
    pos, out = 9, []
    for _ in range(data[8]):
        name, _flags, _length, n_tracks, n_markers = _ANIM_HEADER.unpack_from(data, pos)
        pos += _ANIM_HEADER.size
        n_keys = int.from_bytes(data[pos + 2 : pos + 4], "little") if n_tracks else 0
        track = np.dtype([("track_type", "u1"), ("joint_id", "u1"), ("num_keys", "<u2"), ("keys", ROTATION_KEY, (n_keys,))])
        tracks = np.frombuffer(data, track, n_tracks, pos)
        if np.any(tracks["num_keys"] != n_keys) or np.any(tracks["keys"]["key_type"] != 0):
            raise ValueError("not a uniform all-ROTATION file")
        pos += track.itemsize * n_tracks
        markers = np.frombuffer(data, _MARKER, n_markers, pos)
        pos += _MARKER.itemsize * n_markers
        out.append((name, tracks.copy(), markers.copy()))
    return out


_HEAD = struct.Struct("<7sBB")
_TRACK_HEAD = struct.Struct("<BBH")
_KEY_HEAD = struct.Struct("<HB")
_ROT = struct.Struct("<4h")
_TRANS = struct.Struct("<3i")
_MARK = struct.Struct("<32sH")


def struct_animbin(data: bytes) -> list:
    """What a user would otherwise write: a plain hand-written struct loop over the layout
    (magic[7] u8 version u8 count; per animation name[32] u32 flags u16 length u16 tracks
    u16 markers; per track u8 type u8 joint u16 keys; per key u16 frame u8 keyType then
    4 x s16 (ROTATION) or 3 x s32 (TRANSLATION); per marker name[32] u16 frame). Tuples,
    no checks beyond the magic and struct's own bounds."""
    magic, _version, count = _HEAD.unpack_from(data, 0)
    if magic != b"ANIMBIN":
        raise ValueError("not an ANIMBIN file")
    pos, out = 9, []
    for _ in range(count):
        name, flags, length, n_tracks, n_markers = _ANIM_HEADER.unpack_from(data, pos)
        pos += 42
        tracks = []
        for _ in range(n_tracks):
            track_type, joint, n_keys = _TRACK_HEAD.unpack_from(data, pos)
            pos += 4
            keys = []
            for _ in range(n_keys):
                frame, key_type = _KEY_HEAD.unpack_from(data, pos)
                pos += 3
                if key_type == 0:
                    keys.append((frame, key_type, _ROT.unpack_from(data, pos)))
                    pos += 8
                elif key_type == 1:
                    keys.append((frame, key_type, _TRANS.unpack_from(data, pos)))
                    pos += 12
                else:
                    keys.append((frame, key_type, None))
            tracks.append((track_type, joint, keys))
        markers = []
        for _ in range(n_markers):
            markers.append(_MARK.unpack_from(data, pos))
            pos += 34
        out.append((name, flags, length, tracks, markers))
    return out


def release_parsers(tmp: Path) -> dict[str, type]:
    """The ksy/ specs compiled WITHOUT --debug into ``tmp`` (what a user of the compiler gets
    by default: no position bookkeeping, ``_read()`` called by the constructor). Needs node
    and the pinned compiler (``make node_modules/.installed``); empty when they are missing."""
    import importlib.util

    out_dir = tmp / "release"
    specs = [str(HERE.parent / "ksy" / f"{n}.ksy") for n in ("animbin", "animclip")]
    try:
        subprocess.run(["node", str(HERE.parent / "tools" / "ksc.js"), "-d", str(out_dir), *specs],
                       check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"(no release-mode generated parser: {getattr(exc, 'stderr', '') or exc})")
        return {}
    classes = {}
    for name, cls in (("animbin", "Animbin"), ("animclip", "Animclip")):
        spec = importlib.util.spec_from_file_location(f"release_{name}", out_dir / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        classes[name] = getattr(module, cls)
    return classes


def eager_release(cls: type, data: bytes) -> Any:
    root = cls(KaitaiStream(BytesIO(data)))  # release mode: the constructor reads every seq field
    root._fetch_instances()
    return root


def eager_generated(cls: type, data: bytes) -> Any:
    root = cls(KaitaiStream(BytesIO(data)))
    root._read()
    root._fetch_instances()
    return root


def bench_animbin(table: Table, quick: bool, release: dict[str, type]) -> dict[str, Timing]:
    data = largest_animbin()
    model = animbin.read_bytes(data)
    arrays = numpy_animbin(data)
    for anim, (_, tracks, _) in zip(model.animations, arrays):  # the same values
        assert [[k.quaternion for k in t.keys] for t in anim.tracks] == \
            tracks["keys"][["w", "x", "y", "z"]].tolist()
    root = eager_generated(Animbin, data)
    assert root.animations[4].tracks[49].keys[29].value.w == model.animations[4].tracks[49].keys[29].w
    plain = struct_animbin(data)
    assert [[[(f, *q) for f, _, q in t[2]] for t in a[3]] for a in plain] == \
        [[[(k.frame, *k.quaternion) for k in t.keys] for t in anim.tracks] for anim in model.animations]
    if "animbin" in release:
        rel = eager_release(release["animbin"], data)
        assert rel.animations[4].tracks[49].keys[29].value.w == model.animations[4].tracks[49].keys[29].w

    n = 3 if quick else 20
    work = f"ANIMBIN 5x50x30 ({len(data) // 1024} KB)"
    loader = timings(lambda: animbin.read_bytes(data), n)
    table.add(work, "loader (packed key tables, no object per key)", loader, loader)

    def every_key() -> None:  # what a caller pays who then walks every key as an object
        for anim in animbin.read_bytes(data).animations:
            for track in anim.tracks:
                track.keys[0]  # noqa: B018 - decodes the whole table

    decoded = timings(every_key, n)
    table.add(work, "loader, then every key as a RotationKey", decoded, loader)
    validated = timings(lambda: animbin.validate(animbin.read_bytes(data)), n)
    table.add(work, "loader + validate", validated, loader)
    plain_t = timings(lambda: struct_animbin(data), n)
    table.add(work, "hand-written struct loop (tuples)", plain_t, loader)
    out = {"loader": loader, "struct": plain_t, "decoded": decoded, "validated": validated}
    if "animbin" in release:
        rel_t = timings(lambda: eager_release(release["animbin"], data), max(2, n // 4))
        table.add(work, "generated, release build, eager", rel_t, loader)
        out["release"] = rel_t
    slow = timings(lambda: animbin.read_bytes(data, fast=False), max(2, n // 4))
    table.add(work, "loader, fast=False (debug generated parser)", slow, loader)
    eager = timings(lambda: eager_generated(Animbin, data), max(2, n // 4))
    table.add(work, "generated, debug build, eager", eager, loader)
    bare = timings(lambda: numpy_animbin(data), n * 5)
    table.add(work, "numpy (bare read, no model objects)", bare, loader)
    out.update(eager=eager, numpy=bare)
    return out


# ---------------------------------------------------------------------------- .animclip


def synthetic_animclip(size: int, seed: int = 7) -> bytes:
    """A ``size``-byte .animclip, mostly Sample Data, with realistic other sections."""
    rng = np.random.default_rng(seed)
    n_joints, n_frames, n_samples = 150, 600, 2000
    clip = AnimclipFile(magic=MAGIC_MSMR_MM, type_id=MAGIC_MSMR_MM)
    joints = np.zeros(n_joints, JOINT_DTYPE)
    for name in ("qx", "qy", "qz", "qw", "x", "y", "z"):
        joints[name] = rng.integers(-32767, 32767, n_joints)
    joints["log_scale2"] = 12
    hashes = [crc32(f"joint_{i:03d}") for i in range(n_joints)] + [0xFFFFFFFF]
    clip.sections = [
        Built(fps=30.0, duration=n_frames / 30, num_frames=n_frames, num_unique_samples=n_frames),
        BaseState(joints=joints, things=rng.integers(0, 256, 64, dtype=np.uint8).tobytes()),
        JointHashes(np.array(hashes, "<u4")),
    ]
    clip.set_clip_name("bench_clip")
    names = [f"track_{i}" for i in range(8)]
    clip.sections += [
        CustomTracks([CustomTrackEntry(name_hash=crc32(n), ofs_name=clip.add_string(n)) for n in names]),
        CustomTrackData(),
    ]
    clip.set_all_custom_track_values({i: rng.random(n_frames).astype("<f4") for i in range(len(names))})
    foot = crc32("foot_l")
    clip.sections += [
        TriggerData(num_jsons=1, num_things=64, jsons=bytes(8) + struct.pack("<IIII", 0, 0x03150044, 0, 0),
                    records=[TriggerRecord(crc32("step"), foot, 1, i * 9, 0) for i in range(64)]),
        TriggerJointNames([foot]),
        ClipPath(np.eye(4, dtype="<f4"), np.eye(4, dtype="<f4")),
        SampleElem(np.sort(rng.integers(0, 2**32, n_samples, dtype=np.uint64)).astype("<u4"),
                   rng.integers(0, 256, n_samples, dtype=np.uint8), b""),
        RawSection(TAG_MOTION_DATA, rng.integers(0, 256, 51_200, dtype=np.uint8).tobytes()),
        RawSection(TAG_SAMPLE_DATA, b""),
    ]
    rest = size - len(animclip.write_bytes(clip))
    clip.sections[-1] = RawSection(TAG_SAMPLE_DATA, rng.integers(0, 256, max(8, rest), dtype=np.uint8).tobytes())
    return animclip.write_bytes(clip)


_ENTRY = np.dtype([("tag", "<u4"), ("ofs", "<u4"), ("len", "<u4")])
_BUILT_COUNTS = struct.Struct("<H10xH")  # Built +0x20 num_joints ... +0x2C num_base_state_things


def numpy_animclip(data: bytes) -> dict[int, Any]:
    """The practical limit: the section table through numpy, every known bulk table one
    np.frombuffer(...).copy(), opaque payloads one bytes slice; no checks at all."""
    base = 36
    n_sections = int.from_bytes(data[base + 12 : base + 14], "little")
    table = np.frombuffer(data, _ENTRY, n_sections, base + 16).tolist()
    j = t = 0
    for tag, ofs, _ in table:
        if tag == TAG_BUILT:
            j, t = _BUILT_COUNTS.unpack_from(data, base + ofs + 0x20)
    out: dict[int, Any] = {}
    for tag, ofs, size in table:
        at = base + ofs
        if tag == TAG_BASE_STATE:
            out[tag] = (np.frombuffer(data, JOINT_DTYPE, j, at).copy(), data[at + 16 * j : at + 16 * j + 32 * t])
        elif tag == TAG_JOINT_HASHES:
            out[tag] = np.frombuffer(data, "<u4", size // 4, at).copy()
        elif tag == TAG_CUSTOM_TRACKS:
            out[tag] = np.frombuffer(data, "<u4", size // 40 * 10, at).reshape(-1, 10).copy()
        elif tag == TAG_CUSTOM_TRACK_DATA:
            out[tag] = np.frombuffer(data, "<f4", size // 4, at).copy()
        elif tag == TAG_SAMPLE_ELEM:
            n = size // 5
            out[tag] = (np.frombuffer(data, "<u4", n, at).copy(), np.frombuffer(data, "u1", n, at + 4 * n).copy())
        elif tag == TAG_TRIGGER_DATA:
            len_jsons = int.from_bytes(data[at + 4 : at + 8], "little")
            m = (size - 16 - len_jsons) // 16
            out[tag] = np.frombuffer(data, TRIGGER_DTYPE, m, at + 16 + len_jsons).copy()
        elif tag == TAG_PATH:
            out[tag] = np.frombuffer(data, "<f4", 32, at).reshape(2, 4, 4).copy()
        elif tag == TAG_BUILT:
            out[tag] = data[at : at + size]
        else:
            out[tag] = data[at : at + size]
    return out


def check_animclip(data: bytes) -> None:
    """The loader, the numpy read and the generated parser's typed views agree."""
    model = animclip.read_bytes(data)
    bare = numpy_animclip(data)
    assert bare[TAG_SAMPLE_DATA] == model.section(TAG_SAMPLE_DATA).data
    assert bare[TAG_MOTION_DATA] == model.section(TAG_MOTION_DATA).data
    assert np.array_equal(bare[TAG_BASE_STATE][0], model.section(TAG_BASE_STATE).joints)
    assert np.array_equal(bare[TAG_JOINT_HASHES], model.section(TAG_JOINT_HASHES).hashes)
    assert np.array_equal(bare[TAG_CUSTOM_TRACK_DATA], model.section(TAG_CUSTOM_TRACK_DATA).values)
    assert np.array_equal(bare[TAG_SAMPLE_ELEM][0], model.section(TAG_SAMPLE_ELEM).offsets)
    assert bare[TAG_TRIGGER_DATA].tolist() == [tuple(vars(r).values()) for r in model.section(TAG_TRIGGER_DATA).records]
    root = Animclip(KaitaiStream(BytesIO(data)))
    root._read()
    for entry in root.dat1.sections:
        if int(entry.tag) == TAG_SAMPLE_DATA:
            words = entry.body.words  # the typed view, on this check only
            assert words[:1000] == np.frombuffer(model.section(TAG_SAMPLE_DATA).data, "<u4", 1000).tolist()


def eager_child(path: str, release_dir: str | None) -> None:
    """Run in a subprocess (its peak memory is the eager parser's own): time one eager read,
    of the debug build (``release_dir`` None) or of the release build compiled there."""
    data = Path(path).read_bytes()
    if release_dir:
        import importlib.util

        spec = importlib.util.spec_from_file_location("release_animclip", Path(release_dir) / "animclip.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        read = lambda: eager_release(module.Animclip, data)  # noqa: E731
    else:
        read = lambda: eager_generated(Animclip, data)  # noqa: E731
    cpu, start = time.process_time(), time.perf_counter()
    root = read()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    n_words = sum(len(e.body.words) for e in root.dat1.sections if int(e.tag) == TAG_SAMPLE_DATA)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak_kb / 1024, "sample_words": n_words}))


def cold_child(mode: str, path: str) -> None:
    """Run in a fresh process: the first load's time, when every buffer is new memory the
    kernel must fault in and zero (the usual case for a command that loads one file)."""
    data = Path(path).read_bytes()
    fn = {"loader": animclip.read_bytes, "numpy": numpy_animclip, "read": lambda d: bytes(d)}.get(mode)
    if mode == "read":  # open(...).read() of the file itself, nothing else
        fn = lambda _d: Path(path).read_bytes()  # noqa: E731
    elif mode == "read_file":  # animclip.read_file: the file read and loaded
        fn = lambda _d: animclip.read_file(path)  # noqa: E731
    cpu, start = time.process_time(), time.perf_counter()
    fn(data)
    print(json.dumps({"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}))


def cold(mode: str, path: Path, runs: int) -> Timing:
    cpu, wall = [], []
    for _ in range(runs):
        out = json.loads(subprocess.run([sys.executable, __file__, "--cold-child", mode, str(path)],
                                        capture_output=True, text=True, check=True).stdout)
        cpu.append(out["cpu"])
        wall.append(out["seconds"])
    return Timing(cpu, wall)


def loader_peak_mb(data: bytes) -> float:
    """Python heap allocated at the peak of one load (tracemalloc), beyond the input bytes."""
    tracemalloc.start()
    model = animclip.read_bytes(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del model
    return peak / 2**20


def bench_animclip(table: Table, quick: bool, tmp: Path, release: dict[str, type]) -> dict[str, Any]:
    size = 2**18 if quick else 16 * 2**20
    data = synthetic_animclip(size)
    check_animclip(data)
    work = f".animclip {len(data) / 2**20:.2g} MB"
    n = 3 if quick else 15
    loader = timings(lambda: animclip.read_bytes(data), n)
    table.add(work, "loader (struct + numpy, opaque payloads as views)", loader, loader)
    path = tmp / "big.animclip"
    path.write_bytes(data)
    read_t = timings(path.read_bytes, n)
    table.add(work, "open(...).read() of the file", read_t, loader)
    read_file_t = timings(lambda: animclip.read_file(path), n)
    table.add(work, "animclip.read_file (read + load)", read_file_t, loader)
    slow = timings(lambda: animclip.read_bytes(data, fast=False), max(2, n // 3))
    table.add(work, "loader, fast=False (debug generated parser)", slow, loader)

    def generated_lazy() -> None:
        root = Animclip(KaitaiStream(BytesIO(data)))
        root._read()
        for entry in root.dat1.sections:
            entry.body  # noqa: B018 - each payload parsed; its lazy views untouched

    lazy = timings(generated_lazy, n)
    table.add(work, "generated, debug build, lazy (every body)", lazy, loader)
    out: dict[str, Any] = {}
    for label, release_dir in (("release", tmp / "release" if "animclip" in release else None), ("eager", None)):
        if label == "release" and release_dir is None:
            continue
        cmd = [sys.executable, __file__, "--eager-child", str(path)] + (["--release-dir", str(release_dir)] if release_dir else [])
        child = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        t = single(child["cpu"], child["seconds"])
        build = "release" if release_dir else "debug"
        table.add(work, f"generated, {build} build, eager (own process)", t, loader,
                  f"1 run; peak RSS {child['peak_mb']:.0f} MB")
        out[label] = t
    bare = timings(lambda: numpy_animclip(data), n * 2)
    table.add(work, "numpy (bare read, one copy per table)", bare, loader)
    runs = 2 if quick else 5
    loader_cold = cold("loader", path, runs)
    table.add(work, "loader, first call in a fresh process", loader_cold, loader, f"{runs} processes")
    read_cold = cold("read", path, runs)
    table.add(work, "open().read(), fresh process", read_cold, loader, f"{runs} processes")
    read_file_cold = cold("read_file", path, runs)
    table.add(work, "animclip.read_file, fresh process", read_file_cold, loader, f"{runs} processes")
    bare_cold = cold("numpy", path, runs)
    table.add(work, "numpy, first call in a fresh process", bare_cold, loader, f"{runs} processes")
    peak = loader_peak_mb(data)
    table.rows[0] = table.rows[0][:4] + (f"heap peak {peak:.0f} MB (file {len(data) / 2**20:.2g} MB)",)
    out.update(loader=loader, lazy=lazy, numpy=bare, read=read_t, mb=len(data) / 2**20, peak_mb=peak,
               loader_cold=loader_cold, numpy_cold=bare_cold, read_cold=read_cold, read_file=read_file_t,
               read_file_cold=read_file_cold, slow=slow)
    return out


def bench_decode(table: Table, quick: bool) -> dict[str, Any]:
    work = decode.Workload(2**18 if quick else 16 * 2**20)
    decode.check(work)
    label = f"decode {len(work.data) / 2**20:.2g} MB samples"
    n = 3 if quick else 7
    ours = timings(work.animspec, n)
    table.add(label, "animspec decode_samples (every transform)", ours, ours,
              f"{work.samples} samples x {decode.JOINTS} joints, {decode.SMALL + decode.LARGE} elements")
    fields = timings(work.fields, n)
    table.add(label, "animspec unpack_fields (every field)", fields, ours)
    bits = timings(work.unpackbits, n * 2)
    table.add(label, "numpy.unpackbits of the same bytes", bits, ours)
    count = min(decode.BASELINE_SAMPLES, work.samples) // (4 if quick else 1)
    part = timings(lambda: work.per_frame_reader(count), 1 if quick else 3)
    scale = work.samples / count
    reader = Timing([part.cpu_median * scale], [part.wall_median * scale])
    table.add(label, "per-frame bit reader (Python ints)", reader, ours,
              f"{count} samples timed, scaled x{scale:.0f} to all")
    return {"ours": ours, "fields": fields, "bits": bits, "reader": reader, "mb": len(work.data) / 2**20}


# ---------------------------------------------------------------------------- playback


def bench_playback(table: Table, quick: bool) -> None:
    from animspec.animbin.playback import EngineSkeleton, play_engine, vsync_count, vsync_deltas

    clip = playback.make_clip()
    ticks = vsync_count(playback.SECONDS, "ntsc")
    deltas = vsync_deltas(ticks)
    keys = np.array([[k.quaternion for k in t.keys] for t in clip.tracks], dtype=np.float64) / 4096
    frames = np.arange(ticks) % playback.N_KEYS

    def baseline() -> np.ndarray:
        prev = keys[:, frames].transpose(1, 0, 2)
        nxt = keys[:, np.minimum(frames + 1, playback.N_KEYS - 1)].transpose(1, 0, 2)
        q = 0.5 * prev + 0.5 * nxt
        return q / np.linalg.norm(q, axis=-1, keepdims=True)

    def stepper() -> None:
        sk = EngineSkeleton(animation=clip)
        for d in deltas:
            sk.play(d)

    play_engine(clip, deltas)  # the normalise table is built once per process, not timed
    n = 3 if quick else 10
    work = f"playback 50x30, {ticks} vsyncs"
    engine = timings(lambda: play_engine(clip, deltas), n)
    table.add(work, "play_engine (engine-faithful, vectorised)", engine, engine)
    step = timings(stepper, 2)
    table.add(work, "EngineSkeleton.play per vsync", step, engine)
    base = timings(baseline, n * 2)
    table.add(work, "numpy nlerp (least work, not faithful)", base, engine)


# ---------------------------------------------------------------------------- batch


def small_files(folder: Path, count: int) -> None:
    """``count`` small files: 8 in 10 ANIMBIN (1-2 animations, 4-8 tracks), 1 MESHBIN,
    1 .animclip, each a little different."""
    examples = HERE.parent / "examples"
    mesh = (examples / "pendulum.meshbin").read_bytes()
    clip = (examples / "walk.animclip").read_bytes()
    rng = np.random.default_rng(3)
    variants = []
    for i in range(16):
        anims = []
        for a in range(1 + i % 2):
            full = playback.make_clip(seed=100 + i * 2 + a)
            anims.append(Animation(Name(f"a{a}".encode()), full.length, full.tracks[: 4 + (i % 5)]))
        variants.append(animbin.write_bytes(AnimbinFile(anims)))
    for n in range(count):
        sub = folder / f"set{n % 20:02d}"
        sub.mkdir(exist_ok=True)
        kind = n % 10
        if kind == 8:
            (sub / f"f{n:05d}.meshbin").write_bytes(mesh)
        elif kind == 9:
            (sub / f"f{n:05d}.animclip").write_bytes(clip)
        else:
            (sub / f"f{n:05d}.animbin").write_bytes(variants[int(rng.integers(len(variants)))])


def bench_batch(table: Table, quick: bool, tmp: Path) -> dict[str, Any]:
    count = 300 if quick else 10_000
    folder = tmp / "files"
    folder.mkdir()
    small_files(folder, count)
    work = f"validate {count:,} small files"
    jobs = os.cpu_count() or 1
    cli = [sys.executable, "-m", "animspec", "validate", str(folder), "--jsonl"]

    def run_cli() -> None:
        subprocess.run(cli, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def library(j: int) -> Callable[[], None]:
        def go() -> None:
            sources = collect([folder]).sources
            for _ in run_batch(sources, ValidateTask(), j):
                pass
        return go

    reps = 1 if quick else 2
    scaling = core_scaling(jobs) if jobs > 1 else 1.0
    allcores = timings(library(jobs), reps)
    table.add(work, f"run_batch, {jobs} jobs (all cores)", allcores, allcores,
              f"{count / allcores.wall_median:,.0f} files/s wall; CPU scaling just before: {scaling:.2f}x")
    end_to_end = timings(run_cli, reps)
    after = core_scaling(jobs) if jobs > 1 else 1.0
    table.add(work, f"animspec validate DIR --jsonl ({jobs} jobs)", end_to_end, allcores,
              f"whole command, output to /dev/null; CPU scaling after: {after:.2f}x")
    one = timings(library(1), reps)
    table.add(work, "run_batch, 1 job (in process)", one, allcores,
              f"{one.cpu_median / count * 1e3:.3f} ms CPU per file")
    runs = 3 if quick else 20
    sample = [p for p in sorted(folder.rglob("*")) if p.is_file()][:: max(1, count // runs)][:runs]
    each = timings(lambda: [subprocess.run([sys.executable, "-m", "animspec", "validate", str(p)],
                                           stdout=subprocess.DEVNULL, check=False) for p in sample], 1)
    scale = count / len(sample)
    table.add(work, "one animspec process per file (estimate)",
              single(each.cpu_median * scale, each.wall_median * scale), allcores,
              f"{len(sample)} runs timed, x {count // len(sample)}")
    return {"count": count, "jobs": jobs, "one": one, "all": allcores, "scaling": scaling}


# ---------------------------------------------------------------------------- start-up


def bench_startup(table: Table, quick: bool) -> dict[str, Timing]:
    """Whole processes, as a build script runs them: CPU time of the child (its user + system
    time, from getrusage), median of several runs, against bare interpreters started in the
    same run."""
    example = str(HERE.parent / "examples" / "swing.animbin")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        'python -c "import numpy"': [sys.executable, "-c", "import numpy"],
        "animspec validate swing.animbin": [sys.executable, "-m", "animspec", "validate", example],
        "animspec info swing.animbin": [sys.executable, "-m", "animspec", "info", example],
    }
    runs = 3 if quick else 15
    out = {}
    for label, cmd in commands.items():
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)  # warm the file cache
    for label, cmd in commands.items():
        out[label] = timings(lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True), runs)
    ref = out['python -c "import numpy"']
    for label, t in out.items():
        table.add("start-up, one process", label, t, ref, f"{runs} runs; x = / import numpy")
    return out


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def core_scaling(jobs: int, n: int = 3_000_000) -> float:
    """How much faster ``jobs`` processes do ``jobs`` equal pure-Python loops than one process
    does them in turn, right now: ``jobs`` when every core is free, less when other work
    (or a CPU quota) takes cores. Batch speed-ups are bounded by this."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(_spin, [1000] * jobs))  # workers started, not timed
        start = time.perf_counter()
        list(pool.map(_spin, [n] * jobs))
        parallel = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(jobs):
        _spin(n)
    return (time.perf_counter() - start) / parallel


# ---------------------------------------------------------------------------- main


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


PARTS = ("batch", "startup", "animbin", "animclip", "playback", "decode", "codec")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small workloads: check the script, not the machine")
    parser.add_argument("--only", action="append", choices=PARTS, metavar="PART",
                        help=f"run only this part (repeatable): {', '.join(PARTS)}")
    parser.add_argument("--eager-child", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--release-dir", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--cold-child", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.eager_child:
        eager_child(args.eager_child, args.release_dir)
        return 0
    if args.cold_child:
        cold_child(*args.cold_child)
        return 0

    print(f"animspec benchmarks{' (--quick: small workloads)' if args.quick else ''}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"numpy {np.__version__}, {platform.system()} {platform.release()}")
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
          + ("  (other work is running: wall times will be noisy; CPU times much less so)" if load[0] > 0.5 else ""))
    jobs = os.cpu_count() or 1
    if jobs > 1:
        print(f"CPU scaling now with {jobs} processes: {core_scaling(jobs):.2f}x ({jobs}.00 = every core free)")
    print(f"{EAGER}. 'release build' = the same specs compiled without --debug, at bench time.")
    print("All file timings start from the bytes in memory. CPU = this process's time plus its waited-for "
          "children's (getrusage). 'x CPU' / 'x wall' = median / the first row's median.")
    print()
    tables = {name: Table() for name in ("startup", "animbin", "animclip", "playback", "batch", "decode")}
    parts = set(args.only or PARTS)
    batch = su = ab = ac = dc = None
    tmp = Path(tempfile.mkdtemp(prefix="animspec-bench-"))
    try:
        release = release_parsers(tmp) if parts & {"animbin", "animclip"} else {}
        # The multi-process batch first: it is the run most hurt by other work on the machine.
        if "batch" in parts:
            batch = bench_batch(tables["batch"], args.quick, tmp)
        if "startup" in parts:
            su = bench_startup(tables["startup"], args.quick)
        if "animbin" in parts:
            ab = bench_animbin(tables["animbin"], args.quick, release)
        if "animclip" in parts:
            ac = bench_animclip(tables["animclip"], args.quick, tmp, release)
        if "playback" in parts:
            bench_playback(tables["playback"], args.quick)
        if "decode" in parts:
            dc = bench_decode(tables["decode"], args.quick)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    table = Table()
    for part in tables.values():
        table.rows += part.rows
    table.print()
    if "codec" in parts:
        print()
        print(codec.describe(args.quick))
        codec_rows, skipped = codec.run(args.quick)
        for why in skipped:
            print(why)
        codec.print_table(codec_rows)
    end_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"load average at the end: {end_load:.2f}")
    print()
    print("targets (issue 15; CPU medians)" + (" -- --quick sizes, not the issue's:" if args.quick else ":"))
    if su:
        numpy_t = su['python -c "import numpy"'].cpu_median
        for cmd in ("validate", "info"):
            r = su[f"animspec {cmd} swing.animbin"].cpu_median / numpy_t
            print(f"  start-up: animspec {cmd} one ANIMBIN = {r:.2f}x python -c 'import numpy' (target <= 1.25x): {verdict(r <= 1.25)}")
    if ab:
        r = ab["loader"].cpu_median / ab["struct"].cpu_median
        print(f"  ANIMBIN 5x50x30: loader {r:.2f}x a hand-written struct loop (target < 1): {verdict(r < 1)}")
        r = ab["loader"].cpu_median / ab["numpy"].cpu_median
        print(f"  ANIMBIN 5x50x30: loader {r:.1f}x bare numpy (target <= 5x): {verdict(r <= 5)}")
        r = ab["decoded"].cpu_median / ab["struct"].cpu_median
        print(f"  ANIMBIN 5x50x30: loader then every key as an object {r:.2f}x the struct loop (no target; what walking "
              "every key costs)")
        if "release" in ab:
            print(f"  ANIMBIN 5x50x30: loader {faster(ab['loader'], ab['release'])} than the release-build generated parser, "
                  f"{faster(ab['loader'], ab['eager'])} than the debug build")
    if ac:
        r = ac["loader"].cpu_median / ac["read"].cpu_median
        print(f"  .animclip {ac['mb']:.2g} MB: loader {r:.1f}x open().read() of the file, repeated loads (target <= 3x): {verdict(r <= 3)}")
        r = ac["read_file"].cpu_median / ac["read"].cpu_median
        print(f"  .animclip {ac['mb']:.2g} MB: read_file {r:.2f}x open().read() of the file, repeated (issue 22.6 target "
              f"<= 1.5x: payloads are views into the file's bytes, no copy): {verdict(r <= 1.5)}")
        r = ac["read_file_cold"].cpu_median / ac["read_cold"].cpu_median
        print(f"  .animclip {ac['mb']:.2g} MB: read_file {r:.1f}x open().read(), first in a fresh process (target <= 3x): {verdict(r <= 3)}")
        r = ac["peak_mb"] / ac["mb"]
        print(f"  .animclip {ac['mb']:.2g} MB: loader heap peak {r:.2f}x the file (target <= 1.5x): {verdict(r <= 1.5)}")
        if "release" in ac:
            print(f"  .animclip {ac['mb']:.2g} MB: loader {faster(ac['loader'], ac['release'])} than the release-build generated parser, "
                  f"{faster(ac['loader'], ac['slow'])} than fast=False (the debug build, lazily)")
    if dc:
        r = dc["reader"].cpu_median / dc["ours"].cpu_median
        print(f"  issue 22, decode {dc['mb']:.2g} MB samples: every transform {r:.0f}x faster than a per-frame bit reader "
              f"(target >= 20x): {verdict(r >= 20)}")
        r = dc["fields"].cpu_median / dc["bits"].cpu_median
        print(f"  issue 22, decode {dc['mb']:.2g} MB samples: every field {r:.1f}x numpy.unpackbits (target <= 10x): "
              f"{verdict(r <= 10)}")
        r = dc["ours"].cpu_median / dc["bits"].cpu_median
        print(f"  issue 22, decode {dc['mb']:.2g} MB samples: every transform {r:.1f}x numpy.unpackbits (target <= 10x): "
              f"{verdict(r <= 10)} (it also writes 40 bytes of float32 per joint and sample)")
    if batch:
        per_file = batch["one"].cpu_median / batch["count"] * 1e3
        print(f"  batch: {per_file:.3f} ms CPU per file in process, 1 job (target <= 0.3 ms): {verdict(per_file <= 0.3)}")
        if batch["jobs"] > 1:
            r = batch["one"].wall_median / batch["all"].wall_median
            print(f"  batch: -j {batch['jobs']} {r:.2f}x faster than -j 1, wall (target >= 1.6x on a quiet machine; "
                  f"CPU scaling measured {batch['scaling']:.2f}x): {verdict(r >= 1.6)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
