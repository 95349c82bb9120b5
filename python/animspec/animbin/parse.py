"""Read ANIMBIN files into the typed model: the bulk reader for every file, the generated
parser's adapter for the reference reading.

:func:`read_bytes` reads with :mod:`.fastread` (struct over the records of :mod:`.layout`),
which still has the generated types word any error. ``fast=False`` reads with
:mod:`.adapt`, the parser generated from ksy/animbin.ksy alone; it is imported only then,
and detection (:func:`looks_like_animbin`) is a magic compare that imports no parser.
"""

from __future__ import annotations

import os

from ..common.inputs import read_input
from ..formats import check_format
from . import fastread
from .layout import MAGIC
from .model import AnimbinFile


def read_bytes(data: bytes, path: str | None = None, *, fast: bool = True) -> AnimbinFile:
    """Parse a whole ANIMBIN file held in memory. ``path`` only labels errors.

    With ``fast`` (the default), the bulk reader of :mod:`.fastread` reads the file (the
    records of rotation-only tracks kept packed), in time and memory proportional to the file whatever its
    counts claim, and has the generated types name the field of any error. ``fast=False``
    reads everything through the generated parser (the reference the tests hold the bulk
    reader to; one Python object per field, so only for small files).
    """
    check_format(data, ("animbin",), path)  # another format's file: say which
    if fast:
        return fastread.read(data, path)
    # The generated (debug-mode) parser is imported only on this path: a valid file read
    # the fast way never pays for it.
    from . import adapt

    return adapt.read(data, path)


def read_file(path: str | os.PathLike[str]) -> AnimbinFile:
    """Parse the ANIMBIN file at ``path``."""
    data = read_input(path)
    return read_bytes(data, os.fspath(path))


def looks_like_animbin(data: bytes) -> bool:
    """True when ``data`` starts with the ANIMBIN magic (the only thing the engine checks)."""
    return data[: len(MAGIC)] == MAGIC
