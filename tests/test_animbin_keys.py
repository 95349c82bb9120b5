"""A rotation-only track read from a file keeps its keys as the file's packed records
(issue 15) and is still, to every caller, a list of RotationKey: the same values, the same
equality, edits kept and written, the file written back byte for byte."""

from __future__ import annotations

import copy
import pickle

import pytest
from conftest import EXAMPLES, one_clip, rot_key, trans_key

from animspec.animbin import RotationKey, read_bytes, write_bytes
from animspec.animbin.keys import PackedRotationKeys
from animspec.animbin.layout import ROTATION_KEY

KEYS = [RotationKey(f, 4096 - f, f, -f, 7) for f in range(0, 30, 3)]
DATA = one_clip([rot_key(k.frame, *k.quaternion) for k in KEYS], length=30)


def packed() -> PackedRotationKeys:
    keys = read_bytes(DATA).animations[0].tracks[0].keys
    assert isinstance(keys, PackedRotationKeys)
    return keys


def test_a_load_makes_no_key_object():
    keys = packed()
    assert keys.records is not None and len(keys.records) == len(KEYS) * ROTATION_KEY.size
    assert len(keys) == len(KEYS)
    assert keys.records is not None  # len() did not decode


def test_columns_come_from_the_records_without_decoding():
    keys = packed()
    assert list(keys.frames()) == [k.frame for k in KEYS]
    assert list(keys.quaternion_values()) == [c for k in KEYS for c in k.quaternion]
    assert keys.records is not None
    keys[0]  # noqa: B018 - now decoded: the columns come from the key objects
    assert keys.records is None
    assert list(keys.frames()) == [k.frame for k in KEYS]
    assert list(keys.quaternion_values()) == [c for k in KEYS for c in k.quaternion]


def test_it_is_a_list_of_rotation_keys_to_callers():
    keys = packed()
    assert keys == KEYS and KEYS == keys and not keys != KEYS
    assert list(keys) == KEYS and keys[-1] == KEYS[-1] and keys[1:3] == KEYS[1:3]
    assert keys + [] == KEYS and [] + keys == KEYS
    assert repr(keys) == repr(KEYS)
    assert keys != KEYS[:-1] and packed() == packed()
    assert copy.deepcopy(keys) == KEYS and pickle.loads(pickle.dumps(keys)) == KEYS
    assert keys.__eq__(object()) is NotImplemented
    with pytest.raises(TypeError):
        hash(keys)


def test_two_untouched_tables_compare_by_their_bytes_and_a_decoded_one_by_its_keys():
    a, b = packed(), packed()
    b[0].w += 1  # decoded and edited
    assert a != b and b != a
    b[0].w -= 1
    assert packed() == b and b == packed() and a == b  # untouched == decoded, decoded == untouched


def test_an_edit_of_a_key_is_kept_and_written():
    model = read_bytes(DATA)
    keys = model.animations[0].tracks[0].keys
    keys[2].w = -5
    keys.append(RotationKey(40, 1, 2, 3, 4))
    del keys[0]
    keys.insert(0, RotationKey(0, 9, 9, 9, 9))
    keys[1] = RotationKey(3, 8, 8, 8, 8)
    expected = [RotationKey(0, 9, 9, 9, 9), RotationKey(3, 8, 8, 8, 8), RotationKey(6, -5, 6, -6, 7), *KEYS[3:],
                RotationKey(40, 1, 2, 3, 4)]
    assert keys == expected
    assert read_bytes(write_bytes(model)).animations[0].tracks[0].keys == expected


def test_an_untouched_table_is_written_back_byte_for_byte():
    for data in (DATA, (EXAMPLES / "swing.animbin").read_bytes()):
        model = read_bytes(data)
        assert any(isinstance(t.keys, PackedRotationKeys) for a in model.animations for t in a.tracks)
        assert write_bytes(model) == data


def test_a_track_with_another_key_type_is_a_plain_list():
    model = read_bytes(one_clip([rot_key(0, 4096, 0, 0, 0), trans_key(1, 1, 2, 3)]))
    assert type(model.animations[0].tracks[0].keys) is list


def test_records_must_be_whole_keys():
    with pytest.raises(ValueError):
        PackedRotationKeys(bytes(10), 1)
    empty = PackedRotationKeys(b"", 0)
    assert empty == [] and tuple(empty.frames()) == () and tuple(empty.quaternion_values()) == ()


def test_the_column_helpers_read_lists_and_tables_alike():
    from animspec.animbin.keys import all_rotation, frames, quaternion_values
    from animspec.animbin.model import TranslationKey

    for keys in (packed(), list(KEYS), packed()[:]):
        assert list(frames(keys)) == [k.frame for k in KEYS]
        assert list(quaternion_values(keys)) == [c for k in KEYS for c in (k.w, k.x, k.y, k.z)]
        assert all_rotation(keys)
    assert not all_rotation([*KEYS, TranslationKey(40, 1, 2, 3)])
    edited = packed()
    edited[0] = TranslationKey(0, 1, 2, 3)  # a decoded table is judged by its keys
    assert not all_rotation(edited)


def test_a_packed_table_plays_as_its_decoded_keys():
    # Playback reads an untouched table through its numpy view; the result must be the one
    # of the same keys as objects (the engine-exact path), events included.
    import numpy as np

    from animspec.animbin.playback import play_engine, vsync_deltas

    data = (EXAMPLES / "swing.animbin").read_bytes()
    viewed, decoded = read_bytes(data), read_bytes(data)
    for anim in decoded.animations:
        for track in anim.tracks:
            track.keys[0]  # noqa: B018 - decode into RotationKey objects
    deltas = vsync_deltas(300)
    for a, b in zip(viewed.animations, decoded.animations):
        assert any(t.keys.table() is not None for t in a.tracks if isinstance(t.keys, PackedRotationKeys))
        got, want = play_engine(a, deltas), play_engine(b, deltas)
        assert np.array_equal(got.rotations, want.rotations) and np.array_equal(got.frames, want.frames)
        assert got.events == want.events


def test_the_numpy_view_is_the_records():
    table = packed().table()
    assert table.tolist() == [(k.frame, 0, k.quaternion) for k in KEYS]
    assert not table.flags.writeable
    decoded = packed()
    decoded[0]  # noqa: B018
    assert decoded.table() is None
