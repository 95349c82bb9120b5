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
import math
from collections.abc import Iterable, Sequence
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
class JointWorst:
    """Each joint's worst error over a clip's frames, and at which frame: what every error
    measure of the encoder reports (:class:`ObjectError`, and the joint-local kinds of
    :class:`.encode.ClipError`)."""

    per_joint: np.ndarray
    """(J,) float64, each joint's largest error."""
    frames: np.ndarray
    """(J,) int64, the frame of each joint's largest error."""

    @property
    def worst(self) -> float:
        return float(self.per_joint.max(initial=0.0))

    @property
    def joint(self) -> int:
        """The joint of the worst error (0 for a clip of no joints)."""
        return int(np.argmax(self.per_joint)) if self.per_joint.size else 0

    @property
    def frame(self) -> int:
        """The frame of the worst error."""
        return int(self.frames[self.joint]) if self.frames.size else 0


def worst_per_joint(per_frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(F, J) errors -> each joint's worst and its frame (zeros for no frames)."""
    if per_frame.size == 0:
        return np.zeros(per_frame.shape[1:]), np.zeros(per_frame.shape[1:], np.int64)
    return per_frame.max(axis=0), per_frame.argmax(axis=0).astype(np.int64)


@dataclass(frozen=True)
class ObjectError(JointWorst):
    """The object-space error of a clip as a reader decodes it (this module's measure), in the
    clip's units: each joint's worst over the frames (its worst virtual vertex), where, and the
    99th percentile over every joint at every frame (how large the error is apart from its
    worst moments)."""

    p99: float = 0.0
    """The 99th percentile of the error over joints x frames."""
    shell: float = DEFAULT_SHELL
    """The virtual vertices' distance from their joint this was measured at."""

    @property
    def max(self) -> float:
        return self.worst


def object_error_of(per_frame: np.ndarray, shell: float) -> ObjectError:
    """(F, J) errors -> :class:`ObjectError`."""
    p99 = float(np.percentile(per_frame, 99)) if per_frame.size else 0.0
    return ObjectError(*worst_per_joint(per_frame), p99, shell)


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
    one (what a reader decodes), with each joint's error per frame. The lossy side is set whole
    (:meth:`set_all`), then changed one joint at a time (:meth:`set_local`) and measured again
    where it changed (:meth:`refresh`: the changed joints' subtrees only); :meth:`trial` looks
    at one joint's change before it is made. Arrays are kept joint-major (joint, frame, ...), so
    each joint's frames are one contiguous block."""

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
        self.rank = np.empty(n, np.int64)
        self.rank[self.order] = np.arange(n)
        self.ref_m, self.ref_t = self._world(_joint_major(local_matrices(rot, scl)), _joint_major(pos))
        # the lossy side: none until :meth:`set_all` (memory: a clip's samples x 37 float64 in all)
        self.m = self.t = self.local_m = self.local_t = np.zeros((0, 0))
        self.joint_err = np.zeros((n, 0))

    @property
    def err(self) -> np.ndarray:
        """(F, J) each joint's error at each frame (a view)."""
        return self.joint_err.T

    def at_frames(self, frames: slice | np.ndarray) -> ObjectSpace:
        """The same clip at ``frames`` only (the reference sliced, nothing recomputed)."""
        out = copy.copy(self)
        out.ref_m, out.ref_t = self.ref_m[:, frames], self.ref_t[:, frames]
        out.release()
        out.joint_err = np.zeros((len(self.parents), 0))
        return out

    def _world(self, lm: np.ndarray, lt: np.ndarray, joints: Sequence[int] | np.ndarray | None = None,
               m: np.ndarray | None = None, t: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Object transforms (J, F, ...) of local ones, for ``joints`` (parents first) into ``m``
        and ``t`` (new arrays when None: every joint)."""
        if m is None or t is None:
            m, t = np.empty_like(lm), np.empty_like(lt)
        for j in self.order if joints is None else joints:
            p = self.parents[j]
            if p < 0:
                m[j], t[j] = lm[j], lt[j]
            else:
                np.matmul(m[p], lm[j], out=m[j])
                np.einsum("fij,fj->fi", m[p], lt[j], out=t[j])
                t[j] += t[p]
        return m, t

    def _joint_error(self, j: int, m: np.ndarray, t: np.ndarray, frames: slice | np.ndarray = slice(None)
                     ) -> np.ndarray:
        """(F,) the largest of joint j's three virtual-vertex distances (at ``frames``)."""
        moved = m - self.ref_m[j, frames]
        moved *= self.shell  # column k: the vertex on axis k, moved
        moved += (t - self.ref_t[j, frames])[:, :, None]
        moved *= moved
        # (the three squares summed row by row: a sum over a middle axis of length 3 is numpy's
        # slowest reduction here, 2.5x the time of two additions)
        square = moved[:, 0] + moved[:, 1]
        square += moved[:, 2]
        return np.sqrt(square.max(axis=1))

    def set_all(self, local_m: np.ndarray, local_t: np.ndarray, *, trials: bool = True) -> np.ndarray:
        """Take every joint's lossy local transforms (F, J, ...); (F, J) errors. ``trials``
        False: only the errors are wanted (nothing is changed after), so nothing else is kept."""
        self.local_m, self.local_t = _joint_major(local_m), _joint_major(local_t)
        self.m, self.t = np.empty_like(self.local_m), np.empty_like(self.local_t)
        self.joint_err = np.empty(self.local_t.shape[:2])
        self.refresh(np.flatnonzero(self.parents < 0))  # (every joint is in some root's subtree)
        if not trials:
            self.release()
        return self.err

    def set_local(self, j: int, lm: np.ndarray, lt: np.ndarray) -> None:
        """Take joint j's lossy local transform (every frame) without measuring anything: the
        object transforms and errors below it are the old ones until :meth:`refresh`."""
        self.local_m[j], self.local_t[j] = lm, lt

    def refresh(self, changed: Iterable[int]) -> None:
        """Measure again the subtrees of the joints whose locals :meth:`set_local` changed."""
        dirty = np.unique(np.concatenate([self.subtree[j] for j in changed] or [np.zeros(0, np.int64)]))
        dirty = dirty[np.argsort(self.rank[dirty])]
        self._world(self.local_m, self.local_t, dirty, self.m, self.t)
        for j in dirty:
            self.joint_err[j] = self._joint_error(int(j), self.m[j], self.t[j])

    def release(self) -> None:
        """Drop the lossy side's transforms (the errors stay): nothing is changed after."""
        self.m = self.t = self.local_m = self.local_t = np.zeros((0, 0))

    def trial(self, j: int, lm: np.ndarray, lt: np.ndarray, frames: np.ndarray | None = None,
              limit: float = math.inf) -> float:
        """The worst error over joint j's subtree were its lossy local transform (F, 3, 3), (F, 3)
        this (at ``frames`` only, when given: ``lm`` and ``lt`` then hold those frames alone),
        nothing changed. ``limit``: stop at the first joint whose error passes it."""
        at = slice(None) if frames is None else frames
        m: dict[int, np.ndarray] = {}
        t: dict[int, np.ndarray] = {}
        worst = 0.0
        for k in self.subtree[j]:
            k = int(k)
            klm, klt = (lm, lt) if k == j else (self.local_m[k, at], self.local_t[k, at])
            p = int(self.parents[k])
            if p < 0:
                m[k], t[k] = klm, klt
            else:
                pm, pt = (m[p], t[p]) if p in m else (self.m[p, at], self.t[p, at])
                m[k] = pm @ klm
                t[k] = np.einsum("fij,fj->fi", pm, klt) + pt
            worst = max(worst, float(self._joint_error(k, m[k], t[k], at).max(initial=0.0)))
            if worst > limit:
                break
        return worst

    def focus(self, j: int, count: int, stride: int) -> np.ndarray:
        """Frames where joint j's subtree is likeliest to exceed a bound: the ``count`` frames of
        its largest errors now, and every ``stride``-th frame."""
        worst = self.joint_err[self.subtree[j]].max(axis=0)
        top = np.argpartition(worst, -count)[-count:] if len(worst) > count else np.arange(len(worst))
        return np.union1d(top, np.arange(0, len(worst), stride))

    def reach(self) -> np.ndarray:
        """(J,) per joint, the farthest any virtual vertex of its subtree gets from it (object
        space, over the frames): how far a rotation error at the joint is carried."""
        n = len(self.parents)
        shells = self.shell * np.linalg.norm(self.ref_m, axis=-2).max(axis=-1)  # (J, F) scaled shell
        out = np.zeros(n)
        for j in range(n):
            sub = self.subtree[j]
            d = np.linalg.norm(self.ref_t[sub] - self.ref_t[j][None], axis=-1) + shells[sub]
            out[j] = d.max(initial=0.0)
        return np.maximum(out, 1e-12)


def _joint_major(a: np.ndarray) -> np.ndarray:
    """(F, J, ...) -> a contiguous (J, F, ...) copy."""
    return np.ascontiguousarray(np.swapaxes(np.asarray(a, np.float64), 0, 1))


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
