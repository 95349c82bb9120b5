"""Typed model of a MESHBIN file (mesh + optional skeleton), and the skeleton as arrays.

The model holds raw integers exactly as stored (20.12 positions, FP12 quaternions, int16
normals and bounding box, uint8 colours and texels) so that writing it back reproduces the
file byte for byte. Counts are the lengths of the lists, except where the file's header can
say something else (``declared_faces``, ``declared_bones``). The layout is ksy/meshbin.ksy,
restated for the bulk reader and the writer in :mod:`.layout`; this module knows nothing about bytes.

:func:`skeleton_from_meshbin` turns the bone table into an :class:`animspec.skeleton.Skeleton`
for playback (bone i is ANIMBIN joint id i). MESHBIN stores no bone names, so they are made
up ("bone0", "bone1", ...); positions and rotations become floats (raw / 4096), relative to
the parent, rotations as stored (not normalised).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ..fixed_point import FP12_ONE
from ..skeleton import Skeleton

MAX_BONES = 15
"""Bones a skeleton has room for (src/mesh/skeleton/skeleton.hh); the loader reads at most
this many bone records."""

MAX_FACES_PER_MESH = 1000
"""The loader refuses a file whose face count is this or more (src/mesh/mesh_manager.hh)."""

NO_COLOUR = (0xFF, 0xFF, 0xFF)
"""What obj-to-meshbin.py writes (-1 per channel) for a vertex without a colour."""

MISSING_INDEX = (-1, -1, -1, -1)
"""What obj-to-meshbin.py writes for a face without normals or texture coordinates."""

IDENTITY_ROTATION = (FP12_ONE, 0, 0, 0)

# The two spaces of a MESHBIN, as the engine's exporter writes them from Blender's (Z-up):
# bones and vertices are NOT in the same one, and neither the converter nor the engine
# converts between them (docs/meshbin.md, "Units and axes").
BLENDER_TO_BONES = np.diag([1.0, -1.0, -1.0])
"""A root bone's rest pose is diag(1, -1, -1) times its Blender armature-space matrix, a half
turn about X: up (+Z) goes to -Z (Forceh91/psyqo-madnight-engine,
tools/blender_obj_skeleton_exporter.py, ``axis_basis_change``); other bones are relative to
their parent."""
BLENDER_TO_VERTICES = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
"""Vertices go through Blender's ``axis_conversion`` to Forward Z, Up -Y (the same exporter's
defaults), (x, y, z) -> (x, -z, y), a quarter turn about X: up goes to -Y (normals turned
alike by tools/obj-to-meshbin.py)."""
VERTICES_TO_BONES = BLENDER_TO_BONES @ BLENDER_TO_VERTICES.T
"""A vertex as stored, taken into the bones' space: (x, y, z) -> (x, -z, y), a quarter turn
about X (the vertices' up, -Y, to the bones' up, -Z): the difference the engine's skinning
does not undo."""

BSPHERE_VERSION = 3
"""The first version with a bounding sphere after the bounding box (src/mesh/mesh_manager.cpp)."""

Vec3 = tuple[int, int, int]
Quad = tuple[int, int, int, int]


# The model's fields are fixed-length tuples; JSON and arrays give lists or generators of the
# right length, which these turn into the tuple the field's type names (the lengths are the
# readers' to check: the ksy's for a file, jsonio's for a dump).
def as_vec3(values: Iterable[int]) -> Vec3:
    return cast(Vec3, tuple(values))


def as_quad(values: Iterable[int]) -> Quad:
    return cast(Quad, tuple(values))


def as_pair(values: Iterable[int]) -> tuple[int, int]:
    return cast("tuple[int, int]", tuple(values))


@dataclass
class Vertex:
    """A vertex: model-space position (raw 20.12) and colour (r, g, b bytes)."""

    position: Vec3
    colour: tuple[int, int, int] = NO_COLOUR

    def __post_init__(self) -> None:
        self.position = as_vec3(self.position)
        self.colour = as_vec3(self.colour)


@dataclass
class Face:
    """One quad: the same record of the three index arrays (vertex, normal, uv indices).

    Corners are in the order the PS1 quad primitive takes them (obj-to-meshbin.py turns an
    OBJ face a, b, c, d into a, d, b, c).
    """

    vertices: Quad
    normals: Quad = MISSING_INDEX
    uvs: Quad = MISSING_INDEX

    def __post_init__(self) -> None:
        self.vertices = as_quad(self.vertices)
        self.normals = as_quad(self.normals)
        self.uvs = as_quad(self.uvs)


@dataclass
class Bone:
    """A bone's rest pose relative to its parent.

    ``parent``: index of the parent bone, -1 for a root. ``position``: (x, y, z) raw 20.12.
    ``rotation``: (w, x, y, z) raw FP12.
    """

    parent: int
    position: Vec3
    rotation: Quad = IDENTITY_ROTATION

    def __post_init__(self) -> None:
        self.position = as_vec3(self.position)
        self.rotation = as_quad(self.rotation)


@dataclass
class MeshbinFile:
    """A whole MESHBIN file.

    ``has_skeleton`` is the header byte (version 2 and later): when it is not 0 the file
    carries ``bones`` and one entry of ``vertex_bones`` per vertex; when it is 0 (and always
    for versions 0 and 1) both lists are empty.

    ``bsphere_centre`` / ``bsphere_radius``: the bounding sphere, stored from version 3 on
    (0 for earlier versions).

    ``declared_faces`` / ``declared_bones`` are the header's face and bone counts when they
    differ from ``len(faces)`` / ``len(bones)``, and None otherwise (the usual case). The
    face count sizes nothing; the bone count can differ when it exceeds the 15 records the
    loader reads, or when the skeleton flag is 0.
    """

    vertices: list[Vertex] = field(default_factory=list)
    faces: list[Face] = field(default_factory=list)
    normals: list[Vec3] = field(default_factory=list)
    uvs: list[tuple[int, int]] = field(default_factory=list)
    aabb_min: Vec3 = (0, 0, 0)
    aabb_max: Vec3 = (0, 0, 0)
    bsphere_centre: Vec3 = (0, 0, 0)
    bsphere_radius: int = 0
    has_skeleton: int = 0
    bones: list[Bone] = field(default_factory=list)
    vertex_bones: list[int] = field(default_factory=list)
    version: int = 2
    mesh_type: int = 1
    declared_faces: int | None = None
    declared_bones: int | None = None
    trailing: bytes = b""
    """Bytes after the last field the loader reads; kept for byte exactness."""

    def __post_init__(self) -> None:
        self.normals = [as_vec3(n) for n in self.normals]
        self.uvs = [as_pair(t) for t in self.uvs]
        self.vertex_bones = list(self.vertex_bones)
        self.aabb_min = as_vec3(self.aabb_min)
        self.aabb_max = as_vec3(self.aabb_max)
        self.bsphere_centre = as_vec3(self.bsphere_centre)
        self.trailing = bytes(self.trailing)
        # A declared count equal to the list's length is no extra information: one model
        # value per file.
        if self.declared_faces == len(self.faces):
            self.declared_faces = None
        if self.declared_bones == len(self.bones):
            self.declared_bones = None

    @property
    def num_faces(self) -> int:
        """The header's face count."""
        return len(self.faces) if self.declared_faces is None else self.declared_faces

    @property
    def num_bones(self) -> int:
        """The header's bone count (0 for versions without one)."""
        return len(self.bones) if self.declared_bones is None else self.declared_bones

    @property
    def has_bsphere(self) -> bool:
        """True when the file stores a bounding sphere (version 3 and later)."""
        return self.version >= BSPHERE_VERSION

    @property
    def skeleton_present(self) -> bool:
        """True when the loader reads a bone table and per-vertex bone indices."""
        return self.version > 1 and self.has_skeleton != 0

    def bounds(self) -> tuple[Vec3, Vec3]:
        """(min, max) of the vertex positions, as obj-to-meshbin.py computes the bounding box."""
        if not self.vertices:
            return (0, 0, 0), (0, 0, 0)
        pos = np.array([v.position for v in self.vertices], dtype=np.int64)
        lo, hi = pos.min(axis=0), pos.max(axis=0)
        return (int(lo[0]), int(lo[1]), int(lo[2])), (int(hi[0]), int(hi[1]), int(hi[2]))


def skeleton_from_meshbin(model: MeshbinFile) -> Skeleton:
    """The skeleton of ``model`` (empty when the file has none)."""
    n = len(model.bones)
    parents = np.array([b.parent for b in model.bones], dtype=np.int64).reshape(n)
    trans = np.array([b.position for b in model.bones], dtype=np.float64).reshape(n, 3) / FP12_ONE
    rot = np.array([b.rotation for b in model.bones], dtype=np.float64).reshape(n, 4) / FP12_ONE
    return Skeleton(parents, trans, rot, [f"bone{i}" for i in range(n)])
