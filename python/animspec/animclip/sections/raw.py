"""The fallback section type: a payload kept as opaque bytes. One of the known tags whose
content nobody has decoded (Sample Data, Motion Data, ...; the per-frame decoder reads
those) or a tag ALERT does not know (spec 6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...common.errors import WriteError
from .base import SectionBase, Split, WriteContext
from .values import b64

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode


@dataclass(eq=False)
class RawSection(SectionBase):
    """A section kept as opaque bytes (module doc)."""

    tag: int  # type: ignore[misc]  # per instance here, a class constant in the typed sections
    data: bytes | memoryview = b""
    """The payload: bytes, or (as the fast reader leaves it) a read-only byte view into the
    file's bytes, which it keeps alive. Pickling and deep copies turn a view into bytes."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if isinstance(state["data"], memoryview):
            state["data"] = state["data"].tobytes()
        return state

    @property
    def words(self) -> np.ndarray:
        """ALERT's u32 view of the data (the last size % 4 bytes are not covered)."""
        n = len(self.data) // 4
        return np.frombuffer(self.data, "<u4", count=n)

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> RawSection:
        # A view into the file's bytes, not a copy: a 16 MB Sample Data costs nothing to load
        # (a copy per payload on fresh memory made read_file 7x open().read()).
        return cls(tag, memoryview(data)[at : at + size])

    @classmethod
    def adapt(cls, tag: int, body: Any) -> RawSection:
        # bytes for a tag the spec does not know; a known tag's type holds them in data_raw
        return cls(tag, bytes(body if isinstance(body, (bytes, bytearray)) else body.data_raw))

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        data = self.data
        if isinstance(data, memoryview) and data.contiguous and data.itemsize == 1:
            return data.cast("B") if data.format != "B" else data  # type: ignore[return-value]  # joined, not copied
        if not isinstance(data, (bytes, bytearray)):
            raise WriteError(f"{at}.data", f"expected bytes, found {type(data).__name__}")
        return bytes(data)  # the very object for bytes: a 16 MB payload is not copied

    def payload_size(self) -> int:
        return len(self.data)

    def to_json(self) -> dict[str, Any]:
        return {"data": b64(self.data)}  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> RawSection:
        return cls(tag, node["data"].base64_bytes())
