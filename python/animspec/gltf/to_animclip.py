"""glTF skinned animation -> .animclip animation (Base State, Sample Elem, Sample Data, Built).

One glTF animation is sampled at ``fps`` from its first key time: frame k at first + k / fps,
round(duration * fps) + 1 frames (a looping clip leaves the last one out: it is frame 0 again),
counted from the key times before anything is sampled and refused past what a clip holds or a
conversion samples (:func:`frame_count`).
Each joint's local transform is taken relative to its exported parent, a root's relative to
the scene (glTF's Y-up space, the engine's joint space: tests/fixtures/luna/README.md), with
the same composition of non-joint nodes as the ANIMBIN converter (:mod:`.sampling`). Scale is
the joint node's own (sampled or rest) scale. Joints are named by the DAT1 name hash of their
node names (Joint Hashes), in skin order or ``joint_names`` order.

Root motion: when every root joint hangs under one non-joint node at the top of the scene
(the node ``convert clip.animclip --skeleton rig.glb`` adds, :data:`.from_animclip.ROOT_MOTION_NODE`)
and the animation moves that node's translation, its translation and rotation per frame become
the clip's Motion Data (relative to frame 0), and the joints see the node as it is at frame 0
(so the motion is not counted twice). ``root_motion=False`` leaves it composed into the root
joints instead, as before.

The encoding (:mod:`animspec.animclip.frames.encode`) meets ``max_error`` per kind where the format
allows it; the error reached is in the result, measured on the written bytes as a reader
decodes them (:func:`animspec.animclip.frames.encode.read_back_error`). The sections the encoder does not produce come
from ``template`` byte for byte (:mod:`animspec.animclip.frames.sections`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from pygltflib import GLTF2

from ..animclip.frames.encode import (
    FPS,
    MAX_FRAMES,
    ClipError,
    EncodedAnimation,
    Frames,
    KindError,
    Tolerance,
    encode,
    joint_hashes,
    read_back_errors,
)
from ..animclip.frames.object_space import ObjectError, ObjectTolerance
from ..animclip.frames.sections import TAG_MOTION_DATA, clip_model
from ..animclip.model import AnimclipFile
from ..animclip.write import write_bytes
from ..quaternion import conjugate, normalize, quat_multiply, quat_to_matrix, wxyz_to_xyzw
from .info import animation_label
from .rig import GltfError, GltfSource, Rig, load_gltf, node_rest, read_rig, split_trs
from .sampling import animation_span, local_matrices, local_rotations, sample_channels
from .to_animbin import MAX_SAMPLES, pick_animations


class TooManyFramesError(GltfError):
    """An animation that would be sampled on more frames than an .animclip holds
    (:data:`.encode.MAX_FRAMES`), or on more frames x nodes than a conversion samples
    (:data:`.to_animbin.MAX_SAMPLES`, ``nodes`` given): refused from the key times and the fps,
    before anything is sampled. ``frames`` may be a float (past any integer worth printing)."""

    def __init__(self, animation: str, seconds: float, fps: float, frames: float, limit: int, nodes: int | None = None):
        self.animation, self.seconds, self.fps, self.frames, self.limit, self.nodes = (
            animation, seconds, fps, frames, limit, nodes)
        count = f"{int(frames):,}" if frames < 1e15 else f"{frames:.3g}"
        if nodes is None:
            super().__init__(
                f"animation {animation!r} lasts {seconds:g} s: at {fps:g} fps that is {count} frames; "
                + (f"an .animclip holds at most {limit:,}" if limit == MAX_FRAMES else
                   f"a looping .animclip with root motion holds at most {limit:,} (its closing sample is one more)")
                + ": lower --fps or shorten the animation")
        else:
            super().__init__(
                f"animation {animation!r}: {count} frames ({seconds:g} s at {fps:g} fps) on {nodes:,} joint and "
                f"in-between nodes is {int(frames) * nodes:,} samples, more than the {limit:,} a conversion samples: "
                "lower --fps, shorten the animation or map fewer joints with --joints FILE")


def frame_count(animation: str, seconds: float, fps: float, looping: bool, nodes: int,
                motion: bool = False) -> int:
    """The frames sampling ``seconds`` at ``fps`` gives (the last one left out when ``looping``),
    counted before anything is allocated: refused past :data:`.encode.MAX_FRAMES` (one fewer
    for a looping clip with root ``motion``: Motion Data's closing sample is counted in 16 bits
    too), or past :data:`.to_animbin.MAX_SAMPLES` frames x ``nodes`` sampled
    (:class:`TooManyFramesError`)."""
    FPS.check(fps)
    top = MAX_FRAMES - 1 if looping and motion else MAX_FRAMES
    exact = seconds * fps
    if not exact <= top:  # (before rounding: 3e38 s at 1000 fps has no int worth making)
        raise TooManyFramesError(animation, seconds, fps, exact + (0 if looping else 1), top)
    count = max(int(round(exact)) + (0 if looping else 1), 1)
    if count > top:
        raise TooManyFramesError(animation, seconds, fps, count, top)
    if count * nodes > MAX_SAMPLES:
        raise TooManyFramesError(animation, seconds, fps, count, MAX_SAMPLES, nodes)
    return count


def error_text(error: ClipError, names: Sequence[str]) -> str:
    """The command line's words for a clip's :class:`ClipError`: each kind's worst, its unit,
    and where (joint name, frame)."""

    def where(kind: KindError) -> str:
        name = names[kind.joint] if kind.joint < len(names) else f"joint {kind.joint}"
        return f"{name!r}, frame {kind.frame}"

    e = error
    return (
        f"rotation {e.rotation.worst:.3g} deg ({where(e.rotation)}), "
        f"translation {e.translation.worst:.3g} m ({where(e.translation)}), "
        f"scale {e.scale.worst:.3g} relative ({where(e.scale)})"
    )


def object_error_text(error: ObjectError, names: Sequence[str]) -> str:
    """The command line's words for an :class:`ObjectError` (glTF's metres, shown in mm): the
    largest distance and where, the 99th percentile, and the shell it was measured at."""
    name = names[error.joint] if error.joint < len(names) else f"joint {error.joint}"
    return (
        f"max {error.max * 1000:.3g} mm ({name!r}, frame {error.frame}), "
        f"99th percentile {error.p99 * 1000:.3g} mm, at virtual vertices {error.shell * 1000:g} mm from each joint"
    )


@dataclass(frozen=True)
class TemplateMismatch:
    """A template whose joints or frame count are not the clip's: what of it is kept."""

    template_joints: int
    clip_joints: int
    matching: int
    """How many of the clip's joints (by name hash) the template has."""
    template_frames: int | None
    clip_frames: int
    kept: tuple[str, ...]
    """What the new clip takes from the template (sections by name, and its Built fields)."""

    def note(self) -> str:
        parts = []
        if self.matching != self.clip_joints or self.template_joints != self.clip_joints:
            parts.append(f"{self.matching} of the clip's {self.clip_joints} joint(s) are among the template's "
                         f"{self.template_joints}")
        if self.template_frames != self.clip_frames:
            parts.append(f"the template has {self.template_frames} frame(s), the clip {self.clip_frames}")
        return (f"the template does not fit the clip: {'; '.join(parts)}; kept from it: {', '.join(self.kept)}"
                " (per-frame values and frame numbers in them are the template's)")


@dataclass(frozen=True)
class AnimclipConversion:
    model: AnimclipFile
    encoded: EncodedAnimation
    rig: Rig
    animation: str
    fps: float
    frames: Frames
    """The glTF's transforms the clip was encoded from."""
    data: bytes
    """The clip's bytes, as written (the model through :func:`animspec.animclip.write.write_bytes`)."""
    tolerance: Tolerance | ObjectTolerance
    """The bound the encoder was given."""
    root_motion_node: int | None = None
    """The glTF node whose animation became the clip's Motion Data, or None."""
    root_motion_left_out: int | None = None
    """The root motion node ``root_motion=False`` left composed into the root joints, or None."""
    motion_note: str = ""
    """Where the clip's Motion Data comes from (empty: it has none)."""
    notes: tuple[str, ...] = ()
    """Choices the conversion made that the user should hear of (which animation of several
    it took, what of a template that does not fit the clip is kept), one line each."""
    template_mismatch: TemplateMismatch | None = None
    """How the template differs from the clip (its joints, its frame count), None if it fits."""

    @cached_property
    def _read_back(self) -> tuple[ClipError, ObjectError]:
        """Both errors a reader of the written clip sees (:func:`.encode.read_back_errors`, one
        decoding), when first asked: after the writer's own read-back check, which refuses
        (naming the file) a clip ``play`` would refuse."""
        return read_back_errors(self.data, self.frames, self.rig.skeleton.parents, self.encoded.object_error.shell)

    @property
    def error(self) -> ClipError:
        """Each joint's own error a reader of the written clip sees."""
        return self._read_back[0]

    @property
    def object_error(self) -> ObjectError:
        """The object-space error a reader of the written clip sees, at the shell the encoder was
        given (or its default, with the joint-local bound)."""
        return self._read_back[1]

    @property
    def met(self) -> bool:
        """Whether what a reader sees is within the bound asked (the format's precision has a floor)."""
        if isinstance(self.tolerance, ObjectTolerance):
            return self.object_error.max <= self.tolerance.max_error
        return self.error.within(self.tolerance)

    def report(self) -> str:
        enc = self.encoded
        return (
            f"animation {self.animation!r}: {enc.frames} frames at {self.fps:g} fps, {enc.joints} joints, "
            f"{enc.num_small} + {enc.num_large} elements, {enc.stride} bytes per sample, "
            f"{enc.unique_samples} distinct samples{' (frame lookup)' if enc.lookup is not None else ''}"
            + (f"; {self.motion_note}" if self.motion_note else "")
            + f"\nerror read back, object space: {object_error_text(self.object_error, self.rig.names)}"
            + f"\nerror read back, each joint's own: {error_text(self.error, self.rig.names)}"
        ) + "".join(f"\nnote: {n}" for n in self.notes)


def template_mismatch(template: AnimclipFile, model: AnimclipFile, hashes: np.ndarray,
                      frames: int) -> TemplateMismatch | None:
    """How ``template`` differs from the clip ``model`` made from it (joints ``hashes``,
    ``frames`` frames), or None when its joints and frame count are the clip's."""
    theirs = {j.hash for j in template.clip().joints if j.hash is not None}
    ours = {int(h) for h in hashes}
    built = template.built
    template_frames = None if built is None else built.num_frames
    if theirs == ours and template_frames == frames:
        return None
    kept = [f"its name {template.clip_name!r}"] if template.clip_name and model.clip_name == template.clip_name else []
    kept += model.kept_from(template)
    return TemplateMismatch(len(theirs), len(ours), len(theirs & ours), template_frames, frames, tuple(kept))


def _duration_note(gltf: GLTF2, index: int, model: AnimclipFile, frames: int, cache: dict) -> str | None:
    """Both durations, with what each is, when sampling at the clip's fps rounds the keys'
    span (what ``info`` says of the glTF) to another one (the clip's Built duration).
    ``cache``: the accessors sampling read (the key times are among them)."""
    start, end = animation_span(gltf, index, cache)
    built = model.built
    if built is None or abs((end - start) - built.duration) < 5e-4:
        return None
    return (f"the keys span {end - start:.3f} s; sampled at {built.fps:g} fps that is {frames} frame(s), "
            f"{built.duration:.3f} s, the clip's duration")


def animation_name(gltf: GLTF2, index: int) -> str:
    """Animation ``index``'s name (:func:`.info.animation_label`), refused when it is not
    valid Unicode or holds a NUL: it becomes the clip's name, a NUL-terminated UTF-8 string."""
    name = animation_label(gltf, index)
    try:
        name.encode("utf-8")
        why = "holds a NUL character, which ends a name in the clip's strings block" if "\0" in name else ""
    except UnicodeEncodeError:
        why = "is not valid Unicode (a lone surrogate)"
    if why:
        raise GltfError(f"animations[{index}].name {name!r} {why}: it would be the clip's name; rename the animation")
    return name


def root_motion_node(rig: Rig, index: int) -> int | None:
    """The node carrying animation ``index``'s root motion (see the module doc), or None."""
    roots = [rig.paths[int(j)] for j in np.flatnonzero(rig.skeleton.parents < 0)]
    tops = {path[-1] for path in roots}
    if len(tops) != 1:
        return None
    top = tops.pop()
    if top in rig.nodes:
        return None
    channels = rig.gltf.animations[index].channels or []
    return top if any(c.target.node == top and c.target.path == "translation" for c in channels) else None


@dataclass(frozen=True)
class RootMotionFrames:
    node: int
    translation: np.ndarray
    """(frames, 3) the node's translation per frame."""
    rotation: np.ndarray
    """(frames, 4) x, y, z, w."""


def sample_frames(rig: Rig, index: int, fps: float, looping: bool,
                  root_motion: bool = False, cache: dict | None = None) -> tuple[Frames, RootMotionFrames | None]:
    """The animation's per-frame local transforms of the rig's joints, and (``root_motion``
    and a root motion node: :func:`root_motion_node`) the root motion (see the module doc).
    ``cache``: the accessors read, kept there for the caller (:func:`.sampling.sample_channels`)."""
    cache = {} if cache is None else cache
    start, end = animation_span(rig.gltf, index, cache)
    wanted = {n for path in rig.paths for n in path}
    node = root_motion_node(rig, index) if root_motion else None
    count = frame_count(animation_name(rig.gltf, index), end - start, fps, looping, len(wanted), node is not None)
    at = start + np.arange(count) / fps
    channels = sample_channels(rig.gltf, index, wanted, at, cache)
    motion = None
    if node is not None:
        rest = node_rest(rig.gltf, node)
        animated = channels.values.get(node, {})
        translation = np.broadcast_to(animated.get("translation", rest.translation), (count, 3)).astype(np.float64)
        rotation = normalize(np.broadcast_to(animated.get("rotation", rest.rotation), (count, 4)))
        motion = RootMotionFrames(node, translation, wxyz_to_xyzw(rotation))
        channels.values[node] = {**animated, **_without_motion(translation, rotation)}
    rotations = local_rotations(rig, channels, count)
    translations, scales = split_trs(local_matrices(rig, channels, count), rotations, rig.names)
    return Frames(wxyz_to_xyzw(rotations), translations, scales), motion


def _without_motion(translation: np.ndarray, rotation: np.ndarray) -> dict[str, np.ndarray]:
    """The root motion node's translation and rotation (w, x, y, z) per frame once the Motion
    Data samples are taken out of it: a reader puts sample k (frame 0's inverse times frame
    k, :mod:`animspec.animclip.frames.motion`) above the root joints, so the joints get the
    rest, inverse(sample k) * node at frame k, and the two together are the node again. When
    the node starts at the identity (as :mod:`.from_animclip` writes it) that rest is the
    identity on every frame."""
    inverse0 = conjugate(rotation[0])
    sample_q = quat_multiply(inverse0[None], rotation)
    sample_t = (translation - translation[0]) @ quat_to_matrix(inverse0).T
    undo = conjugate(sample_q)
    return {
        "rotation": quat_multiply(undo, rotation),
        "translation": np.einsum("fij,fj->fi", quat_to_matrix(undo), translation - sample_t),
    }


def gltf_to_animclip(
    source: GltfSource,
    *,
    animation: str | None = None,
    skin: int = 0,
    joint_names: Sequence[str] | None = None,
    fps: float = 30.0,
    max_error: Tolerance | ObjectTolerance | None = None,
    looping: bool = False,
    template: AnimclipFile | None = None,
    name: str | None = None,
    root_motion: bool = True,
) -> AnimclipConversion:
    """Encode one animation of a skinned glTF (the first, or the one named ``animation``) as an
    .animclip model; write it with :func:`animspec.animclip.write.write_bytes`. ``name``: the
    clip's name (default: the animation's name when there is no template). ``max_error``: the
    bound, an :class:`ObjectTolerance` (object-space distance at a shell around each joint, in
    metres, glTF's unit) or the expert joint-local :class:`Tolerance` (None: the conversions'
    default object-space bound).
    ``root_motion``: take root motion from the node above the skeleton (module doc); a
    template's Motion Data is replaced only when there is some, else kept."""
    gltf = load_gltf(source)
    picked = pick_animations(gltf, None if animation is None else [animation], one=True)
    index = picked.taken[0][0]
    rig = read_rig(gltf, skin=skin, joint_names=joint_names)
    anim_name = animation_name(gltf, index)
    labels = [f"node {n} {name!r}" for n, name in zip(rig.nodes, rig.names)]
    hashes = joint_hashes(rig.names, labels)
    cache: dict = {}  # (the accessors sampling reads: the duration note reads the key times again)
    frames, motion = sample_frames(rig, index, fps, looping, root_motion, cache)
    tolerance = max_error or ObjectTolerance()
    encoded = encode(
        frames,
        tolerance,
        parents=rig.skeleton.parents,
        looping=looping,
        root_translation=None if motion is None else motion.translation,
        root_rotation=None if motion is None else motion.rotation,
        joint_labels=labels,
    )
    clip_name = name if name is not None else (anim_name if template is None else None)
    model = clip_model(encoded, hashes, fps=fps, template=template, name=clip_name)
    data = write_bytes(model)
    left_out = None if root_motion else root_motion_node(rig, index)
    had_motion = template is not None and template.section(TAG_MOTION_DATA) is not None
    if motion is not None:
        node_name = gltf.nodes[motion.node].name or f"node {motion.node}"
        note = f"root motion from node {node_name!r} ({encoded.frames + encoded.looping} motion samples)" + (
            ", replacing the template's Motion Data" if had_motion else ""
        )
    else:
        note = "Motion Data kept from the template" if had_motion else ""
    mismatch = None if template is None else template_mismatch(template, model, hashes, encoded.frames)
    notes = tuple(n for n in (picked.note(), _duration_note(gltf, index, model, encoded.frames, cache),
                              None if mismatch is None else mismatch.note()) if n is not None)
    return AnimclipConversion(
        model, encoded, rig, anim_name, fps, frames, data, tolerance,
        None if motion is None else motion.node, left_out, note, notes, mismatch,
    )
