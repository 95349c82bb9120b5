"""The two serializer contracts: read(write(m)) == m for every model the writer accepts,
and write(read(b)) == b for every byte string the parser accepts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import Acceptance
from strategies import files

from animspec.animbin import Animation, AnimbinFile, Name, RotationKey, Track, read_bytes, write_bytes
from animspec.animbin.jsonio import from_json, to_json
from animspec.common.errors import WriteError


@given(files)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_read_of_write_is_identity(model):
    assert read_bytes(write_bytes(model)) == model


@given(files)
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_json_dump_then_pack_is_identity(model):
    assert from_json(to_json(model)) == model


MIN_SHARE = 0.25  # about 53% were accepted when this was written


def test_write_of_read_is_identity_for_any_accepted_bytes():
    # Start from a valid file, then corrupt bytes and cut the end: whatever still parses
    # must be written back exactly; whatever does not must raise ParseError.
    tally = Acceptance()

    @given(files, st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=4), st.data())
    @settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
    def check(model, edits, data):
        raw = bytearray(write_bytes(model))
        for pos, value in edits:
            if len(raw) > 9:
                raw[9 + pos % (len(raw) - 9)] = value
        cut = data.draw(st.integers(0, len(raw)))
        blob = bytes(raw[:cut]) if data.draw(st.booleans()) else bytes(raw)
        parsed = tally.read(read_bytes, blob)
        if parsed is None:
            return
        assert write_bytes(parsed) == blob

    check()
    tally.check(MIN_SHARE)


def test_256_animations_cannot_be_written():
    anim = Animation(Name.from_str("a"), 1)
    with pytest.raises(WriteError, match="num_animations"):
        write_bytes(AnimbinFile([anim] * 256))


@pytest.mark.parametrize(
    "model, field",
    [
        (AnimbinFile([Animation(Name(b"x" * 33), 1)]), "animations[0].name"),
        (AnimbinFile([Animation(Name(b"a\0b"), 1)]), "animations[0].name"),
        (AnimbinFile([Animation(Name(b"x" * 30, b"yz"), 1)]), "animations[0].name"),
        (AnimbinFile([Animation(Name(b"a"), 65536)]), "animations[0].length"),
        (AnimbinFile([Animation(Name(b"a"), 1, [Track(256)])]), "animations[0].tracks[0].joint_id"),
        (AnimbinFile([Animation(Name(b"a"), 1, [Track(0, [RotationKey(0, 32768, 0, 0, 0)])])]),
         "animations[0].tracks[0].keys[0].value.w"),
        (AnimbinFile([Animation(Name(b"a"), 1, [Track(0, [RotationKey(-1, 0, 0, 0, 0)])])]),
         "animations[0].tracks[0].keys[0].frame"),
        (AnimbinFile([Animation(Name(b"a"), 1, flags=-1)]), "animations[0].flags"),
        (AnimbinFile(version=256), "version"),
    ],
)
def test_values_that_do_not_fit_are_refused_naming_the_field(model, field):
    with pytest.raises(WriteError) as info:
        write_bytes(model)
    assert info.value.field == field


def test_65536_keys_cannot_be_written():
    keys = [RotationKey(0, 4096, 0, 0, 0)] * 65536
    with pytest.raises(WriteError, match="num_keys"):
        write_bytes(AnimbinFile([Animation(Name(b"a"), 1, [Track(0, keys)])]))


def test_trailing_nuls_of_a_name_tail_are_padding():
    assert Name(b"a", b"xy\0\0") == Name(b"a", b"xy")


def test_json_dump_keeps_the_spec_s_field_order():
    # A person edits the dump: fields come in the order the file stores them.
    from animspec.animbin import Marker, TranslationKey, UnknownKey

    anim = Animation(Name(b"walk", b"\x07"), 9, [Track(2, [RotationKey(0, 4096, 0, 0, 0), TranslationKey(1, 1, 2, 3),
                                                          UnknownKey(2, 5)], 1)], [Marker(Name(b"step"), 4)], 1)
    doc = to_json(AnimbinFile([anim], trailing=b"\xaa"))
    assert list(doc) == ["format", "version", "animations", "trailing"]
    (a,) = doc["animations"]
    assert list(a) == ["name", "name_tail", "flags", "length", "tracks", "markers"]
    assert list(a["tracks"][0]) == ["type", "joint_id", "keys"]
    assert [list(k) for k in a["tracks"][0]["keys"]] == [
        ["frame", "key_type", "rotation"], ["frame", "key_type", "translation"], ["frame", "key_type"]]
    assert a["markers"] == [{"name": "step", "frame": 4}] and list(a["markers"][0]) == ["name", "frame"]
    assert (a["name"], a["name_tail"], doc["trailing"]) == ("walk", "07", "aa")
