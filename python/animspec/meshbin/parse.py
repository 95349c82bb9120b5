"""Read MESHBIN files into the typed model: the bulk reader for every file, the generated
parser's adapter for the reference reading.

:func:`read_bytes` reads with :mod:`.fastread` (numpy over the records of :mod:`.layout`),
which still has the generated types word any error. ``fast=False`` reads with
:mod:`.adapt`, the parser generated from ksy/meshbin.ksy alone; it is imported only then,
and detection (:func:`looks_like_meshbin`) is a magic compare that imports no parser.
"""

from __future__ import annotations

import os

from ..common.inputs import read_input
from ..formats import check_format
from . import fastread
from .layout import MAGIC
from .model import MeshbinFile


def read_bytes(data: bytes, path: str | None = None, *, fast: bool = True) -> MeshbinFile:
    """Parse a whole MESHBIN file held in memory. ``path`` only labels errors.

    With ``fast`` (the default) the bulk reader (:mod:`.fastread`, numpy, proportional to the
    file whatever its counts claim) reads it; ``fast=False`` uses the generated parser
    throughout (the reference; one Python object per field, so only for small files).
    """
    check_format(data, ("meshbin",), path)  # another format's file: say which
    if fast:
        return fastread.read(data, path)
    from . import adapt  # the debug-mode generated parser: only for the reference reading

    return adapt.read(data, path)


def read_file(path: str | os.PathLike[str]) -> MeshbinFile:
    """Parse the MESHBIN file at ``path``."""
    data = read_input(path)
    return read_bytes(data, os.fspath(path))


def looks_like_meshbin(data: bytes) -> bool:
    """True when ``data`` starts with the MESHBIN magic (the loader's first check)."""
    return data[: len(MAGIC)] == MAGIC
