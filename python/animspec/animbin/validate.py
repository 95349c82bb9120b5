"""What the PS1 engine will do wrong with an ANIMBIN file, found before it runs.

The engine checks nothing but the magic (``AnimationManager::LoadAnimation`` in
Forceh91/psyqo-madnight-engine, src/animation/animation_manager.cpp; docs/animbin.md, whose
playback steps the "step N" below cite): counts past its
fixed arrays corrupt memory, an unterminated name runs into the next field, an empty track
reads keys[-1], an unknown key type misaligns the rest of the file. Those are errors. Legal
files that will not play as authored (sparse keys that step instead of blending, keys past
the clip's end, translation keys the engine ignores) are warnings.

Every check works on the typed model; none re-reads bytes. The per-key checks run first
over a track's columns (frames, quaternion values: :mod:`.keys`, read from a packed table
without decoding it) with C-level builtins (map, min, max), and key by key only in a track
that has something to report (the per-key Python loop was most of a batch
validation's time).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from operator import add, mul, sub

from ..common.findings import MAX_PER_CODE, Finding, Severity, capped
from . import keys as key_columns
from .model import (
    FP12_ONE,
    LOOPING_FLAG,
    MAX_ANIMATIONS,
    MAX_BONES,
    MAX_KEYS,
    MAX_MARKERS,
    MAX_TRACKS,
    Animation,
    AnimbinFile,
    RotationKey,
    Track,
    TranslationKey,
    UnknownKey,
)

UNIT_TOLERANCE = 0.01
"""How far a quaternion's length may stray from 1 before it is reported. FP12 encoding of a
unit quaternion (truncated, as the exporter does) is off by at most about 0.001."""

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def validate(model: AnimbinFile, *, bone_count: int | None = None) -> list[Finding]:
    """Every finding for ``model``. ``bone_count``: the skeleton's bone count, when known
    (joint ids must be below it as well as below MAX_BONES)."""
    return capped(_file(model, bone_count), per_code=findings_per_code(model))


FINDINGS_PER_RECORD = 64
"""At most one finding of a code per this many records (keys, tracks, markers) is listed;
see :func:`findings_per_code`."""
MIN_FINDINGS_PER_CODE = 100


def findings_per_code(model: AnimbinFile) -> int:
    """How many findings of one code are listed for ``model``: the common cap
    (:data:`~animspec.common.findings.MAX_PER_CODE`), lowered for a small file to one per
    :data:`FINDINGS_PER_RECORD` records (at least :data:`MIN_FINDINGS_PER_CODE`).

    A finding costs about 440 bytes (its message and location) and a 3-byte key can raise
    three, so 1,000 of each code took a 35 KB file past the memory bound of reading and
    validating (48x the file + 1 MB). The rest of each code is counted in one
    finding, as past the common cap."""
    records = sum(1 + len(a.markers) + sum(1 + len(t.keys) for t in a.tracks) for a in model.animations)
    return min(MAX_PER_CODE, max(MIN_FINDINGS_PER_CODE, records // FINDINGS_PER_RECORD))


def _file(model: AnimbinFile, bone_count: int | None) -> Iterator[Finding]:
    if len(model.animations) > MAX_ANIMATIONS:
        yield Finding(
            "too-many-animations", ERROR,
            f"{len(model.animations)} animations; the engine has room for {MAX_ANIMATIONS} "
            "and overruns its array past that",
        )
    seen: dict[bytes, int] = {}
    off_unit = _off_unit_lengths(model)
    for i, anim in enumerate(model.animations):
        where = {"animation": i, "animation_name": str(anim.name)}
        first = seen.setdefault(anim.name.text, i)
        if first != i:
            yield Finding(
                "duplicate-animation-name", WARNING,
                f"same name as animation {first}; lookup by name always finds animation {first}",
                where,
            )
        yield from _animation(anim, where, bone_count, off_unit.get(i, {}))
    if model.trailing:
        yield Finding(
            "trailing-bytes", WARNING,
            f"{len(model.trailing)} bytes after the last animation; the engine never reads them",
        )


def _animation(anim: Animation, where: dict, bone_count: int | None, off_unit: dict) -> Iterator[Finding]:
    if not anim.name.is_terminated:
        yield Finding(
            "name-not-terminated", ERROR,
            "the name fills all 32 bytes with no NUL; the engine reads it as a C string and "
            "runs on into the flags and counts, so lookup by this name fails",
            where,
        )
    if anim.flags & ~LOOPING_FLAG:
        yield Finding(
            "unknown-flags", INFO,
            f"flags 0x{anim.flags:08x} set bits other than bit 0 (looping); the engine ignores them",
            where,
        )
    if anim.length == 0:
        yield Finding(
            "zero-length", WARNING,
            "length 0: a non-looping clip's frame counter is set to length - 1, which wraps "
            "to 65535 in the engine's uint16",
            where,
        )
    if len(anim.tracks) > MAX_TRACKS:
        yield Finding(
            "too-many-tracks", ERROR,
            f"{len(anim.tracks)} tracks; the engine has room for {MAX_TRACKS} and overruns its array past that",
            where,
        )
    if len(anim.markers) > MAX_MARKERS:
        yield Finding(
            "too-many-markers", ERROR,
            f"{len(anim.markers)} markers; the engine has room for {MAX_MARKERS} and overruns its array past that",
            where,
        )
    joint_limit = MAX_BONES if bone_count is None else min(MAX_BONES, bone_count)
    limit_source = (f"the skeleton's {bone_count} bones" if bone_count is not None and bone_count < MAX_BONES
                    else f"MAX_BONES = {MAX_BONES}")
    writer_by_joint: dict[int, int] = {}
    played = _played_frames(anim)
    for j, track in enumerate(anim.tracks):
        at = {**where, "track": j, "joint": track.joint_id}
        if track.joint_id >= joint_limit:
            yield Finding(
                "joint-out-of-range", ERROR,
                f"joint {track.joint_id} is past {limit_source}; the engine writes outside the bone array",
                at,
            )
        # Only a track that writes the bone on some frame competes for it: the engine
        # applies a track on a frame only when that frame's next key is a ROTATION key,
        # so a translation-only track never touches the bone (and `compare` agrees).
        writes = rotation_frames(track, played)
        if writes:
            first = writer_by_joint.setdefault(track.joint_id, j)
            if first != j:
                total = played.stop - played.start
                when = "every frame" if writes == total else (
                    f"on {writes} of the {total} frames played (those whose next key is a ROTATION key)"
                )
                yield Finding(
                    "duplicate-joint", WARNING,
                    f"track {first} rotates the same joint; this later track overwrites it {when}",
                    at,
                )
        yield from _track(track, anim, at, off_unit.get(j, {}))
    for m, marker in enumerate(anim.markers):
        if not marker.name.is_terminated:
            yield Finding(
                "marker-name-not-terminated", WARNING,
                "marker name fills all 32 bytes with no NUL; game code comparing it as a C string reads past it",
                {**where, "marker": m},
            )


def _played_frames(anim: Animation) -> range:
    """The frame counter values the engine shows for ``anim`` (step 1 of PlayAnimation):
    0 .. length - 1; a zero-length clip sits at 0 (looping: reset every tick) or at 65535
    (one-shot: length - 1 in a uint16)."""
    if anim.length > 0:
        return range(anim.length)
    return range(0, 1) if anim.flags & LOOPING_FLAG else range(0xFFFF, 0x10000)


def _next_key(frames: list[int], current: int) -> int:
    """The engine's key search (step 2): index of the ``next`` key at frame ``current``."""
    if current >= frames[-1]:
        return len(frames) - 1
    for j in range(len(frames) - 1):
        if frames[j] <= current < frames[j + 1]:
            return j + 1
    return 0


def rotation_frames(track: Track, played: range) -> int:
    """On how many of the ``played`` frames the engine writes ``track``'s joint: those
    whose next key is a ROTATION key (step 4). The key search only changes its answer at a
    key's frame, so it is evaluated once per span between key frames, not per frame.
    An empty track counts as writing nothing (its keys[-1] read is reported on its own)."""
    if not track.keys:
        return 0
    if key_columns.all_rotation(track.keys):
        return played.stop - played.start  # every span's next key is a ROTATION key
    frames = [k.frame & 0xFFFF for k in track.keys]
    bounds = sorted({played.start, played.stop, *(f for f in frames if played.start < f < played.stop)})
    count = 0
    for start, stop in zip(bounds, bounds[1:]):
        if isinstance(track.keys[_next_key(frames, start)], RotationKey):
            count += stop - start
    return count


def _track(track: Track, anim: Animation, where: dict, off_unit: dict[int, float]) -> Iterator[Finding]:
    """``off_unit``: key index -> length of this track's keys that are not unit quaternions."""
    keys = track.keys
    if not keys:
        yield Finding(
            "empty-track", ERROR,
            "track has no keys; the engine's key search then reads keys[-1] (undefined behaviour)",
            where,
        )
        return
    if len(keys) > MAX_KEYS:
        yield Finding(
            "too-many-keys", ERROR,
            f"{len(keys)} keys; the engine has room for {MAX_KEYS} and overruns its array past that",
            where,
        )
    translations = 0
    widest_gap = (1, 0)  # (gap in frames, key index where it ends)
    quiet = _quiet_rotation_track(keys, anim.length) if not off_unit else None
    if quiet is not None:
        widest_gap, keys = quiet, []  # nothing to report key by key
    previous = None
    for k, key in enumerate(keys):
        # The key's location is built only for a finding: most keys have none, and one dict
        # per key was a good part of a batch validation's time.
        if isinstance(key, UnknownKey):
            yield Finding(
                "unknown-key-type", ERROR,
                f"key type {key.key_type} is neither ROTATION (0) nor TRANSLATION (1); the engine "
                "reads no payload for it, so every later field is read misaligned",
                {**where, "key": k},
            )
        elif isinstance(key, TranslationKey):
            translations += 1
        elif k in off_unit:
            yield _not_unit(off_unit[k], {**where, "key": k})
        frame = key.frame
        if frame >= anim.length:
            yield Finding(
                "key-after-end", WARNING,
                f"frame {frame} is at or past the clip length {anim.length}; it is never shown",
                {**where, "key": k},
            )
        if previous is not None:
            gap = frame - previous
            if gap <= 0:
                yield Finding(
                    "keys-not-increasing", WARNING,
                    f"frame {frame} does not come after the previous key's frame "
                    f"{previous}; the engine's key search assumes sorted keys",
                    {**where, "key": k},
                )
            elif gap > widest_gap[0]:
                widest_gap = (gap, k)
        previous = frame
    if translations:
        yield Finding(
            "translation-ignored", WARNING,
            f"{translations} translation key(s); the engine parses them and never applies them",
            where,
        )
    gap, k = widest_gap
    if gap > 1:
        yield Finding(
            "sparse-keys", WARNING,
            f"up to {gap} frames between keys (widest before key {k}); the engine does not "
            "interpolate, it holds the previous key until the next key's frame, so the motion steps",
            {**where, "key": k},
        )


def _quiet_rotation_track(keys: Sequence, length: int) -> tuple[int, int] | None:
    """For a track of ROTATION keys with strictly increasing frames all before ``length`` (no
    per-key finding but the unit check, done apart), the widest gap between keys and the
    index of the key ending it, as the per-key loop finds them: the first widest gap, or
    (1, 0) when no gap exceeds one frame. None otherwise: the loop then words each finding."""
    if not key_columns.all_rotation(keys):
        return None
    frames = key_columns.frames(keys)
    gaps = list(map(sub, frames[1:], frames[:-1]))
    if (gaps and min(gaps) <= 0) or frames[-1] >= length:  # increasing, so the last is the latest
        return None
    widest = max(gaps, default=1)
    return (widest, gaps.index(widest) + 1) if widest > 1 else (1, 0)


def _unit_sums(keys: Sequence) -> list[int]:
    """w*w + x*x + y*y + z*z of every key (a non-ROTATION key counts as unit, FP12_ONE**2),
    computed over the track's columns by map: no per-key Python code for a ROTATION track."""
    if not key_columns.all_rotation(keys):
        return [key.w * key.w + key.x * key.x + key.y * key.y + key.z * key.z
                if isinstance(key, RotationKey) else FP12_ONE * FP12_ONE for key in keys]
    values = key_columns.quaternion_values(keys)
    squares = list(map(mul, values, values))
    return list(map(add, map(add, squares[0::4], squares[1::4]), map(add, squares[2::4], squares[3::4])))


def _length(sum_of_squares: int) -> float:
    """A quaternion's length, 1.0 = unit, from the sum of its FP12 components' squares."""
    return math.sqrt(sum_of_squares) / FP12_ONE


def _unit_range() -> tuple[int, int]:
    """The sums of squares whose length is within UNIT_TOLERANCE of 1, as an integer range.
    ``abs(_length(s) - 1.0) > UNIT_TOLERANCE`` only grows with distance from 4096**2 (sqrt and
    the division are monotonic), so the accepted sums are one interval: found here once,
    exactly, with the very formula the check used per key."""
    def outside(s: int) -> bool:
        return abs(_length(s) - 1.0) > UNIT_TOLERANCE

    def first(lo: int, hi: int, pred: Callable[[int], bool]) -> int:
        # the first s in [lo, hi] with pred(s), pred monotonic
        while lo < hi:
            mid = (lo + hi) // 2
            if pred(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo

    centre = FP12_ONE * FP12_ONE
    low = first(0, centre, lambda s: not outside(s))
    high = first(centre, 4 * 2**32, outside) - 1
    return low, high


UNIT_SUMS = _unit_range()
"""(lowest, highest) sum of squares w*w + x*x + y*y + z*z of a unit FP12 quaternion, within
UNIT_TOLERANCE: 16_443_350 to 17_114_438 (see :func:`_unit_range`)."""


def _off_unit_lengths(model: AnimbinFile) -> dict[int, dict[int, dict[int, float]]]:
    """animation -> track -> key index -> quaternion length (1.0 = unit) of every ROTATION
    key further than UNIT_TOLERANCE from unit length. The per-key test is one integer sum
    and a range check (:data:`UNIT_SUMS`): no sqrt, no float, no per-key generator (that was
    most of a batch validation's time); the length is computed only for a key
    reported, with the same formula, so the same keys get the same message. The sums of a
    track come from its columns (:func:`_unit_sums`) and are range-checked by min and max."""
    low, high = UNIT_SUMS
    found: dict[int, dict[int, dict[int, float]]] = {}
    for i, anim in enumerate(model.animations):
        for j, track in enumerate(anim.tracks):
            sums = _unit_sums(track.keys)
            if not sums or (low <= min(sums) and max(sums) <= high):
                continue
            found.setdefault(i, {})[j] = {k: _length(s) for k, s in enumerate(sums) if not low <= s <= high}
    return found


def _not_unit(length: float, where: dict) -> Finding:
    effect = (
        "all zero: the engine's Normalize turns it into the identity"
        if length == 0
        else "the engine renormalises it when sampling, other tools may not"
    )
    return Finding(
        "not-unit-quaternion", WARNING,
        f"quaternion length {length:.4f}, not 1 ({effect})",
        where,
    )
