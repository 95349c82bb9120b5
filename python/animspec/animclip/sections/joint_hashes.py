"""Anim Clip Joint Hashes (spec 7.3; ksy joint_hashes): CRC32 of each joint name, usually
ending in 0xFFFFFFFF."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.fieldwriter import U4
from ..tags import TAG_JOINT_HASHES
from .base import Out, SectionBase, Split, WriteContext, array_at, empty, int_array, trailing_payload
from .values import hex32, opt_bytes, read_u32

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode


@dataclass(eq=False)
class JointHashes(SectionBase):
    """Anim Clip Joint Hashes (module doc)."""

    tag: ClassVar[int] = TAG_JOINT_HASHES
    hashes: np.ndarray = empty("<u4")
    trailing: bytes = b""

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> JointHashes:
        k = size // 4
        return cls(array_at(data, "<u4", k, at), data[at + 4 * k : at + size])

    @classmethod
    def adapt(cls, tag: int, body: Any) -> JointHashes:
        return cls(np.frombuffer(body.hashes_raw, "<u4").copy(), bytes(body.trailing))

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        out.raw(int_array(self.hashes, "<u4", U4, f"{at}.hashes"), f"{at}.hashes")
        return trailing_payload(out, self.trailing, 4, at, "hash")

    def payload_size(self) -> int:
        return 4 * len(self.hashes) + len(self.trailing)

    def to_json(self) -> dict[str, Any]:
        return {"hashes": [hex32(int(h)) for h in self.hashes], "trailing": self.trailing.hex()}

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> JointHashes:
        hashes = np.array([read_u32(h) for h in node["hashes"].items()], "<u4")
        return cls(hashes, opt_bytes(node, "trailing"))
