"""Serialise the .animclip model to bytes: the inverse of ksy/animclip.ksy.

Two ways out, chosen per file:

* **Exact** - the model still has the content it was read with (its :class:`.layout.Layout`'s
  ``content_digest`` matches :func:`.layout.content_digest` of the model now). The DAT1 is
  rebuilt from the recorded layout (:func:`.layout.exact_placement`): table in its original order, payloads at their original
  offsets, the original padding and trailing bytes, the declared sizes as they were (stale
  ones included); an LZ4 file gets its original compressed block back. ``write(read(b)) == b``
  for every ``b`` the parser accepts.
* **Re-laid out** (spec 4.6, :func:`.layout.relaid_placement`) - anything was edited, or
  there is no layout (a model built in memory), or the recorded layout no longer tiles the
  DAT1 consistently. Header, then the
  section table sorted by ascending tag, the unknowns table (its COUNT in the header, not
  ALERT's byte length), the strings block (appended strings included, so strings-relative
  offsets stay valid), then the payloads in ascending order of their recorded offsets (new
  sections last), each starting on a 16-byte boundary (DAT1-relative) with zero padding.
  DAT1 size = end of the last payload; the outer size is written after layout. The body is
  written uncompressed (ALERT never re-compresses either).

Built counts that are None in the model are derived here (``tags.DERIVED_COUNTS``).

Every value is range-checked against its field first; a model the parser would read back
differently (a Base State the Built counts would split otherwise, trailing bytes long enough
to form another record) raises :class:`WriteError` naming the field.
"""

from __future__ import annotations

import re
from typing import Any

import lz4.block
import numpy as np

from ..common.errors import WriteError
from ..common.fieldwriter import S2, U1, U2, U4, FieldWriter, IntKind
from .content import (
    BUILT_FIELDS,
    CUSTOM_TRACK_FIELDS,
    TYPED_SECTIONS,
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTracks,
    JointHashes,
    Path,
    RawSection,
    SampleElem,
    Section,
    TriggerData,
    TriggerJointNames,
    derived_counts,
)
from .layout import Placement, exact_placement, is_unedited as _unedited, relaid_placement, tables_size
from .tags import (
    ASSET_MAGICS,
    BUILT_RECORD,
    DAT1_MAGIC,
    DERIVED_COUNTS,
    JOINT_DTYPE,
    JOINT_FIELDS,
    OUTER_HEADER_UNK_SIZE,
    CONTAINER_ASSET,
    CONTAINER_DAT1,
    CONTAINER_STG,
    CONTAINERS,
    STG_ASSET_HEADER,
    STG_HEADER,
    STG_MAGIC,
    STG_SIZE_AT,
    STG_TYPE_AT,
    THING_SIZE,
    TRIGGER_DTYPE,
    TRIGGER_FIELDS,
    sample_elem_split,
    stg_wrapper_size,
)

# Field widths, from the record layouts of .tags (the formats ksy/animclip.ksy's types give).
_KINDS: dict[str, IntKind] = {"I": U4, "H": U2, "B": U1, "<u4": U4, "<u2": U2, "|u1": U1, "<i2": S2}
_BUILT_CODES = "".join(code * int(count or 1) for count, code in re.findall(r"(\d*)([a-zA-Z])", BUILT_RECORD.format))
_BUILT_KINDS: dict[str, Any] = {name: ("f4" if code == "f" else _KINDS[code]) for name, code in zip(BUILT_FIELDS, _BUILT_CODES)}
_JOINT_KINDS = {name: _KINDS[JOINT_DTYPE[name].str] for name in JOINT_FIELDS}
_TRIGGER_KINDS = {name: _KINDS[TRIGGER_DTYPE[name].str] for name in TRIGGER_FIELDS}


class _Out(FieldWriter):
    """The common field writer; integers may also be numpy's (a model edited with numpy)."""

    def int(self, kind: IntKind, value: Any, field: str) -> None:
        super().int(kind, int(value) if isinstance(value, np.integer) else value, field)


def pack_int(kind: IntKind, value: Any, field: str) -> bytes:
    """One range-checked integer field (:class:`FieldWriter`)."""
    out = _Out()
    out.int(kind, value, field)
    return out.getvalue()


def _int_array(values: Any, dtype: str, kind: tuple[str, int, int], field: str) -> bytes:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise WriteError(field, f"expected a flat list, found shape {arr.shape}")
    if arr.size == 0:
        return b""
    if arr.dtype.kind not in "iu":
        raise WriteError(field, f"expected integers, found {arr.dtype}")
    low, high = int(arr.min()), int(arr.max())
    if low < kind[1] or high > kind[2]:
        bad = low if low < kind[1] else high
        raise WriteError(field, f"{bad} does not fit ({kind[1]}..{kind[2]})")
    return arr.astype(dtype).tobytes()


def _f32_array(values: Any, field: str, shape: tuple[int, ...] | None = None) -> bytes:
    arr = np.asarray(values)
    if shape is not None and arr.shape != shape:
        raise WriteError(field, f"expected shape {shape}, found {arr.shape}")
    if shape is None and arr.ndim != 1:
        raise WriteError(field, f"expected a flat list, found shape {arr.shape}")
    if arr.dtype == np.dtype("<f4"):
        return arr.tobytes()  # bit patterns (NaN payloads included) go out unchanged
    if arr.size and arr.dtype.kind not in "fiu":
        raise WriteError(field, f"expected numbers, found {arr.dtype}")
    with np.errstate(over="ignore"):
        out = arr.astype("<f4")
    if np.any(np.isfinite(arr.astype(np.float64)) & ~np.isfinite(out)):
        raise WriteError(field, "a value does not fit a 32-bit float")
    return out.tobytes()


def _no_signalling_nan(data: bytes, field: str) -> None:
    """The spec reads Path's floats as f4 values (no raw bytes), which Python's float
    conversion turns quiet: a signalling NaN would not read back as itself."""
    bits = np.frombuffer(data, "<u4")
    if np.any(((bits & 0x7F800000) == 0x7F800000) & ((bits & 0x007FFFFF) != 0) & ((bits & 0x00400000) == 0)):
        raise WriteError(field, "a signalling NaN cannot be read back (the parser quiets it); use a quiet NaN")


def _joints(values: Any, field: str) -> bytes:
    arr = np.asarray(values)
    if arr.dtype == JOINT_DTYPE and arr.ndim == 1:
        return arr.tobytes()
    if arr.dtype.names != JOINT_FIELDS or arr.ndim != 1:
        raise WriteError(field, f"expected a 1-D structured array with fields {', '.join(JOINT_FIELDS)}")
    out = np.zeros(len(arr), JOINT_DTYPE)
    for name, kind in _JOINT_KINDS.items():
        _int_array(arr[name], JOINT_DTYPE[name].str, kind, f"{field}.{name}")  # range check
        out[name] = arr[name]
    return out.tobytes()


# ---------------------------------------------------------------------------- sections


class _Context:
    """What the payload writers need from the rest of the file."""

    def __init__(self, model: AnimclipFile):
        self.derived = derived_counts(model.sections)
        built = model.built
        # Base State is split with the LAST Built's J and T (ksy: dat1.idx_built).
        self.split = (
            (self.count(built, "num_joints"), self.count(built, "num_base_state_things"))
            if built is not None else (0, 0)
        )
        # Sample Elem is split with the LAST Built's element counts (ksy: dat1.num_elems_declared).
        self.elems = (
            (self.count(built, "num_elems"), self.count(built, "num_large_elems"))
            if built is not None else None
        )

    def count(self, built: Built, name: str) -> int:
        value = getattr(built, name)
        return self.derived[name] if value is None else value


def section_payload(section: Section, ctx: _Context, at: str) -> bytes:
    """The payload bytes of one section (what the table's offset/size address)."""
    out = _Out()
    if isinstance(section, Built):
        for name in BUILT_FIELDS:
            kind = _BUILT_KINDS[name]
            value = ctx.count(section, name) if name in DERIVED_COUNTS else getattr(section, name)
            if kind == "f4":
                out.f32(value, f"{at}.{name}")
            else:
                out.int(kind, value, f"{at}.{name}")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, BaseState):
        out.raw(_joints(section.joints, f"{at}.joints"), f"{at}.joints")
        out.raw(section.things, f"{at}.things")
        out.raw(section.extra, f"{at}.extra")
        _check_base_state_split(section, ctx, at, len(out.buf))
    elif isinstance(section, JointHashes):
        out.raw(_int_array(section.hashes, "<u4", U4, f"{at}.hashes"), f"{at}.hashes")
        _short_tail(section.trailing, 4, f"{at}.trailing", "hash")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, Path):
        for name in ("start_matrix", "end_matrix"):
            data = _f32_array(getattr(section, name), f"{at}.{name}", (4, 4))
            _no_signalling_nan(data, f"{at}.{name}")
            out.raw(data, f"{at}.{name}")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, CustomTracks):
        for i, entry in enumerate(section.entries):
            for name in CUSTOM_TRACK_FIELDS:
                out.int(U4, getattr(entry, name), f"{at}.entries[{i}].{name}")
        _short_tail(section.trailing, 40, f"{at}.trailing", "40-byte entry")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, CustomTrackData):
        out.raw(_f32_array(section.values, f"{at}.values"), f"{at}.values")
        _short_tail(section.trailing, 4, f"{at}.trailing", "value")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, SampleElem):
        offsets = _int_array(section.offsets, "<u4", U4, f"{at}.offsets")
        codes = _int_array(section.codes, "u1", U1, f"{at}.codes")
        if len(codes) * 4 != len(offsets):
            raise WriteError(f"{at}.codes", f"{len(codes)} codes for {len(offsets) // 4} offsets; they pair up")
        large_offsets = _int_array(section.large_offsets, "<u4", U4, f"{at}.large_offsets")
        large_codes = _int_array(section.large_codes, "<u2", U2, f"{at}.large_codes")
        if len(large_codes) * 2 != len(large_offsets):
            raise WriteError(f"{at}.large_codes", f"{len(large_codes) // 2} codes for {len(large_offsets) // 4} offsets; they pair up")
        for name in ("padding", "trailing"):
            if not isinstance(getattr(section, name), (bytes, bytearray)):
                raise WriteError(f"{at}.{name}", "expected bytes")
        _short_tail(section.padding, 5, f"{at}.padding", "element")
        out.raw(offsets + codes, f"{at}.offsets")
        out.raw(section.padding, f"{at}.padding")
        out.raw(large_offsets + large_codes, f"{at}.large_offsets")
        out.raw(section.trailing, f"{at}.trailing")
        _check_sample_elem_split(section, ctx, at, len(out.buf))
    elif isinstance(section, TriggerData):
        _trigger(out, section, at)
    elif isinstance(section, TriggerJointNames):
        for i, h in enumerate(section.hashes):
            out.int(U4, h, f"{at}.hashes[{i}]")
        _short_tail(section.trailing, 4, f"{at}.trailing", "hash")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, RawSection):
        pack_int(U4, section.tag, f"{at}.tag")
        if section.tag in TYPED_SECTIONS:
            cls = TYPED_SECTIONS[section.tag].__name__
            raise WriteError(f"{at}.tag", f"tag {section.tag:08X} is read as {cls}; use that class, not RawSection")
        data = section.data
        if isinstance(data, memoryview) and data.contiguous and data.itemsize == 1:
            return data.cast("B") if data.format != "B" else data  # a view is joined, not copied
        if not isinstance(data, (bytes, bytearray)):
            raise WriteError(f"{at}.data", f"expected bytes, found {type(data).__name__}")
        return bytes(data)  # the very object for bytes: a 16 MB payload is not copied
    else:
        raise WriteError(at, f"{type(section).__name__} is not a section")
    return out.getvalue()


def _short_tail(data: Any, record: int, field: str, what: str) -> None:
    if isinstance(data, (bytes, bytearray)) and len(data) >= record:
        raise WriteError(field, f"{len(data)} bytes would read back as another {what}; at most {record - 1} fit here")


def _check_base_state_split(section: BaseState, ctx: _Context, at: str, size: int) -> None:
    """The parser splits Base State by Built's J and T (ksy base_state.len_joints_raw and
    len_things_raw); refuse a model it would split differently."""
    j, t = ctx.split
    len_joints = 16 * j if 16 * j <= size else size - size % 16
    rest = size - len_joints
    len_things = THING_SIZE * t if THING_SIZE * t <= rest else rest - rest % THING_SIZE
    if len_joints != 16 * len(section.joints) or len_things != len(section.things):
        raise WriteError(
            at,
            f"Built says J = {j}, T = {t}, but this Base State holds {len(section.joints)} joint records and "
            f"{len(section.things)} bytes of things: it would read back split differently "
            "(set Built.num_joints / num_base_state_things to None to derive them)",
        )


def _check_sample_elem_split(section: SampleElem, ctx: _Context, at: str, size: int) -> None:
    """The parser splits Sample Elem by Built's element counts when they fit, else as ALERT
    does (ksy sample_elem); refuse a model it would split differently."""
    n, pad, m = sample_elem_split(size, ctx.elems)
    if (n, pad, m) != (len(section.codes), len(section.padding), len(section.large_codes)):
        raise WriteError(
            at,
            f"Built says {ctx.elems} (small, large) elements, but this Sample Elem holds "
            f"{len(section.codes)} and {len(section.large_codes)} with {len(section.padding)} padding bytes: it would "
            "read back split differently (set Built.num_elems / num_large_elems to None to derive them)",
        )


def _trigger(out: _Out, section: TriggerData, at: str) -> None:
    out.int(U2, section.num_jsons, f"{at}.num_jsons")
    out.int(U2, section.num_things, f"{at}.num_things")
    jsons = section.jsons
    if not isinstance(jsons, (bytes, bytearray)):
        raise WriteError(f"{at}.jsons", "expected bytes")
    len_jsons = len(jsons) if section.len_jsons is None else section.len_jsons
    out.int(U4, len_jsons, f"{at}.len_jsons")
    out.int(U4, section.unk1, f"{at}.unk1")
    out.int(U4, section.unk2, f"{at}.unk2")
    out.raw(jsons, f"{at}.jsons")
    for i, record in enumerate(section.records):
        for name, kind in _TRIGGER_KINDS.items():
            out.int(kind, getattr(record, name), f"{at}.records[{i}].{name}")
    _short_tail(section.trailing, 16, f"{at}.trailing", "16-byte record")
    out.raw(section.trailing, f"{at}.trailing")
    # ksy: the region is len_jsons cut to the payload; records fill the rest.
    if min(len_jsons, len(out.buf) - 16) != len(jsons):
        raise WriteError(f"{at}.len_jsons", f"{len_jsons} does not match the {len(jsons)} bytes of jsons (None derives it)")


# ---------------------------------------------------------------------------- the file


def payloads(model: AnimclipFile) -> list[bytes]:
    """Every section's payload, in table order (derived counts filled in)."""
    ctx = _Context(model)
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
            raise WriteError("magic", f"a bare DAT1's type is its type_id ({model.type_id:08X}); found {model.magic:08X}")
    else:
        if len(unk) < STG_HEADER.size or bytes(unk[:4]) != STG_MAGIC:
            raise WriteError("header_unk", "an STG wrapper starts with the 16-byte STG\\0 header")
        len_asset = int.from_bytes(unk[8:12], "little")
        if len_asset < STG_ASSET_HEADER.size or stg_wrapper_size(len_asset) != len(unk):
            raise WriteError(
                "header_unk", f"{len(unk)} bytes do not hold an STG header with a {len_asset}-byte asset header "
                f"(it needs at least {STG_ASSET_HEADER.size}, padded to a multiple of 16)",
            )
        if unk[STG_TYPE_AT : STG_TYPE_AT + 4] != bytes(4) or unk[STG_SIZE_AT : STG_SIZE_AT + 4] != bytes(4):
            raise WriteError("header_unk", "the type (offset 16) and size (offset 24) slots must be zero; the writer fills them")


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
    out = _Out()
    out.int(U4, model.magic, "magic")
    out.int(U4, len_dat1, "outer_len_dat1")
    out.raw(bytes(model.header_unk), "header_unk")
    return out.getvalue()


def _tables(model: AnimclipFile, placement: Placement, section_payloads: list[bytes]) -> bytes:
    out = _Out()
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
