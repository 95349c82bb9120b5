"""The glTF writers of a clip (animspec.gltf.from_animclip) at the edges their full mutation run
found untested (issue 31): the base state's key time and its short way from the rig pose, a
scale channel where the scale moves, the report of what matched, a loop's closing key, root
motion by default and a camera's field of view. Read back with tests/gltf_reference.py (the
glTF 2.0 layout read with struct and json, nothing of animspec's)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import ROOT
from gltf_reference import Document

from animspec.common.errors import AnimspecError
from animspec.common.hashes import crc32
from animspec.gltf import ClipAnimation, animclip_to_gltf
from animspec.gltf.from_animclip import (
    CAMERA_ASPECT,
    ROOT_MOTION_NODE,
    CameraAnimation,
    animclip_pose_to_gltf,
    camera_animation_to_gltf,
)

RIG = str(ROOT / "examples" / "biped_rig.glb")
HEAD = crc32("head")


def channels_of(glb: bytes, name: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """path -> (times, values) of the last animation's channels on the node called ``name``."""
    return Document(glb=glb).node_channels(name)[1]


def shown_scale(glb: bytes, name: str) -> np.ndarray:
    """The node's scale a reader shows at each key: its channel's, else the node's own."""
    doc = Document(glb=glb)
    channels = channels_of(glb, name)
    if "scale" in channels:
        return channels["scale"][1]
    node = next(n for n in doc.json["nodes"] if n.get("name") == name)
    return np.asarray([node.get("scale", [1.0, 1.0, 1.0])])


def one_joint_clip(frames: int, *, scale: np.ndarray | None = None, hashes=(HEAD,), **more) -> ClipAnimation:
    joints = len(hashes)
    return ClipAnimation(np.asarray(hashes, np.uint32), np.arange(frames) / 30.0,
                         np.tile([0.0, 0.0, 0.0, 1.0], (frames, joints, 1)),
                         np.tile([0.0, 0.1, 0.0], (frames, joints, 1)),
                         np.ones((frames, joints, 3)) if scale is None else scale, **more)


# ---------------------------------------------------------------------------- the base state


def test_a_base_state_key_at_0_seconds_is_refused_and_any_later_one_taken():
    joints = [(HEAD, (0.0, 0.0, 0.0, 1.0), None)]
    with pytest.raises(AnimspecError, match="key_seconds must be positive"):
        animclip_pose_to_gltf(joints, RIG, key_seconds=0.0)
    glb, _ = animclip_pose_to_gltf(joints, RIG, key_seconds=1e-3)
    np.testing.assert_allclose(channels_of(glb, "head")["rotation"][0], [0.0, 1e-3], rtol=1e-6)


def test_the_base_state_is_reached_the_short_way_from_the_rig_pose():
    # The head's base state given with w < 0 (q and -q are one rotation): the rig pose is keyed
    # first with w > 0, so the second key must be written on its side, or every interpolating
    # reader turns the long way between the two.
    half = math.radians(35) / 2
    q = -np.array([math.sin(half), 0.0, 0.0, math.cos(half)])
    glb, _ = animclip_pose_to_gltf([(HEAD, tuple(q), None)], RIG)
    _, keys = channels_of(glb, "head")["rotation"]
    assert keys.shape == (2, 4)
    assert np.dot(keys[0], keys[1]) > 0
    assert abs(abs(np.dot(keys[1], q)) - 1) < 1e-6  # the base state itself (the head's parent is a joint)


def test_the_match_report_lists_node_names_and_hashes():
    _, match = animclip_pose_to_gltf([(HEAD, (0.0, 0.0, 0.0, 1.0), None)], RIG)
    assert match.matched == [("head", HEAD)]
    _, match = animclip_to_gltf(one_joint_clip(3), RIG)
    assert match.matched == [("head", HEAD)]


# ---------------------------------------------------------------------------- every frame


def test_a_scale_moving_by_less_than_1_from_the_rigs_gets_its_channel():
    # Frame 0 is the rig's own scale; the scale then grows uniformly to 1.5: a reader must see it grow.
    grow = np.linspace(1.0, 1.5, 6)
    glb, _ = animclip_to_gltf(one_joint_clip(6, scale=np.repeat(grow[:, None, None], 3, axis=2)), RIG)
    np.testing.assert_allclose(shown_scale(glb, "head"), np.repeat(grow[:, None], 3, axis=1), rtol=1e-6)


def test_a_one_frame_clip_keeps_a_scale_other_than_the_rigs():
    glb, _ = animclip_to_gltf(one_joint_clip(1, scale=np.full((1, 1, 3), 2.0)), RIG)
    np.testing.assert_allclose(shown_scale(glb, "head"), [[2.0, 2.0, 2.0]], rtol=1e-6)


def test_a_joint_hash_listed_twice_is_reported_once_and_none_is_not():
    _, match = animclip_to_gltf(one_joint_clip(2, hashes=(HEAD, HEAD)), RIG)
    assert "1 clip joint hash(es) listed more than once: the last one wins" in match.lines
    _, match = animclip_to_gltf(one_joint_clip(2, hashes=(HEAD, crc32("neck_01"))), RIG)
    assert not any("listed more than once" in line for line in match.lines)


def test_a_loop_ending_on_the_last_frame_gets_no_closing_key():
    # glTF's key times must increase: a closing key at the last frame's own time is left out,
    # one past it is added.
    at_last = animclip_to_gltf(one_joint_clip(4, loop_end=3 / 30.0), RIG)[0]
    np.testing.assert_allclose(channels_of(at_last, "head")["rotation"][0], np.arange(4) / 30.0, rtol=1e-6)
    past = animclip_to_gltf(one_joint_clip(4, loop_end=4 / 30.0), RIG)[0]
    np.testing.assert_allclose(channels_of(past, "head")["rotation"][0], np.arange(5) / 30.0, rtol=1e-6)


def test_root_motion_is_on_by_default():
    times = np.arange(3) / 30.0
    clip = one_joint_clip(3, root_motion_times=times, root_motion_translation=np.outer(times, [0.0, 0.0, 2.0]),
                          root_motion_rotation=np.tile([0.0, 0.0, 0.0, 1.0], (3, 1)))
    glb, _ = animclip_to_gltf(clip, RIG)
    np.testing.assert_allclose(channels_of(glb, ROOT_MOTION_NODE)["translation"][1][:, 2], 2 * times, rtol=1e-6)
    glb, _ = animclip_to_gltf(clip, RIG, root_motion=False)
    assert not any(n.get("name") == ROOT_MOTION_NODE for n in Document(glb=glb).json["nodes"])


def test_custom_tracks_are_reported_only_when_there_are_some():
    _, match = animclip_to_gltf(one_joint_clip(2), RIG)
    assert not any("custom track" in line for line in match.lines)
    _, match = animclip_to_gltf(one_joint_clip(2), RIG, custom_tracks=[("blink", [0.0, 1.0])])
    assert "1 custom track(s) kept in the animation's extras (glTF has no place for them)" in match.lines


# ---------------------------------------------------------------------------- a camera


@pytest.mark.parametrize("xfov", [0.05, 0.8, 3.0])
def test_a_cameras_field_of_view_below_a_radian_is_kept(xfov):
    # Any XFOV strictly between 0 and pi is the camera's (glTF's yfov from it at the assumed
    # aspect): a narrow lens of 3 degrees or 46 degrees as much as a wide one.
    camera = CameraAnimation(np.arange(2) / 30.0, np.zeros((2, 3)), np.tile([0.0, 0.0, 0.0, 1.0], (2, 1)),
                             np.full(2, xfov))
    glb, _ = camera_animation_to_gltf(camera)
    yfov = Document(glb=glb).json["cameras"][0]["perspective"]["yfov"]
    assert yfov == pytest.approx(2 * math.atan(math.tan(xfov / 2) / CAMERA_ASPECT), rel=1e-9)
