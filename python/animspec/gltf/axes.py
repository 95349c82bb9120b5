"""The one axis change between glTF's world and the console's model space.

The engine's Blender exporter writes a root bone's key as its pose in Blender's armature
space (Z-up) pre-multiplied by diag(1, -1, -1) (Forceh91/psyqo-madnight-engine,
tools/blender_animbin.py). A glTF is Y-up: Blender's glTF exporter
turns Z-up into Y-up with a -90 degree rotation about X, (x, y, z) -> (x, z, -y). So a glTF
world orientation reaches the console's model space by undoing that turn (+90 degrees about
X) and then applying diag(1, -1, -1) (a half turn about X): together a -90 degree rotation
about X, (x, y, z) -> (x, z, -y). The way back is its inverse, +90 degrees about X.

Only roots carry it: every other joint's key is relative to its parent, which is in the same
space on both sides.
"""

from __future__ import annotations

import math

import numpy as np

from ..quaternion import conjugate, quat_multiply

GLTF_TO_PS1 = np.array([math.cos(math.pi / 4), -math.sin(math.pi / 4), 0.0, 0.0])
"""-90 degrees about X (w, x, y, z): undo glTF's Y-up turn, then diag(1, -1, -1)."""
PS1_TO_GLTF = conjugate(GLTF_TO_PS1)
"""+90 degrees about X: the inverse."""

GLTF_TO_PS1_MATRIX = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])
"""(x, y, z) -> (x, z, -y), the matrix of :data:`GLTF_TO_PS1`."""
PS1_TO_GLTF_MATRIX = GLTF_TO_PS1_MATRIX.T


def rotations_to_ps1(q: np.ndarray) -> np.ndarray:
    """glTF world orientations (..., 4) w, x, y, z -> the console's model space."""
    return quat_multiply(GLTF_TO_PS1, q)


def rotations_to_gltf(q: np.ndarray) -> np.ndarray:
    """The console's model-space orientations (..., 4) -> glTF world."""
    return quat_multiply(PS1_TO_GLTF, q)


def vectors_to_ps1(v: np.ndarray) -> np.ndarray:
    """glTF world positions (..., 3) -> the console's model space."""
    return np.asarray(v, dtype=np.float64) @ GLTF_TO_PS1_MATRIX.T


def vectors_to_gltf(v: np.ndarray) -> np.ndarray:
    """The console's model-space positions (..., 3) -> glTF world."""
    return np.asarray(v, dtype=np.float64) @ PS1_TO_GLTF_MATRIX.T
