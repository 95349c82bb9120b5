"""ANIMBIN: skeletal animation clips of the psyqo "madnight" PS1 engine (ksy/animbin.ksy).

Read with :func:`read_file` / :func:`read_bytes`, write with :func:`write_bytes`, check with
:func:`validate`.
"""

from .model import (
    Animation,
    AnimbinFile,
    Key,
    KeyType,
    Marker,
    Name,
    RotationKey,
    Track,
    TranslationKey,
    UnknownKey,
)
from .parse import read_bytes, read_file
from .validate import validate
from .write import write_bytes

__all__ = [
    "Animation", "AnimbinFile", "Key", "KeyType", "Marker", "Name", "RotationKey", "Track",
    "TranslationKey", "UnknownKey", "read_bytes", "read_file", "validate", "write_bytes",
]
