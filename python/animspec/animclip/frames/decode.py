"""Every frame of an .animclip: Sample Elem and Sample Data decoded over Base State.

What is public (Pcniado/luna_engine_io_tools, GPL-3.0, read for facts only: ``anim_import.py``
for the sample coding, ``binary.py`` for the bit order, ``constants.py`` / ``flags.py`` for
Built and the flag bits), restated; the shared facts (components, codes, bit order,
dequantisation) are written once in :mod:`.coding`:

* A joint has 12 integer **components** (:data:`.coding.COMPONENTS_PER_JOINT`). Base State
  gives their base values: each scale component and the divisor are ``2 ** log_scale``
  (record byte +0xE), the quaternion and translation its i16 fields, the shift its byte +0xF.
* **Sample Elem** lists the components that move: ``elements`` u32 byte offsets (offset / 4 =
  ``joint * 12 + component``) then ``elements`` u8 codes, then from the next 4-byte boundary
  ``large_elements`` u32 offsets and u16 codes (:func:`.coding.unpack_codes`). Element ``e``'s
  field starts at the sum of the widths before it, small elements first.
* **Sample Data** holds ``stride`` bytes per sample, little-endian u32 words whose fields are
  packed from the least significant bit up (a field may straddle two words). A sample's pose
  is the base plus, per element, ``field << shift`` added to its component. With the frame
  lookup flag the block starts with one u16 sample index per frame (one more for a looping
  clip), and the samples start at the next 16-byte boundary; without it frame ``f`` is sample
  ``f``.
* De-quantisation: :func:`.coding.dequantise`.
* Root motion (Motion Data): :mod:`.motion`.

The bytes are read once, by the model (ksy/animclip.ksy through :mod:`.adapt`): this module
takes its inputs from :func:`.inputs.sample_inputs` (Built's fields, Sample Elem's columns, Base
State's records, the frame lookup and the samples as a view into the Sample Data payload) and
keeps only the arithmetic. Where Luna's importer is silent or lenient, ``sample_inputs``
refuses with a :class:`ParseError` naming the file, byte and field, from the list the validator
reports (:func:`.inputs.sample_problems`): an element whose joint is past the joints, a
component offset that is not a multiple of 4, an fps outside :data:`.inputs.PLAYABLE_FPS`
(Luna falls back to frames / duration), a field wider than 32 bits or whose ``width + shift`` passes
:data:`.coding.MAX_DELTA_BITS` (a value no float64 holds exactly), element bit ranges past the
stride, a lookup entry naming a sample the block does not hold, and any decode whose results
would pass the memory bound :func:`.inputs.memory_bound` (``max(256 MiB, 64 x the file's
size on disk)``): a Built count cannot make a small file allocate gigabytes.

Everything is vectorised over samples and components, component-major: a chunk of samples is
read as one row per component computed (its field's bits, from the u32 at the field's first
byte, masked in place and scaled by a power of two), the components are summed with their
base, and each kind of transform is dequantised straight into the float32 results; no Python
loop runs per frame or per sample.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...common.errors import AnimspecError, ParseError
from ..model import AnimclipFile, JointHashes, RawSection
from ..tags import (
    FLAG_CAMERA,
    FLAG_FRAME_DATA_LOOKUP as FLAG_FRAME_LOOKUP,
    FLAG_LOOPING,
    TAG_JOINT_HASHES,
    TAG_MOTION_DATA,
)
from .coding import (
    KIND_FIRST,
    FieldReader,
    bit_offsets,
    dequantise,
    dequantise_rotation,
    dequantise_scale,
    dequantise_translation,
)
from .inputs import (
    DECODE_BYTES_PER_JOINT as RESULT_BYTES_PER_JOINT,
    DECODE_PER_FILE_BYTE as MEMORY_PER_FILE_BYTE,
    HYPOTHESIS,
    SampleInputs,
    dat1_file_offset,
    file_size_on_disk,
    layout_is_hypothesis,
    memory_bound,
    sample_inputs,
)
from .motion import RootMotion, decode_motion


@dataclass(frozen=True)
class SampleCoding:
    """What Built says about the samples of the block decoded (:func:`.inputs.sample_block`)."""

    flags: int
    fps: float
    duration: float
    joints: int
    elements: int
    large_elements: int
    stride: int
    frames: int
    """Frames of the clip: the sample count of the Sample Data block decoded."""
    unique_samples: int

    @property
    def looping(self) -> bool:
        return bool(self.flags & FLAG_LOOPING)

    @property
    def camera(self) -> bool:
        return bool(self.flags & FLAG_CAMERA)

    @property
    def frame_lookup(self) -> bool:
        return bool(self.flags & FLAG_FRAME_LOOKUP)


def sample_coding(inputs: SampleInputs) -> SampleCoding:
    """The coding of ``inputs`` (Built's fields as the model names them)."""
    return SampleCoding(inputs.flags, inputs.fps, inputs.duration, len(inputs.base), inputs.num_elems,
                        int(inputs.width.size) - inputs.num_elems, inputs.stride, inputs.num_frames,
                        inputs.num_unique_samples)


# ---------------------------------------------------------------------------- Sample Elem


@dataclass(frozen=True)
class Elements:
    """One row per element, small ones first: what each field of a sample adds, and where."""

    joint: np.ndarray
    component: np.ndarray
    width: np.ndarray
    shift: np.ndarray
    bit_offset: np.ndarray
    """First bit of the element's field in its sample."""

    @property
    def count(self) -> int:
        return int(self.width.size)

    @property
    def bits(self) -> int:
        return int(self.width.sum())


def elements_of(inputs: SampleInputs) -> Elements:
    """The elements of ``inputs`` with the first bit of each one's field (the sum of the widths
    before it: fields are packed back to back, small elements first)."""
    width = np.asarray(inputs.width, np.int64)
    return Elements(np.asarray(inputs.joint, np.int64), np.asarray(inputs.component, np.int64), width,
                    np.asarray(inputs.shift, np.int64), bit_offsets(width))


# ---------------------------------------------------------------------------- Sample Data


@dataclass
class Transforms:
    """Local transforms, one row per sample (or per frame)."""

    scale: np.ndarray
    """(n, joints, 3)"""
    rotation: np.ndarray
    """(n, joints, 4) unit quaternions x, y, z, w"""
    translation: np.ndarray
    """(n, joints, 3)"""

    def take(self, index: np.ndarray) -> Transforms:
        return Transforms(self.scale[index], self.rotation[index], self.translation[index])


def dequantised(components: np.ndarray) -> Transforms:
    """The transforms of (..., 12) component values (:func:`.coding.dequantise`)."""
    return Transforms(*dequantise(components))


@dataclass(frozen=True)
class _Kind:
    """One kind of transform (scale, rotation or translation: four components each) as the
    decoder computes it: over the joints from the first to the last that it moves, the still
    ones among them from their base (their rows cost no field reading, only the
    dequantisation), so that the results are written straight into place. Copying the moving
    joints' results into place instead cost more (CPU time, best of interleaved runs):
    bench/decode.py's clip at 2 MB, 68 % of the range rotating, 1.4x; CMU 01_01, 27 of 31
    joints rotating, 1.2x."""

    first_component: int
    joints: slice
    """The joints computed (empty: every sample shows the base pose)."""
    rows: slice
    """Its rows among a chunk's component values: component-major, row ``c * joints + j``."""

    @property
    def count(self) -> int:
        return self.joints.stop - self.joints.start


def _kinds(elements: Elements, joints: int) -> tuple[list[_Kind], np.ndarray]:
    """The three kinds (:class:`_Kind`) and the row of each element's component."""
    kind_of = np.searchsorted(KIND_FIRST, elements.component, side="right") - 1
    moves = np.zeros((len(KIND_FIRST), joints), bool)
    moves[kind_of, elements.joint] = True
    first_row = np.zeros(len(KIND_FIRST), np.int64)  # of the kind's first joint's component 0
    computed = np.zeros(len(KIND_FIRST), np.int64)
    kinds, row = [], 0
    for k, first in enumerate(KIND_FIRST):
        moving = np.flatnonzero(moves[k])
        span = slice(int(moving[0]), int(moving[-1]) + 1) if moving.size else slice(0, 0)
        kinds.append(_Kind(first, span, slice(row, row + 4 * (span.stop - span.start))))
        first_row[k], computed[k] = row - span.start, span.stop - span.start
        row += 4 * computed[k]
    first_of = np.asarray(KIND_FIRST)[kind_of]
    return kinds, first_row[kind_of] + elements.joint + (elements.component - first_of) * computed[kind_of]


def _dequantise_kind(first: int, values: np.ndarray, out: np.ndarray, work: np.ndarray) -> None:
    """The transforms of one kind from (4, joints, samples) float64 component values into
    ``out`` (3 or 4, joints, samples), float32: :mod:`.coding`'s dequantisation (``work``:
    float64 room for a rotation's norms, two (joints, samples) arrays)."""
    if first == KIND_FIRST[0]:
        dequantise_scale(values[0:3], values[3:4], out=out)
    elif first == KIND_FIRST[1]:
        norms = work[: 2 * values[0].size].reshape(2, *values.shape[1:])
        dequantise_rotation(values, axis=0, out=out, work=norms)
    else:
        dequantise_translation(values[0:3], values[3:4], out=out)


class _ChunkDecoder:
    """Decodes chunks of samples into the results, component-major: one row per component
    computed (:class:`_Kind`), so that every step runs over whole rows of samples and the
    dequantisation writes each kind's float32 results straight into place.

    The rows of components no element moves hold their base, written once; a chunk computes
    only the moved ones (:class:`.coding.FieldReader`: one part per element, and a second
    for a field straddling two windows), sums the parts that land on one component in element
    order (Luna's reader adds every element), adds the base and puts them in their rows."""

    def __init__(self, elements: Elements, base: np.ndarray, stride: int) -> None:
        self.joints = base.shape[0]
        self.kinds, row = _kinds(elements, self.joints)
        self.base = np.concatenate([base[k.joints, k.first_component : k.first_component + 4].T.reshape(-1)
                                    for k in self.kinds])[:, None]
        by_row = np.argsort(row, kind="stable")  # each component's elements in element order
        lead = np.ones(by_row.size, bool)
        lead[1:] = np.diff(row[by_row]) != 0
        self.moved = row[by_row[lead]]
        """The rows a chunk computes, one per moved component."""
        self.moved_base = self.base[self.moved]
        element = np.concatenate([by_row[lead], by_row[~lead]])  # one element per moved row first
        self.fields = FieldReader(elements.bit_offset[element], elements.width[element], stride)
        part_element = element[self.fields.element]
        # a part's bits at their place in its window, times 2 ** (shift + bits below - offset):
        # the part shifted into place, exact (width + shift <= MAX_DELTA_BITS)
        exponent = elements.shift[part_element] + self.fields.below - self.fields.offset
        self.scale = np.ldexp(1.0, exponent.astype(np.int32))[:, None]
        self.sums: tuple[np.ndarray, np.ndarray] | None = None
        if part_element.size > self.moved.size:
            into = row[part_element]
            order = np.lexsort((self.fields.below > 0, part_element, into))  # element order, low part first
            self.sums = order, np.searchsorted(into[order], self.moved)
        self.in_place = None
        """The moved rows as a slice when they are a range and one part each: computed in place."""
        if self.sums is None and self.moved.size and self.moved[-1] + 1 - self.moved[0] == self.moved.size:
            self.in_place = slice(int(self.moved[0]), int(self.moved[-1]) + 1)

    def working_values(self) -> int:
        """Float64 values of working memory per sample: the parts (uint32) and their values
        (float64), their sums when some component has several, every component row, the most
        one kind's dequantisation holds beside them (a rotation's two rows of norms per joint
        computed; up to three for a translation's clamped shifts or a scale's divisors), and the
        aligned copy numpy's ``take`` makes of the windows the parts are read from (a uint32 at
        every byte of the sample up to the last window read: unaligned, so copied whole; on a
        clip of 16-bit fields that copy is a third of the working memory)."""
        parts = self.fields.element.size
        sums = parts + self.moved.size if self.sums is not None else 0
        scale, rotation, translation = (kind.count for kind in self.kinds)
        windows = self.fields.windows // 2
        return windows + parts // 2 + parts + sums + self.base.size + max(2 * rotation, 3 * max(scale, translation))

    def allocate(self, samples: int) -> None:
        """The working buffers for chunks of up to ``samples`` samples, reused by every chunk
        (allocated once, they are touched once); the component rows start at their base."""
        parts = self.fields.element.size
        self.buffers = (np.empty(parts * samples, np.uint32), np.empty(parts * samples, np.float64),
                        np.empty(2 * self.kinds[1].count * samples, np.float64))
        self.values = np.empty((self.base.size, samples), np.float64)
        self.values[:] = self.base

    def fill_still(self, out: Transforms, still: Transforms) -> None:
        """The base pose of the joints outside each kind's range, in every sample of ``out``."""
        for kind, target, pose in zip(self.kinds, (out.scale, out.rotation, out.translation),
                                      (still.scale, still.rotation, still.translation)):
            outside = (slice(0, kind.joints.start), slice(kind.joints.stop, None)) if kind.count else (slice(None),)
            for joints in outside:
                target[:, joints] = pose[:, joints]

    def __call__(self, out: Transforms, rows: slice, samples: np.ndarray) -> None:
        n = samples.shape[0]
        field_buffer, part_buffer, work = self.buffers
        parts = self.fields.element.size
        positioned = self.fields.positioned(samples, field_buffer[: parts * n].reshape(parts, n))
        values = self.values[:, :n]
        in_place = self.in_place is not None
        computed = values[self.in_place] if in_place else part_buffer[: parts * n].reshape(parts, n)
        if self.fields.below_31:  # numpy converts int32 to float64 faster than uint32, then multiplies
            np.copyto(computed, positioned.view(np.int32))
            computed *= self.scale
        else:
            np.multiply(positioned, self.scale, out=computed)
        if self.sums is not None:
            order, starts = self.sums
            computed = np.add.reduceat(computed[order], starts, axis=0)
        computed += self.moved_base
        if not in_place:
            values[self.moved] = computed
        for kind, target in zip(self.kinds, (out.scale, out.rotation, out.translation)):
            m = kind.count
            if m:
                _dequantise_kind(kind.first_component, values[kind.rows].reshape(4, m, n),
                                 target[rows, kind.joints].transpose(2, 1, 0), work)


CHUNK_VALUES = 1 << 17
"""Samples are decoded in chunks of about this many float64 values of working memory (1 MB,
:meth:`_ChunkDecoder.working_values` per sample): it stays bounded whatever the sample count
(only the float32 results grow), and a chunk's rows stay in the CPU's caches. Measured (CPU
time, best of 150-300 interleaved runs): on the three CMU and assimp clips 2^17 was as fast as
2^16 and up to 6 % faster than 2^18 (fewer samples per chunk pay numpy's per-call cost more
often, more of them leave the caches); bench/decode.py's 150-joint clip was 12 % faster at
2^18."""


def decode_samples(inputs: SampleInputs, *, budget: int) -> tuple[Transforms, np.ndarray]:
    """The clip's distinct samples as transforms (float32), and per frame the sample it shows.

    ``inputs``: :func:`.inputs.sample_inputs` (checked: element bit ranges inside the stride,
    lookup entries inside the stored samples). A clip without elements or without samples is
    its base pose: one sample, every frame showing it. ``budget``: bytes the results may take
    (:func:`.inputs.memory_bound`)."""
    elements = elements_of(inputs)
    base = inputs.base.astype(np.float64)
    frames = max(inputs.num_frames, 1)
    joints = base.shape[0]
    if elements.count == 0 or not inputs.samples.size or inputs.num_frames == 0:
        _check_budget(frames, 1, joints, budget, lookup=True)
        return _as_f32(dequantised(base[None])), np.zeros(frames, np.int64)
    if inputs.lookup is not None:
        lookup = inputs.lookup[: inputs.num_frames].astype(np.int64)
        used, index = np.unique(lookup, return_inverse=True)
        index = index.reshape(-1).astype(np.int64)
    else:  # frame f is sample f: no gather, and frames() can hand out the samples themselves
        used, index = None, np.arange(inputs.num_frames, dtype=np.int64)
    count = inputs.num_frames if used is None else used.size
    _check_budget(frames, count, joints, budget, lookup=used is not None)
    out = _results(count, joints)
    decode_chunk = _ChunkDecoder(elements, base, inputs.stride)
    decode_chunk.fill_still(out, _as_f32(dequantised(base[None])))
    step = min(count, max(1, CHUNK_VALUES // decode_chunk.working_values()))
    decode_chunk.allocate(step)
    for first in range(0, count, step):
        rows = slice(first, min(first + step, count))
        decode_chunk(out, rows, inputs.samples[rows] if used is None else inputs.samples[used[rows]])
    return out, index


def _results(samples: int, joints: int) -> Transforms:
    """Uninitialised float32 transforms of ``samples`` x ``joints``, views of one block: one
    allocation, which glibc's malloc handed back to the next decode of a process without page
    faults (0 minor faults per decode of CMU 01_01 after the first, getrusage; about 900 with
    three arrays, most of a decode's system time)."""
    block = np.empty(samples * joints * 10, np.float32)
    scale, rotation = samples * joints * 3, samples * joints * 7
    return Transforms(block[:scale].reshape(samples, joints, 3), block[scale:rotation].reshape(samples, joints, 4),
                      block[rotation:].reshape(samples, joints, 3))


def _as_f32(t: Transforms) -> Transforms:
    return Transforms(t.scale.astype(np.float32), t.rotation.astype(np.float32), t.translation.astype(np.float32))


def _check_budget(frames: int, samples: int, joints: int, budget: int, *, lookup: bool) -> None:
    # The samples' transforms, and with a frame lookup the per-frame copy a caller makes.
    need = RESULT_BYTES_PER_JOINT * joints * (samples + (frames if lookup else 0))
    if need > budget:
        raise ParseError(
            None,
            None,
            "built",
            f"{frames} frame(s), {samples} sample(s) of {joints} joint(s) would take {need >> 20} MiB to decode; "
            f"the bound for this file is {budget >> 20} MiB "
            f"(max(256 MiB, {MEMORY_PER_FILE_BYTE} x the file's size on disk))",
        )


# ---------------------------------------------------------------------------- the clip


@dataclass
class ClipFrames:
    """Every frame of a clip: local transforms per joint, root motion, timing."""

    coding: SampleCoding
    fps: float
    """Frames per second used for times: Built's, within :data:`.inputs.PLAYABLE_FPS` (else the
    decode is refused, ``clip-timing``)."""
    joint_hashes: np.ndarray
    """(joints,) u32 joint-name CRC32s (Joint Hashes, Built's joint count of them)."""
    samples: Transforms
    """The distinct samples decoded (a clip with no samples: one, its base pose)."""
    frame_sample: np.ndarray
    """(frames,) which sample each frame shows."""
    root_motion: RootMotion | None = None
    notes: list[str] = field(default_factory=list)
    """What was not decoded, and why (e.g. a Motion Data type nobody has described)."""

    animated: bool = False
    """False when every frame is the base pose (the clip has no elements or no samples)."""

    @property
    def frame_count(self) -> int:
        return int(self.frame_sample.size)

    @property
    def times(self) -> np.ndarray:
        return np.arange(self.frame_count, dtype=np.float64) / self.fps

    def frames(self, first: int = 0, stop: int | None = None) -> Transforms:
        """Per-frame transforms of frames ``first`` to ``stop`` (frames x joints x ...): views of
        the samples when frame f shows sample f, else a copy gathered through the lookup."""
        index = self.frame_sample[first:stop]
        n = index.size
        if n and np.array_equal(index, np.arange(index[0], index[0] + n)):
            rows = slice(int(index[0]), int(index[0]) + n)
            return Transforms(self.samples.scale[rows], self.samples.rotation[rows], self.samples.translation[rows])
        return self.samples.take(index)

    @property
    def first_frame(self) -> Transforms:
        """Frame 0: the base plus sample 0 (or the base alone when the clip has no samples)."""
        return self.frames(0, 1)


def clip_fps(coding: SampleCoding) -> float:
    """The fps the clip is played at: its block's (:func:`.inputs.sample_block`), which
    :func:`.inputs.timing_problems` has checked to be playable. Luna's importer falls back to
    frames / duration, then 30, for an fps of 0; that fallback read fps 0 with a denormal
    duration as 2e46 fps (frame times that are all 0 as float32), so an fps outside
    :data:`.inputs.PLAYABLE_FPS` is refused (``clip-timing``) instead."""
    return coding.fps


def decode_clip(model: AnimclipFile, path: str | None = None) -> ClipFrames:
    """Every frame of ``model``: its inputs from :func:`.inputs.sample_inputs` (whose errors are
    :class:`ParseError` naming ``path``, the byte and the field), Joint Hashes and Motion Data."""
    if model.built is None:
        raise AnimspecError("the clip has no Anim Clip Built section: nothing says how its samples are coded")
    inputs = sample_inputs(model, path)
    coding = sample_coding(inputs)
    budget = memory_bound(file_size_on_disk(model))
    samples, frame_sample = decode_samples(inputs, budget=budget)
    joints = coding.joints
    section = model.section(TAG_JOINT_HASHES)
    hashes = np.asarray(section.hashes[:joints] if isinstance(section, JointHashes) else [], dtype=np.uint32)
    if hashes.size < joints:
        hashes = np.concatenate([hashes, np.full(joints - hashes.size, 0xFFFFFFFF, np.uint32)])
    notes = []
    motion = None
    motion_section = model.section(TAG_MOTION_DATA)
    if isinstance(motion_section, RawSection):
        try:
            motion, why = decode_motion(motion_section.data)
        except ParseError as exc:
            offset = None if exc.offset is None else dat1_file_offset(model, (motion_section.offset or 0) + exc.offset)
            if motion_section.offset is None:
                offset = None
            hypothesis = f" ({HYPOTHESIS})" if layout_is_hypothesis(model) else ""
            raise ParseError(path, offset, exc.field, f"{exc.reason} (Anim Clip Motion Data){hypothesis}") from None
        if why and why != "no motion samples":
            notes.append(f"root motion not decoded: {why}")
    animated = bool(inputs.width.size and inputs.samples.size and coding.frames)
    return ClipFrames(coding, clip_fps(coding), hashes, samples, frame_sample, motion, notes, animated)
