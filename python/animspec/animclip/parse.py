"""Read .animclip / .performanceclip files into the typed model, through :mod:`.adapt`."""

from __future__ import annotations

import os

from ..common.inputs import read_input
from .content import AnimclipFile
from .reading import LZ4_MAX_RATIO, MAX_CLAIMED_RATIO
from .tags import ASSET_MAGICS

__all__ = ["LZ4_MAX_RATIO", "MAX_CLAIMED_RATIO", "looks_like_animclip", "read_bytes", "read_file"]


def looks_like_animclip(data: bytes) -> bool:
    """True when ``data`` starts with one of the animclip magics ALERT knows (spec 2.2)."""
    return len(data) >= 4 and int.from_bytes(data[:4], "little") in ASSET_MAGICS


def read_file(path: str | os.PathLike[str]) -> AnimclipFile:
    data = read_input(path)
    return read_bytes(data, os.fspath(path))


def read_bytes(data: bytes, path: str | None = None, *, fast: bool = True) -> AnimclipFile:
    """Parse a whole file held in memory. ``path`` only labels errors."""
    from . import adapt

    return adapt.read(data, path)
