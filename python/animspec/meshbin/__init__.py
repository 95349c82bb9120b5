"""MESHBIN: meshes and skeletons of the psyqo "madnight" PS1 engine (ksy/meshbin.ksy).

Read with :func:`read_file` / :func:`read_bytes`, write with :func:`write_bytes`, check with
:func:`validate`, make one from mesh arrays and a skeleton with :func:`build_meshbin`;
:func:`skeleton_from_meshbin` gives the bone table as numpy arrays (bone i is ANIMBIN joint id i).
"""

from ..skeleton import Skeleton
from .build import BoundingSphere, MeshArrays, MeshbinBuildError, SkeletonBone, build_meshbin
from .info import summary
from .jsonio import from_json, to_json
from .model import FP12_ONE, MAX_BONES, MAX_FACES_PER_MESH, Bone, Face, MeshbinFile, Vertex, skeleton_from_meshbin
from .parse import looks_like_meshbin, read_bytes, read_file
from .validate import check_skeleton, validate
from .write import write_bytes

__all__ = [
    "FP12_ONE", "MAX_BONES", "MAX_FACES_PER_MESH", "Bone", "BoundingSphere", "Face", "MeshArrays",
    "MeshbinBuildError", "MeshbinFile", "Skeleton", "SkeletonBone", "build_meshbin",
    "Vertex", "check_skeleton", "from_json", "looks_like_meshbin", "read_bytes", "read_file",
    "skeleton_from_meshbin", "summary", "to_json", "validate", "write_bytes",
]
