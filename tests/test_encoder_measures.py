"""The encoder's joint-local error measure and its input checks, in process (the command-line
tests run the package in a subprocess, which a mutation of encode.py never reaches).

The measure (``ClipError``, what ``read_back_error`` reports) is recomputed here from the
written bytes with the reference decoder (tests/animclip_reference.py, written from the bit
layout, not from the library) and plain numpy, as its docstring defines it: the angle between
the rotations in degrees, the distance between the translations, the worst axis's scale ratio
|read / given - 1|, each joint's worst over the frames and the frame it is at. The refusals
are checked for the facts they carry, first things first."""

from __future__ import annotations

import numpy as np
import pytest
from test_codec_behaviours import angle_deg, reference_frames, unit, written
from test_luna_fixtures import FIXTURES, TAG_BASE_STATE, sections
from test_object_space import vertex_errors

from animspec.animclip.frames.encode import (
    EncodeError,
    Frames,
    JointNameError,
    Tolerance,
    encode,
    joint_hashes,
    read_back_error,
    rotation_errors_deg,
    scale_errors,
    translation_errors,
)


def _clip(seed: int = 5, frames: int = 12, joints: int = 3) -> Frames:
    """Every kind moving on every joint, scales on both sides of 1 and unequal per axis."""
    rng = np.random.default_rng(seed)
    rot = unit(rng.normal(size=(frames, joints, 4)))
    pos = rng.uniform(-0.5, 0.5, size=(frames, joints, 3))
    scl = rng.uniform(0.6, 1.5, size=(frames, joints, 3))
    return Frames(rot, pos, scl)


def _read_and_given(data: bytes, clip: Frames) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """(rotations x, y, z, w, translations, scales) as a reader holds them from ``data`` (the
    reference decoder's float64 values as the float32 a decoder hands out), and the same of
    ``clip`` with its rotations at unit length."""
    reference = reference_frames(data)
    read = tuple(reference[k].astype(np.float32).astype(np.float64) for k in ("rotation_xyzw", "translation", "scale"))
    given = (clip.rotations / np.linalg.norm(clip.rotations, axis=-1, keepdims=True), clip.translations, clip.scales)
    return read, given


def test_the_three_measures_are_the_documented_ones_on_known_values():
    quarter_z = np.array([0.0, 0.0, np.sin(np.pi / 4), np.cos(np.pi / 4)])
    identity = np.array([0.0, 0.0, 0.0, 1.0])
    np.testing.assert_allclose(rotation_errors_deg(np.array([quarter_z, -identity]), np.array([identity, identity])),
                               [90.0, 0.0], atol=1e-6)
    np.testing.assert_allclose(translation_errors(np.array([[3.0, 4.0, 0.0]]), np.zeros((1, 3))), [5.0])
    # The worst axis, each a ratio of what is read to what was given, and 0 where they agree.
    np.testing.assert_allclose(scale_errors(np.array([[1.02, 0.5, 2.0], [2.0, 2.0, 2.0]]),
                                            np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])), [1.0, 0.0])
    np.testing.assert_allclose(scale_errors(np.array([[1.02, 1.0, 1.0]]), np.ones((1, 3))), [0.02], rtol=1e-12)
    np.testing.assert_allclose(scale_errors(np.array([[0.75, 0.5, 0.5]]), np.full((1, 3), 0.5)), [0.5], rtol=1e-12)


def test_read_back_error_is_what_the_reference_decoder_reads_from_the_bytes():
    clip = _clip()
    data = written(encode(clip, Tolerance(0.5, 1e-2, 1e-2)), [11, 12, 13])
    (read_rot, read_pos, read_scl), (rot, pos, scl) = _read_and_given(data, clip)
    expected = {
        "rotation": angle_deg(read_rot, rot),
        "translation": np.linalg.norm(read_pos - pos, axis=-1),
        "scale": np.abs(read_scl / scl - 1).max(axis=-1),
    }
    error = read_back_error(data, clip)
    for kind, per_frame in expected.items():
        measured = getattr(error, kind)
        assert per_frame.max() > 1e-4, kind  # a real error to measure, not a lossless clip
        # A rotation's angle this small is the arccos of a dot product within 1e-5 of 1, where
        # float32 components move it by a few percent (how the decoder normalises them shows);
        # the other two agree to float32's precision. (The scale ratio turned over, given /
        # read, would differ by its square: about 1e-5 relative here.)
        rtol = 0.05 if kind == "rotation" else 1e-6
        np.testing.assert_allclose(measured.per_joint, per_frame.max(axis=0), rtol=rtol, atol=1e-9, err_msg=kind)
        if kind != "rotation":
            assert measured.frames.tolist() == per_frame.argmax(axis=0).tolist(), kind


def test_a_joint_local_encodes_object_space_figure_is_what_the_reference_decoder_reads():
    # A joint-local bound searches no object-space error of its own: the figure it reports
    # (at ``shell``) must be measured on what was written, here with the reference decoder
    # and tests/test_object_space.py's forward kinematics (bench/bvh.py's, not the package's).
    clip, parents, shell = _clip(seed=9, frames=10, joints=4), [-1, 0, 1, 1], 0.2
    encoded = encode(clip, Tolerance(0.5, 1e-2, 1e-2), parents=parents, shell=shell)
    expected = vertex_errors(*_read_and_given(written(encoded, [21, 22, 23, 24]), clip), parents, shell)
    assert expected.max() > 1e-4
    np.testing.assert_allclose(encoded.object_error.per_joint, expected.max(axis=0), rtol=1e-4, atol=1e-7)


def test_an_object_space_figure_is_measured_again_when_large_false_coarsens_the_search():
    # With large=False the fields are coarsened to 16 bits after the search: the figure the
    # search measured is then not the written clip's, and must be measured again.
    from animspec.animclip.frames.object_space import ObjectTolerance

    clip, parents, shell = _clip(seed=3, frames=10, joints=2), [-1, 0], 0.1
    pos = clip.translations.copy()
    pos[:, 0, 0] = np.linspace(0.0, 3000.0, 10)  # the root travels 3 km: past 16 bits at this bound
    clip = Frames(clip.rotations, pos, clip.scales)
    encoded = encode(clip, ObjectTolerance(1e-3, shell), parents=parents, large=False)
    expected = vertex_errors(*_read_and_given(written(encoded, [31, 32]), clip), parents, shell)
    assert expected.max() > 1e-3  # coarsened past the bound the search met
    np.testing.assert_allclose(encoded.object_error.per_joint, expected.max(axis=0), rtol=1e-4, atol=1e-7)


# ----------------------------------------------------------------------------- refusals


def test_two_joints_of_one_name_are_named_in_order_with_the_reason():
    with pytest.raises(JointNameError) as same:
        joint_hashes(["hips", "spine", "hips"], ["node 4 'hips'", "node 5 'spine'", "node 9 'hips'"])
    assert same.value.joints == (0, 2) and same.value.labels == ("node 4 'hips'", "node 9 'hips'")
    assert str(same.value).startswith("node 4 'hips' and node 9 'hips': the same name (joint hash 0x")
    with pytest.raises(JointNameError) as collision:  # two names with one CRC32
        joint_hashes(["a", "bone29685295", "bone32060020"])
    assert collision.value.labels == ("joint 1 'bone29685295'", "joint 2 'bone32060020'")
    assert "two names with one CRC32 (joint hash 0x7FB996D4)" in str(collision.value)


def test_a_bad_rotation_tolerance_is_named_before_the_others():
    # (test_encoder_hostile.py: the translation before the scale)
    with pytest.raises(EncodeError, match="the rotation_deg tolerance must be a positive number, not -1"):
        Tolerance(rotation_deg=-1.0, translation=-2.0, scale=-3.0)


def test_a_scales_shape_refusal_says_the_shape_expected():
    # (test_encoder_hostile.py: the translations')
    rot = np.tile([0.0, 0.0, 0.0, 1.0], (5, 2, 1))
    with pytest.raises(EncodeError, match=r"scales must be \(5, 2, 3\), not \(5, 2, 4\)"):
        encode(Frames(rot, np.zeros((5, 2, 3)), np.ones((5, 2, 4))))


def test_non_finite_rotations_are_named_before_non_finite_translations():
    # (test_encoder_hostile.py: translations before scales)
    rot, pos = np.tile([0.0, 0.0, 0.0, 1.0], (2, 1, 1)), np.zeros((2, 1, 3))
    rot[1, 0, 0], pos[0, 0, 2] = np.nan, np.inf
    with pytest.raises(EncodeError, match="^rotations hold a NaN or an infinity$"):
        encode(Frames(rot, pos))


def test_a_rotation_is_refused_below_a_millionth_of_unit_length_and_normalised_at_it():
    # Just inside and just outside the one threshold: a quaternion this short still has a
    # direction a float64 normalises exactly enough; shorter is taken for a zero one.
    turn = np.array([0.0, np.sin(0.3), 0.0, np.cos(0.3)])
    at = np.tile(turn * 1e-6, (2, 1, 1))
    enc = encode(Frames(at, np.zeros((2, 1, 3))))
    assert enc.error.rotation.worst < 0.01
    with pytest.raises(EncodeError, match="a rotation quaternion has zero length"):
        encode(Frames(at * 0.999, np.zeros((2, 1, 3))))


def test_a_translation_of_exactly_minus_32767_units_is_held_and_half_a_unit_below_is_refused():
    # Base State holds a joint's base (its smallest value) as a signed 16-bit integer at shift
    # 0 at the coarsest: -32,767 is the lowest it says (docs: TranslationRangeError).
    rot = np.tile([0.0, 0.0, 0.0, 1.0], (3, 1, 1))
    pos = np.zeros((3, 1, 3))
    pos[1, 0, 1] = -32767.0
    clip = Frames(rot, pos)
    data = written(encode(clip, Tolerance(0.1, 0.5, 1e-3)), [7])
    np.testing.assert_allclose(reference_frames(data)["translation"][:, 0], pos[:, 0], atol=0.5)
    pos[1, 0, 1] = -32767.5
    with pytest.raises(EncodeError, match=r"translation y is -32767\.5 units at frame 1, below -32767,"):
        encode(Frames(rot, pos), Tolerance(0.1, 0.5, 1e-3))


@pytest.mark.parametrize("looping", [False, True])
def test_a_frame_lookup_asked_for_is_written_even_for_a_clip_without_elements(looping):
    # A clip that never moves has no elements (stride 0): its lookup never pays, but one asked
    # for is written, every frame naming the one sample (and a looping clip's extra entry too).
    still = Frames(np.tile([0.0, 0.0, 0.0, 1.0], (4, 2, 1)), np.ones((4, 2, 3)))
    assert encode(still, looping=looping).lookup is None
    forced = encode(still, looping=looping, lookup=True)
    assert forced.lookup is not None and forced.lookup.tolist() == [0] * (4 + looping)


def _luna_scale_exponents() -> set[int]:
    """Byte +0xE of every Base State record (16 bytes a joint) in the clips Luna's exporter
    wrote (tests/fixtures/luna), read as tests/test_luna_fixtures.py reads them."""
    out: set[int] = set()
    for path in sorted(FIXTURES.glob("*.animclip")):
        payload = sections(path.read_bytes())[1][TAG_BASE_STATE]
        out |= {payload[i + 14] for i in range(0, len(payload), 16)}
    return out


def _scaled(off: float) -> Frames:
    """One joint turning a little over three frames, its x scale 1 + ``off`` on the middle one."""
    rot = unit(np.array([[[0.0, 0.0, 0.0, 1.0]], [[0.1, 0.0, 0.0, 1.0]], [[0.2, 0.0, 0.0, 1.0]]]))
    scl = np.ones((3, 1, 3))
    scl[1, 0, 0] += off
    return Frames(rot, np.zeros((3, 1, 3)), scl)


@pytest.mark.parametrize("off, exponent", [(0.0, 12), (2.0**-11, 12), (-(2.0**-11), 12), (1.25 * 2.0**-11, 9)])
def test_a_scale_within_half_its_tolerance_of_1_keeps_lunas_exponent(off, exponent):
    # Base State's scale exponent: a clip whose scales all stay within half their tolerance
    # (2^-10 here; the half included) of 1 keeps the one Luna's exporter writes in every clip
    # (12, read from its files, not from ours): rounding a scale that close to 1 at any step
    # errs by no more than its distance from 1. Past the half, the exponent comes from the
    # tolerance (9: the next test). Either way the reference decoder reads a scale within it.
    assert _luna_scale_exponents() == {12}
    encoded = encode(_scaled(off), Tolerance(1.0, 1e-3, 2.0**-10))
    assert encoded.scale_exponent.tolist() == [exponent]
    read, given = _read_and_given(written(encoded, [7]), _scaled(off))
    assert scale_errors(read[2], given[2]).max() <= 2.0**-10


@pytest.mark.parametrize("tolerance, exponent", [(0.6, 0), (0.3, 1), (2.0**-10, 9), (1e-4, 13)])
def test_a_scaled_clips_exponent_is_the_coarsest_whose_half_step_is_within_the_tolerance(tolerance, exponent):
    # A scale step of 2^-e errs by half of it at most: e is the smallest with 2^-e / 2 within
    # the tolerance (written out in the parameters: 0.6 asks for none, 0.3 for one halving, ...),
    # so no bit is spent past what the tolerance asks; what the reference decoder reads from
    # the bytes is within it.
    assert 2.0 ** -exponent / 2 <= tolerance and (exponent == 0 or 2.0 ** -(exponent - 1) / 2 > tolerance)
    clip = _scaled(0.45)
    encoded = encode(clip, Tolerance(1.0, 1e-3, tolerance))
    assert encoded.scale_exponent.tolist() == [exponent]
    read, given = _read_and_given(written(encoded, [7]), clip)
    assert scale_errors(read[2], given[2]).max() <= tolerance


@pytest.mark.parametrize("low, divisor_element", [(1.0, False), (0.8, True)])
def test_only_a_scale_below_1_raises_the_divisor(low, divisor_element):
    # A scale is numerator / divisor over the base 2^e: a scale below 1 needs a larger divisor
    # on its frames (an element of component 3); a joint whose scales are all 1 or more keeps
    # the divisor at its base on every frame, so it has no divisor element.
    clip = _scaled(0.45)
    clip.scales[0, 0, 1] = low
    encoded = encode(clip, Tolerance(1.0, 1e-3, 2.0**-10))
    assert (3 in [int(c) % 12 for c in encoded.components]) == divisor_element
    read, given = _read_and_given(written(encoded, [7]), clip)
    assert scale_errors(read[2], given[2]).max() <= 2.0**-10
