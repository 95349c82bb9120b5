"""An ANIMBIN file against the engine's limits, before it is written: the budget.

Per animation: frames, keys per track (the engine's MAX_KEYS), tracks (MAX_TRACKS), markers
(MAX_MARKERS) and the largest error the console shows against a reference pose (the
source's own rotations at each console frame, e.g. Blender's pose); per file: animations
(MAX_ANIMATIONS) and the size in bytes. :func:`scene_rate_notes` says what a source timeline
at another rate than the region's vsync does to the clip. The Blender add-on's budget panel
shows :meth:`Budget.rows`; nothing here knows Blender.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..quaternion import angle_between, normalize
from .model import FP12_ONE, MAX_ANIMATIONS, MAX_KEYS, MAX_MARKERS, MAX_TRACKS, Animation, AnimbinFile, RotationKey
from .playback import Refresh, play_engine, refresh_hz, vsync_deltas
from .write import write_bytes


@dataclass(frozen=True)
class BudgetRow:
    """One line of the budget: what, how much, against which limit, and whether it fits."""

    label: str
    value: str
    limit: str = ""
    ok: bool = True

    def text(self) -> str:
        mark = "ok  " if self.ok else "OVER"
        limit = f" / {self.limit}" if self.limit else ""
        return f"{mark} {self.label}: {self.value}{limit}"


@dataclass(frozen=True)
class ConsoleError:
    """The largest difference between what the console shows and a reference pose."""

    degrees: float
    units: float
    """Largest quaternion component difference, in FP12 units (1/4096), up to sign."""
    joint: int
    frame: int


@dataclass
class ClipBudget:
    name: str
    frames: int
    keys_per_track: int
    """The most keys any track holds."""
    tracks: int
    markers: int
    console_error: ConsoleError | None = None


@dataclass
class Budget:
    clips: list[ClipBudget]
    size_bytes: int
    notes: list[str] = field(default_factory=list)
    """Warnings that go with the numbers (the scene's rate)."""

    @property
    def fits(self) -> bool:
        return all(row.ok for row in self.rows())

    def rows(self) -> list[BudgetRow]:
        rows = [
            BudgetRow("actions", str(len(self.clips)), str(MAX_ANIMATIONS), len(self.clips) <= MAX_ANIMATIONS),
            BudgetRow("file size", f"{self.size_bytes} bytes"),
        ]
        for clip in self.clips:
            rows.append(BudgetRow(f"{clip.name}: frames", str(clip.frames), "65535", clip.frames <= 0xFFFF))
            rows.append(BudgetRow(f"{clip.name}: keys per track", str(clip.keys_per_track), str(MAX_KEYS),
                                  clip.keys_per_track <= MAX_KEYS))
            rows.append(BudgetRow(f"{clip.name}: tracks", str(clip.tracks), str(MAX_TRACKS), clip.tracks <= MAX_TRACKS))
            rows.append(BudgetRow(f"{clip.name}: markers", str(clip.markers), str(MAX_MARKERS),
                                  clip.markers <= MAX_MARKERS))
            if clip.console_error is not None:
                e = clip.console_error
                rows.append(BudgetRow(f"{clip.name}: {CONSOLE_ERROR_LABEL}", console_error_text(e)))
        return rows

    def text(self) -> str:
        """The rows and notes, one per line: what the panel shows, as text."""
        return "\n".join([row.text() for row in self.rows()] + [f"note {n}" for n in self.notes])


CONSOLE_ERROR_LABEL = "largest error on the console"
"""The name of :func:`console_error`'s figure in the budget (and in the Blender Export report)."""


def console_error_text(e: ConsoleError) -> str:
    """The budget's words for a :class:`ConsoleError` (the Blender add-on's budget panel and
    Export report both show them)."""
    return f"{e.degrees:.3f} deg ({e.units:.1f} FP12 units), joint {e.joint} at frame {e.frame}"


def console_error(animation: Animation, reference: np.ndarray) -> ConsoleError | None:
    """What the console shows, played tick by tick by the engine's own playback (integer
    FP12, each key held until the next), against ``reference`` (frames, joints, 4): w, x, y,
    z rotations per clip frame, any length, any sign. Only joints the clip has a rotation
    track for are compared; None when there are none."""
    reference = np.asarray(reference, dtype=np.float64)
    frames = min(animation.length, reference.shape[0])
    joints = sorted({t.joint_id for t in animation.tracks
                     if any(isinstance(k, RotationKey) for k in t.keys) and 0 <= t.joint_id < reference.shape[1]})
    if frames == 0 or not joints:
        return None
    played = play_engine(animation, vsync_deltas(frames), num_joints=reference.shape[1])
    sampled = np.asarray(played.frames, dtype=np.int64)
    shown = normalize(played.rotations[:, joints].astype(np.float64))
    want = normalize(reference[np.clip(sampled, 0, reference.shape[0] - 1)][:, joints])
    degrees = angle_between(shown, want)
    units = np.minimum(np.abs(shown - want).max(axis=-1), np.abs(shown + want).max(axis=-1)) * FP12_ONE
    tick, j = np.unravel_index(int(np.argmax(degrees)), degrees.shape)
    return ConsoleError(float(degrees.max()), float(units.max()), joints[j], int(sampled[tick]))


def units_apart(a: np.ndarray, b: np.ndarray) -> float:
    """Largest quaternion component difference between rotations ``a`` and ``b`` (..., 4),
    each normalised, up to sign, in FP12 units."""
    a, b = normalize(np.asarray(a, dtype=np.float64)), normalize(np.asarray(b, dtype=np.float64))
    if a.size == 0:
        return 0.0
    return float(np.minimum(np.abs(a - b).max(axis=-1), np.abs(a + b).max(axis=-1)).max() * FP12_ONE)


def budget(animbin: AnimbinFile, references: Sequence[np.ndarray | None] = ()) -> Budget:
    """The budget of ``animbin``; ``references[i]`` (or None) is animation i's reference pose
    for :func:`console_error`."""
    clips = []
    for i, anim in enumerate(animbin.animations):
        reference = references[i] if i < len(references) else None
        keys = max((len(t.keys) for t in anim.tracks), default=0)
        clips.append(ClipBudget(
            str(anim.name), anim.length, keys, len(anim.tracks), len(anim.markers),
            console_error(anim, reference) if reference is not None else None,
        ))
    return Budget(clips, len(write_bytes(animbin)))


def console_frames(source_frames: float, source_fps: float, region: Refresh) -> int:
    """Clip frames of an animation ``source_frames`` long (first to last frame, inclusive)
    on a timeline at ``source_fps``, played at its authored speed on ``region``: the span
    in seconds times the vsync rate, plus one (frames first..last inclusive)."""
    span = max(source_frames - 1, 0) / source_fps
    return int(round(span * refresh_hz(region))) + 1


def scene_rate_notes(
    source_fps: float, region: Refresh, actions: Sequence[tuple[str, float]], exporter_units: float | None = None,
) -> list[str]:
    """What a timeline at ``source_fps`` that is not the region's vsync rate does: each
    action (name, frames first..last inclusive) becomes another number of console frames,
    keys fall between the source's frames, and they differ from the engine's exporter (which
    writes source frame first + k as key k, whatever the rates) by ``exporter_units`` FP12
    units when the caller measured it. Empty when the rates agree."""
    hz = refresh_hz(region)
    if math.isclose(source_fps, hz, rel_tol=1e-6):
        return []
    notes = [
        f"the scene runs at {source_fps:.3f} fps, the region at {hz:.3f} Hz: one console frame is "
        f"{source_fps / hz:.4f} scene frames, so keys fall between the scene's frames; set the scene's "
        f"frame rate to {hz:.3f} fps for keys on whole frames"
    ]
    for name, frames in actions:
        shown = console_frames(frames, source_fps, region)
        if shown != int(round(frames)):
            notes.append(f"{name}: {frames:g} scene frames become {shown} console frames at the region's rate")
    if exporter_units is not None:
        notes.append(
            f"the engine's exporter would write scene frame first + k as key k (ignoring the rates): "
            f"up to {exporter_units:.1f} FP12 units from these keys"
        )
    return notes
