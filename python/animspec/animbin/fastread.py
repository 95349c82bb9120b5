"""The bulk ANIMBIN reader: one pass of ``struct`` over the records of :mod:`.layout`.

The generated parser builds one Python object per field (about 30 per key); on the largest
legal file (5 animations x 50 tracks x 30 keys) that takes a quarter of a second, and its
debug-mode bookkeeping costs far more memory than the file. When every key of a track is
a ROTATION key, the track's keys are fixed 11-byte records: the reader checks their
key_type bytes with one slice and keeps the records as they are
(:class:`.keys.PackedRotationKeys`), so a load makes no object per key (numpy
did the tables before, but its import alone cost a one-file ``animspec validate`` more than
the whole read).

The layout comes from :mod:`.layout`, shared with the writer. The generated parser
(:mod:`.adapt`, imported on the error path only) stays the reference and still words every
error (:func:`read`); the tests hold both to the same
model or the same error on every example and on property-based inputs.
"""

from __future__ import annotations

from .keys import PackedRotationKeys
from .layout import (
    ANIMATION,
    ANIMATION_SIZE,
    FILE_HEADER_SIZE,
    KEY_HEAD,
    MAGIC,
    MARKER,
    MARKER_SIZE,
    NAME_FIELD_SIZE,
    QUATERNION,
    ROTATION_KEY,
    TRACK,
    TRANSLATION_KEY,
    VECTOR,
)
from .model import Animation, AnimbinFile, KeyType, Marker, Name, RotationKey, Track, TranslationKey, UnknownKey

# The structs of the records, read key by key only in tracks that are not all ROTATION keys.
_KEY_HEAD = KEY_HEAD.struct
_ROTATION = QUATERNION.struct
_TRANSLATION = VECTOR.struct


def _name(field: bytes) -> Name:
    text = field.split(b"\0", 1)[0]
    return Name(text, field[len(text) + 1 :] if len(text) < NAME_FIELD_SIZE else b"")


def _record_error(record: str, data: bytes, pos: int, field: str, path: str | None) -> Exception:
    """The ParseError of a record cut short, worded by its generated type (``record``, a
    class of the generated Animbin) through :mod:`.adapt`, imported here, on the error path
    only: a valid file never loads the debug-mode parser."""
    from . import adapt

    return adapt.cut_record_error(record, data, pos, field, path)


def read(data: bytes, path: str | None = None) -> AnimbinFile:
    """The model of any ANIMBIN file, or the ParseError the generated parser would raise.

    One pass over the records, each bounds-checked before it is read, so a count past the
    data costs nothing but the records really there. A track whose keys are all ROTATION
    keys (one bytes slice checks their key_type bytes) keeps its records packed; other
    tracks are read key by key. The generated parser still decides every error: a file too
    short for its header or with a wrong magic is handed to it whole, and a record cut short
    is read by its generated type (:func:`animspec.kaitai_read.record_error`), which names
    the field. Time and memory are proportional to the bytes read.
    """
    data = bytes(data)
    size = len(data)
    if size < FILE_HEADER_SIZE or data[: len(MAGIC)] != MAGIC:
        from . import adapt

        adapt.raise_header_error(data, path)  # the header is what is wrong
    version, num_animations = data[len(MAGIC)], data[len(MAGIC) + 1]
    rotation, translation = int(KeyType.ROTATION), int(KeyType.TRANSLATION)
    animation_fields, track_head = ANIMATION.struct.unpack_from, TRACK.struct.unpack_from
    marker_frame = MARKER.struct.unpack_from
    key_head, rotation_value, translation_value = _KEY_HEAD, _ROTATION, _TRANSLATION
    rot_size, trans_size, head_size = ROTATION_KEY.size, TRANSLATION_KEY.size, KEY_HEAD.size
    type_at = KEY_HEAD.offset("key_type")

    animations = []
    pos = FILE_HEADER_SIZE
    for a in range(num_animations):
        if pos + ANIMATION_SIZE > size:
            raise _record_error("Animation", data, pos, f"animations[{a}]", path)
        name = _name(data[pos : pos + NAME_FIELD_SIZE])
        flags, length, num_tracks, num_markers = animation_fields(data, pos + NAME_FIELD_SIZE)
        pos += ANIMATION_SIZE
        tracks = []
        for t in range(num_tracks):
            if pos + TRACK.size > size:
                raise _record_error("Track", data, pos, f"animations[{a}].tracks[{t}]", path)
            track_type, joint_id, num_keys = track_head(data, pos)
            pos += TRACK.size
            end = pos + num_keys * rot_size
            if end <= size and data[pos + type_at : end : rot_size] == bytes(num_keys):
                # Stands in for the list of keys (Track's docstring); a union would make every reader narrow it.
                packed = PackedRotationKeys(data[pos:end], num_keys)
                tracks.append(Track(joint_id, packed, track_type))  # type: ignore[arg-type]
                pos = end
                continue
            keys: list = []
            for k in range(num_keys):
                if pos + head_size > size:
                    raise _record_error("Key", data, pos, f"animations[{a}].tracks[{t}].keys[{k}]", path)
                frame, key_type = key_head.unpack_from(data, pos)
                step = rot_size if key_type == rotation else trans_size if key_type == translation else head_size
                if pos + step > size:
                    raise _record_error("Key", data, pos, f"animations[{a}].tracks[{t}].keys[{k}]", path)
                if key_type == rotation:
                    keys.append(RotationKey(frame, *rotation_value.unpack_from(data, pos + head_size)))
                elif key_type == translation:
                    keys.append(TranslationKey(frame, *translation_value.unpack_from(data, pos + head_size)))
                else:
                    keys.append(UnknownKey(frame, key_type))  # no payload: the engine reads on
                pos += step
            tracks.append(Track(joint_id, keys, track_type))
        if pos + num_markers * MARKER_SIZE > size:
            m = (size - pos) // MARKER_SIZE
            raise _record_error("Marker", data, pos + m * MARKER_SIZE, f"animations[{a}].markers[{m}]", path)
        markers = []
        for _ in range(num_markers):
            marker_name = _name(data[pos : pos + NAME_FIELD_SIZE])
            markers.append(Marker(marker_name, marker_frame(data, pos + NAME_FIELD_SIZE)[0]))
            pos += MARKER_SIZE
        animations.append(Animation(name, length, tracks, markers, flags))
    return AnimbinFile(animations, version, data[pos:])
