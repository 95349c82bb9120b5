"""Build examples/pendulum_rig.glb and biped_rig.glb directly with pygltflib (not with
animspec's glTF writer).

Run ``python examples/make_gltf_examples.py`` to regenerate them; the tests check that the
committed files equal what this script makes, that it passes the Khronos validator, and
that ``animspec.gltf.gltf_to_animbin`` turns it into a valid ANIMBIN. It is written by hand so that
the converter is tested against a glTF its own writer did not make.

pendulum_rig.glb
    The glTF counterpart of examples/pendulum.meshbin and swing.animbin: a skin of four
    joints root -> upper -> lower -> tip, each BONE metres from its parent along its local
    +Z. pendulum.meshbin has the chain hanging along +Z of the console's model space, which
    is the engine exporter's space (Blender's Z-up armature space through diag(1, -1, -1),
    so +Z is down); in a Y-up glTF world that direction is -Y. So the root's rest rotation
    is +90 degrees about X (the inverse of the converter's glTF -> console axis change,
    animspec.gltf.axes), the ANIMBIN root comes out near the identity, and the chain hangs
    along the glTF's -Y. One box per bone, rigidly skinned, makes it visible.

    "swing": every joint swings about its local -Y (amplitude 20 + 10 j degrees, phase lag
    0.35 j radians), one period in 30 NTSC vsyncs (30 / 59.94 s), LINEAR keys every 2 frames
    (period/15) on frames 0..28 and one on frame 29, the last frame of the loop: the engine's
    exporter bakes an action's frames start..end inclusive, so a 30-frame loop is authored
    on frames 0..29, so the chain swings left and right in the glTF's X-Y plane, as
    swing.animbin does. Markers "left" (frame 7) and "right" (frame 22) in the animation's extras.
    "nod": 0.4 s; the tip nods about X through a CUBICSPLINE curve (0, 30, 0 degrees with
    zero tangents) and the lower joint flips between two poses about X through a STEP curve.

biped_rig.glb
    The rig examples/walk.animclip was made for (the README's ``.animclip -> glTF``
    command): the 21 joints of make_animclip_examples.BIPED, named as there, so their DAT1
    CRC32 name hashes are the clip's joint hashes. Y-up in metres, facing +Z, as glTF and
    the game are: its rest pose is the clip's base pose (the same local offsets and
    rotations, as a rig imported from the game's model carries its joints' stored
    transforms): standing, arms hanging. As a Blender glTF export of a character (+Y Up)
    has it, a plain armature node "biped" holds
    the root joint, with no transform of its own: the skeleton is in the scene's axes, so
    the clip's root transforms are the scene's. One box per bone (a cube for the hands,
    feet and head), rigidly skinned. No animation of its own.
"""

from __future__ import annotations

import importlib.util
import math
import struct
import sys
from pathlib import Path

import numpy as np
from pygltflib import (
    ANIM_CUBICSPLINE,
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

from animspec.common.atomic import write_atomic

HERE = Path(__file__).resolve().parent
NAME = "pendulum_rig.glb"
BONE = 0.5
"""Distance from each joint to the next, in metres."""
NAMES = ["root", "upper", "lower", "tip"]
NTSC_HZ = 60000 / 1001
SWING_PERIOD = 30 / NTSC_HZ
QUARTER_TURN_X = (math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))
"""x, y, z, w: +90 degrees about X, the console's model space seen in a Y-up glTF world."""


def axis_angle(axis: tuple[float, float, float], degrees: float) -> tuple[float, float, float, float]:
    """x, y, z, w (glTF order) for ``degrees`` about a unit ``axis``."""
    half = math.radians(degrees) / 2
    s = math.sin(half)
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(half))


def multiply(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    """Hamilton product a * b of x, y, z, w quaternions."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


class _Blob:
    """Accessor data in one buffer, each view 4-byte aligned."""

    def __init__(self, gltf: GLTF2) -> None:
        self.gltf, self.data = gltf, bytearray()

    def add(self, fmt: str, rows: list[tuple], ctype: int, atype: str, target: int | None = None, bounds: bool = False) -> int:
        self.data += bytes(-len(self.data) % 4)
        start = len(self.data)
        for row in rows:
            self.data += struct.pack("<" + fmt * len(row), *row)
        self.gltf.bufferViews.append(BufferView(buffer=0, byteOffset=start, byteLength=len(self.data) - start, target=target))
        acc = Accessor(bufferView=len(self.gltf.bufferViews) - 1, componentType=ctype, count=len(rows), type=atype)
        if bounds:
            # Bounds of the float32 values as stored (the validator compares exactly).
            stored = np.array(rows, dtype=np.float32 if fmt == "f" else np.int64)
            acc.min = [float(v) for v in stored.min(axis=0)]
            acc.max = [float(v) for v in stored.max(axis=0)]
        self.gltf.accessors.append(acc)
        return len(self.gltf.accessors) - 1


BOX_QUADS = ((0, 1, 2, 3), (7, 6, 5, 4), (0, 4, 5, 1), (1, 5, 6, 2), (2, 6, 7, 3), (3, 7, 4, 0))
"""A box's faces over its 8 corners (4 at one end, then 4 at the other)."""


def _box_triangles(base: int) -> list[tuple[int]]:
    """Triangle indices of a box whose corners start at vertex ``base``: outward, counter-clockwise."""
    out: list[tuple[int]] = []
    for a, b, c, d in BOX_QUADS:
        out += [(base + a,), (base + c,), (base + b,), (base + a,), (base + d,), (base + c,)]
    return out


def _skinned_mesh(gltf: GLTF2, blob: "_Blob", name: str, positions: list, joints: list, indices: list,
                  skin_joints: list[int], skeleton: int, ibms: list) -> None:
    """A rigidly skinned mesh (weight 1 on one joint per vertex), its skin and its node."""
    primitive = Primitive(
        attributes=Attributes(
            POSITION=blob.add("f", positions, FLOAT, "VEC3", ARRAY_BUFFER, bounds=True),
            JOINTS_0=blob.add("B", joints, UNSIGNED_BYTE, "VEC4", ARRAY_BUFFER),
            WEIGHTS_0=blob.add("f", [(1.0, 0.0, 0.0, 0.0)] * len(positions), FLOAT, "VEC4", ARRAY_BUFFER),
        ),
        indices=blob.add("H", indices, UNSIGNED_SHORT, "SCALAR", ELEMENT_ARRAY_BUFFER),
    )
    gltf.meshes.append(Mesh(name=name, primitives=[primitive]))
    gltf.skins.append(Skin(name=name, joints=skin_joints, skeleton=skeleton,
                           inverseBindMatrices=blob.add("f", ibms, FLOAT, "MAT4")))
    gltf.nodes.append(Node(name=f"{name}_mesh", mesh=len(gltf.meshes) - 1, skin=len(gltf.skins) - 1))


def _channel(blob: _Blob, anim: Animation, node: int, times: list[float], values: list[tuple], interpolation: str) -> None:
    inp = blob.add("f", [(t,) for t in times], FLOAT, "SCALAR", bounds=True)
    out = blob.add("f", values, FLOAT, "VEC4")
    anim.samplers.append(AnimationSampler(input=inp, output=out, interpolation=interpolation))
    anim.channels.append(AnimationChannel(sampler=len(anim.samplers) - 1, target=AnimationChannelTarget(node=node, path="rotation")))


def _rest(joint: int) -> tuple[float, float, float, float]:
    return QUARTER_TURN_X if joint == 0 else (0.0, 0.0, 0.0, 1.0)


def pendulum_rig() -> bytes:
    gltf = GLTF2(asset=Asset(generator="animspec examples/make_gltf_examples.py", version="2.0"))
    blob = _Blob(gltf)
    for j, name in enumerate(NAMES):
        gltf.nodes.append(Node(
            name=name,
            translation=[0.0, 0.0, BONE if j else 0.0],
            rotation=list(_rest(j)),
            children=[j + 1] if j + 1 < len(NAMES) else [],
        ))

    # Bind pose: joint j at (0, -j * BONE, 0), every world rotation +90 degrees about X,
    # (x, y, z) -> (x, -z, y); each inverse bind matrix undoes that rotation, then brings
    # the joint to the origin: (x, y, z) -> (x, z, -y) - (0, 0, j * BONE).
    ibms, positions, joints, indices = [], [], [], []
    for j in range(len(NAMES)):
        z = j * BONE
        # column-major 4x4: columns x, y, z, translation
        ibms.append((1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, -z, 1))
        half = 0.04 if j < 3 else 0.12
        near, far = z, z + (BONE if j < 3 else 2 * half)
        base = len(positions)
        for sz in (near, far):
            for sx, sy in ((-half, half), (half, half), (half, -half), (-half, -half)):
                # The box laid out along the joint's local +Z, turned into the world as the
                # bind pose turns it (a rotation keeps the faces' winding outward).
                positions.append((sx, -sz, sy))
                joints.append((j, 0, 0, 0))
        indices += _box_triangles(base)
    _skinned_mesh(gltf, blob, "pendulum", positions, joints, indices, [0, 1, 2, 3], 0, ibms)
    gltf.scenes.append(Scene(name="pendulum", nodes=[0, 4]))
    gltf.scene = 0

    swing = Animation(name="swing", extras={"markers": [{"name": "left", "frame": 7}, {"name": "right", "frame": 22}]})
    times = [SWING_PERIOD * k / 15 for k in range(15)] + [SWING_PERIOD * 29 / 30]
    for j in range(len(NAMES)):
        amplitude, lag = 20.0 + 10.0 * j, 0.35 * j
        values = [multiply(_rest(j), axis_angle((0.0, -1.0, 0.0), amplitude * math.sin(2 * math.pi * t / SWING_PERIOD - lag)))
                  for t in times]
        _channel(blob, swing, j, times, values, ANIM_LINEAR)

    nod = Animation(name="nod")
    zero = (0.0, 0.0, 0.0, 0.0)
    cubic = []
    for degrees in (0.0, 30.0, 0.0):  # in-tangent, value, out-tangent per key
        cubic += [zero, axis_angle((1.0, 0.0, 0.0), degrees), zero]
    _channel(blob, nod, 3, [0.0, 0.2, 0.4], cubic, ANIM_CUBICSPLINE)
    _channel(blob, nod, 2, [0.0, 0.2], [axis_angle((1.0, 0.0, 0.0), 0.0), axis_angle((1.0, 0.0, 0.0), -15.0)], ANIM_STEP)
    gltf.animations += [swing, nod]

    blob.data += bytes(-len(blob.data) % 4)
    gltf.buffers.append(Buffer(byteLength=len(blob.data)))
    gltf.set_binary_blob(bytes(blob.data))
    return b"".join(gltf.save_to_bytes())


BIPED_NAME = "biped_rig.glb"
BOX_HALF = 0.035
LEAF_HALF = 0.06


def _biped_table() -> list[tuple]:
    """(name, parent, offset, ...) rows of make_animclip_examples.BIPED (one source of truth)."""
    spec = importlib.util.spec_from_file_location("make_animclip_examples", HERE / "make_animclip_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.BIPED


def _box(start: np.ndarray, end: np.ndarray, half: float) -> list[np.ndarray]:
    """8 corners of a box of half-width ``half`` around the segment start -> end."""
    axis = (end - start) / np.linalg.norm(end - start)
    helper = np.array([1.0, 0.0, 0.0]) if abs(axis[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    u = np.cross(axis, helper)
    u /= np.linalg.norm(u)
    v = np.cross(axis, u)
    return [p + half * (su * u + sv * v) for p in (start, end) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def _rotation_matrix(q: tuple[float, float, float, float]) -> np.ndarray:
    """3x3 matrix of a unit x, y, z, w quaternion."""
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def _stable(value: float) -> float:
    """``value`` rounded to 1e-9 (far below float32's step at a metre), +0.0 for a zero."""
    return round(float(value), 9) + 0.0


def biped_rig() -> bytes:
    table = _biped_table()
    names = [row[0] for row in table]
    parents = [-1 if row[1] is None else names.index(row[1]) for row in table]
    offsets = [np.array(row[2], dtype=np.float64) for row in table]
    gltf = GLTF2(asset=Asset(generator="animspec examples/make_gltf_examples.py", version="2.0"))
    blob = _Blob(gltf)
    rests = [axis_angle(tuple(float(a) for a in row[3]), float(row[4])) for row in table]
    for j, name in enumerate(names):
        children = [c for c in range(len(names)) if parents[c] == j]
        gltf.nodes.append(Node(name=name, translation=[float(v) for v in offsets[j]],
                               rotation=list(rests[j]) if table[j][4] else None, children=children))
    armature = len(gltf.nodes)
    gltf.nodes.append(Node(name="biped", children=[0]))

    # World bind matrices: each joint's rest (the clip's base pose) composed down from the
    # root; the armature node is the identity.
    world = [np.eye(4)] * len(names)
    for j in range(len(names)):
        local = np.eye(4)
        local[:3, :3] = _rotation_matrix(rests[j])
        local[:3, 3] = offsets[j]
        world[j] = local if parents[j] < 0 else world[parents[j]] @ local
    ibms, positions, joints, indices = [], [], [], []
    for j in range(len(names)):
        ibm = np.linalg.inv(world[j])
        # (rounded to 1e-9: the last bits of a matrix inverse or product differ between numpy and
        # BLAS builds, and the example must come out byte for byte the same everywhere)
        ibms.append(tuple(_stable(v) for v in ibm.T.reshape(-1)))  # column-major
        children = [c for c in range(len(names)) if parents[c] == j]
        if parents[j] < 0:
            continue  # the root sits on the ground under the pelvis: nothing to draw
        # the box in the joint's own frame, towards its first child, placed as the rest puts it
        if children:
            corners = _box(np.zeros(3), offsets[children[0]], BOX_HALF)
        else:
            corners = [np.array([sx, sy, sz]) * LEAF_HALF for sz in (-1, 1) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        base = len(positions)
        for corner in corners:
            positions.append(tuple(_stable(v) for v in world[j][:3, :3] @ corner + world[j][:3, 3]))
            joints.append((j, 0, 0, 0))
        indices += _box_triangles(base)
    _skinned_mesh(gltf, blob, "biped", positions, joints, indices, list(range(len(names))), armature, ibms)
    gltf.scenes.append(Scene(name="biped", nodes=[armature, armature + 1]))
    gltf.scene = 0
    blob.data += bytes(-len(blob.data) % 4)
    gltf.buffers.append(Buffer(byteLength=len(blob.data)))
    gltf.set_binary_blob(bytes(blob.data))
    return b"".join(gltf.save_to_bytes())


def examples() -> dict[str, bytes]:
    return {NAME: pendulum_rig(), BIPED_NAME: biped_rig()}


def main() -> int:
    for name, data in examples().items():
        path = HERE / name
        write_atomic(path, data)
        print(f"{path.relative_to(HERE.parent)}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
