"""A 400-byte clip assembled from ALERT's layout: built from its table, checked against its
hex dump, then read, decoded, validated and written back."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import EXAMPLES
from test_animclip_support import APPENDIX_A_HEX, appendix_a, hex_dump_bytes

from animspec.animclip import read_bytes, relaid_bytes, write_bytes
from animspec.animclip.tags import (
    SECTION_NAMES,
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_JOINT_HASHES,
    TAG_SAMPLE_ELEM,
)
from animspec.animclip.validate import validate
from animspec.generated.animclip import Animclip
from animspec.common.hashes import crc32
from animspec.kaitai_read import parse


@pytest.fixture
def appendix() -> bytes:
    return appendix_a()


def test_table_assembly_equals_the_hex_dump(appendix):
    assert len(appendix) == 400
    assert appendix == hex_dump_bytes(APPENDIX_A_HEX)


def test_section_tags_are_crc32_of_their_names():
    assert len(SECTION_NAMES) == 27  # ALERT's 19 and the 8 Spider-Man 2 names of Luna's hashes.py
    for tag, name in SECTION_NAMES.items():
        assert crc32(name) == tag, name


def test_decoded_values(appendix):
    m = read_bytes(appendix, "appendix.animclip")
    assert m.magic == m.type_id == 0xC96F58F3 and m.header_unk == bytes(28)
    assert m.strings == b"clip_name\0track_a\0"
    assert [s.tag for s in m.sections] == sorted(s.tag for s in m.sections)
    offsets = {s.tag: s.offset for s in m.sections}
    assert offsets == {TAG_BUILT: 0x70, TAG_BASE_STATE: 0xD0, TAG_JOINT_HASHES: 0x110, TAG_CUSTOM_TRACKS: 0x120,
                       TAG_CUSTOM_TRACK_DATA: 0x150, TAG_SAMPLE_ELEM: 0x160}
    assert m.layout.outer_len_dat1 == m.layout.dat1_len == m.layout.dat1_size == 364
    assert m.layout.compression is None and m.layout.verbatim == {}

    built = m.built
    assert (built.ofs_name, built.name_hash, built.fps, built.duration, built.num_frames) == (0, 0xD487FC63, 30.0, 2.0, 3)
    # J, T, samples and tracks agree with their sections, so they are derived (None).
    assert (built.num_joints, built.num_base_state_things, built.num_elems, built.num_large_elems,
            built.num_custom_tracks) == (None,) * 5

    clip = m.clip(["root", "pelvis"])
    assert (clip.name, clip.name_hash_ok, clip.fps, clip.duration, clip.num_frames) == ("clip_name", True, 30.0, 2.0, 3)
    assert [(j.hash, j.name) for j in clip.joints] == [(0x865696D5, "root"), (0x8E59B33F, "pelvis")]
    for j in clip.joints:
        # q = (0, 0, 0, 32767/32768) normalised -> (0, 0, 0, 1); p = (100, 200, -300) / 2^8
        np.testing.assert_allclose(j.rotation, [0, 0, 0, 1])
        assert list(j.translation) == [0.390625, 0.78125, -1.171875]
        assert j.record == (0, 0, 0, 32767, 100, 200, -300, 3, 8)
    base = m.section(TAG_BASE_STATE)
    assert base.things == bytes(range(32)) and base.extra == b""
    assert list(m.section(TAG_JOINT_HASHES).hashes) == [0x865696D5, 0x8E59B33F, 0xFFFFFFFF]
    [track] = clip.custom_tracks
    assert (track.name, track.hash) == ("track_a", 0xC323EFAC) and crc32("track_a") == 0xC323EFAC
    assert track.values.dtype == np.float32 and list(track.values) == [0.5, 1.0, 1.5]
    entry = m.section(TAG_CUSTOM_TRACKS).entries[0]
    assert (entry.ofs_name, entry.ofs_data, entry.unk_14, entry.num_values) == (10, 0, 257, 3)
    elem = m.section(TAG_SAMPLE_ELEM)
    assert list(elem.offsets) == [5, 9] and list(elem.codes) == [0, 2] and elem.padding == b"\0\0"
    assert len(elem.large_offsets) == 0 and elem.trailing == b""


def test_written_back_byte_for_byte(appendix):
    m = read_bytes(appendix)
    assert write_bytes(m) == appendix
    # The appendix is laid out exactly as spec 4.6 prescribes, so a forced re-layout agrees.
    assert relaid_bytes(m) == appendix


def test_validates_clean(appendix):
    assert validate(read_bytes(appendix)) == []


@pytest.mark.parametrize("name", ["appendix", "walk.animclip"])
def test_numpy_views_agree_with_the_generated_typed_views(appendix, name):
    """The model reads bulk arrays from the spec's *_raw bytes with numpy dtypes; the spec's
    own lazy typed instances must give the same numbers (this holds the dtypes to the .ksy)."""
    data = appendix if name == "appendix" else (EXAMPLES / name).read_bytes()
    root = parse(Animclip, data)
    m = read_bytes(data)
    seen = set()
    for entry, section in zip(root.dat1.sections, m.sections):
        body = entry.body
        seen.add(type(body).__name__)
        if isinstance(body, Animclip.BaseState):
            typed = [tuple(getattr(j, k) for k in ("qx", "qy", "qz", "qw", "x", "y", "z", "log_scale", "log_scale2"))
                     for j in body.joints]
            assert typed == [tuple(r) for r in section.joints.tolist()]
        elif isinstance(body, Animclip.JointHashes):
            assert body.hashes == section.hashes.tolist()
        elif isinstance(body, Animclip.CustomTracks):
            typed = [[getattr(e, k) for k in ("name_hash", "ofs_name", "zero_08", "zero_0c", "ofs_data", "unk_14",
                                              "zero_18", "zero_1c", "num_values", "zero_24")] for e in body.entries]
            assert typed == [list(vars(e).values()) for e in section.entries]
            assert [e.values for e in body.entries] == [m.custom_track_values(i).tolist() for i in range(len(body.entries))]
        elif isinstance(body, Animclip.SampleElem):
            assert [e.ofs_component for e in body.elems] == section.offsets.tolist()
            assert [e.code for e in body.elems] == section.codes.tolist()
            assert [e.code for e in body.large_elems] == section.large_codes.tolist()
        elif isinstance(body, Animclip.TriggerData):
            typed = [tuple(getattr(r, k) for k in "abcde") for r in body.records]
            assert typed == [tuple(vars(r).values()) for r in section.records]
        elif isinstance(body, Animclip.Path):
            assert body.start_matrix.m + body.end_matrix.m == section.start_matrix.ravel().tolist() + section.end_matrix.ravel().tolist()
    assert {"BaseState", "JointHashes", "CustomTracks", "SampleElem"} <= seen
    if name != "appendix":
        assert {"TriggerData", "Path"} <= seen
