"""Anim Clip Custom Tracks (spec 7.5; ksy custom_tracks): 40-byte entries naming each
custom track and where its values sit in Custom Track Data."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.fieldwriter import U4
from ..tags import TAG_CUSTOM_TRACKS
from .base import Eq, Out, SectionBase, Split, WriteContext, array_at, trailing_payload
from .values import hex32, opt_bytes, read_u32

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode


@dataclass(eq=False)
class CustomTrackEntry(Eq):
    """One 40-byte Custom Tracks entry (spec 7.5)."""

    name_hash: int = 0
    ofs_name: int = 0
    """Name offset relative to S (convention B)."""
    zero_08: int = 0
    zero_0c: int = 0
    ofs_data: int = 0
    """Byte offset of the values inside Custom Track Data."""
    unk_14: int = 257
    """Typically 257 (0x101), meaning unknown."""
    zero_18: int = 0
    zero_1c: int = 0
    num_values: int = 0
    zero_24: int = 0


CUSTOM_TRACK_FIELDS = tuple(f.name for f in fields(CustomTrackEntry))
"""The entry's fields in file order: all u32 (ksy custom_track)."""
CUSTOM_TRACK_SIZE = 4 * len(CUSTOM_TRACK_FIELDS)
"""One Custom Tracks entry: 10 u32 fields (40 bytes)."""


@dataclass(eq=False)
class CustomTracks(SectionBase):
    """Anim Clip Custom Tracks (module doc)."""

    tag: ClassVar[int] = TAG_CUSTOM_TRACKS
    entries: list[CustomTrackEntry] = field(default_factory=list)
    trailing: bytes = b""
    """Bytes after the last whole 40-byte entry (never seen)."""

    def counts(self) -> dict[str, int]:
        return {"num_custom_tracks": len(self.entries)}

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> CustomTracks:
        k = size // CUSTOM_TRACK_SIZE
        rows = array_at(data, "<u4", k * len(CUSTOM_TRACK_FIELDS), at).reshape(k, len(CUSTOM_TRACK_FIELDS)).tolist()
        return cls([CustomTrackEntry(*row) for row in rows], data[at + CUSTOM_TRACK_SIZE * k : at + size])

    @classmethod
    def adapt(cls, tag: int, body: Any) -> CustomTracks:
        rows = np.frombuffer(body.entries_raw, "<u4").reshape(-1, len(CUSTOM_TRACK_FIELDS)).tolist()
        return cls([CustomTrackEntry(*row) for row in rows], bytes(body.trailing))

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        for i, entry in enumerate(self.entries):
            for name in CUSTOM_TRACK_FIELDS:
                out.int(U4, getattr(entry, name), f"{at}.entries[{i}].{name}")
        return trailing_payload(out, self.trailing, CUSTOM_TRACK_SIZE, at, f"{CUSTOM_TRACK_SIZE}-byte entry")

    def payload_size(self) -> int:
        return CUSTOM_TRACK_SIZE * len(self.entries) + len(self.trailing)

    def to_json(self) -> dict[str, Any]:
        entries = [{k: hex32(getattr(e, k)) if k == "name_hash" else getattr(e, k) for k in CUSTOM_TRACK_FIELDS}
                   for e in self.entries]
        return {"entries": entries, "trailing": self.trailing.hex()}

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> CustomTracks:
        entries = [
            CustomTrackEntry(**{k: read_u32(e[k]) for k in CUSTOM_TRACK_FIELDS}) for e in node["entries"].items()
        ]
        return cls(entries, opt_bytes(node, "trailing"))
