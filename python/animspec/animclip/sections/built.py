"""Anim Clip Built (spec 7.1; ksy built): 96 bytes of general clip information.

Sources: Tkachov/ALERT (snapshot bc90ed9) dat1lib/types/sections/animclip/autogen.py,
AnimClipBuiltSection; Pcniado/luna_engine_io_tools (snapshot 77ea909) constants.py
``ANIM_CLIP_BUILT_FORMAT``. Field names follow ksy/animclip.ksy (Luna's names where it has
one). The meaning of ``word_48``/``word_4c``/``word_50`` depends on the game
(:meth:`Built.sound_event_hash`).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..tags import DERIVED_COUNTS, FLAG_FRAME_DATA_LOOKUP, FLAG_LOOPING, TAG_BUILT
from .base import KINDS, Declined, Out, SectionBase, Split, WriteContext
from .values import f32_json, hex32, opt_bytes, read_f32, read_opt_int, read_u32

if TYPE_CHECKING:
    from ...common.jsonpath import JsonNode

BUILT_DTYPE = np.dtype([
    ("ofs_name", "<u4"), ("name_hash", "<u4"), ("flags", "<u4"), ("fps", "<f4"), ("duration", "<f4"),
    ("cycle_count", "u1"), ("unk_15", "u1"), ("unk_16", "u1"), ("unk_17", "u1"), ("unk_18", "<u4"), ("unk_1c", "<u4"),
    ("num_joints", "<u2"), ("num_frames", "<u2"), ("num_elems", "<u4"), ("stride", "<u4"),
    ("num_base_state_things", "<u2"), ("unk_2e", "<u2"), ("num_unique_samples", "<u2"), ("num_things_alt", "<u2"),
    ("unk_34", "<u2"), ("unk_36", "<u2"), ("unk_38", "<u2"), ("num_custom_tracks", "<u2"), ("unk_3c", "<u2"),
    ("num_resident_samples", "<u2"), ("resident_fps", "<f4"), ("num_large_elems", "<u4"),
    ("word_48", "<u4"), ("word_4c", "<u4"), ("word_50", "<u4"), ("unk_54", "<u4"), ("unk_58", "<u4"), ("unk_5c", "<u4"),
])
"""Anim Clip Built's 96 bytes in field order (ksy built, both games' layouts: they differ in
what +0x48.. mean, not in the field sizes). The reader, the writer and the field offsets
all come from it."""
BUILT_FIELDS: tuple[str, ...] = BUILT_DTYPE.names  # type: ignore[assignment]
"""Built's fields in file order (the order of ksy/animclip.ksy's built seq)."""
BUILT_SIZE = BUILT_DTYPE.itemsize
BUILT_FIELD_OFFSETS: dict[str, int] = {name: BUILT_DTYPE.fields[name][1] for name in BUILT_FIELDS}  # type: ignore[index]
"""Where each of Built's fields starts in its payload (``stride``: 0x28): the byte a
refusal naming the field points at."""
_F32_FIELDS = frozenset(name for name in BUILT_FIELDS if BUILT_DTYPE[name].kind == "f")
_KIND_OF: dict[str, Any] = {
    name: "f4" if name in _F32_FIELDS else KINDS[BUILT_DTYPE[name].str] for name in BUILT_FIELDS
}
"""Each field's writer kind, taken from the dtype once."""
_RECORD = struct.Struct("<" + "".join(BUILT_DTYPE[name].char for name in BUILT_FIELDS))
"""The same record for ``struct`` (its codes derived from the dtype): one unpack per read."""
_SPLIT = tuple(
    BUILT_FIELDS.index(name) for name in ("num_joints", "num_base_state_things", "num_elems", "num_large_elems")
)
_HEX_FIELDS = frozenset({"name_hash", "flags", "word_48", "word_4c"})
"""Shown as hex in a JSON dump (hashes and bit sets)."""


@dataclass(eq=False)
class Built(SectionBase):
    """Anim Clip Built (module doc). Counts another section determines
    (``tags.DERIVED_COUNTS``) are None when they agree with it: the writer derives them."""

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

    def count(self, name: str, derived: dict[str, int]) -> int:
        """Count ``name`` as written: its value, or the derived one when it is None."""
        value = getattr(self, name)
        return derived[name] if value is None else value

    def split(self, derived: dict[str, int]) -> Split:
        """The split this Built declares as written (derived counts filled in)."""
        return Split(
            self.count("num_joints", derived),
            self.count("num_base_state_things", derived),
            (self.count("num_elems", derived), self.count("num_large_elems", derived)),
        )

    @staticmethod
    def declared_split(data: bytes, at: int, size: int) -> Split:
        """The split a Built payload of ``size`` bytes at ``at`` declares (the bulk reader
        takes it before reading the sections it splits)."""
        if size < BUILT_SIZE:
            raise Declined
        record = _RECORD.unpack_from(data, at)
        j, t, n, m = (record[i] for i in _SPLIT)
        return Split(j, t, (n, m))

    @classmethod
    def read(cls, tag: int, data: bytes, at: int, size: int, split: Split) -> Built:
        if size < BUILT_SIZE:
            raise Declined
        return cls(**dict(zip(BUILT_FIELDS, _RECORD.unpack_from(data, at))), trailing=data[at + BUILT_SIZE : at + size])

    @classmethod
    def adapt(cls, tag: int, body: Any) -> Built:
        return cls(**{name: getattr(body, name) for name in BUILT_FIELDS}, trailing=bytes(body.trailing))

    def payload(self, ctx: WriteContext, at: str) -> bytes:
        out = Out()
        for name in BUILT_FIELDS:
            value = self.count(name, ctx.derived) if name in DERIVED_COUNTS else getattr(self, name)
            kind = _KIND_OF[name]
            if kind == "f4":
                out.f32(value, f"{at}.{name}")
            else:
                out.int(kind, value, f"{at}.{name}")
        out.raw(self.trailing, f"{at}.trailing")
        return out.getvalue()

    def payload_size(self) -> int:
        return BUILT_SIZE + len(self.trailing)

    def as_written(self, original: bytes) -> bytes:
        """The f32 fields are Python floats in the model, read as f4 values by the spec:
        converting a signalling NaN quiets it, and the writer packs the model's value."""
        out = bytearray(original)
        for name in _F32_FIELDS:
            at = BUILT_FIELD_OFFSETS[name]
            out[at : at + 4] = struct.pack("<f", getattr(self, name))
        return bytes(out)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name in BUILT_FIELDS:
            value = getattr(self, name)
            if name in _F32_FIELDS:
                d[name] = f32_json(value)
            elif name in _HEX_FIELDS:
                d[name] = hex32(value)
            else:
                d[name] = value
        d["trailing"] = self.trailing.hex()
        return d

    @classmethod
    def from_json(cls, tag: int, node: JsonNode) -> Built:
        kwargs: dict[str, Any] = {}
        for name in BUILT_FIELDS:
            field = node[name]
            if name in _F32_FIELDS:
                kwargs[name] = float(read_f32(field))
            elif name in _HEX_FIELDS:
                kwargs[name] = read_u32(field)
            elif name in DERIVED_COUNTS:
                kwargs[name] = read_opt_int(field)
            else:
                kwargs[name] = field.int()
        return cls(**kwargs, trailing=opt_bytes(node, "trailing"))
