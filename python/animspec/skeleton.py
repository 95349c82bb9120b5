"""Skeletons and poses, independent of any file format.

A :class:`Skeleton` is a bone hierarchy with a rest pose: ``parents[i]`` (-1 for a root,
parents listed before their children, as the engine's bone loop requires), each bone's rest
translation and rotation relative to its parent. Sources: a MESHBIN file
(:func:`animspec.meshbin.skeleton_from_meshbin`), a glTF skin, or none at all
(:meth:`Skeleton.chain`, :meth:`Skeleton.flat`).

:func:`forward_kinematics` turns local rotations per frame into world transforms the way the
engine composes bone matrices (``world = parent.world @ local``; local = rotation of the
local quaternion plus the bone's rest translation; Forceh91/psyqo-madnight-engine,
src/mesh/skeleton/skeleton.cpp),
vectorised with numpy over frames and over all bones of one depth at a time.

Quaternions here are float arrays in w, x, y, z order (the ANIMBIN order); the helpers that
work on them are in :mod:`animspec.quaternion`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# The quaternion helpers live in animspec.quaternion; these names stay importable from here
# (the engine-faithful playback and older callers import them from this module).
from .quaternion import angle_between, normalize, quat_multiply, quat_to_matrix, slerp

__all__ = [
    "Skeleton", "angle_between", "forward_kinematics", "normalize", "quat_multiply", "quat_to_matrix",
    "slerp", "world_positions",
]


@dataclass
class Skeleton:
    parents: np.ndarray
    """(n,) int: parent bone index, -1 for a root."""
    rest_translation: np.ndarray
    """(n, 3) float: translation relative to the parent."""
    rest_rotation: np.ndarray
    """(n, 4) float: rotation relative to the parent, w, x, y, z."""
    names: list[str]

    @property
    def bone_count(self) -> int:
        return int(self.parents.shape[0])

    @classmethod
    def chain(
        cls, bone_count: int, bone_length: float = 1.0, axis: tuple[float, float, float] = (0.0, 0.0, 1.0),
    ) -> Skeleton:
        """Bones in a single chain, each ``bone_length`` along ``axis`` from its parent (the
        console's model space has Blender's up along -Z, so the default +Z hangs downwards).
        Stands in when no rig is given."""
        parents = np.arange(-1, bone_count - 1, dtype=np.int64)
        translation = np.tile(np.asarray(axis, dtype=np.float64) * bone_length, (bone_count, 1))
        translation[0] = 0.0
        return cls(parents, translation, _identity(bone_count), [f"joint{i}" for i in range(bone_count)])

    @classmethod
    def flat(cls, bone_count: int) -> Skeleton:
        """Independent roots at the origin: every joint's world rotation is its local one."""
        return cls(
            np.full(bone_count, -1, dtype=np.int64),
            np.zeros((bone_count, 3)),
            _identity(bone_count),
            [f"joint{i}" for i in range(bone_count)],
        )

    def depth_levels(self) -> list[np.ndarray]:
        """Bone indices grouped by depth (roots first). Raises ValueError when a parent does
        not come before its child or is out of range: forward kinematics needs that order."""
        depth = np.zeros(self.bone_count, dtype=np.int64)
        for i, p in enumerate(self.parents.tolist()):
            if p == -1:
                continue
            if not 0 <= p < i:
                raise ValueError(f"bone {i}: parent {p} does not come before it")
            depth[i] = depth[p] + 1
        # Grouped in one sort (stable: bone order within a level), not one scan per level:
        # a chain of n bones has n levels.
        order = np.argsort(depth, kind="stable")
        counts = np.bincount(depth, minlength=int(depth.max(initial=-1)) + 1)
        return np.split(order, np.cumsum(counts)[:-1]) if counts.size else []


def _identity(n: int) -> np.ndarray:
    q = np.zeros((n, 4))
    q[:, 0] = 1.0
    return q


def forward_kinematics(
    skeleton: Skeleton,
    local_rotations: np.ndarray,
    local_translations: np.ndarray | None = None,
) -> np.ndarray:
    """World transforms (frames, bones, 4, 4) from local rotations (frames, bones, 4).

    ``local_translations`` (frames, bones, 3) defaults to the rest translations (the engine
    never applies translation keys). A joint whose rotation is not animated should be given
    its rest rotation by the caller.
    """
    rotations = np.asarray(local_rotations, dtype=np.float64)
    frames, bones = rotations.shape[:2]
    if bones != skeleton.bone_count:
        raise ValueError(f"{bones} joints of rotations for a skeleton of {skeleton.bone_count} bones")
    if local_translations is None:
        local_translations = np.broadcast_to(skeleton.rest_translation, (frames, bones, 3))
    local = np.zeros((frames, bones, 4, 4))
    local[..., :3, :3] = quat_to_matrix(rotations)
    local[..., :3, 3] = local_translations
    local[..., 3, 3] = 1.0
    world = np.empty_like(local)
    for level in skeleton.depth_levels():
        parents = skeleton.parents[level]
        roots = parents < 0
        world[:, level[roots]] = local[:, level[roots]]
        children = level[~roots]
        if children.size:
            world[:, children] = world[:, parents[~roots]] @ local[:, children]
    return world


def world_positions(world: np.ndarray) -> np.ndarray:
    """Bone origins (frames, bones, 3) of world transforms from :func:`forward_kinematics`."""
    return world[..., :3, 3]
