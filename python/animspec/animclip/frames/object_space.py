"""Object-space error: how far a clip's lossy pose moves what a joint carries, the measure the
Animation Compression Library uses (nfrechette/acl, MIT: ``qvvf_transform_error_metric`` in
includes/acl/compression/transform_error_metrics.h, and the "virtual vertex" error of its
papers and docs): each joint carries three virtual vertices at a ``shell`` distance along its
own x, y and z axes; they are taken to object space (the clip's root space: every ancestor's
transform applied, scale included) once through the transforms given and once through those a
reader decodes, and the error of a joint at a frame is the largest of the three distances. A
hip's rotation error thus counts with everything it moves, a finger's only at the finger.

The encoder (:mod:`.encode`) bounds this number when it is given an :class:`ObjectTolerance`,
and reports it (:class:`ObjectError`) after every encode, in the clip's units (metres in the
games). Everything is vectorised over frames; Python loops run over joints only.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ...common.errors import AnimspecError
from ...common.ranges import ANIMCLIP_ERRORS, MAX_ERROR_DISTANCE, SHELL
from ...quaternion import quat_to_matrix, xyzw_to_wxyz

DEFAULT_SHELL = cast(float, ANIMCLIP_ERRORS.shell)
"""The virtual vertices' distance from their joint: 3 cm in metres, ACL's default shell
distance (sized for a human)."""
DEFAULT_MAX_ERROR = ANIMCLIP_ERRORS.max_error
"""The default bound of the object-space error (:data:`animspec.common.ranges.ANIMCLIP_ERRORS`)."""


class HierarchyError(AnimspecError):
    """Parents that do not make a forest over the joints: an index out of range, or a cycle."""


@dataclass(frozen=True)
class ObjectTolerance:
    """The largest object-space error allowed (``max_error``, a distance in the clip's units)
    measured at virtual vertices ``shell`` away from each joint (the clip's units too; the
    defaults are ACL's, for a clip in metres)."""

    max_error: float = DEFAULT_MAX_ERROR
    shell: float = DEFAULT_SHELL

    def __post_init__(self) -> None:
        MAX_ERROR_DISTANCE.check(self.max_error)
        SHELL.check(self.shell)


@dataclass(frozen=True)
class ObjectError:
    """The object-space error of a clip as a reader decodes it (:mod:`..object_space`'s measure),
    in the clip's units: each joint's worst over the frames, where, and the 99th percentile over
    every joint at every frame (how large the error is apart from its worst moments)."""

    per_joint: np.ndarray
    """(J,) each joint's largest error (its worst virtual vertex at its worst frame)."""
    frames: np.ndarray
    """(J,) the frame of each joint's largest error."""
    p99: float
    """The 99th percentile of the error over joints x frames."""
    shell: float
    """The virtual vertices' distance from their joint this was measured at."""

    @property
    def max(self) -> float:
        return float(self.per_joint.max(initial=0.0))

    @property
    def joint(self) -> int:
        """The joint of the largest error (0 for a clip of no joints)."""
        return int(np.argmax(self.per_joint)) if self.per_joint.size else 0

    @property
    def frame(self) -> int:
        return int(self.frames[self.joint]) if self.frames.size else 0


def object_error_of(per_frame: np.ndarray, shell: float) -> ObjectError:
    """(F, J) errors -> :class:`ObjectError`."""
    if per_frame.size == 0:
        empty = np.zeros(per_frame.shape[1:])
        return ObjectError(empty, empty.astype(np.int64), 0.0, shell)
    return ObjectError(
        per_frame.max(axis=0), per_frame.argmax(axis=0).astype(np.int64), float(np.percentile(per_frame, 99)), shell
    )


def checked_parents(parents: Sequence[int] | np.ndarray | None, joints: int) -> np.ndarray:
    """Parents as an int64 array (-1: a root), every joint a root when None; refuses an index out
    of range or a cycle (:class:`HierarchyError`)."""
    if parents is None:
        return np.full(joints, -1, np.int64)
    out = np.asarray(parents, np.int64).reshape(-1)
    if len(out) != joints:
        raise HierarchyError(f"{len(out)} parents for {joints} joints")
    bad = np.flatnonzero((out < -1) | (out >= joints) | (out == np.arange(joints)))
    if len(bad):
        raise HierarchyError(f"joint {int(bad[0])}: parent {int(out[bad[0]])} is not another joint of the clip")
    topological_order(out)
    return out


def topological_order(parents: np.ndarray) -> np.ndarray:
    """Joints in an order where each parent comes before its children."""
    depth = np.full(len(parents), -1, np.int64)
    for j in range(len(parents)):
        chain = []
        k = j
        while k >= 0 and depth[k] < 0:
            if k in chain:
                raise HierarchyError(f"joint {k} is its own ancestor")
            chain.append(k)
            k = int(parents[k])
        d = depth[k] if k >= 0 else -1
        for c in reversed(chain):
            d += 1
            depth[c] = d
    return np.argsort(depth, kind="stable")


def local_matrices(rot_xyzw: np.ndarray, scl: np.ndarray) -> np.ndarray:
    """(F, J, 3, 3) rotation times scale of each joint's local transform."""
    out = quat_to_matrix(xyzw_to_wxyz(rot_xyzw))
    out *= np.asarray(scl, np.float64)[..., None, :]
    return out


class ObjectSpace:
    """Object-space transforms of one clip, the reference (the transforms given) and a lossy
    one (what a reader decodes), with each joint's error per frame. The lossy side is changed
    one joint at a time (:meth:`trial`, then :meth:`commit`, after a first :meth:`set_all`): only
    that joint's subtree is evaluated again, which is what lets the encoder try many choices."""

    def __init__(self, rot: np.ndarray, pos: np.ndarray, scl: np.ndarray, parents: np.ndarray, shell: float):
        self.parents = parents
        self.shell = float(shell)
        self.order = topological_order(parents)
        n = len(parents)
        children: list[list[int]] = [[] for _ in range(n)]
        for j in self.order:
            if parents[j] >= 0:
                children[int(parents[j])].append(int(j))
        self.subtree: list[np.ndarray] = []
        for j in range(n):  # each joint's subtree, parents first
            out, stack = [], [j]
            while stack:
                k = stack.pop(0)
                out.append(k)
                stack.extend(children[k])
            self.subtree.append(np.array(out, np.int64))
        self.ref_m, self.ref_t = self._world(local_matrices(rot, scl), np.asarray(pos, np.float64))
        # the lossy side: none until :meth:`set_all` (memory: a clip's samples x 37 float64 in all)
        self.m = self.t = self.local_m = self.local_t = self.err = np.zeros((0, 0))

    def at_frames(self, frames: slice | np.ndarray) -> ObjectSpace:
        """The same clip at ``frames`` only (the reference sliced, nothing recomputed)."""
        out = copy.copy(self)
        out.ref_m, out.ref_t = self.ref_m[frames], self.ref_t[frames]
        out.release()
        out.err = np.zeros((0, 0))
        return out

    def _world(self, lm: np.ndarray, lt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m = np.empty_like(lm)
        t = np.empty_like(lt)
        for j in self.order:
            p = self.parents[j]
            if p < 0:
                m[:, j], t[:, j] = lm[:, j], lt[:, j]
            else:
                m[:, j] = m[:, p] @ lm[:, j]
                t[:, j] = np.einsum("fij,fj->fi", m[:, p], lt[:, j]) + t[:, p]
        return m, t

    def _joint_error(self, j: int, m: np.ndarray, t: np.ndarray, frames: slice | np.ndarray = slice(None)
                     ) -> np.ndarray:
        """(F,) the largest of joint j's three virtual-vertex distances (at ``frames``)."""
        moved = (m - self.ref_m[frames, j]) * self.shell  # column k: the vertex on axis k, moved
        moved += (t - self.ref_t[frames, j])[:, :, None]
        return np.sqrt(np.einsum("fik,fik->fk", moved, moved).max(axis=1))

    def set_all(self, local_m: np.ndarray, local_t: np.ndarray, *, trials: bool = True) -> np.ndarray:
        """Take every joint's lossy local transforms; (F, J) errors. ``trials`` False: only the
        errors are wanted (no :meth:`trial` follows), so nothing else is kept."""
        m, t = self._world(local_m, local_t)
        self.err = np.zeros(local_t.shape[:2])
        for j in range(len(self.parents)):
            self.err[:, j] = self._joint_error(j, m[:, j], t[:, j])
        if trials:
            self.local_m, self.local_t, self.m, self.t = local_m, local_t, m, t
        else:
            self.release()
        return self.err

    def release(self) -> None:
        """Drop the lossy side's transforms (the errors stay): no :meth:`trial` follows."""
        self.m = self.t = self.local_m = self.local_t = np.zeros((0, 0))

    def trial(self, j: int, lm: np.ndarray, lt: np.ndarray, frames: np.ndarray | None = None) -> tuple[float, tuple]:
        """The worst error over joint j's subtree were its lossy local transform (F, 3, 3), (F, 3)
        this, and what :meth:`commit` takes to keep it. ``frames``: only these frames (``lm``
        and ``lt`` then hold those frames alone), a quick look that cannot be committed."""
        at = slice(None) if frames is None else frames
        m: dict[int, np.ndarray] = {}
        t: dict[int, np.ndarray] = {}
        errs = {}
        worst = 0.0
        for k in self.subtree[j]:
            k = int(k)
            klm, klt = (lm, lt) if k == j else (self.local_m[at, k], self.local_t[at, k])
            p = int(self.parents[k])
            if p < 0:
                m[k], t[k] = klm, klt
            else:
                pm, pt = (m[p], t[p]) if p in m else (self.m[at, p], self.t[at, p])
                m[k] = pm @ klm
                t[k] = np.einsum("fij,fj->fi", pm, klt) + pt
            errs[k] = e = self._joint_error(k, m[k], t[k], at)
            worst = max(worst, float(e.max(initial=0.0)))
        return worst, (j, lm, lt, m, t, errs)

    def focus(self, j: int, count: int, stride: int) -> np.ndarray:
        """Frames where joint j's subtree is likeliest to exceed a bound: the ``count`` frames of
        its largest errors now, and every ``stride``-th frame."""
        worst = self.err[:, self.subtree[j]].max(axis=1)
        top = np.argpartition(worst, -count)[-count:] if len(worst) > count else np.arange(len(worst))
        return np.union1d(top, np.arange(0, len(worst), stride))

    def commit(self, kept: tuple) -> None:
        j, lm, lt, m, t, errs = kept
        self.local_m[:, j], self.local_t[:, j] = lm, lt
        for k in m:
            self.m[:, k], self.t[:, k], self.err[:, k] = m[k], t[k], errs[k]

    def reach(self) -> np.ndarray:
        """(J,) per joint, the farthest any virtual vertex of its subtree gets from it (object
        space, over the frames): how far a rotation error at the joint is carried."""
        n = len(self.parents)
        shells = self.shell * np.linalg.norm(self.ref_m, axis=-2).max(axis=-1)  # (F, J) scaled shell
        out = np.zeros(n)
        for j in range(n):
            sub = self.subtree[j]
            d = np.linalg.norm(self.ref_t[:, sub] - self.ref_t[:, j : j + 1], axis=-1) + shells[:, sub]
            out[j] = d.max(initial=0.0)
        return np.maximum(out, 1e-12)


def object_error(read_rot: np.ndarray, read_pos: np.ndarray, read_scl: np.ndarray, rot: np.ndarray,
                 pos: np.ndarray, scl: np.ndarray, parents: Sequence[int] | np.ndarray | None,
                 shell: float = DEFAULT_SHELL) -> ObjectError:
    """The :class:`ObjectError` of local transforms read (F, J, ...; rotations x, y, z, w) against
    those given, under ``parents`` (None: every joint a root)."""
    par = checked_parents(parents, np.shape(rot)[1])
    space = ObjectSpace(np.asarray(rot, np.float64), np.asarray(pos, np.float64), np.asarray(scl, np.float64),
                        par, shell)
    rr = np.asarray(read_rot, np.float64)
    rr = rr / np.linalg.norm(rr, axis=-1, keepdims=True)
    return object_error_of(
        space.set_all(local_matrices(rr, read_scl), np.asarray(read_pos, np.float64), trials=False), shell
    )
