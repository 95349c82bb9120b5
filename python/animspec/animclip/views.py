"""The decoded view of an .animclip model and the edits that keep its content consistent.

The view (:class:`ClipView`) is computed from the content each time: joints with their
dequantised base-state pose (spec 8.1), custom tracks with their values, triggers, path.
The edits change the content the way ALERT's own tools do (strings only ever appended,
Custom Track Data re-packed at 16-byte boundaries), so that a written file stays consistent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import numpy as np

from ..common.hashes import crc32
from .content import (
    AnimclipFile,
    BaseState,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Path,
    TriggerData,
    TriggerRecord,
)
from .frames.coding import QUATERNION_DIVISOR, dequantise_rotation, dequantise_translation
from .tags import (
    JOINT_DTYPE,
    PAD_TO,
    TAG_BASE_STATE,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_JOINT_HASHES,
    TAG_PATH,
    TAG_TRIGGER_DATA,
    TERMINATOR_HASH,
)


def f32_array(values: Any) -> np.ndarray:
    """``values`` as a 1-D little-endian f32 array (float32 input keeps its bit patterns)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-D list of numbers, got shape {arr.shape}")
    if arr.dtype == np.dtype("<f4"):
        return arr.copy()
    if arr.size and arr.dtype.kind not in "fiu":
        raise ValueError(f"expected numbers, got {arr.dtype}")
    with np.errstate(over="ignore"):
        out = arr.astype("<f4")
    wide = arr.astype(np.float64)
    if np.any(np.isfinite(wide) & ~np.isfinite(out)):
        raise ValueError("a value is too large for a 32-bit float")
    return out


def _track_slice(data: CustomTrackData, entry: CustomTrackEntry) -> np.ndarray:
    pool = data.values
    start, count = entry.ofs_data, entry.num_values
    if start % 4 == 0:
        first = start // 4
        return pool[first : first + count].copy() if first < len(pool) else np.zeros(0, "<f4")
    raw = pool.tobytes() + data.trailing
    avail = max(0, (len(raw) - start) // 4)
    return np.frombuffer(raw, "<f4", count=min(count, avail), offset=min(start, len(raw))).copy()


# ---------------------------------------------------------------------------- decoded view


def name_table(names: Mapping[int, str] | Iterable[str] | None) -> dict[int, str]:
    """hash -> name from a mapping, or from names (hashed with the DAT1 CRC32, case-sensitive)."""
    if names is None:
        return {}
    if isinstance(names, Mapping):
        return dict(names)
    return {crc32(n): n for n in names}


def dequantise_rotations(joints: np.ndarray) -> np.ndarray:
    """(n, 4) unit quaternions x, y, z, w: raw / 32768, normalised; all-zero -> identity
    (spec 8.1, animclip_to_gltf.py)."""
    q = np.stack([joints[k].astype(np.float64) for k in ("qx", "qy", "qz", "qw")], axis=1)
    return dequantise_rotation(q / QUATERNION_DIVISOR)


def dequantise_translations(joints: np.ndarray) -> np.ndarray:
    """(n, 3) translations (x, y, z) / 2^log_scale2 (spec 8.1)."""
    p = np.stack([joints[k].astype(np.float64) for k in ("x", "y", "z")], axis=1)
    return dequantise_translation(p, joints["log_scale2"].astype(np.int32)[:, None])


def quaternion_lengths(joints: np.ndarray) -> np.ndarray:
    """|Q| of each record in raw units (about 32768 for a unit quaternion, spec 11.16)."""
    q = np.stack([joints[k].astype(np.float64) for k in ("qx", "qy", "qz", "qw")], axis=1)
    return np.linalg.norm(q, axis=1)


@dataclass
class JointView:
    index: int
    """Index into Joint Hashes and Base State."""
    hash: int | None
    """None for a Base State record past the end of Joint Hashes."""
    name: str | None
    rotation: np.ndarray | None
    """Unit quaternion [x, y, z, w] (None when Base State has no record for the joint)."""
    translation: np.ndarray | None
    """[x, y, z] in file units / 2^log_scale2."""
    record: tuple[int, ...] | None
    """The raw record (qx, qy, qz, qw, x, y, z, log_scale, log_scale2)."""


@dataclass
class CustomTrackView:
    index: int
    name: str | None
    hash: int
    values: np.ndarray


@dataclass
class ClipView:
    name: str | None
    name_hash: int | None
    name_hash_ok: bool | None
    fps: float | None
    """Built +0x0C, LABELLED "fps?"."""
    duration: float | None
    """Built +0x10, LABELLED "duration in seconds?"."""
    num_frames: int | None
    """Built +0x22, LABELLED "frames count?"."""
    joints: list[JointView]
    custom_tracks: list[CustomTrackView]
    triggers: TriggerData | None
    path: Path | None


def clip_view(model: AnimclipFile, names: dict[int, str]) -> ClipView:
    built = model.built
    name = model.clip_name
    hashes_section = model.section(TAG_JOINT_HASHES)
    hashes = hashes_section.hashes if isinstance(hashes_section, JointHashes) else np.zeros(0, "<u4")
    base = model.section(TAG_BASE_STATE)
    records = base.joints if isinstance(base, BaseState) else np.zeros(0, JOINT_DTYPE)
    rot, pos = dequantise_rotations(records), dequantise_translations(records)
    joints = []
    for i in range(max(len(hashes), len(records))):
        h = int(hashes[i]) if i < len(hashes) else None
        if h == TERMINATOR_HASH:
            continue  # ALERT: "no transform for FFFFFFFF" (animclip_to_gltf.py)
        has = i < len(records)
        joints.append(JointView(
            index=i, hash=h, name=names.get(h) if h is not None else None,
            rotation=rot[i] if has else None, translation=pos[i] if has else None,
            record=tuple(int(v) for v in records[i].tolist()) if has else None,
        ))
    tracks: list[CustomTrackView] = []
    ct = model.section(TAG_CUSTOM_TRACKS)
    if isinstance(ct, CustomTracks):
        for i, e in enumerate(ct.entries):
            tracks.append(CustomTrackView(i, model.string_at(e.ofs_name), e.name_hash, custom_track_values(model, i)))
    trig = model.section(TAG_TRIGGER_DATA)
    path = model.section(TAG_PATH)
    return ClipView(
        name=name,
        name_hash=built.name_hash if built else None,
        name_hash_ok=(crc32(name) == built.name_hash) if built and name is not None else None,
        fps=built.fps if built else None,
        duration=built.duration if built else None,
        num_frames=built.num_frames if built else None,
        joints=joints,
        custom_tracks=tracks,
        triggers=trig if isinstance(trig, TriggerData) else None,
        path=path if isinstance(path, Path) else None,
    )


# ---------------------------------------------------------------------------- edits


def custom_track_values(model: AnimclipFile, index: int) -> np.ndarray:
    """Track ``index``'s f32 values (a copy), cut to what Custom Track Data holds."""
    tracks = model.section(TAG_CUSTOM_TRACKS)
    if not isinstance(tracks, CustomTracks):
        raise ValueError("the clip has no Custom Tracks section")
    entry = tracks.entries[index]
    data = model.section(TAG_CUSTOM_TRACK_DATA)
    if not isinstance(data, CustomTrackData):
        return np.zeros(0, "<f4")
    return _track_slice(data, entry)


def add_string(model: AnimclipFile, text: str) -> int:
    """Offset of ``text`` in the strings block, appending it if no string equals it.
    Existing offsets stay valid (strings are only ever appended, as ALERT's
    dat1lib/types/dat1.py ``add_string`` does; spec 4.6)."""
    raw = text.encode("utf-8")
    if b"\0" in raw:
        raise ValueError("a name cannot contain a NUL character")
    pos = 0
    while pos < len(model.strings):
        end = model.strings.find(b"\0", pos)
        if end < 0:
            break
        if model.strings[pos:end] == raw:
            return pos
        pos = end + 1
    if not raw:
        raise ValueError("an empty name needs a strings block with a string in it")
    if model.strings and not model.strings.endswith(b"\0"):
        model.strings += b"\0"
    offset = len(model.strings)
    model.strings += raw + b"\0"
    return offset


def set_clip_name(model: AnimclipFile, name: str) -> None:
    """Point Built at ``name`` (appended to the strings block) and update its CRC32."""
    built = model.built
    if built is None:
        raise ValueError("the clip has no Anim Clip Built section to hold a name")
    built.ofs_name = add_string(model, name)
    built.name_hash = crc32(name)


def rename_custom_track(model: AnimclipFile, index: int, name: str) -> None:
    tracks = model.section(TAG_CUSTOM_TRACKS)
    if not isinstance(tracks, CustomTracks):
        raise ValueError("the clip has no Custom Tracks section")
    entry = tracks.entries[index]
    entry.ofs_name = add_string(model, name)
    entry.name_hash = crc32(name)


def set_all_custom_track_values(model: AnimclipFile, changes: Mapping[int, Any]) -> None:
    """Replace the values of the tracks in ``changes`` (any lengths). Custom Track Data is
    rebuilt: every track's block is placed in entry order at the next 16-byte boundary
    (spec 7.6), ``ofs_data``/``num_values`` are updated, bytes no entry referenced are dropped."""
    tracks = model.section(TAG_CUSTOM_TRACKS)
    data = model.section(TAG_CUSTOM_TRACK_DATA)
    if not isinstance(tracks, CustomTracks):
        raise ValueError("the clip has no Custom Tracks section")
    if not isinstance(data, CustomTrackData):
        raise ValueError("the clip has no Custom Track Data section to hold values")
    current = [_track_slice(data, e) for e in tracks.entries]
    for index, values in changes.items():
        current[index] = f32_array(values)
    pos = 0
    placed = []
    for entry, values in zip(tracks.entries, current):
        start = -(-pos // PAD_TO) * PAD_TO
        entry.ofs_data, entry.num_values = start, len(values)
        placed.append((start // 4, values))
        pos = start + 4 * len(values)
    pool = np.zeros(pos // 4, "<f4")
    for first, values in placed:
        pool[first : first + len(values)] = values
    data.values, data.trailing = pool, b""


def set_trigger_records(model: AnimclipFile, records: Iterable[TriggerRecord]) -> None:
    trig = model.section(TAG_TRIGGER_DATA)
    if not isinstance(trig, TriggerData):
        raise ValueError("the clip has no Trigger Data section")
    trig.records = list(records)
