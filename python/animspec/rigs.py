"""Skeletons from files, whatever holds them: a MESHBIN file's bone table or a glTF skin.

Detected from the bytes ("MESHBIN" or a GLB's "glTF" magic; otherwise a .gltf JSON file).
"""

from __future__ import annotations

import os

from .common.errors import AnimspecError
from .common.inputs import read_head_or_fail
from .skeleton import Skeleton


def load_skeleton(path: str | os.PathLike[str], *, joint_names: list[str] | None = None) -> Skeleton:
    path = os.fspath(path)
    head = read_head_or_fail(path, 8)
    from .meshbin import looks_like_meshbin

    if looks_like_meshbin(head):
        from .meshbin import read_file, skeleton_from_meshbin

        skeleton = skeleton_from_meshbin(read_file(path))
        if skeleton.bone_count == 0:
            raise AnimspecError(f"{path}: the MESHBIN has no skeleton")
        try:
            skeleton.depth_levels()  # what posing needs: every parent before its child
        except ValueError as exc:
            raise AnimspecError(f"{path}: the MESHBIN skeleton cannot be posed: {exc}") from None
        return skeleton
    if head[:4] == b"glTF" or path.lower().endswith(".gltf"):
        from .gltf import read_rig

        # In the console's model space, like a MESHBIN skeleton, so that either source
        # poses an ANIMBIN the same way.
        return read_rig(path, joint_names=joint_names).ps1_skeleton()
    raise AnimspecError(f"{path}: not a skeleton source (a MESHBIN file or a glTF/GLB with a skin)")
