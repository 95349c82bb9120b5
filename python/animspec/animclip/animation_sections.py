"""Put an encoded animation (:mod:`.encode`) into a clip model, which :mod:`.write` serialises.

The sections the encoder produces replace the template's: Base State, Sample Elem, the sample
data, Joint Hashes, and the Built fields that describe them. Every other section of the
template (custom tracks, triggers, path, motion data, markers, unknown tags) is kept as it was,
byte for byte, and so are the Built fields the encoder does not own.

Built offsets: the 96-byte layout Luna Engine IO Tools writes for Spider-Man 2 clips
(Pcniado/luna_engine_io_tools, anim_export.py; restated in tests/fixtures/luna/README.md):
+0x08 u32 flags, +0x0C f32 fps, +0x10 f32 duration, +0x20 u16 joints, +0x22 u16 frames,
+0x24 u32 small elements, +0x28 u32 stride, +0x30 u16 distinct samples, +0x3E u16 resident
samples, +0x40 f32 resident fps, +0x44 u32 large elements. They are written by byte offset
(:data:`BUILT_WRITES`) into whichever fields of the model cover them, so this does not depend
on the model's names for Built's fields. For Spider-Man Remastered-era clips the joint count, frame count and element count sit at the same
offsets (ALERT's labels); the others are unconfirmed there.
"""

from __future__ import annotations

import struct
from dataclasses import fields

import numpy as np

from .content import BUILT_FIELDS, AnimclipFile, BaseState, Built, JointHashes, RawSection, SampleElem
from .encode import FLAG_FRAME_LOOKUP, FLAG_LOOPING, EncodedAnimation
from .tags import (
    BUILT_RECORD,
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


BUILT_WRITES = (
    (0x08, "<I", "flags"),
    (0x0C, "<f", "fps"),
    (0x10, "<f", "duration"),
    (0x20, "<H", "joints"),
    (0x22, "<H", "frames"),
    (0x24, "<I", "small elements"),
    (0x28, "<I", "stride"),
    (0x30, "<H", "distinct samples"),
    (0x3E, "<H", "resident samples"),
    (0x40, "<f", "resident fps"),
    (0x44, "<I", "large elements"),
)
"""The Built values the encoder owns: (offset, format, what), Luna's layout."""


def _built_values(built: Built, enc: EncodedAnimation, fps: float) -> dict[str, float | int]:
    old_flags = built_flags(built)
    span = enc.frames if enc.looping else max(enc.frames - 1, 0)
    return {
        "flags": (int(old_flags) & ~ENCODER_FLAGS) | enc.flags,
        "fps": float(fps),
        "duration": span / float(fps),
        "joints": enc.joints,
        "frames": enc.frames,
        "small elements": enc.num_small,
        "stride": enc.stride,
        "distinct samples": enc.unique_samples,
        "resident samples": enc.frames,
        "resident fps": float(fps),
        "large elements": enc.num_large,
    }


def _built_bytes(built: Built) -> bytearray:
    """Built's 96 bytes as the model's record layout packs them (counts left to derivation
    packed as 0: they are overwritten or restored)."""
    values = [getattr(built, name) for name in BUILT_FIELDS]
    return bytearray(BUILT_RECORD.pack(*[0 if v is None else v for v in values]))


def _read_built(built: Built, offset: int, fmt: str) -> float | int:
    return struct.unpack_from(fmt, _built_bytes(built), offset)[0]


def built_flags(built: Built) -> int:
    """The clip flags (Built +0x08, u32), whatever the model calls the field(s) holding them."""
    return int(_read_built(built, 0x08, "<I"))


def _set_built(built: Built, enc: EncodedAnimation, fps: float) -> None:
    """Write the encoder's values at their byte offsets: whatever the model names the fields
    covering them (16-bit halves or whole words), only those fields change; the rest of the
    template's Built stays as it was (a derived count stays derived)."""
    raw = _built_bytes(built)
    before = BUILT_RECORD.unpack(bytes(raw))
    values = _built_values(built, enc, fps)
    for offset, fmt, what in BUILT_WRITES:
        struct.pack_into(fmt, raw, offset, values[what])
    after = BUILT_RECORD.unpack(bytes(raw))
    for name, old, new in zip(BUILT_FIELDS, before, after):
        if struct.pack("<d", float(old)) != struct.pack("<d", float(new)):
            setattr(built, name, new)


def _sample_elem(enc: EncodedAnimation) -> SampleElem:
    """Sample Elem in the model's columns (either the small table only, or both tables)."""
    n = enc.num_small
    offsets = (enc.components * 4).astype("<u4")
    small_codes = ((enc.widths[:n] - 1) | (enc.shifts[:n] << 4)).astype("u1")
    large_codes = ((enc.widths[n:] - 1) | (enc.shifts[n:] << 8)).astype("<u2")
    columns = {f.name for f in fields(SampleElem)}
    if "large_offsets" in columns:  # the model with both tables
        return SampleElem(offsets=offsets[:n], codes=small_codes, padding=bytes(-5 * n % 4),  # type: ignore[call-arg]
                          large_offsets=offsets[n:], large_codes=large_codes)
    if enc.num_large:
        raise ValueError(
            f"this clip model's Sample Elem has no large table, and the encoding has {enc.num_large} large "
            "element(s): encode with large=False (fields kept within 16 bits)")
    return SampleElem(values=offsets[:n], ndx=small_codes, padding=bytes(-5 * n % 4))  # type: ignore[call-arg]


def clip_model(enc: EncodedAnimation, joint_hashes: np.ndarray, fps: float = 30.0,
               template: AnimclipFile | None = None, name: str | None = None) -> AnimclipFile:
    """A clip model holding ``enc``: ``template``'s sections with the animation's replaced,
    or (no template) a clip of just those sections. ``name``: the clip's name (kept from the
    template if None). The template is not changed."""
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

    sample_elem = _sample_elem(enc)
    old_base = model.section(TAG_BASE_STATE)
    things = old_base.things if isinstance(old_base, BaseState) else b""
    extra = old_base.extra if isinstance(old_base, BaseState) else b""
    new = [
        built,
        BaseState(joints=enc.base_state_records(), things=things, extra=extra),
        sample_elem,
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
