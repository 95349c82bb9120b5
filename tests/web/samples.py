"""Files the JavaScript tests parse: every example under examples/ plus hand-made edge files.

Loaded by tests/test_js_parsers.py and tests/test_web.py (by path: tests/web is not a
package). Edge files are assembled with ``struct`` from the layouts, independently of
animspec's writers.
"""

from __future__ import annotations

import struct
from pathlib import Path

import lz4.block

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

ANIMCLIP_MAGICS = (0xC96F58F3, 0x0F64FFE8, 0x39AC933C, 0x41DFFB44)
EXTENSIONS = {".animbin": "animbin", ".meshbin": "meshbin", ".animclip": "animclip", ".performanceclip": "animclip"}


def detect(data: bytes, name: str = "") -> str | None:
    """The same rule as web/js/formats.js detect(): magic first, then the extension."""
    if data[:7] == b"ANIMBIN":
        return "animbin"
    if data[:7] == b"MESHBIN":
        return "meshbin"
    if len(data) >= 4 and struct.unpack_from("<I", data)[0] in ANIMCLIP_MAGICS:
        return "animclip"
    if len(data) >= 20 and data[:4] == b"STG\0" and struct.unpack_from("<I", data, 16)[0] in ANIMCLIP_MAGICS:
        return "animclip"  # Spider-Man 2's STG wrapper
    if len(data) >= 8 and data[:4] == b"1TAD" and struct.unpack_from("<I", data, 4)[0] in ANIMCLIP_MAGICS:
        return "animclip"  # a bare DAT1
    return EXTENSIONS.get(Path(name).suffix.lower())


def example_files() -> list[Path]:
    """Every file under examples/ that is one of the three formats (by magic or extension)."""
    return sorted(p for p in EXAMPLES.iterdir() if p.is_file() and detect(p.read_bytes()[:8], p.name))


# --- ANIMBIN ---------------------------------------------------------------------------------


def _name32(text: bytes) -> bytes:
    return text if len(text) == 32 else (text + b"\0").ljust(32, b"\0")


def _anim(name: bytes, flags: int, length: int, tracks: list[bytes], markers: list[bytes] = ()) -> bytes:
    return _name32(name) + struct.pack("<IHHH", flags, length, len(tracks), len(markers)) + b"".join(tracks) + b"".join(markers)


def _track(joint: int, keys: list[bytes], track_type: int = 0) -> bytes:
    return struct.pack("<BBH", track_type, joint, len(keys)) + b"".join(keys)


def _rot(frame: int, w: int, x: int = 0, y: int = 0, z: int = 0) -> bytes:
    return struct.pack("<HBhhhh", frame, 0, w, x, y, z)


def _trans(frame: int, x: int, y: int, z: int) -> bytes:
    return struct.pack("<HBiii", frame, 1, x, y, z)


def _marker(name: bytes, frame: int) -> bytes:
    return _name32(name) + struct.pack("<H", frame)


def _animbin(*anims: bytes, trailing: bytes = b"") -> bytes:
    return b"ANIMBIN" + struct.pack("<BB", 1, len(anims)) + b"".join(anims) + trailing


def edge_animbin() -> dict[str, bytes]:
    swing = (EXAMPLES / "swing.animbin").read_bytes()
    odd = [  # keys the engine mishandles: unsorted, past the end, zero and tiny quaternions
        _track(0, [_rot(0, 4096), _rot(6, 2896, 0, 0, 2896), _rot(3, 0, 4096), _rot(40, 4096)]),
        _track(1, [_rot(0, 0), _rot(4, 1), _rot(8, -4096, 100, -200, 300)]),
        _track(1, [_rot(2, 3000, -3000, 1000, 0), _trans(5, 0x12345678, -0x0FEDCBA9, 77)]),
        _track(16, [_rot(0, 4096), _rot(9, 2048, 2048, 2048, 2048)]),
        _track(2, []),
    ]
    return {
        "edge_trailing.animbin": swing + b"\x01\x02\x03",
        "edge_unknown_key_type.animbin": _animbin(_anim(b"bad", 1, 10, [
            _track(0, [_rot(0, 4096), struct.pack("<HB", 3, 7), _rot(6, 2896, 0, 2896, 0)])])),
        "edge_hazards.animbin": _animbin(
            _anim(b"odd", 0x11, 12, odd, [_marker(b"m" * 32, 3), _marker(b"ok", 5)]),
            _anim(b"x" * 32, 0, 0, [_track(0, [_rot(0, 4096)])]),
            _anim(b"odd", 1, 7, [_track(3, [_trans(0, 4096, 0, 0), _trans(6, -4096, 8192, 1)])]),
            trailing=b"\xff"),
        # Translation keys are never applied: only tracks whose next key is a ROTATION key
        # on some frame compete for a joint (validate's duplicate-joint).
        "edge_translation_tracks.animbin": _animbin(_anim(b"moves", 1, 10, [
            _track(0, [_trans(0, 1, 2, 3), _trans(5, 4, 5, 6)]),  # never writes joint 0
            _track(0, [_rot(0, 4096)]),  # the only writer of joint 0
            _track(0, [_trans(3, 7, 8, 9)]),  # never writes: no duplicate
            _track(1, [_rot(0, 4096)]),
            _track(1, [_trans(0, 1, 1, 1), _rot(4, 2896, 2896)]),  # next key is the rotation: every frame
            _track(1, [_rot(3, 2896, 0, 2896), _trans(4, 1, 1, 1)]),  # frames 0-2 (next = key 0): 3 of 10
        ]), _anim(b"still", 0, 0, [_track(2, [_rot(0, 4096)]), _track(2, [_trans(0, 1, 1, 1)])])),
        "edge_truncated.animbin": swing[: len(swing) // 2 + 3],
        "edge_bad_magic.animbin": b"ANIMBIX" + swing[7:40],
    }


# --- .animclip -------------------------------------------------------------------------------

# A 400-byte clip assembled from ALERT's layout, which ALERT reads (6 sections), as xxd shows it.
def synthetic_animclip() -> bytes:
    """That 400-byte clip, from the hex dump the .animclip tests already hold."""
    from test_animclip_support import APPENDIX_A_HEX, hex_dump_bytes

    return hex_dump_bytes(APPENDIX_A_HEX)


def edge_animclip() -> dict[str, bytes]:
    plain = synthetic_animclip()
    packed = lz4.block.compress(plain[36:], store_size=False, mode="fast")
    assert packed[2:6] == b"1TAD" or packed[1:5] == b"1TAD" or packed[3:7] == b"1TAD"
    return {
        "edge_synthetic.animclip": plain,
        "edge_synthetic_lz4.animclip": plain[:36] + packed,
        "edge_synthetic_cut.animclip": plain[:300],
        # Spider-Man 2, as Luna Engine IO Tools writes it: STG wrapper, per-frame sections
        "edge_msm2_stg.animclip": (Path(__file__).parent.parent / "fixtures" / "luna" / "loop_walk.animclip").read_bytes(),
    }


# --- MESHBIN ---------------------------------------------------------------------------------


def _meshbin(version: int, vertices: list[tuple[int, int, int]], quads: list[tuple[int, int, int, int]],
             bones: list[tuple[int, tuple, tuple]] | None, num_bones: int | None = None) -> bytes:
    n = len(vertices)
    out = b"MESHBIN" + struct.pack("<BBIIIII", version, 1, n, len(quads), len(quads), 1, 1)
    if version > 1:
        out += struct.pack("<BB", 1 if bones is not None else 0, len(bones or []) if num_bones is None else num_bones)
    out += b"".join(struct.pack("<iii", *v) for v in vertices)
    out += b"".join(struct.pack("<BBB", 200, 100, 50) for _ in vertices)
    out += b"".join(struct.pack("<hhhh", *q) for q in quads)
    out += struct.pack("<hhh", 0, -4096, 0)
    out += b"".join(struct.pack("<hhhh", 0, 0, 0, 0) for _ in quads)
    out += struct.pack("<BB", 0, 0)
    out += b"".join(struct.pack("<hhhh", 0, 0, 0, 0) for _ in quads)
    out += struct.pack("<hhh", -10, 0, -10) + struct.pack("<hhh", 10, 40, 10)
    if version > 1 and bones is not None:
        out += b"".join(struct.pack("<b3i4h", p, *pos, *rot) for p, pos, rot in bones)
        out += bytes(i % max(1, len(bones)) for i in range(n))
    return out


def edge_meshbin() -> dict[str, bytes]:
    verts = [(-10, 0, -10), (10, 0, -10), (10, 40, 10), (-10, 40, 10)]
    quad = [(0, 3, 1, 2)]
    two = [(-1, (0, 0, 0), (4096, 0, 0, 0)), (0, (0, 20, 0), (2896, 0, 0, 2896))]
    many = [(i - 1, (0, 8, 0), (4096, 0, 0, 0)) for i in range(17)]
    return {
        "edge_v1.meshbin": _meshbin(1, verts, quad, None),
        "edge_two_bones.meshbin": _meshbin(2, verts, quad, two),
        "edge_17_bones.meshbin": _meshbin(2, verts, quad, many) + b"tail",
    }


def edge_files() -> dict[str, bytes]:
    return {**edge_animbin(), **edge_animclip(), **edge_meshbin()}
