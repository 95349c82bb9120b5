"""Serialise the .animclip model to bytes: the inverse of ksy/animclip.ksy.

Two ways out, chosen per file:

* **Exact** - the model still has the content it was read with (its :class:`.model.Layout`'s
  ``content_digest`` matches :func:`.placement.content_digest` of the model now). The DAT1 is
  rebuilt from the recorded layout (:func:`.placement.exact_placement`): table in its original
  order, payloads at their original offsets, the original padding and trailing bytes, the
  declared sizes as they were (stale ones included); an LZ4 file gets its original compressed
  block back. ``write(read(b)) == b`` for every ``b`` the parser accepts.
* **Re-laid out** (spec 4.6, :func:`.placement.relaid_placement`) - anything was edited, or
  there is no layout (a model built in memory), or the recorded layout no longer tiles the
  DAT1 consistently. Header, then the
  section table sorted by ascending tag, the unknowns table (its COUNT in the header, not
  ALERT's byte length), the strings block (appended strings included, so strings-relative
  offsets stay valid), then the payloads in ascending order of their recorded offsets (new
  sections last), each starting on a 16-byte boundary (DAT1-relative) with zero padding.
  DAT1 size = end of the last payload; the outer size is written after layout. The body is
  written uncompressed (ALERT never re-compresses either).

Built counts that are None in the model are derived here (``tags.DERIVED_COUNTS``).

Each section's payload comes from its type in :mod:`.sections` (the writer is a loop over
the sections); every value is range-checked against its field first, and a model the
parser would read back differently (a Base State the Built counts would split otherwise,
trailing bytes long enough to form another record) raises :class:`WriteError` naming the
field. This module writes the container: wrapper, DAT1 header, tables, placement.
"""

from __future__ import annotations

import lz4.block
import numpy as np

from ..common.errors import WriteError
from ..common.fieldwriter import U2, U4
from .layout import (
    OUTER_HEADER_UNK_SIZE,
    STG_ASSET_HEADER,
    STG_HEADER,
    STG_SIZE_AT,
    STG_TYPE_AT,
    stg_wrapper_size,
    tables_size,
)
from .model import AnimclipFile
from .placement import Placement, exact_placement, is_unedited as _unedited, relaid_placement
from .sections import payload as section_payload, write_context
from .sections.base import Out, pack_int
from .tags import ASSET_MAGICS, CONTAINER_ASSET, CONTAINER_DAT1, CONTAINER_STG, CONTAINERS, DAT1_MAGIC, STG_MAGIC

# ---------------------------------------------------------------------------- the file


def payloads(model: AnimclipFile) -> list[bytes]:
    """Every section's payload, in table order (derived counts filled in)."""
    ctx = write_context(model.sections)
    # A section object listed by several table entries (a file whose entries name one
    # payload: parse shares it) is serialised once; its payload bytes are shared too.
    done: dict[int, bytes] = {}
    out = []
    for i, s in enumerate(model.sections):
        if id(s) not in done:
            done[id(s)] = section_payload(s, ctx, f"sections[{i}]")
        out.append(done[id(s)])
    return out


def _check_file(model: AnimclipFile) -> None:
    pack_int(U4, model.magic, "magic")
    if model.magic not in ASSET_MAGICS:
        known = ", ".join(f"{m:08X}" for m in ASSET_MAGICS)
        raise WriteError("magic", f"{model.magic:08X} is not an animclip magic ({known}); the parser rejects it")
    pack_int(U4, model.type_id, "type_id")
    _check_container(model)
    if len(model.sections) > 0xFFFF:
        raise WriteError("num_sections", f"{len(model.sections)} sections; the count field holds at most 65535")
    if len(model.unknowns) > 0xFFFF:
        raise WriteError("num_unknowns", f"{len(model.unknowns)} entries; the count field holds at most 65535")
    for i, u in enumerate(model.unknowns):
        pack_int(U4, u.ofs_source, f"unknowns[{i}].ofs_source")
        pack_int(U4, u.ofs_target, f"unknowns[{i}].ofs_target")
    if not isinstance(model.strings, (bytes, bytearray)):
        raise WriteError("strings", "expected bytes")
    for piece in bytes(model.strings).split(b"\0"):
        try:
            piece.decode("utf-8")
        except UnicodeDecodeError:
            raise WriteError("strings", f"{piece!r} is not UTF-8; the parser decodes every string as UTF-8") from None


def _check_container(model: AnimclipFile) -> None:
    """The wrapper before the DAT1 must read back as the same container (ksy: the first
    u32 tells them apart)."""
    unk = model.header_unk
    if model.container not in CONTAINERS:
        raise WriteError("container", f"{model.container!r} is none of {', '.join(CONTAINERS)}")
    if not isinstance(unk, (bytes, bytearray)):
        raise WriteError("header_unk", "expected bytes")
    if model.container == CONTAINER_ASSET:
        if len(unk) != OUTER_HEADER_UNK_SIZE:
            raise WriteError("header_unk", f"needs exactly {OUTER_HEADER_UNK_SIZE} bytes")
        if model.magic in (int.from_bytes(STG_MAGIC, "little"), int.from_bytes(DAT1_MAGIC, "little")):
            raise WriteError("magic", "this value would read back as another container")
    elif model.container == CONTAINER_DAT1:
        if unk:
            raise WriteError("header_unk", "a bare DAT1 has no wrapper: expected no bytes")
        if model.magic != model.type_id:
            raise WriteError(
                "magic", f"a bare DAT1's type is its type_id ({model.type_id:08X}); found {model.magic:08X}"
            )
    else:
        if len(unk) < STG_HEADER.size or bytes(unk[:4]) != STG_MAGIC:
            raise WriteError("header_unk", "an STG wrapper starts with the 16-byte STG\\0 header")
        len_asset = int.from_bytes(unk[8:12], "little")
        if len_asset < STG_ASSET_HEADER.size or stg_wrapper_size(len_asset) != len(unk):
            raise WriteError(
                "header_unk",
                f"{len(unk)} bytes do not hold an STG header with a {len_asset}-byte asset header "
                f"(it needs at least {STG_ASSET_HEADER.size}, padded to a multiple of 16)",
            )
        if unk[STG_TYPE_AT : STG_TYPE_AT + 4] != bytes(4) or unk[STG_SIZE_AT : STG_SIZE_AT + 4] != bytes(4):
            raise WriteError(
                "header_unk", "the type (offset 16) and size (offset 24) slots must be zero; the writer fills them"
            )


def check_writable(model: AnimclipFile) -> None:
    """Raise the :class:`WriteError` :func:`write_bytes` would raise for ``model``, if any
    (``validate``'s "unwritable"); nothing is assembled."""
    _check_file(model)
    payloads(model)


def write_bytes(model: AnimclipFile) -> bytes:
    """The file bytes of ``model``: exact when unedited, re-laid out otherwise (module doc)."""
    _check_file(model)
    section_payloads = payloads(model)
    if _unedited(model, section_payloads):
        exact = _exact(model, section_payloads)
        if exact is not None:
            return exact
    return _relaid(model, section_payloads)


def exact_bytes(model: AnimclipFile, section_payloads: list[bytes] | None = None) -> bytes | None:
    """The file as its recorded layout places it, or None when the model has no recorded
    layout that can hold its content (``write_bytes`` then re-lays it out).
    ``section_payloads``: :func:`payloads` of the model, when the caller has them already."""
    _check_file(model)
    return _exact(model, payloads(model) if section_payloads is None else section_payloads)


def relaid_bytes(model: AnimclipFile) -> bytes:
    """The re-laid-out form (spec 4.6) even for an unedited model: a normalised file."""
    _check_file(model)
    return _relaid(model, payloads(model))


def is_unedited(model: AnimclipFile) -> bool:
    """True when :func:`write_bytes` will reproduce the file the model was read from."""
    if model.layout is None:
        return False
    try:
        _check_file(model)
        section_payloads = payloads(model)
    except WriteError:
        return False
    return _unedited(model, section_payloads) and _exact(model, section_payloads) is not None


def _outer(model: AnimclipFile, len_dat1: int) -> bytes:
    """What precedes the DAT1: the 36-byte outer header, the STG wrapper, or nothing."""
    if model.container == CONTAINER_DAT1:
        return b""
    if model.container == CONTAINER_STG:
        out = bytearray(model.header_unk)
        out[STG_TYPE_AT : STG_TYPE_AT + 4] = pack_int(U4, model.magic, "magic")
        out[STG_SIZE_AT : STG_SIZE_AT + 4] = pack_int(U4, len_dat1, "outer_len_dat1")
        return bytes(out)
    header = Out()
    header.int(U4, model.magic, "magic")
    header.int(U4, len_dat1, "outer_len_dat1")
    header.raw(bytes(model.header_unk), "header_unk")
    return header.getvalue()


def _tables(model: AnimclipFile, placement: Placement, section_payloads: list[bytes]) -> bytes:
    out = Out()
    out.bytes(DAT1_MAGIC)
    out.int(U4, model.type_id, "type_id")
    out.int(U4, placement.dat1_len, "len_dat1")
    out.int(U2, len(model.sections), "num_sections")
    out.int(U2, len(model.unknowns), "num_unknowns")  # the count (ALERT wrongly writes 8*U)
    for i in placement.table_order:
        out.int(U4, model.sections[i].tag, f"sections[{i}].tag")
        out.int(U4, placement.offsets[i], f"sections[{i}].offset")
        out.int(U4, len(section_payloads[i]), f"sections[{i}].size")
    for i, u in enumerate(model.unknowns):
        out.int(U4, u.ofs_source, f"unknowns[{i}].ofs_source")
        out.int(U4, u.ofs_target, f"unknowns[{i}].ofs_target")
    return out.getvalue()


def _relaid(model: AnimclipFile, section_payloads: list[bytes]) -> bytes:
    placement = relaid_placement(model, [len(p) for p in section_payloads])
    out = bytearray(_tables(model, placement, section_payloads))
    out += placement.strings
    for i in model.layout_order():
        out += bytes(placement.offsets[i] - len(out))
        out += section_payloads[i]
    return _outer(model, len(out)) + bytes(out)


def _exact(model: AnimclipFile, section_payloads: list[bytes]) -> bytes | None:
    """The file as recorded in the model's layout, or None when the layout cannot hold this
    content (a hand-edited or inconsistent layout): the caller then re-lays out."""
    placement = exact_placement(model)
    layout = model.layout
    if placement is None or layout is None:
        return None
    size = placement.dat1_size
    pieces: list[tuple[int, bytes]] = []
    try:
        pieces.append((0, _tables(model, placement, section_payloads)))
        outer = _outer(model, placement.outer_len)
    except WriteError:
        return None
    pieces.append((tables_size(len(model.sections), len(model.unknowns)), placement.strings))
    for i, (off, payload) in enumerate(zip(placement.offsets, section_payloads)):
        original = layout.verbatim.get(i, payload)
        pieces.append((off, original if len(original) == len(payload) else payload))
    pieces.extend(layout.fill)
    if sum(len(p) for _, p in pieces) < size:
        return None  # cannot cover every byte
    buf = np.zeros(size, np.uint8)
    covered = np.zeros(size, bool)
    for off, data in pieces:
        if not isinstance(off, int) or off < 0 or off + len(data) > size:
            return None
        if not data:
            continue
        new = np.frombuffer(data, np.uint8)
        seen = covered[off : off + len(data)]
        if seen.any() and not np.array_equal(buf[off : off + len(data)][seen], new[seen]):
            return None  # two pieces disagree about a byte
        buf[off : off + len(data)] = new
        seen[:] = True
    if not covered.all():
        return None
    dat1 = buf.tobytes()
    if layout.compression is None:
        return outer + dat1
    try:
        inflated = lz4.block.decompress(layout.compression.compressed, uncompressed_size=len(dat1))
    except lz4.block.LZ4BlockError:
        return None
    return outer + layout.compression.compressed if inflated == dat1 else None
