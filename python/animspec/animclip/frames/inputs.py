"""The per-frame decoder's inputs, checked: what :mod:`.decode` reads from a clip model, the
memory rule every decode and everything built from one obey, and the one list of problems
("decodable?") that the validator reports and the decoder refuses on.

Built's fields, Sample Elem's columns, Base State's records, the frame lookup and the samples
(as a view into the Sample Data payload) are gathered by :func:`sample_inputs` only after
:func:`sample_problems` found no error among them; the validator reports the same list, so
neither has a check the other lacks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...common.errors import AnimspecError, ParseError
from ..layout import OUTER_HEADER
from ..model import AnimclipFile, BaseState, Built, RawSection, SampleElem
from ..sections import payload_size
from ..sections.base_state import JOINT_DTYPE
from ..sections.built import BUILT_FIELD_OFFSETS
from ..sections.sample_elem import LARGE_ELEM_SIZE, SAMPLE_ELEM_SIZE, sample_elem_split
from ..tags import (
    CONTAINER_ASSET,
    CONTAINER_DAT1,
    CONTAINER_STG,
    FLAG_CAMERA,
    MOTION_FLAG_HAS_MOTION,
    MOTION_FLAG_SECONDARY,
    MOTION_HEADER_DTYPE,
    MOTION_HEADER_SIZE,
    MOTION_SAMPLE_DTYPE,
    MOTION_SAMPLE_SIZES,
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_MOTION_DATA,
    TAG_SAMPLE_DATA,
    TAG_SAMPLE_DATA_PAGED,
    TAG_SAMPLE_DATA_RESIDENT,
    TAG_SAMPLE_ELEM,
    section_name,
)
from .coding import (
    COMPONENT_BYTES,
    COMPONENTS_PER_JOINT,
    MAX_DELTA_BITS,
    MAX_FIELD_BITS,
    MAX_LOG_SCALE,
    MOTION_LOG_SCALE_RANGE,
    lookup_bytes,
)

DECODE_FLOOR = 256 << 20
DECODE_PER_FILE_BYTE = 64
DECODE_BYTES_PER_JOINT = 40
"""The decoder's memory rule, stated here once (the decoder, :mod:`.decode`, imports it):
decoded transforms take 40 bytes (float32 scale, rotation, translation) per joint per decoded
sample, plus per frame with a frame lookup, and may take at most
``max(256 MiB, 64 x the file's size on disk)`` (finding ``decode-size``; an LZ4-compressed
file counts its compressed size, so a bomb cannot raise its own bound). Poses are bigger than
their coding (40 bytes per joint and sample against ~10 bits per moving component), so a clip
of 150 joints whose Sample Data fills a 16 MB file decodes to about 13 x the file; 64x leaves
room for that and for frame lookups, while a static clip claiming 65,535 frames of thousands
of joints from a few kilobytes is refused before anything is allocated."""

PLAYABLE_FPS = (1e-3, 1e6)
"""The frame rates a clip is played at (``clip-timing`` outside: refused). Below, frame times
pass float32's range (65,535 frames at 1.4e-45 fps: inf), and 0 or NaN give no time at all;
above, a second holds more frames than any engine shows. Between them every key time of
65,536 frames is finite and strictly increasing as float32, as glTF needs."""


def memory_bound(file_size: int) -> int:
    """The most bytes a decode's results may take for a file of ``file_size`` bytes on disk
    (:data:`DECODE_FLOOR` and :data:`DECODE_PER_FILE_BYTE`); what is built from the decode is
    held to the same bound (:func:`check_built`)."""
    return max(DECODE_FLOOR, DECODE_PER_FILE_BYTE * int(file_size))


def file_size_on_disk(model: AnimclipFile) -> int:
    """The size of the file ``model`` was read from (the bound of :func:`memory_bound` is
    stated on it); for a model not read from a file (a JSON dump, one built in memory) the
    size of its DAT1, or 0 without a recorded layout."""
    layout = model.layout
    if layout is None:
        return 0
    return layout.file_size if layout.file_size is not None else layout.dat1_size


BUILT_WORLD_POSITION_BYTES = 24
"""``play --skeleton``: a world position (float64 x, y, z) per frame and rig bone, the
product it reports (the 4x4 world transforms behind it are computed a chunk of frames at a
time)."""
GLB_BUILD_COPIES = 5
"""How many times over ``convert`` holds a GLB's keys while building it: the channels'
float64 values, the accessors' buffer, the GLB's binary chunk and the file's bytes (measured:
1.25 GB for the 187 MB GLB of 65,535 frames x 102 nodes, of which 267 MB is the decode)."""
BUILT_GLB_NODE_FRAME_BYTES = (16 + 12 + 12) * GLB_BUILD_COPIES
"""``convert`` to GLB: a rotation, translation and scale key (float32: 40 bytes) per frame
and animated node, held :data:`GLB_BUILD_COPIES` times over while the GLB is built."""


class BuildTooLarge(AnimspecError):
    """What would be built from a decode passes :func:`memory_bound` of the file's size on
    disk: ``frames`` x ``bones`` x the product's bytes per bone and frame is ``need`` bytes,
    over ``bound``. Facts only; the command line and the add-on word it."""

    def __init__(self, product: str, frames: int, bones: int, need: int, bound: int, file_size: int,
                 unit: str = "bone"):
        self.product, self.frames, self.bones = product, frames, bones
        self.need, self.bound, self.file_size = need, bound, file_size
        super().__init__(
            f"{product} of {frames:,} frame(s) x {bones:,} {unit}(s) would take {need >> 20:,} MiB; the bound for a "
            f"file of {file_size:,} bytes is {bound >> 20:,} MiB "
            f"(max(256 MiB, {DECODE_PER_FILE_BYTE} x its size on disk))"
        )

    def frames_that_fit(self) -> int:
        """The most frames of the same bones within the bound."""
        return self.bound // max(1, self.need // max(1, self.frames))


def check_built(product: str, frames: int, bones: int, bytes_each: int, file_size: int, unit: str = "bone") -> None:
    """The rule for what is built from a decode (world transforms on a rig, a GLB's keys,
    Blender's keys): ``frames x bones x bytes_each`` at most :func:`memory_bound` of the
    file's size on disk, checked before anything is built; else :class:`BuildTooLarge`."""
    need = int(frames) * int(bones) * int(bytes_each)
    bound = memory_bound(file_size)
    if need > bound:
        raise BuildTooLarge(product, int(frames), int(bones), need, bound, int(file_size), unit)


class SampleInputError(ParseError, ValueError):
    """A per-frame input the decoder refuses: a :class:`ParseError` (file, byte, field) whose
    reason starts with the finding code, and a ValueError for callers of :func:`sample_inputs`."""


@dataclass(frozen=True)
class SampleProblem:
    """One way the per-frame data contradicts itself: a finding for the validator, a refusal
    for the decoder. ``field`` and ``at`` (a byte inside section ``tag``'s payload, or None)
    locate it for a :class:`ParseError`."""

    code: str
    severity: str
    """"error" or "warning"."""
    message: str
    field: str = "built"
    tag: int | None = TAG_BUILT
    at: int | None = None
    per_frame: bool = True
    """A rule of the per-frame layout (Luna's, public for Spider-Man 2 only: a hypothesis for the
    earlier games, :data:`HYPOTHESIS`, where the validator reports it as INFO and the decoder's
    refusal says so); False for the Built fields ALERT labels for every game (joint count, fps,
    duration), which hold for all."""

    def __iter__(self) -> Any:  # (code, severity, message), as the validator unpacks it
        return iter((self.code, self.severity, self.message))


@dataclass
class SampleInputs:
    """Everything a per-frame decoder needs from a model, checked against each other
    (ksy/animclip.ksy ``sample_elem``, ``sample_data``, ``base_state``; Luna Engine IO Tools
    anim_import.py). Arrays are views into the model where possible (no copies)."""

    flags: int
    """Built ``flags`` (looping 0x20, camera 0x10, frame lookup 0x10000, motion 0x800000)."""
    num_frames: int
    """Frames of the Sample Data block decoded (:func:`sample_block`)."""
    stride: int
    """Bytes per sample (Built ``stride``), a multiple of 4."""
    base: np.ndarray
    """(J, 12) int64: each joint's base integers, components 0-3 scale x, y, z and divisor
    (all 2^log_scale), 4-7 qx, qy, qz, qw, 8-10 x, y, z, 11 log_scale2 (Base State)."""
    joint: np.ndarray
    component: np.ndarray
    width: np.ndarray
    shift: np.ndarray
    """Per element, small ones then large ones (the order of the fields in each sample):
    target joint, component 0..11, bit width, left shift (int64, Sample Elem)."""
    lookup: np.ndarray | None
    """u16 frame -> stored sample (``num_frames`` entries, +1 when looping), or None without
    the frame-lookup flag (frame f plays sample f)."""
    samples: np.ndarray
    """(stored samples, stride) uint8: the sample records after the lookup table."""
    section_tag: int | None
    """The Sample Data section the samples come from (None: no samples)."""
    fps: float = 30.0
    """Built's fps for the block (Spider-Man 2's resident fps for the Resident block)."""
    duration: float = 0.0
    num_elems: int = 0
    """Small elements (the rest of ``width`` are large ones)."""
    num_unique_samples: int = 0


def sample_block(model: AnimclipFile) -> tuple[RawSection | None, int, float]:
    """The section holding the samples, the frames it plays and their fps (Luna
    anim_import.py): Spider-Man 2's Paged block when Built counts paged samples (``num_frames``
    at ``fps``), else Resident, else the one Sample Data section of Remastered-era files (the
    resident count and fps when Built sets them, else ``num_frames`` at ``fps``). Only for a
    model with Built: its callers refuse one without it, or report nothing of it, before."""
    built = model.built
    assert built is not None, "a clip without Built has no sample block"
    paged = model.section(TAG_SAMPLE_DATA_PAGED)
    if isinstance(paged, RawSection) and built.num_frames:
        return paged, int(built.num_frames), float(built.fps)
    for tag in (TAG_SAMPLE_DATA_RESIDENT, TAG_SAMPLE_DATA):
        s = model.section(tag)
        if isinstance(s, RawSection):
            break
    else:
        s = None
    if built.num_resident_samples:
        fps = built.resident_fps if built.resident_fps > 0 else built.fps
        return s, int(built.num_resident_samples), float(fps)
    return s, int(built.num_frames), float(built.fps)


def sample_data_section(model: AnimclipFile) -> RawSection | None:
    """The section holding the samples (:func:`sample_block`)."""
    return sample_block(model)[0]


def _base_components(joints: np.ndarray) -> np.ndarray:
    base = np.zeros((len(joints), COMPONENTS_PER_JOINT), np.int64)
    scale = np.left_shift(np.int64(1), np.minimum(joints["log_scale"].astype(np.int64), MAX_LOG_SCALE))
    base[:, 0:4] = scale[:, None]
    for k, name in enumerate(("qx", "qy", "qz", "qw", "x", "y", "z", "log_scale2")):
        base[:, 4 + k] = joints[name]
    return base


def _element_field(elem: SampleElem, e: int, what: str) -> tuple[str, int, int]:
    """Field name, section (Sample Elem) and payload byte of element ``e``'s offset or code
    (a :class:`SampleProblem`'s place), from the model's counts and padding at the section's
    sizes (docs/animclip.md 7.9: u32 offsets and u8 codes, the padding, u32 offsets and u16
    codes), not the sizes of the arrays a model edited in memory holds."""
    n = len(elem.offsets)
    if e < n:
        at = 4 * e if what == "offset" else 4 * n + e
        return f"sample_elem.small[{e}].{what}", TAG_SAMPLE_ELEM, at
    k = e - n
    large_at = SAMPLE_ELEM_SIZE * n + len(elem.padding)
    at = large_at + (4 * k if what == "offset" else 4 * len(elem.large_offsets) + 2 * k)
    return f"sample_elem.large[{k}].{what}", TAG_SAMPLE_ELEM, at


def sample_problems(model: AnimclipFile) -> list[SampleProblem]:
    """Every way the per-frame data contradicts itself (:class:`SampleProblem`, which unpacks
    as (finding code, severity, message)): the validator reports them, :func:`sample_inputs`
    refuses on the first error. Codes (docs/animclip.md, invariants): sample-stride,
    sample-bits-over-stride, sample-elem-joint, frame-lookup-size, frame-lookup-range,
    sample-data-size, sample-count-mismatch, decode-size, joint-count, clip-timing,
    sample-elem-past-end, sample-elem-width, sample-elem-offset, sample-log-scale."""
    return _decode_problems(model)[0]


Columns = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""(joint, component, width, shift) of every element (:meth:`.SampleElem.elements`)."""


def _columns(model: AnimclipFile) -> Columns:
    elem = model.section(TAG_SAMPLE_ELEM)
    return elem.elements() if isinstance(elem, SampleElem) else SampleElem().elements()


def _decode_problems(model: AnimclipFile, columns: Columns | None = None) -> tuple[list[SampleProblem], Any]:
    """Every problem in the order the decoder meets them (Built's joint count first), and what
    :func:`_sample_problems` found of the frame lookup: the one list both the validator and
    :func:`sample_inputs` read, so that neither has a check the other lacks."""
    columns = _columns(model) if columns is None else columns
    problems, found = _sample_problems(model, columns)
    refusals = _decode_refusals(model, columns)
    timing = timing_problems(model.built) if model.built is not None else []
    return refusals[:1] + timing + problems + refusals[1:], found


def timing_problems(built: Built) -> list[SampleProblem]:
    """Built's fps, duration and (when it counts resident samples) resident fps against what can
    be played (:data:`PLAYABLE_FPS`, a duration of 0 or more seconds): ``clip-timing``."""
    low, high = PLAYABLE_FPS
    out = []

    def playable(fps: float) -> bool:
        return math.isfinite(fps) and low <= fps <= high

    for name, fps in (("fps", built.fps), ("resident_fps", built.resident_fps if built.num_resident_samples else 0)):
        if (name == "fps" or fps != 0) and not playable(fps):
            what = "fps" if name == "fps" else "the resident samples' fps (0: Built's fps)"
            out.append(
                SampleProblem(
                    "clip-timing",
                    "error",
                    f"{what} is {fps:g}; a clip is played at {low:g} to {high:g} frames per second",
                    f"built.{name}",
                    TAG_BUILT,
                    BUILT_FIELD_OFFSETS[name],
                    per_frame=False,
                )
            )
    if not (math.isfinite(built.duration) and built.duration >= 0):
        out.append(
            SampleProblem(
                "clip-timing",
                "error",
                f"duration is {built.duration:g}; it must be a number of seconds, 0 or more",
                "built.duration",
                TAG_BUILT,
                BUILT_FIELD_OFFSETS["duration"],
                per_frame=False,
            )
        )
    return out


def _field_offset(dtype: np.dtype, name: str) -> int:
    """The byte offset of field ``name`` in the structured ``dtype``."""
    fields = dtype.fields
    assert fields is not None  # the motion dtypes are structured
    return fields[name][1]


def motion_problems(payload: bytes | memoryview) -> list[SampleProblem]:
    """Motion Data's header against its payload (Luna Engine IO Tools motion.py): the header
    and the samples it declares inside the payload (``motion-data-size``), a finite initial
    transform (``motion-not-finite``: a camera's path starts from it), translation exponents
    in :data:`MOTION_LOG_SCALE_RANGE` (``motion-log-scale``, a warning: clamped). ``at`` is a
    byte of the payload. The validator reports them; the decoder refuses the errors."""
    data = memoryview(payload).cast("B")
    if len(data) < MOTION_HEADER_SIZE:
        return [
            SampleProblem(
                "motion-data-size",
                "error",
                f"{len(data)} bytes; the motion header alone is {MOTION_HEADER_SIZE}",
                "motion_data",
                TAG_MOTION_DATA,
                len(data),
            )
        ]
    header = np.frombuffer(data, MOTION_HEADER_DTYPE, 1)[0]
    kind, count, ofs = int(header["motion_type"]), int(header["num_samples"]), int(header["ofs_samples"])
    per = MOTION_SAMPLE_SIZES.get(kind)
    if per is None:
        return [
            SampleProblem(
                "motion-data-size",
                "warning",
                f"motion type {kind} is neither standard (0) nor full (1)",
                "motion_data.motion_type",
                TAG_MOTION_DATA,
                0,
            )
        ]
    out = []
    for name, what in (("initial_rot_0", "rotation"), ("initial_trans_0", "translation")):
        values = header[name]
        if not np.isfinite(values).all():
            out.append(
                SampleProblem(
                    "motion-not-finite",
                    "error",
                    f"the initial {what} is {[float(v) for v in values]}: not finite",
                    f"motion_data.{name}",
                    TAG_MOTION_DATA,
                    _field_offset(MOTION_HEADER_DTYPE, name),
                )
            )
    start = MOTION_HEADER_SIZE + ofs
    end = start + per * count
    if end > len(data):
        out.append(
            SampleProblem(
                "motion-data-size",
                "error",
                f"{count} samples of {per} bytes at header end + {ofs} run to {end}; the section has {len(data)}",
                "motion_data.num_samples",
                TAG_MOTION_DATA,
                0x02,
            )
        )
    elif kind == 0 and count and not int(header["flags"]) & MOTION_FLAG_SECONDARY:
        log_scale = np.frombuffer(data, MOTION_SAMPLE_DTYPE, count, start)["log_scale"]
        low, high = MOTION_LOG_SCALE_RANGE
        bad = np.flatnonzero((log_scale < low) | (log_scale > high))
        if bad.size:
            k = int(bad[0])
            out.append(
                SampleProblem(
                    "motion-log-scale",
                    "warning",
                    f"{bad.size} sample(s) have a translation exponent outside "
                    f"{low}..{high}, read as clamped into it (sample {k}: {int(log_scale[k])})",
                    f"motion_data.samples[{k}].log_scale",
                    TAG_MOTION_DATA,
                    start + MOTION_SAMPLE_DTYPE.itemsize * k + _field_offset(MOTION_SAMPLE_DTYPE, "log_scale"),
                )
            )
    return out


def motion_undecoded(payload: bytes | memoryview) -> str:
    """Why Motion Data's samples are not decoded ("" when they are: standard samples, the
    motion flag, at least one): samples of type 1 or a secondary stream are not publicly
    described. The decoder (:func:`.motion.decode_motion`) and the camera check ask it."""
    data = memoryview(payload).cast("B")
    if len(data) < MOTION_HEADER_SIZE:
        return "the Motion Data header is cut short"
    header = np.frombuffer(data, MOTION_HEADER_DTYPE, 1)[0]
    kind, flags, count = int(header["motion_type"]), int(header["flags"]), int(header["num_samples"])
    if kind != 0:
        return f'motion samples of type {kind} (32-byte "full" samples) are not publicly described'
    if flags & MOTION_FLAG_SECONDARY:
        return "a secondary motion stream is not publicly described"
    if not flags & MOTION_FLAG_HAS_MOTION or count == 0:
        return "no motion samples"
    return ""


def camera_problems(model: AnimclipFile) -> list[SampleProblem]:
    """A camera clip (Built flag 0x10) is a path in Motion Data: without samples the decoder
    reads, ``convert`` has no camera to write (``camera-no-path``; ``play`` shows its joints)."""
    built = model.built
    if built is None or not built.flags & FLAG_CAMERA:
        return []
    motion = model.section(TAG_MOTION_DATA)
    why = motion_undecoded(motion.data) if isinstance(motion, RawSection) else "the clip has no Motion Data"
    if not why:
        return []
    return [
        SampleProblem(
            "camera-no-path",
            "error",
            f"a camera clip (flag 0x10) without a path convert can write: {why}",
            "built.flags",
            TAG_BUILT,
            0x08,
        )
    ]


def _sample_problems(model: AnimclipFile, columns: Columns) -> tuple[list[SampleProblem], Any]:
    out: list[SampleProblem] = []
    built = model.built
    if built is None:
        return out, None  # (the validator reports the missing section)
    elem = model.section(TAG_SAMPLE_ELEM)
    data, frames, _fps = sample_block(model)
    base = model.section(TAG_BASE_STATE)
    stride = int(built.stride)
    joint, component, width, shift = columns
    bits = int(width.sum())
    num_joints = len(base.joints) if isinstance(base, BaseState) else 0
    outside = np.flatnonzero(joint >= num_joints)
    if outside.size and isinstance(elem, SampleElem):
        e = int(outside[0])
        out.append(
            SampleProblem(
                "sample-elem-joint",
                "error",
                f"{outside.size} element(s) target a joint past the {num_joints} Base State records "
                f"(element {e}: component offset "
                f"{int(component[e] + COMPONENTS_PER_JOINT * joint[e]) * COMPONENT_BYTES} is joint {int(joint[e])})",
                *_element_field(elem, e, "offset"),
            )
        )
    limit = memory_bound(file_size_on_disk(model))
    lookup_on = built.has_frame_lookup
    # The clip's frames (Built's full count) or the block's, whichever is more: a bound on
    # what any reader of the clip decodes.
    played = max(frames, int(built.num_frames))
    decoded = (built.num_unique_samples if lookup_on else played) + (played if lookup_on else 0)
    need = DECODE_BYTES_PER_JOINT * num_joints * decoded
    if need > limit:
        out.append(
            SampleProblem(
                "decode-size",
                "error",
                f"{played} frame(s) of {num_joints} joint(s) would take {need >> 20} MiB to decode; the bound "
                f"for this file is {limit >> 20} MiB (max(256 MiB, {DECODE_PER_FILE_BYTE} x its size on disk))",
            )
        )
    if data is None:
        return out, None  # no samples: the stride describes nothing
    if stride % 4:
        out.append(
            SampleProblem(
                "sample-stride", "error", f"stride {stride} is not a whole number of u32 words", "built.stride"
            )
        )
    if bits > 8 * stride:
        out.append(
            SampleProblem(
                "sample-bits-over-stride",
                "error",
                f"the {len(width)} elements need {bits} bits per sample; the stride holds {8 * stride}",
                "built.stride",
            )
        )
    payload = memoryview(data.data)
    lookup = None
    start = 0
    if lookup_on:
        n = frames + (1 if built.is_looping else 0)
        declared = max(n, built.num_lookup_entries)
        if 2 * declared > len(payload):
            out.append(
                SampleProblem(
                    "frame-lookup-size",
                    "error",
                    f"the frame lookup needs {2 * declared} bytes ({declared} entries); {section_name(data.tag)} holds "
                    f"{len(payload)}",
                    "sample_data.frame_lookup",
                    data.tag,
                    len(payload),
                )
            )
            return out, None
        lookup = np.frombuffer(payload, "<u2", n)
        start = min(lookup_bytes(n), len(payload))
    stored = (len(payload) - start) // stride if stride > 0 else 0
    if lookup is not None and lookup.size and int(lookup.max()) >= stored:
        bad = int(np.argmax(lookup >= stored))
        out.append(
            SampleProblem(
                "frame-lookup-range",
                "error",
                f"frame {bad} shows sample {int(lookup[bad])}; {section_name(data.tag)} stores {stored} sample(s) of "
                f"{stride} bytes after byte {start}",
                "sample_data.frame_lookup",
                data.tag,
                2 * bad,
            )
        )
    needed = (built.num_unique_samples if lookup is not None else frames) if len(width) else 0
    if stride and needed > stored:
        out.append(
            SampleProblem(
                "sample-data-size",
                "error",
                f"{needed} samples of {stride} bytes are needed; {section_name(data.tag)} stores {stored} sample(s)",
                "sample_data",
                data.tag,
                len(payload),
            )
        )
    elif len(width) and lookup is not None and built.num_unique_samples != stored:
        out.append(
            SampleProblem(
                "sample-count-mismatch",
                "warning",
                f"Built counts {built.num_unique_samples} unique samples; {section_name(data.tag)} stores {stored}",
                "built.num_unique_samples",
            )
        )
    return out, (lookup, start, stored)


def _decode_refusals(model: AnimclipFile, columns: Columns) -> list[SampleProblem]:
    """What the decoder refuses beyond the findings: Built's counts disagreeing with the
    sections they count (each would be read differently by the game and by the model), and
    fields it cannot add exactly."""
    out: list[SampleProblem] = []
    built = model.built
    base = model.section(TAG_BASE_STATE)
    elem = model.section(TAG_SAMPLE_ELEM)
    records = len(base.joints) if isinstance(base, BaseState) else 0
    if built is not None and built.num_joints is not None and built.num_joints != records:
        out.append(
            SampleProblem(
                "joint-count",
                "error",
                f"Built names {built.num_joints} joint(s); Base State holds {records} record(s)",
                "base_state",
                TAG_BASE_STATE,
                0,
                per_frame=False,
            )
        )
    if not isinstance(elem, SampleElem) or built is None:
        return out
    n, m = len(elem.offsets), len(elem.large_offsets)
    small = n if built.num_elems is None else int(built.num_elems)
    large = m if built.num_large_elems is None else int(built.num_large_elems)
    # Built's counts past the payload: the model reads it as ALERT does (spec 11.17), which
    # is not what Built says is there.
    if sample_elem_split(payload_size(elem), (small, large)) != (small, -small % 4, large):
        need = SAMPLE_ELEM_SIZE * small + (-small % 4) + LARGE_ELEM_SIZE * large
        out.append(
            SampleProblem(
                "sample-elem-past-end",
                "error",
                f"Built declares {small} element(s) and {large} large one(s), which take {need} bytes; the section "
                f"holds {payload_size(elem)}",
                "sample_elem",
                TAG_SAMPLE_ELEM,
                payload_size(elem),
            )
        )
        return out
    joint, component, width, shift = columns
    offsets = np.concatenate([np.asarray(elem.offsets, np.int64), np.asarray(elem.large_offsets, np.int64)])
    # (without samples the offsets address nothing: the clip is its base pose)
    odd = np.flatnonzero(offsets % COMPONENT_BYTES) if sample_data_section(model) is not None else offsets[:0]
    if odd.size:
        e = int(odd[0])
        out.append(
            SampleProblem(
                "sample-elem-offset",
                "error",
                f"{odd.size} element offset(s) are not a multiple of {COMPONENT_BYTES} "
                f"(element {e}: 0x{int(offsets[e]):x}): "
                "an offset names a 4-byte component",
                *_element_field(elem, e, "offset"),
            )
        )
    if isinstance(base, BaseState) and len(base.joints):
        moved = joint[(component < 4) & (joint < len(base.joints))]
        big = np.flatnonzero(base.joints["log_scale"][moved] > MAX_LOG_SCALE) if moved.size else moved
        if big.size:
            j = int(moved[big[0]])
            out.append(
                SampleProblem(
                    "sample-log-scale",
                    "warning",
                    f"joint {j}'s scale is animated from 2^{int(base.joints['log_scale'][j])} (Base State log_scale); "
                    f"it is decoded as 2^{MAX_LOG_SCALE}",
                    f"base_state.joints[{j}].log_scale",
                    TAG_BASE_STATE,
                    16 * j + 0xE,
                )
            )
    bad = np.flatnonzero((width > MAX_FIELD_BITS) | (width + shift > MAX_DELTA_BITS))
    if bad.size:
        e = int(bad[0])
        out.append(
            SampleProblem(
                "sample-elem-width",
                "error",
                f"a {int(width[e])}-bit field shifted left by {int(shift[e])}: fields up to {MAX_FIELD_BITS} bits "
                f"and width + shift up to {MAX_DELTA_BITS} are decoded",
                *_element_field(elem, e, "code"),
            )
        )
    return out


HYPOTHESIS = (
    "Spider-Man 2's per-frame layout, a hypothesis for this game: no public source describes its "
    "Sample Elem, Sample Data or Built's per-frame fields"
)
"""What the validator's per-frame findings and the decoder's per-frame refusals add on a file
of an earlier game (Spider-Man Remastered, Miles Morales, Rift Apart): the layout is Luna's
(Pcniado/luna_engine_io_tools anim_import.py / anim_export.py), written for Spider-Man 2; Luna
has no handler for those games' Sample Data, and no other public source describes it."""


def layout_is_hypothesis(model: AnimclipFile) -> bool:
    """Whether the per-frame layout is only a hypothesis for ``model``'s game (every game but
    Spider-Man 2)."""
    return not model.is_msm2


def _refuse(model: AnimclipFile, problem: SampleProblem, path: str | None) -> SampleInputError:
    section = model.section(problem.tag) if problem.tag is not None else None
    at, within = None, problem.at
    if within is None and problem.tag == TAG_BUILT and problem.field.startswith("built."):
        within = BUILT_FIELD_OFFSETS.get(problem.field.removeprefix("built."))  # (a field of Built: its byte)
    if section is not None and section.offset is not None and within is not None:
        at = dat1_file_offset(model, section.offset + within)
    name = section_name(problem.tag) if problem.tag is not None else "Anim Clip Built"
    hypothesis = f" ({HYPOTHESIS})" if problem.per_frame and layout_is_hypothesis(model) else ""
    return SampleInputError(path, at, problem.field, f"{problem.code}: {problem.message} ({name}){hypothesis}")


def dat1_file_offset(model: AnimclipFile, dat1_offset: int | None) -> int | None:
    """The file byte of a DAT1 offset when the DAT1 is stored plain (a compressed body has no
    file byte for it: None)."""
    layout = model.layout
    if dat1_offset is None or layout is None or layout.compression is not None:
        return None
    start = {CONTAINER_ASSET: OUTER_HEADER.size, CONTAINER_STG: len(model.header_unk), CONTAINER_DAT1: 0}
    return start[model.container] + dat1_offset if model.container in start else None


def sample_inputs(model: AnimclipFile, path: str | None = None) -> SampleInputs:
    """The decoder's inputs (:class:`SampleInputs`), or :class:`SampleInputError` (a ParseError
    naming ``path``, the byte and the field, and a ValueError) for the first problem that makes
    the samples undecodable. Nothing large is allocated before the checks."""
    built = model.built
    if built is None:
        raise SampleInputError(
            path, None, "built", "the clip has no Anim Clip Built section: nothing says how its samples are coded"
        )
    columns = _columns(model)
    problems, found = _decode_problems(model, columns)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise _refuse(model, errors[0], path)
    elem = model.section(TAG_SAMPLE_ELEM)
    base = model.section(TAG_BASE_STATE)
    joints = base.joints if isinstance(base, BaseState) else np.zeros(0, JOINT_DTYPE)
    if isinstance(elem, SampleElem):
        joint, component, width, shift = columns
        num_elems = len(elem.offsets)
    else:
        joint = component = width = shift = np.zeros(0, np.int64)
        num_elems = 0
    data, frames, fps = sample_block(model)
    stride = int(built.stride)
    lookup = None
    samples = np.zeros((0, stride), np.uint8)
    if found is not None and data is not None:
        lookup, start, stored = found
        samples = np.frombuffer(memoryview(data.data), np.uint8, stored * stride, start).reshape(stored, stride)
    return SampleInputs(
        flags=int(built.flags),
        num_frames=frames,
        stride=stride,
        base=_base_components(joints),
        joint=joint,
        component=component,
        width=width,
        shift=shift,
        lookup=lookup,
        samples=samples,
        section_tag=None if data is None else data.tag,
        fps=fps,
        duration=float(built.duration),
        num_elems=num_elems,
        num_unique_samples=int(built.num_unique_samples),
    )
