"""What a surviving mutant of the .animclip encoder does to what it writes, measured on real
motion capture (issue 31): ``make mutant-effect`` or

    python tools/mutant_effect.py RUN.json [--frames N] [--json OUT] [--only LINE...]

RUN.json is a ``tools/mutation.py --json`` run of ``animclip/frames/encode.py`` (or
``frames/object_space.py``); every mutant that survived it and is not in ``EQUIVALENT`` is
applied again (the same source the mutation run tested, served from memory in a forked
child, nothing on disk changed) and the child encodes the benchmark's clips (Debian's
``assimp-testmodels`` BVH files: bench/codec.py :data:`CLIPS`, their first ``--frames``) at
two settings: the encoder's default object-space bound, and the expert joint-local tolerance
at 0.01 deg (bench/codec.py :func:`component_setting`). For each, from the file written:

- its size (the file as written, headers included), the bits of one frame's sample before
  it is padded to whole 32-bit words (the sum of the element widths: the search's choice,
  which the padding often hides from the size), and whether it is the same file;
- its object-space error, read back with animspec's reader and decoder and evaluated by the
  benchmark's own forward kinematics against the BVH's float64 transforms (bench/bvh.py,
  ACL's metric at a 3 cm shell): a mutant that passes the bound on real data is a bug the
  tests missed, and the run says so;
- the figures the encoder reports (its object-space error, and each kind's joint-local
  one): where the bytes are the same, a mutant reporting other figures misleads a user;
- the encoder's CPU time (best of two).

The unmutated encoder runs first and last, as the baseline and as a measure of the run's own
timing noise. Bytes and errors are deterministic; CPU times are a ratio to the baseline in the
same run (the machine's load moves both). What it prints is the table docs/mutation.md
quotes for the survivors that change only how well or how fast the encoder packs a clip.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))

import mutation  # noqa: E402  (tools/mutation.py: the mutants, their sources, EQUIVALENT)

BOUND_SLACK = 1e-9
"""Relative: an error this close above the bound is the float noise of measuring it twice."""
TIMEOUT_S = 600.0
"""A child that takes longer is stopped and reported (an endless loop)."""


def measure(frames: int | None) -> list[dict]:
    """In the current process (mutated or not): each clip at each setting, one row each."""
    import bvh
    import codec

    rows = []
    for name in codec.CLIPS:
        clip = codec.load(name, frames)
        if isinstance(clip, str):
            raise SystemExit(clip)
        clip_frames = codec.encoder.Frames(clip.rotations, clip.translations)
        for setting in (codec.Setting("default"), codec.component_setting(0.01)):
            cpu = math.inf
            for _ in range(2):
                t0 = time.process_time()
                enc = codec.encode_clip(clip_frames, setting, clip.source.parents)
                cpu = min(cpu, time.process_time() - t0)
            hashes = codec.encoder.joint_hashes(list(clip.source.names))
            data = codec.write_bytes(codec.clip_model(enc, hashes, fps=clip.source.fps))
            err = bvh.object_error(clip.reference, codec.lossy_object_transforms(data, clip), codec.SHELL_M)
            bound = codec.encoder.DEFAULT_BOUND.max_error if setting.label == "default" else None
            reported = [float(enc.object_error.max)] + [float(k.worst) for k in
                                                         (enc.error.rotation, enc.error.translation, enc.error.scale)]
            rows.append({"clip": name, "setting": setting.label, "bytes": len(data), "bits": int(enc.widths.sum()),
                         "sha256": hashlib.sha256(data).hexdigest(), "max_m": float(err.max),
                         "bound_m": bound, "reported": reported, "cpu_s": cpu})
    return rows


def in_child(rel: str, source: str | None, frames: int | None) -> dict:
    """Fork; in the child, serve ``source`` as the module ``rel`` (None: unmutated) and measure."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = Path(f.name)
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            mutation.serve(rel, source, also=("codec", "bvh"))  # (bench/: they hold the encoder)
            out.write_text(json.dumps({"rows": measure(frames)}))
        except BaseException as e:  # the mutant broke the encoder: that is a result too
            out.write_text(json.dumps({"error": f"{type(e).__name__}: {e}"[:300]}))
            code = 1
        os._exit(code)
    while True:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - started > TIMEOUT_S:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            out.unlink(missing_ok=True)
            return {"error": f"no result within {TIMEOUT_S:.0f} s"}
        time.sleep(0.05)
    try:
        return json.loads(out.read_text())
    except (OSError, ValueError):
        return {"error": "the child wrote no result"}
    finally:
        out.unlink(missing_ok=True)


def compare(rows: list[dict], base: list[dict]) -> dict:
    """A mutant's rows against the baseline's: bytes in all and per row, errors past the bound."""
    changed = [(r["clip"], r["setting"], r["bytes"] - b["bytes"]) for r, b in zip(rows, base)
               if r["sha256"] != b["sha256"]]
    total, base_total = sum(r["bytes"] for r in rows), sum(b["bytes"] for b in base)
    bits, base_bits = sum(r["bits"] for r in rows), sum(b["bits"] for b in base)
    over = [f"{r['clip']} {r['setting']}: {r['max_m'] * 100:.5f} cm" for r in rows
            if r["bound_m"] is not None and r["max_m"] > r["bound_m"] * (1 + BOUND_SLACK)]
    # the figures the encoder reports (object space; rotation, translation, scale) are what a
    # user reads: for the same file they must be the same figures
    misreported = [f"{r['clip']} {r['setting']}" for r, b in zip(rows, base)
                   if r["sha256"] == b["sha256"] and not np.allclose(r["reported"], b["reported"], rtol=1e-9, atol=0)]
    worse_error = max((r["max_m"] / b["max_m"] for r, b in zip(rows, base) if b["max_m"] > 0), default=1.0)
    return {"bytes_change": total / base_total - 1, "bits_change": bits / base_bits - 1, "rows_changed": changed,
            "over_bound": over,
            "misreported": misreported,
            "error_ratio": worse_error, "cpu_ratio": sum(r["cpu_s"] for r in rows) / sum(b["cpu_s"] for b in base)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path, help="a tools/mutation.py --json run")
    parser.add_argument("--frames", type=int, default=600, help="the first this many frames of each clip (default 600)")
    parser.add_argument("--json", type=Path, help="write each mutant's measures here")
    parser.add_argument("--only", type=int, nargs="*", metavar="LINE", help="only the survivors on these lines")
    args = parser.parse_args(argv)
    try:
        runs = json.loads(args.run.read_text())
    except (OSError, ValueError) as e:
        parser.error(f"{args.run}: not the --json of a mutation run ({e})")
    mutation.preload()
    import bvh  # noqa: F401  (warm in the parent: every child forks from it)
    import codec  # noqa: F401

    results = []
    baseline = in_child("", None, args.frames)
    if "error" in baseline:
        print(f"the unmutated encoder fails on the clips: {baseline['error']}")
        return 2
    base = baseline["rows"]
    print(f"baseline: {sum(r['bytes'] for r in base):,} bytes over {len(base)} encodings "
          f"({', '.join(sorted({r['clip'] for r in base}))}, first {args.frames} frames)", flush=True)
    for rel, mutants in runs.items():
        path = mutation.PACKAGE / rel
        only = mutation.MODULES[rel].get("only")
        for m in mutants:
            if m["status"] != "survived" or m.get("planted"):
                continue
            what = m["what"].removesuffix(mutation.NO_TEST_RUNS)
            if (rel, m["source_line"].strip(), what) in mutation.EQUIVALENT:
                continue
            if args.only and m["line"] not in args.only:
                continue
            source = mutation.mutated_source(path, only, m["index"])
            got = in_child(rel, source, args.frames)
            row = {"module": rel, "index": m["index"], "line": m["line"], "what": what,
                   "source_line": m["source_line"].strip()}
            row.update(got if "error" in got else compare(got["rows"], base))
            results.append(row)
            print(_line(row), flush=True)
    again = in_child("", None, args.frames)
    noise = compare(again["rows"], base) if "rows" in again else {"cpu_ratio": math.nan}
    print(f"baseline again: CPU {noise['cpu_ratio']:.2f}x the first (the run's timing noise)")
    if args.json:
        args.json.write_text(json.dumps({"frames": args.frames, "baseline": base, "noise_cpu_ratio": noise["cpu_ratio"],
                                         "mutants": results}, indent=1))
    broken = [r for r in results if r.get("error") or r.get("over_bound") or r.get("misreported")]
    if broken:
        print(f"\n{len(broken)} mutant(s) fail on real data (a gap in the tests):")
        for r in broken:
            print("  " + _line(r))
        return 1
    return 0


def _line(r: dict) -> str:
    head = f"{r['module']}:{r['line']}: {r['what']}: {r['source_line'][:60]}"
    if "error" in r:
        return f"{head} -- FAILS: {r['error']}"
    over = f"; PAST THE BOUND: {', '.join(r['over_bound'])}" if r["over_bound"] else ""
    over += f"; REPORTS OTHER FIGURES: {', '.join(r['misreported'])}" if r["misreported"] else ""
    return (f"{head} -- bytes {r['bytes_change']:+.3%}, bits a frame {r['bits_change']:+.3%} "
            f"({len(r['rows_changed'])} of the files differ), "
            f"max error x{r['error_ratio']:.3f}, CPU x{r['cpu_ratio']:.2f}{over}")


if __name__ == "__main__":
    sys.exit(main())
