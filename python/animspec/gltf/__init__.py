"""glTF 2.0 in and out (issue 5).

* :func:`convert`: a skinned glTF's animations -> ANIMBIN, as the upstream exporter writes
  them (:mod:`.to_animbin`), with a report and the validator's findings.
* :func:`to_gltf`: ANIMBIN -> GLB on a skeleton (glTF rig, MESHBIN or a plain chain), keys as
  authored or the engine-faithful playback (:mod:`.from_animbin`).
* :func:`animclip_to_gltf`: an .animclip base state posed on a glTF rig by joint-name hash
  (:mod:`.from_animclip`).
* :func:`read_rig` / :func:`skeleton_from_gltf`: a glTF skin as a :class:`animspec.skeleton.Skeleton`
  (:mod:`.rig`); :func:`skeleton_from_meshbin_file` the same from a MESHBIN file.
"""

from __future__ import annotations

from ..errors import AnimspecError
from ..skeleton import Skeleton
from .from_animbin import to_gltf, to_gltf_document
from .from_animclip import AnimclipMatch, animclip_to_gltf
from .rig import GltfError, Rig, load_gltf, read_rig, skeleton_from_gltf
from .to_animbin import ClipReport, Conversion, convert, read_markers_file


def skeleton_from_meshbin_file(path: str) -> Skeleton:
    """The skeleton of a MESHBIN file (bone i = ANIMBIN joint i), in PS1 space.

    Imported lazily: :mod:`animspec.meshbin` is a separate package, and glTF conversion
    without a MESHBIN must keep working if it cannot be imported.
    """
    try:
        from ..meshbin import read_file, skeleton_from_meshbin
    except ImportError as exc:  # pragma: no cover - depends on the installed tree
        raise AnimspecError(f"MESHBIN support is not available: {exc}") from None
    found = skeleton_from_meshbin(read_file(path))
    if found.bone_count == 0:
        raise AnimspecError(f"{path}: the MESHBIN has no skeleton")
    return Skeleton(found.parents, found.rest_translation, found.rest_rotation, list(found.names))


__all__ = [
    "AnimclipMatch", "ClipReport", "Conversion", "GltfError", "Rig", "animclip_to_gltf", "convert",
    "load_gltf", "read_markers_file", "read_rig", "skeleton_from_gltf", "skeleton_from_meshbin_file",
    "to_gltf", "to_gltf_document",
]
