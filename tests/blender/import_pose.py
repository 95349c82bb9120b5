"""Run by tests/test_blender_gltf.py in an interpreter that can ``import bpy``; not a test.

    python tests/blender/import_pose.py IN.glb OUT.json BONE [BONE ...]

imports a GLB with Blender's own glTF importer (default settings) into an empty scene at 60
fps and writes, per imported action, per frame from the action's first frame, the world
deformation of each named bone (the same measure as make_scene.world_deformations): what a
skinned mesh does in Blender after animspec's ANIMBIN -> glTF, whatever the importer makes
of bone orientations.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_scene import world_deformations  # noqa: E402  (the same measure on both sides)


def main(glb: Path, out: Path, bones: list[str]) -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = 60
    bpy.context.scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=str(glb))
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    if arm.animation_data is None:
        arm.animation_data_create()
    # The importer leaves one action assigned and the others on NLA tracks: play each alone.
    for track in list(arm.animation_data.nla_tracks):
        arm.animation_data.nla_tracks.remove(track)
    result = {}
    for action in bpy.data.actions:
        arm.animation_data.action = action
        if hasattr(arm.animation_data, "action_slot") and action.slots:
            arm.animation_data.action_slot = action.slots[0]
        first, last = (int(round(f)) for f in action.frame_range)
        frames = []
        for frame in range(first, last + 1):
            bpy.context.scene.frame_set(frame)
            frames.append(world_deformations(arm, bones))
        result[action.name] = {"first_frame": first, "deformations": frames}
    out.write_text(json.dumps(result))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
