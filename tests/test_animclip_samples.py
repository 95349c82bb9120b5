"""Per-frame decoding of .animclip samples (animspec.animclip.frames.decode), against clips packed
here bit by bit from the public layout (Pcniado/luna_engine_io_tools anim_import.py,
binary.py, motion.py): Python ints, one bit at a time, no numpy and nothing of animspec's in
the packing, and the expected poses computed one element at a time."""

from __future__ import annotations

import math
import random
import struct

import numpy as np
import pytest

from animspec.animclip import read_bytes
from animspec.animclip.frames.pose import clip_frames
from animspec.animclip.frames.decode import (
    decode_motion,
    decode_samples,
    elements_of,
    memory_bound,
    sample_coding,
)
from animspec.animclip.frames.coding import unpack_fields
from animspec.animclip.frames.inputs import sample_inputs
from animspec.common.errors import ParseError
from animspec.common.hashes import crc32

LOOPING, CAMERA, LOOKUP, HAS_MOTION = 0x20, 0x10, 0x10000, 0x800000


# ---------------------------------------------------------------------------- the packer


class Bits:
    """LSB-first bit writer into little-endian u32 words (one sample)."""

    def __init__(self) -> None:
        self.bits: list[int] = []

    def put(self, value: int, width: int) -> None:
        assert 0 <= value < (1 << width)
        for k in range(width):
            self.bits.append((value >> k) & 1)

    def sample(self, stride: int) -> bytes:
        assert len(self.bits) <= 8 * stride
        bits = self.bits + [0] * (8 * stride - len(self.bits))
        out = bytearray()
        for w in range(stride // 4):
            word = 0
            for k in range(32):
                word |= bits[32 * w + k] << k
            out += struct.pack("<I", word)
        return bytes(out)


class Clip:
    """A clip described as Python ints: base records, elements, per-sample field values."""

    def __init__(self, joints: int, rng: random.Random):
        self.rng = rng
        # (qx, qy, qz, qw, x, y, z, log_scale, log_scale2)
        self.records = [
            (rng.randint(-9000, 9000), rng.randint(-9000, 9000), rng.randint(-9000, 9000), rng.randint(2000, 20000),
             rng.randint(-3000, 3000), rng.randint(-3000, 3000), rng.randint(-3000, 3000), rng.randint(8, 12),
             rng.randint(6, 12))
            for _ in range(joints)
        ]
        self.small: list[tuple[int, int, int, int]] = []  # (joint, component, width, shift)
        self.large: list[tuple[int, int, int, int]] = []
        self.samples: list[list[int]] = []  # per sample: one field value per element, small then large

    @property
    def elements(self) -> list[tuple[int, int, int, int]]:
        return self.small + self.large

    def random_fields(self, count: int) -> None:
        for _ in range(count):
            self.samples.append([self.rng.randrange(1 << w) for _, _, w, _ in self.elements])

    def stride(self) -> int:
        bits = sum(w for _, _, w, _ in self.elements)
        return 4 * ((bits + 31) // 32)

    def elem_payload(self) -> bytes:
        out = bytearray()
        for j, c, _, _ in self.small:
            out += struct.pack("<I", 4 * (12 * j + c))
        for _, _, w, s in self.small:
            out += bytes([(s << 4) | (w - 1)])
        while len(out) % 4:
            out += b"\0"
        for j, c, _, _ in self.large:
            out += struct.pack("<I", 4 * (12 * j + c))
        for _, _, w, s in self.large:
            out += struct.pack("<H", (s << 8) | (w - 1))
        return bytes(out)

    def sample_payload(self, stride: int, lookup: list[int] | None = None) -> bytes:
        out = bytearray()
        if lookup is not None:
            for v in lookup:
                out += struct.pack("<H", v)
            while len(out) % 16:
                out += b"\0"
        for fields in self.samples:
            b = Bits()
            for (_, _, w, _), v in zip(self.elements, fields):
                b.put(v, w)
            out += b.sample(stride)
        return bytes(out)

    def base_payload(self) -> bytes:
        return b"".join(struct.pack("<hhhhhhhBB", *r) for r in self.records)

    def expected(self, sample: int) -> list[tuple[list[float], list[float], list[float]]]:
        """(rotation xyzw, translation, scale) per joint of ``sample``, element by element."""
        poses = []
        for j, r in enumerate(self.records):
            comp = [1 << r[7]] * 4 + list(r[:7]) + [r[8]]
            for (ej, c, w, s), v in zip(self.elements, self.samples[sample]):
                if ej == j:
                    comp[c] += v << s
            q = comp[4:8]
            n = math.sqrt(sum(x * x for x in q))
            rot = [x / n for x in q] if n else [0.0, 0.0, 0.0, 1.0]
            tra = [x / 2.0 ** comp[11] for x in comp[8:11]]
            div = comp[3] or 1
            sca = [x / div for x in comp[0:3]]
            poses.append((rot, tra, sca))
        return poses


def built_payload(*, flags=0, fps=30.0, duration=1.0, joints=0, frames=0, elements=0, stride=0, unique=0,
                  large=0, resident=0, resident_fps=0.0) -> bytes:
    b = bytearray(96)
    struct.pack_into("<I", b, 0x08, flags)
    struct.pack_into("<ff", b, 0x0C, fps, duration)
    struct.pack_into("<HH", b, 0x20, joints, frames)
    struct.pack_into("<II", b, 0x24, elements, stride)
    struct.pack_into("<H", b, 0x30, unique)
    struct.pack_into("<H", b, 0x3E, resident)
    struct.pack_into("<fI", b, 0x40, resident_fps, large)
    return bytes(b)


def dat1_file(sections: dict[int, bytes], magic: int = 0xC96F58F3) -> bytes:
    """A plain file: the 36-byte outer header, a DAT1 with its table sorted by tag, no strings,
    payloads at 16-byte boundaries (ALERT dat1lib/types/dat1.py's layout)."""
    tags = sorted(sections)
    at = 16 + 12 * len(tags)
    at = (at + 15) & ~15
    table, body = bytearray(), bytearray()
    for tag in tags:
        table += struct.pack("<III", tag, at + len(body), len(sections[tag]))
        body += sections[tag]
        while len(body) % 16:
            body += b"\0"
    head = struct.pack("<4sIIHH", b"1TAD", magic, 0, len(tags), 0) + table
    head += bytes((-len(head)) % 16)
    dat1 = bytearray(head + body)
    struct.pack_into("<I", dat1, 8, len(dat1))
    return struct.pack("<II28x", magic, len(dat1)) + bytes(dat1)


def clip_file(clip: Clip, *, frames: int, flags: int = 0, lookup: list[int] | None = None, stride: int | None = None,
              sample_tag: str = "Anim Clip Sample Data", motion: bytes | None = None, built_extra: dict | None = None,
              declared_stride: int | None = None) -> bytes:
    stride = clip.stride() if stride is None else stride
    built = built_payload(flags=flags, joints=len(clip.records), frames=frames, elements=len(clip.small),
                          large=len(clip.large), stride=stride if declared_stride is None else declared_stride, unique=len(clip.samples), **(built_extra or {}))
    sections = {
        crc32("Anim Clip Built"): built,
        crc32("Anim Clip Base State"): clip.base_payload(),
        crc32("Anim Clip Joint Hashes"): b"".join(struct.pack("<I", crc32(f"joint_{j}")) for j in range(len(clip.records))),
        crc32("Anim Clip Sample Elem"): clip.elem_payload(),
        crc32(sample_tag): clip.sample_payload(stride, lookup),
    }
    if motion is not None:
        sections[crc32("Anim Clip Motion Data")] = motion
    return dat1_file(sections)


def random_clip(seed: int, joints: int = 5, samples: int = 7, large: bool = True) -> Clip:
    rng = random.Random(seed)
    clip = Clip(joints, rng)
    # Not the translation shift (component 11): a random wide delta there is 2 ** -huge; its
    # own test moves it by a few.
    targets = [(j, c) for j in range(joints) for c in range(11)]
    rng.shuffle(targets)
    for j, c in sorted(targets[: 3 * joints]):
        clip.small.append((j, c, rng.randint(1, 16), rng.randint(0, 3)))
    if large:
        for j, c in targets[3 * joints : 3 * joints + 3]:
            clip.large.append((j, c, rng.randint(17, 32), rng.randint(0, 4)))
    clip.random_fields(samples)
    return clip


def assert_poses(frames, clip: Clip, frame_samples: list[int]) -> None:
    poses = frames.frames()
    assert poses.rotation.shape == (len(frame_samples), len(clip.records), 4)
    for f, s in enumerate(frame_samples):
        for j, (rot, tra, sca) in enumerate(clip.expected(s)):
            # float32 results: the sums are exact (float64), the results rounded once
            np.testing.assert_allclose(poses.rotation[f, j], rot, rtol=0, atol=1e-7)
            np.testing.assert_allclose(poses.translation[f, j], tra, rtol=1e-7, atol=1e-9)
            np.testing.assert_allclose(poses.scale[f, j], sca, rtol=1e-7, atol=1e-9)


# ---------------------------------------------------------------------------- decoding


@pytest.mark.parametrize("seed", range(6))
def test_every_frame_equals_the_element_by_element_sum(seed):
    clip = random_clip(seed)
    m = read_bytes(clip_file(clip, frames=len(clip.samples)), "t.animclip")
    frames = clip_frames(m, "t.animclip")
    assert frames.animated and frames.frame_count == len(clip.samples)
    assert_poses(frames, clip, list(range(len(clip.samples))))
    assert list(frames.joint_hashes) == [crc32(f"joint_{j}") for j in range(len(clip.records))]


def test_fields_straddling_words_and_full_32_bit_fields():
    rng = random.Random(7)
    clip = Clip(2, rng)
    clip.small = [(0, 4, 13, 0), (0, 5, 16, 1), (1, 8, 9, 0)]  # 38 bits: the 2nd straddles words 0 and 1
    clip.large = [(1, 9, 32, 0), (0, 6, 31, 2), (1, 0, 17, 0)]  # word-aligned? no: starts at bit 38
    clip.samples = [[(1 << w) - 1 for _, _, w, _ in clip.elements], [0] * 6, [1 << (w - 1) for _, _, w, _ in clip.elements]]
    clip.random_fields(4)
    m = read_bytes(clip_file(clip, frames=7), "t.animclip")
    assert_poses(clip_frames(m), clip, list(range(7)))


def test_unpack_fields_against_bit_strings():
    rng = random.Random(3)
    widths = [rng.randint(1, 32) for _ in range(40)]
    stride = 4 * ((sum(widths) + 31) // 32)
    rows, values = [], []
    for _ in range(9):
        b, vals = Bits(), []
        for w in widths:
            v = rng.randrange(1 << w)
            b.put(v, w)
            vals.append(v)
        rows.append(b.sample(stride))
        values.append(vals)
    words = np.frombuffer(b"".join(rows), "<u4").reshape(9, stride // 4)
    off = np.concatenate([[0], np.cumsum(widths)[:-1]])
    assert unpack_fields(words, off, np.array(widths)).tolist() == values


def test_frame_lookup_maps_frames_to_deduplicated_samples_and_looping_adds_one_entry():
    clip = random_clip(11, samples=3)
    lookup = [0, 0, 1, 1, 1, 2, 0]
    frames = 6  # looping: one more entry than frames, the wrap back to the start
    m = read_bytes(clip_file(clip, frames=frames, flags=LOOKUP | LOOPING, lookup=lookup), "t.animclip")
    f = clip_frames(m)
    assert f.coding.looping and f.frame_count == frames
    assert f.frame_sample.tolist() == [0, 0, 1, 1, 1, 2]
    assert_poses(f, clip, lookup[:frames])


def test_lookup_without_looping_has_one_entry_per_frame_and_pads_to_16_bytes():
    clip = random_clip(12, samples=2)
    lookup = [1, 0, 1, 0, 1, 0, 0, 1, 1]  # 18 bytes: samples start at 32
    m = read_bytes(clip_file(clip, frames=9, flags=LOOKUP, lookup=lookup), "t.animclip")
    assert_poses(clip_frames(m), clip, lookup)


def test_first_frame_is_base_plus_sample_zero_not_the_base_alone():
    clip = random_clip(5)
    m = read_bytes(clip_file(clip, frames=len(clip.samples)), "t.animclip")
    f = clip_frames(m)
    rot0 = f.first_frame.rotation[0]
    expected = clip.expected(0)
    np.testing.assert_allclose(rot0, [r for r, _, _ in expected], atol=1e-7)
    base_only = m.clip().joints
    moved = [j for j, (_, c, _, _) in enumerate(clip.elements) if 4 <= c <= 7 and clip.samples[0][j]]
    assert moved  # this clip moves a rotation in sample 0, so the first frame differs from Base State
    assert not np.allclose(rot0, np.array([j.rotation for j in base_only]))


def test_spider_man_2_split_blocks_paged_wins_then_resident():
    clip = random_clip(21, samples=4)
    stride = clip.stride()
    other = Clip(5, random.Random(22))
    other.small, other.large, other.records = clip.small, clip.large, clip.records
    other.random_fields(4)
    sections = {
        crc32("Anim Clip Built"): built_payload(joints=5, frames=4, elements=len(clip.small), large=len(clip.large),
                                                stride=stride, resident=2, resident_fps=15.0),
        crc32("Anim Clip Base State"): clip.base_payload(),
        crc32("Anim Clip Sample Elem"): clip.elem_payload(),
        crc32("Anim Clip Sample Data Paged"): clip.sample_payload(stride),
        crc32("Anim Clip Sample Data Resident"): other.sample_payload(stride)[: 2 * stride],
    }
    f = clip_frames(read_bytes(dat1_file(sections)))
    assert f.frame_count == 4 and f.fps == 30.0
    assert_poses(f, clip, [0, 1, 2, 3])
    del sections[crc32("Anim Clip Sample Data Paged")]
    f = clip_frames(read_bytes(dat1_file(sections)))
    assert f.frame_count == 2 and f.fps == 15.0
    assert_poses(f, other, [0, 1])


def test_a_clip_without_elements_is_its_base_pose_on_every_frame():
    clip = random_clip(4)
    clip.small, clip.large = [], []
    clip.samples = [[]]
    m = read_bytes(clip_file(clip, frames=5, stride=0), "t.animclip")
    f = clip_frames(m)
    assert not f.animated and f.frame_count == 5 and f.samples.rotation.shape[0] == 1
    assert_poses(f, clip, [0] * 5)


def test_scale_divides_by_the_divisor_component_and_translation_shift_can_move():
    rng = random.Random(1)
    clip = Clip(1, rng)
    clip.records = [(0, 0, 0, 16384, 100, -50, 7, 4, 3)]  # scale 16/16, translation / 8
    clip.small = [(0, 0, 5, 0), (0, 3, 3, 0), (0, 11, 2, 0)]
    clip.samples = [[16, 0, 0], [0, 4, 1], [31, 7, 3]]
    f = clip_frames(read_bytes(clip_file(clip, frames=3)))
    s = f.frames()
    np.testing.assert_allclose(s.scale[:, 0], [[2, 1, 1], [16 / 20, 16 / 20, 16 / 20], [47 / 23, 16 / 23, 16 / 23]])
    np.testing.assert_allclose(s.translation[:, 0], [[100 / 8, -50 / 8, 7 / 8], [100 / 16, -50 / 16, 7 / 16],
                                                      [100 / 64, -50 / 64, 7 / 64]])
    np.testing.assert_allclose(s.rotation[:, 0], [[0, 0, 0, 1]] * 3)


def test_two_elements_on_one_component_both_add():
    rng = random.Random(2)
    clip = Clip(1, rng)
    clip.small = [(0, 8, 4, 0), (0, 8, 4, 2)]
    clip.samples = [[3, 5]]
    f = clip_frames(read_bytes(clip_file(clip, frames=1)))
    r = clip.records[0]
    assert f.frames().translation[0, 0, 0] == pytest.approx((r[4] + 3 + 20) / 2 ** r[8])


def test_still_joints_inside_and_outside_a_kinds_moving_range_show_their_base():
    """The decoder computes each kind of transform over the joints from the first to the last
    it moves: the still joints inside that range (from their base) and outside it (written
    once) must come out as the element-by-element sum says, with several elements on one
    component and a field straddling two u32 words."""
    rng = random.Random(5)
    clip = Clip(7, rng)
    # rotation on joints 1 and 5 (2-4 still between them), translation on 0-2, scale on 6;
    # three elements on joint 1's qx
    clip.small = [(0, 8, 9, 0), (1, 4, 7, 1), (1, 4, 5, 0), (1, 9, 12, 0), (2, 10, 3, 2), (5, 7, 16, 0), (6, 1, 4, 0)]
    clip.large = [(5, 5, 30, 0), (1, 4, 20, 1)]  # the first straddles words 0 and 1
    clip.random_fields(6)
    frames = clip_frames(read_bytes(clip_file(clip, frames=6)))
    assert_poses(frames, clip, list(range(6)))


# ---------------------------------------------------------------------------- root motion


def motion_payload(samples: list[tuple[tuple[int, ...], tuple[int, ...], int]], kind: int = 0, flags: int = 2) -> bytes:
    head = bytearray(0x7C)
    struct.pack_into("<BBH", head, 0, kind, flags, len(samples))
    struct.pack_into("<4f", head, 0x04, 0, 0, 0, 1)
    struct.pack_into("<3f", head, 0x24, 1.5, 0, 0)
    struct.pack_into("<I", head, 0x3C, 0)
    body = b"".join(struct.pack("<4h3hbb", *q, *t, ls, 0) for q, t, ls in samples)
    return bytes(head) + body + bytes((-(0x7C + len(body))) % 16)


def test_root_motion_samples_dequantised():
    motion = motion_payload([((0, 0, 0, 32767), (0, 0, 0), 8), ((0, 23170, 0, 23170), (256, -512, 1024), 8),
                             ((0, 0, 0, 0), (3, 0, 0), 40)])
    root, why = decode_motion(motion)
    assert why == ""
    np.testing.assert_allclose(root.translation, [[0, 0, 0], [1, -2, 4], [3 / 2 ** 16, 0, 0]])
    np.testing.assert_allclose(root.rotation, [[0, 0, 0, 1], [0, math.sqrt(0.5), 0, math.sqrt(0.5)], [0, 0, 0, 1]])
    np.testing.assert_allclose(root.initial_translation, [1.5, 0, 0])


def test_root_motion_of_undescribed_types_is_reported_not_guessed():
    # (type 1's samples are 32 bytes: one of them fills the section)
    assert decode_motion(motion_payload([((0, 0, 0, 1), (0, 0, 0), 0)], kind=1) + bytes(16))[0] is None
    assert decode_motion(motion_payload([((0, 0, 0, 1), (0, 0, 0), 0)], flags=6))[0] is None
    assert decode_motion(motion_payload([((0, 0, 0, 1), (0, 0, 0), 0)], flags=0))[0] is None


def test_root_motion_reaches_the_clip():
    clip = random_clip(8, samples=3)
    motion = motion_payload([((0, 0, 0, 32767), (k * 256, 0, 0), 8) for k in range(4)])
    f = clip_frames(read_bytes(clip_file(clip, frames=3, flags=LOOPING | HAS_MOTION, motion=motion)))
    assert f.root_motion is not None and f.root_motion.translation[:, 0].tolist() == [0, 1, 2, 3]


# ---------------------------------------------------------------------------- hostile input


def _error(data: bytes) -> ParseError:
    with pytest.raises(ParseError) as e:
        clip_frames(read_bytes(data, "bad.animclip"), "bad.animclip")
    assert "bad.animclip" in str(e.value)
    return e.value


def test_element_pointing_past_the_joints_is_refused_at_its_offset():
    clip = random_clip(9)
    clip.small[2] = (7, 4) + clip.small[2][2:]
    data = clip_file(clip, frames=len(clip.samples))
    e = _error(data)
    assert e.field == "sample_elem.small[2].offset" and "joint 7" in e.reason
    m = read_bytes(data)
    elem = m.section(crc32("Anim Clip Sample Elem"))
    assert e.offset == 36 + elem.offset + 8


def test_widths_summing_past_the_stride_are_refused():
    clip = random_clip(10)
    e = _error(clip_file(clip, frames=len(clip.samples), declared_stride=clip.stride() - 4))
    assert e.field == "built.stride" and "bits per sample" in e.reason


def test_a_lookup_past_the_samples_is_refused_naming_the_frame():
    clip = random_clip(13, samples=2)
    e = _error(clip_file(clip, frames=3, flags=LOOKUP, lookup=[0, 1, 5]))
    assert e.field == "sample_data.frame_lookup" and "frame 2 shows sample 5" in e.reason


def test_frames_past_the_samples_without_lookup_are_refused():
    clip = random_clip(14, samples=2)
    e = _error(clip_file(clip, frames=9))
    assert e.field == "sample_data" and "2 sample(s)" in e.reason


def test_element_counts_past_the_section_are_refused_before_allocating():
    clip = random_clip(15)
    data = clip_file(clip, frames=len(clip.samples), built_extra={})
    m = read_bytes(data)
    built = bytearray(built_payload(joints=5, frames=7, elements=0x7FFFFFFF, large=0x7FFFFFFF, stride=clip.stride()))
    sections = {crc32("Anim Clip Built"): bytes(built), crc32("Anim Clip Base State"): clip.base_payload(),
                crc32("Anim Clip Sample Elem"): clip.elem_payload(),
                crc32("Anim Clip Sample Data"): clip.sample_payload(clip.stride())}
    e = _error(dat1_file(sections))
    assert e.field == "sample_elem" and "take" in e.reason
    assert m is not None


def test_a_field_wider_than_32_bits_is_refused():
    clip = random_clip(16, large=False)
    payload = bytearray(clip.elem_payload())
    large = struct.pack("<IH", 0, 40 - 1)  # one large element of 40 bits
    sections = {crc32("Anim Clip Built"): built_payload(joints=5, frames=1, elements=len(clip.small), large=1, stride=64),
                crc32("Anim Clip Base State"): clip.base_payload(),
                crc32("Anim Clip Sample Elem"): bytes(payload) + large,
                crc32("Anim Clip Sample Data"): bytes(64)}
    e = _error(dat1_file(sections))
    assert e.field == "sample_elem.large[0].code" and "40-bit" in e.reason


def test_frames_times_joints_past_the_memory_bound_are_refused():
    # 65535 frames of 4000 joints through a 2-entry lookup: a tiny file asking for ~10 GB.
    joints = 4000
    rng = random.Random(0)
    clip = Clip(joints, rng)
    clip.small = [(0, 4, 1, 0)]
    clip.samples = [[0]]
    lookup = [0] * 65536
    e = _error(clip_file(clip, frames=65535, flags=LOOKUP | LOOPING, lookup=lookup))
    assert "MiB" in e.reason and "bound" in e.reason
    assert memory_bound(10) == 256 << 20 and memory_bound(100 << 20) == 6400 << 20


def test_a_more_joints_than_base_state_records_is_refused():
    clip = random_clip(17)
    data = bytearray(clip_file(clip, frames=len(clip.samples)))
    m = read_bytes(bytes(data))
    built_at = 36 + m.section(crc32("Anim Clip Built")).offset
    struct.pack_into("<H", data, built_at + 0x20, 6)
    with pytest.raises(ParseError) as e:
        clip_frames(read_bytes(bytes(data)))
    assert "Base State holds 5" in e.value.reason


def test_pure_functions_on_the_models_inputs():
    clip = random_clip(18)
    stride = clip.stride()
    inputs = sample_inputs(read_bytes(clip_file(clip, frames=7)))
    coding = sample_coding(inputs)
    assert (coding.joints, coding.frames, coding.elements, coding.large_elements, coding.stride) == (
        5, 7, len(clip.small), len(clip.large), stride)
    el = elements_of(inputs)
    assert el.width.tolist() == [w for _, _, w, _ in clip.elements]
    transforms, index = decode_samples(inputs, budget=1 << 30)
    assert index.tolist() == list(range(7))
    for s in range(7):
        np.testing.assert_allclose(transforms.rotation[s], [r for r, _, _ in clip.expected(s)], atol=1e-7)


@pytest.mark.parametrize("lookup", [None, [3, 0, 0, 2, 1, 3, 3, 0]])
def test_decoding_in_chunks_gives_the_same_frames(monkeypatch, lookup):
    import animspec.animclip.frames.decode as samples

    clip = random_clip(19, joints=3, samples=4 if lookup else 8)
    data = clip_file(clip, frames=8, flags=LOOKUP if lookup else 0, lookup=lookup)
    whole = clip_frames(read_bytes(data)).frames()
    monkeypatch.setattr(samples, "CHUNK_VALUES", 40)  # one sample per chunk (its working values pass 40)
    chunked = clip_frames(read_bytes(data))
    assert_poses(chunked, clip, lookup or list(range(8)))
    for name in ("rotation", "translation", "scale"):
        assert np.array_equal(getattr(chunked.frames(), name), getattr(whole, name))


def test_chunks_of_a_clip_whose_moved_components_are_one_range(monkeypatch):
    """Every rotation component of two joints moves: the decoder computes those rows in place
    (no copy into their rows); in chunks of two samples, the last one shorter."""
    import animspec.animclip.frames.decode as samples

    rng = random.Random(8)
    clip = Clip(2, rng)
    clip.small = [(j, c, rng.randint(1, 16), rng.randint(0, 3)) for j in range(2) for c in range(4, 8)]
    clip.random_fields(7)
    data = clip_file(clip, frames=7)
    inputs = sample_inputs(read_bytes(data))
    decoder = samples._ChunkDecoder(elements_of(inputs), inputs.base.astype(np.float64), inputs.stride)
    assert decoder.in_place == slice(0, 8)
    monkeypatch.setattr(samples, "CHUNK_VALUES", 2 * decoder.working_values())
    assert_poses(clip_frames(read_bytes(data)), clip, list(range(7)))


# ---------------------------------------------------------------------------- Luna's own clips

LUNA = __import__("conftest").ROOT / "tests" / "fixtures" / "luna"
LUNA_CLIPS = sorted(p.stem for p in LUNA.glob("*.animclip"))


def luna_model(name: str):
    """A clip Luna Engine IO Tools wrote (tests/fixtures/luna), read by animspec. Spider-Man 2's
    32-byte STG wrapper is read directly once the reader knows it; until then the DAT1 behind
    it is put behind a known 36-byte outer header (the DAT1 itself, every payload, unchanged)."""
    data = (LUNA / f"{name}.animclip").read_bytes()
    try:
        return read_bytes(data, f"{name}.animclip")
    except ParseError:
        assert data[:4] == b"STG\0"
        dat1 = data[32:]
        return read_bytes(struct.pack("<II28x", 0xC96F58F3, len(dat1)) + dat1, f"{name}.animclip")


def luna_record(name: str) -> dict:
    import json

    return json.loads((LUNA / f"{name}.json").read_text())


def test_the_luna_fixtures_are_there():
    assert len(LUNA_CLIPS) == 7


@pytest.mark.parametrize("name", LUNA_CLIPS)
def test_every_frame_equals_what_luna_importer_gives(name):
    """Luna's importer read its own clip back; animspec's decoder must give the same local
    transforms for every frame and joint (Luna keys float32: compare within float rounding;
    q and -q are one rotation)."""
    record = luna_record(name)
    frames = clip_frames(luna_model(name))
    assert frames.frame_count == record["frames"] and frames.fps == pytest.approx(record["fps"])
    assert frames.coding.looping == record["looping"]
    assert [f"0x{int(h):08X}" for h in frames.joint_hashes] == [j["hash"] for j in record["joints"]]
    luna = record["luna_import"]["engine_local"]
    poses = frames.frames()
    np.testing.assert_allclose(poses.translation, luna["translation"], rtol=0, atol=2e-6)
    np.testing.assert_allclose(poses.scale, luna["scale"], rtol=0, atol=2e-6)
    dots = np.abs(np.sum(poses.rotation * np.asarray(luna["rotation_xyzw"]), axis=-1))
    np.testing.assert_allclose(dots, 1.0, atol=2e-6)


def test_luna_root_motion_is_decoded_per_sample():
    """Luna writes the root-motion Empty per frame in engine space relative to frame 0 (its
    README); animspec decodes the same samples (within Luna's i16 quantisation)."""
    record = luna_record("root_motion")
    frames = clip_frames(luna_model("root_motion"))
    motion = frames.root_motion
    assert motion is not None and len(motion.translation) == record["frames"]
    expected = record["luna_import"]["root_motion"]["engine_relative_to_frame_0"]
    np.testing.assert_allclose(motion.translation, expected["translation"], atol=2e-4)
    dots = np.abs(np.sum(motion.rotation * np.asarray(expected["rotation_xyzw"]), axis=-1))
    np.testing.assert_allclose(dots, 1.0, atol=1e-4)


def test_luna_looping_root_motion_has_one_more_sample_the_first_again():
    frames = clip_frames(luna_model("root_motion_loop"))
    motion = frames.root_motion
    assert len(motion.translation) == frames.frame_count + 1
    np.testing.assert_allclose(motion.translation[-1], motion.translation[0], atol=1e-6)


def test_readme_play_transcript_is_the_command_output():
    import subprocess
    import sys

    root = __import__("conftest").ROOT
    readme = (root / "docs" / "cli.md").read_text()  # the .animclip walk-through
    command = "$ animspec play examples/walk.animclip --joint-names examples/joint_names.txt\n"
    block = readme[readme.index(command) + len(command):]
    block = block[: block.index("```")]
    r = subprocess.run([sys.executable, "-m", "animspec", *command[2:].split()[1:]], cwd=root, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout == block


def test_corrupted_sample_coding_gives_a_parse_error_or_frames_never_a_traceback():
    """Random bytes over Built's coding fields, Sample Elem and the start of Sample Data of a
    valid clip: each read either decodes or raises ParseError (no other exception, no hang)."""
    clip = random_clip(40, joints=4, samples=6)
    good = clip_file(clip, frames=6, flags=LOOKUP | LOOPING, lookup=[0, 1, 2, 3, 4, 5, 0])
    m = read_bytes(good)
    spans = []
    for name, first, width in (("Anim Clip Built", 0x08, 0x48), ("Anim Clip Sample Elem", 0, 40),
                               ("Anim Clip Sample Data", 0, 24), ("Anim Clip Base State", 0, 64)):
        section = m.section(crc32(name))
        spans.append((36 + section.offset + first, width))
    rng = random.Random(41)
    outcomes = {"frames": 0, "refused": 0}
    for _ in range(400):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            at, width = rng.choice(spans)
            data[at + rng.randrange(width)] = rng.randrange(256)
        try:
            model = read_bytes(bytes(data), "fuzz.animclip")
        except ParseError:
            continue
        try:
            f = clip_frames(model, "fuzz.animclip")
            f.frames()
            outcomes["frames"] += 1
        except ParseError as exc:
            assert "fuzz.animclip" in str(exc)
            outcomes["refused"] += 1
    assert outcomes["frames"] and outcomes["refused"]


def test_runs_of_elements_on_shared_components_are_summed():
    rng = random.Random(3)
    clip = Clip(2, rng)
    clip.small = [(1, 9, 3, 0), (0, 8, 4, 0), (1, 9, 2, 1), (0, 5, 5, 0), (1, 9, 6, 0), (0, 8, 1, 3)]
    clip.random_fields(5)
    assert_poses(clip_frames(read_bytes(clip_file(clip, frames=5))), clip, list(range(5)))


def test_first_frame_pose_on_a_flat_skeleton_and_on_a_rig():
    from animspec.animclip.frames.pose import first_frame_pose
    from animspec.quaternion import xyzw_to_wxyz
    from animspec.skeleton import Skeleton

    clip = random_clip(42, joints=3, samples=2)
    m = read_bytes(clip_file(clip, frames=2))
    flat = first_frame_pose(m, joint_names=["joint_0", "joint_1", "joint_2"])
    assert flat.skeleton.names == ["joint_0", "joint_1", "joint_2"] and len(flat.matched) == 3
    for j, (rot, tra, _) in enumerate(clip.expected(0)):
        assert abs(np.dot(flat.rotations[j], xyzw_to_wxyz(np.array(rot)))) == pytest.approx(1, abs=1e-6)
        np.testing.assert_allclose(flat.translations[j], tra, rtol=1e-6)
    rig = Skeleton.chain(2)
    rig.names = ["joint_2", "other"]
    on_rig = first_frame_pose(m, rig)
    assert on_rig.matched == [(2, 0)] and on_rig.clip_only == [0, 1] and on_rig.skeleton_only == [1]


def test_decode_memory_is_the_results_plus_a_bounded_chunk():
    """tracemalloc peak of decoding 2 MB of samples (bench/decode.py's workload): the float32
    results plus the working memory of one chunk, whatever the sample count."""
    import sys
    import tracemalloc

    import animspec.animclip.frames.decode as samples

    sys.path.insert(0, str(__import__("conftest").ROOT / "bench"))
    import decode as bench_decode

    work = bench_decode.Workload(2 << 20)
    results = samples.RESULT_BYTES_PER_JOINT * bench_decode.JOINTS * work.samples
    tracemalloc.start()
    out = work.animspec()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert out.rotation.shape == (work.samples, bench_decode.JOINTS, 4)
    # one chunk's working buffers (fields, values, norms: CHUNK_VALUES float64 values) and
    # temporaries: a few times CHUNK_VALUES
    assert peak <= results + 8 * 8 * samples.CHUNK_VALUES, (peak, results)


def test_a_looping_lookup_has_one_more_entry_which_moves_the_samples():
    # 8 frames: 8 entries would end at byte 16, the looping clip's 9 end at 18, so its samples
    # start at 32, not 16.
    clip = random_clip(43, samples=3)
    lookup = [0, 1, 2, 2, 1, 0, 1, 2, 0]
    f = clip_frames(read_bytes(clip_file(clip, frames=8, flags=LOOKUP | LOOPING, lookup=lookup)))
    assert f.frame_count == 8
    assert_poses(f, clip, lookup[:8])
