"""Typed model of an ANIMBIN file: file -> animations -> tracks -> keys, and markers.

The model holds raw integers exactly as stored (FP12 quaternions, 20.12 translations,
vsync frame numbers) so that writing it back reproduces the file byte for byte; helpers
convert to floats. Counts (number of animations, tracks, keys, markers) are not stored:
they are the lengths of the lists. The layout is ksy/animbin.ksy, restated for the fast
reader and the writer in :mod:`.layout`; this module knows nothing about bytes (a track
read from a file may hold its keys as the file's packed records, :mod:`.keys`, which
behave as a list of these keys).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import cast

from ..common.errors import AnimspecError
from ..fixed_point import FP12_ONE  # noqa: F401  (1.0 in FixedPoint<12>; named here for callers)
from .layout import NAME_FIELD_SIZE

NTSC_VSYNC_HZ = 60000 / 1001
"""NTSC vertical refresh (about 59.94 Hz): one ANIMBIN frame per vsync."""

PAL_VSYNC_HZ = 50.0
"""PAL vertical refresh."""

# Capacities of the engine's fixed arrays (src/animation/animation.hh and the skeleton code,
# of Forceh91/psyqo-madnight-engine). The file format allows more; the console
# then overruns its arrays.
MAX_ANIMATIONS = 5
MAX_TRACKS = 50
MAX_KEYS = 30
MAX_MARKERS = 5
MAX_BONES = 15

LOOPING_FLAG = 0x1
"""flags bit 0: the clip loops. No other bit is read by the engine."""


class KeyType(IntEnum):
    """Values of a key's key_type byte that the engine understands."""

    ROTATION = 0
    TRANSLATION = 1


@dataclass
class Name:
    """A 32-byte NUL-padded name field, kept exactly.

    ``text`` is the bytes before the first NUL (all 32 when there is none). ``tail`` is what
    follows that NUL, with trailing zero bytes dropped: empty for every name the exporter
    writes, non-empty only when a tool left garbage behind the terminator.
    """

    text: bytes
    tail: bytes = b""

    def __post_init__(self) -> None:
        self.text = bytes(self.text)
        # Trailing NULs are padding: dropping them gives every field one model value.
        self.tail = bytes(self.tail).rstrip(b"\0")

    @classmethod
    def from_str(cls, text: str) -> Name:
        """A name from text, encoded byte for byte (Latin-1) as the engine compares it."""
        return cls(text.encode("latin-1"))

    def __str__(self) -> str:
        # Latin-1 maps each byte to one character and back, so no name is lossy.
        return self.text.decode("latin-1")

    @property
    def is_terminated(self) -> bool:
        """False when the text fills the whole field (the engine then reads past it)."""
        return len(self.text) < NAME_FIELD_SIZE


@dataclass
class RotationKey:
    """A ROTATION key: quaternion w, x, y, z in FP12 at a vsync frame."""

    frame: int
    w: int
    x: int
    y: int
    z: int

    key_type = KeyType.ROTATION

    @property
    def quaternion(self) -> tuple[int, int, int, int]:
        """Raw FP12 components in the file's order (w, x, y, z)."""
        return (self.w, self.x, self.y, self.z)

    def as_float_wxyz(self) -> tuple[float, float, float, float]:
        return cast("tuple[float, float, float, float]", tuple(c / FP12_ONE for c in self.quaternion))


@dataclass
class TranslationKey:
    """A TRANSLATION key: a 20.12 fixed-point vector. The engine never applies these."""

    frame: int
    x: int
    y: int
    z: int

    key_type = KeyType.TRANSLATION

    @property
    def vector(self) -> tuple[int, int, int]:
        return (self.x, self.y, self.z)


@dataclass
class UnknownKey:
    """A key whose key_type is neither ROTATION nor TRANSLATION: it has no payload.

    The engine reads the next field from the very next byte, so such a key shifts
    everything after it; the validator reports it.
    """

    frame: int
    key_type: int


Key = RotationKey | TranslationKey | UnknownKey


@dataclass
class Track:
    """The keys of one joint. ``track_type`` is stored by the engine and never read.

    ``keys`` is a list, or (read from a file, every key a ROTATION key) a
    :class:`.keys.PackedRotationKeys`, which is used exactly like one."""

    joint_id: int
    keys: list[Key] = field(default_factory=list)
    track_type: int = 0


@dataclass
class Marker:
    """A named vsync frame (an event for game code)."""

    name: Name
    frame: int


@dataclass
class Animation:
    """One clip: name, flags, length in vsync frames, tracks and markers."""

    name: Name
    length: int
    tracks: list[Track] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    flags: int = LOOPING_FLAG

    @property
    def is_looping(self) -> bool:
        return bool(self.flags & LOOPING_FLAG)

    def seconds(self, refresh_hz: float) -> float:
        """Playing time at one frame per vsync of the given refresh rate."""
        return self.length / refresh_hz


@dataclass
class AnimbinFile:
    """A whole ANIMBIN file."""

    animations: list[Animation] = field(default_factory=list)
    version: int = 1
    trailing: bytes = b""
    """Bytes after the last animation; never read by the engine, kept for byte exactness."""

    def animation(self, name: str) -> Animation:
        """The first animation with this exact name, as the engine looks it up."""
        wanted = Name.from_str(name).text
        for anim in self.animations:
            if anim.name.text == wanted:
                return anim
        raise KeyError(name)

    def animation_or_first(self, name: str | None = None) -> Animation:
        """The animation called ``name``, or the first one when no name is given (what
        ``play``, ``compare --anim`` and ``plot`` work on); AnimspecError when there is none,
        naming the animations the file has."""
        if not self.animations:
            raise AnimspecError("the file has no animations")
        if name is None:
            return self.animations[0]
        try:
            return self.animation(name)
        except KeyError:
            names = ", ".join(repr(str(a.name)) for a in self.animations)
            raise AnimspecError(f"no animation named {name!r} (the file has {names})") from None
