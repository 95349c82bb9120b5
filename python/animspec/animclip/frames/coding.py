"""What the per-frame decoder and encoder share, each fact written once: the 12 components of
a joint and their slices, element codes, the bit packing of a sample, the one dequantisation
(the reader's: the encoder measures its error with it too) and the limits of the fields.

Sources (Pcniado/luna_engine_io_tools, GPL-3.0, read for facts only): ``anim_import.py`` and
``anim_export.py`` for the components, codes and dequantisation, ``binary.py`` for the bit
order, ``motion.py`` for the root-motion exponent. This module imports numpy only, so the
model (Sample Elem's columns), the decoder, the encoder and the validator can all use it.
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------------------- components

COMPONENTS_PER_JOINT = 12
"""Integer components of a joint (ksy enum packed_component; Luna anim_import.py): 0-2 scale
x, y, z and 3 the scale divisor, 4-7 the rotation quaternion x, y, z, w, 8-10 the translation
x, y, z and 11 its shift. A Sample Elem offset / 4 is ``joint * 12 + component``."""
SCALE, SCALE_DIVISOR = slice(0, 3), 3
ROTATION = slice(4, 8)
TRANSLATION, TRANSLATION_SHIFT = slice(8, 11), 11
KIND_FIRST = (0, 4, 8)
"""The first component of each kind (scale, rotation, translation): four components each, the
fourth being the scale's divisor, the rotation's w or the translation's shift."""
COMPONENT_BYTES = 4
"""A Sample Elem offset is a byte offset of a 4-byte component: one that is not a multiple of
4 names no component and is refused (``sample-elem-offset``), not floored."""

I16_MAX = 0x7FFF
"""The largest quantised value of an i16 field (Base State's records, Motion Data's samples)."""
QUATERNION_SCALE = 32767
"""The writers quantise a unit quaternion as round(q * 32767): 1.0 must fit an i16."""
QUATERNION_DIVISOR = 32768.0
"""The readers divide a quantised quaternion by 32768 (Luna anim_import.py and motion.py,
ALERT animclip_to_gltf.py; spec 8.1) and then normalise it, which cancels the divisor: writing
with 32767 and reading with 32768 gives the same rotation, so each side keeps its source's
number and neither is an error."""

# ---------------------------------------------------------------------------- limits

SMALL_WIDTH_MAX = 16
"""A small element's u8 code keeps width - 1 in its low nibble; wider fields are large ones."""
SMALL_SHIFT_MAX = 15
"""... and the shift in its high nibble."""
LARGE_SHIFT_MAX = 255
"""A large element's u16 code keeps width - 1 in its low byte and the shift in its high one."""
MAX_FIELD_BITS = 32
"""Widest field decoded (and encoded): a field then spans at most two u32 words (Luna's reader
also reads two words per field). A wider one is refused."""
MAX_DELTA_BITS = 52
"""``width + shift`` above this could not be added exactly in float64: refused."""
MAX_LOG_SCALE = 62
"""A Base State ``log_scale`` above this is decoded as this (2 ** it must fit an int64): the
finding ``sample-log-scale`` says so."""
TRANSLATION_SHIFT_DECODED = 1100
"""A translation shift is clamped into +-this when decoded: past it every float64 is 0 or
infinite anyway, and ldexp needs an int32."""
LOOKUP_ALIGN = 16
"""The frame lookup table (u16 per frame) is padded to a multiple of this many bytes before
the samples start (ksy sample_data; Luna anim_import.py)."""
MOTION_LOG_SCALE_RANGE = (0, 16)
"""A Motion Data sample's translation exponent (``log_scale``: the i16 fields are the
translation times 2^k) is clamped into this by the reader, as Luna's reader clamps it; the
writer chooses within it, and the validator reports one outside (``motion-log-scale``)."""


def lookup_bytes(entries: int) -> int:
    """Bytes a frame lookup of ``entries`` u16s takes, padding included: where samples start."""
    return -(-2 * int(entries) // LOOKUP_ALIGN) * LOOKUP_ALIGN


# ---------------------------------------------------------------------------- element codes


def element_targets(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(joint, component) of each Sample Elem byte offset (int64 arrays)."""
    ci = np.asarray(offsets, np.int64) // COMPONENT_BYTES
    return ci // COMPONENTS_PER_JOINT, ci % COMPONENTS_PER_JOINT


def element_offsets(components: np.ndarray) -> np.ndarray:
    """The Sample Elem byte offsets (u32) of packed component indices ``joint * 12 + component``."""
    return (np.asarray(components, np.int64) * COMPONENT_BYTES).astype("<u4")


def unpack_codes(small: np.ndarray, large: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(width, shift) of every element (int64), small codes (u8) then large ones (u16)."""
    small = np.asarray(small, np.int64)
    large = np.asarray(large, np.int64)
    width = np.concatenate([(small & 0xF) + 1, (large & 0xFF) + 1])
    shift = np.concatenate([small >> 4, large >> 8])
    return width, shift


def pack_codes(widths: np.ndarray, shifts: np.ndarray, num_small: int) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of :func:`unpack_codes`: the first ``num_small`` elements' u8 codes and the
    rest's u16 codes (widths and shifts within :data:`SMALL_WIDTH_MAX` and friends)."""
    widths, shifts, n = np.asarray(widths, np.int64), np.asarray(shifts, np.int64), int(num_small)
    return (((widths[:n] - 1) | (shifts[:n] << 4)).astype("u1"),
            ((widths[n:] - 1) | (shifts[n:] << 8)).astype("<u2"))


# ---------------------------------------------------------------------------- bits of a sample


def bit_offsets(widths: np.ndarray) -> np.ndarray:
    """First bit of each field in its sample: the sum of the widths before it (fields are
    packed back to back, small elements first)."""
    widths = np.asarray(widths, np.int64)
    return np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64) if widths.size else np.zeros(0, np.int64)


def pack_fields(fields: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """(F, E) unsigned fields of the given widths -> (F, stride) bytes: fields one after the
    other, LSB first, in little-endian u32 words; stride = the bits rounded up to words."""
    n_frames = fields.shape[0]
    starts = np.concatenate([[0], np.cumsum(widths)])
    n_words = int(-(-starts[-1] // 32))
    words = np.zeros((n_frames, n_words + 1), dtype=np.uint64)  # +1: a spill word, dropped
    for e in range(len(widths)):  # one vectorised pass per element, over all frames
        word, bit = divmod(int(starts[e]), 32)
        shifted = fields[:, e].astype(np.uint64) << np.uint64(bit)
        words[:, word] |= shifted & np.uint64(0xFFFFFFFF)
        words[:, word + 1] |= shifted >> np.uint64(32)
    return words[:, :n_words].astype("<u4").view(np.uint8).reshape(n_frames, 4 * n_words)


class FieldReader:
    """Reads every element's field out of samples' u32 words; where each field is (its word,
    its first bit, whether it continues into the next word, its mask) is worked out once, so a
    chunk of samples runs only the row operations. Fields must lie inside a sample (the
    decoder's inputs are checked for it: ``sample-bits-over-stride``)."""

    def __init__(self, bit_offset: np.ndarray, width: np.ndarray) -> None:
        bit_offset, width = np.asarray(bit_offset, np.int64), np.asarray(width, np.int64)
        self.first = bit_offset >> 5
        bit = (bit_offset & 31).astype(np.uint32)
        self.bit = bit[:, None]
        self.straddle = np.flatnonzero((bit_offset & 31) + width > 32)
        self.straddle_next = self.first[self.straddle] + 1
        # where a straddling field's high part goes: 32 - bit, 1..31 (bit > 0 there)
        self.straddle_shift = (32 - bit[self.straddle]).astype(np.uint32)[:, None]
        self.mask = ((np.uint64(1) << width.astype(np.uint64)) - np.uint64(1)).astype(np.uint32)[:, None]

    def __call__(self, words: np.ndarray) -> np.ndarray:
        """(elements, samples) uint32 field values of ``words`` (samples, stride / 4) uint32:
        element-major, so that a decoder's steps move whole rows."""
        by_word = np.ascontiguousarray(words.T)
        values = by_word[self.first]
        values >>= self.bit
        if self.straddle.size:
            values[self.straddle] |= by_word[self.straddle_next] << self.straddle_shift
        values &= self.mask
        return values


def unpack_fields(words: np.ndarray, bit_offset: np.ndarray, width: np.ndarray) -> np.ndarray:
    """(samples, elements) uint32 field values of ``words``, a (samples, stride / 4) uint32
    array: the inverse of :func:`pack_fields`."""
    samples = words.shape[0]
    if not np.size(width) or samples == 0:
        return np.zeros((samples, np.size(width)), np.uint32)
    return FieldReader(bit_offset, width)(words).T


def sample_words(samples: np.ndarray) -> np.ndarray:
    """(S, stride) bytes -> (S, stride / 4) little-endian u32 words."""
    return np.ascontiguousarray(samples).view("<u4").reshape(samples.shape[0], -1)


# ---------------------------------------------------------------------------- dequantisation
#
# The reader's rule, and the only one: the decoder computes every frame with it and the encoder
# measures its error with it. Scale = components 0-2 / component 3 (a zero divisor counts as 1);
# rotation = the quaternion normalised (a zero one is the identity); translation = components
# 8-10 / 2 ** component 11 (the shift clamped to +-TRANSLATION_SHIFT_DECODED). ``out`` (any
# float dtype) receives the result when given: each value rounded once from float64.


def dequantise_scale(values: np.ndarray, divisor: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``values`` / ``divisor`` (broadcast), a zero divisor counting as 1."""
    return np.divide(values, np.where(divisor == 0, 1.0, divisor), out=out, casting="same_kind")


def dequantise_rotation(q: np.ndarray, axis: int = -1, out: np.ndarray | None = None) -> np.ndarray:
    """Quaternions x, y, z, w along ``axis`` normalised; an all-zero one is the identity."""
    q = np.asarray(q, np.float64)
    last = np.moveaxis(q, axis, -1)
    norm = np.expand_dims(np.sqrt(np.einsum("...k,...k->...", last, last)), axis)
    zero = norm == 0
    norm[zero] = 1.0
    out = np.divide(q, norm, out=out, casting="same_kind")
    np.moveaxis(out, axis, -1)[..., 3][np.moveaxis(zero, axis, -1)[..., 0]] = 1.0
    return out


def dequantise_translation(values: np.ndarray, shift: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``values`` / 2 ** ``shift`` (broadcast), the shift clamped into +-1100."""
    exponent = np.clip(shift, -TRANSLATION_SHIFT_DECODED, TRANSLATION_SHIFT_DECODED).astype(np.int32)
    np.negative(exponent, out=exponent)
    return np.ldexp(values, exponent, out=out, casting="same_kind")


def dequantise(components: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scale (..., 3), rotation (..., 4: x, y, z, w) and translation (..., 3), float64, of
    (..., 12) integer component values."""
    c = np.asarray(components, np.float64)
    return (dequantise_scale(c[..., SCALE], c[..., SCALE_DIVISOR : SCALE_DIVISOR + 1]),
            dequantise_rotation(c[..., ROTATION]),
            dequantise_translation(c[..., TRANSLATION], c[..., TRANSLATION_SHIFT : TRANSLATION_SHIFT + 1]))
