"""The clips Luna Engine IO Tools wrote (tests/fixtures/luna) against what its importer read back.

A small decoder (tests/animclip_reference.py) written from the layout tests/fixtures/luna/README.md
documents (not from the library, so the facts and the fixtures are checked on their own) must give, for every frame
and joint, the local transforms Luna's importer yielded (`luna_import.engine_local`). If the
README's facts were wrong (a bit order, the base being the minimum, the Built offsets), these
tests fail.
"""

from __future__ import annotations

import hashlib
import json
import struct

import numpy as np
import pytest
from animclip_reference import FLAG_LOOKUP, built_counts, decode_values, transforms
from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "luna"
CLIPS = sorted(p.stem for p in FIXTURES.glob("*.animclip"))

TAG_BASE_STATE, TAG_SAMPLES, TAG_BUILT, TAG_JOINT_HASHES, TAG_ELEM, TAG_MOTION = (
    0x2BB5BC8F, 0x8A9598E1, 0x9DF23F77, 0xA3B26640, 0xD070D358, 0xE08AA35F)


def record(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def sections(data: bytes) -> tuple[bytes, dict[int, bytes]]:
    """The DAT1 behind the 32-byte STG wrapper, and its sections by tag."""
    assert data[:4] == b"STG\0"
    version, header_len, zero = struct.unpack_from("<III", data, 4)
    asset_type, _u8a, _u8b, _u16, dat1_size, _zero = struct.unpack_from("<IBBHII", data, 16)
    assert (version, header_len, zero, asset_type) == (1, 16, 0, 0x41DFFB44)
    dat1 = data[32:]
    magic, dat1_type, size, count, unknowns = struct.unpack_from("<IIIHH", dat1)
    assert (magic, dat1_type, size, unknowns) == (0x44415431, 0x41DFFB44, dat1_size, 0)
    assert size == len(dat1)
    table = [struct.unpack_from("<III", dat1, 16 + 12 * i) for i in range(count)]
    assert [t for t, _o, _s in table] == sorted(t for t, _o, _s in table)
    assert all(o % 16 == 0 for _t, o, _s in table)
    return dat1, {t: dat1[o:o + s] for t, o, s in table}


def decode(data: bytes) -> dict[str, np.ndarray]:
    """Every frame's local transforms: base + (field << shift), fields LSB-first in u32 words."""
    _dat1, sec = sections(data)
    counts = built_counts(sec[TAG_BUILT])
    assert not counts.flags & FLAG_LOOKUP  # Luna never writes a frame lookup
    assert len(sec[TAG_SAMPLES]) == counts.frames * counts.stride
    return transforms(decode_values(sec[TAG_BASE_STATE], sec[TAG_ELEM], sec[TAG_SAMPLES], counts))


def test_every_clip_has_its_record():
    assert len(CLIPS) >= 7
    for name in CLIPS:
        rec = record(name)
        assert rec["clip"] == f"{name}.animclip"
        assert rec["sha256"] == hashlib.sha256((FIXTURES / rec["clip"]).read_bytes()).hexdigest()


@pytest.mark.parametrize("name", CLIPS)
def test_decoded_frames_are_what_lunas_importer_read(name):
    rec = record(name)
    data = (FIXTURES / rec["clip"]).read_bytes()
    got = decode(data)
    want = {k: np.asarray(v) for k, v in rec["luna_import"]["engine_local"].items()}
    assert got["translation"].shape == want["translation"].shape == (rec["frames"], len(rec["joints"]), 3)
    np.testing.assert_allclose(got["translation"], want["translation"], atol=2e-5)
    np.testing.assert_allclose(got["scale"], want["scale"], atol=2e-5)
    sign = np.sign(np.sum(got["rotation_xyzw"] * want["rotation_xyzw"], axis=-1, keepdims=True))
    np.testing.assert_allclose(got["rotation_xyzw"] * sign, want["rotation_xyzw"], atol=2e-5)


@pytest.mark.parametrize("name", CLIPS)
def test_header_facts(name):
    rec = record(name)
    _dat1, sec = sections((FIXTURES / rec["clip"]).read_bytes())
    assert set(sec) == {TAG_BASE_STATE, TAG_SAMPLES, TAG_BUILT, TAG_JOINT_HASHES, TAG_ELEM, TAG_MOTION}
    built = sec[TAG_BUILT]
    assert len(built) == 96
    flags, fps, duration = struct.unpack_from("<Iff", built, 0x08)
    joints, frames = struct.unpack_from("<HH", built, 0x20)
    unique, = struct.unpack_from("<H", built, 0x30)
    resident, resident_fps = struct.unpack_from("<Hf", built, 0x3E)
    assert bool(flags & 0x20) == rec["looping"]
    assert bool(flags & 0x800000) == rec["root_motion"]
    assert (fps, resident_fps, joints) == (rec["fps"], rec["fps"], len(rec["joints"]))
    assert frames == unique == resident == rec["frames"]
    span = rec["frames"] if rec["looping"] else rec["frames"] - 1
    assert duration == pytest.approx(span / rec["fps"])
    assert struct.unpack_from("<I", built, 0x4C)[0] == 0xDEADDEAD
    hashes = struct.unpack_from(f"<{joints}I", sec[TAG_JOINT_HASHES])
    assert [f"0x{h:08X}" for h in hashes] == [j["hash"] for j in rec["joints"]]
    assert len(sec[TAG_JOINT_HASHES]) == 4 * joints
    motion = sec[TAG_MOTION]
    kind, motion_flags, count = struct.unpack_from("<BBH", motion)
    if rec["root_motion"]:
        assert (kind, motion_flags, count) == (0, 2, rec["frames"] + rec["looping"])
        assert len(motion) % 16 == 0 and len(motion) >= 0x7C + 16 * count
    else:
        assert (kind, motion_flags, count, len(motion)) == (0, 0, 0, 0x80)


def test_base_state_is_the_per_component_minimum():
    """For an animated joint, Base State is the smallest quantised value of each component,
    so some frame has a zero field for each element."""
    data = (FIXTURES / "holds.animclip").read_bytes()
    _dat1, sec = sections(data)
    small, stride = struct.unpack_from("<II", sec[TAG_BUILT], 0x24)
    codes = sec[TAG_ELEM][4 * small:5 * small]
    widths = [(c & 0xF) + 1 for c in codes]
    raw = sec[TAG_SAMPLES]
    fields = []
    for f in range(len(raw) // stride):
        bits, at, row = int.from_bytes(raw[f * stride:(f + 1) * stride], "little"), 0, []
        for w in widths:
            row.append((bits >> at) & ((1 << w) - 1))
            at += w
        fields.append(row)
    fields = np.array(fields)
    assert (fields.min(axis=0) == 0).all()
    # and each width is just enough: the largest field needs all its bits
    assert (fields.max(axis=0) >> (np.array(widths) - 1) == 1).all()


def test_lunas_root_motion_agrees_with_its_source():
    rec = record("root_motion")
    got = np.asarray(rec["luna_import"]["root_motion"]["engine_relative_to_frame_0"]["translation"])
    want = np.asarray(rec["source"]["root_motion"]["engine_relative_to_frame_0"]["translation"])
    np.testing.assert_allclose(got, want, atol=2e-4)
