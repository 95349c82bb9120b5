"""The generated parser, through animspec's model, on hand-assembled bytes: every field."""

from __future__ import annotations

import pytest
from conftest import anim_header, header, marker, name32, one_clip, raw_key, rot_key, track_header, trans_key

from animspec.animbin import (
    KeyType,
    Name,
    RotationKey,
    TranslationKey,
    UnknownKey,
    read_bytes,
    write_bytes,
)
from animspec.generated.animbin import Animbin


def full_fixture() -> bytes:
    """Two animations: tracks with rotation, translation and unknown keys, markers, a name
    tail, trailing bytes, a non-default version, track type and flags."""
    anim0 = (
        anim_header(b"walk", 0x1, 24, 2, 2, tail=b"junk")
        + track_header(7, 3, 2) + rot_key(0, 4096, 0, 0, 0) + rot_key(12, 2896, 0, 2896, -1)
        + track_header(0, 14, 3) + trans_key(0, -4096, 65536, 7) + raw_key(5, 9) + rot_key(6, 0, 4096, 0, 0)
        + marker(b"step_left", 6) + marker(b"step_right", 18)
    )
    anim1 = anim_header(b"A" * 32, 0x80000002, 0, 0, 0)
    return header(2, version=3) + anim0 + anim1 + b"\xde\xad"


def test_every_field_of_the_fixture():
    m = read_bytes(full_fixture())
    assert m.version == 3
    assert m.trailing == b"\xde\xad"
    walk, other = m.animations
    assert walk.name == Name(b"walk", b"junk")
    assert (walk.flags, walk.length, walk.is_looping) == (1, 24, True)
    t0, t1 = walk.tracks
    assert (t0.track_type, t0.joint_id) == (7, 3)
    assert t0.keys == [RotationKey(0, 4096, 0, 0, 0), RotationKey(12, 2896, 0, 2896, -1)]
    assert (t1.track_type, t1.joint_id) == (0, 14)
    assert t1.keys == [TranslationKey(0, -4096, 65536, 7), UnknownKey(5, 9), RotationKey(6, 0, 4096, 0, 0)]
    assert [(str(mk.name), mk.frame) for mk in walk.markers] == [("step_left", 6), ("step_right", 18)]
    assert other.name.text == b"A" * 32 and not other.name.is_terminated
    assert (other.flags, other.length, other.is_looping, other.tracks, other.markers) == (0x80000002, 0, False, [], [])


def test_fixture_writes_back_byte_for_byte():
    data = full_fixture()
    assert write_bytes(read_bytes(data)) == data


def test_unknown_key_type_consumes_no_payload():
    # Key 1 has type 2: the engine reads key 2's frame from the very next byte.
    data = one_clip([rot_key(0, 4096, 0, 0, 0), raw_key(1, 2), rot_key(2, 0, 0, 4096, 0)])
    keys = read_bytes(data).animations[0].tracks[0].keys
    assert keys == [RotationKey(0, 4096, 0, 0, 0), UnknownKey(1, 2), RotationKey(2, 0, 0, 4096, 0)]


def test_translation_payload_is_three_signed_int32():
    data = one_clip([trans_key(4, -(2**31), 2**31 - 1, -1)])
    assert read_bytes(data).animations[0].tracks[0].keys == [TranslationKey(4, -(2**31), 2**31 - 1, -1)]


def test_rotation_components_are_signed_int16_in_w_x_y_z_order():
    data = one_clip([rot_key(65535, -32768, 32767, -1, 1)])
    key = read_bytes(data).animations[0].tracks[0].keys[0]
    assert key == RotationKey(65535, -32768, 32767, -1, 1)
    assert key.quaternion == (-32768, 32767, -1, 1)


def test_markers_follow_all_tracks():
    data = (
        header(1) + anim_header(b"m", 1, 5, 2, 1)
        + track_header(0, 0, 1) + rot_key(0, 4096, 0, 0, 0)
        + track_header(0, 1, 1) + rot_key(0, 4096, 0, 0, 0)
        + marker(b"hit", 3)
    )
    anim = read_bytes(data).animations[0]
    assert [t.joint_id for t in anim.tracks] == [0, 1]
    assert [(mk.name.text, mk.frame) for mk in anim.markers] == [(b"hit", 3)]


def test_name_with_bytes_after_the_terminator_is_kept():
    field = name32(b"idle", tail=b"\x01\x02")
    data = header(1) + field + bytes(10)
    anim = read_bytes(data).animations[0]
    assert anim.name == Name(b"idle", b"\x01\x02")
    assert write_bytes(read_bytes(data)) == data


def test_model_key_types_match_the_spec_enum():
    assert int(Animbin.KeyType.rotation) == KeyType.ROTATION
    assert int(Animbin.KeyType.translation) == KeyType.TRANSLATION


def test_animation_lookup_by_exact_name(swing_bytes):
    m = read_bytes(swing_bytes)
    assert m.animation("nod").length == 20
    with pytest.raises(KeyError):
        m.animation("Nod")


def test_animation_or_first_picks_as_play_compare_and_plot_do():
    from animspec.animbin import Animation, AnimbinFile
    from animspec.common.errors import AnimspecError

    walk, run = Animation(Name.from_str("walk"), 10, []), Animation(Name.from_str("run"), 5, [])
    model = AnimbinFile([walk, run])
    assert model.animation_or_first() is walk
    assert model.animation_or_first("run") is run
    with pytest.raises(AnimspecError, match=r"no animation named 'jump' \(the file has 'walk', 'run'\)"):
        model.animation_or_first("jump")
    with pytest.raises(AnimspecError, match="the file has no animations"):
        AnimbinFile([]).animation_or_first("walk")
