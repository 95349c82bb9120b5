"""Hypothesis strategies for skinned glTF rigs with an animation and nodes above the skeleton:
rotated, translated and uniformly scaled parents, a Z-up rig stood up by a quarter turn or a
Y-up one, and (optionally) a root-motion node at the top that starts anywhere, turned."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from pygltflib import Node
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, build_glb, quat_xyzw

FPS = 30.0


unit_axes = st.tuples(*[st.floats(-1, 1)] * 3).filter(lambda v: np.linalg.norm(v) > 0.2).map(np.array)
rotations = st.builds(quat_xyzw, unit_axes, st.floats(-170, 170))
offsets = st.tuples(*[st.floats(-2, 2)] * 3)
bones = st.tuples(*[st.floats(-1, 1)] * 3).filter(lambda v: np.linalg.norm(v) > 0.1)


@dataclass(frozen=True)
class GeneratedRig:
    glb: bytes
    """The rig and its animation (index 0), nodes above included."""
    plain: bytes
    """The same joints and animation with no node above the skeleton."""
    above: int
    """How many nodes are above the skeleton (the root-motion node included)."""
    z_up: bool
    root_motion: bool


@st.composite
def generated_rigs(draw, *, rotations_only: bool = False) -> GeneratedRig:
    """A rig of 1 to 4 joints (a tree, parents first), 2 to 5 frames of LINEAR keys at
    :data:`FPS`; ``rotations_only``: no translation, scale or root-motion keys (what ANIMBIN
    carries)."""
    count = draw(st.integers(1, 4))
    joints = [JointSpec(f"j{i}", -1 if i == 0 else draw(st.integers(0, i - 1)), draw(bones), draw(rotations))
              for i in range(count)]
    frames = draw(st.integers(2, 5))
    times = list(np.arange(frames) / FPS)
    channels = [ChannelSpec(j, "rotation", times, [draw(rotations) for _ in times]) for j in range(count)]
    if not rotations_only:
        channels.append(ChannelSpec(0, "translation", times, [draw(offsets) for _ in times]))
        if draw(st.booleans()):
            scales = [draw(st.floats(0.5, 1.5)) for _ in times]
            channels.append(ChannelSpec(count - 1, "scale", times, [(s, s, s) for s in scales]))

    above: list[Node] = []
    for _ in range(draw(st.integers(0, 2))):
        s = draw(st.floats(0.5, 2.0))
        above.append(Node(name=f"above{len(above)}", translation=list(draw(offsets)), rotation=list(draw(rotations)),
                          scale=[s, s, s]))
    z_up = draw(st.booleans())
    if z_up:  # a Z-up rig stood up in glTF's Y-up, as Blender's exporter does
        above.append(Node(name="z_up", rotation=list(quat_xyzw((1, 0, 0), -90))))
    root_motion = not rotations_only and draw(st.booleans())
    mover = None
    if root_motion:  # at the top, starting anywhere and turned, moving and turning about Y
        start = np.array(draw(offsets))
        turn0 = draw(st.floats(-180, 180))
        mover = Node(name="mover", translation=list(start), rotation=list(quat_xyzw((0, 1, 0), turn0)))
        above.append(mover)
    roots = [i for i, j in enumerate(joints) if j.parent < 0]
    # nodes after the joints: above[0] holds the roots, each next one holds the one before
    for k, node in enumerate(above):
        node.children = roots if k == 0 else [count + k - 1]
    anims = [AnimSpec("generated", list(channels))]  # (a copy: the plain rig has no mover)
    if mover is not None:
        steps = np.cumsum([[draw(st.floats(0, 0.3)), 0.0, draw(st.floats(0, 0.3))] for _ in times], axis=0)
        turns = [turn0 + draw(st.floats(-30, 30)) for _ in times]
        node = count + len(above) - 1
        anims[0].channels += [
            ChannelSpec(node, "translation", times, [tuple(start + s) for s in steps]),
            ChannelSpec(node, "rotation", times, [quat_xyzw((0, 1, 0), t) for t in turns]),
        ]
    return GeneratedRig(build_glb(joints, anims, extra_nodes=above),
                        build_glb(joints, [AnimSpec("generated", channels)]),
                        len(above), z_up, root_motion)
