"""Run by tests/test_blender_gltf.py in its own interpreter, one that can ``import bpy``
(Blender 5.0.x as a Python module, from PyPI). Not a test module itself.

    python tests/blender/make_scene.py OUT_DIR

builds a small rigged scene headless, exports it with Blender's own glTF exporter at its
DEFAULT settings (only the file path and the GLB format are given), and writes, next to the
GLB, ``reference.json``: the ANIMBIN that the engine's Blender exporter would write for the
same scene, computed here from Blender's own evaluated poses. Nothing of animspec is
imported: the reference must not share code with the converter it checks.

The engine exporter's rules, in our words (the engine's Blender add-on, psyqo-madnight-engine
``tools/blender_animbin.py``, versions 2.1 and 2.2, as the project's notes describe it):

* every clip: version 1, flags 1 (looping), no markers, ROTATION keys only;
* one track per deform bone, in the armature's deform-bone order; joint id = that index;
* an action's frames ``first..last`` are baked: length = last - first + 1, key k (frame
  field k, k = 0..length-1) holds the pose at scene frame ``first + k``; in its ALL mode the
  range is cut to the engine's 30 keys;
* the root bone's key is its pose matrix in ARMATURE space (``pose_bone.matrix``, so the
  armature object's own transform is not in it) pre-multiplied by the axis change
  diag(1, -1, -1) (Blender Z-up to the console's model space, where +Z is down); any other bone's key is its pose matrix
  relative to its parent's pose matrix. Full local rotations, rest included;
* quaternion components encoded as ``int(v * 4096)`` (truncated toward zero), clamped to
  int16. A rounded encoding is written too, for a converter that rounds.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import bpy
from mathutils import Euler, Matrix, Quaternion, Vector

FPS = 60
MAX_KEYS = 30
AXIS_CHANGE = Matrix(((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0)))

# name, parent, head, tail, roll (degrees). A root that does not point along the armature's
# +Y (so its rest rotation is not the identity), three branches, and rolls here and there.
BONES = [
    ("hips", None, (0.0, 0.0, 1.0), (0.0, 0.15, 1.25), 20.0),
    ("spine", "hips", (0.0, 0.0, 1.1), (0.0, -0.05, 1.45), 0.0),
    ("chest", "spine", (0.0, -0.05, 1.45), (0.0, 0.0, 1.75), -10.0),
    ("neck", "chest", (0.0, 0.0, 1.75), (0.0, 0.02, 1.85), 0.0),
    ("head", "neck", (0.0, 0.02, 1.85), (0.0, 0.05, 2.1), 35.0),
    ("shoulder.L", "chest", (0.05, 0.0, 1.7), (0.2, 0.02, 1.68), 0.0),
    ("arm.L", "shoulder.L", (0.2, 0.02, 1.68), (0.45, 0.05, 1.5), 90.0),
    ("forearm.L", "arm.L", (0.45, 0.05, 1.5), (0.65, -0.1, 1.35), -30.0),
    ("shoulder.R", "chest", (-0.05, 0.0, 1.7), (-0.2, 0.02, 1.68), 0.0),
    ("arm.R", "shoulder.R", (-0.2, 0.02, 1.68), (-0.45, 0.05, 1.5), -90.0),
    ("thigh.L", "hips", (0.1, 0.0, 0.95), (0.12, 0.03, 0.5), 15.0),
    ("shin.L", "thigh.L", (0.12, 0.03, 0.5), (0.12, 0.08, 0.1), 0.0),
]

# name -> (first frame, last frame): one action from frame 1, others from 0, 10 and 7, and
# one longer than the engine's 30 keys.
ACTIONS = {
    "walk": (1, 24),
    "idle": (0, 29),
    "wave": (10, 29),
    "kick": (7, 21),
    "dance": (1, 48),
}

# The armature OBJECT is moved and turned: the engine exporter works in armature space, so
# none of this belongs in the ANIMBIN; Blender's glTF exporter writes it on a node.
OBJECT_LOCATION = (0.5, -1.25, 0.25)
OBJECT_ROTATION_DEG = (20.0, -15.0, 40.0)


def build_scene(turned: bool = True) -> bpy.types.Object:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.render.fps_base = 1.0

    arm_data = bpy.data.armatures.new("Rig")
    arm = bpy.data.objects.new("Rig", arm_data)
    scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    for name, parent, head, tail, roll in BONES:
        eb = arm_data.edit_bones.new(name)
        eb.head, eb.tail, eb.roll = Vector(head), Vector(tail), math.radians(roll)
        eb.use_deform = True
        if parent:
            eb.parent = arm_data.edit_bones[parent]
            eb.use_connect = False
    bpy.ops.object.mode_set(mode="OBJECT")
    arm.location = OBJECT_LOCATION
    if turned:  # else the armature object keeps Blender's default: no rotation
        arm.rotation_euler = Euler([math.radians(a) for a in OBJECT_ROTATION_DEG])

    # A skinned mesh (one small triangle per bone, weighted to it): without one the glTF
    # exporter writes no skin.
    verts, faces = [], []
    for name, _parent, head, tail, _roll in BONES:
        h, t = Vector(head), Vector(tail)
        base = len(verts)
        verts += [h, t, h + Vector((0.03, 0.0, 0.0))]
        faces.append((base, base + 1, base + 2))
    mesh = bpy.data.meshes.new("Body")
    mesh.from_pydata([tuple(v) for v in verts], [], faces)
    body = bpy.data.objects.new("Body", mesh)
    scene.collection.objects.link(body)
    for i, (name, *_rest) in enumerate(BONES):
        group = body.vertex_groups.new(name=name)
        group.add([3 * i, 3 * i + 1, 3 * i + 2], 1.0, "REPLACE")
    body.parent = arm
    body.modifiers.new("Armature", "ARMATURE").object = arm
    return arm


def key_rotation(action_index: int, bone_index: int, key_index: int) -> Quaternion:
    """A deterministic, clearly non-trivial rotation for one keyframe."""
    a = 0.9 * math.sin(1.3 * action_index + 0.7 * bone_index + 1.1 * key_index)
    b = 0.7 * math.cos(0.5 * action_index + 1.9 * bone_index + 0.6 * key_index)
    c = 0.5 * math.sin(2.3 * action_index + 0.3 * bone_index + 1.7 * key_index + 0.4)
    return Euler((a, b, c), "XYZ").to_quaternion()


def make_actions(arm: bpy.types.Object) -> list[bpy.types.Action]:
    arm.animation_data_create()
    actions = []
    for a, (name, (first, last)) in enumerate(ACTIONS.items()):
        action = bpy.data.actions.new(name)
        action.use_fake_user = True
        arm.animation_data.action = action
        key_frames = sorted({first, (2 * first + last) // 3, (first + 2 * last) // 3, last})
        for b, pbone in enumerate(arm.pose.bones):
            pbone.rotation_mode = "QUATERNION"
            for k, frame in enumerate(key_frames):
                pbone.rotation_quaternion = key_rotation(a, b, k)
                pbone.keyframe_insert("rotation_quaternion", frame=frame)
                if pbone.parent is None:
                    pbone.location = Vector((0.1 * math.sin(a + k), 0.05 * k, -0.03 * a))
                    pbone.keyframe_insert("location", frame=frame)
        actions.append(action)
    # Blender's glTF exporter (animation mode "Actions", its default) exports every action
    # that can drive the armature; the last one stays assigned.
    return actions


def fp12(value: float, rounding: bool) -> int:
    raw = round(value * 4096) if rounding else int(value * 4096)
    return max(-32768, min(32767, raw))


def world_deformations(arm: bpy.types.Object, bones: list[str]) -> list[list[float]]:
    """Per bone, the rotation a skinned vertex undergoes in the world (w, x, y, z): world
    pose times inverse world rest. Independent of how bones are oriented or named axes-wise,
    so a re-imported armature (whose bones Blender's importer orients its own way) compares
    with the original on what the viewer sees. tests/blender/import_pose.py uses the same."""
    out = []
    for name in bones:
        pbone = arm.pose.bones[name]
        pose = (arm.matrix_world @ pbone.matrix).to_3x3().normalized()
        rest = (arm.matrix_world @ pbone.bone.matrix_local).to_3x3().normalized()
        q = (pose @ rest.inverted()).to_quaternion()
        out.append([q.w, q.x, q.y, q.z])
    return out


def reference_clip(arm: bpy.types.Object, action: bpy.types.Action, deform: list[str]) -> dict:
    scene = bpy.context.scene
    arm.animation_data.action = action
    first, last = (int(round(f)) for f in action.frame_range)
    length = last - first + 1
    baked = min(length, MAX_KEYS)
    quats: list[list[list[float]]] = []
    deformations: list[list[list[float]]] = []
    for k in range(baked):
        scene.frame_set(first + k)
        frame_quats = []
        for name in deform:
            pbone = arm.pose.bones[name]
            if pbone.parent is None:
                local = AXIS_CHANGE @ pbone.matrix.to_3x3()
            else:
                local = (pbone.parent.matrix.inverted() @ pbone.matrix).to_3x3()
            q = local.to_quaternion()
            frame_quats.append([q.w, q.x, q.y, q.z])
        quats.append(frame_quats)
        deformations.append(world_deformations(arm, deform))
    return {
        "name": action.name,
        "first_frame": first,
        "last_frame": last,
        "range_length": length,
        "length": baked,
        "version": 1,
        "flags": 1,
        "markers": 0,
        "quaternions": quats,
        "keys_trunc": [[[fp12(v, False) for v in q] for q in frame] for frame in quats],
        "keys_round": [[[fp12(v, True) for v in q] for q in frame] for frame in quats],
        "world_deformations": deformations,
    }


def main(out_dir: Path, turned: bool = True) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    arm = build_scene(turned)
    actions = make_actions(arm)
    deform = [b.name for b in arm.data.bones if b.use_deform]
    glb = out_dir / "scene.glb"
    bpy.ops.export_scene.gltf(filepath=str(glb), export_format="GLB")

    clips = [reference_clip(arm, action, deform) for action in actions]
    # The exporter's root key is measured in armature space: the same clip with the
    # armature object put back at the origin must give the same keys (a check of that claim
    # on Blender itself, reported to the test).
    world = arm.matrix_world.copy()
    arm.matrix_world = Matrix.Identity(4)
    at_origin = reference_clip(arm, actions[0], deform)
    arm.matrix_world = world
    object_independent = at_origin["keys_trunc"] == clips[0]["keys_trunc"]

    reference = {
        "blender": bpy.app.version_string,
        "fps": FPS,
        "deform_bones": deform,
        "parents": [arm.data.bones[n].parent.name if arm.data.bones[n].parent else None for n in deform],
        "armature_object": {
            "name": arm.name,
            "location": list(arm.location),
            "rotation_quaternion_wxyz": list(arm.matrix_world.to_quaternion()),
        },
        "root_keys_independent_of_object_transform": object_independent,
        "animations": clips,
    }
    tmp = out_dir / "reference.json.tmp"
    tmp.write_text(json.dumps(reference))
    tmp.replace(out_dir / "reference.json")


if __name__ == "__main__":
    # --unturned: the armature object moved but not rotated (Blender's default orientation).
    main(Path(sys.argv[1]), turned="--unturned" not in sys.argv[2:])
