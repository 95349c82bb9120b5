"""Put an encoded animation (:mod:`.encode`) into a clip model, which :mod:`..write` serialises.

The sections the encoder produces replace the template's: Base State, Sample Elem, the sample
data, Joint Hashes, and the Built fields that describe them; Motion Data (and Built's "has
motion" flag) only when the encoding holds root motion. Every other section of the template
(custom tracks, triggers, path, motion data without new root motion, markers, unknown tags) is
kept as it was, byte for byte, and so are the Built fields the encoder does not own.

Built is set through the model's named fields (ksy/animclip.ksy ``built``, Luna Engine IO
Tools' layout as Pcniado/luna_engine_io_tools anim_export.py writes it for Spider-Man 2): flags,
fps, duration, frames, stride, distinct samples, resident samples and resident fps; the joint
and element counts are left derived (None), so the writer counts them from Base State and
Sample Elem. Sample Elem is built from its columns, small and large tables. For Spider-Man
Remastered-era clips the joint count, frame count and element count sit at the same offsets
(ALERT's labels); the others are unconfirmed there.
"""

from __future__ import annotations

import numpy as np

from ..model import AnimclipFile, BaseState, Built, JointHashes, RawSection, SampleElem, Section
from ..tags import (
    FLAG_FRAME_DATA_LOOKUP,
    FLAG_HAS_MOTION,
    FLAG_LOOPING,
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_JOINT_HASHES,
    TAG_MOTION_DATA,
    TAG_SAMPLE_DATA,
    TAG_SAMPLE_DATA_PAGED,
    TAG_SAMPLE_DATA_RESIDENT,
    TAG_SAMPLE_ELEM,
    TERMINATOR_HASH,
)
from .coding import element_offsets, pack_codes
from .encode import EncodedAnimation

ENCODER_FLAGS = FLAG_LOOPING | FLAG_FRAME_DATA_LOOKUP
"""The Built flag bits the encoder decides; the template's other bits are kept."""


def _f32(value: float) -> float:
    """``value`` as Built's f32 field holds it (so a model compares equal to its read-back)."""
    return float(np.float32(value))


def _set_built(built: Built, enc: EncodedAnimation, fps: float) -> None:
    """Set the fields the encoder owns; the rest of the template's Built stays as it was."""
    span = enc.frames if enc.looping else max(enc.frames - 1, 0)
    # "has motion" is the encoder's only when it brings root motion: else the template's Motion
    # Data and its flag stay together.
    owned = ENCODER_FLAGS | (FLAG_HAS_MOTION if enc.motion_data is not None else 0)
    built.flags = (int(built.flags) & ~owned) | enc.flags
    built.fps = _f32(fps)
    built.duration = _f32(span / float(fps))
    built.num_frames = enc.frames
    built.stride = enc.stride
    built.num_unique_samples = enc.unique_samples
    built.num_resident_samples = enc.frames
    built.resident_fps = _f32(fps)
    # Counted from the sections the encoder writes (Base State's records, Sample Elem's two
    # tables) when the model is written.
    built.num_joints = built.num_elems = built.num_large_elems = None


def _sample_elem(enc: EncodedAnimation) -> SampleElem:
    """Sample Elem's columns: each element's component offset (ci * 4) and code, the small
    table (width - 1 in the low nibble, shift in the high one) then the large one (width - 1
    in the low byte, shift in the high byte)."""
    n = enc.num_small
    offsets = element_offsets(enc.components)
    codes, large_codes = pack_codes(enc.widths, enc.shifts, n)
    return SampleElem(offsets=offsets[:n], codes=codes, padding=bytes(-n % 4),
                      large_offsets=offsets[n:], large_codes=large_codes)


def clip_model(enc: EncodedAnimation, joint_hashes: np.ndarray, fps: float = 30.0,
               template: AnimclipFile | None = None, name: str | None = None) -> AnimclipFile:
    """A clip model holding ``enc``: ``template``'s sections with the animation's replaced,
    or (no template) a clip of just those sections. ``name``: the clip's name (kept from the
    template if None). The template is not changed."""
    hashes = np.asarray(joint_hashes, dtype=np.int64)
    if hashes.shape != (enc.joints,):
        raise ValueError(f"{enc.joints} joints need {enc.joints} joint hashes, not {hashes.shape}")
    model = AnimclipFile() if template is None else _copy(template)
    replaced = {TAG_BUILT, TAG_BASE_STATE, TAG_SAMPLE_ELEM, TAG_JOINT_HASHES,
                TAG_SAMPLE_DATA, TAG_SAMPLE_DATA_RESIDENT, TAG_SAMPLE_DATA_PAGED}
    if enc.motion_data is not None:
        replaced.add(TAG_MOTION_DATA)
    kept = [s for s in model.sections if s.tag not in replaced]
    old_built = model.built
    built = Built() if old_built is None else _copy_built(old_built)
    _set_built(built, enc, fps)

    old_hashes = model.section(TAG_JOINT_HASHES)
    terminated = template is None or (
        isinstance(old_hashes, JointHashes) and len(old_hashes.hashes) > 0
        and int(old_hashes.hashes[-1]) == TERMINATOR_HASH)
    hash_values = np.concatenate([hashes, [TERMINATOR_HASH]]) if terminated else hashes
    data_tag = TAG_SAMPLE_DATA if template is not None and template.section(TAG_SAMPLE_DATA) is not None \
        else TAG_SAMPLE_DATA_RESIDENT

    sample_elem = _sample_elem(enc)
    old_base = model.section(TAG_BASE_STATE)
    things = old_base.things if isinstance(old_base, BaseState) else b""
    extra = old_base.extra if isinstance(old_base, BaseState) else b""
    new: list[Section] = [
        built,
        BaseState(joints=enc.base_state_records(), things=things, extra=extra),
        sample_elem,
        RawSection(tag=data_tag, data=enc.sample_data_bytes()),
        JointHashes(hashes=hash_values.astype("<u4")),
    ]
    if enc.motion_data is not None:
        new.append(RawSection(tag=TAG_MOTION_DATA, data=enc.motion_data))
    model.sections = kept + new
    model.layout = None
    if name is not None:
        model.set_clip_name(name)
    return model


def _copy(model: AnimclipFile) -> AnimclipFile:
    import copy

    return copy.deepcopy(model)


def _copy_built(built: Built) -> Built:
    import copy

    out = copy.deepcopy(built)
    out.offset = None
    return out
