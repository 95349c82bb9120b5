"""animspec's benchmarks in one run, side by side (issue 8). ``make bench`` or
``python bench/run.py`` (with the package installed, e.g. ``.venv/bin/python``);
``--quick`` shrinks every workload to check the script itself in a few seconds.

Workloads, each with the project's way and its comparisons, timed in this process (best
of several runs; the median too, since fresh 16 MB buffers cost page faults on some runs):

1. The largest legal ANIMBIN (5 animations x 50 tracks x 30 keys, 5 markers each).
2. A 16 MB synthetic .animclip written by animspec's writer: a 16 MB Sample Data section
   plus Built, Base State (150 joints), Joint Hashes, 8 custom tracks x 600 values,
   Trigger Data, Trigger Joint Names, Path, Sample Elem (2,000 samples), Motion Data.
3. Engine-faithful playback of a 50 x 30 clip for 10 s of NTSC vsyncs (bench/playback.py).
4. Validation of 10,000 small files (ANIMBIN, MESHBIN, .animclip) in a temporary folder.

For 1 and 2: "loader" is what animspec uses (animbin.read_bytes, animclip.read_bytes);
"generated, eager" is the class compiled from ksy/ (debug mode) reading the whole file:
``_read()`` of every seq field, then ``_fetch_instances()``, Kaitai's own "evaluate every
instance", which also builds the lazy typed views (for Sample Data: u4, u2 and f32 lists of
the whole payload); "numpy" is a bare read of the same bytes into numpy arrays (one copy of
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

import playback  # noqa: E402  (bench/playback.py: its clip and timing helpers)

from animspec import animbin, animclip  # noqa: E402
from animspec.animbin.fastread import ROTATION_KEY  # noqa: E402
from animspec.animbin.model import Animation, AnimbinFile, Marker, Name  # noqa: E402
from animspec.animclip.model import (  # noqa: E402
    JOINT_DTYPE,
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
    TRIGGER_DTYPE,
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
from animspec.hashes import crc32  # noqa: E402

EAGER = (
    "generated, eager = the ksy-compiled class (debug mode): _read() of every seq field, then "
    "_fetch_instances() (every instance evaluated, the lazy typed views included)"
)


# ---------------------------------------------------------------------------- timing


def timings(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(best, median) seconds over ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return min(runs), statistics.median(runs)


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, float, float, float | None, str]] = []

    def add(self, workload: str, method: str, best: float, median: float, ref: float | None, note: str = "") -> None:
        self.rows.append((workload, method, best, median, None if ref is None else best / ref, note))

    def print(self) -> None:
        print(f"{'workload':<29}{'method':<44}{'best ms':>11}{'median ms':>11}{'x project':>11}  note")
        last = None
        for workload, method, best, median, ratio, note in self.rows:
            shown = workload if workload != last else ""
            last = workload
            r = "" if ratio is None else (f"{ratio:.2f}" if ratio < 10 else f"{ratio:.0f}")
            print(f"{shown:<29}{method:<44}{best * 1e3:>11.2f}{median * 1e3:>11.2f}{r:>11}  {note}")


def faster(a: float, b: float) -> str:
    """How a compares with b, as 'N x faster' / 'N x slower'."""
    return f"{b / a:.1f}x faster" if a <= b else f"{a / b:.1f}x slower"


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


def eager_generated(cls: type, data: bytes) -> Any:
    root = cls(KaitaiStream(BytesIO(data)))
    root._read()
    root._fetch_instances()
    return root


def bench_animbin(table: Table, quick: bool) -> dict[str, float]:
    data = largest_animbin()
    model = animbin.read_bytes(data)
    arrays = numpy_animbin(data)
    for anim, (_, tracks, _) in zip(model.animations, arrays):  # the same values
        assert [[k.quaternion for k in t.keys] for t in anim.tracks] == \
            tracks["keys"][["w", "x", "y", "z"]].tolist()
    root = eager_generated(Animbin, data)
    assert root.animations[4].tracks[49].keys[29].value.w == model.animations[4].tracks[49].keys[29].w

    n = 3 if quick else 20
    work = f"ANIMBIN 5x50x30 ({len(data) // 1024} KB)"
    loader = timings(lambda: animbin.read_bytes(data), n)
    table.add(work, "loader (numpy fast path + model objects)", *loader, loader[0])
    slow = timings(lambda: animbin.read_bytes(data, fast=False), max(2, n // 4))
    table.add(work, "loader, fast=False (generated parser)", *slow, loader[0])
    eager = timings(lambda: eager_generated(Animbin, data), max(2, n // 4))
    table.add(work, "generated, eager", *eager, loader[0])
    bare = timings(lambda: numpy_animbin(data), n * 5)
    table.add(work, "numpy (bare read, no model objects)", *bare, loader[0])
    return {"loader": loader[0], "eager": eager[0], "numpy": bare[0]}


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
        Built(fps=30.0, duration=n_frames / 30, num_frames=n_frames, num_frames_alt=n_frames),
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
    assert np.array_equal(bare[TAG_SAMPLE_ELEM][0], model.section(TAG_SAMPLE_ELEM).values)
    assert bare[TAG_TRIGGER_DATA].tolist() == [tuple(vars(r).values()) for r in model.section(TAG_TRIGGER_DATA).records]
    root = Animclip(KaitaiStream(BytesIO(data)))
    root._read()
    for entry in root.dat1.sections:
        if int(entry.tag) == TAG_SAMPLE_DATA:
            words = entry.body.words  # the typed view, on this check only
            assert words[:1000] == np.frombuffer(model.section(TAG_SAMPLE_DATA).data, "<u4", 1000).tolist()


def eager_child(path: str) -> None:
    """Run in a subprocess (its peak memory is the eager parser's own): time one eager read."""
    data = Path(path).read_bytes()
    start = time.perf_counter()
    root = eager_generated(Animclip, data)
    seconds = time.perf_counter() - start
    n_words = sum(len(e.body.words) for e in root.dat1.sections if int(e.tag) == TAG_SAMPLE_DATA)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024, "sample_words": n_words}))


def cold_child(mode: str, path: str) -> None:
    """Run in a fresh process: the first load's time, when every buffer is new memory the
    kernel must fault in and zero (the usual case for a command that loads one file)."""
    data = Path(path).read_bytes()
    fn = animclip.read_bytes if mode == "loader" else numpy_animclip
    start = time.perf_counter()
    fn(data)
    print(json.dumps({"seconds": time.perf_counter() - start}))


def cold(mode: str, path: Path, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, __file__, "--cold-child", mode, str(path)],
                             capture_output=True, text=True, check=True).stdout
        times.append(json.loads(out)["seconds"])
    return min(times), statistics.median(times)


def loader_peak_mb(data: bytes) -> float:
    """Python heap allocated at the peak of one load (tracemalloc), beyond the input bytes."""
    tracemalloc.start()
    model = animclip.read_bytes(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del model
    return peak / 2**20


def bench_animclip(table: Table, quick: bool, tmp: Path) -> dict[str, float]:
    size = 2**18 if quick else 16 * 2**20
    data = synthetic_animclip(size)
    check_animclip(data)
    work = f".animclip {len(data) / 2**20:.2g} MB"
    n = 3 if quick else 15
    loader = timings(lambda: animclip.read_bytes(data), n)
    table.add(work, "loader (raw fields -> numpy, model, layout)", *loader, loader[0])

    def generated_lazy() -> None:
        root = Animclip(KaitaiStream(BytesIO(data)))
        root._read()
        for entry in root.dat1.sections:
            entry.body  # noqa: B018 - each payload parsed; its lazy views untouched

    lazy = timings(generated_lazy, n)
    table.add(work, "generated, lazy (_read + every section body)", *lazy, loader[0])
    path = tmp / "big.animclip"
    path.write_bytes(data)
    child = subprocess.run([sys.executable, __file__, "--eager-child", str(path)], capture_output=True, text=True, check=True)
    eager = json.loads(child.stdout)
    table.add(work, "generated, eager (1 run, own process)", eager["seconds"], eager["seconds"], loader[0],
              f"peak RSS {eager['peak_mb']:.0f} MB")
    bare = timings(lambda: numpy_animclip(data), n * 2)
    table.add(work, "numpy (bare read, one copy per table)", *bare, loader[0])
    runs = 2 if quick else 5
    loader_cold = cold("loader", path, runs)
    table.add(work, "loader, first call in a fresh process", *loader_cold, loader[0], f"{runs} processes")
    bare_cold = cold("numpy", path, runs)
    table.add(work, "numpy, first call in a fresh process", *bare_cold, loader[0], f"{runs} processes")
    peak = loader_peak_mb(data)
    table.rows[0] = table.rows[0][:5] + (f"heap peak {peak:.0f} MB (file {len(data) / 2**20:.2g} MB)",)
    return {"loader": loader[0], "lazy": lazy[0], "eager": eager["seconds"], "numpy": bare[0], "mb": len(data) / 2**20,
            "loader_cold": loader_cold[1], "numpy_cold": bare_cold[1]}


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
    table.add(work, "play_engine (engine-faithful, vectorised)", *engine, engine[0])
    step = timings(stepper, 2)
    table.add(work, "EngineSkeleton.play per vsync", *step, engine[0])
    base = timings(baseline, n * 2)
    table.add(work, "numpy nlerp (least work, not faithful)", *base, engine[0])


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


def bench_batch(table: Table, quick: bool, tmp: Path) -> None:
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
    table.add(work, f"run_batch, {jobs} jobs (all cores)", *allcores, allcores[0],
              f"{count / allcores[0]:,.0f} files/s; CPU scaling just before: {scaling:.2f}x")
    end_to_end = timings(run_cli, reps)
    after = core_scaling(jobs) if jobs > 1 else 1.0
    table.add(work, f"animspec validate DIR --jsonl ({jobs} jobs)", *end_to_end, allcores[0],
              f"whole command, output to /dev/null; CPU scaling after: {after:.2f}x")
    one = timings(library(1), reps)
    table.add(work, "run_batch, 1 job (in process)", *one, allcores[0], f"{count / one[0]:,.0f} files/s")
    runs = 3 if quick else 20
    sample = [p for p in sorted(folder.rglob("*")) if p.is_file()][:: max(1, count // runs)][:runs]
    start = time.perf_counter()
    for p in sample:
        subprocess.run([sys.executable, "-m", "animspec", "validate", str(p)], stdout=subprocess.DEVNULL, check=False)
    per_file = (time.perf_counter() - start) / len(sample)
    table.add(work, "one animspec process per file (estimate)", per_file * count, per_file * count, allcores[0],
              f"{len(sample)} runs timed, x {count // len(sample)}")


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small workloads: check the script, not the machine")
    parser.add_argument("--eager-child", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--cold-child", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.eager_child:
        eager_child(args.eager_child)
        return 0
    if args.cold_child:
        cold_child(*args.cold_child)
        return 0

    print(f"animspec benchmarks{' (--quick: small workloads)' if args.quick else ''}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"numpy {np.__version__}, {platform.system()} {platform.release()}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"load average at start: {load:.2f}" + ("  (other work is running: timings will be noisy)" if load > 0.5 else ""))
    jobs = os.cpu_count() or 1
    if jobs > 1:
        print(f"CPU scaling now with {jobs} processes: {core_scaling(jobs):.2f}x ({jobs}.00 = every core free)")
    print(f"{EAGER}.")
    print("All file timings start from the bytes in memory. 'x project' = time / the project's way (first row).")
    print()
    tables = {name: Table() for name in ("animbin", "animclip", "playback", "batch")}
    tmp = Path(tempfile.mkdtemp(prefix="animspec-bench-"))
    try:
        # The multi-process batch first: it is the run most hurt by other work on the machine.
        bench_batch(tables["batch"], args.quick, tmp)
        ab = bench_animbin(tables["animbin"], args.quick)
        ac = bench_animclip(tables["animclip"], args.quick, tmp)
        bench_playback(tables["playback"], args.quick)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    table = Table()
    for part in tables.values():
        table.rows += part.rows
    table.print()
    print()
    print("targets (issue 8)" + (" -- --quick sizes, not the issue's:" if args.quick else ":"))
    ratio = ac["eager"] / ac["loader"]
    print(f"  .animclip {ac['mb']:.2g} MB: loader {ratio:,.0f}x faster than the eager generated parser "
          f"(target >= 50x): {'met' if ratio >= 50 else 'NOT met'}")
    gap = ac["loader"] / ac["numpy"]
    print(f"  .animclip {ac['mb']:.2g} MB: loader {gap:.1f}x the numpy read's time, best of repeated loads "
          f"(target <= 5x): {'met' if gap <= 5 else 'NOT met'}")
    gap = ac["loader_cold"] / ac["numpy_cold"]
    print(f"  .animclip {ac['mb']:.2g} MB: loader {gap:.1f}x the numpy read's time, first load in a fresh "
          f"process, median (target <= 5x): {'met' if gap <= 5 else 'NOT met'}")
    print(f"  ANIMBIN 5x50x30: loader {faster(ab['loader'], ab['eager'])} than eager generated, "
          f"{faster(ab['loader'], ab['numpy'])} than the bare numpy read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
