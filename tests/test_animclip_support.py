"""Independent .animclip assembly for the tests: struct, straight from ALERT's layouts
(Tkachov/ALERT: dat1lib/types/autogen.py, dat1lib/types/dat1.py,
dat1lib/types/sections/animclip/autogen.py) and a 400-byte clip assembled from them, never
animspec's writer, so
the parser and writer are not tested only against each other."""

from __future__ import annotations

import struct

MSMR = 0xC96F58F3
RCRA = 0x0F64FFE8

BUILT = 0x9DF23F77
BASE_STATE = 0x2BB5BC8F
JOINT_HASHES = 0xA3B26640
PATH = 0x3976E44C
CUSTOM_TRACKS = 0x14014CB6
CUSTOM_TRACK_DATA = 0x116EB684
SAMPLE_ELEM = 0xD070D358
SAMPLE_DATA = 0x3A7B4855
TRIGGER_DATA = 0x6962F7DE
TRIGGER_JOINT_NAMES = 0x74FC0175
MOTION_DATA = 0xE08AA35F
MORPH_INFO = 0x277563F5

APPENDIX_A_HEX = """
00000000: f3 58 6f c9 6c 01 00 00 00 00 00 00 00 00 00 00
00000010: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00000020: 00 00 00 00 31 54 41 44 f3 58 6f c9 6c 01 00 00
00000030: 06 00 00 00 84 b6 6e 11 50 01 00 00 0c 00 00 00
00000040: b6 4c 01 14 20 01 00 00 28 00 00 00 8f bc b5 2b
00000050: d0 00 00 00 40 00 00 00 77 3f f2 9d 70 00 00 00
00000060: 60 00 00 00 40 66 b2 a3 10 01 00 00 0c 00 00 00
00000070: 58 d3 70 d0 60 01 00 00 0c 00 00 00 63 6c 69 70
00000080: 5f 6e 61 6d 65 00 74 72 61 63 6b 5f 61 00 00 00
00000090: 00 00 00 00 00 00 00 00 63 fc 87 d4 00 00 00 00
000000a0: 00 00 f0 41 00 00 00 40 00 00 00 00 00 00 00 00
000000b0: 00 00 00 00 02 00 03 00 02 00 00 00 00 00 00 00
000000c0: 01 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00
000000d0: 00 00 00 00 00 00 00 00 00 00 00 00 ad de ad de
000000e0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
000000f0: 00 00 00 00 00 00 00 00 00 00 ff 7f 64 00 c8 00
00000100: d4 fe 03 08 00 00 00 00 00 00 ff 7f 64 00 c8 00
00000110: d4 fe 03 08 00 01 02 03 04 05 06 07 08 09 0a 0b
00000120: 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b
00000130: 1c 1d 1e 1f d5 96 56 86 3f b3 59 8e ff ff ff ff
00000140: 00 00 00 00 ac ef 23 c3 0a 00 00 00 00 00 00 00
00000150: 00 00 00 00 00 00 00 00 01 01 00 00 00 00 00 00
00000160: 00 00 00 00 03 00 00 00 00 00 00 00 00 00 00 00
00000170: 00 00 00 00 00 00 00 3f 00 00 80 3f 00 00 c0 3f
00000180: 00 00 00 00 05 00 00 00 09 00 00 00 00 02 00 00
"""
"""The hex dump of the 400-byte clip (file offsets), as xxd prints it."""


def hex_dump_bytes(dump: str) -> bytes:
    return b"".join(bytes.fromhex(line.split(":", 1)[1]) for line in dump.strip().splitlines())


def put(buf: bytearray, offset: int, fmt: str, *values: object) -> None:
    struct.pack_into("<" + fmt, buf, offset, *values)


def built_payload(*, name_offset=0, name_hash=0, fps=30.0, duration=1.0, joints=0, frames=0,
                  samples=0, things=0, tracks=0, dead=True) -> bytes:
    """Anim Clip Built (spec 7.1), field by field at the table's offsets."""
    b = bytearray(96)
    put(b, 0x00, "I", name_offset)
    put(b, 0x04, "I", name_hash)
    put(b, 0x0C, "f", fps)
    put(b, 0x10, "f", duration)
    put(b, 0x20, "H", joints)
    put(b, 0x22, "H", frames)
    put(b, 0x24, "H", samples)
    put(b, 0x2C, "H", things)
    put(b, 0x3A, "H", tracks)
    if dead:
        put(b, 0x48, "HH", 0xDEAD, 0xDEAD)
    return bytes(b)


def joint_record(qx, qy, qz, qw, x, y, z, e14, e15) -> bytes:
    """One 16-byte Base State record (spec 7.2)."""
    return struct.pack("<7hBB", qx, qy, qz, qw, x, y, z, e14, e15)


def track_entry(name_hash, name_offset, data_offset, count, unk=257) -> bytes:
    """One 40-byte Custom Tracks entry (spec 7.5): ten u32."""
    return struct.pack("<10I", name_hash, name_offset, 0, 0, data_offset, unk, 0, 0, count, 0)


def sample_elem(values: list[int], ndx: list[int]) -> bytes:
    """Spec 7.9: n u32, n u8, zero padding to a multiple of 4."""
    n = len(values)
    return struct.pack(f"<{n}I", *values) + bytes(ndx) + bytes((4 - n % 4) % 4)


def trigger_data(jsons: bytes, records: list[tuple[int, int, int, int, int]], *, unk1=0, things=None,
                 len_jsons=None, trailing=b"") -> bytes:
    """Spec 7.11: u16 jsons_count, u16 things_count, u32 jsons_size, u32 unk1, u32 unk2, the
    jsons region, then 16-byte records a, b (u32), c, d (u16), e (u32)."""
    head = struct.pack("<HHIII", 1, len(records) if things is None else things,
                       len(jsons) if len_jsons is None else len_jsons, unk1, 0)
    return head + jsons + b"".join(struct.pack("<IIHHI", *r) for r in records) + trailing


def appendix_a() -> bytes:
    """The 400-byte clip assembled from its table, not copied from its hex dump."""
    strings = b"clip_name\0track_a\0"
    sections = {
        # tag: (DAT1 offset, payload), values as the table lists them
        BUILT: (0x70, built_payload(name_offset=0, name_hash=0xD487FC63, fps=30.0, duration=2.0,
                                    joints=2, frames=3, samples=2, things=1, tracks=1)),
        BASE_STATE: (0xD0, joint_record(0, 0, 0, 32767, 100, 200, -300, 3, 8) * 2 + bytes(range(32))),
        JOINT_HASHES: (0x110, struct.pack("<3I", 0x865696D5, 0x8E59B33F, 0xFFFFFFFF)),
        CUSTOM_TRACKS: (0x120, track_entry(0xC323EFAC, 10, 0, 3)),
        CUSTOM_TRACK_DATA: (0x150, struct.pack("<3f", 0.5, 1.0, 1.5)),
        SAMPLE_ELEM: (0x160, sample_elem([5, 9], [0, 2])),
    }
    size = 364
    dat1 = bytearray(size)
    put(dat1, 0, "4sIIHH", b"1TAD", MSMR, size, len(sections), 0)
    for i, tag in enumerate(sorted(sections)):
        offset, payload = sections[tag]
        put(dat1, 0x10 + 12 * i, "III", tag, offset, len(payload))
    s = 0x10 + 12 * len(sections)
    assert s == 0x58
    dat1[s : s + len(strings)] = strings
    for offset, payload in sections.values():
        dat1[offset : offset + len(payload)] = payload
    return struct.pack("<II", MSMR, size) + bytes(28) + bytes(dat1)


def assemble(
    payloads: list[tuple[int, bytes]],
    *,
    strings: bytes = b"",
    magic: int = MSMR,
    type_id: int = MSMR,
    order: list[int] | None = None,
    table: list[int] | None = None,
    align: int = 16,
    gaps: list[bytes] | None = None,
    unknowns: list[tuple[int, int]] = (),  # type: ignore[assignment]
    trailing: bytes = b"",
    outer_size: int | None = None,
    dat1_size: int | None = None,
    header_unk: bytes = bytes(28),
) -> bytes:
    """A whole file. ``payloads`` are (tag, bytes). ``order``: layout order (indices into
    payloads, default as given); ``table``: table order (default sorted by tag); each payload
    starts at the next multiple of ``align`` after the previous one plus ``gaps[k]`` extra
    bytes (for the k-th payload laid out, filling included); ``trailing`` follows the last
    one. Sizes default to the truth; pass others to make them stale."""
    n = len(payloads)
    order = list(range(n)) if order is None else order
    table = sorted(range(n), key=lambda i: payloads[i][0]) if table is None else table
    s = 16 + 12 * n + 8 * len(unknowns)
    body = bytearray(s) + strings
    offsets = [0] * n
    for k, i in enumerate(order):
        pad = (-len(body)) % align
        body += bytes(pad)
        if gaps:
            body += gaps[k]
        offsets[i] = len(body)
        body += payloads[i][1]
    body += trailing
    size = len(body)
    put(body, 0, "4sIIHH", b"1TAD", type_id, size if dat1_size is None else dat1_size, n, len(unknowns))
    for row, i in enumerate(table):
        put(body, 16 + 12 * row, "III", payloads[i][0], offsets[i], len(payloads[i][1]))
    for k, (a, b) in enumerate(unknowns):
        put(body, 16 + 12 * n + 8 * k, "II", a, b)
    return struct.pack("<II", magic, size if outer_size is None else outer_size) + header_unk + bytes(body)


def read_header(data: bytes) -> dict:
    """The header and table of a file, read with struct (for checking written files)."""
    magic, outer = struct.unpack_from("<II", data, 0)
    tad, type_id, size, n, u = struct.unpack_from("<4sIIHH", data, 36)
    table = [struct.unpack_from("<III", data, 52 + 12 * i) for i in range(n)]
    return {"magic": magic, "outer_size": outer, "dat1_magic": tad, "type_id": type_id, "size": size,
            "num_sections": n, "num_unknowns": u, "table": table, "dat1": data[36:]}
