"""Run by tests/test_blender_import_bounds.py in the bpy interpreter (the worktree's python/ and
blender/ on PYTHONPATH); not a test module itself.

    python tests/blender/animclip_bounds_check.py CLIPS_DIR

Imports each clip CLIPS_DIR/cases.json names with File > Import > Insomniac .animclip
animation onto a fresh armature of bones joint_0 .. joint_N-1 that already has an action
("before") assigned and a known scene rate, and records what is left: the operator's result and
messages, the actions, the armature's action, the scene's rate, the bones' rotation modes and
the process's peak RSS before and after. Case "fails_mid_way" makes the keying fail after the
action was made (the 5th F-curve group raises). Writes CLIPS_DIR/bounds.json.
"""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

import bpy

import animspec_blender  # noqa: E402
import animspec_blender.animclip_anim as animclip_anim  # noqa: E402

MESSAGES: list[dict] = []


def recording_say(operator, level: str, text: str) -> None:
    MESSAGES.append({"level": level, "text": text})


animspec_blender.say = recording_say


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


REGISTERED = [False]


def scene_with_rig(bones: int) -> bpy.types.Object:
    if REGISTERED[0]:
        animspec_blender.unregister()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    animspec_blender.register()
    REGISTERED[0] = True
    data = bpy.data.armatures.new("rig")
    arm = bpy.data.objects.new("rig", data)
    bpy.context.scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    for j in range(bones):
        eb = data.edit_bones.new(f"joint_{j}")
        eb.head, eb.tail = (0.0, float(j), 0.0), (0.0, float(j), 1.0)
    bpy.ops.object.mode_set(mode="OBJECT")
    before = bpy.data.actions.new("before")
    arm.animation_data_create()
    arm.animation_data.action = before
    slot = before.slots.new(id_type="OBJECT", name="rig")
    arm.animation_data.action_slot = slot
    arm.pose.bones["joint_0"].rotation_mode = "XYZ"
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 24, 1.0
    return arm


def run_case(case: dict) -> dict:
    arm = scene_with_rig(case["bones"])
    MESSAGES.clear()
    original_key = animclip_anim._key
    if case.get("fail_at"):
        calls = [0]

        def failing_key(*args, **kwargs):
            calls[0] += 1
            if calls[0] == case["fail_at"]:
                raise ValueError("made to fail after the action was made")
            return original_key(*args, **kwargs)

        animclip_anim._key = failing_key
    peak_before = peak_rss()
    try:
        result = bpy.ops.animspec.import_animclip(filepath=case["path"])
    except RuntimeError as exc:  # an operator's ERROR report also raises here when run from a script
        result = {"RAISED: " + str(exc).splitlines()[0]}
    finally:
        animclip_anim._key = original_key
    scene = bpy.context.scene
    data = arm.animation_data
    return {
        "result": sorted(result),
        "messages": list(MESSAGES),
        "actions": sorted(a.name for a in bpy.data.actions),
        "assigned": data.action.name if data is not None and data.action is not None else None,
        "slot": data.action_slot.name_display if data is not None and data.action_slot is not None else None,
        "fps": [scene.render.fps, scene.render.fps_base],
        "joint_0_mode": arm.pose.bones["joint_0"].rotation_mode,
        "peak_before": peak_before,
        "peak_after": peak_rss(),
    }


def main() -> None:
    folder = Path(sys.argv[-1])
    cases = json.loads((folder / "cases.json").read_text())
    out = {name: run_case(case) for name, case in cases.items()}
    props = bpy.types.RenderSettings.bl_rna.properties
    out["rna"] = {"fps": [props["fps"].hard_min, props["fps"].hard_max],
                  "fps_base": [props["fps_base"].hard_min, props["fps_base"].hard_max]}
    (folder / "bounds.json").write_text(json.dumps(out, indent=1))


main()
