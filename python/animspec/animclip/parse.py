"""Read .animclip / .performanceclip files into the typed model.

Two readers, one result. :mod:`.fastread` reads every valid file with struct and numpy
straight from its bytes (one copy per table, opaque payloads as views into the bytes: reading
a large clip costs about reading the file, not several copies of it). Whatever it does not
accept goes to :mod:`.adapt`, the parser generated from ksy/animclip.ksy in debug mode, whose
recorded positions word the error (field path and byte offset) - it is imported only then, so
a valid file never pays for it. ``fast=False`` reads with the generated parser alone (the
reference the tests hold the fast reader to).
"""

from __future__ import annotations

import os

from ..common.inputs import read_input
from ..formats import check_format
from . import fastread
from .layout import STG_TYPE_AT
from .model import AnimclipFile
from .reading import LZ4_MAX_RATIO, MAX_CLAIMED_RATIO
from .tags import ASSET_MAGICS, DAT1_MAGIC, STG_MAGIC

__all__ = ["LZ4_MAX_RATIO", "MAX_CLAIMED_RATIO", "looks_like_animclip", "read_bytes", "read_file"]


def looks_like_animclip(data: bytes) -> bool:
    """True when ``data`` starts with one of the animclip magics ALERT knows (spec 2.2), or
    is a Spider-Man 2 clip: an ``STG`` wrapper or a bare DAT1 whose type is an animclip's
    (ksy: ``is_stg``, ``is_bare_dat1``)."""
    if len(data) < 4:
        return False
    if data[:4] == STG_MAGIC:
        return (
            len(data) >= STG_TYPE_AT + 4
            and int.from_bytes(data[STG_TYPE_AT : STG_TYPE_AT + 4], "little") in ASSET_MAGICS
        )
    if data[:4] == DAT1_MAGIC:
        return len(data) >= 8 and int.from_bytes(data[4:8], "little") in ASSET_MAGICS
    return int.from_bytes(data[:4], "little") in ASSET_MAGICS


def read_file(path: str | os.PathLike[str]) -> AnimclipFile:
    data = read_input(path)
    return read_bytes(data, os.fspath(path))


def read_bytes(data: bytes, path: str | None = None, *, fast: bool = True) -> AnimclipFile:
    """Parse a whole file held in memory. ``path`` only labels errors."""
    data = bytes(data)  # the very object when it is bytes; payloads are cut from it
    model = fastread.read(data) if fast else None
    if model is None:
        check_format(data, ("animclip",), path)  # another format's file: say which
        from . import adapt  # the debug-mode generated parser: errors and the reference reading

        model = adapt.read(data, path)
    if model.layout is not None:
        model.layout.file_size = len(data)  # what the decode bounds are stated on
    return model
