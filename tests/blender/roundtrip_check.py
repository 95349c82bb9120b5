"""Run by tests/test_blender_roundtrip.py in the bpy interpreter (the worktree's python/ and
blender/ on PYTHONPATH); not a test module itself.

    python tests/blender/roundtrip_check.py OUT_DIR

Its helpers (a fresh scene with the add-on registered, the operators called as a person
calls them, every message recorded, the Luna fixtures' rig built in edit mode) are
animclip_check.py's. OUT_DIR holds what the test wrote first: ``inputs.json`` names a Y-up glTF rig and a Y-up clip
made for it (and the Luna fixture whose rig is built here in edit mode). Everything goes
through the add-on's operators at their defaults, as a person clicks them; only the export's
'Max Error' and 'Shell Distance' are set, so the test knows what it asked. Recorded per case: the
world position of every bone's head on every frame (what the viewport shows), the operators'
results and messages, and the files exported; per export, every bone's posed matrix on every
frame when it exported and after its file is imported back onto the same armature, and the
figures its report gave. The test module compares them with animspec's own decoders.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bpy

from animclip_check import (  # noqa: E402  (its say records every message)
    MESSAGES,
    armature_poses,
    build_rig,
    call,
    fresh,
    parents_of,
    read_report,
)
from fixture_rig import build_rig as build_fixture_rig  # noqa: E402
from fixture_rig import make_actions  # noqa: E402

ERRORS = {"max_error": 3e-4, "shell": 0.05}
"""The object-space bound asked of every .animclip export here, in Blender units (the test reads
it back): not the defaults, so that the fields are seen to reach the encoder."""


def the_armature() -> bpy.types.Object:
    arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    return arm


def heads(arm: bpy.types.Object, frames: list[int]) -> dict[str, list[list[float]]]:
    """Per bone, its head in world space on each frame."""
    out: dict[str, list[list[float]]] = {b.name: [] for b in arm.pose.bones}
    for f in frames:
        bpy.context.scene.frame_set(f)
        for pb in arm.pose.bones:
            out[pb.name].append(list(arm.matrix_world @ pb.head))
    return out


def export_and_back(case: str, arm: bpy.types.Object, frames: list[int], path: Path) -> dict:
    """The .animclip Export operator on ``arm`` with :data:`ERRORS`, its report's figures, and its
    file imported back onto ``arm`` (the Import operator's defaults): the bones' posed matrices
    before and after."""
    bones = [b.name for b in arm.data.bones]
    source, parents = armature_poses(arm, bones, frames), parents_of(arm, bones)
    result = call(case, bpy.ops.animspec.export_animclip, filepath=str(path), **ERRORS)
    reimport = call(f"{case} reimport", bpy.ops.animspec.import_animclip, filepath=str(path))
    return {"result": result, "reimport": reimport, "report": read_report(case), "bones": bones,
            "parents": parents, "source": source, "reimported": armature_poses(arm, bones, frames)}


def gltf_armature(rig: str) -> bpy.types.Object:
    bpy.ops.import_scene.gltf(filepath=rig)
    return the_armature()


def y_up_clip(inputs: dict, out: Path) -> dict:
    """The generated Y-up clip: (a) on Blender's own glTF import of its rig, both imports at
    their defaults, then exported and the export imported again; (b) on the armature the
    first-pose import builds from the same rig ('glTF rig')."""
    rig, clip, frames = inputs["rig"], inputs["clip"], list(range(inputs["frames"]))
    got: dict = {}
    fresh()
    arm = gltf_armature(rig)
    got["gltf_animation"] = {"result": call("gltf animation", bpy.ops.animspec.import_animclip, filepath=clip),
                             "heads": heads(arm, frames)}
    again = out / "gltf.again.animclip"
    got["gltf_export"] = export_and_back("gltf export", arm, frames, again)
    fresh()
    arm = gltf_armature(rig)
    got["gltf_first_pose"] = {"result": call("gltf first pose", bpy.ops.animspec.import_animclip_base_pose,
                                             filepath=clip), "heads": heads(arm, [0])}
    fresh()
    result = call("rig first pose", bpy.ops.animspec.import_animclip_base_pose, filepath=clip, rig=rig)
    arm = the_armature()
    got["rig_first_pose"] = {"result": result, "heads": heads(arm, [0])}
    got["rig_animation"] = {"result": call("rig animation", bpy.ops.animspec.import_animclip, filepath=clip),
                            "heads": heads(arm, frames)}
    again = out / "rig.again.animclip"
    got["rig_export"] = export_and_back("rig export", arm, frames, again)
    return got


def converted_glb(inputs: dict) -> dict:
    """The GLB ``animspec convert`` writes from the clip on its rig, imported by Blender's glTF
    importer (its animation keyed by Blender), then the clip imported by the add-on at its
    defaults onto that armature: the heads on every frame, each way."""
    frames = list(range(inputs["frames"]))
    fresh()
    bpy.context.scene.render.fps = 30  # the clip's rate: Blender's importer keys glTF seconds x fps
    arm = gltf_armature(inputs["glb"])
    got = {"blender_gltf": {"action": arm.animation_data.action.name, "heads": heads(arm, frames)}}
    got["animation"] = {"result": call("glb animation", bpy.ops.animspec.import_animclip, filepath=inputs["clip"]),
                        "action": arm.animation_data.action.name, "heads": heads(arm, frames)}
    return got


def luna_clip(inputs: dict, out: Path) -> dict:
    """A Luna fixture on its rig, built in Blender (edit-mode bones, Z-up): both imports at
    their defaults; the animation exported back."""
    record = json.loads(Path(inputs["luna_json"]).read_text())
    clip, frames = inputs["luna_clip"], list(range(record["frames"]))
    got: dict = {}
    fresh()
    arm = build_rig(record["joints"])
    got["built_animation"] = {"result": call("built animation", bpy.ops.animspec.import_animclip, filepath=clip),
                              "heads": heads(arm, frames)}
    got["built_export"] = export_and_back("built export", arm, frames, out / "built.again.animclip")
    fresh()
    arm = build_rig(record["joints"])
    got["built_first_pose"] = {"result": call("built first pose", bpy.ops.animspec.import_animclip_base_pose,
                                              filepath=clip), "heads": heads(arm, [0])}
    return got


def animbin(inputs: dict, out: Path) -> dict:
    """ANIMBIN -> Blender -> ANIMBIN through the operators at their defaults: swing.animbin on
    the armature Import ANIMBIN builds from pendulum.meshbin; and, on an armature built in
    Blender (edit-mode bones, Z-up), an ANIMBIN its own actions were exported to, imported
    onto a fresh copy and exported again without the file's stored integers."""
    got: dict = {}
    fresh()
    got["pendulum_import"] = call("pendulum import", bpy.ops.animspec.import_animbin, filepath=inputs["swing"],
                                  meshbin=inputs["meshbin"])
    the_armature()
    got["pendulum_export"] = call("pendulum export", bpy.ops.animspec.export_animbin,
                                  filepath=str(out / "swing.again.animbin"))
    got["named_missing"] = call("named missing", bpy.ops.animspec.export_animbin,
                                filepath=str(out / "none.animbin"), which="chosen", chosen="swng, wav")

    fresh()
    arm = build_fixture_rig()
    make_actions(arm)
    bpy.context.scene.render.fps = 60
    got["built_start"] = call("animbin built start", bpy.ops.animspec.export_animbin,
                              filepath=str(out / "built.animbin"), which="chosen", chosen="walk, swing")
    fresh()
    arm = build_fixture_rig()
    got["built_import"] = call("animbin built import", bpy.ops.animspec.import_animbin,
                               filepath=str(out / "built.animbin"))
    got["built_export"] = call("animbin built export", bpy.ops.animspec.export_animbin,
                               filepath=str(out / "built.again.animbin"), keep_file_keys=False)
    joints = [b.name for b in arm.data.bones if b.use_deform]
    bones = [arm.data.bones[n] for n in joints]
    # The skeleton the console poses: each joint's rest offset in its parent's bone frame, a
    # root's in the console's space (diag(1, -1, -1) of Blender's, the exporter's turn).
    got["built_skeleton"] = {
        "names": joints,
        "parents": [joints.index(b.parent.name) if b.parent else -1 for b in bones],
        "translation": [list((b.parent.matrix_local.inverted() @ b.matrix_local).translation) if b.parent
                        else [b.head_local.x, -b.head_local.y, -b.head_local.z] for b in bones],
    }
    return got


def main() -> None:
    out = Path(sys.argv[-1])
    inputs = json.loads((out / "inputs.json").read_text())
    results = {"blender": bpy.app.version_string, "y_up": y_up_clip(inputs, out),
               "glb": converted_glb(inputs), "luna": luna_clip(inputs, out),
               "animbin": animbin(inputs, out), "errors": ERRORS}
    results["messages"] = MESSAGES
    (out / "roundtrip.json").write_text(json.dumps(results))


if __name__ == "__main__":
    main()
