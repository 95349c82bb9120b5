"""The content of an .animclip / .performanceclip file: outer header, DAT1, sections, as typed
dataclasses compared by ``==``.

*Content* (compared): the outer magic and its 28 unknown bytes, the DAT1 type id, the
sections in table order (one typed dataclass per known tag, :class:`RawSection` for the
rest), the "unknowns" table and the strings block. Every value is stored as read, so that
writing an unedited model reproduces the file byte for byte.

*Layout* (not compared, :mod:`.layout`): where each payload sat (``Section.offset``), the
declared sizes, the bytes between payloads, and whether the body was LZ4-compressed.
:mod:`.write` honours it only for a model whose content is unchanged since it was read;
any edit makes the writer lay the DAT1 out afresh per spec 4.6.

Counts in Anim Clip Built that another section determines (:data:`DERIVED_COUNTS`) are
``None`` when they agree with that section, meaning "derived": the writer computes them from
the sections, so adding a custom track or dropping Base State keeps Built consistent. A
number there is an explicit value written as is (a file whose count disagreed when read).

Bulk arrays are numpy arrays with explicit little-endian dtypes (:mod:`.tags`); small
records are dataclasses. The decoded view and the edits that keep the content consistent
live in :mod:`.views`; :class:`AnimclipFile`'s methods for them are one-line hand-offs.
Sources: Tkachov/ALERT (snapshot bc90ed9): dat1lib/types/dat1.py, dat1lib/types/autogen.py
and dat1lib/types/sections/animclip/autogen.py.
"""

from __future__ import annotations

import itertools
import struct
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Mapping, Union

import numpy as np

from .frames.coding import element_targets, unpack_codes
from .tags import (
    BUILT_RECORD,
    CONTAINER_ASSET,
    FLAG_FRAME_DATA_LOOKUP,
    FLAG_LOOPING,
    JOINT_DTYPE,
    MAGIC_MSM2,
    MAGIC_MSMR_MM,
    OUTER_HEADER_UNK_SIZE,
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_JOINT_HASHES,
    TAG_PATH,
    TAG_SAMPLE_ELEM,
    TAG_TRIGGER_DATA,
    TAG_TRIGGER_JOINT_NAMES,
    THING_SIZE,
    section_name,
)

if TYPE_CHECKING:
    from .layout import Layout
    from .views import ClipView

# ---------------------------------------------------------------------------- equality


def same(a: Any, b: Any) -> bool:
    """Equality that suits byte-exact data: arrays by dtype, shape and bytes; floats by
    bit pattern (NaN equals the same NaN, 0.0 differs from -0.0)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
            and a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        )
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


class _Eq:
    """``==`` over the dataclass fields marked ``compare``, using :func:`same`."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            same(getattr(self, f.name), getattr(other, f.name)) for f in fields(self) if f.compare  # type: ignore[arg-type]
        )

    __hash__ = None  # type: ignore[assignment]


# ---------------------------------------------------------------------------- sections


@dataclass(eq=False)
class SectionBase(_Eq):
    offset: int | None = field(default=None, compare=False, kw_only=True)
    """DAT1 offset the payload was read from (layout, not content); None for a new section.
    The writer lays sections out in ascending order of this value, new ones last (spec 4.6)."""

    @property
    def name(self) -> str:
        return section_name(self.tag)  # type: ignore[attr-defined]


@dataclass(eq=False)
class Built(SectionBase):
    """Anim Clip Built (spec 7.1; ALERT dat1lib/types/sections/animclip/autogen.py,
    AnimClipBuiltSection; Luna Engine IO Tools constants.py ``ANIM_CLIP_BUILT_FORMAT``):
    96 bytes of general clip information. Field names follow ksy/animclip.ksy (Luna's names
    where it has one). The meaning of ``word_48``/``word_4c``/``word_50`` depends on the game
    (:meth:`sound_event_hash`)."""

    tag: ClassVar[int] = TAG_BUILT
    ofs_name: int = 0
    """Clip name offset relative to the strings block start S (convention B, spec 4.4)."""
    name_hash: int = 0
    """CRC32 of the clip name; ALERT checks it ("MISMATCH")."""
    flags: int = 0
    """Clip flags (ksy enum clip_flag): looping 0x20, camera 0x10, frame lookup 0x10000..."""
    fps: float = 30.0
    """Frames per second of the full clip."""
    duration: float = 0.0
    """Clip length in seconds."""
    cycle_count: int = 0
    unk_15: int = 0
    unk_16: int = 0
    unk_17: int = 0
    unk_18: int = 0
    unk_1c: int = 0
    num_joints: int | None = None
    """J, Base State joint records; None = derived."""
    num_frames: int = 0
    """Frames of the full clip (Luna: paged sample count); the frame lookup has this many
    entries (+1 when looping). Not derived."""
    num_elems: int | None = None
    """Sample Elem small elements; None = derived."""
    stride: int = 0
    """Bytes per sample in Sample Data (whole u32 words)."""
    num_base_state_things: int | None = None
    """T, Base State 32-byte things; None = derived."""
    unk_2e: int = 0
    num_unique_samples: int = 0
    """Samples stored in Sample Data (lookup entries index below it)."""
    num_things_alt: int = 0
    unk_34: int = 0
    unk_36: int = 0
    unk_38: int = 0
    num_custom_tracks: int | None = None
    """LABELLED: Custom Tracks entry count; None = derived."""
    unk_3c: int = 0
    num_resident_samples: int = 0
    """Samples in Spider-Man 2's Sample Data Resident."""
    resident_fps: float = 0.0
    num_large_elems: int | None = None
    """Sample Elem large elements; None = derived."""
    word_48: int = 0xDEADDEAD
    """Remastered-era: ALERT's DEAD DEAD markers (the sound-event hash); Spider-Man 2: the
    facial-name hash."""
    word_4c: int = 0
    """Remastered-era: observed 0; Spider-Man 2: the sound-event hash."""
    word_50: int = 0
    """Spider-Man 2: particle_count_max."""
    unk_54: int = 0
    unk_58: int = 0
    unk_5c: int = 0
    trailing: bytes = b""
    """Bytes past offset 96 (never seen in game files)."""

    def sound_event_hash(self, is_msm2: bool) -> int:
        """The sound-event hash (0xDEADDEAD = none): +0x4C in Spider-Man 2, +0x48 before
        (ALERT's "DEAD" markers, which it notes "moved 4 bytes lower in i30")."""
        return self.word_4c if is_msm2 else self.word_48

    @property
    def is_looping(self) -> bool:
        return bool(self.flags & FLAG_LOOPING)

    @property
    def has_frame_lookup(self) -> bool:
        return bool(self.flags & FLAG_FRAME_DATA_LOOKUP)

    @property
    def num_lookup_entries(self) -> int:
        """Frame-lookup entries at the start of Sample Data (ksy built.num_lookup_entries)."""
        return self.num_frames + (1 if self.is_looping else 0) if self.has_frame_lookup else 0


BUILT_FIELDS = tuple(f.name for f in fields(Built) if f.name not in ("offset", "trailing"))
"""Built's fields in file order (the order of ksy/animclip.ksy's built seq)."""

BUILT_FIELD_OFFSETS = dict(zip(BUILT_FIELDS, itertools.accumulate(
    (struct.calcsize("<" + code) for code in BUILT_RECORD.format.lstrip("<")), initial=0)))
"""Where each of Built's fields starts in its payload, from :data:`.tags.BUILT_RECORD`'s sizes
(``stride``: 0x28): the byte a refusal naming the field points at."""


def _empty(dtype: Any) -> Any:
    return field(default_factory=lambda: np.zeros(0, dtype))


@dataclass(eq=False)
class BaseState(SectionBase):
    """Anim Clip Base State (spec 7.2): J joint records, T 32-byte things, then extra bytes.
    The split comes from the (last) Built section's J and T."""

    tag: ClassVar[int] = TAG_BASE_STATE
    joints: np.ndarray = _empty(JOINT_DTYPE)
    """Structured array of :data:`JOINT_DTYPE`, raw quantised integers."""
    things: bytes = b""
    """The T things, 32 bytes each (contents unknown)."""
    extra: bytes = b""
    """Bytes after the things (not described by ALERT)."""

    @property
    def num_things(self) -> int:
        return len(self.things) // THING_SIZE


@dataclass(eq=False)
class JointHashes(SectionBase):
    """Anim Clip Joint Hashes (spec 7.3): CRC32 of each joint name, usually ending in
    0xFFFFFFFF."""

    tag: ClassVar[int] = TAG_JOINT_HASHES
    hashes: np.ndarray = _empty("<u4")
    trailing: bytes = b""


@dataclass(eq=False)
class Path(SectionBase):
    """Anim Clip Path (spec 7.4): two 4x4 f32 matrices, in file order (row- or column-major
    is unknown; ALERT: "like I + translation vector")."""

    tag: ClassVar[int] = TAG_PATH
    start_matrix: np.ndarray = field(default_factory=lambda: np.eye(4, dtype="<f4"))
    end_matrix: np.ndarray = field(default_factory=lambda: np.eye(4, dtype="<f4"))
    trailing: bytes = b""


@dataclass(eq=False)
class CustomTrackEntry(_Eq):
    """One 40-byte Custom Tracks entry (spec 7.5)."""

    name_hash: int = 0
    ofs_name: int = 0
    """Name offset relative to S (convention B)."""
    zero_08: int = 0
    zero_0c: int = 0
    ofs_data: int = 0
    """Byte offset of the values inside Custom Track Data."""
    unk_14: int = 257
    """Typically 257 (0x101), meaning unknown."""
    zero_18: int = 0
    zero_1c: int = 0
    num_values: int = 0
    zero_24: int = 0


CUSTOM_TRACK_FIELDS = tuple(f.name for f in fields(CustomTrackEntry))


@dataclass(eq=False)
class CustomTracks(SectionBase):
    tag: ClassVar[int] = TAG_CUSTOM_TRACKS
    entries: list[CustomTrackEntry] = field(default_factory=list)
    trailing: bytes = b""
    """Bytes after the last whole 40-byte entry (never seen)."""


@dataclass(eq=False)
class CustomTrackData(SectionBase):
    """Anim Clip Custom Track Data (spec 7.6): a pool of f32 values addressed by the Custom
    Tracks entries; alignment gaps included."""

    tag: ClassVar[int] = TAG_CUSTOM_TRACK_DATA
    values: np.ndarray = _empty("<f4")
    trailing: bytes = b""


@dataclass(eq=False)
class SampleElem(SectionBase):
    """Anim Clip Sample Elem (ksy sample_elem; Luna anim_import.py): n u32 component offsets,
    n u8 codes, padding to 4, then m u32 offsets and m u16 codes of the large table, then
    any trailing bytes. n and m come from Built (num_elems, num_large_elems) when they fit
    the payload, else n = size // 5 and m = 0 (ALERT's reading). Offset / 4 = packed
    component index (joint = ci // 12, component = ci % 12); small code: width = low nibble
    + 1, shift = high nibble; large code: width = low byte + 1, shift = high byte."""

    tag: ClassVar[int] = TAG_SAMPLE_ELEM
    offsets: np.ndarray = _empty("<u4")
    codes: np.ndarray = _empty("u1")
    padding: bytes = b""
    large_offsets: np.ndarray = _empty("<u4")
    large_codes: np.ndarray = _empty("<u2")
    trailing: bytes = b""

    def elements(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(joint, component, width, shift) of every element, small ones then large ones, in
        the order their fields sit in each sample (int64 arrays)."""
        offsets = np.concatenate([np.asarray(self.offsets, np.int64), np.asarray(self.large_offsets, np.int64)])
        joint, component = element_targets(offsets)
        width, shift = unpack_codes(self.codes, self.large_codes)
        return joint, component, width, shift


@dataclass(eq=False)
class TriggerRecord(_Eq):
    """One 16-byte trigger record, ALERT's names a..e (spec 7.11)."""

    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    e: int = 0




@dataclass(eq=False)
class TriggerData(SectionBase):
    """Anim Clip Trigger Data (spec 7.11): header words, the ``len_jsons`` region (two
    unknown words, then serialized objects, kept raw), 16-byte records, trailing bytes."""

    tag: ClassVar[int] = TAG_TRIGGER_DATA
    num_jsons: int = 1
    num_things: int = 0
    """LABELLED: presumably the record count; not derived (unconfirmed)."""
    len_jsons: int | None = None
    """None = ``len(jsons)``; a number only when the file's value was cut to the payload."""
    unk1: int = 0
    unk2: int = 0
    jsons: bytes = b""
    records: list[TriggerRecord] = field(default_factory=list)
    trailing: bytes = b""


@dataclass(eq=False)
class TriggerJointNames(SectionBase):
    """Anim Clip Trigger Joint Names (spec 7.12): 1..4 joint-name hashes."""

    tag: ClassVar[int] = TAG_TRIGGER_JOINT_NAMES
    hashes: list[int] = field(default_factory=list)
    trailing: bytes = b""


@dataclass(eq=False)
class RawSection(SectionBase):
    """A section kept as opaque bytes: one of the 10 known tags whose content nobody has
    decoded (Sample Data, Motion Data, ...) or a tag ALERT does not know (spec 6)."""

    tag: int
    data: bytes | memoryview = b""
    """The payload: bytes, or (as the fast reader leaves it) a read-only byte view into the
    file's bytes, which it keeps alive. Pickling and deep copies turn a view into bytes."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if isinstance(state["data"], memoryview):
            state["data"] = state["data"].tobytes()
        return state

    @property
    def words(self) -> np.ndarray:
        """ALERT's u32 view of the data (the last size % 4 bytes are not covered)."""
        n = len(self.data) // 4
        return np.frombuffer(self.data, "<u4", count=n)


Section = Union[
    Built, BaseState, JointHashes, Path, CustomTracks, CustomTrackData, SampleElem,
    TriggerData, TriggerJointNames, RawSection,
]
TYPED_SECTIONS: dict[int, type] = {
    cls.tag: cls  # type: ignore[attr-defined]
    for cls in (Built, BaseState, JointHashes, Path, CustomTracks, CustomTrackData, SampleElem,
                TriggerData, TriggerJointNames)
}



@dataclass(eq=False)
class UnknownEntry(_Eq):
    """One 8-byte entry of the DAT1 "unknowns" table (spec 4.3): kept, never interpreted.
    The field names follow the EXTERNAL pointer-fixup reading (spec 4.1)."""

    ofs_source: int = 0
    ofs_target: int = 0


# ---------------------------------------------------------------------------- the file


@dataclass(eq=False)
class AnimclipFile(_Eq):
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

    __hash__ = None  # type: ignore[assignment]

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

    # -- decoded view and edits (:mod:`.views`) ---------------------------------

    def clip(self, joint_names: Mapping[int, str] | Iterable[str] | None = None) -> ClipView:
        """The decoded view: name, timing, joints with their base-state pose, custom tracks,
        triggers, path. Computed from the content each time (edit the content, not this)."""
        from . import views

        return views.clip_view(self, views.name_table(joint_names))

    def custom_track_values(self, index: int) -> np.ndarray:
        """Track ``index``'s f32 values (a copy), cut to what Custom Track Data holds."""
        from . import views

        return views.custom_track_values(self, index)

    def add_string(self, text: str) -> int:
        """Offset of ``text`` in the strings block, appended if no string equals it."""
        from . import views

        return views.add_string(self, text)

    def set_clip_name(self, name: str) -> None:
        """Point Built at ``name`` (appended to the strings block) and update its CRC32."""
        from . import views

        views.set_clip_name(self, name)

    def rename_custom_track(self, index: int, name: str) -> None:
        from . import views

        views.rename_custom_track(self, index, name)

    def set_custom_track_values(self, index: int, values: Any) -> None:
        """Replace track ``index``'s values (any length); Custom Track Data is rebuilt."""
        from . import views

        views.set_all_custom_track_values(self, {index: values})

    def set_all_custom_track_values(self, changes: Mapping[int, Any]) -> None:
        from . import views

        views.set_all_custom_track_values(self, changes)

    def set_trigger_records(self, records: Iterable[TriggerRecord]) -> None:
        from . import views

        views.set_trigger_records(self, records)

    def remove_sections(self, tag: int) -> int:
        """Drop every section with ``tag``; returns how many. Derived Built counts follow."""
        before = len(self.sections)
        self.sections = [s for s in self.sections if s.tag != tag]
        return before - len(self.sections)


def _by_tag(sections: list[Section]) -> list[Section]:
    return sorted(sections, key=lambda s: s.tag)


def string_at(strings: bytes, rel: int) -> str | None:
    if not 0 <= rel < len(strings):
        return None
    end = strings.find(b"\0", rel)
    if end < 0:
        return None
    try:
        return strings[rel:end].decode("utf-8")
    except UnicodeDecodeError:
        return None


def split_strings_region(region: bytes) -> tuple[bytes, bytes]:
    """(strings, padding) of the bytes between the tables and the first payload: the
    strings run to the NUL after the last non-NUL byte; the zeros after it are padding."""
    content = region.rstrip(b"\0")
    if not content:
        return b"", region
    if len(content) < len(region):
        content += b"\0"
    return content, region[len(content):]


def derived_counts(sections: list[Section]) -> dict[str, int]:
    """The values of :data:`DERIVED_COUNTS` implied by the (last) sections they count."""

    def last(tag: int) -> Any:
        found = [s for s in sections if s.tag == tag]
        return found[-1] if found and not isinstance(found[-1], RawSection) else None

    base, tracks, elem = last(TAG_BASE_STATE), last(TAG_CUSTOM_TRACKS), last(TAG_SAMPLE_ELEM)
    return {
        "num_joints": len(base.joints) if base is not None else 0,
        "num_base_state_things": base.num_things if base is not None else 0,
        "num_custom_tracks": len(tracks.entries) if tracks is not None else 0,
        "num_elems": len(elem.offsets) if elem is not None else 0,
        "num_large_elems": len(elem.large_offsets) if elem is not None else 0,
    }


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

