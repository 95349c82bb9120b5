"""Edits re-lay the DAT1 out per spec 4.6 and read back as edited; unedited files do not move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from conftest import EXAMPLES
from test_animclip_support import (
    BASE_STATE,
    BUILT,
    CUSTOM_TRACK_DATA,
    CUSTOM_TRACKS,
    JOINT_HASHES,
    SAMPLE_DATA,
    assemble,
    built_payload,
    joint_record,
    read_header,
    track_entry,
)

from animspec.animclip import CustomTrackEntry, RawSection, TriggerRecord, read_bytes, write_bytes
from animspec.animclip.tags import TAG_BASE_STATE, TAG_CUSTOM_TRACKS, TAG_JOINT_HASHES, TAG_PATH
from animspec.animclip.write import is_unedited
from animspec.common.hashes import crc32


def check_layout(data: bytes) -> dict:
    """Spec 4.6, checked with struct on the written bytes."""
    h = read_header(data)
    assert h["dat1_magic"] == b"1TAD"
    assert h["outer_size"] == h["size"] == len(h["dat1"]), "outer size written after layout"
    tags = [t for t, _, _ in h["table"]]
    assert tags == sorted(tags), "table sorted by tag"
    ends = []
    for _, offset, size in h["table"]:
        assert offset % 16 == 0, "payloads 16-byte aligned"
        ends.append(offset + size)
    assert max(ends) == h["size"], "DAT1 size = end of the last payload"
    spans = sorted((o, o + z) for _, o, z in h["table"])
    assert all(b[0] >= a[1] for a, b in zip(spans, spans[1:])), "payloads do not overlap"
    assert spans[0][0] >= 16 + 12 * h["num_sections"] + 8 * h["num_unknowns"]
    return h


@pytest.fixture
def walk() -> bytes:
    return (EXAMPLES / "walk.animclip").read_bytes()


def test_unedited_model_is_flagged_so_and_comes_back(walk):
    m = read_bytes(walk)
    assert is_unedited(m) and write_bytes(m) == walk
    m.built.fps = 24.0
    assert not is_unedited(m)


def test_longer_custom_track_is_relaid_and_reads_back(walk):
    m = read_bytes(walk)
    before = [m.custom_track_values(i) for i in range(3)]
    m.set_custom_track_values(1, np.linspace(0, 1, 45, dtype="<f4"))
    data = write_bytes(m)
    check_layout(data)
    back = read_bytes(data)
    assert back == m
    np.testing.assert_array_equal(back.custom_track_values(1), np.linspace(0, 1, 45, dtype="<f4"))
    np.testing.assert_array_equal(back.custom_track_values(0), before[0])
    np.testing.assert_array_equal(back.custom_track_values(2), before[2])
    entries = back.section(TAG_CUSTOM_TRACKS).entries
    assert [e.ofs_data % 16 for e in entries] == [0, 0, 0]
    assert [e.num_values for e in entries] == [31, 45, 31]
    # Track blocks follow each other at 16-byte boundaries: 31 floats = 124 -> next at 128.
    assert [e.ofs_data for e in entries] == [0, 128, 128 + 192]


def test_rename_appends_the_name_and_keeps_other_offsets(walk):
    m = read_bytes(walk)
    strings_before = m.strings
    track_names = [t.name for t in m.clip().custom_tracks]
    m.set_clip_name("walk_forward_fast")
    data = write_bytes(m)
    check_layout(data)
    back = read_bytes(data)
    assert back.strings.startswith(strings_before), "strings are appended"
    assert back.clip_name == "walk_forward_fast"
    assert back.built.name_hash == crc32("walk_forward_fast")
    assert back.built.ofs_name == len(strings_before)
    assert [t.name for t in back.clip().custom_tracks] == track_names, "relative offsets stay valid"


def test_renaming_to_an_existing_string_reuses_it(walk):
    m = read_bytes(walk)
    m.set_clip_name("foot_plant_r")
    assert m.strings == read_bytes(walk).strings
    assert m.clip_name == "foot_plant_r"


def test_adding_a_section_updates_counts_and_goes_last(walk):
    m = read_bytes(walk)
    m.sections.append(RawSection(0x58C00610, b"motion samples?"))  # "Anim Clip Motion Samples" (EXTERNAL)
    tracks = m.section(TAG_CUSTOM_TRACKS)
    tracks.entries.append(CustomTrackEntry(name_hash=crc32("extra"), ofs_name=m.add_string("extra")))
    m.set_custom_track_values(3, [1.0, 2.0])
    data = write_bytes(m)
    h = check_layout(data)
    assert h["num_sections"] == 12
    new = next(row for row in h["table"] if row[0] == 0x58C00610)
    assert new[1] + new[2] == h["size"], "a new section is laid out after the existing ones"
    built_row = next(row for row in h["table"] if row[0] == BUILT)
    assert struct.unpack_from("<H", h["dat1"], built_row[1] + 0x3A)[0] == 4, "Built tracks count derived"
    back = read_bytes(data)
    assert back == m and [t.name for t in back.clip().custom_tracks][-1] == "extra"


def test_dropping_base_state_zeroes_its_counts(walk):
    m = read_bytes(walk)
    assert m.remove_sections(TAG_BASE_STATE) == 1
    assert m.remove_sections(TAG_JOINT_HASHES) == 1
    data = write_bytes(m)
    h = check_layout(data)
    built_row = next(row for row in h["table"] if row[0] == BUILT)
    j, t = struct.unpack_from("<H", h["dat1"], built_row[1] + 0x20)[0], struct.unpack_from("<H", h["dat1"], built_row[1] + 0x2C)[0]
    assert (j, t) == (0, 0)
    assert read_bytes(data) == m


def test_trigger_records_edit(walk):
    m = read_bytes(walk)
    records = list(m.clip().triggers.records) + [TriggerRecord(1, 2, 0, 30, 5)]
    m.set_trigger_records(records)
    back = read_bytes(write_bytes(m))
    assert back.clip().triggers.records == records


def test_same_length_edit_is_relaid_too(walk):
    """Any edit gives a normalised file, even one that would fit in place: no stale size or
    odd padding survives an edit."""
    data = assemble(
        [(BUILT, built_payload(name_hash=crc32(""), joints=0)), (SAMPLE_DATA, bytes(5))],
        strings=b"", align=4, outer_size=999, gaps=[b"\x01\x02", b"\x03"],
    )
    m = read_bytes(data)
    assert write_bytes(m) == data
    m.section(SAMPLE_DATA).data = b"abcde"
    check_layout(write_bytes(m))


def test_edited_file_with_unknowns_writes_the_count():
    payloads = [(BUILT, built_payload(name_offset=0, name_hash=crc32("x"))), (SAMPLE_DATA, b"12345678")]
    data = assemble(payloads, strings=b"x\0", unknowns=[(1, 2), (3, 4)], table=[1, 0])
    m = read_bytes(data)
    assert write_bytes(m) == data
    m.set_clip_name("y")
    out = write_bytes(m)
    h = check_layout(out)
    assert h["num_unknowns"] == 2, "the unknowns COUNT, not ALERT's byte length 16"
    assert struct.unpack_from("<4I", h["dat1"], 16 + 12 * 2) == (1, 2, 3, 4)
    assert read_bytes(out).clip_name == "y"


def test_edited_lz4_file_is_written_uncompressed():
    compressed = (EXAMPLES / "walk_lz4.animclip").read_bytes()
    m = read_bytes(compressed)
    assert m.layout.compression is not None
    assert write_bytes(m) == compressed, "unedited: the original LZ4 block"
    m.built.duration = 1.25
    out = write_bytes(m)
    assert out[36:40] == b"1TAD"
    check_layout(out)
    back = read_bytes(out)
    assert back.layout.compression is None and back.built.duration == 1.25
    # Apart from the edit it is the plain example.
    plain = read_bytes((EXAMPLES / "walk.animclip").read_bytes())
    plain.built.duration = 1.25
    assert back == plain


def test_edit_of_a_quirky_file_normalises_everything():
    payloads = [
        (BUILT, built_payload(name_offset=0, name_hash=crc32("q"), joints=1, tracks=1)),
        (BASE_STATE, joint_record(0, 0, 0, 32767, 0, 0, 0, 0, 0)),
        (JOINT_HASHES, struct.pack("<2I", crc32("root"), 0xFFFFFFFF)),
        (CUSTOM_TRACKS, track_entry(crc32("t"), 2, 0, 1)),
        (CUSTOM_TRACK_DATA, struct.pack("<f", 3.0)),
    ]
    data = assemble(payloads, strings=b"q\0t\0", align=1, order=[4, 3, 2, 1, 0], table=[4, 0, 2, 1, 3],
                    gaps=[b"\0"] + [b"\x7f"] * 4, trailing=b"tail", outer_size=1, dat1_size=2)
    m = read_bytes(data)
    assert write_bytes(m) == data
    m.set_custom_track_values(0, [3.0, 4.0])
    out = write_bytes(m)
    check_layout(out)
    back = read_bytes(out)
    assert back == m
    # Layout order is kept (ascending original offsets), the table is sorted.
    order = [s.tag for s in sorted(back.sections, key=lambda s: s.offset)]
    assert order == [CUSTOM_TRACK_DATA, CUSTOM_TRACKS, JOINT_HASHES, BASE_STATE, BUILT]
    assert m.section(TAG_PATH) is None


def test_unterminated_strings_block_gains_a_nul_when_relaid():
    # Bytes between the last NUL and the first payload are part of the block (the parser
    # cannot tell them from a string); re-laid out, the block is NUL-terminated.
    data = assemble([(SAMPLE_DATA, b"1234")], strings=b"a\0bc", align=1)
    m = read_bytes(data)
    assert m.strings == b"a\0bc" and write_bytes(m) == data
    m.section(SAMPLE_DATA).data = b"5678"
    assert read_bytes(write_bytes(m)).strings == b"a\0bc\0"
