""".animclip base state -> glTF (:func:`animspec.gltf.animclip_to_gltf`), through the minimal
joint protocol (hash, rotation x, y, z, w, translation) on rigs built here with pygltflib."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from pygltflib import GLTF2, Node

from animspec.errors import AnimspecError
from animspec.gltf import animclip_to_gltf
from animspec.gltf.from_animclip import ALERT_KEY_SECONDS
from animspec.hashes import crc32
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
    # animclip.md section 5.1: joint names are hashed case-sensitively.
    assert crc32("root") == 0x865696D5 and crc32("Root") == 0x266439EB and crc32("pelvis") == 0x8E59B33F


def test_base_state_applied_by_hash_and_unmatched_reported_both_ways(tmp_path):
    joints = [
        (crc32("root"), (0.0, 0.0, 0.25, 0.25), (1.0, 2.0, 3.0)),  # not unit: normalised
        Joint(crc32("pelvis"), (0.0, 0.0, 0.0, 0.0), None),  # zero quaternion: identity; keep translation
        (0xDEADBEEF, (0, 0, 0, 1), (0, 0, 0)),  # no such node
        (0xFFFF_FFFF, (0, 0, 0, 1), (0, 0, 0)),  # "no joint" entry: skipped
        (crc32("Root"), (0, 0, 0, 1), (0, 0, 0)),  # wrong case: a different hash
    ]
    data, match = animclip_to_gltf(joints, rig(), custom_tracks=[("blink", [0.0, 0.5, 1.0]), CustomTrack("jaw", [2.0])])
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
    data, _ = animclip_to_gltf([(crc32("spine"), (0, 1, 0, 0), (0, 4, 0))], rig(), bind_key=False, name="pose")
    khronos_validate(data, tmp_path)
    times, values, _ = animation_channels(data)[1][(2, "rotation")]
    np.testing.assert_allclose(times, [0.0])
    np.testing.assert_allclose(values, [[0, 1, 0, 0]])


def test_no_match_is_an_error():
    with pytest.raises(AnimspecError, match="no rig node name hashes"):
        animclip_to_gltf([(0x12345678, (0, 0, 0, 1), (0, 0, 0))], rig())


@pytest.mark.filterwarnings("ignore:This file .* contains a binary blob")
def test_rig_from_a_gltf_file_with_an_external_buffer(tmp_path):
    """A .gltf whose data sits in a separate .bin: the result is still one self-contained GLB."""
    gltf = GLTF2.load_from_bytes(rig())
    path = tmp_path / "rig.gltf"
    gltf.save(str(path))  # writes rig.bin next to it
    assert (tmp_path / "rig.bin").is_file()
    data, match = animclip_to_gltf([(crc32("root"), (0, 0, 0, 1), (0, 0, 1))], str(path))
    khronos_validate(data, tmp_path, "out.glb")
    assert match.matched == [("root", crc32("root"))]
