"""Serialise the ANIMBIN model to bytes: the exact inverse of ksy/animbin.ksy.

This module writes what the spec reads, field by field in the spec's order; the tests hold
the two together (``read(write(m)) == m`` for every model, ``write(read(b)) == b`` for every
file the parser accepts). Every value is checked against its field's width first, so a
model that cannot be stored (256 animations, a frame past 65535, a 33-byte name) raises
:class:`WriteError` naming the field instead of writing a corrupt file.
"""

from __future__ import annotations

from ..common.errors import WriteError
from ..common.fieldwriter import FieldWriter
from .keys import PackedRotationKeys
from .layout import ANIMATION, HEADER, KEY_HEAD, MAGIC, MARKER, NAME_FIELD_SIZE, ROTATION_KEY, TRACK, TRANSLATION_KEY
from .model import Animation, AnimbinFile, Key, KeyType, Name, RotationKey, Track, TranslationKey, UnknownKey


class _Out(FieldWriter):
    """Field writer with ANIMBIN's fixed 32-byte name fields."""

    def name(self, name: Name, field: str) -> None:
        text, tail = name.text, name.tail
        if b"\0" in text:
            raise WriteError(field, "name text contains a NUL byte")
        if len(text) > NAME_FIELD_SIZE:
            raise WriteError(field, f"{len(text)} bytes; the field holds {NAME_FIELD_SIZE}")
        if len(text) == NAME_FIELD_SIZE:
            if tail:
                raise WriteError(field, "a 32-byte name has no room for bytes after a terminator")
            self.buf += text
            return
        used = len(text) + 1 + len(tail)
        if used > NAME_FIELD_SIZE:
            raise WriteError(field, f"text, NUL and tail take {used} bytes; the field holds {NAME_FIELD_SIZE}")
        self.buf += text + b"\0" + tail + bytes(NAME_FIELD_SIZE - used)


def write_bytes(model: AnimbinFile) -> bytes:
    """The ANIMBIN bytes of ``model``; raises :class:`WriteError` when something does not fit."""
    out = _Out()
    out.buf += MAGIC
    out.record(HEADER, (model.version, model.animations))
    for i, anim in enumerate(model.animations):
        _animation(out, anim, f"animations[{i}]")
    out.buf += bytes(model.trailing)
    return bytes(out.buf)


def _animation(out: _Out, anim: Animation, at: str) -> None:
    out.name(anim.name, f"{at}.name")
    out.record(ANIMATION, (anim.flags, anim.length, anim.tracks, anim.markers), at)
    for j, track in enumerate(anim.tracks):
        _track(out, track, f"{at}.tracks[{j}]")
    for j, marker in enumerate(anim.markers):
        out.name(marker.name, f"{at}.markers[{j}].name")
        out.record(MARKER, (marker.frame,), f"{at}.markers[{j}]")


def _track(out: _Out, track: Track, at: str) -> None:
    out.record(TRACK, (track.track_type, track.joint_id, track.keys), at)
    keys = track.keys
    if isinstance(keys, PackedRotationKeys) and keys.records is not None:
        # Untouched since it was read: the records are the keys' very bytes, checked then.
        out.buf += keys.records
        return
    for k, key in enumerate(keys):
        _key(out, key, f"{at}.keys[{k}]")


def _key(out: _Out, key: Key, at: str) -> None:
    if isinstance(key, RotationKey):
        out.record(ROTATION_KEY, (key.frame, KeyType.ROTATION, key.quaternion), at)
    elif isinstance(key, TranslationKey):
        out.record(TRANSLATION_KEY, (key.frame, KeyType.TRANSLATION, key.vector), at)
    elif isinstance(key, UnknownKey):
        if key.key_type in (KeyType.ROTATION, KeyType.TRANSLATION):
            raise WriteError(f"{at}.key_type", f"{key.key_type} is a known key type; use RotationKey or TranslationKey")
        # No payload: the parser (and the engine) read the next field from the next byte.
        out.record(KEY_HEAD, (key.frame, key.key_type), at)
    else:
        raise WriteError(at, f"{type(key).__name__} is not a key")
