"""Bad input gives one ParseError naming the file, the byte offset and the field."""

from __future__ import annotations

import struct

import pytest
from conftest import anim_header, header, one_clip, rot_key, track_header, trans_key

from animspec.animbin import read_bytes
from animspec.common.errors import ParseError
from animspec.kaitai_read import describe


def test_every_truncation_of_the_sample_is_a_parse_error(swing_bytes):
    for n in range(len(swing_bytes)):
        with pytest.raises(ParseError) as info:
            read_bytes(swing_bytes[:n], "swing.animbin")
        err = info.value
        assert err.path == "swing.animbin"
        assert err.field, n
        # The field that ran out starts inside the data (or right at its end).
        assert err.offset is not None and 0 <= err.offset <= n, (n, err.offset)
        assert "swing.animbin" in str(err) and f"byte {err.offset}" in str(err)


def test_truncated_key_names_field_and_offset():
    data = one_clip([rot_key(0, 4096, 0, 0, 0), rot_key(1, 4096, 0, 0, 0)])
    # 9 header + 42 animation header + 4 track header + 11 key 0 + frame and type of key 1
    key1 = 9 + 42 + 4 + 11
    cut = data[: key1 + 3 + 5]  # w and x of key 1 are present, y is cut in half
    with pytest.raises(ParseError) as info:
        read_bytes(cut, "cut.animbin")
    assert info.value.field == "animations[0].tracks[0].keys[1].value.y"
    assert info.value.offset == key1 + 3 + 4
    # y is an s2 and one of its two bytes is there: both numbers, each in its place.
    assert info.value.reason == "data ends too early: the field needs 2 bytes, only 1 remain"


def test_truncated_translation_names_bytes_needed_and_left():
    data = one_clip([trans_key(0, 1, 2, 3)])
    key0 = 9 + 42 + 4
    with pytest.raises(ParseError) as info:
        read_bytes(data[: key0 + 3 + 4 + 1], "cut.animbin")  # x whole, one byte of the s4 y
    assert (info.value.field, info.value.offset) == ("animations[0].tracks[0].keys[0].value.y", key0 + 3 + 4)
    assert info.value.reason == "data ends too early: the field needs 4 bytes, only 1 remain"
    assert str(info.value) == (
        f"cut.animbin: byte {key0 + 7} (0x{key0 + 7:x}), field animations[0].tracks[0].keys[0].value.y: "
        "data ends too early: the field needs 4 bytes, only 1 remain"
    )


def test_wrong_magic():
    with pytest.raises(ParseError) as info:
        read_bytes(b"ANIMBOX\x01\x00", "bad.animbin")
    assert (info.value.field, info.value.offset) == ("magic", 0)
    assert "ANIMBIN" in info.value.reason and "ANIMBOX" in info.value.reason


def test_count_past_the_data():
    data = header(200) + anim_header(b"only", 1, 1, 0, 0)
    with pytest.raises(ParseError) as info:
        read_bytes(data)
    assert info.value.field == "animations[1].name"
    assert info.value.offset == 9 + 42


def test_huge_key_count_fails_fast_at_the_end_of_data():
    data = header(1) + anim_header(b"a", 1, 1, 1, 0) + track_header(0, 0, 0xFFFF) + rot_key(0, 1, 2, 3, 4)
    with pytest.raises(ParseError) as info:
        read_bytes(data)
    assert info.value.field == "animations[0].tracks[0].keys[1].frame"
    assert info.value.offset == len(data)


def test_empty_input():
    with pytest.raises(ParseError) as info:
        read_bytes(b"", "empty.animbin")
    assert (info.value.field, info.value.offset) == ("magic", 0)


def test_error_message_is_one_line():
    with pytest.raises(ParseError) as info:
        read_bytes(struct.pack("<7sB", b"ANIMBIN", 1), "x.animbin")
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("x.animbin: byte 8 (0x8), field num_animations:")


@pytest.mark.parametrize("magic, shown", [
    (b"ANIM BN", "'ANIM BN'"),  # a space (0x20) is the first printable byte: shown as text
    (b"ANIM~BN", "'ANIM~BN'"),  # 0x7e, the last printable one
    (b"ANIM\x1fBN", "41 4e 49 4d 1f 42 4e"),  # 0x1f and 0x7f are not printable: shown in hex
    (b"ANIM\x7fBN", "41 4e 49 4d 7f 42 4e"),
])
def test_wrong_magic_is_shown_as_text_only_when_printable(magic, shown):
    with pytest.raises(ParseError) as info:
        read_bytes(magic + b"\x01\x00", "bad.animbin")
    assert info.value.reason == f"expected 'ANIMBIN', found {shown}"


def test_describe_words_each_kind_of_failure():
    from io import BytesIO

    from kaitaistruct import EndOfStreamError, KaitaiStream, NoTerminatorFoundError, ValidationNotInEnumError

    io = KaitaiStream(BytesIO(bytes(8)))
    io.seek(4)
    assert describe(EndOfStreamError("x", 4, 1)) == "data ends too early: the field needs 4 bytes, only 1 remain"
    assert describe(NoTerminatorFoundError(b"\0", 3)) == "no terminator b'\\x00' before the end of the data"
    assert describe(EOFError("short read")) == "data ends too early (short read)"
    # Kaitai's text is "/seq/0: at pos 4: validation failed: not in the enum, got 7": only
    # what follows "validation failed: " is kept.
    assert describe(ValidationNotInEnumError(7, io, "/seq/0")) == "not in the enum, got 7"
    try:
        b"ab\xffc".decode("utf-8")
    except UnicodeDecodeError as exc:
        assert describe(exc) == "text is not valid utf-8: byte 0xff"
    assert describe(ValueError("a plain reason")) == "a plain reason"
    assert describe(OverflowError("too big")) == "too big"
