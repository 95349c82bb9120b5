"""The codec benchmark's ground truth (issue 30): a BVH reader, a float64 forward-kinematics
evaluation straight from the file's Euler angles, and ACL's object-space error metric.

Written from the BVH format's own definition (Biovision's, as every reader restates it), not
from animspec's code, so that the benchmark never grades our decoder against itself:

* ``HIERARCHY`` then one or more ``ROOT name { ... }``; inside a joint's braces, ``OFFSET x y
  z`` (the joint's origin in its parent's space), ``CHANNELS n name...`` (the channels this
  joint reads from each motion line, in that order), then child ``JOINT name { ... }`` blocks
  and ``End Site { OFFSET x y z }`` (a leaf's tip: it has no channels, and is not a joint of
  the skeleton here, see below);
* ``MOTION``, ``Frames: n``, ``Frame Time: t`` (seconds), then one line per frame holding
  every joint's channel values in the order the hierarchy declared them;
* a joint's local transform is ``T @ R``: ``T`` translates by the OFFSET, or by the
  ``Xposition Yposition Zposition`` channels for a joint that has them (the root of every file
  here; its OFFSET is then ignored, as Biovision's and CMU's files use it); ``R`` is the
  rotation channels applied left to right in the order written, each about the joint's own
  (already rotated) axis: intrinsic, ``R = R_1 @ R_2 @ R_3`` for channels 1, 2, 3 (e.g.
  ``Zrotation Xrotation Yrotation`` is ``Rz @ Rx @ Ry``), angles in degrees, column vectors;
* a joint's object-space transform is its parent's times its local one.

End Sites carry no motion: they are left out of the skeleton (ACL's clip of a BVH, as
tools/acl_check.py writes it, has one bone per ROOT/JOINT and none for an End Site, and
animspec encodes the same joints), so errors are measured on ROOT/JOINT bones only.

The error metric is ACL's (nfrechette/acl, MIT), as ``qvvf_transform_error_metric::
calculate_error`` in includes/acl/compression/transform_error_metrics.h defines it and
``calculate_compression_error`` in includes/acl/compression/impl/track_error.impl.h applies
it: each bone's reference and lossy local transforms are taken to object space through the
hierarchy (``local_to_object_space``); three virtual vertices at ``shell`` distance along the
bone's local x, y and z axes (``construct_sphere_shell``) are transformed by both; the bone's
error at that sample is the largest of the three distances. ACL reports the largest over
bones and samples; its published tables (docs/cmu_performance.md) also give the 99th
percentile over every bone at every sample, which :class:`ObjectError` gives too
(``numpy.percentile``, linear interpolation). ACL's default shell is 3 cm
(``track_desc_transformf::shell_distance`` in includes/acl/core/track_desc.h).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

AXES = {"X": 0, "Y": 1, "Z": 2}
CMU_UNIT_M = 0.0254 / 0.45
"""Metres per BVH unit of the CMU conversions (2.54 cm / 0.45: the cgspeed files scale
inches by 0.45)."""


class BvhError(ValueError):
    """The text is not a BVH file this reader understands (says where)."""


@dataclass(frozen=True)
class Bvh:
    """A BVH file's skeleton (ROOT/JOINT only, in file order: a parent precedes its children)
    and motion."""

    names: tuple[str, ...]
    parents: np.ndarray
    """(J,) int, each joint's parent index, -1 for a root."""
    offsets: np.ndarray
    """(J, 3) float64 OFFSET of each joint."""
    channels: tuple[tuple[str, ...], ...]
    """Each joint's channel names, in the file's order."""
    frame_time: float
    motion: np.ndarray
    """(F, C) float64, every frame's channel values."""

    @property
    def frames(self) -> int:
        return int(self.motion.shape[0])

    @property
    def joints(self) -> int:
        return len(self.names)

    @property
    def fps(self) -> float:
        return 1.0 / self.frame_time

    def _columns(self) -> list[dict[str, int]]:
        """Per joint: channel name -> column of ``motion``."""
        out, col = [], 0
        for chans in self.channels:
            out.append({name: col + i for i, name in enumerate(chans)})
            col += len(chans)
        return out

    def local_translations(self, unit: float = 1.0) -> np.ndarray:
        """(F, J, 3) float64: the OFFSET, or the position channels where a joint has them,
        times ``unit`` (e.g. :data:`CMU_UNIT_M` for metres)."""
        out = np.broadcast_to(self.offsets, (self.frames, self.joints, 3)).copy()
        for j, cols in enumerate(self._columns()):
            for axis, k in AXES.items():
                if axis + "position" in cols:
                    out[:, j, k] = self.motion[:, cols[axis + "position"]]
        return out * unit

    def rotation_channels(self, joint: int) -> list[tuple[int, np.ndarray]]:
        """The joint's rotation channels in the file's order: (axis 0/1/2, (F,) angle in
        radians)."""
        cols = self._columns()[joint]
        return [(AXES[name[0]], np.radians(self.motion[:, cols[name]]))
                for name in self.channels[joint] if name.endswith("rotation")]

    def local_matrices(self) -> np.ndarray:
        """(F, J, 3, 3) float64 local rotation matrices, the Euler channels multiplied left to
        right as written (intrinsic)."""
        out = np.broadcast_to(np.eye(3), (self.frames, self.joints, 3, 3)).copy()
        for j in range(self.joints):
            for axis, angle in self.rotation_channels(j):
                out[:, j] = out[:, j] @ axis_matrix(axis, angle)
        return out

    def local_quaternions(self) -> np.ndarray:
        """(F, J, 4) float64 x, y, z, w: the same rotations as quaternions (the product of the
        per-channel quaternions in the same order), the codecs' input. The ground truth is
        :meth:`local_matrices`, not these."""
        out = np.zeros((self.frames, self.joints, 4))
        out[..., 3] = 1.0
        for j in range(self.joints):
            for axis, angle in self.rotation_channels(j):
                q = np.zeros((self.frames, 4))
                q[:, axis] = np.sin(angle / 2)
                q[:, 3] = np.cos(angle / 2)
                out[:, j] = quaternion_product(out[:, j], q)
        return out

    def object_transforms(self, unit: float = 1.0) -> np.ndarray:
        """(F, J, 4, 4) float64 object-space transforms, evaluated from the Euler angles."""
        return forward_kinematics(self.parents, self.local_matrices(), self.local_translations(unit))


def axis_matrix(axis: int, angle: np.ndarray) -> np.ndarray:
    """(N, 3, 3) the rotation by ``angle`` (radians) about axis 0 (x), 1 (y) or 2 (z)."""
    c, s = np.cos(angle), np.sin(angle)
    m = np.zeros(np.shape(angle) + (3, 3))
    i, k = {0: (1, 2), 1: (2, 0), 2: (0, 1)}[axis]  # the plane turned, i towards k
    m[..., axis, axis] = 1.0
    m[..., i, i] = c
    m[..., k, k] = c
    m[..., i, k] = -s
    m[..., k, i] = s
    return m


def quaternion_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a * b of x, y, z, w quaternions (rotate by b, then by a)."""
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz], axis=-1)


def quaternion_matrices(q: np.ndarray) -> np.ndarray:
    """(..., 3, 3) rotation matrices of x, y, z, w quaternions (normalised first)."""
    q = np.asarray(q, np.float64)
    x, y, z, w = np.moveaxis(q / np.linalg.norm(q, axis=-1, keepdims=True), -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def forward_kinematics(parents: np.ndarray, rotations: np.ndarray, translations: np.ndarray,
                       scales: np.ndarray | None = None) -> np.ndarray:
    """(F, J, 4, 4) object-space transforms from local rotation matrices (F, J, 3, 3),
    translations (F, J, 3) and optional scales (F, J, 3): local = T @ R @ S, object = parent's
    object @ local. A parent must come before its children."""
    f, j = rotations.shape[:2]
    local = np.zeros((f, j, 4, 4))
    local[..., :3, :3] = rotations if scales is None else rotations * scales[..., None, :]
    local[..., :3, 3] = translations
    local[..., 3, 3] = 1.0
    out = np.empty_like(local)
    for k, p in enumerate(parents):
        if p >= k:
            raise BvhError(f"joint {k}'s parent {p} does not come before it")
        out[:, k] = local[:, k] if p < 0 else out[:, p] @ local[:, k]
    return out


@dataclass(frozen=True)
class ObjectError:
    """ACL's object-space error of a lossy evaluation against a reference."""

    per_sample: np.ndarray
    """(F, J) each bone's error at each frame: the largest of its three shell vertices'."""

    @property
    def max(self) -> float:
        return float(self.per_sample.max())

    @property
    def p99(self) -> float:
        return float(np.percentile(self.per_sample, 99))

    @property
    def worst(self) -> tuple[int, int]:
        """(frame, joint) of the largest error."""
        f, j = np.unravel_index(int(np.argmax(self.per_sample)), self.per_sample.shape)
        return int(f), int(j)


def object_error(reference: np.ndarray, lossy: np.ndarray, shell: float) -> ObjectError:
    """ACL's metric between two (F, J, 4, 4) object-space evaluations: vertices at ``shell``
    along each bone's local x, y, z, transformed by both; per bone and frame the largest
    distance (in the transforms' units)."""
    # The vertex shell * e_k maps to shell * column k + translation: the difference of the two
    # transforms' images is shell * (column k difference) + translation difference.
    d = reference[..., :3, :] - lossy[..., :3, :]
    moved = shell * d[..., :3] + d[..., 3:4]  # (F, J, 3 rows, 3 vertices)
    return ObjectError(np.linalg.norm(moved, axis=-2).max(axis=-1))


def parse(text: str, source: str = "BVH") -> Bvh:
    """Read a BVH file's text (see the module doc for what it holds)."""
    head, sep, motion_text = text.partition("MOTION")
    if not sep:
        raise BvhError(f"{source}: no MOTION section")
    tokens = head.split()
    names: list[str] = []
    parents: list[int] = []
    offsets: list[list[float]] = []
    channels: list[tuple[str, ...]] = []
    pos = 0

    def take(expected: str | None = None) -> str:
        nonlocal pos
        if pos >= len(tokens):
            raise BvhError(f"{source}: the hierarchy ends early" + (f" (expected {expected!r})" if expected else ""))
        tok = tokens[pos]
        pos += 1
        if expected is not None and tok != expected:
            raise BvhError(f"{source}: expected {expected!r}, found {tok!r} (hierarchy token {pos})")
        return tok

    def floats(n: int) -> list[float]:
        try:
            return [float(take()) for _ in range(n)]
        except ValueError as exc:
            raise BvhError(f"{source}: a number was expected near hierarchy token {pos}: {exc}") from None

    def joint(parent: int) -> None:
        name = take()
        index = len(names)
        names.append(name)
        parents.append(parent)
        take("{")
        take("OFFSET")
        offsets.append(floats(3))
        chans: tuple[str, ...] = ()
        if pos < len(tokens) and tokens[pos] == "CHANNELS":
            take()
            count = int(take())
            chans = tuple(take() for _ in range(count))
            for c in chans:
                if c[1:] not in ("position", "rotation") or c[0] not in AXES:
                    raise BvhError(f"{source}: joint {name!r}: unknown channel {c!r}")
        channels.append(chans)
        while True:
            tok = take()
            if tok == "}":
                return
            if tok == "JOINT":
                joint(index)
            elif tok == "End":
                take("Site")
                take("{")
                take("OFFSET")
                floats(3)
                take("}")
            else:
                raise BvhError(f"{source}: joint {name!r}: unexpected {tok!r}")

    take("HIERARCHY")
    while pos < len(tokens):
        take("ROOT")
        joint(-1)
    if not names:
        raise BvhError(f"{source}: no ROOT")

    words = motion_text.split()
    if len(words) < 5 or words[0] != "Frames:" or words[2:4] != ["Frame", "Time:"]:
        raise BvhError(f"{source}: MOTION must start 'Frames: n' 'Frame Time: t'")
    frames, frame_time = int(words[1]), float(words[4])
    width = sum(len(c) for c in channels)
    values = np.array(words[5:], dtype=np.float64)
    # Frames: is the count a reader takes; whole lines past it are left out (Boxing_Toes.bvh
    # has one more line than it declares), a short or ragged block is refused.
    if values.size < frames * width or values.size % width:
        raise BvhError(f"{source}: {values.size} motion values, expected {frames} frames x {width} channels")
    values = values[: frames * width]
    if frame_time <= 0:
        raise BvhError(f"{source}: Frame Time {frame_time} is not positive")
    return Bvh(tuple(names), np.array(parents), np.array(offsets, np.float64), tuple(channels),
               frame_time, values.reshape(frames, width))


def read(path: str | Path) -> Bvh:
    return parse(Path(path).read_text(), str(path))
