"""glTF -> .animclip (animspec.gltf.to_animclip) on glTFs built here: the written clip, decoded
with the reference decoder (tests/animclip_reference.py), gives the glTF's local transforms at
every frame within the max error."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from animclip_reference import Counts, decode_values, rotation_difference, transforms, section_payload
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, build_glb, quat_xyzw

from animspec.animclip.frames.encode import Tolerance
from animspec.animclip.parse import read_bytes, read_file
from animspec.animclip.tags import TAG_BASE_STATE, TAG_JOINT_HASHES, TAG_SAMPLE_ELEM
from animspec.animclip.write import write_bytes
from animspec.common.hashes import crc32
from animspec.gltf.rig import GltfError
from animspec.gltf.to_animclip import gltf_to_animclip

from conftest import ROOT

JOINTS = [JointSpec("root", -1, (0.0, 0.0, 0.0)), JointSpec("spine", 0, (0.0, 1.0, 0.0)),
          JointSpec("arm", 1, (0.3, 0.5, 0.0), quat_xyzw((0, 0, 1), 30))]


def uniform(e: float) -> Tolerance:
    """Translation and scale within ``e``, rotation within the angle that moves no quaternion
    component by more than ``e`` (an angle a moves a unit quaternion by 2 sin(a / 4) < a / 2)."""
    return Tolerance(math.degrees(2 * e), e, e)


def glb(seconds: float = 1.0) -> bytes:
    times = np.linspace(0, seconds, 5)
    return build_glb(JOINTS, [AnimSpec("wave", [
        ChannelSpec(0, "translation", times, [(0.0, 0.0, -2.0 * t) for t in times]),
        ChannelSpec(1, "rotation", times, [quat_xyzw((1, 0, 0), 40 * np.sin(4 * t)) for t in times]),
        ChannelSpec(2, "rotation", times, [quat_xyzw((0, 0, 1), 30 + 60 * t) for t in times]),
        ChannelSpec(2, "scale", times, [(1.0, 1.0 - 0.5 * t, 1.0) for t in times]),
    ])])



@pytest.mark.parametrize("looping", [False, True])
def test_every_frame_decodes_to_the_gltf_pose_within_the_max_error(looping):
    result = gltf_to_animclip(glb(), fps=30.0, max_error=uniform(1e-3), looping=looping)
    data = write_bytes(result.model)
    enc = result.encoded
    assert enc.frames == (30 if looping else 31)
    counts = Counts(3, enc.frames, enc.num_small, enc.num_large, enc.stride, enc.flags)
    sample_tag = [s.tag for s in result.model.sections if s.tag not in (0x9DF23F77, TAG_BASE_STATE, TAG_SAMPLE_ELEM, TAG_JOINT_HASHES)][0]
    got = transforms(decode_values(section_payload(data, TAG_BASE_STATE), section_payload(data, TAG_SAMPLE_ELEM), section_payload(data, sample_tag), counts))
    # the expected poses, from the curves (linear keys, so frame f is at f / 30 s)
    t = np.arange(enc.frames) / 30.0
    np.testing.assert_allclose(got["translation"][:, 0], np.stack([0 * t, 0 * t, -2 * t], axis=1), atol=1e-3)
    spine = np.array([quat_xyzw((1, 0, 0), a) for a in np.interp(t, np.linspace(0, 1, 5), 40 * np.sin(4 * np.linspace(0, 1, 5)))])
    assert rotation_difference(got["rotation_xyzw"][:, 1], spine) <= 1e-3 + 1e-9
    arm = np.array([quat_xyzw((0, 0, 1), 30 + 60 * x) for x in t])
    assert rotation_difference(got["rotation_xyzw"][:, 2], arm) <= 1e-3 + 1e-9
    np.testing.assert_allclose(got["scale"][:, 2, 1], 1 - 0.5 * t, atol=1e-3)
    np.testing.assert_allclose(got["translation"][:, 2], np.tile([0.3, 0.5, 0.0], (enc.frames, 1)), atol=1e-3)
    assert enc.error.within(uniform(1e-3)) and result.error.within(uniform(1e-3))


def test_joints_are_named_by_hash_and_the_clip_by_the_animation():
    result = gltf_to_animclip(glb(), max_error=uniform(1e-3))
    model = read_bytes(write_bytes(result.model))
    assert model.clip_name == "wave"
    assert list(model.section(TAG_JOINT_HASHES).hashes) == [crc32(j.name) for j in JOINTS] + [0xFFFFFFFF]
    assert "rotation" in result.report() and "31 frames" in result.report()


def test_a_template_gives_the_other_sections():
    template = read_file(ROOT / "examples" / "walk.animclip")
    result = gltf_to_animclip(glb(), max_error=uniform(1e-3), template=template)
    out = read_bytes(write_bytes(result.model))
    assert out.clip_name == template.clip_name
    assert out.section(0x14014CB6) == template.section(0x14014CB6)  # custom tracks kept


def test_no_animation_or_a_wrong_name_is_a_clear_error():
    with pytest.raises(GltfError, match="no animation named 'walk'"):
        gltf_to_animclip(glb(), animation="walk")
    with pytest.raises(GltfError, match="no animation to convert"):
        gltf_to_animclip(build_glb(JOINTS, []))


# --- the command line: animspec convert anim.glb -o out.animclip [--template CLIP] ----------------


def test_convert_writes_an_animclip_within_the_asked_errors(tmp_path, capsys):
    from animspec.cli import main

    src, out = tmp_path / "wave.glb", tmp_path / "wave.animclip"
    src.write_bytes(glb())
    assert main(["convert", str(src), "-o", str(out), "--local-rotation-error", "0.1", "--local-translation-error", "1e-4"]) == 0
    report = capsys.readouterr().out
    assert "31 frames at 30 fps" in report and f"{out}: " in report
    data = out.read_bytes()
    model = read_bytes(data)
    assert model.clip_name == "wave"
    counts = Counts(3, 31, *_elem_counts(data), _flags(data))
    got = transforms(decode_values(section_payload(data, TAG_BASE_STATE), section_payload(data, TAG_SAMPLE_ELEM),
                                   section_payload(data, 0x8A9598E1), counts))
    t = np.arange(31) / 30.0
    np.testing.assert_allclose(got["translation"][:, 0, 2], -2 * t, atol=1e-4)
    arm = np.array([quat_xyzw((0, 0, 1), 30 + 60 * x) for x in t])
    dots = np.abs((got["rotation_xyzw"][:, 2] * arm).sum(axis=-1))
    assert np.degrees(2 * np.arccos(np.minimum(dots, 1))).max() <= 0.1


def _elem_counts(data: bytes) -> tuple[int, int, int]:
    built = section_payload(data, 0x9DF23F77)
    small, stride = struct.unpack_from("<II", built, 0x24)
    large, = struct.unpack_from("<I", built, 0x44)
    return small, large, stride


def _flags(data: bytes) -> int:
    return struct.unpack_from("<I", section_payload(data, 0x9DF23F77), 0x08)[0]


def test_convert_with_a_template_keeps_its_sections_and_refuses_other_outputs(tmp_path, capsys):
    from animspec.cli import main

    src = tmp_path / "wave.glb"
    src.write_bytes(glb())
    out = tmp_path / "out.animclip"
    template = ROOT / "examples" / "walk.animclip"
    assert main(["convert", str(src), "-o", str(out), "--template", str(template), "--fps", "24"]) == 0
    made, kept = read_bytes(out.read_bytes()), read_file(template)
    assert made.clip_name == kept.clip_name and made.section(0x14014CB6) == kept.section(0x14014CB6)
    assert "25 frames at 24 fps" in capsys.readouterr().out
    assert main(["convert", str(src), "-o", str(out), "--template", str(template)]) != 0  # exists: --force
    assert "--force" in capsys.readouterr().err
    assert main(["convert", str(src), "-o", str(tmp_path / "x.animbin"), "--template", str(template)]) != 0
    assert "does not end in .animclip" in capsys.readouterr().err


def test_a_wide_translation_gets_large_elements_that_reach_the_file_and_decode_back():
    """Translation over 0..11 units at a 1e-4 error needs fields past 16 bits: they go to Sample
    Elem's large table (not coarsened to 16 bits), are written, read back and decoded by
    animspec within the max error."""
    from animspec.animclip.frames.pose import clip_frames

    times = np.linspace(0, 1, 5)
    source = build_glb(JOINTS, [AnimSpec("reach", [
        ChannelSpec(0, "translation", times, [(11.0 * t, 0.0, 0.0) for t in times]),
    ])])
    result = gltf_to_animclip(source, fps=30.0, max_error=uniform(1e-4))
    assert result.encoded.num_large >= 1
    back = read_bytes(write_bytes(result.model), "reach.animclip")
    assert len(back.section(TAG_SAMPLE_ELEM).large_codes) == result.encoded.num_large
    poses = clip_frames(back, "reach.animclip").frames()
    t = np.arange(result.encoded.frames) / 30.0
    np.testing.assert_allclose(poses.translation[:, 0, 0], 11.0 * t, atol=1e-4 + 1e-6)


@pytest.mark.parametrize("looping", [False, True])
def test_root_motion_survives_animclip_to_gltf_and_back(tmp_path, capsys, looping):
    """.animclip with root motion -> glTF (root motion on the node above the rig) -> .animclip:
    the Motion Data decodes to the same root motion, the flag is set, and the joints are not
    moved twice (the root joint's translation stays the clip's)."""
    from test_animclip_encode import synthetic, walk_and_turn
    from test_gltf_animclip import _convert, _named_rig

    from animspec.animclip.frames.sections import clip_model
    from animspec.animclip.frames.encode import encode
    from animspec.animclip.frames.decode import decode_clip
    from animspec.animclip.tags import FLAG_HAS_MOTION

    frames = synthetic(frames=16, joints=3)
    translation, rotation, _ = walk_and_turn(16)
    enc = encode(frames, uniform(1e-4), looping=looping, root_translation=translation, root_rotation=rotation)
    source = read_bytes(write_bytes(clip_model(enc, [crc32(f"joint_{j}") for j in range(3)], fps=30.0, name="walk")))
    before = decode_clip(source)
    code, glb_bytes, _ = _convert(tmp_path, write_bytes(source), skeleton=_named_rig(3))
    assert code == 0, capsys.readouterr().err

    result = gltf_to_animclip(glb_bytes, fps=30.0, max_error=uniform(1e-4), looping=looping)
    assert result.root_motion_node is not None and "root motion from node" in result.report()
    after = decode_clip(read_bytes(write_bytes(result.model)))
    assert after.frame_count == before.frame_count == 16
    assert int(result.model.built.flags) & FLAG_HAS_MOTION
    np.testing.assert_allclose(after.root_motion.translation, before.root_motion.translation, atol=2e-4)
    dots = np.abs(np.sum(after.root_motion.rotation * before.root_motion.rotation, axis=1))
    np.testing.assert_allclose(dots, 1.0, atol=1e-7)
    np.testing.assert_allclose(after.frames().translation, before.frames().translation, atol=2e-4)

    kept = gltf_to_animclip(glb_bytes, fps=30.0, max_error=uniform(1e-4), looping=looping, root_motion=False)
    assert kept.root_motion_node is None and kept.encoded.motion_data is None
    assert not int(kept.model.built.flags) & FLAG_HAS_MOTION and "Motion Data" not in kept.report()

    # with a template: its Motion Data is replaced only when there is root motion, and the report says which
    from animspec.animclip.tags import TAG_MOTION_DATA

    template = source
    template.section(TAG_MOTION_DATA).data = bytes(template.section(TAG_MOTION_DATA).data)[:-16] + bytes(range(16))
    replaced = gltf_to_animclip(glb_bytes, fps=30.0, max_error=uniform(1e-4), looping=looping, template=template)
    assert "replacing the template's Motion Data" in replaced.report()
    assert replaced.model.section(TAG_MOTION_DATA).data != template.section(TAG_MOTION_DATA).data
    held = gltf_to_animclip(glb_bytes, fps=30.0, max_error=uniform(1e-4), looping=looping, template=template, root_motion=False)
    assert "Motion Data kept from the template" in held.report()
    assert held.model.section(TAG_MOTION_DATA).data == template.section(TAG_MOTION_DATA).data
    assert int(held.model.built.flags) & FLAG_HAS_MOTION


def test_convert_takes_root_motion_from_the_node_above_the_rig_unless_told_not_to(tmp_path, capsys):
    from test_gltf_animclip import _convert, _named_rig

    from test_animclip_encode import synthetic

    from animspec.animclip.frames.sections import clip_model
    from animspec.animclip.frames.encode import encode
    from animspec.animclip.frames.decode import decode_clip
    from animspec.animclip.tags import FLAG_HAS_MOTION, TAG_MOTION_DATA
    from animspec.cli import main

    walk = np.stack([np.arange(20.0), 0 * np.arange(20.0), -0.5 * np.arange(20.0)], axis=1) / 10
    enc = encode(synthetic(frames=20, joints=3), root_translation=walk + 5)
    clip = write_bytes(clip_model(enc, [crc32(f"joint_{j}") for j in range(3)], name="walk"))
    code, glb_bytes, _ = _convert(tmp_path, clip, skeleton=_named_rig(3))
    assert code == 0, capsys.readouterr().err
    src = tmp_path / "moving.glb"
    src.write_bytes(glb_bytes)
    on, off = tmp_path / "on.animclip", tmp_path / "off.animclip"
    assert main(["convert", str(src), "-o", str(on)]) == 0
    assert "root motion from node" in capsys.readouterr().out
    got = decode_clip(read_bytes(on.read_bytes())).root_motion
    np.testing.assert_allclose(got.translation, walk, atol=2 * 2.0 / 32767)  # quantised twice
    assert main(["convert", str(src), "-o", str(off), "--no-root-motion"]) == 0
    assert "root motion" not in capsys.readouterr().out
    model = read_bytes(off.read_bytes())
    assert model.section(TAG_MOTION_DATA) is None and not int(model.built.flags) & FLAG_HAS_MOTION
