"""Read .animclip / .performanceclip bytes into the typed model, through the parser generated
from ksy/animclip.ksy.

This is the only animclip module that imports generated code. It adapts the generated
objects section by section: bulk arrays come from the spec's ``*_raw`` byte fields through
numpy (never through the lazy per-record instances), small records from the typed fields.

Failures of any kind become one :class:`ParseError` with the file's byte offset and the
field path. Payloads are lazy instances in the spec, so this module forces each one and
locates its failures itself; a payload the section table places past the end of the DAT1 is
reported at that table entry before anything is allocated for it. For an LZ4-compressed body
the offset is where the compressed block starts and the reason names the offset inside the
decompressed DAT1.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import numpy as np
from kaitaistruct import KaitaiStruct, KaitaiStructError

from ..common.errors import ParseError
from ..generated.animclip import Animclip
from ..common.inputs import read_input
from ..kaitai_read import describe, locate_failure, parse
from . import write as _write
from .compression import Compression, inflate
from .model import (
    ASSET_MAGICS,
    BUILT_FIELDS,
    TAG_BUILT,
    TYPED_SECTIONS,
    CUSTOM_TRACK_FIELDS,
    JOINT_DTYPE,
    TRIGGER_DTYPE,
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Layout,
    Path,
    RawSection,
    SampleElem,
    Section,
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
    UnknownEntry,
    mark_derived,
    section_name,
    split_strings_region,
)

_FAILURES = (KaitaiStructError, EOFError, ValueError, UnicodeDecodeError, OverflowError)

LZ4_MAX_RATIO = 64
"""The most a DAT1 body may expand from its LZ4 block. LZ4 itself allows about 255-fold (each
match-length extension byte adds at most 255 output bytes); a body that compresses past
64:1 is almost all repeats, an LZ4 bomb rather than an animation (the example clip
compresses 1.5:1), and is refused before anything is allocated. Reading costs at most 24x
the DAT1 it parses (measured 4x), so memory is bounded by the decompressed size, and through
this cap by 24 x 64 times a compressed file's size (docs/hardening.md: one rule, not two)."""


MAX_CLAIMED_RATIO = 2
"""How many times the DAT1's size the distinct section payloads may add up to. A valid
file's payloads do not overlap (at most 1x); overlapping ones are a finding, until they
would make the reader copy the same bytes over and over (docs/hardening.md)."""


def looks_like_animclip(data: bytes) -> bool:
    """True when ``data`` starts with one of the animclip magics ALERT knows (spec 2.2)."""
    return len(data) >= 4 and int.from_bytes(data[:4], "little") in ASSET_MAGICS


def read_file(path: str | os.PathLike[str]) -> AnimclipFile:
    data = read_input(path)
    return read_bytes(data, os.fspath(path))


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


def read_bytes(data: bytes, path: str | None = None) -> AnimclipFile:
    """Parse a whole file held in memory. ``path`` only labels errors."""
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
        start = root._debug["dat1"]["start"]
        # The bytes the generated parser read `dat1` from (its size-eos substream): the same
        # as data[start:] without a second copy of a 16 MB body.
        dat1_bytes = root._raw_dat1
        dat1 = root.dat1
        where = _Where(path, start, None)

    _check_strings(dat1.strings_block.data, dat1.ofs_strings, where)
    # Built first: Base State's parse reads Built's J and T, and a broken Built should be
    # reported as itself, not as the Base State that needed it.
    entries = list(enumerate(dat1.sections))
    parsed = _sections(sorted(entries, key=lambda e: int(e[1].tag) != TAG_BUILT), dat1_bytes, where)
    sections = [parsed[i] for i in range(len(entries))]
    s = dat1.ofs_strings
    strings, _padding = split_strings_region(dat1_bytes[s : s + dat1.len_strings_block])
    model = AnimclipFile(
        magic=int(root.header.magic),
        header_unk=bytes(root.header.unk),
        type_id=int(dat1.type_id),
        sections=sections,
        unknowns=[UnknownEntry(u.ofs_source, u.ofs_target) for u in dat1.unknowns],
        strings=strings,
    )
    mark_derived(model)
    model.layout = _layout(model, dat1, dat1_bytes, root.header.len_dat1, compression)
    return model


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
        body, outer_size=root.header.len_dat1, path=path, base_offset=start,
        max_size=LZ4_MAX_RATIO * len(body) + 64,
    )
    assert compression is not None  # root.is_lz4_compressed: the magic is where a block has it
    return dat1, compression


def _sections(entries: list[tuple[int, Any]], dat1: bytes, where: _Where) -> dict[int, Section]:
    """The section of every table entry, by index. Entries naming the same payload (tag,
    offset and size) share one Section object, read once: a table of 65,535 entries on one
    payload costs one payload, not 65,535 copies (validate still reports them as
    duplicate-section and sections-overlap); raw sections of any tag on the same bytes share
    one bytes object. Other payloads may overlap too, but the ones read may claim at most
    :data:`MAX_CLAIMED_RATIO` times the DAT1 together: past that, the entry is refused
    before its payload is copied."""
    shared: dict[tuple[int, int, int], Section] = {}
    raw_bytes: dict[tuple[int, int], bytes] = {}
    parsed: dict[int, Section] = {}
    claimed = 0
    budget = MAX_CLAIMED_RATIO * len(dat1)
    for i, entry in entries:
        key = (int(entry.tag), int(entry.ofs_body), int(entry.len_body))
        section = shared.get(key)
        if section is None:
            raw = key[0] not in TYPED_SECTIONS
            if entry.ofs_body + entry.len_body <= len(dat1) and not (raw and key[1:] in raw_bytes):
                claimed += entry.len_body  # (a range past the end: _section reports it)
                if claimed > budget:
                    raise where.error(
                        entry._debug["len_body"]["start"], f"sections[{i}].len_body",
                        f"the section table's distinct payloads claim {claimed} bytes of a {len(dat1)}-byte "
                        f"DAT1 (overlapping); more than {MAX_CLAIMED_RATIO} times the DAT1 is refused",
                    )
            section = shared[key] = _section(entry, i, dat1, where)
            if isinstance(section, RawSection):
                section.data = raw_bytes.setdefault(key[1:], section.data)
        parsed[i] = section
    return parsed


def _section(entry: Any, i: int, dat1: bytes, where: _Where) -> Section:
    tag = int(entry.tag)
    end = entry.ofs_body + entry.len_body
    if end > len(dat1):
        field = "ofs_body" if entry.ofs_body > len(dat1) else "len_body"
        raise where.error(
            entry._debug[field]["start"], f"sections[{i}].{field}",
            f"section {tag:08X} ({section_name(tag)}) payload [0x{entry.ofs_body:x}, 0x{end:x}) "
            f"runs past the end of the DAT1 ({len(dat1)} bytes)",
        )
    try:
        body = entry.body
    except _FAILURES as exc:
        partial = getattr(entry, "_m_body", None)
        inner, offset = locate_failure(partial) if isinstance(partial, KaitaiStruct) else ("", None)
        field = f"sections[{i}].body" + (f".{inner}" if inner else "")
        raise where.error(entry.ofs_body + (offset or 0), field, describe(exc)) from None
    section = _typed(tag, body)
    section.offset = entry.ofs_body
    return section


def _typed(tag: int, body: Any) -> Section:
    if isinstance(body, (bytes, bytearray)):
        return RawSection(tag, bytes(body))  # a tag the spec does not know
    if isinstance(body, Animclip.Built):
        return Built(**{name: getattr(body, name) for name in BUILT_FIELDS}, trailing=bytes(body.trailing))
    if isinstance(body, Animclip.BaseState):
        return BaseState(
            joints=np.frombuffer(body.joints_raw, JOINT_DTYPE).copy(),
            things=bytes(body.things_raw),
            extra=bytes(body.extra),
        )
    if isinstance(body, Animclip.JointHashes):
        return JointHashes(np.frombuffer(body.hashes_raw, "<u4").copy(), bytes(body.trailing))
    if isinstance(body, Animclip.Path):
        # Two 16-float seq fields (no raw bytes in the spec); 64 values are no bulk.
        return Path(
            np.array(body.start_matrix.m, "<f4").reshape(4, 4),
            np.array(body.end_matrix.m, "<f4").reshape(4, 4),
            bytes(body.trailing),
        )
    if isinstance(body, Animclip.CustomTracks):
        rows = np.frombuffer(body.entries_raw, "<u4").reshape(-1, len(CUSTOM_TRACK_FIELDS)).tolist()
        return CustomTracks([CustomTrackEntry(*row) for row in rows], bytes(body.trailing))
    if isinstance(body, Animclip.CustomTrackData):
        return CustomTrackData(np.frombuffer(body.values_raw, "<f4").copy(), bytes(body.trailing))
    if isinstance(body, Animclip.SampleElem):
        return SampleElem(
            np.frombuffer(body.hashes_raw, "<u4").copy(),
            np.frombuffer(body.ndx_raw, "u1").copy(),
            bytes(body.padding),
        )
    if isinstance(body, Animclip.TriggerData):
        records = [TriggerRecord(*row) for row in np.frombuffer(body.records_raw, TRIGGER_DTYPE).tolist()]
        return TriggerData(
            num_jsons=body.num_jsons, num_things=body.num_things, len_jsons=body.len_jsons,
            unk1=body.unk1, unk2=body.unk2, jsons=bytes(body.jsons_raw), records=records,
            trailing=bytes(body.trailing),
        )
    if isinstance(body, Animclip.TriggerJointNames):
        return TriggerJointNames(np.frombuffer(body.hashes_raw, "<u4").tolist(), bytes(body.trailing))
    # The other known tags (Sample Data, Motion Data, Curves, Morph ...): content unknown.
    return RawSection(tag, bytes(body.data_raw))


def _layout(
    model: AnimclipFile, dat1: Any, dat1_bytes: bytes, outer_len: int, compression: Compression | None
) -> Layout:
    payloads = _payloads(model)
    verbatim = {}
    covered = [(0, dat1.ofs_strings), (dat1.ofs_strings, dat1.ofs_strings + len(model.strings))]
    differs: dict[int, bytes | None] = {}  # id(section) -> its original bytes when they differ
    for i, (section, payload) in enumerate(zip(model.sections, payloads)):
        off = section.offset
        assert off is not None
        covered.append((off, off + len(payload)))
        if type(section) is RawSection:
            continue  # its payload is the very bytes object the parser read from there
        if id(section) not in differs:  # a section shared by several entries: compared once
            original = dat1_bytes[off : off + len(payload)]
            differs[id(section)] = original if original != payload else None
        if differs[id(section)] is not None:
            verbatim[i] = differs[id(section)]
    return Layout(
        outer_len_dat1=outer_len,
        dat1_len=dat1.len_dat1,
        dat1_size=len(dat1_bytes),
        fill=_gaps(covered, dat1_bytes),
        digest_later=_write.content_snapshot(model, payloads),
        verbatim=verbatim,
        compression=compression,
    )


def _payloads(model: AnimclipFile) -> list[bytes]:
    """write.payloads(model), without serialising the RawSections: a RawSection's payload is
    its ``data`` unchanged, and a 16 MB Sample Data would otherwise be copied twice by the
    writer and compared once more here (issue 8: no per-byte work beyond the hash)."""
    # The typed sections still go through the writer (derived counts need every section's
    # kind, which an empty RawSection of the same tag keeps).
    shell = copy.copy(model)
    shell.sections = [RawSection(s.tag) if type(s) is RawSection else s for s in model.sections]
    written = _write.payloads(shell)
    return [s.data if type(s) is RawSection else p for s, p in zip(model.sections, written)]


def _gaps(covered: list[tuple[int, int]], data: bytes) -> list[tuple[int, bytes]]:
    """The runs of ``data`` outside every [start, end) interval."""
    gaps = []
    pos = 0
    for start, end in sorted(covered):
        if start > pos:
            gaps.append((pos, data[pos:start]))
        pos = max(pos, end)
    if pos < len(data):
        gaps.append((pos, data[pos:]))
    return gaps
