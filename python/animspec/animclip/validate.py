"""Check an .animclip model against the invariants that follow from ALERT's reader and writer
(docs/animclip.md, section 11: "spec 11.N" below and in messages is invariant N there).

Sources: Tkachov/ALERT, dat1lib/types/dat1.py (container),
dat1lib/types/sections/animclip/autogen.py (section sizes and fields), dat1lib/crc32.py
(name hashes).

Severity: ERROR when the file contradicts itself or a reader cannot use part of it (sizes
that disagree, payloads overlapping or past the declared end, a name hash that does not
match, a missing partner section, a track whose values lie outside its data). WARNING for
what ALERT's writer and the game files are expected to do but the format does not force
(sorted table, 16-byte alignment, zero padding, ascending Sample Elem, LABELLED count
relations). INFO for facts worth knowing (compression, J = K, unknown-table entries).

Which game a rule holds for: rules taken from Remastered-era files (ALERT's) do not fire on
Spider-Man 2 files (DAT1 type 0x41DFFB44, :attr:`AnimclipFile.is_msm2`), whose clips have no
name string (only its hash), no "DEAD" markers at +0x48, no FFFFFFFF joint-hash terminator
(Luna Engine IO Tools, anim_export.py): ``name-unresolved``, ``dead-markers``,
``built-4c-nonzero`` and ``joint-hashes-terminator`` are Remastered-era rules. The per-frame
rules (Sample Elem, Sample Data and Motion Data against Built,
:func:`.frames.inputs.sample_problems`) are Spider-Man 2's, made public by Luna; for
Remastered, Miles Morales and Rift Apart files they are a hypothesis
(:data:`.frames.inputs.HYPOTHESIS`), so there every per-frame finding is INFO and says so.
Everything the decoder refuses or reads other than as written comes from the lists it refuses
from (:func:`.frames.inputs.sample_problems`, :func:`.frames.inputs.motion_problems`), so a
clip that validates without an error (and, for the earlier games, without a per-frame INFO)
plays.

Layout checks (sizes, offsets, alignment, padding) need the :class:`Layout` recorded when
the file was read; a model built in memory is laid out by the writer and skips them.
Every check reads the model; none re-reads bytes. Stable codes:

container  unknown-type-id type-id-differs lz4-compressed outer-size-mismatch
           dat1-size-mismatch trailing-bytes tables-overlap-payload section-past-declared-end
           sections-overlap duplicate-section table-not-sorted misaligned-section
           nonzero-padding unknown-section unknowns-present unwritable
sections   section-size pair-missing name-unresolved name-hash-mismatch dead-markers
           built-4c-nonzero clip-timing count-mismatch base-state-size joint-count-includes-terminator
           joint-count-mismatch base-state-extra quaternion-length joint-hashes-size
           joint-hashes-terminator joint-hash-repeated custom-tracks-size custom-track-data-size
           custom-track-name-unresolved custom-track-hash-mismatch custom-track-nonzero
           custom-track-misaligned custom-track-out-of-range custom-tracks-overlap
           custom-track-frames sample-elem-size sample-elem-past-end sample-elem-padding
           sample-elem-not-ascending sample-stride sample-bits-over-stride sample-elem-joint
           frame-lookup-size frame-lookup-range sample-data-size sample-count-mismatch decode-size
           joint-count sample-elem-width sample-elem-offset sample-log-scale
           motion-data-size motion-not-finite motion-log-scale motion-sample-count camera-no-path
           trigger-data-size trigger-jsons-overflow trigger-trailing trigger-things-count
           trigger-record-c trigger-joint-names-size
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..common.errors import WriteError
from ..common.findings import Finding, Severity, capped
from ..common.hashes import crc32
from .frames.coding import QUATERNION_DIVISOR
from .frames.inputs import HYPOTHESIS, camera_problems, layout_is_hypothesis, motion_problems, sample_problems
from .layout import tables_size
from .model import (
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTracks,
    JointHashes,
    SampleElem,
    TriggerData,
    TriggerJointNames,
    derived_counts,
)
from .placement import payload_sizes
from .sections.base_state import THING_SIZE
from .sections.sample_elem import sample_elem_split
from .tags import (
    ASSET_MAGICS,
    DERIVED_COUNTS,
    MOTION_FLAG_SECONDARY,
    MOTION_HEADER_DTYPE,
    MOTION_HEADER_SIZE,
    PAD_TO,
    SECTION_NAMES,
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_CURVES,
    TAG_CURVES_DATA,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_EXPRESSION_ID_MAP,
    TAG_GEOM_SAMPLE_DATA,
    TAG_GEOM_SAMPLES,
    TAG_JOINT_HASHES,
    TAG_MORPH_FRAME_DATA,
    TAG_MORPH_INFO,
    TAG_MOTION_DATA,
    TAG_PATH,
    TAG_PHONEME_VISEMS_MAP,
    TAG_SAMPLE_ELEM,
    TERMINATOR_HASH,
    section_name,
)
from .view import name_table, quaternion_lengths
from .write import check_writable

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

FIXED_SIZES = {TAG_BUILT: 96, TAG_PATH: 128, TAG_CURVES: 240, TAG_PHONEME_VISEMS_MAP: 80}
"""Spec 11.7."""

PAIRS = [
    (TAG_BASE_STATE, TAG_JOINT_HASHES, ERROR),  # records are matched to joints by index
    (TAG_CUSTOM_TRACKS, TAG_CUSTOM_TRACK_DATA, ERROR),  # the entries address the data
    (TAG_MORPH_INFO, TAG_MORPH_FRAME_DATA, WARNING),  # equal occurrence counts (spec 11.15)
    (TAG_GEOM_SAMPLES, TAG_GEOM_SAMPLE_DATA, WARNING),
    (TAG_PHONEME_VISEMS_MAP, TAG_EXPRESSION_ID_MAP, WARNING),
    (TAG_CURVES, TAG_CURVES_DATA, WARNING),
]

_HYPOTHESIS = f"({HYPOTHESIS})"

QUATERNION_TOLERANCE = 0.01
"""How far |Q| / QUATERNION_DIVISOR may stray from 1 (16-bit quantisation errs by about 0.0001)."""


def validate(model: AnimclipFile, *, joint_names: Any = None) -> list[Finding]:
    """Every finding for ``model``. ``joint_names`` only labels joints in messages."""
    with _sections_indexed(model):
        return capped(_all(model, name_table(joint_names)))


@contextlib.contextmanager
def _sections_indexed(model: AnimclipFile) -> Iterator[None]:
    """While validating, ``model.section(tag)`` (and ``model.built``, which uses it) answers
    from a table made once, not by scanning every section: the per-section checks look
    sections up, which made 16,000 sections of one tag take 10 s and 65,535 minutes
    (with the table, time is proportional to the input). Validation does not change the model; the
    lookup is the model's own rule (the last section of a tag wins)."""
    last: dict[int, Any] = {}
    for section in model.sections:
        last[section.tag] = section
    model.section = last.get  # type: ignore[method-assign, assignment]  # an instance attribute, removed below
    try:
        yield
    finally:
        del model.section


def _where(model: AnimclipFile, i: int, **extra: Any) -> dict[str, Any]:
    return {"section": i, "section_name": section_name(model.sections[i].tag), **extra}


def _all(model: AnimclipFile, names: dict[int, str]) -> Iterator[Finding]:
    try:
        check_writable(model)
    except WriteError as exc:
        yield Finding("unwritable", ERROR, f"the model cannot be written: {exc}")
        return
    sizes = payload_sizes(model)
    yield from _container(model, sizes)
    built = model.built
    derived = derived_counts(model.sections)
    checked: set[int] = set()
    for i, s in enumerate(model.sections):
        if id(s) in checked:
            continue  # one payload named by several entries: checked once (duplicate-section says the rest)
        checked.add(id(s))
        fixed = FIXED_SIZES.get(s.tag)
        if fixed is not None and sizes[i] != fixed:
            yield Finding("section-size", ERROR, f"{sizes[i]} bytes; this section is always {fixed}", _where(model, i))
        if isinstance(s, Built):
            yield from _built(model, i, s, derived, s is built)
        elif isinstance(s, BaseState):
            yield from _base_state(model, i, s, sizes[i], derived, names)
        elif isinstance(s, JointHashes):
            yield from _joint_hashes(model, i, s)
        elif isinstance(s, CustomTracks):
            yield from _custom_tracks(model, i, s)
        elif isinstance(s, CustomTrackData) and s.trailing:
            yield Finding(
                "custom-track-data-size", WARNING,
                f"{sizes[i]} bytes is not a whole number of f32 values", _where(model, i),
            )
        elif isinstance(s, SampleElem):
            yield from _sample_elem(model, i, s, sizes[i])
        elif isinstance(s, TriggerData):
            yield from _trigger_data(model, i, s, sizes[i])
        elif isinstance(s, TriggerJointNames) and (s.trailing or not 1 <= len(s.hashes) <= 4):
            yield Finding(
                "trigger-joint-names-size", WARNING,
                f"{sizes[i]} bytes; ALERT records 1 to 4 u32 hashes (4..16 bytes)", _where(model, i),
            )
    # The per-frame layout is Luna's, public for Spider-Man 2 only; for the earlier games it is
    # a hypothesis, so there every per-frame finding, error or warning, is INFO and says so.
    # The decoder still refuses such a file (naming the hypothesis): a file it will not read is
    # reported, as INFO, never passed over.
    hypothesis = layout_is_hypothesis(model)
    severities = {"error": ERROR, "warning": WARNING}
    # what the decoder (and convert, for a camera clip) refuses, from the lists they refuse from
    for p in [*sample_problems(model), *camera_problems(model)]:
        sure = not (hypothesis and p.per_frame)
        where = {"field": p.field} if p.field else {}
        yield Finding(p.code, severities[p.severity] if sure else INFO,
                      p.message if sure else f"{p.message} {_HYPOTHESIS}", where)
    for f in _motion(model):
        yield Finding(f.code, INFO, f"{f.message} {_HYPOTHESIS}", f.where) if hypothesis else f
    present = {s.tag for s in model.sections}
    for a, b, severity in PAIRS:
        if (a in present) != (b in present):
            have, missing = (a, b) if a in present else (b, a)
            yield Finding(
                "pair-missing", severity,
                f"{section_name(have)} is present without {section_name(missing)}; they occur together "
                "(spec 11.9, 11.11, 11.15)",
                {"tag": f"{missing:08X}"},
            )


# ---------------------------------------------------------------------------- container


def _container(model: AnimclipFile, sizes: list[int]) -> Iterator[Finding]:
    if model.type_id not in ASSET_MAGICS:
        yield Finding(
            "unknown-type-id", WARNING,
            f"DAT1 type id {model.type_id:08X} is none of the animclip magics ALERT knows",
        )
    elif model.type_id != model.magic:
        yield Finding(
            "type-id-differs", INFO,
            f"DAT1 type id {model.type_id:08X} differs from the outer magic {model.magic:08X}",
        )
    if model.unknowns:
        yield Finding(
            "unknowns-present", INFO,
            f"{len(model.unknowns)} entries in the DAT1 unknowns table (never interpreted by ALERT; "
            "an external reader calls them pointer fix-ups)",
        )
    seen: dict[int, int] = {}
    for i, s in enumerate(model.sections):
        if s.tag not in SECTION_NAMES:
            yield Finding(
                "unknown-section",
                WARNING,
                f"tag {s.tag:08X} is none of the {len(SECTION_NAMES)} known sections; kept as raw bytes",
                _where(model, i),
            )
        first = seen.setdefault(s.tag, i)
        if first != i:
            yield Finding(
                "duplicate-section",
                ERROR,
                f"same tag as section {first}; readers that look sections up by tag see only one of them",
                _where(model, i),
            )
    layout = model.layout
    if layout is None:
        return
    if layout.compression is not None:
        yield Finding(
            "lz4-compressed",
            INFO,
            f"the DAT1 body is one LZ4 block ({len(layout.compression.compressed)} -> {layout.dat1_size} bytes); "
            "an edited file is written uncompressed",
        )
    if layout.outer_len_dat1 != layout.dat1_len:
        yield Finding(
            "outer-size-mismatch",
            ERROR,
            f"outer header says the DAT1 is {layout.outer_len_dat1} bytes, the DAT1 header says {layout.dat1_len}",
        )
    if layout.dat1_len != layout.dat1_size:
        yield Finding(
            "dat1-size-mismatch",
            ERROR,
            f"DAT1 header says {layout.dat1_len} bytes, the file holds {layout.dat1_size}",
        )
    placed = [(s.offset, s.offset + sizes[i], i) for i, s in enumerate(model.sections) if s.offset is not None]
    if not placed:
        return
    tables_end = tables_size(len(model.sections), len(model.unknowns))
    lowest = min(placed)
    if lowest[0] < tables_end:
        yield Finding(
            "tables-overlap-payload",
            ERROR,
            f"payload at 0x{lowest[0]:x} starts inside the header and tables (which end at 0x{tables_end:x})",
            _where(model, lowest[2]),
        )
    end_max = max(end for _, end, _ in placed)
    for start, end, i in placed:
        if end > layout.dat1_len:
            yield Finding(
                "section-past-declared-end",
                ERROR,
                f"payload [0x{start:x}, 0x{end:x}) ends past the DAT1 size in its header ({layout.dat1_len})",
                _where(model, i),
            )
        if start % PAD_TO:
            yield Finding(
                "misaligned-section",
                WARNING,
                f"payload offset 0x{start:x} is not a multiple of {PAD_TO}",
                _where(model, i),
            )
    ordered = sorted(p for p in placed if p[1] > p[0])
    for (s1, e1, i1), (s2, e2, i2) in zip(ordered, ordered[1:]):
        if s2 < e1:
            yield Finding(
                "sections-overlap",
                ERROR,
                f"payload [0x{s2:x}, 0x{e2:x}) overlaps section {i1} ({section_name(model.sections[i1].tag)}) "
                f"at [0x{s1:x}, 0x{e1:x})",
                _where(model, i2),
            )
    tags = [s.tag for s in model.sections]
    if tags != sorted(tags):
        yield Finding(
            "table-not-sorted", WARNING, "section table is not sorted by ascending tag (ALERT's writer sorts it)"
        )
    if layout.dat1_size > end_max:
        yield Finding(
            "trailing-bytes",
            WARNING,
            f"{layout.dat1_size - end_max} bytes after the last payload (which ends at 0x{end_max:x})",
        )
    dirty = [off for off, data in layout.fill if off < end_max and data.strip(b"\0")]
    if dirty:
        yield Finding(
            "nonzero-padding",
            WARNING,
            f"non-zero padding bytes before payloads, first run at DAT1 offset 0x{dirty[0]:x}",
        )


# ---------------------------------------------------------------------------- sections


def _built(model: AnimclipFile, i: int, s: Built, derived: dict[str, int], counts: bool) -> Iterator[Finding]:
    where = _where(model, i)
    name = model.string_at(s.ofs_name)
    msm2 = model.is_msm2
    if name is None and msm2 and not model.strings:
        pass  # Spider-Man 2 clips as Luna writes them carry the name's hash only
    elif name is None:
        yield Finding(
            "name-unresolved",
            ERROR,
            f"name offset {s.ofs_name} does not start a NUL-terminated UTF-8 string in the "
            f"{len(model.strings)}-byte strings block",
            where,
        )
    elif crc32(name) != s.name_hash:
        yield Finding(
            "name-hash-mismatch",
            ERROR,
            f"name {name!r} hashes to {crc32(name):08X}, Built stores {s.name_hash:08X}",
            where,
        )
    if not msm2 and s.word_48 != 0xDEADDEAD:
        yield Finding(
            "dead-markers",
            WARNING,
            f"+0x48/+0x4A hold {s.word_48 & 0xFFFF:04X} {s.word_48 >> 16:04X}, not DEAD DEAD "
            "(a Remastered-era rule: Spider-Man 2 has them 4 bytes further on)",
            where,
        )
    if not msm2 and s.word_4c & 0xFFFF:
        yield Finding("built-4c-nonzero", INFO, f"+0x4C is {s.word_4c & 0xFFFF}, observed 0", where)
    if not counts:
        return
    labels = {
        "num_joints": "J (+0x20)",
        "num_base_state_things": "T (+0x2C)",
        "num_custom_tracks": "tracks count (+0x3A)",
        "num_elems": "element count (+0x24)",
        "num_large_elems": "large element count (+0x44)",
    }
    counted = {
        "num_joints": "Base State joint records",
        "num_base_state_things": "Base State things",
        "num_custom_tracks": "Custom Tracks entries",
        "num_elems": "Sample Elem small elements",
        "num_large_elems": "Sample Elem large elements",
    }
    for name_ in DERIVED_COUNTS:
        value = getattr(s, name_)
        if value is None or value == derived[name_]:
            continue
        if name_ in ("num_joints", "num_base_state_things") and model.section(TAG_BASE_STATE) is not None:
            continue  # reported as base-state-size
        if name_ in ("num_elems", "num_large_elems") and model.section(TAG_SAMPLE_ELEM) is not None:
            continue  # reported as sample-elem-past-end
        yield Finding(
            "count-mismatch",
            WARNING,
            f"{labels[name_]} is {value}, but there are {derived[name_]} {counted[name_]}",
            {**where, "field": name_},
        )


def _base_state(
    model: AnimclipFile, i: int, s: BaseState, size: int, derived: dict[str, int], names: dict[int, str]
) -> Iterator[Finding]:
    where = _where(model, i)
    built = model.built
    if built is not None:
        j = derived["num_joints"] if built.num_joints is None else built.num_joints
        t = derived["num_base_state_things"] if built.num_base_state_things is None else built.num_base_state_things
        if 16 * j + THING_SIZE * t > size:
            yield Finding(
                "base-state-size",
                ERROR,
                f"{size} bytes cannot hold J = {j} joint records and T = {t} things ({16 * j + THING_SIZE * t} bytes)",
                where,
            )
    hashes = model.section(TAG_JOINT_HASHES)
    if isinstance(hashes, JointHashes):
        k = len(hashes.hashes)
        j = len(s.joints)
        terminated = k > 0 and int(hashes.hashes[-1]) == TERMINATOR_HASH
        expected = k - 1 if terminated else k
        if j != expected:
            if terminated and j == k:
                yield Finding(
                    "joint-count-includes-terminator",
                    INFO,
                    f"J = K = {k}: a record for the FFFFFFFF terminator too (ALERT's label reading; "
                    "size analysis suggests J = K - 1)",
                    where,
                )
            else:
                yield Finding(
                    "joint-count-mismatch",
                    WARNING,
                    f"{j} joint records for {k} joint hashes; expected {expected} (spec 7.2)",
                    where,
                )
    if s.extra:
        yield Finding(
            "base-state-extra", INFO, f"{len(s.extra)} bytes after the joint records and things (not described)", where
        )
    if len(s.joints):
        lengths = quaternion_lengths(s.joints) / QUATERNION_DIVISOR
        # A joint whose rotation a Sample Elem element animates has a base (the minimum of
        # its components over the clip, Luna anim_export.py), not a rotation: skip it.
        off = np.abs(lengths - 1.0) > QUATERNION_TOLERANCE
        elem = model.section(TAG_SAMPLE_ELEM)
        if isinstance(elem, SampleElem):
            joint, component, _w, _s = elem.elements()
            animated = joint[(component >= 4) & (component < 8) & (joint < len(off))]
            off[animated] = False
        bad = np.flatnonzero(off)
        if bad.size:
            first = int(bad[0])
            h = int(hashes.hashes[first]) if isinstance(hashes, JointHashes) and first < len(hashes.hashes) else None
            extra: dict[str, Any] = {"joint": first}
            if h is not None and h in names:
                extra["joint_name"] = names[h]
            yield Finding(
                "quaternion-length",
                WARNING,
                f"{bad.size} of {len(s.joints)} unanimated rotations are not unit length after dividing by "
                f"{QUATERNION_DIVISOR:.0f} "
                f"(joint {first}: {lengths[first]:.4f}); is the divisor or the layout right? (spec 11.16)",
                {**where, **extra},
            )


def _joint_hashes(model: AnimclipFile, i: int, s: JointHashes) -> Iterator[Finding]:
    where = _where(model, i)
    if s.trailing:
        yield Finding("joint-hashes-size", ERROR, f"{len(s.trailing)} bytes after the last whole u32 hash", where)
    if not model.is_msm2 and (not len(s.hashes) or int(s.hashes[-1]) != TERMINATOR_HASH):
        yield Finding(
            "joint-hashes-terminator",
            WARNING,
            "the last hash is not the FFFFFFFF terminator (a Remastered-era rule; Spider-Man 2 has none)",
            where,
        )
    yield from _repeated_joint_hashes(np.asarray(s.hashes, dtype=np.int64), where)


def _repeated_joint_hashes(hashes: np.ndarray, where: dict[str, Any]) -> Iterator[Finding]:
    """Two joints with one hash (the terminator aside): a reader finds a joint by its hash, so
    the later one's data is never reached (the encoder refuses such names: encode.joint_hashes)."""
    if len(hashes) and hashes[-1] == TERMINATOR_HASH:
        hashes = hashes[:-1]
    order = np.argsort(hashes, kind="stable")
    same = np.flatnonzero(hashes[order][1:] == hashes[order][:-1])
    for k in same:  # (sorted: each pair is a joint and the next one with its hash)
        first, second = int(order[k]), int(order[k + 1])
        yield Finding(
            "joint-hash-repeated",
            ERROR,
            f"joints {first} and {second} both have hash {int(hashes[first]):08X}: a reader finds a joint "
            f"by its hash, so joint {second}'s data is never reached",
            where,
        )


def _custom_tracks(model: AnimclipFile, i: int, s: CustomTracks) -> Iterator[Finding]:
    where = _where(model, i)
    if s.trailing:
        yield Finding("custom-tracks-size", ERROR, f"{len(s.trailing)} bytes after the last whole 40-byte entry", where)
    data = model.section(TAG_CUSTOM_TRACK_DATA)
    data_size = (
        len(np.asarray(data.values).tobytes()) + len(data.trailing) if isinstance(data, CustomTrackData) else None
    )
    built = model.built
    blocks = []
    for t, e in enumerate(s.entries):
        name = model.string_at(e.ofs_name)
        at = {**where, "track": t}
        if name is not None:
            at["track_name"] = name
        if name is None:
            yield Finding(
                "custom-track-name-unresolved",
                ERROR,
                f"name offset {e.ofs_name} does not start a string in the strings block",
                at,
            )
        elif crc32(name) != e.name_hash:
            yield Finding(
                "custom-track-hash-mismatch",
                WARNING,
                f"hash {e.name_hash:08X} is not the CRC32 of {name!r} ({crc32(name):08X}); ALERT only presumes it is",
                at,
            )
        nonzero = [k for k in ("zero_08", "zero_0c", "zero_18", "zero_1c", "zero_24") if getattr(e, k)]
        if nonzero:
            yield Finding("custom-track-nonzero", INFO, f"{', '.join(nonzero)} not zero (observed zero)", at)
        if e.ofs_data % PAD_TO:
            yield Finding(
                "custom-track-misaligned", WARNING, f"data offset {e.ofs_data} is not a multiple of {PAD_TO}", at
            )
        end = e.ofs_data + 4 * e.num_values
        if data_size is not None and end > data_size:
            yield Finding(
                "custom-track-out-of-range",
                ERROR,
                f"values [{e.ofs_data}, {end}) run past Custom Track Data ({data_size} bytes)",
                at,
            )
        if built is not None and e.num_values != built.num_frames:
            yield Finding(
                "custom-track-frames", INFO, f"{e.num_values} values, Built frames count is {built.num_frames}", at
            )
        if e.num_values:
            blocks.append((e.ofs_data, end, t))
    blocks.sort()
    for (_s1, e1, t1), (s2, _e2, t2) in zip(blocks, blocks[1:]):
        if s2 < e1:
            yield Finding("custom-tracks-overlap", ERROR, f"values overlap those of track {t1}", {**where, "track": t2})


def _sample_elem(model: AnimclipFile, i: int, s: SampleElem, size: int) -> Iterator[Finding]:
    where = _where(model, i)
    built = model.built
    n, m = len(s.offsets), len(s.large_offsets)
    declared = (
        (derived_or(built, "num_elems", n), derived_or(built, "num_large_elems", m)) if built is not None else (n, m)
    )
    if built is not None and sample_elem_split(size, declared) != (declared[0], -declared[0] % 4, declared[1]):
        pass  # sample-elem-past-end: .frames.inputs.sample_problems, whose list the decoder refuses from
    elif len(s.padding) != -n % 4:
        yield Finding(
            "sample-elem-size", ERROR, f"{len(s.padding)} padding bytes after {n} elements; expected {-n % 4}", where
        )
    if s.trailing:
        yield Finding("sample-elem-size", WARNING, f"{len(s.trailing)} bytes after the element tables", where)
    if s.padding.strip(b"\0"):
        yield Finding("sample-elem-padding", WARNING, "padding bytes are not zero", where)
    values = np.asarray(s.offsets, np.int64)
    down = np.flatnonzero(np.diff(values) < 0)
    if down.size:
        yield Finding(
            "sample-elem-not-ascending",
            WARNING,
            f"offset {int(down[0]) + 1} ({int(values[down[0] + 1])}) is below the one before it; "
            "the seed says ascending",
            {**where, "element": int(down[0]) + 1},
        )


def derived_or(built: Built, name: str, derived: int) -> int:
    value = getattr(built, name)
    return derived if value is None else value


def _motion(model: AnimclipFile) -> Iterator[Finding]:
    """Motion Data's header against its size (:func:`.frames.inputs.motion_problems`, the list the
    decoder refuses from) and its sample count against Built (Luna Engine IO Tools motion.py)."""
    for i, s in enumerate(model.sections):
        data = getattr(s, "data", None)
        if s.tag != TAG_MOTION_DATA or not isinstance(data, (bytes, memoryview)):
            continue
        where = _where(model, i)
        problems = motion_problems(data)
        for p in problems:
            yield Finding(p.code, ERROR if p.severity == "error" else WARNING, p.message, {**where, "field": p.field})
        if len(data) < MOTION_HEADER_SIZE or any(p.code == "motion-data-size" for p in problems):
            continue
        header = np.frombuffer(data, MOTION_HEADER_DTYPE, 1)[0]
        flags, count = int(header["flags"]), int(header["num_samples"])
        built = model.built
        if built is not None and count:
            need = max(1, built.num_frames) + (1 if built.is_looping else 0)
            if flags & MOTION_FLAG_SECONDARY:
                need *= 2
            if count != need:
                yield Finding(
                    "motion-sample-count",
                    WARNING,
                    f"{count} motion samples; Built's {built.num_frames} frames"
                    + (" (looping: one more)" if built.is_looping else "")
                    + f" call for {need}",
                    where,
                )


def _trigger_data(model: AnimclipFile, i: int, s: TriggerData, size: int) -> Iterator[Finding]:
    where = _where(model, i)
    if size < 24:
        yield Finding("trigger-data-size", ERROR, f"{size} bytes; the header and first words need at least 24", where)
    if s.len_jsons is not None and s.len_jsons != len(s.jsons):
        yield Finding(
            "trigger-jsons-overflow",
            ERROR,
            f"len_jsons {s.len_jsons} runs past the payload (only {len(s.jsons)} bytes follow the header)",
            where,
        )
    if s.trailing:
        yield Finding("trigger-trailing", ERROR, f"{len(s.trailing)} bytes after the last whole 16-byte record", where)
    if s.num_things != len(s.records):
        yield Finding(
            "trigger-things-count",
            INFO,
            f"things_count is {s.num_things}, {len(s.records)} records follow (a hypothesis, spec 11.13)",
            where,
        )
    odd = [r for r, rec in enumerate(s.records) if rec.c not in (0, 1)]
    if odd:
        yield Finding(
            "trigger-record-c",
            WARNING,
            f"{len(odd)} record(s) with c outside 0/1, first record {odd[0]} (c = {s.records[odd[0]].c})",
            {**where, "record": odd[0]},
        )
