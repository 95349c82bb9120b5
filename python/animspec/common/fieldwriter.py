"""The building block of every hand-written serializer: a buffer that range-checks each
integer against its field's width before packing it little-endian.

A value that does not fit raises :class:`WriteError` naming the field in the spec's terms,
so a model that cannot be stored is refused instead of being written wrapped or truncated.
"""

from __future__ import annotations

import numbers
import struct
from typing import Sequence

from .errors import WriteError

IntKind = tuple[str, int, int]
"""(struct format, lowest, highest) of an integer field."""

U1: IntKind = ("<B", 0, 0xFF)
S1: IntKind = ("<b", -0x80, 0x7F)
U2: IntKind = ("<H", 0, 0xFFFF)
S2: IntKind = ("<h", -0x8000, 0x7FFF)
U4: IntKind = ("<I", 0, 0xFFFF_FFFF)
S4: IntKind = ("<i", -0x8000_0000, 0x7FFF_FFFF)


class FieldWriter:
    def __init__(self) -> None:
        self.buf = bytearray()

    def bytes(self, data: bytes) -> None:
        self.buf += data

    def int(self, kind: IntKind, value: int, field: str) -> None:
        fmt, low, high = kind
        if not isinstance(value, int) or isinstance(value, bool):
            raise WriteError(field, f"{value!r} is not an integer")
        if not low <= value <= high:
            raise WriteError(field, f"{value} does not fit ({low}..{high})")
        self.buf += struct.pack(fmt, value)

    def ints(self, kind: IntKind, values: Sequence[int], names: str | Sequence[str], field: str) -> None:
        """A small record of same-typed fields, e.g. ``names="xyz"`` for a vector."""
        if len(values) != len(names):
            raise WriteError(field, f"expected {len(names)} values ({', '.join(names)}), got {len(values)}")
        for name, value in zip(names, values):
            self.int(kind, value, f"{field}.{name}")

    def count(self, kind: IntKind, items: Sequence, field: str) -> None:
        """The length of ``items`` into a count field, refused when the field cannot hold it."""
        high = kind[2]
        if len(items) > high:
            raise WriteError(field, f"{len(items)} entries; the count field holds at most {high}")
        self.int(kind, len(items), field)

    def f32(self, value: object, field: str) -> None:
        """A 32-bit float; refused when ``value`` is no number or does not fit (too large)."""
        if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy's numbers are Real too
            raise WriteError(field, f"{value!r} is not a number")
        try:
            self.buf += struct.pack("<f", float(value))  # type: ignore[arg-type]
        except OverflowError:
            raise WriteError(field, f"{value!r} does not fit a 32-bit float") from None

    def raw(self, data: object, field: str) -> None:
        """Bytes stored as they are, refused when ``data`` is not bytes (a model built in
        memory may hold anything)."""
        if not isinstance(data, (bytes, bytearray)):
            raise WriteError(field, f"expected bytes, found {type(data).__name__}")
        self.buf += data

    def getvalue(self) -> bytes:
        return bytes(self.buf)
