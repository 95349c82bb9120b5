"""The building block of every hand-written serializer: a buffer that range-checks each
integer against its field's width before packing it little-endian.

A value that does not fit raises :class:`WriteError` naming the field in the spec's terms,
so a model that cannot be stored is refused instead of being written wrapped or truncated.
"""

from __future__ import annotations

import builtins
import numbers
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import WriteError

if TYPE_CHECKING:
    import numpy as np

IntKind = tuple[str, int, int]
"""(struct format, lowest, highest) of an integer field."""

U1: IntKind = ("<B", 0, 0xFF)
S1: IntKind = ("<b", -0x80, 0x7F)
U2: IntKind = ("<H", 0, 0xFFFF)
S2: IntKind = ("<h", -0x8000, 0x7FFF)
U4: IntKind = ("<I", 0, 0xFFFF_FFFF)
S4: IntKind = ("<i", -0x8000_0000, 0x7FFF_FFFF)


class Record:
    """A fixed-size record of a spec: its fields in file order, each an integer kind or a
    nested record, packed little-endian with no padding.

    A format's layout module states each record once; its reader unpacks with
    :attr:`struct` (or :meth:`numpy_dtype`) and its writer packs with
    :meth:`FieldWriter.record`, so the two cannot disagree on an order or a width. ``ksy_type``
    names the type of the .ksy spec the record restates: the tests parse packed records with
    that generated type and compare every field and offset.
    """

    def __init__(self, ksy_type: str, *fields: tuple[str, IntKind | Record]) -> None:
        self.ksy_type = ksy_type
        self.fields = fields
        self.names = tuple(name for name, _ in fields)
        self.struct = struct.Struct("<" + self._format())
        self.size = self.struct.size
        self._numpy_dtype: np.dtype | None = None  # made on first use: numpy is imported then, not with this module

    def _format(self) -> str:
        return "".join(kind._format() if isinstance(kind, Record) else kind[0].lstrip("<") for _, kind in self.fields)

    def offset(self, name: str) -> int:
        """Byte offset of field ``name`` within the record."""
        pos = 0
        for field, kind in self.fields:
            if field == name:
                return pos
            pos += kind.size if isinstance(kind, Record) else struct.calcsize(kind[0])
        raise KeyError(name)

    def numpy_dtype(self) -> np.dtype:
        """The packed numpy dtype of the record (a nested record as a nested dtype, so
        ``tolist()`` gives nested tuples). numpy is imported here, not with this module."""
        if self._numpy_dtype is None:
            import numpy as np

            self._numpy_dtype = np.dtype([(name, kind.numpy_dtype() if isinstance(kind, Record) else kind[0])
                                          for name, kind in self.fields])
        return self._numpy_dtype

    def __repr__(self) -> str:
        return f"Record({self.ksy_type!r}, {', '.join(self.names)}; {self.size} bytes)"


def _checked(kind: IntKind, value: int, field: str) -> int:
    _, low, high = kind
    if not isinstance(value, int) or isinstance(value, bool):
        raise WriteError(field, f"{value!r} is not an integer")
    if not low <= value <= high:
        raise WriteError(field, f"{value} does not fit ({low}..{high})")
    return value


class FieldWriter:
    def __init__(self) -> None:
        self.buf = bytearray()

    def bytes(self, data: bytes) -> None:
        self.buf += data

    def int(self, kind: IntKind, value: int, field: str) -> None:
        self.buf += struct.pack(kind[0], _checked(kind, value, field))

    def record(self, record: Record, values: Sequence, field: str = "") -> None:
        """One :class:`Record`: ``values`` in the record's field order; a nested record's value
        is its own sequence of values, and a list (any sized non-integer) given for an integer
        field stands for its length, refused as :meth:`count` refuses it. Every value is
        checked before anything is written; errors name ``field.name`` (``name`` alone at the
        top level)."""
        flat: list[int] = []
        self._flatten(record, values, field, flat)
        self.buf += record.struct.pack(*flat)

    def _flatten(self, record: Record, values: Sequence, field: str, flat: list[builtins.int]) -> None:
        if not hasattr(values, "__len__"):
            raise WriteError(field, f"{values!r} is not a {record.ksy_type} record ({', '.join(record.names)})")
        if len(values) != len(record.fields):
            raise WriteError(field, f"expected {len(record.fields)} values ({', '.join(record.names)}), got "
                                    f"{len(values)}")
        for (name, kind), value in zip(record.fields, values):
            at = f"{field}.{name}" if field else name
            if isinstance(kind, Record):
                self._flatten(kind, value, at, flat)
            elif hasattr(value, "__len__") and not isinstance(value, int):
                if len(value) > kind[2]:
                    raise WriteError(at, f"{len(value)} entries; the count field holds at most {kind[2]}")
                flat.append(len(value))
            else:
                flat.append(_checked(kind, value, at))

    def ints(self, kind: IntKind, values: Sequence[builtins.int], names: str | Sequence[str], field: str) -> None:
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
            self.buf += struct.pack("<f", float(value))
        except OverflowError:
            raise WriteError(field, f"{value!r} does not fit a 32-bit float") from None

    def raw(self, data: object, field: str) -> None:
        """Bytes stored as they are, refused when ``data`` is not bytes (a model built in
        memory may hold anything)."""
        if not isinstance(data, (bytes, bytearray)):
            raise WriteError(field, f"expected bytes, found {type(data).__name__}")
        self.buf += data

    def getvalue(self) -> builtins.bytes:  # (bytes here would be the method above)
        return bytes(self.buf)
