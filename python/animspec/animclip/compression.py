"""LZ4-compressed DAT1 bodies (Tkachov/ALERT: dat1lib/types/dat1.py, dat1lib/decompression.py).

A DAT1 body that does not start with "1TAD" may be one raw LZ4 block whose first literal run
is the DAT1 header: the magic then sits 1, 2 or 3 bytes in (after the token byte and 0..2
length-extension bytes), and the DAT1 header's own size field, 8 bytes after the magic,
is the decompressed size. ALERT (Tkachov/ALERT, dat1lib/types/dat1.py) checks offsets 2, 1, 3
in that order. Decoding uses the `lz4` package's block decoder, which implements the same
format (ALERT uses it too, in dsar_codec.py).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import lz4.block

from ..common.errors import ParseError
from .tags import DAT1_MAGIC

_PROBE_ORDER = (2, 1, 3)
MAX_DAT1_SIZE = 1 << 30
"""Refuse to inflate more than this: the largest known clip is about 16.7 MB."""


@dataclass(frozen=True)
class Compression:
    """How a compressed body was found, so it can be reported and re-emitted unchanged."""

    magic_offset: int
    compressed: bytes
    """The original compressed bytes, kept so an unedited file is written back exactly."""


def is_compressed(body: bytes) -> bool:
    """True when ``body`` is not a plain DAT1 but carries the magic where an LZ4 block would."""
    return body[:4] != DAT1_MAGIC and _magic_offset(body) is not None


def _magic_offset(body: bytes) -> int | None:
    for offset in _PROBE_ORDER:
        if body[offset : offset + 4] == DAT1_MAGIC:
            return offset
    return None


def inflate(
    body: bytes,
    *,
    outer_size: int | None = None,
    path: str | None = None,
    base_offset: int = 0,
    max_size: int | None = None,
) -> tuple[bytes, Compression | None]:
    """The DAT1 bytes of ``body``: unchanged when plain, decoded when an LZ4 block.

    The decompressed size is the DAT1 header's size field read from the block's first
    literals (ALERT's rule), or else the outer header's size (``outer_size``; the rule of
    ALERT's server/state/assets.py): the first literal run may end before the size field
    when the header compresses. ``base_offset`` is where ``body`` starts in the file, for
    error messages. A size above ``max_size`` (default :data:`MAX_DAT1_SIZE`) is not
    believed and nothing is allocated for it: the callers pass what ``body`` can really
    decode to, so a corrupt or hostile size field costs nothing.
    """
    if body[:4] == DAT1_MAGIC:
        return body, None
    offset = _magic_offset(body)
    if offset is None:
        # Not recognisably compressed: let the DAT1 parser report the bad magic.
        return body, None
    limit = MAX_DAT1_SIZE if max_size is None else min(max_size, MAX_DAT1_SIZE)
    candidates = []
    if len(body) >= offset + 12:
        candidates.append(("the DAT1 header's", struct.unpack_from("<I", body, offset + 8)[0]))
    if outer_size is not None and outer_size not in [size for _, size in candidates]:
        candidates.append(("the outer header's", outer_size))
    problems = []
    for whose, size in candidates:
        if size > limit:
            problems.append(
                f"{whose} size {size} is more than the {limit} bytes accepted from a {len(body)}-byte block"
            )
            continue
        try:
            data = lz4.block.decompress(body, uncompressed_size=size)
        except lz4.block.LZ4BlockError as exc:
            problems.append(f"does not decode to {whose} size {size} ({exc})")
            continue
        # The DAT1 header's own size must describe the data it was read from; the outer
        # size is only a length (the DAT1 header inside may be stale or corrupt).
        if len(data) == size and (whose != "the DAT1 header's" or data[8:12] == struct.pack("<I", size)):
            return data, Compression(offset, bytes(body))
        problems.append(f"decodes to {len(data)} bytes, not {whose} size {size}")
    reason = "; ".join(problems) or "too short to hold a DAT1 header"
    raise ParseError(path, base_offset, "dat1", f"LZ4-compressed DAT1 body: {reason}")
