"""Issue 11 on small glTFs built here: the root in the console's model space (world rotation,
nodes above the skeleton included), clip start and length as the engine's exporter has them,
truncating FP12, merged animations, joint mappings both ways, and ANIMBIN -> glTF -> ANIMBIN
giving back the same bytes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pygltflib import Node

from animspec.animbin import read_file, write_bytes
from animspec.cli import main
from animspec.common.errors import AnimspecError
from animspec.gltf import gltf_to_animbin, read_rig, animbin_to_gltf, animbin_to_gltf_on_rig
from animspec.rigs import load_skeleton
from animspec.skeleton import angle_between, quat_multiply
from conftest import EXAMPLES
from gltf_reference import Document, angle_deg
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, build_glb, chain, khronos_validate, quat_xyzw

RX_MINUS_90 = np.array([math.sqrt(0.5), -math.sqrt(0.5), 0.0, 0.0])
"""glTF world -> console model space, written out from the engine exporter's rule."""
NTSC = 60000 / 1001


def wxyz(q):
    x, y, z, w = q
    return np.array([w, x, y, z])


def key_quat(key) -> np.ndarray:
    return np.array(key.quaternion, dtype=np.float64) / 4096


def stood_up_rig(root_turn: float = 30.0) -> bytes:
    """A Z-up rig stood up by a -90 degree X rotation on a node above its root (as COLLADA
    exports and Blender armature objects are); the root turns about its Y by ``root_turn``."""
    above = Node(name="armature", rotation=list(quat_xyzw((1, 0, 0), -90)), translation=[0.0, 0.5, 0.0], children=[0])
    joints = [JointSpec("hips", -1, (0.0, 0.0, 1.0)), JointSpec("spine", 0, (0.0, 1.0, 0.0))]
    turn = [quat_xyzw((0, 1, 0), a) for a in (0.0, root_turn)]
    return build_glb(joints, [AnimSpec("stand", [ChannelSpec(0, "rotation", [0.0, 0.2], turn)])], extra_nodes=[above])


# --- the root ------------------------------------------------------------------------------


def test_root_key_includes_the_nodes_above_the_skeleton():
    glb = stood_up_rig()
    anim = gltf_to_animbin(glb).animbin.animations[0]
    world = quat_multiply(wxyz(quat_xyzw((1, 0, 0), -90)), wxyz(quat_xyzw((0, 1, 0), 30)))
    last = anim.tracks[0].keys[-1]
    assert float(angle_between(key_quat(last), quat_multiply(RX_MINUS_90, world))) < 0.03


def test_ps1_space_takes_the_world_rotation_as_is():
    glb = stood_up_rig()
    anim = gltf_to_animbin(glb, ps1_space=True).animbin.animations[0]
    world = quat_multiply(wxyz(quat_xyzw((1, 0, 0), -90)), wxyz(quat_xyzw((0, 1, 0), 30)))
    assert float(angle_between(key_quat(anim.tracks[0].keys[-1]), world)) < 0.03


def test_root_translation_key_is_the_world_position_in_console_axes():
    """The root's world position (0, 0.5, 0) + Rx(-90) (0, 0, 1) = (0, 1.5, 0) in glTF is
    (x, z, -y) = (0, 0, -1.5) in the console's model space; raw = value * 4096."""
    anim = gltf_to_animbin(stood_up_rig(), translations=True).animbin.animations[0]
    moves = [t for t in anim.tracks if t.keys and hasattr(t.keys[0], "vector")]
    root = next(t for t in moves if t.joint_id == 0)
    assert root.keys[0].vector == (0, 0, -6144)
    child = next(t for t in moves if t.joint_id == 1)
    assert child.keys[0].vector == (0, 4096, 0)  # parent-relative: no axis change


def test_back_onto_the_rig_keeps_the_node_above_and_the_pose(tmp_path):
    glb = stood_up_rig()
    result = gltf_to_animbin(glb)
    back = animbin_to_gltf_on_rig(result.animbin, read_rig(glb))
    khronos_validate(back, tmp_path)
    src, out = Document(glb=glb), Document(glb=back)
    assert out.parent[0] == 2 and out.nodes[2]["name"] == "armature"
    src_curves, out_curves = src.rotation_curves([0]), out.rotation_curves([0])
    for k in range(result.animbin.animations[0].length):
        for node in (0, 1):
            assert angle_deg(src.world_rotation(node, src_curves, k / NTSC), out.world_rotation(node, out_curves, k / NTSC)) < 0.03


def test_gltf_rig_skeleton_is_in_console_space(tmp_path):
    """play/compare with --skeleton rig.glb pose an ANIMBIN the way a MESHBIN skeleton does."""
    path = tmp_path / "rig.glb"
    path.write_bytes(stood_up_rig())
    skeleton = load_skeleton(path)
    assert np.allclose(skeleton.rest_translation[0], [0.0, 0.0, -1.5])
    # Rest: the armature's -90 about X, then Rx(-90): a half turn about X in console space.
    assert float(angle_between(skeleton.rest_rotation[0], np.array([0.0, 1.0, 0.0, 0.0]))) < 1e-6


# --- time ----------------------------------------------------------------------------------


def test_clip_starts_at_the_first_key():
    """Blender writes an action starting at frame 1 with its first key at 1/fps: clip frame
    k is that time + k vsyncs, so key 0 is the first pose, not a repeat of it."""
    start = 1 / 60
    times = [start + k / 60 for k in range(4)]
    values = [quat_xyzw((0, 0, 1), 10 * k) for k in range(4)]
    glb = build_glb(chain(1), [AnimSpec("a", [ChannelSpec(0, "rotation", times, values)])])
    result = gltf_to_animbin(glb, region=60, ps1_space=True)
    anim = result.animbin.animations[0]
    assert anim.length == 4
    for k, key in enumerate(anim.tracks[0].keys):
        assert float(angle_between(key_quat(key), wxyz(values[k]))) < 0.03
    assert result.clips[0].start_seconds == pytest.approx(start, abs=1e-6)


def test_length_counts_both_ends_as_the_exporter_bakes():
    """Frames 0..24 at 60 fps are 25 frames, looping or not."""
    glb = build_glb(chain(1), [AnimSpec("a", [ChannelSpec(0, "rotation", [0.0, 24 / 60], [quat_xyzw((0, 0, 1), 0)] * 2)])])
    assert gltf_to_animbin(glb, region=60).animbin.animations[0].length == 25
    assert gltf_to_animbin(glb, region=60, looping=False).animbin.animations[0].length == 25


# --- FP12 ----------------------------------------------------------------------------------


def test_trunc_encodes_like_the_exporter():
    q = quat_xyzw((1, 2, 3), 37)
    glb = build_glb(chain(1), [AnimSpec("k", [ChannelSpec(0, "rotation", [0, 0.1], [q, q])])])
    result = gltf_to_animbin(glb, ps1_space=True, fp12="trunc")
    key = result.animbin.animations[0].tracks[0].keys[0]
    assert key.quaternion == tuple(int(v * 4096) for v in wxyz(q))  # int() truncates toward zero
    assert "truncated toward zero" in result.report()
    with pytest.raises(AnimspecError, match="unknown FP12"):
        gltf_to_animbin(glb, fp12="floor")


# --- merging -------------------------------------------------------------------------------


def per_joint_animations() -> bytes:
    swing = [quat_xyzw((0, 0, 1), a) for a in (0, 20)]
    return build_glb(chain(3), [
        AnimSpec("a0", [ChannelSpec(0, "rotation", [0.0, 0.1], swing)]),
        AnimSpec("a1", [ChannelSpec(1, "rotation", [0.0, 0.2], swing)]),
        AnimSpec("a2", [ChannelSpec(2, "rotation", [0.05, 0.2], swing)]),
    ])


def test_merge_makes_one_clip_on_one_timeline():
    result = gltf_to_animbin(per_joint_animations(), merge="all", ps1_space=True)
    [anim] = result.animbin.animations
    assert str(anim.name) == "all" and anim.length == round(0.2 * NTSC) + 1
    last = {t.joint_id: key_quat(t.keys[-1]) for t in anim.tracks}
    for j in range(3):
        assert float(angle_between(last[j], wxyz(quat_xyzw((0, 0, 1), 20)))) < 0.03
    # Joint 2's curve starts at 0.05 s: before it, its first value holds (glTF 3.11).
    assert float(angle_between(key_quat(anim.tracks[2].keys[0]), np.array([1.0, 0, 0, 0]))) < 0.03
    without = gltf_to_animbin(per_joint_animations(), ps1_space=True).animbin.animations
    assert [str(a.name) for a in without] == ["a0", "a1", "a2"]


def test_merge_refuses_two_animations_of_one_joint():
    swing = [quat_xyzw((0, 0, 1), a) for a in (0, 20)]
    glb = build_glb(chain(2), [AnimSpec("x", [ChannelSpec(1, "rotation", [0, 0.1], swing)]),
                               AnimSpec("y", [ChannelSpec(1, "rotation", [0, 0.1], swing)])])
    with pytest.raises(AnimspecError, match="both animate the rotation of 'j1'.*--merge"):
        gltf_to_animbin(glb, merge="xy")


def test_too_many_animations_names_the_options():
    swing = [quat_xyzw((0, 0, 1), a) for a in (0, 20)]
    glb = build_glb(chain(1), [AnimSpec(f"a{i}", [ChannelSpec(0, "rotation", [0, 0.1], swing)]) for i in range(6)])
    with pytest.raises(AnimspecError, match="--animation NAME.*--split.*--merge NAME"):
        gltf_to_animbin(glb)


# --- joint mappings both ways --------------------------------------------------------------


def test_mapping_is_used_on_the_way_back(tmp_path):
    """Joint ids follow --joints out and back: with the mapping [j0, j2] (j1 left out), id 1
    must drive j2 on the way back, not the skin's second joint j1."""
    swing = [quat_xyzw((1, 0, 0), a) for a in (0, 40)]
    joints = [JointSpec("j0", -1, (0, 0, 0)), JointSpec("j1", 0), JointSpec("j2", 0)]
    source = tmp_path / "rig.glb"
    source.write_bytes(build_glb(joints, [AnimSpec("a", [ChannelSpec(2, "rotation", [0.0, 0.1], swing)])]))
    names = tmp_path / "map.txt"
    names.write_text("j0\nj2\n")
    clip, back = tmp_path / "a.animbin", tmp_path / "back.glb"
    assert main(["convert", str(source), "-o", str(clip), "--joints", str(names)]) == 0
    assert main(["convert", str(clip), "--skeleton", str(source), "--joints", str(names), "-o", str(back)]) == 0
    doc = Document(back)
    curves = doc.rotation_curves([0])
    assert set(curves) == {0, 2}
    assert angle_deg(curves[2][1][-1], wxyz(swing[1])) < 0.03


# --- ANIMBIN -> glTF -> ANIMBIN ------------------------------------------------------------


@pytest.mark.parametrize("example", ["swing.animbin", "sparse.animbin"])
@pytest.mark.parametrize("skeleton", [None, "pendulum.meshbin", "pendulum_rig.glb"])
def test_animbin_gltf_animbin_gives_the_same_bytes(tmp_path, example, skeleton):
    source = EXAMPLES / example
    glb, back = tmp_path / "x.glb", tmp_path / "back.animbin"
    rig = ["--skeleton", str(EXAMPLES / skeleton)] if skeleton else []
    assert main(["convert", str(source), *rig, "-o", str(glb)]) == 0
    assert main(["convert", str(glb), "-o", str(back)]) == 0
    assert back.read_bytes() == source.read_bytes()


def test_one_shot_single_track_clip_keeps_its_shape():
    """swing.animbin's 'nod': one-shot, 20 frames, one track on joint 3."""
    swing = read_file(str(EXAMPLES / "swing.animbin"))
    result = gltf_to_animbin(animbin_to_gltf(swing), animations=["nod"])
    nod = result.animbin.animations[0]
    assert (nod.length, nod.is_looping, [t.joint_id for t in nod.tracks]) == (20, False, [3])
    assert result.clips[0].layout


def test_layout_for_another_region_is_sampled_afresh():
    swing = read_file(str(EXAMPLES / "swing.animbin"))
    result = gltf_to_animbin(animbin_to_gltf(swing, region="ntsc"), animations=["swing"], region="pal", fit="cut")
    assert not result.clips[0].layout
    # (the library says the rate; a front end names its own option for it)
    assert any("a region of 59.9401 Hz rebuilds the original clip" in w and "layout" in w for w in result.warnings)


def test_edited_values_are_read_from_the_curves(tmp_path):
    """The layout carries frames and types only: values come from the glTF's curves."""
    swing = read_file(str(EXAMPLES / "swing.animbin"))
    doc = animbin_to_gltf(swing)
    from pygltflib import GLTF2

    gltf = GLTF2.load_from_bytes(doc)
    sampler = gltf.animations[0].samplers[gltf.animations[0].channels[0].sampler]
    from animspec.gltf.rig import read_accessor

    values = read_accessor(gltf, sampler.output)
    blob = bytearray(gltf.binary_blob())
    view = gltf.bufferViews[gltf.accessors[sampler.output].bufferView]
    edited = np.tile(np.array([0.0, 0.0, 0.0, 1.0], dtype="<f4"), (len(values), 1))
    blob[view.byteOffset:view.byteOffset + view.byteLength] = edited.tobytes()
    gltf.set_binary_blob(bytes(blob))
    again = gltf_to_animbin(b"".join(gltf.save_to_bytes()), animations=["swing"], ps1_space=False)
    root = again.animbin.animations[0].tracks[0]
    expected = quat_multiply(RX_MINUS_90, np.array([1.0, 0, 0, 0]))
    assert all(float(angle_between(key_quat(k), expected)) < 0.03 for k in root.keys)
    assert write_bytes(again.animbin) != (EXAMPLES / "swing.animbin").read_bytes()
