"""glTF -> ANIMBIN (:func:`animspec.gltf.gltf_to_animbin`) on glTFs built here with pygltflib."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from pygltflib import Node

from animspec.animbin import RotationKey, TranslationKey, read_bytes, write_bytes
from animspec.animbin.playback import play_engine, vsync_deltas
from animspec.common.errors import AnimspecError
from animspec.common.findings import has_errors
from animspec.gltf import gltf_to_animbin, read_markers_file, read_rig
from animspec.gltf.rig import GltfError
from animspec.gltf.sampling import sample_sampler
from animspec.gltf.to_animbin import ROUND_BOUND_DEG
from animspec.common.hashes import read_names_file
from animspec.skeleton import angle_between, quat_multiply
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, build_glb, chain, quat_xyzw

GLTF_TO_PS1 = np.array([math.sqrt(0.5), -math.sqrt(0.5), 0.0, 0.0])
"""-90 degrees about X (w, x, y, z), written out from the engine exporter's rule: a glTF
world rotation turned back from Y-up to Blender's Z-up (+90 about X), then diag(1, -1, -1)
(180 about X)."""


def wxyz(q_xyzw):
    x, y, z, w = q_xyzw
    return np.array([w, x, y, z])


def swing_channels(n_joints: int, seconds: float, keys: int = 9) -> list[ChannelSpec]:
    times = np.linspace(0.0, seconds, keys)
    return [
        ChannelSpec(j, "rotation", times, [quat_xyzw((0, 0, 1), (10 + 5 * j) * math.sin(2 * math.pi * t / seconds + j)) for t in times])
        for j in range(n_joints)
    ]


def glb_with(seconds: float, n_joints: int = 3, **anim) -> bytes:
    return build_glb(chain(n_joints), [AnimSpec("swing", swing_channels(n_joints, seconds), **anim)])


# --- joints --------------------------------------------------------------------------------


def test_skin_order_gives_joint_ids_and_one_track_per_joint():
    # Skin lists the joints in a different order than the nodes; still parents first.
    joints = [JointSpec("hip", -1), JointSpec("leg", 0), JointSpec("arm", 0)]
    glb = build_glb(joints, [AnimSpec("a", [ChannelSpec(1, "rotation", [0, 0.2], [quat_xyzw((1, 0, 0), 0), quat_xyzw((1, 0, 0), 40)])])],
                    skin_order=[0, 2, 1])
    result = gltf_to_animbin(glb, looping=False)  # one-shot: the last frame is the pose at 0.2 s
    assert result.rig.names == ["hip", "arm", "leg"]
    anim = result.animbin.animations[0]
    assert [t.joint_id for t in anim.tracks] == [0, 1, 2]
    assert all(len(t.keys) == anim.length for t in anim.tracks)  # a key on every frame
    leg = anim.tracks[2].keys[-1]
    assert float(angle_between(np.array(leg.quaternion) / 4096, wxyz(quat_xyzw((1, 0, 0), 40)))) < ROUND_BOUND_DEG


def test_mapping_file_sets_the_joint_order_and_can_leave_joints_out(tmp_path):
    mapping = tmp_path / "joints.txt"
    mapping.write_text("j0\n\n  j2 \n")  # j1 is left out: j2's parent becomes j0
    glb = glb_with(0.3, 3)
    result = gltf_to_animbin(glb, joint_names=read_names_file(str(mapping)))
    assert result.rig.names == ["j0", "j2"]
    assert result.rig.skipped == ["j1"]
    assert result.rig.skeleton.parents.tolist() == [-1, 0]
    np.testing.assert_allclose(result.rig.skeleton.rest_translation[1], [0, 2, 0])
    # j2's rotation relative to j0 composes j1's animated rotation (both about Z).
    anim = result.animbin.animations[0]
    hz = 60000 / 1001
    t = 5 / hz
    q1 = wxyz(sample_sampler(*_curve(glb, 1), np.array([t]), rotation=True)[0])
    q2 = wxyz(sample_sampler(*_curve(glb, 2), np.array([t]), rotation=True)[0])
    assert float(angle_between(np.array(anim.tracks[1].keys[5].quaternion) / 4096, quat_multiply(q1, q2))) < ROUND_BOUND_DEG
    assert "not in the mapping" in result.report()


def _curve(glb: bytes, node: int):
    from pygltflib import GLTF2

    from animspec.gltf.rig import read_accessor

    gltf = GLTF2.load_from_bytes(glb)
    anim = gltf.animations[0]
    ch = next(c for c in anim.channels if c.target.node == node)
    s = anim.samplers[ch.sampler]
    return read_accessor(gltf, s.input)[:, 0], read_accessor(gltf, s.output), s.interpolation


def test_mapping_errors():
    glb = glb_with(0.3, 3)
    with pytest.raises(GltfError, match="not joints of skin"):
        gltf_to_animbin(glb, joint_names=["j0", "nope"])
    with pytest.raises(GltfError, match="more than once"):
        gltf_to_animbin(glb, joint_names=["j0", "j0"])
    with pytest.raises(GltfError, match="parents first"):
        gltf_to_animbin(glb, joint_names=["j1", "j0"])


def test_intermediate_non_joint_node_is_composed():
    """A helper node (not in the skin) between two joints: its rest rotation is folded into
    the child's local rotation, and its translation into the rest offset."""
    joints = [JointSpec("a", -1), JointSpec("b", -1, (0, 1, 0), quat_xyzw((0, 1, 0), 30))]
    helper = Node(name="helper", translation=[0, 2, 0], rotation=list(quat_xyzw((0, 0, 1), 90)), children=[1])
    glb = build_glb(joints, [AnimSpec("x", [ChannelSpec(0, "rotation", [0, 0.1], [quat_xyzw((1, 0, 0), 0)] * 2)])],
                    extra_nodes=[helper])
    from pygltflib import GLTF2

    gltf = GLTF2.load_from_bytes(glb)
    gltf.nodes[0].children.append(2)  # a -> helper -> b
    gltf.scenes[0].nodes = [0]
    rig = read_rig(gltf)
    assert rig.skeleton.parents.tolist() == [-1, 0]
    expected = quat_multiply(wxyz(quat_xyzw((0, 0, 1), 90)), wxyz(quat_xyzw((0, 1, 0), 30)))
    assert float(angle_between(rig.skeleton.rest_rotation[1], expected)) < 1e-9
    np.testing.assert_allclose(rig.skeleton.rest_translation[1], [-1, 2, 0], atol=1e-12)  # (0,1,0) turned 90 about Z, plus (0,2,0)
    key = gltf_to_animbin(gltf).animbin.animations[0].tracks[1].keys[0]
    assert float(angle_between(np.array(key.quaternion) / 4096, expected)) < ROUND_BOUND_DEG


def test_more_than_max_bones_is_refused_unless_mapped():
    glb = glb_with(0.2, 16)
    with pytest.raises(AnimspecError, match="MAX_BONES"):
        gltf_to_animbin(glb)
    result = gltf_to_animbin(glb, joint_names=[f"j{i}" for i in range(15)])
    assert len(result.animbin.animations[0].tracks) == 15


# --- animations and files ------------------------------------------------------------------


def six_animations() -> bytes:
    return build_glb(chain(2), [AnimSpec(f"a{i}", swing_channels(2, 0.1 + 0.05 * i)) for i in range(6)])


def test_more_than_five_animations_refused_split_or_selected():
    glb = six_animations()
    with pytest.raises(AnimspecError, match="5 per ANIMBIN"):
        gltf_to_animbin(glb)
    split = gltf_to_animbin(glb, split=True)
    assert [len(f.animations) for f in split.files] == [5, 1]
    assert [str(a.name) for a in split.files[1].animations] == ["a5"]
    with pytest.raises(AnimspecError, match="use .files"):
        split.animbin
    picked = gltf_to_animbin(glb, animations=["a4", "a1"])
    assert [str(a.name) for a in picked.animbin.animations] == ["a4", "a1"]
    with pytest.raises(AnimspecError, match="no animation named"):
        gltf_to_animbin(glb, animations=["zz"])


def test_every_file_survives_the_writer_and_has_no_findings():
    result = gltf_to_animbin(six_animations(), split=True)
    for f, findings in zip(result.files, result.findings):
        assert read_bytes(write_bytes(f)) == f
        assert findings == []


# --- timing --------------------------------------------------------------------------------


@pytest.mark.parametrize("region, looping, frames", [("ntsc", True, 31), ("pal", True, 26), (50.0, False, 26), ("ntsc", False, 31)])
def test_frames_follow_the_region_rate(region, looping, frames):
    """0.5 s is 29.97 NTSC vsyncs (rounded to 30) and 25 PAL vsyncs; like the engine's
    exporter, which bakes frames start..end inclusive, both ends are frames, looping or not
    (31 NTSC frames: cut to fit)."""
    anim = gltf_to_animbin(glb_with(0.5), region=region, looping=looping, fit="cut").animbin.animations[0]
    frames = min(frames, 30)
    assert anim.length == frames
    assert anim.is_looping == looping


def test_key_times_are_vsyncs_at_the_region_rate():
    """PAL: frame f is sampled at f / 50 s. Joint 0 turns 100 degrees per second LINEAR."""
    glb = build_glb(chain(1), [AnimSpec("t", [ChannelSpec(0, "rotation", [0.0, 0.5], [quat_xyzw((0, 1, 0), 0), quat_xyzw((0, 1, 0), 50)])])])
    keys = gltf_to_animbin(glb, region="pal", ps1_space=True).animbin.animations[0].tracks[0].keys
    angles = [float(angle_between(np.array(k.quaternion) / 4096, np.array([1.0, 0, 0, 0]))) for k in keys]
    np.testing.assert_allclose(angles, [2.0 * f for f in range(26)], atol=ROUND_BOUND_DEG)


# --- fitting -------------------------------------------------------------------------------


def test_bake_refuses_more_than_max_keys():
    with pytest.raises(AnimspecError, match=r"61 frames.*holds 30 keys.*--fit cut.*--fit reduce --max-error"):
        gltf_to_animbin(glb_with(1.0))


def test_cut_keeps_thirty_frames_and_warns():
    result = gltf_to_animbin(glb_with(1.0), fit="cut")
    anim = result.animbin.animations[0]
    assert anim.length == 30 and all(len(t.keys) == 30 for t in anim.tracks)
    assert any("cut from 61 frames" in w for w in result.warnings)
    assert result.findings == [[]]


def test_reduce_stays_within_the_error_the_console_shows():
    """Reduced keys are held by the engine until the next key: play the file with the
    engine and compare every vsync with the glTF curve."""
    glb = glb_with(1.0, n_joints=2)
    tolerance = 1.5
    result = gltf_to_animbin(glb, fit="reduce", max_error_deg=tolerance, ps1_space=True)
    anim = result.animbin.animations[0]
    assert anim.length == 61
    assert all(len(t.keys) <= 30 for t in anim.tracks)
    assert any(len(t.keys) < 61 for t in anim.tracks)
    clip = result.clips[0]
    assert clip.steps and clip.shown_max_error_deg <= tolerance + ROUND_BOUND_DEG
    assert any("steps" in w for w in result.warnings)
    assert any(f.code == "sparse-keys" for f in result.findings[0])
    assert not has_errors(result.findings[0])

    played = play_engine(anim, vsync_deltas(61), num_joints=2).rotations_float()
    hz = 60000 / 1001
    worst = 0.0
    for j in range(2):
        curve = wxyz(sample_sampler(*_curve(glb, j), np.arange(61) / hz, rotation=True).T).T
        worst = max(worst, float(angle_between(played[:, j], curve).max()))
    # What the console shows is what the report says (the engine's FP12 normalise adds a hair).
    assert worst == pytest.approx(clip.shown_max_error_deg, abs=0.05)
    assert worst <= tolerance + 0.05


def test_reduce_refuses_when_the_tolerance_needs_too_many_keys():
    with pytest.raises(AnimspecError, match="needs more than 30 keys to stay within 0.01 degrees with --fit reduce"):
        gltf_to_animbin(glb_with(1.0), fit="reduce", max_error_deg=0.01)


def test_reduce_refusal_names_an_error_that_fits_and_what_best_reaches():
    """The refusal's numbers are true: reduce fits at the --max-error it names (and not
    0.001 below), and --fit best shows the error it names."""
    glb = glb_with(1.0)
    with pytest.raises(AnimspecError) as refused:
        gltf_to_animbin(glb, fit="reduce", max_error_deg=0.01)
    message = str(refused.value)
    assert "needs 31 keys" not in message
    found = re.search(r"from --max-error ([0-9.]+); --fit best keeps every joint within ([0-9.]+) degrees", message)
    assert found, message
    fits_from, best = float(found.group(1)), float(found.group(2))
    assert all(len(t.keys) <= 30 for t in gltf_to_animbin(glb, fit="reduce", max_error_deg=fits_from).animbin.animations[0].tracks)
    with pytest.raises(AnimspecError):
        gltf_to_animbin(glb, fit="reduce", max_error_deg=fits_from - 0.001)
    assert gltf_to_animbin(glb, fit="best").clips[0].shown_max_error_deg == pytest.approx(best, abs=0.0005)
    assert best < fits_from


# --- axis change and FP12 ------------------------------------------------------------------


def test_root_gets_the_axis_change_unless_in_ps1_space():
    q_root = quat_xyzw((0, 1, 0), 25)
    glb = build_glb(chain(2, 1.0), [AnimSpec("r", [ChannelSpec(0, "rotation", [0, 0.1], [q_root, q_root])])])
    converted = gltf_to_animbin(glb).animbin.animations[0]
    plain = gltf_to_animbin(glb, ps1_space=True).animbin.animations[0]
    expected = quat_multiply(GLTF_TO_PS1, wxyz(q_root))
    assert float(angle_between(np.array(converted.tracks[0].keys[0].quaternion) / 4096, expected)) < ROUND_BOUND_DEG
    assert float(angle_between(np.array(plain.tracks[0].keys[0].quaternion) / 4096, wxyz(q_root))) < ROUND_BOUND_DEG
    # Non-root joints are parent-relative: unchanged by the axis change.
    assert converted.tracks[1].keys == plain.tracks[1].keys


def test_fp12_rounds_and_reports_both_errors():
    result = gltf_to_animbin(glb_with(0.4), ps1_space=True)
    clip = result.clips[0]
    assert 0 < clip.fp12_round_max_deg <= ROUND_BOUND_DEG
    assert clip.fp12_round_max_deg < clip.fp12_trunc_max_deg <= 2 * ROUND_BOUND_DEG
    assert "truncation would give" in result.report()
    # The stored integers are the rounded values of the (sign-continuous) float rotation.
    glb = build_glb(chain(1), [AnimSpec("k", [ChannelSpec(0, "rotation", [0, 0.1], [quat_xyzw((1, 2, 3), 37)] * 2)])])
    key = gltf_to_animbin(glb, ps1_space=True).animbin.animations[0].tracks[0].keys[0]
    assert key.quaternion == tuple(int(v) for v in np.rint(wxyz(quat_xyzw((1, 2, 3), 37)) * 4096))


# --- translations, markers, names ----------------------------------------------------------


def test_translation_keys_are_off_by_default_and_separate_when_on():
    channels = swing_channels(2, 0.2) + [ChannelSpec(1, "translation", [0, 0.2], [(0, 1, 0), (0, 3, 0)])]
    glb = build_glb(chain(2), [AnimSpec("t", channels)])
    off = gltf_to_animbin(glb).animbin.animations[0]
    assert not any(isinstance(k, TranslationKey) for t in off.tracks for k in t.keys)
    on = gltf_to_animbin(glb, translations=True, translation_scale=4096).animbin.animations[0]
    assert [t.joint_id for t in on.tracks] == [0, 1, 0, 1]
    assert all(isinstance(k, RotationKey) for t in on.tracks[:2] for k in t.keys)
    assert all(isinstance(k, TranslationKey) for t in on.tracks[2:] for k in t.keys)
    assert on.tracks[3].keys[0].vector == (0, 4096, 0)
    assert on.tracks[2].keys[0].vector == (0, 0, 0)  # root at the origin (axis change: y, z negated)
    # The engine ignores translation tracks: the same rotations as without them.
    a = play_engine(off, vsync_deltas(off.length), num_joints=2).rotations
    b = play_engine(on, vsync_deltas(on.length), num_joints=2).rotations
    assert np.array_equal(a, b)


def test_markers_from_extras_and_from_a_side_file(tmp_path):
    glb = glb_with(0.4, extras={"markers": [{"name": "hit", "frame": 3}, {"name": "late", "frame": 99}]})
    result = gltf_to_animbin(glb)
    assert [(str(m.name), m.frame) for m in result.animbin.animations[0].markers] == [("hit", 3)]
    assert any("'late'" in w and "dropped" in w for w in result.warnings)

    side = tmp_path / "markers.json"
    side.write_text(json.dumps({"swing": [{"name": "step", "time": 0.1}]}))
    result = gltf_to_animbin(glb, markers=read_markers_file(str(side)), region="pal")
    assert [(str(m.name), m.frame) for m in result.animbin.animations[0].markers] == [("step", 5)]

    too_many = {"swing": [{"name": f"m{i}", "frame": i} for i in range(6)]}
    with pytest.raises(AnimspecError, match="holds 5"):
        gltf_to_animbin(glb, markers=too_many)
    with pytest.raises(AnimspecError, match="'frame' or a number 'time'"):
        gltf_to_animbin(glb, markers={"swing": [{"name": "x"}]})


def test_names_are_made_safe_for_the_engine():
    long = "é" + "x" * 40
    glb = build_glb(chain(1), [AnimSpec(long, swing_channels(1, 0.1)), AnimSpec(None, swing_channels(1, 0.1))])
    result = gltf_to_animbin(glb)
    names = [a.name for a in result.animbin.animations]
    assert names[0].text == b"x" * 31 and names[0].is_terminated
    assert str(names[1]) == "animation1"
    assert any("ASCII only" in w for w in result.warnings)
    assert result.findings == [[]]


def test_report_says_what_was_done():
    text = gltf_to_animbin(glb_with(0.3)).report()
    for expected in ("skin 0: 3 joint(s) in skin order", "glTF Y-up -> Blender Z-up -> diag(1,-1,-1)", "region ntsc",
                     "19 frame(s)", "(bake)", "deg at vsyncs", "between them"):
        assert expected in text
