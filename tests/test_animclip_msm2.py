"""Spider-Man 2 clips (issue 22, items 0, 1, 3 and 7): the STG wrapper and bare DAT1 files of
type 0x41DFFB44, Built's fields, Sample Elem's two tables, Sample Data's frame lookup and
bit-packed samples, Motion Data, and the validator's per-frame invariants.

Every file here is assembled with struct from the layout docs/animclip.md and
ksy/animclip.ksy document (after Luna Engine IO Tools, Pcniado/luna_engine_io_tools:
anim_export.py writes it, anim_import.py and motion.py read it), not with animspec's writer.
"""

from __future__ import annotations

import json
import struct
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from kaitaistruct import KaitaiStream

from animspec import formats
from animspec.animclip import read_bytes, write_bytes
from animspec.animclip import fastread, tags
from animspec.animclip.model import Built, SampleElem
from animspec.animclip.jsonio import from_json, to_json
from animspec.animclip.validate import validate
from animspec.animclip.frames.inputs import sample_inputs, sample_problems
from animspec.common.errors import ParseError
from animspec.common.findings import Severity
from animspec.common.hashes import crc32
from animspec.generated.animclip import Animclip

MSM2 = 0x41DFFB44
E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO
BUILT_FORMAT = "<IIIffBBBBIIHHIIHHHHHHHHHHfIIIIIII"
"""Built as Luna reads and writes it (constants.py ANIM_CLIP_BUILT_FORMAT, restated)."""

# The clip: 3 joints; joint 1's qx and qw and joint 2's x are animated.
ELEMS = [(1, 4, 9, 0), (1, 7, 12, 1)]  # (joint, component, width, shift), small table
LARGE = [(2, 8, 17, 2)]  # large table
FIELDS = [  # per stored sample: one value per element, small then large
    [5, 100, 70000],
    [511, 0, 1],
    [0, 4095, 131071],
]
LOOKUP = [0, 1, 1, 2, 0]  # 4 frames + 1 (looping)
BASE = [  # qx qy qz qw x y z log_scale log_scale2
    (0, 0, 0, 32767, 10, 20, 30, 12, 4),
    (-100, 0, 0, 20000, 0, 0, 0, 12, 0),  # a base, not a rotation: |q| is far from 32768
    (0, 0, 0, 32767, -5000, 0, 0, 12, 8),
]
HASHES = [crc32("root"), crc32("pelvis"), crc32("spine")]


def pack_bits(values: list[int], widths: list[int], stride: int) -> bytes:
    """Fields LSB-first into consecutive little-endian u32 words (Luna binary.py, restated)."""
    acc, pos = 0, 0
    for v, w in zip(values, widths):
        acc |= (v & ((1 << w) - 1)) << pos
        pos += w
    return acc.to_bytes(stride, "little")


def built(**over) -> bytes:
    f = dict(ofs_name=0, name_hash=crc32("clip"), flags=0x1 | 0x20 | 0x10000 | 0x800000, fps=30.0, duration=4 / 30,
             cycle_count=1, joints=3, frames=4, elems=len(ELEMS), stride=8, things=0, unique=3, tracks=0,
             resident=4, resident_fps=30.0, large=len(LARGE), facial=0, sound=0xDEADDEAD, particles=0)
    f.update(over)
    return struct.pack(
        BUILT_FORMAT, f["ofs_name"], f["name_hash"], f["flags"], f["fps"], f["duration"], f["cycle_count"], 0, 0, 0, 0, 0,
        f["joints"], f["frames"], f["elems"], f["stride"], f["things"], 0, f["unique"], 0, 0, 0, 0, f["tracks"], 0,
        f["resident"], f["resident_fps"], f["large"], f["facial"], f["sound"], f["particles"], 0, 0, 0,
    )


def sample_elem(elems=ELEMS, large=LARGE) -> bytes:
    small = struct.pack(f"<{len(elems)}I", *[4 * (12 * j + c) for j, c, _, _ in elems])
    small += bytes([(w - 1) | (s << 4) for _, _, w, s in elems])
    small += bytes(-len(small) % 4)
    return (small + struct.pack(f"<{len(large)}I", *[4 * (12 * j + c) for j, c, _, _ in large])
            + struct.pack(f"<{len(large)}H", *[(w - 1) | (s << 8) for _, _, w, s in large]))


def sample_data(lookup=LOOKUP, fields=FIELDS, stride=8) -> bytes:
    table = struct.pack(f"<{len(lookup)}H", *lookup)
    table += bytes(-len(table) % 16)
    widths = [w for *_, w, _ in ELEMS] + [w for *_, w, _ in LARGE]
    return table + b"".join(pack_bits(v, widths, stride) for v in fields)


def motion(count=5, kind=0, flags=0x02, room=None) -> bytes:
    head = bytearray(0x7C)
    struct.pack_into("<BBH", head, 0, kind, flags, count)
    struct.pack_into("<4f", head, 0x04, 0, 0, 0, 1)
    struct.pack_into("<4f", head, 0x14, 0, 0, 0, 1)
    samples = b"".join(struct.pack("<7hbb", 0, 0, 0, 32767, i, 0, 0, 4, 0) for i in range(count if room is None else room))
    struct.pack_into("<II", head, 0x3C, 0, len(samples))
    block = bytes(head) + samples
    return block + bytes(-len(block) % 16)


def payloads(**over) -> dict[int, bytes]:
    p = {
        tags.TAG_BUILT: built(**over.pop("built", {})),
        tags.TAG_BASE_STATE: b"".join(struct.pack("<7h2B", *r) for r in over.pop("base", BASE)),
        tags.TAG_JOINT_HASHES: struct.pack("<3I", *HASHES),  # no FFFFFFFF in Spider-Man 2
        tags.TAG_SAMPLE_ELEM: over.pop("elem", sample_elem()),
        tags.TAG_SAMPLE_DATA_RESIDENT: over.pop("data", sample_data()),
        tags.TAG_MOTION_DATA: over.pop("motion", motion()),
    }
    assert not over
    return p


def dat1(p: dict[int, bytes]) -> bytes:
    """A DAT1 as Luna's exporter lays it out: table sorted by tag, no strings, 16-byte aligned."""
    items = sorted(p.items())
    pos = 16 + 12 * len(items)
    table, body = b"", b""
    for tag, data in items:
        pad = -pos % 16
        body += bytes(pad)
        pos += pad
        table += struct.pack("<III", tag, pos, len(data))
        body += data
        pos += len(data)
    return struct.pack("<4sIIHH", b"1TAD", MSM2, pos, len(items), 0) + table + body


def stg(d: bytes) -> bytes:
    """Luna's STG wrapper: 16-byte STG header, 16-byte asset header (type, 0, 1, 0, size, 0)."""
    return struct.pack("<4sIII", b"STG\0", 1, 16, 0) + struct.pack("<IBBHII", MSM2, 0, 1, 0, len(d), 0) + d


def clip(**over) -> bytes:
    return stg(dat1(payloads(**over)))


def codes(data: bytes) -> dict[str, Severity]:
    return {f.code: f.severity for f in validate(read_bytes(data))}


# ---------------------------------------------------------------------------- containers


@pytest.mark.parametrize("wrap", [stg, lambda d: d], ids=["stg", "bare-dat1"])
@pytest.mark.parametrize("fast", [True, False], ids=["fast", "generated"])
def test_spider_man_2_files_are_detected_read_and_written_back_byte_for_byte(wrap, fast):
    data = wrap(dat1(payloads()))
    assert formats.detect(data).name == "animclip"
    model = read_bytes(data, fast=fast)
    assert model.is_msm2 and model.magic == MSM2 and model.type_id == MSM2
    assert model.container == ("stg" if data[:4] == b"STG\0" else "dat1")
    assert write_bytes(model) == data
    assert model == read_bytes(data, fast=not fast)  # the two readers agree
    assert fastread.read(data) is not None  # and the bulk reader does not leave such a file to the other


def test_the_stg_wrapper_is_32_bytes_and_its_size_follows_an_edit():
    data = clip()
    model = read_bytes(data)
    assert len(model.header_unk) == 32 and model.header_unk[:4] == b"STG\0"
    model.set_clip_name("renamed")  # a strings block appears: the DAT1 grows
    out = write_bytes(model)
    assert out[:16] == data[:16] and struct.unpack_from("<I", out, 16)[0] == MSM2
    assert struct.unpack_from("<I", out, 24)[0] == len(out) - 32  # the asset header's DAT1 size
    back = read_bytes(out)
    assert back == model and back.clip_name == "renamed"


def test_a_dump_keeps_the_container():
    for data in (clip(), dat1(payloads())):
        model = read_bytes(data)
        assert write_bytes(from_json(to_json(model))) == data


def test_a_truncated_stg_wrapper_is_one_parse_error():
    data = clip()
    for cut in (24, 31, 40):
        with pytest.raises(ParseError):
            read_bytes(data[:cut])


# ---------------------------------------------------------------------------- Built and Sample Elem


def test_built_fields_are_lunas():
    b = read_bytes(clip()).built
    assert isinstance(b, Built)
    assert (b.flags, b.num_joints, b.num_frames, b.stride, b.num_unique_samples, b.num_resident_samples) == (
        0x1 | 0x20 | 0x10000 | 0x800000, None, 4, 8, 3, 4)  # num_joints derived (= Base State's 3)
    assert (b.cycle_count, b.resident_fps, b.sound_event_hash(True), b.word_48) == (1, 30.0, 0xDEADDEAD, 0)
    assert b.is_looping and b.has_frame_lookup and b.num_lookup_entries == 5


def test_sample_elem_has_a_small_and_a_large_table():
    elem = read_bytes(clip()).section(tags.TAG_SAMPLE_ELEM)
    assert isinstance(elem, SampleElem)
    assert len(elem.offsets) == 2 and len(elem.large_offsets) == 1 and elem.padding == b"\0\0"
    joint, component, width, shift = elem.elements()
    expected = ELEMS + LARGE
    assert [list(map(int, t)) for t in zip(joint, component, width, shift)] == [list(e) for e in expected]


def test_the_spec_types_the_tables_and_the_bit_fields():
    data = clip()
    root = Animclip(KaitaiStream(BytesIO(data)))
    root._read()
    assert root.is_stg and root.stg.asset_header.asset_type == Animclip.AssetType.animclip_msm2
    d = root.dat1
    assert d.is_msm2 and d.built_section.sound_event_hash == 0xDEADDEAD and d.built_section.num_lookup_entries == 5
    elem = d.sample_elem_section
    assert [(e.joint, e.component.value, e.width, e.shift) for e in elem.elems] == [e for e in ELEMS]
    assert [(e.joint, e.component.value, e.width, e.shift) for e in elem.large_elems] == [e for e in LARGE]
    (data_entry,) = [s for s in d.sections if s.tag == Animclip.SectionTag.sample_data_resident]
    body = data_entry.body
    assert body.lookup == LOOKUP and body.num_samples == 3
    for record, fields in zip(body.samples, FIELDS):
        assert [f.value for f in record.small] + [f.value for f in record.large] == fields
    (motion_entry,) = [s for s in d.sections if s.tag == Animclip.SectionTag.motion_data]
    m = motion_entry.body
    assert m.header.num_samples == 5 and [s.x for s in m.samples] == list(range(5))


def test_sample_inputs_give_the_decoder_everything_it_needs():
    got = sample_inputs(read_bytes(clip()))
    assert got.stride == 8 and got.num_frames == 4 and got.flags & 0x10000
    assert got.lookup.tolist() == LOOKUP and got.samples.shape == (3, 8)
    assert got.samples.tobytes() == sample_data()[16:]
    assert got.base.shape == (3, 12)
    assert got.base[1].tolist() == [4096] * 4 + [-100, 0, 0, 20000, 0, 0, 0, 0]
    assert got.base[2, 8] == -5000 and got.base[2, 11] == 8
    assert got.joint.tolist() == [1, 1, 2] and got.width.tolist() == [9, 12, 17] and got.shift.tolist() == [0, 1, 2]
    assert got.section_tag == tags.TAG_SAMPLE_DATA_RESIDENT


# ---------------------------------------------------------------------------- the validator


def test_a_spider_man_2_clip_as_luna_writes_it_has_no_findings():
    # Remastered-era rules (name string, DEAD markers at +0x48, FFFFFFFF terminator, Sample Elem as
    # n = size / 5, 19 known sections) would all fire here; and joint 1's base is not unit length
    # (it is the base its animated rotation is added to, not a rotation).
    assert codes(clip()) == {}
    assert codes(dat1(payloads())) == {}


def test_an_unanimated_joint_still_needs_a_unit_quaternion():
    base = [BASE[0], BASE[1], (0, 0, 0, 1000, 0, 0, 0, 12, 8)]  # joint 2 is animated in x only
    assert codes(clip(base=base)) == {"quaternion-length": W}


CASES = {
    "sample-stride": (dict(built=dict(stride=10)), E),
    "sample-bits-over-stride": (dict(built=dict(stride=4)), E),  # 38 bits per sample
    "sample-elem-joint": (dict(elem=sample_elem(large=[(7, 8, 17, 2)])), E),
    "sample-elem-past-end": (dict(built=dict(large=4)), E),
    "frame-lookup-size": (dict(built=dict(frames=40)), E),
    "frame-lookup-range": (dict(data=sample_data(lookup=[0, 1, 3, 2, 0])), E),
    "sample-data-size": (dict(built=dict(unique=5)), E),
    "sample-count-mismatch": (dict(built=dict(unique=2)), W),
    "motion-data-size": (dict(motion=motion(count=9, room=5)), E),
    "motion-sample-count": (dict(motion=motion(count=4)), W),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_per_frame_invariant_has_its_code(code):
    kwargs, severity = CASES[code]
    found = codes(clip(**kwargs))
    assert found.get(code) == severity, found


def _as_remastered(p):
    d = bytearray(dat1(p))
    struct.pack_into("<I", d, 4, tags.MAGIC_MSMR_MM)
    return read_bytes(bytes(d))


@pytest.mark.parametrize("code", sorted(CASES))
def test_on_a_game_where_the_layout_is_a_hypothesis_every_per_frame_finding_is_info(code):
    # The same clips under Spider-Man Remastered's type (Miles Morales and Rift Apart share the
    # rule): the per-frame layout is Spider-Man 2's (Luna); no public source describes these
    # games' Sample Data, so validate reports each per-frame finding as INFO, saying so.
    kwargs, _severity = CASES[code]
    found = [f for f in validate(_as_remastered(payloads(**kwargs))) if f.code == code]
    assert found and all(f.severity == I for f in found), found
    assert all("a hypothesis for this game" in f.message for f in found), found


def test_the_decoder_still_refuses_such_a_file_naming_the_hypothesis():
    for model in (_as_remastered(payloads(built=dict(stride=4))), _as_remastered(payloads(built=dict(large=4)))):
        with pytest.raises(ParseError, match="a hypothesis for this game"):
            sample_inputs(model)
    # on Spider-Man 2 the same refusal is an error and names no hypothesis
    model = read_bytes(stg(dat1(payloads(built=dict(stride=4)))))
    assert {f.code: f.severity for f in validate(model)}["sample-bits-over-stride"] == E
    with pytest.raises(ParseError, match="sample-bits-over-stride") as refused:
        sample_inputs(model)
    assert "hypothesis" not in str(refused.value)
    block = bytearray(motion())
    block[0x7C + 14] = 20  # sample 0's translation exponent, past 0..16: clamped, a warning
    for model, severity in ((read_bytes(stg(dat1(payloads(motion=bytes(block))))), W),
                            (_as_remastered(payloads(motion=bytes(block))), I)):
        assert {f.code: f.severity for f in validate(model)}["motion-log-scale"] == severity


def test_counts_that_would_decode_to_gigabytes_are_refused_before_anything_is_allocated():
    # 65535 frames x 200 joints x 12 values from a file of a few kilobytes: no elements, no samples.
    base = [(0, 0, 0, 32767, 0, 0, 0, 0, 0)] * 200
    p = payloads(base=base, elem=b"", data=b"", motion=motion(count=0),
                 built=dict(frames=65535, elems=0, large=0, stride=0, unique=0, flags=0x1, joints=200))
    p[tags.TAG_JOINT_HASHES] = struct.pack("<200I", *range(200))
    model = read_bytes(stg(dat1(p)))
    assert [c for c, *_ in sample_problems(model)] == ["decode-size"]
    assert codes(stg(dat1(p)))["decode-size"] == E
    with pytest.raises(ValueError, match="decode-size"):
        sample_inputs(model)


@pytest.mark.parametrize("over", [
    dict(built=dict(elems=0xFFFFFFFF, large=0xFFFFFFFF)),
    dict(built=dict(stride=0xFFFFFFFC, unique=0xFFFF)),
    dict(built=dict(frames=0xFFFF)),
    dict(elem=b"\xff" * 7),
    dict(data=b"\xff"),
    dict(motion=b"\xff" * 0x7C),
])
def test_hostile_counts_are_findings_or_one_error_never_a_traceback(over):
    data = clip(**over)
    for fast in (True, False):
        model = read_bytes(data, fast=fast)
        assert write_bytes(model) == data
        validate(model)
        try:
            sample_inputs(model)
        except ValueError as exc:
            assert ":" in str(exc)  # "code: message"


# ---------------------------------------------------------------------------- Luna's own clips

LUNA = Path(__file__).parent / "fixtures" / "luna"
LUNA_CLIPS = sorted(p.stem for p in LUNA.glob("*.animclip"))


@pytest.mark.parametrize("name", LUNA_CLIPS)
def test_lunas_clips_read_write_back_and_validate_clean(name):
    data = (LUNA / f"{name}.animclip").read_bytes()
    assert formats.detect(data).name == "animclip"
    model = read_bytes(data)
    assert model.container == "stg" and model.is_msm2 and fastread.read(data) is not None
    assert model == read_bytes(data, fast=False) and write_bytes(model) == data
    assert codes(data) == {}


def frames_from_inputs(got) -> np.ndarray:
    """(frames, joints, 12) component integers from :class:`SampleInputs`, one frame at a time
    with Python integers (a reference for the vectorised decoder, not a decoder)."""
    values = np.repeat(got.base[None], got.num_frames, axis=0)
    for f in range(got.num_frames):
        s = got.lookup[f] if got.lookup is not None else f
        if not got.samples.size:
            continue
        bits, at = int.from_bytes(got.samples[s].tobytes(), "little"), 0
        for j, c, w, sh in zip(got.joint, got.component, got.width, got.shift):
            values[f, j, c] += ((bits >> at) & ((1 << int(w)) - 1)) << int(sh)
            at += int(w)
    return values


@pytest.mark.parametrize("name", LUNA_CLIPS)
def test_the_inputs_of_lunas_clips_give_its_importers_transforms(name):
    record = json.loads((LUNA / f"{name}.json").read_text())
    got = sample_inputs(read_bytes((LUNA / f"{name}.animclip").read_bytes()))
    values = frames_from_inputs(got)
    want = {k: np.asarray(v) for k, v in record["luna_import"]["engine_local"].items()}
    q = values[:, :, 4:8].astype(np.float64)
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    np.testing.assert_allclose(values[:, :, 8:11] / np.exp2(values[:, :, 11:12]), want["translation"], atol=2e-5)
    np.testing.assert_allclose(values[:, :, 0:3] / values[:, :, 3:4], want["scale"], atol=2e-5)
    sign = np.sign(np.sum(q * want["rotation_xyzw"], axis=-1, keepdims=True))
    np.testing.assert_allclose(q * sign, want["rotation_xyzw"], atol=2e-5)


@pytest.mark.parametrize("name", ["loop_walk", "wide_range"])
def test_the_specs_typed_sample_fields_are_the_bits_of_lunas_clips(name):
    data = (LUNA / f"{name}.animclip").read_bytes()
    got = sample_inputs(read_bytes(data))
    root = Animclip(KaitaiStream(BytesIO(data)))
    root._read()
    (entry,) = [s for s in root.dat1.sections if s.tag == Animclip.SectionTag.sample_data_resident]
    for s, record in enumerate(entry.body.samples):
        bits, at, want = int.from_bytes(got.samples[s].tobytes(), "little"), 0, []
        for w in got.width.tolist():
            want.append((bits >> at) & ((1 << w) - 1))
            at += w
        assert [f.value for f in record.small] + [f.value for f in record.large] == want


def test_info_names_the_container_and_the_name_hash():
    from animspec.animclip.info import summary

    text = summary(read_bytes(clip()))
    assert "before the DAT1: Spider-Man 2's STG wrapper (32 bytes)" in text
    assert f"clip name hash {crc32('clip'):08X} (Spider-Man 2 clips carry no name string)" in text
    assert "8A9598E1  Anim Clip Sample Data Resident" in text and "known (Luna), kept raw" in text
    assert "before the DAT1: none (a bare DAT1)" in summary(read_bytes(dat1(payloads())))
