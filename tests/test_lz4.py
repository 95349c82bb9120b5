"""LZ4-compressed DAT1 bodies: detection and decoding (as ALERT's dat1lib/types/dat1.py does)."""

from __future__ import annotations

import struct

import lz4.block
import pytest

from animspec.animclip.compression import inflate, is_compressed
from animspec.common.errors import ParseError


def dat1(payload_len: int) -> bytes:
    # A DAT1 header with one section entry, then incompressible-ish bytes.
    size = 16 + 12 + payload_len
    body = bytes((i * 37 + 11) % 251 for i in range(payload_len))
    return b"1TAD" + struct.pack("<IIHH", 0xC96F58F3, size, 1, 0) + struct.pack("<III", 0x9DF23F77, 28, payload_len) + body


@pytest.mark.parametrize("payload_len, magic_offset", [(0, 2), (200, 2), (400, 3)])
def test_literal_run_lengths_put_the_magic_at_2_or_3(payload_len, magic_offset):
    # Literal runs of 15..269 and 270..524 bytes need 1 and 2 length-extension bytes.
    plain = dat1(payload_len)
    packed = lz4.block.compress(plain, store_size=False, mode="fast")
    assert is_compressed(packed)
    out, info = inflate(packed, outer_size=len(plain))
    assert out == plain
    assert info.magic_offset == magic_offset and info.compressed == packed


def test_plain_body_passes_through():
    plain = dat1(8)
    assert inflate(plain) == (plain, None)
    assert not is_compressed(plain)


def test_header_that_compresses_uses_the_outer_size():
    # Zero counts make LZ4 end the first literal run before the size field.
    plain = b"1TAD" + struct.pack("<IIHH", 0xC96F58F3, 64, 0, 0) + bytes(48)
    packed = lz4.block.compress(plain, store_size=False)
    out, info = inflate(packed, outer_size=64)
    assert out == plain
    assert info.magic_offset == 1  # a first literal run under 15 bytes: no extension byte


def test_corrupt_block_is_a_parse_error():
    plain = dat1(400)
    packed = lz4.block.compress(plain, store_size=False)
    with pytest.raises(ParseError) as info:
        inflate(packed[:60], path="x.animclip", base_offset=36)
    assert info.value.offset == 36 and info.value.field == "dat1"



def one_literal_block(size_field: int) -> bytes:
    # The smallest LZ4 block with a whole DAT1 header: token 0xC0 (12 literals, no match),
    # then "1TAD", a type id of 0 and the size field. It decodes to those 12 bytes.
    return bytes([0xC0]) + b"1TAD" + bytes(4) + struct.pack("<I", size_field)


def test_a_block_just_long_enough_for_the_size_field():
    block = one_literal_block(12)  # offset 1 + 12 bytes: the size field is the last 4
    assert is_compressed(block)
    out, info = inflate(block, max_size=12)  # a size equal to the limit is accepted
    assert out == block[1:] and info.magic_offset == 1
    with pytest.raises(ParseError) as err:
        inflate(block, max_size=11)
    assert err.value.reason == ("LZ4-compressed DAT1 body: the DAT1 header's size 12 is more than "
                                "the 11 bytes accepted from a 13-byte block")


def test_sizes_that_do_not_match_the_data_are_refused():
    # The header claims 99 bytes and the outer header 50: the block decodes to 12, so neither
    # size describes it.
    with pytest.raises(ParseError) as err:
        inflate(one_literal_block(99), outer_size=50)
    assert err.value.offset == 0 and err.value.field == "dat1"
    assert err.value.reason == ("LZ4-compressed DAT1 body: decodes to 12 bytes, not the DAT1 header's size 99; "
                                "decodes to 12 bytes, not the outer header's size 50")


def test_a_block_too_short_for_a_header_says_so():
    with pytest.raises(ParseError) as err:
        inflate(bytes([0x40]) + b"1TAD")
    assert err.value.reason == "LZ4-compressed DAT1 body: too short to hold a DAT1 header"


def test_a_body_with_no_magic_is_handed_on_unchanged():
    # Neither a DAT1 nor an LZ4 block: the DAT1 parser will name the bad magic.
    assert not is_compressed(b"ABCDEFGHIJKLMNOP")
    assert inflate(b"ABCDEFGHIJKLMNOP") == (b"ABCDEFGHIJKLMNOP", None)


def test_sizes_above_a_gigabyte_are_never_believed():
    with pytest.raises(ParseError) as err:
        inflate(one_literal_block(2**30 + 1))
    assert "size 1073741825 is more than the 1073741824 bytes accepted" in err.value.reason


def test_compression_info_is_immutable():
    import dataclasses

    _, info = inflate(one_literal_block(12))
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.magic_offset = 2
