"""Encode per-frame joint transforms into an .animclip animation: Base State, Sample Elem,
Sample Data (with a frame lookup for repeated samples) and the Built fields that describe them.

The codec (Pcniado/luna_engine_io_tools, anim_import.py and anim_export.py; restated in
tests/fixtures/luna/README.md): each joint has 12 packed integer components, ``ci = joint * 12
+ component``: 0-2 scale x, y, z and 3 its divisor (both based at 2^scale exponent), 4-7 the
rotation quaternion x, y, z, w, 8-10 the translation x, y, z and 11 its shift. A frame's
component = Base State integer + (field << error shift), where the field is ``width`` bits of
the frame's sample; rotation = the quaternion normalised, translation = value / 2^shift,
scale = value / divisor.

What this encoder chooses, per component, from the tolerance (:class:`Tolerance`):

* the base (the smallest quantised value over the clip, so every field is unsigned);
* the error shift: the coarsest step whose rounding stays within the tolerance, checked by
  decoding (a rotation's error goes through normalisation), so a component that needs less
  precision costs fewer bits (Luna's encoder always uses shift 0);
* the width: the bit length of the largest field (no element at all for a constant component);
  widths above 16 go to the "large" table;
* scale: the exponent from the tolerance; a frame with a scale below 1 raises the divisor
  component (fields are unsigned, so that is the only way down);
* a frame lookup table (flag 0x10000) when repeated samples make it smaller than one sample
  per frame (Luna's encoder writes neither scale nor lookups);
* root motion, when given: a Motion Data payload (:mod:`.motion`) and the "has motion" flag.

Error is measured as a reader sees it (:class:`ClipError`): the integer values are decoded with
:func:`.coding.dequantise`, the decoder's own rule, and kept as float32 as the decoder keeps
them; rotation is the angle between the rotation read and the one given (degrees), translation
the distance (the clip's units), scale the ratio (read / given - 1). The tolerance bounds the
same three numbers, so what is asked is what a reader gets back where the format's precision
allows; :func:`read_back_error` measures them again on the written bytes, through the
decoder ``play`` uses.

Everything is vectorised over frames and joints; the only Python loops run over the elements
(to place each field in the sample words) and over the shift refinements.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ...common.errors import AnimspecError, WriteError
from ...common.hashes import crc32
from ...common.ranges import ANIMCLIP_LOCAL_ERRORS, LOCAL_ROTATION_ERROR, NumberRange
from ...quaternion import angle_between
from ..sections.base_state import JOINT_DTYPE
from ..tags import FLAG_FRAME_DATA_LOOKUP, FLAG_HAS_MOTION, FLAG_LOOPING
from .coding import (
    COMPONENTS_PER_JOINT,
    I16_MAX,
    KIND_FIRST,
    LARGE_SHIFT_MAX,
    MAX_FIELD_BITS as LARGE_WIDTH_MAX,
    QUATERNION_SCALE,
    ROTATION,
    SCALE,
    SCALE_DIVISOR as DIVISOR,
    SMALL_SHIFT_MAX as MAX_ERROR_SHIFT,
    SMALL_WIDTH_MAX,
    TRANSLATION,
    TRANSLATION_SHIFT as SHIFT_COMPONENT,
    dequantise,
    dequantise_rotation,
    dequantise_translation,
    lookup_bytes,
    pack_fields,
)
from .motion import encode_motion
from .object_space import (
    DEFAULT_SHELL,
    JointWorst,
    ObjectError,
    ObjectSpace,
    ObjectTolerance,
    checked_parents,
    local_matrices,
    object_error,
    object_error_of,
    worst_per_joint,
)

# The error shift is kept within a small element's 4-bit nibble (MAX_ERROR_SHIFT), so that
# coarsening a field never moves it to the large table; fields go up to 32 bits wide
# (LARGE_WIDTH_MAX), though the large code could say 256.
MAX_TRANSLATION_SHIFT = 15
"""The finest translation step this encoder uses is 2^-15 units (Luna's encoder stops at 12)."""
FOCUS_FRAMES = 48
FOCUS_SAMPLES = 64
"""The object-space search looks at a step first on a joint's subtree's ``FOCUS_FRAMES`` worst
frames and ``FOCUS_SAMPLES`` frames spread over the clip; only a step that passes there is
measured on every frame (and only that measure decides)."""
ROTATION_CHUNK = 1 << 14
"""Joint-frames whose rotation fields are chosen at once (:func:`_rotation_fields`)."""
SEARCH_STEPS = 5
"""Bisection steps of the scale k: its log2 to within (8 + 2) / 2^5, about a third, which
the component search then refines."""
SEARCH_FRAMES = 256
"""The object-space search's first stage looks at about this many frames spread over the clip."""
OBJECT_SEARCH_FINEST = 256.0
"""The object-space search gives a joint at most this many times less local error than the bound
(errors along a chain add up: 256 covers chains far longer than a human's)."""
TRIM_STEPS = 16
TRIM_FRAMES = 64
"""A field is narrowed by saturation (:func:`_object_shifts`, last) when at most this many
steps past a power of two and on at most this many frames."""
MAX_FRAMES = 0xFFFF
"""Frames of one clip: Built's num_frames is a u16."""
MAX_JOINTS = 0xFFFF
"""Joints of one clip: Built's num_joints is a u16."""

FPS = NumberRange(
    "fps", 0.001, 1000.0, "frames per second",
    why="Built stores it as a 32-bit float; at 1000 fps the 65,535 frames a clip holds last 65 s",
)
"""The frame rate a clip is encoded at (``convert --fps``, the Blender export's scene rate)."""
LOCAL_TRANSLATION_ERROR = NumberRange(
    "local_translation_error",
    2.0 ** -(MAX_TRANSLATION_SHIFT + 1),
    2.0 ** (MAX_ERROR_SHIFT - 1),
    "units of translation, and of scale",
    why=f"half the finest step the format stores (2^-{MAX_TRANSLATION_SHIFT}) "
    f"to half the coarsest (2^{MAX_ERROR_SHIFT})",
)
"""The largest translation (and scale) error asked of the encoder: below the first bound no
encoding can promise it, above the second every step is as coarse as the format has."""


class EncodeError(AnimspecError):
    """The input cannot be encoded (shapes, non-finite values, ranges); says which and why."""


class TranslationRangeError(EncodeError):
    """A translation below -32,767 units: Base State holds each component's smallest value as
    a signed 16-bit integer at translation shift 0 or finer (fields only add to it)."""

    def __init__(self, joint: int, label: str, frame: int, axis: str, value: float):
        self.joint, self.label, self.frame, self.axis, self.value = joint, label, frame, axis, value
        super().__init__(
            f"{label}: translation {axis} is {value:g} units at frame {frame}, below -{I16_MAX}, the lowest an "
            ".animclip holds (a 16-bit base at translation shift 0): scale the rig down (e.g. centimetres to metres)"
        )


class ValueRangeError(EncodeError):
    """A translation or scale past what the format's fields can add to a base (:func:`_check_reach`)."""

    def __init__(self, joint: int, label: str, frame: int, kind: str, axis: str, value: float, bound: str):
        self.joint, self.label, self.frame, self.kind, self.axis, self.value = joint, label, frame, kind, axis, value
        super().__init__(
            f"{label}: {kind} {axis} is {value:g} at frame {frame}, beyond what an .animclip holds ({bound})"
        )


class JointNameError(EncodeError):
    """Joint names that cannot name joints in Joint Hashes: one that is not valid Unicode
    (``hash`` None), or two with one CRC32 (the same name, or a collision): a reader finds a
    joint by its hash, so one of the two could never be reached. ``joints`` are positions in
    the names given, ``labels`` how the caller named them."""

    def __init__(self, joints: tuple[int, ...], labels: tuple[str, ...], hash: int | None, reason: str):
        self.joints, self.labels, self.hash, self.reason = joints, labels, hash, reason
        super().__init__(f"{' and '.join(labels)}: {reason}")


def joint_hashes(names: Sequence[str], labels: Iterable[str] | None = None) -> np.ndarray:
    """The Joint Hashes of joints named ``names`` (the DAT1 CRC32 of each name's UTF-8), or
    :class:`JointNameError`. ``labels``: how to name each joint in the error (default
    ``joint i 'name'``)."""
    labels = list(labels) if labels is not None else [f"joint {i} {n!r}" for i, n in enumerate(names)]
    seen: dict[int, int] = {}
    out = np.zeros(len(names), dtype=np.int64)
    for i, name in enumerate(names):
        try:
            out[i] = h = crc32(name)
        except UnicodeEncodeError:
            raise JointNameError(
                (i,),
                (labels[i],),
                None,
                "the name is not valid Unicode (a lone surrogate): a joint is found by the "
                "CRC32 of its UTF-8 name; rename it",
            ) from None
        if h in seen:
            j = seen[h]
            why = "the same name" if names[j] == name else "two names with one CRC32"
            raise JointNameError(
                (j, i),
                (labels[j], labels[i]),
                h,
                f"{why} (joint hash 0x{h:08X}): a reader finds joints by that hash, so one "
                "of them could never be reached; rename one",
            )
        seen[h] = i
    return out


def tolerance_for(rotation_deg: float, translation: float) -> Tolerance:
    """The expert joint-local tolerance: a rotation error in degrees and a translation (and
    scale) error in units, each checked against its range (:data:`.ranges.LOCAL_ROTATION_ERROR`,
    :data:`LOCAL_TRANSLATION_ERROR`; OptionRangeError names the option)."""
    LOCAL_ROTATION_ERROR.check(rotation_deg)
    LOCAL_TRANSLATION_ERROR.check(translation)
    return Tolerance(rotation_deg=rotation_deg, translation=translation, scale=translation)


@dataclass(frozen=True)
class Tolerance:
    """The largest error allowed, in :class:`ClipError`'s measures: rotation as an angle in
    degrees, translation as a distance in the clip's units, scale as a ratio. The defaults are
    the expert joint-local measure's (:data:`animspec.common.ranges.ANIMCLIP_LOCAL_ERRORS`)."""

    rotation_deg: float = ANIMCLIP_LOCAL_ERRORS.max_error
    translation: float = cast(float, ANIMCLIP_LOCAL_ERRORS.max_translation_error)
    scale: float = cast(float, ANIMCLIP_LOCAL_ERRORS.max_translation_error)

    def __post_init__(self) -> None:
        for kind in ("rotation_deg", "translation", "scale"):
            value = getattr(self, kind)
            # (a Real compares as a float does; numbers.Real declares no comparison for mypy)
            if not (isinstance(value, numbers.Real) and 0 < cast(float, value) < math.inf):
                raise EncodeError(f"the {kind} tolerance must be a positive number, not {value}")


@dataclass(frozen=True)
class Frames:
    """The input: per frame, per joint local transforms (frames x joints x ...)."""

    rotations: np.ndarray
    """(F, J, 4) quaternions x, y, z, w (need not be unit length: they are normalised)."""
    translations: np.ndarray
    """(F, J, 3)."""
    scales: np.ndarray | None = None
    """(F, J, 3), or None for scale 1 throughout."""

    def checked(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rot = np.asarray(self.rotations, dtype=np.float64)
        pos = np.asarray(self.translations, dtype=np.float64)
        if rot.ndim != 3 or rot.shape[2] != 4 or rot.shape[0] < 1 or rot.shape[1] < 1:
            raise EncodeError(
                f"rotations must be frames x joints x 4 with at least one frame and one joint, not {rot.shape}"
            )
        if pos.shape != rot.shape[:2] + (3,):
            raise EncodeError(f"translations must be {rot.shape[:2] + (3,)}, not {pos.shape}")
        scl = np.ones(pos.shape) if self.scales is None else np.asarray(self.scales, dtype=np.float64)
        if scl.shape != pos.shape:
            raise EncodeError(f"scales must be {pos.shape}, not {scl.shape}")
        for name, arr in (("rotations", rot), ("translations", pos), ("scales", scl)):
            if not np.isfinite(arr).all():
                raise EncodeError(f"{name} hold a NaN or an infinity")
        length = np.linalg.norm(rot, axis=-1)
        if (length < 1e-6).any():
            raise EncodeError("a rotation quaternion has zero length")
        if (scl <= 0).any():
            raise EncodeError("a scale is zero or negative (the format's scale is a positive ratio)")
        return rot / length[..., None], pos, scl


class KindError(JointWorst):
    """One kind of :class:`ClipError`: each joint's worst over the frames, and at which frame."""


def _kind_error(per_frame: np.ndarray) -> KindError:
    """(F, J) errors -> each joint's worst and its frame."""
    return KindError(*worst_per_joint(per_frame))


@dataclass(frozen=True)
class ClipError:
    """The error a reader of a clip sees against the transforms it was made from, local per
    joint: ``rotation`` the angle between the two rotations (2 acos |q_read . q_given|), in
    degrees; ``translation`` the distance between the two translations, in the clip's units
    (metres, in the games); ``scale`` the ratio error, |read / given - 1| on the worst axis.
    The one measure every front end words (the command line's report, the Blender export's)."""

    rotation: KindError
    translation: KindError
    scale: KindError

    def within(self, tolerance: Tolerance) -> bool:
        return (
            self.rotation.worst <= tolerance.rotation_deg
            and self.translation.worst <= tolerance.translation
            and self.scale.worst <= tolerance.scale
        )


def rotation_errors_deg(read: np.ndarray, given: np.ndarray) -> np.ndarray:
    """(..., J) the angle in degrees between rotations read and given (..., J, 4)."""
    return angle_between(read, given)


def translation_errors(read: np.ndarray, given: np.ndarray) -> np.ndarray:
    """(..., J) the distance between translations read and given (..., J, 3)."""
    return np.linalg.norm(read - given, axis=-1)


def scale_errors(read: np.ndarray, given: np.ndarray) -> np.ndarray:
    """(..., J) the worst axis's ratio error |read / given - 1| (scales are positive)."""
    return np.abs(read / given - 1).max(axis=-1)


def clip_error(read_rot: np.ndarray, read_pos: np.ndarray, read_scl: np.ndarray,
               rot: np.ndarray, pos: np.ndarray, scl: np.ndarray) -> ClipError:
    """:class:`ClipError` of transforms read (F, J, ...) against those given (the same shapes)."""
    return ClipError(
        _kind_error(rotation_errors_deg(read_rot, rot)),
        _kind_error(translation_errors(read_pos, pos)),
        _kind_error(scale_errors(read_scl, scl)),
    )


def as_read(values: np.ndarray) -> np.ndarray:
    """Decoded values as a reader holds them: the decoder keeps float32 (.decode.Transforms)."""
    return np.asarray(values, np.float64).astype(np.float32).astype(np.float64)


_Transforms = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Rotations (x, y, z, w), translations and scales, (F, J, ...) each."""


def _read_back(data: bytes, frames: Frames, path: str | None) -> tuple[_Transforms, _Transforms]:
    """The written clip ``data`` read (:func:`animspec.animclip.parse.read_bytes`) and decoded with
    :func:`.decode.decode_clip`, as ``play`` decodes it, frame by frame: (rotations, translations,
    scales) read and the same of ``frames`` (what was encoded), over the frames both have."""
    from ..parse import read_bytes
    from .decode import decode_clip

    rot, pos, scl = frames.checked()
    decoded = decode_clip(read_bytes(data, path), path).frames(0, rot.shape[0])
    n = decoded.rotation.shape[0]
    return (decoded.rotation, decoded.translation, decoded.scale), (rot[:n], pos[:n], scl[:n])


def read_back_error(data: bytes, frames: Frames, path: str | None = None) -> ClipError:
    """The error a reader of the written clip ``data`` sees against ``frames`` (what was
    encoded), each joint's own, decoded as ``play`` decodes it. Joints only: root motion is
    Motion Data's, compared by its own tests."""
    read, given = _read_back(data, frames, path)
    return clip_error(*read, *given)


def read_back_errors(data: bytes, frames: Frames, parents: Sequence[int] | np.ndarray | None,
                     shell: float = DEFAULT_SHELL, path: str | None = None) -> tuple[ClipError, ObjectError]:
    """Both errors a reader of the written clip ``data`` sees against ``frames``, from one
    decoding: each joint's own (:func:`read_back_error`) and the object-space error
    (:mod:`.object_space`) under ``parents`` (None: every joint a root) at ``shell``."""
    read, given = _read_back(data, frames, path)
    return clip_error(*read, *given), object_error(*read, *given, parents, shell)


@dataclass(frozen=True)
class EncodedAnimation:
    """An encoded animation: what Base State, Sample Elem, Sample Data and Built hold."""

    base: np.ndarray
    """(J, 12) int64, each packed component's base integer."""
    scale_exponent: np.ndarray
    """(J,) the Base State scale exponent: scale components and divisor are based at 2^it."""
    components: np.ndarray
    """(E,) packed component index of each element, small elements first, then large."""
    widths: np.ndarray
    shifts: np.ndarray
    num_small: int
    stride: int
    """Bytes per sample (whole u32 words)."""
    samples: np.ndarray
    """(U, stride) uint8, the distinct samples (all frames' when there is no lookup)."""
    lookup: np.ndarray | None
    """u16 per frame (+1 when looping) naming its sample, or None (one sample per frame)."""
    frames: int
    looping: bool
    error: ClipError
    """The error a reader sees, measured on the integers encoded with the decoder's own
    dequantisation (:func:`read_back_error` measures it again on the written bytes)."""
    object_error: ObjectError
    """The same error in object space (:mod:`.object_space`: virtual vertices a shell distance
    from each joint, every ancestor applied), in the clip's units: what the encoder bounds when
    given an :class:`.object_space.ObjectTolerance` (:func:`read_back_errors` measures it again
    on the written bytes)."""
    fields: np.ndarray = field(repr=False)
    """(F, E) the fields per frame (before packing), kept for inspection and tests."""
    motion_data: bytes | None = None
    """The Motion Data payload of the root motion given to :func:`encode`, or None (no root
    motion given: a template's Motion Data, if any, stays)."""

    @property
    def joints(self) -> int:
        return len(self.base)

    @property
    def num_large(self) -> int:
        return len(self.components) - self.num_small

    @property
    def unique_samples(self) -> int:
        return len(self.samples)

    @property
    def flags(self) -> int:
        """The Built flag bits this encoding needs (looping, frame lookup)."""
        return (
            (FLAG_LOOPING if self.looping else 0)
            | (FLAG_FRAME_DATA_LOOKUP if self.lookup is not None else 0)
            | (FLAG_HAS_MOTION if self.motion_data is not None else 0)
        )

    def base_state_records(self) -> np.ndarray:
        """Base State's 16-byte joint records: i16 qx qy qz qw x y z, u8 scale exponent,
        u8 translation shift (the dtype of :data:`..sections.base_state.JOINT_DTYPE`)."""
        out = np.zeros(self.joints, JOINT_DTYPE)
        for i, name in enumerate(("qx", "qy", "qz", "qw", "x", "y", "z")):
            out[name] = self.base[:, 4 + i]
        out["log_scale"] = self.scale_exponent
        out["log_scale2"] = self.base[:, SHIFT_COMPONENT]
        return out

    def sample_data_bytes(self) -> bytes:
        """The lookup table (if any, its length rounded up to 16 bytes), then the samples."""
        if self.lookup is None:
            return self.samples.tobytes()
        table = self.lookup.astype("<u2").tobytes()
        return table + bytes(lookup_bytes(len(self.lookup)) - len(table)) + self.samples.tobytes()


# --------------------------------------------------------------------------- quantisation


def _continuous(rot: np.ndarray) -> np.ndarray:
    """Negate quaternions so each joint's consecutive frames have a non-negative dot product:
    q and -q are the same rotation, and a continuous track has small deltas."""
    dots = np.sum(rot[1:] * rot[:-1], axis=-1)
    flips = np.concatenate([np.ones((1,) + rot.shape[1:2]), np.where(dots < 0, -1.0, 1.0)])
    return rot * np.cumprod(flips, axis=0)[..., None]


def _translation_shifts(
    pos: np.ndarray, tolerance: float, max_shift: int, label: Callable[[int], str]
) -> np.ndarray:
    """Per joint, the translation shift (values are t * 2^shift): the largest that keeps every
    quantised translation inside a signed 16-bit value (as Base State holds the base), and
    finer when the tolerance asks for it, as long as the base (the smallest value) still fits
    16 bits; the fields then grow past 16 bits (large elements). A joint reaching past 32,767
    units gets shift 0, the coarsest: its base is the smallest value, or 32,767 when even that
    is higher (fields are unsigned and may be 32 bits wide, so they carry the rest); only a value
    below -32,767 units cannot be held (:class:`TranslationRangeError`)."""
    low = pos.min(axis=(0, 2))
    if (low < -I16_MAX).any():
        joint = int(np.argmin(low))
        frame, axis = np.unravel_index(int(np.argmin(pos[:, joint])), pos[:, joint].shape)
        raise TranslationRangeError(joint, label(joint), int(frame), "xyz"[int(axis)], float(pos[frame, joint, axis]))
    reach = np.abs(pos).max(axis=(0, 2))
    lowest = np.abs(pos.min(axis=0)).max(axis=1)
    with np.errstate(divide="ignore"):
        by_range = np.floor(np.log2(I16_MAX / np.maximum(reach, 1e-300)))
        by_base = np.floor(np.log2(I16_MAX / np.maximum(lowest, 1e-300)))
    needed = math.ceil(math.log2(0.5 / max(tolerance, 2.0**-60)))
    finer = np.minimum(np.maximum(by_range, needed), by_base)
    # and no finer than fields can span from the base (past 32,767 units, the base stops there)
    span = (pos.max(axis=0) - np.minimum(pos.min(axis=0), 0)).max(axis=1)
    with np.errstate(divide="ignore", over="ignore"):
        by_fields = np.floor(np.log2(FIELD_REACH / np.maximum(span, 1e-300)))
    return np.clip(np.minimum(np.maximum(by_range, finer), by_fields), 0, max_shift).astype(np.int64)


FIELD_REACH = float((2**LARGE_WIDTH_MAX - 1) * 2**MAX_ERROR_SHIFT)
"""The most a field adds to its base: 32 bits at the coarsest error shift."""


def _check_reach(
    target: np.ndarray, base: np.ndarray, pos: np.ndarray, scl: np.ndarray, label: Callable[[int], str]
) -> None:
    """Refuse (:class:`ValueRangeError`) a component no field can reach from its base: a
    translation (or scale) so large, or a scale so small (its divisor), that even 32-bit fields
    at the coarsest step fall short. Checked before any field is made (an integer cast of such
    a value wraps around silently)."""
    over = target.max(axis=0) - base > FIELD_REACH
    if not over.any():
        return
    over[:, :3] &= ~over[:, DIVISOR : DIVISOR + 1]  # (a tiny scale raises the divisor: name the scale)
    joint, component = (int(v) for v in np.argwhere(over)[0])
    frame = int(np.argmax(target[:, joint, component]))
    if component in range(8, 11):
        axis = component - 8
        reach = I16_MAX + FIELD_REACH / 2 ** float(base[joint, SHIFT_COMPONENT])
        raise ValueRangeError(
            joint,
            label(joint),
            frame,
            "translation",
            "xyz"[axis],
            float(pos[frame, joint, axis]),
            f"at most about {reach:.3g} units: 32-bit fields at the coarsest step",
        )
    axis = component if component < 3 else int(np.argmin(scl[frame, joint]))
    raise ValueRangeError(
        joint,
        label(joint),
        frame,
        "scale",
        "xyz"[axis],
        float(scl[frame, joint, axis]),
        "a scale that far from 1 needs more than 32-bit fields",
    )


def _fields(target: np.ndarray, base: np.ndarray, shifts: np.ndarray | int, ceiling: np.ndarray) -> np.ndarray:
    """Unsigned fields so that base + (field << shift) is nearest to target (F, N), without
    passing ``ceiling`` (the quantised range's top, e.g. i16 for quaternions; inf for none);
    ``base``, ``shifts`` and ``ceiling`` broadcast against ``target``. The one nearest rounding:
    the whole clip's (:meth:`_Plan.values`), a joint's in the search's trials, the local search's."""
    step = np.exp2(shifts)
    fields = np.maximum(np.rint((target - base) / step), 0)
    fields = np.minimum(fields, np.maximum(np.floor((ceiling - base) / step), 0))
    return fields.astype(np.int64)


def _rotation_fields(target: np.ndarray, base: np.ndarray, step: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Fields (float, F, N, 4) of quaternions ``target`` (F, N, 4, quantised units) over ``base``
    at ``step`` (N, 4) that a reader turns into the rotations nearest the targets: a reader
    normalises the four values, so each component is rounded down or up as the pair of
    choices for all four gives the smallest angle (the nearest value of each alone, which
    ``_fields`` takes, is one of the 16 and not always the best), never past ``top`` (N, 4),
    the largest field nearest-value rounding gives over the clip, so no width grows."""
    exact = (target - base) / step
    low = np.clip(np.floor(exact), 0, top)
    high = np.minimum(low + 1, top)
    unit = target / np.linalg.norm(target, axis=-1, keepdims=True)
    # v = v0 + dv * h for a choice h of 0 or 1 per component: the dot products with the target
    # and the squared lengths of all 16 choices, each the value at v0 plus the choice's terms
    v0 = base + low * step
    dv = (high - low) * step
    dot = _choice_sums(dv * unit, (v0 * unit).sum(axis=-1))
    square = _choice_sums(dv * (2 * v0 + dv), (v0 * v0).sum(axis=-1))
    # the square of the cosine of half the angle to the target (an all-zero choice scores 0)
    score = dot * dot
    score /= np.maximum(square, np.finfo(np.float64).tiny)
    return np.where(_ROUNDED_UP[score.argmax(axis=-1)], high, low)


_ROUNDED_UP = ((np.arange(16)[:, None] >> np.array([3, 2, 1, 0])) & 1).astype(bool)
"""(16, 4) the ways of rounding a quaternion's four components: way i rounds component k up
where bit 3 - k of i is set."""


def _choice_sums(terms: np.ndarray, start: np.ndarray) -> np.ndarray:
    """(..., 16) ``start`` plus, for each way of :data:`_ROUNDED_UP`, the ``terms`` (..., 4) of
    the components it rounds up: sums of the x, y pair and of the z, w pair (4 ways each), then
    of the two. Element by element, so a joint's choices are the same whether it is decoded
    alone (the search's trials) or with the others (the clip written): no matrix product, whose
    summation order may depend on the arrays' shapes."""
    xy = np.empty(terms.shape[:-1] + (4,))
    xy[..., 0] = start
    np.add(start, terms[..., 1], out=xy[..., 1])
    np.add(start, terms[..., 0], out=xy[..., 2])
    np.add(xy[..., 2], terms[..., 1], out=xy[..., 3])
    zw = np.empty(terms.shape[:-1] + (4,))
    zw[..., 0] = 0.0
    zw[..., 1] = terms[..., 3]
    zw[..., 2] = terms[..., 2]
    np.add(terms[..., 2], terms[..., 3], out=zw[..., 3])
    return (xy[..., :, None] + zw[..., None, :]).reshape(terms.shape[:-1] + (16,))


def _shift_for(step: np.ndarray) -> np.ndarray:
    """The largest shift s with 2^(s-1) <= step (rounding to a multiple of 2^s errs by half
    of it at most), at least 0."""
    with np.errstate(divide="ignore"):
        return np.maximum(np.floor(np.log2(np.maximum(step, 1e-300) * 2)), 0).astype(np.int64)


@dataclass
class _Plan:
    """Per packed component (J, 12): the value to approximate, the base, the shift."""

    target: np.ndarray  # (F, J, 12) float, in quantised units
    base: np.ndarray  # (J, 12) int64
    shift: np.ndarray  # (J, 12) int64
    ceiling: np.ndarray  # (J, 12) float, largest value allowed (inf: none)

    def values(self) -> tuple[np.ndarray, np.ndarray]:
        """The fields (F, J, 12) and the integer values base + (field << shift) they give:
        nearest values, the rotations' chosen as a reader sees them (:func:`_rotation_fields`)."""
        f, j, c = self.target.shape
        fields = _fields(
            self.target.reshape(f, j * c), self.base.reshape(-1), self.shift.reshape(-1), self.ceiling.reshape(-1)
        ).reshape(f, j, c)
        if f:
            top = fields[..., ROTATION].max(axis=0)
            step = np.exp2(self.shift[:, ROTATION])
            rows = max(ROTATION_CHUNK // max(j, 1), 1)  # (its working arrays stay small: ~100 floats a sample)
            for first in range(0, f, rows):
                part = slice(first, first + rows)
                fields[part, :, ROTATION] = _rotation_fields(
                    self.target[part, :, ROTATION], self.base[:, ROTATION], step, top
                ).astype(np.int64)
        return fields, self.base + (fields << self.shift)


def _read(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scale, rotation and translation of integer values (F, J, 12) as a reader holds them:
    the reader's own dequantisation (:func:`.coding.dequantise`), kept as float32."""
    s, r, p = dequantise(values)
    return as_read(s), as_read(r), as_read(p)


def _choose_shifts(
    target: np.ndarray,
    base: np.ndarray,
    ceiling: np.ndarray,
    guess: np.ndarray,
    tolerance: float | np.ndarray,
    error_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """Per joint, the error shift of one kind (its components share it): from ``guess``, finer
    while the decoded error is over ``tol``, then coarser while it stays within it (the guess
    assumes the worst rounding). Each pass decodes only the joints still moving, so the cost
    falls as joints settle. ``target`` (F, J, C) in quantised units, ``error_of(values, joints)``
    the per-joint error of decoded integer values (F, len(joints), C); ``tolerance`` one for
    every joint, or (J,) each joint's own."""
    tol = np.broadcast_to(np.asarray(tolerance, np.float64), (target.shape[1],))

    def error(joints: np.ndarray, shifts: np.ndarray) -> np.ndarray:
        fields = _fields(target[:, joints], base[joints], shifts[:, None], ceiling[joints])
        return error_of(base[joints][None] + fields * np.exp2(shifts)[None, :, None], joints)

    shifts = np.minimum(guess.astype(np.int64), MAX_ERROR_SHIFT)
    moving = np.flatnonzero((target.max(axis=0) - target.min(axis=0)).max(axis=1) > 0)
    shifts[np.setdiff1d(np.arange(len(shifts)), moving)] = 0  # constant: no element, no shift
    err = np.zeros(len(shifts))
    err[moving] = error(moving, shifts[moving])
    over = moving[(err[moving] > tol[moving]) & (shifts[moving] > 0)]
    while len(over):
        shifts[over] -= 1
        err[over] = error(over, shifts[over])
        over = over[(err[over] > tol[over]) & (shifts[over] > 0)]
    trying = moving[(err[moving] <= tol[moving]) & (shifts[moving] < MAX_ERROR_SHIFT)]
    while len(trying):
        coarser = error(trying, shifts[trying] + 1)
        ok = coarser <= tol[trying]
        shifts[trying[ok]] += 1
        trying = trying[ok]
        trying = trying[shifts[trying] < MAX_ERROR_SHIFT]
    return shifts


def _decoded_locals(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Integer values (F, J, 12) as a reader decodes them (:func:`_read`), as local matrices
    (F, J, 3, 3: rotation times scale) and translations (F, J, 3)."""
    s, r, p = _read(values)
    return local_matrices(r, s), p


def _object_shifts(
    plan: _Plan,
    space: ObjectSpace,
    bound: float,
    reach: np.ndarray,
    local_shifts: Callable[[np.ndarray, np.ndarray, slice], np.ndarray],
) -> np.ndarray:
    """Per component error shifts (J, 12) whose decoded clip keeps the object-space error
    (``space``) within ``bound``, at as few bits as this search finds.

    First, one scale ``k`` for every joint: a joint may err locally by ``k * bound / reach`` in
    rotation (radians; ``reach``: how far its subtree's virtual vertices get from it) and by
    ``k * bound`` in translation, and ``k`` is the largest (bisected on a log scale) whose
    measured object-space error meets the bound: errors along a chain add up, so ``k`` lands
    below 1 by about how many joints share the worst chain. Then, one component at a time,
    a step coarser wherever that saves a bit of width and the measured error of the joint's
    subtree stays within the bound, until no step can be taken. Every check decodes the
    integers as a reader does."""
    n_joints, n_frames = len(reach), plan.target.shape[0]
    # The scale k is searched on every few frames (it only sets where the component search
    # starts); the start is then measured on every frame, and k lowered until it meets the bound.
    few = slice(None, None, max(n_frames // SEARCH_FRAMES, 1))
    probe = space.at_frames(few)
    probe_plan = _Plan(plan.target[few], plan.base, plan.shift, plan.ceiling)

    def shifts_at(log_k: float, frames: slice = few) -> np.ndarray:
        k = 2.0**log_k
        return local_shifts(
            np.minimum(np.degrees(k * bound / reach), LOCAL_ROTATION_ERROR.high), np.full(n_joints, k * bound), frames
        )

    def worst(shift: np.ndarray, where: ObjectSpace = probe, on: _Plan = probe_plan) -> float:
        on.shift = shift
        where.release()  # (before the next state is made: one clip's transforms held at a time)
        values = on.values()[1]
        return float(where.set_all(*_decoded_locals(values)).max(initial=0.0))

    low, high = -math.log2(OBJECT_SEARCH_FINEST), 2.0
    best = low
    if worst(shifts_at(high)) <= bound:
        best = high
    elif worst(shifts_at(low)) <= bound:
        for _ in range(SEARCH_STEPS):
            mid = (low + high) / 2
            if worst(shifts_at(mid)) <= bound:
                low = best = mid
            else:
                high = mid
    probe.release()
    shift = shifts_at(best, slice(None))
    while worst(shift, space, plan) > bound and best > -math.log2(OBJECT_SEARCH_FINEST):
        best = max(best - 0.5, -math.log2(OBJECT_SEARCH_FINEST))
        shift = shifts_at(best, slice(None))
    # (the space now holds the start's decoded clip)

    target, base, ceiling = plan.target, plan.base, plan.ceiling
    animated = (target.max(axis=0) - target.min(axis=0)) > 0  # (J, 12)
    candidates = np.zeros_like(animated)
    candidates[:, ROTATION] = candidates[:, TRANSLATION] = True
    candidates &= animated
    tried = candidates.copy()
    retried = False

    tops: dict[tuple[int, int, int], int] = {}

    def top_field(j: int, c: int, s: int) -> int:
        """The largest field of component c of joint j at shift s (nearest values, every frame)."""
        if (j, c, s) not in tops:
            tops[j, c, s] = int(_fields(target[:, j, c], base[j, c], s, ceiling[j, c]).max(initial=0))
        return tops[j, c, s]

    def joint_fields(j: int, row: np.ndarray, frames: np.ndarray | slice = slice(None)) -> np.ndarray:
        """Joint j's fields (F', 12) at ``frames`` with shifts ``row``, chosen as
        :meth:`_Plan.values` chooses them."""
        f = _fields(target[frames, j], base[j], row, ceiling[j])
        top = np.array([top_field(j, c, int(row[c])) for c in range(4, 8)], np.float64)
        f[:, ROTATION] = _rotation_fields(target[frames, j, ROTATION][:, None], base[j, ROTATION][None],
                                          np.exp2(row[ROTATION])[None], top[None])[:, 0]
        return f

    def joint_locals(j: int, row: np.ndarray, frames: np.ndarray | slice = slice(None)
                     ) -> tuple[np.ndarray, np.ndarray]:
        """Joint j's local transforms at ``frames`` as a reader decodes them with shifts ``row``."""
        m, t = _decoded_locals((base[j] + joint_fields(j, row, frames) * np.exp2(row))[:, None, :])
        return m[:, 0], t[:, 0]

    look = (FOCUS_FRAMES, max(n_frames // FOCUS_SAMPLES, 1))

    # One pass: every joint, leaves first (their steps cost the fewest other joints; and a
    # joint's ancestors are then as the last full measure left them), tries one step coarser
    # per component, judged on the frames where its subtree errs most (:meth:`ObjectSpace.focus`)
    # against its descendants' current choices. After the pass the whole clip is measured on
    # every frame; a step whose subtree now passes the bound somewhere is taken back. A step
    # refused is not tried again until a pass takes none, then every one once more: the steps
    # taken meanwhile mostly add error, so few pass, and the passes stay cheap.
    for _ in range(2 * MAX_ERROR_SHIFT + 2):
        before = space.err.max(axis=0)
        taken: list[tuple[int, int, int]] = []
        for j in space.order[::-1]:
            j = int(j)
            moved = False
            for c in (int(i) for i in np.flatnonzero(tried[j])):
                s = int(shift[j, c])
                width = top_field(j, c, s).bit_length()
                # the next shift that saves a bit (halving the step may leave the width as it was)
                coarser = next((t for t in range(s + 1, MAX_ERROR_SHIFT + 1)
                                if top_field(j, c, t).bit_length() < width), None)
                if coarser is None:
                    tried[j, c] = False
                    continue
                row = shift[j].copy()
                row[c] = coarser
                frames = space.focus(j, *look) if n_frames > 2 * FOCUS_FRAMES else None
                lm, lt = joint_locals(j, row, slice(None) if frames is None else frames)
                if space.trial(j, lm, lt, frames, limit=bound) > bound:
                    tried[j, c] = False
                    continue
                if frames is None:
                    space.set_local(j, lm, lt)
                moved = True
                taken.append((j, c, s))
                shift[j, c] = coarser
            if moved and n_frames > 2 * FOCUS_FRAMES:  # (every frame decoded once per joint and pass)
                space.set_local(j, *joint_locals(j, shift[j]))
        if taken:
            space.refresh({j for j, _, _ in taken})
            while (over := np.flatnonzero(space.err.max(axis=0) > np.maximum(bound, before))).size:
                # taken back, one round at a time: each joint over the bound loses the last step
                # of this pass above it (or its own)
                back = {next(i for i in range(len(taken) - 1, -1, -1) if v in space.subtree[taken[i][0]])
                        for v in over}
                undone = set()
                for i in sorted(back, reverse=True):
                    j, c, s = taken.pop(i)
                    shift[j, c] = s
                    tried[j, c] = False
                    space.set_local(j, *joint_locals(j, shift[j]))
                    undone.add(j)
                space.refresh(undone)
        elif retried:
            break
        else:
            tried, retried = candidates.copy(), True

    # Last, a bit of width saved by saturating: a field whose largest value passes a power of
    # two by a few steps on a few frames keeps a window of one bit less over the same steps
    # (the base raised by whole steps, the values outside the window held at its ends), where
    # the frames that change still meet the bound. A sample is whole u32 words, so this only
    # pays when it saves every bit past the last whole word: otherwise it is undone.
    bits = sum(top_field(int(j), int(c), int(shift[j, c])).bit_length() for j, c in np.argwhere(animated))
    needed = bits % 32
    held: list[tuple[int, int, int, float]] = []  # (joint, component, base, ceiling) before each
    for j in space.order[::-1] if needed else ():
        j = int(j)
        step = np.exp2(shift[j])
        fields: np.ndarray | None = None  # (joint j's, on every frame: made when first needed)
        for c in (int(i) for i in np.flatnonzero(candidates[j])):
            s = int(shift[j, c])
            top = top_field(j, c, s)
            if top == 0 or len(held) == needed:
                continue
            cap = (1 << (top.bit_length() - 1)) - 1
            excess = top - cap
            if excess > TRIM_STEPS:
                continue
            if fields is None:
                fields = joint_fields(j, shift[j])
            # the window [low, low + cap] that leaves the fewest frames outside it
            outside = [int(((fields[:, c] < low) | (fields[:, c] > low + cap)).sum()) for low in range(excess + 1)]
            low = int(np.argmin(outside))
            raised = base[j, c] + (low << s)
            if outside[low] > TRIM_FRAMES or (c in range(8, 11) and raised > I16_MAX):
                continue
            before = base[j] + fields * step
            held.append((j, c, int(base[j, c]), float(ceiling[j, c])))
            base[j, c], ceiling[j, c] = raised, min(ceiling[j, c], raised + cap * step[c])
            _forget_tops(tops, j, c)
            trimmed = joint_fields(j, shift[j])
            # the frames whose values change (the joint's other rotation components may round
            # otherwise next to the one held)
            changed = np.flatnonzero((base[j] + trimmed * step != before).any(axis=1))
            ok = top_field(j, c, s) <= cap
            if ok and changed.size:
                ok = space.trial(j, *joint_locals(j, shift[j], changed), changed, limit=bound) <= bound
            if ok:
                space.set_local(j, *joint_locals(j, shift[j]))
                space.refresh([j])
                fields = trimmed
            else:
                _, _, base[j, c], ceiling[j, c] = held.pop()
                _forget_tops(tops, j, c)
    if len(held) < needed:  # (no word saved: every field as the search left it)
        for j, c, b, top_value in held:
            base[j, c], ceiling[j, c] = b, top_value
            _forget_tops(tops, j, c)
            space.set_local(j, *joint_locals(j, shift[j]))
        space.refresh({j for j, _, _, _ in held})
    return shift


def _forget_tops(tops: dict[tuple[int, int, int], int], j: int, c: int) -> None:
    """Drop the largest fields of component c of joint j at every shift (its base or ceiling moved)."""
    for s in range(MAX_ERROR_SHIFT + 1):
        tops.pop((j, c, s), None)


DEFAULT_BOUND = ObjectTolerance()
"""The encoder's default bound (:data:`animspec.common.ranges.ANIMCLIP_ERRORS`)."""


def encode(
    frames: Frames,
    tolerance: Tolerance | ObjectTolerance = DEFAULT_BOUND,
    *,
    looping: bool = False,
    max_translation_shift: int = MAX_TRANSLATION_SHIFT,
    lookup: bool | None = None,
    large: bool = True,
    root_translation: np.ndarray | None = None,
    root_rotation: np.ndarray | None = None,
    joint_labels: Sequence[str] | None = None,
    parents: Sequence[int] | np.ndarray | None = None,
    shell: float = DEFAULT_SHELL,
) -> EncodedAnimation:
    """Encode ``frames`` within ``tolerance`` (as far as the format's precision allows: the
    errors reached are the result's ``object_error`` and ``error``): an
    :class:`.object_space.ObjectTolerance` bounds the object-space error over the hierarchy
    ``parents`` (a parent index per joint, -1 for a root; None: every joint a root); the expert
    :class:`Tolerance` bounds each joint's own error, and ``shell`` is then where the reported
    object-space error is measured (an ObjectTolerance carries its own shell).

    ``max_translation_shift``: the finest translation step is 2^-shift (Luna's encoder stops
    at 12). ``lookup``: True/False forces the frame lookup table on/off; None uses it
    when it makes Sample Data smaller. ``large``: False keeps every field within 16 bits (no
    large elements) by coarsening the step of a component that would need more (its error
    grows, and ``error`` says by how much). ``root_translation`` (frames, 3) and
    ``root_rotation`` (frames, 4, x, y, z, w; None: no turning): the clip's root motion per
    frame, written as Motion Data relative to frame 0 (:func:`.motion.encode_motion`).
    ``joint_labels``: how to name each joint in an error (default ``joint i``)."""
    shape = np.shape(frames.rotations)
    for count, limit, what in ((shape[:1], MAX_FRAMES, "frame"), (shape[1:2], MAX_JOINTS, "joint")):
        if count and count[0] > limit:
            raise EncodeError(
                f"{count[0]} {what}s; an .animclip holds at most {limit} (Built's {what} count is 16 bits)"
            )
    rot, pos, scl = frames.checked()

    def label(joint: int) -> str:
        return joint_labels[joint] if joint_labels is not None else f"joint {joint}"

    motion_data = None
    if root_translation is not None:
        if np.shape(root_translation)[:1] != rot.shape[:1]:
            raise EncodeError(
                f"root motion has {np.shape(root_translation)[:1]} frames; the joints have {rot.shape[0]}"
            )
        try:
            motion_data = encode_motion(root_translation, root_rotation, looping=looping)
        except WriteError as exc:
            raise EncodeError(str(exc)) from None
    elif root_rotation is not None:
        raise EncodeError("root_rotation needs root_translation (give zeros for a turn in place)")
    rot = _continuous(rot)
    n_frames, n_joints = rot.shape[:2]
    hierarchy = checked_parents(parents, n_joints)
    measure = tolerance if isinstance(tolerance, ObjectTolerance) else ObjectTolerance(shell=shell)
    space = ObjectSpace(rot, pos, scl, hierarchy, measure.shell)
    if isinstance(tolerance, ObjectTolerance):
        # the local steps a joint can afford at most: its error moves its whole subtree
        reach = space.reach()
        local = Tolerance(
            rotation_deg=min(math.degrees(tolerance.max_error / float(reach.max())), LOCAL_ROTATION_ERROR.high),
            translation=tolerance.max_error,
            scale=tolerance.max_error / float(reach.max()),
        )
    else:
        local = tolerance

    # translation: per joint shift from the range, per component error shift from tolerance
    # (a distance of t needs each axis within t / sqrt(3) at worst)
    # (the object-space search may ask any joint for much less than the bound: start fine, its
    # error shifts then coarsen what does not need it)
    finest = local.translation / (OBJECT_SEARCH_FINEST if isinstance(tolerance, ObjectTolerance) else 1.0)
    t_shift = _translation_shifts(pos, finest / math.sqrt(3), max_translation_shift, label)
    t_units = pos * np.exp2(t_shift)[None, :, None]

    # scale: exponent from the tolerance; a frame with a scale below 1 raises the divisor
    scaled = np.abs(scl - 1).max() > local.scale / 2
    s_exp = int(np.clip(math.ceil(math.log2(0.5 / local.scale)), 0, 14)) if scaled else 12
    one = float(1 << s_exp)
    divisor = (
        np.ceil(one * np.maximum(1 / scl.min(axis=-1), 1.0) - 1e-9) if scaled else np.full((n_frames, n_joints), one)
    )
    numerators = scl * divisor[..., None]

    target = np.zeros((n_frames, n_joints, COMPONENTS_PER_JOINT))
    target[..., SCALE] = numerators
    target[..., DIVISOR] = divisor
    target[..., ROTATION] = rot * QUATERNION_SCALE
    target[..., TRANSLATION] = t_units
    target[..., SHIFT_COMPONENT] = t_shift[None, :]

    with np.errstate(invalid="ignore"):  # a value past int64 is refused by _check_reach below, naming it
        base = np.rint(target.min(axis=0)).astype(np.int64)
    base[:, 0:4] = 1 << s_exp  # Base State stores only the exponent for scale and divisor
    # a translation above 32,767 units (shift 0): the base stops at the i16's top, fields carry the rest
    base[:, TRANSLATION] = np.minimum(base[:, TRANSLATION], I16_MAX)
    ceiling = np.full((n_joints, COMPONENTS_PER_JOINT), np.inf)
    ceiling[:, ROTATION] = I16_MAX
    _check_reach(target, base, pos, scl, label)

    def local_shifts(rotation_deg: np.ndarray, translation: np.ndarray,
                     frames: slice | np.ndarray = slice(None)) -> np.ndarray:
        """Per joint, the coarsest rotation and translation shifts within these local errors
        (measured at ``frames``)."""
        out = np.zeros((n_joints, COMPONENTS_PER_JOINT), dtype=np.int64)
        r, p = rot[frames], pos[frames]
        kinds = (
            (
                ROTATION,
                rotation_deg,
                _shift_for(np.radians(rotation_deg) / 4 * QUATERNION_SCALE),
                lambda v, js: rotation_errors_deg(as_read(dequantise_rotation(v)), r[:, js]).max(axis=0),
            ),
            (
                TRANSLATION,
                translation,
                _shift_for(translation / math.sqrt(3) * np.exp2(t_shift)),
                # (in float64: far from the origin float32's own step is past any shift's reach,
                # and only the report, not the choice, can say so)
                lambda v, js: translation_errors(
                    dequantise_translation(v, t_shift[js][None, :, None]), p[:, js]
                ).max(axis=0),
            ),
        )
        for comps, tol, guess, error_of in kinds:
            out[:, comps] = _choose_shifts(
                target[frames][..., comps], base[:, comps], ceiling[:, comps], guess, tol, error_of
            )[:, None]
        return out

    searched = None
    if isinstance(tolerance, ObjectTolerance):
        shift = _object_shifts(_Plan(target, base, np.zeros_like(base), ceiling), space, tolerance.max_error,
                               reach, local_shifts)
        searched = shift.copy()
    else:
        shift = local_shifts(np.full(n_joints, local.rotation_deg), np.full(n_joints, local.translation))
    plan = _Plan(target, base, shift, ceiling)
    if not large:  # coarsen a component past 16 bits until its field fits 16 bits
        for _ in range(MAX_ERROR_SHIFT + 1):
            fields, _values = plan.values()
            wide = fields.max(axis=0) >= 1 << SMALL_WIDTH_MAX
            if not wide.any():
                break
            if (plan.shift[wide] >= MAX_ERROR_SHIFT).any():
                raise EncodeError("a component's range needs an error shift past 15 to fit 16 bits")
            plan.shift[wide] += 1
    fields, values = plan.values()
    # both errors reported are those of the integers written as a reader decodes them: the
    # object-space one is the search's last measure when it ended on these shifts (its every
    # joint decoded on every frame as _Plan.values decodes it), else measured here
    read_s, read_r, read_p = _read(values)
    if searched is None or not np.array_equal(searched, plan.shift):
        space.release()
        space.set_all(local_matrices(read_r, read_s), read_p, trials=False)
    space.release()
    seen = object_error_of(space.err, space.shell)
    error = clip_error(read_r, read_p, read_s, rot, pos, scl)

    flat_fields = fields.reshape(n_frames, -1)
    widths = np.zeros(flat_fields.shape[1], dtype=np.int64)
    top = flat_fields.max(axis=0)
    widths[top > 0] = np.floor(np.log2(top[top > 0])).astype(np.int64) + 1
    if (widths > LARGE_WIDTH_MAX).any():
        joint, component = divmod(int(np.argmax(widths)), COMPONENTS_PER_JOINT)
        kind = ("scale", "rotation", "translation")[int(np.searchsorted(KIND_FIRST, component, side="right")) - 1]
        raise EncodeError(
            f"{label(joint)}: its {kind} spans more values than {LARGE_WIDTH_MAX}-bit fields hold at the "
            f"error allowed ({int(widths.max())} bits needed): allow a larger {kind} error"
        )
    animated = np.flatnonzero(widths)
    small_ones = animated[widths[animated] <= SMALL_WIDTH_MAX]
    large_ones = animated[widths[animated] > SMALL_WIDTH_MAX]
    order = np.concatenate([small_ones, large_ones])
    elem_widths = widths[order]
    elem_shifts = plan.shift.reshape(-1)[order]
    if (elem_shifts[: len(small_ones)] > MAX_ERROR_SHIFT).any() or (
        elem_shifts[len(small_ones) :] > LARGE_SHIFT_MAX
    ).any():
        raise EncodeError("an error shift does not fit its code")
    elem_fields = flat_fields[:, order]

    packed = pack_fields(elem_fields, elem_widths)
    samples, table = _deduplicate(packed, looping, lookup)
    return EncodedAnimation(
        base=base,
        scale_exponent=np.full(n_joints, s_exp, dtype=np.int64),
        components=order,
        widths=elem_widths,
        shifts=elem_shifts,
        num_small=len(small_ones),
        stride=packed.shape[1],
        samples=samples,
        lookup=table,
        frames=n_frames,
        looping=looping,
        error=error,
        object_error=seen,
        fields=elem_fields,
        motion_data=motion_data,
    )


def _deduplicate(packed: np.ndarray, looping: bool, lookup: bool | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Distinct samples in first-use order and the frame -> sample table, if it pays (or is
    forced). A looping clip's table has one more entry (Luna's reader expects it and uses the
    first F); what the engine reads there is not known, so it names frame 0's sample: the
    loop's wrap."""
    n_frames, stride = packed.shape
    if lookup is False or stride == 0 and lookup is None:
        return packed, None
    _, first, inverse = np.unique(packed, axis=0, return_index=True, return_inverse=True)
    rank = np.argsort(np.argsort(first))  # renumber distinct samples by first appearance
    table = rank[inverse.reshape(-1)]
    samples = packed[np.sort(first)]
    entries = n_frames + (1 if looping else 0)
    table_bytes = lookup_bytes(entries)
    if len(samples) > 0xFFFF:
        if lookup:
            raise EncodeError(f"{len(samples)} distinct samples do not fit a u16 frame lookup")
        return packed, None
    if lookup is None and table_bytes + samples.nbytes >= packed.nbytes:
        return packed, None
    if looping:
        table = np.concatenate([table, table[:1]])
    return samples, table.astype(np.uint16)
