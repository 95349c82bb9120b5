"""ANIMBIN -> glTF 2.0 (GLB), so a clip can be looked at in any glTF viewer.

One glTF animation per ANIMBIN animation; key times are ``frame / refresh_hz`` for the
chosen region (one ANIMBIN frame per vsync). Joints are nodes in the skeleton's hierarchy,
named after it; with ``skinned`` (default) a skin and a small octahedral "bone" mesh per
joint, rigidly bound to it, make the motion visible.

Two ways to show a clip:

* keys (default): the keys as authored, LINEAR (glTF slerp between keys, the artist's
  intent, as :func:`animspec.animbin.playback.sample_reference` plays them), translation
  keys included. With keys on every frame this is also what the console shows.
* ``bake_engine``: one STEP key per vsync of what the console computes
  (:func:`animspec.animbin.playback.play_engine`: held keys, FP12 nlerp, translations never
  applied). STEP is the honest interpolation: the console changes pose once per vsync.

A looping clip gets a closing key at ``length / refresh_hz`` (the moment the engine resets
to frame 0) holding the last pose, so a viewer's loop takes the clip's real duration.

Axes: ANIMBIN root rotations are in the console's model space (Blender's Z-up armature
space through the exporter's diag(1, -1, -1)); :mod:`.axes` turns them into glTF's Y-up
world. A skeleton from MESHBIN (or the default chain) is in that space too and gets the same
change on its roots; a skeleton read from a glTF rig is already in glTF space
(``skeleton_space="gltf"``).

On a glTF rig (``rig=``, :func:`.rig.read_rig`, with the joint mapping the clip was made
with) the result is the rig's own document, meshes and every node above the skeleton kept,
its animations replaced by the clip's: joint id j drives the rig's j-th mapped joint, and a
key is turned back into that node's own local rotation through the rest transform of the
nodes between it and its exported parent (or the scene root), exactly inverting
:mod:`.to_animbin`.

Round trip: with keys as authored, the key values are written as stored (not renormalised,
not sign-flipped) and each animation's ``extras.animbin`` carries the clip's layout (length,
flags, file version, per track its joint, track type, and key frames and types), so
:func:`animspec.gltf.convert` rebuilds the same bytes from the GLB.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote
from typing import Any, Literal

import numpy as np
from pygltflib import (
    ANIM_LINEAR,
    ANIM_STEP,
    ARRAY_BUFFER,
    ELEMENT_ARRAY_BUFFER,
    FLOAT,
    GLTF2,
    UNSIGNED_BYTE,
    UNSIGNED_SHORT,
    Accessor,
    Animation,
    AnimationChannel,
    AnimationChannelTarget,
    AnimationSampler,
    Asset,
    Attributes,
    Buffer,
    BufferView,
    Mesh,
    Node,
    Primitive,
    Scene,
    Skin,
)

from ..animbin.model import FP12_ONE, AnimbinFile, RotationKey, TranslationKey
from ..animbin.model import Animation as AnimbinAnimation
from ..animbin.playback import Refresh, play_engine, refresh_hz, vsync_deltas
from ..common.errors import AnimspecError
from ..quaternion import conjugate, normalize, quat_multiply, sign_continuous, wxyz_to_xyzw
from ..skeleton import Skeleton, forward_kinematics
from .axes import PS1_TO_GLTF, PS1_TO_GLTF_MATRIX
from .document import GltfError, flatten_buffers
from .rig import Rig, copy_gltf, node_parents, read_accessor
from .to_animbin import MAX_SAMPLES

GENERATOR = "animspec"
KEEP_AS_STORED = 0.002
"""Rotation outputs this close to unit length are written as given: an FP12 key is within
2/4096 of unit (4 components, each off by at most 0.5 or, truncated, 1 raw unit), well
inside the Khronos validator's tolerance for unit quaternions."""


class GlbBuilder:
    """Accumulates accessors in one binary buffer and makes a single-buffer GLB.

    Given an existing document, its buffers are first flattened into the one buffer (so new
    data can be appended to a rig read from a .gltf or .glb).
    """

    def __init__(self, gltf: GLTF2 | None = None) -> None:
        if gltf is None:
            gltf = GLTF2(asset=Asset(generator=GENERATOR, version="2.0"))
            self.blob = bytearray()
        else:
            # Rewrites every bufferView to point into one blob (pygltflib pads each to 4).
            self.blob = bytearray(flatten_buffers(gltf))
        self.gltf = gltf

    def add(
        self,
        values: np.ndarray,
        component_type: int,
        accessor_type: str,
        *,
        target: int | None = None,
        bounds: bool = False,
    ) -> int:
        """Append ``values`` ((count, width), cast to the component type) as a new accessor."""
        dtype = {FLOAT: np.float32, UNSIGNED_BYTE: np.uint8, UNSIGNED_SHORT: np.uint16}[component_type]
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[accessor_type]
        array = np.ascontiguousarray(np.asarray(values).reshape(-1, width), dtype=np.dtype(dtype).newbyteorder("<"))
        self.blob += bytes(-len(self.blob) % 4)  # accessor data must be aligned to its component size
        self.gltf.bufferViews.append(
            BufferView(buffer=0, byteOffset=len(self.blob), byteLength=array.nbytes, target=target)
        )
        self.blob += array.tobytes()
        accessor = Accessor(
            bufferView=len(self.gltf.bufferViews) - 1,
            componentType=component_type,
            count=int(array.shape[0]),
            type=accessor_type,
        )
        if bounds:
            # The validator compares bounds with the stored (float32) values exactly.
            accessor.min = [_plain(v) for v in array.min(axis=0)]
            accessor.max = [_plain(v) for v in array.max(axis=0)]
        self.gltf.accessors.append(accessor)
        return len(self.gltf.accessors) - 1

    def finish(self) -> GLTF2:
        self.blob += bytes(-len(self.blob) % 4)
        self.gltf.buffers = [Buffer(byteLength=len(self.blob))]
        self.gltf.set_binary_blob(bytes(self.blob))
        return self.gltf


def _plain(v: Any) -> float | int:
    return int(v) if np.issubdtype(type(v), np.integer) else float(v)


def glb_bytes(gltf: GLTF2) -> bytes:
    """The GLB file of a document whose data is all in its binary blob.

    pygltflib always writes a BIN chunk and one buffer; with no data at all that buffer
    has byteLength 0, which the validator rejects, so a data-less document is written here
    as a JSON-only GLB (spec 4.4.3.3: the BIN chunk is optional).
    """
    if gltf.bufferViews:
        return b"".join(gltf.save_to_bytes())
    gltf.buffers = []
    text = gltf.gltf_to_json(separators=(",", ":"), indent=None).encode("utf-8")
    text += b" " * (-len(text) % 4)
    return struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(text)) + struct.pack("<I4s", len(text), b"JSON") + text


def add_animation(
    builder: GlbBuilder,
    name: str,
    channels: Sequence[tuple[int, str, np.ndarray, np.ndarray, str]],
    extras: dict[str, Any] | None = None,
) -> int:
    """A glTF animation from ``(node, path, times, values, interpolation)`` channels.

    Rotations are given w, x, y, z and written x, y, z, w; one further than
    :data:`KEEP_AS_STORED` from unit length is normalised (the validator rejects non-unit
    rotation outputs), the others are written as given so FP12 keys read back exactly.
    """
    anim = Animation(name=name, extras=extras or {})
    inputs: dict[bytes, int] = {}
    for node, path, times, values, interpolation in channels:
        times = np.asarray(times, dtype=np.float32)
        key = times.tobytes()
        if key not in inputs:  # channels with the same key times share one input accessor
            inputs[key] = builder.add(times, FLOAT, "SCALAR", bounds=True)
        if path == "rotation":
            values = np.asarray(values, dtype=np.float64)
            off = np.abs(np.linalg.norm(values, axis=-1, keepdims=True) - 1.0) > KEEP_AS_STORED
            data, kind = wxyz_to_xyzw(np.where(off, normalize(values), values)), "VEC4"
        else:
            data, kind = np.asarray(values, dtype=np.float64), "VEC3"
        output = builder.add(data, FLOAT, kind)
        anim.samplers.append(AnimationSampler(input=inputs[key], output=output, interpolation=interpolation))
        anim.channels.append(
            AnimationChannel(sampler=len(anim.samplers) - 1, target=AnimationChannelTarget(node=node, path=path))
        )
    builder.gltf.animations.append(anim)
    return len(builder.gltf.animations) - 1


# --- skeleton and mesh ---------------------------------------------------------------------


def _gltf_rest(skeleton: Skeleton, to_gltf_axes: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rest translations and unit rotations, the roots turned into glTF axes if asked."""
    translation = np.array(skeleton.rest_translation, dtype=np.float64, copy=True)
    rotation = normalize(skeleton.rest_rotation)
    if to_gltf_axes:
        roots = skeleton.parents < 0
        rotation[roots] = quat_multiply(PS1_TO_GLTF, rotation[roots])
        translation[roots] = translation[roots] @ PS1_TO_GLTF_MATRIX.T
    return translation, rotation


def add_skeleton_nodes(gltf: GLTF2, skeleton: Skeleton, translation: np.ndarray, rotation: np.ndarray) -> list[int]:
    """One node per bone with its rest TRS, children linked; returns the node indices."""
    first = len(gltf.nodes)
    for i in range(skeleton.bone_count):
        gltf.nodes.append(
            Node(
                name=skeleton.names[i],
                translation=[float(v) for v in translation[i]],
                rotation=[float(v) for v in wxyz_to_xyzw(rotation[i])],
            )
        )
    for i, parent in enumerate(skeleton.parents.tolist()):
        if parent >= 0:
            gltf.nodes[first + parent].children.append(first + i)
    return list(range(first, first + skeleton.bone_count))


def _bone_mesh(skeleton: Skeleton, world: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An octahedral bone per joint, in the bind pose: positions, joint index per vertex,
    triangle indices. A bone points at its first child; a leaf continues its parent's
    direction at half length. Sizes are relative to the skeleton's typical bone length."""
    n = skeleton.bone_count
    origins = world[:, :3, 3]
    lengths = [
        float(np.linalg.norm(origins[i] - origins[skeleton.parents[i]]))
        for i in range(n) if skeleton.parents[i] >= 0
    ]
    typical = float(np.median([x for x in lengths if x > 1e-9])) if any(x > 1e-9 for x in lengths) else 1.0
    positions, joints, triangles = [], [], []
    for i in range(n):
        children = np.flatnonzero(skeleton.parents == i)
        direction = origins[children[0]] - origins[i] if children.size else np.zeros(3)
        if np.linalg.norm(direction) < 1e-9 and skeleton.parents[i] >= 0:
            direction = 0.5 * (origins[i] - origins[skeleton.parents[i]])
        if np.linalg.norm(direction) < 1e-9:
            direction = world[i, :3, :3] @ np.array([0.0, 0.5 * typical, 0.0])
        length = float(np.linalg.norm(direction))
        axis = direction / length
        side = np.cross(axis, [1.0, 0.0, 0.0] if abs(axis[0]) < 0.9 else [0.0, 1.0, 0.0])
        side /= np.linalg.norm(side)
        other = np.cross(axis, side)
        radius, ring = 0.1 * length, origins[i] + 0.2 * direction
        base = len(positions)
        positions += [origins[i], origins[i] + direction]
        positions += [ring + radius * s for s in (side, other, -side, -other)]
        joints += [i] * 6
        for k in range(4):  # counter-clockwise seen from outside
            a, b = base + 2 + k, base + 2 + (k + 1) % 4
            triangles += [(base, b, a), (base + 1, a, b)]
    return np.array(positions), np.array(joints), np.array(triangles)


def add_skin(builder: GlbBuilder, skeleton: Skeleton, joint_nodes: list[int], world: np.ndarray, mesh: bool) -> int:
    """A skin over ``joint_nodes`` with inverse bind matrices from the rest pose ``world``,
    and (``mesh``) a scene-root node drawing a bone mesh bound to it."""
    gltf = builder.gltf
    inverse = np.linalg.inv(world)
    inverse[:, 3, :] = (0.0, 0.0, 0.0, 1.0)  # exact, or the validator reports an invalid IBM
    ibm = builder.add(inverse.transpose(0, 2, 1).reshape(-1, 16), FLOAT, "MAT4")  # column-major
    roots = [joint_nodes[i] for i in range(skeleton.bone_count) if skeleton.parents[i] < 0]
    gltf.skins.append(Skin(name="skeleton", joints=list(joint_nodes), inverseBindMatrices=ibm, skeleton=roots[0] if len(roots) == 1 else None))
    skin = len(gltf.skins) - 1
    if mesh:
        positions, joints, triangles = _bone_mesh(skeleton, world)
        joint_type = UNSIGNED_BYTE if skeleton.bone_count <= 256 else UNSIGNED_SHORT
        joint4 = np.zeros((joints.shape[0], 4), dtype=np.int64)
        joint4[:, 0] = joints
        weights = np.zeros((joints.shape[0], 4))
        weights[:, 0] = 1.0
        primitive = Primitive(
            attributes=Attributes(
                POSITION=builder.add(positions, FLOAT, "VEC3", target=ARRAY_BUFFER, bounds=True),
                JOINTS_0=builder.add(joint4, joint_type, "VEC4", target=ARRAY_BUFFER),
                WEIGHTS_0=builder.add(weights, FLOAT, "VEC4", target=ARRAY_BUFFER),
            ),
            indices=builder.add(triangles.reshape(-1), UNSIGNED_SHORT, "SCALAR", target=ELEMENT_ARRAY_BUFFER),
        )
        gltf.meshes.append(Mesh(name="bones", primitives=[primitive]))
        gltf.nodes.append(Node(name="bones", mesh=len(gltf.meshes) - 1, skin=skin))
        gltf.scenes[gltf.scene or 0].nodes.append(len(gltf.nodes) - 1)
    return skin


# --- animations ----------------------------------------------------------------------------


def _joint_keys(anim: AnimbinAnimation, kind: type) -> dict[int, list]:
    """Per joint, the keys of one type the clip can show: sorted by frame, frames at or past
    the clip's end dropped (never shown), one key per frame (the later wins), later tracks
    on the same joint replacing earlier ones (as they do, per tick, in the engine)."""
    out: dict[int, list] = {}
    for track in anim.tracks:
        keys = {k.frame: k for k in track.keys if isinstance(k, kind) and k.frame < anim.length}
        if keys:
            out[track.joint_id] = [keys[f] for f in sorted(keys)]
    return out


@dataclass
class _Placement:
    """Where each ANIMBIN joint's keys go: its node, and the transform that turns a key (in
    the exported parent's space, or the console's model space for a root) into the node's
    own local transform."""

    nodes: list[int]
    rotation: np.ndarray
    """(joints, 4): node local rotation = rotation[j] * key."""
    matrix: np.ndarray
    """(joints, 4, 4): node local translation = matrix[j] @ (key translation, 1)."""

    @classmethod
    def build(cls, nodes: list[int], roots: np.ndarray, axis_change: bool,
              above: np.ndarray | None = None, above_rotation: np.ndarray | None = None) -> "_Placement":
        n = len(nodes)
        rotation = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
        matrix = np.tile(np.eye(4), (n, 1, 1))
        if axis_change:
            rotation[roots] = PS1_TO_GLTF
            matrix[roots, :3, :3] = PS1_TO_GLTF_MATRIX
        if above is not None and above_rotation is not None:
            inverse = conjugate(above_rotation)
            rotation = quat_multiply(inverse / np.linalg.norm(inverse, axis=-1, keepdims=True), rotation)
            matrix = np.linalg.inv(above) @ matrix
        return cls(nodes, rotation, matrix)

    def rotations(self, joint: int, q: np.ndarray) -> np.ndarray:
        return quat_multiply(self.rotation[joint], q)

    def translations(self, joint: int, t: np.ndarray) -> np.ndarray:
        m = self.matrix[joint]
        return t @ m[:3, :3].T + m[:3, 3]


def _key_channels(anim: AnimbinAnimation, place: _Placement, hz: float) -> list:
    channels = []
    closing = anim.is_looping
    for joint, keys in sorted(_joint_keys(anim, RotationKey).items()):
        frames = [k.frame for k in keys]
        q = place.rotations(joint, np.array([k.quaternion for k in keys], dtype=np.float64) / FP12_ONE)
        if closing and frames[-1] < anim.length:
            frames, q = frames + [anim.length], np.vstack([q, q[-1:]])
        channels.append((place.nodes[joint], "rotation", np.array(frames) / hz, q, ANIM_LINEAR))
    for joint, keys in sorted(_joint_keys(anim, TranslationKey).items()):
        frames = [k.frame for k in keys]
        t = place.translations(joint, np.array([k.vector for k in keys], dtype=np.float64) / FP12_ONE)
        if closing and frames[-1] < anim.length:
            frames, t = frames + [anim.length], np.vstack([t, t[-1:]])
        channels.append((place.nodes[joint], "translation", np.array(frames) / hz, t, ANIM_LINEAR))
    return channels


def _engine_channels(anim: AnimbinAnimation, place: _Placement, hz: float, rest_raw: np.ndarray) -> list:
    # One tick per vsync; a looping clip gets one more tick: the reset to frame 0.
    ticks = anim.length + (1 if anim.is_looping else 0)
    joints = len(place.nodes)
    if ticks == 0:
        return []  # a zero-length one-shot clip shows nothing: no channel, left out
    if ticks * joints > MAX_SAMPLES:
        raise AnimspecError(
            f"animation {str(anim.name)!r}: {ticks} vsyncs on {joints} joints is more than {MAX_SAMPLES} "
            "poses to bake; convert the keys as authored (no --bake-engine) or give a skeleton with fewer bones"
        )
    played = play_engine(anim, vsync_deltas(ticks), num_joints=joints, rest_rotations=rest_raw)
    q = normalize(played.rotations_float())
    times = np.arange(ticks) / hz
    channels = []
    for joint in sorted({t.joint_id for t in anim.tracks if t.joint_id < joints}):
        rotation = normalize(place.rotations(joint, q[:, joint]))
        channels.append((place.nodes[joint], "rotation", times, sign_continuous(rotation), ANIM_STEP))
    return channels


def _layout(anim: AnimbinAnimation) -> list[dict[str, Any]] | None:
    """Each track's joint, type and (frame, key type) per key; None when a key has a type
    glTF cannot carry (its payload is unknown)."""
    tracks = []
    for track in anim.tracks:
        if any(not isinstance(k, (RotationKey, TranslationKey)) for k in track.keys):
            return None
        tracks.append({
            "joint": track.joint_id,
            "track_type": track.track_type,
            "keys": [[k.frame, int(k.key_type)] for k in track.keys],
        })
    return tracks


def _animation_extras(anim: AnimbinAnimation, animbin: AnimbinFile, hz: float, bake_engine: bool) -> dict[str, Any]:
    info: dict[str, Any] = {
        "length": anim.length,
        "looping": anim.is_looping,
        "flags": anim.flags,
        "refresh_hz": hz,
        "mode": "engine" if bake_engine else "keys",
        "version": animbin.version,
    }
    layout = None if bake_engine else _layout(anim)
    if layout is not None:
        info["tracks"] = layout
    return {
        "markers": [{"name": str(m.name), "frame": m.frame, "time": m.frame / hz} for m in anim.markers],
        "animbin": info,
    }


def _add_animations(builder: GlbBuilder, animbin: AnimbinFile, place: _Placement, hz: float, bake_engine: bool,
                    rest_raw: np.ndarray) -> None:
    for anim in animbin.animations:
        if bake_engine:
            channels = _engine_channels(anim, place, hz, rest_raw)
        else:
            channels = _key_channels(anim, place, hz)
        if channels:
            add_animation(builder, str(anim.name), channels, _animation_extras(anim, animbin, hz, bake_engine))


def _embed_images(gltf: GLTF2, builder: GlbBuilder) -> None:
    """Images the rig keeps in files next to it go into the GLB, so it stands alone."""
    folder = getattr(gltf, "_path", None)
    for i, image in enumerate(gltf.images or []):
        if image.uri is None or image.uri.startswith("data:"):
            continue
        path = Path(folder or ".", unquote(image.uri))
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise GltfError(f"image {i}: {path}: {exc.strerror or exc}") from None
        builder.blob += bytes(-len(builder.blob) % 4)
        gltf.bufferViews.append(BufferView(buffer=0, byteOffset=len(builder.blob), byteLength=len(data)))
        builder.blob += data
        image.bufferView, image.uri = len(gltf.bufferViews) - 1, None
        image.mimeType = image.mimeType or ("image/png" if data[:4] == b"\x89PNG" else "image/jpeg")


WEIGHT_SUM_TOLERANCE = 1e-6
"""A vertex whose float skin weights sum further than this from 1 gets them normalised."""


def _normalise_weights(builder: GlbBuilder) -> int:
    """Float skin weights that do not sum to 1 (glTF 2.0 section 3.7.3.3 requires it, and the
    Khronos validator reports every such vertex as an error; COLLADA-derived samples carry
    them) divided by their sum, as a new accessor. Returns how many vertices changed."""
    gltf, changed = builder.gltf, 0
    for mesh in gltf.meshes:
        for primitive in mesh.primitives:
            attributes = primitive.attributes
            if not isinstance(attributes, dict):  # pygltflib gives either
                attributes = {k: v for k, v in vars(attributes).items() if v is not None}
            sets = [name for name in sorted(attributes) if name.startswith("WEIGHTS_")]
            indices = [attributes[name] for name in sets]
            if not sets or any(gltf.accessors[i].componentType != FLOAT for i in indices):
                continue
            weights = [read_accessor(gltf, i, {0: bytes(builder.blob)}) for i in indices]
            total = np.sum([w.sum(axis=1) for w in weights], axis=0)
            off = (np.abs(total - 1.0) > WEIGHT_SUM_TOLERANCE) & (total > 0)
            if not off.any():
                continue
            changed += int(off.sum())
            scale = np.where(off, total, 1.0)[:, None]
            for name, w in zip(sets, weights):
                index = builder.add(w / scale, FLOAT, "VEC4", target=ARRAY_BUFFER)
                if isinstance(primitive.attributes, dict):
                    primitive.attributes[name] = index
                else:
                    setattr(primitive.attributes, name, index)
    return changed


def on_rig_document(animbin: AnimbinFile, rig: Rig, region: Refresh = "ntsc", bake_engine: bool = False,
                    *, ps1_space: bool = False, skinned: bool = True, notes: list[str] | None = None) -> GLTF2:
    """The clip on a glTF rig's own document (see the module's docstring); what had to be
    changed in the rig's own data is added to ``notes``."""
    hz = refresh_hz(region)
    needed = max((t.joint_id + 1 for a in animbin.animations for t in a.tracks), default=0)
    if needed > len(rig.nodes):
        raise AnimspecError(
            f"a track animates joint {needed - 1}; the rig maps {len(rig.nodes)} joint(s): "
            "give the --joints FILE the clip was made with"
        )
    gltf = copy_gltf(rig.gltf)
    gltf.animations = []
    builder = GlbBuilder(gltf)
    _embed_images(gltf, builder)
    fixed = _normalise_weights(builder)
    if fixed and notes is not None:
        notes.append(f"the rig's skin weights of {fixed} vertices did not sum to 1; normalised, as glTF requires")
    roots = rig.skeleton.parents < 0
    place = _Placement.build(rig.nodes, roots, not ps1_space, rig.above, rig.above_rotation)
    if not gltf.scenes:  # nodes in no scene are shown by no viewer
        gltf.scenes.append(Scene(nodes=[i for i, p in enumerate(node_parents(gltf)) if p < 0]))
        gltf.scene = 0
    if skinned and not gltf.meshes:
        world = forward_kinematics(rig.skeleton, rig.skeleton.rest_rotation[None])[0]
        add_skin(builder, rig.skeleton, rig.nodes, world, mesh=True)
    rest = rig.ps1_skeleton(ps1_space).rest_rotation
    rest_raw = np.rint(normalize(rest) * FP12_ONE).astype(np.int64)
    _add_animations(builder, animbin, place, hz, bake_engine, rest_raw)
    return builder.finish()


def to_gltf_document(
    animbin: AnimbinFile,
    skeleton: Skeleton | None = None,
    region: Refresh = "ntsc",
    bake_engine: bool = False,
    *,
    skeleton_space: Literal["ps1", "gltf"] = "ps1",
    axis_change: bool = True,
    skinned: bool = True,
) -> GLTF2:
    """The glTF document of :func:`to_gltf` (for inspection or further editing)."""
    hz = refresh_hz(region)
    needed = max((t.joint_id + 1 for a in animbin.animations for t in a.tracks), default=1)
    if skeleton is None:
        skeleton = Skeleton.chain(needed)
    elif skeleton.bone_count < needed:
        raise AnimspecError(f"a track animates joint {needed - 1}; the skeleton has {skeleton.bone_count} bones")
    if skeleton_space not in ("ps1", "gltf"):
        raise AnimspecError(f"unknown skeleton space {skeleton_space!r}; use 'ps1' or 'gltf'")
    try:
        skeleton.depth_levels()  # parents before children, or a ValueError naming the bone
    except ValueError as exc:
        raise AnimspecError(f"the skeleton cannot be posed: {exc}") from None
    translation, rotation = _gltf_rest(skeleton, axis_change and skeleton_space == "ps1")

    builder = GlbBuilder()
    gltf = builder.gltf
    gltf.scenes.append(Scene(name="animbin"))
    gltf.scene = 0
    nodes = add_skeleton_nodes(gltf, skeleton, translation, rotation)
    gltf.scenes[0].nodes.extend(nodes[i] for i in range(skeleton.bone_count) if skeleton.parents[i] < 0)
    if skinned:
        gltf_skeleton = Skeleton(skeleton.parents, translation, rotation, skeleton.names)
        world = forward_kinematics(gltf_skeleton, rotation[None])[0]
        add_skin(builder, gltf_skeleton, nodes, world, mesh=True)

    roots = skeleton.parents < 0
    rest_raw = np.rint(normalize(skeleton.rest_rotation) * FP12_ONE).astype(np.int64)
    _add_animations(builder, animbin, _Placement.build(nodes, roots, axis_change), hz, bake_engine, rest_raw)
    return builder.finish()


def to_gltf(
    animbin: AnimbinFile,
    skeleton: Skeleton | None = None,
    region: Refresh = "ntsc",
    bake_engine: bool = False,
    *,
    skeleton_space: Literal["ps1", "gltf"] = "ps1",
    axis_change: bool = True,
    skinned: bool = True,
) -> bytes:
    """GLB bytes showing every animation of ``animbin`` on ``skeleton``.

    ``skeleton``: a MESHBIN skeleton (:func:`animspec.meshbin.skeleton_from_meshbin`), a glTF
    rig (:func:`animspec.gltf.rig.skeleton_from_gltf`, with ``skeleton_space="gltf"``) or
    None for a chain of as many bones as the highest joint id needs. ``region``: the vsync
    rate that turns frames into seconds. ``bake_engine``: STEP keys of what the console
    computes, one per vsync, instead of the file's keys. ``axis_change``: undo the
    exporter's diag(1, -1, -1) on root rotations (False leaves PS1 axes). ``skinned``: add
    a skin and a bone mesh (False: joint nodes only).

    An animation with no tracks has no channels and is left out (glTF requires at least one
    channel per animation).
    """
    return glb_bytes(
        to_gltf_document(
            animbin, skeleton, region, bake_engine,
            skeleton_space=skeleton_space, axis_change=axis_change, skinned=skinned,
        )
    )


def to_gltf_on_rig(
    animbin: AnimbinFile,
    rig: Rig,
    region: Refresh = "ntsc",
    bake_engine: bool = False,
    *,
    ps1_space: bool = False,
    skinned: bool = True,
    notes: list[str] | None = None,
) -> bytes:
    """GLB bytes of the rig ``rig`` (:func:`.rig.read_rig` with the clip's joint mapping)
    playing every animation of ``animbin``: the rig's meshes and nodes kept, its animations
    replaced. ``ps1_space``: the clip was converted with ``ps1_space`` (no axis change on
    roots). ``skinned``: add a bone mesh when the rig has no mesh of its own. ``notes``:
    gets a line for each change made to the rig's own data (skin weights normalised)."""
    return glb_bytes(
        on_rig_document(animbin, rig, region, bake_engine, ps1_space=ps1_space, skinned=skinned, notes=notes)
    )
