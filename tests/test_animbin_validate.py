"""Each validator code is triggered by a fixture made for it, and absent on a clean file."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, anim_header, header, marker, one_clip, raw_key, rot_key, track_header, trans_key

from animspec.animbin import read_bytes, validate
from animspec.findings import Severity

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
