"""The bulk ANIMBIN reader: struct, a whole rotation-only track per call.

The generated parser builds one Python object per field (about 30 per key); on the largest
legal file (5 animations x 50 tracks x 30 keys) that takes a quarter of a second, and its
debug-mode bookkeeping costs far more memory than the file. When every key of a track is
a ROTATION key, the track's keys are fixed 11-byte records, so ``struct.iter_unpack`` reads
them in one call. (numpy did this before; its import alone cost a one-file ``animspec
validate`` more than the whole read, and per 30-key track its calls cost more than they
saved: issue 15.)

This module is the one deliberate second description of a layout in python/ besides the
serializer (issues 7 and 8 ask for it): it restates ksy/animbin.ksy's header, track, key and
marker records. The generated parser stays the reference and still words every error
(:func:`read`); the tests hold both to the same model or the same error on every example
and on property-based inputs.
"""

from __future__ import annotations

import struct

from .model import NAME_FIELD_SIZE, Animation, AnimbinFile, KeyType, Marker, Name, RotationKey, Track, TranslationKey, UnknownKey

MAGIC = b"ANIMBIN"
# ksy/animbin.ksy, type animation: name (32 bytes), flags u4, length u2, num_tracks u2, num_markers u2.
_ANIMATION = struct.Struct("<32sIHHH")
# type track: track_type u1, joint_id u1, num_keys u2.
_TRACK = struct.Struct("<BBH")
# type marker: name (32 bytes), frame u2.
_MARKER = struct.Struct("<32sH")
# type key with a quaternion_fp12 payload: frame u2, key_type u1, w, x, y, z s2 (packed, 11 bytes).
ROTATION_KEY = struct.Struct("<HBhhhh")


def _name(field: bytes) -> Name:
    text = field.split(b"\0", 1)[0]
    return Name(text, field[len(text) + 1 :] if len(text) < NAME_FIELD_SIZE else b"")


_KEY_HEAD = struct.Struct("<HB")


def _all_rotation(data: bytes, pos: int, end: int, num_keys: int) -> bool:
    """Every key of the ``num_keys`` 11-byte records at ``pos`` has key_type ROTATION: the
    key_type bytes, every 11th from pos + 2, are all 0."""
    return data[pos + 2 : end : ROTATION_KEY.size] == bytes(num_keys)
_ROTATION = struct.Struct("<4h")
_TRANSLATION = struct.Struct("<3i")


def _record_error(record: str, data: bytes, pos: int, field: str, path: str | None) -> Exception:
    """The ParseError of a record cut short, worded by its generated type (``record``, a
    class of the generated Animbin). Imported here, on the error path only: a valid file
    never loads the debug-mode parser (issue 15)."""
    from ..generated.animbin import Animbin
    from ..kaitai_read import record_error

    return record_error(getattr(Animbin, record), data, pos, field, path)


def read(data: bytes, path: str | None = None) -> AnimbinFile:
    """The model of any ANIMBIN file, or the ParseError the generated parser would raise.

    Two passes. The first walks the records without making any object (one bytes slice
    checks a rotation-only track's key types), bounds-checking each before it is read, so a count
    past the data costs nothing but the records really there and a file cut short is
    refused before any model is built. The second builds the model: one struct.iter_unpack per
    rotation-only track, struct key by key otherwise. The generated parser still decides every error: a
    file too short for its header or with a wrong magic is handed to it whole, and a record
    cut short is read by its generated type (:func:`animspec.kaitai_read.record_error`),
    which names the field. Time and memory are proportional to the bytes read.
    """
    size = len(data)
    if size < 9 or data[:7] != MAGIC:
        from ..generated.animbin import Animbin
        from ..kaitai_read import parse

        parse(Animbin, data, path)  # raises: the header is what is wrong
        raise AssertionError("the generated parser read a file the bulk reader could not")
    version, num_animations = data[7], data[8]
    rotation, translation = int(KeyType.ROTATION), int(KeyType.TRANSLATION)
    key_head, rot_size = _KEY_HEAD, ROTATION_KEY.size

    # Pass 1: where every record is; (pos, num_keys, rotation-only) per track.
    plan: list[tuple[int, int, int, list[tuple[int, int, bool]], int]] = []
    pos = 9
    for a in range(num_animations):
        if pos + _ANIMATION.size > size:
            raise _record_error("Animation", data, pos, f"animations[{a}]", path)
        num_tracks, num_markers = _ANIMATION.unpack_from(data, pos)[3:]
        anim_pos = pos
        pos += _ANIMATION.size
        tracks = []
        for t in range(num_tracks):
            if pos + _TRACK.size > size:
                raise _record_error("Track", data, pos, f"animations[{a}].tracks[{t}]", path)
            num_keys = _TRACK.unpack_from(data, pos)[2]
            track_pos = pos
            pos += _TRACK.size
            end = pos + num_keys * rot_size
            if end <= size and _all_rotation(data, pos, end, num_keys):
                tracks.append((track_pos, num_keys, True))
                pos = end
                continue
            for k in range(num_keys):
                if pos + 3 > size:
                    raise _record_error("Key", data, pos, f"animations[{a}].tracks[{t}].keys[{k}]", path)
                key_type = data[pos + 2]
                step = 11 if key_type == rotation else 15 if key_type == translation else 3
                if pos + step > size:
                    raise _record_error("Key", data, pos, f"animations[{a}].tracks[{t}].keys[{k}]", path)
                pos += step
            tracks.append((track_pos, num_keys, False))
        marker_pos = pos
        if pos + num_markers * _MARKER.size > size:
            m = (size - pos) // _MARKER.size
            raise _record_error("Marker", data, pos + m * _MARKER.size, f"animations[{a}].markers[{m}]", path)
        pos += num_markers * _MARKER.size
        plan.append((anim_pos, num_markers, marker_pos, tracks, pos))

    # Pass 2: the model, from records known to be complete.
    view = memoryview(data)
    animations = []
    for anim_pos, num_markers, marker_pos, tracks_plan, _end in plan:
        name, flags, length = _ANIMATION.unpack_from(data, anim_pos)[:3]
        tracks = []
        for track_pos, num_keys, rotation_only in tracks_plan:
            track_type, joint_id, _ = _TRACK.unpack_from(data, track_pos)
            pos = track_pos + _TRACK.size
            if rotation_only:
                keys = [RotationKey(f, w, x, y, z) for f, _, w, x, y, z in ROTATION_KEY.iter_unpack(view[pos : pos + num_keys * rot_size])]
                tracks.append(Track(joint_id, keys, track_type))
                continue
            keys: list = []
            for _ in range(num_keys):
                frame, key_type = key_head.unpack_from(data, pos)
                if key_type == rotation:
                    keys.append(RotationKey(frame, *_ROTATION.unpack_from(data, pos + 3)))
                    pos += 11
                elif key_type == translation:
                    keys.append(TranslationKey(frame, *_TRANSLATION.unpack_from(data, pos + 3)))
                    pos += 15
                else:
                    keys.append(UnknownKey(frame, key_type))  # no payload: the engine reads on
                    pos += 3
            tracks.append(Track(joint_id, keys, track_type))
        markers = [
            Marker(_name(marker_name), frame)
            for marker_name, frame in _MARKER.iter_unpack(data[marker_pos : marker_pos + num_markers * _MARKER.size])
        ]
        animations.append(Animation(_name(name), length, tracks, markers, flags))
    end = plan[-1][4] if plan else 9
    return AnimbinFile(animations, version, bytes(data[end:]))
