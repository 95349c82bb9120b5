"""The typed model of an .animclip / .performanceclip file, in one import: the names of
:mod:`.tags` (tags, magics, constants, record layouts), :mod:`.content` (the sections and
the file), :mod:`.layout` (the layout recorded when a file is read) and :mod:`.views` (the
decoded view and the edits). New code may import from those modules directly."""

from __future__ import annotations

from .content import (
    BUILT_FIELDS,
    CUSTOM_TRACK_FIELDS,
    TYPED_SECTIONS,
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Path,
    RawSection,
    SampleElem,
    Section,
    SectionBase,
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
    UnknownEntry,
    derived_counts,
    mark_derived,
    same,
    split_strings_region,
    string_at,
)
from .layout import Layout
from .tags import *  # noqa: F403  (every constant and tag)
from .tags import section_name
from .views import (
    ClipView,
    CustomTrackView,
    JointView,
    dequantise_rotations,
    dequantise_translations,
    f32_array,
    name_table,
    quaternion_lengths,
)

__all__ = [name for name in dir() if not name.startswith("_") and name != "annotations"]
