"""A -> B -> A gives A back, on every conversion path, as a READER of the result sees it.

Paths: ``.animclip -> glTF -> .animclip``, ``glTF -> .animclip -> glTF``, ``ANIMBIN -> glTF ->
ANIMBIN`` and ``glTF -> ANIMBIN -> glTF``, on every example (found by globbing examples/, so
re-authored examples are taken as they come), every fixture clip (Luna's included), and
generated rigs and clips (hypothesis), each on rigs with nodes above the skeleton: none, a
quarter turn that stands a Z-up rig up, and a turned, moved and scaled parent.

What a reader sees: a clip's decoded local transforms per frame (the decoder ``play`` uses), an
ANIMBIN's engine playback (``play --engine``), a glTF's world position of every joint, computed
by an independent forward kinematics over the document read with pygltflib (tests/gltf_fk.py).
The tolerance is the error the conversion reports (from its result object) plus the format's
quantisation and float32 storage, never a number picked to pass.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import gltf_fk
import numpy as np
import pytest
from conftest import EXAMPLES, ROOT
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from pygltflib import GLTF2, Node
from rig_strategies import GeneratedRig, generated_rigs
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, build_glb, quat_xyzw

from animspec.animbin import AnimbinFile, read_file as read_animbin
from animspec.animbin.model import FP12_ONE
from animspec.animbin.playback import play_engine, refresh_hz, vsync_deltas
from animspec.animclip import read_bytes as read_animclip_bytes, read_file as read_animclip
from animspec.animclip.frames.coding import I16_MAX, QUATERNION_SCALE
from animspec.animclip.frames.decode import ClipFrames
from animspec.animclip.frames.encode import Tolerance
from animspec.animclip.frames.object_space import ObjectTolerance
from animspec.animclip.frames.pose import clip_frames
from animspec.animclip.write import write_bytes as write_animclip
from animspec.cli import main as cli_main
from animspec.common.hashes import crc32
from animspec.convert import ConvertOptions
from animspec.convert.directions import animclip_tolerance, clip_animation
from animspec.gltf import animbin_to_gltf, animbin_to_gltf_on_rig, animclip_to_gltf, gltf_to_animbin, read_rig
from animspec.gltf.rig import NotTrsError
from animspec.gltf.to_animbin import Conversion as AnimbinConversion
from animspec.gltf.to_animclip import AnimclipConversion, gltf_to_animclip

LUNA = ROOT / "tests" / "fixtures" / "luna"
NO_JOINT = 0xFFFF_FFFF

FLOAT32 = 1e-6
"""A glTF stores float32 (2^-24 relative), and the conversions compose a value through the
nodes above a joint and back: a few ulps of the largest value composed, per unit of it."""


# --- nodes above the skeleton --------------------------------------------------------------


@dataclass(frozen=True)
class Above:
    """Nodes put above a rig's scene roots (top first): (translation, rotation xyzw, scale)."""

    name: str
    nodes: tuple[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]], ...]


ABOVE = [
    Above("nothing", ()),
    # Blender's glTF exporter stands a Z-up armature up with this quarter turn.
    Above("z-up", (((0.0, 0.0, 0.0), tuple(quat_xyzw((1, 0, 0), -90)), (1.0, 1.0, 1.0)),)),
    Above("turned-moved-scaled", (
        ((1.5, -2.0, 0.25), tuple(quat_xyzw((1, 2, 3), 35)), (2.0, 2.0, 2.0)),
        ((0.0, 0.5, 0.0), tuple(quat_xyzw((0, 1, 0), 120)), (0.5, 0.5, 0.5)),
    )),
]


def wrap(glb: bytes, above: Above) -> bytes:
    """``glb`` with ``above``'s nodes above its default scene's root nodes (a skinned mesh's
    node stays where it is: glTF ignores its transform)."""
    if not above.nodes:
        return glb
    doc = GLTF2.load_from_bytes(glb)
    scene = doc.scenes[doc.scene or 0]
    wrapped = [n for n in scene.nodes if doc.nodes[n].skin is None]
    for t, r, s in reversed(above.nodes):
        doc.nodes.append(Node(name=f"above{len(doc.nodes)}", translation=list(t), rotation=list(r), scale=list(s),
                              children=wrapped))
        wrapped = [len(doc.nodes) - 1]
    scene.nodes = [n for n in scene.nodes if doc.nodes[n].skin is not None] + wrapped
    return gltf_fk.glb_bytes(doc)


# --- readers ------------------------------------------------------------------------------


def decoded(data: bytes) -> ClipFrames:
    return clip_frames(read_animclip_bytes(data))


def aligned(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``b``'s quaternions on ``a``'s side (q and -q are one rotation)."""
    return np.where(np.sum(a * b, axis=-1, keepdims=True) < 0, -b, b)


def angle_of(component: float) -> float:
    """The largest angle (radians) between two unit quaternions whose components differ by
    at most ``component``: |p - q| <= 2 * component, angle = 4 asin(|p - q| / 2)."""
    return 4 * math.asin(min(1.0, component))


def motion_quantum(translation: np.ndarray) -> tuple[np.ndarray, float]:
    """Per Motion Data sample, the largest translation error its i16 at the finest exponent
    that holds it can add (below |t| / I16_MAX per axis: the next exponent would overflow),
    and the largest rotation error (radians) of its quaternion times QUATERNION_SCALE."""
    return np.abs(translation).max(axis=-1) / I16_MAX, angle_of(1 / QUATERNION_SCALE)


def check_clip_frames(original: ClipFrames, back: ClipFrames, result: AnimclipConversion) -> None:
    """Every joint of ``original`` in ``back`` (matched by hash), frame by frame, within the
    error the encoder reported (the angle in degrees, the distance, the scale ratio, measured
    by decoding what it wrote against the glTF it read) plus float32 storage; root
    motion within the Motion Data quantisation."""
    assert back.frame_count == original.frame_count
    assert back.coding.looping == original.coding.looping
    err = result.encoded.error
    column = {int(h): j for j, h in enumerate(back.joint_hashes)}
    a, b = original.frames(), back.frames()
    for j, h in enumerate(original.joint_hashes):
        if int(h) == NO_JOINT:
            continue
        k = column[int(h)]
        size = max(1.0, float(np.abs(a.translation[:, j]).max()))
        chord = np.linalg.norm(aligned(a.rotation[:, j], b.rotation[:, k]) - a.rotation[:, j], axis=-1).max()
        rotation = math.degrees(angle_of(chord / 2))  # the angle, from the chord in float64
        assert rotation <= err.rotation.worst + math.degrees(angle_of(FLOAT32)), (f"{h:08X}", rotation, err.rotation)
        move = np.linalg.norm(b.translation[:, k] - a.translation[:, j], axis=-1).max()
        assert move <= err.translation.worst + FLOAT32 * size, f"{h:08X}"
        grow = np.abs(b.scale[:, k] / a.scale[:, j] - 1).max()
        assert grow <= err.scale.worst + FLOAT32, f"{h:08X}"
    if original.root_motion is None:
        assert back.root_motion is None
        return
    assert back.root_motion is not None
    m0, m1 = original.root_motion, back.root_motion
    assert len(m1.translation) == len(m0.translation)
    quantum, turn = motion_quantum(m1.translation)
    size = np.maximum(1.0, np.abs(m0.translation).max(axis=-1))
    assert (np.abs(m1.translation - m0.translation).max(axis=-1) <= quantum + FLOAT32 * size).all()
    q0 = np.asarray(m0.rotation) / np.linalg.norm(m0.rotation, axis=-1, keepdims=True)
    q1 = np.asarray(m1.rotation) / np.linalg.norm(m1.rotation, axis=-1, keepdims=True)
    assert np.abs(aligned(q0, q1) - q0).max() <= 2 / QUATERNION_SCALE + FLOAT32


def check_glb_shows_clip(glb: bytes, frames: ClipFrames) -> None:
    """The convention itself, read off the glTF written: each joint of the clip, in the space
    of the rig joint above it (for a root: the scene's, under the root-motion node), is at the
    clip's local transform on every frame, whatever rig nodes lie between."""
    doc = gltf_fk.load(glb)
    up = gltf_fk.parents(doc)
    joints = {j for skin in doc.skins for j in skin.joints}
    carrier = {i for i, n in enumerate(doc.nodes) if n.name == "animclip_root_motion"}
    world = gltf_fk.world_matrices(doc, len(doc.animations) - 1, frames.times)
    poses = frames.frames()
    column = {int(h): j for j, h in enumerate(frames.joint_hashes)}
    for i, node in enumerate(doc.nodes):
        j = column.get(crc32(node.name)) if node.name else None
        if j is None:
            continue
        ref = up[i]
        while ref != -1 and ref not in joints and ref not in carrier:
            ref = up[ref]
        space = world[:, i] if ref == -1 else np.linalg.inv(world[:, ref]) @ world[:, i]
        expected = np.array([gltf_fk.trs(poses.translation[f, j], poses.rotation[f, j], poses.scale[f, j])
                             for f in range(frames.frame_count)])
        size = max(1.0, float(np.abs(expected).max()))
        np.testing.assert_allclose(space, expected, atol=FLOAT32 * size * 10, err_msg=node.name)


def joint_positions(glb: bytes, animation: int, times: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """World matrices (frames, joints, 4, 4) of skin 0's joints and their parents among them."""
    doc = gltf_fk.load(glb)
    nodes = list(doc.skins[0].joints)
    up = gltf_fk.parents(doc)
    parents = []
    for n in nodes:
        p = up[n]
        while p != -1 and p not in nodes:
            p = up[p]
        parents.append(nodes.index(p) if p != -1 else -1)
    world = gltf_fk.world_matrices(doc, animation, times)[:, nodes]
    return world, np.array(parents), [doc.nodes[n].name for n in nodes]


def position_bounds(world: np.ndarray, parents: np.ndarray, turn: float, move: float, grow: float,
                    motion: tuple[np.ndarray, float, np.ndarray] | None = None) -> np.ndarray:
    """(frames, joints): how far each joint's world position may move when every joint's local
    rotation is off by up to ``turn`` radians, its translation by ``move`` per axis and its
    scale by ``grow`` per axis (first order, summed down each chain): a joint's error moves
    every joint below it, by the angle times the distance (rotation and scale) and by the
    translation error in its parent's scale. ``motion``: the root motion's own error above
    every joint, (frames,) translation per axis, an angle, and (frames, 3) the motion's
    translation (the point it turns about)."""
    frames, joints = world.shape[:2]
    position = world[..., :3, 3]
    scale = np.linalg.norm(world[..., :3, :3], axis=-2)  # (frames, joints, 3) world scale per axis
    bound = np.zeros((frames, joints))
    for j in range(joints):
        a = j
        while a != -1:
            p = parents[a]
            parent_scale = scale[:, p].max(axis=-1) if p != -1 else np.ones(frames)
            reach = np.linalg.norm(position[:, j] - position[:, a], axis=-1)
            stretch = grow * math.sqrt(3) * scale[:, a].max(axis=-1) / np.maximum(scale[:, a].min(axis=-1), 1e-12)
            bound[:, j] += math.sqrt(3) * move * parent_scale + (turn + stretch) * reach
            a = p
    if motion is not None:
        shift, angle, origin = motion
        bound += math.sqrt(3) * shift[:, None] + angle * np.linalg.norm(position - origin[:, None], axis=-1)
    size = np.maximum(1.0, np.abs(position).max(axis=-1))
    return bound * (1 + 1e-6) + FLOAT32 * 10 * size


def check_positions(source: bytes, animation: int, source_times: np.ndarray, back: bytes, back_animation: int,
                    back_times: np.ndarray, turn: float, move: float, grow: float,
                    motion: tuple[np.ndarray, float, np.ndarray] | None = None) -> None:
    """Every skin joint's world position in ``back`` within :func:`position_bounds` of
    ``source``'s, at the instants given (each document read by gltf_fk)."""
    w0, parents, names = joint_positions(source, animation, source_times)
    w1, _, names1 = joint_positions(back, back_animation, back_times)
    assert names1 == names
    bound = position_bounds(w0, parents, turn, move, grow, motion)
    off = np.linalg.norm(w1[..., :3, 3] - w0[..., :3, 3], axis=-1)
    worst = np.unravel_index(int(np.argmax(off - bound)), off.shape)
    assert (off <= bound).all(), f"frame {worst[0]} joint {names[worst[1]]}: {off[worst]} > {bound[worst]}"


# --- the paths, through the library --------------------------------------------------------


def animclip_gltf_animclip(model_bytes: bytes, rig: bytes) -> None:
    model = read_animclip_bytes(model_bytes)
    frames = clip_frames(model)
    glb, _ = animclip_to_gltf(clip_animation(frames), rig, name="round_trip")
    check_glb_shows_clip(glb, frames)
    result = gltf_to_animclip(glb, animation="round_trip", fps=frames.fps, looping=frames.coding.looping,
                              template=model)
    check_clip_frames(frames, decoded(write_animclip(result.model)), result)


def command_tolerance() -> Tolerance | ObjectTolerance:
    """The bound `animspec convert` asks of glTF -> .animclip at its defaults."""
    return animclip_tolerance(ConvertOptions())


def gltf_animclip_gltf(source: bytes, animation: int, max_error: Tolerance | None = None) -> AnimclipConversion:
    doc = gltf_fk.load(source)
    result = gltf_to_animclip(source, animation=doc.animations[animation].name, fps=30, max_error=max_error)
    frames = decoded(write_animclip(result.model))
    back, _ = animclip_to_gltf(clip_animation(frames), source)
    start = min(float(gltf_fk.accessor(doc, s.input).min()) for s in doc.animations[animation].samplers)
    err = result.encoded.error
    motion = None
    if frames.root_motion is not None:
        shift, angle = motion_quantum(frames.root_motion.translation)
        origin = np.asarray(frames.root_motion.translation, dtype=np.float64)
        motion = (shift[: frames.frame_count], angle, origin[: frames.frame_count])
    check_positions(source, animation, start + frames.times, back, len(gltf_fk.load(back).animations) - 1,
                    frames.times, math.radians(err.rotation.worst), err.translation.worst, err.scale.worst, motion)
    return result


def engine_poses(anim, joints: int) -> np.ndarray:
    ticks = anim.length + (1 if anim.is_looping else 0)
    return play_engine(anim, vsync_deltas(ticks), num_joints=joints).rotations_float()


def animbin_gltf_animbin(model: AnimbinFile, rig: bytes | None) -> None:
    joints = max(t.joint_id + 1 for a in model.animations for t in a.tracks)
    glb = animbin_to_gltf(model) if rig is None else animbin_to_gltf_on_rig(model, read_rig(rig))
    conversion = gltf_to_animbin(glb)
    back = conversion.animbin
    assert [a.name for a in back.animations] == [a.name for a in model.animations]
    for before, after, clip in zip(model.animations, back.animations, conversion.clips):
        assert (after.length, after.is_looping) == (before.length, before.is_looping)
        p0, p1 = engine_poses(before, joints), engine_poses(after, joints)
        u0 = p0 / np.linalg.norm(p0, axis=-1, keepdims=True)
        u1 = aligned(u0, p1 / np.linalg.norm(p1, axis=-1, keepdims=True))
        # (the chord, not arccos of a dot product: exact near zero, where arccos is not)
        angle = np.degrees(4 * np.arcsin(np.minimum(1.0, np.linalg.norm(u1 - u0, axis=-1) / 2)))
        assert angle.max() <= clip.shown_max_error_deg + 1e-6, (str(before.name), angle.max(), clip.shown_max_error_deg)


def gltf_animbin_gltf(source: bytes) -> AnimbinConversion:
    conversion = gltf_to_animbin(source)
    back = animbin_to_gltf_on_rig(conversion.animbin, read_rig(source))
    hz = refresh_hz("ntsc")
    names = [a.name for a in gltf_fk.load(source).animations]
    back_names = [a.name for a in gltf_fk.load(back).animations]
    for clip in conversion.clips:
        times = np.arange(clip.frames) / hz
        # Only rotations travel (the engine applies no translation), so the joints keep the
        # rig's bone lengths and the positions show every rotation error.
        check_positions(source, names.index(clip.source), clip.start_seconds + times, back,
                        back_names.index(clip.name), times, math.radians(clip.shown_max_error_deg), 0.0, 0.0)
    return conversion


# --- what the examples and fixtures are ------------------------------------------------------


def example_rigs() -> list[Path]:
    return sorted(EXAMPLES.glob("*.glb")) + sorted(EXAMPLES.glob("*.gltf"))


def rig_for_clip(path: Path) -> bytes:
    """The example rig whose skin joints name every joint of the clip (by DAT1 CRC32); else a
    flat rig built from examples/joint_names.txt, each clip joint a root."""
    hashes = {int(h) for h in clip_frames(read_animclip(str(path))).joint_hashes if int(h) != NO_JOINT}
    for rig in example_rigs():
        doc = GLTF2.load_from_bytes(rig.read_bytes())
        if doc.skins and hashes <= {crc32(doc.nodes[j].name) for s in doc.skins for j in s.joints}:
            return rig.read_bytes()
    names = {crc32(n): n for n in (EXAMPLES / "joint_names.txt").read_text().split()}
    assert hashes <= set(names), f"{path.name}: no example rig and no joint names for some of its joints"
    return build_glb([JointSpec(names[h], -1, (0.0, 0.0, 0.0)) for h in sorted(hashes)])


def luna_rig(path: Path) -> bytes:
    """A rig of the fixture's joints (names, parents from its JSON); the rest pose is any:
    a clip's values replace it."""
    joints = json.loads(path.with_suffix(".json").read_text())["joints"]
    return build_glb([JointSpec(j["name"], j["parent"], (0.0, 0.2 if j["parent"] >= 0 else 0.0, 0.0))
                      for j in joints])


EXAMPLE_CLIPS = sorted(EXAMPLES.glob("*.animclip")) + sorted(EXAMPLES.glob("*.performanceclip"))
LUNA_CLIPS = sorted(LUNA.glob("*.animclip"))
EXAMPLE_ANIMBINS = sorted(EXAMPLES.glob("*.animbin"))


def animated_example_rigs() -> list[tuple[Path, int]]:
    out = []
    for rig in example_rigs():
        doc = GLTF2.load_from_bytes(rig.read_bytes())
        out += [(rig, i) for i in range(len(doc.animations or []))] if doc.skins else []
    return out


def animbin_rig(path: Path) -> bytes | None:
    """The example rig of the ANIMBIN's joints: the one whose animations' names are the
    clip's (the examples are made together), else none (a chain)."""
    names = {str(a.name) for a in read_animbin(str(path)).animations}
    for rig in example_rigs():
        doc = GLTF2.load_from_bytes(rig.read_bytes())
        if doc.skins and names <= {a.name for a in doc.animations or []}:
            return rig.read_bytes()
    return None


def test_the_examples_and_fixtures_are_there():
    # (a glob that finds nothing would make every test below vacuous)
    assert EXAMPLE_CLIPS and LUNA_CLIPS and EXAMPLE_ANIMBINS and animated_example_rigs()
    assert len(LUNA_CLIPS) == len(list(LUNA.glob("*.json")))


@pytest.mark.parametrize("above", ABOVE, ids=lambda a: a.name)
@pytest.mark.parametrize("path", EXAMPLE_CLIPS + LUNA_CLIPS, ids=lambda p: p.name)
def test_animclip_gltf_animclip(path, above):
    rig = rig_for_clip(path) if path.parent == EXAMPLES else luna_rig(path)
    animclip_gltf_animclip(path.read_bytes(), wrap(rig, above))


@pytest.mark.parametrize("above", ABOVE, ids=lambda a: a.name)
@pytest.mark.parametrize("example", animated_example_rigs(), ids=lambda e: f"{e[0].name}-{e[1]}")
def test_gltf_animclip_gltf(example, above):
    rig, animation = example
    gltf_animclip_gltf(wrap(rig.read_bytes(), above), animation)


@pytest.mark.parametrize("above", ABOVE, ids=lambda a: a.name)
@pytest.mark.parametrize("path", EXAMPLE_ANIMBINS, ids=lambda p: p.name)
def test_animbin_gltf_animbin(path, above):
    rig = animbin_rig(path)
    animbin_gltf_animbin(read_animbin(str(path)), None if rig is None else wrap(rig, above))


def test_animbin_gltf_animbin_without_a_rig():
    for path in EXAMPLE_ANIMBINS:
        animbin_gltf_animbin(read_animbin(str(path)), None)


@pytest.mark.parametrize("above", ABOVE, ids=lambda a: a.name)
@pytest.mark.parametrize("rig", [r for r in example_rigs() if GLTF2.load_from_bytes(r.read_bytes()).animations],
                         ids=lambda p: p.name)
def test_gltf_animbin_gltf(rig, above):
    gltf_animbin_gltf(wrap(rig.read_bytes(), above))


# --- generated rigs and clips ----------------------------------------------------------------

GENERATED = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                     phases=[Phase.explicit, Phase.reuse, Phase.generate])
"""(Shrinking a failing rig costs minutes: the failing example is printed as drawn.)"""


@GENERATED
@given(generated_rigs())
def test_generated_gltf_animclip_gltf(rig: GeneratedRig):
    result = gltf_animclip_gltf(rig.glb, 0)
    assert (result.root_motion_node is not None) == rig.root_motion


@GENERATED
@given(generated_rigs(), st.sampled_from(ABOVE))
def test_generated_animclip_gltf_animclip(rig: GeneratedRig, above: Above):
    # a clip made on the rig without nodes above, brought onto it with them and back
    clip = gltf_to_animclip(rig.plain, fps=30).model
    animclip_gltf_animclip(write_animclip(clip), wrap(rig.glb, above))


@GENERATED
@given(generated_rigs(rotations_only=True))
def test_generated_gltf_animbin_gltf(rig: GeneratedRig):
    gltf_animbin_gltf(rig.glb)


@GENERATED
@given(generated_rigs(rotations_only=True), st.sampled_from(ABOVE))
def test_generated_animbin_gltf_animbin(rig: GeneratedRig, above: Above):
    animbin_gltf_animbin(gltf_to_animbin(rig.plain).animbin, wrap(rig.glb, above))


def test_root_motion_that_starts_turned_and_away():
    # The root-motion node starts a quarter turn about Y and 3 m off, then walks along its
    # own forward axis: Motion Data holds the walk relative to frame 0 (in the character's
    # frame), the joints the rest, and a reader putting one above the other sees the glTF.
    times = [0.0, 1 / 30, 2 / 30, 3 / 30]
    turn = [quat_xyzw((0, 1, 0), 90 + 10 * k) for k in range(4)]
    joints = [JointSpec("hips", -1, (0.0, 1.0, 0.0)), JointSpec("knee", 0, (0.0, -0.5, 0.1))]
    mover = Node(name="mover", translation=[3.0, 0.0, -1.0], rotation=turn[0], children=[0])
    walk = AnimSpec("walk", [
        ChannelSpec(2, "translation", times, [(3.0 + 0.2 * k, 0.0, -1.0) for k in range(4)]),
        ChannelSpec(2, "rotation", times, turn),
        ChannelSpec(1, "rotation", times, [quat_xyzw((1, 0, 0), 20 * k) for k in range(4)]),
    ])
    result = gltf_animclip_gltf(build_glb(joints, [walk], extra_nodes=[mover]), 0)
    assert result.root_motion_node == 2


@pytest.mark.parametrize("path", ["gltf_to_animclip", "animclip_to_gltf"])
def test_a_sheared_joint_is_refused_naming_it(path):
    # A non-uniform scale above a joint that turns shears it: no TRS holds that, either way.
    joints = [JointSpec("hips", -1, (0.0, 1.0, 0.0))]
    times = [0.0, 1 / 30]
    walk = AnimSpec("walk", [ChannelSpec(0, "rotation", times, [quat_xyzw((0, 0, 1), 0), quat_xyzw((0, 0, 1), 30)])])
    stretch = Node(name="stretch", scale=[1.0, 3.0, 1.0], children=[0])
    rig = build_glb(joints, [walk], extra_nodes=[stretch])
    with pytest.raises(NotTrsError) as caught:
        if path == "gltf_to_animclip":
            gltf_to_animclip(rig, fps=30)
        else:
            clip = gltf_to_animclip(build_glb(joints, [walk]), fps=30).model
            animclip_to_gltf(clip_animation(decoded(write_animclip(clip))), rig)
    assert (caught.value.joint, caught.value.frame) == ("hips", 1)


def test_a_stretch_along_the_axes_a_joint_keeps_is_no_shear():
    # The same non-uniform scale under a joint that turns only about the stretched axis is a
    # TRS at every frame: it travels into the clip's scale and back.
    joints = [JointSpec("hips", -1, (0.0, 1.0, 0.0))]
    times = [0.0, 1 / 30]
    walk = AnimSpec("walk", [ChannelSpec(0, "rotation", times, [quat_xyzw((0, 1, 0), 0), quat_xyzw((0, 1, 0), 90)])])
    stretch = Node(name="stretch", scale=[2.0, 3.0, 2.0], children=[0])
    gltf_animclip_gltf(build_glb(joints, [walk], extra_nodes=[stretch]), 0)


# --- the same paths through the command line ---------------------------------------------------


def run_cli(*args: str) -> None:
    assert cli_main(["convert", *args, "--force"]) == 0


def test_cli_animclip_gltf_animclip(tmp_path):
    clip = EXAMPLE_CLIPS[0]
    rig = tmp_path / "rig.glb"
    rig.write_bytes(wrap(rig_for_clip(clip), ABOVE[-1]))
    run_cli(str(clip), "--skeleton", str(rig), "-o", str(tmp_path / "a.glb"))
    run_cli(str(tmp_path / "a.glb"), "-o", str(tmp_path / "back.animclip"), "--template", str(clip))
    # the library's conversion of the same glTF with the command's defaults is the tolerance
    model = read_animclip(str(clip))
    frames = clip_frames(model)
    o = ConvertOptions()
    result = gltf_to_animclip(str(tmp_path / "a.glb"), fps=o.fps, looping=frames.coding.looping, template=model,
                              max_error=command_tolerance())
    assert (tmp_path / "back.animclip").read_bytes() == write_animclip(result.model)
    check_clip_frames(frames, decoded((tmp_path / "back.animclip").read_bytes()), result)


def test_cli_gltf_animclip_gltf(tmp_path):
    source, animation = animated_example_rigs()[0]
    rig = tmp_path / "rig.glb"
    rig.write_bytes(wrap(source.read_bytes(), ABOVE[-1]))
    name = GLTF2.load_from_bytes(rig.read_bytes()).animations[animation].name
    run_cli(str(rig), "-o", str(tmp_path / "a.animclip"), "--animation", name)
    run_cli(str(tmp_path / "a.animclip"), "--skeleton", str(rig), "-o", str(tmp_path / "back.glb"))
    library = gltf_animclip_gltf(rig.read_bytes(), animation, command_tolerance())
    assert (tmp_path / "a.animclip").read_bytes() == write_animclip(library.model)
    frames = decoded((tmp_path / "a.animclip").read_bytes())
    back = (tmp_path / "back.glb").read_bytes()
    err = library.encoded.error
    check_positions(rig.read_bytes(), animation, frames.times, back, len(gltf_fk.load(back).animations) - 1,
                    frames.times, math.radians(err.rotation.worst), err.translation.worst, err.scale.worst)


def test_cli_animbin_gltf_animbin(tmp_path):
    path = EXAMPLE_ANIMBINS[0]
    rig = tmp_path / "rig.glb"
    rig.write_bytes(wrap(animbin_rig(path) or build_glb([JointSpec("j0", -1)]), ABOVE[-1]))
    run_cli(str(path), "--skeleton", str(rig), "-o", str(tmp_path / "a.glb"))
    run_cli(str(tmp_path / "a.glb"), "-o", str(tmp_path / "back.animbin"))
    model = read_animbin(str(path))
    library = gltf_to_animbin(str(tmp_path / "a.glb"))
    back = read_animbin(str(tmp_path / "back.animbin"))
    assert back == library.animbin
    joints = max(t.joint_id + 1 for a in model.animations for t in a.tracks)
    for before, after, clip in zip(model.animations, back.animations, library.clips):
        p0, p1 = engine_poses(before, joints), engine_poses(after, joints)
        assert np.abs(p1 - p0).max() <= math.radians(clip.shown_max_error_deg) / 2 + 1 / FP12_ONE


def test_cli_gltf_animbin_gltf(tmp_path):
    source = next(r for r, _ in animated_example_rigs())
    rig = tmp_path / "rig.glb"
    rig.write_bytes(wrap(source.read_bytes(), ABOVE[-1]))
    run_cli(str(rig), "-o", str(tmp_path / "a.animbin"))
    run_cli(str(tmp_path / "a.animbin"), "--skeleton", str(rig), "-o", str(tmp_path / "back.glb"))
    library = gltf_animbin_gltf(rig.read_bytes())
    assert read_animbin(str(tmp_path / "a.animbin")) == library.animbin
    assert gltf_fk.world_matrices(gltf_fk.load((tmp_path / "back.glb").read_bytes()), 0, np.arange(8) / 60) == \
        pytest.approx(gltf_fk.world_matrices(
            gltf_fk.load(animbin_to_gltf_on_rig(library.animbin, read_rig(rig.read_bytes()))), 0, np.arange(8) / 60))


@pytest.mark.parametrize("above", ABOVE, ids=lambda a: a.name)
def test_animbin_translation_keys_on_a_rig_land_where_the_console_puts_them(above):
    """ANIMBIN -> glTF on a rig whose nodes above the skeleton are turned, moved and scaled:
    a root joint's TRANSLATION keys (which the engine ignores, but the glTF carries) end up,
    through every node above, at the key's vector in the console's space turned to glTF's
    (the nodes above are taken out of the joint's own transform, as for its rotation): the
    world positions of the output, by this file's own forward kinematics."""
    from animspec.animbin import Animation, AnimbinFile, Name, RotationKey, Track, TranslationKey
    from animspec.gltf.axes import PS1_TO_GLTF_MATRIX

    rig = wrap((EXAMPLES / "pendulum_rig.glb").read_bytes(), above)
    keys = [TranslationKey(0, 4096, 0, -2048), TranslationKey(6, -1024, 8192, 512)]
    track = Track(0, [RotationKey(0, 4096, 0, 0, 0), *keys])
    model = AnimbinFile([Animation(Name.from_str("slide"), 10, [track], flags=0)])
    glb = animbin_to_gltf_on_rig(model, read_rig(rig))
    doc = gltf_fk.load(glb)
    joint_node = gltf_fk.node_index(doc, gltf_fk.joint_names(doc))[0]
    hz = refresh_hz("ntsc")
    world = gltf_fk.world_matrices(doc, len(doc.animations) - 1, np.array([0.0, 6 / hz]))
    for k, key in enumerate(keys):
        expected = PS1_TO_GLTF_MATRIX @ (np.array([key.x, key.y, key.z]) / FP12_ONE)
        np.testing.assert_allclose(world[k, joint_node, :3, 3], expected, atol=1e-6)
