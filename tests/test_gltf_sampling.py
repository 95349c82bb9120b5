"""Sampling glTF animation curves (glTF 2.0 Appendix C), checked against hand-computed values,
directly and through :func:`animspec.gltf.gltf_to_animbin` on glTFs built here with pygltflib."""

from __future__ import annotations

import math

import numpy as np
import pytest

from animspec.animbin import RotationKey
from animspec.gltf import gltf_to_animbin
from animspec.gltf.rig import GltfError
from animspec.gltf.sampling import sample_sampler
from animspec.skeleton import angle_between
from test_gltf_support import AnimSpec, ChannelSpec, build_glb, chain, quat_xyzw

SQRT_HALF = math.sqrt(0.5)


def wxyz(q_xyzw):
    x, y, z, w = q_xyzw
    return np.array([w, x, y, z])


def key_wxyz(key: RotationKey) -> np.ndarray:
    return np.array(key.quaternion) / 4096


# --- CUBICSPLINE ---------------------------------------------------------------------------


def test_cubicspline_scales_tangents_by_the_interval():
    """Keys at t = 0 and 2 (t_d = 2); at t_c = 0.5, s = 0.25:
    h00 = 2s^3 - 3s^2 + 1 = 0.84375, h10 = s^3 - 2s^2 + s = 0.140625,
    h01 = -2s^3 + 3s^2 = 0.15625,    h11 = s^3 - s^2 = -0.046875.
    v0 = 0, out-tangent b0 = 1, v1 = 1, in-tangent a1 = 0:
    v = h00*0 + t_d*h10*1 + h01*1 + t_d*h11*0 = 0.28125 + 0.15625 = 0.4375
    (forgetting t_d would give 0.296875)."""
    out = np.array([
        [9.0, 9.0, 9.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0],  # a0 (unused), v0, b0
        [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [9.0, 9.0, 9.0],  # a1, v1, b1 (unused)
    ])
    v = sample_sampler(np.array([0.0, 2.0]), out, "CUBICSPLINE", np.array([0.5, 0.0, 2.0, 3.0]), rotation=False)
    assert v[0, 0] == pytest.approx(0.4375, abs=1e-12)
    assert v[1, 0] == 0.0 and v[2, 0] == 1.0 and v[3, 0] == 1.0  # at keys, and clamped after


def test_cubicspline_rotation_hand_computed_through_convert():
    """Joint 1 rotates about Z from identity to 90 degrees over t_d = 0.5 s with out-tangent
    b0 = (0, 0, 1, 0) per second and zero in-tangent. At t_c = 0.25 (s = 0.5):
    h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125, so
    z = t_d*h10*1 + h01*sin(45) = 0.5*0.125 + 0.5*sqrt(1/2),  w = h00*1 + h01*cos(45) = 0.5 + 0.5*sqrt(1/2),
    normalised. At 8 Hz frame 2 falls on t = 0.25."""
    z, w = 0.5 * 0.125 + 0.5 * SQRT_HALF, 0.5 + 0.5 * SQRT_HALF
    expected = np.array([w, 0.0, 0.0, z]) / math.hypot(w, z)
    zero = (0.0, 0.0, 0.0, 0.0)
    values = [zero, (0, 0, 0, 1), (0, 0, 1, 0), zero, (0, 0, SQRT_HALF, SQRT_HALF), zero]
    glb = build_glb(chain(2), [AnimSpec("c", [ChannelSpec(1, "rotation", [0.0, 0.5], values, "CUBICSPLINE")])])
    result = gltf_to_animbin(glb, region=8.0, looping=False)
    key = result.animbin.animations[0].tracks[1].keys[2]
    assert key.frame == 2
    assert np.array_equal(key.quaternion, np.rint(expected * 4096).astype(int))
    # The hand value differs clearly from the un-scaled (wrong) tangent and from slerp.
    wrong = np.array([0.5 + 0.5 * SQRT_HALF, 0, 0, 0.125 + 0.5 * SQRT_HALF])
    assert angle_between(expected, wrong) > 1.0
    assert angle_between(expected, wxyz(quat_xyzw((0, 0, 1), 45))) > 1.0


# --- STEP ----------------------------------------------------------------------------------


def test_step_holds_until_the_next_key():
    a, b = quat_xyzw((1, 0, 0), 10), quat_xyzw((1, 0, 0), 50)
    v = sample_sampler(np.array([0.0, 0.5]), np.array([a, b]), "STEP", np.array([0.0, 0.49, 0.5, 0.7]), rotation=True)
    np.testing.assert_allclose(v, [a, a, b, b], atol=1e-12)


def test_float32_key_times_still_land_on_their_frame():
    """0.2 s is not a float32 number (it is stored as 0.20000000298...). The 50 Hz frame 10
    (t = 0.2 exactly) must still see the key authored at 0.2 s."""
    key_time = float(np.float32(0.2))
    assert key_time > 0.2
    v = sample_sampler(np.array([0.0, key_time]), np.array([[0.0] * 3, [1.0] * 3]), "STEP", np.array([10 / 50, 9 / 50]), rotation=False)
    np.testing.assert_allclose(v[:, 0], [1.0, 0.0])


def test_step_through_convert_changes_on_the_key_frame():
    a, b = quat_xyzw((1, 0, 0), 10), quat_xyzw((1, 0, 0), 50)
    glb = build_glb(chain(2), [AnimSpec("s", [ChannelSpec(1, "rotation", [0.0, 0.5, 0.9], [a, b, b], "STEP")])])
    keys = gltf_to_animbin(glb, region=10.0, looping=False).animbin.animations[0].tracks[1].keys
    shown = [round(float(angle_between(key_wxyz(k), wxyz(quat_xyzw((1, 0, 0), 0)))), 1) for k in keys]
    assert shown == [10.0] * 5 + [50.0] * 5


# --- LINEAR --------------------------------------------------------------------------------


def test_linear_rotation_is_slerp_not_nlerp():
    """Slerp has constant angular speed: a quarter of the way through a 120 degree arc is
    30 degrees. Normalised lerp would give about 22.4 degrees there."""
    a, b = quat_xyzw((0, 1, 0), 0), quat_xyzw((0, 1, 0), 120)
    v = sample_sampler(np.array([0.0, 1.0]), np.array([a, b]), "LINEAR", np.array([0.25]), rotation=True)
    assert float(angle_between(wxyz(v[0]), wxyz(a))) == pytest.approx(30.0, abs=1e-9)


def test_linear_takes_the_short_way_across_a_sign_flip():
    """The second key is stored negated (-q is the same rotation). The spec's slerp
    multiplies it by the dot product's sign, so halfway is 45 degrees, not the long way."""
    a, b = quat_xyzw((0, 0, 1), 0), quat_xyzw((0, 0, 1), 90)
    flipped = tuple(-c for c in b)
    v = sample_sampler(np.array([0.0, 1.0]), np.array([a, flipped]), "LINEAR", np.array([0.5, 1.0]), rotation=True)
    assert float(angle_between(wxyz(v[0]), wxyz(quat_xyzw((0, 0, 1), 45)))) < 1e-9
    np.testing.assert_allclose(v[1], flipped)  # a key's own time: its value as is


def test_linear_translation_and_clamping():
    v = sample_sampler(np.array([1.0, 3.0]), np.array([[0.0, 2.0, 0.0], [4.0, 2.0, 0.0]]), "LINEAR",
                       np.array([0.0, 1.5, 3.0, 5.0]), rotation=False)
    np.testing.assert_allclose(v[:, 0], [0.0, 1.0, 4.0, 4.0])


def test_sign_flip_in_input_gives_continuous_keys():
    """Every other key of the input is negated; the ANIMBIN keys come out in one
    hemisphere (each dot product with the previous key positive) and the report counts it."""
    times = [0.0, 0.1, 0.2, 0.3]
    values = [quat_xyzw((0, 0, 1), 20 * i) for i in range(4)]
    values = [tuple(-c for c in q) if i % 2 else q for i, q in enumerate(values)]
    glb = build_glb(chain(2), [AnimSpec("flip", [ChannelSpec(1, "rotation", times, values)])])
    result = gltf_to_animbin(glb, region=20.0, looping=False)
    keys = result.animbin.animations[0].tracks[1].keys
    dots = [int(np.dot(p.quaternion, q.quaternion)) for p, q in zip(keys, keys[1:])]
    assert len(keys) == 7 and min(dots) > 0
    assert keys[0].w > 0
    assert result.clips[0].sign_flips > 0
    assert "sign flip" in result.report()
    # and the motion is still the short way round: 10 degrees per frame
    steps = [float(angle_between(key_wxyz(p), key_wxyz(q))) for p, q in zip(keys, keys[1:])]
    np.testing.assert_allclose(steps, 10.0, atol=0.03)


# --- malformed samplers --------------------------------------------------------------------


@pytest.mark.parametrize("times, values, interpolation, message", [
    ([1.0, 0.5], [[0, 0, 0, 1]] * 2, "LINEAR", "strictly increasing"),
    ([0.0, 1.0], [[0, 0, 0, 1]] * 3, "LINEAR", "outputs"),
    ([0.0], [[0, 0, 0, 1]] * 3, "CUBICSPLINE", "at least 2"),
    ([0.0, 1.0], [[0, 0, 0, 1]] * 2, "HERMITE", "unknown interpolation"),
])
def test_malformed_samplers_are_refused(times, values, interpolation, message):
    with pytest.raises(GltfError, match=message):
        sample_sampler(np.array(times), np.array(values, dtype=float), interpolation, np.array([0.5]), rotation=True)
