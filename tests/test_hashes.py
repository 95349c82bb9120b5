"""Hash test vectors for ALERT's hash functions (Tkachov/ALERT: dat1lib/crc32.py,
dat1lib/crc64.py), computed with ALERT's function and an independent implementation."""

import pytest

from animspec.common.hashes import asset_id, crc32

CRC32_VECTORS = {
    "": 0xEDB88320,
    "a": 0x0136C985,
    "root": 0x865696D5,
    "Root": 0x266439EB,
    "pelvis": 0x8E59B33F,
    "Hips": 0x4E73699F,
    "Anim Clip Built": 0x9DF23F77,
    ".animclip": 0xA9C3E1B8,
    ".performanceclip": 0x9676F576,
    "clip_name": 0xD487FC63,
    "track_a": 0xC323EFAC,
}


@pytest.mark.parametrize("name, expected", sorted(CRC32_VECTORS.items()))
def test_crc32_vectors(name, expected):
    assert crc32(name) == expected
    assert crc32(name.encode()) == expected


def _bitwise_crc32(data: bytes) -> int:
    # The spec's definition, bit by bit: a second, independent implementation.
    crc = 0xEDB88320
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc


@pytest.mark.parametrize("text", [b"x", b"spine_01", bytes(range(256)), b"\xff" * 7])
def test_crc32_matches_the_bitwise_definition(text):
    assert crc32(text) == _bitwise_crc32(text)


@pytest.mark.parametrize(
    "path, expected",
    [
        ("", 0xB25B15E575E1C3D0),
        ("a", 0xAF151533A715AD2A),
        ("characters/hero/x.animclip", 0xB0BA4EC51D7DB4CB),
        ("Characters\\Hero\\X.animclip", 0xB0BA4EC51D7DB4CB),
    ],
)
def test_asset_id_vectors(path, expected):
    assert asset_id(path) == expected


def test_hash_command_names_and_names_file(tmp_path, capsys):
    from animspec.cli import main

    names = tmp_path / "joints.txt"
    names.write_text("pelvis\n\n  Hips  \n")
    assert main(["hash", "root", "--names-file", str(names)]) == 0
    assert capsys.readouterr().out.splitlines() == ["865696D5  root", "8E59B33F  pelvis", "4E73699F  Hips"]
    assert main(["hash"]) == 2
