"""The .animclip animation encoder (python/animspec/animclip/frames/encode.py, frames/sections.py).

Every encoded clip is decoded back with the reference decoder of tests/animclip_reference.py
(written from the documented bit layout, not from the encoder) and compared with the input:
within the tolerance, and exactly at the error the encoder reports. The Luna fixtures
(tests/fixtures/luna, written by Luna Engine IO Tools) give real sources to encode: our clips
land within the tolerance of what Luna's importer read from Luna's own clip, in fewer bytes.
"""

from __future__ import annotations

import json
import math
import struct

import numpy as np
import pytest
from animclip_reference import Counts, built_counts, decode_values, rotation_difference, transforms, section_payload
from conftest import ROOT

from animspec.animclip.frames.sections import TAG_SAMPLE_DATA_RESIDENT, clip_model
from animspec.animclip.frames.encode import (
    EncodeError,
    Frames,
    Tolerance,
    encode,
)
from animspec.animclip.frames.coding import bit_offsets, pack_fields, sample_words, unpack_fields
from animspec.animclip.parse import read_bytes
from animspec.animclip.tags import TAG_BASE_STATE, TAG_BUILT, TAG_JOINT_HASHES, TAG_SAMPLE_DATA, TAG_SAMPLE_ELEM
from animspec.animclip.write import payloads, write_bytes
from animspec.common.hashes import crc32

LUNA = ROOT / "tests" / "fixtures" / "luna"


def luna_record(name: str) -> dict:
    return json.loads((LUNA / f"{name}.json").read_text())


def source_frames(rec: dict) -> Frames:
    src = rec["source"]["engine_local"]
    return Frames(np.array(src["rotation_xyzw"]), np.array(src["translation"]), np.array(src["scale"]))


def synthetic(frames: int = 40, joints: int = 5, seed: int = 7) -> Frames:
    """Smooth motion with a hold, a constant joint and a scale below and above 1."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, frames)[:, None, None]
    axes = rng.normal(size=(1, joints, 3))
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    angle = 2.5 * np.sin(2 * np.pi * t * rng.uniform(0.5, 2, size=(1, joints, 1)))
    angle[:, 0] = 0.3  # a joint that never turns
    angle[10:16] = angle[10]  # a hold
    rot = np.concatenate([axes * np.sin(angle / 2), np.cos(angle / 2)], axis=-1)
    pos = rng.uniform(-2, 2, size=(1, joints, 3)) + 0.5 * np.sin(3 * t + rng.normal(size=(1, joints, 3)))
    pos[10:16] = pos[10]
    scale = np.ones((frames, joints, 3))
    scale[:, 2] = 1 + 0.4 * np.sin(2 * np.pi * t[:, 0])  # below and above 1
    scale[10:16] = scale[10]
    return Frames(rot, pos, scale)


def sample_elem_payload(enc) -> bytes:
    """Sample Elem as the writer lays out the model's columns that clip_model fills."""
    model = clip_model(enc, np.arange(enc.joints))
    return dict(zip([s.tag for s in model.sections], payloads(model)))[TAG_SAMPLE_ELEM]


def reference_decode(enc) -> dict[str, np.ndarray]:
    """Decode the encoder's sections with the reference decoder."""
    counts = Counts(enc.joints, enc.frames, enc.num_small, enc.num_large, enc.stride, enc.flags)
    return transforms(decode_values(enc.base_state_records().tobytes(), sample_elem_payload(enc),
                                    enc.sample_data_bytes(), counts))


def errors(decoded: dict, frames: Frames) -> tuple[float, float, float]:
    """The error a reader sees, computed here from the decoded values as the decoder hands them
    out (float32): the angle between the rotations in degrees, the distance between the
    translations, the scale's ratio error."""
    rot, pos, scl = frames.checked()
    read = {k: np.asarray(v).astype(np.float32).astype(np.float64) for k, v in decoded.items()}
    q = read["rotation_xyzw"] / np.linalg.norm(read["rotation_xyzw"], axis=-1, keepdims=True)
    dot = np.abs((q * rot).sum(axis=-1))
    return (float(np.degrees(2 * np.arccos(np.clip(dot, 0, 1))).max()),
            float(np.linalg.norm(read["translation"] - pos, axis=-1).max()),
            float(np.abs(read["scale"] / scl - 1).max()))


def component_errors(decoded: dict, frames: Frames) -> tuple[float, float, float]:
    """The largest difference of any component (quaternion, translation, scale)."""
    rot, pos, scl = frames.checked()
    return (rotation_difference(decoded["rotation_xyzw"], rot),
            float(np.abs(decoded["translation"] - pos).max()),
            float(np.abs(decoded["scale"] - scl).max()))


def reported(enc) -> tuple[float, float, float]:
    return enc.error.rotation.worst, enc.error.translation.worst, enc.error.scale.worst


def uniform(e: float) -> Tolerance:
    """Translation and scale within ``e``, rotation within the angle that moves no quaternion
    component by more than ``e`` (an angle a moves a unit quaternion by 2 sin(a / 4) < a / 2)."""
    return Tolerance(math.degrees(2 * e), e, e)


@pytest.mark.parametrize("max_error", [1e-2, 1e-3, 1e-4])
@pytest.mark.parametrize("looping", [False, True])
def test_round_trip_within_the_tolerance_and_at_the_reported_error(max_error, looping):
    frames = synthetic()
    enc = encode(frames, uniform(max_error), looping=looping)
    got = errors(reference_decode(enc), frames)
    assert got == pytest.approx(reported(enc), abs=1e-9)
    assert enc.error.within(uniform(max_error)), enc.error


def test_coarser_tolerance_costs_fewer_bits_through_error_shifts():
    frames = synthetic()
    fine, coarse = (encode(frames, uniform(e)) for e in (1e-4, 1e-2))
    assert coarse.stride < fine.stride
    assert coarse.shifts.max() > 0 and fine.shifts.min() >= 0
    assert coarse.widths.sum() < fine.widths.sum()


def test_holds_share_samples_through_the_frame_lookup():
    frames = synthetic()
    enc = encode(frames, uniform(1e-3), looping=True)
    assert enc.lookup is not None and enc.flags & 0x10000
    assert len(enc.lookup) == enc.frames + 1 and enc.lookup[-1] == enc.lookup[0]
    assert enc.unique_samples == enc.frames - 5  # frames 10..15 are one sample
    assert len(set(enc.lookup[10:16].tolist())) == 1
    forced_off = encode(frames, uniform(1e-3), looping=True, lookup=False)
    assert forced_off.lookup is None and len(forced_off.sample_data_bytes()) > len(enc.sample_data_bytes())


def test_a_constant_joint_has_no_elements_and_a_single_frame_has_no_samples():
    frames = synthetic()
    enc = encode(frames, uniform(1e-3))
    joints = enc.components // 12
    rotation_elements_of_joint_0 = [c for c in enc.components if c // 12 == 0 and 4 <= c % 12 < 8]
    assert rotation_elements_of_joint_0 == [] and set(joints) != {0}
    single = Frames(frames.rotations[:1], frames.translations[:1], frames.scales[:1])
    one = encode(single, uniform(1e-4))
    assert (one.stride, len(one.components), one.sample_data_bytes()) == (0, 0, b"")
    assert errors(reference_decode(one), single)[1] <= 1e-4


def test_fields_wider_than_16_bits_go_to_the_large_table():
    # 0..11 units at a 1e-4 tolerance needs a finer shift than 16 bits of range allow
    rec = luna_record("wide_range")
    frames = source_frames(rec)
    enc = encode(frames, uniform(1e-4))
    assert enc.num_large >= 1 and (enc.widths[enc.num_small:] > 16).all() and (enc.widths[:enc.num_small] <= 16).all()
    got = errors(reference_decode(enc), frames)
    assert got == pytest.approx(reported(enc), abs=1e-9)
    codes = struct.unpack_from(f"<{enc.num_large}H", sample_elem_payload(enc), ((5 * enc.num_small + 3) & ~3) + 4 * enc.num_large)
    assert [(c & 0xFF) + 1 for c in codes] == enc.widths[enc.num_small:].tolist()


def test_pack_and_unpack_are_inverse_and_lsb_first():
    widths = np.array([3, 16, 32, 1, 13, 17])
    rng = np.random.default_rng(3)
    fields = np.stack([rng.integers(0, 1 << int(w), size=9, dtype=np.int64) for w in widths], axis=1)
    packed = pack_fields(fields, widths)
    assert packed.shape == (9, 4 * -(-int(widths.sum()) // 32))
    assert (unpack_fields(sample_words(packed), bit_offsets(widths), widths) == fields).all()
    one = pack_fields(np.array([[5, 1]]), np.array([3, 2]))
    assert one.tobytes() == (5 | (1 << 3)).to_bytes(4, "little")


@pytest.mark.parametrize(("samples", "widths"), [(1, [3, 16, 32]), (0, [3, 16]), (4, []), (0, [])])
def test_unpack_inverts_pack_for_one_sample_none_and_no_elements(samples, widths):
    """The edges of the inverse: one sample (a still clip's only one), no samples, no
    elements (a clip whose joints all hold still): the fields come back in their shape."""
    widths = np.array(widths, np.int64)
    fields = np.arange(samples * widths.size, dtype=np.int64).reshape(samples, widths.size) % 7 + 1
    packed = pack_fields(fields, widths)
    words = sample_words(packed) if samples else np.zeros((0, packed.shape[1] // 4), "<u4")
    back = unpack_fields(words, bit_offsets(widths), widths)
    assert back.shape == (samples, widths.size) and (back == fields).all()


def test_the_field_reader_reads_every_other_sample_of_a_block():
    """FieldReader takes samples as rows of bytes; a strided view of them (every other sample,
    as a frame lookup's gather might hand it) reads the same fields as a compact copy, and as
    pack_fields wrote them."""
    from animspec.animclip.frames.coding import FieldReader

    widths = np.array([3, 16, 25, 7, 32, 1], np.int64)
    rng = np.random.default_rng(3)
    fields = rng.integers(0, 2 ** widths, size=(40, widths.size))
    packed = pack_fields(fields, widths)
    reader = FieldReader(bit_offsets(widths), widths, packed.shape[1])
    strided = packed[::2]
    assert not strided.flags.c_contiguous
    assert (reader(strided).T == fields[::2]).all()
    assert (reader(np.ascontiguousarray(strided)).T == fields[::2]).all()


@pytest.mark.parametrize("name", ["loop_walk", "holds", "wide_range", "root_motion"])
def test_a_luna_source_encodes_to_what_lunas_importer_reads_within_the_tolerance(name):
    """Our clip of Luna's source, decoded, agrees with what Luna's importer read from Luna's
    clip of the same source, within our tolerance plus Luna's own quantisation error."""
    rec = luna_record(name)
    frames = source_frames(rec)
    luna = {k: np.asarray(v) for k, v in rec["luna_import"]["engine_local"].items()}
    luna_err = component_errors(luna, frames)
    tol = 2e-4
    enc = encode(frames, uniform(tol), looping=rec["looping"])
    ours = reference_decode(enc)
    assert rotation_difference(ours["rotation_xyzw"], luna["rotation_xyzw"]) <= tol + luna_err[0] + 1e-6
    assert np.abs(ours["translation"] - luna["translation"]).max() <= tol + luna_err[1] + 1e-6
    assert np.abs(ours["scale"] - luna["scale"]).max() <= 1e-5


def luna_sample_data(rec: dict) -> tuple[int, int]:
    """(bits per sample, Sample Data bytes) of Luna's clip."""
    dat1 = (LUNA / rec["clip"]).read_bytes()[32:]
    count, = struct.unpack_from("<H", dat1, 12)
    table = {t: (o, s) for t, o, s in (struct.unpack_from("<III", dat1, 16 + 12 * i) for i in range(count))}
    o, s = table[TAG_BUILT]
    small, = struct.unpack_from("<I", dat1, o + 0x24)
    eo, _ = table[TAG_SAMPLE_ELEM]
    bits = sum((c & 0xF) + 1 for c in dat1[eo + 4 * small:eo + 5 * small])
    return bits, table[TAG_SAMPLE_DATA_RESIDENT][1]


@pytest.mark.parametrize("name", ["loop_walk", "holds", "wide_range", "root_motion"])
def test_against_lunas_encoder_never_bigger_and_smaller_when_the_tolerance_allows(name):
    """Luna's encoder: shift 0 everywhere, no lookup. At the error Luna reached, as a reader
    measures it (5% added for the float32 rounding in what its importer keyed), Sample Data is
    never bigger and a sample at most 2 bits wider (the error is a joint's distance, and our
    translation grid starts at the clip's smallest value where Luna's starts at 0: on "holds"
    one joint needs the finer step, 169 bits against 167, in 280 bytes of Sample Data against
    720); at 1e-3 (well under a visible error) Sample Data is strictly smaller, error within 1e-3."""
    rec = luna_record(name)
    frames = source_frames(rec)
    luna = {k: np.asarray(v) for k, v in rec["luna_import"]["engine_local"].items()}
    r_err, t_err = (1.05 * e for e in errors(luna, frames)[:2])
    luna_bits, luna_bytes = luna_sample_data(rec)
    tight = encode(frames, Tolerance(rotation_deg=r_err, translation=t_err, scale=1e-4), looping=rec["looping"])
    assert tight.error.rotation.worst <= r_err and tight.error.translation.worst <= t_err
    assert int(tight.widths.sum()) <= luna_bits + 2 and len(tight.sample_data_bytes()) <= luna_bytes
    loose = encode(frames, uniform(1e-3), looping=rec["looping"])
    assert loose.error.within(uniform(1e-3))
    assert len(loose.sample_data_bytes()) < luna_bytes


def test_scale_keys_survive_which_lunas_encoder_drops():
    rec = luna_record("scale_keys")
    frames = source_frames(rec)
    enc = encode(frames, uniform(1e-4))
    decoded = reference_decode(enc)
    assert np.abs(decoded["scale"] - frames.scales).max() <= 1e-4
    luna = np.asarray(rec["luna_import"]["engine_local"]["scale"])
    assert np.abs(luna - frames.scales).max() > 0.1  # what Luna's round trip lost


def test_the_clip_goes_through_the_writer_and_reads_back():
    rec = luna_record("holds")
    enc = encode(source_frames(rec), uniform(1e-4))
    hashes = [int(j["hash"], 16) for j in rec["joints"]]
    data = write_bytes(clip_model(enc, hashes, fps=30.0, name="holds"))
    model = read_bytes(data)
    assert model.clip_name == "holds"
    got = {s.tag: s for s in model.sections}
    counts = built_counts(bytes(section_payload(data, TAG_BUILT)))
    assert counts == Counts(6, rec["frames"], enc.num_small, enc.num_large, enc.stride, enc.flags)
    assert list(got[TAG_JOINT_HASHES].hashes) == hashes + [0xFFFFFFFF]
    values = decode_values(section_payload(data, TAG_BASE_STATE), section_payload(data, TAG_SAMPLE_ELEM),
                           section_payload(data, TAG_SAMPLE_DATA_RESIDENT), counts)
    assert errors(transforms(values), source_frames(rec)) == pytest.approx(reported(enc), abs=1e-9)



def test_a_template_keeps_every_section_the_encoder_does_not_produce():
    template_bytes = (ROOT / "examples" / "walk.animclip").read_bytes()
    template = read_bytes(template_bytes)
    joints = len(template.section(TAG_BASE_STATE).joints)
    frames = synthetic(frames=12, joints=joints)
    enc = encode(frames, uniform(1e-3))
    hashes = np.asarray(template.section(TAG_JOINT_HASHES).hashes[:joints])
    out_bytes = write_bytes(clip_model(enc, hashes, fps=24.0, template=template))
    out = read_bytes(out_bytes)
    produced = {TAG_BUILT, TAG_BASE_STATE, TAG_SAMPLE_ELEM, TAG_JOINT_HASHES, TAG_SAMPLE_DATA}
    kept_before = [s for s in template.sections if s.tag not in produced]
    kept_after = [s for s in out.sections if s.tag not in produced]
    assert kept_before and kept_before == kept_after
    assert out.strings == template.strings and out.clip_name == template.clip_name
    # Built: the encoder's values at their offsets, every other byte the template's
    before, after = bytearray(section_payload(template_bytes, TAG_BUILT)), bytearray(section_payload(out_bytes, TAG_BUILT))
    assert struct.unpack_from("<fHH", after, 0x0C)[0] == 24.0
    assert struct.unpack_from("<HH", after, 0x20) == (joints, 12)
    # the values the encoder owns (Luna's layout, tests/fixtures/luna/README.md): flags, fps,
    # duration, joints, frames, small elements, stride, distinct samples, resident samples,
    # resident fps, large elements
    for offset, fmt in ((0x08, "<I"), (0x0C, "<f"), (0x10, "<f"), (0x20, "<H"), (0x22, "<H"), (0x24, "<I"),
                        (0x28, "<I"), (0x30, "<H"), (0x3E, "<H"), (0x40, "<f"), (0x44, "<I")):
        size = struct.calcsize(fmt)
        before[offset:offset + size] = after[offset:offset + size] = bytes(size)
    assert before == after
    assert template.section(TAG_SAMPLE_DATA) is None or out.section(TAG_SAMPLE_DATA) is not None


@pytest.mark.parametrize("bad, message", [
    (Frames(np.full((2, 1, 4), np.nan), np.zeros((2, 1, 3))), "NaN"),
    (Frames(np.zeros((2, 1, 4)), np.zeros((2, 1, 3))), "zero length"),
    (Frames(np.ones((2, 1, 4)), np.zeros((2, 2, 3))), "translations must be"),
    (Frames(np.ones((0, 1, 4)), np.zeros((0, 1, 3))), "at least one frame"),
    (Frames(np.ones((2, 1, 4)), np.zeros((2, 1, 3)), np.zeros((2, 1, 3))), "scale is zero"),
    (Frames(np.ones((2, 2, 4)), np.array([[[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, -4e4, 0]]])),
     "joint 1: translation y is -40000 units at frame 1, below -32767"),
])
def test_bad_input_is_one_clear_error(bad, message):
    with pytest.raises(EncodeError, match=message):
        encode(bad)


def test_max_error_must_be_positive():
    with pytest.raises(EncodeError, match="positive"):
        Tolerance(rotation_deg=0.0)


def test_past_the_coarsest_tolerance_the_small_codes_still_hold_their_shifts():
    """A tolerance no step can exceed (the library takes any positive one; the command line
    stops at half the coarsest step) gets the coarsest steps a small element's code can say:
    its shift is the code's high nibble (docs/animclip.md 7.9), so at most 15. A translation
    across 60,000 units then needs 2 bits; what the file holds, read by the reference
    decoder, is what the encoder reports."""
    frames_count = 48
    turn = np.linspace(0.0, 2.0 * np.pi, frames_count)[:, None]
    rot = np.stack([np.zeros_like(turn), np.zeros_like(turn), np.sin(turn / 2), np.cos(turn / 2)], axis=-1)
    pos = np.zeros((frames_count, 1, 3))
    pos[:, 0, 0] = np.linspace(-30000.0, 30000.0, frames_count)
    frames = Frames(rot, pos)
    enc = encode(frames, Tolerance(180.0, 1e9, 1e9))
    payload = sample_elem_payload(enc)
    codes = np.frombuffer(payload, "u1", enc.num_small, 4 * enc.num_small)  # after the n u32 offsets
    assert (codes >> 4).tolist() == enc.shifts[: enc.num_small].tolist()
    assert 8 in enc.components.tolist() and enc.shifts.max() == 15  # translation x: 60,000 / 2^15 needs 2 bits
    assert errors(reference_decode(enc), frames) == pytest.approx(reported(enc), abs=1e-9)


def test_large_false_keeps_fields_within_16_bits_at_a_reported_cost():
    frames = source_frames(luna_record("wide_range"))
    wide = encode(frames, uniform(1e-4))
    narrow = encode(frames, uniform(1e-4), large=False)
    assert wide.num_large >= 1 and narrow.num_large == 0 and narrow.widths.max() <= 16
    got = errors(reference_decode(narrow), frames)
    assert got == pytest.approx(reported(narrow), abs=1e-9)
    assert narrow.error.translation.worst >= wide.error.translation.worst


def test_large_elements_reach_the_file_and_decode_back():
    """A clip with large elements (fields past 16 bits) goes through the model's large table:
    written, read back, it has them, and animspec's decoder gives the encoded poses."""
    from animspec.animclip.frames.pose import clip_frames

    frames = source_frames(luna_record("wide_range"))
    enc = encode(frames, uniform(1e-4))
    assert enc.num_large >= 1
    data = write_bytes(clip_model(enc, np.arange(enc.joints), name="x"))
    counts = built_counts(section_payload(data, TAG_BUILT))
    assert (counts.small, counts.large) == (enc.num_small, enc.num_large)
    values = decode_values(section_payload(data, TAG_BASE_STATE), section_payload(data, TAG_SAMPLE_ELEM),
                           section_payload(data, TAG_SAMPLE_DATA_RESIDENT), counts)
    assert errors(transforms(values), frames) == pytest.approx(reported(enc), abs=1e-9)
    back = read_bytes(data, "x.animclip")
    assert len(back.section(TAG_SAMPLE_ELEM).large_codes) == enc.num_large
    decoded = clip_frames(back, "x.animclip").frames()
    rot, pos, scl = frames.checked()
    got = errors({"rotation_xyzw": decoded.rotation, "translation": decoded.translation, "scale": decoded.scale},
                 frames)
    assert got == pytest.approx(reported(enc), abs=1e-9)




# ---------------------------------------------------------------------------- root motion (Motion Data)


def yaw_xyzw(angle: np.ndarray) -> np.ndarray:
    """Turns about +Y (x, y, z, w)."""
    return np.stack([0 * angle, np.sin(angle / 2), 0 * angle, np.cos(angle / 2)], axis=-1)


def walk_and_turn(frames: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A root that starts away from the origin, turned, then walks and turns: (translation,
    rotation xyzw, yaw angle) per frame."""
    k = np.arange(frames)
    angle = 0.4 + 0.05 * k
    translation = np.stack([1.5 + 0.1 * k, 0.02 * np.sin(k), -3.0 + 0.25 * k], axis=1)
    return translation, yaw_xyzw(angle), angle


def expected_relative(translation: np.ndarray, angle: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Frame 0's inverse times each frame, worked out for turns about Y alone."""
    d = translation - translation[0]
    c, s = np.cos(-angle[0]), np.sin(-angle[0])
    rel_t = np.stack([c * d[:, 0] + s * d[:, 2], d[:, 1], -s * d[:, 0] + c * d[:, 2]], axis=1)
    return rel_t, yaw_xyzw(angle - angle[0])


def same_rotations(a: np.ndarray, b: np.ndarray, atol: float) -> None:
    np.testing.assert_allclose(np.abs(np.sum(a * b, axis=1)), 1.0, atol=atol)


@pytest.mark.parametrize("looping", [False, True])
def test_root_motion_is_written_as_motion_data_and_decodes_back(looping):
    from animspec.animclip.frames.decode import decode_clip
    from animspec.animclip.tags import FLAG_HAS_MOTION, TAG_MOTION_DATA

    frames = synthetic(frames=24, joints=3)
    translation, rotation, angle = walk_and_turn(24)
    enc = encode(frames, uniform(1e-4), looping=looping, root_translation=translation, root_rotation=rotation)
    assert enc.flags & FLAG_HAS_MOTION
    data = write_bytes(clip_model(enc, [crc32(f"j{i}") for i in range(3)], fps=30.0, name="walk"))
    model = read_bytes(data)
    assert model.built.flags & FLAG_HAS_MOTION
    payload = section_payload(data, TAG_MOTION_DATA)
    assert len(payload) % 16 == 0 and struct.unpack_from("<BBH", payload) == (0, 2, 24 + looping)
    motion = decode_clip(model).root_motion
    want_t, want_q = expected_relative(translation, angle)
    if looping:  # one more sample, a copy of the first
        want_t, want_q = np.vstack([want_t, want_t[:1]]), np.vstack([want_q, want_q[:1]])
    # quantised per sample at the finest step 2^-k that fits an s2 (2^-k < 2 * largest / 32767):
    # within half a step
    bound = np.abs(want_t).max(axis=1, keepdims=True) / 32767
    assert (np.abs(motion.translation - want_t) <= bound + 1e-12).all()
    same_rotations(motion.rotation, want_q, 1e-8)
    assert (np.sum(motion.rotation[1:] * motion.rotation[:-1], axis=1) > 0).all()  # sign-continuous


def test_root_translation_alone_means_no_turning():
    from animspec.animclip.frames.motion import encode_motion
    from animspec.animclip.frames.motion import decode_motion

    translation = np.array([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [1.0, 0.25, -2.0]])
    motion, why = decode_motion(encode_motion(translation + 7.0))
    assert why == ""
    np.testing.assert_allclose(motion.translation, translation, atol=2e-5)
    np.testing.assert_array_equal(motion.rotation, np.tile([0.0, 0.0, 0.0, 1.0], (3, 1)))


def test_root_motion_errors_are_clear():
    frames = synthetic(frames=20, joints=3)
    with pytest.raises(EncodeError, match="root motion has"):
        encode(frames, root_translation=np.zeros((19, 3)))
    with pytest.raises(EncodeError, match="the root moves 40000 units along x from frame 0 at frame 19"):
        encode(frames, root_translation=np.array([[0, 0, 0]] * 19 + [[40000.0, 0, 0]]))
    with pytest.raises(EncodeError, match="non-finite"):
        encode(frames, root_translation=np.array([[0, 0, 0]] * 19 + [[np.nan, 0, 0]]))


def test_a_template_keeps_its_motion_data_unless_root_motion_is_given():
    from animspec.animclip.frames.motion import decode_motion
    from animspec.animclip.tags import FLAG_HAS_MOTION, TAG_MOTION_DATA

    template = luna_model("root_motion")
    old = bytes(template.section(TAG_MOTION_DATA).data)
    rec = luna_record("root_motion")
    hashes = [int(j["hash"], 16) for j in rec["joints"]]
    kept = read_bytes(write_bytes(clip_model(encode(source_frames(rec)), hashes, template=template)))
    assert bytes(kept.section(TAG_MOTION_DATA).data) == old and kept.built.flags & FLAG_HAS_MOTION
    translation = np.cumsum(np.full((rec["frames"], 3), 0.01), axis=0)
    new = read_bytes(write_bytes(clip_model(encode(source_frames(rec), root_translation=translation), hashes,
                                            template=template)))
    assert [s.tag for s in new.sections].count(TAG_MOTION_DATA) == 1
    motion, _ = decode_motion(new.section(TAG_MOTION_DATA).data)
    np.testing.assert_allclose(motion.translation, translation - translation[0], atol=1e-5)


def luna_model(name: str):
    from test_animclip_samples import luna_model as read_luna

    return read_luna(name)


@pytest.mark.parametrize("name", ["root_motion", "root_motion_loop"])
def test_lunas_root_motion_re_encoded_decodes_to_the_same_values(name):
    """Luna's clip, its decoded root motion encoded again into a clip of its own source
    (Luna's clip as the template): the Motion Data decodes to exactly what Luna's did."""
    from animspec.animclip.frames.decode import decode_clip
    from animspec.animclip.tags import TAG_MOTION_DATA

    rec = luna_record(name)
    template = luna_model(name)
    luna = decode_clip(template).root_motion
    frames = rec["frames"]
    assert len(luna.translation) == frames + rec["looping"]
    enc = encode(source_frames(rec), looping=rec["looping"],
                 root_translation=luna.translation[:frames], root_rotation=luna.rotation[:frames])
    hashes = [int(j["hash"], 16) for j in rec["joints"]]
    again = read_bytes(write_bytes(clip_model(enc, hashes, template=template)))
    assert bytes(again.section(TAG_MOTION_DATA).data) != bytes(template.section(TAG_MOTION_DATA).data)  # ours, not kept
    ours = decode_clip(again).root_motion
    np.testing.assert_allclose(ours.translation, luna.translation, atol=1e-6)
    np.testing.assert_allclose(ours.rotation, luna.rotation, atol=1e-6)
    assert np.abs(luna.translation).max() > 0.5  # the fixture does move


def test_element_codes_pack_and_unpack_in_one_place():
    """coding.pack_codes (the encoder's Sample Elem) and coding.unpack_codes (the model's
    SampleElem.elements) are inverse: small codes keep width - 1 and the shift in nibbles,
    large ones in bytes."""
    from animspec.animclip.frames.coding import pack_codes, unpack_codes

    widths, shifts = np.array([1, 16, 9, 17, 32, 256]), np.array([0, 15, 3, 0, 255, 7])
    small, large = pack_codes(widths, shifts, 3)
    assert small.dtype == np.dtype("u1") and large.dtype == np.dtype("<u2")
    assert small.tolist() == [0x00, 0xFF, 0x38] and large.tolist() == [0x0010, 0xFF1F, 0x07FF]
    back = unpack_codes(small, large)
    assert back[0].tolist() == widths.tolist() and back[1].tolist() == shifts.tolist()


def test_the_encoder_measures_its_error_with_the_readers_dequantisation():
    """The error an encoding reports is the error of what the decoder reads back."""
    from animspec.animclip.frames import coding, encode as encoder

    assert encoder.dequantise is coding.dequantise
    rng = np.random.default_rng(5)
    rot = rng.normal(size=(6, 3, 4))
    enc = encode(Frames(rot, rng.normal(size=(6, 3, 3))), uniform(1e-3))
    assert enc.error.within(uniform(1e-3))
