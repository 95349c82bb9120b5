"""animspec.quaternion: the float quaternion helpers every module shares, checked against
values worked out by hand and against each other (matrix <-> quaternion, product <-> matrix
product), so a wrong sign, order or branch fails."""

from __future__ import annotations

import math

import numpy as np
import pytest

from animspec import quaternion as Q
from animspec import skeleton

H = math.sqrt(0.5)
ID = np.array([1.0, 0.0, 0.0, 0.0])
X90 = np.array([H, H, 0.0, 0.0])
Y90 = np.array([H, 0.0, H, 0.0])
Z90 = np.array([H, 0.0, 0.0, H])


def random_unit(rng: np.random.Generator, n: int) -> np.ndarray:
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def test_component_order_moves_w():
    assert Q.xyzw_to_wxyz([1.0, 2.0, 3.0, 4.0]).tolist() == [4.0, 1.0, 2.0, 3.0]
    assert Q.wxyz_to_xyzw([4.0, 1.0, 2.0, 3.0]).tolist() == [1.0, 2.0, 3.0, 4.0]
    batch = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(Q.wxyz_to_xyzw(Q.xyzw_to_wxyz(batch)), batch)
    assert Q.xyzw_to_wxyz(batch)[1, 2].tolist() == [23.0, 20.0, 21.0, 22.0]


def test_normalize_scales_to_unit_and_makes_zero_the_identity():
    np.testing.assert_allclose(Q.normalize([0.0, 3.0, 4.0, 0.0]), [0.0, 0.6, 0.8, 0.0])
    np.testing.assert_allclose(Q.normalize([-2.0, 0.0, 0.0, 0.0]), [-1.0, 0.0, 0.0, 0.0])
    assert Q.normalize(np.zeros((2, 4))).tolist() == [[1.0, 0.0, 0.0, 0.0]] * 2
    assert Q.normalize(np.zeros(4), scalar_last=True).tolist() == [0.0, 0.0, 0.0, 1.0]
    assert Q.normalize([np.nan, 0.0, 0.0, 0.0]).tolist() == [1.0, 0.0, 0.0, 0.0]
    # scalar_last only places the identity's 1; a non-zero quaternion is scaled the same way.
    np.testing.assert_array_equal(Q.normalize([1.0, 2.0, 2.0, 4.0], scalar_last=True), Q.normalize([1.0, 2.0, 2.0, 4.0]))


def test_product_by_hand_and_not_commutative():
    np.testing.assert_allclose(Q.quat_multiply(X90, Y90), [0.5, 0.5, 0.5, 0.5], atol=1e-15)
    np.testing.assert_allclose(Q.quat_multiply(Y90, X90), [0.5, 0.5, 0.5, -0.5], atol=1e-15)
    np.testing.assert_allclose(Q.quat_multiply(Z90, Z90), [0.0, 0.0, 0.0, 1.0], atol=1e-15)
    np.testing.assert_allclose(Q.quat_multiply(Z90, Q.conjugate(Z90)), ID, atol=1e-15)
    assert Q.conjugate([0.1, 0.2, -0.3, 0.4]).tolist() == [0.1, -0.2, 0.3, -0.4]


def test_product_is_the_matrix_product():
    rng = np.random.default_rng(13)
    a, b = random_unit(rng, 50), random_unit(rng, 50)
    np.testing.assert_allclose(Q.quat_to_matrix(Q.quat_multiply(a, b)), Q.quat_to_matrix(a) @ Q.quat_to_matrix(b), atol=1e-12)


def test_matrix_of_a_quarter_turn_about_z():
    np.testing.assert_allclose(Q.quat_to_matrix(Z90), [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)
    np.testing.assert_allclose(Q.quat_to_matrix(np.zeros(4)), np.eye(3))


@pytest.mark.parametrize("q", [
    [0.9, 0.1, -0.3, 0.2],   # trace > 0
    [0.0, 1.0, 0.0, 0.0],    # half turn about X: the m[0, 0] pivot
    [0.0, 0.0, 1.0, 0.0],    # about Y: the m[1, 1] pivot
    [0.0, 0.0, 0.0, 1.0],    # about Z: the m[2, 2] pivot
    [0.1, 0.8, 0.5, 0.2],    # off-axis, each pivot: m[0, 0] largest, trace < 0
    [0.1, 0.5, 0.8, 0.2],    # m[1, 1]
    [0.1, 0.7, -0.7, 0.1],   # near a half turn, off-axis
    [0.1, 0.2, 0.5, 0.8],    # m[2, 2]
    [0.05, -0.2, 0.3, 0.93],
])
def test_matrix_to_quat_inverts_quat_to_matrix_on_every_branch(q):
    q = Q.normalize(q)
    back = Q.matrix_to_quat(Q.quat_to_matrix(q))
    sign = 1.0 if np.dot(back, q) >= 0 else -1.0
    np.testing.assert_allclose(sign * back, q, atol=1e-12)
    # scale is dropped: columns scaled by 2, 3 and 4 give the same rotation
    np.testing.assert_allclose(Q.matrix_to_quat(Q.quat_to_matrix(q) * [2.0, 3.0, 4.0]), back, atol=1e-12)


def test_slerp_end_points_half_way_and_short_way():
    np.testing.assert_allclose(Q.slerp(ID, Z90, 0.0), ID, atol=1e-15)
    np.testing.assert_allclose(Q.slerp(ID, Z90, 1.0), Z90, atol=1e-15)
    half = Q.slerp(ID, Z90, 0.5)
    np.testing.assert_allclose(half, [math.cos(math.pi / 8), 0.0, 0.0, math.sin(math.pi / 8)], atol=1e-15)
    # -Z90 is the same rotation: the short way gives the same path, not a 270 degree sweep
    np.testing.assert_allclose(Q.slerp(ID, -Z90, 0.5), half, atol=1e-15)
    # a third of the way: 30 degrees, not the chord's direction
    assert Q.angle_between(ID, Q.slerp(ID, Z90, 1 / 3)) == pytest.approx(30.0)
    # nearly parallel: no division by sin(0)
    near = Q.normalize([1.0, 1e-12, 0.0, 0.0])
    assert np.all(np.isfinite(Q.slerp(ID, near, 0.5)))


def test_angle_between_ignores_the_sign():
    assert Q.angle_between(ID, Z90) == pytest.approx(90.0)
    assert Q.angle_between(Z90, -Z90) == pytest.approx(0.0, abs=1e-6)
    assert Q.angle_between(X90, Y90) == pytest.approx(120.0)


def test_continuity_signs_follow_the_previous_row():
    q = np.array([Z90, -Z90, -Z90, Z90, -X90])
    assert Q.continuity_signs(q).tolist() == [1, -1, -1, 1, -1]  # Z90 . -X90 = -1/2
    out = Q.sign_continuous(q)
    assert out.tolist() == [Z90.tolist()] * 4 + [X90.tolist()]
    # with a start the first row goes into its hemisphere too
    assert Q.continuity_signs(-q, start=ID).tolist() == [-1, 1, 1, -1, 1]
    assert Q.continuity_signs(-q).tolist() == [1, -1, -1, 1, -1]
    assert Q.continuity_signs(np.array([-Z90]), start=ID).tolist() == [-1]
    # a zero dot product is not a flip
    assert Q.continuity_signs(np.array([ID, [0.0, 1.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.0]])).tolist() == [1, 1, 1]


def test_sign_continuous_on_random_flips_keeps_rotations_and_the_dtype():
    rng = np.random.default_rng(7)
    # a smooth curve, its signs scrambled
    curve = Q.normalize(np.cumsum(rng.normal(scale=0.2, size=(40, 4)), axis=0) + [3.0, 0.0, 0.0, 0.0])
    scrambled = curve * rng.choice([-1.0, 1.0], size=(40, 1))
    out = Q.sign_continuous(scrambled)
    assert np.all(np.sum(out[1:] * out[:-1], axis=1) >= 0)
    np.testing.assert_array_equal(np.abs(out), np.abs(scrambled))
    np.testing.assert_array_equal(out, curve * np.sign(np.dot(curve[0], out[0])))
    raw = np.array([[4096, 0, 0, 0], [-4000, 100, 0, 0], [3900, -300, 0, 0]], dtype=np.int64)
    kept = Q.sign_continuous(raw)
    assert kept.dtype == np.int64 and kept.tolist() == [[4096, 0, 0, 0], [4000, -100, 0, 0], [3900, -300, 0, 0]]
    assert raw[1, 0] == -4000  # the input is not modified


def test_same_hemisphere_as_a_fixed_reference():
    q = np.array([Z90, -Z90, -ID, X90])
    assert Q.same_hemisphere(q, ID).tolist() == [Z90.tolist(), Z90.tolist(), ID.tolist(), X90.tolist()]


def test_skeleton_and_playback_use_these_helpers():
    # one implementation: the names animspec.skeleton (and through it the playback) import
    for name in ("normalize", "slerp", "quat_multiply", "quat_to_matrix", "angle_between"):
        assert getattr(skeleton, name) is getattr(Q, name)


# --- cases a mutation run (tools/mutation.py quaternion.py) showed no test held ---------------


def test_the_identity_constant_and_continuity_from_it():
    assert Q.IDENTITY.tolist() == [1.0, 0.0, 0.0, 0.0]
    # A first key in the far hemisphere from the identity is flipped towards it.
    assert Q.continuity_signs(np.array([[-0.9, 0.1, 0.0, 0.0], [-0.8, 0.2, 0.0, 0.0]]), start=Q.IDENTITY).tolist() == [-1, -1]


def test_normalize_of_a_zero_row_is_exactly_the_identity_in_a_batch():
    out = Q.normalize(np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 4.0]]))
    assert np.isfinite(out).all()
    assert out.tolist() == [[1.0, 0.0, 0.0, 0.0], [0.0, 0.6, 0.0, 0.8]]
    assert Q.normalize(np.zeros(4), scalar_last=True).tolist() == [0.0, 0.0, 0.0, 1.0]


def test_slerp_of_one_orientation_with_itself_is_that_orientation():
    # sin(angle) is 0 here: the linear fall-back must weigh the ends (1 - t) and t.
    q = np.array([0.5, 0.5, 0.5, 0.5])
    for t in (0.0, 0.25, 0.9):
        np.testing.assert_allclose(Q.slerp(q, q, t), q, atol=1e-15)
    # A dot product that rounds above 1 must not turn the angle into NaN.
    rng = np.random.default_rng(7)
    many = random_unit(rng, 2000)
    assert (np.sum(many * many, axis=1) > 1.0).any()
    out = Q.slerp(many, many, 0.3)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out, many, atol=1e-12)


def test_angle_between_row_by_row():
    a = np.stack([ID, ID, X90])
    b = np.stack([X90, Z90 * -1.0, X90])
    np.testing.assert_allclose(Q.angle_between(a, b), [90.0, 90.0, 0.0], atol=1e-9)


def test_matrix_to_quat_undoes_a_different_scale_per_column():
    q = np.array([0.8, 0.2, -0.4, 0.4])
    q = q / np.linalg.norm(q)
    scaled = Q.quat_to_matrix(q) * np.array([2.0, 3.0, 0.5])  # column j times its scale
    assert Q.angle_between(Q.matrix_to_quat(scaled), q) < 1e-6


def test_same_hemisphere_keeps_a_row_at_a_right_angle():
    rows = np.array([[0.0, 1.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.0]])
    assert Q.same_hemisphere(rows, ID).tolist() == [[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]


@pytest.mark.parametrize("axis", [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1),
                                  (1, -1, 0), (0, -1, 1), (0, 1e-4, 1), (1e-4, 0, 1), (1, 1e-4, 0)])
@pytest.mark.parametrize("angle", [math.pi, math.pi - 1e-6, 2.5])
def test_matrix_to_quat_near_half_turns_picks_a_sound_pivot(axis, angle):
    # Near a half turn the trace is about -1 and the pivot must be the largest diagonal term:
    # a pivot of about 0 would divide by nothing.
    n = np.array(axis, float) / np.linalg.norm(axis)
    q = np.r_[math.cos(angle / 2), math.sin(angle / 2) * n]
    assert Q.angle_between(Q.matrix_to_quat(Q.quat_to_matrix(q)), q) < 1e-5
