"""The bulk .animclip reader: struct and numpy straight on the file's bytes.

The generated parser (debug mode, for the positions that name an error's field and offset)
copies a plain file's body three times on its way to a payload (the size-eos ``dat1``
substream, the section's ``_raw_body``, then ``data_raw``): a 16 MB clip cost 5x reading the
file and twice its size in memory. This reader reads the headers and tables with
struct, each bulk table with one numpy call (one copy each), and keeps each opaque payload
(Sample Data, Motion Data...) as a read-only view into the file's bytes: a 16 MB clip costs
about reading it.

Like animbin/fastread.py, this module is a deliberate second description of the layout
(through the record formats of :mod:`.layout` and of each section's module in
:mod:`.sections`, where each section type's ``read`` sits beside its ``payload``). It never words an
error: on anything it does not accept - a size that does not fit, a bad magic, a payload
past the end, text that is not UTF-8, too many overlapping payloads, a body that is not a
good LZ4 block - it returns None, and :mod:`.parse` hands the file to the generated parser
(:mod:`.adapt`), which raises the error with its field and offset (or reads a file this
reader was too cautious about). The tests hold both readers to the same model on every
example and on property-based inputs.
"""

from __future__ import annotations

from ..common.errors import ParseError
from .compression import Compression, inflate, is_compressed
from .layout import (
    DAT1_HEADER,
    OUTER_HEADER,
    SECTION_ENTRY,
    STG_ASSET_HEADER,
    STG_HEADER,
    STG_SIZE_AT,
    STG_TYPE_AT,
    UNKNOWN_ENTRY,
    stg_wrapper_size,
)
from .model import AnimclipFile
from .reading import assemble, lz4_max_size, read_sections
from .sections import Built, Section, section_type
from .sections.base import Declined as _Declined, Split
from .tags import ASSET_MAGICS, CONTAINER_ASSET, CONTAINER_DAT1, CONTAINER_STG, DAT1_MAGIC, STG_MAGIC, TAG_BUILT


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
    split = _declared_split(data, base, size, entries)

    def read_one(i: int) -> Section:  # each section type reads its own payload (.sections)
        tag, ofs, length = entries[i]
        if ofs + length > size:
            raise _Declined
        return section_type(tag).read(tag, data, base + ofs, length, split)

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


def _declared_split(data: bytes, base: int, size: int, entries: list[tuple[int, int, int]]) -> Split:
    """What the last Built entry (ksy dat1.idx_built) declares about how Base State and
    Sample Elem split; without one, J = T = 0 and no element counts."""
    built = [e for e in entries if e[0] == TAG_BUILT]
    if not built:
        return Split()
    _tag, ofs, length = built[-1]
    if ofs + length > size:
        raise _Declined
    return Built.declared_split(data, base + ofs, length)
