"""Reading a glTF 2.0 asset: its binary data, node transforms and a skin as a :class:`Skeleton`.

The exported joints are a skin's joints in skin order (ANIMBIN joint id = position), or the
joints named by a mapping (one name per joint id). Each exported joint's parent is its
nearest exported ancestor; its rest transform is taken relative to that parent, composing
any nodes in between. An exported joint with no exported ancestor is a root: its transform
is its WORLD transform, every node above it included (an armature node, a Z-up rig stood
up by a rotated parent node, skin joints left out by a mapping), because that is how the
model stands in every glTF viewer. :mod:`.axes` turns that world orientation into the
console's model space.

Quaternions returned here are numpy arrays in w, x, y, z order (the ANIMBIN and
:mod:`animspec.skeleton` order); glTF stores x, y, z, w, turned around on reading
(:func:`animspec.quaternion.xyzw_to_wxyz`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np
from pygltflib import GLTF2

from ..quaternion import conjugate, matrix_to_quat, normalize, quat_multiply, quat_to_matrix, xyzw_to_wxyz
from ..skeleton import Skeleton
from .document import GLB_MAGIC, GltfError, buffers_read, document_from_json, load_path, parse_glb, view_bytes

GltfSource = Union[str, "os.PathLike[str]", bytes, GLTF2]
"""A path to a .gltf/.glb file, the bytes of a GLB, or an already loaded document."""

# glTF 2.0 spec section 3.6.2 ("Accessors"): componentType -> numpy type, and the divisor
# of a normalized integer (section 3.11, "Animations": rotations may be stored normalized).
_COMPONENTS: dict[int, tuple[type, float | None]] = {
    5120: (np.int8, 127.0),
    5121: (np.uint8, 255.0),
    5122: (np.int16, 32767.0),
    5123: (np.uint16, 65535.0),
    5125: (np.uint32, None),
    5126: (np.float32, None),
}
_WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


MAX_ZERO_ELEMENTS = 1 << 20
"""Elements an accessor without a bufferView (all zeros, spec 3.6.2.4) may have: its count
costs nothing in the file, so it is not believed past this."""
BUDGET_PER_BYTE = 8
"""Accessor elements read per byte of buffer data, summed over a document (plus
MAX_ZERO_ELEMENTS): accessors may alias the same bytes, but not without end."""


def load_gltf(source: GltfSource) -> GLTF2:
    """The document of ``source``, checked (:mod:`.document`). A given :class:`GLTF2` is
    returned as is (not copied)."""
    if isinstance(source, GLTF2):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        # The container is told by its bytes in one place (document.looks_like_gltf); JSON
        # given as bytes has no folder, so an external buffer URI in it is an error there.
        data = bytes(source)
        return parse_glb(data) if data[:4] == GLB_MAGIC else document_from_json(data, "<bytes>")
    return load_path(source)


def _spend(gltf: GLTF2, elements: int, index: int) -> None:
    """Charge ``elements`` read by accessor ``index`` to the document's budget: 8 per byte
    of the buffers actually read so far (:func:`.document.buffers_read`: buffers some
    accessor reads, and only the bytes they have) plus MAX_ZERO_ELEMENTS. A buffer that
    declares a huge byteLength but that nothing reads lifts nothing."""
    spent = getattr(gltf, "_animspec_spent", 0) + elements
    budget = BUDGET_PER_BYTE * sum(buffers_read(gltf).values()) + MAX_ZERO_ELEMENTS
    if spent > budget:
        raise GltfError(
            f"accessor {index}: reading {elements} more elements would pass {BUDGET_PER_BYTE} per byte "
            "of the buffer data read (accessors aliasing the same bytes over and over)"
        )
    gltf._animspec_spent = spent  # type: ignore[attr-defined]  # animspec's note (no GLTF2 field)


def read_accessor(gltf: GLTF2, index: int, _cache: dict[int, bytes] | None = None) -> np.ndarray:
    """Accessor ``index`` as float64 ``(count, width)``, normalized integers dequantised.

    Strided buffer views are honoured; sparse accessors are refused (no exporter of
    skeletal animation we know writes them, and a silent misread would be worse).
    """
    cache = {} if _cache is None else _cache
    if not 0 <= index < len(gltf.accessors):
        raise GltfError(f"accessor {index} does not exist")
    acc = gltf.accessors[index]
    if acc.sparse is not None:
        raise GltfError(f"accessor {index} is sparse; sparse accessors are not supported")
    try:
        dtype, divisor = _COMPONENTS[acc.componentType]
        width = _WIDTHS[acc.type]
    except (KeyError, TypeError):
        raise GltfError(f"accessor {index}: unknown componentType {acc.componentType} or type {acc.type!r}") from None
    count = int(acc.count)
    if acc.bufferView is None:
        if count * width > MAX_ZERO_ELEMENTS:
            raise GltfError(f"accessor {index}: {count} elements of zeros (no bufferView); at most {MAX_ZERO_ELEMENTS} "
                            "accepted")
        return np.zeros((count, width))  # spec 3.6.2.4: an accessor without a view is all zeros
    view = gltf.bufferViews[acc.bufferView]
    data = view_bytes(gltf, acc.bufferView, cache)
    item = np.dtype(dtype).itemsize
    element = item * width
    stride = view.byteStride or element
    if stride < element:
        raise GltfError(f"accessor {index}: bufferView {acc.bufferView}'s byteStride {stride} is less than an element "
                        f"({element} bytes)")
    start = acc.byteOffset or 0
    needed = start + (stride * (count - 1) + element if count else 0)
    if needed > len(data):
        raise GltfError(f"accessor {index} reads past the end of its buffer view")
    _spend(gltf, count * width, index)
    raw = np.frombuffer(data, dtype=np.uint8, count=max(needed - start, 0), offset=start)
    rows = (np.lib.stride_tricks.as_strided(raw, shape=(count, element), strides=(stride, 1)) if count
            else raw.reshape(0, element))
    values = np.ascontiguousarray(rows).view(np.dtype(dtype).newbyteorder("<")).reshape(count, width).astype(np.float64)
    if acc.normalized and divisor is not None:
        values = values / divisor
        if np.issubdtype(dtype, np.signedinteger):
            values = np.maximum(values, -1.0)  # spec 3.11: max(c / 127, -1) etc.
    return values


@dataclass
class Trs:
    """A node's local transform: translation (3,), rotation (4,) w, x, y, z, scale (3,)."""

    translation: np.ndarray
    rotation: np.ndarray
    scale: np.ndarray


def node_rest(gltf: GLTF2, index: int) -> Trs:
    """Node ``index``'s own transform (TRS, or a decomposed ``matrix``; spec 3.5.3)."""
    node = gltf.nodes[index]
    if node.matrix is not None and list(node.matrix) != [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]:
        m = np.asarray(node.matrix, dtype=np.float64).reshape(4, 4).T  # stored column-major
        return Trs(m[:3, 3].copy(), matrix_to_quat(m[:3, :3]), np.linalg.norm(m[:3, :3], axis=0))
    t = np.asarray(node.translation if node.translation is not None else (0, 0, 0), dtype=np.float64)
    r = np.asarray(node.rotation if node.rotation is not None else (0, 0, 0, 1), dtype=np.float64)
    s = np.asarray(node.scale if node.scale is not None else (1, 1, 1), dtype=np.float64)
    return Trs(t, normalize(xyzw_to_wxyz(r)), s)


def trs_matrices(translation: np.ndarray, rotation: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """(..., 4, 4) matrices T * R * S (spec 3.5.3) from (..., 3), (..., 4) wxyz, (..., 3)."""
    translation = np.asarray(translation, dtype=np.float64)
    shape = np.broadcast_shapes(translation.shape[:-1], np.shape(rotation)[:-1], np.shape(scale)[:-1])
    m = np.zeros(shape + (4, 4))
    m[..., :3, :3] = quat_to_matrix(np.broadcast_to(rotation, shape + (4,))) * np.asarray(scale)[..., None, :]
    m[..., :3, 3] = translation
    m[..., 3, 3] = 1.0
    return m


def node_parents(gltf: GLTF2) -> list[int]:
    """Parent node index of every node (-1 for scene roots). GltfError naming the node when
    the hierarchy is not a forest (glTF 2.0 section 3.5.4: "node hierarchy MUST be a set of
    disjoint strict trees"): a node listed as a child twice, a node with two parents, a node
    its own parent, or a cycle of parents. Linear in the nodes and children, so every walk
    up the parents after it ends."""
    count = len(gltf.nodes)
    parents = [-1] * count
    for i, node in enumerate(gltf.nodes):
        for child in node.children or []:
            if not 0 <= child < count:
                raise GltfError(f"node {i} lists child {child}, which does not exist")
            if child == i:
                raise GltfError(f"node {i} ({node_name(gltf, i)!r}) lists itself as its child: a cycle")
            if parents[child] == i:
                raise GltfError(f"node {child} ({node_name(gltf, child)!r}) is listed twice as a child of node {i}")
            if parents[child] != -1:
                raise GltfError(f"node {child} ({node_name(gltf, child)!r}) has two parents ({parents[child]} and {i})")
            parents[child] = i
    # Each node is walked up once: a walk stops at a root, at a node already known to reach
    # one, or at a node met earlier in the same walk (a cycle).
    state = [0] * count  # 0 not seen, 1 on the current walk, 2 reaches a root
    for start in range(count):
        walk, up = [], start
        while up != -1 and state[up] == 0:
            state[up] = 1
            walk.append(up)
            up = parents[up]
        if up != -1 and state[up] == 1:
            raise GltfError(
                f"node {up} ({node_name(gltf, up)!r}) is its own ancestor (a cycle of parents through "
                f"{len(walk) - walk.index(up)} node(s)); a glTF node hierarchy must be a tree"
            )
        for n in walk:
            state[n] = 2
    return parents


def node_name(gltf: GLTF2, index: int) -> str:
    return gltf.nodes[index].name or f"node{index}"


@dataclass
class Rig:
    """The exported joints of a skin, as nodes of the document and as a :class:`Skeleton`."""

    gltf: GLTF2
    skin: int
    nodes: list[int]
    """Node index of each exported joint (position = ANIMBIN joint id)."""
    paths: Sequence[list[int]]
    """Per joint, the nodes whose transforms compose its local transform, joint node first
    and walking up (exclusive of the exported parent; for a root, up to the scene root)."""
    skeleton: Skeleton
    """Rest pose in glTF axes: roots in world space, other joints relative to their parent."""
    above: np.ndarray
    """(joints, 4, 4): per joint, the rest transform of the nodes of its path above the joint
    node (identity when its parent node is the exported parent). A joint node's own local
    transform is ``inverse(above) @ (its transform in the exported parent's space)``: how a
    clip goes back onto this rig."""
    above_rotation: np.ndarray
    """(joints, 4) w, x, y, z: the rotation of ``above`` as the product of the nodes' rest
    rotations (what :func:`.sampling.local_rotations` composes), identity when none."""
    skipped: list[str] = field(default_factory=list)
    """Skin joints left out by a mapping."""

    @property
    def names(self) -> list[str]:
        return self.skeleton.names

    def ps1_skeleton(self, ps1_space: bool = False) -> Skeleton:
        """The rest pose in the console's model space (roots turned by :mod:`.axes`, unless
        the glTF is already in PS1 axes), as a MESHBIN skeleton would hold it."""
        from .axes import rotations_to_ps1, vectors_to_ps1

        translation = self.skeleton.rest_translation.copy()
        rotation = self.skeleton.rest_rotation.copy()
        roots = self.skeleton.parents < 0
        if not ps1_space:
            translation[roots] = vectors_to_ps1(translation[roots])
            rotation[roots] = rotations_to_ps1(rotation[roots])
        return Skeleton(self.skeleton.parents.copy(), translation, rotation, list(self.skeleton.names))


def read_rig(
    source: GltfSource, *, skin: int = 0, joint_names: Sequence[str] | None = None, armature_space: bool = False,
    max_joints: int | None = None, too_many: Callable[[int], Exception] | None = None,
) -> Rig:
    """The joints of ``skin`` in skin order, or in ``joint_names`` order (a subset is allowed).

    ``armature_space``: a root is measured in the space of the node above the skin's topmost
    joint (Blender's armature object), as the engine's exporter measures a root bone in
    armature space: the transforms of the nodes above the skeleton are left out.

    Raises :class:`GltfError` when there is no such skin, a mapped name is not one of the
    skin's joints (or is listed twice), or a joint comes before its parent: the engine
    computes bone matrices in one pass in bone order, so parents must come first; when the
    node hierarchy is not a tree (:func:`node_parents`); and when more than ``max_joints``
    joints would be read (``too_many(count)`` is then the error raised, in the caller's
    words), which is checked before any node is walked. The work is linear in the nodes: each node's
    transform is composed once, however many joints lie below it.
    """
    gltf = load_gltf(source)
    try:
        return _read_rig(gltf, skin, joint_names, armature_space, max_joints, too_many)
    except GltfError as exc:
        name = getattr(gltf, "_source", None)  # the file, when read from one: say which
        if name and not str(exc).startswith(name):
            raise GltfError(f"{name}: {exc}") from None
        raise


def _read_rig(
    gltf: GLTF2, skin: int, joint_names: Sequence[str] | None, armature_space: bool, max_joints: int | None,
    too_many: Callable[[int], Exception] | None,
) -> Rig:
    if not gltf.skins:
        raise GltfError("the glTF has no skin; nothing says which nodes are joints")
    if not 0 <= skin < len(gltf.skins):
        raise GltfError(f"skin {skin} does not exist (the glTF has {len(gltf.skins)})")
    skin_joints = list(gltf.skins[skin].joints or [])
    if not skin_joints:
        raise GltfError(f"skin {skin} has no joints")
    by_name: dict[str, int] = {}
    for n in skin_joints:
        by_name.setdefault(node_name(gltf, n), n)

    if joint_names is None:
        exported = skin_joints
    else:
        missing = [name for name in joint_names if name not in by_name]
        if missing:
            raise GltfError(f"mapped joint(s) {missing} are not joints of skin {skin}; its joints are {list(by_name)}")
        seen: set[str] = set()
        dupes = []
        for name in joint_names:
            if name in seen:
                dupes.append(name)
            seen.add(name)
        if dupes:
            raise GltfError(f"joint(s) {dupes} are listed more than once in the mapping")
        exported = [by_name[name] for name in joint_names]

    if max_joints is not None and len(exported) > max_joints:
        raise too_many(len(exported)) if too_many else GltfError(f"{len(exported)} joints; at most {max_joints} are "
                                                                 "read")
    parents_of = node_parents(gltf)
    skin_set, exported_index = set(skin_joints), {n: i for i, n in enumerate(exported)}
    if len(exported_index) != len(exported):
        twice = next(n for i, n in enumerate(exported) if exported_index[n] != i)
        raise GltfError(f"node {twice} ({node_name(gltf, twice)!r}) is listed twice among skin {skin}'s joints")
    chains = _Chains(gltf, parents_of, exported_index, skin_set if armature_space else None)
    parents = []
    for i, n in enumerate(exported):
        parent = chains.exported_parent(n)
        if parent >= i:
            raise GltfError(
                f"joint {i} ({node_name(gltf, n)!r}) comes before its parent {parent} "
                f"({node_name(gltf, exported[parent])!r}); the engine needs parents first: "
                "give a joint mapping that lists parents before children"
            )
        parents.append(parent)

    translation, rotation = np.zeros((len(exported), 3)), np.zeros((len(exported), 4))
    # The nodes between the joint and its exported parent (or the top of its path) are
    # composed once per node, not once per joint below them (_Chains).
    above, above_rotation = chains.above_all(exported)
    for i, n in enumerate(exported):
        rest = node_rest(gltf, n)
        translation[i] = (above[i] @ trs_matrices(rest.translation, rest.rotation, rest.scale))[:3, 3]
        rotation[i] = quat_multiply(above_rotation[i], rest.rotation)
    skeleton = Skeleton(
        np.asarray(parents, dtype=np.int64), translation, rotation, [node_name(gltf, n) for n in exported]
    )
    skipped = [node_name(gltf, n) for n in skin_joints if n not in exported_index]
    paths = _Paths(chains, list(exported))
    return Rig(gltf, skin, list(exported), paths, skeleton, above, above_rotation, skipped)


def nodes_above(gltf: GLTF2, nodes: Sequence[int], joints: Collection[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """:attr:`Rig.above` and :attr:`Rig.above_rotation` of ``nodes`` (a clip's joints matched
    on a rig by name) with ``nodes`` and ``joints`` (the rig's own joints) as the exported
    joints: per node, the rest transform of the nodes between it and its nearest ancestor
    among them, or the scene."""
    exported = {n: i for i, n in enumerate(dict.fromkeys([*nodes, *joints]))}
    return _Chains(gltf, node_parents(gltf), exported, None).above_all(nodes)


class _Chains:
    """Per node, the composed rest transform of the chain from the top of its path down to
    it, memoised: a path runs up from a joint node to (excluding) its nearest exported
    ancestor, or to the scene root (in armature space, for a root joint: to the topmost
    skin joint on the way). Every node is composed once, top first, in the same order
    (left to right) as composing the whole path would, so N joints under a chain of D
    nodes cost N + D products, not N x D."""

    def __init__(self, gltf: GLTF2, parents: list[int], exported: dict[int, int], skin: set[int] | None):
        self.gltf, self.parents, self.exported, self.skin = gltf, parents, exported, skin
        self._matrix: dict[int, np.ndarray] = {}
        self._rotation: dict[int, np.ndarray] = {}
        self._parent: dict[int, int] = {}
        self._top: dict[int, bool] = {}

    def exported_parent(self, node: int) -> int:
        """The exported index of ``node``'s nearest exported strict ancestor, -1 for none."""
        walk, up = [], self.parents[node]
        while up != -1 and up not in self.exported and up not in self._parent:
            walk.append(up)
            up = self.parents[up]
        found = -1 if up == -1 else self.exported[up] if up in self.exported else self._parent[up]
        for n in walk:
            self._parent[n] = found
        return found

    def _has_skin_above(self, node: int) -> bool:
        """Armature space: a skin joint is at or above ``node`` on its way to the root."""
        walk, up, found = [], node, False
        while up != -1:
            if up in self._top:
                found = self._top[up]
                break
            if up in self.skin:  # type: ignore[operator]  # asked in armature space only, where skin is a set
                found = True
                walk.append(up)
                break
            walk.append(up)
            up = self.parents[up]
        if found:  # every node below a skin joint on this walk has one above it
            for n in walk:
                self._top[n] = True
        else:
            for n in walk:
                self._top[n] = False
        return found

    def _starts_path(self, node: int, root_joint: bool) -> bool:
        """Whether the path of a joint stops above ``node`` (``node`` is its topmost node)."""
        up = self.parents[node]
        if up == -1 or up in self.exported:
            return True
        if root_joint and self.skin is not None:
            # Nodes above the topmost skin joint are left out: ``node`` is the top when it is
            # a skin joint with no skin joint above it.
            return node in self.skin and not self._has_skin_above(up)
        return False

    def _compose(self, node: int, root_joint: bool) -> tuple[np.ndarray, np.ndarray]:
        """The matrix and rotation of the chain from the top of the path down to ``node``."""
        walk, n = [], node
        while n not in self._matrix:
            walk.append(n)
            if self._starts_path(n, root_joint):
                break
            n = self.parents[n]
        for n in reversed(walk):  # top first
            rest = node_rest(self.gltf, n)
            local = trs_matrices(rest.translation, rest.rotation, rest.scale)
            if self._starts_path(n, root_joint):
                self._matrix[n], self._rotation[n] = local, rest.rotation
            else:
                up = self.parents[n]
                self._matrix[n] = self._matrix[up] @ local
                self._rotation[n] = quat_multiply(self._rotation[up], rest.rotation)
        return self._matrix[node], self._rotation[node]

    def above(self, node: int) -> tuple[np.ndarray, np.ndarray | None]:
        """The composed transform of the joint node's path above it (identity and None when
        the path is the joint node alone)."""
        root_joint = self.exported_parent(node) == -1
        if self._starts_path(node, root_joint):
            return np.eye(4), None
        m, q = self._compose(self.parents[node], root_joint)
        return m, q

    def above_all(self, nodes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`above` of each of ``nodes``: (nodes, 4, 4) and (nodes, 4) w, x, y, z (identity
        where nothing is above)."""
        matrices = np.tile(np.eye(4), (len(nodes), 1, 1))
        rotations = np.tile([1.0, 0.0, 0.0, 0.0], (len(nodes), 1))
        for i, n in enumerate(nodes):
            m, q = self.above(n)
            matrices[i] = m
            if q is not None:
                rotations[i] = q
        return matrices, rotations

    def path(self, node: int) -> list[int]:
        """The nodes of the joint node's path, joint first and walking up."""
        root_joint = self.exported_parent(node) == -1
        out = [node]
        while not self._starts_path(out[-1], root_joint):
            out.append(self.parents[out[-1]])
        return out


class _Paths(Sequence[list[int]]):
    """:attr:`Rig.paths`, each built when asked for (all of them together are N x D)."""

    def __init__(self, chains: _Chains, nodes: list[int]):
        self._chains, self._nodes = chains, nodes

    def __len__(self) -> int:
        return len(self._nodes)

    def __getitem__(self, index: Any) -> Any:  # an index or a slice, as a list takes
        if isinstance(index, slice):
            return [self._chains.path(n) for n in self._nodes[index]]
        return self._chains.path(self._nodes[index])


# --- nodes above a joint: one convention, both ways ----------------------------------------
# A clip (an .animclip joint, an ANIMBIN key) holds each joint relative to its exported parent
# and a root relative to the scene: glTF's world, which is the character's model space. The
# nodes between a joint and its exported parent (for a root: every node up to the scene, an
# armature node or a node that stands a Z-up rig up) have no place in a clip, so:
#
# * on the way out (glTF -> clip) they are composed into the joint (:mod:`.sampling`): the
#   clip holds the joint's transform in its exported parent's space;
# * on the way in (clip -> glTF, onto a rig) they are kept and taken back out of the value
#   the clip gives (:func:`node_locals`): the joint node's local is inverse(above) * clip, so
#   its transform in its exported parent's space, world for a root, is the clip's.
#
# A reader of either file then sees the same world transforms. Both directions split the
# composed matrix into translation, rotation and scale in :func:`split_trs`, which refuses
# what a TRS cannot hold (a non-uniform scale above a joint turned by a rotation: a shear).

SHEAR_TOLERANCE = 1e-5
"""How far (relative to the largest scale) a composed matrix may be from rotation times a
diagonal scale and still be read as one: float32 node values compose to about 1e-7."""


SCALE_DECIMALS = 12
"""Decimals a scale read through :func:`split_trs` keeps."""


class NotTrsError(GltfError):
    """A joint's transform through the nodes above it is sheared (a non-uniform scale turned
    by a rotation), which no translation, rotation and scale can hold: ``joint`` (its name),
    ``frame`` (the first frame found), ``shear`` (the off-diagonal part, relative)."""

    def __init__(self, joint: str, frame: int, shear: float):
        self.joint, self.frame, self.shear = joint, frame, shear
        super().__init__(
            f"joint {joint!r} at frame {frame}: a non-uniform scale above it, turned by a rotation, shears it "
            f"({shear:.2g} off a scaled rotation): a translation, rotation and scale cannot hold that; "
            "make the scale of the nodes above the skeleton uniform (or apply it to the rig)"
        )


def split_trs(matrices: np.ndarray, rotations: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Translation (..., joints, 3) and scale (..., joints, 3) of ``matrices`` (..., joints,
    4, 4) whose rotation is ``rotations`` (..., joints, 4) w, x, y, z (the product of the
    rotations composed, which is the matrix's own whenever it is a TRS). :class:`NotTrsError`
    naming the joint (``names``) and the first frame where it is not."""
    m = np.asarray(matrices, dtype=np.float64)
    diagonal = np.swapaxes(quat_to_matrix(np.asarray(rotations, dtype=np.float64)), -1, -2) @ m[..., :3, :3]
    scale = np.diagonal(diagonal, axis1=-2, axis2=-1)
    off = np.abs(diagonal - scale[..., None] * np.eye(3)).max(axis=(-2, -1))
    size = np.maximum(np.abs(scale).max(axis=-1), np.finfo(np.float64).tiny)
    bad = off > SHEAR_TOLERANCE * size
    if bad.any():
        where = np.argwhere(bad.reshape(-1, bad.shape[-1]))[0]
        frame, joint = int(where[0]), int(where[1])
        raise NotTrsError(names[joint], frame, float((off / size).reshape(-1, bad.shape[-1])[frame, joint]))
    # Composing rotations leaves float64 rounding (1e-16) on a scale that is exactly 1; the
    # 12th decimal is far below the float32 a glTF scale holds, and rounding there gives the
    # authored scale back.
    return m[..., :3, 3].copy(), np.round(scale, SCALE_DECIMALS)


def node_locals(
    above: np.ndarray, above_rotation: np.ndarray, translation: np.ndarray, rotation: np.ndarray,
    scale: np.ndarray, names: Sequence[str],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The way in: the joint nodes' own local translation, rotation (w, x, y, z) and scale,
    (frames, joints, ...), that put each joint at the clip's ``translation``, ``rotation``
    (w, x, y, z) and ``scale`` (frames, joints, ...) in its exported parent's space (the
    scene for a root), under the rig's nodes ``above`` (joints, 4, 4) whose rotation is
    ``above_rotation`` (joints, 4) (:attr:`Rig.above`): inverse(above) * clip.
    :class:`NotTrsError` where that is sheared."""
    translation, rotation, scale = (np.asarray(v, dtype=np.float64) for v in (translation, rotation, scale))
    t, q, s = translation.copy(), rotation.copy(), scale.copy()
    # A joint with nothing above it takes the clip's values as they are, bit for bit, and so
    # does a value glTF cannot hold (an infinity stays one, to be refused by name, not
    # spread into a NaN); only the others are composed, so a long clip costs no more.
    moved = np.flatnonzero(~(np.all(above == np.eye(4), axis=(-2, -1))
                             & np.all(above_rotation == (1.0, 0.0, 0.0, 0.0), axis=-1)))
    if moved.size:
        inverse, inverse_matrix = taken_out(above[moved], above_rotation[moved])
        finite = np.all([np.isfinite(v[:, moved]).all(axis=-1) for v in (translation, rotation, scale)], axis=0)
        q_moved = quat_multiply(inverse, rotation[:, moved])
        with np.errstate(invalid="ignore"):  # (the frames that are not finite are put back below)
            m = inverse_matrix @ trs_matrices(translation[:, moved], rotation[:, moved], scale[:, moved])
            t_moved, s_moved = split_trs(m, q_moved, [names[int(j)] for j in moved])
        keep = finite[..., None]
        t[:, moved] = np.where(keep, t_moved, translation[:, moved])
        q[:, moved] = np.where(keep, q_moved, rotation[:, moved])
        s[:, moved] = np.where(keep, s_moved, scale[:, moved])
    return t, q, s


def taken_out(above: np.ndarray, above_rotation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The way in, as a clip value's left factor: the inverse of the nodes above each joint,
    its rotation (joints, 4) w, x, y, z and its matrix (joints, 4, 4) (:func:`node_locals`;
    ANIMBIN keys, rotations and translations only, take the same factor)."""
    return conjugate(normalize(above_rotation)), np.linalg.inv(above)


def compose_rotations(rotations: Sequence[np.ndarray]) -> np.ndarray:
    """The product of rotations listed joint-first (child ... ancestor): ancestor * ... * child.

    Scale is ignored: the engine has none, and with uniform scale the rotation part of a
    composed matrix equals this product.
    """
    q = np.asarray(rotations[0], dtype=np.float64)
    for parent in rotations[1:]:
        q = quat_multiply(parent, q)
    return q


def skeleton_from_gltf(source: GltfSource, *, skin: int = 0, joint_names: Sequence[str] | None = None) -> Skeleton:
    """Just the :class:`Skeleton` of :func:`read_rig` (rest pose in the glTF's own axes)."""
    return read_rig(source, skin=skin, joint_names=joint_names).skeleton
