"""Anim Clip Path (spec 7.4; ksy path): two 4x4 f32 matrices, in file order (row- or
column-major is unknown; ALERT: "like I + translation vector")."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.errors import WriteError
from ..tags import TAG_PATH
from .base import Declined, Out, SectionBase, Split, WriteContext, f32_array
from .values import f32_list, opt_bytes, read_matrix

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode

PATH_MATRICES = struct.Struct("<32f")
"""Anim Clip Path's two 4x4 f32 matrices (ksy path, 128 bytes), read as f4 values."""
PATH_SIZE = PATH_MATRICES.size
_MATRICES = ("start_matrix", "end_matrix")


@dataclass(eq=False)
class Path(SectionBase):
    """Anim Clip Path (module doc)."""

    tag: ClassVar[int] = TAG_PATH
    start_matrix: np.ndarray = field(default_factory=lambda: np.eye(4, dtype="<f4"))
    end_matrix: np.ndarray = field(default_factory=lambda: np.eye(4, dtype="<f4"))
    trailing: bytes = b""

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> Path:
        if size < PATH_SIZE:
            raise Declined
        # Through Python floats, as the spec's f4 fields are read (a signalling NaN quiets).
        m = PATH_MATRICES.unpack_from(data, at)
        return cls(np.array(m[:16], "<f4").reshape(4, 4), np.array(m[16:], "<f4").reshape(4, 4),
                   data[at + PATH_SIZE : at + size])

    @classmethod
    def adapt(cls, tag: int, body: Any) -> Path:
        # Two 16-float seq fields (no raw bytes in the spec); 64 values are no bulk.
        return cls(
            np.array(body.start_matrix.m, "<f4").reshape(4, 4),
            np.array(body.end_matrix.m, "<f4").reshape(4, 4),
            bytes(body.trailing),
        )

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        for name in _MATRICES:
            data = f32_array(getattr(self, name), f"{at}.{name}", (4, 4))
            _no_signalling_nan(data, f"{at}.{name}")
            out.raw(data, f"{at}.{name}")
        out.raw(self.trailing, f"{at}.trailing")
        return out.getvalue()

    def payload_size(self) -> int:
        return PATH_SIZE + len(self.trailing)

    def as_written(self, original: bytes) -> bytes:
        """The matrices as the model holds them (the spec reads them through Python floats)."""
        matrices = np.asarray(self.start_matrix, "<f4").tobytes() + np.asarray(self.end_matrix, "<f4").tobytes()
        return matrices + original[PATH_SIZE:]

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            name: [f32_list(row) for row in np.asarray(getattr(self, name), "<f4")] for name in _MATRICES
        }
        d["trailing"] = self.trailing.hex()
        return d

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> Path:
        return cls(read_matrix(node["start_matrix"]), read_matrix(node["end_matrix"]), opt_bytes(node, "trailing"))


def _no_signalling_nan(data: bytes, field: str) -> None:
    """The spec reads Path's floats as f4 values (no raw bytes), which Python's float
    conversion turns quiet: a signalling NaN would not read back as itself."""
    bits = np.frombuffer(data, "<u4")
    if np.any(((bits & 0x7F800000) == 0x7F800000) & ((bits & 0x007FFFFF) != 0) & ((bits & 0x00400000) == 0)):
        raise WriteError(field, "a signalling NaN cannot be read back (the parser quiets it); use a quiet NaN")
