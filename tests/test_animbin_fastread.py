"""The bulk reader gives exactly the generated parser's model, or its very error."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, anim_header, header, marker, one_clip, raw_key, rot_key, trans_key
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import files, names, u1, u2, s2

from animspec.animbin import Animation, AnimbinFile, Marker, RotationKey, Track, read_bytes, write_bytes
from animspec.animbin.fastread import read as bulk_read
from animspec.common.errors import ParseError

rotation_only_files = st.builds(
    AnimbinFile,
    animations=st.lists(
        st.builds(
            Animation,
            name=names(),
            length=u2,
            tracks=st.lists(st.builds(Track, joint_id=u1, keys=st.lists(st.builds(RotationKey, u2, s2, s2, s2, s2), max_size=5),
                                      track_type=u1), max_size=4),
            markers=st.lists(st.builds(Marker, names(), u2), max_size=3),
            flags=st.integers(0, 0xFFFF_FFFF),
        ),
        max_size=4,
    ),
    version=u1,
    trailing=st.binary(max_size=6),
)


def outcome(reader, data: bytes):
    """The model, or the (field, offset, reason) of the ParseError."""
    try:
        return reader(data)
    except ParseError as exc:
        return (exc.field, exc.offset, exc.reason)


def reference(data: bytes):
    return outcome(lambda d: read_bytes(d, fast=False), data)


@pytest.mark.parametrize("name", ["swing.animbin", "sparse.animbin"])
def test_examples_agree(name):
    data = (EXAMPLES / name).read_bytes()
    assert bulk_read(data) == read_bytes(data, fast=False)


@given(rotation_only_files)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_rotation_only_files_agree(model):
    data = write_bytes(model)
    assert bulk_read(data) == model == read_bytes(data, fast=False)


@given(files, st.data())
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_any_bytes_agree_with_the_generated_parser(model, data):
    raw = bytearray(write_bytes(model))
    for _ in range(data.draw(st.integers(0, 3))):
        if len(raw) > 7:
            raw[data.draw(st.integers(7, len(raw) - 1))] = data.draw(st.integers(0, 255))
    blob = bytes(raw[: data.draw(st.integers(0, len(raw)))])
    assert outcome(bulk_read, blob) == reference(blob)


@pytest.mark.parametrize("keys", [[trans_key(0, 1, 2, 3)], [raw_key(0, 4)], [rot_key(0, 1, 2, 3, 4), trans_key(1, 1, 1, 1)]])
def test_other_key_types_agree(keys):
    data = one_clip(keys)
    assert bulk_read(data) == read_bytes(data, fast=False)


def test_truncated_file_gives_the_generated_parsers_error():
    data = (EXAMPLES / "swing.animbin").read_bytes()[:500]
    assert isinstance(reference(data), tuple)
    assert outcome(bulk_read, data) == reference(data)


@pytest.mark.parametrize("num_tracks, num_markers", [(0x8001, 0), (0, 0x8001), (0xFFFF, 0xFFFF)])
def test_counts_above_32767_are_unsigned(num_tracks, num_markers):
    # u2 counts: 0x8001 is 32769 tracks or markers (read as signed it would be none, and
    # the file would read as complete). The data ends first: the same error as the reference.
    data = header(1) + anim_header(b"a", 1, 10, num_tracks, num_markers) + marker(b"m", 1)
    got = outcome(bulk_read, data)
    assert isinstance(got, tuple) and got == reference(data)
    assert got[0].startswith("animations[0].tracks[" if num_tracks else "animations[0].markers[")


def test_rotation_only_tracks_are_read_as_one_table_not_key_by_key(monkeypatch):
    # The point of the bulk reader (issues 8 and 15): a track of rotation keys is kept as one
    # packed table, also when it ends exactly at the end of the file. The per-key structs
    # must not be used.
    import sys

    fastread = sys.modules["animspec.animbin.fastread"]

    class KeyByKey:
        def unpack_from(self, *args):
            raise AssertionError("a rotation-only track was read key by key")

    monkeypatch.setattr(fastread, "_KEY_HEAD", KeyByKey())
    monkeypatch.setattr(fastread, "_ROTATION", KeyByKey())
    data = one_clip([rot_key(f, 4096, f, -f, 0) for f in range(5)])
    model = bulk_read(data)
    monkeypatch.undo()
    assert model == read_bytes(data, fast=False)
