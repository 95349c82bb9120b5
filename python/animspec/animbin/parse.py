"""Read ANIMBIN bytes into the typed model, through the parser generated from ksy/animbin.ksy.

This is the only ANIMBIN module that imports generated code. It adapts the generated
objects field by field; it never looks at bytes itself.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..common.inputs import read_input
from . import fastread
from .layout import MAGIC
from .model import (
    Animation,
    AnimbinFile,
    Key,
    Marker,
    Name,
    RotationKey,
    Track,
    TranslationKey,
    UnknownKey,
)

if TYPE_CHECKING:
    from ..generated.animbin import Animbin

def read_bytes(data: bytes, path: str | None = None, *, fast: bool = True) -> AnimbinFile:
    """Parse a whole ANIMBIN file held in memory. ``path`` only labels errors.

    With ``fast`` (the default), the bulk reader of :mod:`.fastread` reads the file (the
    records of rotation-only tracks kept packed), in time and memory proportional to the file whatever its
    counts claim, and has the generated types name the field of any error. ``fast=False``
    reads everything through the generated parser (the reference the tests hold the bulk
    reader to; one Python object per field, so only for small files).
    """
    if fast:
        return fastread.read(data, path)
    # The generated (debug-mode) parser is imported only on this path: a valid file read
    # the fast way never pays for it (issue 15).
    from ..generated.animbin import Animbin
    from ..kaitai_read import parse

    root = parse(Animbin, data, path)
    return AnimbinFile(
        animations=[_animation(a) for a in root.animations],
        version=root.version,
        trailing=bytes(root.trailing),
    )


def read_file(path: str | os.PathLike[str]) -> AnimbinFile:
    """Parse the ANIMBIN file at ``path``."""
    data = read_input(path)
    return read_bytes(data, os.fspath(path))


def looks_like_animbin(data: bytes) -> bool:
    """True when ``data`` starts with the ANIMBIN magic (the only thing the engine checks)."""
    return data[: len(MAGIC)] == MAGIC


def _name(field: Animbin.FixedName) -> Name:
    # padding holds the NUL terminator itself, then whatever followed it.
    return Name(bytes(field.text), bytes(field.padding[1:]))


def _key(k: Animbin.Key) -> Key:
    from ..generated.animbin import Animbin

    if k.key_type == Animbin.KeyType.rotation:
        q = k.value
        return RotationKey(k.frame, q.w, q.x, q.y, q.z)
    if k.key_type == Animbin.KeyType.translation:
        v = k.value
        return TranslationKey(k.frame, v.x, v.y, v.z)
    # resolve_enum hands back the plain int for values outside the enum.
    return UnknownKey(k.frame, int(k.key_type))


def _animation(a: Animbin.Animation) -> Animation:
    return Animation(
        name=_name(a.name),
        flags=a.flags,
        length=a.length,
        tracks=[
            Track(joint_id=t.joint_id, track_type=t.track_type, keys=[_key(k) for k in t.keys])
            for t in a.tracks
        ],
        markers=[Marker(_name(m.name), m.frame) for m in a.markers],
    )

