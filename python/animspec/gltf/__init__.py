"""glTF 2.0 in and out.

* :func:`gltf_to_animbin`: a skinned glTF's animations -> ANIMBIN, as the upstream exporter writes
  them (:mod:`.to_animbin`), with a report and the validator's findings.
* :func:`animbin_to_gltf`: ANIMBIN -> GLB on a skeleton (MESHBIN or a plain chain), keys as
  authored or the engine-faithful playback (:mod:`.from_animbin`); :func:`animbin_to_gltf_on_rig`:
  the same on a glTF rig's own document, its meshes and hierarchy kept.
* :func:`animclip_pose_to_gltf`: an .animclip base state posed on a glTF rig by joint-name hash;
  :func:`animclip_to_gltf`: every decoded frame of a clip (and its root motion) on
  a rig; :func:`camera_animation_to_gltf`: a camera clip as an animated glTF camera
  (:mod:`.from_animclip`).
* :func:`read_rig` / :func:`skeleton_from_gltf`: a glTF skin as a :class:`animspec.skeleton.Skeleton`
  (:mod:`.rig`); :func:`animspec.rigs.load_skeleton` takes a MESHBIN or a glTF file.

The layers, reading and writing alike:

* :mod:`.document`: the file. GLB/.gltf read (every member animspec uses checked, errors
  with the byte offset or JSON path) and GLB written (:func:`.document.write_glb`).
* :mod:`.rig` and :mod:`.sampling` read a document's skin, accessors and curves;
  :mod:`.builder` writes accessors, skeleton nodes, skins and animations into one (the
  only place that creates glTF objects).
* :mod:`.to_animbin` (with :mod:`.keyfit`), :mod:`.from_animbin` and :mod:`.from_animclip`
  only convert: what to show, in which space (:mod:`.axes`), at which times.
* Quaternion arithmetic for all of them is :mod:`animspec.quaternion`.
"""

from __future__ import annotations

from .from_animbin import animbin_to_gltf, animbin_to_gltf_document, animbin_to_gltf_on_rig
from .from_animclip import (
    AnimclipMatch,
    CameraAnimation,
    ClipAnimation,
    animclip_pose_to_gltf,
    animclip_to_gltf,
    camera_animation_to_gltf,
)
from .rig import GltfError, Rig, load_gltf, read_rig, skeleton_from_gltf
from .to_animbin import ClipReport, Conversion, gltf_to_animbin, read_markers_file

__all__ = [
    "AnimclipMatch", "CameraAnimation", "ClipAnimation", "ClipReport", "Conversion", "GltfError", "Rig",
    "animclip_to_gltf", "animclip_pose_to_gltf",
    "camera_animation_to_gltf", "gltf_to_animbin",
    "load_gltf", "read_markers_file", "read_rig", "skeleton_from_gltf",
    "animbin_to_gltf", "animbin_to_gltf_document", "animbin_to_gltf_on_rig",
]
