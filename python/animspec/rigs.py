"""Skeletons from files, whatever holds them: a MESHBIN file's bone table or a glTF skin.

Which of the two a file is comes from its bytes, through the format registry's rig formats
(animspec.formats.RIG_FORMATS): never from its extension.
"""

from __future__ import annotations

import os

from .common.errors import AnimspecError
from .common.inputs import read_head_or_fail
from .formats import HEAD_SIZE, RIG_FORMATS, sniff
from .skeleton import Skeleton


def load_skeleton(path: str | os.PathLike[str], *, joint_names: list[str] | None = None) -> Skeleton:
    path = os.fspath(path)
    fmt = sniff(read_head_or_fail(path, HEAD_SIZE), RIG_FORMATS)
    if fmt is not None and fmt.name == "meshbin":
        from .meshbin import read_file, skeleton_from_meshbin

        skeleton = skeleton_from_meshbin(read_file(path))
        if skeleton.bone_count == 0:
            raise AnimspecError(f"{path}: the MESHBIN has no skeleton")
        try:
            skeleton.depth_levels()  # what posing needs: every parent before its child
        except ValueError as exc:
            raise AnimspecError(f"{path}: the MESHBIN skeleton cannot be posed: {exc}") from None
        return skeleton
    if fmt is not None and fmt.name == "gltf":
        from .gltf import read_rig

        # In the console's model space, like a MESHBIN skeleton, so that either source
        # poses an ANIMBIN the same way.
        return read_rig(path, joint_names=joint_names).ps1_skeleton()
    raise AnimspecError(f"{path}: not a skeleton source (a MESHBIN file or a glTF/GLB with a skin)")
