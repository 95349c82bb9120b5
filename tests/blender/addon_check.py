"""Run by tests/test_blender_addon.py in an interpreter that can ``import bpy``, with the
worktree's python/ and blender/ on PYTHONPATH; not a test module itself.

    python tests/blender/addon_check.py OUT_DIR

drives the add-on's functions (blender/animspec_blender) headless, as its operators do, and
writes what Blender shows into OUT_DIR/results.json plus the ANIMBIN files it exported. The
comparisons are made by the test, against the files and animspec's CLI.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import bpy
from mathutils import Euler

from animspec.common.errors import AnimspecError
from animspec_blender.exporter import skin_mesh, channelbags, export_animbin, write_animbin
from animspec_blender.importer import import_animbin, import_meshbin
from animspec_blender.rig import key_of_pose
from animspec.animbin import read_file

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples"
MESHBIN = EXAMPLES / "pendulum.meshbin"


def fresh_scene() -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)


def assign(arm, name: str) -> None:
    """Play one action from the rest pose: Blender leaves a bone the action does not key
    where the previous action left it (so does the console between clips; a fresh skeleton,
    as `animspec play` has it, is at rest)."""
    for pb in arm.pose.bones:
        pb.matrix_basis.identity()
        pb.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
    action = bpy.data.actions[name]
    arm.animation_data.action = action
    if action.slots:
        arm.animation_data.action_slot = action.slots[0]


def pose_keys(arm, bones: list[str]) -> list[list[float]]:
    return [list(key_of_pose(arm.pose.bones[b])) for b in bones]


def round_trip(example: str, out: Path) -> dict:
    """Import onto the MESHBIN's armature, read the pose at every key, export back."""
    fresh_scene()
    arm = import_meshbin(str(MESHBIN), scale=64.0)
    animbin = read_file(str(EXAMPLES / f"{example}.animbin"))
    report = import_animbin(arm, animbin, region="ntsc")
    bones = [b.name for b in arm.data.bones if b.use_deform]
    poses = []
    for anim in animbin.animations:
        assign(arm, str(anim.name))
        for track in anim.tracks:
            for key in track.keys:
                bpy.context.scene.frame_set(key.frame)
                poses.append({"animation": str(anim.name), "joint": track.joint_id, "frame": key.frame,
                              "pose": list(key_of_pose(arm.pose.bones[bones[track.joint_id]]))})
    result = {"import_warnings": report.warnings, "actions": report.actions, "poses": poses,
              "markers": {a: [[m.name, m.frame] for m in bpy.data.actions[a].pose_markers] for a in report.actions},
              "looping": {a: bool(bpy.data.actions[a]["animbin_looping"]) for a in report.actions}}
    for keep in (True, False):
        exported = export_animbin(arm, which="all", region="ntsc", keep_file_keys=keep)
        path = out / f"{example}.{'keep' if keep else 'plain'}.animbin"
        write_animbin(exported, str(path))
        result["keep" if keep else "plain"] = {
            "lines": exported.lines, "warnings": exported.warnings, "kept": exported.kept_raw_keys,
            "findings": [f.to_json() for f in exported.findings], "fresh": exported.fresh,
        }
    # An edited action loses its layout: key one more frame on the first action and export.
    first = report.actions[0]
    assign(arm, first)
    pb = arm.pose.bones[bones[0]]
    bpy.context.scene.frame_set(3)
    pb.rotation_quaternion = Euler((0.0, 0.0, 0.5)).to_quaternion()
    pb.keyframe_insert("rotation_quaternion", frame=3.0 if example == "sparse" else 3.5)
    edited = export_animbin(arm, which="all", region="ntsc", fit="best")
    result["edited"] = {"fresh": edited.fresh, "lines": edited.lines}
    return result


def round_trip_variant(out: Path) -> dict:
    """swing.animbin on PAL from Blender frame 1, on an armature that also has a bone that
    does not deform (a control bone: not a joint, not in the file), exporting all actions
    and then only the one named."""
    fresh_scene()
    arm = import_meshbin(str(MESHBIN), scale=64.0)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    ctrl = arm.data.edit_bones.new("ctrl")
    ctrl.head, ctrl.tail, ctrl.use_deform = (1.0, 0.0, 0.0), (1.0, 0.5, 0.0), False
    bpy.ops.object.mode_set(mode="OBJECT")
    animbin = read_file(str(EXAMPLES / "swing.animbin"))
    report = import_animbin(arm, animbin, region="pal", first_frame=1)
    scene = bpy.context.scene
    result = {"fps": [scene.render.fps, scene.render.fps_base],
              "frame_ranges": {a: list(bpy.data.actions[a].frame_range) for a in report.actions},
              "markers": {a: [[m.name, m.frame] for m in bpy.data.actions[a].pose_markers] for a in report.actions}}
    write_animbin(export_animbin(arm, which="all", region="pal"), str(out / "swing.pal.animbin"))
    write_animbin(export_animbin(arm, which="chosen", chosen=["nod"], region="pal"), str(out / "nod.pal.animbin"))
    return result


def branching(out: Path) -> dict:
    """A MESHBIN whose bone order (0, 1, 2 under 0, 3 under 1) is not Blender's depth-first
    order (0, 1, 3, 2): joint ids must still follow the file. A clip turning each joint its
    own way is imported and exported again."""
    from animspec.animbin import Animation, AnimbinFile, Name, RotationKey, Track, write_bytes
    from animspec.common.atomic import write_atomic
    from animspec.meshbin import write_bytes as write_meshbin
    from animspec.meshbin.model import Bone, MeshbinFile

    meshbin = out / "branch.meshbin"
    write_atomic(meshbin, write_meshbin(MeshbinFile(
        has_skeleton=1, bones=[Bone(-1, (0, 0, 0)), Bone(0, (0, 64, 0)), Bone(0, (64, 0, 0)), Bone(1, (0, 64, 0))])))
    # Joint 3's key has w < 0 (the same turn as (3784, 0, 0, -1567)): Blender keeps no sign,
    # the export gives the file's key back.
    turns = {0: (4096, 0, 0, 0), 1: (3547, 2048, 0, 0), 2: (2896, 0, 2896, 0), 3: (-3784, 0, 0, 1567)}
    clip = AnimbinFile([Animation(Name.from_str("turns"), 2, [
        Track(j, [RotationKey(0, 4096, 0, 0, 0), RotationKey(1, *q)]) for j, q in turns.items()])])
    write_atomic(out / "branch.animbin", write_bytes(clip))
    fresh_scene()
    arm = import_meshbin(str(meshbin), scale=64.0, with_mesh=False)
    import_animbin(arm, clip, region="ntsc")
    assign(arm, "turns")
    bpy.context.scene.frame_set(1)
    result = {"blender_order": [b.name for b in arm.data.bones],
              "poses": {b.name: list(key_of_pose(b)) for b in arm.pose.bones}}
    write_animbin(export_animbin(arm, which="all", region="ntsc"), str(out / "branch.back.animbin"))
    return result


def off_rate() -> dict:
    """A 30 fps scene kept as it is: import and export both say that keys fall between frames."""
    fresh_scene()
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 30, 1.0
    arm = import_meshbin(str(MESHBIN), scale=64.0, with_mesh=False)
    report = import_animbin(arm, read_file(str(EXAMPLES / "swing.animbin")), region="ntsc", set_scene_fps=False)
    exported = export_animbin(arm, which="all", region="ntsc")
    return {"import": report.warnings, "export": exported.warnings,
            "frame_ranges": {a: list(bpy.data.actions[a].frame_range) for a in report.actions}}


def console_view(out: Path) -> dict:
    """Import 'as the console shows it' and read the pose at every vsync."""
    fresh_scene()
    arm = import_meshbin(str(MESHBIN), scale=64.0)
    result = {}
    for example in ("swing", "sparse"):
        animbin = read_file(str(EXAMPLES / f"{example}.animbin"))
        report = import_animbin(arm, animbin, region="ntsc", console=True, name_prefix=f"{example}:")
        bones = [b.name for b in arm.data.bones if b.use_deform]
        for anim, action_name in zip(animbin.animations, report.actions):
            assign(arm, action_name)
            action = bpy.data.actions[action_name]
            interpolations = sorted({p.interpolation for bag in channelbags(action) for c in bag.fcurves for p in c.keyframe_points})
            ticks = []
            for tick in range(anim.length):
                # Half a frame later must show the same pose: CONSTANT holds it.
                bpy.context.scene.frame_set(tick, subframe=0.5)
                later = pose_keys(arm, bones)
                bpy.context.scene.frame_set(tick)
                ticks.append({"pose": pose_keys(arm, bones), "half_frame_later": later})
            result[f"{example}/{anim.name}"] = {"ticks": ticks, "interpolations": interpolations}
    return result


def authored_action(out: Path) -> dict:
    """A new action keyed by hand (Bezier, frames 1..24 at 60 fps, the armature object moved
    and turned): the add-on's export against ``animspec convert`` of Blender's own GLB of the
    same scene at the glTF exporter's default settings."""
    fresh_scene()
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 60, 1.0
    arm = import_meshbin(str(MESHBIN), scale=64.0, with_mesh=False)
    arm.location = (0.3, -0.2, 0.5)
    arm.rotation_euler = Euler((math.radians(25), math.radians(-10), math.radians(40)))
    arm.animation_data_create()
    action = bpy.data.actions.new("wiggle")
    arm.animation_data.action = action
    for b, pb in enumerate(arm.pose.bones):
        pb.rotation_mode = "QUATERNION"
        for k, frame in enumerate((1, 9, 17, 24)):
            pb.rotation_quaternion = Euler((0.4 * math.sin(k + b), 0.3 * math.cos(2 * k - b), 0.6 * math.sin(0.5 * k + b))).to_quaternion()
            pb.keyframe_insert("rotation_quaternion", frame=frame)
    pm = action.pose_markers.new("hit")
    pm.frame = 9
    action["animbin_looping"] = False
    exported = export_animbin(arm, which="active", region=60, fit="bake", fp12="round")
    write_animbin(exported, str(out / "wiggle.addon.animbin"))
    # The same scene through Blender's glTF exporter at its defaults (a skinned mesh is needed
    # for a skin), for `animspec convert` in the test.
    skin = skin_mesh(arm, [b.name for b in arm.data.bones])
    bpy.ops.export_scene.gltf(filepath=str(out / "wiggle.glb"), export_format="GLB")
    bpy.data.objects.remove(skin)
    return {"lines": exported.lines, "warnings": exported.warnings, "findings": [f.to_json() for f in exported.findings]}


def refusals(out: Path) -> dict:
    """Clips over the engine's limits: the export says why and writes nothing."""
    fresh_scene()
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 60, 1.0
    arm = import_meshbin(str(MESHBIN), scale=64.0, with_mesh=False)
    arm.animation_data_create()
    result = {}
    long = bpy.data.actions.new("long")
    arm.animation_data.action = long
    for frame in (0, 47):
        for pb in arm.pose.bones:
            pb.rotation_mode = "QUATERNION"
            pb.rotation_quaternion = Euler((0.0, 0.0, 0.01 * frame)).to_quaternion()
            pb.keyframe_insert("rotation_quaternion", frame=frame)
    best = export_animbin(arm, which="active", region=60, fit="best")
    write_animbin(best, str(out / "long_best.animbin"))
    result["long_best"] = {"lines": best.lines, "warnings": best.warnings,
                           "findings": [f.code for f in best.findings]}
    cases = {"long_bake": dict(which="active", region=60, fit="bake")}
    for i in range(5):
        extra = bpy.data.actions.new(f"extra{i}")
        arm.animation_data.action = extra
        arm.pose.bones[0].keyframe_insert("rotation_quaternion", frame=0)
    cases["six_actions"] = dict(which="all", region=60, fit="cut")
    arm.animation_data.action = long
    for name, options in cases.items():
        path = out / f"{name}.animbin"
        try:
            exported = export_animbin(arm, **options)
            write_animbin(exported, str(path))
            result[name] = {"refused": False}
        except AnimspecError as exc:
            result[name] = {"refused": True, "message": str(exc)}
        result[name]["file_exists"] = path.exists()
    # The validator's own error: the conversion never makes a 31st key, so the result is
    # edited as a broken exporter would have it, and must not be written.
    arm.animation_data.action = long
    exported = export_animbin(arm, which="active", region=60, fit="cut")
    keys = exported.animbin.animations[0].tracks[0].keys
    keys.append(type(keys[-1])(keys[-1].frame + 1, *keys[-1].quaternion))
    from animspec.animbin.validate import validate
    from animspec.animbin.write import write_bytes
    exported.findings = validate(exported.animbin, bone_count=4)
    exported.data = write_bytes(exported.animbin)
    path = out / "validator_error.animbin"
    try:
        write_animbin(exported, str(path))
        result["validator_error"] = {"refused": False}
    except AnimspecError as exc:
        result["validator_error"] = {"refused": True, "message": str(exc)}
    result["validator_error"]["file_exists"] = path.exists()
    result["validator_error"]["codes"] = [f.code for f in exported.errors]
    return result


def operators(out: Path) -> dict:
    """The File menu's operators, registered as Blender registers the add-on."""
    import animspec_blender

    fresh_scene()
    animspec_blender.register()
    result = {"menus": {
        "import": [op for op in ("animspec.import_animbin", "animspec.import_meshbin") if hasattr(bpy.ops.animspec, op.split(".")[1])],
    }}

    def call(op, **kwargs):
        try:
            return sorted(op(**kwargs)), None
        except RuntimeError as exc:  # background mode: an ERROR report raises
            return ["CANCELLED"], str(exc)

    path = out / "operator.animbin"
    result["import"] = call(bpy.ops.animspec.import_animbin, filepath=str(EXAMPLES / "swing.animbin"),
                            meshbin=str(MESHBIN), scale=64.0)
    result["armature"] = bpy.context.active_object.name
    result["export"] = call(bpy.ops.animspec.export_animbin, filepath=str(path), which="all")
    result["export_bytes_equal"] = path.exists() and path.read_bytes() == (EXAMPLES / "swing.animbin").read_bytes()
    result["export_again"] = call(bpy.ops.animspec.export_animbin, filepath=str(path), which="all")
    result["export_overwrite"] = call(bpy.ops.animspec.export_animbin, filepath=str(path), which="all", overwrite=True)
    # sparse.animbin: the validator warns (sparse-keys) and the file is still written.
    fresh_scene()
    call(bpy.ops.animspec.import_animbin, filepath=str(EXAMPLES / "sparse.animbin"), meshbin=str(MESHBIN))
    print("--- export of sparse.animbin ---", flush=True)
    result["export_sparse"] = call(bpy.ops.animspec.export_animbin, filepath=str(out / "operator_sparse.animbin"))
    print("--- end ---", flush=True)
    refused = out / "operator_refused.animbin"
    result["export_refused"] = call(bpy.ops.animspec.export_animbin, filepath=str(refused), which="chosen", chosen="nope")
    result["refused_exists"] = refused.exists()
    animspec_blender.unregister()
    return result


def animclip_base_pose(out: Path) -> dict:
    """walk.animclip on an armature built from biped_rig.glb (bones in the nodes' frames),
    through the operator; then on the pendulum, whose bone names hash to nothing."""
    import animspec_blender

    fresh_scene()
    animspec_blender.register()
    try:
        done = sorted(bpy.ops.animspec.import_animclip_base_pose(
            filepath=str(EXAMPLES / "walk.animclip"), rig=str(EXAMPLES / "biped_rig.glb")))
        arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
        action = arm.animation_data.action
        bpy.context.scene.frame_set(0)
        result = {
            "operator": done,
            "action": action.name,
            "tracks": {k: list(v) for k, v in action["animclip_tracks"].to_dict().items()},
            "fps": action.get("animclip_fps"),
            "bones": [b.name for b in arm.data.bones],
            # armature space (Z-up, the rig's Y-up turned as Blender's glTF importer turns it): posed bones
            "world": {pb.name: [list(r) for r in pb.matrix] for pb in arm.pose.bones},
        }
        fresh_scene()
        arm = import_meshbin(str(MESHBIN), with_mesh=False)
        bpy.context.view_layer.objects.active = arm
        try:
            result["unmatched"] = sorted(bpy.ops.animspec.import_animclip_base_pose(filepath=str(EXAMPLES / "walk.animclip")))
        except RuntimeError as exc:
            result["unmatched"] = str(exc)
    finally:
        animspec_blender.unregister()
    return result


def render(out: Path) -> None:
    """One frame of an imported animation, workbench engine, as a test artefact."""
    fresh_scene()
    arm = import_meshbin(str(MESHBIN), scale=64.0)
    import_animbin(arm, read_file(str(EXAMPLES / "swing.animbin")), region="ntsc")
    assign(arm, "swing")
    scene = bpy.context.scene
    scene.frame_set(7)
    cam_data = bpy.data.cameras.new("cam")
    cam = bpy.data.objects.new("cam", cam_data)
    scene.collection.objects.link(cam)
    # The MESHBIN's model space hangs the pendulum along +Z (down on the console), which
    # diag(1, -1, -1) puts along Blender's -Z: it hangs 3.5 units below the armature's
    # origin and swings left and right (about the console's -Y, Blender's +Y), so look from
    # the front (from -Y, Blender's Front view: screen right is +X, up is +Z).
    cam.location = (0.0, -10.0, -1.75)
    cam.rotation_euler = Euler((math.pi / 2, 0.0, 0.0))
    cam_data.type = "ORTHO"
    cam_data.ortho_scale = 8.0
    scene.camera = cam
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.resolution_x = scene.render.resolution_y = 320
    scene.render.filepath = str(out / "swing_frame7.png")
    bpy.ops.render.render(write_still=True)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    results = {"blender": bpy.app.version_string}
    for example in ("swing", "sparse"):
        results[example] = round_trip(example, out)
    results["variant"] = round_trip_variant(out)
    results["branching"] = branching(out)
    results["off_rate"] = off_rate()
    results["console"] = console_view(out)
    results["authored"] = authored_action(out)
    results["refusals"] = refusals(out)
    results["operators"] = operators(out)
    results["animclip"] = animclip_base_pose(out)
    try:
        render(out)
        results["render"] = str(out / "swing_frame7.png")
    except Exception as exc:  # a missing GPU context must not hide the other results
        results["render_error"] = f"{type(exc).__name__}: {exc}"
    tmp = out / "results.json.tmp"
    tmp.write_text(json.dumps(results))
    tmp.replace(out / "results.json")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
