"""Where an .animclip's bytes go: payload sizes, the layout recorded when a file is read,
the content digest that tells an unedited model from an edited one, and the writer's
placement plan (byte-exact or re-laid out).

Both sides use this module and neither uses the other: the readers record a
:class:`Layout` from the bytes they read, without serialising anything (issue 15: a load
never re-serialises its sections), and :mod:`.write` asks :func:`exact_placement` /
:func:`relaid_placement` where each part goes. ``validate``, ``info`` and the JSON dump
take payload sizes from :func:`payload_sizes`, which counts what the writer would write
without writing it.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..common.errors import WriteError
from .compression import Compression
from .content import (
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTracks,
    JointHashes,
    Path,
    RawSection,
    SampleElem,
    Section,
    TriggerData,
    TriggerJointNames,
    _Eq,
    split_strings_region,
)
from .tags import (
    BUILT_SIZE,
    CUSTOM_TRACK_SIZE,
    DAT1_HEADER,
    JOINT_SIZE,
    LARGE_ELEM_SIZE,
    PAD_TO,
    PATH_SIZE,
    SAMPLE_ELEM_SIZE,
    SECTION_ENTRY,
    TRIGGER_HEADER,
    TRIGGER_RECORD_SIZE,
    UNKNOWN_ENTRY,
)

# ---------------------------------------------------------------------------- sizes


def tables_size(num_sections: int, num_unknowns: int) -> int:
    """DAT1 offset S of the strings block: header, section table, unknowns table (spec 4.4)."""
    return DAT1_HEADER.size + SECTION_ENTRY.size * num_sections + UNKNOWN_ENTRY.size * num_unknowns


def payload_size(section: Section) -> int:
    """The byte count of ``section``'s payload as the writer lays it out: each section type
    is a run of fixed-size records and its leftover bytes (ksy/animclip.ksy). For a section
    just read this is its table entry's ``len_body``; a model the writer refuses may give
    any number (``validate`` reports it as unwritable first)."""
    if isinstance(section, Built):
        return BUILT_SIZE + len(section.trailing)
    if isinstance(section, BaseState):
        return JOINT_SIZE * len(section.joints) + len(section.things) + len(section.extra)
    if isinstance(section, (JointHashes, TriggerJointNames)):
        return 4 * len(section.hashes) + len(section.trailing)
    if isinstance(section, Path):
        return PATH_SIZE + len(section.trailing)
    if isinstance(section, CustomTracks):
        return CUSTOM_TRACK_SIZE * len(section.entries) + len(section.trailing)
    if isinstance(section, CustomTrackData):
        return 4 * len(section.values) + len(section.trailing)
    if isinstance(section, SampleElem):
        return (SAMPLE_ELEM_SIZE * len(section.offsets) + len(section.padding)
                + LARGE_ELEM_SIZE * len(section.large_offsets) + len(section.trailing))
    if isinstance(section, TriggerData):
        return TRIGGER_HEADER.size + len(section.jsons) + TRIGGER_RECORD_SIZE * len(section.records) + len(section.trailing)
    if isinstance(section, RawSection):
        return len(section.data)
    raise TypeError(f"{type(section).__name__} is not a section")


def payload_sizes(model: AnimclipFile) -> list[int]:
    """:func:`payload_size` of every section, in table order."""
    return [payload_size(s) for s in model.sections]


# ---------------------------------------------------------------------------- the recorded layout


@dataclass(eq=False)
class Layout(_Eq):
    """Where things were in the file that was read; :mod:`.write` reproduces it exactly when
    the content has not changed. (ALERT's own writer, dat1lib/types/dat1.py
    ``recalculate_section_headers``/``save``, always re-lays out; spec 4.6.)

    "Unchanged" is decided by ``content_digest``: a SHA-256 over everything the content
    layer serialises to (:func:`content_digest`), as it was when the file was read. The
    writer recomputes it; if it matches, and the recorded placement still tiles the DAT1
    without contradiction, the original bytes come back (odd alignment, unsorted table,
    non-zero padding, trailing bytes, stale sizes and the original LZ4 block included).
    Otherwise the DAT1 is laid out afresh (spec 4.6) and written uncompressed.
    """

    outer_len_dat1: int
    """Outer header size field as read (possibly stale)."""
    dat1_len: int
    """DAT1 header size field as read."""
    dat1_size: int
    """Actual DAT1 byte count (file size - 36, or the decompressed size)."""
    fill: list[tuple[int, bytes]] = field(default_factory=list)
    """DAT1 bytes no table, strings block or payload covers: padding, trailing bytes
    (DAT1 offset, bytes)."""
    content_digest: str = ""
    """SHA-256 of the content as read (:func:`content_digest`); use :meth:`digest`."""
    digest_later: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    """Computes ``content_digest`` from a snapshot of the content taken at read time, on
    first use: hashing a 16 MB clip costs more than loading it, and most loads (info,
    validate) never write."""
    verbatim: dict[int, bytes] = field(default_factory=dict)
    """Payloads (by table index) the typed form does not reproduce: Python's float
    conversion quiets a signalling NaN in an f32 field (Built fps/duration, Path)."""
    compression: Compression | None = None
    """The original LZ4 block when the body was compressed (spec 3)."""
    file_size: int | None = field(default=None, compare=False)
    """Bytes of the file read (on disk; an LZ4-compressed one's compressed size), None for a
    layout not read from a file (a JSON dump): the size the decode bounds are stated on
    (:func:`.frames.inputs.file_size_on_disk`)."""

    def digest(self) -> str:
        if self.digest_later is not None:
            self.content_digest = self.digest_later()
            self.digest_later = None
        return self.content_digest

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Layout):
            self.digest(), other.digest()
        return super().__eq__(other)


def content_digest(model: AnimclipFile, section_payloads: list[bytes]) -> str:
    """SHA-256 of the content: outer magic and unknown bytes, type id, unknowns, strings,
    and every (tag, payload) in table order. Offsets, sizes and padding are not included."""
    return content_snapshot(model, section_payloads)()


def content_snapshot(model: AnimclipFile, section_payloads: list[bytes]) -> Callable[[], str]:
    """What :func:`content_digest` hashes, captured now (immutable copies and references),
    hashed when called: edits made to the model after this do not change the result."""
    head = struct.pack("<QQQ", model.magic, model.type_id, len(model.header_unk)) + bytes(model.header_unk)
    unknowns = [(u.ofs_source, u.ofs_target) for u in model.unknowns]
    strings = bytes(model.strings)
    tagged = [(s.tag, p) for s, p in zip(model.sections, section_payloads)]

    def digest() -> str:
        h = hashlib.sha256(b"animspec animclip content v1\0")
        h.update(head)
        h.update(struct.pack("<Q", len(unknowns)))
        for source, target in unknowns:
            h.update(struct.pack("<QQ", source, target))
        h.update(struct.pack("<Q", len(strings)))
        h.update(strings)
        for tag, p in tagged:
            h.update(struct.pack("<QQ", tag, len(p)))
            h.update(p)
        return h.hexdigest()

    return digest


def recorded_layout(
    model: AnimclipFile, data: bytes, base: int, dat1_size: int, outer_len: int, dat1_len: int,
    compression: Compression | None,
) -> Layout:
    """The layout of ``model`` as just read from the DAT1 ``data[base : base + dat1_size]``
    (every section's ``offset`` set), taken from those bytes: nothing is serialised. Each payload the
    writer will give for the unedited model is its original bytes (a RawSection's ``data``
    is the very object read), except where the model holds an f32 as a Python float
    (:func:`_as_written`); where that differs, the original goes to ``verbatim``."""
    sizes = payload_sizes(model)
    start = tables_size(len(model.sections), len(model.unknowns))
    covered = [(0, start), (start, start + len(model.strings))]
    seen: dict[int, tuple[bytes, bytes]] = {}  # id(section) -> (original, as written): shared sections once
    written: list[bytes] = []
    verbatim: dict[int, bytes] = {}
    for i, (section, size) in enumerate(zip(model.sections, sizes)):
        off = section.offset
        assert off is not None
        covered.append((off, off + size))
        pair = seen.get(id(section))
        if pair is None:
            if type(section) is RawSection:
                pair = (section.data, section.data)
            else:
                original = data[base + off : base + off + size]
                pair = (original, _as_written(section, original))
            seen[id(section)] = pair
        original, payload = pair
        if payload is not original and payload != original:
            verbatim[i] = original
        written.append(payload)
    return Layout(
        outer_len_dat1=outer_len,
        dat1_len=dat1_len,
        dat1_size=dat1_size,
        fill=_gaps(covered, data, base, dat1_size),
        digest_later=content_snapshot(model, written),
        verbatim=verbatim,
        compression=compression,
    )


_FLOATS_AT = 0x0C
_RESIDENT_FPS_AT = 0x40
"""Built +0x0C fps, +0x10 duration and +0x40 resident_fps: the f4 fields of
:data:`.tags.BUILT_RECORD`."""


def _as_written(section: Section, original: bytes) -> bytes:
    """The payload the writer gives for ``section`` just read from ``original``: the same
    bytes, except the f32 fields the model keeps as Python floats (Built fps and duration,
    Path's matrices, read as f4 values by the spec): converting a signalling NaN to a
    Python float quiets it, and the writer packs the model's value."""
    if isinstance(section, Built):
        floats = struct.pack("<ff", section.fps, section.duration)
        resident = struct.pack("<f", section.resident_fps)
        return (original[:_FLOATS_AT] + floats + original[_FLOATS_AT + 8 : _RESIDENT_FPS_AT] + resident
                + original[_RESIDENT_FPS_AT + 4 :])
    if isinstance(section, Path):
        matrices = np.asarray(section.start_matrix, "<f4").tobytes() + np.asarray(section.end_matrix, "<f4").tobytes()
        return matrices + original[PATH_SIZE:]
    return original


def _gaps(covered: list[tuple[int, int]], data: bytes, base: int, size: int) -> list[tuple[int, bytes]]:
    """The runs of the DAT1 ``data[base : base + size]`` outside every [start, end) interval
    (DAT1 offsets)."""
    gaps = []
    pos = 0
    for start, end in sorted(covered):
        if start > pos:
            gaps.append((pos, data[base + pos : base + start]))
        pos = max(pos, end)
    if pos < size:
        gaps.append((pos, data[base + pos : base + size]))
    return gaps


# ---------------------------------------------------------------------------- placement


@dataclass
class Placement:
    """Where the writer puts each part of the DAT1."""

    table_order: list[int]
    """Table indices in the order the section table lists them."""
    offsets: list[int]
    """DAT1 offset of each section's payload, by table index."""
    strings: bytes
    """The strings block as written, at :func:`tables_size`."""
    dat1_len: int
    """The DAT1 header's size field."""
    outer_len: int
    """The outer header's size field."""
    dat1_size: int
    """Bytes in the DAT1."""


def is_unedited(model: AnimclipFile, section_payloads: list[bytes]) -> bool:
    """True when ``model`` still has the content its recorded layout was read with."""
    return model.layout is not None and model.layout.digest() == content_digest(model, section_payloads)


def exact_placement(model: AnimclipFile) -> Placement | None:
    """The placement recorded when the file was read (table order, offsets, sizes as they
    were, stale ones included), or None when the model has no usable recorded layout."""
    layout = model.layout
    offsets = [s.offset for s in model.sections]
    if layout is None or any(o is None for o in offsets) or not 0 <= layout.dat1_size <= 0xFFFF_FFFF:
        return None
    return Placement(
        table_order=list(range(len(model.sections))),
        offsets=offsets,  # type: ignore[arg-type]
        strings=bytes(model.strings),
        dat1_len=layout.dat1_len,
        outer_len=layout.outer_len_dat1,
        dat1_size=layout.dat1_size,
    )


def relaid_placement(model: AnimclipFile, sizes: list[int]) -> Placement:
    """Spec 4.6: the section table sorted by ascending tag, then the unknowns table, the
    strings block (appended strings included, so strings-relative offsets stay valid), then
    the payloads in ascending order of their recorded offsets (new sections last), each on a
    16-byte boundary (DAT1-relative); DAT1 size = end of the last payload."""
    n = len(model.sections)
    strings = bytes(model.strings)
    if strings and not strings.endswith(b"\0"):
        strings += b"\0"  # otherwise the last string would run into the padding or a payload
    strings = split_strings_region(strings)[0]
    pos = tables_size(n, len(model.unknowns)) + len(strings)
    offsets = [0] * n
    for i in model.layout_order():
        pos = -(-pos // PAD_TO) * PAD_TO
        offsets[i] = pos
        pos += sizes[i]
    if pos > 0xFFFF_FFFF:
        raise WriteError("len_dat1", f"the DAT1 would be {pos} bytes; sizes are 32-bit")
    table_order = sorted(range(n), key=lambda i: model.sections[i].tag)  # stable for equal tags
    return Placement(table_order, offsets, strings, dat1_len=pos, outer_len=pos, dat1_size=pos)
