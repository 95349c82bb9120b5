""".animclip facts written once: animclip/tags.py restates the generated parser's enums,
animclip/layout.py the container's records and each module of animclip/sections/ its
section's records, without importing it (start-up, and only the adapter may import
generated code); these tests hold every restated value against the generated classes. And
the payload sizes (each section type's ``payload_size``) against what the writer writes.
"""

from __future__ import annotations

from dataclasses import fields
from io import BytesIO

import numpy as np
import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from kaitaistruct import KaitaiStream
from test_animclip_roundtrip import models

from animspec.animclip import read_bytes, write_bytes
from animspec.animclip import layout, tags
from animspec.animclip.layout import tables_size
from animspec.animclip.placement import payload_sizes
from animspec.animclip.sections import TYPED_SECTIONS, Built
from animspec.animclip.sections import base_state, path, trigger_data
from animspec.animclip.sections.built import BUILT_DTYPE, BUILT_FIELD_OFFSETS, BUILT_FIELDS, BUILT_SIZE
from animspec.animclip.sections.custom_tracks import CUSTOM_TRACK_FIELDS, CUSTOM_TRACK_SIZE
from animspec.animclip.write import payloads
from animspec.common.hashes import crc32
from animspec.generated.animclip import Animclip


def test_section_tags_are_the_generated_enum():
    generated = {int(t): t.name for t in Animclip.SectionTag}
    assert set(tags.SECTION_NAMES) == set(generated)
    assert len(tags.SECTION_NAMES) == 27  # ALERT's 19 and the 8 Spider-Man 2 names of Luna's hashes.py
    assert tags.MSM2_SECTIONS <= set(tags.SECTION_NAMES)
    assert tags.TAG_SAMPLE_DATA_RESIDENT == 0x8A9598E1  # what Luna's exporter writes the samples into
    for tag, name in tags.SECTION_NAMES.items():
        assert crc32(name) == tag  # each tag is the CRC32 of its English name (spec 6)
        constant = {v: k for k, v in vars(tags).items() if k.startswith("TAG_") and isinstance(v, int)}[tag]
        assert constant.removeprefix("TAG_").lower() in generated[tag]  # TAG_EXPRESSION_ID_MAP ~ pose_expression_id_map


def test_asset_magics_are_the_generated_enum():
    assert set(tags.ASSET_MAGICS) == {int(m) for m in Animclip.AssetType}
    assert tags.MAGIC_MSMR_MM == Animclip.AssetType.animclip_msmr_mm
    assert tags.MAGIC_RCRA == Animclip.AssetType.animclip_rcra
    assert tags.MAGIC_ANIMCLIP2 == Animclip.AssetType.animclip_2
    assert tags.MAGIC_MSM2 == Animclip.AssetType.animclip_msm2


def test_typed_sections_are_the_tags_the_spec_gives_a_structure():
    def spec_type(tag: int) -> type | None:
        name = Animclip.SectionTag(tag).name.removesuffix("_resident").removesuffix("_paged")  # one sample_data type
        return getattr(Animclip, "".join(w.title() for w in name.split("_")), None)

    # A tag with no type of its own (Spider-Man 2's geom and spline mesh sections) is raw bytes.
    typed = {tag for tag in tags.SECTION_NAMES if spec_type(tag) is not None and spec_type(tag).SEQ_FIELDS != ["data_raw"]}
    assert typed == set(TYPED_SECTIONS)


def dat1(n: int = 0, u: int = 0, magic: bytes = tags.DAT1_MAGIC) -> bytes:
    return layout.DAT1_HEADER.pack(magic, tags.MAGIC_RCRA, 0, n, u) + bytes(12 * n + 8 * u)


def test_dat1_magic_and_header_are_the_specs():
    root = Animclip.Dat1(KaitaiStream(BytesIO(dat1(2, 1))))
    root._read()
    assert (root.magic, root.type_id, root.num_sections, root.num_unknowns) == (tags.DAT1_MAGIC, tags.MAGIC_RCRA, 2, 1)
    assert root.ofs_strings == tables_size(2, 1)
    with pytest.raises(Exception):
        Animclip.Dat1(KaitaiStream(BytesIO(dat1(magic=b"1TAE"))))._read()


def test_record_sizes_and_fields_are_the_specs():
    data = (EXAMPLES / "walk.animclip").read_bytes()
    root = Animclip(KaitaiStream(BytesIO(data)))
    root._read()
    assert root.dat1._debug["magic"]["start"] == 0 and root._debug["dat1"]["start"] == layout.OUTER_HEADER.size
    magic, outer_len, unk = layout.OUTER_HEADER.unpack_from(data)
    assert (magic, outer_len, unk) == (root.header.magic, root.header.len_dat1, root.header.unk)
    dat1 = root.dat1
    assert dat1._debug["unknowns"]["start"] == layout.DAT1_HEADER.size + layout.SECTION_ENTRY.size * dat1.num_sections
    for entry in dat1.sections:
        at = layout.OUTER_HEADER.size + entry.ofs_body
        body = entry.body
        if isinstance(body, Animclip.Built):
            (values,) = np.frombuffer(data, BUILT_DTYPE, 1, at).tolist()
            assert BUILT_SIZE == 96 and len(values) == len(BUILT_FIELDS)
            assert list(values) == [getattr(body, name) for name in BUILT_FIELDS]
            assert BUILT_FIELDS == tuple(body.SEQ_FIELDS[:-1])
            assert body._debug["trailing"]["start"] == BUILT_SIZE
            for name in BUILT_FIELDS:  # every field at the generated offset (the refusals point there)
                assert body._debug[name]["start"] == BUILT_FIELD_OFFSETS[name], name
            assert tuple(f.name for f in fields(Built) if f.name not in ("offset", "trailing")) == BUILT_FIELDS
        elif isinstance(body, Animclip.BaseState):
            joint = body.joints[0]
            assert base_state.JOINT_FIELDS == tuple(joint.SEQ_FIELDS) == base_state.JOINT_DTYPE.names
            assert np.frombuffer(data, base_state.JOINT_DTYPE, 1, at)[0].tolist() == tuple(getattr(joint, k) for k in base_state.JOINT_FIELDS)
            assert body.joints[1]._debug["qx"]["start"] == base_state.JOINT_SIZE == 16
        elif isinstance(body, Animclip.CustomTracks):
            assert tuple(body.entries[0].SEQ_FIELDS) == CUSTOM_TRACK_FIELDS
            assert CUSTOM_TRACK_SIZE == 4 * len(CUSTOM_TRACK_FIELDS)
        elif isinstance(body, Animclip.TriggerData):
            assert tuple(body.SEQ_FIELDS[:5]) == ("num_jsons", "num_things", "len_jsons", "unk1", "unk2")
            assert body._debug["jsons_raw"]["start"] == trigger_data.TRIGGER_HEADER.size
            if body.records:
                assert tuple(body.records[0].SEQ_FIELDS) == trigger_data.TRIGGER_FIELDS
                assert trigger_data.TRIGGER_DTYPE.names == trigger_data.TRIGGER_FIELDS and trigger_data.TRIGGER_RECORD_SIZE == 16
        elif isinstance(body, Animclip.Path):
            assert body._debug["trailing"]["start"] == path.PATH_SIZE == 128


@given(models())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_payload_sizes_are_what_the_writer_writes(model):
    assert payload_sizes(model) == [len(p) for p in payloads(model)]
    again = read_bytes(write_bytes(model))
    assert payload_sizes(again) == [len(p) for p in payloads(again)]


def test_motion_data_the_writer_packs_is_the_specs_motion_header_and_samples():
    """Motion Data's header and samples are written (animclip/motion.py) and read
    (frames.motion.decode_motion) through tags.MOTION_HEADER_DTYPE / MOTION_SAMPLE_DTYPE: every field
    at the generated motion_header / motion_sample offsets, with the value written."""
    from animspec.animclip.frames.motion import encode_motion

    angle = np.linspace(0, 1, 5)
    rotation = np.stack([0 * angle, np.sin(angle / 2), 0 * angle, np.cos(angle / 2)], axis=1)
    translation = np.stack([angle, 0.5 * angle, -3 * angle], axis=1)
    payload = encode_motion(translation, rotation, looping=True)
    body = Animclip.MotionData(KaitaiStream(BytesIO(payload)))
    body._read()
    header = body.header
    written = np.frombuffer(payload, tags.MOTION_HEADER_DTYPE, 1)[0]
    assert tags.MOTION_HEADER_DTYPE.names == tuple(header.SEQ_FIELDS)
    assert tags.MOTION_HEADER_DTYPE.itemsize == tags.MOTION_HEADER_SIZE == 0x7C
    for name in tags.MOTION_HEADER_DTYPE.names:
        assert header._debug[name]["start"] == tags.MOTION_HEADER_DTYPE.fields[name][1], name
        value = getattr(header, name)
        want = written[name]
        if isinstance(value, bytes):
            assert value == bytes(want), name
        elif isinstance(value, list):
            assert value == want.tolist(), name
        else:
            assert int(value) == int(want), name
    assert (header.motion_type, header.flags, header.num_samples) == (0, tags.MOTION_FLAG_HAS_MOTION, 6)
    assert header._debug["ofs_samples"]["start"] == tags.MOTION_HEADER_DTYPE.fields["ofs_samples"][1] == 0x3C
    assert body.is_samples_in_range and len(body.samples) == 6
    assert tags.MOTION_SAMPLE_DTYPE.names == tuple(body.samples[0].SEQ_FIELDS)
    first = 0x7C + header.ofs_samples
    assert body.samples[0]._debug["qx"]["start"] == first
    assert body.samples[1]._debug["qx"]["start"] - first == tags.MOTION_SAMPLE_DTYPE.itemsize == 16
    rows = np.frombuffer(payload, tags.MOTION_SAMPLE_DTYPE, 6, first)
    for k, (sample, row) in enumerate(zip(body.samples, rows)):
        for name in tags.MOTION_SAMPLE_DTYPE.names:
            assert sample._debug[name]["start"] == first + 16 * k + tags.MOTION_SAMPLE_DTYPE.fields[name][1]
            assert getattr(sample, name) == int(row[name])
    assert len(payload) % tags.MOTION_ALIGN == 0 and header.ofs_segments == len(payload) - 0x7C


def test_the_codings_components_are_the_specs():
    """frames/coding.py restates ksy enum packed_component (the one place Python states it):
    12 components, scale 0-2 and its divisor 3, the quaternion 4-7, the translation 8-10 and
    its shift 11."""
    from animspec.animclip.frames import coding

    enum = Animclip.PackedComponent
    assert coding.COMPONENTS_PER_JOINT == len(enum)
    assert list(range(12)[coding.SCALE]) == [enum.scale_x, enum.scale_y, enum.scale_z]
    assert coding.SCALE_DIVISOR == enum.scale_divisor
    assert list(range(12)[coding.ROTATION]) == [enum.rot_x, enum.rot_y, enum.rot_z, enum.rot_w]
    assert list(range(12)[coding.TRANSLATION]) == [enum.pos_x, enum.pos_y, enum.pos_z]
    assert coding.TRANSLATION_SHIFT == enum.pos_shift
    assert coding.KIND_FIRST == (enum.scale_x, enum.rot_x, enum.pos_x)
