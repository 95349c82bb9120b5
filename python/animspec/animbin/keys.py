"""The keys of a rotation-only track as the file stores them: one packed table of 11-byte
records, with :class:`~.model.RotationKey` objects made only when a key is used one by one.

On the largest legal file (5 x 50 x 30 keys) building one ``RotationKey`` per key
was most of a load, and most callers never look at a key on its own (validation, writing
back, batch checks). :class:`PackedRotationKeys` is a list of keys to every caller (index,
iterate, compare with a list, edit), but until a caller asks for a key object it is only
the track's bytes: the columns (:meth:`frames`, :meth:`quaternion_values`) come out of them
in one ``struct`` call each, with no per-key object, and the writer copies them back as
they are. The first per-key access decodes every key into ``RotationKey`` objects (as the
reader did before) and from then on those objects are the truth: an edit of ``key.w``
is kept and written. numpy is not needed for any of it (a one-file ``animspec validate``
does not import numpy: tests/test_startup.py); :meth:`PackedRotationKeys.table` gives
array code (playback) a zero-copy numpy view of an untouched table.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from ..common.fieldwriter import Record
from .layout import KEY_HEAD, ROTATION_KEY
from .model import RotationKey

if TYPE_CHECKING:
    import numpy as np


@lru_cache(maxsize=64)
def _frames_of(count: int) -> struct.Struct:
    """The frame of each of ``count`` packed ROTATION keys, skipping the rest of each record."""
    return struct.Struct("<" + f"H{ROTATION_KEY.size - 2}x" * count)


@lru_cache(maxsize=64)
def _quaternions_of(count: int) -> struct.Struct:
    """w, x, y, z of each of ``count`` packed ROTATION keys, skipping frame and key_type."""
    value = cast(Record, ROTATION_KEY.fields[2][1])  # the quaternion: a nested record
    return struct.Struct("<" + f"{KEY_HEAD.size}x{value.struct.format[1:]}" * count)


class PackedRotationKeys(MutableSequence):
    """A track's ROTATION keys, held as their packed file records until one is used alone.

    Built by the bulk reader from records it has checked (every key_type byte is ROTATION).
    """

    __slots__ = ("_records", "_count", "_keys")

    def __init__(self, records: bytes, count: int) -> None:
        if len(records) != count * ROTATION_KEY.size:
            raise ValueError(f"{len(records)} bytes are not {count} packed ROTATION keys")
        self._records: bytes | None = bytes(records)
        self._count = count
        self._keys: list[RotationKey] | None = None

    @property
    def records(self) -> bytes | None:
        """The packed records while no key has been used alone (they are then exactly the
        keys' bytes in the file), else None: the key objects may have been edited."""
        return self._records

    def _list(self) -> list[RotationKey]:
        if self._keys is None:
            unpacked = ROTATION_KEY.struct.iter_unpack(self._records)  # type: ignore[arg-type]  # None only once _keys is set
            self._keys = [RotationKey(f, w, x, y, z) for f, _, w, x, y, z in unpacked]
            self._records = None
        return self._keys

    def table(self) -> np.ndarray | None:
        """A read-only numpy structured array over the untouched records (fields frame,
        key_type, value.w/x/y/z; no copy), or None once the keys are objects."""
        if self._records is None:
            return None
        import numpy as np

        return np.frombuffer(self._records, ROTATION_KEY.numpy_dtype(), self._count)

    def frames(self) -> Sequence[int]:
        """Every key's frame, in order."""
        if self._records is not None:
            return _frames_of(self._count).unpack(self._records) if self._count else ()
        return [k.frame for k in self._list()]

    def quaternion_values(self) -> Sequence[int]:
        """w, x, y, z of every key, one flat sequence in order (4 values per key)."""
        if self._records is not None:
            return _quaternions_of(self._count).unpack(self._records) if self._count else ()
        return [c for k in self._list() for c in (k.w, k.x, k.y, k.z)]

    # The sequence protocol: lengths without decoding, everything else on the key objects.
    def __len__(self) -> int:
        return self._count if self._keys is None else len(self._keys)

    # Indexes and slices as a list takes them; values are RotationKeys (or any key, once edited).
    def __getitem__(self, index: Any) -> Any:
        return self._list()[index]

    def __setitem__(self, index: Any, value: Any) -> None:
        self._list()[index] = value

    def __delitem__(self, index: Any) -> None:
        del self._list()[index]

    def insert(self, index: int, value: Any) -> None:
        self._list().insert(index, value)

    def __iter__(self) -> Iterator[RotationKey]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedRotationKeys):
            if self._records is not None and other._records is not None:
                return self._records == other._records
            return self._list() == other._list()
        if isinstance(other, list):
            return self._list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the list it stands for

    def __add__(self, other: Iterable[Any]) -> list[Any]:
        return self._list() + list(other)

    def __radd__(self, other: Iterable[Any]) -> list[Any]:
        return list(other) + self._list()

    def __repr__(self) -> str:
        return repr(self._list())


def all_rotation(keys: Sequence) -> bool:
    """Every key is a RotationKey: an untouched packed table without looking at a key."""
    if isinstance(keys, PackedRotationKeys) and keys.records is not None:
        return True
    return all(isinstance(k, RotationKey) for k in keys)


def frames(keys: Sequence) -> Sequence[int]:
    """Every key's frame, in order (from the packed records when the table is untouched)."""
    if isinstance(keys, PackedRotationKeys):
        return keys.frames()
    return [k.frame for k in keys]


def quaternion_values(keys: Sequence[RotationKey]) -> Sequence[int]:
    """w, x, y, z of every key of an all-ROTATION track, one flat sequence (4 per key)."""
    if isinstance(keys, PackedRotationKeys):
        return keys.quaternion_values()
    return [c for k in keys for c in (k.w, k.x, k.y, k.z)]
