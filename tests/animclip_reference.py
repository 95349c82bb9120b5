"""A small, slow, obviously-correct .animclip sample decoder for the tests, written from the bit
layout documented in tests/fixtures/luna/README.md (not from the library): one Python integer
per sample, fields taken LSB first. The library's encoder and decoder are checked against it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

FLAG_LOOPING, FLAG_LOOKUP = 0x20, 0x10000


@dataclass(frozen=True)
class Counts:
    joints: int
    frames: int
    small: int
    large: int
    stride: int
    flags: int


def built_counts(built: bytes) -> Counts:
    """The counts at the offsets Luna's clips use."""
    flags, = struct.unpack_from("<I", built, 0x08)
    joints, frames, small, stride = struct.unpack_from("<HHII", built, 0x20)
    large, = struct.unpack_from("<I", built, 0x44)
    return Counts(joints, frames, small, large, stride, flags)


def decode_values(base_state: bytes, sample_elem: bytes, sample_data: bytes, c: Counts) -> np.ndarray:
    """(frames, joints, 12) packed integer components: base + (field << shift)."""
    base = np.zeros((c.joints, 12), dtype=np.int64)
    for j in range(c.joints):
        qx, qy, qz, qw, x, y, z, scale_exp, shift = struct.unpack_from("<7h2B", base_state, 16 * j)
        base[j] = [1 << scale_exp] * 4 + [qx, qy, qz, qw, x, y, z, shift]
    offsets = list(struct.unpack_from(f"<{c.small}I", sample_elem, 0))
    codes = sample_elem[4 * c.small:5 * c.small]
    widths = [(k & 0xF) + 1 for k in codes]
    shifts = [k >> 4 for k in codes]
    at = (5 * c.small + 3) & ~3
    offsets += struct.unpack_from(f"<{c.large}I", sample_elem, at)
    for k in struct.unpack_from(f"<{c.large}H", sample_elem, at + 4 * c.large):
        widths.append((k & 0xFF) + 1)
        shifts.append(k >> 8)
    lookup = list(range(c.frames))
    data = sample_data
    if c.flags & FLAG_LOOKUP:
        entries = c.frames + (1 if c.flags & FLAG_LOOPING else 0)
        lookup = list(struct.unpack_from(f"<{entries}H", data, 0))[:c.frames]
        data = data[-(-2 * entries // 16) * 16:]
    out = np.repeat(base[None], c.frames, axis=0)
    for f, s in enumerate(lookup):
        bits = int.from_bytes(data[s * c.stride:(s + 1) * c.stride], "little")
        pos = 0
        for off, width, shift in zip(offsets, widths, shifts):
            out[f, off // 48, (off // 4) % 12] += ((bits >> pos) & ((1 << width) - 1)) << shift
            pos += width
        assert pos <= 8 * c.stride
    return out


def transforms(values: np.ndarray) -> dict[str, np.ndarray]:
    """Rotation (x, y, z, w, normalised), translation / 2^shift, scale / divisor."""
    q = values[..., 4:8].astype(np.float64)
    return {
        "translation": values[..., 8:11] / np.exp2(values[..., 11:12]),
        "rotation_xyzw": q / np.linalg.norm(q, axis=-1, keepdims=True),
        "scale": values[..., 0:3] / values[..., 3:4],
    }


def rotation_difference(a: np.ndarray, b: np.ndarray) -> float:
    """Largest component difference of two quaternion arrays, q and -q counted equal."""
    return float(np.minimum(np.abs(a - b).max(axis=-1), np.abs(a + b).max(axis=-1)).max())


def section_payload(data: bytes, tag: int) -> bytes:
    """The payload of section ``tag`` in a file behind the 36-byte asset header, read from the
    DAT1 section table with struct (independent of animspec's readers)."""
    dat1 = data[36:]
    count, = struct.unpack_from("<H", dat1, 12)
    for i in range(count):
        t, o, s = struct.unpack_from("<III", dat1, 16 + 12 * i)
        if t == tag:
            return dat1[o:o + s]
    raise KeyError(hex(tag))


# ----------------------------------------------------------------------------- quaternions
# Hamilton products of x, y, z, w quaternions, written from the definition
# (i^2 = j^2 = k^2 = ijk = -1), not from animspec.quaternion.


def hamilton(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * b for x, y, z, w quaternions (broadcast): the rotation b, then a."""
    ax, ay, az, aw = np.moveaxis(np.asarray(a, np.float64), -1, 0)
    bx, by, bz, bw = np.moveaxis(np.asarray(b, np.float64), -1, 0)
    return np.stack([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz], axis=-1)


def inverse(q: np.ndarray) -> np.ndarray:
    """The inverse of unit x, y, z, w quaternions (their conjugate)."""
    return np.asarray(q, np.float64) * np.array([-1.0, -1.0, -1.0, 1.0])


def rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Vectors ``v`` (..., 3) rotated by unit x, y, z, w quaternions ``q``: q v q^-1."""
    v4 = np.concatenate([np.asarray(v, np.float64), np.zeros(np.shape(v)[:-1] + (1,))], axis=-1)
    return hamilton(hamilton(q, v4), inverse(q))[..., :3]


def axis_angle(axis, angle) -> np.ndarray:
    """x, y, z, w of a turn by ``angle`` radians (scalar or array) about ``axis``."""
    axis = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    half = np.asarray(angle, np.float64)[..., None] / 2
    return np.concatenate([axis * np.sin(half), np.cos(half)], axis=-1)


# ----------------------------------------------------------------------------- Motion Data
# docs/animclip.md 7.8 (Luna Engine IO Tools motion.py): a 0x7C-byte header (u8 type, u8 flags,
# u16 count, f32[4] initial rotation at +0x04, f32[3] initial translation at +0x24, u32 sample
# offset from the header's end at +0x3C), then 16-byte standard samples: i16 qx qy qz qw
# (/ 32768, normalised), i16 x y z, i8 exponent (translation / 2^e), i8 phase.

MOTION_HEADER = 0x7C


def motion_read(payload: bytes) -> dict[str, np.ndarray]:
    """The header's initial transform and the standard samples, dequantised."""
    kind, flags, count = struct.unpack_from("<BBH", payload, 0)
    start = MOTION_HEADER + struct.unpack_from("<I", payload, 0x3C)[0]
    rows = [struct.unpack_from("<4h3hbb", payload, start + 16 * i) for i in range(count)]
    q = np.array([r[0:4] for r in rows], np.float64).reshape(-1, 4) / 32768
    return {
        "flags": np.array(flags), "kind": np.array(kind),
        "initial_rotation": np.array(struct.unpack_from("<4f", payload, 0x04)),
        "initial_translation": np.array(struct.unpack_from("<3f", payload, 0x24)),
        "rotation": q / np.linalg.norm(q, axis=1, keepdims=True),
        "translation": np.array([[v / 2.0 ** r[7] for v in r[4:7]] for r in rows]).reshape(-1, 3),
    }


def motion_write(rotation, translation, exponent: int = 8, *, initial_rotation=(0, 0, 0, 1),
                 initial_translation=(0, 0, 0), flags: int = 0x02, offset: int = 0, count: int | None = None,
                 pad: bool = True) -> bytes:
    """A Motion Data payload of standard samples (rotation x, y, z, w unit, translation), the
    samples ``offset`` bytes after the header, ``count`` declared (default: the samples')."""
    rotation, translation = np.asarray(rotation, np.float64), np.asarray(translation, np.float64)
    head = bytearray(MOTION_HEADER)
    struct.pack_into("<BBH", head, 0, 0, flags, len(rotation) if count is None else count)
    struct.pack_into("<4f", head, 0x04, *initial_rotation)
    struct.pack_into("<3f", head, 0x24, *initial_translation)
    struct.pack_into("<I", head, 0x3C, offset)
    body = bytes(offset) + b"".join(
        struct.pack("<4h3hbb", *np.rint(q * 32767).astype(int), *np.rint(t * 2.0 ** exponent).astype(int), exponent, 0)
        for q, t in zip(rotation, translation))
    if pad:
        body += bytes(-(MOTION_HEADER + len(body)) % 16)
    return bytes(head) + body


def dat1_sections(data: bytes) -> dict[int, bytes]:
    """Every section payload by tag of a plain file, whatever wraps its DAT1 (asset header,
    STG or none): the DAT1 starts at its magic (docs/animclip.md 4.1, 4.2)."""
    dat1 = data[data.index(b"1TAD"):]
    count, = struct.unpack_from("<H", dat1, 12)
    out = {}
    for i in range(count):
        t, o, s = struct.unpack_from("<III", dat1, 16 + 12 * i)
        out[t] = dat1[o:o + s]
    return out


def dat1_offset(data: bytes, tag: int) -> int:
    """The file byte where section ``tag``'s payload starts."""
    start = data.index(b"1TAD")
    count, = struct.unpack_from("<H", data, start + 12)
    for i in range(count):
        t, o, _ = struct.unpack_from("<III", data, start + 16 + 12 * i)
        if t == tag:
            return start + o
    raise KeyError(hex(tag))
