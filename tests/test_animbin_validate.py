"""Each validator code is triggered by a fixture made for it, and absent on a clean file."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, anim_header, header, marker, one_clip, raw_key, rot_key, track_header, trans_key

from animspec.animbin import read_bytes, validate
from animspec.animbin.playback import play_engine
from animspec.animbin.validate import UNIT_SUMS, rotation_frames
from animspec.common.findings import Severity

ID = (4096, 0, 0, 0)


def keys_every_frame(n: int, start: int = 0) -> list[bytes]:
    return [rot_key(start + f, *ID) for f in range(n)]


def clip_with_tracks(track_blobs: list[bytes], *, length: int = 10, markers: list[bytes] = (), name: bytes = b"c") -> bytes:
    return anim_header(name, 1, length, len(track_blobs), len(markers)) + b"".join(track_blobs) + b"".join(markers)


def track(joint: int, keys: list[bytes]) -> bytes:
    return track_header(0, joint, len(keys)) + b"".join(keys)


CLEAN = header(1) + clip_with_tracks([track(0, keys_every_frame(10)), track(1, keys_every_frame(10))])

CASES = {
    "too-many-animations": (header(6) + clip_with_tracks([track(0, keys_every_frame(10))]) * 6, Severity.ERROR),
    "too-many-tracks": (header(1) + clip_with_tracks([track(j % 15, keys_every_frame(10)) for j in range(51)]), Severity.ERROR),
    "too-many-keys": (one_clip(keys_every_frame(31), length=31), Severity.ERROR),
    "too-many-markers": (header(1) + clip_with_tracks([track(0, keys_every_frame(10))], markers=[marker(b"m", 1)] * 6), Severity.ERROR),
    "name-not-terminated": (one_clip(keys_every_frame(10), name=b"N" * 32), Severity.ERROR),
    "unknown-key-type": (one_clip([rot_key(0, *ID), raw_key(1, 5)] + keys_every_frame(8, start=2)), Severity.ERROR),
    "empty-track": (one_clip([]), Severity.ERROR),
    "joint-out-of-range": (one_clip(keys_every_frame(10), joint=15), Severity.ERROR),
    "keys-not-increasing": (one_clip([rot_key(0, *ID), rot_key(2, *ID), rot_key(1, *ID)], length=3), Severity.WARNING),
    "key-after-end": (one_clip(keys_every_frame(11), length=10), Severity.WARNING),
    "translation-ignored": (one_clip(keys_every_frame(10) + [trans_key(9, 1, 2, 3)], length=10), Severity.WARNING),
    "sparse-keys": (one_clip([rot_key(0, *ID), rot_key(5, *ID), rot_key(9, *ID)]), Severity.WARNING),
    "not-unit-quaternion": (one_clip([rot_key(0, 2048, 0, 0, 0)] + keys_every_frame(9, start=1)), Severity.WARNING),
    "duplicate-joint": (header(1) + clip_with_tracks([track(2, keys_every_frame(10)), track(2, keys_every_frame(10))]), Severity.WARNING),
    "duplicate-animation-name": (header(2) + clip_with_tracks([track(0, keys_every_frame(10))]) * 2, Severity.WARNING),
    "trailing-bytes": (CLEAN + b"\0", Severity.WARNING),
    "unknown-flags": (header(1) + anim_header(b"f", 0x11, 10, 1, 0) + track(0, keys_every_frame(10)), Severity.INFO),
    "zero-length": (one_clip([rot_key(0, *ID)], length=0), Severity.WARNING),
    "marker-name-not-terminated": (header(1) + clip_with_tracks([track(0, keys_every_frame(10))], markers=[marker(b"M" * 32, 1)]), Severity.WARNING),
}


def codes(data: bytes, **options) -> dict[str, Severity]:
    return {f.code: f.severity for f in validate(read_bytes(data), **options)}


def test_clean_file_has_no_findings():
    assert codes(CLEAN) == {}


@pytest.mark.parametrize("example", ["swing.animbin"])
def test_shipped_sample_has_no_findings(example):
    assert codes((EXAMPLES / example).read_bytes()) == {}


@pytest.mark.parametrize("code", sorted(CASES))
def test_code_is_reported_with_its_severity(code):
    data, severity = CASES[code]
    found = codes(data)
    assert found.get(code) == severity, found


# What else a fixture unavoidably triggers (51 tracks on 15 joints repeat a joint, ...).
ALSO = {
    "keys-not-increasing": {"sparse-keys"},
    "too-many-animations": {"duplicate-animation-name"},
    "too-many-tracks": {"duplicate-joint"},
    "translation-ignored": {"keys-not-increasing"},
    "zero-length": {"key-after-end"},
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_fixture_triggers_only_its_own_code(code):
    # A check that fired on the wrong fixtures would show up here.
    assert set(codes(CASES[code][0])) == {code} | ALSO.get(code, set())


def test_joint_limit_follows_the_skeleton_bone_count():
    data = one_clip(keys_every_frame(10), joint=6)
    assert "joint-out-of-range" not in codes(data)
    assert codes(data, bone_count=6)["joint-out-of-range"] is Severity.ERROR
    assert "joint-out-of-range" not in codes(data, bone_count=7)


def test_limits_are_inclusive_at_the_engine_capacity():
    at_capacity = (
        header(5)
        + b"".join(
            clip_with_tracks([track(j % 15, keys_every_frame(30)) for j in range(50)], length=30,
                             markers=[marker(b"m", 1)] * 5, name=bytes([65 + i]))
            for i in range(5)
        )
    )
    found = codes(at_capacity)
    for code in ("too-many-animations", "too-many-tracks", "too-many-keys", "too-many-markers"):
        assert code not in found


def test_finding_locates_the_key():
    findings = validate(read_bytes(CASES["unknown-key-type"][0]))
    (f,) = [f for f in findings if f.code == "unknown-key-type"]
    assert f.where == {"animation": 0, "animation_name": "clip", "track": 0, "joint": 0, "key": 1}
    assert "key type 5" in f.message


def test_sparse_sample_warns_about_stepping():
    found = codes((EXAMPLES / "sparse.animbin").read_bytes())
    assert found == {"sparse-keys": Severity.WARNING}


# --- duplicate-joint: only tracks the engine applies compete for a joint -------------------


def duplicate_messages(data: bytes) -> list[tuple[int, str]]:
    return [(f.where["track"], f.message) for f in validate(read_bytes(data)) if f.code == "duplicate-joint"]


def test_translation_only_track_never_duplicates_a_joint():
    """The engine applies a track only when the next key is a ROTATION key, so a track of
    translation keys never touches its bone (the engine's skeleton.cpp, PlayAnimation), before or
    after the rotation track."""
    rotation = track(2, keys_every_frame(10))
    moves = track(2, [trans_key(0, 1, 2, 3), trans_key(5, 4, 5, 6)])
    for tracks in ([rotation, moves], [moves, rotation], [moves, rotation, moves]):
        data = header(1) + clip_with_tracks(tracks)
        assert duplicate_messages(data) == []
        assert codes(data)["translation-ignored"] is Severity.WARNING
    # ... and two rotation tracks still do, with a translation-only track in between.
    data = header(1) + clip_with_tracks([moves, rotation, moves, rotation])
    assert duplicate_messages(data) == [(3, "track 1 rotates the same joint; this later track overwrites it every frame")]


def engine_writes(data: bytes) -> int:
    """On how many frames play_engine writes the joint of the file's single track: one tick
    at each frame, from two different rest rotations (a write shows against one of them)."""
    anim = read_bytes(data).animations[0]
    rests = ([[0, 4096, 0, 0]], [[0, 0, 4096, 0]])
    return sum(
        any(play_engine(anim, [0], start_frame=f, rest_rotations=r).rotations[0, 0].tolist() != r[0] for r in rests)
        for f in range(anim.length)
    )


# At frame f the engine applies a track only when the key search's NEXT key is a rotation
# (playback step 2: the next key is key j+1 inside [key j, key j+1), key 0 before the first
# key, the last key from the last key on).
MIXED = [
    ([rot_key(0, *ID), trans_key(4, 1, 1, 1)], 0),  # next is the translation everywhere
    ([rot_key(3, *ID), trans_key(4, 1, 1, 1)], 3),  # frames 0-2, before key 0: next = key 0
    ([trans_key(0, 1, 1, 1), rot_key(4, *ID)], 10),  # next is the rotation everywhere
    ([trans_key(0, 1, 1, 1), rot_key(4, *ID), trans_key(6, 1, 1, 1)], 4),  # frames 0-3
    ([trans_key(0, 1, 1, 1), rot_key(1, *ID), trans_key(9, 1, 1, 1)], 1),  # frame 0 only
    ([trans_key(0, 1, 1, 1), trans_key(1, 1, 1, 1), rot_key(9, *ID)], 9),  # frames 1-8, then 9 (the last key)
]


@pytest.mark.parametrize("keys, frames", MIXED)
def test_mixed_track_overwrites_on_the_frames_the_engine_applies_it(keys, frames):
    alone = one_clip(keys)
    assert engine_writes(alone) == frames  # the hand count agrees with engine-faithful playback
    assert rotation_frames(read_bytes(alone).animations[0].tracks[0], range(10)) == frames
    data = header(1) + clip_with_tracks([track(2, keys_every_frame(10)), track(2, keys)])
    expected = [] if frames == 0 else [(1, "track 0 rotates the same joint; this later track overwrites it " + (
        "every frame" if frames == 10 else f"on {frames} of the 10 frames played (those whose next key is a ROTATION key)"))]
    assert duplicate_messages(data) == expected


def test_zero_length_clip_counts_the_one_frame_it_shows():
    # length 0: a looping clip sits at frame 0, a one-shot clip at 65535 (past every key).
    keys = [rot_key(0, *ID), trans_key(5, 1, 1, 1)]
    rotation = track(2, [rot_key(0, *ID)])
    for flags, dup in ((1, []), (0, [])):
        data = header(1) + anim_header(b"z", flags, 0, 2, 0) + rotation + track(2, keys)
        assert duplicate_messages(data) == dup
    later = track(2, [trans_key(0, 1, 1, 1), rot_key(5, *ID)])
    for flags in (0, 1):
        data = header(1) + anim_header(b"z", flags, 0, 2, 0) + rotation + later
        assert duplicate_messages(data) == [(1, "track 0 rotates the same joint; this later track overwrites it every frame")]


# |q| / 4096 within UNIT_TOLERANCE (0.01) of 1: 4056 and 4136 are inside (0.99023, 1.00977),
# 4055 and 4137 just outside (0.98999, 1.01001); off-axis, (2925, 2925) is 1.00991 (inside)
# and (2926, 2926) 1.01025 (outside).
@pytest.mark.parametrize("w, x, reported, shown", [
    (4056, 0, False, None), (4136, 0, False, None), (4055, 0, True, "0.9900"), (4137, 0, True, "1.0100"),
    (0, -4137, True, "1.0100"), (2896, 2896, False, None), (2925, 2925, False, None), (2926, 2926, True, "1.0103"),
])
def test_unit_quaternion_tolerance_boundary(w, x, reported, shown):
    found = [f for f in validate(read_bytes(one_clip([rot_key(f, w, x, 0, 0) for f in range(10)])))
             if f.code == "not-unit-quaternion"]
    assert len(found) == (10 if reported else 0)
    if reported:
        assert [f.where["key"] for f in found] == list(range(10))
        assert found[0].message.startswith(f"quaternion length {shown}, not 1 (the engine renormalises")


def test_all_zero_quaternion_is_named_as_such():
    found = [f for f in validate(read_bytes(one_clip([rot_key(f, 0, 0, 0, 0) for f in range(10)])))
             if f.code == "not-unit-quaternion"]
    assert len(found) == 10 and "quaternion length 0.0000, not 1 (all zero" in found[0].message


def test_unit_sum_range_is_exactly_the_length_formula():
    """The validator checks w*w + x*x + y*y + z*z against an integer range; every sum near
    both of its edges must get the answer of the float formula it replaces."""
    import math

    from animspec.animbin.validate import UNIT_SUMS, UNIT_TOLERANCE

    low, high = UNIT_SUMS
    assert low < 4096 * 4096 < high
    for s in [*range(low - 20_000, low + 20_000), *range(high - 20_000, high + 20_000), 0, 1, 2**32]:
        assert (low <= s <= high) == (abs(math.sqrt(s) / 4096 - 1.0) <= UNIT_TOLERANCE), s


@pytest.mark.parametrize("frames, widest, key", [
    ([0, 2, 7, 9], 5, 2),  # gaps 2, 5, 2: the widest ends at key 2
    ([0, 3, 4, 9], 5, 3),  # the widest is the last gap
    ([0, 4, 8, 9], 4, 1),  # two gaps of 4: the first is named
    ([0, 2, 3, 4, 5, 6, 7, 8, 9], 2, 1),  # one gap of 2, the smallest that steps
])
def test_sparse_keys_names_the_key_after_the_widest_gap(frames, widest, key):
    findings = validate(read_bytes(one_clip([rot_key(f, *ID) for f in frames])))
    (f,) = [f for f in findings if f.code == "sparse-keys"]
    assert f.where == {"animation": 0, "animation_name": "clip", "track": 0, "joint": 0, "key": key}
    assert f.message.startswith(f"up to {widest} frames between keys (widest before key {key});")


@pytest.mark.parametrize("w, reported", [
    # |q| = w / 4096 for (w, 0, 0, 0); the tolerance is 0.01 either side of 1, so the
    # boundary sits between 4136 (1.00977) and 4137 (1.01001), 4055 (0.98999) and 4056 (0.99023).
    (4136, False), (4137, True), (4056, False), (4055, True),
    (4096 + 409, True),  # 1.0999: outside 0.01, inside a tolerance of 0.1
])
def test_unit_quaternion_tolerance_at_its_boundary(w, reported):
    found = codes(one_clip([rot_key(0, w, 0, 0, 0)] + keys_every_frame(9, start=1)))
    assert ("not-unit-quaternion" in found) is reported, (w, found)
    assert set(found) <= {"not-unit-quaternion"}


def test_unit_quaternion_length_counts_every_component():
    rest = keys_every_frame(9, start=1)
    # (2048, 2048, 2048, 2048) has length 4096: unit, though no component is near 4096.
    assert codes(one_clip([rot_key(0, 2048, 2048, 2048, 2048)] + rest)) == {}
    # sqrt(3 * 2048^2 + 2200^2) / 4096 = 1.01906: outside, and z is what put it there.
    (f,) = validate(read_bytes(one_clip([rot_key(0, 2048, 2048, 2048, 2200)] + rest)))
    assert (f.code, f.where["key"]) == ("not-unit-quaternion", 0)
    assert f.message.startswith("quaternion length 1.0191, not 1 (the engine renormalises")
    (f,) = validate(read_bytes(one_clip([rot_key(0, 0, 0, 0, 0)] + rest)))
    assert f.message == "quaternion length 0.0000, not 1 (all zero: the engine's Normalize turns it into the identity)"


# Issue 15: the per-key checks run over a track's columns first (frames, quaternion values,
# read from a packed table without decoding it) and key by key only where there is a
# finding. Frames and lengths overlap (a key at, just before or past the end). Oracle: the same validation with the column path turned off (every track taken
# for one that may hold other key types, so every key goes through the per-key loop).
from itertools import accumulate  # noqa: E402
from unittest import mock  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import s2, tracks as any_tracks  # noqa: E402

from animspec.animbin import Animation, AnimbinFile, Name, RotationKey, Track, write_bytes  # noqa: E402

_unit = st.sampled_from([ID, (0, 4096, 0, 0), (2896, 2896, 0, 0), (4055, 0, 0, 0)])  # within the tolerance
_quaternion_lists = st.one_of(  # half the tracks all unit: only those can take the column path
    st.lists(_unit, min_size=8, max_size=8),
    st.lists(st.one_of(_unit, st.sampled_from([(4137, 0, 0, 0), (0, 0, 0, 0)]), st.tuples(s2, s2, s2, s2)),
             min_size=8, max_size=8),
)
_frames = st.one_of(
    *[st.lists(st.integers(low, high), min_size=1, max_size=8).map(lambda steps: list(accumulate(steps, initial=0))[:-1])
      for low, high in ((1, 4), (0, 2))],  # increasing; with repeated frames
    st.lists(st.integers(0, 12), min_size=1, max_size=8),  # any order
)
_rotation_tracks = st.builds(
    lambda joint, frames, qs: Track(joint, [RotationKey(f, *q) for f, q in zip(frames, qs)]),
    st.integers(0, 16), _frames, _quaternion_lists,
)
_models = st.builds(
    AnimbinFile,
    animations=st.lists(st.builds(Animation, name=st.just(Name(b"a")), length=st.integers(0, 18),
                                  tracks=st.lists(st.one_of(_rotation_tracks, _rotation_tracks, any_tracks), max_size=5)),
                        min_size=1, max_size=2),
)


@given(_models)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_the_column_checks_find_what_the_per_key_loop_finds(model):
    data = write_bytes(model)
    fast = validate(read_bytes(data))
    with mock.patch("animspec.animbin.keys.all_rotation", lambda keys: False):
        slow = validate(read_bytes(data))
    assert fast == slow


def test_the_column_path_is_taken_for_a_packed_track_without_decoding_it():
    model = read_bytes(one_clip([rot_key(0, *ID), rot_key(5, *ID), rot_key(9, 2048, 0, 0, 0)]))
    keys = model.animations[0].tracks[0].keys
    found = [(f.code, f.where.get("key")) for f in validate(model)]
    assert found == [("not-unit-quaternion", 2), ("sparse-keys", 1)]
    assert keys.records is None  # the unit finding needed the keys one by one
    quiet = read_bytes(one_clip([rot_key(0, *ID), rot_key(5, *ID), rot_key(9, *ID)]))
    assert [(f.code, f.where.get("key")) for f in validate(quiet)] == [("sparse-keys", 1)]
    assert quiet.animations[0].tracks[0].keys.records is not None  # no key was decoded


@pytest.mark.parametrize("q, reported", [
    # Sums of squares at the two ends of UNIT_SUMS (16_443_350 and 17_114_438) and one past each.
    ((3901, 1107, 10, 0), False), ((3902, 1092, 159, 0), True),
    ((3907, 1358, 75, 0), False), ((3901, 1377, 5, 22), True),
])
def test_the_unit_range_is_inclusive_at_both_ends(q, reported):
    assert sum(c * c for c in q) in (UNIT_SUMS[0], UNIT_SUMS[0] - 1, UNIT_SUMS[1], UNIT_SUMS[1] + 1)
    found = codes(one_clip(keys_every_frame(5) + [rot_key(5, *q)] + keys_every_frame(4, start=6)))
    assert ("not-unit-quaternion" in found) is reported
