"""Read .animclip / .performanceclip bytes into the typed model through the parser generated
from ksy/animclip.ksy: the reference reader, and the one that words every error.

This is the only animclip module that imports generated code, and :mod:`.parse` imports it
only for a file the bulk reader (:mod:`.fastread`) leaves to it: the generated code is
compiled in debug mode, whose positions name an error's field and offset, and a valid file
does not pay for them. It adapts the generated objects section by section, each
through its section type's ``adapt`` (:mod:`.sections`, which reads the generated object by
the spec's field names without importing the generated module): bulk arrays come from the
spec's ``*_raw`` byte fields through numpy (never through the lazy per-record instances),
small records from the typed fields.

Failures of any kind become one :class:`ParseError` with the file's byte offset and the
field path. Payloads are lazy instances in the spec, so this module forces each one and
locates its failures itself; a payload the section table places past the end of the DAT1 is
reported at that table entry before anything is allocated for it. For an LZ4-compressed body
the offset is where the compressed block starts and the reason names the offset inside the
decompressed DAT1.
"""

from __future__ import annotations

from typing import Any

from kaitaistruct import KaitaiStruct, KaitaiStructError

from ..common.errors import ParseError
from ..generated.animclip import Animclip
from ..kaitai_read import describe, locate_failure, parse
from .compression import Compression, inflate
from .layout import STG_SIZE_AT, STG_TYPE_AT
from .model import AnimclipFile
from .reading import MAX_CLAIMED_RATIO, assemble, lz4_max_size, read_sections
from .sections import Section, section_type
from .tags import CONTAINER_ASSET, CONTAINER_DAT1, CONTAINER_STG, section_name

_FAILURES = (KaitaiStructError, EOFError, ValueError, UnicodeDecodeError, OverflowError)


class _Where:
    """Turns a DAT1 offset into a ParseError location (plain body or decompressed body)."""

    def __init__(self, path: str | None, base: int | None, lz4_start: int | None):
        self.path, self.base, self.lz4_start = path, base, lz4_start

    def error(self, dat1_offset: int | None, field: str, reason: str) -> ParseError:
        field = f"dat1.{field}" if field else "dat1"
        if self.base is not None:
            offset = None if dat1_offset is None else self.base + dat1_offset
            return ParseError(self.path, offset, field, reason)
        if dat1_offset is not None:
            reason += f" (at offset {dat1_offset} (0x{dat1_offset:x}) of the decompressed DAT1)"
        return ParseError(self.path, self.lz4_start, field, reason)


def read(data: bytes, path: str | None = None) -> AnimclipFile:
    """Parse a whole file held in memory with the generated parser. ``path`` only labels errors."""
    root = parse(Animclip, data, path)
    compression: Compression | None = None
    if root.is_lz4_compressed:
        start = root._debug["lz4_body"]["start"]
        dat1_bytes, compression = _inflate(root, path, start)
        where = _Where(path, None, start)
        try:
            dat1 = parse(Animclip.Dat1, dat1_bytes, path)
        except ParseError as exc:
            raise where.error(exc.offset, exc.field, exc.reason) from None
    else:
        start = root._debug["dat1"]["start"]  # 36, 32 (an STG wrapper as Luna writes it) or 0
        # The bytes the generated parser read `dat1` from (its size-eos substream): the same
        # as data[start:] without a second copy of a 16 MB body.
        dat1_bytes = root._raw_dat1
        dat1 = root.dat1
        where = _Where(path, start, None)

    _check_strings(dat1.strings_block.data, dat1.ofs_strings, where)
    size = len(dat1_bytes)
    table = dat1.sections
    entries = [(int(e.tag), int(e.ofs_body), int(e.len_body)) for e in table]

    def refuse(i: int, claimed: int) -> Exception:
        return where.error(
            table[i]._debug["len_body"]["start"], f"sections[{i}].len_body",
            f"the section table's distinct payloads claim {claimed} bytes of a {size}-byte "
            f"DAT1 (overlapping); more than {MAX_CLAIMED_RATIO} times the DAT1 is refused",
        )

    sections = read_sections(entries, size, lambda i: _section(table[i], i, size, where), refuse)
    magic, header_unk, outer_len, container = _wrapper(root, data, start, dat1)
    return assemble(
        magic=magic, header_unk=header_unk, type_id=int(dat1.type_id), container=container,
        sections=sections, unknowns=[(u.ofs_source, u.ofs_target) for u in dat1.unknowns],
        dat1=dat1_bytes, base=0, dat1_size=size, strings_size=dat1.len_strings_block,
        outer_len=outer_len, dat1_len=dat1.len_dat1, compression=compression,
    )


def _wrapper(root: Animclip, data: bytes, start: int, dat1: Any) -> tuple[int, bytes, int, str]:
    """(asset type, the wrapper's other bytes, its DAT1 size field, container) of the file
    (model.AnimclipFile.header_unk says what the bytes are for each container)."""
    if root.is_bare_dat1:
        return int(dat1.type_id), b"", int(dat1.len_dat1), CONTAINER_DAT1
    if root.is_stg:
        asset = root.stg.asset_header
        wrapper = bytearray(data[:start])
        wrapper[STG_TYPE_AT : STG_TYPE_AT + 4] = bytes(4)
        wrapper[STG_SIZE_AT : STG_SIZE_AT + 4] = bytes(4)
        return int(asset.asset_type), bytes(wrapper), int(asset.len_dat1), CONTAINER_STG
    return int(root.header.magic), bytes(root.header.unk), int(root.header.len_dat1), CONTAINER_ASSET


def _check_strings(block: bytes, ofs_strings: int, where: _Where) -> None:
    """The spec reads every string of the block as UTF-8 (lazily, ``strings_block.strings``):
    decode the block at once, in C, and report the first bad string as the spec would."""
    try:
        block.decode("utf-8")
    except UnicodeDecodeError as exc:
        first = block.rfind(b"\0", 0, exc.start) + 1
        index = block.count(b"\0", 0, exc.start)
        raise where.error(ofs_strings + first, f"strings_block.strings[{index}]", describe(exc)) from None


def _inflate(root: Animclip, path: str | None, start: int) -> tuple[bytes, Compression]:
    body = bytes(root.lz4_body)
    dat1, compression = inflate(
        body, outer_size=root.header.len_dat1, path=path, base_offset=start, max_size=lz4_max_size(len(body)),
    )
    assert compression is not None  # root.is_lz4_compressed: the magic is where a block has it
    return dat1, compression


def _section(entry: Any, i: int, size: int, where: _Where) -> Section:
    tag = int(entry.tag)
    end = entry.ofs_body + entry.len_body
    if end > size:
        field = "ofs_body" if entry.ofs_body > size else "len_body"
        raise where.error(
            entry._debug[field]["start"], f"sections[{i}].{field}",
            f"section {tag:08X} ({section_name(tag)}) payload [0x{entry.ofs_body:x}, 0x{end:x}) "
            f"runs past the end of the DAT1 ({size} bytes)",
        )
    try:
        body = entry.body
    except _FAILURES as exc:
        partial = getattr(entry, "_m_body", None)
        inner, offset = locate_failure(partial) if isinstance(partial, KaitaiStruct) else ("", None)
        field = f"sections[{i}].body" + (f".{inner}" if inner else "")
        raise where.error(entry.ofs_body + (offset or 0), field, describe(exc)) from None
    # Each section type adapts the generated object of its own spec type (duck-typed on the
    # spec's field names, .sections); a tag the spec does not know comes as bytes.
    return section_type(tag).adapt(tag, body)
