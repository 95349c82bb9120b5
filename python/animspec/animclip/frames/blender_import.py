"""What importing an .animclip animation into Blender would cost, decided before anything is
keyed: the Blender add-on's import (blender/animspec_blender/animclip_anim.py) asks
:func:`plan_blender_import` and applies its answer; nothing here imports ``bpy``, so the
decision is unit-tested and fuzzed without Blender (tests/test_blender_import_bounds.py,
tests/fuzz/targets.py). The errors carry their facts; the add-on words them in its panel's
terms (wording.py).

The import keys every frame of the clip on every matched bone (10 F-curve keys: location,
rotation quaternion, scale) and every root-motion sample on the armature object. A 133 KB
clip whose frame lookup points 65,535 frames at one sample asks that for 102 bones: 6.7
million bone keys, which crashed Blender. So the keys' cost in Blender, at
:data:`BLENDER_BYTES_PER_BONE_KEY`, must stay inside :func:`blender_import_bound`: the
library's memory rule for the file (:func:`.inputs.memory_bound` of its size on disk:
max(256 MiB, 64 x the file)), with a floor of :data:`BLENDER_IMPORT_FLOOR`.

The clip's frame rate becomes the scene's (fps an integer 1..32767, fps_base a float within
[1e-5, 1e6]: Blender's hard limits on RenderSettings): a rate outside what those two can hold
is refused before the scene changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...common.errors import AnimspecError
from .decode import ClipFrames
from .inputs import memory_bound

BLENDER_BYTES_PER_BONE_KEY = 1_500
"""Measured in Blender 5.0 (bpy in .venv-blender): importing clips of 1,000 and 4,000 frames on
102 bones (102,000 and 408,000 bone keys) raised the process's peak RSS by 151.6 MB and 605.0 MB,
1,486 and 1,483 bytes per bone key (the F-curve keys, their handles and the arrays that fill
them); rounded up. A root-motion sample is counted as one bone key (7 F-curve keys)."""

BLENDER_IMPORT_FLOOR = 2 << 30
"""The least a Blender import may take, whatever the file's size: 2 GiB, about 1.43 million bone
keys (150 bones for 5 minutes at 30 fps). A key in Blender costs 37 times a decoded pose (1,500
bytes against the decoder's 40), so the decoder's 256 MiB floor alone would refuse a 150-bone
clip past 40 seconds, which a game's cinematics exceed; 2 GiB is a share of a modder's machine
that leaves Blender working, and the issue's clip (10 GB) is still refused."""

BLENDER_SCENE_FPS_MAX = 32767
"""RenderSettings.fps is an integer 1..32767."""
BLENDER_FPS_BASE_RANGE = (1e-5, 1e6)
"""RenderSettings.fps_base's hard range (a float32: the lower end is 9.99999975e-06)."""
LOWEST_FPS = 1.0 / BLENDER_FPS_BASE_RANGE[1]
"""fps 1 over the largest fps_base: 1e-6 frames per second."""
HIGHEST_FPS = BLENDER_SCENE_FPS_MAX / BLENDER_FPS_BASE_RANGE[0]
"""fps 32767 over the smallest fps_base: about 3.3e9 frames per second."""


class BlenderImportTooLargeError(AnimspecError):
    """Keying the clip would take more than the bound for its file."""

    def __init__(self, path: str, file_size: int, frames: int, bones: int, motion_samples: int, keys: int,
                 need: int, limit: int):
        self.path, self.file_size, self.frames, self.bones = path, file_size, frames, bones
        self.motion_samples, self.keys, self.need, self.limit = motion_samples, keys, need, limit
        self.max_keys = limit // BLENDER_BYTES_PER_BONE_KEY
        super().__init__(
            f"{path}: {frames} frames x {bones} bones (+ {motion_samples} root-motion samples) = {keys} bone keys, "
            f"about {need} bytes in Blender; the bound for a {file_size}-byte file is {limit} bytes ({self.max_keys} "
            "bone keys)")


class BlenderFpsError(AnimspecError):
    """The clip's frame rate is outside what a Blender scene can hold."""

    def __init__(self, path: str, fps: float):
        self.path, self.fps = path, fps
        super().__init__(f"{path}: {fps!r} frames per second is outside {LOWEST_FPS:g}..{HIGHEST_FPS:g}, "
                         "the rates a Blender scene can hold")


@dataclass(frozen=True)
class BlenderImportPlan:
    """What the import may do: the keys it will make, their cost and bound, and the scene's rate."""

    keys: int
    need: int
    """Bytes, at :data:`BLENDER_BYTES_PER_BONE_KEY`."""
    limit: int
    scene_fps: int
    fps_base: float
    """scene_fps / fps_base is the clip's rate."""


def scene_rate(fps: float, path: str) -> tuple[int, float]:
    """Blender's (fps, fps_base) for a clip at ``fps``: the nearest whole rate within 1..32767,
    and the base that makes it exact; :class:`BlenderFpsError` when no base in fps_base's range
    does (or ``fps`` is not a positive finite number)."""
    if not LOWEST_FPS <= fps <= HIGHEST_FPS:  # (NaN fails too)
        raise BlenderFpsError(path, fps)
    whole = min(BLENDER_SCENE_FPS_MAX, max(1, int(round(fps))))
    return whole, whole / fps


def blender_import_bound(file_size: int) -> int:
    """The most bytes an import of a file of ``file_size`` bytes on disk may make Blender take:
    the library's :func:`.inputs.memory_bound`, at least :data:`BLENDER_IMPORT_FLOOR`."""
    return max(BLENDER_IMPORT_FLOOR, memory_bound(file_size))


def plan_blender_import(clip: ClipFrames, path: str, file_size: int, *, bones: int,
                        root_motion: bool = True) -> BlenderImportPlan:
    """The plan for keying ``clip`` (read from ``path``, ``file_size`` bytes on disk) on
    ``bones`` matched bones, its root motion too unless ``root_motion`` is False; refused with
    :class:`BlenderFpsError` or :class:`BlenderImportTooLargeError` before anything is made."""
    scene_fps, fps_base = scene_rate(float(clip.fps), path)
    frames = int(clip.frame_count)
    motion = len(clip.root_motion.translation) if root_motion and clip.root_motion is not None else 0
    keys = frames * int(bones) + motion
    need = keys * BLENDER_BYTES_PER_BONE_KEY
    limit = blender_import_bound(file_size)
    if need > limit:
        raise BlenderImportTooLargeError(path, int(file_size), frames, int(bones), motion, keys, need, limit)
    return BlenderImportPlan(keys, need, limit, scene_fps, fps_base)
