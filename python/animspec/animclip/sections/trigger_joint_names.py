"""Anim Clip Trigger Joint Names (spec 7.12; ksy trigger_joint_names): 1..4 joint-name
hashes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.fieldwriter import U4
from ..tags import TAG_TRIGGER_JOINT_NAMES
from .base import Out, SectionBase, Split, WriteContext, array_at, trailing_payload
from .values import hex32, opt_bytes, read_u32

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode


@dataclass(eq=False)
class TriggerJointNames(SectionBase):
    """Anim Clip Trigger Joint Names (module doc)."""

    tag: ClassVar[int] = TAG_TRIGGER_JOINT_NAMES
    hashes: list[int] = field(default_factory=list)
    trailing: bytes = b""

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> TriggerJointNames:
        k = size // 4
        return cls(array_at(data, "<u4", k, at).tolist(), data[at + 4 * k : at + size])

    @classmethod
    def adapt(cls, tag: int, body: Any) -> TriggerJointNames:
        return cls(np.frombuffer(body.hashes_raw, "<u4").tolist(), bytes(body.trailing))

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        for i, h in enumerate(self.hashes):
            out.int(U4, h, f"{at}.hashes[{i}]")
        return trailing_payload(out, self.trailing, 4, at, "hash")

    def payload_size(self) -> int:
        return 4 * len(self.hashes) + len(self.trailing)

    def to_json(self) -> dict[str, Any]:
        return {"hashes": [hex32(h) for h in self.hashes], "trailing": self.trailing.hex()}

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> TriggerJointNames:
        return cls([read_u32(h) for h in node["hashes"].items()], opt_bytes(node, "trailing"))
