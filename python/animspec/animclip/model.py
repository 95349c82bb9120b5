"""The model of an .animclip / .performanceclip file: outer header, DAT1, sections, as typed
dataclasses compared by ``==``.

*Content* (compared): the outer magic and its 28 unknown bytes, the DAT1 type id, the
sections in table order (one typed dataclass per known tag, :class:`RawSection` for the
rest; each section type lives in its module of :mod:`.sections`), the "unknowns" table and
the strings block. Every value is stored as read, so that writing an unedited model
reproduces the file byte for byte.

*Layout* (not compared, :class:`Layout`): where each payload sat (``Section.offset``), the
declared sizes, the bytes between payloads, and whether the body was LZ4-compressed.
:mod:`.write` honours it only for a model whose content is unchanged since it was read
(:mod:`.placement`); any edit makes the writer lay the DAT1 out afresh per spec 4.6.

Counts in Anim Clip Built that another section determines (:data:`DERIVED_COUNTS`) are
``None`` when they agree with that section, meaning "derived": the writer computes them from
the sections, so adding a custom track or dropping Base State keeps Built consistent. A
number there is an explicit value written as is (a file whose count disagreed when read).

The edits that keep the content consistent (names appended to the strings block, Custom
Track Data re-packed) are methods here; the decoded view (:meth:`AnimclipFile.clip`) is
computed by :mod:`.view`, below this module. Nothing here imports the placement, the
writer or the per-frame decoder.
Sources: Tkachov/ALERT (snapshot bc90ed9): dat1lib/types/dat1.py, dat1lib/types/autogen.py
and dat1lib/types/sections/animclip/autogen.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..common.hashes import crc32
from .compression import Compression
from .layout import OUTER_HEADER_UNK_SIZE
from .sections import (
    TYPED_SECTIONS,
    BaseState,
    Built,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Path,
    RawSection,
    SampleElem,
    Section,
    SectionBase,
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
    derived_counts,
)
from .sections.base import Eq, same
from .strings import string_at
from .tags import (
    CONTAINER_ASSET,
    MAGIC_MSM2,
    MAGIC_MSMR_MM,
    PAD_TO,
    TAG_BUILT,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_TRIGGER_DATA,
    section_name,
)
from .view import ClipView, clip_view, name_table


@dataclass(eq=False)
class UnknownEntry(Eq):
    """One 8-byte entry of the DAT1 "unknowns" table (spec 4.3): kept, never interpreted.
    The field names follow the EXTERNAL pointer-fixup reading (spec 4.1)."""

    ofs_source: int = 0
    ofs_target: int = 0


@dataclass(eq=False)
class Layout(Eq):
    """Where things were in the file that was read; :mod:`.write` reproduces it exactly when
    the content has not changed (:mod:`.placement` records it and plans the placement).
    (ALERT's own writer, dat1lib/types/dat1.py ``recalculate_section_headers``/``save``,
    always re-lays out; spec 4.6.)

    "Unchanged" is decided by ``content_digest``: a SHA-256 over everything the content
    layer serialises to (:func:`.placement.content_digest`), as it was when the file was
    read. The writer recomputes it; if it matches, and the recorded placement still tiles
    the DAT1 without contradiction, the original bytes come back (odd alignment, unsorted
    table, non-zero padding, trailing bytes, stale sizes and the original LZ4 block
    included). Otherwise the DAT1 is laid out afresh (spec 4.6) and written uncompressed.
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
    """SHA-256 of the content as read (:func:`.placement.content_digest`); use :meth:`digest`."""
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
    (:func:`.views.file_size_on_disk`)."""

    def digest(self) -> str:
        if self.digest_later is not None:
            self.content_digest = self.digest_later()
            self.digest_later = None
        return self.content_digest

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Layout):
            self.digest(), other.digest()
        return super().__eq__(other)


# ---------------------------------------------------------------------------- the file


@dataclass(eq=False)
class AnimclipFile(Eq):
    """A whole .animclip / .performanceclip file."""

    magic: int = MAGIC_MSMR_MM
    """Asset type (:data:`ASSET_MAGICS`): the outer magic, the STG asset header's type, or
    (bare DAT1) the DAT1 type id."""
    header_unk: bytes = bytes(OUTER_HEADER_UNK_SIZE)
    """What the wrapper holds besides the type and the DAT1 size, kept verbatim: the outer
    header's 28 uninterpreted bytes (spec 2.1); for an STG file the whole wrapper with its
    type (offset 16) and size (offset 24) slots zeroed, the writer fills them; nothing for a
    bare DAT1."""
    container: str = CONTAINER_ASSET
    """What precedes the DAT1 (:data:`CONTAINERS`): "asset" (36-byte outer header), "stg"
    (Spider-Man 2's wrapper) or "dat1" (none)."""
    type_id: int = MAGIC_MSMR_MM
    """DAT1 header +0x04, a second copy of a type magic (spec 4.1)."""
    sections: list[Section] = field(default_factory=list)
    """Sections in section-table order. The table order itself is layout: ``==`` compares
    the sections ordered by tag (stably), since a re-laid-out file sorts its table."""
    unknowns: list[UnknownEntry] = field(default_factory=list)
    strings: bytes = b""
    """The strings block up to and including its last string's NUL; zero bytes after it are
    padding (layout). Names are offsets into it (convention B, spec 4.4)."""
    layout: Layout | None = field(default=None, compare=False)
    reencoded: Any = field(default=None, compare=False, repr=False)
    """The encoding an edit of joints made (:func:`.frames.edit.edit_joints`, an
    :class:`.frames.encode.EncodedAnimation` whose ``error`` is what the edit costs), None
    when no edit re-encoded the frames. Not content."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, AnimclipFile)
        return (
            self.magic == other.magic and self.header_unk == other.header_unk
            and self.container == other.container
            and self.type_id == other.type_id and same(self.unknowns, other.unknowns)
            and self.strings == other.strings
            and same(_by_tag(self.sections), _by_tag(other.sections))
        )

    __hash__ = None

    # -- lookup ---------------------------------------------------------------

    def sections_with(self, tag: int) -> list[Section]:
        return [s for s in self.sections if s.tag == tag]

    def section(self, tag: int) -> Section | None:
        """The last section with ``tag``: ALERT's lookup lets a later entry win (spec 4.2)."""
        found = self.sections_with(tag)
        return found[-1] if found else None

    @property
    def built(self) -> Built | None:
        """The Built section that counts (the last one), if it is a typed Built."""
        built = self.section(TAG_BUILT)
        return built if isinstance(built, Built) else None

    def string_at(self, rel: int) -> str | None:
        """The NUL-terminated string at offset ``rel`` of the strings block, or None when the
        offset lies outside the block, the string is not terminated inside it, or it is not
        UTF-8. (An offset into the middle of a string yields its tail, as the .ksy reads it.)"""
        return string_at(self.strings, rel)

    @property
    def is_msm2(self) -> bool:
        """True for a Spider-Man 2 ("i30") file: its DAT1 type is 0x41DFFB44 (ksy
        dat1.is_msm2), which chooses Built's layout from +0x48 and the rules that hold."""
        return self.type_id == MAGIC_MSM2

    @property
    def clip_name(self) -> str | None:
        built = self.built
        return None if built is None else self.string_at(built.ofs_name)

    def layout_order(self) -> list[int]:
        """Table indices in payload order: by recorded offset, new sections last."""
        return sorted(
            range(len(self.sections)),
            key=lambda i: (self.sections[i].offset is None, self.sections[i].offset or 0, i),
        )

    # -- decoded view (:mod:`.view`) and edits ----------------------------------

    def clip(self, joint_names: Mapping[int, str] | Iterable[str] | None = None) -> ClipView:
        """The decoded view: name, timing, joints with their base-state pose, custom tracks,
        triggers, path. Computed from the content each time (edit the content, not this)."""
        return clip_view(self.sections, self.strings, name_table(joint_names))

    def custom_track_values(self, index: int) -> np.ndarray:
        """Track ``index``'s f32 values (a copy), cut to what Custom Track Data holds."""
        tracks = self._custom_tracks()
        data = self.section(TAG_CUSTOM_TRACK_DATA)
        if not isinstance(data, CustomTrackData):
            return np.zeros(0, "<f4")
        return data.track_values(tracks.entries[index])

    def add_string(self, text: str) -> int:
        """Offset of ``text`` in the strings block, appending it if no string equals it.
        Existing offsets stay valid (strings are only ever appended, as ALERT's
        dat1lib/types/dat1.py ``add_string`` does; spec 4.6)."""
        raw = text.encode("utf-8")
        if b"\0" in raw:
            raise ValueError("a name cannot contain a NUL character")
        pos = 0
        while pos < len(self.strings):
            end = self.strings.find(b"\0", pos)
            if end < 0:
                break
            if self.strings[pos:end] == raw:
                return pos
            pos = end + 1
        if not raw:
            raise ValueError("an empty name needs a strings block with a string in it")
        if self.strings and not self.strings.endswith(b"\0"):
            self.strings += b"\0"
        offset = len(self.strings)
        self.strings += raw + b"\0"
        return offset

    def set_clip_name(self, name: str) -> None:
        """Point Built at ``name`` (appended to the strings block) and update its CRC32."""
        built = self.built
        if built is None:
            raise ValueError("the clip has no Anim Clip Built section to hold a name")
        built.ofs_name = self.add_string(name)
        built.name_hash = crc32(name)

    def rename_custom_track(self, index: int, name: str) -> None:
        entry = self._custom_tracks().entries[index]
        entry.ofs_name = self.add_string(name)
        entry.name_hash = crc32(name)

    def set_custom_track_values(self, index: int, values: Any) -> None:
        """Replace track ``index``'s values (any length); Custom Track Data is rebuilt."""
        self.set_all_custom_track_values({index: values})

    def set_all_custom_track_values(self, changes: Mapping[int, Any]) -> None:
        """Replace the values of the tracks in ``changes`` (any lengths). Custom Track Data is
        rebuilt: every track's block is placed in entry order at the next 16-byte boundary
        (spec 7.6), ``ofs_data``/``num_values`` are updated, bytes no entry referenced are
        dropped."""
        tracks = self._custom_tracks()
        data = self.section(TAG_CUSTOM_TRACK_DATA)
        if not isinstance(data, CustomTrackData):
            raise ValueError("the clip has no Custom Track Data section to hold values")
        current = [data.track_values(e) for e in tracks.entries]
        for index, values in changes.items():
            current[index] = f32_array(values)
        pos = 0
        placed = []
        for entry, values in zip(tracks.entries, current):
            start = -(-pos // PAD_TO) * PAD_TO
            entry.ofs_data, entry.num_values = start, len(values)
            placed.append((start // 4, values))
            pos = start + 4 * len(values)
        pool = np.zeros(pos // 4, "<f4")
        for first, values in placed:
            pool[first : first + len(values)] = values
        data.values, data.trailing = pool, b""

    def set_trigger_records(self, records: Iterable[TriggerRecord]) -> None:
        trig = self.section(TAG_TRIGGER_DATA)
        if not isinstance(trig, TriggerData):
            raise ValueError("the clip has no Trigger Data section")
        trig.records = list(records)

    def _custom_tracks(self) -> CustomTracks:
        tracks = self.section(TAG_CUSTOM_TRACKS)
        if not isinstance(tracks, CustomTracks):
            raise ValueError("the clip has no Custom Tracks section")
        return tracks

    def kept_from(self, template: AnimclipFile) -> list[str]:
        """The names of ``template``'s sections (Built aside) this clip holds unchanged, sorted:
        what a clip made on a template took from it."""
        return sorted({section_name(t.tag) for t in template.sections
                       if t.tag != TAG_BUILT and any(s.tag == t.tag and s == t for s in self.sections)})

    def remove_sections(self, tag: int) -> int:
        """Drop every section with ``tag``; returns how many. Derived Built counts follow."""
        before = len(self.sections)
        self.sections = [s for s in self.sections if s.tag != tag]
        return before - len(self.sections)


def _by_tag(sections: list[Section]) -> list[Section]:
    return sorted(sections, key=lambda s: s.tag)


def mark_derived(model: AnimclipFile) -> None:
    """Turn counts that agree with what they count into None ("derived"), so a later edit
    of the counted section carries the count along. Used after reading a file or a dump."""
    derived = derived_counts(model.sections)
    for s in model.sections:
        if isinstance(s, Built):
            for name, value in derived.items():
                if getattr(s, name) == value:
                    setattr(s, name, None)
        elif isinstance(s, TriggerData) and s.len_jsons == len(s.jsons):
            s.len_jsons = None



def f32_array(values: Any) -> np.ndarray:
    """``values`` as a 1-D little-endian f32 array (float32 input keeps its bit patterns);
    ValueError (an edit's refusal) when they are not numbers or do not fit."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-D list of numbers, got shape {arr.shape}")
    if arr.dtype == np.dtype("<f4"):
        return arr.copy()
    if arr.size and arr.dtype.kind not in "fiu":
        raise ValueError(f"expected numbers, got {arr.dtype}")
    with np.errstate(over="ignore"):
        out = arr.astype("<f4")
    wide = arr.astype(np.float64)
    if np.any(np.isfinite(wide) & ~np.isfinite(out)):
        raise ValueError("a value is too large for a 32-bit float")
    return out
