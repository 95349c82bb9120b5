"""Issue 30.4: the .animclip encoder measured as animation codecs are, on real motion capture
(used by bench/run.py, part "codec", and by tools/acl_check.py; ``python bench/codec.py``
runs it alone).

The clips: Debian's ``assimp-testmodels`` BVH files (:data:`CLIPS`), CMU motion capture
(01_01, 01_03; 5.644 cm per BVH unit, :data:`bvh.CMU_UNIT_M`) and Boxing_Toes (cm). Each is
converted to metres (Insomniac's unit) and encoded from the BVH's own local transforms (the
rotations as quaternions, the translations in metres: all ROOT/JOINT bones, no End Sites).

For each setting (:func:`settings`), one row: the written file's bytes; the ratio of raw
float32 to them (ACL's convention: 10 floats, 40 bytes, per joint per frame); the
object-space error of the WRITTEN file, read back with animspec's reader and decoder and
evaluated by :func:`bvh.forward_kinematics`, against the float64 evaluation of the BVH's
Euler angles (:meth:`bvh.Bvh.object_transforms`), with ACL's metric at a 3 cm shell
(:func:`bvh.object_error`), max and 99th percentile in cm; the encoder's CPU time (encode
alone, best of :data:`ENCODE_RUNS`; then building and serialising the clip, once); the
full-clip decode's CPU time (the file's bytes read, every frame of every joint decoded: best
of :data:`DECODE_RUNS`). The encoder's own error figure is never used as the error: where
the encoder reports one (``object_error``, issue 30.1) it is printed beside, to compare.

The encoder is reached through one function, :func:`encode_clip`.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bvh  # noqa: E402  (bench/bvh.py: the ground truth)

from animspec.animclip import read_bytes, write_bytes  # noqa: E402
from animspec.animclip.frames import encode as encoder  # noqa: E402
from animspec.animclip.frames.decode import decode_clip  # noqa: E402
from animspec.animclip.frames.object_space import ObjectTolerance  # noqa: E402
from animspec.common.ranges import ANIMCLIP_ERRORS  # noqa: E402
from animspec.animclip.frames.sections import clip_model  # noqa: E402

BVH_DIR = Path("/usr/share/assimp/models/BVH")
CLIPS = {"01_01": bvh.CMU_UNIT_M, "01_03": bvh.CMU_UNIT_M, "Boxing_Toes": 0.01}
"""Clip name -> metres per BVH unit."""
SHELL_M = 0.03
"""ACL's default shell distance, 3 cm, in metres."""
RAW_BYTES_PER_JOINT_FRAME = 40
"""ACL's raw size: 10 float32 (rotation 4, translation 3, scale 3) per joint per frame."""
DECODE_RUNS = 100
"""As many as ACL's decode gets in tools/acl_check.py (DECOMPRESS_RUNS). A decode takes a few
ms, so a row's decodes last a fraction of a second: on a shared machine best of 5, then of 25,
still varied 1.5-1.8x between rows decoding the same bytes in one run (01_01's default and
0.0177 cm rows: 3.0 and 2.0 ms; then 1.8 and 2.8)."""
ENCODE_RUNS = 3
QUICK_FRAMES = 48
"""--quick: the first frames of each clip only."""


@dataclass(frozen=True)
class Setting:
    """One encoder setting: ``rotation_deg``/``translation`` (today's per-component
    tolerance, translation in metres) or ``max_error`` (object space, metres, at ``shell``);
    all None: the encoder's default."""

    label: str
    rotation_deg: float | None = None
    translation: float | None = None
    max_error: float | None = None


ACL_MAX_ERROR_CM = {"01_01": 0.0177, "01_03": 0.0156, "Boxing_Toes": 0.0266}
"""ACL 2.1's measured max error at its defaults on each clip (docs/performance.md, ``make
acl-check``): animspec is also run at this bound, the issue's comparison at equal error."""


def settings(quick: bool, clip: str | None = None) -> list[Setting]:
    """The default (object space, :data:`animspec.common.ranges.ANIMCLIP_ERRORS`), object-space
    bounds (ACL's error on ``clip``, 0.01 cm: ACL's default threshold, 0.05 cm), then the
    expert joint-local measure at a few angles."""
    out = [Setting("default")]
    bounds = (0.01,) if quick else tuple(sorted({0.05, ACL_MAX_ERROR_CM.get(clip or "", 0.02), 0.01}, reverse=True))
    out += [Setting(f"{cm:g} cm object", max_error=cm / 100) for cm in bounds]
    out += [component_setting(d) for d in ((0.01,) if quick else (0.1, 0.01))]
    return out


def component_setting(deg: float) -> Setting:
    """The expert joint-local tolerance at ``deg`` degrees, with the translation tolerance that
    moves a point as far as ``deg`` moves a shell vertex (3 cm x the angle in radians), kept
    within the encoder's range (:data:`encode.LOCAL_TRANSLATION_ERROR`)."""
    bounds = encoder.LOCAL_TRANSLATION_ERROR
    translation = min(max(SHELL_M * math.radians(deg), bounds.low * 1.0000001), bounds.high)
    return Setting(f"local {deg:g} deg, {translation * 100:.2g} cm", rotation_deg=deg, translation=translation)


def encode_clip(frames: Any, setting: Setting, parents: np.ndarray) -> Any:
    """The one place the benchmark calls the encoder."""
    hierarchy = [int(p) for p in parents]
    if setting.max_error is not None:
        return encoder.encode(frames, ObjectTolerance(max_error=setting.max_error, shell=SHELL_M), parents=hierarchy)
    if setting.rotation_deg is not None:
        t = setting.translation if setting.translation is not None else encoder.Tolerance().translation
        per_joint = encoder.Tolerance(rotation_deg=setting.rotation_deg, translation=t, scale=t)
        return encoder.encode(frames, per_joint, parents=hierarchy, shell=SHELL_M)
    return encoder.encode(frames, parents=hierarchy)


@dataclass
class Clip:
    name: str
    source: bvh.Bvh
    unit: float
    reference: np.ndarray
    """(F, J, 4, 4) float64 object space, metres."""
    rotations: np.ndarray
    translations: np.ndarray

    @property
    def raw_bytes(self) -> int:
        return self.source.frames * self.source.joints * RAW_BYTES_PER_JOINT_FRAME


def load(name: str, frames: int | None = None, folder: Path = BVH_DIR) -> Clip | str:
    """The clip, in metres (the first ``frames`` only if given), or why it is skipped."""
    path = folder / f"{name}.bvh"
    if not path.is_file():
        return f"{path} is missing (Debian's assimp-testmodels package ships it)"
    source = bvh.read(path)
    if frames is not None:
        source = bvh.Bvh(source.names, source.parents, source.offsets, source.channels, source.frame_time,
                         source.motion[:frames])
    unit = CLIPS[name]
    return Clip(name, source, unit, source.object_transforms(unit), source.local_quaternions(),
                source.local_translations(unit))


def lossy_object_transforms(data: bytes, clip: Clip) -> np.ndarray:
    """The written file read back and decoded by animspec, evaluated by the reference FK."""
    decoded = decode_clip(read_bytes(data)).frames(0, clip.source.frames)
    rot = bvh.quaternion_matrices(np.asarray(decoded.rotation, np.float64))
    return bvh.forward_kinematics(clip.source.parents, rot, np.asarray(decoded.translation, np.float64),
                                  np.asarray(decoded.scale, np.float64))


def measure(clip: Clip, setting: Setting) -> dict[str, Any]:
    """One row (module doc); errors in cm, times in CPU seconds."""
    frames = encoder.Frames(clip.rotations, clip.translations)
    encode_cpu = math.inf
    for _ in range(ENCODE_RUNS):
        t0 = time.process_time()
        enc = encode_clip(frames, setting, clip.source.parents)
        encode_cpu = min(encode_cpu, time.process_time() - t0)
    t1 = time.process_time()
    hashes = encoder.joint_hashes(list(clip.source.names))
    data = write_bytes(clip_model(enc, hashes, fps=clip.source.fps))
    write_cpu = time.process_time() - t1
    decode_cpu = math.inf
    for _ in range(DECODE_RUNS):
        d0 = time.process_time()
        decode_clip(read_bytes(data)).frames(0, clip.source.frames)
        decode_cpu = min(decode_cpu, time.process_time() - d0)
    err = bvh.object_error(clip.reference, lossy_object_transforms(data, clip), SHELL_M)
    frame, joint = err.worst
    own = getattr(enc, "object_error", None)  # the object-space encoder's own figure, shown beside ours
    return {"clip": clip.name, "codec": "animspec", "setting": setting.label, "bytes": len(data),
            "ratio": clip.raw_bytes / len(data), "max_cm": err.max * 100, "p99_cm": err.p99 * 100,
            "worst": f"{clip.source.names[joint]}@{frame}",
            "encoder_max_cm": None if own is None else float(own.max) * 100,
            "encode_s": encode_cpu, "write_s": write_cpu, "decode_s": decode_cpu}


HEADER = ("clip", "codec", "setting", "bytes", "ratio", "max cm", "p99 cm", "worst joint@frame",
          "encoder's max cm", "encode CPU ms", "write CPU ms", "decode CPU ms")


def row_cells(r: dict[str, Any]) -> list[str]:
    def t(key: str) -> str:
        v = r.get(key)
        return "-" if v is None else f"{v * 1000:.1f}"

    return [r["clip"], r["codec"], r["setting"], f"{r['bytes']:,}", f"{r['ratio']:.2f}:1", f"{r['max_cm']:.4f}",
            "-" if r.get("p99_cm") is None else f"{r['p99_cm']:.4f}", r.get("worst", "-"),
            "-" if r.get("encoder_max_cm") is None else f"{r['encoder_max_cm']:.4f}",
            t("encode_s"), t("write_s"), t("decode_s")]


def print_table(rows: list[dict[str, Any]]) -> None:
    cells = [list(HEADER)] + [row_cells(r) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEADER))]
    for k, c in enumerate(cells):
        print("  ".join(x.ljust(w) if i < 3 or i == 7 else x.rjust(w) for i, (x, w) in enumerate(zip(c, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))


def run(quick: bool, names: list[str] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """Every clip at every setting: (rows, skip reasons)."""
    rows, skipped = [], []
    for name in names or list(CLIPS):
        clip = load(name, QUICK_FRAMES if quick else None)
        if isinstance(clip, str):
            skipped.append(f"{name}: skipped, {clip}")
            continue
        for setting in settings(quick, name):
            rows.append(measure(clip, setting))
    return rows, skipped


def describe(quick: bool) -> str:
    return (f"Codec on motion capture (issue 30.4): animspec's encoder (default: object space, "
            f"{ANIMCLIP_ERRORS.max_error * 100:g} cm); error = ACL's metric, "
            f"3 virtual vertices {SHELL_M * 100:g} cm from each joint in object space, the written file decoded by "
            "animspec against a float64 evaluation of the BVH's Euler angles (bench/bvh.py); ratio = raw float32 "
            "(40 bytes per joint per frame) / bytes; times are CPU seconds (encode: encode() alone, best of "
            f"{ENCODE_RUNS}; write: the clip model and its bytes; decode: read the bytes and decode every frame, "
            f"best of {DECODE_RUNS})" + (f"; --quick: the first {QUICK_FRAMES} frames of each clip" if quick else ""))


SEGMENT_FRAMES = 16
"""ACL's segments: 16 frames, each with its own range per track (ACL's default segmenting)."""
SEGMENT_RANGE_BITS = 16
"""What a per-segment range would cost per element per segment in this estimate: an 8-bit
minimum and an 8-bit extent, as ACL stores a segment's range per component."""


def format_costs(clip: Clip, bound_m: float) -> dict[str, Any]:
    """What the format's own choices cost on ``clip`` encoded within ``bound_m`` (object space):
    bits per frame; how many of them the quaternions' fourth components take (the format
    stores x, y, z and w: ACL stores three and rebuilds w); what the same fields would take with
    a range per 16-frame segment instead of one per clip (widths from each segment's own
    extent, plus :data:`SEGMENT_RANGE_BITS` per element per segment); and the format's floor,
    the object-space error at the finest steps the encoder uses (everything at shift 0)."""
    frames = encoder.Frames(clip.rotations, clip.translations)
    enc = encode_clip(frames, Setting("", max_error=bound_m), clip.source.parents)
    total = int(enc.widths.sum())
    w = int(enc.widths[enc.components % 12 == 7].sum())
    fields = enc.fields.astype(np.int64)
    segment_bits = 0
    for start in range(0, enc.frames, SEGMENT_FRAMES):
        block = fields[start:start + SEGMENT_FRAMES]
        extent = block.max(axis=0) - block.min(axis=0)
        widths = np.where(extent > 0, np.floor(np.log2(np.maximum(extent, 1))) + 1, 0)
        segment_bits += int(widths.sum()) * len(block) + SEGMENT_RANGE_BITS * len(enc.widths)
    floor = encode_clip(frames, Setting("", max_error=1e-9), clip.source.parents)
    return {"clip": clip.name, "bound_cm": bound_m * 100, "max_cm": enc.object_error.max * 100,
            "bits": total, "stride": enc.stride, "w_bits": w, "segment_bits": segment_bits / enc.frames,
            "floor_cm": floor.object_error.max * 100, "floor_stride": floor.stride}


def print_format_costs(names: list[str] | None) -> None:
    print(f"What the format's choices cost, at each clip's ACL max error ({ACL_MAX_ERROR_CM} cm): bits per frame "
          f"(stride: whole u32 words), the quaternions' w components' share, the same fields with a range per "
          f"{SEGMENT_FRAMES}-frame segment (+{SEGMENT_RANGE_BITS} bits per element per segment), and the floor "
          "(every step at its finest)")
    for name in names or list(CLIPS):
        clip = load(name)
        if isinstance(clip, str):
            print(f"{name}: skipped, {clip}")
            continue
        c = format_costs(clip, ACL_MAX_ERROR_CM[name] / 100)
        print(f"{name}: bound {c['bound_cm']:g} cm -> max {c['max_cm']:.4f} cm; {c['bits']} bits per frame "
              f"({c['stride']} bytes); w components {c['w_bits']} bits ({c['w_bits'] / c['bits']:.0%}); per-segment "
              f"ranges {c['segment_bits']:.0f} bits per frame ({c['segment_bits'] / c['bits']:.0%}); floor "
              f"{c['floor_cm']:.4f} cm at {c['floor_stride']} bytes per frame")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"the first {QUICK_FRAMES} frames of each clip, two settings")
    parser.add_argument("--clip", action="append", choices=list(CLIPS), help="only this clip (repeatable)")
    parser.add_argument("--format-costs", action="store_true",
                        help="instead: what the format's own choices cost at each clip's ACL error (docs/animclip.md)")
    args = parser.parse_args()
    if args.format_costs:
        print_format_costs(args.clip)
        return 0
    print(describe(args.quick))
    rows, skipped = run(args.quick, args.clip)
    for s in skipped:
        print(s)
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
