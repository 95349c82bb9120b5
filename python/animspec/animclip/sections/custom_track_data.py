"""Anim Clip Custom Track Data (spec 7.6; ksy custom_track_data): a pool of f32 values
addressed by the Custom Tracks entries; alignment gaps included."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..tags import TAG_CUSTOM_TRACK_DATA
from .base import Out, SectionBase, Split, WriteContext, array_at, empty, f32_array, trailing_payload
from .values import b64, opt_bytes, read_array

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode
    from .custom_tracks import CustomTrackEntry


@dataclass(eq=False)
class CustomTrackData(SectionBase):
    """Anim Clip Custom Track Data (module doc)."""

    tag: ClassVar[int] = TAG_CUSTOM_TRACK_DATA
    values: np.ndarray = empty("<f4")
    trailing: bytes = b""

    def track_values(self, entry: CustomTrackEntry) -> np.ndarray:
        """The values ``entry`` addresses (a copy), cut to what the pool holds."""
        pool = self.values
        start, count = entry.ofs_data, entry.num_values
        if start % 4 == 0:
            first = start // 4
            return pool[first : first + count].copy() if first < len(pool) else np.zeros(0, "<f4")
        raw = pool.tobytes() + self.trailing
        avail = max(0, (len(raw) - start) // 4)
        return np.frombuffer(raw, "<f4", count=min(count, avail), offset=min(start, len(raw))).copy()

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> CustomTrackData:
        k = size // 4
        return cls(array_at(data, "<f4", k, at), data[at + 4 * k : at + size])

    @classmethod
    def adapt(cls, tag: int, body: Any) -> CustomTrackData:
        return cls(np.frombuffer(body.values_raw, "<f4").copy(), bytes(body.trailing))

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        out.raw(f32_array(self.values, f"{at}.values"), f"{at}.values")
        return trailing_payload(out, self.trailing, 4, at, "value")

    def payload_size(self) -> int:
        return 4 * len(self.values) + len(self.trailing)

    def to_json(self) -> dict[str, Any]:
        return {"values": b64(np.asarray(self.values, "<f4").tobytes()), "trailing": self.trailing.hex()}

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> CustomTrackData:
        return cls(read_array(node["values"], "<f4"), opt_bytes(node, "trailing"))
