"""Anim Clip Base State (spec 7.2; ksy base_state): J joint records, T 32-byte things, then
extra bytes. The split comes from the (last) Built section's J and T."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.errors import WriteError
from ..tags import TAG_BASE_STATE
from .base import KINDS, Out, SectionBase, Split, WriteContext, array_at, empty, int_array
from .values import b64, opt_bytes, read_array

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode

JOINT_FIELDS = ("qx", "qy", "qz", "qw", "x", "y", "z", "log_scale", "log_scale2")
JOINT_DTYPE = np.dtype(
    [("qx", "<i2"), ("qy", "<i2"), ("qz", "<i2"), ("qw", "<i2"),
     ("x", "<i2"), ("y", "<i2"), ("z", "<i2"), ("log_scale", "u1"), ("log_scale2", "u1")]
)
"""One 16-byte Base State joint record (ksy base_state_joint, spec 7.2)."""
JOINT_SIZE = JOINT_DTYPE.itemsize
THING_SIZE = 32
"""Size of one Base State "thing" record (spec 7.2, contents unknown)."""
_JOINT_KINDS = {name: KINDS[JOINT_DTYPE[name].str] for name in JOINT_FIELDS}


def split_sizes(size: int, joints: int, things: int) -> tuple[int, int]:
    """(bytes of joint records, bytes of things) of a ``size``-byte payload split by J and T
    (ksy base_state.len_joints_raw and len_things_raw: each cut to whole records that fit)."""
    len_joints = JOINT_SIZE * joints if JOINT_SIZE * joints <= size else size - size % JOINT_SIZE
    rest = size - len_joints
    len_things = THING_SIZE * things if THING_SIZE * things <= rest else rest - rest % THING_SIZE
    return len_joints, len_things


@dataclass(eq=False)
class BaseState(SectionBase):
    """Anim Clip Base State (module doc)."""

    tag: ClassVar[int] = TAG_BASE_STATE
    joints: np.ndarray = empty(JOINT_DTYPE)
    """Structured array of :data:`JOINT_DTYPE`, raw quantised integers."""
    things: bytes = b""
    """The T things, 32 bytes each (contents unknown)."""
    extra: bytes = b""
    """Bytes after the things (not described by ALERT)."""

    @property
    def num_things(self) -> int:
        return len(self.things) // THING_SIZE

    def counts(self) -> dict[str, int]:
        return {"num_joints": len(self.joints), "num_base_state_things": self.num_things}

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> BaseState:
        len_joints, len_things = split_sizes(size, split.joints, split.things)
        things_at = at + len_joints
        return cls(
            joints=array_at(data, JOINT_DTYPE, len_joints // JOINT_SIZE, at),
            things=data[things_at : things_at + len_things],
            extra=data[things_at + len_things : at + size],
        )

    @classmethod
    def adapt(cls, tag: int, body: Any) -> BaseState:
        return cls(
            joints=np.frombuffer(body.joints_raw, JOINT_DTYPE).copy(),
            things=bytes(body.things_raw),
            extra=bytes(body.extra),
        )

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        out.raw(_joints(self.joints, f"{at}.joints"), f"{at}.joints")
        out.raw(self.things, f"{at}.things")
        out.raw(self.extra, f"{at}.extra")
        j, t = ctx.split.joints, ctx.split.things
        if split_sizes(len(out.buf), j, t) != (JOINT_SIZE * len(self.joints), len(self.things)):
            raise WriteError(
                at,
                f"Built says J = {j}, T = {t}, but this Base State holds {len(self.joints)} joint records and "
                f"{len(self.things)} bytes of things: it would read back split differently "
                "(set Built.num_joints / num_base_state_things to None to derive them)",
            )
        return out.getvalue()

    def payload_size(self) -> int:
        return JOINT_SIZE * len(self.joints) + len(self.things) + len(self.extra)

    def to_json(self) -> dict[str, Any]:
        return {"joints": b64(np.asarray(self.joints, JOINT_DTYPE).tobytes()), "things": b64(self.things),
                "extra": b64(self.extra)}

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> BaseState:
        return cls(
            joints=read_array(node["joints"], JOINT_DTYPE),
            things=opt_bytes(node, "things", "b64"),
            extra=opt_bytes(node, "extra", "b64"),
        )


def _joints(values: Any, field: str) -> bytes:
    arr = np.asarray(values)
    if arr.dtype == JOINT_DTYPE and arr.ndim == 1:
        return arr.tobytes()
    if arr.dtype.names != JOINT_FIELDS or arr.ndim != 1:
        raise WriteError(field, f"expected a 1-D structured array with fields {', '.join(JOINT_FIELDS)}")
    out = np.zeros(len(arr), JOINT_DTYPE)
    for name, kind in _JOINT_KINDS.items():
        int_array(arr[name], JOINT_DTYPE[name].str, kind, f"{field}.{name}")  # range check
        out[name] = arr[name]
    return out.tobytes()
