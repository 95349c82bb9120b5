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
