"""Serialise the .animclip model to bytes: the inverse of ksy/animclip.ksy.

Two ways out, chosen per file:

* **Exact** - the model still has the content it was read with (its :class:`Layout`'s
  ``content_digest`` matches :func:`content_digest` of the model now). The DAT1 is rebuilt
  from the recorded layout: table in its original order, payloads at their original
  offsets, the original padding and trailing bytes, the declared sizes as they were (stale
  ones included); an LZ4 file gets its original compressed block back. ``write(read(b)) == b``
  for every ``b`` the parser accepts.
* **Re-laid out** (spec 4.6) - anything was edited, or there is no layout (a model built in
  memory), or the recorded layout no longer tiles the DAT1 consistently. Header, then the
  section table sorted by ascending tag, the unknowns table (its COUNT in the header, not
  ALERT's byte length), the strings block (appended strings included, so strings-relative
  offsets stay valid), then the payloads in ascending order of their recorded offsets (new
  sections last), each starting on a 16-byte boundary (DAT1-relative) with zero padding.
  DAT1 size = end of the last payload; the outer size is written after layout. The body is
  written uncompressed (ALERT never re-compresses either).

Built counts that are None in the model are derived here (``model.DERIVED_COUNTS``).

Every value is range-checked against its field first; a model the parser would read back
differently (a Base State the Built counts would split otherwise, trailing bytes long enough
to form another record) raises :class:`WriteError` naming the field.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any, Callable

import lz4.block
import numpy as np

from ..common.errors import WriteError
from .model import (
    BUILT_FIELDS,
    CUSTOM_TRACK_FIELDS,
    DERIVED_COUNTS,
    JOINT_DTYPE,
    JOINT_FIELDS,
    PAD_TO,
    THING_SIZE,
    TRIGGER_FIELDS,
    TYPED_SECTIONS,
    AnimclipFile,
    ASSET_MAGICS,
    BaseState,
    Built,
    CustomTrackData,
    CustomTracks,
    JointHashes,
    Layout,
    Path,
    RawSection,
    SampleElem,
    Section,
    TriggerData,
    TriggerJointNames,
    derived_counts,
    split_strings_region,
)

DAT1_MAGIC = b"1TAD"
OUTER_HEADER_UNK_SIZE = 28
BUILT_SIZE = 96

# Field widths from ksy/animclip.ksy: (struct format, low, high).
_U1 = ("<B", 0, 0xFF)
_U2 = ("<H", 0, 0xFFFF)
_U4 = ("<I", 0, 0xFFFF_FFFF)
_S2 = ("<h", -0x8000, 0x7FFF)

_BUILT_KINDS: dict[str, Any] = {name: _U2 for name in BUILT_FIELDS}
_BUILT_KINDS.update(ofs_name=_U4, name_hash=_U4, fps="f4", duration="f4")
_JOINT_KINDS = dict(zip(JOINT_FIELDS, [_S2] * 7 + [_U1] * 2))
_TRIGGER_KINDS = dict(zip(TRIGGER_FIELDS, (_U4, _U4, _U2, _U2, _U4)))


class _Out:
    """A growing buffer that range-checks every value before packing it."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def int(self, kind: tuple[str, int, int], value: Any, field: str) -> None:
        self.buf += pack_int(kind, value, field)

    def f32(self, value: Any, field: str) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
            raise WriteError(field, f"{value!r} is not a number")
        try:
            self.buf += struct.pack("<f", float(value))
        except OverflowError:
            raise WriteError(field, f"{value!r} does not fit a 32-bit float") from None

    def raw(self, data: Any, field: str) -> None:
        if not isinstance(data, (bytes, bytearray)):
            raise WriteError(field, f"expected bytes, found {type(data).__name__}")
        self.buf += data


def pack_int(kind: tuple[str, int, int], value: Any, field: str) -> bytes:
    fmt, low, high = kind
    if isinstance(value, np.integer):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise WriteError(field, f"{value!r} is not an integer")
    if not low <= value <= high:
        raise WriteError(field, f"{value} does not fit ({low}..{high})")
    return struct.pack(fmt, value)


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
        out.raw(_int_array(section.hashes, "<u4", _U4, f"{at}.hashes"), f"{at}.hashes")
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
                out.int(_U4, getattr(entry, name), f"{at}.entries[{i}].{name}")
        _short_tail(section.trailing, 40, f"{at}.trailing", "40-byte entry")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, CustomTrackData):
        out.raw(_f32_array(section.values, f"{at}.values"), f"{at}.values")
        _short_tail(section.trailing, 4, f"{at}.trailing", "value")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, SampleElem):
        values = _int_array(section.values, "<u4", _U4, f"{at}.values")
        ndx = _int_array(section.ndx, "u1", _U1, f"{at}.ndx")
        if len(ndx) * 4 != len(values):
            raise WriteError(f"{at}.ndx", f"{len(ndx)} ndx bytes for {len(values) // 4} values; they pair up")
        _short_tail(section.padding, 5, f"{at}.padding", "element")
        out.raw(values + ndx, f"{at}.values")
        out.raw(section.padding, f"{at}.padding")
    elif isinstance(section, TriggerData):
        _trigger(out, section, at)
    elif isinstance(section, TriggerJointNames):
        for i, h in enumerate(section.hashes):
            out.int(_U4, h, f"{at}.hashes[{i}]")
        _short_tail(section.trailing, 4, f"{at}.trailing", "hash")
        out.raw(section.trailing, f"{at}.trailing")
    elif isinstance(section, RawSection):
        pack_int(_U4, section.tag, f"{at}.tag")
        if section.tag in TYPED_SECTIONS:
            cls = TYPED_SECTIONS[section.tag].__name__
            raise WriteError(f"{at}.tag", f"tag {section.tag:08X} is read as {cls}; use that class, not RawSection")
        out.raw(section.data, f"{at}.data")
    else:
        raise WriteError(at, f"{type(section).__name__} is not a section")
    return bytes(out.buf)


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


def _trigger(out: _Out, section: TriggerData, at: str) -> None:
    out.int(_U2, section.num_jsons, f"{at}.num_jsons")
    out.int(_U2, section.num_things, f"{at}.num_things")
    jsons = section.jsons
    if not isinstance(jsons, (bytes, bytearray)):
        raise WriteError(f"{at}.jsons", "expected bytes")
    len_jsons = len(jsons) if section.len_jsons is None else section.len_jsons
    out.int(_U4, len_jsons, f"{at}.len_jsons")
    out.int(_U4, section.unk1, f"{at}.unk1")
    out.int(_U4, section.unk2, f"{at}.unk2")
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


def content_digest(model: AnimclipFile, section_payloads: list[bytes]) -> str:
    """SHA-256 of the content: outer magic and unknown bytes, type id, unknowns, strings,
    and every (tag, payload) in table order. Offsets, sizes and padding are not included."""
    return content_snapshot(model, section_payloads)()


def content_snapshot(model: AnimclipFile, section_payloads: list[bytes]) -> Callable[[], str]:
    """What :func:`content_digest` hashes, captured now (immutable copies and references),
    hashed when called: edits made to the model after this do not change the result."""
    head = struct.pack("<QQQ", model.magic, model.type_id, len(model.header_unk)) + bytes(model.header_unk)
    unknowns = [(u.ofs_source, u.ofs_target) for u in model.unknowns]
    strings = bytes(model.strings)
    tagged = [(s.tag, p) for s, p in zip(model.sections, section_payloads)]

    def digest() -> str:
        h = hashlib.sha256(b"animspec animclip content v1\0")
        h.update(head)
        h.update(struct.pack("<Q", len(unknowns)))
        for source, target in unknowns:
            h.update(struct.pack("<QQ", source, target))
        h.update(struct.pack("<Q", len(strings)))
        h.update(strings)
        for tag, p in tagged:
            h.update(struct.pack("<QQ", tag, len(p)))
            h.update(p)
        return h.hexdigest()

    return digest


def _check_file(model: AnimclipFile) -> None:
    pack_int(_U4, model.magic, "magic")
    if model.magic not in ASSET_MAGICS:
        known = ", ".join(f"{m:08X}" for m in ASSET_MAGICS)
        raise WriteError("magic", f"{model.magic:08X} is not an animclip magic ({known}); the parser rejects it")
    if not isinstance(model.header_unk, (bytes, bytearray)) or len(model.header_unk) != OUTER_HEADER_UNK_SIZE:
        raise WriteError("header_unk", f"needs exactly {OUTER_HEADER_UNK_SIZE} bytes")
    pack_int(_U4, model.type_id, "type_id")
    if len(model.sections) > 0xFFFF:
        raise WriteError("num_sections", f"{len(model.sections)} sections; the count field holds at most 65535")
    if len(model.unknowns) > 0xFFFF:
        raise WriteError("num_unknowns", f"{len(model.unknowns)} entries; the count field holds at most 65535")
    for i, u in enumerate(model.unknowns):
        pack_int(_U4, u.ofs_source, f"unknowns[{i}].ofs_source")
        pack_int(_U4, u.ofs_target, f"unknowns[{i}].ofs_target")
    if not isinstance(model.strings, (bytes, bytearray)):
        raise WriteError("strings", "expected bytes")
    for piece in bytes(model.strings).split(b"\0"):
        try:
            piece.decode("utf-8")
        except UnicodeDecodeError:
            raise WriteError("strings", f"{piece!r} is not UTF-8; the parser decodes every string as UTF-8") from None


def write_bytes(model: AnimclipFile) -> bytes:
    """The file bytes of ``model``: exact when unedited, re-laid out otherwise (module doc)."""
    _check_file(model)
    section_payloads = payloads(model)
    layout = model.layout
    if layout is not None and layout.digest() == content_digest(model, section_payloads):
        exact = _exact(model, section_payloads, layout)
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
    return (
        model.layout.digest() == content_digest(model, section_payloads)
        and _exact(model, section_payloads, model.layout) is not None
    )


def _outer(model: AnimclipFile, len_dat1: int) -> bytes:
    return (
        pack_int(_U4, model.magic, "magic")
        + pack_int(_U4, len_dat1, "outer_len_dat1")
        + bytes(model.header_unk)
    )


def _tables(model: AnimclipFile, order: list[int], offsets: list[int], section_payloads: list[bytes], len_dat1: int) -> bytes:
    out = _Out()
    out.buf += DAT1_MAGIC
    out.int(_U4, model.type_id, "type_id")
    out.int(_U4, len_dat1, "len_dat1")
    out.int(_U2, len(model.sections), "num_sections")
    out.int(_U2, len(model.unknowns), "num_unknowns")  # the count (ALERT wrongly writes 8*U)
    for i in order:
        out.int(_U4, model.sections[i].tag, f"sections[{i}].tag")
        out.int(_U4, offsets[i], f"sections[{i}].offset")
        out.int(_U4, len(section_payloads[i]), f"sections[{i}].size")
    for i, u in enumerate(model.unknowns):
        out.int(_U4, u.ofs_source, f"unknowns[{i}].ofs_source")
        out.int(_U4, u.ofs_target, f"unknowns[{i}].ofs_target")
    return bytes(out.buf)


def _relaid(model: AnimclipFile, section_payloads: list[bytes]) -> bytes:
    n = len(model.sections)
    strings = bytes(model.strings)
    if strings and not strings.endswith(b"\0"):
        strings += b"\0"  # otherwise the last string would run into the padding or a payload
    strings = split_strings_region(strings)[0]
    pos = 16 + 12 * n + 8 * len(model.unknowns) + len(strings)
    offsets = [0] * n
    for i in model.layout_order():
        pos = -(-pos // PAD_TO) * PAD_TO
        offsets[i] = pos
        pos += len(section_payloads[i])
    if pos > 0xFFFF_FFFF:
        raise WriteError("len_dat1", f"the DAT1 would be {pos} bytes; sizes are 32-bit")
    table_order = sorted(range(n), key=lambda i: model.sections[i].tag)  # stable for equal tags
    out = bytearray(_tables(model, table_order, offsets, section_payloads, pos))
    out += strings
    for i in model.layout_order():
        out += bytes(offsets[i] - len(out))
        out += section_payloads[i]
    return _outer(model, len(out)) + bytes(out)


def _exact(model: AnimclipFile, section_payloads: list[bytes], layout: Layout) -> bytes | None:
    """The file as recorded in ``layout``, or None when the layout cannot hold this content
    (a hand-edited or inconsistent layout): the caller then re-lays out."""
    offsets = [s.offset for s in model.sections]
    size = layout.dat1_size
    if any(o is None for o in offsets) or not 0 <= size <= 0xFFFF_FFFF:
        return None
    pieces: list[tuple[int, bytes]] = []
    try:
        n = len(model.sections)
        pieces.append((0, _tables(model, list(range(n)), offsets, section_payloads, layout.dat1_len)))  # type: ignore[arg-type]
        outer = _outer(model, layout.outer_len_dat1)
    except WriteError:
        return None
    pieces.append((16 + 12 * n + 8 * len(model.unknowns), bytes(model.strings)))
    for i, (off, payload) in enumerate(zip(offsets, section_payloads)):
        original = layout.verbatim.get(i, payload)
        pieces.append((off, original if len(original) == len(payload) else payload))  # type: ignore[arg-type]
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
