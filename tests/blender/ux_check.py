"""Run by tests/test_blender_addon.py in the bpy interpreter (the worktree's python/ and
blender/ on PYTHONPATH); not a test module itself.

    python tests/blender/ux_check.py OUT_DIR

Issue 24's checks of the add-on, headless: exact truncation against the engine exporter's
rule on the rig of fixture_rig.py, every message the add-on's operators show while each
refusal is triggered, the joint order on the Export panel, the budget panel's rows, and a
rendered frame of the rig. Writes OUT_DIR/ux.json (and the exported files, the picture).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import bpy
from mathutils import Euler, Vector

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fixture_rig import ACTIONS, build_rig, exporter_keys, make_actions  # noqa: E402

import animspec_blender  # noqa: E402
from animspec_blender.exporter import export_animbin, write_animbin  # noqa: E402

NTSC = (60, 1.001)
PAL = (50, 1.0)

MESSAGES: list[dict] = []
"""Every message the operators showed: {"case", "level", "text"}."""
CASE = ["start"]


def recording_say(operator, level: str, text: str) -> None:
    MESSAGES.append({"case": CASE[0], "level": level, "text": text})
    ORIGINAL_SAY(operator, level, text)


ORIGINAL_SAY = animspec_blender.say
animspec_blender.say = recording_say


def fresh(rate=NTSC, control_bone: bool = True) -> bpy.types.Object:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = rate
    animspec_blender.register()
    arm = build_rig(control_bone=control_bone)
    make_actions(arm)
    bpy.context.view_layer.objects.active = arm
    return arm


def call(case: str, op, **kwargs) -> list[str]:
    """Run an operator; an ERROR report raises in background mode (its text is recorded by say)."""
    CASE[0] = case
    try:
        return sorted(op(**kwargs))
    except RuntimeError:
        return ["CANCELLED"]


def keys_of(animbin) -> dict:
    return {str(a.name): [[t.joint_id, [[k.frame, list(k.quaternion)] for k in t.keys]] for t in a.tracks]
            for a in animbin.animations}


def exactness(out: Path) -> dict:
    """fit 'Every frame', FP12 'Truncate', on NTSC and on PAL (each scene at its region's
    rate), against the exporter's rule restated in fixture_rig.exporter_keys."""
    result = {}
    for region, rate in (("ntsc", NTSC), ("pal", PAL)):
        arm = fresh(rate)
        actions = [bpy.data.actions[name] for name in ACTIONS]
        reference = {a.name: exporter_keys(arm, a) for a in actions}
        exported = export_animbin(arm, which="all", region=region, fit="bake", fp12="trunc")
        write_animbin(exported, str(out / f"exact_{region}.animbin"))
        result[region] = {
            "reference": reference, "keys": keys_of(exported.animbin), "lines": exported.lines,
            "warnings": exported.warnings, "deform": [b.name for b in arm.data.bones if b.use_deform],
        }
        animspec_blender.unregister()
    # Longer than 30 frames with fit 'Cut': the exporter's ALL mode keeps frames first..first + 29.
    arm = fresh(NTSC)
    long = bpy.data.actions.new("long")
    arm.animation_data.action = long
    for frame, degrees in ((2, 0.0), (20, 180.0), (49, 360.0)):
        for bone in ("root", "arm.L"):
            arm.pose.bones[bone].rotation_quaternion = Euler((0.0, math.radians(degrees), 0.0)).to_quaternion()
            arm.pose.bones[bone].keyframe_insert("rotation_quaternion", frame=frame)
    exported = export_animbin(arm, which="chosen", chosen=["long"], region="ntsc", fit="cut", fp12="trunc")
    result["cut"] = {"reference": {"long": exporter_keys(arm, long)}, "keys": keys_of(exported.animbin),
                     "deform": result["ntsc"]["deform"]}
    animspec_blender.unregister()
    return result


def refusals(out: Path) -> dict:
    """Each refusal the Export panel and the budget panel can meet, through the operators."""
    result = {}
    target = out / "refused.animbin"
    export = bpy.ops.animspec.export_animbin

    # Longer than 30 frames with a key on every frame, on each region.
    for region, rate in (("ntsc", NTSC), ("pal", PAL)):
        arm = fresh(rate)
        long = bpy.data.actions.new("long")
        arm.animation_data.action = long
        for frame in (0, 47):
            arm.pose.bones["spine"].rotation_quaternion = Euler((0.0, 0.0, 0.01 * frame)).to_quaternion()
            arm.pose.bones["spine"].keyframe_insert("rotation_quaternion", frame=frame)
        result[f"long_{region}"] = call(f"long_{region}", export, filepath=str(target), which="active",
                                        region=region, fit="bake")
        # Reduce that cannot fit 30 keys within a tiny tolerance: a fast full turn.
        fast = bpy.data.actions.new("fast")
        arm.animation_data.action = fast
        for frame in range(0, 48, 4):
            arm.pose.bones["spine"].rotation_quaternion = Euler((0.0, 0.0, 0.5 * frame)).to_quaternion()
            arm.pose.bones["spine"].keyframe_insert("rotation_quaternion", frame=frame)
        result[f"reduce_{region}"] = call(f"reduce_{region}", export, filepath=str(target), which="active",
                                          region=region, fit="reduce", max_error=0.001)
        animspec_blender.unregister()

    # Six actions, a NaN key, six markers, an existing file, no such action, no names file.
    arm = fresh()
    extra = bpy.data.actions.new("extra")
    arm.animation_data.action = extra
    arm.pose.bones["root"].keyframe_insert("rotation_quaternion", frame=0)
    result["six_actions"] = call("six_actions", export, filepath=str(target), which="all")
    bpy.data.actions.remove(extra)
    swing = bpy.data.actions["swing"]
    arm.animation_data.action = swing
    for i in range(6):
        swing.pose_markers.new(f"m{i}").frame = i
    result["markers"] = call("markers", export, filepath=str(target), which="active")
    for marker in list(swing.pose_markers):
        swing.pose_markers.remove(marker)
    result["no_action"] = call("no_action", export, filepath=str(target), which="chosen", chosen="nope")
    bpy.data.actions.new("blank")  # no keys at all: Blender's glTF exporter leaves it out
    result["blank_action"] = call("blank_action", export, filepath=str(target), which="chosen", chosen="blank")
    result["no_names_file"] = call("no_names_file", export, filepath=str(target), which="all", joint_order="file")
    result["written"] = call("written", export, filepath=str(out / "ok.animbin"), which="all")
    result["exists"] = call("exists", export, filepath=str(out / "ok.animbin"), which="all")
    walk = bpy.data.actions["walk"]
    for bag in animspec_blender.exporter.channelbags(walk):
        curve = bag.fcurves.find('pose.bones["leg.L"].rotation_quaternion', index=1)
        curve.keyframe_points[2].co[1] = float("nan")
    arm.animation_data.action = walk
    result["nan"] = call("nan", export, filepath=str(target), which="active")
    CASE[0] = "budget_nan"
    bpy.ops.animspec.check_budget()
    animspec_blender.unregister()

    # Sixteen joints: one more than the engine's skeleton holds.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    animspec_blender.register()
    data = bpy.data.armatures.new("Many")
    arm = bpy.data.objects.new("Many", data)
    bpy.context.scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    parent = None
    for i in range(16):
        eb = data.edit_bones.new(f"b{i}")
        eb.head, eb.tail, eb.parent = Vector((0, 0, i)), Vector((0, 0, i + 1)), parent
        parent = eb
    bpy.ops.object.mode_set(mode="OBJECT")
    arm.animation_data_create()
    arm.animation_data.action = bpy.data.actions.new("bend")
    for frame in (0, 10):
        arm.pose.bones["b3"].rotation_mode = "QUATERNION"
        arm.pose.bones["b3"].keyframe_insert("rotation_quaternion", frame=frame)
    result["many_joints"] = call("many_joints", export, filepath=str(target), which="all")
    CASE[0] = "budget_many_joints"
    bpy.ops.animspec.check_budget()
    result["many_joints_budget"] = [t for t, _ in animspec_blender.panel_lines(bpy.context)]
    animspec_blender.unregister()
    result["target_exists"] = target.exists()
    return result


def joint_order(out: Path) -> dict:
    """The Export panel's joint order: a names file (bones in another order, saved on the
    armature), then the armature's saved order, then the deform-bone order."""
    arm = fresh(control_bone=False)
    names = out / "joints.txt"
    order = ["root", "leg.L", "shin.L", "spine", "head", "arm.L", "hand.L", "arm.R"]
    names.write_text("\n".join(order) + "\n")
    export = bpy.ops.animspec.export_animbin
    result = {
        "file": call("order_file", export, filepath=str(out / "order_file.animbin"), which="all",
                     joint_order="file", joint_names=str(names), save_joint_order=True),
        "saved": list(arm.get("animbin_joints", [])),
        "armature": call("order_armature", export, filepath=str(out / "order_armature.animbin"), which="all"),
        "deform": call("order_deform", export, filepath=str(out / "order_deform.animbin"), which="all",
                       joint_order="deform"),
        "order": order,
        "deform_order": [b.name for b in arm.data.bones if b.use_deform],
    }
    animspec_blender.unregister()
    return result


def budget_panel(out: Path) -> dict:
    """The budget panel's rows: the rig at the region's rate, at 60/1 fps for NTSC, and a
    25-frame action in a 24 fps scene."""
    from animspec_blender.budget import panel_state

    result = {}
    arm = fresh()
    CASE[0] = "budget"
    settings = bpy.context.scene.animspec_budget
    settings.region, settings.fit = "ntsc", "best"
    bpy.ops.animspec.check_budget()
    result["ntsc"] = [[t, ok] for t, ok in animspec_blender.panel_lines(bpy.context)]
    # Export with the panel's options: its report gives the same figure in the same words
    result["ntsc_export"] = export_messages("budget_export", out / "budget_ntsc.animbin", region="ntsc", fit="best")
    render(arm, out / "budget_rig.png")
    animspec_blender.unregister()

    # Reduce in a 24 fps scene: the console frames fall between Blender frames (the GLB the
    # export converts is sampled on whole frames only), the panel and Export still agree
    arm = fresh((24, 1.0))
    settings = bpy.context.scene.animspec_budget
    settings.region, settings.fit, settings.max_error = "ntsc", "reduce", 10.0
    CASE[0] = "budget_reduce_24"
    bpy.ops.animspec.check_budget()
    result["reduce_24"] = [t for t, _ in animspec_blender.panel_lines(bpy.context)]
    result["reduce_24_export"] = export_messages("budget_reduce_24_export", out / "budget_reduce_24.animbin",
                                                 region="ntsc", fit="reduce", max_error=10.0)
    animspec_blender.unregister()

    arm = fresh((60, 1.0))
    result["ntsc_at_60"] = panel_state(arm, region="ntsc", fit="best").text()
    animspec_blender.unregister()

    arm = fresh((24, 1.0))
    CASE[0] = "budget_24"
    walk = bpy.data.actions["walk"]  # frames 1..24; make it 25 frames long
    for bag in animspec_blender.exporter.channelbags(walk):
        for curve in bag.fcurves:
            curve.keyframe_points.insert(25, curve.evaluate(24))
    result["walk_frames_at_24"] = list(walk.frame_range)
    result["at_24"] = panel_state(arm, which="chosen", chosen=["walk"], region="ntsc", fit="best").text()
    animspec_blender.unregister()
    return result


def export_messages(case: str, path: Path, **options) -> list[str]:
    """The Export operator's messages, run with ``options``."""
    status = call(case, bpy.ops.animspec.export_animbin, filepath=str(path), **options)
    assert status == ["FINISHED"], (case, [m["text"] for m in MESSAGES if m["case"] == case])
    return [m["text"] for m in MESSAGES if m["case"] == case]


def defaults() -> dict:
    """The export operators' default errors as registered, and the objects they come from."""
    from animspec.common.ranges import ANIMCLIP_LOCAL_ERRORS
    from animspec.convert.options import DIRECTION_ERRORS
    from animspec_blender import animclip_anim, exporter, wording

    animspec_blender.register()
    animclip = bpy.ops.animspec.export_animclip.get_rna_type().properties
    animbin = bpy.ops.animspec.export_animbin.get_rna_type().properties
    budget = type(bpy.context.scene.animspec_budget).bl_rna.properties
    found = {
        "animclip_max_error": animclip["max_error"].default,
        "animclip_shell": animclip["shell"].default,
        "animclip_subtypes": [animclip["max_error"].subtype, animclip["shell"].subtype],
        "animclip_units": [animclip["max_error"].unit, animclip["shell"].unit],
        "animclip_measure": animclip["error_measure"].default,
        "animclip_measures": [item.name for item in animclip["error_measure"].enum_items],
        "animclip_labels": [animclip[n].name for n in ("max_error", "shell", "error_measure")],
        "animclip_rotation": animclip["max_rotation_error"].default,
        "animclip_translation": animclip["max_translation_error"].default,
        "animbin": animbin["max_error"].default,
        "budget": budget["max_error"].default,
        "same_objects": (wording.CLIP_ERRORS is DIRECTION_ERRORS["gltf-animclip"]
                         and wording.LOCAL_CLIP_ERRORS is ANIMCLIP_LOCAL_ERRORS
                         and wording.ANIMBIN_ERRORS is DIRECTION_ERRORS["gltf-animbin"]
                         and animclip_anim.CLIP_ERRORS is wording.CLIP_ERRORS
                         and animclip_anim.LOCAL_CLIP_ERRORS is wording.LOCAL_CLIP_ERRORS
                         and exporter.ANIMBIN_ERRORS is wording.ANIMBIN_ERRORS),
    }
    animspec_blender.unregister()
    return found


def render(arm: bpy.types.Object, path: Path) -> None:
    """Frame 7 of 'swing' (the hand turned 45 degrees) with a box on every bone, Workbench."""
    scene = bpy.context.scene
    verts, faces = [], []
    body = bpy.data.meshes.new("Boxes")
    groups = []
    for bone in arm.data.bones:
        if not bone.use_deform:
            continue
        head, tail = bone.head_local, bone.tail_local
        axis = (tail - head)
        side = axis.orthogonal().normalized() * 0.08
        other = axis.normalized().cross(side)
        base = len(verts)
        for end in (head, tail):
            for a, b in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
                verts.append(tuple(end + side * a + other * b))
        faces += [(base, base + 1, base + 2, base + 3), (base + 4, base + 7, base + 6, base + 5)]
        faces += [(base + i, base + 4 + i, base + 4 + (i + 1) % 4, base + (i + 1) % 4) for i in range(4)]
        groups.append((bone.name, list(range(base, base + 8))))
    body.from_pydata(verts, [], faces)
    obj = bpy.data.objects.new("Boxes", body)
    scene.collection.objects.link(obj)
    for name, indices in groups:
        obj.vertex_groups.new(name=name).add(indices, 1.0, "REPLACE")
    obj.parent = arm
    obj.modifiers.new("Armature", "ARMATURE").object = arm
    for pb in arm.pose.bones:
        pb.matrix_basis.identity()
    arm.animation_data.action = bpy.data.actions["swing"]
    arm.animation_data.action_slot = bpy.data.actions["swing"].slots[0]
    scene.frame_set(7)
    cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
    scene.collection.objects.link(cam)
    # Three-quarter view from the front right, looking at the middle of the rig.
    aim = bpy.data.objects.new("aim", None)
    scene.collection.objects.link(aim)
    aim.location = (0.25, 0.0, 0.4)
    cam.location = (5.0, -7.0, 3.0)
    cam.constraints.new("TRACK_TO").target = aim
    cam.data.type = "ORTHO"
    cam.data.ortho_scale = 5.5
    scene.camera = cam
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.resolution_x = scene.render.resolution_y = 320
    scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    bpy.data.objects.remove(obj)
    bpy.data.meshes.remove(body)


class RecordingLayout:
    """Stands in for a panel's layout: records which properties a draw() puts on it."""

    def __init__(self, drawn: list[str]) -> None:
        self.drawn, self.enabled = drawn, True

    def prop(self, owner, name: str, **_options) -> None:
        self.drawn.append(name)

    def row(self, **_options) -> "RecordingLayout":
        return RecordingLayout(self.drawn)


def export_panel() -> dict:
    """What the Export panel's draw() shows (every conditional option switched on: named
    actions, Reduce, a names file), with each property's label and choices as Blender has
    them registered."""
    from types import SimpleNamespace

    animspec_blender.register()
    drawn: list[str] = []
    panel = SimpleNamespace(which="chosen", fit="reduce", joint_order="file", layout=RecordingLayout(drawn))
    panel.draw_options = lambda layout: animspec_blender.ExportOptions.draw_options(panel, layout)
    animspec_blender.ANIMSPEC_OT_export_animbin.draw(panel, bpy.context)
    rna = bpy.ops.animspec.export_animbin.get_rna_type()
    labels = {}
    for name in drawn:
        prop = rna.properties[name]
        labels[name] = {"label": prop.name,
                        "choices": [item.name for item in prop.enum_items] if prop.type == "ENUM" else []}
    # the .animclip Export panel, at each error measure
    clip = {}
    for measure in ("object", "local"):
        shown: list[str] = []
        panel = SimpleNamespace(error_measure=measure, layout=RecordingLayout(shown))
        animspec_blender.ANIMSPEC_OT_export_animclip.draw(panel, bpy.context)
        clip[measure] = shown
    animspec_blender.unregister()
    return {"drawn": drawn, "labels": labels, "animclip": clip}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    results = {"blender": bpy.app.version_string}
    results["exact"] = exactness(out)
    results["refusals"] = refusals(out)
    results["joint_order"] = joint_order(out)
    results["budget"] = budget_panel(out)
    results["export_panel"] = export_panel()
    results["defaults"] = defaults()
    results["messages"] = MESSAGES
    tmp = out / "ux.json.tmp"
    tmp.write_text(json.dumps(results))
    tmp.replace(out / "ux.json")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
