"""Sampling glTF animation curves at arbitrary instants (glTF 2.0 specification, Appendix C
"Animation Sampler Interpolation Modes"): STEP, LINEAR (spherical linear interpolation on
rotations) and CUBICSPLINE (Hermite, tangents scaled by the keyframe interval), and the
joints' local transforms composed from the sampled channels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pygltflib import GLTF2

from ..quaternion import normalize, slerp, xyzw_to_wxyz
from .rig import GltfError, Rig, compose_rotations, node_rest, read_accessor, trs_matrices

SNAP_SECONDS = 1e-6
"""A sample instant this close to a keyframe time is at the keyframe (1/16000 of a vsync)."""


def sample_sampler(
    times: np.ndarray, output: np.ndarray, interpolation: str, at: np.ndarray, *, rotation: bool, unit: bool = True
) -> np.ndarray:
    """Values of one animation sampler at the instants ``at`` (components as stored).

    Before the first keyframe the first value holds, after the last the last one (spec 3.11).
    At a keyframe's own time its value is used as is (Appendix C, "Overview"). Rotations are
    normalised (``unit``): required after CUBICSPLINE, harmless otherwise, and the engine
    normalises too; ``unit=False`` keeps a stored key exactly as stored (a round trip of FP12
    keys, whose length is 1 only to within 1/4096).
    """
    times = np.asarray(times, dtype=np.float64).reshape(-1)
    output = np.asarray(output, dtype=np.float64)
    at = np.asarray(at, dtype=np.float64).reshape(-1)
    n = times.shape[0]
    if n == 0:
        raise GltfError("an animation sampler has no keyframes")
    if np.any(np.diff(times) <= 0):
        raise GltfError("an animation sampler's input times are not strictly increasing")
    if interpolation == "CUBICSPLINE":
        if output.shape[0] != 3 * n or n < 2:
            raise GltfError("a CUBICSPLINE sampler needs at least 2 keyframes and 3 outputs per keyframe")
        in_tangent, values, out_tangent = output[0::3], output[1::3], output[2::3]
    elif interpolation in ("LINEAR", "STEP"):
        if output.shape[0] != n:
            raise GltfError(f"a {interpolation} sampler has {output.shape[0]} outputs for {n} keyframes")
        values = output
    else:
        raise GltfError(f"unknown interpolation {interpolation!r}")

    # times[k] <= at < times[k + 1], with instants within SNAP_SECONDS of a key taken as the
    # key's own time: float32 key times cannot hold 0.2 or 1/30 exactly, and a STEP key
    # authored at 0.2 s must show on the 50 Hz frame 10, not one frame later.
    k = np.searchsorted(times, at + SNAP_SECONDS, side="right") - 1
    result = np.empty((at.shape[0], values.shape[1]))
    result[k < 0] = values[0]
    result[k >= n - 1] = values[-1]
    inside = (k >= 0) & (k < n - 1)
    if inside.any():
        i = k[inside]
        td = times[i + 1] - times[i]
        t = np.clip((at[inside] - times[i]) / td, 0.0, 1.0)
        t = np.where(np.abs(at[inside] - times[i]) <= SNAP_SECONDS, 0.0, t)
        v0, v1 = values[i], values[i + 1]
        if interpolation == "STEP":  # Appendix C, "Step Interpolation": v_t = v_k
            seg = v0
        elif interpolation == "LINEAR" and rotation:
            seg = slerp(v0, v1, t)
        elif interpolation == "LINEAR":  # Appendix C, "Linear Interpolation"
            seg = (1 - t)[:, None] * v0 + t[:, None] * v1
        else:
            # Appendix C, "Cubic Spline Interpolation": the tangents are per second, so they
            # are scaled by the interval t_d = t_k+1 - t_k.
            t2, t3 = t * t, t * t * t
            seg = (
                (2 * t3 - 3 * t2 + 1)[:, None] * v0
                + (td * (t3 - 2 * t2 + t))[:, None] * out_tangent[i]
                + (-2 * t3 + 3 * t2)[:, None] * v1
                + (td * (t3 - t2))[:, None] * in_tangent[i + 1]
            )
        seg = np.where((t == 0)[:, None], v0, seg)  # a keyframe's own value, as is
        result[inside] = seg
    if rotation and unit:
        result = normalize(result, scalar_last=True)  # still x, y, z, w here
    return result


@dataclass
class Channels:
    """The sampled channels of one glTF animation: node -> path -> values at the frame times."""

    values: dict[int, dict[str, np.ndarray]] = field(default_factory=dict)
    duration: float = 0.0
    ignored: list[str] = field(default_factory=list)
    ignored_channels: list[tuple[int | None, str, str]] = field(default_factory=list)
    """Per entry of ``ignored``: the node (None: no target), the path, and the reason."""


def _accessor(gltf: GLTF2, index: int, cache: dict) -> np.ndarray:
    """read_accessor, once per accessor of a conversion, refusing non-finite values (a NaN
    or infinite key time or value has no meaning and would poison every frame)."""
    key = ("accessor", index)
    if key not in cache:
        values = read_accessor(gltf, index, cache)
        if not np.all(np.isfinite(values)):
            raise GltfError(f"accessor {index} holds a NaN or infinite value")
        cache[key] = values
    return cache[key]


def animation_span(gltf: GLTF2, anim_index: int, cache: dict) -> tuple[float, float]:
    """First and last keyframe time over the animation's samplers (0, 0 without samplers)."""
    anim = gltf.animations[anim_index]
    inputs = [_accessor(gltf, s.input, cache) for s in anim.samplers]
    inputs = [i for i in inputs if i.size]
    if not inputs:
        return 0.0, 0.0
    return min(float(i.min()) for i in inputs), max(float(i.max()) for i in inputs)


def sample_channels(
    gltf: GLTF2, anim_index: int, wanted: set[int], at: np.ndarray, cache: dict, *, unit: bool = True
) -> Channels:
    anim = gltf.animations[anim_index]
    out = Channels()
    # glTF says a (node, path) pair is targeted at most once; if not, the last one wins, and
    # only that one is sampled (so repeating a channel costs nothing).
    last: dict[tuple[int, str], int] = {}
    for c, channel in enumerate(anim.channels):
        node, path = channel.target.node, channel.target.path
        if node is None or node not in wanted:
            out.ignored.append(f"channel {c} ({path} of node {node}): not on an exported joint")
            out.ignored_channels.append((node, path, "not on an exported joint"))
            continue
        if path not in ("rotation", "translation", "scale"):
            out.ignored.append(f"channel {c} ({path} of node {node}): not a transform")
            out.ignored_channels.append((node, path, "not a transform"))
            continue
        last[(node, path)] = c
    for (node, path), c in last.items():
        sampler = anim.samplers[anim.channels[c].sampler]
        output = _accessor(gltf, sampler.output, cache)
        width = 4 if path == "rotation" else 3
        if output.shape[1] != width:
            raise GltfError(f"channel {c} ({path} of node {node}): its sampler's output has {output.shape[1]} "
                            f"components, not {width}")
        values = sample_sampler(
            _accessor(gltf, sampler.input, cache)[:, 0],
            output,
            sampler.interpolation or "LINEAR",
            at,
            rotation=path == "rotation",
            unit=unit,
        )
        out.values.setdefault(node, {})[path] = xyzw_to_wxyz(values) if path == "rotation" else values
    return out


def local_rotations(rig: Rig, channels: Channels, frames: int, *, unit: bool = True) -> np.ndarray:
    """(frames, joints, 4) w, x, y, z: each joint's rotation relative to its exported parent
    (for a root: its world rotation). ``unit=False`` keeps the length of the joint's own
    sampled rotation (see :func:`sample_sampler`)."""
    out = np.empty((frames, len(rig.nodes), 4))
    for j, path in enumerate(rig.paths):
        parts = [channels.values.get(n, {}).get("rotation", node_rest(rig.gltf, n).rotation) for n in path]
        out[:, j] = np.broadcast_to(compose_rotations(parts), (frames, 4))
    return normalize(out) if unit else out


def local_translations(rig: Rig, channels: Channels, frames: int) -> np.ndarray:
    """(frames, joints, 3): each joint's origin in its exported parent's space."""
    return local_matrices(rig, channels, frames)[..., :3, 3]


def local_matrices(rig: Rig, channels: Channels, frames: int) -> np.ndarray:
    """(frames, joints, 4, 4): each joint's transform in its exported parent's space (for a
    root: the scene's), every node of its path composed (the way out of
    :func:`.rig.node_locals`; :func:`.rig.split_trs` reads it as a TRS)."""
    out = np.empty((frames, len(rig.nodes), 4, 4))
    for j, path in enumerate(rig.paths):
        m = np.broadcast_to(np.eye(4), (frames, 4, 4))
        for n in reversed(path):  # top of the path first
            rest, animated = node_rest(rig.gltf, n), channels.values.get(n, {})
            m = m @ trs_matrices(
                np.broadcast_to(animated.get("translation", rest.translation), (frames, 3)),
                np.broadcast_to(animated.get("rotation", rest.rotation), (frames, 4)),
                np.broadcast_to(animated.get("scale", rest.scale), (frames, 3)),
            )
        out[:, j] = m
    return out
