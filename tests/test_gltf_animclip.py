""".animclip base state -> glTF (:func:`animspec.gltf.animclip_pose_to_gltf`), through the minimal
joint protocol (hash, rotation x, y, z, w, translation) on rigs built here with pygltflib."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest
from pygltflib import GLTF2, Node

from animspec.animclip import read_bytes as read_animclip_bytes
from animspec.animclip import read_file as read_animclip
from animspec.cli import main as cli_main
from animspec.common.errors import AnimspecError
from animspec.gltf import animclip_pose_to_gltf
from animspec.gltf.from_animclip import ALERT_KEY_SECONDS
from animspec.common.hashes import crc32
import gltf_fk
from conftest import EXAMPLES, ROOT
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, animation_channels, build_glb, khronos_validate, quat_xyzw


def rig() -> bytes:
    joints = [
        JointSpec("root", -1, (0, 0, 0)),
        JointSpec("pelvis", 0, (0, 1, 0), quat_xyzw((0, 0, 1), 10)),
        JointSpec("spine", 1, (0, 1, 0)),
    ]
    walk = AnimSpec("walk", [ChannelSpec(2, "rotation", [0, 1], [quat_xyzw((1, 0, 0), 0), quat_xyzw((1, 0, 0), 30)])])
    return build_glb(joints, [walk], extra_nodes=[Node(name="prop", translation=[5, 0, 0])])


@dataclass
class Joint:
    hash: int
    rotation: tuple[float, float, float, float]
    translation: tuple[float, float, float] | None


@dataclass
class CustomTrack:
    name: str
    values: list[float]


def test_spec_hash_vectors():
    # ALERT's dat1lib/crc32.py: joint names are hashed case-sensitively.
    assert crc32("root") == 0x865696D5 and crc32("Root") == 0x266439EB and crc32("pelvis") == 0x8E59B33F


def test_base_state_applied_by_hash_and_unmatched_reported_both_ways(tmp_path):
    joints = [
        (crc32("root"), (0.0, 0.0, 0.25, 0.25), (1.0, 2.0, 3.0)),  # not unit: normalised
        Joint(crc32("pelvis"), (0.0, 0.0, 0.0, 0.0), None),  # zero quaternion: identity; keep translation
        (0xDEADBEEF, (0, 0, 0, 1), (0, 0, 0)),  # no such node
        (0xFFFF_FFFF, (0, 0, 0, 1), (0, 0, 0)),  # "no joint" entry: skipped
        (crc32("Root"), (0, 0, 0, 1), (0, 0, 0)),  # wrong case: a different hash
    ]
    data, match = animclip_pose_to_gltf(joints, rig(), custom_tracks=[("blink", [0.0, 0.5, 1.0]), CustomTrack("jaw", [2.0])])
    khronos_validate(data, tmp_path)

    assert sorted(match.matched) == sorted([("root", crc32("root")), ("pelvis", crc32("pelvis"))])
    assert match.clip_only == sorted([0xDEADBEEF, crc32("Root")])
    assert match.rig_only == ["spine"]  # skin joints only: "prop" is not a joint
    text = "\n".join(match.lines)
    assert "DEADBEEF" in text and "spine" in text and "2 custom track(s)" in text

    gltf = GLTF2.load_from_bytes(data)
    assert [a.name for a in gltf.animations] == ["walk", "base_state"]
    channels = animation_channels(data)
    base = channels[1]
    times, values, interpolation = base[(0, "rotation")]
    np.testing.assert_allclose(times, [0.0, ALERT_KEY_SECONDS], rtol=1e-7)
    assert interpolation == "LINEAR"
    np.testing.assert_allclose(values[0], [0, 0, 0, 1], atol=1e-7)  # bind pose first
    np.testing.assert_allclose(values[1], [0, 0, np.sqrt(0.5), np.sqrt(0.5)], atol=1e-7)
    np.testing.assert_allclose(base[(0, "translation")][1], [[0, 0, 0], [1, 2, 3]])
    np.testing.assert_allclose(base[(1, "rotation")][1][0], quat_xyzw((0, 0, 1), 10), atol=1e-7)
    np.testing.assert_allclose(base[(1, "rotation")][1][1], [0, 0, 0, 1], atol=1e-7)
    assert (1, "translation") not in base
    assert (2, "rotation") not in base

    extras = gltf.animations[1].extras["animclip"]
    assert extras["custom_tracks"] == {"blink": [0.0, 0.5, 1.0], "jaw": [2.0]}
    assert extras["unmatched_clip_hashes"] == [f"{h:08X}" for h in match.clip_only]
    # The rig's own data survived the buffer rewrite.
    walk_times, walk_values, _ = channels[0][(2, "rotation")]
    np.testing.assert_allclose(walk_values[1], quat_xyzw((1, 0, 0), 30), atol=1e-7)


def test_base_state_only_key(tmp_path):
    data, _ = animclip_pose_to_gltf([(crc32("spine"), (0, 1, 0, 0), (0, 4, 0))], rig(), bind_key=False, name="pose")
    khronos_validate(data, tmp_path)
    times, values, _ = animation_channels(data)[1][(2, "rotation")]
    np.testing.assert_allclose(times, [0.0])
    np.testing.assert_allclose(values, [[0, 1, 0, 0]])


def test_no_match_is_an_error():
    with pytest.raises(AnimspecError, match="no rig node name hashes"):
        animclip_pose_to_gltf([(0x12345678, (0, 0, 0, 1), (0, 0, 0))], rig())


@pytest.mark.filterwarnings("ignore:This file .* contains a binary blob")
def test_rig_from_a_gltf_file_with_an_external_buffer(tmp_path):
    """A .gltf whose data sits in a separate .bin: the result is still one self-contained GLB."""
    gltf = GLTF2.load_from_bytes(rig())
    path = tmp_path / "rig.gltf"
    gltf.save(str(path))  # writes rig.bin next to it
    assert (tmp_path / "rig.bin").is_file()
    data, match = animclip_pose_to_gltf([(crc32("root"), (0, 0, 0, 1), (0, 0, 1))], str(path))
    khronos_validate(data, tmp_path, "out.glb")
    assert match.matched == [("root", crc32("root"))]


# --- how much of the clip a rig matches ----------------------------------------------------


def clip_joints(hashes: list[int]) -> list[tuple[int, tuple, tuple]]:
    return [(h, (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0)) for h in hashes]


@pytest.mark.parametrize("clip, warned", [
    ([crc32("root"), crc32("pelvis"), 1, 2], False),  # 2 of 4: exactly half, no warning
    ([crc32("root"), crc32("pelvis"), 1, 2, 3], True),  # 2 of 5: below half
    ([crc32("root"), 1], False),  # 1 of 2
    ([crc32("root"), 1, 2], True),  # 1 of 3
    ([crc32("root"), crc32("pelvis"), crc32("spine")], False),
])
def test_few_matched_joints_warn_below_half(clip, warned, tmp_path):
    data, match = animclip_pose_to_gltf(clip_joints(clip), rig())
    khronos_validate(data, tmp_path)
    assert match.clip_joints == len(clip)
    assert match.matched_joints == sum(h not in (1, 2, 3) for h in clip)
    codes = [(f.code, f.severity.value) for f in match.findings]
    assert codes == ([("few-joints-matched", "warning")] if warned else [])
    if warned:
        text = match.findings[0].message
        assert f"only {match.matched_joints} of the clip's {len(clip)} joints" in text and "--skeleton" in text


def test_no_match_error_names_the_option_and_the_rig(tmp_path):
    path = tmp_path / "other.glb"
    path.write_bytes(rig())
    with pytest.raises(AnimspecError) as err:
        animclip_pose_to_gltf(clip_joints([1, 2, 3]), str(path))
    text = str(err.value)
    assert str(path) in text and "--skeleton" in text and "3 joint(s)" in text and "00000001" in text


def test_a_rig_without_scenes_gets_one_so_viewers_show_it(tmp_path):
    """Legal glTF, but with no scene listing the nodes a viewer draws nothing (and the
    Khronos validator reports every node as unused)."""
    gltf = GLTF2.load_from_bytes(rig())
    gltf.scenes, gltf.scene = [], None
    data, match = animclip_pose_to_gltf(clip_joints([crc32("root")]), gltf)
    report = khronos_validate(data, tmp_path)
    assert not [m for m in report["issues"]["messages"] if m["code"] == "UNUSED_OBJECT" and m["pointer"].startswith("/nodes/")]
    out = GLTF2.load_from_bytes(data)
    assert out.scene == 0 and sorted(out.scenes[0].nodes) == [0, 3]  # the root joint and "prop"
    assert any("added one holding its 2 root node(s)" in line for line in match.lines)


# --- examples/biped_rig.glb: the rig of examples/walk.animclip ----------------------------

BIPED_RIG = EXAMPLES / "biped_rig.glb"
WALK = EXAMPLES / "walk.animclip"


def readme_command(start: str) -> list[str]:
    """The line of docs/cli.md (the command-line walk-through) that starts with ``start``, split into arguments."""
    lines = [line.split("#")[0].split() for line in (ROOT / "docs" / "cli.md").read_text().splitlines() if line.startswith(start)]
    assert len(lines) == 1, lines
    return lines[0]


def test_biped_rig_names_hash_to_every_walk_joint(tmp_path):
    """Node names hashed here with zlib (independently of animspec.common.hashes), compared with the
    Joint Hashes section read from the file's bytes by animspec's reader."""
    import zlib

    def dat1_crc32(name: str) -> int:  # ALERT's variant: seed 0xEDB88320, no final XOR
        return zlib.crc32(name.encode(), 0xEDB88320 ^ 0xFFFFFFFF) ^ 0xFFFFFFFF

    doc = GLTF2.load_from_bytes(BIPED_RIG.read_bytes())
    joints = {dat1_crc32(doc.nodes[j].name) for j in doc.skins[0].joints}
    clip = read_animclip(str(WALK)).clip()
    hashes = {j.hash for j in clip.joints if j.hash is not None}
    assert len(hashes) == 21 and joints == hashes
    khronos_validate(BIPED_RIG.read_bytes(), tmp_path)


def test_readme_animclip_command_poses_every_joint_of_the_sample(tmp_path, capsys, monkeypatch):
    args = readme_command("animspec convert examples/walk.animclip")
    assert args[:3] == ["animspec", "convert", "examples/walk.animclip"] and "examples/biped_rig.glb" in args
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(EXAMPLES)
    assert cli_main(args[1:]) == 0
    out = capsys.readouterr()
    assert "21 clip joint(s), 21 rig joint(s): 21 node(s) matched" in out.out
    assert "warning" not in out.out and out.err == ""
    data = (tmp_path / args[args.index("-o") + 1]).read_bytes()
    khronos_validate(data, tmp_path)

    # Every frame lands on the node of the same name: frame 0 is the base state plus sample 0.
    from animspec.animclip.frames.pose import clip_frames

    doc = GLTF2.load_from_bytes(data)
    channels = animation_channels(data)[-1]
    model = read_animclip(str(WALK))
    frames = clip_frames(model)
    poses = frames.frames()
    column = {int(h): j for j, h in enumerate(frames.joint_hashes)}
    clip = {j.hash: j for j in model.clip().joints if j.hash is not None}
    moved = 0
    # Each joint's transform in the space of the joint above it (for a root: of the scene under
    # the root-motion node) is the clip's, whatever rig nodes lie in between (gltf_fk, apart
    # from animspec's own glTF code): a node above the skeleton is taken out of the root's keys.
    up, skin = gltf_fk.parents(doc), set(doc.skins[0].joints)
    carrier = [i for i, n in enumerate(doc.nodes) if n.name == "animclip_root_motion"]
    world = gltf_fk.world_matrices(doc, len(doc.animations) - 1, frames.times)
    for i, node in enumerate(doc.nodes[:21]):
        j = column[crc32(node.name)]
        times, rotations, _ = channels[(i, "rotation")]
        assert len(times) == 31
        ref = up[i]
        while ref != -1 and ref not in skin and ref not in carrier:
            ref = up[ref]
        space = np.linalg.inv(world[:, ref]) @ world[:, i] if ref != -1 else world[:, i]
        expected = [gltf_fk.trs(poses.translation[f, j], poses.rotation[f, j], poses.scale[f, j]) for f in range(31)]
        np.testing.assert_allclose(space, expected, atol=1e-5)
        moved += np.ptp(rotations, axis=0).max() > 0.01
        # The rig's rest offsets are the clip's base state, to the clip's 1/4096 quantisation.
        np.testing.assert_allclose(node.translation, clip[crc32(node.name)].translation, atol=0.5 / 4096 + 1e-7)
    assert moved == 6  # thighs, calves, upper arms swing
    assert len(carrier) == 1
    np.testing.assert_allclose(channels[(carrier[0], "translation")][1][-1], [0, 0, 1.4], atol=1e-3)


def test_a_rig_of_another_skeleton_warns_and_a_meshbin_is_refused(tmp_path, capsys):
    out = tmp_path / "pose.glb"
    assert cli_main(["convert", str(WALK), "--skeleton", str(EXAMPLES / "pendulum_rig.glb"), "-o", str(out),
                     "--joint-names", str(EXAMPLES / "joint_names.txt")]) == 0
    text = capsys.readouterr().out
    assert f"{out}: warning: few-joints-matched: only 1 of the clip's 21 joints found a node in" in text
    assert "pelvis (8E59B33F)" in text  # --joint-names labels the missing joints
    khronos_validate(out.read_bytes(), tmp_path)

    jsonl = tmp_path / "j"
    assert cli_main(["convert", str(WALK), "--skeleton", str(EXAMPLES / "pendulum_rig.glb"), "-o", str(jsonl), "--jsonl"]) == 0
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{") and '"file"' in x]
    assert [f["code"] for f in line["findings"]] == ["few-joints-matched"]

    for skeleton, expected in ((EXAMPLES / "pendulum.meshbin", "is not a glTF rig"),):
        bad = tmp_path / "bad.glb"
        assert cli_main(["convert", str(WALK), "--skeleton", str(skeleton), "-o", str(bad)]) == 2
        err = capsys.readouterr().err
        assert expected in err and str(WALK) in err and not bad.exists()


def test_a_rig_matching_nothing_is_an_error_naming_skeleton(tmp_path, capsys):
    gltf = GLTF2.load_from_bytes(rig())
    for n in gltf.nodes:
        n.name = (n.name or "") + "_x"  # root_x, pelvis_x, ...: no clip joint has these names
    rig_path = tmp_path / "other.glb"
    rig_path.write_bytes(b"".join(gltf.save_to_bytes()))
    out = tmp_path / "pose.glb"
    assert cli_main(["convert", str(WALK), "--skeleton", str(rig_path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no rig node name hashes to any of the clip's 21 joint(s)" in err and "--skeleton" in err
    assert str(WALK) in err and str(rig_path) in err and not out.exists()


# --- every frame (animspec.animclip.frames.decode -> animclip_to_gltf) -----------------


def _named_rig(count: int) -> bytes:
    joints = [JointSpec(f"joint_{j}", j - 1 if j else -1, (0, 1, 0)) for j in range(count)]
    return build_glb(joints)


def _convert(tmp_path, clip_bytes: bytes, *extra: str, skeleton: bytes | None = None) -> tuple[int, bytes | None, str]:
    src, out = tmp_path / "clip.animclip", tmp_path / "out.glb"
    src.write_bytes(clip_bytes)
    args = ["convert", str(src), "-o", str(out), *extra]
    if skeleton is not None:
        (tmp_path / "rig.glb").write_bytes(skeleton)
        args += ["--skeleton", str(tmp_path / "rig.glb")]
    code = cli_main(args)
    return code, out.read_bytes() if out.exists() else None, str(out)


def test_every_frame_lands_on_the_node_of_the_same_name(tmp_path, capsys):
    from test_animclip_samples import clip_file, random_clip

    clip = random_clip(31, joints=4, samples=9)
    code, data, _ = _convert(tmp_path, clip_file(clip, frames=9), skeleton=_named_rig(4))
    assert code == 0, capsys.readouterr().err
    assert "9 frame(s) at 30 fps on 4 node(s)" in capsys.readouterr().out
    khronos_validate(data, tmp_path)
    channels = animation_channels(data)[-1]
    doc = GLTF2.load_from_bytes(data)
    for node in range(4):
        assert doc.nodes[node].name == f"joint_{node}"
        times, rotations, interpolation = channels[(node, "rotation")]
        np.testing.assert_allclose(times, np.arange(9) / 30, rtol=1e-6)
        assert interpolation == "LINEAR"
        for f in range(9):
            rot, tra, sca = clip.expected(f)[node]
            # a key may be the negated quaternion (sign continuity): the same rotation
            assert abs(np.dot(rotations[f], rot)) == pytest.approx(1, abs=1e-6)
            np.testing.assert_allclose(channels[(node, "translation")][1][f], tra, rtol=1e-6, atol=1e-6)
            if (node, "scale") in channels:
                np.testing.assert_allclose(channels[(node, "scale")][1][f], sca, rtol=1e-6)
            else:
                np.testing.assert_allclose(sca, 1.0)
    assert "animclip_root_motion" not in [n.name for n in doc.nodes]  # no Motion Data


def test_root_motion_on_a_node_above_the_rig_or_left_out(tmp_path, capsys):
    from test_animclip_samples import clip_file, motion_payload, random_clip

    clip = random_clip(32, joints=3, samples=4)
    motion = motion_payload([((0, 0, 0, 32767), (256 * k, 0, -128 * k), 8) for k in range(4)])
    data_in = clip_file(clip, frames=4, flags=0x800000, motion=motion)
    code, data, _ = _convert(tmp_path, data_in, skeleton=_named_rig(3))
    assert code == 0
    assert "root motion: 4 key(s)" in capsys.readouterr().out
    khronos_validate(data, tmp_path)
    doc = GLTF2.load_from_bytes(data)
    carrier = [i for i, n in enumerate(doc.nodes) if n.name == "animclip_root_motion"]
    assert len(carrier) == 1 and doc.nodes[carrier[0]].children == [0]
    assert carrier[0] in doc.scenes[doc.scene].nodes and 0 not in doc.scenes[doc.scene].nodes
    t = animation_channels(data)[-1][(carrier[0], "translation")][1]
    np.testing.assert_allclose(t, [[k, 0, -k / 2] for k in range(4)])

    (tmp_path / "out.glb").unlink()
    code, data, _ = _convert(tmp_path, data_in, "--no-root-motion", skeleton=_named_rig(3))
    assert code == 0 and "root motion left out" in capsys.readouterr().out
    assert "animclip_root_motion" not in [n.name for n in GLTF2.load_from_bytes(data).nodes]


def test_a_clip_without_samples_holds_its_base_pose_to_its_last_frame(tmp_path, capsys):
    # Two keys of the base pose, at frame 0 and at the last frame: the glTF lasts as long as
    # the clip, so converting it back gives every frame (one key gave one frame).
    from test_animclip_samples import clip_file, random_clip

    clip = random_clip(33, joints=2, samples=1)
    clip.small, clip.large, clip.samples = [], [], [[]]
    code, data, _ = _convert(tmp_path, clip_file(clip, frames=5, stride=0), skeleton=_named_rig(2))
    assert code == 0 and "the base pose (the clip has no samples)" in capsys.readouterr().out
    khronos_validate(data, tmp_path)
    times, rotations, _ = animation_channels(data)[-1][(1, "rotation")]
    np.testing.assert_allclose(times, [0.0, 4 / 30], rtol=1e-7)
    for key in rotations:
        assert abs(np.dot(key, clip.expected(0)[1][0])) == pytest.approx(1, abs=1e-6)


def test_a_camera_clip_becomes_an_animated_glTF_camera(tmp_path, capsys):
    from test_animclip_samples import clip_file, motion_payload, random_clip

    clip = random_clip(34, joints=1, samples=1)
    clip.small, clip.large, clip.samples = [], [], [[]]
    half = 23170  # 90 degrees about Y as i16 / 32768
    motion = motion_payload([((0, 0, 0, 32767), (0, 0, 0), 0), ((0, half, 0, half), (0, 0, -256), 8)])
    code, data, _ = _convert(tmp_path, clip_file(clip, frames=2, stride=0, flags=0x10 | 0x800000, motion=motion))
    assert code == 0, capsys.readouterr().err
    assert "camera clip: 2 key(s)" in capsys.readouterr().out
    khronos_validate(data, tmp_path)
    doc = GLTF2.load_from_bytes(data)
    (cam_node,) = [i for i, n in enumerate(doc.nodes) if n.camera is not None]
    channels = animation_channels(data)[-1]
    # motion_payload's header: initial translation (1.5, 0, 0), identity rotation; the
    # samples are relative to it.
    np.testing.assert_allclose(channels[(cam_node, "translation")][1], [[1.5, 0, 0], [1.5, 0, -1]], atol=1e-6)
    np.testing.assert_allclose(channels[(cam_node, "rotation")][1][1], [0, np.sqrt(0.5), 0, np.sqrt(0.5)], atol=1e-4)
    assert doc.cameras[0].type == "perspective" and doc.cameras[0].perspective.yfov > 0


def test_an_undecodable_sample_coding_is_a_parse_error_and_no_output(tmp_path, capsys):
    from test_animclip_samples import clip_file, random_clip

    clip = random_clip(35, joints=3, samples=3)
    code, data, out = _convert(tmp_path, clip_file(clip, frames=3, declared_stride=4), skeleton=_named_rig(3))
    err = capsys.readouterr().err
    assert code != 0 and data is None
    assert "clip.animclip" in err and "built.stride" in err and "Traceback" not in err


def test_a_luna_clip_converts_to_valid_gltf_with_luna_importer_transforms(tmp_path, capsys):
    """Luna's root_motion clip on a rig made from its recorded joints: every key equals what
    Luna's importer read (engine-local), the root motion travels, the validator is clean."""
    import struct

    from test_animclip_samples import LUNA, luna_record

    record = luna_record("root_motion")
    joints = [JointSpec(j["name"], j["parent"], (0, 0.1, 0)) for j in record["joints"]]
    data = (LUNA / "root_motion.animclip").read_bytes()
    try:
        read_animclip_bytes(data)
    except AnimspecError:  # Spider-Man 2's STG wrapper, before the reader knows it: the DAT1 behind a known header
        data = struct.pack("<II28x", 0xC96F58F3, len(data) - 32) + data[32:]
    code, out, _ = _convert(tmp_path, data, skeleton=build_glb(joints))
    assert code == 0, capsys.readouterr().err
    khronos_validate(out, tmp_path)
    channels = animation_channels(out)[-1]
    luna = record["luna_import"]["engine_local"]
    for node in range(len(joints)):
        np.testing.assert_allclose(channels[(node, "translation")][1], np.asarray(luna["translation"])[:, node], atol=2e-6)
        dots = np.abs(np.sum(channels[(node, "rotation")][1] * np.asarray(luna["rotation_xyzw"])[:, node], axis=1))
        np.testing.assert_allclose(dots, 1, atol=2e-6)
    doc = GLTF2.load_from_bytes(out)
    carrier = [i for i, n in enumerate(doc.nodes) if n.name == "animclip_root_motion"][0]
    moved = channels[(carrier, "translation")][1]
    expected = record["luna_import"]["root_motion"]["engine_relative_to_frame_0"]["translation"]
    np.testing.assert_allclose(moved, expected, atol=2e-4)


def test_root_motion_keys_at_the_clip_fps(tmp_path, capsys):
    from test_animclip_samples import clip_file, motion_payload, random_clip

    clip = random_clip(36, joints=2, samples=3)
    motion = motion_payload([((0, 0, 0, 32767), (256 * k, 0, 0), 8) for k in range(3)])
    data = clip_file(clip, frames=3, flags=0x800000, motion=motion, built_extra={"fps": 24.0})
    code, out, _ = _convert(tmp_path, data, skeleton=_named_rig(2))
    assert code == 0, capsys.readouterr().err
    doc = GLTF2.load_from_bytes(out)
    carrier = [i for i, n in enumerate(doc.nodes) if n.name == "animclip_root_motion"][0]
    channels = animation_channels(out)[-1]
    np.testing.assert_allclose(channels[(carrier, "translation")][0], np.arange(3) / 24, rtol=1e-6)
    np.testing.assert_allclose(channels[(0, "rotation")][0], np.arange(3) / 24, rtol=1e-6)


def test_camera_field_of_view_from_xfov_at_the_assumed_aspect(tmp_path):
    import math

    from animspec.gltf import CameraAnimation, camera_animation_to_gltf
    from animspec.gltf.from_animclip import CAMERA_ASPECT, DEFAULT_XFOV

    times = np.array([0.0, 0.5])
    path = CameraAnimation(times, np.zeros((2, 3)), np.array([[0, 0, 0, 1.0]] * 2), np.array([1.2, 1.0]))
    data, lines = camera_animation_to_gltf(path)
    khronos_validate(data, tmp_path)
    camera = GLTF2.load_from_bytes(data).cameras[0].perspective
    assert camera.yfov == pytest.approx(2 * math.atan(math.tan(0.6) / CAMERA_ASPECT))
    assert camera.aspectRatio == pytest.approx(16 / 9)
    assert GLTF2.load_from_bytes(data).animations[0].extras["animclip"]["xfov"] == [1.2, 1.0]
    no_track, _ = camera_animation_to_gltf(CameraAnimation(times, np.zeros((2, 3)), np.array([[0, 0, 0, 1.0]] * 2)))
    assert GLTF2.load_from_bytes(no_track).cameras[0].perspective.yfov == pytest.approx(
        2 * math.atan(math.tan(DEFAULT_XFOV / 2) / CAMERA_ASPECT))
