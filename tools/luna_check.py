"""Drive Luna Engine IO Tools (the outside .animclip reader and writer) headless in Blender's bpy.

Run in the bpy venv (`make luna-check LUNA=DIR`, DIR = a git directory of
github.com/Pcniado/luna_engine_io_tools, whose HEAD is used, or an unpacked snapshot). Nothing of
Luna is copied here: the add-on is imported from DIR at run time and driven only through what a person uses in Blender's UI, its operators
(File > Export / Import "Luna Engine Anim", "Create Root Motion Empty") and its scene settings
(export frame range, fps, looping, root-motion mode).

For each synthetic clip (own rigs and actions, `CLIPS` below) the harness:

1. builds the rig and keys its action on every frame, records the source's per-frame local
   transforms in the engine's space (`engine_local`, see `engine_locals`);
2. exports the clip with Luna's exporter;
3. on a fresh copy of the rig, imports the clip with Luna's importer and records the per-frame
   local transforms that import yields: the pose-bone channels Luna keyed (`pose_basis`) and the
   same `engine_local` reconstruction as for the source;
4. (checking runs) encodes the source with animspec's encoder within `--max-error`, writes it
   with animspec's writer, imports that with Luna's importer and measures how far from the
   source Luna reads it (`<clip>.animspec.animclip` and `.animspec.json` in `--out`).

`--write DIR` writes `<clip>.animclip` and `<clip>.json` into DIR (tests/fixtures/luna is made
this way); `--compare DIR` (the default: tests/fixtures/luna) regenerates everything into
`--out` and fails if a clip's bytes or its recorded transforms differ from DIR's (a changed Luna
or Blender shows up), or if Luna reads an animspec-encoded clip further from its source than
`--max-error` (plus 2e-5 for Luna's float32 keys).

`--bvh [FILE[=METRES_PER_UNIT] ...]` measures real motion capture instead (none given: the three
CMU clips of Debian's assimp-testmodels, docs/performance.md has the figures). Each clip is
imported with Blender's own BVH importer, in metres; exported with Luna's exporter at the BVH's
frame rate (bytes recorded); encoded with animspec's encoder at its default setting (and at each
`--tolerance DEG[,UNITS]`, the expert per-component setting) and written with animspec's writer;
every file is imported back with Luna's importer (onto a fresh import of the rig, its bones
disconnected so that every translation shows) and compared with the source action in object
space on ACL's metric (tools/shell_error.py: vertices 3 cm from each joint along its local axes,
per joint per frame the worst of three; max and 99th percentile, in cm), from Blender's own
evaluated pose-bone matrices. It prints a table and fails if Luna reads an animspec clip further
from the source than animspec's own object-space error (the encoder's report when it makes one,
else animspec's decoder measured the same way) plus 2e-5 m for Luna's float32, or if animspec's
decoder and Luna's importer disagree by more than that on Luna's own file.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import subprocess
import sys
import tempfile
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import bpy  # the bpy venv only: `make luna-check`
import mathutils
import numpy as np
from shell_error import ACL_SHELL_METRES, ShellSummary, local_matrices, object_matrices, shell_errors, summarise

# Blender's armature space has Z up; the engine's joint space is Y up. Luna's importer puts a
# root joint under a +90 degree turn about X (and its exporter takes it off again), so the
# engine-space local transform of a root bone is that turn's inverse times the bone's
# armature-space matrix.
ENGINE_FROM_BLENDER = mathutils.Matrix.Rotation(-math.pi / 2, 4, "X")
FPS = 30.0


# --------------------------------------------------------------------------- rigs and actions

@dataclass(frozen=True)
class Bone:
    name: str
    parent: str | None
    head: tuple[float, float, float]
    tail: tuple[float, float, float]
    roll: float = 0.0


RIG: tuple[Bone, ...] = (
    Bone("root", None, (0.0, 0.0, 0.0), (0.0, 0.0, 0.25)),
    Bone("hips", "root", (0.0, 0.0, 1.0), (0.0, 0.0, 1.2)),
    Bone("spine", "hips", (0.0, 0.0, 1.2), (0.0, 0.1, 1.6), roll=0.3),
    Bone("head", "spine", (0.0, 0.1, 1.6), (0.0, 0.1, 1.85)),
    Bone("arm_l", "spine", (0.2, 0.0, 1.5), (0.6, 0.0, 1.5), roll=0.5),
    Bone("hand_l", "arm_l", (0.6, 0.0, 1.5), (0.8, 0.05, 1.45)),
)


@dataclass(frozen=True)
class Channels:
    """Pose-bone channels for one bone on one frame (Blender's basis: relative to the rest)."""

    location: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rotation: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)  # w, x, y, z
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)


def turn(axis: tuple[float, float, float], angle: float) -> tuple[float, float, float, float]:
    q = mathutils.Quaternion(mathutils.Vector(axis).normalized(), angle)
    return (q.w, q.x, q.y, q.z)


Pose = Callable[[int], dict[str, Channels]]


@dataclass(frozen=True)
class Clip:
    """One synthetic clip: what it exercises, its frame count, looping, and its pose per frame."""

    name: str
    purpose: str
    frames: int
    looping: bool
    pose: Pose
    root_motion: Callable[[int], tuple[tuple[float, float, float], tuple[float, float, float, float]]] | None = None


def _loop_walk(f: int) -> dict[str, Channels]:
    phase = 2 * math.pi * f / 24
    return {
        "hips": Channels(location=(0.0, 0.03 * math.sin(2 * phase), 0.0), rotation=turn((0, 1, 0), 0.15 * math.sin(phase))),
        "spine": Channels(rotation=turn((1, 0, 0), 0.1 * math.cos(phase))),
        "head": Channels(rotation=turn((0, 0, 1), 0.2 * math.sin(phase))),
        "arm_l": Channels(rotation=turn((0, 0, 1), 0.6 * math.sin(phase))),
        "hand_l": Channels(rotation=turn((1, 0, 0), 0.3 * math.sin(phase + 1.0))),
    }


def _holds(f: int) -> dict[str, Channels]:
    # Two whole-pose holds (frames 0-7 and 15-22) so a frame lookup table can share samples;
    # "head" never moves at all (a joint with no sample elements).
    if f <= 7:
        s = 0.0
    elif f <= 14:
        s = (f - 7) / 8
    elif f <= 22:
        s = 1.0
    else:
        s = 1.0 - (f - 22) / 8
    return {
        "hips": Channels(location=(0.0, 0.0, -0.2 * s)),
        "spine": Channels(rotation=turn((1, 0, 0), 0.5 * s)),
        "arm_l": Channels(location=(0.0, 0.05 * s, 0.0), rotation=turn((0, 1, 1), -1.2 * s)),
        "hand_l": Channels(rotation=turn((0, 0, 1), 0.8 * s)),
    }


def _scaled(f: int) -> dict[str, Channels]:
    # Scale keys (uniform on "spine", non-uniform on "hand_l") next to a rotation.
    s = 1.0 + 0.5 * math.sin(2 * math.pi * f / 12)
    return {
        "spine": Channels(scale=(s, s, s), rotation=turn((0, 0, 1), 0.3 * f / 11)),
        "hand_l": Channels(scale=(1.0, 2.0 - s, 1.0)),
    }


def _wide(f: int) -> dict[str, Channels]:
    # The widest deltas: a full turn (every quaternion component sweeps -1..1, a 16-bit
    # delta) and translations near the i16 limit of their shift, one beyond 8 units (a
    # coarser shift).
    a = 2 * math.pi * f / 15
    return {
        "root": Channels(location=(7.9 * math.sin(a), 0.0, -7.9 * math.cos(a))),
        "hips": Channels(rotation=turn((0.3, 1.0, 0.2), a)),
        "arm_l": Channels(location=(0.0, 11.0 * f / 15, 0.0)),
        "hand_l": Channels(rotation=turn((1, 0, 0), -a)),
    }


def _static(f: int) -> dict[str, Channels]:
    return {"spine": Channels(rotation=turn((1, 0, 0), 0.25)), "hips": Channels(location=(0.0, 0.1, 0.0))}


def _stride(f: int) -> dict[str, Channels]:
    phase = 2 * math.pi * f / 20
    return {
        "hips": Channels(rotation=turn((0, 1, 0), 0.1 * math.sin(phase))),
        "arm_l": Channels(rotation=turn((0, 0, 1), 0.4 * math.sin(phase))),
    }


def _forward(f: int):
    # Root motion: 2 m forward along Blender -Y over the clip while turning a quarter.
    t = f / 19
    return ((0.0, -2.0 * t, 0.0), turn((0, 0, 1), 0.5 * math.pi * t))


def _circle(f: int):
    a = 2 * math.pi * f / 20
    return ((math.sin(a), 1.0 - math.cos(a), 0.0), turn((0, 0, 1), a))


CLIPS: tuple[Clip, ...] = (
    Clip("loop_walk", "looping; rotation keys on five joints, translation on one", 24, True, _loop_walk),
    Clip("holds", "not looping; two whole-pose holds (static stretches), a joint that never moves, translation + rotation", 30, False, _holds),
    Clip("scale_keys", "not looping; scale keys (uniform and not) beside a rotation", 12, False, _scaled),
    Clip("wide_range", "not looping; 16-bit deltas: a full turn, translations near the limits of two shifts", 16, False, _wide),
    Clip("static_pose", "a single frame: no sample elements at all", 1, False, _static),
    Clip("root_motion", "not looping; root motion (forward + quarter turn) on Luna's root-motion Empty", 20, False, _stride, _forward),
    Clip("root_motion_loop", "looping; root motion along a circle", 20, True, _stride, _circle),
)


# --------------------------------------------------------------------------- Blender scene work

def clear_scene() -> None:
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for collection in (bpy.data.armatures, bpy.data.actions, bpy.data.meshes, bpy.data.cameras):
        for item in list(collection):
            collection.remove(item)


def make_rig(name: str) -> bpy.types.Object:
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    activate(obj)
    bpy.ops.object.mode_set(mode="EDIT")
    for bone in RIG:
        eb = data.edit_bones.new(bone.name)
        eb.head, eb.tail, eb.roll = bone.head, bone.tail, bone.roll
        if bone.parent:
            eb.parent = data.edit_bones[bone.parent]
            eb.use_connect = False
    bpy.ops.object.mode_set(mode="OBJECT")
    for pb in obj.pose.bones:
        pb.rotation_mode = "QUATERNION"
    return obj


def activate(obj: bpy.types.Object) -> None:
    bpy.context.view_layer.update()
    for other in bpy.context.view_layer.objects:
        if other is not None:
            other.select_set(False)
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)


def key_action(rig: bpy.types.Object, clip: Clip) -> None:
    """Key every channel of every bone on every frame, so each frame's value is exact."""
    rig.animation_data_create()
    rig.animation_data.action = bpy.data.actions.new(clip.name + "_source")
    for f in range(clip.frames):
        pose = clip.pose(f)
        for pb in rig.pose.bones:
            ch = pose.get(pb.name, Channels())
            pb.location, pb.rotation_quaternion, pb.scale = ch.location, ch.rotation, ch.scale
            for path in ("location", "rotation_quaternion", "scale"):
                pb.keyframe_insert(path, frame=f)


def key_root_motion(empty: bpy.types.Object, clip: Clip) -> None:
    empty.rotation_mode = "QUATERNION"
    for f in range(clip.frames):
        loc, rot = clip.root_motion(f)
        empty.location, empty.rotation_quaternion = loc, rot
        empty.keyframe_insert("location", frame=f)
        empty.keyframe_insert("rotation_quaternion", frame=f)


def _f(x: float) -> float:
    return float(f"{float(x):.9g}")


def _decomposed(m: mathutils.Matrix) -> tuple[list[float], list[float], list[float]]:
    t, q, s = m.decompose()
    return [_f(v) for v in t], [_f(q.x), _f(q.y), _f(q.z), _f(q.w)], [_f(v) for v in s]


def engine_locals(rig: bpy.types.Object, frames: int) -> dict:
    """Per frame and bone, the local transform in the engine's joint space.

    A child's local = its parent's rest inverse times its own rest times its pose basis (the
    transform from the parent's posed frame to its own); a root's = the Y-up turn times its
    rest times its basis. Rotation quaternions are (x, y, z, w); their sign is not meaningful."""
    rest = {b.name: b.matrix_local.copy() for b in rig.data.bones}
    out = {"translation": [], "rotation_xyzw": [], "scale": []}
    for f in range(frames):
        bpy.context.scene.frame_set(f)
        rows = ([], [], [])
        for bone in RIG:
            basis = rig.pose.bones[bone.name].matrix_basis
            if bone.parent is None:
                local = ENGINE_FROM_BLENDER @ rest[bone.name] @ basis
            else:
                local = rest[bone.parent].inverted() @ rest[bone.name] @ basis
            for row, values in zip(rows, _decomposed(local)):
                row.append(values)
        for key, row in zip(out, rows):
            out[key].append(row)
    return out


def pose_basis(rig: bpy.types.Object, frames: int) -> dict:
    """Per frame and bone, the pose-bone channels as keyed (location, rotation w-x-y-z, scale)."""
    out = {"location": [], "rotation_wxyz": [], "scale": []}
    for f in range(frames):
        bpy.context.scene.frame_set(f)
        out["location"].append([[_f(v) for v in rig.pose.bones[b.name].location] for b in RIG])
        out["rotation_wxyz"].append([[_f(v) for v in rig.pose.bones[b.name].rotation_quaternion] for b in RIG])
        out["scale"].append([[_f(v) for v in rig.pose.bones[b.name].scale] for b in RIG])
    return out


def object_motion(obj: bpy.types.Object, frames: int) -> dict:
    """Per frame, an object's (the root-motion Empty's) transform relative to its parent, in
    Blender's space and in the engine's space relative to frame 0 (how the clip stores it)."""
    blender = {"location": [], "rotation_wxyz": []}
    engine = {"translation": [], "rotation_xyzw": []}
    first = None
    for f in range(frames):
        bpy.context.scene.frame_set(f)
        loc, rot = obj.location.copy(), obj.rotation_quaternion.copy().normalized()
        blender["location"].append([_f(v) for v in loc])
        blender["rotation_wxyz"].append([_f(v) for v in rot])
        m = ENGINE_FROM_BLENDER @ mathutils.Matrix.Translation(loc) @ rot.to_matrix().to_4x4() @ ENGINE_FROM_BLENDER.inverted()
        first = first if first is not None else m.inverted()
        t, q, _s = _decomposed(first @ m)
        engine["translation"].append(t)
        engine["rotation_xyzw"].append(q)
    return {"blender": blender, "engine_relative_to_frame_0": engine}


# --------------------------------------------------------------------------- Luna, driven like a person

def unpack_git_snapshot(git_dir: Path) -> tuple[Path, str]:
    """Check out HEAD of a (bare) git directory of the add-on into a temporary directory.

    File by file rather than `git archive`: a mirror may lack a large blob (the snapshot of
    77ea909 lacks its symbol-cache JSON, which the add-on only reads if present), and
    `git archive` stops at the first missing one."""
    commit = subprocess.run(["git", "-C", str(git_dir), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    listing = subprocess.run(["git", "-C", str(git_dir), "ls-tree", "-r", "HEAD"], capture_output=True, text=True, check=True).stdout
    target = Path(tempfile.mkdtemp(prefix="luna-snapshot-"))
    for line in listing.splitlines():
        meta, path = line.split("\t", 1)
        blob = meta.split()[2]
        content = subprocess.run(["git", "-C", str(git_dir), "cat-file", "blob", blob], capture_output=True)
        if content.returncode != 0:
            print(f"luna_check: {path} is missing from the snapshot, left out", file=sys.stderr)
            continue
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        (target / path).write_bytes(content.stdout)
    return target, commit


def load_luna(luna: Path) -> str:
    """Import the add-on and register it, as Blender does when it is enabled; returns the commit.

    ``luna`` is an unpacked snapshot, or a git directory of the repository (its HEAD is used)."""
    commit = "unknown"
    if (luna / "HEAD").is_file() and (luna / "objects").is_dir():
        luna, commit = unpack_git_snapshot(luna)
    elif (luna / ".git").exists():
        luna, commit = unpack_git_snapshot(luna / ".git")
    if not (luna / "blender_manifest.toml").is_file():
        raise SystemExit(f"luna_check: {luna} is not a Luna Engine IO Tools snapshot (no blender_manifest.toml); pass LUNA=DIR")
    holder = Path(tempfile.mkdtemp(prefix="luna-addon-"))
    (holder / "luna_engine_io").symlink_to(luna.resolve(), target_is_directory=True)
    sys.path.insert(0, str(holder))
    importlib.import_module("luna_engine_io").register()
    return commit


def luna_export(rig: bpy.types.Object, path: Path, frames: range, *, fps: float = FPS, looping: bool = False,
                root_motion: bool = False) -> None:
    """Export Blender frames ``frames`` (a step-1 range) of the rig's action with Luna's
    exporter at ``fps``, as a person sets it up in the add-on's export panel."""
    activate(rig)
    scene = bpy.context.scene
    # Each setting's update stores the scene's settings on the active armature, so the
    # exporter's own settings sync finds them and keeps them.
    scene.engine_anim_fps = fps
    scene.engine_export_frame_start = frames.start
    scene.engine_export_frame_end = frames.stop - 1
    scene.engine_export_looping = looping
    scene.engine_export_add_stg_header = True
    scene.engine_root_motion_export_mode = "OVERWRITE" if root_motion else "INPLACE"
    result = bpy.ops.export_anim.engine_anim(filepath=str(path))
    if result != {"FINISHED"} or not path.is_file():
        raise SystemExit(f"luna_check: Luna's exporter did not write {path} ({result})")


def luna_import(path: Path, fresh_rig: Callable[[], bpy.types.Object] | None = None
                ) -> tuple[bpy.types.Object, bpy.types.Object | None]:
    """Import ``path`` with Luna's importer onto a fresh rig (``fresh_rig``; default the
    synthetic RIG) in an emptied scene."""
    clear_scene()
    rig = fresh_rig() if fresh_rig is not None else make_rig("rig")
    activate(rig)
    result = bpy.ops.import_anim.engine_anim(filepath=str(path))
    if result != {"FINISHED"}:
        raise SystemExit(f"luna_check: Luna's importer refused {path} ({result})")
    empty = rig.parent if rig.parent is not None and rig.parent.type == "EMPTY" else None
    return rig, empty


# --------------------------------------------------------------------------- the record

def name_hash(name: str) -> int:
    """The DAT1 name hash (CRC-32 seeded with 0xEDB88320, no final XOR), as Joint Hashes holds."""
    return zlib.crc32(name.encode(), 0xEDB88320 ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def joint_table() -> list[dict]:
    names = [b.name for b in RIG]
    return [
        {"name": b.name, "hash": f"0x{name_hash(b.name):08X}", "parent": names.index(b.parent) if b.parent else -1, "head": list(b.head), "tail": list(b.tail), "roll": b.roll}
        for b in RIG
    ]


def make_clip(clip: Clip, out_dir: Path) -> dict:
    clear_scene()
    rig = make_rig("rig")
    key_action(rig, clip)
    source = {"engine_local": engine_locals(rig, clip.frames)}
    if clip.root_motion is not None:
        activate(rig)
        if bpy.ops.anim.create_root_motion_empty() != {"FINISHED"} or rig.parent is None:
            raise SystemExit("luna_check: Luna's 'Create Root Motion Empty' did not make an Empty")
        key_root_motion(rig.parent, clip)
        source["root_motion"] = object_motion(rig.parent, clip.frames)
    path = out_dir / f"{clip.name}.animclip"
    luna_export(rig, path, range(clip.frames), looping=clip.looping, root_motion=clip.root_motion is not None)

    imported, empty = luna_import(path)
    luna = {"pose_basis": pose_basis(imported, clip.frames), "engine_local": engine_locals(imported, clip.frames)}
    if empty is not None and empty.animation_data and empty.animation_data.action:
        luna["root_motion"] = object_motion(empty, clip.frames)
    return {
        "clip": path.name,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "purpose": clip.purpose,
        "frames": clip.frames,
        "fps": FPS,
        "looping": clip.looping,
        "root_motion": clip.root_motion is not None,
        "joints": joint_table(),
        "conventions": {
            "engine_local": "per frame, per joint (joints order): translation [x,y,z], rotation [x,y,z,w] (sign not meaningful), scale [x,y,z]; a child's transform relative to its parent, a root's in the engine's Y-up space",
            "pose_basis": "per frame, per joint: Blender pose-bone channels relative to the rest pose, location, rotation [w,x,y,z], scale",
            "root_motion": "per frame: the root-motion Empty's transform, in Blender's space and in the engine's relative to frame 0",
        },
        "source": source,
        "luna_import": luna,
    }


def _flat(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, (int, float)) or (isinstance(v, list) and _flat(v)) for v in value) \
        and not any(isinstance(v, list) and any(isinstance(w, list) for w in v) for v in value)


def dumps(value, depth: int = 0) -> str:
    """JSON with one line per frame (a frame's joints x components on one line)."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}" if items else "{}"
    if isinstance(value, list) and value and not _flat(value):
        return "[\n" + ",\n".join(f"{inner}{dumps(v, depth + 1)}" for v in value) + f"\n{pad}]"
    return json.dumps(value, separators=(",", ":"))


def animspec_through_luna(clip: Clip, source: dict, out_dir: Path, max_error: float) -> dict:
    """Encode the source's per-frame transforms with animspec's encoder, write the clip with
    animspec's writer, import it with Luna's importer, and measure Luna's reading against the
    source. Returns the errors (Luna's reading vs. the source, and what the encoder reported)."""
    from animspec.animclip.frames.sections import clip_model
    from animspec.animclip.frames.encode import Frames, encode
    from animspec.animclip.write import write_bytes

    frames = Frames(np.asarray(source["rotation_xyzw"]), np.asarray(source["translation"]), np.asarray(source["scale"]))
    # large=False: the clip model cannot hold large elements yet (frames/sections.py)
    encoded = encode(frames, component_tolerance(max_error), looping=clip.looping, large=False)
    path = out_dir / f"{clip.name}.animspec.animclip"
    path.write_bytes(write_bytes(clip_model(encoded, [name_hash(b.name) for b in RIG], fps=FPS, name=clip.name)))
    rig, _empty = luna_import(path)
    read = engine_locals(rig, clip.frames)
    want_q, got_q = np.asarray(source["rotation_xyzw"]), np.asarray(read["rotation_xyzw"])
    return {
        "clip": path.name,
        "bytes": path.stat().st_size,
        "sample_data_bytes": len(encoded.sample_data_bytes()),
        "lookup": encoded.lookup is not None,
        "large_elements": encoded.num_large,
        "encoder_error": as_components(encoded.error),
        "luna_read_error": {
            "rotation": float(np.minimum(np.abs(got_q - want_q).max(-1), np.abs(got_q + want_q).max(-1)).max()),
            "translation": largest_difference(read["translation"], source["translation"]),
            "scale": largest_difference(read["scale"], source["scale"]),
        },
    }


def component_tolerance(max_error: float):
    """The encoder's tolerance that keeps every component within ``max_error`` (what this check
    compares): an angle a moves a unit quaternion by 2 sin(a / 4) < a / 2, so a rotation within
    2 max_error radians; translation (a distance) and scale (a ratio, scales near 1) within it."""
    from animspec.animclip.frames.encode import Tolerance

    return Tolerance(math.degrees(2 * max_error), max_error, max_error)


def as_components(error) -> dict:
    """An encoder's ClipError as bounds on the components: the largest quaternion component move
    of its angle, its distance, its scale ratio (scales near 1)."""
    return {"rotation": 2 * math.sin(math.radians(error.rotation.worst) / 4),
            "translation": error.translation.worst, "scale": error.scale.worst}


def addon_through_luna(clip: Clip, source: dict, out_dir: Path, max_error: float) -> dict:
    """Export the source action with animspec's Blender add-on (File > Export > .animclip
    animation, no template), import that clip with Luna's importer, and measure Luna's reading
    against the source. Root motion is not exported by the add-on (only the bones are compared)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "blender"))
    from animspec_blender.animclip_anim import export_animclip, write_animclip

    clear_scene()
    rig = make_rig("rig")
    key_action(rig, clip)
    bpy.context.scene.render.fps, bpy.context.scene.render.fps_base = int(FPS), 1.0
    tolerance = component_tolerance(max_error)
    result = export_animclip(rig, max_rotation_error_deg=tolerance.rotation_deg, max_translation_error=max_error,
                             looping=clip.looping)
    path = out_dir / f"{clip.name}.addon.animclip"
    path.unlink(missing_ok=True)
    write_animclip(result, str(path))
    rig, _empty = luna_import(path)
    read = engine_locals(rig, clip.frames)
    want_q, got_q = np.asarray(source["rotation_xyzw"]), np.asarray(read["rotation_xyzw"])
    e = result.error
    return {
        "clip": path.name,
        "bytes": path.stat().st_size,
        "exporter_error": as_components(e),
        "luna_read_error": {
            "rotation": float(np.minimum(np.abs(got_q - want_q).max(-1), np.abs(got_q + want_q).max(-1)).max()),
            "translation": largest_difference(read["translation"], source["translation"]),
            "scale": largest_difference(read["scale"], source["scale"]),
        },
    }


def write_record(record: dict, path: Path) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(dumps(record) + "\n")
    tmp.replace(path)


def largest_difference(a, b) -> float:
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(x - y))) if x.size else 0.0


def compare(made: Path, reference: Path, names: list[str]) -> list[str]:
    problems = []
    for name in names:
        new_clip, old_clip = made / f"{name}.animclip", reference / f"{name}.animclip"
        if not old_clip.is_file():
            problems.append(f"{old_clip}: missing (make it with --write)")
            continue
        if new_clip.read_bytes() != old_clip.read_bytes():
            problems.append(f"{name}.animclip: Luna now writes different bytes than the fixture")
        new, old = (json.loads((d / f"{name}.json").read_text()) for d in (made, reference))
        for part in ("source", "luna_import"):
            for key, values in old[part]["engine_local"].items():
                diff = largest_difference(values, new[part]["engine_local"][key])
                if diff > 1e-6:
                    problems.append(f"{name}.json {part}.engine_local.{key}: differs by {diff:g}")
    return problems


# --------------------------------------------------------------------------- real motion capture (--bvh)

BVH_DIR = Path("/usr/share/assimp/models/BVH")
"""Debian's assimp-testmodels: three real motion-capture clips."""
CMU_METRES_PER_UNIT = 0.0254 / 0.45
"""The CMU motion-capture database's BVH unit: 5.644 cm (inches over 0.45)."""
MOCAP: tuple[tuple[str, float], ...] = (
    ("01_01.bvh", CMU_METRES_PER_UNIT),
    ("01_03.bvh", CMU_METRES_PER_UNIT),
    ("Boxing_Toes.bvh", 0.01),  # centimetres
)
"""The clips `--bvh` measures when given none, each with its metres per BVH unit: every clip is
brought to metres, the games' unit."""
FLOAT32_SLACK = 2e-5
"""Luna keys float32 and goes through Blender's float32 matrices: the metres allowed on top of
the encoder's own error when Luna reads an animspec clip."""
CM = 100.0


@dataclass(frozen=True)
class Mocap:
    path: Path
    metres_per_unit: float

    @property
    def name(self) -> str:
        return self.path.stem

    @staticmethod
    def parse(text: str) -> Mocap:
        """FILE or FILE=METRES_PER_UNIT; a bare name of MOCAP's is found in BVH_DIR."""
        path, _, unit = text.partition("=")
        known = dict(MOCAP)
        if not unit and Path(path).name not in known:
            raise SystemExit(f"luna_check: --bvh {text}: give its unit as FILE=METRES_PER_UNIT")
        found = Path(path) if Path(path).is_file() else BVH_DIR / path
        return Mocap(found, float(unit) if unit else known[Path(path).name])


def import_bvh(clip: Mocap) -> bpy.types.Object:
    """The clip through Blender's own BVH importer, in metres, with quaternion rotation channels
    (Luna's importer keys quaternions: a rig left in the BVH's Euler modes would ignore them);
    the importer keys the BVH's frames from Blender frame 1 on."""
    result = bpy.ops.import_anim.bvh(filepath=str(clip.path), global_scale=clip.metres_per_unit,
                                     rotate_mode="QUATERNION", update_scene_fps=True, update_scene_duration=True)
    rig = bpy.context.view_layer.objects.active
    if result != {"FINISHED"} or rig is None or rig.type != "ARMATURE":
        raise SystemExit(f"luna_check: Blender's BVH importer did not read {clip.path} ({result})")
    return rig


def bvh_header(path: Path) -> tuple[int, float]:
    """The BVH's frame count and frame time (seconds), from its MOTION header."""
    frames = frame_time = None
    with path.open() as f:
        for line in f:
            key, _, value = line.partition(":")
            if key.strip() == "Frames":
                frames = int(value)
            elif key.strip() == "Frame Time":
                frame_time = float(value)
                break
    if frames is None or frame_time is None:
        raise SystemExit(f"luna_check: {path}: no Frames / Frame Time header")
    return frames, frame_time


def pose_matrices(rig: bpy.types.Object, names: list[str], frames: range) -> np.ndarray:
    """(frames, joints, 4, 4): Blender's evaluated pose-bone matrices (armature space)."""
    bones = [rig.pose.bones[n] for n in names]
    out = np.empty((len(frames), len(names), 4, 4))
    for i, f in enumerate(frames):
        bpy.context.scene.frame_set(f)
        for j, pb in enumerate(bones):
            out[i, j] = pb.matrix
    return out


def engine_frames(matrices: np.ndarray, parents: list[int]):
    """The engine-space local transforms Luna's exporter writes for these armature-space
    matrices, as animspec's encoder takes them: a child's relative to its parent's posed
    transform, a root's under the Y-up turn."""
    from animspec.animclip.frames.encode import Frames
    from animspec.quaternion import matrix_to_quat, wxyz_to_xyzw

    turn = np.array(ENGINE_FROM_BLENDER)
    local = np.empty_like(matrices)
    for j, p in enumerate(parents):
        local[:, j] = turn @ matrices[:, j] if p < 0 else np.linalg.inv(matrices[:, p]) @ matrices[:, j]
    scale = np.linalg.norm(local[..., :3, :3], axis=-2)
    rotation = np.array([[wxyz_to_xyzw(matrix_to_quat(m)) for m in row] for row in local[..., :3, :3]])
    return Frames(rotation, local[..., :3, 3], scale)


Expert = tuple[float, float | None]
"""A per-component tolerance: rotation degrees, translation units (None: the encoder's default)."""


@dataclass(frozen=True)
class AnimspecEncoding:
    encoded: object
    setting: str
    reported: ShellSummary | None
    """The encoder's own object-space error (clip units), None when it reports none."""


def animspec_encode(frames, parents: list[int], expert: Expert | None) -> AnimspecEncoding:
    """The one adapter to animspec's encoder. Its object-space API (``ObjectTolerance``,
    ``parents=``, ``enc.object_error``) when the library has it, else the per-component
    ``Tolerance`` of today, whose report is in components (``enc.error``). ``expert``: a
    per-component tolerance (degrees, and units or None for the encoder's default), the expert
    setting; None: the encoder's default setting."""
    from animspec.animclip.frames import encode as encoder

    object_tolerance = getattr(encoder, "ObjectTolerance", None)
    if expert is not None:
        deg, units = expert
        tolerance = encoder.Tolerance(deg) if units is None else encoder.Tolerance(deg, units, units)
        setting = f"Tolerance({tolerance.rotation_deg:g} deg, {tolerance.translation:g} units)"
    elif object_tolerance is not None:
        tolerance, setting = object_tolerance(), "default (ObjectTolerance())"
    else:
        tolerance = encoder.Tolerance()
        setting = f"default (Tolerance(): {tolerance.rotation_deg:g} deg, {tolerance.translation:g} units)"
    if object_tolerance is None:
        return AnimspecEncoding(encoder.encode(frames, tolerance), setting, None)
    enc = encoder.encode(frames, tolerance, parents=parents)
    err = enc.object_error
    where = (getattr(err, "joint", -1), getattr(err, "frame", -1))
    return AnimspecEncoding(enc, setting, ShellSummary(err.max, err.p99, *where))


def decoder_error(data: bytes, frames, parents: list[int]) -> ShellSummary:
    """Object-space error (clip units) of the written clip as animspec's own decoder reads it,
    against the frames encoded: what the encoder would report in object space when it reports
    only components."""
    from animspec.animclip.frames.decode import decode_clip
    from animspec.animclip.parse import read_bytes

    rot, pos, scl = frames.checked()
    read = decode_clip(read_bytes(data)).frames(0, rot.shape[0])
    want = object_matrices(local_matrices(rot, pos, scl), parents)
    got = object_matrices(local_matrices(read.rotation, read.translation, read.scale), parents)
    return summarise(shell_errors(want, got, ACL_SHELL_METRES))


def mocap_check(clip: Mocap, out_dir: Path, settings: list[Expert | None]) -> tuple[dict, list[str]]:
    """Luna's exporter and animspec's encoder on one BVH clip, both read back by Luna's
    importer and measured against the source action in object space (ACL's metric)."""
    from animspec.animclip.frames.sections import clip_model
    from animspec.animclip.write import write_bytes

    count, frame_time = bvh_header(clip.path)
    clear_scene()
    rig = import_bvh(clip)
    fps = float(bpy.context.scene.render.fps)  # what Blender makes of 1 / Frame Time
    names = [b.name for b in rig.data.bones]
    parents = [names.index(b.parent.name) if b.parent else -1 for b in rig.data.bones]
    source = pose_matrices(rig, names, range(1, count + 1))

    def fresh_rig() -> bpy.types.Object:
        target = import_bvh(clip)
        target.animation_data.action = None
        # Blender ignores the location channels of a connected bone, and the BVH importer
        # connects some (CMU's UpLegs): the target rig is disconnected (its rest pose unchanged)
        # so that every translation the file holds shows, as in the engine.
        activate(target)
        bpy.ops.object.mode_set(mode="EDIT")
        for bone in target.data.edit_bones:
            bone.use_connect = False
        bpy.ops.object.mode_set(mode="OBJECT")
        return target

    def luna_reads(path: Path) -> ShellSummary:
        imported, _empty = luna_import(path, fresh_rig)
        read = pose_matrices(imported, names, range(count))  # Luna keys from frame 0
        return summarise(shell_errors(source, read, ACL_SHELL_METRES)).scaled(CM)

    luna_path = out_dir / f"{clip.name}.luna.animclip"
    luna_export(rig, luna_path, range(1, count + 1), fps=fps)
    record: dict = {
        "clip": clip.path.name, "frames": count, "joints": len(names), "bvh_frame_time": frame_time, "fps": fps,
        "metres_per_unit": clip.metres_per_unit, "shell_cm": ACL_SHELL_METRES * CM,
        "luna": {"bytes": luna_path.stat().st_size, "read_cm": asdict(luna_reads(luna_path))},
        "animspec": [],
    }
    frames = engine_frames(source, parents)
    # Luna's own file through animspec's decoder: the same error as Luna's importer finds, if
    # the decoder and this harness's engine-space frames agree with Luna on real data
    record["luna"]["animspec_decoder_cm"] = asdict(decoder_error(luna_path.read_bytes(), frames, parents).scaled(CM))
    problems = []
    if abs(record["luna"]["animspec_decoder_cm"]["max"] - record["luna"]["read_cm"]["max"]) > FLOAT32_SLACK * CM:
        problems.append(f"{luna_path.name}: animspec's decoder reads Luna's file "
                        f"{record['luna']['animspec_decoder_cm']['max']:.4f} cm off, Luna's importer "
                        f"{record['luna']['read_cm']['max']:.4f} cm")
    for expert in settings:
        ours = animspec_encode(frames, parents, expert)
        tag = "default" if expert is None else "-".join(f"{v:g}" for v in expert if v is not None)
        path = out_dir / f"{clip.name}.animspec-{tag}.animclip"
        data = write_bytes(clip_model(ours.encoded, [name_hash(n) for n in names], fps=fps, name=clip.name))
        path.write_bytes(data)
        decoded = decoder_error(data, frames, parents)
        reported = ours.reported if ours.reported is not None else decoded
        read = luna_reads(path)
        components = getattr(ours.encoded, "error", None)
        record["animspec"].append({
            "setting": ours.setting, "bytes": len(data),
            "reported_by": "encoder" if ours.reported is not None
            else "animspec's decoder (the encoder reports components)",
            "own_cm": asdict(reported.scaled(CM)),
            "decoder_cm": asdict(decoded.scaled(CM)),
            "component_error": as_components(components) if components is not None else None,
            "read_cm": asdict(read),
        })
        if read.max > (reported.max + FLOAT32_SLACK) * CM:
            problems.append(f"{path.name}: Luna reads it {read.max:.4f} cm off the source, over animspec's "
                            f"{reported.max * CM:.4f} cm (+{FLOAT32_SLACK * CM:g} cm float32 slack)")
    return record, problems


def mocap_table(records: list[dict]) -> str:
    rows = ["| clip | frames x joints | Luna bytes | Luna max / p99 cm (animspec's decoder: max) "
            "| animspec setting | animspec bytes "
            "| Luna reads animspec max / p99 cm | animspec's own max / p99 cm |",
            "|---|---|---|---|---|---|---|---|"]
    for r in records:
        luna = r["luna"]
        for a in r["animspec"]:
            rows.append(f"| {r['clip']} | {r['frames']} x {r['joints']} | {luna['bytes']:,} "
                        f"| {luna['read_cm']['max']:.4f} / {luna['read_cm']['p99']:.4f} "
                        f"({luna['animspec_decoder_cm']['max']:.4f}) "
                        f"| {a['setting']} | {a['bytes']:,} "
                        f"| {a['read_cm']['max']:.4f} / {a['read_cm']['p99']:.4f} "
                        f"| {a['own_cm']['max']:.4f} / {a['own_cm']['p99']:.4f} |")
    return "\n".join(rows)


def expert_tolerance(text: str) -> Expert:
    deg, _, units = text.partition(",")
    return float(deg), float(units) if units else None


def run_mocap(opts: argparse.Namespace, commit: str) -> int:
    clips = [Mocap.parse(t) for t in opts.bvh] if opts.bvh else [Mocap(BVH_DIR / n, u) for n, u in MOCAP]
    for clip in clips:
        if not clip.path.is_file():
            raise SystemExit(f"luna_check: {clip.path} is missing (Debian's assimp-testmodels)")
    out_dir = opts.out / "mocap"
    out_dir.mkdir(parents=True, exist_ok=True)
    settings: list[Expert | None] = [None, *(opts.tolerance or [])]
    records, problems = [], []
    for clip in clips:
        record, found = mocap_check(clip, out_dir, settings)
        record["made_with"] = {"luna_commit": commit, "bpy_version": bpy.app.version_string}
        write_record(record, out_dir / f"{clip.name}.json")
        records.append(record)
        problems += found
        print("\n".join(f"luna_check: {row}" for row in mocap_table([record]).splitlines()[2:]), flush=True)
    print(f"Luna {commit}, Blender {bpy.app.version_string}; object-space error, ACL's metric "
          f"(vertices {ACL_SHELL_METRES * CM:g} cm from each joint), against Blender's evaluated source pose")
    print(mocap_table(records))
    for p in problems:
        print(f"luna_check: {p}", file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--luna", type=Path, required=True, help="Luna Engine IO Tools: a git directory of it (HEAD is used) or an unpacked snapshot")
    parser.add_argument("--write", type=Path, help="write the clips and their JSON into this directory")
    parser.add_argument("--compare", type=Path, default=Path("tests/fixtures/luna"), help="fixtures to compare a fresh run with")
    parser.add_argument("--out", type=Path, default=Path("build/luna-check"), help="where a checking run writes (default build/luna-check)")
    parser.add_argument("--only", action="append", help="only this clip (repeatable)")
    parser.add_argument("--max-error", type=float, default=1e-3,
                        help="tolerance for the clips animspec encodes and Luna reads back (default 1e-3)")
    parser.add_argument("--bvh", nargs="*", metavar="FILE[=METRES_PER_UNIT]",
                        help="instead of the synthetic clips: real motion capture, exported by Luna and by animspec "
                             "and read back by Luna, in object space (none given: Debian's three CMU clips)")
    parser.add_argument("--tolerance", type=expert_tolerance, action="append", metavar="DEG[,UNITS]",
                        help="with --bvh: also encode at this per-component tolerance, the encoder's expert "
                             "setting (rotation degrees, translation units; repeatable)")
    opts = parser.parse_args(argv if argv is not None else args)
    if opts.bvh is not None:
        return run_mocap(opts, load_luna(opts.luna))

    out_dir = opts.write or opts.out
    out_dir.mkdir(parents=True, exist_ok=True)
    commit = load_luna(opts.luna)
    clips = [c for c in CLIPS if not opts.only or c.name in opts.only]
    made = {
        "luna_commit": commit,
        "bpy_version": bpy.app.version_string,
        "clips": [],
    }
    problems = []
    for clip in clips:
        record = make_clip(clip, out_dir)
        record["made_with"] = {"luna_commit": made["luna_commit"], "bpy_version": made["bpy_version"]}
        write_record(record, out_dir / f"{clip.name}.json")
        made["clips"].append(clip.name)
        print(f"luna_check: {clip.name}: {record['frames']} frames, {len(record['joints'])} joints -> {out_dir / record['clip']}")
        if opts.write:
            continue
        ours = animspec_through_luna(clip, record["source"]["engine_local"], out_dir, opts.max_error)
        luna_err, enc_err = ours["luna_read_error"], ours["encoder_error"]
        print(f"luna_check: {ours['clip']}: {ours['bytes']} bytes (Luna's: {(out_dir / record['clip']).stat().st_size}), "
              f"Luna reads it within rotation {luna_err['rotation']:.2e}, translation {luna_err['translation']:.2e}, "
              f"scale {luna_err['scale']:.2e} (encoder: {enc_err['rotation']:.2e}, {enc_err['translation']:.2e}, {enc_err['scale']:.2e})")
        for kind, value in luna_err.items():
            # Luna keys float32 and goes through Blender's matrices: allow 2e-5 on top
            if value > max(opts.max_error, enc_err[kind]) + 2e-5:
                problems.append(f"{ours['clip']}: Luna reads {kind} {value:.2e} off the source, over the {opts.max_error:g} asked")
        write_record(ours, out_dir / f"{clip.name}.animspec.json")
        addon = addon_through_luna(clip, record["source"]["engine_local"], out_dir, opts.max_error)
        luna_err, enc_err = addon["luna_read_error"], addon["exporter_error"]
        print(f"luna_check: {addon['clip']} (the Blender add-on's export): Luna reads it within rotation "
              f"{luna_err['rotation']:.2e}, translation {luna_err['translation']:.2e}, scale {luna_err['scale']:.2e}")
        for kind, value in luna_err.items():
            if value > max(opts.max_error, enc_err[kind]) + 2e-5:
                problems.append(f"{addon['clip']}: Luna reads {kind} {value:.2e} off the source, over the {opts.max_error:g} asked")
        write_record(addon, out_dir / f"{clip.name}.addon.json")
    if opts.write:
        return 0
    problems += compare(out_dir, opts.compare, made["clips"])
    for p in problems:
        print(f"luna_check: {p}", file=sys.stderr)
    print(f"luna_check: {len(made['clips'])} clips, {len(problems)} differences from {opts.compare}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
