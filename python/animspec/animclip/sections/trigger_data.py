"""Anim Clip Trigger Data (spec 7.11; ksy trigger_data): header words, the ``len_jsons``
region (two unknown words, then serialized objects, kept raw), 16-byte records, trailing
bytes."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.errors import WriteError
from ...common.fieldwriter import U2, U4
from ..tags import TAG_TRIGGER_DATA
from .base import KINDS, Declined, Eq, Out, SectionBase, Split, WriteContext, array_at, short_tail
from .values import b64, hex32, opt_bytes, read_opt_int, read_u32

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode

TRIGGER_FIELDS = ("a", "b", "c", "d", "e")
TRIGGER_DTYPE = np.dtype([("a", "<u4"), ("b", "<u4"), ("c", "<u2"), ("d", "<u2"), ("e", "<u4")])
"""One 16-byte Trigger Data record (ksy trigger_record, spec 7.11)."""
TRIGGER_RECORD_SIZE = TRIGGER_DTYPE.itemsize
TRIGGER_HEADER = struct.Struct("<HHIII")
"""num_jsons, num_things, len_jsons, unk1, unk2 (ksy trigger_data, first 16 bytes)."""
_TRIGGER_KINDS = {name: KINDS[TRIGGER_DTYPE[name].str] for name in TRIGGER_FIELDS}
_HEX_TRIGGER = frozenset({"a", "b"})
"""Record fields shown as hex in a JSON dump."""


@dataclass(eq=False)
class TriggerRecord(Eq):
    """One 16-byte trigger record, ALERT's names a..e (spec 7.11)."""

    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    e: int = 0


def record_json(r: TriggerRecord) -> dict[str, Any]:
    """A record's JSON object (the dump's ``raw`` and ``clip.triggers`` alike)."""
    return {k: hex32(getattr(r, k)) if k in _HEX_TRIGGER else getattr(r, k) for k in TRIGGER_FIELDS}


def read_record(node: JsonNode) -> TriggerRecord:
    return TriggerRecord(**{k: read_u32(node[k]) for k in TRIGGER_FIELDS})


@dataclass(eq=False)
class TriggerData(SectionBase):
    """Anim Clip Trigger Data (module doc)."""

    tag: ClassVar[int] = TAG_TRIGGER_DATA
    num_jsons: int = 1
    num_things: int = 0
    """LABELLED: presumably the record count; not derived (unconfirmed)."""
    len_jsons: int | None = None
    """None = ``len(jsons)``; a number only when the file's value was cut to the payload."""
    unk1: int = 0
    unk2: int = 0
    jsons: bytes = b""
    records: list[TriggerRecord] = field(default_factory=list)
    trailing: bytes = b""

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> TriggerData:
        if size < TRIGGER_HEADER.size:
            raise Declined
        num_jsons, num_things, len_jsons, unk1, unk2 = TRIGGER_HEADER.unpack_from(data, at)
        room = size - TRIGGER_HEADER.size
        len_raw = len_jsons if len_jsons <= room else room  # ksy trigger_data.len_jsons_raw
        k = (room - len_raw) // TRIGGER_RECORD_SIZE
        records_at = at + TRIGGER_HEADER.size + len_raw
        return cls(
            num_jsons=num_jsons, num_things=num_things, len_jsons=len_jsons, unk1=unk1, unk2=unk2,
            jsons=data[at + TRIGGER_HEADER.size : records_at],
            records=[TriggerRecord(*row) for row in array_at(data, TRIGGER_DTYPE, k, records_at).tolist()],
            trailing=data[records_at + TRIGGER_RECORD_SIZE * k : at + size],
        )

    @classmethod
    def adapt(cls, tag: int, body: Any) -> TriggerData:
        records = [TriggerRecord(*row) for row in np.frombuffer(body.records_raw, TRIGGER_DTYPE).tolist()]
        return cls(
            num_jsons=body.num_jsons, num_things=body.num_things, len_jsons=body.len_jsons,
            unk1=body.unk1, unk2=body.unk2, jsons=bytes(body.jsons_raw), records=records,
            trailing=bytes(body.trailing),
        )

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        out.int(U2, self.num_jsons, f"{at}.num_jsons")
        out.int(U2, self.num_things, f"{at}.num_things")
        jsons = self.jsons
        if not isinstance(jsons, (bytes, bytearray)):
            raise WriteError(f"{at}.jsons", "expected bytes")
        len_jsons = len(jsons) if self.len_jsons is None else self.len_jsons
        out.int(U4, len_jsons, f"{at}.len_jsons")
        out.int(U4, self.unk1, f"{at}.unk1")
        out.int(U4, self.unk2, f"{at}.unk2")
        out.raw(jsons, f"{at}.jsons")
        for i, record in enumerate(self.records):
            for name, kind in _TRIGGER_KINDS.items():
                out.int(kind, getattr(record, name), f"{at}.records[{i}].{name}")
        short_tail(self.trailing, TRIGGER_RECORD_SIZE, f"{at}.trailing", f"{TRIGGER_RECORD_SIZE}-byte record")
        out.raw(self.trailing, f"{at}.trailing")
        # ksy: the region is len_jsons cut to the payload; records fill the rest.
        if min(len_jsons, len(out.buf) - TRIGGER_HEADER.size) != len(jsons):
            raise WriteError(
                f"{at}.len_jsons", f"{len_jsons} does not match the {len(jsons)} bytes of jsons (None derives it)"
            )
        return out.getvalue()

    def payload_size(self) -> int:
        return TRIGGER_HEADER.size + len(self.jsons) + TRIGGER_RECORD_SIZE * len(self.records) + len(self.trailing)

    def to_json(self) -> dict[str, Any]:
        return {
            "num_jsons": self.num_jsons,
            "num_things": self.num_things,
            "len_jsons": self.len_jsons,
            "unk1": hex32(self.unk1),
            "unk2": self.unk2,
            "jsons": b64(self.jsons),
            "records": [record_json(r) for r in self.records],
            "trailing": self.trailing.hex(),
        }

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> TriggerData:
        return cls(
            num_jsons=node["num_jsons"].int(),
            num_things=node["num_things"].int(),
            len_jsons=read_opt_int(node.get("len_jsons")),
            unk1=read_u32(node["unk1"]),
            unk2=read_u32(node["unk2"]),
            jsons=node["jsons"].base64_bytes(),
            records=[read_record(r) for r in node["records"].items()],
            trailing=opt_bytes(node, "trailing"),
        )
