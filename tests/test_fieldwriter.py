"""The field writer every serializer builds on: exact limits, little-endian bytes, field names."""

from __future__ import annotations

import pytest

from animspec.common.errors import WriteError
from animspec.common.fieldwriter import S1, S2, S4, U1, U2, U4, FieldWriter

# (kind, lowest, highest, bytes of the lowest, bytes of the highest), from the C types.
KINDS = [
    (U1, 0, 255, b"\x00", b"\xff"),
    (S1, -128, 127, b"\x80", b"\x7f"),
    (U2, 0, 65535, b"\x00\x00", b"\xff\xff"),
    (S2, -32768, 32767, b"\x00\x80", b"\xff\x7f"),
    (U4, 0, 2**32 - 1, b"\x00\x00\x00\x00", b"\xff\xff\xff\xff"),
    (S4, -(2**31), 2**31 - 1, b"\x00\x00\x00\x80", b"\xff\xff\xff\x7f"),
]


@pytest.mark.parametrize("kind, low, high, low_bytes, high_bytes", KINDS)
def test_each_kind_takes_exactly_its_range(kind, low, high, low_bytes, high_bytes):
    out = FieldWriter()
    out.int(kind, low, "f")
    out.int(kind, high, "f")
    assert out.getvalue() == low_bytes + high_bytes
    for value in (low - 1, high + 1):
        with pytest.raises(WriteError) as info:
            out.int(kind, value, "a.b")
        assert info.value.field == "a.b" and info.value.reason == f"{value} does not fit ({low}..{high})"
    assert out.getvalue() == low_bytes + high_bytes  # nothing written for a refused value


def test_little_endian_order_of_a_multibyte_value():
    out = FieldWriter()
    out.int(U2, 0x1234, "f")
    out.int(S4, -2, "f")
    out.int(U4, 0x01020304, "f")
    assert out.getvalue() == b"\x34\x12" + b"\xfe\xff\xff\xff" + b"\x04\x03\x02\x01"


@pytest.mark.parametrize("value", [True, 1.0, "1", None])
def test_only_integers_are_written(value):
    with pytest.raises(WriteError, match="is not an integer") as info:
        FieldWriter().int(U1, value, "x")
    assert info.value.field == "x"


def test_records_counts_and_raw_bytes():
    out = FieldWriter()
    out.ints(S2, (1, -1, 2), "xyz", "v")
    out.count(U1, [0] * 255, "n")
    out.bytes(b"ab")
    assert out.getvalue() == b"\x01\x00\xff\xff\x02\x00" + b"\xff" + b"ab"
    with pytest.raises(WriteError) as info:
        out.ints(S2, (1, 2), "xyz", "v")
    assert (info.value.field, info.value.reason) == ("v", "expected 3 values (x, y, z), got 2")
    with pytest.raises(WriteError) as info:
        out.ints(S2, (1, 2, 40000), "xyz", "v")
    assert info.value.field == "v.z"
    with pytest.raises(WriteError) as info:
        out.count(U1, [0] * 256, "n")
    assert (info.value.field, info.value.reason) == ("n", "256 entries; the count field holds at most 255")


def test_a_record_packs_its_fields_in_order_with_no_padding():
    from animspec.common.fieldwriter import Record

    inner = Record("pair", ("a", S2), ("b", U1))
    rec = Record("outer", ("n", U1), ("pair", inner), ("c", S4))
    assert rec.size == 1 + 3 + 4 and [rec.offset(n) for n in rec.names] == [0, 1, 4]
    out = FieldWriter()
    out.record(rec, (7, (-2, 255), -1), "r")
    assert out.getvalue() == b"\x07" + b"\xfe\xff\xff" + b"\xff\xff\xff\xff"
    assert rec.struct.unpack(out.getvalue()) == (7, -2, 255, -1)


def test_a_record_names_the_field_that_does_not_fit_and_writes_nothing():
    from animspec.common.fieldwriter import Record

    rec = Record("outer", ("n", U1), ("pair", Record("pair", ("a", S2), ("b", U1))))
    out = FieldWriter()
    for values, field, reason in [
        ((1, (0, 256)), "r.pair.b", "256 does not fit (0..255)"),
        ((True, (0, 0)), "r.n", "True is not an integer"),
        ((1, (0,)), "r.pair", "expected 2 values (a, b), got 1"),
        ((1, 5), "r.pair", "5 is not a pair record (a, b)"),
        ((list(range(256)), (0, 0)), "r.n", "256 entries; the count field holds at most 255"),
    ]:
        with pytest.raises(WriteError) as info:
            out.record(rec, values, "r")
        assert (info.value.field, info.value.reason) == (field, reason)
    with pytest.raises(WriteError) as info:
        out.record(rec, (256, (0, 0)))
    assert info.value.field == "n"  # top level: the bare field name
    assert out.getvalue() == b""
    out.record(rec, ([0, 1], (0, 0)))  # a list stands for its length
    out.record(rec, (list(range(255)), (0, 0)))  # as many entries as the count field holds
    assert out.getvalue() == b"\x02\x00\x00\x00" + b"\xff\x00\x00\x00"
