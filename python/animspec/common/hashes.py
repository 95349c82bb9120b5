"""The name hashes of Insomniac's DAT1 assets (Tkachov/ALERT: dat1lib/crc32.py, dat1lib/crc64.py).

CRC32 here is not zlib's: ALERT (repository Tkachov/ALERT, dat1lib/crc32.py) starts from
0xEDB88320 instead of 0xFFFFFFFF and applies no final XOR. Section tags, joint names, clip
and custom-track names are hashed with it, case-sensitively. CRC64 (dat1lib/crc64.py)
hashes normalised asset paths into asset IDs.
"""

from __future__ import annotations

import re
import zlib

from .errors import ParseError
from .inputs import read_text

CRC32_INIT = 0xEDB88320
_CRC64_POLY = 0xC96C5795D7870F42


def crc32(name: str | bytes) -> int:
    """The DAT1 CRC32 of ``name`` (not normalised: "Root" and "root" differ).

    zlib's CRC starts from ~seed and ends with a XOR by 0xFFFFFFFF; seeding it with
    ~0xEDB88320 and undoing the final XOR gives ALERT's variant (spec 5.1).
    """
    data = name.encode("utf-8") if isinstance(name, str) else bytes(name)
    return zlib.crc32(data, CRC32_INIT ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def _crc64_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ (_CRC64_POLY if c & 1 else 0)
        table.append(c)
    return table


_CRC64_TABLE = _crc64_table()


def normalize_path(path: str) -> str:
    """Asset-path normalisation ALERT applies before hashing: lowercase, ``\\`` -> ``/``,
    repeated slashes collapsed."""
    return re.sub(r"/+", "/", path.lower().replace("\\", "/"))


def asset_id(path: str) -> int:
    """The 64-bit asset ID of an asset path (spec 5.2): CRC64 of the normalised path, shifted
    right by 2, top bit set."""
    crc = _CRC64_POLY
    for b in normalize_path(path).encode("utf-8"):
        crc = (crc >> 8) ^ _CRC64_TABLE[(crc ^ b) & 0xFF]
    return (crc >> 2) | 0x8000_0000_0000_0000


HASHED_NAME = re.compile(r"([0-9A-Fa-f]{8})\s+(\S.*)")
"""A line as ``animspec hash`` prints it: the name's CRC32 in 8 hex digits, then the name."""


def read_names_file(path: str) -> list[str]:
    """Names from a UTF-8 text file, one per line; blank lines and surrounding spaces are
    ignored. A line as ``animspec hash`` prints it (``8E59B33F  pelvis``) gives its name, when
    the hash is that name's: saving hash's output is the easy way to a names file, and the
    whole line would match no joint. A line whose hash is not its name's is refused (an edited
    name, or its case: hashes are case-sensitive), as is a missing, special or non-UTF-8 file:
    ParseError naming the file (and the line)."""
    names = []
    for number, line in enumerate(read_text(path, what="names file").splitlines(), 1):
        name = line.strip()
        hashed = HASHED_NAME.fullmatch(name)
        if hashed:
            name = hashed[2]
            if int(hashed[1], 16) != crc32(name):
                raise ParseError(path, None, "", (
                    f"line {number}, {line.strip()!r}, reads as a hash and a name, but {hashed[1].upper()} is not "
                    f"the hash of {name!r} ({crc32(name):08X}; names are case-sensitive): give the name alone"))
        if name:
            names.append(name)
    return names
