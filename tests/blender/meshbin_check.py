"""The add-on's MESHBIN export, driven headless (run by tests/test_blender_meshbin.py in the
bpy interpreter with this worktree's python/ and blender/ on the path).

Usage: python meshbin_check.py OUT_DIR

For each model of meshbin_scenes.py: rebuild the scene, export with
:func:`animspec_blender.meshbin_export.export_meshbin` (the function) and with File > Export >
MESHBIN (the operator), writing OUT_DIR/<model>.meshbin and OUT_DIR/<model>.op.meshbin. Then
the refusals: meshes the engine cannot take, exported through the operator, with what it
reported and whether a file was written. Then the ANIMBIN export's joint-order warning.
Results in OUT_DIR/results.json.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import bpy
from mathutils import Euler, Vector

sys.path.insert(0, str(Path(__file__).resolve().parent))
import meshbin_scenes  # noqa: E402

import animspec_blender  # noqa: E402
from animspec_blender.meshbin_export import export_meshbin  # noqa: E402
from animspec_blender.rig import MESHBIN_BONES_PROPERTY, order_mismatch  # noqa: E402

REPORTS: list[tuple[str, str]] = []


def _capture_reports() -> None:
    original = animspec_blender.say

    def say(operator, level, text):
        REPORTS.append((level, text))
        original(operator, level, text)

    animspec_blender.say = say


def run_operator(path: Path, **options) -> dict:
    REPORTS.clear()
    try:
        result = bpy.ops.animspec.export_meshbin(filepath=str(path), **options)
    except RuntimeError as exc:  # an operator that reports ERROR raises in background mode
        result = {"RUNTIME_ERROR": str(exc)}
    return {"result": sorted(result), "reports": list(REPORTS), "written": path.exists()}


def refusal_cases(out: Path) -> dict:
    cases = {}

    def fresh(model="column"):
        return meshbin_scenes.build(model)

    # A pentagon (an n-gon) added to the column.
    mesh, arm = fresh()
    me = mesh.data
    import bmesh

    bm = bmesh.new()
    bm.from_mesh(me)
    group = bm.verts.layers.deform.verify()
    ring = [bm.verts.new((0.3 * math.cos(a), 0.3 * math.sin(a), 3.5)) for a in [2 * math.pi * k / 5 for k in range(5)]]
    for v in ring:
        v[group][mesh.vertex_groups["top"].index] = 1.0
    bm.faces.new(ring)
    bm.to_mesh(me)
    bm.free()
    cases["ngon"] = run_operator(out / "ngon.meshbin")

    # Vertices in no group.
    mesh, arm = fresh()
    mesh.vertex_groups["top"].remove([v.index for v in mesh.data.vertices if v.co.z > 2.9])
    cases["unweighted"] = run_operator(out / "unweighted.meshbin")

    # UVs past the texture.
    mesh, arm = fresh()
    for loop in mesh.data.uv_layers.active.data[:4]:
        loop.uv = (1.6, 0.5)
    cases["uv_range"] = run_operator(out / "uv_range.meshbin")
    cases["uv_range_small_texture"] = run_operator(out / "uv_range_small.meshbin", texture_size=128)

    # A vertex 300 Blender units away.
    mesh, arm = fresh()
    mesh.data.vertices[0].co = Vector((300.0, 0.0, 0.0))
    cases["vertex_range"] = run_operator(out / "vertex_range.meshbin")

    # 1000 faces: a grid of quads.
    meshbin_scenes.clear()
    bpy.ops.mesh.primitive_grid_add(x_subdivisions=41, y_subdivisions=26, size=2.0)
    grid = bpy.context.active_object
    cases["faces"] = {"polygons": len(grid.data.polygons), **run_operator(out / "faces.meshbin")}

    # 16 deform bones.
    mesh, arm = fresh()
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    for k in range(13):
        eb = arm.data.edit_bones.new(f"extra{k}")
        eb.head, eb.tail = Vector((1.0, 0.0, 0.1 * k)), Vector((1.0, 0.0, 0.1 * k + 0.1))
        eb.parent = arm.data.edit_bones["base"]
    bpy.ops.object.mode_set(mode="OBJECT")
    bpy.context.view_layer.objects.active = mesh
    cases["bones"] = {"deform_bones": sum(b.use_deform for b in arm.data.bones), **run_operator(out / "bones.meshbin")}
    return cases


def joint_order_cases(out: Path) -> dict:
    """The ANIMBIN side: which joint orders are flagged as not matching the MESHBIN."""
    mesh, arm = meshbin_scenes.build("critter")
    deform = [b.name for b in arm.data.bones if b.use_deform]
    before_export = order_mismatch(arm, deform)
    reordered = [deform[0], deform[1], deform[4], deform[3], deform[2], deform[5]]
    before_export_reordered = order_mismatch(arm, reordered)
    result = run_operator(out / "critter.order.meshbin")
    saved = [str(n) for n in arm.get(MESHBIN_BONES_PROPERTY, [])]
    after_export_same = order_mismatch(arm, deform)
    after_export_reordered = order_mismatch(arm, reordered)
    # The MESHBIN exported with a names file: the ANIMBIN's deform order now differs.
    names = out / "names.txt"
    names.write_text("\n".join(reordered) + "\n")
    bpy.context.view_layer.objects.active = mesh
    by_file = run_operator(out / "critter.file.meshbin", joint_order="file", joint_names=str(names), overwrite=True)
    return {
        "deform": deform, "reordered": reordered,
        "before_export": before_export, "before_export_reordered": before_export_reordered,
        "export": result, "saved": saved,
        "after_export_same": after_export_same, "after_export_reordered": after_export_reordered,
        "by_file": by_file, "saved_by_file": [str(n) for n in arm.get(MESHBIN_BONES_PROPERTY, [])],
        "after_file_export_deform": order_mismatch(arm, deform),
    }


class RecordingLayout:
    """Stands in for ``self.layout`` while the operator's draw() runs: records what it draws."""

    def __init__(self, drawn: list[str]) -> None:
        self.drawn = drawn

    def prop(self, _owner, name: str, **_options) -> None:
        self.drawn.append(name)


def export_panel() -> dict:
    """What the MESHBIN Export panel draws (with a names file chosen), each property's label
    and choices as Blender has them registered."""
    from types import SimpleNamespace

    drawn: list[str] = []
    panel = SimpleNamespace(joint_order="file", layout=RecordingLayout(drawn))
    animspec_blender.ANIMSPEC_OT_export_meshbin.draw(panel, bpy.context)
    rna = bpy.ops.animspec.export_meshbin.get_rna_type()
    labels = {}
    for name in drawn:
        prop = rna.properties[name]
        labels[name] = {"label": prop.name,
                        "choices": [item.name for item in prop.enum_items] if prop.type == "ENUM" else []}
    return {"drawn": drawn, "labels": labels}


def non_deform_parent(out: Path) -> dict:
    """A deform bone under a bone that does not deform: the engine's exporter stops there
    (its parent is not in its bone map); the add-on parents it to the nearest exported bone."""
    mesh, arm = meshbin_scenes.build("column")
    arm.data.bones["mid"].use_deform = False
    mid = mesh.vertex_groups["mid"]
    ids = [v.index for v in mesh.data.vertices if any(g.group == mid.index for g in v.groups)]
    mesh.vertex_groups.remove(mid)
    mesh.vertex_groups["base"].add(ids, 1.0, "REPLACE")
    case = run_operator(out / "non_deform_parent.meshbin")
    return {**case, "saved": [str(n) for n in arm.get(MESHBIN_BONES_PROPERTY, [])]}


def animbin_warning(out: Path) -> dict:
    """Export ANIMBIN itself (the function under File > Export > ANIMBIN) on the critter rig
    with an action: its warnings with the MESHBIN's order and with another."""
    from animspec_blender.exporter import export_animbin

    mesh, arm = meshbin_scenes.build("critter")
    arm.animation_data_create()
    action = bpy.data.actions.new("nod")
    arm.animation_data.action = action
    pb = arm.pose.bones["head"]
    for frame, angle in ((0, 0.0), (5, 20.0), (10, 0.0)):
        pb.rotation_quaternion = Euler((math.radians(angle), 0.0, 0.0)).to_quaternion()
        pb.keyframe_insert("rotation_quaternion", frame=frame)
    deform = [b.name for b in arm.data.bones if b.use_deform]
    reordered = [deform[0], deform[1], deform[4], deform[3], deform[2], deform[5]]
    bpy.context.view_layer.objects.active = mesh
    run_operator(out / "critter.anim.meshbin", overwrite=True)
    same = export_animbin(arm, joint_names=deform).warnings
    other = export_animbin(arm, joint_names=reordered).warnings
    return {"same": same, "other": other}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    animspec_blender.register()
    _capture_reports()
    results: dict = {"blender": bpy.app.version_string, "models": {}}
    for model in meshbin_scenes.MODELS:
        mesh, arm = meshbin_scenes.build(model)
        size = meshbin_scenes.TEXTURE_SIZE[model]
        exported = export_meshbin(mesh, texture_size=size)
        (out / f"{model}.meshbin").write_bytes(exported.data)
        op = run_operator(out / f"{model}.op.meshbin", texture_size=size)
        results["models"][model] = {
            "lines": exported.lines, "warnings": exported.warnings,
            "findings": [f"{f.severity.value} {f.code}: {f.message}" for f in exported.findings],
            "operator": op,
        }
    results["refusals"] = refusal_cases(out)
    results["joint_order"] = joint_order_cases(out)
    results["non_deform_parent"] = non_deform_parent(out)
    results["animbin_warning"] = animbin_warning(out)
    results["export_panel"] = export_panel()
    (out / "results.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
