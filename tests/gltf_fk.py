"""Forward kinematics over a glTF read with pygltflib, written apart from animspec.gltf: what a
glTF viewer shows (every node's world matrix at an instant, glTF 2.0 sections 3.5.3 and 3.11,
LINEAR and STEP samplers, rotations by shortest-arc slerp). The round-trip tests measure
world positions with it, so a bug in animspec's own sampling or rig code cannot cancel out.
"""

from __future__ import annotations

import base64
import struct

import numpy as np
from pygltflib import GLTF2

_DTYPES = {5126: "<f4", 5123: "<u2", 5121: "<u1", 5125: "<u4", 5122: "<i2", 5120: "<i1"}
_WIDTH = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def load(data: bytes) -> GLTF2:
    return GLTF2.load_from_bytes(data)


def _buffer(doc: GLTF2, index: int) -> bytes:
    uri = doc.buffers[index].uri
    if uri is None:
        return doc.binary_blob()
    assert uri.startswith("data:"), "only GLB or embedded buffers"
    return base64.b64decode(uri.split(",", 1)[1])


def accessor(doc: GLTF2, index: int) -> np.ndarray:
    acc = doc.accessors[index]
    view = doc.bufferViews[acc.bufferView]
    width = _WIDTH[acc.type]
    dtype = np.dtype(_DTYPES[acc.componentType])
    stride = view.byteStride or dtype.itemsize * width
    start = (view.byteOffset or 0) + (acc.byteOffset or 0)
    raw = _buffer(doc, view.buffer)
    rows = [np.frombuffer(raw, dtype, width, start + i * stride) for i in range(acc.count)]
    return np.array(rows, dtype=np.float64).reshape(acc.count, width)


def _rotation_matrix(xyzw: np.ndarray) -> np.ndarray:
    x, y, z, w = np.asarray(xyzw, dtype=np.float64) / np.linalg.norm(xyzw)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def trs(t: np.ndarray, xyzw: np.ndarray, s: np.ndarray) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = _rotation_matrix(xyzw) @ np.diag(s)
    m[:3, 3] = t
    return m


def _slerp(a: np.ndarray, b: np.ndarray, u: float) -> np.ndarray:
    a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
    dot = float(np.dot(a, b))
    if dot < 0:
        b, dot = -b, -dot
    if dot > 0.9995:
        q = a + u * (b - a)
        return q / np.linalg.norm(q)
    theta = np.arccos(dot)
    return (np.sin((1 - u) * theta) * a + np.sin(u * theta) * b) / np.sin(theta)


def _sample(times: np.ndarray, values: np.ndarray, interpolation: str, t: float, rotation: bool) -> np.ndarray:
    if interpolation == "CUBICSPLINE":
        return _cubic(times, values, t, rotation)
    if t <= times[0] + 1e-6:
        return values[0]
    if t >= times[-1] - 1e-6:
        return values[-1]
    k = int(np.searchsorted(times, t + 1e-6, side="right")) - 1
    if interpolation == "STEP" or abs(t - times[k]) <= 1e-6:
        return values[k]
    u = (t - times[k]) / (times[k + 1] - times[k])
    if rotation:
        return _slerp(values[k], values[k + 1], u)
    return (1 - u) * values[k] + u * values[k + 1]


def _cubic(times: np.ndarray, output: np.ndarray, t: float, rotation: bool) -> np.ndarray:
    """glTF 2.0 Appendix C, "Cubic Spline Interpolation": (in-tangent, value, out-tangent) per
    key, tangents per second (scaled by the key interval); a rotation normalised after."""
    tangent_in, values, tangent_out = output[0::3], output[1::3], output[2::3]
    if t <= times[0] + 1e-6:
        return values[0]
    if t >= times[-1] - 1e-6:
        return values[-1]
    k = int(np.searchsorted(times, t + 1e-6, side="right")) - 1
    if abs(t - times[k]) <= 1e-6:
        return values[k]
    td = times[k + 1] - times[k]
    u = (t - times[k]) / td
    v = ((2 * u**3 - 3 * u**2 + 1) * values[k] + td * (u**3 - 2 * u**2 + u) * tangent_out[k]
         + (-2 * u**3 + 3 * u**2) * values[k + 1] + td * (u**3 - u**2) * tangent_in[k + 1])
    return v / np.linalg.norm(v) if rotation else v


def local_trs(doc: GLTF2, animation: int | None, t: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every node's local (translation, rotation x, y, z, w, scale) at instant ``t``."""
    out = []
    for node in doc.nodes:
        if node.matrix is not None and list(node.matrix) != [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]:
            raise AssertionError("matrix nodes are not sampled here")
        out.append((
            np.array(node.translation if node.translation is not None else [0, 0, 0], dtype=np.float64),
            np.array(node.rotation if node.rotation is not None else [0, 0, 0, 1], dtype=np.float64),
            np.array(node.scale if node.scale is not None else [1, 1, 1], dtype=np.float64),
        ))
    if animation is None:
        return out
    anim = doc.animations[animation]
    for channel in anim.channels:
        sampler = anim.samplers[channel.sampler]
        interpolation = sampler.interpolation or "LINEAR"
        assert interpolation in ("LINEAR", "STEP", "CUBICSPLINE"), interpolation
        path = channel.target.path
        if path not in ("translation", "rotation", "scale"):
            continue
        value = _sample(accessor(doc, sampler.input)[:, 0], accessor(doc, sampler.output), interpolation, t,
                        path == "rotation")
        parts = list(out[channel.target.node])
        parts[("translation", "rotation", "scale").index(path)] = value
        out[channel.target.node] = (parts[0], parts[1], parts[2])
    return out


def parents(doc: GLTF2) -> list[int]:
    up = [-1] * len(doc.nodes)
    for i, node in enumerate(doc.nodes):
        for child in node.children or []:
            up[child] = i
    return up


def world_matrices(doc: GLTF2, animation: int | None, times: np.ndarray) -> np.ndarray:
    """(frames, nodes, 4, 4): every node's world matrix at each instant."""
    up = parents(doc)
    order: list[int] = []  # parents before children
    stack = [n for n in range(len(doc.nodes)) if up[n] == -1]
    while stack:
        n = stack.pop()
        order.append(n)
        stack += doc.nodes[n].children or []
    out = np.empty((len(times), len(doc.nodes), 4, 4))
    for f, t in enumerate(times):
        local = [trs(*parts) for parts in local_trs(doc, animation, float(t))]
        for n in order:
            out[f, n] = local[n] if up[n] == -1 else out[f, up[n]] @ local[n]
    return out


def node_index(doc: GLTF2, names: list[str]) -> list[int]:
    by_name = {node.name: i for i, node in enumerate(doc.nodes) if node.name}
    return [by_name[name] for name in names]


def joint_names(doc: GLTF2, skin: int = 0) -> list[str]:
    return [doc.nodes[j].name for j in doc.skins[skin].joints]


def glb_bytes(doc: GLTF2) -> bytes:
    """``doc`` as GLB bytes (pygltflib's writer)."""
    data = b"".join(doc.save_to_bytes())
    assert struct.unpack_from("<I", data, 0)[0] == 0x46546C67
    return data
