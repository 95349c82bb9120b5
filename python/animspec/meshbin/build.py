"""A MESHBIN model from mesh data arrays and a skeleton: what the engine's two-step pipeline
(its Blender OBJ+skeleton exporter, then ``obj-to-meshbin.py``) makes of the same model.

Facts from Forceh91/psyqo-madnight-engine ``tools/blender_obj_skeleton_exporter.py`` and
``tools/obj-to-meshbin.py`` (restated, not copied):

* every number goes through the OBJ text with six decimals (``%.6f``), then is scaled and
  truncated toward zero: positions, the bounding box and sphere and bone translations by
  128 per Blender unit, bone rotations by 4096 (FP12), UVs by the texture size minus one
  texel (negative results become 0);
* a quad a, b, c, d is stored as a, d, b, c; a triangle a, b, c as a, -1, b, c (the renderer
  draws a triangle when the second corner is -1); the OBJ has no normals, so every normal
  index is -1; a face's UV indices are its corners' loop indices;
* a vertex colour channel c becomes int(c * 128), or 128 when c < 0.1; a mesh without a
  colour layer is 128, 128, 128 everywhere;
* the file is version 3 (bounding sphere), type 1.

Where the pipeline writes a file the engine misreads or crashes, this module refuses
instead, with an error that carries the facts (the Blender add-on words them in the
panel's terms): faces of five or more corners (the converter skips the record but counts
the face, so the renderer draws past the index arrays), vertices in no bone's group (the
converter's ``struct.pack`` fails), values a field cannot hold. Everything else the engine
cannot take is for :func:`.validate.validate`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..common.errors import AnimspecError
from ..fixed_point import FP12_ONE
from .model import BSPHERE_VERSION, MISSING_INDEX, Bone, Face, MeshbinFile, Vertex, as_quad, as_vec3

ENGINE_UNITS_PER_METRE = 128
"""obj-to-meshbin.py's ONE_ENGINE_METRE: Blender units -> raw position units."""

OBJ_DECIMALS = 6
"""The Blender exporter writes every float with ``%.6f``."""

DEFAULT_COLOUR = (128, 128, 128)
"""What the pipeline writes for a vertex without a colour (and for a channel under 0.1)."""

COLOUR_FLOOR = 0.1
MAX_TEXTURE_SIZE = 256
"""A UV is one byte per axis (psyqo UVCoords), so texels 0..255."""


def obj_number(value: float) -> float:
    """``value`` as the OBJ text holds it (six decimals) and the converter reads it back."""
    return float(f"{value:.{OBJ_DECIMALS}f}")


def engine_units(value: float) -> int:
    """A length in Blender units as the pipeline stores it: OBJ text, * 128, truncated."""
    return int(obj_number(value) * ENGINE_UNITS_PER_METRE)


def fp12_truncated(value: float) -> int:
    """A rotation component as the pipeline stores it: OBJ text, * 4096, truncated."""
    return int(obj_number(value) * FP12_ONE)


def colour_byte(channel: float) -> int:
    """One vertex colour channel (Blender's float) as the pipeline stores it."""
    return int(channel * 128) if channel >= COLOUR_FLOOR else 128


def texel(coordinate: float, texture_size: int) -> int:
    """One UV coordinate in texels, as the converter computes it."""
    return max(0, int(obj_number(coordinate) * texture_size) - 1)


@dataclass
class MeshArrays:
    """One mesh as the engine's exporter sees it, in the console's axes, in Blender units.

    ``positions``: per vertex (x, y, z). ``faces``: per face, its corners' vertex indices;
    corner ``k`` of face ``f`` is loop ``face_loops[f] + k`` (Blender's loop order).
    ``uvs``: per loop (u, v), or None without a UV map. ``colours``: per vertex (r, g, b)
    floats, or None without a colour layer. ``vertex_bones``: per vertex, the index in the
    skeleton of the bone whose group weighs most on it, -1 for none (None: no skeleton).
    """

    positions: Sequence[Sequence[float]]
    faces: Sequence[Sequence[int]]
    face_loops: Sequence[int]
    uvs: Sequence[Sequence[float]] | None = None
    colours: Sequence[Sequence[float]] | None = None
    vertex_bones: Sequence[int] | None = None
    name: str = ""


@dataclass
class SkeletonBone:
    """A bone's rest relative to its parent, as the exporter computes it: ``translation``
    (x, y, z) in Blender units in the console's axes, ``rotation`` (w, x, y, z)."""

    name: str
    parent: int
    translation: Sequence[float]
    rotation: Sequence[float]


@dataclass
class BoundingSphere:
    centre: Sequence[float]
    radius: float


class MeshbinBuildError(AnimspecError):
    """Something in the mesh that the engine's pipeline cannot store; ``kind`` says what,
    ``items`` which (face, vertex, bone or loop indices), ``limit`` the bound broken."""

    def __init__(self, kind: str, message: str, items: Sequence = (), limit: float | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.items = list(items)
        self.limit = limit


def bounding_sphere(positions: Sequence[Sequence[float]]) -> BoundingSphere:
    """The exporter's sphere: centre the mean of the vertices, radius the farthest vertex.
    (The Blender add-on computes it with Blender's own float32 vectors instead, as the
    exporter does, so the sixth decimal agrees.)"""
    n = len(positions)
    centre = [sum(p[axis] for p in positions) / n for axis in range(3)] if n else [0.0, 0.0, 0.0]
    radius = max((math.dist(p, centre) for p in positions), default=0.0)
    return BoundingSphere(centre, radius)


def build_meshbin(
    mesh: MeshArrays,
    bones: Sequence[SkeletonBone] | None = None,
    *,
    texture_size: int = 256,
    sphere: BoundingSphere | None = None,
) -> MeshbinFile:
    """The MESHBIN model the engine's pipeline writes for ``mesh`` (and its skeleton)."""
    if not 1 <= texture_size <= MAX_TEXTURE_SIZE:
        raise MeshbinBuildError("texture-size", f"texture size {texture_size}: must be 1..{MAX_TEXTURE_SIZE}",
                                limit=MAX_TEXTURE_SIZE)
    if not mesh.positions:
        raise MeshbinBuildError("no-vertices", f"mesh {mesh.name!r} has no vertices")
    bad = [i for i, p in enumerate(mesh.positions) if not all(math.isfinite(c) for c in p)]
    if bad:
        raise MeshbinBuildError("non-finite", f"vertices {bad[:10]} are not finite", bad)
    vertices = []
    for i, p in enumerate(mesh.positions):
        colour = DEFAULT_COLOUR if mesh.colours is None else as_vec3(colour_byte(c) for c in mesh.colours[i][:3])
        vertices.append(Vertex(as_vec3(engine_units(c) for c in p), colour))
    too_bright = [i for i, v in enumerate(vertices) if max(v.colour) > 255]
    if too_bright:
        raise MeshbinBuildError("colour-range", f"vertices {too_bright[:10]} have a colour channel of 2.0 or more "
                                "(stored as channel * 128 in one byte)", too_bright, 2.0)

    ngons = [f for f, corners in enumerate(mesh.faces) if len(corners) not in (3, 4)]
    if ngons:
        raise MeshbinBuildError("ngon", f"faces {ngons[:10]} have {len(mesh.faces[ngons[0]])} corners; the engine "
                                "draws quads and triangles only", ngons, 4)
    faces = []
    for f, corners in enumerate(mesh.faces):
        loops = [mesh.face_loops[f] + k for k in range(len(corners))]
        if len(corners) == 4:
            order = (0, 3, 1, 2)
            faces.append(Face(as_quad(corners[k] for k in order), MISSING_INDEX, as_quad(loops[k] for k in order)))
        else:
            faces.append(Face((corners[0], -1, corners[1], corners[2]), MISSING_INDEX,
                              (loops[0], -1, loops[1], loops[2])))

    uvs = []
    if mesh.uvs is not None:
        for u, v in mesh.uvs:
            uvs.append((texel(u, texture_size), texel(v, texture_size)))
        wide = [loop for loop, t in enumerate(uvs) if max(t) > MAX_TEXTURE_SIZE - 1]
        if wide:
            raise MeshbinBuildError(
                "uv-range", f"UVs of loops {wide[:10]} land past texel {MAX_TEXTURE_SIZE - 1} at texture size "
                f"{texture_size} (one byte per axis)", wide, MAX_TEXTURE_SIZE - 1,
            )

    sphere = sphere or bounding_sphere(mesh.positions)
    model = MeshbinFile(
        vertices=vertices, faces=faces, normals=[], uvs=uvs, version=BSPHERE_VERSION, mesh_type=1,
        bsphere_centre=as_vec3(engine_units(c) for c in sphere.centre),
        bsphere_radius=engine_units(sphere.radius),
    )
    model.aabb_min, model.aabb_max = model.bounds()
    if bones is not None:
        if mesh.vertex_bones is None or len(mesh.vertex_bones) != len(vertices):
            raise MeshbinBuildError("vertex-bones", "one bone per vertex is needed with a skeleton")
        loose = [i for i, b in enumerate(mesh.vertex_bones) if not 0 <= b < len(bones)]
        if loose:
            raise MeshbinBuildError("unweighted", f"vertices {loose[:10]} follow no exported bone", loose)
        model.has_skeleton = 1
        model.bones = [
            Bone(b.parent, as_vec3(engine_units(c) for c in b.translation),
                 as_quad(fp12_truncated(c) for c in b.rotation))
            for b in bones
        ]
        model.vertex_bones = list(mesh.vertex_bones)
        model.declared_bones = len(bones)
        model.__post_init__()
    return model
