"""Playback: psyqo FP12 arithmetic, the engine-faithful player and the float reference.

Expected integers are worked out by hand in the comments (FP12: 4096 == 1.0; ``a*b/4096``
on GTE::Short floors, see animspec/fixed_point.py). Nothing here was pasted from the
implementation's own output.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from animspec.animbin.model import (
    Animation,
    Name,
    RotationKey,
    Track,
    TranslationKey,
    UnknownKey,
)
from animspec.animbin.playback import (
    EngineEventKind,
    EngineSkeleton,
    key_rotation_view,
    play_engine,
    refresh_hz,
    sample_reference,
    sample_reference_frames,
    sample_times,
    slerp,
    vsync_count,
    vsync_deltas,
)
from animspec.fixed_point import (
    ConsoleDivisionByZero,
    add_short,
    div_long,
    div_short,
    engine_slerp,
    inverse_square_root,
    mul_long,
    mul_short,
    mul_short_array,
    normalize_quat,
    normalize_quat_array,
    normalize_scale,
    normalize_table,
    quat_dot,
    square_root,
    sub_short,
    trunc_div,
    wrap_int16,
    wrap_int32,
    wrap_uint16,
)

ONE = 4096
IDENT = (ONE, 0, 0, 0)


def clip(tracks: list[Track], length: int, looping: bool = True) -> Animation:
    return Animation(Name(b"test"), length, tracks, flags=1 if looping else 0)


def rot(frame: int, q: tuple[int, int, int, int]) -> RotationKey:
    return RotationKey(frame, *q)


def angle_axis(q: np.ndarray) -> tuple[float, np.ndarray]:
    """Rotation angle (degrees, 0..180) and unit axis of a float quaternion (w, x, y, z)."""
    q = np.asarray(q, dtype=np.float64)
    q = q / np.linalg.norm(q)
    if q[0] < 0:
        q = -q
    angle = 2 * math.degrees(math.atan2(np.linalg.norm(q[1:]), q[0]))
    axis = q[1:] / max(np.linalg.norm(q[1:]), 1e-12)
    return angle, axis


# --- integer helpers -------------------------------------------------------------------------


def test_wrap_and_c_division():
    assert wrap_int16(32768) == -32768
    assert wrap_int16(-32769) == 32767
    assert wrap_int16(65536 + 5) == 5
    assert wrap_int32(2**31) == -(2**31) and wrap_int32(-(2**31) - 1) == 2**31 - 1
    # The frame counter: 16 bits, never negative.
    assert wrap_uint16(65535) == 65535 and wrap_uint16(65536 + 7) == 7 and wrap_uint16(-1) == 65535
    # C division truncates toward zero; Python's // would give -4 and 3.
    assert trunc_div(-7, 2) == -3
    assert trunc_div(7, -2) == -3
    assert trunc_div(-7, -2) == 3


def test_short_sum_difference_and_quotient():
    # int16 arithmetic wraps: 32767 + 1 and -32768 - 1 go round.
    assert add_short(32767, 1) == -32768 and add_short(-5, 3) == -2
    assert sub_short(-32768, 1) == 32767 and sub_short(5, 7) == -2 and sub_short(7, 5) == 2
    # (a * 4096) / b, signed and truncating: 1.5 / 1.0 = 1.5; 1/4096 / -3 = -1365.33 -> -1365.
    assert div_short(6144, 4096) == 6144
    assert div_short(-4096, 8192) == -2048
    assert div_short(1, -3) == -1365


def test_long_division_by_a_negative_divisor():
    # dDiv divides magnitudes and puts the sign back: 3.0 / -2.0 = -1.5, -3.0 / -2.0 = 1.5,
    # and 1/4096 / -3.0 = -(4096 // 12288) = 0 (truncation, not floor's -1).
    assert div_long(12288, -8192) == -6144
    assert div_long(-12288, -8192) == 6144
    assert div_long(-12288, 8192) == -6144
    assert div_long(1, -12288) == 0 and div_long(-1, 12288) == 0


def test_short_product_floors_because_scale_is_unsigned():
    # -1 * 1 = -1; (2**32 - 1) // 4096 = 2**20 - 1, which in int16 is -1 (truncation: 0).
    assert mul_short(-1, 1) == -1
    # -4095 * 2048 = -8386560 = -2047.5 * 4096 -> floor -2048 (truncation: -2047).
    assert mul_short(-4095, 2048) == -2048
    assert mul_short(4095, 2048) == 2047
    # 4.0 * 4.0 = 16.0 = 65536 raw: int16 wraps to 0.
    assert mul_short(16384, 16384) == 0
    # 32767^2 = 1073676289 = 262128 * 4096 + 1 -> 262128 = 4 * 65536 - 16 -> -16.
    assert mul_short(32767, 32767) == -16


def test_short_product_array_form_floors_too():
    a = np.array([-1, -4095, 4095, 16384, 32767], dtype=np.int16)
    b = np.array([1, 2048, 2048, 16384, 32767], dtype=np.int16)
    assert mul_short_array(a, b).tolist() == [-1, -2048, 2047, 0, -16]  # as in the scalar test


def test_long_product_and_division_truncate():
    # int64 product, signed division: -1 * 1 / 4096 truncates to 0.
    assert mul_long(-1, 1) == 0
    assert mul_long(-4095, 2048) == -2047
    # 1.0 / 2.0 = 0.5: 4096 * 4096 / 8192 = 2048.
    assert div_long(4096, 8192) == 2048
    # -1 raw / 2.0: sign-magnitude, 1 * 4096 / 8192 = 0 -> 0 (a floor would be -1).
    assert div_long(-1, 8192) == 0
    assert div_long(-8192, 4096) == -8192
    with pytest.raises(ConsoleDivisionByZero):
        div_long(4096, 0)


def test_square_root_hand_traces():
    # s = 1.0 (4096): x0 = 2048; x1 = 4096*4096/2048 = 8192; x0 = 5120, x1 = 16777216/5120 = 3276;
    # x0 = 4198, x1 = 3996; x0 = 4097, x1 = 4095 (|diff| = 2 > 1); x0 = 4096, x1 = 4096 -> 4096.
    assert square_root(4096) == 4096
    # s = 4094: x0 = 2047, x1 = 8192; 5119 / 3275; 4197 / 3995; 4096 / 4094; x0 = 4095,
    # x1 = 16769024 // 4095 = 4094 (4095^2 = 16769025 is one too many): |diff| = 1 -> x0 = 4095.
    assert square_root(4094) == 4095
    # s = 4 raw: ... 167/98, 132/124, 128/128 -> 128 (0.03125^2 = 1/1024 = 4 raw).
    assert square_root(4) == 128
    # x.raw() <= 1 returns 0, negatives included.
    assert square_root(1) == 0
    assert square_root(0) == 0
    assert square_root(-5) == 0


def test_inverse_square_root_is_psyqo_s_not_the_normalize_path():
    # x = 0.5 (2048) <= 1.0: four Newton steps from y = 2x = 1.0:
    # y = 1.0 * (1.5 - 0.5*1*1/2) = 1.25 (5120); then 5120*(6144 - (2048*5120/4096*5120/4096)/2)
    # converges towards 1/sqrt(0.5) = 1.41421 * 4096 = 5792.6; four steps land on 5793.
    assert inverse_square_root(2048) == 5793
    # x = 1.0 exactly: the default hint y = 2.0 gives 1.5 - 1*2*2/2 = -0.5, y = -1.0, and
    # -1.0 is a fixed point of the step: psyqo's default hint is wrong at 1.0.
    assert inverse_square_root(4096) == -4096
    # x = 4.0 > 1.0: 1 / squareRoot(4.0, 1 / 8.0) = 1 / 2.0 = 0.5.
    assert inverse_square_root(16384) == 2048


# --- Normalize ---------------------------------------------------------------------------------


def test_normalize_keeps_the_identity():
    # s = 4096*4096/4096 = 4096; sqrt = 4096; r = 2**24 / 4096 = 4096; w = 4096.
    assert normalize_quat(IDENT) == IDENT


def test_normalize_45_degrees_and_the_floor_on_negatives():
    # (2896, 2896): squares 8386816 / 4096 = 2047.56 -> 2047 each, s = 4094, sqrt = 4095,
    # r = 16777216 // 4095 = 4097. 2896 * 4097 / 4096 = 2896.71 -> 2896.
    assert normalize_quat((2896, 2896, 0, 0)) == (2896, 2896, 0, 0)
    # Same s for (2896, -2896); -2896 * 4097 / 4096 = -2896.71 floors to -2897.
    assert normalize_quat((2896, -2896, 0, 0)) == (2896, -2897, 0, 0)


def test_normalize_zero_sum_is_identity():
    assert normalize_quat((0, 0, 0, 0)) == IDENT
    # 1 raw squared is 1/4096 raw -> 0: s == 0 although the quaternion is not zero.
    assert normalize_quat((0, 0, 0, 1)) == IDENT
    # 4.0^2 = 16.0 = 65536 raw wraps to 0 in int16 (twice): s == 0 -> identity.
    assert normalize_quat((16384, 16384, 0, 0)) == IDENT


def test_normalize_int16_overflow_of_the_reciprocal():
    # (1024, 0, 0, 0) = 0.25: s = 256, sqrt = 1024, r = 2**24/1024 = 16384 (4.0) fits:
    # 1024 * 16384 / 4096 = 4096.
    assert normalize_quat((1024, 0, 0, 0)) == IDENT
    # (512, 0, 0, 0): s = 64, sqrt(64) = 512 (32/8192, 4112/63, 2087/125, 1106/237, 671/390,
    # 530/494, 512/512), r = 2**24/512 = 32768 -> int16 -32768; 512 * -32768 / 4096 = -4096.
    assert normalize_quat((512, 0, 0, 0)) == (-ONE, 0, 0, 0)
    # (128, 0, 0, 0): s = 4, sqrt = 128, r = 131072 -> int16 0: every component becomes 0.
    assert normalize_quat((128, 0, 0, 0)) == (0, 0, 0, 0)
    # (8192, 0, 0, 0) = 2.0: s = 16384, sqrt = 8192, r = 2048; 8192 * 2048 / 4096 = 4096.
    assert normalize_quat((8192, 0, 0, 0)) == IDENT


def test_normalize_divides_by_zero_for_s_one_and_negative_s():
    # (64, 0, 0, 0): 64^2 / 4096 = 1 -> squareRoot returns 0 -> 1 / 0.
    with pytest.raises(ConsoleDivisionByZero):
        normalize_quat((64, 0, 0, 0))
    # (12000, 0, 0, 0): 144000000 / 4096 = 35156 -> int16 -30380 < 0 -> squareRoot 0 -> 1 / 0.
    with pytest.raises(ConsoleDivisionByZero):
        normalize_quat((12000, 0, 0, 0))


def test_normalize_array_matches_the_hand_cases():
    q = np.array([IDENT, (2896, -2896, 0, 0), (0, 0, 0, 1), (512, 0, 0, 0), (128, 0, 0, 0), (64, 0, 0, 0)],
                 dtype=np.int16)
    out, bad = normalize_quat_array(q)
    assert out[:5].tolist() == [list(IDENT), [2896, -2897, 0, 0], list(IDENT), [-ONE, 0, 0, 0], [0, 0, 0, 0]]
    assert bad.tolist() == [False] * 5 + [True]
    # No console result there: the row holds zeros, as documented, for the caller to replace.
    assert out[5].tolist() == [0, 0, 0, 0]


def test_normalize_table_equals_the_scalar_square_root_for_every_int16():
    table = normalize_table()
    for s in range(-32768, 32768):
        if s == 0:
            continue
        idx = s & 0xFFFF
        try:
            r = normalize_scale(s)
        except ConsoleDivisionByZero:
            assert table.divides_by_zero[idx], s
        else:
            assert not table.divides_by_zero[idx], s
            assert table.scale[idx] == r, s
    # Where the console divides by zero, and at s == 0, the table holds the documented 0.
    assert not table.scale[table.divides_by_zero].any() and table.scale[0] == 0
    # The table is cached and shared by every playback: it must not be writable.
    for array in table:
        with pytest.raises(ValueError, match="read-only"):
            array[2] = 0


# --- Slerp (nlerp) -----------------------------------------------------------------------------


def test_slerp_factor_zero_and_one_pick_a_key():
    a, b = (2896, -2896, 0, 0), IDENT
    # (1 - 0) * a: 4096 * c / 4096 = c exactly; b * 0 = 0; then Normalize(a).
    assert engine_slerp(a, b, 0) == (2896, -2897, 0, 0)
    assert engine_slerp(a, b, ONE) == IDENT


def test_slerp_half_way():
    # 0.5 * (1,0,0,0) + 0.5 * (0,1,0,0) = (2048, 2048): s = 1024 + 1024 = 2048;
    # sqrt(2048): 1024/8192, 4608/1820, 3214/2610, 2912/2880, 2896/2896 -> 2896;
    # r = 16777216 // 2896 = 5793; 2048 * 5793 / 4096 = 2896.5 -> 2896.
    assert engine_slerp(IDENT, (0, ONE, 0, 0), 2048) == (2896, 2896, 0, 0)


def test_slerp_computes_the_flip_but_blends_the_unflipped_key():
    prev = IDENT
    nxt = (-2896, -2896, 0, 0)  # 90 degrees about +x, stored on the far hemisphere
    # The dot product is negative, so upstream builds -nxt ... and never uses it.
    assert quat_dot(prev, nxt) == -2896
    # 2048*4096/4096 + floor(-2896*2048/4096) = 2048 - 1448 = 600; x = floor(-1448) = -1448.
    # s = floor(360000/4096) + floor(2096704/4096) = 87 + 511 = 598; sqrt(598):
    # 299/8192, 4245/577, 2411/1015, 1713/1429, 1571/1559, 1565/1565 -> 1565;
    # r = 16777216 // 1565 = 10720; w = floor(600*10720/4096) = 1570,
    # x = floor(-1448*10720/4096) = floor(-3789.69) = -3790.
    got = engine_slerp(prev, nxt, 2048)
    assert got == (1570, -3790, 0, 0)
    # That is 135 degrees about -x (= 225 about +x): the long way. The shortest path
    # half-way point is 45 degrees about +x, a rotation 180 degrees away from it.
    angle, axis = angle_axis(np.array(got))
    assert angle == pytest.approx(135, abs=0.1)
    assert axis[0] == pytest.approx(-1)
    short = slerp(np.array(IDENT) / ONE, np.array(nxt) / ONE, 0.5)
    assert abs(np.dot(short, np.array(got) / np.linalg.norm(got))) < 0.01


# --- engine: frame counter -------------------------------------------------------------------


def one_key_clip(length: int, looping: bool = True) -> Animation:
    return clip([Track(0, [rot(0, IDENT)])], length, looping)


def test_vsync_helpers():
    assert vsync_deltas(3) == [1, 1, 1]
    assert vsync_deltas(4, step=2) == [2, 2, 2, 2]
    assert vsync_count(10, "ntsc") == 599  # 10 * 59.94
    assert vsync_count(10, "pal") == 500
    assert refresh_hz("NTSC") == pytest.approx(59.94, abs=0.001)


def test_loop_resets_to_zero_at_full_rate():
    # length 4, delta 1: 0 1 2 3, then current = 4 >= 4 -> 0.
    p = play_engine(one_key_clip(4), vsync_deltas(10))
    assert p.frames.tolist() == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert p.end_frame == 2


def test_half_rate_odd_length_skips_back_early():
    # length 5, delta 2: 0 2 4, then 6 -> reset to 0 (a modulo would give 1, 3, 0 ...).
    p = play_engine(one_key_clip(5), vsync_deltas(7, step=2))
    assert p.frames.tolist() == [0, 2, 4, 0, 2, 4, 0]


def test_hitch_resets_instead_of_wrapping():
    # 0, 1, 2 (+7 = 9), 9 >= 5 -> 0 (modulo would be 4), then end at 1.
    p = play_engine(one_key_clip(5), [1, 1, 7, 1])
    assert p.frames.tolist() == [0, 1, 2, 0]
    assert p.end_frame == 1


def test_one_shot_clamps_to_last_frame():
    p = play_engine(one_key_clip(5, looping=False), [1, 1, 7, 1, 1])
    assert p.frames.tolist() == [0, 1, 2, 4, 4]
    assert p.end_frame == 5
    p = play_engine(one_key_clip(3, looping=False), vsync_deltas(6))
    assert p.frames.tolist() == [0, 1, 2, 2, 2, 2]


def test_frame_counter_is_uint16():
    # 0 + 65534 = 65534 < 65535 plays; 65534 + 3 = 65537 wraps to 1, which is < length.
    p = play_engine(one_key_clip(65535, looping=False), [65534, 3, 1])
    assert p.frames.tolist() == [0, 65534, 1]
    assert p.end_frame == 2


def test_zero_length_clips():
    assert play_engine(one_key_clip(0), [1, 1, 1]).frames.tolist() == [0, 0, 0]
    # length - 1 stored into a uint16 is 65535.
    assert play_engine(one_key_clip(0, looping=False), [1, 1]).frames.tolist() == [65535, 65535]


def test_start_frame_continues_a_clip():
    p = play_engine(one_key_clip(5), [1, 1], start_frame=4)
    assert p.frames.tolist() == [4, 0]


# --- engine: what the bones receive ------------------------------------------------------------


def test_sparse_keys_hold_instead_of_interpolating():
    key0, key10 = (2896, 2896, 0, 0), IDENT
    anim = clip([Track(0, [rot(0, key0), rot(10, key10)])], length=12)
    p = play_engine(anim, vsync_deltas(12))
    # Frames 1..9: factor = (f - 0) / 10 = 0 in integer division -> Normalize(key0) = key0.
    for f in range(0, 10):
        assert tuple(p.rotations[f, 0]) == key0, f
    assert tuple(p.rotations[10, 0]) == key10
    assert tuple(p.rotations[11, 0]) == key10  # past the last key: hold it


def test_held_key_is_renormalised_each_tick():
    # Normalize((2896, -2896, 0, 0)) = (2896, -2897, 0, 0) (see the Normalize test): that,
    # not the stored key, is what every held frame shows.
    anim = clip([Track(0, [rot(0, (2896, -2896, 0, 0)), rot(4, IDENT)])], length=6)
    p = play_engine(anim, vsync_deltas(6))
    assert p.rotations[:4, 0].tolist() == [[2896, -2897, 0, 0]] * 4
    assert p.rotations[4:, 0].tolist() == [list(IDENT)] * 2


def test_bones_persist_and_only_rotation_next_keys_apply():
    qa, qb = (2896, 2896, 0, 0), (2896, 0, 2896, 0)
    rest = np.array([(2896, 0, 0, 2896), (0, ONE, 0, 0)], dtype=np.int16)
    # Joint 1: frames 0-1 bracket (R@0, R@2) -> qa; frames 2-3 bracket (R@2, T@4): next is a
    # TRANSLATION key, nothing is written, qa stays; frames 4-5: past the last key, which is
    # a TRANSLATION key: still qa. qb is never shown. Joint 0 has no track: rest, as given.
    anim = clip([Track(1, [rot(0, qa), rot(2, qb), TranslationKey(4, 0, 0, 0)])], length=6)
    p = play_engine(anim, vsync_deltas(8), rest_rotations=rest)
    assert p.frames.tolist() == [0, 1, 2, 3, 4, 5, 0, 1]
    assert p.rotations[:, 1].tolist() == [list(qa)] * 8
    assert p.rotations[:, 0].tolist() == [[2896, 0, 0, 2896]] * 8


def test_rotation_key_before_a_translation_key_is_never_applied():
    # (R@0, T@3): frames 0-2 have next = T (no write), frames >= 3 have next = prev = T.
    anim = clip([Track(0, [rot(0, (2896, 2896, 0, 0)), TranslationKey(3, 1, 2, 3)])], length=5)
    p = play_engine(anim, vsync_deltas(5), rest_rotations=[(0, 0, ONE, 0)])
    assert p.rotations[:, 0].tolist() == [[0, 0, ONE, 0]] * 5


def test_translation_prev_is_read_through_the_union():
    # A TRANSLATION prev with x = 2896 | 2896 << 16 and y = 0 reads as (2896, 2896, 0, 0).
    t_key = TranslationKey(0, 2896 | (2896 << 16), 0, 77)
    assert key_rotation_view(t_key) == (2896, 2896, 0, 0)
    # Negative x = -1 is 0xFFFFFFFF: both halves -1.
    assert key_rotation_view(TranslationKey(0, -1, 0x0001_0002, 0)) == (-1, -1, 2, 1)
    anim = clip([Track(0, [t_key, rot(5, IDENT)])], length=6)
    p = play_engine(anim, vsync_deltas(6))
    assert p.rotations[:5, 0].tolist() == [[2896, 2896, 0, 0]] * 5
    assert tuple(p.rotations[5, 0]) == IDENT


def test_unknown_prev_reads_zeros_and_normalises_to_identity():
    anim = clip([Track(0, [UnknownKey(0, 7), rot(3, (2896, 2896, 0, 0))])], length=4)
    p = play_engine(anim, vsync_deltas(4), rest_rotations=[(0, ONE, 0, 0)])
    # frames 0-2: Slerp((0,0,0,0), next, 0) = (0,0,0,0) -> s == 0 -> identity, written.
    assert p.rotations[:3, 0].tolist() == [list(IDENT)] * 3
    assert tuple(p.rotations[3, 0]) == (2896, 2896, 0, 0)


def test_empty_track_does_not_crash_and_is_reported():
    anim = clip([Track(0, []), Track(1, [rot(0, (2896, 2896, 0, 0))])], length=3)
    rest = [(0, ONE, 0, 0), IDENT]
    p = play_engine(anim, vsync_deltas(4), rest_rotations=rest)
    assert p.rotations[:, 0].tolist() == [[0, ONE, 0, 0]] * 4  # default stand-in: unchanged
    assert p.rotations[:, 1].tolist() == [[2896, 2896, 0, 0]] * 4
    [event] = p.events
    assert (event.kind, event.track, event.joint_id, event.count) == (EngineEventKind.EMPTY_TRACK, 0, 0, 4)
    p = play_engine(anim, vsync_deltas(2), rest_rotations=rest, empty_track="identity")
    assert p.rotations[:, 0].tolist() == [list(IDENT)] * 2


def test_division_by_zero_leaves_the_bone_and_is_reported():
    # (64, 0, 0, 0): s == 1 -> 1 / squareRoot(1) = 1 / 0 on the console.
    anim = clip([Track(0, [rot(0, (64, 0, 0, 0)), rot(2, IDENT)])], length=3)
    p = play_engine(anim, vsync_deltas(3), rest_rotations=[(0, 0, 0, ONE)])
    assert p.rotations[:, 0].tolist() == [[0, 0, 0, ONE], [0, 0, 0, ONE], list(IDENT)]
    [event] = p.events
    assert (event.kind, event.first_tick, event.count) == (EngineEventKind.DIVISION_BY_ZERO, 0, 2)


def test_joint_ids_past_the_skeleton():
    anim = clip([Track(5, [rot(0, IDENT)]), Track(16, [rot(0, IDENT)])], length=2)
    p = play_engine(anim, vsync_deltas(2), num_joints=2)
    assert p.rotations.shape == (2, 2, 4)
    assert {e.kind for e in p.events} == {EngineEventKind.JOINT_OUT_OF_RANGE}
    # Default joint count covers jointId 16, past the console's 15 bones: flagged, applied.
    p = play_engine(anim, vsync_deltas(2))
    assert p.rotations.shape == (2, 17, 4)
    assert [e.kind for e in p.events] == [EngineEventKind.JOINT_BEYOND_MAX_BONES]


def test_later_track_on_the_same_joint_wins():
    anim = clip([Track(0, [rot(0, (2896, 2896, 0, 0))]), Track(0, [rot(0, IDENT)])], length=1)
    assert play_engine(anim, [1]).rotations[0, 0].tolist() == list(IDENT)


def test_skeleton_stepper_matches_a_hand_sequence():
    anim = clip([Track(0, [rot(0, (2896, 2896, 0, 0)), rot(2, IDENT)])], length=3)
    sk = EngineSkeleton(animation=anim)
    # tick 0: frame 0 -> (2896, 2896); tick 1: frame 1, same; tick 2: frame 2, last key ->
    # identity; counter is now 3, which only resets at the next call.
    assert [sk.play(1) for _ in range(3)] == [0, 1, 2]
    assert sk.local_rotations == [IDENT]
    assert sk.current_frame == 3
    # tick 3: 3 >= 3 -> 0, key 0 again; 0 + 2 = 2.
    assert sk.play(2) == 0
    assert sk.local_rotations == [(2896, 2896, 0, 0)]
    assert sk.current_frame == 2
    # SetAnimation is a cut: counter to 0, bones untouched.
    sk.set_animation(anim)
    assert (sk.current_frame, sk.local_rotations) == (0, [(2896, 2896, 0, 0)])


# --- engine: the fast player against the literal stepper --------------------------------------

s16 = st.integers(-0x8000, 0x7FFF)
near_unit = st.sampled_from([IDENT, (2896, 2896, 0, 0), (2896, -2896, 0, 0), (0, 0, 0, ONE), (-ONE, 0, 0, 0),
                             (64, 0, 0, 0), (512, 0, 0, 0), (16384, 16384, 0, 0)])
quats = st.one_of(near_unit, st.tuples(s16, s16, s16, s16))
frame = st.integers(0, 40)
any_key = st.one_of(
    st.builds(lambda f, q: rot(f, q), frame, quats),
    st.builds(TranslationKey, frame, st.integers(-2**31, 2**31 - 1), st.integers(-2**31, 2**31 - 1), st.just(0)),
    st.builds(UnknownKey, frame, st.integers(2, 255)),
)
sorted_keys = st.lists(st.builds(lambda f, q: rot(f, q), frame, quats), max_size=5).map(
    lambda ks: sorted(ks, key=lambda k: k.frame))
track_strategy = st.builds(Track, st.integers(0, 17), st.one_of(sorted_keys, st.lists(any_key, max_size=5)))
anim_strategy = st.builds(
    lambda tracks, length, looping: clip(tracks, length, looping),
    st.lists(track_strategy, max_size=4), st.integers(0, 45), st.booleans())
delta_strategy = st.lists(st.one_of(st.integers(0, 3), st.integers(0, 70000)), max_size=25)


@settings(max_examples=300, deadline=None)
@given(anim_strategy, delta_strategy, st.sampled_from(["unchanged", "identity"]), st.booleans())
def test_play_engine_equals_the_tick_by_tick_stepper(anim, deltas, policy, narrow):
    num_joints = 3 if narrow else None
    fast = play_engine(anim, deltas, num_joints=num_joints, empty_track=policy)
    sk = EngineSkeleton(num_joints=num_joints, empty_track=policy, animation=anim)
    frames, rotations = [], []
    for d in deltas:
        frames.append(sk.play(d))
        rotations.append(list(sk.local_rotations))
    assert fast.frames.tolist() == frames
    assert fast.rotations.shape == (len(deltas), len(sk.local_rotations), 4)
    assert fast.rotations.tolist() == [[list(q) for q in r] for r in rotations]
    assert fast.end_frame == sk.current_frame
    as_tuples = lambda evs: sorted((e.kind.value, e.track, e.joint_id, e.first_tick, e.first_frame, e.count) for e in evs)
    assert as_tuples(fast.events) == as_tuples(sk.events)


# --- reference mode ----------------------------------------------------------------------------


def test_reference_slerp_known_angles():
    # 0 degrees at frame 0, 90 degrees about +x at frame 10 (cos 45 = sin 45 = 2896/4096).
    anim = clip([Track(0, [rot(0, IDENT), rot(10, (2896, 2896, 0, 0))])], length=11, looping=False)
    r = sample_reference_frames(anim, [0, 2.5, 5, 10, 20])
    angles = [angle_axis(q)[0] for q in r.rotations[:, 0]]
    assert angles == pytest.approx([0, 22.5, 45, 90, 90], abs=1e-9)
    assert angle_axis(r.rotations[2, 0])[1] == pytest.approx([1, 0, 0])
    assert r.frames.tolist() == [0, 2.5, 5, 10, 10]  # one-shot: clamped to length - 1


def test_reference_is_true_slerp_not_nlerp():
    # 0 -> 160 degrees about z over 8 frames: slerp is linear in angle, 40 degrees at frame 2.
    # (nlerp would give 2*atan(0.25*sin80 / (0.75 + 0.25*cos80)) = 33.4 degrees.)
    half = math.radians(80)
    q160 = (round(math.cos(half) * ONE), 0, 0, round(math.sin(half) * ONE))
    anim = clip([Track(0, [rot(0, IDENT), rot(8, q160)])], length=9)
    r = sample_reference_frames(anim, [2])
    assert angle_axis(r.rotations[0, 0])[0] == pytest.approx(40, abs=0.05)


def test_reference_takes_the_short_way():
    # The same 90 degrees about +x, stored with negative w: half-way is still 45 about +x.
    anim = clip([Track(0, [rot(0, IDENT), rot(10, (-2896, -2896, 0, 0))])], length=11)
    angle, axis = angle_axis(sample_reference_frames(anim, [5]).rotations[0, 0])
    assert angle == pytest.approx(45)
    assert axis == pytest.approx([1, 0, 0])


def test_reference_ntsc_runs_faster_than_pal():
    # 59 degrees about z at frame 59 from 0 at frame 0: angle == frame number.
    s59 = math.radians(59 / 2)
    anim = clip([Track(0, [rot(0, IDENT), rot(59, (round(math.cos(s59) * ONE), 0, 0, round(math.sin(s59) * ONE)))])],
                length=60)
    ntsc = sample_reference(anim, [0.5, 1.1], refresh="ntsc")
    pal = sample_reference(anim, [0.5, 1.1], refresh=50)
    # 0.5 s: 29.97 frames on NTSC, 25 on PAL. 1.1 s: 65.93 mod 60 = 5.93 vs 55.
    assert ntsc.frames == pytest.approx([0.5 * 60000 / 1001, 1.1 * 60000 / 1001 - 60])
    assert pal.frames == pytest.approx([25, 55])
    got = [angle_axis(q)[0] for q in np.concatenate([ntsc.rotations[:, 0], pal.rotations[:, 0]])]
    assert got == pytest.approx([29.97, 5.934, 25, 55], abs=0.01)
    assert ntsc.times.tolist() == [0.5, 1.1]


def test_reference_translation_lerp_and_rest():
    anim = clip([Track(1, [TranslationKey(0, 0, 0, 0), TranslationKey(4, 2 * ONE, -ONE, 0)])], length=5)
    rest_t = [(ONE, 0, 0), (0, 0, 0)]
    r = sample_reference_frames(anim, [1, 4], rest_translations=rest_t)
    # frame 1: a quarter of (2.0, -1.0, 0).
    assert r.translations[:, 1].tolist() == [[0.5, -0.25, 0.0], [2.0, -1.0, 0.0]]
    assert r.translations[:, 0].tolist() == [[1.0, 0, 0]] * 2  # no keys: rest
    assert r.has_translation.tolist() == [False, True]
    assert r.has_rotation.tolist() == [False, False]
    assert r.rotations[:, :, 0].tolist() == [[1.0, 1.0]] * 2  # identity rest


def test_reference_looping_is_a_modulo():
    anim = clip([Track(0, [rot(0, IDENT), rot(10, (2896, 2896, 0, 0))])], length=20)
    r = sample_reference_frames(anim, [25, -15, 15])
    assert r.frames.tolist() == [5, 5, 15]
    assert angle_axis(r.rotations[0, 0])[0] == pytest.approx(45)
    assert angle_axis(r.rotations[2, 0])[0] == pytest.approx(90)  # past the last key: held


def test_sample_times():
    assert sample_times(0.1, 50).tolist() == pytest.approx([0, 0.02, 0.04, 0.06, 0.08])


def test_engine_and_reference_agree_on_a_dense_exported_clip():
    # Exporter-like clip: a key on every frame. The engine shows Normalize(key) per frame, the
    # reference the key itself: they differ by FP12 rounding only.
    rng = np.random.default_rng(7)
    tracks = []
    for j in range(3):
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        keys = []
        for f in range(30):
            half = math.radians(3 * f) / 2
            q = [math.cos(half), *(math.sin(half) * axis)]
            keys.append(rot(f, tuple(int(c * ONE) for c in q)))
        tracks.append(Track(j, keys))
    anim = clip(tracks, length=30)
    engine = play_engine(anim, vsync_deltas(45))
    ref = sample_reference_frames(anim, engine.frames.astype(float))
    diff = np.abs(engine.rotations_float() - ref.rotations)
    assert diff.max() < 3 / ONE


# --- gaps a mutation run found (issue 17) --------------------------------------------------------


def test_vsync_deltas_accept_zero_and_refuse_negatives():
    assert vsync_deltas(0) == [] and vsync_deltas(3, 0) == [0, 0, 0] and vsync_deltas(2, 2) == [2, 2]
    for args in ((-1,), (1, -1)):
        with pytest.raises(ValueError, match="non-negative"):
            vsync_deltas(*args)


def test_key_views_of_translation_and_unknown_keys():
    # x = 0x0002_0001 -> w = low half 1, x = high half 2; y = 0xFFFF_FFFD (-3) -> y = -3, z = -1.
    assert key_rotation_view(TranslationKey(0, 0x0002_0001, -3, 7)) == (1, 2, -3, -1)
    assert key_rotation_view(UnknownKey(0, 9)) == (0, 0, 0, 0)


def test_a_clip_without_tracks_has_no_joints():
    assert play_engine(clip([], 5), [1, 1]).rotations.shape == (2, 0, 4)
    assert sample_reference_frames(clip([], 5), [0.0]).rotations.shape == (1, 0, 4)
    assert EngineSkeleton().current_frame == 0 and EngineSkeleton(animation=clip([], 5)).current_frame == 0
    assert EngineSkeleton().local_rotations == [] and EngineSkeleton(animation=clip([], 5)).local_rotations == []


def test_joints_without_keys_show_the_identity_rest_or_the_given_one():
    anim = clip([Track(1, [rot(0, (0, ONE, 0, 0))])], 5)
    assert play_engine(anim, [1]).rotations[0].tolist() == [list(IDENT), [0, ONE, 0, 0]]
    rest = [(0, 0, 0, ONE), (ONE, 0, 0, 0)]
    assert play_engine(anim, [1], rest_rotations=rest).rotations[0].tolist() == [[0, 0, 0, ONE], [0, ONE, 0, 0]]
    for bad in ([(ONE, 0, 0)] * 2, [ONE, 0, 0, 0]):
        with pytest.raises(ValueError):
            play_engine(anim, [1], rest_rotations=bad)


def test_held_key_is_the_engine_s_normalise_worked_by_hand():
    # (4000, 100, 0, 0): s = 16000000 >> 12 + 10000 >> 12 = 3906 + 2 = 3908. squareRoot(3908):
    # x0 = 1954, x1 = 8192; 5073, 3155; 4114, 3890; 4002, 3999; 4000, 4001 -> 4000.
    # r = 4096 * 4096 // 4000 = 4194; (4000 * 4194) >> 12 = 4095, (100 * 4194) >> 12 = 102.
    anim = clip([Track(0, [rot(2, (4000, 100, 0, 0))])], length=6, looping=False)
    out = play_engine(anim, [1, 2, 9, 1])  # a tick samples, then advances by its delta
    assert out.frames.tolist() == [0, 1, 3, 5]  # before the key, on it, after it, clamped
    assert out.rotations[:, 0].tolist() == [[4095, 102, 0, 0]] * 4
    sk = EngineSkeleton(animation=anim)
    for delta in (1, 2, 9, 1):
        sk.play(delta)
        assert sk.local_rotations[0] == (4095, 102, 0, 0)


def test_keys_on_the_same_frame_take_the_last_of_them():
    # Frames 0, 5, 5, 9: at frame 5 the first bracket [k, k+1) holding 5 is [k2, k3), so k2
    # shows (normalised), not k1.
    keys = [rot(0, (0, 0, ONE, 0)), rot(5, (0, ONE, 0, 0)), rot(5, IDENT), rot(9, (0, 0, 0, ONE))]
    anim = clip([Track(0, keys)], length=10)
    out = play_engine(anim, [5, 1])
    assert out.frames.tolist() == [0, 5] and out.rotations[1, 0].tolist() == list(IDENT)
    sk = EngineSkeleton(animation=anim)
    sk.play(5)
    assert sk.play(1) == 5 and sk.local_rotations[0] == IDENT


def test_reference_brackets_before_between_and_after_keys():
    # Translation x: 1.0 at frame 4, 3.0 at frame 8, 4.0 at frame 9. Before the first key it
    # holds, then lerps (frame 6: half way, 8.5: half way over a one-frame span), then holds.
    keys = [TranslationKey(4, ONE, 0, 0), TranslationKey(8, 3 * ONE, 0, 0), TranslationKey(9, 4 * ONE, 0, 0)]
    anim = clip([Track(0, keys)], length=12, looping=False)
    r = sample_reference_frames(anim, [0, 4, 6, 8, 8.5, 9, 11])
    assert r.translations[:, 0, 0].tolist() == [1.0, 1.0, 2.0, 3.0, 3.5, 4.0, 4.0]
    assert r.has_translation.tolist() == [True] and r.has_rotation.tolist() == [False]


def test_reference_rotation_flags_and_rest_rotations():
    anim = clip([Track(1, [rot(0, (0, ONE, 0, 0))])], length=4)
    rest = [(0, 0, 0, 2 * ONE), (ONE, 0, 0, 0)]  # not unit: normalised
    r = sample_reference_frames(anim, [0, 1], rest_rotations=rest)
    assert r.has_rotation.tolist() == [False, True]
    assert r.rotations[:, 0].tolist() == [[0.0, 0.0, 0.0, 1.0]] * 2
    assert r.rotations[:, 1].tolist() == [[0.0, 1.0, 0.0, 0.0]] * 2
    assert sample_reference_frames(anim, [0], rest_rotations=rest, num_joints=2).rotations.shape == (1, 2, 4)
    for bad in ([(ONE, 0, 0)] * 2, [ONE, 0, 0, 0], [[[ONE, 0, 0, 0]]] * 2):
        with pytest.raises(ValueError, match="shape"):
            sample_reference_frames(anim, [0], rest_rotations=bad)
    with pytest.raises(ValueError, match="num_joints disagrees"):
        sample_reference_frames(anim, [0], rest_rotations=rest, num_joints=3)


def test_reference_frames_of_a_one_frame_clip():
    # Looping: frame 2.5 is 0.5 into the only frame; one-shot: clamped to 0.
    assert sample_reference_frames(clip([], 1, looping=True), [2.5]).frames.tolist() == [0.5]
    assert sample_reference_frames(clip([], 1, looping=False), [2.5]).frames.tolist() == [0.0]
    assert sample_reference_frames(clip([], 0), [2.5]).frames.tolist() == [0.0]


def test_sample_times_edges():
    # Nothing to sample in no time; a duration a hair over a whole number of samples (float
    # rounding, under 1e-9) does not add one, a bit more does.
    assert sample_times(0.0, 50).size == 0 and sample_times(-1.0, 50).size == 0
    assert sample_times(1 + 0.5e-9, 1.0).tolist() == [0.0]
    assert sample_times(1 + 1.5e-9, 1.0).tolist() == [0.0, 1.0]


def test_reference_ignores_tracks_past_the_joint_count():
    anim = clip([Track(0, [rot(0, (0, ONE, 0, 0))]), Track(1, [rot(0, (0, 0, ONE, 0))])], 4)
    r = sample_reference_frames(anim, [0], num_joints=1)
    assert r.rotations.tolist() == [[[0.0, 1.0, 0.0, 0.0]]] and r.has_rotation.tolist() == [True]
