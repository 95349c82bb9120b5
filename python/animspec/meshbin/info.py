"""A readable summary of a MESHBIN file (``animspec info``)."""

from __future__ import annotations

from .model import MeshbinFile


def summary(model: MeshbinFile) -> str:
    """A readable summary (``animspec info``)."""
    m = model
    lines = [
        f"MESHBIN version {m.version}, type {m.mesh_type}: {len(m.vertices)} vertices, "
        f"{len(m.faces)} quads (header face count {m.num_faces}), {len(m.normals)} normals, "
        f"{len(m.uvs)} texture coordinates",
        f"  bounding box {m.aabb_min} .. {m.aabb_max}",
    ]
    if m.has_bsphere:
        lines.append(f"  bounding sphere centre {m.bsphere_centre}, radius {m.bsphere_radius}")
    if m.skeleton_present:
        lines.append(f"  skeleton: {len(m.bones)} bone(s) (header says {m.num_bones})")
        for i, b in enumerate(m.bones):
            used = sum(1 for vb in m.vertex_bones if vb == i)
            lines.append(
                f"    [{i}] parent {b.parent:>2}  position {b.position}  rotation {b.rotation}  "
                f"{used} vertex(es)"
            )
    else:
        lines.append("  no skeleton")
    if m.trailing:
        lines.append(f"  {len(m.trailing)} trailing byte(s)")
    return "\n".join(lines)
