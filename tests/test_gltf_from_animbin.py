"""ANIMBIN -> glTF (:func:`animspec.gltf.animbin_to_gltf`): validity (Khronos validator, zero errors),
timing, engine baking, skeletons, and the glTF -> ANIMBIN -> glTF round trip."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pygltflib import GLTF2

from animspec.animbin import Animation, AnimbinFile, Name, RotationKey, Track, TranslationKey, read_file
from animspec.animbin.playback import play_engine, vsync_deltas
from animspec.common.errors import AnimspecError
from animspec.gltf import gltf_to_animbin, read_rig, animbin_to_gltf
from animspec.gltf.document import load_path
from animspec.gltf.sampling import sample_sampler
from animspec.gltf.to_animbin import ROUND_BOUND_DEG
from animspec.skeleton import Skeleton, angle_between
from conftest import EXAMPLES
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, animation_channels, build_glb, khronos_validate, quat_xyzw

NTSC = 60000 / 1001
QUARTER_TURN_X = np.array([math.sqrt(0.5), math.sqrt(0.5), 0.0, 0.0])
"""+90 degrees about X (w, x, y, z): the console's model space seen in glTF's Y-up world."""


def wxyz(q):
    q = np.asarray(q, dtype=float)
    return np.concatenate([q[..., 3:4], q[..., :3]], axis=-1)


@pytest.fixture(scope="module")
def swing() -> AnimbinFile:
    return read_file(str(EXAMPLES / "swing.animbin"))


def meshbin_skeleton():
    """The pendulum's MESHBIN skeleton."""
    from animspec.rigs import load_skeleton

    return load_skeleton(EXAMPLES / "pendulum.meshbin")


# --- validity ------------------------------------------------------------------------------


@pytest.mark.parametrize("bake_engine", [False, True])
@pytest.mark.parametrize("skinned", [True, False])
def test_examples_convert_to_valid_gltf(tmp_path, swing, bake_engine, skinned):
    for source in (swing, read_file(str(EXAMPLES / "sparse.animbin"))):
        khronos_validate(animbin_to_gltf(source, None, "ntsc", bake_engine, skinned=skinned), tmp_path)


def test_meshbin_skeleton(tmp_path, swing):
    skeleton = meshbin_skeleton()
    data = animbin_to_gltf(swing, skeleton, "pal")
    report = khronos_validate(data, tmp_path)
    assert report["info"]["animationCount"] == 2
    gltf = GLTF2.load_from_bytes(data)
    # The console-space root is turned into glTF's Y-up world (+90 degrees about X, the
    # inverse of glTF -> Blender Z-up -> diag(1, -1, -1)); children keep theirs.
    assert np.allclose(gltf.nodes[0].rotation, [math.sqrt(0.5), 0, 0, math.sqrt(0.5)])
    assert np.allclose(gltf.nodes[1].translation, [0, 0, 64 / 4096])  # +Z: down on the console
    assert [n.name for n in gltf.nodes[:4]] == skeleton.names


def test_empty_file_and_trackless_animation_still_valid(tmp_path):
    empty = AnimbinFile([Animation(Name.from_str("nothing"), 10)])
    data = animbin_to_gltf(empty, skinned=False)
    khronos_validate(data, tmp_path)
    assert GLTF2.load_from_bytes(data).animations == []


def test_skeleton_must_cover_every_joint(swing):
    with pytest.raises(AnimspecError, match="a track animates joint 3; the skeleton has 2 bones"):
        animbin_to_gltf(swing, Skeleton.chain(2))


# --- keys and timing -----------------------------------------------------------------------


def test_key_times_and_loop_closing_key(swing):
    """Keys at frame / Hz; a looping clip gets a closing key at length / Hz that holds the
    last key, so a viewer loops with the clip's real duration."""
    for region, hz in (("ntsc", NTSC), ("pal", 50.0)):
        anims = animation_channels(animbin_to_gltf(swing, region=region))
        times, values, interpolation = anims[0][(1, "rotation")]
        assert interpolation == "LINEAR"
        np.testing.assert_allclose(times, np.arange(31) / hz, rtol=1e-6)
        np.testing.assert_allclose(values[-1], values[-2])
        nod_times = anims[1][(3, "rotation")][0]  # "nod" is one-shot: no closing key
        np.testing.assert_allclose(nod_times, np.arange(20) / hz, rtol=1e-6)


def test_markers_and_clip_facts_in_extras(swing):
    gltf = GLTF2.load_from_bytes(animbin_to_gltf(swing, region="pal"))
    extras = gltf.animations[0].extras
    assert extras["markers"] == [{"name": "left", "frame": 7, "time": 7 / 50}, {"name": "right", "frame": 22, "time": 22 / 50}]
    assert extras["animbin"]["length"] == 30 and extras["animbin"]["looping"] is True
    assert gltf.animations[0].name == "swing"


def test_translation_keys_only_in_keys_mode():
    track = Track(0, [RotationKey(0, 4096, 0, 0, 0), RotationKey(1, 4096, 0, 0, 0)])
    moves = Track(1, [TranslationKey(0, 0, 4096, 0), TranslationKey(1, 0, 8192, 0)])
    anim = AnimbinFile([Animation(Name.from_str("t"), 2, [track, moves], flags=0)])
    keys = animation_channels(animbin_to_gltf(anim))[0]
    np.testing.assert_allclose(keys[(1, "translation")][1], [[0, 1, 0], [0, 2, 0]])
    engine = animation_channels(animbin_to_gltf(anim, bake_engine=True))[0]
    assert (1, "translation") not in engine


# --- engine baking -------------------------------------------------------------------------


def test_bake_engine_is_step_and_equals_play_engine():
    sparse = read_file(str(EXAMPLES / "sparse.animbin"))
    anim = sparse.animations[0]
    channels = animation_channels(animbin_to_gltf(sparse, bake_engine=True, axis_change=False))[0]
    played = play_engine(anim, vsync_deltas(anim.length + 1), num_joints=4).rotations_float()
    for j in range(4):
        times, values, interpolation = channels[(j, "rotation")]
        assert interpolation == "STEP"
        np.testing.assert_allclose(times, np.arange(anim.length + 1) / NTSC, rtol=1e-6)
        expected = played[:, j] / np.linalg.norm(played[:, j], axis=1, keepdims=True)
        assert float(angle_between(wxyz(values), expected).max()) < 1e-4
        # Keys every 5 frames: the engine holds each one for 5 vsyncs (it does not interpolate).
        held = wxyz(values)
        for f in range(anim.length):
            if f % 5:
                assert float(angle_between(held[f], held[f - 1])) < 1e-4
    # The keys mode shows the 6 authored keys (plus the closing key), slerped by viewers.
    keys = animation_channels(animbin_to_gltf(sparse))[0][(0, "rotation")]
    assert len(keys[0]) == 7 and keys[2] == "LINEAR"


def test_axis_change_reversed_on_the_root(swing):
    plain = animation_channels(animbin_to_gltf(swing, axis_change=False))[0]
    turned = animation_channels(animbin_to_gltf(swing))[0]
    from animspec.skeleton import quat_multiply

    root_plain, root_turned = wxyz(plain[(0, "rotation")][1]), wxyz(turned[(0, "rotation")][1])
    assert float(angle_between(quat_multiply(QUARTER_TURN_X, root_plain), root_turned).max()) < 1e-4
    np.testing.assert_allclose(plain[(1, "rotation")][1], turned[(1, "rotation")][1])


# --- round trip ----------------------------------------------------------------------------


def round_trip_source() -> bytes:
    """Three joints: root LINEAR about Y, joint 1 CUBICSPLINE about Z, joint 2 LINEAR about
    X with every other key stored negated (a sign flip in the input)."""
    joints = [
        JointSpec("root", -1, (0.0, 0.0, 0.0), quat_xyzw((0, 1, 0), 10)),
        JointSpec("mid", 0, (0.0, 1.0, 0.0)),
        JointSpec("end", 1, (0.0, 1.0, 0.0), quat_xyzw((1, 0, 0), -20)),
    ]
    times = [0.0, 0.15, 0.3, 0.4]
    root = [quat_xyzw((0, 1, 0), a) for a in (10, 60, -30, 10)]
    zero = (0.0, 0.0, 0.0, 0.0)
    cubic = []
    for a, slope in ((0, 2.0), (50, 0.0), (20, -1.0), (0, 0.0)):
        cubic += [(0, 0, slope, 0), quat_xyzw((0, 0, 1), a), (0, 0, slope, 0)] if slope else [zero, quat_xyzw((0, 0, 1), a), zero]
    end = [quat_xyzw((1, 0, 0), a) for a in (-20, 70, 150, 200)]
    end = [tuple(-c for c in q) if i % 2 else q for i, q in enumerate(end)]
    channels = [
        ChannelSpec(0, "rotation", times, root),
        ChannelSpec(1, "rotation", times, cubic, "CUBICSPLINE"),
        ChannelSpec(2, "rotation", times, end),
    ]
    return build_glb(joints, [AnimSpec("trip", channels)])


@pytest.mark.parametrize("region, hz", [("ntsc", NTSC), ("pal", 50.0)])
def test_gltf_animbin_gltf_round_trip_within_fp12(tmp_path, region, hz):
    """Converting to ANIMBIN and back recovers every joint's rotation at every vsync within
    the FP12 rounding bound 2 asin(1/4096) = 0.028 degrees (derived in
    animspec.gltf.to_animbin.ROUND_BOUND_DEG), the root's axis change undone."""
    source = round_trip_source()
    result = gltf_to_animbin(source, region=region, looping=False)
    rig = read_rig(source)
    back = animbin_to_gltf(result.animbin, rig.skeleton, region, skeleton_space="gltf")
    khronos_validate(back, tmp_path)

    gltf = GLTF2.load_from_bytes(source)
    from animspec.gltf.rig import read_accessor

    frames = result.animbin.animations[0].length
    assert frames == round(0.4 * hz) + 1
    out = animation_channels(back)[0]
    worst = 0.0
    for j, channel in enumerate(gltf.animations[0].channels):
        s = gltf.animations[0].samplers[channel.sampler]
        times, values, _ = out[(j, "rotation")]
        np.testing.assert_allclose(times, np.arange(frames) / hz, rtol=1e-6)
        expected = sample_sampler(read_accessor(gltf, s.input)[:, 0], read_accessor(gltf, s.output), s.interpolation,
                                  np.arange(frames) / hz, rotation=True)
        error = angle_between(wxyz(values), wxyz(expected))
        worst = max(worst, float(error.max()))
        # The output curve is sign-continuous despite the flipped input keys.
        assert np.all(np.sum(values[1:] * values[:-1], axis=1) > 0)
    assert worst < ROUND_BOUND_DEG + 1e-3  # float32 storage adds about 1e-5 degrees
    assert ROUND_BOUND_DEG < 0.03
    # Rest pose of the rig carried over.
    nodes = GLTF2.load_from_bytes(back).nodes
    np.testing.assert_allclose(nodes[2].rotation, quat_xyzw((1, 0, 0), -20), atol=1e-7)
    assert math.isclose(nodes[1].translation[1], 1.0)


def test_a_looping_clips_translation_keys_close_the_loop_too():
    """A looping clip's translation keys also get the closing key at length / Hz holding the
    last one (as its rotation keys do); a one-shot clip's do not."""
    track = Track(0, [RotationKey(0, 4096, 0, 0, 0), RotationKey(2, 4096, 0, 0, 0)])
    moves = Track(1, [TranslationKey(0, 0, 4096, 0), TranslationKey(4, 0, 8192, 4096)])
    for flags, times in ((1, [0, 4, 10]), (0, [0, 4])):
        anim = AnimbinFile([Animation(Name.from_str("t"), 10, [track, moves], flags=flags)])
        got_times, values, _ = animation_channels(animbin_to_gltf(anim))[0][(1, "translation")]
        np.testing.assert_allclose(got_times, np.array(times) / NTSC, rtol=1e-6)
        expected = [[0, 1, 0], [0, 2, 1]] + ([[0, 2, 1]] if flags else [])
        np.testing.assert_allclose(values, expected)


def test_keys_at_or_past_the_clips_end_are_never_shown():
    """The engine plays frames 0 to length - 1 and resets (one-shot: stops) there: a key at
    frame ``length`` is never reached, so the glTF leaves it out and ends at the last frame
    the console shows (``play_engine``, the engine's own playback, as the second source)."""
    length = 10
    end_key = RotationKey(length, 0, 4096, 0, 0)  # a half turn about X the console never shows
    track = Track(0, [RotationKey(0, 4096, 0, 0, 0), RotationKey(5, 4096, 0, 0, 0), end_key])
    anim = Animation(Name.from_str("ends"), length, [track], flags=0)
    played = play_engine(anim, vsync_deltas(length), num_joints=1).rotations_float()
    assert float(angle_between(played[:, 0] / 4096, np.array([0.0, 1.0, 0.0, 0.0])).min()) > 179
    times, values, _ = animation_channels(animbin_to_gltf(AnimbinFile([anim]), axis_change=False))[0][(0, "rotation")]
    np.testing.assert_allclose(times, np.array([0, 5]) / NTSC, rtol=1e-6)
    assert float(angle_between(wxyz(values), np.array([0.0, 1.0, 0.0, 0.0])).min()) > 179


def test_converting_leaves_the_skeleton_given_as_it_was(swing):
    """The roots are turned into glTF's axes on a copy: the caller's skeleton (a MESHBIN one
    read once and used for many clips, as `animspec convert` does for a batch) is unchanged,
    and a second conversion gives the same bytes."""
    skeleton = meshbin_skeleton()
    skeleton.rest_translation[0] = (0.25, -0.5, 0.75)  # a root away from the origin
    before = (skeleton.rest_translation.copy(), skeleton.rest_rotation.copy())
    first = animbin_to_gltf(swing, skeleton)
    np.testing.assert_array_equal(skeleton.rest_translation, before[0])
    np.testing.assert_array_equal(skeleton.rest_rotation, before[1])
    assert animbin_to_gltf(swing, skeleton) == first


def test_a_clip_on_a_rig_with_too_few_mapped_joints_names_both_counts(swing):
    """On a glTF rig the clip's highest joint id must be one of the rig's mapped joints; the
    refusal says which joint the clip needs and how many the rig maps."""
    from animspec.gltf import animbin_to_gltf_on_rig

    rig = read_rig(build_glb([JointSpec("a", -1), JointSpec("b", 0)]))
    with pytest.raises(AnimspecError, match=r"a track animates joint 3; the rig maps 2 joint\(s\)"):
        animbin_to_gltf_on_rig(swing, rig)


def turned_child() -> Skeleton:
    """Three bones in a chain, the middle one turned 30 degrees about its parent's Z."""
    skeleton = Skeleton.chain(3)
    skeleton.rest_rotation[1] = (math.cos(math.radians(15)), 0.0, 0.0, math.sin(math.radians(15)))
    return skeleton


def held_by_translation_keys() -> AnimbinFile:
    """Joint 0 turns; joint 1's track holds translation keys only, so the engine never writes
    its rotation and it keeps its rest rotation (play_engine: bones keep what they had)."""
    turn = Track(0, [RotationKey(0, 4096, 0, 0, 0), RotationKey(4, 2896, 2896, 0, 0)])
    moves = Track(1, [TranslationKey(0, 0, 0, 4096), TranslationKey(4, 0, 0, 8192)])
    return AnimbinFile([Animation(Name.from_str("held"), 8, [turn, moves], flags=0)])


def test_engine_bake_shows_the_rest_rotation_of_a_joint_its_track_never_turns():
    """Baked as the console plays it, joint 1 keeps its rest rotation on every vsync: the
    baked curve equals the rest rotation the same document gives the node (to FP12's
    rounding of it, which is what the console holds)."""
    data = animbin_to_gltf(held_by_translation_keys(), turned_child(), bake_engine=True)
    rest = wxyz(GLTF2.load_from_bytes(data).nodes[1].rotation)
    _, values, interpolation = animation_channels(data)[0][(1, "rotation")]
    assert interpolation == "STEP" and len(values) == 8
    assert float(angle_between(wxyz(values), rest).max()) < 0.03


def test_engine_bake_on_a_rig_shows_the_rigs_rest_rotation_where_a_track_never_turns():
    from animspec.gltf import animbin_to_gltf_on_rig

    rig = read_rig(build_glb([JointSpec("a", -1), JointSpec("b", 0, rotation=quat_xyzw((0, 0, 1), 30)),
                              JointSpec("c", 1)]))
    data = animbin_to_gltf_on_rig(held_by_translation_keys(), rig, bake_engine=True)
    _, values, _ = animation_channels(data)[0][(1, "rotation")]
    assert float(angle_between(wxyz(values), wxyz(quat_xyzw((0, 0, 1), 30))).max()) < 0.03


def test_an_engine_bake_past_the_sample_bound_is_refused_before_playing():
    """A looping clip of 65,535 frames bakes 65,536 vsyncs (the reset included); on 33 joints
    that is more than MAX_SAMPLES poses (2^21 = 65,536 x 32), and the refusal says so."""
    from animspec.gltf.to_animbin import MAX_SAMPLES

    assert MAX_SAMPLES == 65536 * 32
    anim = AnimbinFile([Animation(Name.from_str("long"), 65535, [Track(0, [RotationKey(0, 4096, 0, 0, 0)])], flags=1)])
    with pytest.raises(AnimspecError, match=r"'long': 65536 vsyncs on 33 joints is more than 2097152 poses"):
        animbin_to_gltf(anim, Skeleton.chain(33), bake_engine=True)


@pytest.mark.parametrize("skinned", [True, False])
def test_skinned_adds_a_bone_mesh_bound_to_the_skeleton_and_only_then(swing, skinned):
    gltf = GLTF2.load_from_bytes(animbin_to_gltf(swing, skinned=skinned))
    meshes = [(n.name, n.skin) for n in gltf.nodes if n.mesh is not None]
    assert meshes == ([("bones", 0)] if skinned else []) and len(gltf.skins) == int(skinned)


def test_on_a_rig_a_bone_mesh_is_added_only_when_the_rig_has_no_mesh(swing, tmp_path):
    from animspec.gltf import animbin_to_gltf_on_rig

    bare = read_rig(build_glb([JointSpec(f"j{i}", i - 1) for i in range(4)]))
    gltf = GLTF2.load_from_bytes(animbin_to_gltf_on_rig(swing, bare))
    assert [n.name for n in gltf.nodes if n.mesh is not None] == ["bones"]
    dressed = read_rig(load_path(EXAMPLES / "pendulum_rig.glb"))
    assert GLTF2.load_from_bytes(EXAMPLES.joinpath("pendulum_rig.glb").read_bytes()).meshes
    gltf = GLTF2.load_from_bytes(animbin_to_gltf_on_rig(swing, dressed))
    assert "bones" not in [n.name for n in gltf.nodes if n.mesh is not None]


def test_a_skeleton_already_in_gltf_axes_is_not_turned_again():
    """skeleton_space="gltf" (a skeleton read from a glTF rig): the root keeps its own rest
    rotation and translation; "ps1" with axis_change=False leaves PS1 axes: the same."""
    skeleton = turned_child()
    skeleton.rest_rotation[0] = (math.cos(0.2), math.sin(0.2), 0.0, 0.0)
    skeleton.rest_translation[0] = (0.0, 0.0, 1.0)
    for options in ({"skeleton_space": "gltf"}, {"axis_change": False}):
        root = GLTF2.load_from_bytes(animbin_to_gltf(held_by_translation_keys(), skeleton, **options)).nodes[0]
        np.testing.assert_allclose(wxyz(root.rotation), skeleton.rest_rotation[0], atol=1e-12)
        np.testing.assert_allclose(root.translation, [0.0, 0.0, 1.0])


def test_the_document_shows_the_keys_as_authored_by_default(swing):
    """animbin_to_gltf_document, like animbin_to_gltf: keys as authored (LINEAR, the file's
    frames), not the engine bake, unless asked."""
    from animspec.gltf import animbin_to_gltf_document
    from animspec.gltf.document import write_glb

    times, _, interpolation = animation_channels(write_glb(animbin_to_gltf_document(swing)))[0][(1, "rotation")]
    assert interpolation == "LINEAR" and len(times) == 31
    # and every other default as animbin_to_gltf's (the axis change, the skin and bone mesh)
    assert write_glb(animbin_to_gltf_document(swing)) == animbin_to_gltf(swing)


def test_an_engine_bake_of_one_vsync_has_its_one_pose():
    """A one-shot clip one frame long is one vsync: baked, its joint gets one STEP key (only a
    clip of no vsync at all has nothing to show and is left out)."""
    anim = AnimbinFile([Animation(Name.from_str("pose"), 1, [Track(0, [RotationKey(0, 2896, 2896, 0, 0)])], flags=0)])
    times, values, interpolation = animation_channels(animbin_to_gltf(anim, bake_engine=True, axis_change=False))[0][
        (0, "rotation")]
    assert interpolation == "STEP" and times.tolist() == [0.0]
    assert float(angle_between(wxyz(values[0]), np.array([2896, 2896, 0, 0]) / math.hypot(2896, 2896))) < 0.03
    empty = AnimbinFile([Animation(Name.from_str("none"), 0, [Track(0, [RotationKey(0, 4096, 0, 0, 0)])], flags=0)])
    assert animation_channels(animbin_to_gltf(empty, bake_engine=True)) == []


def test_an_engine_bake_at_the_sample_bound_is_baked():
    """65,536 vsyncs on 32 joints is MAX_SAMPLES poses exactly: within the bound."""
    anim = AnimbinFile([Animation(Name.from_str("long"), 65535, [Track(0, [RotationKey(0, 4096, 0, 0, 0)])], flags=1)])
    times, _, _ = animation_channels(animbin_to_gltf(anim, Skeleton.chain(32), bake_engine=True, skinned=False))[0][
        (0, "rotation")]
    assert len(times) == 65536


@pytest.mark.parametrize("skinned", [True, False])
def test_a_clip_without_tracks_needs_no_mapped_joint(tmp_path, skinned):
    """A rig mapped with no joint (an empty mapping given to read_rig) can still show a clip
    that animates none: a valid glTF, without a skin (glTF requires a skin to have a joint)
    and so without a bone mesh."""
    from animspec.gltf import animbin_to_gltf_on_rig

    rig = read_rig(build_glb([JointSpec("a", -1)]), joint_names=[])
    data = animbin_to_gltf_on_rig(AnimbinFile([Animation(Name.from_str("still"), 5)]), rig, skinned=skinned)
    khronos_validate(data, tmp_path)
    assert [n.name for n in GLTF2.load_from_bytes(data).nodes if n.mesh is not None] == []
