"""glTF skinned animation -> ANIMBIN, written the way the upstream Blender exporter would.

What the exporter does (../shared/spec/animbin-engine.md, "Exporter") and what is kept here:

* one track per joint, joint id = the joint's position (skin order or a mapping), ROTATION
  keys holding FULL local rotations (rest included), not deltas from rest;
* the root's rotation pre-multiplied by the axis change diag(1, -1, -1) (a half turn about X,
  the quaternion (0, 1, 0, 0)), unless the rig is already in PS1 space;
* a key on EVERY vsync frame: the engine never interpolates between keys (its blend factor
  is an integer division that is 0 strictly between keys), so a clip keyed sparsely steps;
  MAX_KEYS = 30 therefore caps a smoothly playing clip at 30 frames.

What differs, on purpose: FP12 values are ROUNDED (the exporter truncates with
``int(v * 4096)``). Rounding halves the worst component error (0.5 vs 1 raw unit), and the
report gives the maximum angular error of both encodings so the difference is measured, not
asserted. Keys are sign-continuous (each in the hemisphere of the previous one).

Time: glTF curves are in seconds; ANIMBIN frames are vsyncs. Curves are sampled at
``frame / refresh_hz`` so the clip plays at its authored speed on the chosen region
(:func:`animspec.animbin.playback.refresh_hz`). Sampling follows the glTF 2.0 specification,
Appendix C "Animation Sampler Interpolation Modes" (STEP, LINEAR, LINEAR on rotations =
spherical linear interpolation, CUBICSPLINE with tangents scaled by the keyframe interval).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pygltflib import GLTF2

from ..animbin.model import (
    FP12_ONE,
    MAX_ANIMATIONS,
    MAX_BONES,
    MAX_KEYS,
    MAX_MARKERS,
    NAME_FIELD_SIZE,
    Animation,
    AnimbinFile,
    LOOPING_FLAG,
    Marker,
    Name,
    RotationKey,
    Track,
    TranslationKey,
)
from ..animbin.playback import Refresh, refresh_hz
from ..animbin.validate import validate
from ..errors import AnimspecError
from ..findings import Finding
from ..skeleton import angle_between, quat_multiply
from .rig import GltfSource, Rig, load_gltf, read_rig
from .sampling import animation_duration, local_rotations, local_translations, sample_channels

Fit = Literal["bake", "cut", "reduce"]
"""How a clip is fitted into MAX_KEYS keys per track.

``bake``: a key on every frame; a clip longer than MAX_KEYS frames is refused.
``cut``: a key on every frame; frames past MAX_KEYS are dropped (with a warning).
``reduce``: keys only where the shown pose would otherwise drift more than ``max_error_deg``
from the curve; the console then steps between keys (it holds each key until the next).
"""

MAX_FRAMES = 0xFFFF
"""An ANIMBIN animation's length (and every key's frame) is a u2."""
MAX_SAMPLES = 1 << 21
"""frames x sampled nodes a conversion may compute (about 64 MB per (frames, nodes, 4)
float array): a 15-joint rig gets all MAX_FRAMES frames; a short glTF file claiming a long
animation on a long chain of nodes is refused before anything is sampled."""

AXIS_CHANGE = np.array([0.0, 1.0, 0.0, 0.0])
"""diag(1, -1, -1) as a quaternion (w, x, y, z): a half turn about X."""

AXIS_CHANGE_DIAGONAL = np.array([1.0, -1.0, -1.0])

ROUND_BOUND_DEG = math.degrees(2 * math.asin(1 / FP12_ONE))
"""Worst angle between a unit quaternion and its FP12-rounded encoding: each of four
components moves by at most 0.5/4096, so the error vector is at most 1/4096 long and the
rotation angle (twice the half-angle) is at most 2 asin(1/4096) = 0.02798 degrees."""


# --- encoding and fitting ------------------------------------------------------------------


def make_continuous(q: np.ndarray) -> tuple[np.ndarray, int]:
    """Quaternions (frames, 4) with each in the hemisphere of the previous one, the first
    with w >= 0. q and -q are one rotation, but tools that lerp or compress curves see a
    sign flip as a jump. Returns the array and how many sign flips the input had (frames
    whose sign had to change relative to the frame before)."""
    q = np.array(q, dtype=np.float64, copy=True)
    signs = np.ones(q.shape[0])
    for f in range(q.shape[0]):
        ref = q[f - 1] if f else np.array([1.0, 0.0, 0.0, 0.0])
        if float(np.dot(ref, q[f])) < 0:
            q[f] = -q[f]
            signs[f] = -1.0
    return q, int(np.count_nonzero(signs[1:] != signs[:-1]))


def encode_fp12(values: np.ndarray, *, rounding: bool = True) -> np.ndarray:
    """FP12 integers: rounded (default) or truncated toward zero like the exporter's
    ``int(v * 4096)``; clamped to int16 either way."""
    scaled = np.asarray(values, dtype=np.float64) * FP12_ONE
    raw = np.rint(scaled) if rounding else np.trunc(scaled)
    return np.clip(raw, -0x8000, 0x7FFF).astype(np.int64)


def fp12_error_deg(q: np.ndarray, *, rounding: bool = True) -> float:
    """Largest angle (degrees) between unit quaternions ``q`` and their FP12 encodings."""
    if q.size == 0:
        return 0.0
    return float(angle_between(q, encode_fp12(q, rounding=rounding) / FP12_ONE).max())


def reduce_keys(q: np.ndarray, encoded: np.ndarray, max_error_deg: float, limit: int | None = None) -> list[int]:
    """Frames to key so that what the console SHOWS stays within ``max_error_deg`` of ``q``.

    The engine holds the previous key until the next key's frame (no interpolation), so the
    error of frame f is the angle between the curve at f and the last key at or before f.
    Greedy: key a frame as soon as the held key has drifted too far. Frame 0 is always keyed.
    With ``limit``, stops once more than ``limit`` keys are needed (the caller refuses the
    clip then), so the work is at most (limit + 1) passes over the frames.
    """
    keys = [0]
    while limit is None or len(keys) <= limit:
        f = keys[-1]
        drift = angle_between(encoded[f] / FP12_ONE, q[f + 1 :])
        over = np.flatnonzero(drift > max_error_deg)
        if over.size == 0:
            break
        keys.append(f + 1 + int(over[0]))
    return keys


def held_error_deg(q: np.ndarray, encoded: np.ndarray, keys: list[int]) -> float:
    """Largest angle between the curve and the key the console shows at each frame."""
    shown = np.searchsorted(np.asarray(keys), np.arange(q.shape[0]), side="right") - 1
    return float(angle_between(q, encoded[np.asarray(keys)[shown]] / FP12_ONE).max(initial=0.0))


# --- markers and names ---------------------------------------------------------------------


MarkerSpec = Mapping[str, Any]
"""``{"name": str, "frame": int}`` or ``{"name": str, "time": seconds}``."""


def read_markers_file(path: str) -> dict[str, list[MarkerSpec]]:
    """A JSON side file: ``{"animation name": [{"name": "step", "frame": 3}, ...], ...}``."""
    from ..inputs import read_text  # a regular UTF-8 file; a ParseError naming it otherwise

    try:
        doc = json.loads(read_text(path, what="markers file"))
    except json.JSONDecodeError as exc:
        raise AnimspecError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or not all(isinstance(v, list) for v in doc.values()):
        raise AnimspecError(f"{path}: expected an object mapping animation names to lists of markers")
    return doc


def _markers(specs: Sequence[MarkerSpec], hz: float, length: int, where: str, warnings: list[str]) -> list[Marker]:
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence):
        raise AnimspecError(f"{where}: markers must be a list of {{'name', 'frame' or 'time'}} objects")
    markers = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
            raise AnimspecError(f"{where}: marker {i} needs a string 'name'")
        if isinstance(spec.get("frame"), int) and not isinstance(spec.get("frame"), bool):
            frame = spec["frame"]
        elif (
            isinstance(spec.get("time"), (int, float)) and not isinstance(spec.get("time"), bool)
            and math.isfinite(float(spec["time"]) * hz)
        ):
            frame = int(round(float(spec["time"]) * hz))
        else:
            raise AnimspecError(f"{where}: marker {spec['name']!r} needs an integer 'frame' or a number 'time' (seconds)")
        name = spec["name"].encode("ascii", "ignore")
        if len(name) >= NAME_FIELD_SIZE:
            raise AnimspecError(f"{where}: marker name {spec['name']!r} is longer than {NAME_FIELD_SIZE - 1} bytes")
        if not 0 <= frame < length:
            warnings.append(f"{where}: marker {spec['name']!r} at frame {frame} is outside the clip (0..{length - 1}); dropped")
            continue
        markers.append(Marker(Name(name), frame))
    if len(markers) > MAX_MARKERS:
        raise AnimspecError(f"{where}: {len(markers)} markers; the engine holds {MAX_MARKERS} per animation")
    return markers


def animbin_name(text: str) -> tuple[Name, bool]:
    """The exporter's name rule (ASCII only, non-ASCII dropped), cut to 31 bytes rather than
    32 so that the field keeps a NUL (a 32-byte name runs on into the flags in the engine).
    Returns the name and whether it differs from ``text``."""
    raw = text.encode("ascii", "ignore")[: NAME_FIELD_SIZE - 1]
    return Name(raw), raw.decode("ascii") != text


# --- conversion ----------------------------------------------------------------------------


@dataclass
class ClipReport:
    """What happened to one glTF animation."""

    source: str
    name: str
    file_index: int
    seconds: float
    frames: int
    keys_per_track: list[int]
    fp12_round_max_deg: float
    fp12_trunc_max_deg: float
    shown_max_error_deg: float
    """Largest angle between the glTF curve (at vsync instants) and what the console shows,
    FP12 and any key reduction included."""
    sign_flips: int
    steps: bool
    """Some track has gaps between keys: the console steps there."""


@dataclass
class Conversion:
    """The result of :func:`convert`: the files, what was done, and what the validator says."""

    files: list[AnimbinFile]
    clips: list[ClipReport]
    lines: list[str]
    warnings: list[str]
    findings: list[list[Finding]]
    """One list per file: :func:`animspec.animbin.validate` with the joint count."""
    rig: Rig

    @property
    def animbin(self) -> AnimbinFile:
        """The single file (raises when the animations were split into several)."""
        if len(self.files) != 1:
            raise AnimspecError(f"the conversion made {len(self.files)} files; use .files")
        return self.files[0]

    def report(self) -> str:
        return "\n".join(self.lines + [f"warning: {w}" for w in self.warnings])


def convert(
    source: GltfSource,
    *,
    animations: Sequence[str] | None = None,
    skin: int = 0,
    joint_names: Sequence[str] | None = None,
    region: Refresh = "ntsc",
    fit: Fit = "bake",
    max_error_deg: float = 1.0,
    ps1_space: bool = False,
    translations: bool = False,
    translation_scale: float = FP12_ONE,
    markers: Mapping[str, Sequence[MarkerSpec]] | None = None,
    looping: bool = True,
    split: bool = False,
) -> Conversion:
    """Every animation of a skinned glTF (or those named in ``animations``) -> ANIMBIN.

    ``joint_names``: joint id order by node name (default: the skin's order). ``region``:
    the vsync rate the clip must play at its authored speed on ("ntsc", "pal" or Hz).
    ``fit``: see :data:`Fit`; ``max_error_deg`` is the tolerance of ``reduce``.
    ``ps1_space``: the rig is already in PS1 axes (no diag(1, -1, -1) on the root).
    ``translations``: also write TRANSLATION keys (raw = value * ``translation_scale``), in
    their own track per joint after the rotation tracks; the engine never applies them,
    and a translation key inside a rotation track would be read as a quaternion there.
    ``markers``: per animation name, overriding the glTF animation's ``extras.markers``.
    ``looping``: the flags bit (the exporter sets it on every clip); a looping clip of T
    seconds gets round(T * Hz) frames (the frame at T is frame 0 again), a one-shot clip one
    more so that its last pose is shown. ``split``: more than MAX_ANIMATIONS animations go
    to several files instead of being refused.
    """
    if fit not in ("bake", "cut", "reduce"):
        raise AnimspecError(f"unknown fit {fit!r}; use 'bake', 'cut' or 'reduce'")
    if not max_error_deg > 0:
        raise AnimspecError("max_error_deg must be positive")
    gltf = load_gltf(source)
    rig = read_rig(gltf, skin=skin, joint_names=joint_names)
    hz = refresh_hz(region)
    lines: list[str] = []
    warnings: list[str] = []
    n_joints = len(rig.nodes)
    if n_joints > MAX_BONES:
        raise AnimspecError(
            f"{n_joints} joints; the engine's skeleton holds {MAX_BONES} (MAX_BONES): "
            "give a joint mapping naming at most 15 of them"
        )
    order = "skin order" if joint_names is None else "mapping order"
    lines.append(f"skin {skin}: {n_joints} joint(s) in {order}: " + ", ".join(f"{i}={n}" for i, n in enumerate(rig.names)))
    if rig.skipped:
        lines.append(f"skin joints not in the mapping (not exported): {', '.join(rig.skipped)}")
    roots = [rig.names[j] for j in range(n_joints) if rig.skeleton.parents[j] < 0]
    lines.append(
        f"root(s) {', '.join(roots)}: "
        + ("already in PS1 space, no axis change" if ps1_space else "axis change diag(1,-1,-1) applied (glTF Y-up -> PS1 Y-down)")
    )
    lines.append(f"region {region}: {hz:.4f} Hz, one frame per vsync; FP12 rounded (the exporter truncates)")
    if translations:
        lines.append(
            f"translation keys: one track per joint after the rotation tracks, raw = value * {translation_scale:g} "
            "(the engine parses them and never applies them)"
        )

    selected = _select_animations(gltf, animations)
    if len(selected) > MAX_ANIMATIONS and not split:
        raise AnimspecError(
            f"{len(selected)} animations; the engine holds {MAX_ANIMATIONS} per ANIMBIN file: "
            "name the ones to convert, or split them into several files"
        )
    cache: dict[int, bytes] = {}
    wanted = {n for path in rig.paths for n in path}
    files: list[AnimbinFile] = []
    clips: list[ClipReport] = []
    for k, (index, source_name) in enumerate(selected):
        if k % MAX_ANIMATIONS == 0:
            files.append(AnimbinFile())
        anim, clip = _convert_one(
            gltf, rig, index, source_name, hz, fit, max_error_deg, ps1_space, translations,
            translation_scale, markers, looping, wanted, cache, len(files) - 1, warnings,
        )
        files[-1].animations.append(anim)
        clips.append(clip)
        lines.extend(_clip_lines(clip, fit, len(files) > 1 or split))
    if not selected:
        warnings.append("the glTF has no animations; the file holds none")
        files.append(AnimbinFile())
    findings = [validate(f, bone_count=n_joints) for f in files]
    return Conversion(files, clips, lines, warnings, findings, rig)


def _select_animations(gltf: GLTF2, names: Sequence[str] | None) -> list[tuple[int, str]]:
    available = [(i, a.name or f"animation{i}") for i, a in enumerate(gltf.animations)]
    if names is None:
        return available
    by_name = {name: i for i, name in reversed(available)}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise AnimspecError(f"no animation named {missing}; the glTF has {[n for _, n in available]}")
    return [(by_name[n], n) for n in names]


def _frame_count(seconds: float, hz: float, looping: bool) -> int:
    periods = int(round(seconds * hz))
    return max(1, periods) if looping else periods + 1


def _convert_one(
    gltf: GLTF2, rig: Rig, index: int, source_name: str, hz: float, fit: Fit, max_error_deg: float,
    ps1_space: bool, translations: bool, translation_scale: float,
    markers: Mapping[str, Sequence[MarkerSpec]] | None, looping: bool, wanted: set[int],
    cache: dict[int, bytes], file_index: int, warnings: list[str],
) -> tuple[Animation, ClipReport]:
    where = f"animation {source_name!r}"
    seconds = animation_duration(gltf, index, cache)
    frames = _frame_count(seconds, hz, looping)
    if frames > MAX_KEYS and fit == "bake":
        raise AnimspecError(
            f"{where}: {seconds:.3f} s at {hz:.2f} Hz is {frames} frames; the engine holds {MAX_KEYS} keys "
            "per track and does not interpolate, so every frame needs a key. Cut the clip to "
            f"{MAX_KEYS} frames, reduce keys within an angular error (the console then steps), "
            "or shorten the animation"
        )
    if frames > MAX_KEYS and fit == "cut":
        warnings.append(
            f"{where}: cut from {frames} frames ({seconds:.3f} s) to {MAX_KEYS} "
            f"({MAX_KEYS / hz:.3f} s); the rest of the animation is lost"
            + ("; the loop now jumps back from the cut" if looping else "")
        )
        frames = MAX_KEYS
    if frames > MAX_FRAMES:
        raise AnimspecError(
            f"{where}: {seconds:.3f} s at {hz:.2f} Hz is {frames} frames; an ANIMBIN animation holds "
            f"at most {MAX_FRAMES} (its length is 16 bits)"
        )
    if frames * len(wanted) > MAX_SAMPLES:
        raise AnimspecError(
            f"{where}: {frames} frames on {len(wanted)} joint and in-between nodes is more than "
            f"{MAX_SAMPLES} samples; shorten the animation or map fewer joints"
        )
    at = np.arange(frames) / hz
    channels = sample_channels(gltf, index, wanted, at, cache)
    for note in channels.ignored:
        warnings.append(f"{where}: {note}; ignored")

    rotations = local_rotations(rig, channels, frames)
    roots = rig.skeleton.parents < 0
    if not ps1_space:
        rotations[:, roots] = quat_multiply(AXIS_CHANGE, rotations[:, roots])

    tracks: list[Track] = []
    keys_per_track: list[int] = []
    flips = 0
    round_err = trunc_err = shown_err = 0.0
    key_frames: list[list[int]] = []
    for j in range(len(rig.nodes)):
        q, n_flips = make_continuous(rotations[:, j])
        flips += n_flips
        encoded = encode_fp12(q)
        keys = reduce_keys(q, encoded, max_error_deg, MAX_KEYS) if fit == "reduce" else list(range(frames))
        # Dropping keys can leave neighbours more than a half turn apart: re-check the signs.
        kept = encoded[keys]
        for i in range(1, len(keys)):
            if int(np.dot(kept[i - 1], kept[i])) < 0:
                kept[i] = -kept[i]
        if len(keys) > MAX_KEYS:
            raise AnimspecError(
                f"{where}: joint {j} ({rig.names[j]!r}) needs {len(keys)} keys to stay within "
                f"{max_error_deg} degrees; the engine holds {MAX_KEYS}: allow a larger error"
            )
        tracks.append(Track(joint_id=j, keys=[RotationKey(f, *map(int, v)) for f, v in zip(keys, kept)]))
        keys_per_track.append(len(keys))
        key_frames.append(keys)
        round_err = max(round_err, fp12_error_deg(q[keys]))
        trunc_err = max(trunc_err, fp12_error_deg(q[keys], rounding=False))
        shown_err = max(shown_err, held_error_deg(q, encoded, keys))

    if translations:
        moves = local_translations(rig, channels, frames)
        if not ps1_space:
            moves[:, roots] *= AXIS_CHANGE_DIAGONAL
        raw = np.rint(moves * translation_scale)
        if not np.all(np.abs(raw) <= 0x7FFF_FFFF):  # NaN fails too
            raise AnimspecError(f"{where}: a translation does not fit int32 at scale {translation_scale}")
        for j, keys in enumerate(key_frames):
            tracks.append(Track(joint_id=j, keys=[TranslationKey(f, *map(int, raw[f, j])) for f in keys]))

    name, renamed = animbin_name(source_name)
    if renamed:
        warnings.append(f"{where}: named {str(name)!r} in the ANIMBIN (ASCII only, at most {NAME_FIELD_SIZE - 1} bytes)")
    extras = gltf.animations[index].extras
    marker_specs = (markers or {}).get(source_name)
    if marker_specs is None and isinstance(extras, Mapping):
        marker_specs = extras.get("markers")
    anim = Animation(
        name=name,
        length=frames,
        tracks=tracks,
        markers=_markers(marker_specs or [], hz, frames, where, warnings),
        flags=LOOPING_FLAG if looping else 0,
    )
    steps = any(np.any(np.diff(k) > 1) or (k[-1] < frames - 1) for k in key_frames if k)
    if fit == "reduce" and steps:
        warnings.append(
            f"{where}: keys reduced; the console does not interpolate, it holds each key until "
            f"the next, so the motion steps (largest error shown: {shown_err:.3f} degrees)"
        )
    clip = ClipReport(source_name, str(name), file_index, seconds, frames, keys_per_track,
                      round_err, trunc_err, shown_err, flips, steps)
    return anim, clip


def _clip_lines(clip: ClipReport, fit: Fit, show_file: bool) -> list[str]:
    keys = sorted(set(clip.keys_per_track))
    key_text = f"{keys[0]}" if len(keys) == 1 else f"{keys[0]}..{keys[-1]}"
    target = f" -> file {clip.file_index}" if show_file else ""
    return [
        f"animation {clip.source!r}{target} as {clip.name!r}: {clip.seconds:.3f} s -> {clip.frames} frame(s), "
        f"{len(clip.keys_per_track)} track(s) x {key_text} key(s) ({fit})",
        f"  FP12 max error: {clip.fp12_round_max_deg:.4f} deg rounded "
        f"(the exporter's truncation would give {clip.fp12_trunc_max_deg:.4f} deg); "
        f"largest error on screen {clip.shown_max_error_deg:.4f} deg",
        f"  sign continuity: {clip.sign_flips} sign flip(s) of the sampled curves removed "
        "(each key in the previous key's hemisphere, the first with w >= 0)",
    ]
