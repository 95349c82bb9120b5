"""The container's record layouts: the outer asset header, Spider-Man 2's STG wrapper, the
DAT1 header and its two tables, restated once in Python for the bulk reader and the writer
(as ``layout.py`` does in the sibling format packages). Each section's own records live in
its module of :mod:`.sections`, with the code that reads and writes them.

This module does not import the generated parser; ``tests/test_animclip_layout.py`` holds
each record against the generated classes. Sources: Tkachov/ALERT (snapshot bc90ed9)
dat1lib/types/dat1.py and dat1lib/types/autogen.py; Pcniado/luna_engine_io_tools (snapshot
77ea909) anim_export.py (the STG wrapper).
"""

from __future__ import annotations

import struct

OUTER_HEADER = struct.Struct("<II28s")
"""The 36-byte outer asset header: magic, len_dat1, 28 uninterpreted bytes (ksy outer_header)."""
OUTER_HEADER_UNK_SIZE = 28

STG_HEADER = struct.Struct("<4sIII")
"""The STG wrapper's first 16 bytes: magic, version, len_asset_header, unk_0c (ksy stg_wrapper)."""
STG_ASSET_HEADER = struct.Struct("<IBBHII")
"""The asset header Luna writes inside it: asset_type, unk_04, unk_05, unk_06, len_dat1,
unk_0c (ksy stg_asset_header, 16 bytes)."""
STG_TYPE_AT = STG_HEADER.size
STG_SIZE_AT = STG_HEADER.size + 8
"""File offsets of the asset type and the DAT1 size inside the STG wrapper."""
STG_ALIGN = 16
"""The wrapper is padded to a multiple of 16 bytes (Luna ``STG_HEADER_ALIGN``)."""


def stg_wrapper_size(len_asset_header: int) -> int:
    """Bytes of an STG wrapper whose asset header is ``len_asset_header`` bytes (ksy stg_wrapper)."""
    return -(-(STG_HEADER.size + len_asset_header) // STG_ALIGN) * STG_ALIGN


DAT1_HEADER = struct.Struct("<4sIIHH")
"""magic, type_id, len_dat1, num_sections, num_unknowns (ksy dat1, 16 bytes)."""

SECTION_ENTRY = struct.Struct("<III")
"""tag, ofs_body, len_body (ksy section_entry, 12 bytes)."""

UNKNOWN_ENTRY = struct.Struct("<II")
"""ofs_source, ofs_target (ksy unknown_entry, 8 bytes)."""


def tables_size(num_sections: int, num_unknowns: int) -> int:
    """DAT1 offset S of the strings block: header, section table, unknowns table (spec 4.4)."""
    return DAT1_HEADER.size + SECTION_ENTRY.size * num_sections + UNKNOWN_ENTRY.size * num_unknowns
