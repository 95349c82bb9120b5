"""Build examples/pendulum.meshbin with animspec's own MESHBIN writer.

Run ``python examples/make_meshbin_example.py`` to regenerate it; the tests check that the
committed file equals what this script makes.

pendulum.meshbin
    The skeleton that examples/swing.animbin animates (ANIMBIN joints 0..3): a four-bone
    chain root -> upper -> lower -> tip hanging from the origin. The console's model space
    is the engine exporter's: Blender's Z-up armature space through diag(1, -1, -1), so
    "below" is +Z: each child sits 64 units (raw 20.12 values, the units the vertices use;
    obj-to-meshbin.py puts 128 of them in a Blender metre) below its parent, with identity
    rest rotations. The mesh is one box per bone, rigidly skinned (every vertex follows the
    bone of its box): three 12 x 12 x 64 rods for root, upper and lower, and a 32 x 32 x 32
    bob for the tip. 32 vertices, 24 quads, 6 unit normals in FP12 (4096 = 1.0),
    4 texture coordinates, version 2 with a skeleton.
"""

from __future__ import annotations

import sys
from pathlib import Path

from animspec.common.atomic import write_atomic
from animspec.meshbin import FP12_ONE, Bone, Face, MeshbinFile, Vertex, read_bytes, write_bytes

HERE = Path(__file__).resolve().parent
NAME = "pendulum.meshbin"

SEGMENT = 64
"""Distance from each bone to its child, along +Z (down in the console's model space)."""

# (bone name, half width in X and Y, height) of the box hanging from each bone's joint.
BOXES = [("root", 6, SEGMENT), ("upper", 6, SEGMENT), ("lower", 6, SEGMENT), ("tip", 16, 32)]
COLOURS = [(128, 64, 64), (64, 128, 64), (64, 64, 128), (128, 128, 64)]

# Outward normal of each box side, and two tangent axes (u, v) with u x v = normal, so that
# the corners -u-v, +u-v, +u+v, -u+v run counter-clockwise seen from outside, as OBJ faces do.
_X, _Y, _Z = (1, 0, 0), (0, 1, 0), (0, 0, 1)
_SIDES = [
    ((1, 0, 0), _Y, _Z), ((-1, 0, 0), _Z, _Y),
    ((0, 1, 0), _Z, _X), ((0, -1, 0), _X, _Z),
    ((0, 0, 1), _X, _Y), ((0, 0, -1), _Y, _X),
]
UVS = [(0, 0), (31, 0), (31, 31), (0, 31)]


def _ps1_order(quad: list[int]) -> tuple[int, int, int, int]:
    """OBJ's counter-clockwise a, b, c, d in the order obj-to-meshbin.py stores: a, d, b, c."""
    a, b, c, d = quad
    return (a, d, b, c)


def pendulum() -> MeshbinFile:
    vertices: list[Vertex] = []
    faces: list[Face] = []
    vertex_bones: list[int] = []
    normals = [tuple(FP12_ONE * c for c in n) for n, _, _ in _SIDES]
    for bone, (_, half, height) in enumerate(BOXES):
        top = bone * SEGMENT  # the bone's joint, in model space
        base = len(vertices)
        index: dict[tuple[int, int, int], int] = {}
        for sx in (-1, 1):
            for sy in (-1, 1):
                for sz in (-1, 1):
                    index[(sx, sy, sz)] = len(vertices)
                    z = top if sz < 0 else top + height
                    vertices.append(Vertex((sx * half, sy * half, z), COLOURS[bone]))
                    vertex_bones.append(bone)
        assert len(vertices) == base + 8
        for side, (n, u, v) in enumerate(_SIDES):
            corners = []
            for cu, cv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                signs = tuple(n[k] + cu * u[k] + cv * v[k] for k in range(3))
                corners.append(index[signs])  # type: ignore[index]
            faces.append(Face(_ps1_order(corners), (side,) * 4, _ps1_order([0, 1, 2, 3])))
    bones = [
        Bone(parent=bone - 1, position=(0, 0, SEGMENT if bone else 0))
        for bone in range(len(BOXES))
    ]
    model = MeshbinFile(
        vertices=vertices,
        faces=faces,
        normals=normals,  # type: ignore[arg-type]
        uvs=UVS,
        has_skeleton=1,
        bones=bones,
        vertex_bones=vertex_bones,
    )
    model.aabb_min, model.aabb_max = model.bounds()
    return model


def examples() -> dict[str, bytes]:
    return {NAME: write_bytes(pendulum())}


def _verify(data: bytes) -> None:
    if write_bytes(read_bytes(data)) != data:
        raise ValueError("the written file does not read back to the same bytes")


def main() -> int:
    for name, data in examples().items():
        write_atomic(HERE / name, data, verify=_verify)
        print(f"examples/{name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
