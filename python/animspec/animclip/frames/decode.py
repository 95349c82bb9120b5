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

Everything is vectorised over samples and elements: each element's field is gathered for all
samples at once (its word, and the next word for the straddling ones), shifted and masked in
uint32; no Python loop runs per frame or per sample.
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
class _Group:
    """The elements that move one kind of transform (scale, rotation or translation: four
    components each) and the joints they move, with where each element lands among them."""

    first_component: int
    joints: np.ndarray
    """Joints with at least one moving component of this kind."""
    elements: slice
    """Where its elements are in the decode order of :func:`_groups` (sorted by target)."""
    targets: np.ndarray
    """Distinct targets: indices into the (moving joints x 4) values of the group."""
    starts: np.ndarray | None
    """Where each target's run of elements starts in ``elements`` when some target has
    several (Luna's reader adds them all: they are summed first); None when none has."""
    base: np.ndarray
    """(moving joints x 4,) float64 base values of the group's components."""


def _groups(elements: Elements, base: np.ndarray) -> tuple[list[_Group], np.ndarray]:
    """The three groups and the order to decode the elements in: group by group, by target
    within a group, so that each group's fields are one contiguous run of rows."""
    groups: list[_Group] = []
    order: list[np.ndarray] = []
    for first in KIND_FIRST:
        pick = np.flatnonzero((elements.component >= first) & (elements.component < first + 4))
        joints, local = np.unique(elements.joint[pick], return_inverse=True)
        targets = local.reshape(-1) * 4 + (elements.component[pick] - first)
        by_target = np.argsort(targets, kind="stable")
        distinct, starts = np.unique(targets[by_target], return_index=True)
        done = sum(o.size for o in order)
        groups.append(_Group(first, joints, slice(done, done + pick.size), distinct,
                             None if distinct.size == by_target.size else starts,
                             base[joints, first : first + 4].reshape(-1)))
        order.append(pick[by_target])
    return groups, np.concatenate(order)


def _kind(values: np.ndarray, first: int, out: np.ndarray) -> None:
    """The transforms of one kind from (joints, 4, samples) float64 component values into
    ``out`` (joints, 3 or 4, samples), float32: :mod:`.coding`'s dequantisation."""
    if first == KIND_FIRST[0]:
        dequantise_scale(values[:, 0:3], values[:, 3:4], out=out)
    elif first == KIND_FIRST[1]:
        dequantise_rotation(values, axis=1, out=out)
    else:
        dequantise_translation(values[:, 0:3], values[:, 3:4], out=out)


class _ChunkDecoder:
    """Decodes chunks of samples into the results. Its buffers live across chunks: each
    kind's float32 chunk of every joint (samples last) holds the still joints' base pose,
    written once; a chunk overwrites only the moving joints' rows, then the whole chunk is
    copied into the results in one transposing pass (no 226 MB pre-fill, no per-joint
    scatter into the results)."""

    def __init__(self, elements: Elements, base: np.ndarray, still: Transforms, step: int) -> None:
        self.groups, order = _groups(elements, base)
        self.fields = FieldReader(elements.bit_offset[order], elements.width[order])
        # field << shift as a product by 2 ** shift: exact (width + shift <= MAX_DELTA_BITS)
        self.scale = np.ldexp(1.0, elements.shift[order].astype(np.int32))[:, None]
        self.target_base = [g.base[g.targets, None] for g in self.groups]
        self.values = [np.empty((g.joints.size * 4, step), np.float64) for g in self.groups]
        for g, v in zip(self.groups, self.values):
            v[:] = g.base[:, None]  # components no element moves keep their base value
        self.chunks = [np.repeat(kind[0][:, :, None], step, axis=2)
                       for kind in (still.scale, still.rotation, still.translation)]
        self.kinds = [np.empty((g.joints.size, c.shape[1], step), np.float32) for g, c in zip(self.groups, self.chunks)]

    def __call__(self, out: Transforms, rows: slice, words: np.ndarray) -> None:
        samples = words.shape[0]
        deltas = np.multiply(self.fields(words), self.scale)
        for group, values, chunk, kind, target_base, target in zip(
                self.groups, self.values, self.chunks, self.kinds, self.target_base,
                (out.scale, out.rotation, out.translation)):
            chunk = chunk[:, :, :samples]
            if group.joints.size:
                mine = deltas[group.elements]
                if group.starts is not None:
                    mine = np.add.reduceat(mine, group.starts, axis=0)
                mine += target_base
                values = values[:, :samples]
                values[group.targets] = mine
                kind = kind[:, :, :samples]
                _kind(values.reshape(group.joints.size, 4, samples), group.first_component, kind)
                chunk[group.joints] = kind
            target[rows] = chunk.transpose(2, 0, 1)


CHUNK_VALUES = 1 << 18
"""Samples are decoded in chunks of about this many float64 values of working memory (2 MB):
it stays bounded whatever the sample count (only the float32 results grow), and a chunk's
transposes stay in the CPU's caches (bench/decode.py, CPU medians of 9 interleaved runs: 2 MB
chunks decode 16 MB of Sample Data 1.2x faster than 1 MB or 4 MB ones; fewer samples per
chunk pay numpy's per-call cost more often, more of them leave the caches)."""


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
    held = inputs.samples.shape[0]
    words = np.frombuffer(inputs.samples, "<u4", held * inputs.stride // 4).reshape(held, inputs.stride // 4)
    out = Transforms(np.empty((count, joints, 3), np.float32), np.empty((count, joints, 4), np.float32),
                     np.empty((count, joints, 3), np.float32))
    still = _as_f32(dequantised(base[None]))
    moving = len(np.unique(elements.joint))
    # per sample: fields (uint32) and deltas, the moving joints' values (float64, 3 kinds x 4
    # components at most), every joint's float32 chunk (10 per joint, as 5 float64)
    step = max(1, CHUNK_VALUES // max(1, 12 * moving + 2 * elements.count + 5 * joints))
    decode_chunk = _ChunkDecoder(elements, base, still, min(step, count))
    for first in range(0, count, step):
        rows = slice(first, min(first + step, count))
        decode_chunk(out, rows, words[rows] if used is None else words[used[rows]])
    return out, index


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
