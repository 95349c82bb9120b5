"""ACL side by side with animspec's encoder on the benchmark's motion capture (issue 30.5;
``make acl-check ACL=DIR``). Nothing is fetched and CI never runs it.

``DIR`` holds checkouts of nfrechette/acl, nfrechette/rtm and nfrechette/sjson-cpp (all MIT)
as ``DIR/acl``, ``DIR/rtm``, ``DIR/sjson-cpp``. This script:

1. builds ACL's ``tools/acl_compressor`` only, with g++ straight from its sources (ACL's
   top-level CMakeLists wants Catch2 and its test tree; the compressor's own
   ``tools/acl_compressor/main_generic/CMakeLists.txt`` needs ACL's cmake macros, and all it
   adds is include paths, ``-DACL_USE_SJSON`` and the ``*_ON_ASSERT_ABORT`` definitions, which
   :data:`COMPRESSOR_FLAGS` gives; optimised as CMake's Release build: ``-O3 -DNDEBUG``, SSE4.1
   as ACL's default x64 build), and a small program of ours against ACL's headers,
   ``tools/acl_codec.cpp``: ``compress`` does what acl_compressor does at its defaults, times
   the compression in CPU time and writes the compressed tracks out; ``decompress``
   decompresses every sample with ACL's default transform decompression settings, writes the
   poses out and times it; both into ``build/acl-check/`` (rebuilt when a source is newer);
2. writes each clip of bench/codec.py, in metres, as an ACL SJSON track list (version 5,
   ``qvvf`` tracks, one per ROOT/JOINT with its parent: the schema ACL's
   ``includes/acl/io/clip_reader.h`` reads): every track at ACL's default precision and shell
   distance (0.01 cm and 3 cm, ``includes/acl/core/track_desc.h``) written in metres (0.0001,
   0.03), so ACL works to the same accuracy as on a centimetre clip;
3. runs ``acl_compressor`` at its defaults (``get_default_compression_settings()``) with
   ``-stats``: its compressed size (the bytes reported), max error and compression time;
4. runs ``acl_codec compress`` on the same file (its bytes must equal acl_compressor's, else
   the check stops) and ``acl_codec decompress`` on what it wrote, and measures ACL's output against the
   same float64 BVH evaluation and metric as animspec's (bench/bvh.py);
5. prints ACL's rows next to animspec's (bench/codec.py) in one table.

Times: animspec's are CPU seconds in this process; ACL's compression time is the best CPU time
(``std::clock``) of ``compress_track_list`` in ``acl_codec compress`` (acl_compressor's own
``compression_time`` statistic is wall time, printed in the notes: on a shared machine it
counts the waits for a core); ACL's decompression time is the best CPU time of a whole-clip
decompression, in ``acl_codec decompress``. SJSON parsing and pre-processing are in neither.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import bvh  # noqa: E402  (bench/bvh.py)
import codec  # noqa: E402  (bench/codec.py)

PRECISION_M = 0.0001
"""ACL's default precision, 0.01 cm, in metres."""
COMPRESSOR_SOURCES = ("tools/acl_compressor/sources/acl_compressor.cpp",
                      "tools/acl_compressor/sources/validate_database.cpp",
                      "tools/acl_compressor/sources/validate_tracks.cpp",
                      "tools/acl_compressor/main_generic/main.cpp")
COMMON_FLAGS = ("-O3", "-DNDEBUG", "-msse4.1")
COMPRESSOR_FLAGS = ("-DACL_USE_SJSON", "-DACL_ON_ASSERT_ABORT", "-DRTM_ON_ASSERT_ABORT", "-DSJSON_CPP_ON_ASSERT_ABORT")
COMPRESS_RUNS = 3
DECOMPRESS_RUNS = 100
"""As many as animspec's decode gets (bench/codec.py DECODE_RUNS)."""


def includes(acl_dir: Path) -> list[str]:
    return [f"-I{acl_dir / 'acl' / 'includes'}", f"-I{acl_dir / 'rtm' / 'includes'}",
            f"-I{acl_dir / 'sjson-cpp' / 'includes'}", f"-I{acl_dir / 'acl' / 'tools' / 'acl_compressor' / 'includes'}"]


def build(acl_dir: Path, out: Path) -> tuple[Path, Path]:
    """acl_compressor and acl_codec, built with ``nice g++`` if missing or older than a source."""
    for name in ("acl", "rtm", "sjson-cpp"):
        if not (acl_dir / name / "includes").is_dir():
            sys.exit(f"acl-check: {acl_dir / name / 'includes'} is missing: ACL=DIR must hold checkouts of "
                     "nfrechette/acl, nfrechette/rtm and nfrechette/sjson-cpp as DIR/acl, DIR/rtm, DIR/sjson-cpp")
    out.mkdir(parents=True, exist_ok=True)
    targets = {
        out / "acl_compressor": ([acl_dir / "acl" / s for s in COMPRESSOR_SOURCES], COMPRESSOR_FLAGS),
        out / "acl_codec": ([ROOT / "tools" / "acl_codec.cpp"], ("-DACL_USE_SJSON",)),
    }
    for exe, (sources, flags) in targets.items():
        if exe.exists() and exe.stat().st_mtime > max(s.stat().st_mtime for s in sources):
            continue
        cmd = ["nice", "g++", *COMMON_FLAGS, *flags, *includes(acl_dir), *map(str, sources), "-o", str(exe)]
        print("building:", " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True)
    return tuple(targets)  # type: ignore[return-value]


def commit(path: Path) -> str:
    r = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "unknown (not a git checkout)"


def write_sjson(path: Path, name: str, names: tuple[str, ...], parents: np.ndarray, fps: float,
                rotations: np.ndarray, translations: np.ndarray) -> None:
    """An ACL SJSON track list of ``qvvf`` tracks (rotation x y z w, translation, scale 1),
    frames x joints, at ACL's default precision and shell distance in metres."""
    f, j = rotations.shape[:2]
    with path.open("w") as out:
        out.write(f'version = 5\ntrack_list = {{\n\tname = "{name}"\n\tnum_samples = {f}\n\tsample_rate = {fps!r}\n'
                  "\tis_binary_exact = false\n}\ntracks = [\n")
        for k in range(j):
            parent = f"\t\tparent_index = {int(parents[k])}\n" if parents[k] >= 0 else ""  # none: a root
            out.write(f'\t{{\n\t\tname = "{names[k]}"\n\t\ttype = "qvvf"\n\t\tprecision = {PRECISION_M!r}\n'
                      f"\t\toutput_index = {k}\n{parent}\t\tshell_distance = {codec.SHELL_M!r}\n\t\tdata = [\n")
            samples = [f"\t\t\t[ [ {', '.join(map(repr, q))} ], [ {', '.join(map(repr, t))} ], [ 1.0, 1.0, 1.0 ] ]"
                       for q, t in zip(rotations[:, k].tolist(), translations[:, k].tolist())]
            out.write("\n".join(samples) + "\n\t\t]\n\t}\n")  # (ACL's reader takes no comma between samples)
        out.write("]\n")


def read_sjson_track_list(path: Path) -> dict[str, Any]:
    """The parts of an SJSON track list :func:`write_sjson` writes, read back (for its test):
    header fields, and per track its fields and (F, 10) data."""
    text = path.read_text()
    header = dict(re.findall(r"^\t(\w+) = (.+)$", text.split("tracks = [", 1)[0], re.M))
    tracks = []
    for block in text.split("tracks = [", 1)[1].split("\t{\n")[1:]:
        fields = dict(re.findall(r"^\t\t(\w+) = (.+)$", block, re.M))
        rows = re.findall(r"^\t\t\t\[ (.+) \]$", block, re.M)
        data = np.array([[float(v) for v in re.sub(r"[\[\]]", " ", r).replace(",", " ").split()] for r in rows])
        tracks.append({**fields, "data": data})
    return {"header": header, "tracks": tracks}


def stat_value(text: str, key: str) -> float:
    """A number from acl_compressor's SJSON statistics (``key = value``)."""
    m = re.search(rf"\b{key} = ([-+0-9.eE]+)", text)
    if m is None:
        raise RuntimeError(f"acl_compressor's statistics have no {key}")
    return float(m.group(1))


def run_acl(tools: tuple[Path, Path], clip: codec.Clip, work: Path) -> dict[str, Any]:
    compressor, acl_codec = tools
    src = work / f"{clip.name}.acl.sjson"
    write_sjson(src, clip.name, clip.source.names, clip.source.parents, clip.source.fps, clip.rotations,
                clip.translations)
    stats = work / f"{clip.name}.stats.sjson"
    subprocess.run([str(compressor), f"-acl={src}", f"-stats={stats}"], check=True, stdout=subprocess.DEVNULL)
    text = stats.read_text()
    size = int(stat_value(text, "compressed_size"))
    binary = work / f"{clip.name}.acl"
    r = subprocess.run([str(acl_codec), "compress", str(src), str(binary), str(COMPRESS_RUNS)], check=True,
                       capture_output=True, text=True)
    timed = json.loads(r.stdout)
    if timed["bytes"] != size:
        raise RuntimeError(f"{clip.name}: acl_codec compress made {timed['bytes']} bytes, acl_compressor {size}: "
                           "they no longer compress alike")
    poses = work / f"{clip.name}.f32"
    r = subprocess.run([str(acl_codec), "decompress", str(binary), str(poses), str(DECOMPRESS_RUNS)], check=True,
                       capture_output=True, text=True)
    info = json.loads(r.stdout)
    values = np.fromfile(poses, "<f4").astype(np.float64).reshape(info["samples"], info["tracks"], 10)
    if values.shape[:2] != (clip.source.frames, clip.source.joints):
        raise RuntimeError(f"{clip.name}: ACL gave {values.shape[:2]} samples x tracks, "
                           f"expected {clip.source.frames} x {clip.source.joints}")
    lossy = bvh.forward_kinematics(clip.source.parents, bvh.quaternion_matrices(values[..., :4]), values[..., 4:7],
                                   values[..., 7:10])
    err = bvh.object_error(clip.reference, lossy, codec.SHELL_M)
    frame, joint = err.worst
    return {"clip": clip.name, "codec": "ACL", "setting": "defaults", "bytes": size,
            "ratio": clip.raw_bytes / size, "max_cm": err.max * 100, "p99_cm": err.p99 * 100,
            "worst": f"{clip.source.names[joint]}@{frame}", "encoder_max_cm": stat_value(text, "max_error") * 100,
            "encode_s": timed["compress_cpu_s"], "write_s": None, "decode_s": info["decompress_cpu_s"],
            "acl_wall_s": stat_value(text, "compression_time"), "acl_raw_size": int(stat_value(text, "raw_size"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--acl", required=True, help="folder holding acl/, rtm/ and sjson-cpp/ checkouts")
    parser.add_argument("--clip", action="append", choices=list(codec.CLIPS), help="only this clip (repeatable)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "acl-check", help="where the executables go")
    args = parser.parse_args()
    if not args.acl:
        sys.exit("acl-check: say where ACL is: make acl-check ACL=DIR (DIR/acl, DIR/rtm, DIR/sjson-cpp: checkouts of "
                 "nfrechette/acl, rtm and sjson-cpp)")
    acl_dir = Path(args.acl).resolve()
    tools = build(acl_dir, args.out)
    print(f"ACL {commit(acl_dir / 'acl')}, rtm {commit(acl_dir / 'rtm')}, sjson-cpp {commit(acl_dir / 'sjson-cpp')}")
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    print(codec.describe(False))
    print("ACL rows: acl_compressor at its defaults (0.01 cm precision, 3 cm shell, in metres); bytes = its "
          "compressed_size; encoder's max = its max_error; encode = best CPU time of "
          f"{COMPRESS_RUNS} compress_track_list calls at the same defaults (tools/acl_codec.cpp, the same bytes); "
          f"decode = best CPU time of {DECOMPRESS_RUNS} whole-clip decompressions (tools/acl_codec.cpp); "
          "max/p99 = measured here on ACL's decompressed output.")
    rows, notes = [], []
    with tempfile.TemporaryDirectory(prefix="animspec-acl-") as tmp:
        for name in args.clip or list(codec.CLIPS):
            clip = codec.load(name)
            if isinstance(clip, str):
                notes.append(f"{name}: skipped, {clip}")
                continue
            acl = run_acl(tools, clip, Path(tmp))
            rows.append(acl)
            rows += [codec.measure(clip, s) for s in codec.settings(False, name)]
            notes.append(f"{name}: ACL's own max error {acl['encoder_max_cm']:.4f} cm (ours on its output "
                         f"{acl['max_cm']:.4f}); its raw size {acl['acl_raw_size']:,} B (ours {clip.raw_bytes:,}); "
                         f"its compression_time {acl['acl_wall_s'] * 1000:.1f} ms wall")
    codec.print_table(rows)
    for n in notes:
        print(n)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
