"""LZ4-compressed DAT1 bodies: detection and decoding (as ALERT's dat1lib/types/dat1.py does)."""

from __future__ import annotations

import struct

import lz4.block
import pytest

from animspec.animclip.compression import inflate, is_compressed
from animspec.errors import ParseError


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
