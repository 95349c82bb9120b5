"""glTF skinned animation -> ANIMBIN, written the way the upstream Blender exporter would.

What the exporter does (Forceh91/psyqo-madnight-engine, tools/blender_animbin.py, versions 2.1
and 2.2) and what is kept here:

* one track per joint, joint id = the joint's position (skin order or a mapping), ROTATION
  keys holding FULL local rotations (rest included), not deltas from rest;
* the root's rotation in the console's model space: the exporter takes it in Blender's Z-up
  armature space and pre-multiplies diag(1, -1, -1); here it is the root's glTF WORLD
  rotation (every node above the skeleton included) turned back from Y-up to Z-up and then
  through diag(1, -1, -1) (:mod:`.axes`), unless the rig is already in PS1 space;
* a key on EVERY vsync frame: the engine never interpolates between keys (its blend factor
  is an integer division that is 0 strictly between keys), so a clip keyed sparsely steps;
  MAX_KEYS = 30 therefore caps a smoothly playing clip at 30 frames.

What differs, on purpose: FP12 values are ROUNDED by default (the exporter truncates with
``int(v * 4096)``; ``fp12="trunc"`` does the same). Rounding halves the worst component error
(0.5 vs 1 raw unit), and the report gives the maximum angular error of both encodings so the
difference is measured, not asserted. Keys are sign-continuous (each in the hemisphere of the
previous one).

Time: glTF curves are in seconds; ANIMBIN frames are vsyncs. Clip frame k is sampled at
``first key time + k / refresh_hz`` so the clip plays at its authored speed on the chosen
region (:func:`animspec.animbin.playback.refresh_hz`) and starts where the animation starts
(Blender writes an action that starts at frame 1 with its first key at 1 / fps). Like the
exporter, which bakes frames start..end inclusive, a clip of T seconds gets round(T * Hz) + 1
frames, looping or not.

A GLB written by :mod:`.from_animbin` carries each clip's ANIMBIN layout in the animation's
``extras.animbin`` (length, flags, file version, and per track its joint and key frames and
types); when it is there and the region matches, the clip is rebuilt on that layout, values
read from the curves at the key times, so ANIMBIN -> glTF -> ANIMBIN gives the same bytes.
Sampling follows the glTF 2.0 specification, Appendix C "Animation Sampler Interpolation
Modes" (STEP, LINEAR, LINEAR on rotations = spherical linear interpolation, CUBICSPLINE with
tangents scaled by the keyframe interval).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pygltflib import GLTF2

from ..animbin.budget import ConsoleError, console_error
from ..animbin.model import (
    FP12_ONE,
    LOOPING_FLAG,
    MAX_ANIMATIONS,
    MAX_BONES,
    MAX_KEYS,
    MAX_MARKERS,
    NAME_FIELD_SIZE,
    Animation,
    AnimbinFile,
    KeyType,
    Marker,
    Name,
    RotationKey,
    Track,
    TranslationKey,
)
from ..animbin.playback import Refresh, refresh_hz
from ..animbin.validate import validate
from ..common.errors import AnimspecError
from ..common.findings import Finding
from ..common.ranges import ANIMBIN_ERRORS, MAX_ERROR_DEG, NumberRange
from ..quaternion import IDENTITY, angle_between, continuity_signs
from .axes import rotations_to_ps1, vectors_to_ps1
from .info import animation_label, joints_hint
from .keyfit import ReduceAdvice, ReduceRule, fit_track, reduce_advice, shown_rotations
from .rig import GltfError, GltfSource, Rig, load_gltf, node_name, read_rig
from .sampling import Channels, animation_span, local_rotations, local_translations, sample_channels

Fit = Literal["bake", "cut", "reduce", "best"]
"""How a clip is fitted into MAX_KEYS keys per track.

``bake``: a key on every frame; a clip longer than MAX_KEYS frames is refused.
``cut``: a key on every frame; frames past MAX_KEYS are dropped (with a warning).
``reduce``: keys only where the shown pose would otherwise drift more than ``max_error_deg``
from the curve; the console then steps between keys (it holds each key until the next).
``best``: at most ``max_keys`` keys per track, frames and values chosen to minimise the
largest error on screen (:mod:`.keyfit`); the report gives the error reached.
"""

MAX_FRAMES = 0xFFFF
"""An ANIMBIN animation's length (and every key's frame) is a u2."""
MAX_KEYS_RANGE = NumberRange("max_keys", 1, MAX_KEYS, "keys per track", whole=True, why="the engine holds 30")
"""``convert --max-keys``: the keys per track a fit may use."""
MAX_SAMPLES = 1 << 21
"""frames x sampled nodes a conversion may compute (about 64 MB per (frames, nodes, 4)
float array): a 15-joint rig gets all MAX_FRAMES frames; a short glTF file claiming a long
animation on a long chain of nodes is refused before anything is sampled."""

Fp12 = Literal["round", "trunc"]
"""How floats become FP12: rounded to nearest, or truncated toward zero like the exporter."""

ROUND_BOUND_DEG = math.degrees(2 * math.asin(1 / FP12_ONE))
"""Worst angle between a unit quaternion and its FP12-rounded encoding: each of four
components moves by at most 0.5/4096, so the error vector is at most 1/4096 long and the
rotation angle (twice the half-angle) is at most 2 asin(1/4096) = 0.02798 degrees."""


# --- refusals: the facts, for each front end to phrase ----------------------------------------
# Each refusal is an AnimspecError whose text is the command line's wording; the attributes
# carry the facts (which animation, which limit, which rate) so that another front end (the
# Blender add-on) can say the same in the words of its own options.


class ClipTooLongError(AnimspecError):
    """A clip longer than the keys a track may hold, with ``fit="bake"`` (a key on every frame)."""

    def __init__(self, animation: str, seconds: float, hz: float, frames: int, max_keys: int) -> None:
        self.animation, self.seconds, self.hz, self.frames, self.max_keys = animation, seconds, hz, frames, max_keys
        super().__init__(
            f"animation {animation!r}: {seconds:.3f} s at {hz:.2f} Hz is {frames} frames; {_budget(max_keys)} "
            "per track and does not interpolate, so every frame needs a key: choose the keys that "
            f"show the clip best with --fit best, keep the first {max_keys} frames with --fit cut, or "
            "key fewer frames within an angle with --fit reduce --max-error DEG (the console then "
            "steps), or shorten the animation"
        )


class TooManyJointsError(AnimspecError):
    """More joints than the engine's skeleton holds."""

    def __init__(self, joints: int, limit: int, candidates: str = "") -> None:
        self.joints, self.limit, self.candidates = joints, limit, candidates
        super().__init__(
            f"{joints} joints; the engine's skeleton holds {limit} (MAX_BONES): "
            f"give --joints FILE naming at most {limit} of them, parents first, one per line"
            + (f"; {candidates}" if candidates else "")
        )


class ReduceOverBudgetError(AnimspecError):
    """``fit="reduce"`` needs more keys than a track holds for some joint."""

    def __init__(
        self,
        animation: str,
        joint: int,
        joint_name: str,
        max_keys: int,
        max_error_deg: float,
        advice: ReduceAdvice,
    ) -> None:
        self.animation, self.joint, self.joint_name = animation, joint, joint_name
        self.max_keys, self.max_error_deg, self.advice = max_keys, max_error_deg, advice
        super().__init__(
            f"animation {animation!r}: joint {joint} ({joint_name!r}) needs more than {max_keys} keys"
            f"{'' if max_keys == MAX_KEYS else ' (--max-keys)'} to stay within "
            f"{max_error_deg} degrees with --fit reduce; {advice}"
        )


class TooManySamplesError(AnimspecError):
    """A conversion that would sample more than MAX_SAMPLES frames x nodes."""

    def __init__(self, animation: str, frames: int, nodes: int, limit: int) -> None:
        self.animation, self.frames, self.nodes, self.limit = animation, frames, nodes, limit
        super().__init__(
            f"animation {animation!r}: {frames} frames on {nodes} joint and in-between nodes is more than "
            f"{limit} samples; shorten the animation or map fewer joints with --joints FILE"
        )


class NoSuchAnimationError(GltfError):
    """Animations asked for by name that the glTF does not have."""

    def __init__(self, missing: list[str], available: list[str]) -> None:
        self.missing, self.available = missing, available
        super().__init__(f"no animation named {', '.join(map(repr, missing))} (--animation); "
                         f"the glTF has {', '.join(map(repr, available))}")


class NoAnimationError(GltfError):
    """A glTF with no animation, converted (to ANIMBIN or to .animclip): there is nothing to
    convert. ``skins``: how many skins it has (one or more: it is a rig)."""

    def __init__(self, skins: int) -> None:
        self.skins = skins
        rig = f": a rig ({skins} skin(s)), which a conversion of a clip takes as --skeleton" if skins else ""
        super().__init__(f"the glTF has no animation to convert{rig}")


@dataclass(frozen=True)
class PickedAnimations:
    """The animations a conversion takes from a glTF (:func:`pick_animations`)."""

    taken: list[tuple[int, str]]
    """(index, name) of each animation taken, in the order asked."""
    left: list[str]
    """The names of the glTF's other animations, left out."""

    def note(self) -> str | None:
        """What the report says when some animations were left out (None: none were)."""
        if not self.left:
            return None
        taken = ", ".join(repr(name) for _, name in self.taken)
        return (f"took animation {taken}; the glTF has {len(self.left)} other(s), left out: "
                f"{', '.join(repr(n) for n in self.left)} (choose with --animation NAME)")


def pick_animations(gltf: GLTF2, names: Sequence[str] | None, *, one: bool = False) -> PickedAnimations:
    """The animations of ``gltf`` a conversion takes: those named in ``names`` (by
    :func:`.info.animation_label`; the first of equal names), else every one, or the first
    when the output holds ``one``. No animation is :class:`NoAnimationError`, a name the glTF
    lacks :class:`NoSuchAnimationError`; both directions pick with this one function."""
    available = [(i, animation_label(gltf, i)) for i in range(len(gltf.animations or []))]
    if not available:
        raise NoAnimationError(len(gltf.skins or []))
    if names is None:
        taken = available[:1] if one else available
    else:
        by_name = {name: i for i, name in reversed(available)}
        missing = [n for n in names if n not in by_name]
        if missing:
            raise NoSuchAnimationError(missing, [n for _, n in available])
        taken = [(by_name[n], n) for n in names]
    chosen = {i for i, _ in taken}
    return PickedAnimations(taken, [name for i, name in available if i not in chosen])


@dataclass(frozen=True)
class IgnoredChannel:
    """A glTF channel the conversion leaves out, with the warning the report gives for it."""

    animation: str
    node: int | None
    node_name: str | None
    path: str
    reason: str
    warning: str


# --- encoding and fitting ------------------------------------------------------------------


def make_continuous(q: np.ndarray) -> tuple[np.ndarray, int]:
    """Quaternions (frames, 4) with each in the hemisphere of the previous one, the first
    with w >= 0. q and -q are one rotation, but tools that lerp or compress curves see a
    sign flip as a jump. Returns the array and how many sign flips the input had (frames
    whose sign had to change relative to the frame before)."""
    q = np.asarray(q, dtype=np.float64)
    signs = continuity_signs(q, start=IDENTITY)
    return np.where(signs[:, None] < 0, -q, q), int(np.count_nonzero(signs[1:] != signs[:-1]))


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
    error of frame f is the angle between the curve at f and the last key at or before f, as
    the engine shows it (its ``Normalize``, :func:`.keyfit.shown_rotations`): the measure the
    report gives (:func:`animspec.animbin.budget.console_error`), so ``max_error_deg`` bounds
    what is read back.
    Greedy: key a frame as soon as the held key has drifted too far. Frame 0 is always keyed.
    With ``limit``, stops once more than ``limit`` keys are needed (the caller refuses the
    clip then), so the work is at most (limit + 1) passes over the frames.
    """
    keys = [0]
    while limit is None or len(keys) <= limit:
        f = keys[-1]
        drift = angle_between(shown_rotations(encoded[f]), q[f + 1 :])
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
    from ..common.inputs import read_text  # a regular UTF-8 file; a ParseError naming it otherwise

    try:
        doc = json.loads(read_text(path, what="markers file"))
    except json.JSONDecodeError as exc:
        raise AnimspecError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or not all(isinstance(v, list) for v in doc.values()):
        raise AnimspecError(f"{path}: expected an object mapping animation names to lists of markers")
    return doc


def _finite_seconds(value: Any, hz: float) -> float | None:
    """``value`` seconds in frames at ``hz``, or None when it is no finite number (an integer
    of 400 digits is not: float() of it would raise OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        frames = float(value) * hz
    except OverflowError:
        return None
    return frames if math.isfinite(frames) else None


def _markers(specs: Sequence[MarkerSpec], hz: float, length: int, where: str, warnings: list[str]) -> list[Marker]:
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence):
        raise AnimspecError(f"{where}: markers must be a list of {{'name', 'frame' or 'time'}} objects")
    markers = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
            raise AnimspecError(f"{where}: marker {i} needs a string 'name'")
        if isinstance(spec.get("frame"), int) and not isinstance(spec.get("frame"), bool):
            frame = spec["frame"]
        elif _finite_seconds(spec.get("time"), hz) is not None:
            frame = int(round(_finite_seconds(spec["time"], hz)))  # type: ignore[arg-type]
        else:
            raise AnimspecError(
                f"{where}: marker {spec['name']!r} needs an integer 'frame' or a number 'time' (seconds)"
            )
        name = spec["name"].encode("ascii", "ignore")
        if len(name) >= NAME_FIELD_SIZE:
            raise AnimspecError(f"{where}: marker name {spec['name']!r} is longer than {NAME_FIELD_SIZE - 1} bytes")
        if not 0 <= frame < length:
            warnings.append(
                f"{where}: marker {spec['name']!r} at frame {frame} is outside the clip (0..{length - 1}); dropped"
            )
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
    """What happened to one clip (one glTF animation, or several merged)."""

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
    FP12 and any key reduction included (local joint rotations): the clip as written, played
    by the engine's own playback (:func:`animspec.animbin.budget.console_error`)."""
    sign_flips: int
    steps: bool
    """Some track has gaps between keys: the console steps there."""
    between_max_error_deg: float = 0.0
    """Largest angle between the curve BETWEEN vsyncs (at quarter frames) and the pose the
    console holds there: what no key can fix, the price of one pose per vsync."""
    start_seconds: float = 0.0
    """Time of the animation's first keyframe: clip frame 0."""
    layout: bool = False
    """The clip was rebuilt on an ANIMBIN layout carried in the glTF's extras."""
    shown: ConsoleError | None = None
    """Where ``shown_max_error_deg`` is (joint, frame), or None (no rotation track)."""


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
    ignored: list[IgnoredChannel] = field(default_factory=list)
    """The channels left out (each also one of ``warnings``)."""

    @property
    def animbin(self) -> AnimbinFile:
        """The single file (raises when the animations were split into several)."""
        if len(self.files) != 1:
            raise AnimspecError(f"the conversion made {len(self.files)} files; use .files")
        return self.files[0]

    def report(self) -> str:
        return "\n".join(self.lines + [f"warning: {w}" for w in self.warnings])


@dataclass(frozen=True)
class _Settings:
    """The options of one :func:`convert` call that every clip shares."""

    hz: float
    fit: Fit
    max_error_deg: float
    ps1_space: bool
    translations: bool
    translation_scale: float
    markers: Mapping[str, Sequence[MarkerSpec]] | None
    looping: bool | None
    fp12: Fp12
    max_keys: int
    layout_not_used: str | None = None
    """Why an ANIMBIN layout in extras is not followed (an explicit request wins), or None."""


def gltf_to_animbin(
    source: GltfSource,
    *,
    animations: Sequence[str] | None = None,
    skin: int = 0,
    joint_names: Sequence[str] | None = None,
    region: Refresh = "ntsc",
    fit: Fit = "bake",
    max_error_deg: float = ANIMBIN_ERRORS.max_error,
    ps1_space: bool = False,
    translations: bool = False,
    translation_scale: float = FP12_ONE,
    markers: Mapping[str, Sequence[MarkerSpec]] | None = None,
    looping: bool | None = None,
    split: bool = False,
    fp12: Fp12 = "round",
    merge: str | None = None,
    armature_space: bool = False,
    max_keys: int = MAX_KEYS,
    layout_not_used: str | None = None,
) -> Conversion:
    """Every animation of a skinned glTF (or those named in ``animations``) -> ANIMBIN.

    ``joint_names``: joint id order by node name (default: the skin's order). ``region``:
    the vsync rate the clip must play at its authored speed on ("ntsc", "pal" or Hz).
    ``fit``: see :data:`Fit`; ``max_error_deg`` is the tolerance of ``reduce``.
    ``ps1_space``: the glTF's world is already the console's model space (no axis change on
    the roots). ``translations``: also write TRANSLATION keys (raw = value *
    ``translation_scale``), in their own track per joint after the rotation tracks; the
    engine never applies them, and a translation key inside a rotation track would be read
    as a quaternion there. ``markers``: per animation name, overriding the glTF animation's
    ``extras.markers``. ``looping``: the flags bit (default: the glTF's ANIMBIN layout if it
    carries one, else set, as the exporter sets it on every clip). ``split``: more than
    MAX_ANIMATIONS animations go to several files instead of being refused. ``fp12``:
    ``"round"`` or the exporter's ``"trunc"``. ``merge``: one clip of this name from all the
    selected animations (they must animate different joints; COLLADA-derived files hold one
    animation per joint on one timeline). ``armature_space``: roots relative to the node
    above the skeleton, as the engine's exporter measures them (see :func:`.rig.read_rig`).
    ``layout_not_used``: why a clip's ANIMBIN layout in ``extras.animbin`` is set aside and
    the curves sampled afresh with ``fit`` (e.g. "fit reduce given": an explicit request
    wins); the report says so. By default a layout that is there is followed.
    ``max_keys``: keys per track allowed (the engine's MAX_KEYS at most).
    """
    if fit not in ("bake", "cut", "reduce", "best"):
        raise AnimspecError(f"unknown fit {fit!r}; use 'bake', 'cut', 'reduce' or 'best'")
    MAX_KEYS_RANGE.check(max_keys)
    if fp12 not in ("round", "trunc"):
        raise AnimspecError(f"unknown FP12 encoding {fp12!r}; use 'round' or 'trunc'")
    MAX_ERROR_DEG.check(max_error_deg)
    gltf = load_gltf(source)
    # The joint limit is checked before any node is walked (read_rig).
    rig = read_rig(
        gltf,
        skin=skin,
        joint_names=joint_names,
        armature_space=armature_space,
        max_joints=MAX_BONES,
        too_many=lambda joints: TooManyJointsError(joints, MAX_BONES, joints_hint(gltf, skin)),
    )
    hz = refresh_hz(region)
    settings = _Settings(
        hz,
        fit,
        max_error_deg,
        ps1_space,
        translations,
        translation_scale,
        markers,
        looping,
        fp12,
        max_keys,
        layout_not_used,
    )
    lines: list[str] = []
    warnings: list[str] = []
    n_joints = len(rig.nodes)
    if n_joints > MAX_BONES:
        raise TooManyJointsError(n_joints, MAX_BONES, joints_hint(gltf, skin))
    order = "skin order" if joint_names is None else "mapping order"
    lines.append(
        f"skin {skin}: {n_joints} joint(s) in {order}: " + ", ".join(f"{i}={n}" for i, n in enumerate(rig.names))
    )
    if rig.skipped:
        lines.append(f"skin joints not in the mapping (not exported): {', '.join(rig.skipped)}")
    roots = [j for j in range(n_joints) if rig.skeleton.parents[j] < 0]
    above = sorted({node_name(gltf, n) for j in roots for n in rig.paths[j][1:]})
    lines.append(
        f"root(s) {', '.join(rig.names[j] for j in roots)}: "
        + ("rotation in armature space (nodes above the skeleton left out)" if armature_space else "world rotation")
        + (f" (nodes above: {', '.join(above)})" if above else "")
        + (
            ", already in PS1 space, no axis change"
            if ps1_space
            else ", glTF Y-up -> Blender Z-up -> diag(1,-1,-1), as the engine's exporter has it"
        )
    )
    lines.append(
        f"region {region}: {hz:.4f} Hz, one frame per vsync; FP12 "
        + ("rounded (the exporter truncates)" if fp12 == "round" else "truncated toward zero, as the exporter does")
    )
    if translations:
        lines.append(
            f"translation keys: one track per joint after the rotation tracks, raw = value * {translation_scale:g} "
            "(the engine parses them and never applies them)"
        )

    picked = pick_animations(gltf, animations)
    selected = picked.taken
    if picked.note() is not None:
        lines.append(f"note: {picked.note()}")
    if merge is not None and selected:
        clips_wanted = [([i for i, _ in selected], merge)]
    else:
        clips_wanted = [([i], name) for i, name in selected]
    if len(clips_wanted) > MAX_ANIMATIONS and not split:
        raise AnimspecError(
            f"{len(clips_wanted)} animations; the engine holds {MAX_ANIMATIONS} per ANIMBIN file: "
            "choose them with --animation NAME (repeatable), write several files with --split, "
            "or make one clip of animations that drive different joints with --merge NAME"
        )
    cache: dict[int, bytes] = {}
    ignored: list[IgnoredChannel] = []
    wanted = {n for path in rig.paths for n in path}
    files: list[AnimbinFile] = []
    clips: list[ClipReport] = []
    for k, (indices, clip_name) in enumerate(clips_wanted):
        if k % MAX_ANIMATIONS == 0:
            files.append(AnimbinFile())
        anim, clip, version = _convert_one(
            gltf, rig, indices, clip_name, settings, wanted, cache, len(files) - 1, warnings, ignored
        )
        files[-1].animations.append(anim)
        if version is not None:
            files[-1].version = version
        clips.append(clip)
        lines.extend(_clip_lines(clip, fit, len(files) > 1 or split))
    findings = [validate(f, bone_count=n_joints) for f in files]
    return Conversion(files, clips, lines, warnings, findings, rig, ignored)


def _budget(max_keys: int) -> str:
    """Where a track's key budget comes from, for messages: the engine, or --max-keys."""
    return f"the engine holds {max_keys} keys" if max_keys == MAX_KEYS else f"--max-keys allows {max_keys} keys"


def _frame_count(seconds: float, hz: float) -> int:
    """The exporter bakes frames start..end inclusive: T seconds at Hz is round(T * Hz) + 1."""
    return int(round(seconds * hz)) + 1


@dataclass
class _Layout:
    """An ANIMBIN clip's shape carried in a glTF animation's ``extras.animbin``
    (written by :mod:`.from_animbin`): everything but the key values."""

    length: int
    flags: int
    version: int | None
    tracks: list[tuple[int, int, list[tuple[int, int]]]]
    """Per track: joint id, track type, and (frame, key type) per key."""


EXTRAS_READ = ("animbin", "markers")
"""The members of a glTF animation's ``extras`` the conversion reads."""
MAX_EXTRAS_NUMBER = 1 << 53
"""Largest magnitude of a number in those extras: every integer up to it is a float too, so
``int()``/``float()`` of it never overflow (the values meant are frames, flags, joint ids,
a refresh rate, seconds)."""


def check_extras(gltf: GLTF2, index: int) -> None:
    """Every number under animation ``index``'s ``extras.animbin`` and ``extras.markers``
    finite and within MAX_EXTRAS_NUMBER; GltfError naming its JSON path otherwise. JSON may
    hold 1e400 (read as infinity), NaN, Infinity or a 400-digit integer, on which float()
    and int() raise OverflowError or give a value no frame count can use. One pass over the
    members read (a list or object at a time, no recursion)."""
    extras = gltf.animations[index].extras
    if not isinstance(extras, Mapping):
        return
    stack = [(extras[key], f"$.animations[{index}].extras.{key}") for key in EXTRAS_READ if key in extras]
    while stack:
        value, path = stack.pop()
        if isinstance(value, Mapping):
            stack.extend((v, f"{path}.{k}") for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            if isinstance(value, float) and not math.isfinite(value):
                raise GltfError(f"{path}: {value!r} is not a finite number")
            if abs(value) > MAX_EXTRAS_NUMBER:
                shown = f"{value:.3g}" if isinstance(value, float) else f"an integer of {value.bit_length()} bits"
                raise GltfError(f"{path}: {shown} is out of range (at most 2^53 in magnitude)")


def _layout(extras: Any, hz: float, where: str, warnings: list[str]) -> _Layout | None:
    info = extras.get("animbin") if isinstance(extras, Mapping) else None
    if not isinstance(info, Mapping) or info.get("mode") != "keys" or "tracks" not in info:
        return None
    try:
        saved_hz = float(info["refresh_hz"])
        tracks = [
            (int(t["joint"]), int(t.get("track_type", 0)), [(int(f), int(kt)) for f, kt in t["keys"]])
            for t in info["tracks"]
        ]
        layout = _Layout(int(info["length"]), int(info["flags"]), info.get("version"), tracks)
        if layout.version is not None:
            layout.version = int(layout.version)
    except (KeyError, TypeError, ValueError, OverflowError):  # (int(1e999), float(10**400))
        warnings.append(f"{where}: extras.animbin is not a layout this version understands; ignored")
        return None
    if abs(saved_hz - hz) > 1e-6:
        warnings.append(
            f"{where}: its ANIMBIN layout is for {saved_hz:.4f} Hz, not {hz:.4f}; sampled afresh "
            f"(a region of {saved_hz:g} Hz rebuilds the original clip)"
        )
        return None
    if not 0 <= layout.length <= MAX_FRAMES or any(not 0 <= f <= MAX_FRAMES for _, _, keys in tracks for f, _ in keys):
        warnings.append(f"{where}: extras.animbin holds frames outside 0..{MAX_FRAMES}; ignored")
        return None
    return layout


def _channels(
    gltf: GLTF2, indices: list[int], wanted: set[int], at: np.ndarray, cache: dict, where: str, *, unit: bool = True
) -> Channels:
    """The channels of one or several (merged) animations, sampled at ``at``."""
    merged = Channels()
    owner: dict[tuple[int, str], int] = {}
    for index in indices:
        channels = sample_channels(gltf, index, wanted, at, cache, unit=unit)
        merged.ignored.extend(channels.ignored)
        merged.ignored_channels.extend(channels.ignored_channels)
        for node, paths in channels.values.items():
            for path, values in paths.items():
                if (node, path) in owner:
                    raise AnimspecError(
                        f"{where}: animations {owner[(node, path)]} and {index} both animate the {path} of "
                        f"{node_name(gltf, node)!r}; --merge needs animations that drive different joints"
                    )
                owner[(node, path)] = index
                merged.values.setdefault(node, {})[path] = values
    return merged


def _convert_one(
    gltf: GLTF2,
    rig: Rig,
    indices: list[int],
    source_name: str,
    o: _Settings,
    wanted: set[int],
    cache: dict[int, bytes],
    file_index: int,
    warnings: list[str],
    ignored: list[IgnoredChannel],
) -> tuple[Animation, ClipReport, int | None]:
    where = f"animation {source_name!r}"
    hz, fit = o.hz, o.fit
    for index in indices:
        check_extras(gltf, index)
    spans = [animation_span(gltf, i, cache) for i in indices]
    start = min(s for s, _ in spans)
    seconds = max(e for _, e in spans) - start
    extras = gltf.animations[indices[0]].extras if len(indices) == 1 else None
    layout = _layout(extras, hz, where, warnings)
    if layout is not None and o.layout_not_used:
        warnings.append(
            f"{where}: its ANIMBIN layout (extras.animbin) is not followed, {o.layout_not_used}: "
            f"sampled afresh ({fit})"
        )
        layout = None
    if layout is not None:
        frames = layout.length
        start = 0.0  # the layout's key frames are the curves' own times, frame / Hz
    else:
        frames = _frame_count(seconds, hz)
        if frames > o.max_keys and fit == "bake":
            raise ClipTooLongError(source_name, seconds, hz, frames, o.max_keys)
        if frames > o.max_keys and fit == "cut":
            warnings.append(
                f"{where}: cut from {frames} frames ({seconds:.3f} s) to {o.max_keys} "
                f"({o.max_keys / hz:.3f} s); the rest of the animation is lost"
            )
            frames = o.max_keys
    if frames > MAX_FRAMES:
        raise AnimspecError(
            f"{where}: {seconds:.3f} s at {hz:.2f} Hz is {frames} frames; an ANIMBIN animation holds "
            f"at most {MAX_FRAMES} (its length is 16 bits)"
        )
    if frames * len(wanted) > MAX_SAMPLES:
        raise TooManySamplesError(source_name, frames, len(wanted), MAX_SAMPLES)
    at = start + np.arange(frames) / hz
    channels = _channels(gltf, indices, wanted, at, cache, where)
    for note, (node, path, reason) in zip(channels.ignored, channels.ignored_channels):
        warnings.append(f"{where}: {note}; ignored")
        name = node_name(gltf, node) if node is not None and 0 <= node < len(gltf.nodes) else None
        ignored.append(IgnoredChannel(source_name, node, name, path, reason, warnings[-1]))

    roots = rig.skeleton.parents < 0
    rotations = local_rotations(rig, channels, frames)
    if not o.ps1_space:
        rotations[:, roots] = rotations_to_ps1(rotations[:, roots])
    moves: np.ndarray | None = None
    if o.translations or (
        layout is not None and any(kt == KeyType.TRANSLATION for *_, keys in layout.tracks for _, kt in keys)
    ):
        moves = local_translations(rig, channels, frames)
        if not o.ps1_space:
            moves[:, roots] = vectors_to_ps1(moves[:, roots])

    bound_err = 0.0
    if layout is not None:
        tracks, key_frames = _layout_tracks(gltf, rig, indices, layout, o, wanted, cache, moves, where)
        keys_per_track = [len(k) for k in key_frames]
        flips = 0
        reference = rotations
    else:
        tracks, keys_per_track, key_frames = [], [], []
        flips = 0
        reference = np.empty_like(rotations)
        rule = ReduceRule(reduce_keys, encode_fp12)
        for j in range(len(rig.nodes)):
            q, n_flips = make_continuous(rotations[:, j])
            flips += n_flips
            reference[:, j] = q
            encoded = encode_fp12(q, rounding=o.fp12 == "round")
            keys = reduce_keys(q, encoded, o.max_error_deg, o.max_keys) if fit == "reduce" else list(range(frames))
            # Dropping keys can leave neighbours more than a half turn apart: re-check the signs.
            kept = encoded[keys]
            for i in range(1, len(keys)):
                if int(np.dot(kept[i - 1], kept[i])) < 0:
                    kept[i] = -kept[i]
            if fit == "best":  # frames and values chosen together (keys already sign-continuous)
                fitted = fit_track(q, o.max_keys, rule)
                keys, kept = fitted.frames, fitted.values
                bound_err = max(bound_err, fitted.lower_bound_deg)
            if len(keys) > o.max_keys:
                curves = [make_continuous(rotations[:, k])[0] for k in range(rotations.shape[1])]
                raise ReduceOverBudgetError(
                    source_name, j, rig.names[j], o.max_keys, o.max_error_deg, reduce_advice(curves, o.max_keys, rule)
                )
            tracks.append(Track(joint_id=j, keys=[RotationKey(f, *map(int, v)) for f, v in zip(keys, kept)]))
            keys_per_track.append(len(keys))
            key_frames.append(keys)
        if o.translations and moves is not None:
            raw = np.rint(moves * o.translation_scale)
            if not np.all(np.abs(raw) <= 0x7FFF_FFFF):  # NaN fails too
                raise AnimspecError(f"{where}: a translation does not fit int32 at scale {o.translation_scale}")
            for j, keys in enumerate(key_frames):
                tracks.append(Track(joint_id=j, keys=[TranslationKey(f, *map(int, raw[f, j])) for f in keys]))
            keys_per_track += [len(k) for k in key_frames]

    round_err, trunc_err = _fp12_errors(reference, tracks, frames, len(rig.nodes))
    between_err = _between_error(gltf, rig, indices, o, wanted, cache, start, frames, tracks, where)

    clip_name, renamed = animbin_name(source_name)
    if renamed:
        warnings.append(
            f"{where}: named {str(clip_name)!r} in the ANIMBIN (ASCII only, at most {NAME_FIELD_SIZE - 1} bytes)"
        )
    marker_specs = (o.markers or {}).get(source_name)
    if marker_specs is None:
        found = [
            e["markers"]
            for e in (gltf.animations[i].extras for i in indices)
            if isinstance(e, Mapping) and e.get("markers") is not None
        ]
        # Lists of merged animations are joined; anything else goes to _markers as is,
        # which refuses it with a message.
        marker_specs = [m for f in found for m in f] if all(isinstance(f, list) for f in found) else found[0]
    if layout is not None:
        flags = (
            layout.flags
            if o.looping is None
            else (layout.flags | LOOPING_FLAG if o.looping else layout.flags & ~LOOPING_FLAG)
        )
    else:
        flags = 0 if o.looping is False else LOOPING_FLAG
    anim = Animation(
        name=clip_name,
        length=frames,
        tracks=tracks,
        markers=_markers(marker_specs or [], hz, frames, where, warnings),
        flags=flags,
    )
    # What a reader sees: the clip as written, played by the engine, against the curve.
    shown = console_error(anim, reference) if frames else None
    shown_err = shown.degrees if shown is not None else 0.0
    rotation_frames = [k for k, t in zip(key_frames, tracks) if k]
    steps = any(np.any(np.diff(k) > 1) or (k[-1] < frames - 1) for k in rotation_frames)
    if fit == "reduce" and steps and layout is None:
        warnings.append(
            f"{where}: keys reduced; the console does not interpolate, it holds each key until "
            f"the next, so the motion steps (largest error shown: {shown_err:.3f} degrees)"
        )
    if fit == "best" and steps and layout is None and shown_err > ROUND_BOUND_DEG:
        # Within the FP12 step nothing is seen to step.
        warnings.append(
            f"{where}: keys fitted to {o.max_keys} per track; the console holds each key until the next, "
            f"so the motion steps (largest error shown: {shown_err:.3f} degrees; no {o.max_keys}-key "
            f"track can show less than {bound_err:.3f})"
        )
    clip = ClipReport(
        source_name,
        str(clip_name),
        file_index,
        seconds,
        frames,
        keys_per_track,
        round_err,
        trunc_err,
        shown_err,
        flips,
        steps,
        between_err,
        start,
        layout is not None,
        shown,
    )
    return anim, clip, layout.version if layout is not None else None


def _layout_tracks(
    gltf: GLTF2,
    rig: Rig,
    indices: list[int],
    layout: _Layout,
    o: _Settings,
    wanted: set[int],
    cache: dict,
    moves: np.ndarray | None,
    where: str,
) -> tuple[list[Track], list[list[int]]]:
    """Tracks on the layout's joints, frames and key types; values from the curves at the
    key frames, the joint's own rotation taken exactly as stored (not renormalised), so FP12
    keys written by :mod:`.from_animbin` come back to the same integers."""
    frames = layout.length
    at = np.arange(max(frames, 1)) / o.hz
    raw = local_rotations(
        rig, _channels(gltf, indices, wanted, at, cache, where, unit=False), max(frames, 1), unit=False
    )
    roots = rig.skeleton.parents < 0
    if not o.ps1_space:
        raw[:, roots] = rotations_to_ps1(raw[:, roots])
    tracks, key_frames = [], []
    for joint, track_type, keys in layout.tracks:
        if not 0 <= joint < len(rig.nodes):
            raise AnimspecError(
                f"{where}: its ANIMBIN layout animates joint {joint}; the rig has {len(rig.nodes)} joints"
            )
        out: list = []
        for frame, key_type in keys:
            f = min(frame, max(frames - 1, 0))
            if key_type == KeyType.ROTATION:
                out.append(RotationKey(frame, *map(int, encode_fp12(raw[f, joint]))))
            elif key_type == KeyType.TRANSLATION and moves is not None:
                v = np.rint(moves[f, joint] * o.translation_scale)
                out.append(TranslationKey(frame, *map(int, np.clip(v, -0x8000_0000, 0x7FFF_FFFF))))
            else:
                raise AnimspecError(
                    f"{where}: its ANIMBIN layout holds a key of type {key_type}, which has no glTF curve"
                )
        tracks.append(Track(joint_id=joint, keys=out, track_type=track_type))
        key_frames.append([k.frame for k in out if isinstance(k, RotationKey)])
    return tracks, key_frames


def _shown(tracks: list[Track], frames: int, joints: int, fallback: np.ndarray) -> np.ndarray:
    """(frames, joints, 4): per frame, the rotation key the engine holds (its last key at or
    before the frame, later tracks on a joint winning), the curve where no track keys it."""
    shown = np.array(fallback, dtype=np.float64, copy=True)
    for track in tracks:
        keys = [k for k in track.keys if isinstance(k, RotationKey)]
        if not keys or not 0 <= track.joint_id < joints:
            continue
        key_frames = np.array([k.frame for k in keys])
        values = np.array([k.quaternion for k in keys], dtype=np.float64) / FP12_ONE
        index = np.clip(np.searchsorted(key_frames, np.arange(frames), side="right") - 1, 0, None)
        shown[:, track.joint_id] = values[index]
    return shown


def _fp12_errors(reference: np.ndarray, tracks: list[Track], frames: int, joints: int) -> tuple[float, float]:
    """FP12 error of the kept keys, rounded and truncated."""
    if frames == 0 or joints == 0:
        return 0.0, 0.0
    keyed = [
        (k.frame, t.joint_id)
        for t in tracks
        for k in t.keys
        if isinstance(k, RotationKey) and k.frame < frames and 0 <= t.joint_id < joints
    ]
    if keyed:
        at = reference[tuple(np.array(keyed).T)]
        round_err, trunc_err = fp12_error_deg(at), fp12_error_deg(at, rounding=False)
    else:
        round_err = trunc_err = 0.0
    return round_err, trunc_err


BETWEEN_SAMPLES = (0.25, 0.5, 0.75)
"""Where between two vsyncs the curve is compared with the pose the console holds."""


def _between_error(
    gltf: GLTF2,
    rig: Rig,
    indices: list[int],
    o: _Settings,
    wanted: set[int],
    cache: dict,
    start: float,
    frames: int,
    tracks: list[Track],
    where: str,
) -> float:
    if frames < 2 or frames * len(BETWEEN_SAMPLES) * len(wanted) > MAX_SAMPLES:
        return 0.0
    base = np.repeat(np.arange(frames - 1), len(BETWEEN_SAMPLES))
    at = start + (base + np.tile(BETWEEN_SAMPLES, frames - 1)) / o.hz
    curve = local_rotations(rig, _channels(gltf, indices, wanted, at, cache, where), at.shape[0])
    roots = rig.skeleton.parents < 0
    if not o.ps1_space:
        curve[:, roots] = rotations_to_ps1(curve[:, roots])
    held = _shown(tracks, frames, len(rig.nodes), np.broadcast_to(curve[:1], (frames,) + curve.shape[1:]))[base]
    return float(angle_between(curve, held).max(initial=0.0))


SHOWN_LINE = "  max error on screen: "
"""How a clip's line of the error on screen starts in the report (the Blender add-on's Export
report puts the budget's figure in its place)."""


def _clip_lines(clip: ClipReport, fit: Fit, show_file: bool) -> list[str]:
    keys = sorted(set(clip.keys_per_track)) or [0]
    key_text = f"{keys[0]}" if len(keys) == 1 else f"{keys[0]}..{keys[-1]}"
    target = f" -> file {clip.file_index}" if show_file else ""
    how = "ANIMBIN layout from extras" if clip.layout else fit
    starts = f" from {clip.start_seconds:.3f} s" if clip.start_seconds else ""
    where = "" if clip.shown is None else f" (joint {clip.shown.joint} at frame {clip.shown.frame})"
    return [
        f"animation {clip.source!r}{target} as {clip.name!r}: {clip.seconds:.3f} s{starts} -> {clip.frames} frame(s), "
        f"{len(clip.keys_per_track)} track(s) x {key_text} key(s) ({how})",
        f"  FP12 max error: {clip.fp12_round_max_deg:.4f} deg rounded "
        f"(the exporter's truncation would give {clip.fp12_trunc_max_deg:.4f} deg)",
        f"{SHOWN_LINE}{clip.shown_max_error_deg:.4f} deg at vsyncs{where}, "
        f"{clip.between_max_error_deg:.4f} deg between them (the console holds one pose per vsync)",
        f"  sign continuity: {clip.sign_flips} sign flip(s) of the sampled curves removed "
        "(each key in the previous key's hemisphere, the first with w >= 0)",
    ]
