"""Playing an ANIMBIN animation: what the PS1 shows, and what the artist meant.

Two modes over the typed model (:mod:`.model`):

**Engine-faithful** (:func:`play_engine`, :class:`EngineSkeleton`) restates
``SkeletonController::PlayAnimation`` of the psyqo madnight engine
(``src/mesh/skeleton/skeleton.cpp``, ``src/quaternion.cpp`` in Forceh91/psyqo-madnight-engine;
psyqo's ``fixed-point.hh`` and ``soft-math.cpp`` in grumpycoders/pcsx-redux; explained in
docs/animbin.md, "What playback does") in integer FP12, tick by tick:

1. ``current >= length``: a looping clip resets to 0 (not a modulo), a one-shot clip is set
   to ``length - 1`` (uint16, so a zero-length one-shot clip sits at 65535);
2. per track, the first ``j`` with ``keys[j].frame <= current < keys[j+1].frame`` gives
   prev/next; at or past the last key's frame both are the last key; before the first key
   (or with no bracketing pair in unsorted keys) both are key 0;
3. blend factor ``(current - prev.frame) / (next.frame - prev.frame)`` in C integer division,
   times 1.0 in FP12. Inside the bracket the quotient is always 0, so the engine never
   interpolates: it holds the previous key (renormalised) until the next key's frame;
4. only when ``next`` is a ROTATION key: ``bone.localRotation = Slerp(prev, next, factor)``
   (:func:`animspec.fixed_point.engine_slerp`: nlerp with the shortest-path flip computed
   but not applied, then ``Normalize``). ``prev`` is read through the key's union, so a
   TRANSLATION ``prev`` contributes the bytes of its x and y as a quaternion, and a key of
   unknown type (whose payload the loader skipped over a zero-filled buffer) reads as zeros;
5. ``current += deltaTime`` (uint16 wrap-around).

Bones keep their last ``localRotation`` between ticks; bones without a track keep their rest
rotation. Cases the console leaves undefined get a documented, deterministic stand-in and
an :class:`EngineEvent` (kinds in :class:`EngineEventKind`): the validator reports the file
problems themselves, playback only has to survive them.

**Reference** (:func:`sample_reference`, :func:`sample_reference_frames`) is the clip as
authored: float quaternions, true shortest-path slerp at fractional frames, translation keys
applied with linear interpolation, time in seconds at a chosen vsync rate, looping by modulo.
It is the yardstick the engine's output is compared against, so it deliberately shares no
arithmetic with the engine mode.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, cast

import numpy as np

from ..fixed_point import (
    FP12_ONE,
    IDENTITY16,
    ConsoleDivisionByZero,
    Quat16,
    engine_slerp,
    mul_short_array,
    normalize_quat_array,
    trunc_div,
    wrap_int16,
    wrap_int32,
)
from ..skeleton import normalize, slerp as shortest_arc_slerp
from .keys import PackedRotationKeys
from .model import (
    MAX_BONES,
    NTSC_VSYNC_HZ,
    PAL_VSYNC_HZ,
    Animation,
    Key,
    KeyType,
    RotationKey,
    TranslationKey,
)

__all__ = [
    "EmptyTrackPolicy", "EngineEvent", "EngineEventKind", "EnginePlayback", "EngineSkeleton",
    "MAX_VSYNCS", "ReferenceSampler", "ReferenceSamples", "Refresh", "check_vsyncs", "key_rotation_view",
    "max_seconds", "play_engine", "play_engine_chunks", "refresh_hz", "ticks_per_chunk",
    "sample_reference", "sample_reference_frames", "sample_times", "slerp", "vsync_count",
    "vsync_deltas",
]

Refresh = float | Literal["ntsc", "pal"]
"""A vsync rate: a number of Hz, or "ntsc" (60000/1001 Hz) / "pal" (50 Hz)."""

EmptyTrackPolicy = Literal["unchanged", "identity"]
"""Stand-in for a track with no keys (upstream reads ``keys[-1]``, undefined behaviour).

``"unchanged"`` (default) leaves the bone as it was. ``"identity"`` models the most likely
console outcome for a freshly loaded file: the loader zero-fills its arrays, so ``keys[0]``
is an all-zero ROTATION key, and ``keys[-1]`` overlaps the track header (its ``frame`` is
``type | jointId << 8``, its type byte the low byte of ``numKeys`` = ROTATION) and the
previous track's unused key slot (zeros). Either way the bone gets ``Normalize(0, 0, 0, 0)``,
which is the identity. That reasoning assumes GCC's struct layout, a previous track with
fewer than MAX_KEYS keys, and is wrong for track 0, whose ``keys[-1]`` overlaps the
animation's name and flags.
"""


# --- time base -----------------------------------------------------------------------------


def refresh_hz(refresh: Refresh) -> float:
    """The vsync rate in Hz for a :data:`Refresh` value."""
    if isinstance(refresh, str):
        named = {"ntsc": NTSC_VSYNC_HZ, "pal": PAL_VSYNC_HZ}
        try:
            return named[refresh.lower()]
        except KeyError:
            raise ValueError(f"unknown refresh {refresh!r}; use 'ntsc', 'pal' or a number") from None
    hz = float(refresh)
    if not hz > 0:
        raise ValueError(f"refresh rate must be positive, got {refresh!r}")
    return hz


def vsync_count(seconds: float, refresh: Refresh = "ntsc") -> int:
    """How many vsyncs fall in ``seconds`` (rounded): 10 s of NTSC is 599."""
    return int(round(seconds * refresh_hz(refresh)))


def vsync_deltas(n_ticks: int, step: int = 1) -> list[int]:
    """``deltaTime`` for ``n_ticks`` rendered frames at a steady rate.

    ``step`` is vsyncs per rendered frame: 1 at full rate, 2 when the game renders at half
    rate. For hitches pass an explicit list (e.g. ``[1, 1, 7, 1]``) to :func:`play_engine`.
    """
    if n_ticks < 0 or step < 0:
        raise ValueError("n_ticks and step must be non-negative")
    return [step] * n_ticks


def sample_times(duration: float, sample_hz: float) -> np.ndarray:
    """Sample instants ``0, 1/sample_hz, ...`` below ``duration`` seconds."""
    n = int(np.ceil(duration * sample_hz - 1e-9))
    return np.arange(max(n, 0), dtype=np.float64) / sample_hz


# --- engine mode ---------------------------------------------------------------------------


class EngineEventKind(str, Enum):
    """Things the console does not define, or does dangerously, met during playback."""

    EMPTY_TRACK = "empty_track"
    """numKeys == 0: upstream reads ``keys[-1]``. Stand-in per :data:`EmptyTrackPolicy`."""
    DIVISION_BY_ZERO = "division_by_zero"
    """Normalize's ``1 / squareRoot(s)`` with ``s`` = 1 raw or negative (int16 overflow): a
    divide-by-zero trap or garbage on the console. Stand-in: the bone is left unchanged."""
    JOINT_OUT_OF_RANGE = "joint_out_of_range"
    """jointId >= the number of joints played: the write is dropped here. On the console it
    lands past the bone array when jointId >= the skeleton's capacity."""
    JOINT_BEYOND_MAX_BONES = "joint_beyond_max_bones"
    """jointId >= MAX_BONES (15): applied here because the caller asked for that many
    joints, but the console writes past ``Skeleton::bones`` (memory corruption)."""


@dataclass
class EngineEvent:
    """One kind of anomaly on one track, aggregated over the ticks where it happened."""

    kind: EngineEventKind
    track: int
    joint_id: int
    first_tick: int
    first_frame: int
    count: int = 1


@dataclass
class EnginePlayback:
    """What the console computes, tick by tick."""

    frames: np.ndarray
    """uint16 [ticks]: the frame counter each tick sampled (after the loop/clamp step)."""
    rotations: np.ndarray
    """int16 [ticks, joints, 4]: every bone's ``localRotation`` (w, x, y, z, FP12) after the tick."""
    end_frame: int
    """The counter after the last tick (where a following tick would start)."""
    events: list[EngineEvent] = field(default_factory=list)

    @property
    def num_ticks(self) -> int:
        return int(self.frames.shape[0])

    @property
    def num_joints(self) -> int:
        return int(self.rotations.shape[1])

    def rotations_float(self) -> np.ndarray:
        """The rotations as floats (raw / 4096), not renormalised."""
        return self.rotations.astype(np.float64) / FP12_ONE


class _EventLog:
    """Aggregates events by (kind, track), keeping the first occurrence."""

    def __init__(self) -> None:
        self._events: dict[tuple[EngineEventKind, int], EngineEvent] = {}

    def add(self, kind: EngineEventKind, track: int, joint: int, tick: int, frame: int, count: int = 1) -> None:
        if count <= 0:
            return
        key = (kind, track)
        event = self._events.get(key)
        if event is None:
            self._events[key] = EngineEvent(kind, track, joint, tick, frame, count)
        else:
            event.count += count
            if tick < event.first_tick:
                event.first_tick, event.first_frame = tick, frame

    def events(self) -> list[EngineEvent]:
        return sorted(self._events.values(), key=lambda e: (e.first_tick, e.track, e.kind.value))


def key_rotation_view(key: Key) -> Quat16:
    """The quaternion the engine reads from ``key.rotation`` whatever the key's type.

    ``Key`` holds a union of ``Quaternion`` (4 x int16) and ``Vec3`` (3 x int32). A
    TRANSLATION key's bytes read as a quaternion give w/x = low/high half of its x and
    y/z = low/high half of its y (little-endian MIPS). A key of unknown type had no payload
    loaded into a buffer the loader zero-fills first, so it reads as (0, 0, 0, 0).
    """
    if isinstance(key, RotationKey):
        return (wrap_int16(key.w), wrap_int16(key.x), wrap_int16(key.y), wrap_int16(key.z))
    if isinstance(key, TranslationKey):
        x, y = key.x & 0xFFFF_FFFF, key.y & 0xFFFF_FFFF
        return (wrap_int16(x), wrap_int16(x >> 16), wrap_int16(y), wrap_int16(y >> 16))
    return (0, 0, 0, 0)


def _is_rotation(key: Key) -> bool:
    return int(key.key_type) == KeyType.ROTATION


def _joint_count(animation: Animation | None) -> int:
    """Default number of joints: enough for every track's jointId."""
    if animation is None:
        return 0
    return max((t.joint_id + 1 for t in animation.tracks), default=0)


def _rest_array(rest_rotations: np.ndarray | Sequence[Sequence[int]] | None, num_joints: int | None,
                default_joints: int) -> np.ndarray:
    """Initial ``localRotation`` of every bone, int16 [joints, 4]."""
    if rest_rotations is not None:
        rest = np.asarray(rest_rotations)
        if rest.ndim != 2 or rest.shape[1] != 4:
            raise ValueError("rest_rotations must have shape [joints, 4] (w, x, y, z raw FP12)")
        if num_joints is not None and num_joints != rest.shape[0]:
            raise ValueError("num_joints disagrees with len(rest_rotations)")
        if not np.issubdtype(rest.dtype, np.integer):
            raise TypeError("rest_rotations are raw FP12 integers")
        return rest.astype(np.int64).astype(np.int16)  # wrap like an int16 store
    rest = np.zeros((default_joints if num_joints is None else num_joints, 4), dtype=np.int16)
    rest[:, 0] = FP12_ONE
    return rest


def _sampled_frames(
    animation: Animation, deltas: Sequence[int] | np.ndarray, start_frame: int,
) -> tuple[np.ndarray, int]:
    """Steps 1 and 6 of PlayAnimation for every tick: the counter each tick samples."""
    length = animation.length & 0xFFFF
    looping = animation.is_looping
    hold = (length - 1) & 0xFFFF  # uint16: a zero-length one-shot clip holds 65535
    current = start_frame & 0xFFFF
    frames = np.empty(len(deltas), dtype=np.uint16)
    for i, delta in enumerate(deltas):
        if current >= length:
            current = 0 if looping else hold
        frames[i] = current
        current = (current + (int(delta) & 0xFFFF_FFFF)) & 0xFFFF  # uint32 deltaTime into uint16
    return frames, current


def _c_div_array(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """C integer division (truncating) where ``den != 0``; 0 elsewhere."""
    safe = np.where(den == 0, 1, den)
    q = np.abs(num) // np.abs(safe)
    return np.where(den == 0, 0, np.where((num < 0) != (safe < 0), -q, q))


@dataclass
class _TrackTable:
    """One track's outcome for each distinct sampled frame."""

    writes: np.ndarray  # bool [U]: the bone receives ``values``
    values: np.ndarray  # int16 [U, 4]
    div_zero: np.ndarray  # bool [U]
    empty: bool


def _key_arrays(keys: list[Key]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per key: frame (int64, as the engine's uint16), the quaternion the engine reads
    (int16 [n, 4], :func:`key_rotation_view`) and whether it is a ROTATION key. A packed
    table of ROTATION keys (animbin/keys.py) is read as one numpy view: its frames are
    uint16 and its values int16 already, so the numbers are the ones the per-key path gives."""
    table = keys.table() if isinstance(keys, PackedRotationKeys) else None
    if table is not None:
        value = table["value"]
        rot = np.stack([value["w"], value["x"], value["y"], value["z"]], axis=1)
        return table["frame"].astype(np.int64), rot, np.ones(len(table), dtype=bool)
    kf = np.array([k.frame & 0xFFFF for k in keys], dtype=np.int64)
    rot = np.array([key_rotation_view(k) for k in keys], dtype=np.int16)
    is_rot = np.array([_is_rotation(k) for k in keys], dtype=bool)
    return kf, rot, is_rot


def _track_table(keys: list[Key], frames: np.ndarray, empty_track: EmptyTrackPolicy,
                 arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> _TrackTable:
    n_frames = frames.shape[0]
    if not keys:
        writes = np.full(n_frames, empty_track == "identity")
        values = np.tile(np.array(IDENTITY16, dtype=np.int16), (n_frames, 1))
        return _TrackTable(writes, values, np.zeros(n_frames, dtype=bool), True)

    kf, rot, is_rot = arrays if arrays is not None else _key_arrays(keys)
    cur = frames.astype(np.int64)
    n = len(keys)

    prev = np.zeros(n_frames, dtype=np.int64)
    nxt = np.zeros(n_frames, dtype=np.int64)
    if n >= 2:
        inside = (kf[:-1, None] <= cur[None, :]) & (cur[None, :] < kf[1:, None])
        found = inside.any(axis=0)
        first = inside.argmax(axis=0)  # the loop breaks at the first bracketing pair
        prev = np.where(found, first, 0)
        nxt = np.where(found, first + 1, 0)
    past_last = cur >= kf[-1]
    prev[past_last] = n - 1
    nxt[past_last] = n - 1

    frame_diff = kf[nxt] - kf[prev]
    quotient = _c_div_array(cur - kf[prev], frame_diff)
    factor = np.where(frame_diff > 0, quotient * FP12_ONE, 0)  # int * 1.0_fp: raw *= q
    factor = ((factor + 0x8000_0000) & 0xFFFF_FFFF) - 0x8000_0000  # int32
    f_prev = (FP12_ONE - factor).astype(np.int16)  # Short(1.0_fp - factor): narrowing
    f_next = factor.astype(np.int16)
    blended = mul_short_array(f_prev[:, None], rot[prev]).astype(np.int32) \
        + mul_short_array(rot[nxt], f_next[:, None]).astype(np.int32)
    normalised, div_zero = normalize_quat_array(blended.astype(np.int16))

    applies = is_rot[nxt]
    return _TrackTable(applies & ~div_zero, normalised, applies & div_zero, False)


def play_engine(
    animation: Animation,
    deltas: Sequence[int] | np.ndarray,
    *,
    num_joints: int | None = None,
    rest_rotations: np.ndarray | Sequence[Sequence[int]] | None = None,
    start_frame: int = 0,
    empty_track: EmptyTrackPolicy = "unchanged",
) -> EnginePlayback:
    """Play ``animation`` the way the PS1 does, one tick per entry of ``deltas``.

    ``deltas`` are the ``deltaTime`` values (vsyncs since the previous rendered frame; see
    :func:`vsync_deltas`). The clip starts at ``start_frame`` (``SetAnimation`` uses 0).
    ``rest_rotations`` ([joints, 4] raw FP12 int16, w first) are the bones' rotations before
    the first tick; they default to identity for ``num_joints`` joints, ``num_joints``
    defaulting to the highest jointId + 1.

    A track's result depends only on the sampled frame, so each distinct frame is
    evaluated once per track (vectorised) and the ticks are then assembled in track order,
    bones keeping their previous rotation where nothing was written. :class:`EngineSkeleton`
    is the literal tick-by-tick form; the tests hold the two to the same output.
    """
    if empty_track not in ("unchanged", "identity"):
        raise ValueError(f"unknown empty_track policy {empty_track!r}")
    rest = _rest_array(rest_rotations, num_joints, _joint_count(animation))
    return _play(animation, deltas, rest, start_frame, empty_track, None)


def _play(
    animation: Animation,
    deltas: Sequence[int] | np.ndarray,
    rest: np.ndarray,
    start_frame: int,
    empty_track: EmptyTrackPolicy,
    key_arrays: list[tuple[np.ndarray, np.ndarray, np.ndarray] | None] | None,
) -> EnginePlayback:
    n_joints = rest.shape[0]
    frames, end_frame = _sampled_frames(animation, deltas, start_frame)
    n_ticks = frames.shape[0]
    unique, tick_to_unique = np.unique(frames, return_inverse=True)
    tick_to_unique = tick_to_unique.reshape(-1)
    log = _EventLog()

    n_unique = unique.shape[0]
    all_values: list[np.ndarray] = []
    # For every tick and joint: which (track, unique frame) row wrote it last this tick.
    writer = np.full((n_ticks, n_joints), -1, dtype=np.int64)
    ticks = np.arange(n_ticks)

    for t_index, track in enumerate(animation.tracks):
        table = _track_table(track.keys, unique, empty_track, key_arrays[t_index] if key_arrays else None)
        all_values.append(table.values)
        joint = track.joint_id
        if n_ticks == 0:
            continue
        if table.empty:
            log.add(EngineEventKind.EMPTY_TRACK, t_index, joint, 0, int(frames[0]), n_ticks)
        div_ticks = np.flatnonzero(table.div_zero[tick_to_unique])
        if div_ticks.size:
            log.add(EngineEventKind.DIVISION_BY_ZERO, t_index, joint, int(div_ticks[0]),
                    int(frames[div_ticks[0]]), int(div_ticks.size))
        write_ticks = np.flatnonzero(table.writes[tick_to_unique])
        if write_ticks.size == 0:
            continue
        if joint >= n_joints:
            log.add(EngineEventKind.JOINT_OUT_OF_RANGE, t_index, joint, int(write_ticks[0]),
                    int(frames[write_ticks[0]]), int(write_ticks.size))
            continue
        if joint >= MAX_BONES:
            log.add(EngineEventKind.JOINT_BEYOND_MAX_BONES, t_index, joint, int(write_ticks[0]),
                    int(frames[write_ticks[0]]), int(write_ticks.size))
        writer[write_ticks, joint] = t_index * n_unique + tick_to_unique[write_ticks]

    # Bones keep their last rotation: carry the most recent writing tick forward.
    last_tick = np.where(writer >= 0, ticks[:, None], -1)
    np.maximum.accumulate(last_tick, axis=0, out=last_tick)
    source = np.where(last_tick >= 0, writer[np.maximum(last_tick, 0), np.arange(n_joints)[None, :]], -1)
    rotations = np.broadcast_to(rest, (n_ticks, n_joints, 4)).copy()
    if all_values:
        stacked = np.concatenate(all_values, axis=0)
        has = source >= 0
        rotations[has] = stacked[source[has]]
    return EnginePlayback(frames, rotations, end_frame, log.events())


MAX_VSYNCS = 1 << 16
"""The longest run :func:`play_engine_chunks` and the commands play: the engine's frame
counter is a uint16, so in 65,536 vsyncs it has taken every value it can; a longer run only
shows again what was shown (1,093 s on NTSC, 1,311 s on PAL)."""

CHUNK_ELEMENTS = 1 << 16
"""Ticks x joints (or ticks x keys of the longest track) played at once by the streaming
forms: about 2 MB per float64 quaternion array, whatever the clip's length."""


def max_seconds(refresh: Refresh) -> float:
    """The longest ``seconds`` the streaming forms accept on ``refresh`` (:data:`MAX_VSYNCS`)."""
    return MAX_VSYNCS / refresh_hz(refresh)


def check_vsyncs(vsyncs: int, refresh: Refresh) -> None:
    """ValueError when a run of ``vsyncs`` is longer than :data:`MAX_VSYNCS`."""
    if vsyncs > MAX_VSYNCS:
        raise ValueError(
            f"{vsyncs} vsyncs is longer than the console can show apart: its frame counter is 16-bit, "
            f"so the largest run is {MAX_VSYNCS} vsyncs ({max_seconds(refresh):.3f} s at {refresh_hz(refresh):.2f} Hz)"
        )


def ticks_per_chunk(animation: Animation, num_joints: int) -> int:
    """How many ticks :func:`play_engine_chunks` plays at once for ``animation``."""
    widest = max([num_joints, 1] + [len(t.keys) for t in animation.tracks])
    return max(1, CHUNK_ELEMENTS // widest)


def play_engine_chunks(
    animation: Animation,
    deltas: Sequence[int] | np.ndarray,
    *,
    num_joints: int | None = None,
    rest_rotations: np.ndarray | Sequence[Sequence[int]] | None = None,
    start_frame: int = 0,
    empty_track: EmptyTrackPolicy = "unchanged",
    chunk_ticks: int | None = None,
) -> Iterator[tuple[int, EnginePlayback]]:
    """:func:`play_engine` in pieces of ``chunk_ticks`` ticks (default :func:`ticks_per_chunk`):
    yields (index of the piece's first tick, its playback), events' ticks counted from the
    start. The pieces put together equal :func:`play_engine`'s result, but memory is that of
    one piece: each piece starts where the previous one left the counter and the bones."""
    if empty_track not in ("unchanged", "identity"):
        raise ValueError(f"unknown empty_track policy {empty_track!r}")
    rest = _rest_array(rest_rotations, num_joints, _joint_count(animation))
    size = chunk_ticks if chunk_ticks is not None else ticks_per_chunk(animation, rest.shape[0])
    if size < 1:
        raise ValueError("chunk_ticks must be at least 1")
    key_arrays = [_key_arrays(t.keys) if t.keys else None for t in animation.tracks]
    frame = start_frame
    for first in range(0, len(deltas), size):
        played = _play(animation, deltas[first:first + size], rest, frame, empty_track, key_arrays)
        for event in played.events:
            event.first_tick += first
        yield first, played
        rest, frame = played.rotations[-1], played.end_frame


class EngineSkeleton:
    """A skeleton stepped literally like ``SkeletonController`` (one Python loop per tick).

    Slow but line-for-line comparable with upstream; :func:`play_engine` is the fast form.
    Useful for single-stepping (a debugger, a CLI ``--step``) and as the tests' oracle.
    """

    def __init__(
        self,
        num_joints: int | None = None,
        rest_rotations: np.ndarray | Sequence[Sequence[int]] | None = None,
        *,
        empty_track: EmptyTrackPolicy = "unchanged",
        animation: Animation | None = None,
    ) -> None:
        if empty_track not in ("unchanged", "identity"):
            raise ValueError(f"unknown empty_track policy {empty_track!r}")
        rest = _rest_array(rest_rotations, num_joints, _joint_count(animation))
        self.local_rotations: list[Quat16] = [cast(Quat16, tuple(int(c) for c in row)) for row in rest]
        self.empty_track: EmptyTrackPolicy = empty_track
        self.animation: Animation | None = None
        self.current_frame = 0
        self.ticks = 0
        self._log = _EventLog()
        if animation is not None:
            self.set_animation(animation)

    @property
    def events(self) -> list[EngineEvent]:
        return self._log.events()

    def set_animation(self, animation: Animation | None) -> None:
        """``SetAnimation``: an instant cut, counter back to 0, bones untouched."""
        if animation is None:
            return
        self.animation = animation
        self.current_frame = 0

    def play(self, delta_time: int) -> int | None:
        """``PlayAnimation(skeleton, deltaTime)``; returns the frame sampled (None: no clip)."""
        anim = self.animation
        if anim is None:
            return None
        tick = self.ticks
        self.ticks += 1
        length = anim.length & 0xFFFF
        if self.current_frame >= length:
            self.current_frame = 0 if anim.is_looping else (length - 1) & 0xFFFF
        current = self.current_frame

        for t_index, track in enumerate(anim.tracks):
            keys = track.keys
            if not keys:
                self._log.add(EngineEventKind.EMPTY_TRACK, t_index, track.joint_id, tick, current)
                if self.empty_track == "identity":
                    self._write(t_index, track.joint_id, IDENTITY16, tick, current)
                continue
            prev = nxt = keys[0]
            for j in range(len(keys) - 1):
                if keys[j].frame <= current < keys[j + 1].frame:
                    prev, nxt = keys[j], keys[j + 1]
                    break
            if current >= keys[-1].frame:
                prev = nxt = keys[-1]
            frame_diff = nxt.frame - prev.frame
            factor = wrap_int32(trunc_div(current - prev.frame, frame_diff) * FP12_ONE) if frame_diff > 0 else 0
            if _is_rotation(nxt):
                try:
                    rotation = engine_slerp(key_rotation_view(prev), key_rotation_view(nxt), factor)
                except ConsoleDivisionByZero:
                    self._log.add(EngineEventKind.DIVISION_BY_ZERO, t_index, track.joint_id, tick, current)
                    continue
                self._write(t_index, track.joint_id, rotation, tick, current)

        self.current_frame = (current + (int(delta_time) & 0xFFFF_FFFF)) & 0xFFFF
        return current

    def _write(self, t_index: int, joint: int, rotation: Quat16, tick: int, frame: int) -> None:
        if joint >= len(self.local_rotations):
            self._log.add(EngineEventKind.JOINT_OUT_OF_RANGE, t_index, joint, tick, frame)
            return
        if joint >= MAX_BONES:
            self._log.add(EngineEventKind.JOINT_BEYOND_MAX_BONES, t_index, joint, tick, frame)
        self.local_rotations[joint] = rotation


# --- reference mode ------------------------------------------------------------------------


@dataclass
class ReferenceSamples:
    """The clip as authored, sampled at arbitrary instants."""

    times: np.ndarray
    """float64 [samples]: seconds (NaN when sampled by frame number)."""
    frames: np.ndarray
    """float64 [samples]: clip frame after looping (modulo) or clamping."""
    rotations: np.ndarray
    """float64 [samples, joints, 4]: unit quaternions (w, x, y, z)."""
    translations: np.ndarray
    """float64 [samples, joints, 3]: local translation in units (raw / 4096)."""
    has_rotation: np.ndarray
    """bool [joints]: some track gives the joint ROTATION keys (else: rest rotation)."""
    has_translation: np.ndarray
    """bool [joints]: some track gives the joint TRANSLATION keys (else: rest translation)."""


def slerp(q0: np.ndarray, q1: np.ndarray, t: np.ndarray | float) -> np.ndarray:
    """Unit quaternions along the shortest arc between ``q0`` and ``q1`` (w, x, y, z)."""
    return normalize(shortest_arc_slerp(q0, q1, t))


def _bracket(key_frames: np.ndarray, frames: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Indices of the keys around each frame and the fraction between them (keys sorted).

    Before the first key and after the last the nearest key holds.
    """
    n = key_frames.shape[0]
    idx = np.searchsorted(key_frames, frames, side="right") - 1
    i0 = np.clip(idx, 0, n - 1)
    i1 = np.where(idx < 0, 0, np.minimum(idx + 1, n - 1))
    span = key_frames[i1] - key_frames[i0]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(span > 0, (frames - key_frames[i0]) / np.where(span > 0, span, 1.0), 0.0)
    return i0, i1, np.clip(t, 0.0, 1.0)


def _wrap_frames(animation: Animation, frames: np.ndarray) -> np.ndarray:
    length = float(animation.length & 0xFFFF)
    if length <= 0:
        return np.zeros_like(frames)
    if animation.is_looping:
        return np.mod(frames, length)
    return np.clip(frames, 0.0, length - 1.0)


def sample_reference_frames(
    animation: Animation,
    frames: np.ndarray | Sequence[float],
    *,
    num_joints: int | None = None,
    rest_rotations: np.ndarray | Sequence[Sequence[int]] | None = None,
    rest_translations: np.ndarray | Sequence[Sequence[int]] | None = None,
) -> ReferenceSamples:
    """Sample the authored clip at (fractional) vsync frame numbers.

    Frames are wrapped by modulo for a looping clip and clamped to ``[0, length - 1]``
    otherwise; past the last key the last key holds (the loop does not blend back to the
    first key: Blender's own playback jumps too). Per joint, ROTATION keys are slerped and
    TRANSLATION keys lerped; keys are sorted by frame first (the artist's order), and keys
    of unknown type are ignored. Several tracks on one joint: the later track wins per
    channel. ``rest_rotations`` [joints, 4] and ``rest_translations`` [joints, 3] are raw
    FP12 integers, as in the MESHBIN skeleton (defaults: identity, zero); joints without
    keys of a channel keep their rest value, and tracks whose jointId is past the last
    joint are ignored.
    """
    raw = np.asarray(frames, dtype=np.float64).reshape(-1)
    return _sample(animation, raw, np.full(raw.shape[0], np.nan), num_joints, rest_rotations, rest_translations)


def sample_reference(
    animation: Animation,
    times: np.ndarray | Sequence[float],
    *,
    refresh: Refresh = "ntsc",
    num_joints: int | None = None,
    rest_rotations: np.ndarray | Sequence[Sequence[int]] | None = None,
    rest_translations: np.ndarray | Sequence[Sequence[int]] | None = None,
) -> ReferenceSamples:
    """Sample the authored clip at instants in seconds, one clip frame per vsync.

    Frame numbers are vsync ticks, so the same clip runs about 20% faster on NTSC
    (59.94 Hz) than on PAL (50 Hz): ``frame = seconds * refresh``. See
    :func:`sample_reference_frames` for the interpolation rules.
    """
    t = np.asarray(times, dtype=np.float64).reshape(-1)
    return _sample(animation, t * refresh_hz(refresh), t, num_joints, rest_rotations, rest_translations)


class ReferenceSampler:
    """The authored clip ready to be sampled many times (its keys sorted and converted once):
    what :func:`sample_reference` and :func:`sample_reference_frames` do, for callers that
    sample a long run piece by piece. Arguments as for :func:`sample_reference_frames`."""

    def __init__(
        self,
        animation: Animation,
        *,
        num_joints: int | None = None,
        rest_rotations: np.ndarray | Sequence[Sequence[int]] | None = None,
        rest_translations: np.ndarray | Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.animation = animation
        if rest_rotations is not None:
            rest_q = np.asarray(rest_rotations, dtype=np.float64) / FP12_ONE
            if rest_q.ndim != 2 or rest_q.shape[1] != 4:
                raise ValueError("rest_rotations must have shape [joints, 4]")
            if num_joints is not None and num_joints != rest_q.shape[0]:
                raise ValueError("num_joints disagrees with len(rest_rotations)")
        else:
            if num_joints is None:
                num_joints = len(rest_translations) if rest_translations is not None else _joint_count(animation)
            rest_q = np.zeros((num_joints, 4))
            rest_q[:, 0] = 1.0
        n_joints = rest_q.shape[0]
        if rest_translations is not None:
            rest_t = np.asarray(rest_translations, dtype=np.float64) / FP12_ONE
            if rest_t.shape != (n_joints, 3):
                raise ValueError("rest_translations must have shape [joints, 3]")
        else:
            rest_t = np.zeros((n_joints, 3))
        self.rest_rotations = normalize(rest_q)
        self.rest_translations = rest_t
        self.has_rotation = np.zeros(n_joints, dtype=bool)
        self.has_translation = np.zeros(n_joints, dtype=bool)
        # Per track in file order (a later track wins per channel): (joint, rotation keys'
        # frames and unit quaternions or None, translation keys' frames and vectors or None).
        self._tracks: list[tuple[int, tuple[np.ndarray, np.ndarray] | None, tuple[np.ndarray, np.ndarray] | None]] = []
        for track in animation.tracks:
            j = track.joint_id
            if j >= n_joints:
                continue
            rotation = translation = None
            rkeys = sorted((k for k in track.keys if isinstance(k, RotationKey)), key=lambda k: k.frame)
            if rkeys:
                rotation = (np.array([k.frame for k in rkeys], dtype=np.float64),
                            normalize(np.array([k.quaternion for k in rkeys], dtype=np.float64)))
                self.has_rotation[j] = True
            tkeys = sorted((k for k in track.keys if isinstance(k, TranslationKey)), key=lambda k: k.frame)
            if tkeys:
                translation = (np.array([k.frame for k in tkeys], dtype=np.float64),
                               np.array([k.vector for k in tkeys], dtype=np.float64) / FP12_ONE)
                self.has_translation[j] = True
            if rotation is not None or translation is not None:
                self._tracks.append((j, rotation, translation))

    @property
    def num_joints(self) -> int:
        return int(self.rest_rotations.shape[0])

    def at_times(self, times: np.ndarray | Sequence[float], refresh: Refresh = "ntsc") -> ReferenceSamples:
        """:func:`sample_reference` at ``times`` (seconds)."""
        t = np.asarray(times, dtype=np.float64).reshape(-1)
        return self._sample(t * refresh_hz(refresh), t)

    def at_frames(self, frames: np.ndarray | Sequence[float]) -> ReferenceSamples:
        """:func:`sample_reference_frames` at ``frames``."""
        raw = np.asarray(frames, dtype=np.float64).reshape(-1)
        return self._sample(raw, np.full(raw.shape[0], np.nan))

    def _sample(self, raw_frames: np.ndarray, times: np.ndarray) -> ReferenceSamples:
        wrapped = _wrap_frames(self.animation, raw_frames)
        n, n_joints = wrapped.shape[0], self.num_joints
        rotations = np.broadcast_to(self.rest_rotations, (n, n_joints, 4)).copy()
        translations = np.broadcast_to(self.rest_translations, (n, n_joints, 3)).copy()
        for j, rotation, translation in self._tracks:
            if rotation is not None:
                kf, kq = rotation
                i0, i1, t = _bracket(kf, wrapped)
                rotations[:, j] = slerp(kq[i0], kq[i1], t)
            if translation is not None:
                kf, kv = translation
                i0, i1, t = _bracket(kf, wrapped)
                translations[:, j] = kv[i0] + (kv[i1] - kv[i0]) * t[:, None]
        return ReferenceSamples(times, wrapped, rotations, translations,
                                self.has_rotation.copy(), self.has_translation.copy())


def _sample(
    animation: Animation,
    raw_frames: np.ndarray,
    times: np.ndarray,
    num_joints: int | None,
    rest_rotations: np.ndarray | Sequence[Sequence[int]] | None,
    rest_translations: np.ndarray | Sequence[Sequence[int]] | None,
) -> ReferenceSamples:
    sampler = ReferenceSampler(animation, num_joints=num_joints, rest_rotations=rest_rotations,
                               rest_translations=rest_translations)
    return sampler._sample(raw_frames, times)
