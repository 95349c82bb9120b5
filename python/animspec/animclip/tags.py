"""Tags, magics and constants of the .animclip / .performanceclip format: the facts every
other module of the package shares, written once.

The section tags and asset magics restate the enums ``section_tag`` and ``asset_type`` of
ksy/animclip.ksy; the record layouts live in :mod:`.layout` (the container's) and in each
section's module of :mod:`.sections` (the sections'). This module
does not import the generated parser (only :mod:`.adapt` may, and importing the debug-mode
parser would cost every start-up); ``tests/test_animclip_layout.py`` holds each value here
against the generated classes instead. Sources: Tkachov/ALERT (snapshot bc90ed9):
dat1lib/types/dat1.py, dat1lib/types/autogen.py and dat1lib/types/sections/animclip/autogen.py;
Pcniado/luna_engine_io_tools (snapshot 77ea909): hashes.py, constants.py, anim_import.py,
anim_export.py (Spider-Man 2's wrapper, sections, Built fields, flags and Sample Elem).
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------------------- magics and tags

MAGIC_MSMR_MM = 0xC96F58F3
MAGIC_RCRA = 0x0F64FFE8
MAGIC_ANIMCLIP2 = 0x39AC933C
MAGIC_MSM2 = 0x41DFFB44
ASSET_MAGICS: dict[int, str] = {
    MAGIC_MSMR_MM: "Marvel's Spider-Man Remastered / Miles Morales",
    MAGIC_RCRA: "Ratchet & Clank: Rift Apart",
    MAGIC_ANIMCLIP2: "AnimClip2 (game not stated by ALERT)",
    MAGIC_MSM2: "Marvel's Spider-Man 2",
}
"""Asset types of animclips: the outer magics ALERT knows (spec 2.2, dat1lib/types/autogen.py)
and Spider-Man 2's ("i30"), which Luna Engine IO Tools writes in the DAT1 header and the STG
asset header (anim_export.py). The same type serves .animclip and .performanceclip: nothing
in the file tells them apart."""

CONTAINER_ASSET = "asset"
CONTAINER_STG = "stg"
CONTAINER_DAT1 = "dat1"
CONTAINERS = (CONTAINER_ASSET, CONTAINER_STG, CONTAINER_DAT1)
"""What comes before the DAT1 (ksy: ``has_asset_header``, ``is_stg``, ``is_bare_dat1``): the
36-byte outer asset header (Remastered, Miles Morales, Rift Apart), Spider-Man 2's ``STG``
wrapper, or nothing (a bare DAT1)."""

STG_MAGIC = b"STG\0"
TAG_BUILT = 0x9DF23F77
TAG_BASE_STATE = 0x2BB5BC8F
TAG_JOINT_HASHES = 0xA3B26640
TAG_PATH = 0x3976E44C
TAG_CUSTOM_TRACKS = 0x14014CB6
TAG_CUSTOM_TRACK_DATA = 0x116EB684
TAG_CURVES = 0x09DC30AB
TAG_CURVES_DATA = 0x4FC98D7E
TAG_MOTION_DATA = 0xE08AA35F
TAG_SAMPLE_ELEM = 0xD070D358
TAG_SAMPLE_DATA = 0x3A7B4855
TAG_TRIGGER_DATA = 0x6962F7DE
TAG_TRIGGER_JOINT_NAMES = 0x74FC0175
TAG_GEOM_SAMPLES = 0x1722FAEF
TAG_GEOM_SAMPLE_DATA = 0x411852D5
TAG_MORPH_INFO = 0x277563F5
TAG_MORPH_FRAME_DATA = 0x69F64588
TAG_PHONEME_VISEMS_MAP = 0x1D4BD9FA
TAG_EXPRESSION_ID_MAP = 0x495BA079
TAG_SAMPLE_DATA_RESIDENT = 0x8A9598E1
TAG_SAMPLE_DATA_PAGED = 0x02EA708A
TAG_MARKERS = 0xFB110305
TAG_TRACKS_DATA = 0xDBF17DE9
TAG_GEOM_MESH_INFO = 0x3111367A
TAG_GEOM_MESH_SAMPLE_DATA = 0xECDB2486
TAG_SPLINE_MESH_INFO = 0x2D1E474B
TAG_SPLINE_MESH_SAMPLES = 0xE4E10C00

SECTION_NAMES: dict[int, str] = {
    TAG_BUILT: "Anim Clip Built",
    TAG_BASE_STATE: "Anim Clip Base State",
    TAG_JOINT_HASHES: "Anim Clip Joint Hashes",
    TAG_PATH: "Anim Clip Path",
    TAG_CUSTOM_TRACKS: "Anim Clip Custom Tracks",
    TAG_CUSTOM_TRACK_DATA: "Anim Clip Custom Track Data",
    TAG_CURVES: "Anim Clip Curves",
    TAG_CURVES_DATA: "Anim Clip Curves Data",
    TAG_MOTION_DATA: "Anim Clip Motion Data",
    TAG_SAMPLE_ELEM: "Anim Clip Sample Elem",
    TAG_SAMPLE_DATA: "Anim Clip Sample Data",
    TAG_TRIGGER_DATA: "Anim Clip Trigger Data",
    TAG_TRIGGER_JOINT_NAMES: "Anim Clip Trigger Joint Names",
    TAG_GEOM_SAMPLES: "Anim Clip Geom Samples",
    TAG_GEOM_SAMPLE_DATA: "Anim Clip Geom Sample Data",
    TAG_MORPH_INFO: "Anim Clip Morph Info",
    TAG_MORPH_FRAME_DATA: "Anim Clip Morph Frame Data",
    TAG_PHONEME_VISEMS_MAP: "Anim Clip Pose Phoneme Visems Map",
    TAG_EXPRESSION_ID_MAP: "Anim Clip Pose Expression Id Map",
    TAG_SAMPLE_DATA_RESIDENT: "Anim Clip Sample Data Resident",
    TAG_SAMPLE_DATA_PAGED: "Anim Clip Sample Data Paged",
    TAG_MARKERS: "Anim Clip Markers",
    TAG_TRACKS_DATA: "Anim Clip Tracks Data",
    TAG_GEOM_MESH_INFO: "Anim Clip Geom Mesh Info",
    TAG_GEOM_MESH_SAMPLE_DATA: "Anim Clip Geom Mesh Sample Data",
    TAG_SPLINE_MESH_INFO: "Anim Clip Spline Mesh Info",
    TAG_SPLINE_MESH_SAMPLES: "Anim Clip Spline Mesh Samples",
}
"""The 19 section tags of ALERT's animclip classes and the 8 more Spider-Man 2 names Luna
Engine IO Tools lists (hashes.py); each tag is the CRC32 of its name (spec 6)."""

MSM2_SECTIONS = frozenset({
    TAG_SAMPLE_DATA_RESIDENT, TAG_SAMPLE_DATA_PAGED, TAG_MARKERS, TAG_TRACKS_DATA,
    TAG_GEOM_MESH_INFO, TAG_GEOM_MESH_SAMPLE_DATA, TAG_SPLINE_MESH_INFO, TAG_SPLINE_MESH_SAMPLES,
})
"""The sections only Spider-Man 2 files are known to have (Luna hashes.py; ALERT knows none)."""

SAMPLE_DATA_TAGS = (TAG_SAMPLE_DATA, TAG_SAMPLE_DATA_RESIDENT, TAG_SAMPLE_DATA_PAGED)
"""Sections holding per-frame samples in the Sample Data layout (ksy sample_data): the one
section of Remastered-era files, Spider-Man 2's resident and paged blocks."""

SECTION_STATUS: dict[int, str] = {
    TAG_BUILT: "partly known",
    TAG_BASE_STATE: "mostly known",
    TAG_JOINT_HASHES: "known",
    TAG_PATH: "partly known",
    TAG_CUSTOM_TRACKS: "partly known",
    TAG_CUSTOM_TRACK_DATA: "known",
    TAG_SAMPLE_ELEM: "known (Luna)",
    TAG_TRIGGER_DATA: "partly known",
    TAG_TRIGGER_JOINT_NAMES: "mostly known",
    TAG_SAMPLE_DATA: "known (Luna), kept raw",
    TAG_SAMPLE_DATA_RESIDENT: "known (Luna), kept raw",
    TAG_SAMPLE_DATA_PAGED: "known (Luna), kept raw",
    TAG_MOTION_DATA: "partly known (Luna), kept raw",
    TAG_MARKERS: "partly known, kept raw",
    TAG_TRACKS_DATA: "partly known, kept raw",
}
"""How much of each section's content is understood (spec 6, "Status"); the rest: unknown."""

PAD_TO = 16
"""Payload alignment ALERT's writer uses (spec 4.6, PAD_TO); also the alignment of each
custom track's block inside Custom Track Data (spec 7.6)."""

TERMINATOR_HASH = 0xFFFFFFFF
"""Joint Hashes' last entry (spec 7.3); it has no Base State record (spec 7.2)."""

DERIVED_COUNTS = ("num_joints", "num_base_state_things", "num_custom_tracks", "num_elems", "num_large_elems")
"""Built fields the writer derives from other sections when they are None:
num_joints = Base State joint records, num_base_state_things = its 32-byte things,
num_custom_tracks = Custom Tracks entries, num_elems / num_large_elems = Sample Elem's small
and large elements (spec 7.1; each 0 when the section is absent). num_frames is not derived:
it counts frames, which no section holds one of each of."""

# ---------------------------------------------------------------------------- clip flags and samples

FLAG_CAMERA = 0x10
FLAG_LOOPING = 0x20
FLAG_FRAME_DATA_LOOKUP = 0x10000
FLAG_HAS_MOTION = 0x800000
"""Built ``flags`` bits (ksy enum clip_flag; Luna constants.py)."""

MOTION_HEADER_SIZE = 0x7C
MOTION_SAMPLE_SIZES = {0: 16, 1: 32}
"""Bytes per Motion Data sample by motion_type (ksy motion_type: standard, full)."""
MOTION_FLAG_SECONDARY = 0x04
MOTION_FLAG_HAS_MOTION = 0x02
"""Motion Data header ``flags`` bits: a secondary stream, samples to play (ksy motion_header)."""
MOTION_ALIGN = 16
"""Luna pads the whole Motion Data payload to a multiple of this (ksy motion_data)."""
MOTION_HEADER_DTYPE = np.dtype([
    ("motion_type", "u1"), ("flags", "u1"), ("num_samples", "<u2"),
    ("initial_rot_0", "<f4", 4), ("initial_rot_1", "<f4", 4),
    ("initial_trans_0", "<f4", 3), ("initial_trans_1", "<f4", 3),
    ("ofs_samples", "<u4"), ("ofs_segments", "<u4"),
    ("num_phase_blend_samples", "<u2"), ("num_segments", "u1"), ("unk_4b", "V5"),
    ("bounds_min", "<f4", 3), ("unk_58", "V12"), ("bounds_max", "<f4", 3), ("unk_70", "V12"),
])
"""Motion Data's 0x7C-byte header in field order (ksy motion_header; Luna Engine IO Tools
motion.py). The reader and the writer (:mod:`.motion`) both use it."""
MOTION_SAMPLE_DTYPE = np.dtype(
    [("qx", "<i2"), ("qy", "<i2"), ("qz", "<i2"), ("qw", "<i2"),
     ("x", "<i2"), ("y", "<i2"), ("z", "<i2"), ("log_scale", "i1"), ("phase", "i1")]
)
"""One 16-byte standard Motion Data sample (ksy motion_sample): rotation / 32768 normalised,
translation / 2^log_scale."""

SectionTag = int


def section_name(tag: int) -> str:
    return SECTION_NAMES.get(tag, f"unknown section {tag:08X}")

DAT1_MAGIC = b"1TAD"
"""The DAT1 header's first four bytes (u32le 0x44415431; ksy dat1.magic)."""
