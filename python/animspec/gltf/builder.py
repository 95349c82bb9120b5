"""Building a glTF document: accessors in one binary buffer, skeleton nodes, a skin with a
bone mesh, animations, and the repairs a rig needs before it is written again. Every
``from_*`` converter (:mod:`.from_animbin`, :mod:`.from_animclip`) works out WHAT to show
and hands it to a :class:`DocumentBuilder`, which knows HOW glTF holds it;
:func:`.document.write_glb` writes the result.

What glTF asks of the data, and so what the builder sees to (glTF 2.0 specification and
the Khronos validator): accessor data aligned to its component size; float32 bounds equal
to the stored values; unit rotation outputs; exact (0, 0, 0, 1) last rows in inverse bind
matrices; skin weights summing to 1; animated nodes in TRS, not ``matrix``; a scene that
shows the nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pygltflib import (
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
    Camera,
    Mesh,
    Node,
    Perspective,
    Primitive,
    Scene,
    Skin,
)

from ..quaternion import normalize, wxyz_to_xyzw
from ..skeleton import Skeleton
from .document import GltfError, alignment, copy_gltf, flatten_buffers, read_external, write_glb
from .rig import read_accessor

GENERATOR = "animspec"
KEEP_AS_STORED = 0.002
"""Rotation outputs this close to unit length are written as given: an FP12 key is within
2/4096 of unit (4 components, each off by at most 0.5 or, truncated, 1 raw unit), well
inside the Khronos validator's tolerance for unit quaternions."""
WEIGHT_SUM_TOLERANCE = 1e-7
"""A vertex whose float skin weights sum further than this from 1 gets them normalised. The
Khronos validator sums a vertex's weights in float32 and allows 2e-7 per non-zero weight
(1e-6 let a sum 9e-7 off through with two weights, which it reports); a vertex left within
1e-7 stays within that after float32 summing, and one normalised in float64 and stored
float32 is within about 6e-8 per weight."""


@dataclass
class Channel:
    """One animated property of one node, as a converter hands it to the builder."""

    node: int
    path: Literal["rotation", "translation", "scale"]
    times: np.ndarray
    """Key times in seconds (written float32; channels with the same times share an input)."""
    values: np.ndarray
    """(keys, 4) rotations w, x, y, z (written x, y, z, w) or (keys, 3) translations or scales."""
    interpolation: str
    """A glTF sampler interpolation: "LINEAR" or "STEP"."""
    keys: str = "key"
    """What a key is in the source's terms ("frame", "Motion Data sample"), for messages."""


class KeyDataError(GltfError):
    """Key data glTF cannot hold (glTF 2.0 section 3.11, the Khronos validator): a time or
    value that is NaN or infinite as float32, times that do not strictly increase or are
    negative. The facts: ``animation``, ``node`` (its name, else index), ``path``, the key
    index ``key`` (what a key is: ``keys``) and ``problem`` (in words)."""

    def __init__(self, animation: str, node: str, path: str, keys: str, key: int, problem: str) -> None:
        self.animation, self.node, self.path = animation, node, path
        self.keys, self.key, self.problem = keys, key, problem
        super().__init__(f"animation {animation!r}, {path} of node {node!r}: {keys} {key} {problem}: "
                         "a glTF cannot hold it")


def key_data_problem(times: np.ndarray, values: np.ndarray, path: str) -> tuple[int, str] | None:
    """The first key whose data glTF cannot hold, as (key, what is wrong), or None. ``times``
    and ``values`` as written (float32; rotations x, y, z, w, normalised as
    :meth:`DocumentBuilder.animation` does). The one check every animation written passes."""
    bad = np.flatnonzero(~np.isfinite(times))
    if bad.size:
        return int(bad[0]), f"has a time that is not finite ({float(times[bad[0]])} s)"
    bad = np.flatnonzero(times < 0)
    if bad.size:
        return int(bad[0]), f"has a negative time ({float(times[bad[0]])} s)"
    bad = np.flatnonzero(np.diff(times) <= 0)
    if bad.size:
        k = int(bad[0]) + 1
        return k, (f"is at {float(times[k])} s, not after the one before it ({float(times[k - 1])} s): key times "
                   "must strictly increase (as 32-bit floats)")
    rows = values.reshape(len(values), -1)
    bad = np.flatnonzero(~np.isfinite(rows).all(axis=1))
    if bad.size:
        k = int(bad[0])
        c = int(np.flatnonzero(~np.isfinite(rows[k]))[0])
        axis = "xyzw"[c] if rows.shape[1] <= 4 else str(c)
        return k, f"is not finite ({path} {axis} = {float(rows[k, c])})"
    return None


class DocumentBuilder:
    """A glTF document being built, its data accumulated in one binary buffer.

    Given an existing document (:meth:`extending` copies one first), its buffers are
    flattened into that one buffer, so new data can be added to a rig read from a .gltf or
    .glb and the whole written as a single GLB.
    """

    def __init__(self, gltf: GLTF2 | None = None) -> None:
        if gltf is None:
            gltf = GLTF2(asset=Asset(generator=GENERATOR, version="2.0"))
            self.blob = bytearray()
        else:
            # Rewrites every bufferView to point into one blob, each aligned.
            self.blob = bytearray(flatten_buffers(gltf))
        self.gltf = gltf
        self.alignment = alignment(gltf)

    @classmethod
    def extending(cls, gltf: GLTF2) -> DocumentBuilder:
        """A builder on a copy of ``gltf`` (the given document is left as it is)."""
        return cls(copy_gltf(gltf))

    # --- data ----------------------------------------------------------------------------

    def _append(self, data: bytes) -> int:
        """Append ``data`` (aligned) as a new bufferView of the one buffer; its offset."""
        self.blob += bytes(-len(self.blob) % self.alignment)
        offset = len(self.blob)
        self.blob += data
        return offset

    def accessor(
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
        # accessor data must be aligned to its component size: every view starts aligned
        offset = self._append(array.tobytes())
        self.gltf.bufferViews.append(BufferView(buffer=0, byteOffset=offset, byteLength=array.nbytes, target=target))
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

    def document(self) -> GLTF2:
        """The document, its one buffer holding all the data (what :func:`write_glb` takes)."""
        self.blob += bytes(-len(self.blob) % self.alignment)
        self.gltf.buffers = [Buffer(byteLength=len(self.blob))]
        self.gltf.set_binary_blob(bytes(self.blob))
        return self.gltf

    def glb(self) -> bytes:
        """The GLB file of :meth:`document`."""
        return write_glb(self.document())

    # --- nodes, scenes, skins, meshes ----------------------------------------------------

    def scene(self, name: str | None, nodes: Sequence[int]) -> int:
        """A scene showing ``nodes`` (and, once added, a skin's bone mesh), the document's
        default scene when it has none; returns its index."""
        gltf = self.gltf
        gltf.scenes.append(Scene(name=name, nodes=list(nodes)))
        if gltf.scene is None:
            gltf.scene = len(gltf.scenes) - 1
        return len(gltf.scenes) - 1

    def skeleton_nodes(self, skeleton: Skeleton, translation: np.ndarray, rotation: np.ndarray) -> list[int]:
        """One node per bone with its rest TRS (rotation w, x, y, z), children linked;
        returns the node indices."""
        gltf = self.gltf
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

    def skin(self, skeleton: Skeleton, joint_nodes: list[int], world: np.ndarray, *, mesh: bool) -> int:
        """A skin over ``joint_nodes`` with inverse bind matrices from the rest pose ``world``
        ((joints, 4, 4)), and (``mesh``) a scene-root node drawing a bone mesh bound to it."""
        gltf = self.gltf
        inverse = np.linalg.inv(world)
        inverse[:, 3, :] = (0.0, 0.0, 0.0, 1.0)  # exact, or the validator reports an invalid IBM
        ibm = self.accessor(inverse.transpose(0, 2, 1).reshape(-1, 16), FLOAT, "MAT4")  # column-major
        roots = [joint_nodes[i] for i in range(skeleton.bone_count) if skeleton.parents[i] < 0]
        gltf.skins.append(Skin(name="skeleton", joints=list(joint_nodes), inverseBindMatrices=ibm,
                               skeleton=roots[0] if len(roots) == 1 else None))
        skin = len(gltf.skins) - 1
        if mesh:
            positions, joints, triangles = bone_mesh(skeleton, world)
            joint_type = UNSIGNED_BYTE if skeleton.bone_count <= 256 else UNSIGNED_SHORT
            joint4 = np.zeros((joints.shape[0], 4), dtype=np.int64)
            joint4[:, 0] = joints
            weights = np.zeros((joints.shape[0], 4))
            weights[:, 0] = 1.0
            primitive = Primitive(
                attributes=Attributes(
                    POSITION=self.accessor(positions, FLOAT, "VEC3", target=ARRAY_BUFFER, bounds=True),
                    JOINTS_0=self.accessor(joint4, joint_type, "VEC4", target=ARRAY_BUFFER),
                    WEIGHTS_0=self.accessor(weights, FLOAT, "VEC4", target=ARRAY_BUFFER),
                ),
                indices=self.accessor(triangles.reshape(-1), UNSIGNED_SHORT, "SCALAR", target=ELEMENT_ARRAY_BUFFER),
            )
            gltf.meshes.append(Mesh(name="bones", primitives=[primitive]))
            gltf.nodes.append(Node(name="bones", mesh=len(gltf.meshes) - 1, skin=skin))
            scene = gltf.scenes[gltf.scene or 0]
            scene.nodes = [*(scene.nodes or []), len(gltf.nodes) - 1]  # a scene may list no nodes
        return skin

    def parent_of_roots(self, name: str) -> int:
        """A new node holding the default scene's root nodes (those without a skinned mesh: a
        skinned mesh follows its joints, and glTF ignores its node's parents), made a root of
        that scene in their place; returns its index (animating it moves the whole rig)."""
        gltf = self.gltf
        scene = gltf.scenes[gltf.scene if gltf.scene is not None else 0]
        wrapped = [n for n in (scene.nodes or []) if gltf.nodes[n].skin is None]
        gltf.nodes.append(Node(name=name, children=wrapped))
        index = len(gltf.nodes) - 1
        scene.nodes = [n for n in (scene.nodes or []) if n not in wrapped] + [index]
        return index

    def camera_node(self, name: str, *, yfov: float, aspect_ratio: float, znear: float) -> int:
        """A node holding a new perspective camera; returns the node's index."""
        gltf = self.gltf
        gltf.cameras.append(Camera(type="perspective",
                                   perspective=Perspective(aspectRatio=aspect_ratio, yfov=yfov, znear=znear)))
        gltf.nodes.append(Node(name=name, camera=len(gltf.cameras) - 1))
        return len(gltf.nodes) - 1

    # --- animations ----------------------------------------------------------------------

    def animation(self, name: str, channels: Sequence[Channel], extras: dict[str, Any] | None = None) -> int:
        """A glTF animation of ``channels``; returns its index.

        Rotations are given w, x, y, z and written x, y, z, w; one further than
        :data:`KEEP_AS_STORED` from unit length is normalised (the validator rejects non-unit
        rotation outputs), the others are written as given so FP12 keys read back exactly.
        Every channel's times and values are checked (:func:`key_data_problem`) before anything
        is added: :class:`KeyDataError` for the first key glTF cannot hold.
        """
        anim = Animation(name=name, extras=extras or {})
        inputs: dict[bytes, int] = {}
        gltf, before = self.gltf, (len(self.blob), len(self.gltf.bufferViews), len(self.gltf.accessors))
        try:
            for channel in channels:
                times, data = self._key_data(name, channel)
                key = times.tobytes()
                if key not in inputs:  # channels with the same key times share one input accessor
                    inputs[key] = self.accessor(times, FLOAT, "SCALAR", bounds=True)
                output = self.accessor(data, FLOAT, "VEC4" if channel.path == "rotation" else "VEC3")
                anim.samplers.append(AnimationSampler(input=inputs[key], output=output,
                                                      interpolation=channel.interpolation))
                anim.channels.append(AnimationChannel(
                    sampler=len(anim.samplers) - 1, target=AnimationChannelTarget(node=channel.node, path=channel.path),
                ))
        except KeyDataError:  # the document is left as it was: nothing of this animation added
            del self.blob[before[0]:], gltf.bufferViews[before[1]:], gltf.accessors[before[2]:]
            raise
        self.gltf.animations.append(anim)
        return len(self.gltf.animations) - 1

    def _key_data(self, animation: str, channel: Channel) -> tuple[np.ndarray, np.ndarray]:
        """``channel``'s times and values as float32, as written (rotations x, y, z, w), or
        :class:`KeyDataError`."""
        with np.errstate(over="ignore", invalid="ignore"):
            times = np.asarray(channel.times, dtype=np.float64).astype(np.float32)
            values = np.asarray(channel.values, dtype=np.float64)
            if channel.path == "rotation":
                off = np.abs(np.linalg.norm(values, axis=-1, keepdims=True) - 1.0) > KEEP_AS_STORED
                values = wxyz_to_xyzw(np.where(off, normalize(values), values))
            data = values.astype(np.float32)
        problem = key_data_problem(times, data, channel.path)
        if problem is not None:
            node = self.gltf.nodes[channel.node].name if channel.node < len(self.gltf.nodes) else None
            raise KeyDataError(animation, node or str(channel.node), channel.path, channel.keys, *problem)
        return times, data

    # --- a rig written again ---------------------------------------------------------------

    def embed_images(self) -> None:
        """Images the rig keeps in files next to it go into the GLB, so it stands alone."""
        gltf = self.gltf
        for i, image in enumerate(gltf.images or []):
            if image.uri is None or image.uri.startswith("data:"):
                continue
            # Read like a buffer: only a file in the rig's own folder, regular, at most 1 GiB.
            data = read_external(gltf, image.uri, f"image {i}", None)
            offset = self._append(data)
            gltf.bufferViews.append(BufferView(buffer=0, byteOffset=offset, byteLength=len(data)))
            image.bufferView, image.uri = len(gltf.bufferViews) - 1, None  # type: ignore[assignment]  # uri is optional in glTF; pygltflib types it str
            image.mimeType = image.mimeType or ("image/png" if data[:4] == b"\x89PNG" else "image/jpeg")

    def normalise_weights(self) -> int:
        """Float skin weights that do not sum to 1 (glTF 2.0 section 3.7.3.3 requires it, and
        the Khronos validator reports every such vertex as an error; COLLADA-derived samples
        carry them) divided by their sum, as a new accessor. Returns how many vertices changed."""
        gltf, changed = self.gltf, 0
        for mesh in gltf.meshes:
            for primitive in mesh.primitives:
                attributes: dict[str, Any] = primitive.attributes  # type: ignore[assignment]  # or a dict: below
                if not isinstance(attributes, dict):  # pygltflib gives either
                    attributes = {k: v for k, v in vars(attributes).items() if v is not None}
                sets = [name for name in sorted(attributes) if name.startswith("WEIGHTS_")]
                indices = [attributes[name] for name in sets]
                if not sets or any(gltf.accessors[i].componentType != FLOAT for i in indices):
                    continue
                weights = [read_accessor(gltf, i, {0: bytes(self.blob)}) for i in indices]
                total = np.sum([w.sum(axis=1) for w in weights], axis=0)
                off = (np.abs(total - 1.0) > WEIGHT_SUM_TOLERANCE) & (total > 0)
                if not off.any():
                    continue
                changed += int(off.sum())
                scale = np.where(off, total, 1.0)[:, None]
                for name, w in zip(sets, weights):
                    index = self.accessor(w / scale, FLOAT, "VEC4", target=ARRAY_BUFFER)
                    if isinstance(primitive.attributes, dict):
                        primitive.attributes[name] = index
                    else:
                        setattr(primitive.attributes, name, index)
        return changed


def _plain(v: Any) -> float | int:
    return int(v) if np.issubdtype(type(v), np.integer) else float(v)


def add_scene_if_none(gltf: GLTF2, name: str | None = None) -> list[int] | None:
    """A rig whose nodes no scene lists is legal, but a viewer then shows nothing: give it a
    scene holding its root nodes (those no node lists as a child). Returns those roots, or
    None when the document had a scene."""
    if gltf.scenes:
        return None
    children = {c for n in gltf.nodes for c in (n.children or [])}
    roots = [i for i in range(len(gltf.nodes)) if i not in children]
    gltf.scenes.append(Scene(name=name, nodes=roots))
    gltf.scene = 0
    return roots


def use_trs(gltf: GLTF2, index: int, translation: np.ndarray, rotation: np.ndarray, scale: np.ndarray) -> None:
    """Give node ``index`` its rest transform as TRS (rotation w, x, y, z) in place of a
    ``matrix``: animated nodes must use TRS (glTF 2.0, section 3.5.3). A node without a
    matrix is left as it is."""
    node = gltf.nodes[index]
    if node.matrix is None:
        return
    node.matrix = None
    node.translation = [float(v) for v in translation]
    node.rotation = [float(v) for v in wxyz_to_xyzw(rotation)]
    node.scale = [float(v) for v in scale]


def bone_mesh(skeleton: Skeleton, world: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An octahedral bone per joint, in the bind pose: positions, joint index per vertex,
    triangle indices. A bone points at its first child; a leaf continues its parent's
    direction at half length, and a bone of no length (a lone root, a joint on its parent) half
    the typical length along the joint's own y. Sizes are relative to the skeleton's typical
    bone length: the median of its non-zero bones, or 1 unit when it has none."""
    n = skeleton.bone_count
    origins = world[:, :3, 3]
    lengths = [
        float(np.linalg.norm(origins[i] - origins[skeleton.parents[i]]))
        for i in range(n) if skeleton.parents[i] >= 0
    ]
    typical = float(np.median([x for x in lengths if x > 1e-9])) if any(x > 1e-9 for x in lengths) else 1.0
    positions: list[list[float]] = []
    joints: list[int] = []
    triangles: list[tuple[int, int, int]] = []
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
