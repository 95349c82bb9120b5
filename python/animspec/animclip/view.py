"""The decoded view of an .animclip's content: joints with their dequantised base-state
pose (spec 8.1), custom tracks with their values, triggers, path.

Computed from the sections and the strings block each time (:meth:`.model.AnimclipFile.clip`
calls :func:`clip_view`); it sits below the model and takes no model, so the model can
offer it without an import circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..common.hashes import crc32
from .frames.coding import QUATERNION_DIVISOR, dequantise_rotation, dequantise_translation
from .sections import BaseState, Built, CustomTrackData, CustomTracks, JointHashes, Path, TriggerData
from .sections.base_state import JOINT_DTYPE
from .strings import string_at
from .tags import (
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_JOINT_HASHES,
    TAG_PATH,
    TAG_TRIGGER_DATA,
    TERMINATOR_HASH,
)


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


def _last(sections: list[Any], tag: int) -> Any:
    """The last section with ``tag`` (ALERT's lookup lets a later entry win, spec 4.2)."""
    found = [s for s in sections if s.tag == tag]
    return found[-1] if found else None


def clip_view(sections: list[Any], strings: bytes, names: dict[int, str]) -> ClipView:
    """The view of a clip's ``sections`` (in table order) naming through ``strings``."""
    built = _last(sections, TAG_BUILT)
    built = built if isinstance(built, Built) else None
    name = None if built is None else string_at(strings, built.ofs_name)
    hashes_section = _last(sections, TAG_JOINT_HASHES)
    hashes = hashes_section.hashes if isinstance(hashes_section, JointHashes) else np.zeros(0, "<u4")
    base = _last(sections, TAG_BASE_STATE)
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
    ct = _last(sections, TAG_CUSTOM_TRACKS)
    if isinstance(ct, CustomTracks):
        data = _last(sections, TAG_CUSTOM_TRACK_DATA)
        for i, e in enumerate(ct.entries):
            values = data.track_values(e) if isinstance(data, CustomTrackData) else np.zeros(0, "<f4")
            tracks.append(CustomTrackView(i, string_at(strings, e.ofs_name), e.name_hash, values))
    trig = _last(sections, TAG_TRIGGER_DATA)
    path = _last(sections, TAG_PATH)
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
