"""The validator: each invariant of ALERT's DAT1 layout has a stable code and a severity; error
only where the file contradicts itself or cannot be used."""

from __future__ import annotations

import struct

import pytest
from conftest import EXAMPLES
from test_animclip_support import (
    BASE_STATE,
    BUILT,
    CUSTOM_TRACK_DATA,
    CUSTOM_TRACKS,
    JOINT_HASHES,
    MORPH_INFO,
    PATH,
    SAMPLE_DATA,
    SAMPLE_ELEM,
    TRIGGER_DATA,
    TRIGGER_JOINT_NAMES,
    appendix_a,
    assemble,
    built_payload,
    joint_record,
    sample_elem,
    track_entry,
    trigger_data,
)

from animspec.animclip import read_bytes
from animspec.animclip.validate import validate
from animspec.common.findings import Severity
from animspec.common.hashes import crc32

ROOT, PELVIS, END = crc32("root"), crc32("pelvis"), 0xFFFFFFFF


def clip(*, joints=2, things=0, tracks=1, samples=2, name="c", name_hash=None, records=None, hashes=None,
         base=None, entries=None, data=None, elem=None, extra=(), drop=(), **layout) -> bytes:
    """A consistent little clip built with struct; keyword arguments break one thing at a time."""
    strings = name.encode() + b"\0t\0"
    payloads = {
        BUILT: built_payload(name_offset=0, name_hash=crc32(name) if name_hash is None else name_hash,
                             joints=joints, frames=3, samples=samples, things=things, tracks=tracks),
        BASE_STATE: base if base is not None else joint_record(0, 0, 0, 32767, 0, 0, 0, 0, 0) * 2,
        JOINT_HASHES: struct.pack(f"<{len(hashes or [ROOT, PELVIS, END])}I", *(hashes or [ROOT, PELVIS, END])),
        CUSTOM_TRACKS: entries if entries is not None else track_entry(crc32("t"), len(name) + 1, 0, 3),
        CUSTOM_TRACK_DATA: data if data is not None else struct.pack("<3f", 1, 2, 3),
        SAMPLE_ELEM: elem if elem is not None else sample_elem([4, 8], [0, 1]),
    }
    for tag in drop:
        del payloads[tag]
    return assemble([*payloads.items(), *extra], strings=strings, **layout)


def codes(data: bytes) -> dict[str, Severity]:
    out: dict[str, Severity] = {}
    for f in validate(read_bytes(data)):
        assert f.code not in out or out[f.code] == f.severity, f.code
        out[f.code] = f.severity
    return out


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO


def test_clean_files_have_no_findings():
    assert codes(clip()) == {}
    assert codes(appendix_a()) == {}
    # walk's Sample Data and Motion Data are real per-frame data (examples/make_animclip_examples.py),
    # coded in Spider-Man 2's layout: every per-frame invariant holds.
    for name in ("walk.animclip", "wave.performanceclip"):
        assert codes((EXAMPLES / name).read_bytes()) == {}, name
    assert codes((EXAMPLES / "walk_lz4.animclip").read_bytes()) == {"lz4-compressed": I}


CASES = {
    # container (spec 11.1-11.6)
    "unknown-type-id": (dict(type_id=0x12345678), W),
    "type-id-differs": (dict(type_id=0x0F64FFE8), I),
    "outer-size-mismatch": (dict(outer_size=3), E),
    "dat1-size-mismatch": (dict(dat1_size=5000), E),
    "trailing-bytes": (dict(trailing=bytes(7)), W),
    "table-not-sorted": (dict(table=[5, 4, 3, 2, 1, 0]), W),
    "misaligned-section": (dict(align=4), W),
    "nonzero-padding": (dict(gaps=[b"", b"\x01", b"", b"", b"", b""]), W),
    "unknown-section": (dict(extra=[(0x0BADF00D, b"????")]), W),
    "unknowns-present": (dict(unknowns=[(1, 2)]), I),
    # sections (spec 11.7-11.16)
    "section-size": (dict(extra=[(PATH, bytes(132))]), E),
    "name-hash-mismatch": (dict(name_hash=1234), E),
    "pair-missing": (dict(drop=[CUSTOM_TRACK_DATA]), E),
    "base-state-size": (dict(joints=3), E),
    "joint-count-mismatch": (dict(hashes=[ROOT, PELVIS, crc32("x"), END]), W),
    "joint-count-includes-terminator": (dict(hashes=[ROOT, END]), I),
    "base-state-extra": (dict(base=joint_record(0, 0, 0, 32767, 0, 0, 0, 0, 0) * 2 + b"1234"), I),
    "quaternion-length": (dict(base=joint_record(0, 0, 0, 32767, 0, 0, 0, 0, 0) + joint_record(0, 0, 0, 16000, 0, 0, 0, 0, 0)), W),
    "joint-hashes-terminator": (dict(hashes=[ROOT, PELVIS]), W),
    "count-mismatch": (dict(tracks=4), W),
    "custom-tracks-size": (dict(entries=track_entry(crc32("t"), 2, 0, 3) + b"xx"), E),
    "custom-track-name-unresolved": (dict(entries=track_entry(crc32("t"), 999, 0, 3)), E),
    "custom-track-hash-mismatch": (dict(entries=track_entry(5, 2, 0, 3)), W),
    "custom-track-misaligned": (dict(entries=track_entry(crc32("t"), 2, 4, 2)), W),
    "custom-track-out-of-range": (dict(entries=track_entry(crc32("t"), 2, 0, 4)), E),
    "custom-track-frames": (dict(entries=track_entry(crc32("t"), 2, 0, 2)), I),
    "custom-track-nonzero": (dict(entries=struct.pack("<10I", crc32("t"), 2, 1, 0, 0, 257, 0, 0, 3, 0)), I),
    "custom-track-data-size": (dict(data=struct.pack("<3f", 1, 2, 3) + b"z"), W),
    "sample-elem-not-ascending": (dict(elem=sample_elem([4, 1], [0, 0])), W),
    "sample-elem-padding": (dict(elem=struct.pack("<2I", 1, 4) + b"\0\0\x09\0"), W),
    # Built's 2 elements need 12 bytes: a per-frame finding, INFO on this Remastered-era clip
    "sample-elem-past-end": (dict(elem=struct.pack("<2I", 1, 4) + b"\0\0"), I),
    "sample-elem-size": (dict(elem=sample_elem([1, 4], [0, 1]) + bytes(4)), W),
    "trigger-data-size": (dict(extra=[(TRIGGER_DATA, trigger_data(b"", []))]), E),
    "trigger-jsons-overflow": (dict(extra=[(TRIGGER_DATA, trigger_data(bytes(24), [], len_jsons=100))]), E),
    "trigger-trailing": (dict(extra=[(TRIGGER_DATA, trigger_data(bytes(8), [], trailing=b"abc"))]), E),
    "trigger-things-count": (dict(extra=[(TRIGGER_DATA, trigger_data(bytes(8), [(1, 2, 0, 3, 4)], things=7))]), I),
    "trigger-record-c": (dict(extra=[(TRIGGER_DATA, trigger_data(bytes(8), [(1, 2, 5, 3, 4)]))]), W),
    "trigger-joint-names-size": (dict(extra=[(TRIGGER_JOINT_NAMES, bytes(20))]), W),
    "duplicate-section": (dict(extra=[(SAMPLE_ELEM, sample_elem([1, 4], [0, 1]))]), E),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_invariant_has_its_code(code):
    kwargs, severity = CASES[code]
    found = codes(clip(**kwargs))
    assert found.get(code) == severity, found


def test_dead_markers_and_built_4c():
    b = bytearray(built_payload(name_offset=0, name_hash=crc32("c")))
    struct.pack_into("<HHH", b, 0x48, 0, 0xDEAD, 1)
    found = codes(assemble([(BUILT, bytes(b))], strings=b"c\0"))
    assert found == {"dead-markers": W, "built-4c-nonzero": I}


def test_name_unresolved_and_pair_warnings():
    found = codes(assemble([(BUILT, built_payload(name_offset=50)), (MORPH_INFO, bytes(28))], strings=b"c\0"))
    assert found == {"name-unresolved": E, "pair-missing": W}


def test_overlap_and_past_declared_end():
    data = bytearray(clip(drop=[BASE_STATE, JOINT_HASHES]))
    # Point Sample Elem (last in the sorted table) at the Custom Track Data payload.
    n = struct.unpack_from("<H", data, 36 + 12)[0]
    rows = [struct.unpack_from("<III", data, 52 + 12 * i) for i in range(n)]
    ctd = next(r for r in rows if r[0] == CUSTOM_TRACK_DATA)
    k = next(i for i, r in enumerate(rows) if r[0] == SAMPLE_ELEM)
    struct.pack_into("<I", data, 52 + 12 * k + 4, ctd[1] + 4)
    found = codes(bytes(data))
    assert found["sections-overlap"] == E
    data = bytearray(clip())
    struct.pack_into("<I", data, 36 + 8, 100)  # DAT1 header size far too small
    found = codes(bytes(data))
    assert found["section-past-declared-end"] == E and found["dat1-size-mismatch"] == E


def test_findings_name_sections_and_joints():
    base = joint_record(0, 0, 0, 32767, 0, 0, 0, 0, 0) + joint_record(0, 0, 0, 0, 0, 0, 0, 0, 0)
    m = read_bytes(clip(base=base))
    [f] = [f for f in validate(m, joint_names=["root", "pelvis"]) if f.code == "quaternion-length"]
    assert f.where["section_name"] == "Anim Clip Base State" and f.where["joint"] == 1
    assert f.where["joint_name"] == "pelvis"
    assert "section" in f.location() and "'pelvis'" in f.location()


def test_in_memory_model_skips_layout_checks_and_reports_unwritable():
    m = read_bytes(clip(align=4))
    m.layout = None
    assert "misaligned-section" not in {f.code for f in validate(m)}
    m.built.num_frames = -1
    assert [f.code for f in validate(m)] == ["unwritable"]


def test_sample_data_of_remastered_era_files_is_info_and_the_decoder_still_refuses_it():
    # Spider-Man 2's per-frame layout (Luna Engine IO Tools) is a hypothesis for the earlier
    # games: validate reports what breaks it as INFO, saying so, and play still refuses the
    # file, naming the hypothesis. (Built +0x28, the stride, is 0 here.)
    from animspec.animclip.frames.inputs import sample_inputs
    from animspec.common.errors import ParseError

    data = clip(extra=[(SAMPLE_DATA, b"\x01\x02\x03")])
    assert codes(data) == {"sample-bits-over-stride": I}
    assert all("a hypothesis for this game" in f.message for f in validate(read_bytes(data)))
    with pytest.raises(ParseError, match="sample-bits-over-stride: .*a hypothesis for this game"):
        sample_inputs(read_bytes(data))
