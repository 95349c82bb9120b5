"""The errors animspec raises on bad input or impossible output.

A user reading a file sees exactly one kind of error, :class:`ParseError`, naming the file,
the byte offset and the field path. Writing raises :class:`WriteError`; reading a JSON dump
raises :class:`JsonInputError` with the JSON path. All derive from :class:`AnimspecError`,
which the CLI catches and prints without a traceback.
"""

from __future__ import annotations


class AnimspecError(Exception):
    """Base of every error animspec raises on purpose."""


class ParseError(AnimspecError):
    """A file cannot be read: it is truncated, has a wrong magic, or a count or offset
    points past its data.

    ``offset`` is the absolute byte offset in the file where the offending field starts,
    ``field`` its path in the spec's terms (``animations[1].tracks[3].keys[7].frame``).
    """

    def __init__(self, path: str | None, offset: int | None, field: str, reason: str):
        self.path = path
        self.offset = offset
        self.field = field
        self.reason = reason
        where = path or "<bytes>"
        if offset is None and not field:  # the file as a whole (missing, too large, a FIFO)
            super().__init__(f"{where}: {reason}")
            return
        at = f"byte {offset} (0x{offset:x})" if offset is not None else "unknown offset"
        super().__init__(f"{where}: {at}, field {field or '<file>'}: {reason}")


class WriteError(AnimspecError):
    """A model cannot be written: a count or value does not fit its field."""

    def __init__(self, field: str, reason: str):
        self.field = field
        self.reason = reason
        super().__init__(f"cannot write {field}: {reason}")


class JsonInputError(AnimspecError):
    """A JSON dump cannot be packed: ``json_path`` names the offending value (``$.animations[0].length``)."""

    def __init__(self, path: str | None, json_path: str, reason: str):
        self.path = path
        self.json_path = json_path
        self.reason = reason
        super().__init__(f"{path or '<json>'}: {json_path}: {reason}")
