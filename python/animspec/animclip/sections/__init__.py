"""The DAT1 sections of an .animclip, one module per typed section, and the registry by tag.

As fontTools' ``ttLib/tables`` does for font tables: each module holds one section's
dataclass with its bulk read, its adaptation from the generated parser's object, its
payload bytes, its size and its JSON members side by side (:mod:`.base` states the
protocol), and every tag without a typed module falls back to :class:`.raw.RawSection`.
The readers, the writer, the placement of payloads and the JSON dump are loops over
:data:`TYPED_SECTIONS`; rules that relate sections to each other stay in ``validate``.
"""

from __future__ import annotations

from ...common.errors import WriteError
from ...common.fieldwriter import U4
from ..tags import DERIVED_COUNTS
from .base import SectionBase, Split, WriteContext, pack_int
from .base_state import BaseState
from .built import Built
from .custom_track_data import CustomTrackData
from .custom_tracks import CustomTrackEntry, CustomTracks
from .joint_hashes import JointHashes
from .path import Path
from .raw import RawSection
from .sample_elem import SampleElem
from .trigger_data import TriggerData, TriggerRecord
from .trigger_joint_names import TriggerJointNames

Section = (
    Built | BaseState | JointHashes | Path | CustomTracks | CustomTrackData | SampleElem
    | TriggerData | TriggerJointNames | RawSection
)
TYPED_SECTIONS: dict[int, type[Section]] = {
    cls.tag: cls
    for cls in (Built, BaseState, JointHashes, Path, CustomTracks, CustomTrackData, SampleElem,
                TriggerData, TriggerJointNames)
}
"""The registry: tag -> the section type that reads, writes, sizes and dumps it."""


def section_type(tag: int) -> type[Section]:
    """The type of a section with ``tag``: its typed module's, else :class:`RawSection`."""
    return TYPED_SECTIONS.get(tag, RawSection)


def derived_counts(sections: list[Section]) -> dict[str, int]:
    """The values of ``tags.DERIVED_COUNTS`` implied by the (last) sections they count
    (each 0 when its section is absent, or the last of its tag is raw)."""
    last = {s.tag: s for s in sections}
    counts = dict.fromkeys(DERIVED_COUNTS, 0)
    for s in last.values():
        if type(s) is not RawSection:
            counts.update(s.counts())
    return counts


def write_context(sections: list[Section]) -> WriteContext:
    """What the payload writers need: the derived counts, and the split the LAST Built
    declares (the readers split Base State and Sample Elem with it: ksy dat1.idx_built)."""
    derived = derived_counts(sections)
    built = [s for s in sections if s.tag == Built.tag]
    last = built[-1] if built and isinstance(built[-1], Built) else None
    return WriteContext(derived, last.split(derived) if last is not None else Split())


def payload(section: Section, ctx: WriteContext, at: str) -> bytes:
    """The payload bytes of one section (what the table's offset/size address)."""
    if isinstance(section, RawSection):
        pack_int(U4, section.tag, f"{at}.tag")
        if section.tag in TYPED_SECTIONS:
            name = TYPED_SECTIONS[section.tag].__name__
            raise WriteError(f"{at}.tag", f"tag {section.tag:08X} is read as {name}; use that class, not RawSection")
    elif not isinstance(section, SectionBase):
        raise WriteError(at, f"{type(section).__name__} is not a section")
    return section.payload(ctx, at)


def payload_size(section: Section) -> int:
    """The byte count of ``section``'s payload as the writer lays it out: each section type
    is a run of fixed-size records and its leftover bytes (ksy/animclip.ksy). For a section
    just read this is its table entry's ``len_body``; a model the writer refuses may give
    any number (``validate`` reports it as unwritable first)."""
    if not isinstance(section, SectionBase):
        raise TypeError(f"{type(section).__name__} is not a section")
    return section.payload_size()


__all__ = [
    "TYPED_SECTIONS", "BaseState", "Built", "CustomTrackData", "CustomTrackEntry", "CustomTracks", "JointHashes",
    "Path", "RawSection", "SampleElem", "Section", "SectionBase", "TriggerData", "TriggerJointNames",
    "TriggerRecord", "derived_counts", "payload", "payload_size", "section_type", "write_context",
]
