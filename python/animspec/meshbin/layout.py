"""MESHBIN's byte layout in Python, written once: the records of ksy/meshbin.ksy.

The bulk reader (:mod:`.fastread`) reads every table with a numpy dtype made from these
records (:meth:`Record.numpy_dtype`) and the writer (:mod:`.write`) packs the same records, so an order
or a width can only be wrong in both at once, and tests/test_layouts.py then catches it:
it parses records packed from this module with the generated parser's types and compares
every field, offset and size, and the magic. As for ANIMBIN (animbin/layout.py), the values
are stated here and checked by the tests rather than read from the debug-mode generated
classes at run time.
"""

from __future__ import annotations

from ..common.fieldwriter import S1, S2, S4, U1, U4, Record

MAGIC = b"MESHBIN"

HEADER = Record(
    "meshbin", ("version", U1), ("mesh_type", U1), ("num_vertices", U4), ("num_indices", U4),
    ("num_faces", U4), ("num_normals", U4), ("num_uvs", U4),
)
"""After the magic."""

SKELETON_HEADER = Record("meshbin", ("has_skeleton", U1), ("num_bones_declared", U1))
"""After :data:`HEADER`, only when version > 1."""

VEC3_S4 = Record("vec3_s4", ("x", S4), ("y", S4), ("z", S4))
COLOUR = Record("colour_rgb", ("r", U1), ("g", U1), ("b", U1))
QUAD = Record("index_quad", ("i0", S2), ("i1", S2), ("i2", S2), ("i3", S2))
VEC3_S2 = Record("vec3_s2", ("x", S2), ("y", S2), ("z", S2))
UV = Record("uv", ("u", U1), ("v", U1))
QUATERNION = Record("quaternion_fp12", ("w", S2), ("x", S2), ("y", S2), ("z", S2))
BONE = Record("bone", ("parent", S1), ("position", VEC3_S4), ("rotation", QUATERNION))
"""21 bytes, packed (the engine's in-memory struct is padded; the file is not)."""
