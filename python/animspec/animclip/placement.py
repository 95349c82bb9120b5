"""Where an .animclip's payloads go: the layout recorded when a file is read, the content
digest that tells an unedited model from an edited one, and the writer's placement plan
(byte-exact or re-laid out).

Both sides use this module and neither uses the other: the readers record a
:class:`.model.Layout` from the bytes they read, without serialising anything (a load never
re-serialises its sections), and :mod:`.write` asks :func:`exact_placement` /
:func:`relaid_placement` where each part goes. ``validate``, ``info`` and the JSON dump
take payload sizes from :func:`payload_sizes`, which counts what the writer would write
without writing it (each section type's ``payload_size``).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from ..common.errors import WriteError
from .compression import Compression
from .layout import tables_size
from .model import AnimclipFile, Layout
from .sections import RawSection, payload_size
from .strings import split_strings_region
from .tags import PAD_TO


def payload_sizes(model: AnimclipFile) -> list[int]:
    """The payload size of every section as the writer lays it out, in table order."""
    return [payload_size(s) for s in model.sections]


# ---------------------------------------------------------------------------- the recorded layout


def content_digest(model: AnimclipFile, section_payloads: list[bytes]) -> str:
    """SHA-256 of the content: outer magic and unknown bytes, type id, unknowns, strings,
    and every (tag, payload) in table order. Offsets, sizes and padding are not included."""
    return content_snapshot(model, section_payloads)()


def content_snapshot(model: AnimclipFile, section_payloads: Sequence[bytes | memoryview]) -> Callable[[], str]:
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
    (each section type's ``as_written``); where that differs, the original goes to ``verbatim``."""
    sizes = payload_sizes(model)
    start = tables_size(len(model.sections), len(model.unknowns))
    covered = [(0, start), (start, start + len(model.strings))]
    # id(section) -> (original, as written): shared sections once
    seen: dict[int, tuple[bytes | memoryview, bytes | memoryview]] = {}
    written: list[bytes | memoryview] = []
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
                read = data[base + off : base + off + size]
                pair = (read, section.as_written(read))
            seen[id(section)] = pair
        original, payload = pair
        if payload is not original and payload != original:
            # (a RawSection's pair is one object, so never here: original is a slice of bytes)
            verbatim[i] = cast(bytes, original)
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
