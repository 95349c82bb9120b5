"""Fuzz targets: what a user can feed animspec, and the only errors each may raise.

Each target takes one input (bytes) and runs what the command line runs on it. An exception
of a documented kind is a refusal and fine; anything else escaping is a bug, and so is a
broken promise the target checks (``pack(dump(f)) == f`` for every file that reads).

| target            | input                 | runs                                                       | may raise                      |
|-------------------|-----------------------|------------------------------------------------------------|--------------------------------|
| read_animbin      | ANIMBIN bytes         | read, validate, info, dump -> pack round trip              | ParseError                     |
| read_meshbin      | MESHBIN bytes         | same                                                       | ParseError                     |
| read_animclip     | .animclip bytes       | same                                                       | ParseError                     |
| pack_animbin      | JSON dump text        | what ``animspec pack`` does: parse, from_json, write, read back | JsonInputError, WriteError |
| pack_meshbin      | JSON dump text        | same                                                       | JsonInputError, WriteError     |
| pack_animclip     | JSON dump text        | same                                                       | JsonInputError, WriteError     |
| convert_gltf      | GLB bytes             | glTF -> ANIMBIN (``gltf_to_animbin``), fit from the last byte      | AnimspecError                  |
| convert_animbin   | ANIMBIN bytes         | ANIMBIN -> GLB (``animbin_to_gltf``), keys and engine bake         | ParseError, AnimspecError      |
| convert_animclip  | .animclip bytes       | .animclip base pose -> GLB on a rig (``animclip_pose_to_gltf``) | ParseError, AnimspecError      |
| convert_meshbin_rig | MESHBIN bytes       | ANIMBIN -> GLB on the MESHBIN's skeleton (``--skeleton``)  | ParseError, AnimspecError      |
| gltf_rig_folder   | glTF JSON text        | the .gltf in a folder beside a secret: read as --skeleton rig (GLB written) and converted to ANIMBIN | AnimspecError; the secret in no output |
| encode_animclip   | GLB bytes             | glTF -> .animclip (``convert -o X.animclip``) with fps, errors, template, looping and root motion drawn from the input's CRC32 (hostile values too); the clip written read back, decoded and validated | AnimspecError |
| blender_import_bounds | .animclip bytes   | the Blender import's decision (``plan_blender_import``, no bpy) on every joint as a bone, root motion from the last byte | ParseError, AnimspecError (BlenderFpsError, BlenderImportTooLargeError); a plan inside its bound |

Seeds live in ``tests/fuzz/corpus/<target>/`` (``python tools/fuzz.py seed`` rebuilds them
from examples/ and the tests' fixture builders); crashes found become
``tests/fuzz/regressions/<target>/`` inputs that tests/test_fuzz.py replays.
"""

from __future__ import annotations

import atexit
import functools
import json
import math
import os
import random
import secrets
import shutil
import struct
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
FUZZ_DIR = Path(__file__).resolve().parent
CORPUS = FUZZ_DIR / "corpus"
REGRESSIONS = FUZZ_DIR / "regressions"
EXAMPLES = ROOT / "examples"

MAX_INPUT = 1 << 20
"""The fuzzers' input size cap (libFuzzer's -max_len); the 64 MB bounds are tested apart."""


class Finding(AssertionError):
    """A broken promise that is not an exception of its own (a failed round trip)."""


@dataclass(frozen=True)
class Target:
    name: str
    run: Callable[[bytes], None]
    kind: str
    """"binary", "json", "glb" or "gltf_json": which structure-aware mutator suits the input."""

    def seeds(self) -> list[bytes]:
        folder = CORPUS / self.name
        return [p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()] if folder.is_dir() else []

    def regressions(self) -> list[Path]:
        folder = REGRESSIONS / self.name
        return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


# --------------------------------------------------------------------------- read targets


def _read(fmt_name: str, data: bytes) -> None:
    from animspec.common import jsonfmt
    from animspec.common.errors import ParseError
    from animspec.formats import by_name, detect

    fmt = by_name(fmt_name)
    try:
        model = fmt.read(data, "fuzz")
    except ParseError as exc:
        _check_parse_error(exc, data)
        return
    assert detect(data).name == fmt.name
    fmt.validate(model)
    fmt.info(model)
    text = jsonfmt.dumps(fmt.to_json(model))
    # What `animspec dump f -o d.json; animspec pack d.json -o g` does: g must be f.
    again = fmt.from_json(json.loads(text), "dump.json")
    packed = fmt.write(again)
    if packed != data:
        raise Finding(f"pack(dump(f)) differs from f ({len(packed)} vs {len(data)} bytes)")


def _check_parse_error(exc: Any, data: bytes) -> None:
    if exc.path != "fuzz" or exc.field is None:
        raise Finding(f"ParseError without file or field: {exc!r}")
    if exc.offset is not None and not 0 <= exc.offset <= len(data):
        raise Finding(f"ParseError offset {exc.offset} outside the {len(data)}-byte file: {exc}")


def read_animbin(data: bytes) -> None:
    _read("animbin", data)


def read_meshbin(data: bytes) -> None:
    _read("meshbin", data)


def read_animclip(data: bytes) -> None:
    _read("animclip", data)


# --------------------------------------------------------------------------- pack targets


def _pack(fmt_name: str, data: bytes) -> None:
    from animspec.common.errors import JsonInputError, ParseError, WriteError
    from animspec.formats import by_name, format_of_dump
    from animspec.common.jsonpath import parse_json

    try:
        doc = parse_json(data, "fuzz.json")
        # The target's format decides, so every target's inputs exercise its own code.
        if isinstance(doc, dict) and "format" in doc:
            doc["format"] = fmt_name
        fmt = format_of_dump(doc, "fuzz.json")
        assert fmt is by_name(fmt_name)
        model = fmt.from_json(doc, "fuzz.json")
        out = fmt.write(model)
    except JsonInputError as exc:
        if exc.path != "fuzz.json" or not exc.json_path.startswith("$"):
            raise Finding(f"JsonInputError without file or JSON path: {exc!r}") from None
        return
    except WriteError:
        return  # a value that does not fit its field: named in the spec's terms
    # animspec pack re-reads what it wrote and refuses a file that does not read back as
    # the dump said; a dump that passes from_json and write must not get that far.
    try:
        back = fmt.read(out, "packed")
    except ParseError as exc:
        raise Finding(f"pack wrote a file that does not read back: {exc}") from None
    if back != model:
        raise Finding("pack wrote a file that reads back differently from the dump")


def pack_animbin(data: bytes) -> None:
    _pack("animbin", data)


def pack_meshbin(data: bytes) -> None:
    _pack("meshbin", data)


def pack_animclip(data: bytes) -> None:
    _pack("animclip", data)


# --------------------------------------------------------------------------- convert targets


def convert_gltf(data: bytes) -> None:
    from animspec.animbin import read_bytes, write_bytes
    from animspec.common.errors import AnimspecError
    from animspec.gltf import gltf_to_animbin

    fit = ("bake", "cut", "reduce")[data[-1] % 3] if data else "bake"
    try:
        result = gltf_to_animbin(data, fit=fit, translations=bool(data and data[-1] & 4), split=True)
        result.report()
        files = [write_bytes(m) for m in result.files]
    except AnimspecError:
        return
    for out, model in zip(files, result.files):
        if read_bytes(out) != model:
            raise Finding("a converted ANIMBIN does not read back as converted")


@functools.lru_cache(maxsize=1)
def _rig_glb() -> bytes:
    """A chain rig whose node names are examples/joint_names.txt: they hash to the joints of
    examples/walk.animclip, so the base pose lands on nodes."""
    import numpy as np

    from animspec.animbin import AnimbinFile
    from animspec.gltf import animbin_to_gltf
    from animspec.skeleton import Skeleton

    names = (EXAMPLES / "joint_names.txt").read_text().split()
    chain = Skeleton.chain(len(names))
    rig = Skeleton(chain.parents, chain.rest_translation, chain.rest_rotation, names)
    assert np.all(rig.parents < np.arange(len(names)))
    return animbin_to_gltf(AnimbinFile(), rig)


def _check_glb(glb: bytes) -> None:
    from animspec.gltf import load_gltf

    doc = load_gltf(glb)
    if doc is None or not doc.nodes:
        raise Finding("the GLB written does not load back")


def convert_animbin(data: bytes) -> None:
    from animspec.animbin import read_bytes
    from animspec.common.errors import AnimspecError
    from animspec.gltf import animbin_to_gltf

    try:
        model = read_bytes(data, "fuzz")
        glbs = [animbin_to_gltf(model), animbin_to_gltf(model, bake_engine=True, region="pal")]
    except AnimspecError:
        return
    for glb in glbs:
        _check_glb(glb)


def convert_animclip(data: bytes) -> None:
    from animspec.animclip import read_bytes
    from animspec.common.errors import AnimspecError
    from animspec.gltf import animclip_pose_to_gltf

    try:
        model = read_bytes(data, "fuzz")
        clip = model.clip((EXAMPLES / "joint_names.txt").read_text().split())
        joints = [j for j in clip.joints if j.hash is not None and j.rotation is not None]
        tracks = [(t.name or f"{t.hash:08X}", [float(v) for v in t.values]) for t in clip.custom_tracks]
        glb, _match = animclip_pose_to_gltf(joints, _rig_glb(), custom_tracks=tracks, name=clip.name or "base_state")
    except AnimspecError:
        return
    _check_glb(glb)


def blender_import_bounds(data: bytes) -> None:
    """What Blender's .animclip import decides before it keys anything: a refusal, or a plan
    whose cost is inside the file's bound and whose scene rate Blender can hold."""
    from animspec.animclip import read_bytes
    from animspec.animclip.frames.blender_import import (
        BLENDER_BYTES_PER_BONE_KEY,
        BLENDER_FPS_BASE_RANGE,
        BLENDER_SCENE_FPS_MAX,
        plan_blender_import,
    )
    from animspec.animclip.frames.pose import clip_frames
    from animspec.animclip.frames.inputs import memory_bound
    from animspec.common.errors import AnimspecError

    try:
        clip = clip_frames(read_bytes(data, "fuzz"), "fuzz")
        bones = len({int(h) for h in clip.joint_hashes} - {0xFFFF_FFFF})
        plan = plan_blender_import(clip, "fuzz", len(data), bones=bones, root_motion=bool(data[-1:] > b"\x7f"))
    except AnimspecError:
        return
    if not plan.need == plan.keys * BLENDER_BYTES_PER_BONE_KEY <= memory_bound(len(data)):
        raise Finding(f"a plan past its bound: {plan}")
    low, high = BLENDER_FPS_BASE_RANGE
    if not (1 <= plan.scene_fps <= BLENDER_SCENE_FPS_MAX and low <= plan.fps_base <= high):
        raise Finding(f"a scene rate Blender cannot hold: {plan}")
    if abs(plan.scene_fps / plan.fps_base - clip.fps) > 1e-9 * clip.fps:
        raise Finding(f"the scene's rate is not the clip's ({clip.fps!r}): {plan}")


@functools.lru_cache(maxsize=1)
def _swing():
    from animspec.animbin import read_file

    return read_file(EXAMPLES / "swing.animbin")


def convert_meshbin_rig(data: bytes) -> None:
    from animspec.common.errors import AnimspecError
    from animspec.gltf import animbin_to_gltf
    from animspec.meshbin import read_bytes, skeleton_from_meshbin

    try:
        skeleton = skeleton_from_meshbin(read_bytes(data, "fuzz"))
        glb = animbin_to_gltf(_swing(), skeleton, bake_engine=bool(data[-1] & 1))
    except AnimspecError:
        return
    _check_glb(glb)


RIG_DATA = struct.pack("<2f", 0.0, 0.25) + bytes(56) + struct.pack("<8f", 0, 0, 0, 1, 0, 0.7071067, 0, 0.7071068)
"""The 96 bytes of a gltf_rig_folder seed's buffer: two key times (in a 64-byte view) and
two rotations."""


@functools.lru_cache(maxsize=1)
def _rig_folder() -> tuple[Path, bytes]:
    """A scratch folder for this process: ``secret.txt`` (a random token, repeated) beside
    ``rig/``, which holds what a hostile .gltf may name: data.bin (the seeds' buffer, also in
    sub/), a symbolic link to the secret, a link to the folder above, and a FIFO."""
    root = Path(tempfile.mkdtemp(prefix="animspec-fuzz-rig-"))
    atexit.register(shutil.rmtree, root, True)
    token = secrets.token_hex(16).encode()
    (root / "secret.txt").write_bytes(token * 64)
    rig = root / "rig"
    (rig / "sub").mkdir(parents=True)
    (rig / "data.bin").write_bytes(RIG_DATA)
    (rig / "sub" / "data.bin").write_bytes(RIG_DATA)
    (rig / "link.bin").symlink_to(root / "secret.txt")
    (rig / "up").symlink_to(root, target_is_directory=True)
    if hasattr(os, "mkfifo"):
        os.mkfifo(rig / "fifo.bin")
    return rig, token


def gltf_rig_folder(data: bytes) -> None:
    """A .gltf read from a folder, as ``convert X.animbin --skeleton rig.gltf`` and
    ``convert rig.gltf`` read it: external buffers and images resolved, the rig's data
    copied into a GLB. Only AnimspecError may escape, and the secret planted beside the
    folder must reach no output and no message."""
    from animspec.animbin import write_bytes
    from animspec.common.errors import AnimspecError
    from animspec.gltf import gltf_to_animbin, read_rig, animbin_to_gltf_on_rig

    rig, token = _rig_folder()
    path = rig / "in.gltf"
    path.write_bytes(data)
    said: list[bytes] = []
    try:
        said.append(animbin_to_gltf_on_rig(_swing(), read_rig(str(path), armature_space=bool(data and data[-1] & 1))))
    except AnimspecError as exc:
        said.append(str(exc).encode("utf-8", "replace"))
    try:
        result = gltf_to_animbin(str(path), fit="cut")
        said += [write_bytes(m) for m in result.files] + [result.report().encode("utf-8", "replace")]
    except AnimspecError as exc:
        said.append(str(exc).encode("utf-8", "replace"))
    if any(token in out for out in said):
        raise Finding("a file outside the glTF's folder reached an output or a message")


ENCODER_OPTIONS = (
    ((30.0, 24.0, 60.0, 7.5, 1000.0, 0.001), (0.0, -30.0, math.nan, math.inf, 1e-300, 1e9)),
    ((1.0, 0.05, 180.0, 1e-9), (0.0, -1.0, math.nan, math.inf, 1e308)),
    ((1e-3, 1e-4, 2.0**-16, 2.0**14, 5.0), (0.0, -1.0, math.nan, math.inf, 1e-300)),
)
"""fps, rotation error (degrees), translation error (units): per option the values in range
(at the bounds too) and hostile ones, for encode_animclip to draw from."""


@functools.lru_cache(maxsize=1)
def _template():
    from animspec.animclip import read_file

    return read_file(EXAMPLES / "walk.animclip")


def encode_animclip(data: bytes) -> None:
    """What ``convert anim.glb -o out.animclip`` runs, options drawn from the input's CRC32
    (the options' ranges checked by the library, as for a Python caller): only
    AnimspecError may escape; the clip written must read back, decode to finite poses and
    have no error finding (we must not write what we would refuse)."""
    import numpy as np

    from animspec.animclip import read_bytes, write_bytes
    from animspec.animclip.frames.encode import tolerance_for
    from animspec.animclip.frames.pose import clip_frames
    from animspec.animclip.validate import validate
    from animspec.common.errors import AnimspecError
    from animspec.common.findings import Severity
    from animspec.gltf.to_animclip import gltf_to_animclip

    pick = zlib.crc32(data)  # (any mutation draws again; a hostile value one time in 16)
    options = []
    for valid, hostile in ENCODER_OPTIONS:
        table = hostile if pick & 15 == 0 else valid
        options.append(table[(pick >> 4) % len(table)])
        pick >>= 7
    fps, degrees, units = options
    template = _template() if pick & 1 else None
    try:
        result = gltf_to_animclip(data, fps=fps, max_error=tolerance_for(degrees, units), looping=bool(pick & 2),
                                  template=template, root_motion=bool(pick & 4))
        result.report()
        written = write_bytes(result.model)
    except AnimspecError:
        return
    back = read_bytes(written, "encoded")
    frames = clip_frames(back, "encoded").frames()
    if not all(np.isfinite(a).all() for a in (frames.rotation, frames.translation, frames.scale)):
        raise Finding("an encoded clip decodes to a non-finite pose")
    errors = [f for f in validate(back) if f.severity is Severity.ERROR]
    if errors:
        raise Finding(f"an encoded clip has error findings: {errors[:3]}")


TARGETS: dict[str, Target] = {
    t.name: t
    for t in [
        Target("read_animbin", read_animbin, "binary"),
        Target("read_meshbin", read_meshbin, "binary"),
        Target("read_animclip", read_animclip, "binary"),
        Target("pack_animbin", pack_animbin, "json"),
        Target("pack_meshbin", pack_meshbin, "json"),
        Target("pack_animclip", pack_animclip, "json"),
        Target("convert_gltf", convert_gltf, "glb"),
        Target("convert_animbin", convert_animbin, "binary"),
        Target("convert_animclip", convert_animclip, "binary"),
        Target("convert_meshbin_rig", convert_meshbin_rig, "binary"),
        Target("gltf_rig_folder", gltf_rig_folder, "gltf_json"),
        Target("encode_animclip", encode_animclip, "glb"),
        Target("blender_import_bounds", blender_import_bounds, "binary"),
    ]
}


# --------------------------------------------------------------------------- mutators
#
# Structure-aware mutations shared by the short hypothesis run (tests/test_fuzz.py) and the
# long run (tools/fuzz.py, as atheris's custom mutator): libFuzzer's byte flips alone almost
# never keep a JSON dump parseable or a GLB's chunk lengths consistent.

INTERESTING = [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF,
               0x10000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFF0, 0xFFFF_FFFF]


def mutate_binary(data: bytes, rng: random.Random, max_size: int = MAX_INPUT) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        pos = rng.randrange(len(buf) + 1)
        if op == 8:  # DAT1 section table: entries onto one payload (issue 12's memory bomb)
            _alias_sections(buf, rng)
        elif op == 0 and buf:  # an interesting little-endian integer over a field
            width = rng.choice((1, 2, 4))
            value = rng.choice(INTERESTING + [len(buf), len(buf) - pos, pos]) & ((1 << (8 * width)) - 1)
            buf[pos : pos + width] = value.to_bytes(width, "little")
        elif op == 1 and buf:  # flip bits
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 2:  # truncate
            del buf[pos:]
        elif op == 3 and buf:  # delete a run
            del buf[pos : pos + rng.randint(1, 64)]
        elif op == 4 and buf:  # duplicate a run
            start = rng.randrange(len(buf))
            buf[pos:pos] = buf[start : start + rng.randint(1, 256)]
        elif op == 5:  # insert random bytes
            buf[pos:pos] = rng.randbytes(rng.randint(1, 32))
        elif op == 6 and buf:  # a byte at a random place
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        else:  # an u32 +/- small delta (counts and offsets off by a little)
            if len(buf) >= 4:
                i = rng.randrange(len(buf) - 3)
                v = struct.unpack_from("<I", buf, i)[0]
                struct.pack_into("<I", buf, i, (v + rng.choice((-16, -4, -1, 1, 4, 16, 0x1000))) & 0xFFFF_FFFF)
    return bytes(buf[:max_size])


def _alias_sections(buf: bytearray, rng: random.Random) -> None:
    """Point some DAT1 section-table entries at another entry's payload (same range, or a
    few bytes further): overlapping payloads, which each used to cost a copy."""
    at = buf.find(b"1TAD", 0, 64)
    if at < 0 or len(buf) < at + 16:
        return
    n = struct.unpack_from("<H", buf, at + 12)[0]
    n = min(n, (len(buf) - at - 16) // 12)
    if n < 2:
        return
    source = at + 16 + 12 * rng.randrange(n)
    ofs, size = struct.unpack_from("<II", buf, source + 4)
    shift = rng.choice((0, 0, 1, 4, 16))
    for k in rng.sample(range(n), rng.randint(1, n)):
        struct.pack_into("<II", buf, at + 16 + 12 * k + 4, (ofs + shift * k) & 0xFFFF_FFFF, size)


_HOSTILE_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 255, 256, 0xFFFF, 0x10000, 0xFFFF_FFFF, 0x1_0000_0000, -(1 << 63),
    1 << 64, 10**30, 0.5, -0.0, 1e308, float("nan"), float("inf"), "", "x", "zz", "00", "0x", "-1", "+1", " 1",
    "nan", "nan:zz", "inf", "AAAA", "=", "\u00ff", "\ud800", "\0", [], [0], [[]], {}, {"a": 1},
]
_GLTF_HOSTILE_VALUES: list[Any] = _HOSTILE_VALUES + [
    # file names a glTF buffer or image may give (gltf_rig_folder plants these beside the rig)
    "../secret.txt", "%2E%2E%2Fsecret.txt", "link.bin", "up/secret.txt", "fifo.bin", "sub/data.bin", "data.bin",
    "/proc/self/environ", "file:///etc/passwd", "C:\\x", "data:application/octet-stream;base64,AAAA",
    10**400, -(10**400), 1 << 50,
]
"""The glTF JSON mutator's values: the shared ones (kept as they were, so the other targets'
derandomized runs stay the same) and what issue 21 found in glTF documents."""


def _paths(doc: Any, prefix: tuple = (), out: list | None = None, limit: int = 4000) -> list[tuple]:
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    out.append(prefix)
    if isinstance(doc, dict):
        for k, v in doc.items():
            _paths(v, prefix + (k,), out, limit)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _paths(v, prefix + (i,), out, limit)
    return out


def _get(doc: Any, path: tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def mutate_json_doc(doc: Any, rng: random.Random, hostile: list[Any] = _HOSTILE_VALUES) -> Any:
    """Change one to three members of a JSON document: a hostile value, a value from
    elsewhere in the same document, a deleted or duplicated member or element."""
    for _ in range(rng.randint(1, 3)):
        paths = _paths(doc)
        path = rng.choice(paths)
        if not path:
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        value = parent[key]
        op = rng.randrange(9)
        if op == 0:
            parent[key] = _fresh(rng.choice(hostile))
        elif op == 2:
            if isinstance(parent, dict):
                del parent[key]
            else:
                parent.pop(key)
        elif op == 3 and isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(value)))
        elif op == 4 and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = value + rng.choice((-1, 1, -256, 256, 1 << 16, 1 << 31, 1 << 32))
        elif op == 5 and isinstance(value, list):
            parent[key] = _fresh(value * rng.randint(2, 8))
        elif op == 6 and isinstance(value, str):
            parent[key] = value[: rng.randrange(len(value) + 1)] + rng.choice(("", "0", "=", "\x00", "ff"))
        elif op == 7:
            parent[key] = _fresh(_get(doc, rng.choice(paths)))
        else:
            parent[key] = _fresh(rng.choice(hostile))
    return doc


def _fresh(value: Any) -> Any:
    """A copy of a hostile value, so no two places of a document share a list or object."""
    return json.loads(json.dumps(value)) if isinstance(value, (list, dict)) else value


def mutate_gltf_json(data: bytes, rng: random.Random, max_size: int = MAX_INPUT) -> bytes:
    """mutate_json with the glTF hostile values (escaping URIs, 400-digit numbers)."""
    return mutate_json(data, rng, max_size, hostile=_GLTF_HOSTILE_VALUES)


def mutate_json(data: bytes, rng: random.Random, max_size: int = MAX_INPUT, hostile: list[Any] = _HOSTILE_VALUES) -> bytes:
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return mutate_binary(data, rng, max_size)
    if rng.random() < 0.1:
        return mutate_binary(data, rng, max_size)
    doc = mutate_json_doc(doc, rng, hostile)
    return json.dumps(doc, allow_nan=True).encode()[:max_size]


def split_glb(data: bytes) -> tuple[Any, bytes] | None:
    """(JSON document, BIN chunk) of a well-formed GLB, else None."""
    if len(data) < 20 or data[:4] != b"glTF":
        return None
    json_len = struct.unpack_from("<I", data, 12)[0]
    try:
        doc = json.loads(data[20 : 20 + json_len])
    except (ValueError, RecursionError):
        return None
    rest = data[20 + json_len :]
    blob = b""
    if len(rest) >= 8:
        blob_len = struct.unpack_from("<I", rest, 0)[0]
        blob = rest[8 : 8 + blob_len]
    return doc, blob


def make_glb(doc: Any, blob: bytes) -> bytes:
    text = json.dumps(doc, allow_nan=True).encode()
    text += b" " * (-len(text) % 4)
    blob += b"\0" * (-len(blob) % 4)
    chunks = struct.pack("<I", len(text)) + b"JSON" + text
    if blob:
        chunks += struct.pack("<I", len(blob)) + b"BIN\0" + blob
    return b"glTF" + struct.pack("<II", 2, 12 + len(chunks)) + chunks


def mutate_glb(data: bytes, rng: random.Random, max_size: int = MAX_INPUT) -> bytes:
    parts = split_glb(data)
    if parts is None or rng.random() < 0.15:
        return mutate_binary(data, rng, max_size)
    doc, blob = parts
    if rng.random() < 0.3:
        blob = mutate_binary(blob, rng, max_size // 2)
    else:
        doc = mutate_json_doc(doc, rng)
    return make_glb(doc, blob)[:max_size]


MUTATORS = {"binary": mutate_binary, "json": mutate_json, "glb": mutate_glb, "gltf_json": mutate_gltf_json}


def mutate(target: Target, data: bytes, rng: random.Random, max_size: int = MAX_INPUT) -> bytes:
    return MUTATORS[target.kind](data, rng, max_size)
