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
    """Reads fields out of samples. Where each field is, worked out once, so that a chunk of
    samples runs only whole-row operations:

    * A field is read from the little-endian u32 at its first byte (a byte *window*), where it
      starts at bit 0-7; near the end of a sample the window is moved back to the sample's
      last four bytes (a stride is whole u32 words, and a field lies inside its sample: the
      decoder's inputs are checked for it, ``sample-bits-over-stride``), so no window reads
      past a sample.
    * A field that does not fit its window (more than 25 bits, starting past bit 32 - width)
      is read in two **parts**: its low bits from its window, its high bits from the window
      four bytes on. Every field has one part, in the order given; the high parts of the
      straddling ones follow, ``element`` saying whose.

    :meth:`positioned` gives each part's bits still at their place in the window (the window
    ANDed with the part's mask): the decoder scales them by ``2 ** (shift + below - offset)``
    in one multiplication (exact: powers of two)."""

    def __init__(self, bit_offset: np.ndarray, width: np.ndarray, stride: int) -> None:
        bit_offset, width = np.asarray(bit_offset, np.int64), np.asarray(width, np.int64)
        window = np.minimum(bit_offset >> 3, max(int(stride) - 4, 0))
        offset = bit_offset - 8 * window
        straddle = np.flatnonzero(offset + width > 32)
        low = np.where(offset + width > 32, 32 - offset, width)
        high_window = np.minimum(window[straddle] + 4, int(stride) - 4)
        self.fields = int(width.size)
        self.element = np.concatenate([np.arange(width.size), straddle])
        """The field each part belongs to: every field's first part, then the high parts."""
        self.window = np.concatenate([window, high_window]).astype(np.intp)
        """Byte of the sample where the part's u32 window starts."""
        self.offset = np.concatenate([offset, 8 * (window[straddle] + 4 - high_window)])
        """The part's first bit in its window."""
        part_width = np.concatenate([low, width[straddle] - low[straddle]])
        self.below = np.concatenate([np.zeros_like(width), low[straddle]])
        """Bits of the field below the part (0 for a first part)."""
        self.mask = (((np.int64(1) << part_width) - 1) << self.offset).astype(np.uint32)[:, None]
        self.below_31 = bool((self.offset + part_width <= 31).all())
        """Whether every part's bits lie below bit 31: then they read the same as int32."""
        self.windows = int(self.window.max()) + 1 if self.window.size else 0
        """Windows a sample is read as (the first ``windows`` bytes' u32s)."""

    def positioned(self, samples: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """(parts, samples) uint32: each part's bits where they sit in its window, of
        ``samples`` (n, stride) uint8, into ``out`` when given. Part-major, so that every step
        after it moves whole rows: each part is a row of the samples read as (windows, n)."""
        if not samples.flags.c_contiguous:
            samples = np.ascontiguousarray(samples)
        # Window w of every sample: the u32 at byte w (unaligned, read in place), window-major.
        by_window = np.ndarray((self.windows, samples.shape[0]), "<u4", samples, 0, (1, samples.strides[0]))
        values = np.take(by_window, self.window, axis=0, out=out, mode="clip")  # (every window exists)
        values &= self.mask
        return values

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        """(elements, samples) uint32 field values of ``samples`` (n, stride) uint8."""
        parts = self.positioned(samples)
        parts >>= self.offset.astype(np.uint32)[:, None]
        fields, high = parts[: self.fields], slice(self.fields, None)
        fields[self.element[high]] |= parts[high] << self.below[high].astype(np.uint32)[:, None]
        return fields


def unpack_fields(words: np.ndarray, bit_offset: np.ndarray, width: np.ndarray) -> np.ndarray:
    """(samples, elements) uint32 field values of ``words``, a (samples, stride / 4) uint32
    array: the inverse of :func:`pack_fields`."""
    samples = words.shape[0]
    if not np.size(width) or samples == 0:
        return np.zeros((samples, np.size(width)), np.uint32)
    as_bytes = np.ascontiguousarray(words, "<u4").view(np.uint8).reshape(samples, -1)
    return FieldReader(bit_offset, width, as_bytes.shape[1])(as_bytes).T


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


def dequantise_rotation(q: np.ndarray, axis: int = -1, out: np.ndarray | None = None,
                        work: np.ndarray | None = None) -> np.ndarray:
    """Quaternions x, y, z, w along ``axis`` normalised; an all-zero one is the identity. The
    norm is ``sqrt(((x*x + y*y) + z*z) + w*w)``, summed in that order, as the viewer's decoder
    does (web/js/clip.js); every step is exact while the components are integers below 2^26
    (a clip's i16 bases plus deltas), so there any order gives the same bits. ``work``: two
    float64 arrays of the norms' shape to compute them in (else allocated)."""
    q = np.asarray(q, np.float64)
    axis %= q.ndim
    x, y, z, w = np.moveaxis(q, axis, 0) if axis else q
    norm, square = (None, None) if work is None else work
    norm = np.square(x, out=norm)
    for component in (y, z, w):
        square = np.square(component, out=square)
        norm += square
    np.sqrt(norm, out=norm)
    identity = bool(norm.size) and norm.min() == 0  # (norms are 0 or more: .all() would cast them to bool)
    if identity:
        zero = norm == 0
        norm[zero] = 1.0
    out = np.divide(q, norm.reshape(q.shape[:axis] + (1,) + q.shape[axis + 1 :]), out=out, casting="same_kind")
    if identity:
        (np.moveaxis(out, axis, 0) if axis else out)[3][zero] = 1.0
    return out


def dequantise_translation(values: np.ndarray, shift: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``values`` / 2 ** ``shift`` (broadcast), the shift clamped into +-1100."""
    # (minimum and maximum: np.clip's Python wrapper cost more than the clamp, per chunk decoded)
    exponent = np.minimum(np.maximum(shift, -TRANSLATION_SHIFT_DECODED), TRANSLATION_SHIFT_DECODED).astype(np.int32)
    np.negative(exponent, out=exponent)
    return np.ldexp(values, exponent, out=out, casting="same_kind")


def dequantise(components: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scale (..., 3), rotation (..., 4: x, y, z, w) and translation (..., 3), float64, of
    (..., 12) integer component values."""
    c = np.asarray(components, np.float64)
    return (dequantise_scale(c[..., SCALE], c[..., SCALE_DIVISOR : SCALE_DIVISOR + 1]),
            dequantise_rotation(c[..., ROTATION]),
            dequantise_translation(c[..., TRANSLATION], c[..., TRANSLATION_SHIFT : TRANSLATION_SHIFT + 1]))
