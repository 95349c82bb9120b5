"""How the JSON dump writes and reads single values: f32s that read back to the same bits,
u32s as hex, byte runs as hex or base64, bulk arrays as base64 of their little-endian bytes.
Every section module's ``to_json``/``from_json`` and :mod:`..jsonio` use these."""

from __future__ import annotations

import base64
import re
from typing import Any

import numpy as np

from ...common.jsonpath import JsonNode


def f32_json(value: Any) -> Any:
    """A JSON value for one f32 that reads back to the same bits."""
    f = np.float32(value)
    if np.isnan(f):
        bits = int(np.array([f], "<f4").view("<u4")[0])
        return "nan" if bits == 0x7FC00000 else f"nan:{bits:08x}"
    if np.isinf(f):
        return "inf" if f > 0 else "-inf"
    short = float(str(f))
    return short if np.float32(short).tobytes() == f.tobytes() else float(f)


def f32_list(values: np.ndarray) -> list[Any]:
    return [f32_json(v) for v in np.asarray(values, "<f4").ravel()]


def read_f32(node: JsonNode) -> np.float32:
    v = node.value
    if isinstance(v, str):
        text = v.strip().lower()
        if text in ("inf", "+inf", "-inf"):
            return np.float32(-np.inf if text.startswith("-") else np.inf)
        if text == "nan":
            return np.array([0x7FC00000], "<u4").view("<f4")[0]
        if text.startswith("nan:"):
            try:
                bits = int(text[4:], 16)
            except ValueError:
                bits = -1
            if 0 <= bits <= 0xFFFF_FFFF:
                return np.array([bits], "<u4").view("<f4")[0]
        raise node.error('expected a number, "inf", "-inf", "nan" or "nan:XXXXXXXX"')
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise node.error("expected a number")
    if isinstance(v, int) and not -(2**128) < v < 2**128:
        # (numpy raises OverflowError on an integer past a double; nothing that large fits an f32)
        raise node.error(f"{_short(v)} does not fit a 32-bit float")
    with np.errstate(over="ignore"):
        f = np.float32(v)
    if np.isinf(f):
        raise node.error(f"{v} does not fit a 32-bit float")
    return f


def _short(value: int) -> str:
    """An integer for a message: a 400-digit one is not repeated in full."""
    text = str(value)
    return text if len(text) <= 24 else f"{text[:8]}...({len(text)} digits)"


def read_f32_array(node: JsonNode) -> np.ndarray:
    items = list(node.items())
    out = np.zeros(len(items), "<f4")
    for i, item in enumerate(items):
        out[i] = read_f32(item)
    return out


def hex32(value: int) -> str:
    return f"{value:08X}"


def read_u32(node: JsonNode) -> int:
    """A u32 given as an integer or as hex digits ("9DF23F77", "0x9DF23F77")."""
    v = node.value
    if isinstance(v, str):
        text = v[2:] if v.lower().startswith("0x") else v
        # Hex digits only: int(text, 16) also takes a sign, spaces and underscores, and
        # "-1" would reach the writer as a negative u32.
        if not re.fullmatch(r"[0-9A-Fa-f]{1,8}", text):
            raise node.error(f"expected up to 8 hex digits (a u32), found {v!r}")
        return int(text, 16)
    n = node.int()
    if not 0 <= n <= 0xFFFF_FFFF:
        raise node.error(f"{n} does not fit a u32")
    return n


def read_opt_int(node: JsonNode) -> int | None:
    return None if node.value is None else node.int()


def b64(data: bytes) -> str:
    return base64.b64encode(bytes(data)).decode("ascii")


def opt_bytes(node: JsonNode, key: str, kind: str = "hex") -> bytes:
    """Member ``key`` (hex, or base64 with ``kind`` "b64"), empty when absent."""
    if not node.has(key):
        return b""
    return node[key].hex_bytes() if kind == "hex" else node[key].base64_bytes()


def read_array(node: JsonNode, dtype: Any) -> np.ndarray:
    """A bulk array given as base64 of its little-endian bytes."""
    raw = node.base64_bytes()
    item = np.dtype(dtype).itemsize
    if len(raw) % item:
        raise node.error(f"{len(raw)} bytes is not a whole number of {item}-byte items")
    return np.frombuffer(raw, dtype).copy()


def read_matrix(node: JsonNode) -> np.ndarray:
    """A 4x4 f32 matrix given as 4 rows of 4 numbers."""
    rows = list(node.items())
    if len(rows) != 4:
        raise node.error("expected 4 rows of 4 numbers")
    out = np.zeros((4, 4), "<f4")
    for r, row in enumerate(rows):
        values = read_f32_array(row)
        if len(values) != 4:
            raise row.error("expected 4 numbers")
        out[r] = values
    return out
