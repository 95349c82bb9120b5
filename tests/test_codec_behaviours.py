"""Behaviours of the .animclip codec that a planted bug broke while every other test passed
(issue 31). Each test checks the library against tests/animclip_reference.py (struct and
Hamilton products written from docs/animclip.md, not from animspec) or against a property
(decode(encode(x)) == x within the error; rotations that do not commute; sampling between
frames), never against our own output recorded as golden.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import struct
import subprocess
import tracemalloc

import numpy as np
import pytest
from animclip_reference import (
    Counts,
    axis_angle,
    dat1_offset,
    dat1_sections,
    decode_values,
    hamilton,
    inverse,
    motion_read,
    motion_write,
    rotate,
    rotation_difference,
    transforms,
)
from conftest import ROOT
from gltf_reference import Document

from animspec.animclip.frames.decode import decode_clip
from animspec.animclip.frames.encode import Frames, Tolerance, encode
from animspec.animclip.frames.inputs import DECODE_BYTES_PER_JOINT
from animspec.animclip.frames.motion import camera_path, decode_motion, encode_motion
from animspec.animclip.frames.pose import frames_report
from animspec.animclip.frames.sections import clip_model
from animspec.animclip.model import RawSection
from animspec.animclip.parse import read_bytes
from animspec.animclip.tags import (
    FLAG_FRAME_DATA_LOOKUP,
    FLAG_LOOPING,
    TAG_BUILT,
    TAG_SAMPLE_DATA_PAGED,
    TAG_SAMPLE_ELEM,
)
from animspec.animclip.validate import validate
from animspec.animclip.write import write_bytes
from animspec.common.errors import ParseError
from animspec.common.hashes import crc32
from animspec.gltf import ClipAnimation, animclip_to_gltf
from animspec.skeleton import Skeleton

RIG = str(ROOT / "examples" / "biped_rig.glb")
LUNA = ROOT / "tests" / "fixtures" / "luna"


def angle_deg(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The angle between unit x, y, z, w rotations (q and -q are one rotation)."""
    dot = np.abs(np.sum(np.asarray(a, np.float64) * np.asarray(b, np.float64), axis=-1))
    return np.degrees(2 * np.arccos(np.clip(dot, 0.0, 1.0)))


def unit(q: np.ndarray) -> np.ndarray:
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def canonical(q: np.ndarray) -> np.ndarray:
    """Each quaternion with w >= 0: one rotation, but its sign flips wherever the turn passes
    half a turn (the hemisphere a sign-blind source hands over)."""
    return np.where(q[..., 3:4] < 0, -q, q)


def written(enc, hashes, *, fps: float = 30.0, template=None) -> bytes:
    return write_bytes(clip_model(enc, np.asarray(hashes), fps, template))


def reference_frames(data: bytes) -> dict[str, np.ndarray]:
    """The reference decoder on a written clip's own sections (Built's counts at Luna's offsets)."""
    s = dat1_sections(data)
    built = s[TAG_BUILT]
    flags, = struct.unpack_from("<I", built, 0x08)
    joints, frames, small, stride = struct.unpack_from("<HHII", built, 0x20)
    large, = struct.unpack_from("<I", built, 0x44)
    data_tag = next(t for t in (crc32("Anim Clip Sample Data"), crc32("Anim Clip Sample Data Resident")) if t in s)
    return transforms(decode_values(s[crc32("Anim Clip Base State")], s[TAG_SAMPLE_ELEM], s[data_tag],
                                    Counts(joints, frames, small, large, stride, flags)))


# ----------------------------------------------------------------------------- composition order


def turning(frames: int) -> tuple[np.ndarray, np.ndarray]:
    """Root rotations that do not commute with frame 0's: a yaw growing after a fixed pitch
    (Rz(0.3 k) Rx(0.7)), and a translation away from a non-zero start."""
    k = np.arange(frames)
    rotation = hamilton(axis_angle([0, 0, 1], 0.3 * k), axis_angle([1, 0, 0], 0.7))
    translation = np.stack([1 + 0.5 * k, 2 + np.sin(k), 3 - 0.25 * k], axis=1)
    return translation, rotation


@pytest.mark.parametrize("looping", [False, True])
def test_root_motion_samples_are_frame_0s_inverse_times_frame_k(looping):
    # docs/animclip.md 7.8: sample k = frame 0's inverse times frame k (Luna's exporter). On
    # rotations that do not commute, q0^-1 qk and qk q0^-1 differ by up to 80 degrees here.
    translation, rotation = turning(12)
    payload = encode_motion(translation, rotation, looping=looping)
    read = motion_read(payload)
    expected_q = hamilton(inverse(rotation[0]), rotation)
    expected_t = rotate(inverse(rotation[0]), translation - translation[0])
    assert angle_deg(hamilton(rotation, inverse(rotation[0])), expected_q).max() > 30  # the orders differ
    if looping:
        expected_q, expected_t = np.vstack([expected_q, expected_q[:1]]), np.vstack([expected_t, expected_t[:1]])
    assert angle_deg(read["rotation"], expected_q).max() < 0.01
    np.testing.assert_allclose(read["translation"], expected_t, atol=1e-3)
    # and the library's reader hands back the same (x, y, z, w)
    motion, why = decode_motion(payload)
    assert motion is not None and not why
    assert angle_deg(motion.rotation, expected_q).max() < 0.01
    np.testing.assert_allclose(motion.translation, expected_t, atol=1e-3)


def test_a_camera_path_is_the_initial_transform_times_each_sample():
    # docs/animclip.md 11.27 and Luna camera_anim.py: the initial matrix times the sample's.
    # A pitched start and samples that yaw and roll: R0 Rk and Rk R0 differ.
    k = np.arange(6)
    samples_q = hamilton(axis_angle([0, 1, 0], 0.4 * k), axis_angle([0, 0, 1], 0.2 * k + 0.1))
    samples_t = np.stack([0.5 * k, 1.0 - 0.25 * k, 0.125 * k], axis=1)
    r0, t0 = axis_angle([1, 2, 3], 0.8), np.array([10.0, -4.0, 2.5])
    payload = motion_write(samples_q, samples_t, initial_rotation=r0, initial_translation=t0)
    motion, _ = decode_motion(payload)
    assert motion is not None
    translation, rotation = camera_path(motion)
    expected_q = hamilton(r0, samples_q)
    assert angle_deg(hamilton(samples_q, r0), expected_q).max() > 10  # the orders differ
    assert angle_deg(rotation, expected_q).max() < 0.01
    np.testing.assert_allclose(translation, t0 + rotate(r0, samples_t), atol=1e-3)


# ----------------------------------------------------------------------------- quaternion signs

AXIS = np.array([1.0, 1.0, 0.0]) / np.sqrt(2)


def full_turn(frames: int) -> tuple[np.ndarray, np.ndarray]:
    """A turn of 340 degrees about AXIS, handed over with w >= 0 (signs flip past 180)."""
    angle = np.linspace(0, np.radians(340), frames)
    return angle, canonical(axis_angle(AXIS, angle))


def midpoints(keys: np.ndarray) -> np.ndarray:
    """What a linear reader shows halfway between consecutive keys: the normalised average
    (the glTF LINEAR rotation's slerp at 0.5 without a sign check points the same way)."""
    mid = keys[:-1] + keys[1:]
    norm = np.linalg.norm(mid, axis=-1, keepdims=True)
    return mid / np.where(norm == 0, 1.0, norm)


def test_the_encoder_keeps_signs_continuous_so_a_reader_turns_the_short_way():
    angle, rotation = full_turn(24)
    assert (np.sum(rotation[:-1] * rotation[1:], axis=-1) < 0).any()  # the input does flip
    enc = encode(Frames(rotation[:, None], np.zeros((24, 1, 3)), np.ones((24, 1, 3))), Tolerance(0.05, 1e-3, 1e-3))
    decoded = reference_frames(written(enc, [crc32("head")]))["rotation_xyzw"][:, 0]
    assert angle_deg(decoded, rotation).max() < 0.05  # every frame right, whatever its sign
    between = axis_angle(AXIS, (angle[:-1] + angle[1:]) / 2)
    assert angle_deg(midpoints(decoded), between).max() < 0.1


def head_clip(rotation: np.ndarray, scale: np.ndarray | None = None) -> ClipAnimation:
    frames = len(rotation)
    return ClipAnimation(np.array([crc32("head")], np.uint32), np.arange(frames) / 30.0, rotation[:, None],
                         np.tile([0.0, 0.1, 0.0], (frames, 1, 1)),
                         np.ones((frames, 1, 3)) if scale is None else scale)


def node_channels(glb: bytes, name: str) -> tuple[Document, int, dict[str, np.ndarray]]:
    doc = Document(glb=glb)
    node, channels = doc.node_channels(name)
    return doc, node, {path: values for path, (_, values) in channels.items()}


def test_the_every_frame_gltf_keeps_signs_continuous_between_keys():
    angle, rotation = full_turn(24)
    glb, _ = animclip_to_gltf(head_clip(rotation), RIG)
    _, _, channels = node_channels(glb, "head")
    keys = channels["rotation"]
    assert angle_deg(keys, rotation).max() < 0.05  # the head's parent is a joint: keys are the clip's
    between = axis_angle(AXIS, (angle[:-1] + angle[1:]) / 2)
    assert angle_deg(midpoints(keys), between).max() < 0.1


# ----------------------------------------------------------------------------- scale


def test_a_constant_scale_other_than_1_reaches_the_every_frame_gltf():
    _, rotation = full_turn(5)
    glb, _ = animclip_to_gltf(head_clip(rotation, np.full((5, 1, 3), 2.0)), RIG)
    doc, node, channels = node_channels(glb, "head")
    # what a reader shows: the scale channel where there is one, else the node's own scale
    shown = channels.get("scale", np.asarray([doc.json["nodes"][node].get("scale", [1.0, 1.0, 1.0])]))
    np.testing.assert_allclose(shown, 2.0, rtol=1e-6)


def test_a_zero_quaternion_on_a_moving_joint_is_the_identity_x_y_z_w():
    # docs/animclip.md 11.27: a zero rotation is the identity. A joint turning about x: its
    # Base State rotation moved so that frame 0's four components sum to 0.
    angle = np.linspace(0, 0.5, 6)
    rotation = axis_angle([1, 0, 0], angle)
    enc = encode(Frames(rotation[:, None], np.zeros((6, 1, 3)), np.ones((6, 1, 3))), Tolerance(0.05, 1e-3, 1e-3))
    base = enc.base.copy()
    for e, component in enumerate(enc.components):
        if 4 <= component < 8:
            base[0, component] = -(int(enc.fields[0, e]) << int(enc.shifts[e]))
    base[0, [c for c in range(4, 8) if c not in enc.components]] = 0
    enc = dataclasses.replace(enc, base=base)
    data = written(enc, [crc32("head")])
    values = decode_values(*(dat1_sections(data)[t] for t in (crc32("Anim Clip Base State"), TAG_SAMPLE_ELEM,
                                                               crc32("Anim Clip Sample Data Resident"))),
                           Counts(1, 6, enc.num_small, enc.num_large, enc.stride, enc.flags))
    assert not values[0, 0, 4:8].any() and values[1:, 0, 4:8].any()  # frame 0 is zero, the others not
    frames = decode_clip(read_bytes(data)).frames()
    np.testing.assert_array_equal(frames.rotation[0, 0], [0.0, 0.0, 0.0, 1.0])
    np.testing.assert_allclose(frames.rotation[1:, 0], transforms(values[1:])["rotation_xyzw"][:, 0], atol=1e-6)


# ----------------------------------------------------------------------------- templates and timing


UNOWNED = 0x100
"""A Built flag bit the encoder does not own (unnamed), set in the template."""


def template(flags: int):
    model = read_bytes((LUNA / "holds.animclip").read_bytes())
    model.built.flags = int(model.built.flags) | flags | UNOWNED
    model.sections.append(RawSection(tag=TAG_SAMPLE_DATA_PAGED, data=bytes(64)))
    return model


@pytest.mark.parametrize("looping", [False, True])
def test_a_template_gives_way_to_the_encoders_flags_sample_data_and_duration(looping):
    # docs/animclip.md 7.1: looping 0x20 and lookup 0x10000 are the encoding's; the duration is
    # N / fps looping, (N - 1) / fps otherwise (Luna). 7.10: Paged is read before Resident,
    # so a template's Paged would play instead of the new samples.
    frames = 9
    angle, rotation = full_turn(frames)
    enc = encode(Frames(rotation[:, None], np.zeros((frames, 1, 3)), np.ones((frames, 1, 3))),
                 Tolerance(0.05, 1e-3, 1e-3), looping=looping, lookup=looping)
    owned = FLAG_LOOPING | FLAG_FRAME_DATA_LOOKUP
    data = written(enc, [crc32("head")], fps=24.0, template=template(0 if looping else owned))
    sections = dat1_sections(data)
    assert TAG_SAMPLE_DATA_PAGED not in sections
    flags, fps, duration = struct.unpack_from("<Iff", sections[TAG_BUILT], 0x08)
    assert flags & owned == (owned if looping else 0)
    assert flags & ~owned == template(0).built.flags & ~owned  # the template's other bits stay
    assert flags & UNOWNED
    assert duration == np.float32((frames if looping else frames - 1) / 24.0) and fps == 24.0
    decoded = decode_clip(read_bytes(data)).frames()
    assert angle_deg(decoded.rotation[:, 0], rotation).max() < 0.06


# ----------------------------------------------------------------------------- large elements


def test_a_large_element_with_a_shift_decodes_through_its_code():
    # A translation spanning 300,000 units within 1 unit: an 18-bit field shifted by 1, in the
    # large table after the small one (a turn about x: small fields, padding).
    frames = 7
    pos = np.zeros((frames, 1, 3))
    pos[:, 0, 0] = np.linspace(0, 300_000, frames) + [0, 123.4, 7.7, 911.1, 55.5, 402.2, 3.3]
    rot = axis_angle([1, 0, 0], np.linspace(0, 0.3, frames))[:, None]
    enc = encode(Frames(rot, pos, np.ones((frames, 1, 3))), Tolerance(0.05, 1.0, 1e-3))
    assert enc.num_small % 4 and enc.num_large and (enc.shifts[enc.num_small:] > 0).any()
    data = written(enc, [crc32("head")])
    elem = dat1_sections(data)[TAG_SAMPLE_ELEM]
    n, m = enc.num_small, enc.num_large
    at = 5 * n + (-n % 4) + 4 * m
    codes = struct.unpack_from(f"<{m}H", elem, at)  # 7.9: width - 1 in the low byte, shift in the high
    assert [(c & 0xFF) + 1 for c in codes] == list(enc.widths[n:])
    assert [c >> 8 for c in codes] == list(enc.shifts[n:])
    decoded = reference_frames(data)["translation"][:, 0]
    assert np.linalg.norm(decoded - pos[:, 0], axis=-1).max() <= 1.0


def test_a_refused_large_element_is_named_at_its_own_byte():
    # Two small elements (8 bytes of offsets, 2 of codes, 2 of padding), then the large table:
    # the large element's offset 4 bytes past its start, its code after the m offsets.
    from test_animclip_msm2 import ELEMS, dat1, payloads, sample_elem

    for large, code, past in (
        ([(2, 8, 17, 2), (7, 8, 17, 2)], "sample-elem-joint", 4 * 1),  # offset of large[1]
        ([(2, 8, 17, 2), (2, 9, 33, 0)], "sample-elem-width", 4 * 2 + 2 * 1),  # code of large[1]
    ):
        data = dat1(payloads(elem=sample_elem(large=large), built=dict(large=2, stride=12)))
        with pytest.raises(ParseError) as caught:
            decode_clip(read_bytes(data))
        assert code in str(caught.value)
        small_end = 5 * len(ELEMS) + (-len(ELEMS)) % 4
        assert caught.value.offset == dat1_offset(data, TAG_SAMPLE_ELEM) + small_end + past


# ----------------------------------------------------------------------------- the JS twin


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_viewer_decodes_a_looping_lookup_whose_extra_entry_moves_the_samples(tmp_path):
    # 8 frames: 8 lookup entries end at byte 16, a looping clip's 9 at 18, so its samples
    # start at byte 32; a decoder that forgets the extra entry reads every sample 16 bytes early.
    from test_animclip_samples import LOOKUP, LOOPING, clip_file, random_clip

    clip = random_clip(43, samples=3)
    lookup = [0, 1, 2, 2, 1, 0, 1, 2, 0]
    path = tmp_path / "lookup_loop_8.animclip"
    path.write_bytes(clip_file(clip, frames=8, flags=LOOKUP | LOOPING, lookup=lookup))
    r = subprocess.run([shutil.which("node"), str(ROOT / "tests" / "web" / "js_clip.js"), str(path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    js = json.loads(r.stdout)["clips"][0]
    assert js["error"] is None and "decode_error" not in js, js
    rotation = np.array(js["rotation"], np.float64).reshape(8, len(clip.records), 4)
    translation = np.array(js["translation"], np.float64).reshape(8, len(clip.records), 3)
    for f, s in enumerate(lookup[:8]):
        for j, (rot, tra, _) in enumerate(clip.expected(s)):
            np.testing.assert_allclose(rotation[f, j], rot, atol=1e-6)
            np.testing.assert_allclose(translation[f, j], tra, rtol=1e-6, atol=1e-6)


# ----------------------------------------------------------------------------- validator bounds


def motion_codes(motion: bytes) -> set[str]:
    from test_animclip_msm2 import clip, payloads  # noqa: F401

    return {f.code for f in validate(read_bytes(clip(motion=motion)))}


def samples(count: int) -> tuple[np.ndarray, np.ndarray]:
    return np.tile([0.0, 0.0, 0.0, 1.0], (count, 1)), np.zeros((count, 3))


@pytest.mark.parametrize("secondary", [False, True])
def test_motion_sample_count_just_inside_and_just_outside(secondary):
    # The clip: 4 frames, looping: 5 samples, twice that with a secondary stream (7.8, 11.24).
    flags = 0x02 | (0x04 if secondary else 0)
    need = 10 if secondary else 5
    for count, finding in ((need, False), (need - 1, True), (need + 1, True), (15 - need, True)):
        found = motion_codes(motion_write(*samples(count), flags=flags))
        assert ("motion-sample-count" in found) == finding, (count, found)


def test_a_clip_of_no_frames_calls_for_one_motion_sample():
    # A clip of 0 frames still shows one pose (its base pose), so its root motion has one
    # sample; a one-shot clip (no looping sample).
    from test_animclip_msm2 import clip

    for count, finding in ((1, False), (2, True)):
        data = clip(built=dict(frames=0, flags=0x1 | 0x800000, resident=0, unique=0),
                    motion=motion_write(*samples(count)))
        found = {f.code: f for f in validate(read_bytes(data))}
        assert ("motion-sample-count" in found) == finding, (count, found)
    assert "call for 1" in found["motion-sample-count"].message


def test_a_motion_data_of_just_its_header_is_whole_and_one_byte_less_is_not():
    # 11.23: the 0x7C-byte header alone, no sample, no padding: nothing cut short, nothing
    # to decode and nothing to note; a byte less is cut short.
    header = motion_write(*samples(0), pad=False)
    assert len(header) == 0x7C
    assert "motion-data-size" not in motion_codes(header)
    assert "motion-data-size" in motion_codes(header[:-1])
    from test_animclip_msm2 import clip

    assert decode_clip(read_bytes(clip(motion=header))).notes == []


@pytest.mark.parametrize("offset", [0, 16, 48])
def test_motion_samples_end_from_their_offset_just_inside_and_just_outside(offset):
    # 11.23: the samples start at the header's end plus their offset; 5 of 16 bytes each.
    fits = motion_write(*samples(5), offset=offset, pad=False)
    assert len(fits) == 0x7C + offset + 16 * 5
    assert "motion-data-size" not in motion_codes(fits)
    assert "motion-data-size" in motion_codes(fits[:-1])
    assert decode_motion(fits)[0] is not None
    with pytest.raises(ParseError, match="motion-data-size"):
        decode_motion(fits[:-1])


@pytest.mark.parametrize("offset", [16, 48])
def test_motion_samples_are_read_where_their_offset_puts_them(offset):
    # 7.8: the samples start ofs_samples bytes after the 0x7C-byte header; each sample here is
    # its own turn and move, so reading from anywhere else gives other values.
    angles = np.radians([10.0, 35.0, 70.0])
    rotation = np.stack([axis_angle((0.3, 1.0, 0.2), a) for a in angles])
    translation = np.array([[1.0, 2.0, 3.0], [-4.0, 0.5, 6.0], [7.0, -8.0, 0.25]])
    payload = motion_write(rotation, translation, offset=offset)
    reference = motion_read(payload)
    motion, why = decode_motion(payload)
    assert motion is not None, why
    np.testing.assert_allclose(motion.translation, reference["translation"], atol=0)
    np.testing.assert_allclose(motion.rotation, reference["rotation"], atol=1e-12)
    np.testing.assert_allclose(motion.translation, translation, atol=2.0 ** -9)


# ----------------------------------------------------------------------------- reports


def test_the_frames_report_poses_the_rig_with_the_clips_rotations():
    # A two-bone rig: the child 1 unit along x from the root. The root turns about a tilted
    # axis; the child's world position is the root's translation plus its turned offset.
    skeleton = Skeleton(np.array([-1, 0]), np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]),
                        np.tile([1.0, 0.0, 0.0, 0.0], (2, 1)), ["root", "child"])
    frames = 5
    rotation = axis_angle([1, 2, 3], np.linspace(0.2, 1.4, frames))
    rot = np.stack([rotation, np.tile([0.0, 0.0, 0.0, 1.0], (frames, 1))], axis=1)
    pos = np.zeros((frames, 2, 3))
    pos[:, 0] = [0.5, -1.0, 2.0]
    pos[:, 1] = [1.0, 0.0, 0.0]
    enc = encode(Frames(rot, pos, np.ones((frames, 2, 3))), Tolerance(0.01, 1e-4, 1e-3))
    model = read_bytes(written(enc, [crc32("root"), crc32("child")]))
    report = frames_report(model, decode_clip(model), skeleton)
    world = report.world_positions
    assert world is not None
    np.testing.assert_allclose(world[:, 0], pos[:, 0], atol=1e-3)
    np.testing.assert_allclose(world[:, 1], pos[:, 0] + rotate(rotation, [1.0, 0.0, 0.0]), atol=1e-3)


def test_the_decode_bound_counts_what_decoding_allocates():
    # 11.22: 40 bytes per joint per decoded sample, and per frame with a lookup (the copy
    # frames() gathers). Measured: the bytes decoding and gathering keep (tracemalloc).
    from test_animclip_samples import LOOKUP, clip_file, random_clip

    clip = random_clip(5, joints=40, samples=50)
    frames = 120
    lookup = [k % 50 for k in range(frames)]
    model = read_bytes(clip_file(clip, frames=frames, flags=LOOKUP, lookup=lookup))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        decoded = decode_clip(model)
        poses = decoded.frames()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    results = sum(a.nbytes for t in (decoded.samples, poses) for a in (t.scale, t.rotation, t.translation))
    bound = DECODE_BYTES_PER_JOINT * 40 * (50 + frames)
    assert results == bound
    assert bound <= kept < bound + 256 * 1024  # the results, and little besides
    assert rotation_difference(poses.rotation[:, 0], poses.rotation[:, 0]) == 0


def _clip_of_random_samples(joints: int, elements: list[tuple[int, int, int, int]], samples: int) -> bytes:
    """A clip of ``samples`` samples of random bits: every bit pattern decodes, and the packer's
    bit-by-bit loop would take seconds for the samples a chunked decode needs."""
    import random

    from test_animclip_samples import Clip, clip_file

    clip = Clip(joints, random.Random(joints))
    clip.small = elements
    clip.samples = [[]] * samples
    data = np.random.default_rng(samples).bytes(samples * clip.stride())
    clip.sample_payload = lambda stride, lookup=None: data  # type: ignore[method-assign]
    return clip_file(clip, frames=samples)


@pytest.mark.parametrize("shape", ["scattered", "two per component", "rows in place", "translations and scales"])
def test_the_decoders_working_memory_is_about_its_chunk_budget(shape):
    # decode.CHUNK_VALUES: samples are decoded in chunks of about 2^17 float64 values (1 MiB) of
    # working memory, whatever the clip's length; measured beside the results it hands out.
    from test_animclip_samples import random_clip

    from animspec.animclip.frames.decode import CHUNK_VALUES

    samples = 3000
    if shape == "scattered":  # one element on each of 120 components, three large ones straddling words
        clip = random_clip(3, joints=40, samples=0)
        joints, elements = 40, clip.small + clip.large
        clip.large = []
    elif shape == "two per component":  # the parts of one component summed: their sums take most of the memory
        joints, elements = 30, [(j, c, 1, s) for j in range(30) for c in (4, 5, 6, 7) for s in (0, 2)]
    elif shape == "rows in place":  # rotations of one 16-bit field each, computed in their rows
        joints, elements = 60, [(j, c, 16, 0) for j in range(60) for c in (4, 5, 6, 7)]
    else:
        joints, elements = 60, [(j, c, 10, 1) for j in range(60) for c in (0, 1, 2, 8, 9, 10)]
    model = read_bytes(_clip_of_random_samples(joints, sorted(elements), samples))
    decode_clip(model)  # the file's own lazily parsed sections, read once
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        decoded = decode_clip(model)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    results = sum(a.nbytes for a in (decoded.samples.scale, decoded.samples.rotation, decoded.samples.translation))
    assert results == samples * joints * 40
    budget = CHUNK_VALUES * 8
    assert results > 3 * budget  # several chunks: an unchunked decode would hold more than the results
    assert 0.8 * budget < peak - before - results < 1.2 * budget


def test_a_zero_initial_rotation_is_the_identity_for_a_camera_path():
    # docs/animclip.md 11.27: a zero initial rotation is the identity, as a zero sample rotation is.
    k = np.arange(4)
    samples_q = axis_angle([0, 1, 0], 0.4 * k)
    samples_t = np.stack([0.5 * k, -0.25 * k, 0.125 * k], axis=1)
    motion, _ = decode_motion(motion_write(samples_q, samples_t, initial_rotation=(0, 0, 0, 0),
                                           initial_translation=(1.0, 2.0, 3.0)))
    assert motion is not None
    translation, rotation = camera_path(motion)
    assert angle_deg(rotation, samples_q).max() < 0.01
    np.testing.assert_allclose(translation, [1.0, 2.0, 3.0] + samples_t, atol=1e-3)


def test_root_motion_keeps_signs_continuous_so_a_reader_turns_the_short_way():
    # 7.8: the samples are kept sign-continuous (Luna's exporter), the looping copy too.
    angle, rotation = full_turn(24)
    read = motion_read(encode_motion(np.zeros((24, 3)), rotation, looping=True))["rotation"]
    assert angle_deg(read[:24], rotation).max() < 0.01
    between = axis_angle(AXIS, (angle[:-1] + angle[1:]) / 2)
    assert angle_deg(midpoints(read[:24]), between).max() < 0.05
    assert np.dot(read[23], read[24]) > 0  # the closing copy of frame 0 on the side of the last
