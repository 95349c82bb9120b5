"""What the two .animclip readers share: the limits on hostile input, the rule that table
entries naming one payload share one section, and the assembly of the parts read into the
model with its recorded layout.

The readers: :mod:`.fastread` (struct and numpy on the file's bytes, every valid file) and
:mod:`.adapt` (the generated parser, which words every error and reads what the fast
reader leaves to it). :mod:`.parse` chooses between them.
"""

from __future__ import annotations

from collections.abc import Callable

from .compression import Compression
from .layout import tables_size
from .model import AnimclipFile, UnknownEntry, mark_derived
from .placement import recorded_layout
from .sections import TYPED_SECTIONS, RawSection, Section
from .strings import split_strings_region
from .tags import CONTAINER_ASSET, TAG_BUILT

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


def lz4_max_size(compressed_size: int) -> int:
    """The largest DAT1 believed from an LZ4 block of ``compressed_size`` bytes."""
    return LZ4_MAX_RATIO * compressed_size + 64


Entry = tuple[int, int, int]
"""One section-table entry: (tag, ofs_body, len_body)."""


def read_sections(
    entries: list[Entry],
    dat1_size: int,
    read_one: Callable[[int], Section],
    refuse: Callable[[int, int], Exception],
) -> list[Section]:
    """The section of every table entry, in table order. ``read_one(i)`` reads entry i's
    payload (raising what the reader raises); ``refuse(i, claimed)`` is the error for entry
    i when the payloads read so far claim ``claimed`` bytes, more than
    :data:`MAX_CLAIMED_RATIO` times the DAT1.

    Built is read first: Base State's split uses Built's J and T, and a broken Built should
    be reported as itself, not as the Base State that needed it. Entries naming the same
    payload (tag, offset and size) share one Section object, read once: a table of 65,535
    entries on one payload costs one payload, not 65,535 copies (validate still reports
    them as duplicate-section and sections-overlap); raw sections of any tag on the same
    bytes share one bytes object. Other payloads may overlap too, but the ones read may
    claim at most :data:`MAX_CLAIMED_RATIO` times the DAT1 together: past that, the entry
    is refused before its payload is copied."""
    shared: dict[Entry, Section] = {}
    raw_bytes: dict[tuple[int, int], bytes | memoryview] = {}
    parsed: list[Section | None] = [None] * len(entries)
    claimed = 0
    budget = MAX_CLAIMED_RATIO * dat1_size
    for i in sorted(range(len(entries)), key=lambda i: entries[i][0] != TAG_BUILT):
        key = entries[i]
        section = shared.get(key)
        if section is None:
            tag, ofs, size = key
            raw = tag not in TYPED_SECTIONS
            if ofs + size <= dat1_size and not (raw and (ofs, size) in raw_bytes):
                claimed += size  # (a range past the end: the reader reports it)
                if claimed > budget:
                    raise refuse(i, claimed)
            section = shared[key] = read_one(i)
            section.offset = ofs
            if isinstance(section, RawSection):
                section.data = raw_bytes.setdefault((ofs, size), section.data)
        parsed[i] = section
    return parsed  # type: ignore[return-value]  # every entry was read


def assemble(
    *,
    magic: int,
    header_unk: bytes,
    type_id: int,
    sections: list[Section],
    unknowns: list[tuple[int, int]],
    dat1: bytes,
    base: int,
    dat1_size: int,
    strings_size: int,
    outer_len: int,
    dat1_len: int,
    compression: Compression | None,
    container: str = CONTAINER_ASSET,
) -> AnimclipFile:
    """The model of a file read: its content, derived counts marked, and the layout
    recorded. The DAT1 is ``dat1[base : base + dat1_size]`` (the file's bytes from offset 36
    on, or a decompressed body); its strings block starts after the tables and runs
    ``strings_size`` bytes."""
    start = base + tables_size(len(sections), len(unknowns))
    strings, _padding = split_strings_region(dat1[start : start + strings_size])
    model = AnimclipFile(
        magic=magic,
        header_unk=header_unk,
        type_id=type_id,
        sections=sections,
        unknowns=[UnknownEntry(source, target) for source, target in unknowns],
        strings=strings,
        container=container,
    )
    mark_derived(model)
    model.layout = recorded_layout(model, dat1, base, dat1_size, outer_len, dat1_len, compression)
    return model
