"""Read ANIMBIN bytes into the typed model through the parser generated from ksy/animbin.ksy:
the reference reader, and the one that words every error.

This is the only ANIMBIN module that imports generated code, and the others import it only
when they need it (:mod:`.parse` for ``fast=False``, :mod:`.fastread` for an error): the
generated code is compiled in debug mode, whose recorded positions name an error's field
and offset, and a valid file read the fast way does not pay for them. It adapts
the generated objects field by field; it never looks at bytes itself.
"""

from __future__ import annotations

from typing import NoReturn

from ..common.errors import ParseError
from ..generated.animbin import Animbin
from ..kaitai_read import parse, record_error
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


def read(data: bytes, path: str | None = None) -> AnimbinFile:
    """The model of ``data`` read by the generated parser alone (one Python object per field,
    so for small files: the reference the tests hold the bulk reader to)."""
    root = parse(Animbin, data, path)
    return AnimbinFile(
        animations=[_animation(a) for a in root.animations],
        version=root.version,
        trailing=bytes(root.trailing),
    )


def raise_header_error(data: bytes, path: str | None = None) -> NoReturn:
    """Raise the ParseError of a file whose header is what is wrong (too short, wrong magic),
    as the generated parser words it."""
    parse(Animbin, data, path)  # raises
    raise AssertionError("the generated parser read a file the bulk reader could not")


def cut_record_error(record: str, data: bytes, pos: int, field: str, path: str | None) -> ParseError:
    """The ParseError of a record cut short at ``pos``, worded by its generated type
    (``record``, a class of the generated Animbin: "Animation", "Track", "Key", "Marker")."""
    return record_error(getattr(Animbin, record), data, pos, field, path)


def _name(field: Animbin.FixedName) -> Name:
    # padding holds the NUL terminator itself, then whatever followed it.
    return Name(bytes(field.text), bytes(field.padding[1:]))


def _key(k: Animbin.Key) -> Key:
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
