"""Run by tests/test_blender_animclip.py in the bpy interpreter (the worktree's python/ and
blender/ on PYTHONPATH); not a test module itself.

    python tests/blender/animclip_check.py OUT_DIR

The add-on's .animclip import and export, headless, on the rig the Luna-made fixtures were made
on (tests/fixtures/luna: its bones have non-identity rest rotations, rolls, a bone along X),
built here from each fixture's ``joints`` table. Records what Blender shows after each import
(per frame: the pose-bone channels, the clip-local transforms rebuilt from rest matrices and
channels, the armature object's motion), exports (a hand-keyed action with translation and
scale keys; an imported clip with its fixture as template) and the operators' messages; the
test module compares them with the fixtures' JSON and with animspec's decoder. Writes
OUT_DIR/animclip.json and the exported clips.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import bpy
from mathutils import Matrix, Quaternion

ROOT = Path(__file__).resolve().parents[2]
LUNA = ROOT / "tests" / "fixtures" / "luna"

import animspec_blender  # noqa: E402
from animspec_blender.animclip_anim import export_animclip, import_animclip, write_animclip  # noqa: E402

# Blender's Z-up armature space to the engine's Y-up joint space, written out again here (not
# taken from the add-on) so that the check does not share the code it checks.
ENGINE_FROM_BLENDER = Matrix(((1, 0, 0, 0), (0, 0, 1, 0), (0, -1, 0, 0), (0, 0, 0, 1)))

MESSAGES: list[dict] = []
CASE = ["start"]


def recording_say(operator, level: str, text: str) -> None:
    MESSAGES.append({"case": CASE[0], "level": level, "text": text})
    ORIGINAL_SAY(operator, level, text)


ORIGINAL_SAY = animspec_blender.say
animspec_blender.say = recording_say


REGISTERED = [False]


def fresh() -> None:
    if REGISTERED[0]:
        animspec_blender.unregister()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    animspec_blender.register()
    REGISTERED[0] = True


def build_rig(joints: list[dict], name: str = "rig") -> bpy.types.Object:
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    for joint in joints:
        eb = data.edit_bones.new(joint["name"])
        eb.head, eb.tail, eb.roll = joint["head"], joint["tail"], joint["roll"]
        if joint["parent"] >= 0:
            eb.parent = data.edit_bones[joints[joint["parent"]]["name"]]
            eb.use_connect = False
    bpy.ops.object.mode_set(mode="OBJECT")
    return obj


def _q(q: Quaternion) -> list[float]:
    return [q.x, q.y, q.z, q.w]


def shown(rig: bpy.types.Object, names: list[str], frames: list[int]) -> dict:
    """Per frame and bone: channels (Blender's basis) and the clip-local transform rebuilt from
    the rest matrices (a root: the Y-up turn times rest times basis; a child: parent rest
    inverse times rest times basis); the armature object's matrix."""
    rest = {b.name: b.matrix_local.copy() for b in rig.data.bones}
    out = {"location": [], "rotation_wxyz": [], "scale": [],
           "translation": [], "rotation_xyzw": [], "local_scale": [], "object": []}
    for f in frames:
        bpy.context.scene.frame_set(f)
        rows = {k: [] for k in out if k != "object"}
        for name in names:
            pb = rig.pose.bones[name]
            rows["location"].append(list(pb.location))
            rows["rotation_wxyz"].append(list(pb.rotation_quaternion))
            rows["scale"].append(list(pb.scale))
            bone = rig.data.bones[name]
            if bone.parent is None:
                local = ENGINE_FROM_BLENDER @ rest[name] @ pb.matrix_basis
            else:
                local = rest[bone.parent.name].inverted() @ rest[name] @ pb.matrix_basis
            t, q, s = local.decompose()
            rows["translation"].append(list(t))
            rows["rotation_xyzw"].append(_q(q))
            rows["local_scale"].append(list(s))
        for k, v in rows.items():
            out[k].append(v)
        out["object"].append([list(r) for r in rig.matrix_world])
    return out


def engine_motion(objects: list[list[list[float]]]) -> dict:
    """The object's transform per frame in engine space relative to frame 0 (how the clip and
    the fixtures' ``engine_relative_to_frame_0`` hold root motion)."""
    mats = [Matrix(m) for m in objects]
    first = (ENGINE_FROM_BLENDER @ mats[0] @ ENGINE_FROM_BLENDER.inverted()).inverted()
    out = {"translation": [], "rotation_xyzw": []}
    for m in mats:
        t, q, _ = (first @ ENGINE_FROM_BLENDER @ m @ ENGINE_FROM_BLENDER.inverted()).decompose()
        out["translation"].append(list(t))
        out["rotation_xyzw"].append(_q(q))
    return out


def armature_poses(rig: bpy.types.Object, names: list[str], frames: list[int]) -> list:
    """Per frame and bone, the bone's posed matrix in armature space (``pose_bone.matrix``, 4 x 4):
    what the viewport shows, the reference the object-space error is measured against."""
    out = []
    for f in frames:
        bpy.context.scene.frame_set(f)
        out.append([[list(row) for row in rig.pose.bones[n].matrix] for n in names])
    return out


def parents_of(rig: bpy.types.Object, names: list[str]) -> list[int]:
    return [names.index(rig.data.bones[n].parent.name) if rig.data.bones[n].parent else -1 for n in names]


REPORT = re.compile(r"object space: max (?P<max>.+?) \(bone '(?P<bone>[^']+)' at frame (?P<frame>-?\d+)\), "
                    r"99th percentile (?P<p99>.+?), at 'Shell Distance' (?P<shell>.+?); (?P<bytes>[\d,]+) bytes")
"""The export's first report line, read as a person reads it."""


def read_report(case: str) -> dict | None:
    """The object-space figures the operator reported for ``case``, each length read back in metres
    by Blender's own unit parser (:func:`bpy.utils.units.to_value`, the scene's unit system)."""
    system = bpy.context.scene.unit_settings.system
    for m in MESSAGES:
        found = REPORT.search(m["text"]) if m["case"] == case and m["level"] == "INFO" else None
        if found:
            def metres(text: str) -> float:
                return bpy.utils.units.to_value(system, "LENGTH", text)

            last = [n for n in MESSAGES if n["case"] == case][-1]
            return {"text": m["text"], "last": last["text"], "max_text": found["max"], "max": metres(found["max"]), "p99": metres(found["p99"]),
                    "shell": metres(found["shell"]), "bone": found["bone"], "frame": int(found["frame"]),
                    "bytes": int(found["bytes"].replace(",", ""))}
    return None


def call(case: str, op, **kwargs) -> list[str]:
    CASE[0] = case
    try:
        return sorted(op(**kwargs))
    except RuntimeError:  # an ERROR report raises in background mode (its text is recorded)
        return ["CANCELLED"]


def import_fixtures(out: Path) -> dict:
    got = {}
    for path in sorted(LUNA.glob("*.animclip")):
        record = json.loads(path.with_suffix(".json").read_text())
        fresh()
        rig = build_rig(record["joints"])
        rig.location = (0.5, -1.0, 0.0)  # root motion is relative to where the object stands
        names = [j["name"] for j in record["joints"]]
        CASE[0] = f"import {path.stem}"
        result = call(f"import {path.stem}", bpy.ops.animspec.import_animclip, filepath=str(path))
        action = rig.animation_data.action
        frames = list(range(record["frames"]))
        got[path.stem] = {
            "result": result,
            "shown": shown(rig, names, frames + ([len(frames)] if record["looping"] else [])),
            "motion": None,
            "looping_property": bool(action.get("animclip_looping")),
            "fps_property": float(action.get("animclip_fps")),
            "frame_range": list(action.frame_range),
        }
        got[path.stem]["motion"] = engine_motion(got[path.stem]["shown"]["object"])
    return got


# a hand-keyed action on the fixture rig: rotation, translation and (non-uniform) scale keys
def key_hand_action(rig: bpy.types.Object, frames: int) -> None:
    rig.animation_data_create()
    rig.animation_data.action = bpy.data.actions.new("hand")
    for pb in rig.pose.bones:
        pb.rotation_mode = "QUATERNION"
    for f in range(frames):
        a = 2 * math.pi * f / frames
        for i, pb in enumerate(rig.pose.bones):
            pb.rotation_quaternion = Quaternion((0.3 * i + 0.2, 0.5, 0.1 * i + 0.3), 0.4 * math.sin(a + i))
            pb.location = (0.05 * math.sin(a), 0.02 * i * math.cos(a), 0.3 * math.sin(a) if pb.name == "hips" else 0.0)
            pb.scale = (1.0 + 0.2 * math.sin(a), 1.0, 0.9) if pb.name == "hand_l" else (1.0, 1.0, 1.0)
            for p in ("location", "rotation_quaternion", "scale"):
                pb.keyframe_insert(p, frame=f)


def exports(out: Path) -> dict:
    got = {}
    loop = json.loads((LUNA / "loop_walk.json").read_text())
    names = [j["name"] for j in loop["joints"]]

    # 1. a hand-keyed action, no template
    fresh()
    rig = build_rig(loop["joints"])
    bpy.context.scene.render.fps = 30
    key_hand_action(rig, 20)
    result = export_animclip(rig, measure="local", max_rotation_error_deg=0.05, max_translation_error=1e-4)
    write_animclip(result, str(out / "hand.animclip"))
    got["hand"] = {"source": shown(rig, names, list(range(20))), "lines": result.lines, "warnings": result.warnings,
                   "error": {kind: getattr(result.error, kind).worst for kind in ("rotation", "translation", "scale")},
                   "tolerance": vars(result.tolerance), "joints": names}

    # 1b. the same action at the Export panel's defaults (object space), by the function and by
    # the operator (the scene's length unit Adaptive, then inches); re-imported onto a fresh rig
    bones = [b.name for b in rig.data.bones]
    direct = export_animclip(rig)
    oe = direct.object_error
    scene = bpy.context.scene
    scene.unit_settings.length_unit = "ADAPTIVE"
    target = out / "hand_object.animclip"
    status = call("export hand_object", bpy.ops.animspec.export_animclip, filepath=str(target))
    adaptive = read_report("export hand_object")
    scene.unit_settings.system, scene.unit_settings.length_unit = "IMPERIAL", "INCHES"
    inches = call("export hand_object inches", bpy.ops.animspec.export_animclip,
                  filepath=str(out / "hand_object_inches.animclip"))
    in_inches = read_report("export hand_object inches")
    source, parents = armature_poses(rig, bones, list(range(20))), parents_of(rig, bones)
    fresh()
    again = build_rig(loop["joints"])
    import_animclip(again, str(target))
    got["hand_object"] = {
        "result": [status, inches], "bones": bones, "parents": parents, "source": source,
        "reimported": armature_poses(again, bones, list(range(20))),
        "object_error": {"max": oe.max, "p99": oe.p99, "joint": oe.joint, "frame": oe.frame, "shell": oe.shell,
                         "per_joint": oe.per_joint.tolist()},
        "parents_exported": direct.parents, "bytes": len(direct.data), "lines": direct.lines,
        "warnings": direct.warnings, "report": adaptive, "report_inches": in_inches,
    }

    # 2. import a Luna fixture, export it with that fixture as template, import the export
    for stem in ("loop_walk", "wide_range", "root_motion"):
        record = json.loads((LUNA / f"{stem}.json").read_text())
        fresh()
        rig = build_rig(record["joints"])
        import_animclip(rig, str(LUNA / f"{stem}.animclip"))
        frames = list(range(record["frames"]))
        first = shown(rig, names, frames)
        CASE[0] = f"export {stem}"
        target = out / f"{stem}.again.animclip"
        result = call(f"export {stem}", bpy.ops.animspec.export_animclip, filepath=str(target),
                      template=str(LUNA / f"{stem}.animclip"), error_measure="local", max_rotation_error=0.05,
                      max_translation_error=1e-4)
        fresh()
        rig = build_rig(record["joints"])
        import_animclip(rig, str(target))
        second = shown(rig, names, frames)
        # and once more: the re-imported action exported again
        third = export_animclip(rig, template=str(target), measure="local", max_rotation_error_deg=0.05,
                                max_translation_error=1e-4)
        write_animclip(third, str(out / f"{stem}.third.animclip"))
        got[stem] = {"result": result, "first": first, "second": second, "third_lines": third.lines}
    return got


def refusals(out: Path) -> dict:
    got = {}
    loop = LUNA / "loop_walk.animclip"
    record = json.loads((LUNA / "loop_walk.json").read_text())
    fresh()
    got["import_no_armature"] = call("import_no_armature", bpy.ops.animspec.import_animclip, filepath=str(loop))
    other = [dict(j, name=j["name"].upper()) for j in record["joints"]]
    rig = build_rig(other, "Other")  # the same names in capitals: no hash matches
    got["import_other_names"] = call("import_other_names", bpy.ops.animspec.import_animclip, filepath=str(loop))
    # a rig without hand_l and with a bone the clip does not know: one line for each kind
    partial = [j for j in record["joints"] if j["name"] != "hand_l"] + [
        {"name": "tail_extra", "parent": 0, "head": [0, -0.2, 0.5], "tail": [0, -0.6, 0.4], "roll": 0.0}]
    fresh()
    build_rig(partial, "Partial")
    got["import_partial"] = call("import_partial", bpy.ops.animspec.import_animclip, filepath=str(loop))
    got["export_partial"] = call("export_partial", bpy.ops.animspec.export_animclip,
                                 filepath=str(out / "partial.animclip"), template=str(loop))
    fresh()
    rig = build_rig(record["joints"])
    cut = out / "cut.animclip"
    cut.write_bytes(loop.read_bytes()[:700])  # Sample Data cut short
    got["import_cut"] = call("import_cut", bpy.ops.animspec.import_animclip, filepath=str(cut))
    got["cut_left_no_action"] = rig.animation_data is None or rig.animation_data.action is None
    got["export_no_action"] = call("export_no_action", bpy.ops.animspec.export_animclip,
                                   filepath=str(out / "none.animclip"))
    import_animclip(rig, str(loop))
    (out / "exists.animclip").write_bytes(b"keep me")
    got["export_exists"] = call("export_exists", bpy.ops.animspec.export_animclip,
                                filepath=str(out / "exists.animclip"), template=str(loop))
    got["exists_kept"] = (out / "exists.animclip").read_bytes() == b"keep me"
    copy = out / "template_copy.animclip"
    copy.write_bytes(loop.read_bytes())
    got["export_over_template"] = call("export_over_template", bpy.ops.animspec.export_animclip,
                                       filepath=str(copy), template=str(copy), overwrite=True)
    got["template_kept"] = copy.read_bytes() == loop.read_bytes()
    (out / "broken.animclip").write_bytes(b"not a clip at all, just words")
    got["export_bad_template"] = call("export_bad_template", bpy.ops.animspec.export_animclip,
                                      filepath=str(out / "bad.animclip"), template=str(out / "broken.animclip"))
    got["bad_not_written"] = not (out / "bad.animclip").exists()
    pb = rig.pose.bones["hand_l"]
    pb.scale = (0.0, 1.0, 1.0)
    pb.keyframe_insert("scale", frame=3)
    got["export_zero_scale"] = call("export_zero_scale", bpy.ops.animspec.export_animclip,
                                    filepath=str(out / "zero.animclip"))
    # issue 27: the library's option ranges and joint-name rule, in the panel's words
    from animspec.common.errors import AnimspecError

    pb.scale = (1.0, 1.0, 1.0)
    pb.keyframe_insert("scale", frame=3)
    for case, kwargs in (("export_nan_rotation_error", {"measure": "local", "max_rotation_error_deg": float("nan")}),
                         ("export_zero_translation_error", {"measure": "local", "max_translation_error": 0.0}),
                         ("export_zero_max_error", {"max_error": 0.0}),
                         ("export_nan_shell", {"shell": float("nan")})):
        try:
            export_animclip(rig, **kwargs)
            got[case] = "exported"
        except AnimspecError as exc:
            got[case] = str(exc)
    got["export_zero_max_error_panel"] = call("export_zero_max_error_panel", bpy.ops.animspec.export_animclip,
                                              filepath=str(out / "zero_error.animclip"), max_error=0.0)
    got["zero_error_not_written"] = not (out / "zero_error.animclip").exists()
    rig.data.bones["hand_l"].name, rig.data.bones["arm_l"].name = "bone29685295", "bone32060020"
    try:
        export_animclip(rig)
        got["export_crc_names"] = "exported"
    except AnimspecError as exc:
        got["export_crc_names"] = str(exc)
    return got


def gltf_rig(out: Path) -> dict:
    """examples/walk.animclip onto the armature Import .animclip base pose builds from
    examples/biped_rig.glb (bones in the glTF nodes' frames, turned Z-up as Blender's glTF
    importer turns a rig), root bones in the armature's own axes; then exported back with
    walk.animclip as template."""
    from animspec_blender.animclip_pose import armature_from_gltf

    fresh()
    arm = armature_from_gltf(str(ROOT / "examples" / "biped_rig.glb"))
    bpy.context.view_layer.objects.active = arm
    report = import_animclip(arm, str(ROOT / "examples" / "walk.animclip"), root_space="armature")
    bones = [b for b, _ in report.matched]
    rest = {b.name: b.matrix_local.copy() for b in arm.data.bones}
    local = {"translation": [], "rotation_xyzw": [], "scale": []}
    for f in range(report.frames):
        bpy.context.scene.frame_set(f)
        rows = ([], [], [])
        for name in bones:
            bone, pb = arm.data.bones[name], arm.pose.bones[name]
            parent = rest[bone.parent.name].inverted() if bone.parent else Matrix.Identity(4)
            t, q, sc = (parent @ rest[name] @ pb.matrix_basis).decompose()
            for row, v in zip(rows, (list(t), _q(q), list(sc))):
                row.append(v)
        for key, row in zip(local, rows):
            local[key].append(row)
    rest_heights = {b: rest[b].translation.z for b in ("pelvis", "head", "foot_l")}
    result = export_animclip(arm, template=str(ROOT / "examples" / "walk.animclip"),
                             measure="local", max_rotation_error_deg=0.05, max_translation_error=1e-4)
    write_animclip(result, str(out / "walk.again.animclip"))
    return {"bones": bones, "local": local, "frames": report.frames, "rest_heights": rest_heights,
            "export_lines": result.lines}


def main() -> None:
    out = Path(sys.argv[-1])
    out.mkdir(parents=True, exist_ok=True)
    results = {"blender": bpy.app.version_string, "imports": import_fixtures(out), "exports": exports(out),
               "refusals": refusals(out), "gltf_rig": gltf_rig(out)}
    results["messages"] = MESSAGES
    (out / "animclip.json").write_text(json.dumps(results))


if __name__ == "__main__":
    main()
