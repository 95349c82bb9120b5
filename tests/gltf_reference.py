"""A small glTF reader for the tests, written apart from animspec.gltf with json and numpy.

It reads a .gltf (buffers in data: URIs or files beside it) or a .glb, samples LINEAR and
STEP animation channels (glTF 2.0 Appendix C; rotations by shortest-arc slerp), and gives a
node's local and world rotation at any instant. The round-trip tests compare two documents
with it, so a bug in the converter's own sampler or rig code cannot cancel out.
"""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import numpy as np

_DTYPES = {5126: "<f4", 5123: "<u2", 5121: "<u1", 5125: "<u4"}
_WIDTH = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}


class Document:
    def __init__(self, path: str | Path | None = None, *, glb: bytes | None = None) -> None:
        self.folder = Path(path).parent if path is not None else Path(".")
        data = Path(path).read_bytes() if glb is None else glb
        self.bin = b""
        if data[:4] == b"glTF":
            length = struct.unpack_from("<I", data, 12)[0]
            self.json = json.loads(data[20 : 20 + length])
            if len(data) > 20 + length:
                bin_length = struct.unpack_from("<I", data, 20 + length)[0]
                self.bin = data[28 + length : 28 + length + bin_length]
        else:
            self.json = json.loads(data)
        self.nodes = self.json["nodes"]
        self.parent = [-1] * len(self.nodes)
        for i, node in enumerate(self.nodes):
            for child in node.get("children", []):
                self.parent[child] = i

    def _buffer(self, index: int) -> bytes:
        uri = self.json["buffers"][index].get("uri")
        if uri is None:
            return self.bin
        if uri.startswith("data:"):
            return base64.b64decode(uri.split(",", 1)[1])
        return (self.folder / uri).read_bytes()

    def accessor(self, index: int) -> np.ndarray:
        acc = self.json["accessors"][index]
        view = self.json["bufferViews"][acc["bufferView"]]
        width = _WIDTH[acc["type"]]
        dtype = np.dtype(_DTYPES[acc["componentType"]])
        stride = view.get("byteStride") or dtype.itemsize * width
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        raw = self._buffer(view["buffer"])
        rows = [np.frombuffer(raw, dtype, width, start + i * stride) for i in range(acc["count"])]
        return np.array(rows, dtype=np.float64).reshape(acc["count"], width)

    def rest_rotation(self, node: int) -> np.ndarray:
        """w, x, y, z."""
        n = self.nodes[node]
        if "matrix" in n:
            m = np.array(n["matrix"], dtype=np.float64).reshape(4, 4).T[:3, :3]
            m = m / np.linalg.norm(m, axis=0)
            return matrix_to_wxyz(m)
        x, y, z, w = n.get("rotation", [0.0, 0.0, 0.0, 1.0])
        return np.array([w, x, y, z])

    def node_channels(self, name: str) -> tuple[int, dict[str, tuple[np.ndarray, np.ndarray]]]:
        """The node called ``name``, and path -> (times, values as stored) of the last
        animation's channels on it."""
        node = next(i for i, n in enumerate(self.nodes) if n.get("name") == name)
        animation = self.json["animations"][-1]
        out = {}
        for channel in animation["channels"]:
            if channel["target"]["node"] == node:
                sampler = animation["samplers"][channel["sampler"]]
                out[channel["target"]["path"]] = (self.accessor(sampler["input"]).reshape(-1),
                                                  self.accessor(sampler["output"]))
        return node, out

    def animation_index(self, name: str | None = None) -> list[int]:
        anims = self.json.get("animations", [])
        return [i for i, a in enumerate(anims) if name is None or a.get("name") == name]

    def rotation_curves(self, animations: list[int]) -> dict[int, tuple[np.ndarray, np.ndarray, str]]:
        """node -> (times, w-first unit quaternions, interpolation) over the given animations."""
        out = {}
        for a in animations:
            anim = self.json["animations"][a]
            for channel in anim["channels"]:
                if channel["target"]["path"] != "rotation":
                    continue
                sampler = anim["samplers"][channel["sampler"]]
                interpolation = sampler.get("interpolation", "LINEAR")
                assert interpolation in ("LINEAR", "STEP"), interpolation
                xyzw = self.accessor(sampler["output"])
                out[channel["target"]["node"]] = (
                    self.accessor(sampler["input"])[:, 0],
                    unit(xyzw[:, [3, 0, 1, 2]]),
                    interpolation,
                )
        return out

    def start_time(self, animations: list[int]) -> float:
        return min(
            float(self.accessor(s["input"]).min())
            for a in animations for s in self.json["animations"][a]["samplers"]
        )

    def local_rotation(self, node: int, curves: dict, t: float) -> np.ndarray:
        if node not in curves:
            return unit(self.rest_rotation(node))
        times, values, interpolation = curves[node]
        if t <= times[0]:
            return values[0]
        if t >= times[-1]:
            return values[-1]
        k = int(np.searchsorted(times, t, side="right")) - 1
        if interpolation == "STEP":
            return values[k]
        s = (t - times[k]) / (times[k + 1] - times[k])
        return slerp(values[k], values[k + 1], s)

    def world_rotation(self, node: int, curves: dict, t: float) -> np.ndarray:
        q = self.local_rotation(node, curves, t)
        up = self.parent[node]
        while up != -1:
            q = multiply(self.local_rotation(up, curves, t), q)
            up = self.parent[up]
        return q


def unit(q: np.ndarray) -> np.ndarray:
    q = np.asarray(q, dtype=np.float64)
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def slerp(a: np.ndarray, b: np.ndarray, s: float) -> np.ndarray:
    dot = float(np.dot(a, b))
    if dot < 0:
        b, dot = -b, -dot
    if dot > 0.9995:
        return unit(a + s * (b - a))
    theta = np.arccos(dot)
    return unit((np.sin((1 - s) * theta) * a + np.sin(s * theta) * b) / np.sin(theta))


def matrix_to_wxyz(m: np.ndarray) -> np.ndarray:
    """A rotation matrix's quaternion (from its largest of w, x, y, z: stable everywhere)."""
    w = np.sqrt(max(0.0, 1 + m[0, 0] + m[1, 1] + m[2, 2])) / 2
    x = np.sqrt(max(0.0, 1 + m[0, 0] - m[1, 1] - m[2, 2])) / 2
    y = np.sqrt(max(0.0, 1 - m[0, 0] + m[1, 1] - m[2, 2])) / 2
    z = np.sqrt(max(0.0, 1 - m[0, 0] - m[1, 1] + m[2, 2])) / 2
    big = int(np.argmax([w, x, y, z]))
    if big == 0:
        q = [w, (m[2, 1] - m[1, 2]) / (4 * w), (m[0, 2] - m[2, 0]) / (4 * w), (m[1, 0] - m[0, 1]) / (4 * w)]
    elif big == 1:
        q = [(m[2, 1] - m[1, 2]) / (4 * x), x, (m[0, 1] + m[1, 0]) / (4 * x), (m[0, 2] + m[2, 0]) / (4 * x)]
    elif big == 2:
        q = [(m[0, 2] - m[2, 0]) / (4 * y), (m[0, 1] + m[1, 0]) / (4 * y), y, (m[1, 2] + m[2, 1]) / (4 * y)]
    else:
        q = [(m[1, 0] - m[0, 1]) / (4 * z), (m[0, 2] + m[2, 0]) / (4 * z), (m[1, 2] + m[2, 1]) / (4 * z), z]
    return unit(np.array(q))


def angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.degrees(2 * np.arccos(min(1.0, abs(float(np.dot(unit(a), unit(b))))))))
