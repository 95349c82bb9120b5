"""The glTF writing side: animspec.gltf.document.write_glb (the GLB container) and
animspec.gltf.builder (accessors, skins, animations, the repairs of a rig written again).

The container is read back with struct here (glTF 2.0 specification, 4.4 "Binary glTF
Layout") and compared with pygltflib's own GLB writer, whose bytes animspec wrote before
it had its own; the builder's output is read back through the document reader."""

from __future__ import annotations

import copy
import json
import struct

import numpy as np
import pytest
from conftest import EXAMPLES
from test_gltf_support import khronos_validate
from pygltflib import ANIM_LINEAR, FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT, Image, Node

from animspec.gltf.builder import KEEP_AS_STORED, Channel, DocumentBuilder, KeyDataError, add_scene_if_none, use_trs
from animspec.gltf.document import GltfError, load_path, parse_glb, write_glb
from animspec.gltf.rig import read_accessor, read_rig
from animspec.skeleton import Skeleton, forward_kinematics

RIG = EXAMPLES / "pendulum_rig.glb"


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(type, body) of every chunk, after checking the 12-byte header's magic, version and
    length."""
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert (magic, version, length) == (b"glTF", 2, len(data))
    out, pos = [], 12
    while pos < len(data):
        size, kind = struct.unpack_from("<I4s", data, pos)
        assert size % 4 == 0, f"chunk {kind!r} of {size} bytes is not padded to 4"
        out.append((kind, data[pos + 8 : pos + 8 + size]))
        pos += 8 + size
    assert pos == len(data)
    return out


def built(*sizes: int) -> DocumentBuilder:
    """A builder holding one UNSIGNED_SHORT scalar accessor per size (odd sizes leave 2
    bytes of padding after a view)."""
    builder = DocumentBuilder()
    for n in sizes:
        builder.accessor(np.arange(n), UNSIGNED_SHORT, "SCALAR")
    return builder


def test_a_document_without_data_has_no_bin_chunk_and_no_buffer():
    gltf = DocumentBuilder().document()
    gltf.nodes.append(Node(name="only"))
    data = write_glb(gltf)
    (kind, text), = chunks(data)
    assert kind == b"JSON" and text == text.rstrip(b" ") + b" " * (-len(text.rstrip(b" ")) % 4)
    doc = json.loads(text)
    assert "buffers" not in doc and doc["nodes"] == [{"name": "only"}]
    assert doc["asset"] == {"generator": "animspec", "version": "2.0"}
    assert parse_glb(data).nodes[0].name == "only"


@pytest.mark.parametrize("sizes", [(1,), (3, 2, 5), (2, 2), (7, 1, 1, 4)])
def test_views_are_aligned_and_read_back(sizes):
    data = write_glb(built(*sizes).document())
    (json_kind, text), (bin_kind, blob) = chunks(data)
    assert (json_kind, bin_kind) == (b"JSON", b"BIN\0")
    assert (12 + 8 + len(text) + 8) % 4 == 0  # the BIN data starts aligned
    doc = json.loads(text)
    assert doc["buffers"] == [{"byteLength": len(blob)}]
    offsets = [v["byteOffset"] for v in doc["bufferViews"]]
    assert all(o % 4 == 0 for o in offsets) and offsets == sorted(offsets)
    back = parse_glb(data)
    for i, n in enumerate(sizes):
        assert read_accessor(back, i)[:, 0].tolist() == list(range(n))


@pytest.mark.parametrize("sizes", [(1,), (3, 2, 5), (7, 1, 1, 4)])
def test_bytes_equal_pygltflibs_writer(sizes):
    """animspec wrote GLBs with pygltflib's save_to_bytes before write_glb: same bytes."""
    gltf = built(*sizes).document()
    theirs = b"".join(copy.deepcopy(gltf).save_to_bytes())
    assert write_glb(gltf) == theirs


def test_an_extension_asking_8_byte_alignment_gets_it_as_from_pygltflib():
    builder = DocumentBuilder()
    builder.gltf.extensionsUsed = ["EXT_structural_metadata"]
    builder = DocumentBuilder(builder.gltf)
    for n in (3, 1, 3):
        builder.accessor(np.arange(n), UNSIGNED_SHORT, "SCALAR")
    gltf = builder.document()
    data = write_glb(gltf)
    (_, text), (_, blob) = chunks(data)
    assert (12 + 8 + len(text) + 8) % 8 == 0 and len(blob) % 8 == 0
    assert [v.byteOffset for v in gltf.bufferViews] == [0, 8, 16]
    # and no more padding than the alignment needs: the data ends at byte 22, the chunk at 24
    end = max(v.byteOffset + v.byteLength for v in gltf.bufferViews)
    assert len(blob) == end + (-end % 8) == gltf.buffers[0].byteLength
    assert data == b"".join(copy.deepcopy(gltf).save_to_bytes())


def test_animation_writes_xyzw_keeps_near_unit_keys_and_shares_inputs():
    builder = DocumentBuilder()
    builder.gltf.nodes += [Node(name="a"), Node(name="b")]
    near = np.array([[4095 / 4096, 0.0, 0.0, 0.0], [0.0, 0.0, 4096 / 4096, 0.0]])  # w, x, y, z
    far = np.array([[0.0, 2.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]])
    times = np.array([0.0, 0.5])
    assert builder.animation("clip", [
        Channel(0, "rotation", times, near, ANIM_LINEAR),
        Channel(1, "rotation", times, far, "STEP"),
        Channel(1, "translation", np.array([0.0, 0.25]), np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ANIM_LINEAR),
    ], {"note": 1}) == 0  # each animation's index, as the caller refers to it
    assert builder.animation("again", [Channel(0, "translation", times, np.zeros((2, 3)), ANIM_LINEAR)]) == 1
    back = parse_glb(write_glb(builder.document()))
    anim = back.animations[0]
    assert back.animations[1].name == "again"
    assert anim.name == "clip" and anim.extras == {"note": 1}
    assert [(c.target.node, c.target.path) for c in anim.channels] == [(0, "rotation"), (1, "rotation"), (1, "translation")]
    inputs = [anim.samplers[c.sampler].input for c in anim.channels]
    assert inputs[0] == inputs[1] != inputs[2]  # equal key times: one accessor
    assert back.accessors[inputs[0]].min == [0.0] and back.accessors[inputs[0]].max == [0.5]
    assert [s.interpolation for s in anim.samplers] == ["LINEAR", "STEP", "LINEAR"]
    stored = read_accessor(back, anim.samplers[0].output)
    np.testing.assert_array_equal(stored, np.float32([[0.0, 0.0, 0.0, 4095 / 4096], [0.0, 1.0, 0.0, 0.0]]))
    assert 1 - 4095 / 4096 < KEEP_AS_STORED
    np.testing.assert_allclose(read_accessor(back, anim.samplers[1].output), [[1, 0, 0, 0], [0.5**0.5, 0, 0, 0.5**0.5]], atol=1e-7)
    np.testing.assert_array_equal(read_accessor(back, anim.samplers[2].output), [[1, 2, 3], [4, 5, 6]])


@pytest.mark.parametrize(("node", "named"), [(0, "'hips'"), (1, "'1'"), (2, "'2'"), (7, "'7'")])
def test_a_refused_key_names_its_node_by_name_else_by_index(node, named):
    # Node 1 has no name; nodes 2 and 7 are not in the document (yet): the index is all
    # there is to name, and naming must never fail on it.
    builder = DocumentBuilder()
    builder.gltf.nodes += [Node(name="hips"), Node()]
    bad = Channel(node, "translation", np.array([0.0, 1.0]), np.array([[0.0, 0.0, 0.0], [np.nan, 0.0, 0.0]]), ANIM_LINEAR)
    with pytest.raises(KeyDataError, match=rf"translation of node {named}: key 1 is not finite") as refused:
        builder.animation("clip", [bad])
    assert refused.value.node == named.strip("'") and builder.gltf.animations == []


def test_each_rotation_key_is_kept_or_normalised_on_its_own():
    """An FP12 key near unit length is written as stored even when another key of the same
    channel is far from unit and gets normalised (the validator's rule is per key)."""
    builder = DocumentBuilder()
    builder.gltf.nodes.append(Node(name="a"))
    keys = np.array([[4095 / 4096, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 4094 / 4096, 0.0]])  # w, x, y, z
    builder.animation("clip", [Channel(0, "rotation", np.array([0.0, 0.5, 1.0]), keys, ANIM_LINEAR)])
    back = parse_glb(write_glb(builder.document()))
    stored = read_accessor(back, back.animations[0].samplers[0].output)
    np.testing.assert_array_equal(stored[[0, 2]], np.float32([[0.0, 0.0, 0.0, 4095 / 4096], [0.0, 4094 / 4096, 0.0, 0.0]]))
    np.testing.assert_allclose(stored[1], [0.5**0.5, 0.0, 0.0, 0.5**0.5], atol=1e-7)


@pytest.mark.parametrize("bones", [255, 256, 257])
def test_the_bone_mesh_joint_indices_take_the_smallest_type_that_holds_them(bones, tmp_path):
    """glTF's JOINTS_n are unsigned bytes or unsigned shorts (spec 3.7.3.3): a byte holds
    joint indices up to 255, so up to 256 bones, and the validator checks every index
    against the skin."""
    skeleton = Skeleton.chain(bones)
    builder = DocumentBuilder()
    nodes = builder.skeleton_nodes(skeleton, skeleton.rest_translation, skeleton.rest_rotation)
    builder.scene("s", [0])
    builder.skin(skeleton, nodes, forward_kinematics(skeleton, skeleton.rest_rotation[None])[0], mesh=True)
    data = write_glb(builder.document())
    back = parse_glb(data)
    joints = back.accessors[back.meshes[0].primitives[0].attributes["JOINTS_0"]]
    highest = int(read_accessor(back, back.meshes[0].primitives[0].attributes["JOINTS_0"]).max())
    assert highest == bones - 1
    assert joints.componentType == (UNSIGNED_BYTE if highest <= 0xFF else UNSIGNED_SHORT)
    if bones > 255:
        khronos_validate(data, tmp_path)


def test_skin_inverse_binds_the_rest_pose_and_draws_bones():
    skeleton = Skeleton.chain(3)
    builder = DocumentBuilder()
    nodes = builder.skeleton_nodes(skeleton, skeleton.rest_translation, skeleton.rest_rotation)
    assert builder.gltf.nodes[0].children == [1] and builder.gltf.nodes[1].children == [2]
    assert builder.scene("s", [0]) == 0 and builder.scene("other", []) == 1 and builder.gltf.scene == 0
    world = forward_kinematics(skeleton, skeleton.rest_rotation[None])[0]
    skin = builder.skin(skeleton, nodes, world, mesh=True)
    back = parse_glb(write_glb(builder.document()))
    ibm = read_accessor(back, back.skins[skin].inverseBindMatrices).reshape(-1, 4, 4).transpose(0, 2, 1)
    np.testing.assert_allclose(ibm @ world, np.tile(np.eye(4), (3, 1, 1)), atol=1e-6)
    assert back.skins[skin].joints == nodes and back.skins[skin].skeleton == 0
    assert back.scenes[0].nodes[0] == 0 and back.scenes[1].nodes == []  # the bones go to the default scene
    bones = back.nodes[back.scenes[0].nodes[-1]]
    assert bones.name == "bones" and bones.skin == skin
    attributes = back.meshes[bones.mesh].primitives[0].attributes  # a dict, as read
    assert read_accessor(back, attributes["JOINTS_0"])[:, 0].tolist() == [0] * 6 + [1] * 6 + [2] * 6
    assert back.accessors[attributes["JOINTS_0"]].componentType == UNSIGNED_BYTE
    assert back.accessors[attributes["POSITION"]].componentType == FLOAT
    assert read_accessor(back, attributes["WEIGHTS_0"]).sum(axis=1).tolist() == [1.0] * 18


def test_extending_copies_the_rig_and_keeps_its_data():
    rig = load_path(RIG)
    offsets = [v.byteOffset for v in rig.bufferViews]
    builder = DocumentBuilder.extending(rig)
    builder.gltf.nodes[0].name = "changed"
    builder.accessor(np.arange(3), UNSIGNED_SHORT, "SCALAR")
    back = parse_glb(builder.glb())
    assert rig.nodes[0].name != "changed" and [v.byteOffset for v in rig.bufferViews] == offsets
    assert len(back.accessors) == len(rig.accessors) + 1
    for i in range(len(rig.accessors)):
        np.testing.assert_array_equal(read_accessor(back, i), read_accessor(rig, i))
    assert read_rig(back).names == ["changed"] + read_rig(rig).names[1:]


def test_add_scene_if_none_lists_the_roots():
    builder = DocumentBuilder()
    builder.gltf.nodes += [Node(children=[2]), Node(), Node()]
    assert add_scene_if_none(builder.gltf, "x") == [0, 1]
    assert builder.gltf.scenes[0].name == "x" and builder.gltf.scene == 0
    assert add_scene_if_none(builder.gltf) is None and len(builder.gltf.scenes) == 1


def test_use_trs_replaces_a_matrix_only():
    builder = DocumentBuilder()
    builder.gltf.nodes += [Node(matrix=[2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1]), Node(rotation=[0, 0, 0, 1])]
    use_trs(builder.gltf, 0, np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.5, 0.5, 0.5]), np.array([2.0, 2.0, 2.0]))
    use_trs(builder.gltf, 1, np.zeros(3), np.array([0.0, 1.0, 0.0, 0.0]), np.ones(3))
    first, second = builder.gltf.nodes
    assert first.matrix is None and first.translation == [1, 2, 3] and first.scale == [2, 2, 2]
    assert first.rotation == [0.5, 0.5, 0.5, 0.5]
    assert second.rotation == [0, 0, 0, 1] and second.translation is None


def test_missing_image_file_names_the_path(tmp_path):
    builder = DocumentBuilder()
    builder.gltf.images.append(Image(uri="missing%20file.png"))
    builder.gltf._path = tmp_path
    with pytest.raises(GltfError, match="image 0: .*missing file.png"):
        builder.embed_images()


def test_an_accessor_gets_bounds_only_when_asked():
    # glTF 2.0 requires min and max on POSITION accessors only; the builder writes them where
    # the caller asks (the bone mesh's positions) and nowhere else.
    builder = DocumentBuilder()
    plain = builder.accessor(np.zeros((2, 3)), FLOAT, "VEC3")
    bounded = builder.accessor(np.array([[0.0, -1.0, 2.0], [3.0, 1.0, -2.0]]), FLOAT, "VEC3", bounds=True)
    assert not builder.gltf.accessors[plain].min and not builder.gltf.accessors[plain].max
    assert builder.gltf.accessors[bounded].min == [0.0, -1.0, -2.0]
    assert builder.gltf.accessors[bounded].max == [3.0, 1.0, 2.0]


def _shown(gltf) -> list[int]:
    """The nodes of the scene a viewer shows: glTF 2.0 5.1 "scene", the default scene, or
    the first when the document names none (what three.js and Blender's importer show)."""
    return list(gltf.scenes[gltf.scene if gltf.scene is not None else 0].nodes or [])


@pytest.mark.parametrize("default", [None, 0, 1])
def test_the_bone_mesh_goes_into_the_scene_a_viewer_shows(default):
    # A rig read from a file may name no default scene, or a second one; the bones must be
    # added where a viewer looks, and nowhere else.
    skeleton = Skeleton.chain(2)
    builder = DocumentBuilder()
    nodes = builder.skeleton_nodes(skeleton, skeleton.rest_translation, skeleton.rest_rotation)
    builder.scene("first", [0])
    builder.scene("second", [])  # a scene listing no nodes: its list is empty, then None
    builder.gltf.scenes[1].nodes = None
    builder.gltf.scene = default
    world = forward_kinematics(skeleton, skeleton.rest_rotation[None])[0]
    skin = builder.skin(skeleton, nodes, world, mesh=True)
    back = parse_glb(write_glb(builder.document()))
    bones = [i for i, node in enumerate(back.nodes) if node.skin == skin]
    assert len(bones) == 1
    shown, other = (1, 0) if default == 1 else (0, 1)
    assert _shown(back) == ([0] if shown == 0 else []) + bones
    assert bones[0] not in (back.scenes[other].nodes or [])


@pytest.mark.parametrize("default", [None, 0, 1])
def test_a_parent_of_the_roots_wraps_the_shown_scenes_roots_but_not_a_skinned_mesh(default):
    # glTF 2.0 5.25: a skinned mesh's node transform is ignored, so the node that carries the
    # rig (root motion) must hold the joint roots and leave the skinned mesh in the scene.
    builder = DocumentBuilder()
    builder.gltf.nodes += [Node(name="hips"), Node(name="body", mesh=0, skin=0), Node(name="prop")]
    builder.scene("first", [0, 1])
    builder.scene("second", [2])
    builder.gltf.scene = default
    carrier = builder.parent_of_roots("root motion")
    gltf = builder.gltf
    shown, other = (1, 0) if default == 1 else (0, 1)
    wrapped = {0: [0], 1: [2]}[shown]
    assert gltf.nodes[carrier].name == "root motion" and gltf.nodes[carrier].children == wrapped
    assert _shown(gltf) == ([1] if shown == 0 else []) + [carrier]
    assert gltf.scenes[other].nodes == {0: [0, 1], 1: [2]}[other]  # the other scene untouched
