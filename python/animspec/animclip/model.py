"""Typed model of an .animclip / .performanceclip file: outer header, DAT1, sections.

Two layers live here.

*Content* (compared by ``==``): the outer magic and its 28 unknown bytes, the DAT1 type id,
the sections in table order (one typed dataclass per known tag, :class:`RawSection` for the
rest), the "unknowns" table and the strings block. Every value is stored as read, so that
writing an unedited model reproduces the file byte for byte.

*Layout* (not compared): where each payload sat (``Section.offset``), the declared sizes,
the bytes between payloads, and whether the body was LZ4-compressed. :mod:`.write` honours
it only for a model whose content is unchanged since it was read (see :class:`Layout`);
any edit makes the writer lay the DAT1 out afresh per spec 4.6.

Counts in Anim Clip Built that another section determines (:data:`DERIVED_COUNTS`) are
``None`` when they agree with that section, meaning "derived": the writer computes them from
the sections, so adding a custom track or dropping Base State keeps Built consistent. A
number there is an explicit value written as is (a file whose count disagreed when read).

Bulk arrays are numpy arrays with explicit little-endian dtypes; small records are
dataclasses. The record dtypes below restate ksy/animclip.ksy's base_state_joint and
trigger_record field order; tests hold them against the generated parser. Sources:
Tkachov/ALERT (snapshot bc90ed9): dat1lib/types/dat1.py, dat1lib/types/autogen.py and
dat1lib/types/sections/animclip/autogen.py.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields
from typing import Any, Callable, ClassVar, Iterable, Mapping, Union

import numpy as np

from ..common.hashes import crc32
from ..quaternion import normalize
from .compression import Compression

# ---------------------------------------------------------------------------- constants

MAGIC_MSMR_MM = 0xC96F58F3
MAGIC_RCRA = 0x0F64FFE8
MAGIC_ANIMCLIP2 = 0x39AC933C
ASSET_MAGICS: dict[int, str] = {
    MAGIC_MSMR_MM: "Marvel's Spider-Man Remastered / Miles Morales",
    MAGIC_RCRA: "Ratchet & Clank: Rift Apart",
    MAGIC_ANIMCLIP2: "AnimClip2 (game not stated by ALERT)",
}
"""Outer magics ALERT knows for animclips (spec 2.2, dat1lib/types/autogen.py). The same
magic serves .animclip and .performanceclip: nothing in the file tells them apart."""

TAG_BUILT = 0x9DF23F77
TAG_BASE_STATE = 0x2BB5BC8F
TAG_JOINT_HASHES = 0xA3B26640
TAG_PATH = 0x3976E44C
TAG_CUSTOM_TRACKS = 0x14014CB6
TAG_CUSTOM_TRACK_DATA = 0x116EB684
TAG_CURVES = 0x09DC30AB
TAG_CURVES_DATA = 0x4FC98D7E
TAG_MOTION_DATA = 0xE08AA35F
TAG_SAMPLE_ELEM = 0xD070D358
TAG_SAMPLE_DATA = 0x3A7B4855
TAG_TRIGGER_DATA = 0x6962F7DE
TAG_TRIGGER_JOINT_NAMES = 0x74FC0175
TAG_GEOM_SAMPLES = 0x1722FAEF
TAG_GEOM_SAMPLE_DATA = 0x411852D5
TAG_MORPH_INFO = 0x277563F5
TAG_MORPH_FRAME_DATA = 0x69F64588
TAG_PHONEME_VISEMS_MAP = 0x1D4BD9FA
TAG_EXPRESSION_ID_MAP = 0x495BA079

SECTION_NAMES: dict[int, str] = {
    TAG_BUILT: "Anim Clip Built",
    TAG_BASE_STATE: "Anim Clip Base State",
    TAG_JOINT_HASHES: "Anim Clip Joint Hashes",
    TAG_PATH: "Anim Clip Path",
    TAG_CUSTOM_TRACKS: "Anim Clip Custom Tracks",
    TAG_CUSTOM_TRACK_DATA: "Anim Clip Custom Track Data",
    TAG_CURVES: "Anim Clip Curves",
    TAG_CURVES_DATA: "Anim Clip Curves Data",
    TAG_MOTION_DATA: "Anim Clip Motion Data",
    TAG_SAMPLE_ELEM: "Anim Clip Sample Elem",
    TAG_SAMPLE_DATA: "Anim Clip Sample Data",
    TAG_TRIGGER_DATA: "Anim Clip Trigger Data",
    TAG_TRIGGER_JOINT_NAMES: "Anim Clip Trigger Joint Names",
    TAG_GEOM_SAMPLES: "Anim Clip Geom Samples",
    TAG_GEOM_SAMPLE_DATA: "Anim Clip Geom Sample Data",
    TAG_MORPH_INFO: "Anim Clip Morph Info",
    TAG_MORPH_FRAME_DATA: "Anim Clip Morph Frame Data",
    TAG_PHONEME_VISEMS_MAP: "Anim Clip Pose Phoneme Visems Map",
    TAG_EXPRESSION_ID_MAP: "Anim Clip Pose Expression Id Map",
}
"""The 19 section tags of ALERT's animclip classes; each tag is the CRC32 of its name (spec 6)."""

SECTION_STATUS: dict[int, str] = {
    TAG_BUILT: "partly known",
    TAG_BASE_STATE: "mostly known",
    TAG_JOINT_HASHES: "known",
    TAG_PATH: "partly known",
    TAG_CUSTOM_TRACKS: "partly known",
    TAG_CUSTOM_TRACK_DATA: "known",
    TAG_SAMPLE_ELEM: "partly known",
    TAG_TRIGGER_DATA: "partly known",
    TAG_TRIGGER_JOINT_NAMES: "mostly known",
}
"""How much of each section's content is understood (spec 6, "Status"); the rest: unknown."""

PAD_TO = 16
"""Payload alignment ALERT's writer uses (spec 4.6, PAD_TO); also the alignment of each
custom track's block inside Custom Track Data (spec 7.6)."""

TERMINATOR_HASH = 0xFFFFFFFF
"""Joint Hashes' last entry (spec 7.3); it has no Base State record (spec 7.2)."""

QUATERNION_DIVISOR = 32768.0
"""animclip_to_gltf.py divides quantised components by 32768 (spec 8.1); normalisation
hides whether 32767 was meant."""

DERIVED_COUNTS = ("num_joints", "num_base_state_things", "num_custom_tracks", "num_samples")
"""Built fields the writer derives from other sections when they are None:
num_joints = Base State joint records, num_base_state_things = its 32-byte things,
num_custom_tracks = Custom Tracks entries, num_samples = Sample Elem elements (spec 7.1;
each 0 when the section is absent). num_frames is not derived: ALERT only notes it equals
the value count of "(almost) every" track."""

JOINT_FIELDS = ("qx", "qy", "qz", "qw", "x", "y", "z", "log_scale", "log_scale2")
JOINT_DTYPE = np.dtype(
    [("qx", "<i2"), ("qy", "<i2"), ("qz", "<i2"), ("qw", "<i2"),
     ("x", "<i2"), ("y", "<i2"), ("z", "<i2"), ("log_scale", "u1"), ("log_scale2", "u1")]
)
"""One 16-byte Base State joint record (ksy base_state_joint, spec 7.2)."""

THING_SIZE = 32
"""Size of one Base State "thing" record (spec 7.2, contents unknown)."""

SectionTag = int


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
    AnimClipBuiltSection): 96 bytes of general clip information. Field names follow
    ksy/animclip.ksy; only the name, hash and a few counts are understood."""

    tag: ClassVar[int] = TAG_BUILT
    ofs_name: int = 0
    """Clip name offset relative to the strings block start S (convention B, spec 4.4)."""
    name_hash: int = 0
    """CRC32 of the clip name; ALERT checks it ("MISMATCH")."""
    unk_08: int = 0
    unk_0a: int = 0
    fps: float = 30.0
    """LABELLED "fps?" by ALERT."""
    duration: float = 0.0
    """LABELLED "duration in seconds?" by ALERT."""
    unk_14: int = 0
    unk_16: int = 0
    unk_18: int = 0
    unk_1a: int = 0
    unk_1c: int = 0
    unk_1e: int = 0
    num_joints: int | None = None
    """J, Base State joint records; None = derived."""
    num_frames: int = 0
    """LABELLED "frames count?": values per custom track. Not derived."""
    num_samples: int | None = None
    """LABELLED: Sample Elem element count; None = derived."""
    unk_26: int = 0
    unk_28: int = 0
    unk_2a: int = 0
    num_base_state_things: int | None = None
    """T, Base State 32-byte things; None = derived."""
    unk_2e: int = 0
    num_frames_alt: int = 0
    num_things_alt: int = 0
    unk_34: int = 0
    unk_36: int = 0
    unk_38: int = 0
    num_custom_tracks: int | None = None
    """LABELLED: Custom Tracks entry count; None = derived."""
    unk_3c: int = 0
    unk_3e: int = 0
    unk_40: int = 0
    unk_42: int = 0
    unk_44: int = 0
    unk_46: int = 0
    dead_marker_1: int = 0xDEAD
    dead_marker_2: int = 0xDEAD
    zero_4c: int = 0
    unk_4e: int = 0
    unk_50: int = 0
    unk_52: int = 0
    unk_54: int = 0
    unk_56: int = 0
    unk_58: int = 0
    unk_5a: int = 0
    unk_5c: int = 0
    unk_5e: int = 0
    trailing: bytes = b""
    """Bytes past offset 96 (never seen in game files)."""


BUILT_FIELDS = tuple(f.name for f in fields(Built) if f.name not in ("offset", "trailing"))
"""Built's fields in file order (the order of ksy/animclip.ksy's built seq)."""


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
    """Anim Clip Sample Elem (spec 7.9): n u32 (ascending, meaning unknown), n u8, padding."""

    tag: ClassVar[int] = TAG_SAMPLE_ELEM
    values: np.ndarray = _empty("<u4")
    ndx: np.ndarray = _empty("u1")
    padding: bytes = b""


@dataclass(eq=False)
class TriggerRecord(_Eq):
    """One 16-byte trigger record, ALERT's names a..e (spec 7.11)."""

    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    e: int = 0


TRIGGER_FIELDS = ("a", "b", "c", "d", "e")
TRIGGER_DTYPE = np.dtype([("a", "<u4"), ("b", "<u4"), ("c", "<u2"), ("d", "<u2"), ("e", "<u4")])


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
    data: bytes = b""

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


def section_name(tag: int) -> str:
    return SECTION_NAMES.get(tag, f"unknown section {tag:08X}")


@dataclass(eq=False)
class UnknownEntry(_Eq):
    """One 8-byte entry of the DAT1 "unknowns" table (spec 4.3): kept, never interpreted.
    The field names follow the EXTERNAL pointer-fixup reading (spec 4.1)."""

    ofs_source: int = 0
    ofs_target: int = 0


# ---------------------------------------------------------------------------- layout


@dataclass(eq=False)
class Layout(_Eq):
    """Where things were in the file that was read; :mod:`.write` reproduces it exactly when
    the content has not changed. (ALERT's own writer, dat1lib/types/dat1.py
    ``recalculate_section_headers``/``save``, always re-lays out; spec 4.6.)

    "Unchanged" is decided by ``content_digest``: a SHA-256 over everything the content
    layer serialises to (see ``write.content_digest``), taken when the file was read. The
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
    """SHA-256 of the content as read (``write.content_digest``); use :meth:`digest`."""
    digest_later: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    """Computes ``content_digest`` from a snapshot of the content taken at read time, on
    first use: hashing a 16 MB clip costs two thirds of its load, and most loads (info,
    validate) never write."""
    verbatim: dict[int, bytes] = field(default_factory=dict)
    """Payloads (by table index) the typed form does not reproduce: Python's float
    conversion quiets a signalling NaN in an f32 field (Built fps/duration, Path)."""
    compression: Compression | None = None
    """The original LZ4 block when the body was compressed (spec 3)."""

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
class AnimclipFile(_Eq):
    """A whole .animclip / .performanceclip file."""

    magic: int = MAGIC_MSMR_MM
    """Outer asset-type magic (:data:`ASSET_MAGICS`)."""
    header_unk: bytes = bytes(28)
    """The outer header's 28 uninterpreted bytes (spec 2.1), kept verbatim."""
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
    def clip_name(self) -> str | None:
        built = self.built
        return None if built is None else self.string_at(built.ofs_name)

    def layout_order(self) -> list[int]:
        """Table indices in payload order: by recorded offset, new sections last."""
        return sorted(
            range(len(self.sections)),
            key=lambda i: (self.sections[i].offset is None, self.sections[i].offset or 0, i),
        )

    # -- decoded view ---------------------------------------------------------

    def clip(self, joint_names: Mapping[int, str] | Iterable[str] | None = None) -> "ClipView":
        """The decoded view: name, timing, joints with their base-state pose, custom tracks,
        triggers, path. Computed from the content each time (edit the content, not this)."""
        return _clip_view(self, name_table(joint_names))

    def custom_track_values(self, index: int) -> np.ndarray:
        """Track ``index``'s f32 values (a copy), cut to what Custom Track Data holds."""
        tracks = self.section(TAG_CUSTOM_TRACKS)
        if not isinstance(tracks, CustomTracks):
            raise ValueError("the clip has no Custom Tracks section")
        entry = tracks.entries[index]
        data = self.section(TAG_CUSTOM_TRACK_DATA)
        if not isinstance(data, CustomTrackData):
            return np.zeros(0, "<f4")
        return _track_slice(data, entry)

    # -- edits ----------------------------------------------------------------

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
        tracks = self.section(TAG_CUSTOM_TRACKS)
        if not isinstance(tracks, CustomTracks):
            raise ValueError("the clip has no Custom Tracks section")
        entry = tracks.entries[index]
        entry.ofs_name = self.add_string(name)
        entry.name_hash = crc32(name)

    def set_custom_track_values(self, index: int, values: Any) -> None:
        """Replace track ``index``'s values (any length). Custom Track Data is rebuilt: every
        track's block is placed in entry order at the next 16-byte boundary (spec 7.6),
        ``ofs_data``/``num_values`` are updated, bytes no entry referenced are dropped."""
        self.set_all_custom_track_values({index: values})

    def set_all_custom_track_values(self, changes: Mapping[int, Any]) -> None:
        tracks = self.section(TAG_CUSTOM_TRACKS)
        data = self.section(TAG_CUSTOM_TRACK_DATA)
        if not isinstance(tracks, CustomTracks):
            raise ValueError("the clip has no Custom Tracks section")
        if not isinstance(data, CustomTrackData):
            raise ValueError("the clip has no Custom Track Data section to hold values")
        current = [_track_slice(data, e) for e in tracks.entries]
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
        "num_samples": len(elem.values) if elem is not None else 0,
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


def f32_array(values: Any) -> np.ndarray:
    """``values`` as a 1-D little-endian f32 array (float32 input keeps its bit patterns)."""
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


def _track_slice(data: CustomTrackData, entry: CustomTrackEntry) -> np.ndarray:
    pool = data.values
    start, count = entry.ofs_data, entry.num_values
    if start % 4 == 0:
        first = start // 4
        return pool[first : first + count].copy() if first < len(pool) else np.zeros(0, "<f4")
    raw = pool.tobytes() + data.trailing
    avail = max(0, (len(raw) - start) // 4)
    return np.frombuffer(raw, "<f4", count=min(count, avail), offset=min(start, len(raw))).copy()


# ---------------------------------------------------------------------------- decoded view


def name_table(names: Mapping[int, str] | Iterable[str] | None) -> dict[int, str]:
    """hash -> name from a mapping, or from names (hashed with the DAT1 CRC32, case-sensitive)."""
    if names is None:
        return {}
    if isinstance(names, Mapping):
        return dict(names)
    return {crc32(n): n for n in names}


def dequantise_rotations(joints: np.ndarray) -> np.ndarray:
    """(n, 4) unit quaternions x, y, z, w: raw / 32768, normalised; all-zero -> identity
    (spec 8.1, animclip_to_gltf.py)."""
    q = np.stack([joints[k].astype(np.float64) for k in ("qx", "qy", "qz", "qw")], axis=1)
    return normalize(q / QUATERNION_DIVISOR, scalar_last=True)


def dequantise_translations(joints: np.ndarray) -> np.ndarray:
    """(n, 3) translations (x, y, z) / 2^log_scale2 (spec 8.1)."""
    p = np.stack([joints[k].astype(np.float64) for k in ("x", "y", "z")], axis=1)
    return np.ldexp(p, -joints["log_scale2"].astype(np.int32)[:, None])


def quaternion_lengths(joints: np.ndarray) -> np.ndarray:
    """|Q| of each record in raw units (about 32768 for a unit quaternion, spec 11.16)."""
    q = np.stack([joints[k].astype(np.float64) for k in ("qx", "qy", "qz", "qw")], axis=1)
    return np.linalg.norm(q, axis=1)


@dataclass
class JointView:
    index: int
    """Index into Joint Hashes and Base State."""
    hash: int | None
    """None for a Base State record past the end of Joint Hashes."""
    name: str | None
    rotation: np.ndarray | None
    """Unit quaternion [x, y, z, w] (None when Base State has no record for the joint)."""
    translation: np.ndarray | None
    """[x, y, z] in file units / 2^log_scale2."""
    record: tuple[int, ...] | None
    """The raw record (qx, qy, qz, qw, x, y, z, log_scale, log_scale2)."""


@dataclass
class CustomTrackView:
    index: int
    name: str | None
    hash: int
    values: np.ndarray


@dataclass
class ClipView:
    name: str | None
    name_hash: int | None
    name_hash_ok: bool | None
    fps: float | None
    """Built +0x0C, LABELLED "fps?"."""
    duration: float | None
    """Built +0x10, LABELLED "duration in seconds?"."""
    num_frames: int | None
    """Built +0x22, LABELLED "frames count?"."""
    joints: list[JointView]
    custom_tracks: list[CustomTrackView]
    triggers: TriggerData | None
    path: Path | None


def _clip_view(model: AnimclipFile, names: dict[int, str]) -> ClipView:
    built = model.built
    name = model.clip_name
    hashes_section = model.section(TAG_JOINT_HASHES)
    hashes = hashes_section.hashes if isinstance(hashes_section, JointHashes) else np.zeros(0, "<u4")
    base = model.section(TAG_BASE_STATE)
    records = base.joints if isinstance(base, BaseState) else np.zeros(0, JOINT_DTYPE)
    rot, pos = dequantise_rotations(records), dequantise_translations(records)
    joints = []
    for i in range(max(len(hashes), len(records))):
        h = int(hashes[i]) if i < len(hashes) else None
        if h == TERMINATOR_HASH:
            continue  # ALERT: "no transform for FFFFFFFF" (animclip_to_gltf.py)
        has = i < len(records)
        joints.append(JointView(
            index=i, hash=h, name=names.get(h) if h is not None else None,
            rotation=rot[i] if has else None, translation=pos[i] if has else None,
            record=tuple(int(v) for v in records[i].tolist()) if has else None,
        ))
    tracks: list[CustomTrackView] = []
    ct = model.section(TAG_CUSTOM_TRACKS)
    if isinstance(ct, CustomTracks):
        for i, e in enumerate(ct.entries):
            tracks.append(CustomTrackView(i, model.string_at(e.ofs_name), e.name_hash, model.custom_track_values(i)))
    trig = model.section(TAG_TRIGGER_DATA)
    path = model.section(TAG_PATH)
    return ClipView(
        name=name,
        name_hash=built.name_hash if built else None,
        name_hash_ok=(crc32(name) == built.name_hash) if built and name is not None else None,
        fps=built.fps if built else None,
        duration=built.duration if built else None,
        num_frames=built.num_frames if built else None,
        joints=joints,
        custom_tracks=tracks,
        triggers=trig if isinstance(trig, TriggerData) else None,
        path=path if isinstance(path, Path) else None,
    )
