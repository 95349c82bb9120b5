"""Put an encoded animation (:mod:`.encode`) into a clip model, which :mod:`.write` serialises.

The sections the encoder produces replace the template's: Base State, Sample Elem, the sample
data, Joint Hashes, and the Built fields that describe them. Every other section of the
template (custom tracks, triggers, path, motion data, markers, unknown tags) is kept as it was,
byte for byte, and so are the Built fields the encoder does not own.

Built offsets: the 96-byte layout Luna Engine IO Tools writes for Spider-Man 2 clips
(Pcniado/luna_engine_io_tools, anim_export.py; restated in tests/fixtures/luna/README.md):
+0x08 u32 flags, +0x0C f32 fps, +0x10 f32 duration, +0x20 u16 joints, +0x22 u16 frames,
+0x24 u32 small elements, +0x28 u32 stride, +0x30 u16 distinct samples, +0x3E u16 resident
samples, +0x40 f32 resident fps, +0x44 u32 large elements. The model still names those 16-bit
halves by their older labels (``unk_08``...), so the mapping is written out below. For
Spider-Man Remastered-era clips the joint count, frame count and element count sit at the same
offsets (ALERT's labels); the others are unconfirmed there.
"""

from __future__ import annotations

import struct
import numpy as np

from .content import AnimclipFile, BaseState, Built, JointHashes, RawSection, SampleElem
from .encode import FLAG_FRAME_LOOKUP, FLAG_LOOPING, EncodedAnimation
from .tags import (
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_JOINT_HASHES,
    TAG_SAMPLE_DATA,
    TAG_SAMPLE_ELEM,
    TERMINATOR_HASH,
)

TAG_SAMPLE_DATA_RESIDENT = 0x8A9598E1
"""crc32("Anim Clip Sample Data Resident"): Spider-Man 2's sample section (Luna's hashes.py)."""
TAG_SAMPLE_DATA_PAGED = 0x02EA708A
"""crc32("Anim Clip Sample Data Paged"): samples streamed in; the encoder writes all resident."""
ENCODER_FLAGS = FLAG_LOOPING | FLAG_FRAME_LOOKUP
"""The Built flag bits the encoder decides; the template's other bits are kept."""


def _halves(value: int) -> tuple[int, int]:
    return value & 0xFFFF, (value >> 16) & 0xFFFF


def _f32_halves(value: float) -> tuple[int, int]:
    return _halves(struct.unpack("<I", struct.pack("<f", value))[0])


def _set_built(built: Built, enc: EncodedAnimation, fps: float) -> None:
    flags = ((built.unk_0a << 16) | built.unk_08) & ~ENCODER_FLAGS | enc.flags
    built.unk_08, built.unk_0a = _halves(flags)
    built.fps = float(fps)
    span = enc.frames if enc.looping else max(enc.frames - 1, 0)
    built.duration = span / float(fps)
    built.num_joints = None  # derived from Base State
    built.num_frames = enc.frames
    built.num_samples, built.unk_26 = None, 0  # small elements: derived from Sample Elem
    built.unk_28, built.unk_2a = _halves(enc.stride)
    built.num_frames_alt = enc.unique_samples
    built.unk_3e = enc.frames
    built.unk_40, built.unk_42 = _f32_halves(float(fps))
    built.unk_44, built.unk_46 = _halves(enc.num_large)


def _sample_elem(enc: EncodedAnimation) -> SampleElem:
    n = enc.num_small
    values = (enc.components[:n] * 4).astype("<u4")
    codes = ((enc.widths[:n] - 1) | (enc.shifts[:n] << 4)).astype("u1")
    return SampleElem(values=values, ndx=codes, padding=bytes(-5 * n % 4))


def clip_model(enc: EncodedAnimation, joint_hashes: np.ndarray, fps: float = 30.0,
               template: AnimclipFile | None = None, name: str | None = None) -> AnimclipFile:
    """A clip model holding ``enc``: ``template``'s sections with the animation's replaced,
    or (no template) a clip of just those sections. ``name``: the clip's name (kept from the
    template if None). The template is not changed."""
    if enc.num_large:
        raise ValueError(
            f"the clip model's Sample Elem has no large table yet, and this encoding has {enc.num_large} large "
            "element(s): encode with large=False (fields kept within 16 bits), or write "
            "EncodedAnimation.sample_elem_bytes() yourself")
    hashes = np.asarray(joint_hashes, dtype=np.int64)
    if hashes.shape != (enc.joints,):
        raise ValueError(f"{enc.joints} joints need {enc.joints} joint hashes, not {hashes.shape}")
    model = AnimclipFile() if template is None else _copy(template)
    kept = [s for s in model.sections
            if s.tag not in (TAG_BUILT, TAG_BASE_STATE, TAG_SAMPLE_ELEM, TAG_JOINT_HASHES,
                             TAG_SAMPLE_DATA, TAG_SAMPLE_DATA_RESIDENT, TAG_SAMPLE_DATA_PAGED)]
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

    old_base = model.section(TAG_BASE_STATE)
    things = old_base.things if isinstance(old_base, BaseState) else b""
    extra = old_base.extra if isinstance(old_base, BaseState) else b""
    new = [
        built,
        BaseState(joints=enc.base_state_records(), things=things, extra=extra),
        _sample_elem(enc),
        RawSection(tag=data_tag, data=enc.sample_data_bytes()),
        JointHashes(hashes=hash_values.astype("<u4")),
    ]
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
