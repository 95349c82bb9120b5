"""MESHBIN model <-> JSON document (``animspec dump --json`` and ``animspec pack``).

Raw integer values, so ``pack(dump(f))`` gives back ``f`` byte for byte.
"""

from __future__ import annotations

from typing import Any

from ..common.jsonpath import JsonNode, json_path_of
from .model import Bone, Face, MeshbinFile, Vertex, as_pair, as_quad, as_vec3

FORMAT = "meshbin"

_I = r"\[(\d+)\]"
_CORNER = r"\.i([0-3])"
_JSON_PATHS = [
    (r"num_vertices", "$.vertices"), (r"num_indices", "$.faces"), (r"num_faces", "$.declared_faces"),
    (r"num_normals", "$.normals"), (r"num_uvs", "$.uvs"), (r"num_bones", "$.declared_bones"),
    (rf"vertex_indices{_I}{_CORNER}", r"$.faces[\1].vertices[\2]"),
    (rf"normal_indices{_I}{_CORNER}", r"$.faces[\1].normals[\2]"),
    (rf"uv_indices{_I}{_CORNER}", r"$.faces[\1].uvs[\2]"),
    (rf"bone_for_vertex{_I}", r"$.vertex_bones[\1]"),
    (r"bone_for_vertex", "$.vertex_bones"),
] + [
    (rf"{writer}\.{axis}", rf"$.{dump}[{i}]")
    for writer, dump, axes in (
        (rf"vertices{_I}", r"vertices[\1].position", "xyz"), (rf"vertex_colours{_I}", r"vertices[\1].colour", "rgb"),
        (rf"normals{_I}", r"normals[\1]", "xyz"), (rf"uvs{_I}", r"uvs[\1]", "uv"),
        (rf"bones{_I}\.position", r"bones[\1].position", "xyz"),
        (rf"bones{_I}\.rotation", r"bones[\1].rotation", "wxyz"),
        (r"(aabb_min|aabb_max|bsphere_centre)", r"\1", "xyz"),
    )
    for i, axis in enumerate(axes)
]
"""Writer field -> dump path, where the two differ (the rest are the same below ``$``)."""


def json_path(field: str, doc: Any = None) -> str:
    """The JSON path, in a dump, of the value the writer names ``field``."""
    return json_path_of(field, _JSON_PATHS)


def to_json(model: MeshbinFile) -> dict[str, Any]:
    """A JSON document of raw values; ``from_json(to_json(m)) == m``."""
    m = model
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": m.version,
        "mesh_type": m.mesh_type,
        "vertices": [{"position": list(v.position), "colour": list(v.colour)} for v in m.vertices],
        "faces": [
            {"vertices": list(f.vertices), "normals": list(f.normals), "uvs": list(f.uvs)} for f in m.faces
        ],
        "normals": [list(n) for n in m.normals],
        "uvs": [list(t) for t in m.uvs],
        "aabb_min": list(m.aabb_min),
        "aabb_max": list(m.aabb_max),
    }
    if m.has_bsphere:
        doc["bsphere_centre"] = list(m.bsphere_centre)
        doc["bsphere_radius"] = m.bsphere_radius
    if m.version > 1:
        doc["has_skeleton"] = m.has_skeleton
    if m.declared_faces is not None:
        doc["declared_faces"] = m.declared_faces
    if m.declared_bones is not None:
        doc["declared_bones"] = m.declared_bones
    if m.bones or m.vertex_bones:
        doc["bones"] = [
            {"parent": b.parent, "position": list(b.position), "rotation": list(b.rotation)} for b in m.bones
        ]
        doc["vertex_bones"] = list(m.vertex_bones)
    if m.trailing:
        doc["trailing"] = m.trailing.hex()
    return doc


def from_json(doc: Any, source: str | None = None) -> MeshbinFile:
    """The model a dump describes; raises JsonInputError with the JSON path of a bad value."""
    root = JsonNode(doc, "$", source)
    if root["format"].str() != FORMAT:
        raise root["format"].error(f'expected "{FORMAT}"')

    def opt_int(key: str) -> int | None:
        return root[key].int() if root.has(key) else None

    return MeshbinFile(
        version=root["version"].int(),
        mesh_type=root["mesh_type"].int(),
        vertices=[
            Vertex(as_vec3(v["position"].ints(3)), as_vec3(v["colour"].ints(3)))
            for v in root["vertices"].items()
        ],
        faces=[
            Face(as_quad(f["vertices"].ints(4)), as_quad(f["normals"].ints(4)), as_quad(f["uvs"].ints(4)))
            for f in root["faces"].items()
        ],
        normals=[as_vec3(n.ints(3)) for n in root["normals"].items()],
        uvs=[as_pair(t.ints(2)) for t in root["uvs"].items()],
        aabb_min=as_vec3(root["aabb_min"].ints(3)),
        aabb_max=as_vec3(root["aabb_max"].ints(3)),
        bsphere_centre=as_vec3(root["bsphere_centre"].ints(3)) if root.has("bsphere_centre") else (0, 0, 0),
        bsphere_radius=root["bsphere_radius"].int() if root.has("bsphere_radius") else 0,
        has_skeleton=root["has_skeleton"].int() if root.has("has_skeleton") else 0,
        bones=[
            Bone(b["parent"].int(), as_vec3(b["position"].ints(3)), as_quad(b["rotation"].ints(4)))
            for b in (root["bones"].items() if root.has("bones") else [])
        ],
        vertex_bones=[n.int() for n in root["vertex_bones"].items()] if root.has("vertex_bones") else [],
        declared_faces=opt_int("declared_faces"),
        declared_bones=opt_int("declared_bones"),
        trailing=root["trailing"].hex_bytes() if root.has("trailing") else b"",
    )
