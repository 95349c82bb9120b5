"""Object-space error on the Animation Compression Library's metric (nfrechette/acl, MIT):
virtual vertices a fixed distance (the "shell", 3 cm in ACL) from each joint along its own x, y
and z axes, carried into object space by the joint's object-space transform; a joint's error on
a frame is the largest of its three vertices' displacements between two animations of the same
skeleton.

numpy and animspec's quaternion helpers only (no bpy, nothing of animspec's encoder or
decoder), so that `tools/luna_check.py` can measure what Luna's importer reads from Blender's
own evaluated pose-bone matrices, and the same numbers can be checked by hand
(tests/test_shell_error.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from animspec.quaternion import quat_to_matrix, xyzw_to_wxyz

ACL_SHELL_METRES = 0.03
"""ACL's default virtual-vertex distance: 3 cm."""


def local_matrices(rotation_xyzw: np.ndarray, translation: np.ndarray, scale: np.ndarray | None = None) -> np.ndarray:
    """(frames, joints, 4, 4) local transforms T @ R @ S from quaternions (x, y, z, w; need not
    be unit length), translations and (optionally) per-axis scales."""
    m = np.zeros(np.shape(rotation_xyzw)[:-1] + (4, 4))
    m[..., :3, :3] = quat_to_matrix(xyzw_to_wxyz(np.asarray(rotation_xyzw, dtype=np.float64)))
    if scale is not None:
        m[..., :3, :3] = m[..., :3, :3] * np.asarray(scale, dtype=np.float64)[..., None, :]
    m[..., :3, 3] = translation
    m[..., 3, 3] = 1.0
    return m


def object_matrices(local: np.ndarray, parents: list[int]) -> np.ndarray:
    """Object-space transforms (frames, joints, 4, 4): each joint's parent's times its local
    (a root's local is its object transform). Parents may come in any order; a cycle is refused."""
    local = np.asarray(local, dtype=np.float64)
    out = np.full_like(local, np.nan)
    done = [False] * len(parents)

    def resolve(j: int, seen: tuple[int, ...] = ()) -> None:
        if done[j]:
            return
        if j in seen:
            raise ValueError(f"joint {j}'s parents form a cycle")
        p = parents[j]
        if p < 0:
            out[:, j] = local[:, j]
        else:
            resolve(p, seen + (j,))
            out[:, j] = out[:, p] @ local[:, j]
        done[j] = True

    for j in range(len(parents)):
        resolve(j)
    return out


def shell_errors(want: np.ndarray, got: np.ndarray, shell: float = ACL_SHELL_METRES) -> np.ndarray:
    """(frames, joints): per joint per frame, the largest displacement of the three virtual
    vertices ``shell`` along the joint's local x, y, z between the object-space transforms
    ``want`` and ``got`` (both (frames, joints, 4, 4)), in the transforms' units."""
    want, got = np.asarray(want, dtype=np.float64), np.asarray(got, dtype=np.float64)
    if want.shape != got.shape:
        raise ValueError(f"transforms of different shapes: {want.shape} and {got.shape}")
    diff = want - got
    # vertex k at shell * e_k: M @ (shell e_k, 1) = shell * column k + column 3
    moved = shell * diff[..., :3, :3] + diff[..., :3, 3:4]
    return np.linalg.norm(moved, axis=-2).max(axis=-1)


@dataclass(frozen=True)
class ShellSummary:
    """The largest and the 99th percentile (linear interpolation, numpy's default) of per joint
    per frame errors, and where the largest is."""

    max: float
    p99: float
    joint: int
    frame: int

    def scaled(self, factor: float) -> ShellSummary:
        return ShellSummary(self.max * factor, self.p99 * factor, self.joint, self.frame)


def summarise(errors: np.ndarray) -> ShellSummary:
    errors = np.asarray(errors, dtype=np.float64)
    frame, joint = np.unravel_index(int(np.argmax(errors)), errors.shape)
    return ShellSummary(float(errors.max()), float(np.percentile(errors, 99)), int(joint), int(frame))
