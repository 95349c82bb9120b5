"""A numpy fast path for the common ANIMBIN: every key a ROTATION key.

The generated parser builds one Python object per field (about 30 per key); on the largest
legal file (5 animations x 50 tracks x 30 keys) that takes a quarter of a second, and PS1
projects re-validate their animations on every build. When every key of a track is a
ROTATION key, the track's keys are fixed 11-byte records, so numpy can read them in one
call.

This module is the one deliberate second description of a layout in python/ besides the
serializer (issue 8 asks for it): it restates ksy/animbin.ksy's header, track and key
records. It only accepts what it fully understands and returns None for anything else
(a translation or unknown key type, any count past the data), in which case the caller
uses the generated parser, which stays the reference: the tests hold both to the same
model on every example and on property-based inputs.
"""

from __future__ import annotations

import struct

import numpy as np

from .model import NAME_FIELD_SIZE, Animation, AnimbinFile, KeyType, Marker, Name, RotationKey, Track

MAGIC = b"ANIMBIN"
# ksy/animbin.ksy, type animation: name (32 bytes), flags u4, length u2, num_tracks u2, num_markers u2.
_ANIMATION = struct.Struct("<32sIHHH")
# type track: track_type u1, joint_id u1, num_keys u2.
_TRACK = struct.Struct("<BBH")
# type marker: name (32 bytes), frame u2.
_MARKER = struct.Struct("<32sH")
# type key with a quaternion_fp12 payload: frame u2, key_type u1, w, x, y, z s2 (packed, 11 bytes).
ROTATION_KEY = np.dtype([("frame", "<u2"), ("key_type", "u1"), ("w", "<i2"), ("x", "<i2"), ("y", "<i2"), ("z", "<i2")])


def _name(field: bytes) -> Name:
    text = field.split(b"\0", 1)[0]
    return Name(text, field[len(text) + 1 :] if len(text) < NAME_FIELD_SIZE else b"")


def try_read(data: bytes) -> AnimbinFile | None:
    """The model of ``data`` when every key is a ROTATION key and every count fits the data;
    None otherwise (the caller then parses with the generated parser)."""
    size = len(data)
    if size < 9 or data[:7] != MAGIC:
        return None
    version, num_animations = data[7], data[8]
    pos = 9
    animations = []
    for _ in range(num_animations):
        if pos + _ANIMATION.size > size:
            return None
        name, flags, length, num_tracks, num_markers = _ANIMATION.unpack_from(data, pos)
        pos += _ANIMATION.size
        tracks = []
        for _ in range(num_tracks):
            if pos + _TRACK.size > size:
                return None
            track_type, joint_id, num_keys = _TRACK.unpack_from(data, pos)
            pos += _TRACK.size
            end = pos + num_keys * ROTATION_KEY.itemsize
            if end > size:
                return None
            records = np.frombuffer(data, ROTATION_KEY, num_keys, pos)
            if num_keys and np.any(records["key_type"] != KeyType.ROTATION):
                return None
            values = records[["frame", "w", "x", "y", "z"]].tolist()
            tracks.append(Track(joint_id, [RotationKey(*v) for v in values], track_type))
            pos = end
        markers = []
        for _ in range(num_markers):
            if pos + _MARKER.size > size:
                return None
            marker_name, frame = _MARKER.unpack_from(data, pos)
            pos += _MARKER.size
            markers.append(Marker(_name(marker_name), frame))
        animations.append(Animation(_name(name), length, tracks, markers, flags))
    return AnimbinFile(animations, version, bytes(data[pos:]))
