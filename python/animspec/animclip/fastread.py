"""The bulk .animclip reader: struct and numpy straight on the file's bytes.

The generated parser (debug mode, for the positions that name an error's field and offset)
copies a plain file's body three times on its way to a payload (the size-eos ``dat1``
substream, the section's ``_raw_body``, then ``data_raw``): a 16 MB clip cost 5x reading the
file and twice its size in memory (issue 15). This reader reads the headers and tables with
struct, each bulk table with one numpy call (one copy each), and keeps each opaque payload
(Sample Data, Motion Data...) as a read-only view into the file's bytes: a 16 MB clip costs
about reading it.

Like animbin/fastread.py, this module is a deliberate second description of the layout
(through the record formats of :mod:`.tags`, shared with the writer). It never words an
error: on anything it does not accept - a size that does not fit, a bad magic, a payload
past the end, text that is not UTF-8, too many overlapping payloads, a body that is not a
good LZ4 block - it returns None, and :mod:`.parse` hands the file to the generated parser
(:mod:`.adapt`), which raises the error with its field and offset (or reads a file this
reader was too cautious about). The tests hold both readers to the same model on every
example and on property-based inputs.
"""

from __future__ import annotations

import numpy as np

from ..common.errors import ParseError
from .compression import Compression, inflate, is_compressed
from .content import (
    BUILT_FIELDS,
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
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
)
from .reading import assemble, lz4_max_size, read_sections
from .tags import (
    ASSET_MAGICS,
    BUILT_RECORD,
    BUILT_SIZE,
    CUSTOM_TRACK_SIZE,
    DAT1_HEADER,
    DAT1_MAGIC,
    JOINT_DTYPE,
    JOINT_SIZE,
    OUTER_HEADER,
    PATH_MATRICES,
    PATH_SIZE,
    SAMPLE_ELEM_SIZE,
    SECTION_ENTRY,
    TAG_BASE_STATE,
    TAG_BUILT,
    TAG_CUSTOM_TRACK_DATA,
    TAG_CUSTOM_TRACKS,
    TAG_JOINT_HASHES,
    TAG_PATH,
    TAG_SAMPLE_ELEM,
    TAG_TRIGGER_DATA,
    TAG_TRIGGER_JOINT_NAMES,
    THING_SIZE,
    TRIGGER_DTYPE,
    TRIGGER_HEADER,
    TRIGGER_RECORD_SIZE,
    UNKNOWN_ENTRY,
    CONTAINER_ASSET,
    CONTAINER_DAT1,
    CONTAINER_STG,
    LARGE_ELEM_SIZE,
    STG_ASSET_HEADER,
    STG_HEADER,
    STG_MAGIC,
    STG_SIZE_AT,
    STG_TYPE_AT,
    sample_elem_split,
    stg_wrapper_size,
)

_NUM_JOINTS_AT = 0x20
_NUM_THINGS_AT = 0x2C
"""Built's J and T (u2), which split Base State (ksy dat1.num_base_state_joints/_things)."""
_NUM_ELEMS_AT = 0x24
_NUM_LARGE_ELEMS_AT = 0x44
"""Built's element counts (u4), which split Sample Elem (ksy dat1.num_elems_declared, ...)."""


class _Declined(Exception):
    """The file is left to the generated parser (it is invalid, or unusual)."""


def read(data: bytes) -> AnimclipFile | None:
    """The model of ``data``, or None when the generated parser should read it (module doc)."""
    try:
        return _read(data)
    except _Declined:
        return None


def _read(data: bytes) -> AnimclipFile:
    first = data[:4]
    if first == DAT1_MAGIC:
        if len(data) < DAT1_HEADER.size:
            raise _Declined
        type_id = DAT1_HEADER.unpack_from(data, 0)[1]
        return _read_dat1(data, 0, type_id, b"", DAT1_HEADER.unpack_from(data, 0)[2], None, CONTAINER_DAT1)
    if first == STG_MAGIC:
        if len(data) < STG_HEADER.size:
            raise _Declined
        len_asset = STG_HEADER.unpack_from(data, 0)[2]
        base = stg_wrapper_size(len_asset)
        if len_asset < STG_ASSET_HEADER.size or base > len(data):
            raise _Declined
        magic = int.from_bytes(data[STG_TYPE_AT : STG_TYPE_AT + 4], "little")
        outer_len = int.from_bytes(data[STG_SIZE_AT : STG_SIZE_AT + 4], "little")
        if magic not in ASSET_MAGICS:
            raise _Declined
        wrapper = bytearray(data[:base])
        wrapper[STG_TYPE_AT : STG_TYPE_AT + 4] = bytes(4)
        wrapper[STG_SIZE_AT : STG_SIZE_AT + 4] = bytes(4)
        return _read_dat1(data, base, magic, bytes(wrapper), outer_len, None, CONTAINER_STG)
    if len(data) < OUTER_HEADER.size:
        raise _Declined
    magic, outer_len, header_unk = OUTER_HEADER.unpack_from(data, 0)
    if magic not in ASSET_MAGICS:
        raise _Declined
    base = OUTER_HEADER.size
    compression: Compression | None = None
    # ksy is_lz4_compressed: it peeks at body offsets 0..3 only when the file has 43 bytes.
    if len(data) >= base + 7 and is_compressed(data[base : base + 7]):
        body = data[base:]
        try:
            dat1, compression = inflate(body, outer_size=outer_len, max_size=lz4_max_size(len(body)))
        except ParseError:
            raise _Declined from None
        if compression is None:
            raise _Declined
        data, base = dat1, 0
    return _read_dat1(data, base, magic, header_unk, outer_len, compression, CONTAINER_ASSET)


def _read_dat1(
    data: bytes, base: int, magic: int, header_unk: bytes, outer_len: int, compression: Compression | None,
    container: str,
) -> AnimclipFile:
    """The DAT1 ``data[base:]``."""
    size = len(data) - base
    if size < DAT1_HEADER.size:
        raise _Declined
    dat1_magic, type_id, dat1_len, n, u = DAT1_HEADER.unpack_from(data, base)
    if dat1_magic != DAT1_MAGIC:
        raise _Declined
    table = base + DAT1_HEADER.size
    strings_at = table + SECTION_ENTRY.size * n + UNKNOWN_ENTRY.size * u
    if strings_at > len(data):
        raise _Declined
    view = memoryview(data)
    entries = list(SECTION_ENTRY.iter_unpack(view[table : table + SECTION_ENTRY.size * n]))
    unknowns = list(UNKNOWN_ENTRY.iter_unpack(view[table + SECTION_ENTRY.size * n : strings_at]))
    # ksy strings_block: from S to the smallest payload offset, clamped to the DAT1.
    end = min(min((ofs for _, ofs, _ in entries), default=size), size)
    strings_size = max(end - (strings_at - base), 0)
    try:
        str(view[strings_at : strings_at + strings_size], "utf-8")  # the spec decodes every string
    except UnicodeDecodeError:
        raise _Declined from None
    split = _base_state_split(data, base, size, entries)

    def read_one(i: int) -> Section:
        tag, ofs, length = entries[i]
        if ofs + length > size:
            raise _Declined
        return _section(data, base + ofs, length, tag, split)

    if container == CONTAINER_DAT1:
        magic = type_id  # a bare DAT1's type is its type id
        outer_len = dat1_len

    def refuse(i: int, claimed: int) -> Exception:
        return _Declined()

    sections = read_sections(entries, size, read_one, refuse)
    return assemble(
        magic=magic, header_unk=header_unk, type_id=type_id, sections=sections, unknowns=unknowns,
        dat1=data, base=base, dat1_size=size, strings_size=strings_size, outer_len=outer_len,
        dat1_len=dat1_len, compression=compression, container=container,
    )


def _base_state_split(data: bytes, base: int, size: int, entries: list[tuple[int, int, int]]) -> tuple[int, int, int, int]:
    """J, T and Sample Elem's two element counts from the last Built entry (ksy
    dat1.idx_built); without one J = T = 0 and the counts are -1 (none)."""
    built = [e for e in entries if e[0] == TAG_BUILT]
    if not built:
        return 0, 0, -1, -1
    _tag, ofs, length = built[-1]
    if length < BUILT_SIZE or ofs + length > size:
        raise _Declined
    at = base + ofs
    return (int.from_bytes(data[at + _NUM_JOINTS_AT : at + _NUM_JOINTS_AT + 2], "little"),
            int.from_bytes(data[at + _NUM_THINGS_AT : at + _NUM_THINGS_AT + 2], "little"),
            int.from_bytes(data[at + _NUM_ELEMS_AT : at + _NUM_ELEMS_AT + 4], "little"),
            int.from_bytes(data[at + _NUM_LARGE_ELEMS_AT : at + _NUM_LARGE_ELEMS_AT + 4], "little"))


_EMPTY: dict[np.dtype, np.ndarray] = {}


def _empty(dtype: np.dtype) -> np.ndarray:
    return _EMPTY.setdefault(dtype, np.zeros(0, dtype))


def _array(data: bytes, dtype: np.dtype | str, count: int, at: int) -> np.ndarray:
    """``count`` records of ``dtype`` at ``at``: one copy, writable like the model's arrays."""
    if count == 0:
        # One empty array per dtype, shared: a table of 16,000 tiny sections made two
        # each (issue 21); a zero-length array has no element anyone could change.
        return _empty(np.dtype(dtype))
    return np.frombuffer(data, dtype, count, at).copy()


def _section(data: bytes, at: int, size: int, tag: int, split: tuple[int, int, int, int]) -> Section:
    """The section of tag ``tag`` whose payload is ``data[at : at + size]``, as the spec's
    section types split it into records and leftover bytes (ksy/animclip.ksy)."""
    end = at + size
    if tag == TAG_BUILT:
        if size < BUILT_SIZE:
            raise _Declined
        return Built(**dict(zip(BUILT_FIELDS, BUILT_RECORD.unpack_from(data, at))), trailing=data[at + BUILT_SIZE : end])
    if tag == TAG_BASE_STATE:
        j, t = split[:2]
        len_joints = JOINT_SIZE * j if JOINT_SIZE * j <= size else size - size % JOINT_SIZE
        rest = size - len_joints
        len_things = THING_SIZE * t if THING_SIZE * t <= rest else rest - rest % THING_SIZE
        things_at = at + len_joints
        return BaseState(
            joints=_array(data, JOINT_DTYPE, len_joints // JOINT_SIZE, at),
            things=data[things_at : things_at + len_things],
            extra=data[things_at + len_things : end],
        )
    if tag == TAG_JOINT_HASHES:
        k = size // 4
        return JointHashes(_array(data, "<u4", k, at), data[at + 4 * k : end])
    if tag == TAG_PATH:
        if size < PATH_SIZE:
            raise _Declined
        # Through Python floats, as the spec's f4 fields are read (a signalling NaN quiets).
        m = PATH_MATRICES.unpack_from(data, at)
        return Path(np.array(m[:16], "<f4").reshape(4, 4), np.array(m[16:], "<f4").reshape(4, 4), data[at + PATH_SIZE : end])
    if tag == TAG_CUSTOM_TRACKS:
        k = size // CUSTOM_TRACK_SIZE
        rows = _array(data, "<u4", k * CUSTOM_TRACK_SIZE // 4, at).reshape(k, CUSTOM_TRACK_SIZE // 4).tolist()
        return CustomTracks([CustomTrackEntry(*row) for row in rows], data[at + CUSTOM_TRACK_SIZE * k : end])
    if tag == TAG_CUSTOM_TRACK_DATA:
        k = size // 4
        return CustomTrackData(_array(data, "<f4", k, at), data[at + 4 * k : end])
    if tag == TAG_SAMPLE_ELEM:
        n, pad, m = sample_elem_split(size, None if split[2] < 0 else (split[2], split[3]))
        large_at = at + SAMPLE_ELEM_SIZE * n + pad
        return SampleElem(
            _array(data, "<u4", n, at), _array(data, "u1", n, at + 4 * n), data[large_at - pad : large_at],
            _array(data, "<u4", m, large_at), _array(data, "<u2", m, large_at + 4 * m),
            data[large_at + LARGE_ELEM_SIZE * m : end],
        )
    if tag == TAG_TRIGGER_DATA:
        if size < TRIGGER_HEADER.size:
            raise _Declined
        num_jsons, num_things, len_jsons, unk1, unk2 = TRIGGER_HEADER.unpack_from(data, at)
        room = size - TRIGGER_HEADER.size
        len_raw = len_jsons if len_jsons <= room else room  # ksy trigger_data.len_jsons_raw
        k = (room - len_raw) // TRIGGER_RECORD_SIZE
        records_at = at + TRIGGER_HEADER.size + len_raw
        return TriggerData(
            num_jsons=num_jsons, num_things=num_things, len_jsons=len_jsons, unk1=unk1, unk2=unk2,
            jsons=data[at + TRIGGER_HEADER.size : records_at],
            records=[TriggerRecord(*row) for row in _array(data, TRIGGER_DTYPE, k, records_at).tolist()],
            trailing=data[records_at + TRIGGER_RECORD_SIZE * k : end],
        )
    if tag == TAG_TRIGGER_JOINT_NAMES:
        k = size // 4
        return TriggerJointNames(_array(data, "<u4", k, at).tolist(), data[at + 4 * k : end])
    # The other known tags (Sample Data, Motion Data, Curves, Morph ...) and unknown tags:
    # the payload's bytes, copied once.
    # A view into the file's bytes, not a copy: a 16 MB Sample Data costs nothing to load
    # (issue 22.6: a copy per payload on fresh memory made read_file 7x open().read()).
    return RawSection(tag, memoryview(data)[at:end])
