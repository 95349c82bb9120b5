"""ANIMBIN's byte layout in Python, written once: the records of ksy/animbin.ksy.

The bulk reader (:mod:`.fastread`) unpacks these records and the writer (:mod:`.write`)
packs them, so an order or a width can only be wrong in both at once, and
tests/test_layouts.py then catches it: it parses records packed from this module with the
generated parser's types and compares every field, offset and size, the magic and the key
types. The values are stated here rather than read from the generated classes at run time
because those classes are the debug-mode parser: importing it costs a one-file ``animspec
validate`` more than its whole read, and only the adapter (:mod:`.adapt`,
imported for the reference reading and on the error path) imports generated code.
"""

from __future__ import annotations

from ..common.fieldwriter import S2, S4, U1, U2, U4, Record

MAGIC = b"ANIMBIN"
"""The file starts with these 7 bytes; the only thing the engine checks."""

NAME_FIELD_SIZE = 32
"""Width of the animation and marker name fields (type fixed_name: text, NUL, padding)."""

HEADER = Record("animbin", ("version", U1), ("num_animations", U1))
"""After the magic."""

ANIMATION = Record("animation", ("flags", U4), ("length", U2), ("num_tracks", U2), ("num_markers", U2))
"""After the animation's name field; then its tracks, then its markers."""

TRACK = Record("track", ("track_type", U1), ("joint_id", U1), ("num_keys", U2))
"""Then its keys."""

KEY_HEAD = Record("key", ("frame", U2), ("key_type", U1))
"""A key of a type the engine does not know is only this: no payload follows."""

QUATERNION = Record("quaternion_fp12", ("w", S2), ("x", S2), ("y", S2), ("z", S2))
VECTOR = Record("vector_fp12", ("x", S4), ("y", S4), ("z", S4))

ROTATION_KEY = Record("key", ("frame", U2), ("key_type", U1), ("value", QUATERNION))
"""A ROTATION key, 11 bytes, packed: the records of a rotation-only track are a table of these."""

TRANSLATION_KEY = Record("key", ("frame", U2), ("key_type", U1), ("value", VECTOR))

MARKER = Record("marker", ("frame", U2))
"""After the marker's name field."""

ANIMATION_SIZE = NAME_FIELD_SIZE + ANIMATION.size
MARKER_SIZE = NAME_FIELD_SIZE + MARKER.size
FILE_HEADER_SIZE = len(MAGIC) + HEADER.size
