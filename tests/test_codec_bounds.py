"""The per-frame codec's bounds just inside and just outside, and the values its findings and
refusals name (issue 31: what the mutation run over animclip/frames/ found untested).

Clips are assembled with struct by the builders of tests/test_animclip_msm2.py and
tests/test_animclip_samples.py (written from docs/animclip.md), the Motion Data payloads by
tests/animclip_reference.py; the expected values come from the format's description.
"""

from __future__ import annotations

import random
import struct
import warnings

import numpy as np
import pytest
from animclip_reference import axis_angle, dat1_offset, motion_read, motion_write, section_payload
from conftest import ROOT
from gltf_reference import Document
from test_animclip_msm2 import BASE, ELEMS, HASHES, built, clip, dat1, payloads, sample_elem, stg
from test_animclip_samples import Clip, assert_poses, clip_file

import animspec.animclip.frames.inputs as inputs
from animspec.animclip import tags
from animspec.animclip.frames.decode import decode_clip, decode_samples, sample_coding
from animspec.animclip.frames.encode import Frames, Tolerance, encode
from animspec.animclip.frames.motion import decode_motion, encode_motion
from animspec.animclip.frames.sections import clip_model
from animspec.animclip.model import JointHashes
from animspec.animclip.parse import read_bytes
from animspec.animclip.validate import validate
from animspec.animclip.write import write_bytes
from animspec.common.errors import ParseError, WriteError
from animspec.common.hashes import crc32
from animspec.gltf import CameraAnimation, ClipAnimation, animclip_pose_to_gltf, animclip_to_gltf
from animspec.gltf.from_animclip import DEFAULT_XFOV, camera_animation_to_gltf

RIG = str(ROOT / "examples" / "biped_rig.glb")
LUNA = ROOT / "tests" / "fixtures" / "luna"


def findings(data: bytes) -> dict:
    return {f.code: f for f in validate(read_bytes(data))}


def refusal(data: bytes) -> ParseError:
    with pytest.raises(ParseError) as caught:
        decode_clip(read_bytes(data))
    return caught.value


# ----------------------------------------------------------------------------- Sample Data


def test_frame_lookup_size_just_inside_and_just_outside():
    # 11.20: 4 frames, looping: 5 u16 entries, 10 bytes.
    table = struct.pack("<5H", 0, 1, 1, 2, 0)
    assert "frame-lookup-size" not in findings(clip(data=table))
    found = findings(clip(data=table[:-1]))["frame-lookup-size"]
    assert "needs 10 bytes (5 entries)" in found.message and "holds 9" in found.message


@pytest.mark.parametrize("lookup", [True, False])
def test_decode_size_just_inside_and_just_outside(monkeypatch, lookup):
    # 11.22: 40 bytes per joint per decoded sample, and per frame with a lookup. The bound is
    # moved down to the clip's own need (3 joints; 3 stored samples + 4 frames, or 4 frames).
    flags = 0x1 | 0x20 | 0x800000 | (0x10000 if lookup else 0)
    table = struct.pack("<5H", 0, 1, 1, 2, 0) + bytes(6) if lookup else b""
    from test_animclip_msm2 import FIELDS, pack_bits

    rows = FIELDS + [FIELDS[0], FIELDS[1]] if not lookup else FIELDS
    data = clip(built=dict(flags=flags, unique=3 if lookup else 0),
                data=table + b"".join(pack_bits(v, [9, 12, 17], 8) for v in rows))
    need = 40 * 3 * (3 + 4 if lookup else 4)
    monkeypatch.setattr(inputs, "DECODE_PER_FILE_BYTE", 0)
    for floor, refused in ((need, False), (need - 1, True)):
        monkeypatch.setattr(inputs, "DECODE_FLOOR", floor)
        found = findings(data)
        assert ("decode-size" in found) == refused, (floor, found)
    assert f"the bound for this file is {(need - 1) >> 20} MiB" in found["decode-size"].message
    assert f"would take {need >> 20} MiB to decode" in found["decode-size"].message
    # the decoder's own guard (a second line behind the finding): the same arithmetic
    model = read_bytes(data)
    monkeypatch.setattr(inputs, "DECODE_FLOOR", 1 << 30)
    given = inputs.sample_inputs(model)
    decode_samples(given, budget=need)
    with pytest.raises(ParseError, match=f"would take {need >> 20} MiB to decode; the bound for this file is 0 MiB"):
        decode_samples(given, budget=need - 1)


def still_clip(frames: int) -> bytes:
    """3 joints and no elements: every frame is the base pose."""
    return clip(elem=sample_elem(elems=[], large=[]), data=b"",
                built=dict(elems=0, large=0, stride=0, unique=0, flags=0x1, frames=frames, resident=0))


def test_a_still_clips_decode_size_just_inside_and_just_outside():
    # 11.22 for a clip without samples: its one sample (the base pose) and, per frame, the
    # copy a caller gathers through the frame index: 40 x 3 x (1 + 4) bytes.
    given = inputs.sample_inputs(read_bytes(still_clip(4)))
    need = 40 * 3 * (1 + 4)
    _, index = decode_samples(given, budget=need)
    assert index.tolist() == [0, 0, 0, 0]
    with pytest.raises(ParseError, match="4 frame\\(s\\), 1 sample\\(s\\) of 3 joint\\(s\\)"):
        decode_samples(given, budget=need - 1)


def test_a_clip_of_no_frames_shows_its_base_pose_once():
    frames = decode_clip(read_bytes(still_clip(0)))
    assert frames.frame_count == 1 and frames.animated is False
    np.testing.assert_array_equal(frames.first_frame.rotation, decode_clip(read_bytes(still_clip(4))).first_frame.rotation)


def test_what_is_built_from_a_decode_just_inside_and_just_outside(monkeypatch):
    monkeypatch.setattr(inputs, "DECODE_PER_FILE_BYTE", 0)
    monkeypatch.setattr(inputs, "DECODE_FLOOR", 1000)
    inputs.check_built("poses", 10, 10, 10, 0)
    with pytest.raises(inputs.BuildTooLarge):
        inputs.check_built("poses", 10, 10, 11, 0)


# ----------------------------------------------------------------------------- Sample Elem


def test_an_element_past_the_joints_names_its_component_offset():
    found = findings(clip(elem=sample_elem(large=[(7, 8, 17, 2)])))["sample-elem-joint"]
    assert "component offset 368 is joint 7" in found.message  # 4 x (12 x 7 + 8)


def test_sample_elem_past_end_says_what_the_counts_take():
    # 11.17: 2 small (10 bytes + 2 of padding) and 4 large (24 bytes) take 36; the section has 18.
    found = findings(clip(built=dict(large=4)))["sample-elem-past-end"]
    assert "which take 36 bytes; the section holds 18" in found.message
    # 3 small: 15 bytes + 1 of padding, + 24
    found = findings(clip(built=dict(elems=3, large=4)))["sample-elem-past-end"]
    assert "which take 40 bytes; the section holds 18" in found.message


def test_an_odd_large_offset_is_named_at_its_own_byte():
    elem = bytearray(sample_elem(large=[(2, 8, 17, 2), (2, 9, 17, 0)]))
    at = 5 * len(ELEMS) + (-len(ELEMS)) % 4 + 4
    struct.pack_into("<I", elem, at, 4 * (12 * 2 + 9) + 1)
    data = dat1(payloads(elem=bytes(elem), built=dict(large=2, stride=12)))
    error = refusal(data)
    assert "sample-elem-offset" in str(error) and error.field == "sample_elem.large[1].offset"
    assert error.offset == dat1_offset(data, tags.TAG_SAMPLE_ELEM) + at


def test_sample_log_scale_only_for_a_joint_whose_scale_moves():
    # 11.27: joint 1's Base State log_scale 63 is read as 62 where an element moves its scale
    # (components 0 to 3); its rotation moving (component 4) is not its scale.
    base = [BASE[0], BASE[1][:7] + (63, BASE[1][8]), BASE[2]]
    assert "sample-log-scale" not in findings(clip(base=base))
    moved = [(1, 3, 9, 0), (1, 7, 12, 1)]
    data = clip(base=base, elem=sample_elem(elems=moved))
    assert findings(data)["sample-log-scale"].severity.name == "WARNING"
    problem = next(p for p in inputs.sample_problems(read_bytes(data)) if p.code == "sample-log-scale")
    assert (problem.field, problem.at) == ("base_state.joints[1].log_scale", 16 * 1 + 0xE)
    # just inside: 62 is decoded as it is
    at_bound = [BASE[0], BASE[1][:7] + (62, BASE[1][8]), BASE[2]]
    assert "sample-log-scale" not in findings(clip(base=at_bound, elem=sample_elem(elems=moved)))


def test_width_plus_shift_of_52_is_decoded_and_53_refused():
    # 11.25: a field of 32 bits shifted by 20 still adds exactly in float64; by 21 it is refused.
    for shift, ok in ((20, True), (21, False)):
        c = Clip(1, random.Random(3))
        c.large = [(0, 8, 32, shift)]
        c.samples = [[0xFFFF_FFFF], [1]]
        data = clip_file(c, frames=2)
        if ok:
            assert_poses(decode_clip(read_bytes(data)), c, [0, 1])
        else:
            assert "sample-elem-width" in str(refusal(data))


def test_a_clip_of_one_element_moves():
    c = Clip(2, random.Random(11))
    c.small = [(1, 8, 9, 0)]
    c.samples = [[5], [300], [511]]
    assert_poses(decode_clip(read_bytes(clip_file(c, frames=3))), c, [0, 1, 2])


# ----------------------------------------------------------------------------- timing


def test_a_bad_fps_is_named_as_built_s_fps():
    error = refusal(clip(built=dict(fps=-30.0)))
    assert error.field == "built.fps" and "clip-timing: fps is -30" in str(error)


# ----------------------------------------------------------------------------- Motion Data


def still(count: int) -> tuple[np.ndarray, np.ndarray]:
    return np.tile([0.0, 0.0, 0.0, 1.0], (count, 1)), np.zeros((count, 3))


@pytest.mark.parametrize("exponent, warned", [(0, False), (16, False), (-1, True), (17, True)])
def test_motion_log_scale_just_inside_and_just_outside(exponent, warned):
    found = findings(clip(motion=motion_write(*still(5), exponent=exponent)))
    assert ("motion-log-scale" in found) == warned


def test_a_secondary_streams_samples_are_not_read_for_their_exponents():
    assert "motion-log-scale" not in findings(clip(motion=motion_write(*still(10), exponent=40, flags=0x06)))


def test_motion_findings_name_their_field_and_a_bad_size_is_not_also_a_count():
    found = findings(clip(motion=motion_write(*still(5), count=9)))
    assert found["motion-data-size"].where["field"] == "motion_data.num_samples"
    assert "motion-sample-count" not in found
    count = findings(clip(motion=motion_write(*still(4))))["motion-sample-count"]
    assert "4 motion samples; Built's 4 frames (looping: one more) call for 5" in count.message


def test_a_refused_motion_data_is_named_at_its_byte_in_the_file():
    data = clip(motion=motion_write(*still(5), count=9))
    error = refusal(data)
    assert "motion-data-size" in str(error) and error.offset == dat1_offset(data, tags.TAG_MOTION_DATA) + 0x02
    # a Spider-Man 2 clip: its per-frame layout is the one described, so no hypothesis is named
    assert error.reason.endswith("(Anim Clip Motion Data)") and inputs.HYPOTHESIS not in str(error)


def test_root_motion_not_decoded_is_noted_and_no_samples_is_not():
    noted = decode_clip(read_bytes(clip(motion=motion_write(*still(10), flags=0x06)))).notes
    assert any("secondary motion stream" in n for n in noted)
    assert decode_clip(read_bytes(clip(motion=motion_write(*still(0))))).notes == []


def test_a_camera_clip_needs_a_path_it_can_read():
    camera = dict(flags=0x1 | 0x10 | 0x20 | 0x10000 | 0x800000)
    assert "camera-no-path" not in findings(clip(built=camera))
    assert "camera-no-path" in findings(clip(built=camera, motion=motion_write(*still(10), flags=0x06)))


def test_root_motion_of_one_frame_and_at_most_65535_samples():
    assert len(motion_read(encode_motion(np.zeros((1, 3))))["rotation"]) == 1
    assert len(motion_read(encode_motion(np.zeros((65535, 3))))["rotation"]) == 65535
    with pytest.raises(WriteError, match="65536 samples"):
        encode_motion(np.zeros((65535, 3)), looping=True)


def test_a_root_translation_just_under_the_i16_reads_back_at_its_exponent():
    # 7.8: translation / 2^e, the finest e where the largest component fits an i16 (here 12).
    value = 32767.4 / 2**13
    read = motion_read(encode_motion(np.array([[0.0, 0.0, 0.0], [value, -value, 1.0]])))
    np.testing.assert_allclose(read["translation"][1], [value, -value, 1.0], atol=2.0**-13)


# ----------------------------------------------------------------------------- Joint Hashes


def test_missing_joint_hashes_are_no_joint():
    p = payloads()
    p[tags.TAG_JOINT_HASHES] = struct.pack("<2I", *HASHES[:2])
    frames = decode_clip(read_bytes(stg(dat1(p))))
    assert [int(h) for h in frames.joint_hashes] == [*HASHES[:2], 0xFFFFFFFF]


def small_encoding():
    rotation = axis_angle([1, 0, 0], np.linspace(0, 0.5, 4))[:, None]
    return encode(Frames(rotation, np.zeros((4, 1, 3)), np.ones((4, 1, 3))), Tolerance(0.05, 1e-3, 1e-3))


@pytest.mark.parametrize("template_hashes, terminated", [
    ([7, 0xFFFFFFFF], True), ([0xFFFFFFFF], True), ([], False), ([0xFFFFFFFF, 7], False), ([7], False)])
def test_a_template_decides_the_joint_hash_terminator(template_hashes, terminated):
    # 11.9: Remastered-era Joint Hashes end with FFFFFFFF, Spider-Man 2's (Luna's) do not.
    template = read_bytes((LUNA / "holds.animclip").read_bytes())
    section = template.section(tags.TAG_JOINT_HASHES)
    section.hashes = np.asarray(template_hashes, "<u4")
    model = clip_model(small_encoding(), np.array([crc32("head")]), 30.0, template)
    want = [crc32("head"), 0xFFFFFFFF] if terminated else [crc32("head")]
    assert [int(h) for h in model.section(tags.TAG_JOINT_HASHES).hashes] == want
    assert isinstance(model.section(tags.TAG_JOINT_HASHES), JointHashes)


@pytest.mark.parametrize(("frames", "looping", "seconds"), [(1, False, 0.0), (2, False, 1 / 30), (1, True, 1 / 30)])
def test_a_clips_duration_is_its_last_frames_time_or_the_loops_length(frames, looping, seconds):
    # Built's duration (docs/animclip.md 7.1, as Luna writes it): (N - 1) / fps for a one-shot
    # clip, N / fps for a looping one; a one-frame one-shot clip lasts 0 s.
    rotation = axis_angle([1, 0, 0], np.linspace(0, 0.5, frames))[:, None]
    enc = encode(Frames(rotation, np.zeros((frames, 1, 3))), Tolerance(0.05, 1e-3, 1e-3), looping=looping)
    assert clip_model(enc, np.array([crc32("head")])).built.duration == np.float32(seconds)


def test_a_clip_without_a_template_is_30_fps():
    model = read_bytes(write_bytes(clip_model(small_encoding(), np.array([crc32("head")]))))
    assert model.built.fps == 30.0


# ----------------------------------------------------------------------------- glTF writers


def test_a_scale_of_1_throughout_gets_no_scale_channel():
    rotation = np.tile([0.0, 0.0, 0.0, 1.0], (3, 1, 1))
    glb, _ = animclip_to_gltf(ClipAnimation(np.array([crc32("head")], np.uint32), np.arange(3) / 30.0, rotation,
                                            np.tile([0.0, 0.1, 0.0], (3, 1, 1)), np.ones((3, 1, 3))), RIG)
    doc = Document(glb=glb)
    assert "scale" not in {c["target"]["path"] for c in doc.json["animations"][-1]["channels"]}


def test_a_zero_base_state_rotation_is_the_identity():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # taken as the identity, not divided by its length 0
        glb, _ = animclip_pose_to_gltf([(crc32("head"), np.zeros(4), None)], RIG, bind_key=False)
    doc = Document(glb=glb)
    animation = doc.json["animations"][-1]
    head = next(i for i, n in enumerate(doc.json["nodes"]) if n.get("name") == "head")
    channel = next(c for c in animation["channels"] if c["target"] == {"node": head, "path": "rotation"})
    key = doc.accessor(animation["samplers"][channel["sampler"]]["output"])[0]
    np.testing.assert_allclose(np.abs(key), [0.0, 0.0, 0.0, 1.0], atol=1e-6)


@pytest.mark.parametrize("xfov", [0.0, np.pi])
def test_a_camera_field_of_view_outside_0_to_pi_takes_the_default(xfov):
    times = np.arange(2) / 30.0
    camera = CameraAnimation(times, np.zeros((2, 3)), np.tile([0.0, 0.0, 0.0, 1.0], (2, 1)), np.array([xfov, xfov]))
    default = CameraAnimation(times, np.zeros((2, 3)), np.tile([0.0, 0.0, 0.0, 1.0], (2, 1)),
                              np.array([DEFAULT_XFOV, DEFAULT_XFOV]))
    yfov = [Document(glb=camera_animation_to_gltf(c)[0]).json["cameras"][0]["perspective"]["yfov"]
            for c in (camera, default)]
    assert yfov[0] == yfov[1]


# ----------------------------------------------------------------------------- sections absent


def test_a_stride_counts_the_samples_a_lookup_may_name():
    # 7.10: samples are stride bytes each after the lookup. A stride of 0 stores none, so the
    # lookup's entries name samples that are not there; a stride of 1 (not whole words) holds
    # a sample per byte: only the stride is wrong.
    from test_animclip_msm2 import sample_data

    p = payloads(data=sample_data(lookup=[0] * 5))  # every frame shows sample 0
    p[tags.TAG_SAMPLE_ELEM] = sample_elem(elems=[], large=[])
    for stride, codes in ((0, {"frame-lookup-range"}), (1, {"sample-stride"})):
        model = read_bytes(stg(dat1({**p, tags.TAG_BUILT: built(elems=0, large=0, stride=stride)})))
        assert {x.code for x in inputs.sample_problems(model)} == codes


def test_without_sample_elem_or_base_state_nothing_moves():
    p = payloads()
    del p[tags.TAG_SAMPLE_ELEM]
    model = read_bytes(stg(dat1({**p, tags.TAG_BUILT: built(elems=0, large=0)})))
    assert inputs.sample_inputs(model).num_elems == 0
    del p[tags.TAG_BASE_STATE]
    frames = decode_clip(read_bytes(stg(dat1({**p, tags.TAG_BUILT: built(elems=0, large=0, joints=0)}))))
    assert frames.frames().rotation.shape == (4, 0, 4)


def test_a_compressed_body_has_no_file_byte():
    model = read_bytes((ROOT / "examples" / "walk_lz4.animclip").read_bytes())
    assert inputs.dat1_file_offset(model, 16) is None
    plain = read_bytes((ROOT / "examples" / "walk.animclip").read_bytes())
    assert inputs.dat1_file_offset(plain, 16) == 36 + 16


def test_the_base_pose_report_counts_repeated_joints_and_names_the_unmatched():
    from types import SimpleNamespace

    joints = [(crc32("head"), [0.0, 0.0, 0.0, 1.0], None), (crc32("head"), [0.0, 0.0, 0.0, 1.0], None),
              SimpleNamespace(hash=crc32("tail_07"), rotation=[0.0, 0.0, 0.0, 1.0], translation=None, name="tail_07")]
    _, match = animclip_pose_to_gltf(joints, RIG)
    assert "1 clip joint hash(es) listed more than once: the last one wins" in match.lines
    assert any("no rig node" in line and "tail_07" in line for line in match.lines)


def test_the_decoders_guard_names_its_need_and_bound_in_mib():
    # 60,000 frames all showing one stored sample, 3 joints: 40 x 3 x (1 + 60,000) bytes, 6 MiB.
    from test_animclip_msm2 import FIELDS, pack_bits

    frames = 60_000
    table = struct.pack(f"<{frames + 1}H", *[0] * (frames + 1))
    table += bytes(-len(table) % 16)
    data = clip(built=dict(frames=frames, resident=frames, unique=1),
                data=table + pack_bits(FIELDS[0], [9, 12, 17], 8))
    given = inputs.sample_inputs(read_bytes(data))
    with pytest.raises(ParseError, match="would take 6 MiB to decode; the bound for this file is 3 MiB"):
        decode_samples(given, budget=3 << 20)


def test_a_base_pose_under_a_turned_node_is_turned_back_out():
    # The base state is the joint's rotation in the scene for a root (as every frame is): under
    # a node turned -90 degrees about X, the key is that turn's inverse times the clip's.
    from animclip_reference import hamilton, inverse
    from test_gltf_rig_space import stood_up_rig

    q = axis_angle([0, 1, 0], 0.6)
    glb, _ = animclip_pose_to_gltf([(crc32("hips"), q, None)], stood_up_rig(), bind_key=False)
    doc = Document(glb=glb)
    animation = doc.json["animations"][-1]
    hips = next(i for i, n in enumerate(doc.json["nodes"]) if n.get("name") == "hips")
    channel = next(c for c in animation["channels"] if c["target"] == {"node": hips, "path": "rotation"})
    key = doc.accessor(animation["samplers"][channel["sampler"]]["output"])[0]
    want = hamilton(inverse(axis_angle([1, 0, 0], -np.pi / 2)), q)
    assert min(np.abs(key - want).max(), np.abs(key + want).max()) < 1e-5


# ----------------------------------------------------------------------------- the encoder's refusals and flags


def still_frames(frames: int, joints: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    shape = (frames, joints)
    return np.tile([0.0, 0.0, 0.0, 1.0], (*shape, 1)), np.zeros((*shape, 3)), np.ones((*shape, 3))


def test_a_value_past_the_fields_reach_is_named_by_joint_frame_kind_and_axis():
    from animspec.animclip.frames.encode import TranslationRangeError, ValueRangeError

    rot, pos, scl = still_frames(4, 2)
    pos[2, 1, 0] = 1e15
    with pytest.raises(ValueRangeError) as far:
        encode(Frames(rot, pos, scl))
    assert (far.value.joint, far.value.frame, far.value.kind, far.value.axis, far.value.value) == \
        (1, 2, "translation", "x", 1e15)
    pos[2, 1, 0] = 0.0
    pos[1, 0, 2] = -40_000.0
    with pytest.raises(TranslationRangeError) as low:
        encode(Frames(rot, pos, scl))
    assert (low.value.joint, low.value.frame, low.value.axis, low.value.value) == (0, 1, "z", -40_000.0)


@pytest.mark.parametrize("looping", [False, True])
def test_the_encoder_sets_only_the_flags_it_owns(looping):
    # 7.1: looping 0x20 and frame lookup 0x10000 (and has motion 0x800000 with root motion).
    rotation = axis_angle([1, 0, 0], np.linspace(0, 0.5, 5))[:, None]
    enc = encode(Frames(rotation, np.zeros((5, 1, 3)), np.ones((5, 1, 3))), looping=looping, lookup=looping)
    assert enc.flags == (tags.FLAG_LOOPING | tags.FLAG_FRAME_DATA_LOOKUP if looping else 0)


def test_65535_distinct_samples_fit_the_frame_lookup():
    # Built's frame count is a u16 (at most 65,535 frames), and so is a lookup entry: 65,535
    # distinct samples are numbered 0 to 65,534.
    frames = 0xFFFF
    rot, pos, scl = still_frames(frames, 1)
    pos[:, 0, 0] = np.arange(frames)
    enc = encode(Frames(rot, pos, scl), Tolerance(1.0, 0.4, 1e-3), lookup=True)
    assert enc.lookup is not None and enc.unique_samples == frames and int(enc.lookup.max()) == frames - 1


# ----------------------------------------------------------------------------- the other per-frame bounds


def codes_of(data: bytes) -> set[str]:
    return {p.code for p in inputs.sample_problems(read_bytes(data))}


def test_the_other_per_frame_findings_just_inside_and_just_outside():
    # The clip: 3 joints, elements of 9 + 12 + 17 = 38 bits, stride 8, 3 stored samples, a
    # looping lookup of 5 entries (11.18 to 11.21, 11.19).
    from test_animclip_msm2 import FIELDS, LARGE, pack_bits, sample_data

    assert codes_of(clip()) == set()
    # 11.18: the elements' bits within 8 x stride: four 16-bit fields fill 8 bytes; one more bit does not
    c = Clip(1, random.Random(5))
    c.small = [(0, 4, 16, 0), (0, 5, 16, 0), (0, 6, 16, 0), (0, 7, 16, 0)]
    c.random_fields(2)
    assert codes_of(clip_file(c, frames=2)) == set()
    c.small.append((0, 8, 1, 0))
    c.samples = [row + [1] for row in c.samples]
    assert "sample-bits-over-stride" in codes_of(clip_file(c, frames=2, declared_stride=8))
    # 11.19: an element on joint 2 (the last of 3) is read; on joint 3 it is refused
    assert "sample-elem-joint" not in codes_of(clip(elem=sample_elem(large=[(2, *LARGE[0][1:])])))
    assert "sample-elem-joint" in codes_of(clip(elem=sample_elem(large=[(3, *LARGE[0][1:])])))
    # 11.20: lookup entries up to the last stored sample (2), not 3
    assert "frame-lookup-range" not in codes_of(clip(data=sample_data(lookup=[0, 1, 2, 2, 0])))
    assert "frame-lookup-range" in codes_of(clip(data=sample_data(lookup=[0, 1, 3, 2, 0])))
    # 11.21: without a lookup, 4 frames need 4 samples of 8 bytes: 32 bytes, not 31
    flags = dict(flags=0x1 | 0x800000)
    four = b"".join(pack_bits(v, [9, 12, 17], 8) for v in FIELDS + FIELDS[:1])
    assert "sample-data-size" not in codes_of(clip(built=flags, data=four))
    assert "sample-data-size" in codes_of(clip(built=flags, data=four[:-1]))
    # 11.21: with a lookup, Built's unique count equal to the samples stored, else a warning
    assert "sample-count-mismatch" not in codes_of(clip(built=dict(unique=3)))
    assert "sample-count-mismatch" in codes_of(clip(built=dict(unique=2)))


@pytest.mark.parametrize("fps, playable", [(1e-3, True), (9.99e-4, False), (1e6, True), (1.001e6, False)])
def test_clip_timing_fps_just_inside_and_just_outside(fps, playable):
    # 11.26: Built's fps from 0.001 to 1,000,000 (1e6 is a float32; 0.001 is not, and its
    # nearest float32 is a hair above it, so the low end is checked one float32 below)
    assert ("clip-timing" not in codes_of(clip(built=dict(fps=fps)))) == playable


def test_root_motion_reaches_32767_units_and_no_further():
    """Motion Data holds a relative translation in i16 units (7.8): 32767 units from frame 0
    is written (and reads back exactly), a quarter unit more is refused, naming it."""
    inside = np.array([[0.0, 0.0, 0.0], [0.0, -32767.0, 0.0], [32767.0, 0.0, 0.0]])
    motion, why = decode_motion(encode_motion(inside))
    assert motion is not None, why
    np.testing.assert_array_equal(motion.translation, inside)
    outside = inside.copy()
    outside[2, 0] = 32767.25
    with pytest.raises(WriteError, match="the root moves 32767.2 units along x from frame 0 at frame 2"):
        encode_motion(outside)


@pytest.mark.parametrize("shape", [(3,), (4, 2), (0, 3), (2, 3, 1)])
def test_root_motion_needs_frames_by_3_translations(shape):
    with pytest.raises(WriteError, match=r"root motion needs \(frames, 3\) translations, not shape"):
        encode_motion(np.zeros(shape))


def test_root_motion_takes_the_finest_exponent_whose_units_reach_32767():
    """A sample's exponent is the finest k with every component times 2^k within an i16
    (7.8): 32767 / 2^15 units is exactly 32767 at k = 15, read back exactly; a step coarser
    would round it to 1.0."""
    t = np.array([[0.0, 0.0, 0.0], [32767 / 2**15, 0.0, 0.0]])
    payload = encode_motion(t)
    motion, why = decode_motion(payload)
    assert motion is not None, why
    assert motion.translation[1, 0] == 32767 / 2**15
    assert motion_read(payload)["translation"][1, 0] == 32767 / 2**15


def test_root_motion_written_from_the_identity_and_a_zero_initial_rotation_read_as_it():
    """The samples are relative to frame 0, so the header's initial transform is the identity,
    x, y, z, w = (0, 0, 0, 1) as a unit f32 quaternion (7.8); a file whose initial rotation
    is all zeros reads as that identity too."""
    written = motion_read(encode_motion(np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]])))
    np.testing.assert_array_equal(written["initial_rotation"], [0.0, 0.0, 0.0, 1.0])
    np.testing.assert_array_equal(written["initial_translation"], [0.0, 0.0, 0.0])
    zero = motion_write(np.tile([0.0, 0.0, 0.0, 1.0], (2, 1)), np.zeros((2, 3)), initial_rotation=(0, 0, 0, 0))
    motion, why = decode_motion(zero)
    assert motion is not None, why
    np.testing.assert_array_equal(motion.initial_rotation, [0.0, 0.0, 0.0, 1.0])


def test_a_decoded_clips_coding_says_whether_it_has_a_frame_lookup():
    """Built's flag 0x10000 (docs/animclip.md 7.1) read from the file's bytes, with and
    without it."""
    rotation = axis_angle([1, 0, 0], np.array([0.0, 0.0, 0.0, 0.5]))[:, None]
    for lookup in (True, False):
        enc = encode(Frames(rotation, np.zeros((4, 1, 3))), Tolerance(0.05, 1e-3, 1e-3), lookup=lookup)
        data = write_bytes(clip_model(enc, np.array([crc32("head")])))
        stored, = struct.unpack_from("<I", section_payload(data, tags.TAG_BUILT), 0x08)
        assert bool(stored & 0x10000) == lookup
        assert sample_coding(inputs.sample_inputs(read_bytes(data))).frame_lookup == lookup


def test_a_decoded_clips_frame_times_step_by_built_fps():
    """Frame i is shown at i / fps (docs/animclip.md 7.1: Built's f32 at 0x0C), the fps read
    here from the file's own Built bytes."""
    data = (ROOT / "examples" / "walk.animclip").read_bytes()
    fps, = struct.unpack_from("<f", section_payload(data, tags.TAG_BUILT), 0x0C)
    frames = decode_clip(read_bytes(data))
    assert frames.frame_count > 2
    np.testing.assert_allclose(frames.times, np.arange(frames.frame_count) / fps, rtol=1e-12)



# ----------------------------------------------------------------------------- inputs.py's full run (issue 31)
# Built's fields at the bytes docs/animclip.md 7.1 gives them: fps f32 at 0x0C, duration f32 at
# 0x10, the resident samples' count u16 at 0x3E and fps f32 at 0x40; the joint count u16 at 0x20.


def remastered(data: bytes) -> bytes:
    """The same DAT1 under Spider-Man Remastered's type (4.2), bare: a game where the per-frame
    layout is a hypothesis."""
    d = bytearray(data[data.index(b"1TAD"):])
    struct.pack_into("<I", d, 4, tags.MAGIC_MSMR_MM)
    return bytes(d)


@pytest.mark.parametrize("over, field, at", [
    (dict(fps=-30.0), "built.fps", 0x0C),
    (dict(duration=-1.0), "built.duration", 0x10),
    (dict(resident_fps=-1.0), "built.resident_fps", 0x40),
    (dict(joints=4), "base_state", 0),
])
def test_clip_timing_and_the_joint_count_hold_for_every_game(over, field, at):
    # 11.25, 11.26: clip-timing and joint-count are rules of all games (Built's fields as ALERT
    # labels them), not of the per-frame layout: on a Remastered-era file they stay errors, and
    # the decoder's refusal names no hypothesis. The byte named is the field's own.
    for data, hypothesis_game in ((clip(built=over), False), (remastered(clip(built=over)), True)):
        model = read_bytes(data)
        assert inputs.layout_is_hypothesis(model) == hypothesis_game
        found = findings(data)
        code = "joint-count" if field == "base_state" else "clip-timing"
        assert found[code].severity.name == "ERROR" and inputs.HYPOTHESIS not in found[code].message
        with pytest.raises(ParseError) as refused:
            inputs.sample_inputs(model)
        assert refused.value.field == field and inputs.HYPOTHESIS not in str(refused.value)
        tag = tags.TAG_BASE_STATE if field == "base_state" else tags.TAG_BUILT
        assert refused.value.offset == dat1_offset(data, tag) + at
        section = "Anim Clip Base State" if field == "base_state" else "Anim Clip Built"
        assert refused.value.reason.endswith(f" ({section})")


def test_the_joint_count_is_refused_before_every_other_problem():
    # _decode_problems: Built's joint count first (the other counts are read against it), then
    # the clip's timing and the per-frame rules.
    error = refusal(clip(built=dict(joints=4, fps=-30.0, stride=4)))
    assert error.field == "base_state" and "joint-count" in str(error)
    assert [p.code for p in inputs.sample_problems(read_bytes(clip(built=dict(joints=4, fps=-30.0))))] == \
        ["joint-count", "clip-timing"]


@pytest.mark.parametrize("resident_fps, fps", [(0.0, 30.0), (1.0, 1.0), (24.0, 24.0)])
def test_the_resident_samples_play_at_their_fps_or_at_built_s_for_0(resident_fps, fps):
    # 11.26: a resident fps of 0 means Built's (30 here); any other playable one is the block's.
    data = clip(built=dict(resident_fps=resident_fps))
    assert "clip-timing" not in findings(data)
    frames = decode_clip(read_bytes(data))
    assert frames.frame_count == 4
    np.testing.assert_array_equal(frames.times, np.arange(4) / fps)


def test_two_bad_frame_rates_are_named_in_built_s_byte_order():
    # 7.1: fps at 0x0C comes before the resident fps at 0x40; the refusal names the first
    data = clip(built=dict(fps=-30.0, resident_fps=-1.0))
    fields = [p.field for p in inputs.sample_problems(read_bytes(data)) if p.code == "clip-timing"]
    assert fields == ["built.fps", "built.resident_fps"]
    assert refusal(data).field == "built.fps"


def test_a_resident_fps_is_checked_only_when_built_counts_resident_samples():
    # 11.26: without resident samples (Built +0x3E = 0) the resident fps is not used, so any
    # value there is no finding; with them it must be 0 or playable.
    assert "clip-timing" not in findings(clip(built=dict(resident=0, resident_fps=-1.0)))
    found = findings(clip(built=dict(resident=4, resident_fps=-1.0)))["clip-timing"]
    assert found.where["field"] == "built.resident_fps"


def test_the_lowest_playable_fps_is_inside():
    # PLAYABLE_FPS's low end exactly (a model's fps is any float until written as f32) and one
    # float below it.
    built = read_bytes(clip()).built
    low, high = inputs.PLAYABLE_FPS
    for fps, ok in ((low, True), (np.nextafter(low, 0), False), (high, True), (np.nextafter(high, 2 * high), False)):
        built.fps = float(fps)
        assert (inputs.timing_problems(built) == []) == ok, fps


def test_motion_findings_name_the_bytes_of_their_fields():
    # 7.8: the sample type is the header's byte 0x00; a standard sample is 16 bytes, its
    # exponent the i8 at +14 (after 4 + 3 i16), the samples `ofs_samples` bytes after the
    # 0x7C-byte header.
    other = bytearray(motion_write(*still(3)))
    other[0] = 2
    (problem,) = inputs.motion_problems(bytes(other))
    assert (problem.code, problem.field, problem.at) == ("motion-data-size", "motion_data.motion_type", 0)
    payload = bytearray(motion_write(*still(5), exponent=0, offset=32))
    at = 0x7C + 32 + 16 * 3 + 14
    payload[at] = 20
    (problem,) = inputs.motion_problems(bytes(payload))
    assert (problem.code, problem.field, problem.at) == ("motion-log-scale", "motion_data.samples[3].log_scale", at)
    assert "sample 3: 20" in problem.message


def test_a_non_finite_initial_transform_is_named_at_its_first_field():
    # 7.8: the initial rotation (f32 x 4 at 0x04) comes before the translation (f32 x 3 at
    # 0x24); with both non-finite the refusal names the rotation, the first in the header.
    payload = motion_write(*still(3), initial_rotation=(np.nan, 0, 0, 1), initial_translation=(0, np.inf, 0))
    problems = inputs.motion_problems(payload)
    assert [(p.field, p.at) for p in problems] == [("motion_data.initial_rot_0", 0x04),
                                                   ("motion_data.initial_trans_0", 0x24)]
    with pytest.raises(ParseError) as refused:
        decode_motion(payload)
    assert (refused.value.field, refused.value.offset) == ("motion_data.initial_rot_0", 0x04)


def test_a_camera_clip_without_a_path_is_named_at_built_s_flags():
    # 7.1: Built's flags are the u32 at 0x08 (0x10: camera)
    data = clip(built=dict(flags=0x1 | 0x10 | 0x20 | 0x10000 | 0x800000), motion=motion_write(*still(10), flags=0x06))
    (problem,) = inputs.camera_problems(read_bytes(data))
    assert (problem.code, problem.field, problem.tag, problem.at) == \
        ("camera-no-path", "built.flags", tags.TAG_BUILT, 0x08)


def test_without_base_state_every_element_is_past_the_joints_and_no_joint_is_counted():
    p = payloads()
    del p[tags.TAG_BASE_STATE]
    problem = next(p for p in inputs.sample_problems(read_bytes(stg(dat1(p)))) if p.code == "sample-elem-joint")
    # ELEMS and LARGE: 3 elements, on joints 1, 1 and 2; the file holds no record at all
    assert problem.message.startswith("3 element(s) target a joint past the 0 Base State records (element 0: ")
    # and Built's 3 joints are none of them
    assert "joint-count: Built names 3 joint(s); Base State holds 0 record(s)" in str(refusal(stg(dat1(p))))


def test_the_decode_size_finding_names_mib():
    # 11.22: 65,535 frames of 200 joints at 40 bytes is 524,280,000 bytes (499 MiB) against
    # the floor of 256 MiB (the file is a few kilobytes, x 64 far below it)
    base = [(0, 0, 0, 32767, 0, 0, 0, 0, 0)] * 200
    p = payloads(base=base, elem=b"", data=b"", motion=motion_write(*still(0)),
                 built=dict(frames=65535, elems=0, large=0, stride=0, unique=0, flags=0x1, joints=200))
    p[tags.TAG_JOINT_HASHES] = struct.pack("<200I", *range(200))
    data = stg(dat1(p))
    assert 64 * len(data) < 256 << 20
    (problem,) = inputs.sample_problems(read_bytes(data))
    mib = 524_280_000 // 2**20
    assert problem.message.startswith(
        f"65535 frame(s) of 200 joint(s) would take {mib} MiB to decode; the bound for this file is 256 MiB")


def test_a_clip_without_built_has_no_per_frame_problem_and_is_refused():
    # Nothing says how its samples are coded: no per-frame rule applies (the validator still
    # reports the rest), and the decoder refuses it naming Built.
    p = payloads()
    del p[tags.TAG_BUILT]
    model = read_bytes(stg(dat1(p)))
    assert inputs.sample_problems(model) == [] and inputs.camera_problems(model) == []
    assert validate(model)
    with pytest.raises(inputs.SampleInputError, match="no Anim Clip Built section") as refused:
        inputs.sample_inputs(model)
    assert refused.value.field == "built"


def test_spider_man_2_s_resident_samples_come_before_a_plain_sample_data_section():
    # 7.10: Spider-Man 2's samples are in Resident (Luna's importer reads it, knowing no other
    # section but Paged); a plain Sample Data section (3A7B4855, the earlier games') beside it
    # is not read. Its samples here differ from Resident's: the frames are Resident's, as the
    # reference decoder reads them.
    from animclip_reference import built_counts, decode_values, transforms
    from test_animclip_msm2 import sample_data

    p = payloads()
    p[tags.TAG_SAMPLE_DATA] = sample_data(fields=[[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    frames = decode_clip(read_bytes(stg(dat1(p)))).frames()
    want = transforms(decode_values(p[tags.TAG_BASE_STATE], p[tags.TAG_SAMPLE_ELEM], p[tags.TAG_SAMPLE_DATA_RESIDENT],
                                    built_counts(p[tags.TAG_BUILT])))
    np.testing.assert_allclose(frames.rotation, want["rotation_xyzw"], atol=1e-6)
    np.testing.assert_allclose(frames.translation, want["translation"], rtol=1e-6)


def test_without_elements_no_sample_is_needed_whatever_the_stride():
    # 11.21: a sample of no fields carries nothing, so an empty Sample Data stores every
    # sample needed (each frame is the base pose), a stride of one word or not.
    for stride in (0, 4):
        data = clip(elem=sample_elem(elems=[], large=[]), data=b"",
                    built=dict(elems=0, large=0, stride=stride, unique=0, flags=0x1, frames=4, resident=0))
        assert codes_of(data) == set()
        frames = decode_clip(read_bytes(data))
        assert frames.frames().rotation.shape == (4, 3, 4) and not frames.animated


def test_the_bits_over_the_stride_and_a_lookup_past_the_samples_name_their_figures():
    # 11.18: 9 + 12 + 17 = 38 bits against a stride of 4 bytes, 32 bits
    problem = next(p for p in inputs.sample_problems(read_bytes(clip(built=dict(stride=4))))
                   if p.code == "sample-bits-over-stride")
    assert problem.message == "the 3 elements need 38 bits per sample; the stride holds 32"
    # 11.20: 3 samples stored (0 to 2); frame 2's entry, the u16 at byte 4 of the table, names
    # sample 3, just past them
    from test_animclip_msm2 import sample_data

    data = clip(data=sample_data(lookup=[0, 1, 3, 2, 0]))
    error = refusal(data)
    assert "frame-lookup-range: frame 2 shows sample 3" in str(error) and error.field == "sample_data.frame_lookup"
    assert error.offset == dat1_offset(data, tags.TAG_SAMPLE_DATA_RESIDENT) + 4
    assert error.reason.endswith(" (Anim Clip Sample Data Resident)")


def test_without_sample_data_the_decoder_gets_no_stored_sample():
    # 7.10: the samples are (stored, stride) bytes; without a Sample Data section none is
    # stored, and the clip is its base pose (11.25)
    p = payloads()
    del p[tags.TAG_SAMPLE_DATA_RESIDENT]
    model = read_bytes(stg(dat1(p)))
    given = inputs.sample_inputs(model)
    assert given.section_tag is None and given.lookup is None
    assert given.samples.shape == (0, 8) and given.samples.dtype == np.uint8
    assert not decode_clip(model).animated


def test_a_small_code_past_a_byte_is_refused_at_its_own_byte():
    # 7.9: the small table is n u32 offsets, then n u8 codes (width - 1 in the low nibble, the
    # shift in the high one). Only a code no byte holds (a model edited in memory; the writer
    # refuses it) asks for more than 16 bits shifted by 15: refused at that code's byte in the
    # section, 4 n + e, whatever array the model holds it in.
    data = clip()
    model = read_bytes(data)
    elem = model.section(tags.TAG_SAMPLE_ELEM)
    elem.codes = np.array([ELEMS[0][2] - 1, (ELEMS[1][2] - 1) | (63 << 4)])  # int64; element 1 shifted by 63
    with pytest.raises(ParseError) as refused:
        inputs.sample_inputs(model)
    assert "sample-elem-width" in str(refused.value) and refused.value.field == "sample_elem.small[1].code"
    assert refused.value.offset == dat1_offset(data, tags.TAG_SAMPLE_ELEM) + 4 * len(ELEMS) + 1
