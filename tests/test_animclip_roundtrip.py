"""The serializer contracts for .animclip:

* ``write(read(b)) == b`` for every byte string the parser accepts, whatever its layout quirks;
* ``read(write(m)) == m`` for every model the writer accepts (content; layout is recomputed);
* ``pack(dump(f)) == f`` through JSON.
"""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import Acceptance
from test_animclip_support import (
    BASE_STATE,
    BUILT,
    CUSTOM_TRACK_DATA,
    CUSTOM_TRACKS,
    JOINT_HASHES,
    MORPH_INFO,
    PATH,
    RCRA,
    SAMPLE_DATA,
    SAMPLE_ELEM,
    TRIGGER_DATA,
    appendix_a,
    assemble,
    built_payload,
    joint_record,
    read_header,
    sample_elem,
    track_entry,
    trigger_data,
)

from animspec.animclip import (
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Path,
    RawSection,
    SampleElem,
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
    UnknownEntry,
    read_bytes,
    write_bytes,
)
from animspec.animclip.jsonio import from_json, to_json
from animspec.animclip.sections import TYPED_SECTIONS
from animspec.animclip.sections.base_state import JOINT_DTYPE
from animspec.animclip.sections.built import BUILT_DTYPE
from animspec.animclip.tags import ASSET_MAGICS, DERIVED_COUNTS, SECTION_NAMES
from animspec.common.errors import WriteError
from animspec.common.hashes import crc32

SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def json_round_trip(model: AnimclipFile) -> AnimclipFile:
    return from_json(json.loads(json.dumps(to_json(model))))


# ---------------------------------------------------------------------------- quirky files


def quirky_payloads() -> list[tuple[int, bytes]]:
    strings_clip = 0  # "walk" at relative offset 0
    return [
        (BUILT, built_payload(name_offset=strings_clip, name_hash=crc32("walk"), joints=2, frames=2, things=0, tracks=1)),
        (BASE_STATE, joint_record(0, 0, 0, 32767, 1, 2, 3, 0, 4) * 2),
        (JOINT_HASHES, struct.pack("<3I", crc32("root"), crc32("pelvis"), 0xFFFFFFFF)),
        (CUSTOM_TRACKS, track_entry(crc32("t"), 5, 0, 2)),
        (CUSTOM_TRACK_DATA, struct.pack("<2f", 1.0, -2.0)),
        (SAMPLE_ELEM, sample_elem([1, 2, 3], [0, 0, 1])),
        (TRIGGER_DATA, trigger_data(bytes(8), [(1, 2, 1, 3, 4)])),
        (SAMPLE_DATA, bytes(range(37))),
        (0x12345678, b"unknown tag payload"),
    ]


STRINGS = b"walk\0t\0"

QUIRKS = {
    "canonical": {},
    "odd alignment": {"align": 1},
    "4-byte alignment": {"align": 4},
    "unsorted table": {"table": [8, 3, 1, 0, 2, 7, 6, 5, 4]},
    "reverse layout order": {"order": list(range(8, -1, -1))},
    "non-zero padding": {"gaps": [b"\xaa" * (k % 3) for k in range(9)]},
    "trailing bytes": {"trailing": b"\x01\x02\x03 trailing"},
    "stale outer size": {"outer_size": 12345},
    "stale DAT1 size": {"dat1_size": 7},
    "unknowns table": {"unknowns": [(0x40, 0x80), (0x44, 0x90)]},
    "RCRA magic and odd type id": {"magic": RCRA, "type_id": 0xDEADBEEF},
    "nonzero header bytes": {"header_unk": bytes(range(28))},
}


@pytest.mark.parametrize("quirk", sorted(QUIRKS))
def test_quirky_file_is_written_back_exactly(quirk):
    data = assemble(quirky_payloads(), strings=STRINGS, **QUIRKS[quirk])
    m = read_bytes(data)
    assert write_bytes(m) == data
    assert m.layout.verbatim == {}  # the typed serializer itself reproduced every payload
    back = json_round_trip(m)
    assert back == m and write_bytes(back) == data


def test_overlapping_and_shared_payloads_round_trip():
    # Two unknown sections pointing at the same bytes, a third overlapping their tail.
    data = bytearray(assemble([(SAMPLE_DATA, bytes(range(48)))], strings=b"x\0"))
    table = 36 + 16
    n_sections = 3
    # Rebuild with a 3-entry table by hand: header + table + strings + one payload.
    s = 16 + 12 * n_sections
    payload_at = (s + 2 + 15) // 16 * 16
    dat1 = bytearray(payload_at + 48)
    struct.pack_into("<4sIIHH", dat1, 0, b"1TAD", 0xC96F58F3, len(dat1), n_sections, 0)
    for i, (tag, off, size) in enumerate([(0x11111111, payload_at, 48), (0x22222222, payload_at, 48),
                                          (0x33333333, payload_at + 40, 8)]):
        struct.pack_into("<III", dat1, 16 + 12 * i, tag, off, size)
    dat1[s : s + 2] = b"x\0"
    dat1[payload_at:] = bytes(range(48))
    data = struct.pack("<II", 0xC96F58F3, len(dat1)) + bytes(28) + bytes(dat1)
    assert table == 52
    m = read_bytes(data)
    assert [s.data for s in m.sections] == [bytes(range(48)), bytes(range(48)), bytes(range(40, 48))]
    assert write_bytes(m) == data
    assert write_bytes(json_round_trip(m)) == data


def test_signalling_nan_fps_survives_unedited():
    # Python's float conversion quiets a signalling NaN; the original payload is kept.
    b = bytearray(built_payload())
    b[0x0C:0x10] = bytes.fromhex("0100807f")
    data = assemble([(BUILT, bytes(b))])
    m = read_bytes(data)
    assert m.layout.verbatim.keys() == {0}
    assert write_bytes(m) == data
    assert write_bytes(json_round_trip(m)) == data


def test_quiet_nan_payload_bits_survive_json():
    path = struct.pack("<16f", *np.eye(4).ravel()) + struct.pack("<16f", *np.eye(4).ravel())
    path = bytearray(path)
    path[0:4] = bytes.fromhex("0500c0ff")  # a negative quiet NaN with a payload
    data = assemble([(PATH, bytes(path))])
    m = read_bytes(data)
    assert m.layout.verbatim == {}
    doc = to_json(m)
    assert doc["raw"]["sections"][0]["start_matrix"][0][0] == "nan:ffc00005"
    assert write_bytes(from_json(json.loads(json.dumps(doc)))) == data


# ---------------------------------------------------------------------------- fuzzing bytes


@st.composite
def dat1_images(draw) -> bytes:
    """Random tables over a random byte image: any offsets, sizes, overlaps, gaps; the
    parser accepts some, and those must come back exactly."""
    n = draw(st.integers(0, 6))
    u = draw(st.integers(0, 2))
    tags = list(SECTION_NAMES) + [0x0BADF00D]
    size = draw(st.integers(16 + 12 * n + 8 * u, 700))
    alphabet = st.sampled_from([0, 0, 0, 0x41, 0x7A, 0xFF, 0x80, 0xDE, 0x01])
    image = bytearray(draw(st.lists(alphabet, min_size=size, max_size=size)))
    struct.pack_into("<4sIIHH", image, 0, b"1TAD", draw(st.sampled_from([0xC96F58F3, 0, 0xFFFFFFFF])),
                     draw(st.sampled_from([size, size - 1, size + 3])), n, u)
    for i in range(n):
        off = draw(st.integers(16 + 12 * n + 8 * u, size))
        length = draw(st.integers(0, size - off + draw(st.sampled_from([0, 0, 0, 1]))))
        struct.pack_into("<III", image, 16 + 12 * i, draw(st.sampled_from(tags)), off, length)
    for k in range(u):
        struct.pack_into("<II", image, 16 + 12 * n + 8 * k, draw(st.integers(0, 2**32 - 1)), 7)
    magic = draw(st.sampled_from(sorted(ASSET_MAGICS)))
    outer = draw(st.sampled_from([size, 0, 99999]))
    return struct.pack("<II", magic, outer) + draw(st.binary(min_size=28, max_size=28)) + bytes(image)


def test_any_accepted_image_is_written_back_exactly():
    tally = Acceptance()

    # A fixed sequence of examples: the share a random run accepts ranged from 3 % to 37 % over
    # runs (a clean clone's CI drew 4 of 150), so the floor below tested luck, not the generator.
    @given(dat1_images())
    @settings(SLOW, derandomize=True)
    def check(data):
        m = tally.read(read_bytes, data)
        if m is None:
            return
        assert write_bytes(m) == data

    check()
    tally.check(0.03)  # the fixed sequence accepts 26 of 150 (17%)


def test_mutated_files_are_rejected_or_written_back_exactly():
    tally = Acceptance()

    @given(st.sampled_from(["appendix", "quirky"]), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=4), st.data())
    @SLOW
    def check(base, edits, data):
        raw = bytearray(appendix_a() if base == "appendix" else assemble(quirky_payloads(), strings=STRINGS, align=4))
        for pos, value in edits:
            raw[pos % len(raw)] = value
        if data.draw(st.booleans()):
            raw = raw[: data.draw(st.integers(0, len(raw)))]
        blob = bytes(raw)
        m = tally.read(read_bytes, blob)
        if m is None:
            return
        assert write_bytes(m) == blob
        assert write_bytes(json_round_trip(m)) == blob

    check()
    tally.check(0.03)  # about 15% were accepted when this was written


# ---------------------------------------------------------------------------- models


u1 = st.integers(0, 0xFF)
u2 = st.integers(0, 0xFFFF)
u4 = st.integers(0, 0xFFFF_FFFF)
f32 = st.floats(width=32)
small_bytes = st.binary(max_size=24)


def u4_array(max_size: int):
    return st.lists(u4, max_size=max_size).map(lambda v: np.array(v, "<u4"))


def f32_bits(max_size: int):
    # Arbitrary bit patterns, signalling NaNs included: the pool is read raw.
    return st.binary(max_size=4 * max_size).map(lambda b: np.frombuffer(b[: len(b) // 4 * 4], "<f4").copy())


def matrices():
    return st.lists(f32, min_size=16, max_size=16).map(lambda v: np.array(v, "<f4").reshape(4, 4))


@st.composite
def joints(draw):
    n = draw(st.integers(0, 5))
    raw = draw(st.binary(min_size=16 * n, max_size=16 * n))
    return np.frombuffer(raw, JOINT_DTYPE).copy()


def _built_field(kind: np.dtype):
    return f32 if kind.kind == "f" else st.integers(0, 2 ** (8 * kind.itemsize) - 1)


built_sections = st.builds(
    # Every field Built's dtype holds, in its own range; the counts another section
    # determines stay None (derived), as a model read from a consistent file has them.
    Built, trailing=small_bytes,
    **{name: _built_field(BUILT_DTYPE[name]) for name in BUILT_DTYPE.names if name not in DERIVED_COUNTS},
)
sections_by_tag = {
    TYPED_SECTIONS[0x2BB5BC8F]: st.builds(BaseState, joints=joints(), things=st.sampled_from([b"", bytes(range(32)), bytes(64)]), extra=small_bytes),
    JointHashes: st.builds(JointHashes, hashes=u4_array(6), trailing=st.binary(max_size=3)),
    Path: st.builds(Path, start_matrix=matrices(), end_matrix=matrices(), trailing=small_bytes),
    CustomTracks: st.builds(CustomTracks, entries=st.lists(st.builds(CustomTrackEntry, *[u4] * 10), max_size=3), trailing=st.binary(max_size=39)),
    CustomTrackData: st.builds(CustomTrackData, values=f32_bits(8), trailing=st.binary(max_size=3)),
    SampleElem: st.integers(0, 6).flatmap(lambda n: st.builds(
        SampleElem, offsets=st.lists(u4, min_size=n, max_size=n).map(lambda v: np.array(v, "<u4")),
        codes=st.binary(min_size=n, max_size=n).map(lambda b: np.frombuffer(b, "u1").copy()),
        # the padding a Built's counts split off; large tables: test_animclip_msm2.py
        padding=st.binary(min_size=-n % 4, max_size=-n % 4))),
    TriggerData: st.builds(
        TriggerData, num_jsons=u2, num_things=u2, unk1=u4, unk2=u4, jsons=st.binary(max_size=40),
        records=st.lists(st.builds(TriggerRecord, u4, u4, u2, u2, u4), max_size=3), trailing=st.binary(max_size=15)),
    TriggerJointNames: st.builds(TriggerJointNames, hashes=st.lists(u4, max_size=4), trailing=st.binary(max_size=3)),
}
raw_sections = st.builds(
    RawSection,
    tag=st.sampled_from([SAMPLE_DATA, MORPH_INFO, 0xE08AA35F, 0x0BADF00D, 0x7FFFFFFF]),
    data=st.binary(max_size=40),
)
strings_blocks = st.lists(st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), min_size=1, max_size=6), max_size=4).map(
    lambda names: b"".join(n.encode("utf-8") + b"\0" for n in names)
)


@st.composite
def models(draw) -> AnimclipFile:
    kinds = draw(st.lists(st.sampled_from(list(sections_by_tag)), unique=True, max_size=5))
    sections = [draw(sections_by_tag[k]) for k in kinds]
    if draw(st.booleans()) or any(isinstance(s, BaseState) for s in sections):
        sections.append(draw(built_sections))  # Base State is split by Built's J and T
    raws = draw(st.lists(raw_sections, max_size=2, unique_by=lambda s: s.tag))
    sections = sorted(sections + raws, key=lambda s: s.tag)
    magic = draw(st.sampled_from(sorted(ASSET_MAGICS)))
    container = draw(st.sampled_from(["asset", "asset", "stg", "dat1"]))
    if container == "asset":
        header_unk, type_id = draw(st.binary(min_size=28, max_size=28)), draw(u4)
    elif container == "stg":  # Spider-Man 2's wrapper, its type and size slots left to the writer
        version, unk_0c, unk_04, unk_0c2 = draw(u4), draw(u4), draw(u4), draw(u4)
        header_unk = struct.pack("<4sIIIIIII", b"STG\0", version, 16, unk_0c, 0, unk_04, 0, unk_0c2)
        type_id = draw(u4)
    else:  # a bare DAT1: its type is its type id
        header_unk, type_id = b"", magic
    return AnimclipFile(
        magic=magic,
        header_unk=header_unk,
        container=container,
        type_id=type_id,
        sections=sections,
        unknowns=draw(st.lists(st.builds(UnknownEntry, u4, u4), max_size=3)),
        strings=draw(strings_blocks),
    )


@given(models())
@SLOW
def test_read_of_write_is_identity(model):
    data = write_bytes(model)
    back = read_bytes(data)
    assert back == model
    assert write_bytes(back) == data  # and the re-read file is written back unchanged


@given(models())
@SLOW
def test_json_round_trip_of_models(model):
    assert json_round_trip(model) == model
    data = write_bytes(model)
    assert write_bytes(json_round_trip(read_bytes(data))) == data


@given(models())
@SLOW
def test_written_files_follow_spec_4_6(model):
    data = write_bytes(model)
    wrapper = len(model.header_unk) if model.container == "stg" else 0 if model.container == "dat1" else 36
    if model.container == "stg":  # the asset header's size slot holds the DAT1 size too
        assert struct.unpack_from("<I", data, 24)[0] == len(data) - wrapper
    if wrapper != 36:  # seen through a 36-byte header, as read_header expects
        dat1 = data[wrapper:]
        data = struct.pack("<II", model.magic, len(dat1)) + bytes(28) + dat1
    h = read_header(data)
    assert h["dat1_magic"] == b"1TAD"
    assert h["outer_size"] == h["size"] == len(data) - 36
    assert h["num_sections"] == len(model.sections) and h["num_unknowns"] == len(model.unknowns)
    tags = [t for t, _, _ in h["table"]]
    assert tags == sorted(tags)
    s = 16 + 12 * h["num_sections"] + 8 * h["num_unknowns"]
    for _, offset, size in h["table"]:
        assert offset % 16 == 0 and offset >= s + len(model.strings) and offset + size <= h["size"]
    if h["table"]:
        assert max(o + z for _, o, z in h["table"]) == h["size"]


# ---------------------------------------------------------------------------- writer refusals


@pytest.mark.parametrize(
    "model, field",
    [
        (AnimclipFile(magic=0x12345678), "magic"),
        (AnimclipFile(header_unk=b"short"), "header_unk"),
        (AnimclipFile(sections=[Built(num_frames=70000)]), "sections[0].num_frames"),
        (AnimclipFile(sections=[Built(fps=1e39)]), "sections[0].fps"),
        (AnimclipFile(sections=[JointHashes(np.array([-1]))]), "sections[0].hashes"),
        (AnimclipFile(sections=[JointHashes(trailing=b"1234")]), "sections[0].trailing"),
        (AnimclipFile(sections=[TriggerData(records=[TriggerRecord(c=70000)])]), "sections[0].records[0].c"),
        (AnimclipFile(sections=[TriggerData(trailing=bytes(16))]), "sections[0].trailing"),
        (AnimclipFile(sections=[SampleElem(np.array([1, 2], "<u4"), np.array([1], "u1"))]), "sections[0].codes"),
        (AnimclipFile(sections=[RawSection(BUILT, bytes(96))]), "sections[0].tag"),
        (AnimclipFile(sections=[BaseState(joints=np.zeros(2, JOINT_DTYPE))]), "sections[0]"),
        (AnimclipFile(sections=[Built(num_joints=1), BaseState(joints=np.zeros(2, JOINT_DTYPE))]), "sections[1]"),
        (AnimclipFile(sections=[Path(start_matrix=np.frombuffer(bytes.fromhex("0100807f") * 16, "<f4").reshape(4, 4).copy())]), "sections[0].start_matrix"),
        (AnimclipFile(strings=b"\xff\0"), "strings"),
        (AnimclipFile(unknowns=[UnknownEntry(-1, 0)]), "unknowns[0].ofs_source"),
    ],
)
def test_unwritable_models_name_the_field(model, field):
    with pytest.raises(WriteError) as info:
        write_bytes(model)
    assert info.value.field == field


@pytest.mark.parametrize("make, record, what", [
    (lambda tail: JointHashes(trailing=tail), 4, "hash"),
    (lambda tail: CustomTracks(trailing=tail), 40, "40-byte entry"),
    (lambda tail: CustomTrackData(trailing=tail), 4, "value"),
    (lambda tail: SampleElem(padding=tail), 5, "element"),
    (lambda tail: TriggerJointNames(trailing=tail), 4, "hash"),
    (lambda tail: TriggerData(trailing=tail), 16, "16-byte record"),
])
def test_a_tail_as_long_as_a_record_is_refused(make, record, what):
    # A tail of one record would read back as one more record: record - 1 bytes is the most.
    model = AnimclipFile(sections=[make(bytes(range(record - 1)))])
    assert read_bytes(write_bytes(model)) == model
    with pytest.raises(WriteError) as info:
        write_bytes(AnimclipFile(sections=[make(bytes(record))]))
    field = "padding" if record == 5 else "trailing"
    assert info.value.field == f"sections[0].{field}"
    assert info.value.reason == f"{record} bytes would read back as another {what}; at most {record - 1} fit here"


def test_sample_elem_values_are_unsigned_32_bit():
    model = AnimclipFile(sections=[SampleElem(np.array([0xFFFFFFFF, 0x80000000], "<u4"), np.array([1, 2], "u1"))])
    data = write_bytes(model)
    assert data.endswith(bytes.fromhex("ffffffff 00000080 01 02"))
    assert read_bytes(data) == model


def test_base_state_shorter_than_built_says_is_written_as_the_parser_cuts_it():
    # Built says 3 joint records; the payload holds 2 (+ 8 extra bytes): the parser reads the
    # whole records that fit (40 - 40 % 16 = 32 bytes), so such a model writes and reads back.
    base = BaseState(joints=np.zeros(2, JOINT_DTYPE), extra=bytes(range(8)))
    model = AnimclipFile(sections=[Built(num_joints=3), base])
    data = write_bytes(model)
    back = read_bytes(data)
    (read_base,) = [s for s in back.sections if isinstance(s, BaseState)]
    assert len(read_base.joints) == 2 and read_base.extra == bytes(range(8))
    assert write_bytes(back) == data


def _bits(f) -> int:
    return int(np.array([f], "<f4").view("<u4")[0])


@pytest.mark.parametrize("text, bits", [
    ("inf", 0x7F800000), ("+inf", 0x7F800000), ("-inf", 0xFF800000), (" -INF ", 0xFF800000),
    ("nan", 0x7FC00000), ("nan:7fa00001", 0x7FA00001), ("nan:ffffffff", 0xFFFFFFFF), ("nan:0", 0),
    (1.5, 0x3FC00000), (-2, 0xC0000000),
])
def test_f32_json_values_read_to_their_bits(text, bits):
    from animspec.animclip.sections.values import read_f32 as _read_f32
    from animspec.common.jsonpath import JsonNode

    assert _bits(_read_f32(JsonNode(text))) == bits


@pytest.mark.parametrize("value, reason", [
    ("nan:100000000", 'expected a number, "inf", "-inf", "nan" or "nan:XXXXXXXX"'),
    ("nan:xyz", 'expected a number, "inf", "-inf", "nan" or "nan:XXXXXXXX"'),
    ("1.5", 'expected a number, "inf", "-inf", "nan" or "nan:XXXXXXXX"'),
    (True, "expected a number"), (None, "expected a number"), ([1.0], "expected a number"),
    (1e39, "1e+39 does not fit a 32-bit float"),
])
def test_f32_json_refusals(value, reason):
    from animspec.animclip.sections.values import read_f32 as _read_f32
    from animspec.common.errors import JsonInputError
    from animspec.common.jsonpath import JsonNode

    with pytest.raises(JsonInputError) as info:
        _read_f32(JsonNode(value, "$.v"))
    assert (info.value.json_path, info.value.reason) == ("$.v", reason)


def test_u32_json_values_as_integers_or_hex():
    from animspec.animclip.sections.values import read_u32 as _read_u32
    from animspec.common.errors import JsonInputError
    from animspec.common.jsonpath import JsonNode

    for value in ("0x9DF23F77", "0X9df23f77", "9DF23F77", 0x9DF23F77):
        assert _read_u32(JsonNode(value)) == 0x9DF23F77
    assert _read_u32(JsonNode("0")) == 0 and _read_u32(JsonNode(0xFFFFFFFF)) == 0xFFFFFFFF
    for value in ("", "0x", "123456789", "xyz", -1, 2**32):
        with pytest.raises(JsonInputError):
            _read_u32(JsonNode(value))


def test_custom_track_values_given_as_other_numbers():
    # Lists, float64 and integers are converted to f4; an infinity stays one; a finite value
    # past the f4 range, or text, is refused.
    for values in ([0.5, -2.0], np.array([0.5, -2.0]), np.array([1, -3], "<i4")):
        data = write_bytes(AnimclipFile(sections=[CustomTrackData(values)]))
        assert list(read_bytes(data).sections[0].values) == [float(v) for v in np.asarray(values)]
    data = write_bytes(AnimclipFile(sections=[CustomTrackData([np.inf])]))
    assert read_bytes(data).sections[0].values.tolist() == [np.inf]
    for values, reason in (([1e39], "a value does not fit a 32-bit float"), (["a"], "expected numbers, found <U1")):
        with pytest.raises(WriteError) as info:
            write_bytes(AnimclipFile(sections=[CustomTrackData(values)]))
        assert (info.value.field, info.value.reason) == ("sections[0].values", reason)


def test_base_state_joints_in_a_wider_structured_array():
    # Same fields in int32: converted record by record, each range-checked as its field.
    from animspec.animclip.sections.base_state import JOINT_FIELDS

    wide = np.zeros(2, [(name, "<i4") for name in JOINT_FIELDS])
    wide["qw"] = 32767
    wide["log_scale2"] = 8
    data = write_bytes(AnimclipFile(sections=[Built(), BaseState(joints=wide)]))
    (back,) = [x for x in read_bytes(data).sections if isinstance(x, BaseState)]
    assert back.joints.dtype == JOINT_DTYPE and back.joints["qw"].tolist() == [32767] * 2
    assert back.joints["log_scale2"].tolist() == [8, 8]
    wide["qx"][1] = 40000
    with pytest.raises(WriteError) as info:
        write_bytes(AnimclipFile(sections=[Built(), BaseState(joints=wide)]))
    assert (info.value.field, info.value.reason) == ("sections[1].joints.qx", "40000 does not fit (-32768..32767)")
    for bad in (np.zeros((2, 9), "<i2"), np.zeros((1, 1), JOINT_DTYPE)):
        with pytest.raises(WriteError, match="1-D structured array") as info:
            write_bytes(AnimclipFile(sections=[Built(), BaseState(joints=bad)]))
        assert info.value.field == "sections[1].joints"


def test_pack_int_takes_numpy_integers_and_refuses_bools_and_floats():
    from animspec.animclip.write import pack_int

    u4 = ("<I", 0, 0xFFFF_FFFF)
    assert pack_int(u4, np.uint32(0xC96F58F3), "magic") == bytes.fromhex("f3586fc9")
    assert pack_int(u4, np.int64(7), "magic") == b"\x07\x00\x00\x00"
    for value in (True, 1.0, np.float32(1)):
        with pytest.raises(WriteError, match="is not an integer"):
            pack_int(u4, value, "magic")


@pytest.mark.parametrize("j, joints, things_t, things, extra", [
    (20, 20, None, 0, 16),  # 20 records + 16 bytes: 16 * J fits, the records are 320 bytes
    (None, 1, 2, 1, 8),  # Built says T = 2, one 32-byte thing is there (+ 8 bytes): cut to it
])
def test_base_state_split_as_the_parser_splits_it(j, joints, things_t, things, extra):
    base = BaseState(joints=np.zeros(joints, JOINT_DTYPE), things=bytes(32 * things), extra=bytes(range(extra)))
    model = AnimclipFile(sections=[Built(num_joints=j, num_base_state_things=things_t), base])
    data = write_bytes(model)
    (back,) = [x for x in read_bytes(data).sections if isinstance(x, BaseState)]
    assert (len(back.joints), len(back.things), back.extra) == (joints, 32 * things, bytes(range(extra)))
