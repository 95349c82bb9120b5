"""Anim Clip Sample Elem (ksy sample_elem; Luna Engine IO Tools anim_import.py): which
packed component each field of a Sample Data sample holds, and its bit width and shift."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...common.errors import WriteError
from ...common.fieldwriter import U1, U2, U4
from ..frames.coding import element_targets, unpack_codes
from ..tags import TAG_SAMPLE_ELEM
from .base import Out, SectionBase, Split, WriteContext, array_at, empty, int_array, short_tail
from .values import b64, opt_bytes, read_array

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode

SAMPLE_ELEM_SIZE = 5
"""One small Sample Elem element: a u32 offset and, in a second column, its u8 code."""
LARGE_ELEM_SIZE = 6
"""One large Sample Elem element: a u32 offset and, in a second column, its u16 code."""


def sample_elem_split(size: int, counts: tuple[int, int] | None) -> tuple[int, int, int]:
    """(n, padding, m) of a Sample Elem payload of ``size`` bytes: Built's counts (n, m) when
    they fit, else (or with no Built, ``counts`` None) ALERT's n = size // 5 and no large
    table (ksy sample_elem)."""
    if counts is not None and SAMPLE_ELEM_SIZE * counts[0] + (-counts[0] % 4) + LARGE_ELEM_SIZE * counts[1] <= size:
        num_elems, num_large = counts
        return num_elems, -num_elems % 4, num_large
    n = size // SAMPLE_ELEM_SIZE
    return n, size - SAMPLE_ELEM_SIZE * n, 0


@dataclass(eq=False)
class SampleElem(SectionBase):
    """Anim Clip Sample Elem: n u32 component offsets, n u8 codes, padding to 4, then m u32
    offsets and m u16 codes of the large table, then any trailing bytes. n and m come from
    Built (num_elems, num_large_elems) when they fit the payload, else n = size // 5 and m = 0
    (ALERT's reading). Offset / 4 = packed component index (joint = ci // 12, component =
    ci % 12); small code: width = low nibble + 1, shift = high nibble; large code: width =
    low byte + 1, shift = high byte."""

    tag: ClassVar[int] = TAG_SAMPLE_ELEM
    offsets: np.ndarray = empty("<u4")
    codes: np.ndarray = empty("u1")
    padding: bytes = b""
    large_offsets: np.ndarray = empty("<u4")
    large_codes: np.ndarray = empty("<u2")
    trailing: bytes = b""

    def elements(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(joint, component, width, shift) of every element, small ones then large ones, in
        the order their fields sit in each sample (int64 arrays)."""
        offsets = np.concatenate([np.asarray(self.offsets, np.int64), np.asarray(self.large_offsets, np.int64)])
        joint, component = element_targets(offsets)
        width, shift = unpack_codes(self.codes, self.large_codes)
        return joint, component, width, shift

    def counts(self) -> dict[str, int]:
        return {"num_elems": len(self.offsets), "num_large_elems": len(self.large_offsets)}

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> SampleElem:
        n, pad, m = sample_elem_split(size, split.elems)
        large_at = at + SAMPLE_ELEM_SIZE * n + pad
        return cls(
            array_at(data, "<u4", n, at), array_at(data, "u1", n, at + 4 * n), data[large_at - pad : large_at],
            array_at(data, "<u4", m, large_at), array_at(data, "<u2", m, large_at + 4 * m),
            data[large_at + LARGE_ELEM_SIZE * m : at + size],
        )

    @classmethod
    def adapt(cls, tag: int, body: Any) -> SampleElem:
        return cls(
            np.frombuffer(body.offsets_raw, "<u4").copy(),
            np.frombuffer(body.codes_raw, "u1").copy(),
            bytes(body.padding),
            np.frombuffer(body.large_offsets_raw, "<u4").copy(),
            np.frombuffer(body.large_codes_raw, "<u2").copy(),
            bytes(body.trailing),
        )

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        offsets = int_array(self.offsets, "<u4", U4, f"{at}.offsets")
        codes = int_array(self.codes, "u1", U1, f"{at}.codes")
        if len(codes) * 4 != len(offsets):
            raise WriteError(f"{at}.codes", f"{len(codes)} codes for {len(offsets) // 4} offsets; they pair up")
        large_offsets = int_array(self.large_offsets, "<u4", U4, f"{at}.large_offsets")
        large_codes = int_array(self.large_codes, "<u2", U2, f"{at}.large_codes")
        if len(large_codes) * 2 != len(large_offsets):
            raise WriteError(
                f"{at}.large_codes",
                f"{len(large_codes) // 2} codes for {len(large_offsets) // 4} offsets; they pair up",
            )
        for name in ("padding", "trailing"):
            if not isinstance(getattr(self, name), (bytes, bytearray)):
                raise WriteError(f"{at}.{name}", "expected bytes")
        short_tail(self.padding, SAMPLE_ELEM_SIZE, f"{at}.padding", "element")
        out.raw(offsets + codes, f"{at}.offsets")
        out.raw(self.padding, f"{at}.padding")
        out.raw(large_offsets + large_codes, f"{at}.large_offsets")
        out.raw(self.trailing, f"{at}.trailing")
        # The readers split by Built's counts when they fit, else as ALERT does: refuse a
        # model they would split differently.
        n, pad, m = sample_elem_split(len(out.buf), ctx.split.elems)
        if (n, pad, m) != (len(self.codes), len(self.padding), len(self.large_codes)):
            raise WriteError(
                at,
                f"Built says {ctx.split.elems} (small, large) elements, but this Sample Elem holds "
                f"{len(self.codes)} and {len(self.large_codes)} with {len(self.padding)} padding bytes: it would "
                "read back split differently (set Built.num_elems / num_large_elems to None to derive them)",
            )
        return out.getvalue()

    def payload_size(self) -> int:
        return (
            SAMPLE_ELEM_SIZE * len(self.offsets)
            + len(self.padding)
            + LARGE_ELEM_SIZE * len(self.large_offsets)
            + len(self.trailing)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "offsets": b64(np.asarray(self.offsets, "<u4").tobytes()),
            "codes": b64(np.asarray(self.codes, "u1").tobytes()),
            "padding": self.padding.hex(),
            "large_offsets": b64(np.asarray(self.large_offsets, "<u4").tobytes()),
            "large_codes": b64(np.asarray(self.large_codes, "<u2").tobytes()),
            "trailing": self.trailing.hex(),
        }

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> SampleElem:
        return cls(
            read_array(node["offsets"], "<u4"),
            read_array(node["codes"], "u1"),
            opt_bytes(node, "padding"),
            read_array(node["large_offsets"], "<u4") if node.has("large_offsets") else np.zeros(0, "<u4"),
            read_array(node["large_codes"], "<u2") if node.has("large_codes") else np.zeros(0, "<u2"),
            opt_bytes(node, "trailing"),
        )
