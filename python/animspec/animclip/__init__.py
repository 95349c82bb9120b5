"""Insomniac .animclip / .performanceclip files and their DAT1 container (ksy/animclip.ksy).

Read with :func:`read_file` / :func:`read_bytes`, write with :func:`write_bytes` (byte-exact
for an unedited file, re-laid out per spec 4.6 after any edit), check with
``animspec.animclip.validate.validate``, decode with :meth:`AnimclipFile.clip`.
"Spec N.N" in this package's comments and messages is section N.N of docs/animclip.md.
"""

from .model import (
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Layout,
    Path,
    RawSection,
    SampleElem,
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
    UnknownEntry,
)
from .parse import looks_like_animclip, read_bytes, read_file
from .tags import ASSET_MAGICS, SECTION_NAMES
from .view import ClipView
from .write import relaid_bytes, write_bytes

__all__ = [
    "ASSET_MAGICS", "SECTION_NAMES", "AnimclipFile", "BaseState", "Built", "ClipView", "CustomTrackData",
    "CustomTrackEntry", "CustomTracks", "JointHashes", "Layout", "Path", "RawSection", "SampleElem",
    "TriggerData", "TriggerJointNames", "TriggerRecord", "UnknownEntry", "looks_like_animclip",
    "read_bytes", "read_file", "relaid_bytes", "write_bytes",
]
