"""Skeletons from files, whatever holds them: a MESHBIN file's bone table or a glTF skin.

Which of the two a file is comes from its bytes, through the format registry's rig formats
(animspec.formats.RIG_FORMATS): never from its extension.
"""

from __future__ import annotations

import os
from typing import Any

from .common.errors import AnimspecError
from .common.inputs import read_head_or_fail
from .formats import HEAD_SIZE, RIG_FORMATS, registered, sniff
from .skeleton import Skeleton

MAX_RIG_JOINTS = 4096
"""Joints a glTF ``--skeleton`` rig may have in the order read (its skin, or the joint-names
mapping): what a clip plays on is at most 256 joints (joint ids are bytes), and game rigs
have hundreds; a rig of more is refused before its nodes are walked."""


def load_rig_source(
    path: str | os.PathLike[str], *, joint_names: list[str] | None = None, armature_space: bool = False
) -> Any:
    """The skeleton source at ``path`` as it is: a MESHBIN file's :class:`Skeleton` (in the
    console's model space), or a glTF file's :class:`animspec.gltf.Rig` (its skin, nodes and
    meshes, joints in ``joint_names`` order; ``armature_space``: roots measured from the node
    above the skeleton, as the engine exporter does). What ``convert --skeleton`` builds on."""
    path = os.fspath(path)
    head = read_head_or_fail(path, HEAD_SIZE)
    fmt = sniff(head, RIG_FORMATS)
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
        from .gltf import GltfError, read_rig

        try:
            return read_rig(
                path, joint_names=joint_names, armature_space=armature_space, max_joints=MAX_RIG_JOINTS,
                too_many=lambda joints: GltfError(
                    f"{joints} joints; a --skeleton rig is read with at most {MAX_RIG_JOINTS} joints (MAX_RIG_JOINTS): "
                    "name the joints the clip uses in a joint-names file (convert --joints FILE, play --joint-names "
                    "FILE)"
                ),
            )
        except GltfError as exc:  # name the file: the rig is a side input of the command
            raise exc if str(exc).startswith(path) else GltfError(f"{path}: {exc}") from None
    other = sniff(head, [f.name for f in registered() if f.name not in RIG_FORMATS])
    what = f"the file is {other.description}, " if other is not None else ""
    raise AnimspecError(f"{path}: {what}not a skeleton source (a MESHBIN file or a glTF/GLB with a skin)")


def load_skeleton(path: str | os.PathLike[str], *, joint_names: list[str] | None = None) -> Skeleton:
    """The skeleton at ``path`` in the console's model space, whatever holds it: a glTF rig
    is turned into it (so that either source poses an ANIMBIN the same way)."""
    source = load_rig_source(path, joint_names=joint_names)
    return source if isinstance(source, Skeleton) else source.ps1_skeleton()
