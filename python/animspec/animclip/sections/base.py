"""What every DAT1 section module shares: equality for byte-exact data, the section base
class and the protocol each section type implements, the split Built declares, and the
checked writing of fields and arrays.

A section type (one module of this package each) implements, side by side:

* ``read(tag, data, at, size, split)`` - the bulk reader (struct and numpy on the file's
  bytes); raises :class:`Declined` on anything it does not accept, and the generated parser
  then reads the file and words the error;
* ``adapt(tag, body)`` - the same section from the generated parser's object (duck-typed on
  the spec's field names: only :mod:`..adapt` imports the generated code);
* ``payload(ctx, at)`` - the payload bytes the writer writes, every value range-checked
  (:class:`WriteError` names the field under the path ``at``);
* ``payload_size()`` - the payload's byte count, without writing it;
* ``to_json()`` / ``from_json(tag, node)`` - the members of its entry in a JSON dump;
* ``as_written(original)`` - the payload the writer gives for the section just read from
  ``original`` (differs only where the model keeps an f32 as a Python float);
* ``counts()`` - the Built counts this section determines (``tags.DERIVED_COUNTS``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.errors import WriteError
from ...common.fieldwriter import S2, U1, U2, U4, FieldWriter, IntKind
from ..tags import section_name

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode

# ---------------------------------------------------------------------------- equality


def same(a: Any, b: Any) -> bool:
    """Equality that suits byte-exact data: arrays by dtype, shape and bytes; floats by
    bit pattern (NaN equals the same NaN, 0.0 differs from -0.0)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
            and a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        )
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


class Eq:
    """``==`` over the dataclass fields marked ``compare``, using :func:`same`."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            same(getattr(self, f.name), getattr(other, f.name)) for f in fields(self) if f.compare  # type: ignore[arg-type]
        )

    __hash__ = None  # type: ignore[assignment]


# ---------------------------------------------------------------------------- reading


class Declined(Exception):
    """The bulk reader leaves the file to the generated parser (it is invalid, or unusual)."""


@dataclass(frozen=True)
class Split:
    """What the (last) Built declares about how other payloads split into records: Base
    State's J joint records and T things, Sample Elem's small and large element counts
    (None: no Built, ALERT's reading). The readers split by it; the writer refuses a model
    the readers would split differently."""

    joints: int = 0
    things: int = 0
    elems: tuple[int, int] | None = None


_EMPTY: dict[np.dtype, np.ndarray] = {}


def empty_array(dtype: Any) -> np.ndarray:
    """One empty array per dtype, shared: a table of 16,000 tiny sections made two each;
    a zero-length array has no element anyone could change."""
    dtype = np.dtype(dtype)
    return _EMPTY.setdefault(dtype, np.zeros(0, dtype))


def array_at(data: bytes, dtype: Any, count: int, at: int) -> np.ndarray:
    """``count`` records of ``dtype`` at ``at``: one copy, writable like the model's arrays."""
    if count == 0:
        return empty_array(dtype)
    return np.frombuffer(data, dtype, count, at).copy()


def empty(dtype: Any) -> Any:
    """A dataclass field defaulting to a new empty array of ``dtype``."""
    return field(default_factory=lambda: np.zeros(0, dtype))


# ---------------------------------------------------------------------------- writing


KINDS: dict[str, IntKind] = {"<u4": U4, "<u2": U2, "|u1": U1, "<i2": S2}
"""The field writer's integer kind of each numpy field type the records use."""


class Out(FieldWriter):
    """The common field writer; integers may also be numpy's (a model edited with numpy)."""

    def int(self, kind: IntKind, value: Any, field: str) -> None:
        super().int(kind, int(value) if isinstance(value, np.integer) else value, field)


def pack_int(kind: IntKind, value: Any, field: str) -> bytes:
    """One range-checked integer field (:class:`FieldWriter`)."""
    out = Out()
    out.int(kind, value, field)
    return out.getvalue()


def int_array(values: Any, dtype: str, kind: IntKind, field: str) -> bytes:
    """A flat integer array as ``dtype`` bytes, every value range-checked."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise WriteError(field, f"expected a flat list, found shape {arr.shape}")
    if arr.size == 0:
        return b""
    if arr.dtype.kind not in "iu":
        raise WriteError(field, f"expected integers, found {arr.dtype}")
    low, high = int(arr.min()), int(arr.max())
    if low < kind[1] or high > kind[2]:
        bad = low if low < kind[1] else high
        raise WriteError(field, f"{bad} does not fit ({kind[1]}..{kind[2]})")
    return arr.astype(dtype).tobytes()


def f32_array(values: Any, field: str, shape: tuple[int, ...] | None = None) -> bytes:
    """f32 bytes of ``values`` (flat, or of ``shape``); f32 input keeps its bit patterns."""
    arr = np.asarray(values)
    if shape is not None and arr.shape != shape:
        raise WriteError(field, f"expected shape {shape}, found {arr.shape}")
    if shape is None and arr.ndim != 1:
        raise WriteError(field, f"expected a flat list, found shape {arr.shape}")
    if arr.dtype == np.dtype("<f4"):
        return arr.tobytes()  # bit patterns (NaN payloads included) go out unchanged
    if arr.size and arr.dtype.kind not in "fiu":
        raise WriteError(field, f"expected numbers, found {arr.dtype}")
    with np.errstate(over="ignore"):
        out = arr.astype("<f4")
    if np.any(np.isfinite(arr.astype(np.float64)) & ~np.isfinite(out)):
        raise WriteError(field, "a value does not fit a 32-bit float")
    return out.tobytes()


def short_tail(data: Any, record: int, field: str, what: str) -> None:
    """Refuse trailing bytes long enough to read back as another ``record``-byte record."""
    if isinstance(data, (bytes, bytearray)) and len(data) >= record:
        raise WriteError(field, f"{len(data)} bytes would read back as another {what}; at most {record - 1} fit here")


def trailing_payload(out: Out, trailing: Any, record: int, at: str, what: str) -> bytes:
    """``out`` followed by the checked trailing bytes: the usual end of a payload."""
    short_tail(trailing, record, f"{at}.trailing", what)
    out.raw(trailing, f"{at}.trailing")
    return out.getvalue()


@dataclass
class WriteContext:
    """What a payload writer needs from the rest of the file: the derived Built counts and
    the split the (last) Built declares (the one the readers will use)."""

    derived: dict[str, int]
    split: Split


# ---------------------------------------------------------------------------- the section base


@dataclass(eq=False)
class SectionBase(Eq):
    """A DAT1 section (module doc: the protocol each type implements)."""

    tag: ClassVar[int]
    offset: int | None = field(default=None, compare=False, kw_only=True)
    """DAT1 offset the payload was read from (layout, not content); None for a new section.
    The writer lays sections out in ascending order of this value, new ones last (spec 4.6)."""

    @property
    def name(self) -> str:
        return section_name(self.tag)

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> SectionBase:
        raise NotImplementedError

    @classmethod
    def adapt(cls, tag: int, body: Any) -> SectionBase:
        raise NotImplementedError

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        raise NotImplementedError

    def payload_size(self) -> int:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> SectionBase:
        raise NotImplementedError

    def as_written(self, original: bytes) -> bytes:
        return original

    def counts(self) -> dict[str, int]:
        return {}
