"""Bad .animclip input: one ParseError with file, byte offset and field, never another
exception; corrupt tables never make the reader allocate what they claim."""

from __future__ import annotations

import json
import struct
import tracemalloc

import pytest
from conftest import EXAMPLES
from test_animclip_support import SAMPLE_DATA, appendix_a, assemble

from animspec.animclip import read_bytes, write_bytes
from animspec.animclip.jsonio import to_json
from animspec.animclip.validate import validate
from animspec.common.errors import ParseError

SAMPLES = ["walk.animclip", "wave.performanceclip", "walk_lz4.animclip"]


def sample(name: str) -> bytes:
    return appendix_a() if name == "appendix" else (EXAMPLES / name).read_bytes()


@pytest.mark.parametrize("name", ["appendix", *SAMPLES])
def test_every_truncation_is_a_parse_error(name):
    data = sample(name)
    for n in range(len(data)):
        with pytest.raises(ParseError) as info:
            read_bytes(data[:n], name)
        err = info.value
        assert err.path == name and err.field, n
        assert err.offset is not None and 0 <= err.offset <= n, (n, err.offset, str(err))
        assert f"byte {err.offset}" in str(err)


def table_entry(i: int, field: int) -> int:
    """File offset of u32 ``field`` (0 tag, 1 offset, 2 size) of table entry ``i``."""
    return 36 + 16 + 12 * i + 4 * field


def test_payload_past_the_end_names_the_table_entry():
    data = bytearray(appendix_a())
    struct.pack_into("<I", data, table_entry(2, 2), 0x1000)  # Base State size
    with pytest.raises(ParseError) as info:
        read_bytes(bytes(data), "a.animclip")
    assert info.value.field == "dat1.sections[2].len_body"
    assert info.value.offset == table_entry(2, 2)
    assert "2BB5BC8F (Anim Clip Base State)" in info.value.reason and "past the end" in info.value.reason
    struct.pack_into("<I", data, table_entry(2, 1), 0xFFFFFFF0)
    with pytest.raises(ParseError) as info:
        read_bytes(bytes(data))
    assert (info.value.field, info.value.offset) == ("dat1.sections[2].ofs_body", table_entry(2, 1))


def test_short_fixed_section_names_the_field_inside_it():
    data = bytearray(appendix_a())
    struct.pack_into("<I", data, table_entry(3, 2), 40)  # Built cut to 40 bytes
    with pytest.raises(ParseError) as info:
        read_bytes(bytes(data))
    # Built is at DAT1 0x70 (file 0x94); the u16 at +0x28 is the first field that no longer fits.
    assert info.value.field == "dat1.sections[3].body.stride"
    assert info.value.offset == 36 + 0x70 + 0x28


def test_bad_outer_magic_and_dat1_magic():
    data = bytearray(appendix_a())
    data[0:4] = b"ABCD"
    with pytest.raises(ParseError) as info:
        read_bytes(bytes(data))
    assert (info.value.field, info.value.offset) == ("header.magic", 0)
    # Not one of the three asset magics: the u4 "ABCD" read little-endian, 0x44434241.
    assert info.value.reason == "not in the enum, got 1145258561"
    data = bytearray(appendix_a())
    data[36:40] = b"2TAD"
    with pytest.raises(ParseError) as info:
        read_bytes(bytes(data))
    assert (info.value.field, info.value.offset) == ("dat1.magic", 36)


def test_error_inside_a_compressed_body_names_the_decompressed_offset():
    plain = bytearray(sample("walk.animclip"))
    struct.pack_into("<I", plain, table_entry(0, 2), 0x100000)
    import lz4.block

    packed = bytes(plain[:36]) + lz4.block.compress(bytes(plain[36:]), store_size=False)
    with pytest.raises(ParseError) as info:
        read_bytes(packed)
    assert info.value.offset == 36 and info.value.field == "dat1.sections[0].len_body"
    assert f"(at offset {16 + 8} (0x18) of the decompressed DAT1)" in info.value.reason


def corrupt(name: str, edits: list[tuple[int, str, int]]) -> bytes:
    data = bytearray(sample(name))
    for offset, fmt, value in edits:
        struct.pack_into("<" + fmt, data, offset, value)
    return bytes(data)


def walk_section(tag: int) -> int:
    """DAT1 offset of a section of walk.animclip (table read with struct)."""
    data = sample("walk.animclip")
    n = struct.unpack_from("<H", data, 36 + 12)[0]
    for i in range(n):
        t, off, _ = struct.unpack_from("<III", data, table_entry(i, 0))
        if t == tag:
            return off
    raise KeyError(tag)


CORRUPTIONS = {
    "65535 sections": ("walk.animclip", lambda: [(36 + 12, "H", 0xFFFF)]),
    "65535 unknowns": ("walk.animclip", lambda: [(36 + 14, "H", 0xFFFF)]),
    "4 GB payload": ("walk.animclip", lambda: [(table_entry(0, 2), "I", 0xFFFFFFF0)]),
    "offset near 4 GB": ("walk.animclip", lambda: [(table_entry(4, 1), "I", 0xFFFFFFF0)]),
    "size overflowing with the offset": ("walk.animclip", lambda: [(table_entry(4, 1), "I", 0x10), (table_entry(4, 2), "I", 0xFFFFFFF8)]),
    "J and T of 65535": ("walk.animclip", lambda: [(36 + walk_section(0x9DF23F77) + 0x20, "H", 0xFFFF), (36 + walk_section(0x9DF23F77) + 0x2C, "H", 0xFFFF)]),
    "track of 4 G values": ("walk.animclip", lambda: [(36 + walk_section(0x14014CB6) + 0x20, "I", 0xFFFFFFFF), (36 + walk_section(0x14014CB6) + 0x10, "I", 0x7FFFFFF0)]),
    "trigger jsons of 4 GB": ("walk.animclip", lambda: [(36 + walk_section(0x6962F7DE) + 4, "I", 0xFFFFFFFF)]),
    "LZ4 sizes of 4 GB": ("walk_lz4.animclip", lambda: [(4, "I", 0xFFFFFFF0), (36 + 2 + 8, "I", 0xFFFFFFF0)]),
    "LZ4 inner size of 4 GB": ("walk_lz4.animclip", lambda: [(36 + 2 + 8, "I", 0xFFFFFFF0)]),
    "LZ4 outer size of 4 GB": ("walk_lz4.animclip", lambda: [(4, "I", 0xFFFFFFF0)]),
}


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_corrupt_tables_are_rejected_or_reported_within_bounded_memory(case):
    name, edits = CORRUPTIONS[case]
    data = corrupt(name, edits())
    assert sample("walk_lz4.animclip")[36:40] != b"1TAD" and sample("walk_lz4.animclip")[38:42] == b"1TAD"
    tracemalloc.start()
    try:
        try:
            m = read_bytes(data, "bad.animclip")
        except ParseError:
            m = None
        if m is not None:
            findings = validate(m)
            m.clip()
            json.dumps(to_json(m))
            assert write_bytes(m) == data
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Parsing this 2 KB file normally peaks near 100 KB (Kaitai debug records); the
    # corrupt fields claim up to 4 GB.
    assert peak < 600_000, f"{case}: {peak} bytes allocated"
    if m is not None:
        assert any(f.severity.value == "error" for f in findings), case


def test_lz4_implausible_inner_size_falls_back_to_the_outer_size():
    data = corrupt("walk_lz4.animclip", [(36 + 2 + 8, "I", 0xFFFFFFF0)])
    m = read_bytes(data)
    assert m.built is not None and m.clip_name == "walk_forward"
    assert write_bytes(m) == data


def test_section_inside_the_tables_is_reported_not_fatal():
    # Payload 0 starts inside the section table: the parser accepts it, the validator says so.
    data = bytearray(assemble([(SAMPLE_DATA, bytes(range(40)))]))
    struct.pack_into("<II", data, table_entry(0, 1), 4, 40)
    m = read_bytes(bytes(data))
    assert write_bytes(m) == bytes(data)
    codes = {f.code for f in validate(m)}
    assert "tables-overlap-payload" in codes


def walk_table_index(tag: int) -> int:
    data = sample("walk.animclip")
    n = struct.unpack_from("<H", data, 36 + 12)[0]
    return [struct.unpack_from("<I", data, table_entry(i, 0))[0] for i in range(n)].index(tag)


@pytest.mark.parametrize("len_body, field, at, needs, left", [
    # start_matrix.m is 16 f4 from the payload's start: m[2] starts at +8, 2 of its bytes kept.
    (10, "start_matrix.m[2]", 8, 4, 2),
    # end_matrix.m follows at +64: m[5] at +64 + 5 * 4, 2 bytes kept; m[15] at +124, 3 kept.
    (86, "end_matrix.m[5]", 84, 4, 2),
    (127, "end_matrix.m[15]", 124, 4, 3),
])
def test_error_inside_an_array_of_floats_names_the_element_and_its_offset(len_body, field, at, needs, left):
    # An array of primitives past index 0: the offset is the element's own, not the array's.
    tag_path = 0x3976E44C
    i = walk_table_index(tag_path)
    data = corrupt("walk.animclip", [(table_entry(i, 2), "I", len_body)])
    with pytest.raises(ParseError) as info:
        read_bytes(data, "w.animclip")
    assert info.value.field == f"dat1.sections[{i}].body.{field}"
    assert info.value.offset == 36 + walk_section(tag_path) + at
    assert info.value.reason == f"data ends too early: the field needs {needs} bytes, only {left} remain"
