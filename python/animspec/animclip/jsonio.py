"""The .animclip model <-> a JSON document (``animspec dump --json`` / ``animspec pack``).

The document has two views::

    {"format": "animclip",
     "clip": {"name", "name_hash", "name_hash_ok", "fps", "duration", "frames",
              "joints": [{"index", "hash", "name"?, "rotation": [x, y, z, w], "translation": [x, y, z]}],
              "custom_tracks": [{"name", "hash", "values"}],
              "triggers": [{"a", "b", "c", "d", "e"}]?, "path": {"start", "end"}?},
     "raw": {"magic", "header_unk", "container"?, "type_id", "strings", "unknowns",
             "sections": [{"tag", "section", "offset", "size", ...fields...}], "layout"?}}

``raw`` holds every byte of the file: packing uses it. ``clip`` is the decoded view
(dequantised, names resolved). When packing, these ``clip`` members are HONOURED, each only
if present and different from what ``raw`` decodes to, and then applied on top of ``raw``
as an edit:

* ``clip.name`` - the clip name (appended to the strings block, Built's offset and CRC32 updated);
* ``clip.fps``, ``clip.duration`` - Built +0x0C / +0x10;
* ``clip.custom_tracks[i].values`` - any length; Custom Track Data is rebuilt (16-byte aligned
  blocks), the entry's offset and count follow;
* ``clip.custom_tracks[i].name`` - appended, the entry's name offset and hash updated;
* ``clip.triggers`` - the records of the (last) Trigger Data section (add, drop, change);
* ``clip.path`` - the matrices of the (last) Path section;
* ``clip.joints[i].rotation`` / ``translation`` - the joint's base-state value: every frame of
  the joint moves by the same offset (a turn for a rotation) and the frames are encoded again
  (:mod:`.frames.edit`; the model's ``reencoded`` holds the encoding and its error).

Every other ``clip`` member (hashes, frames, name_hash_ok) is what ``raw`` decodes to: one that
differs both from that and from what the packed file holds is refused by its JSON path, never
dropped (a joint's ``name`` must hash to the joint: it is a label). When ``raw`` itself was
edited (its content no longer the recorded ``layout``'s digest), every ``clip`` member must be
what ``raw`` decodes to, or pack cannot tell which edit is meant and refuses; to pack purely
from ``raw``, delete ``clip``. The number of custom tracks or joints cannot change through
``clip`` (edit ``raw.sections``).

In ``raw``: tags and hashes are 8-digit hex strings; bulk arrays are base64 of their
little-endian bytes; short byte runs are hex; f32 values are JSON numbers (the shortest
decimal that reads back to the same f32), "inf", "-inf", "nan" or "nan:XXXXXXXX" (the bit
pattern of any other NaN). A Built count that is ``null`` is derived from its section when
packing. ``offset`` and ``layout`` describe where things were; they are honoured only while
the content is unchanged (see animclip.write). While it is, ``section``, ``size``, the offsets
and ``layout`` must be what the file is (an edit of them alone would change nothing: refused
by path); after an edit of the content they are informative. A section
without ``offset`` is new and goes last. An entry whose payload is an earlier entry's (table
entries naming one payload, which the reader reads once) holds ``"payload_of": i`` instead
of the payload's members: entry ``i``'s payload, under this entry's own tag and offset, so a
table of 65,535 entries on one payload is dumped once, not 65,535 times (docs/hardening.md).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np

from ..common.errors import AnimspecError, JsonInputError, WriteError
from ..common.hashes import crc32
from ..common.jsonpath import JsonNode, json_path_of
from .compression import Compression
from .frames.edit import JointEdit, edit_joints
from .model import AnimclipFile, Layout, UnknownEntry, mark_derived
from .placement import is_unedited, payload_sizes
from .sections import TYPED_SECTIONS, Path, RawSection, Section, section_type
from .sections.trigger_data import read_record, record_json
from .sections.values import b64, f32_json, f32_list, hex32, read_f32, read_f32_array, read_u32
from .tags import CONTAINER_ASSET, CONTAINERS, TAG_PATH, section_name
from .write import check_writable, exact_bytes, payloads

FORMAT = "animclip"

_JSON_PATHS = [
    (r"num_sections", "$.raw.sections"),
    (r"num_unknowns", "$.raw.unknowns"),
    (r"(.+)", r"$.raw.\1"),
]
"""Writer field -> dump path: everything the writer checks comes from ``raw``."""


def json_path(field: str, doc: Any = None) -> str:
    """The JSON path, in a dump, of the value the writer names ``field``."""
    return json_path_of(field, _JSON_PATHS)

# ---------------------------------------------------------------------------- to JSON


def to_json(model: AnimclipFile, joint_names: Any = None) -> dict[str, Any]:
    """The document for ``model``. ``joint_names`` (names or hash -> name) labels joints."""
    return {"format": FORMAT, "clip": _clip(model, joint_names), "raw": _raw(model)}


def _clip(model: AnimclipFile, joint_names: Any) -> dict[str, Any]:
    view = model.clip(joint_names)
    joints = []
    for j in view.joints:
        jd: dict[str, Any] = {"index": j.index, "hash": None if j.hash is None else hex32(j.hash)}
        if j.name is not None:
            jd["name"] = j.name
        if j.rotation is not None and j.translation is not None:
            jd["rotation"] = [float(v) for v in j.rotation]
            jd["translation"] = [float(v) for v in j.translation]
        joints.append(jd)
    doc: dict[str, Any] = {
        "name": view.name,
        "name_hash": None if view.name_hash is None else hex32(view.name_hash),
        "name_hash_ok": view.name_hash_ok,
        "fps": None if view.fps is None else f32_json(view.fps),
        "duration": None if view.duration is None else f32_json(view.duration),
        "frames": view.num_frames,
        "joints": joints,
        "custom_tracks": [
            {"name": t.name, "hash": hex32(t.hash), "values": f32_list(t.values)} for t in view.custom_tracks
        ],
    }
    if view.triggers is not None:
        doc["triggers"] = [record_json(r) for r in view.triggers.records]
    if view.path is not None:
        doc["path"] = {
            "start": [f32_list(row) for row in np.asarray(view.path.start_matrix, "<f4")],
            "end": [f32_list(row) for row in np.asarray(view.path.end_matrix, "<f4")],
        }
    return doc


def _strings(strings: bytes, doc: dict[str, Any]) -> None:
    pieces = strings.split(b"\0")
    last = pieces.pop()  # after the final NUL: empty unless the block is unterminated
    doc["strings"] = [p.decode("utf-8", "surrogateescape") for p in pieces]
    if last:
        doc["strings_unterminated"] = last.decode("utf-8", "surrogateescape")


def _raw(model: AnimclipFile) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "magic": hex32(model.magic),
        "header_unk": bytes(model.header_unk).hex(),
        "type_id": hex32(model.type_id),
    }
    if model.container != CONTAINER_ASSET:
        doc["container"] = model.container
    _strings(bytes(model.strings), doc)
    doc["unknowns"] = [[u.ofs_source, u.ofs_target] for u in model.unknowns]
    check_writable(model)  # a model the writer refuses is not dumped: its sizes would mean nothing
    sizes = payload_sizes(model)
    doc["sections"] = _sections(model.sections, sizes)
    if model.layout is not None:
        doc["layout"] = _layout(model.layout)
    return doc


def _payload_key(s: Section) -> int:
    """What entries naming one payload share when read (animclip.reading.sections_of_table):
    the Section object, and for raw sections of any tag its bytes object."""
    return id(s.data) if type(s) is RawSection else id(s)


def _sections(sections: list[Section], sizes: list[int]) -> list[dict[str, Any]]:
    first: dict[int, int] = {}
    out = []
    for i, (s, size) in enumerate(zip(sections, sizes)):
        j = first.setdefault(_payload_key(s), i)
        out.append(_entry_head(s, size) | {"payload_of": j} if j != i else _section(s, size))
    return out


def _entry_head(s: Section, size: int) -> dict[str, Any]:
    return {"tag": hex32(s.tag), "section": section_name(s.tag), "offset": s.offset, "size": size}


def _section(s: Section, size: int) -> dict[str, Any]:
    return _entry_head(s, size) | s.to_json()  # each section type's members (.sections)


def _layout(layout: Layout) -> dict[str, Any]:
    d: dict[str, Any] = {
        "outer_len_dat1": layout.outer_len_dat1,
        "dat1_len": layout.dat1_len,
        "dat1_size": layout.dat1_size,
        "fill": [[off, data.hex()] for off, data in layout.fill],
        "content_sha256": layout.digest(),
    }
    if layout.verbatim:
        d["verbatim"] = {str(i): b64(data) for i, data in sorted(layout.verbatim.items())}
    if layout.compression is not None:
        d["lz4"] = {"magic_offset": layout.compression.magic_offset, "block": b64(layout.compression.compressed)}
    return d


# ---------------------------------------------------------------------------- from JSON


def from_json(doc: Any, source: str | None = None) -> AnimclipFile:
    """The model a dump describes (module doc); JsonInputError names any bad value."""
    root = JsonNode(doc, "$", source)
    if root["format"].str() != FORMAT:
        raise root["format"].error(f'expected "{FORMAT}"')
    raw = root["raw"]
    header_unk = raw["header_unk"].hex_bytes()
    container = raw["container"].str() if raw.has("container") else CONTAINER_ASSET
    if container not in CONTAINERS:
        raise raw["container"].error(f"expected one of {', '.join(CONTAINERS)}")
    if container == CONTAINER_ASSET and len(header_unk) != 28:
        raise raw["header_unk"].error(f"expected 28 bytes, found {len(header_unk)}")
    model = AnimclipFile(
        container=container,
        magic=read_u32(raw["magic"]),
        header_unk=header_unk,
        type_id=read_u32(raw["type_id"]),
        sections=_read_sections(raw["sections"]),
        unknowns=[_read_unknown(n) for n in raw["unknowns"].items()],
        strings=_read_strings(raw),
    )
    mark_derived(model)
    if raw.has("layout") and raw["layout"].value is not None:
        model.layout = _read_layout(raw["layout"])
    section_payloads = _recorded_payloads(model, raw)
    raw_edited = section_payloads is not None and not is_unedited(model, section_payloads)
    if section_payloads is not None and not raw_edited:
        _check_recorded(model, raw, section_payloads)
    if root.has("clip") and root["clip"].value is not None:
        _apply_clip(model, root["clip"], raw_edited)
    return model


def _check_recorded(model: AnimclipFile, raw: JsonNode, section_payloads: list[bytes]) -> None:
    """``raw`` unedited (its payloads ``section_payloads``): what it says of where things were
    (each entry's ``section`` name and ``size``, the offsets and ``layout``) must be what the
    file is, or an edit of them would change nothing; refused by path."""
    for entry, section, size in zip(raw["sections"].items(), model.sections, payload_sizes(model)):
        if entry.has("section") and entry["section"].value != section_name(section.tag):
            raise entry["section"].error(f"the name of tag {section.tag:08X} is {section_name(section.tag)!r}: a "
                                         "section's name follows its tag (edit tag to change the section)")
        if entry.has("size") and entry["size"].value != size:
            raise entry["size"].error(f"the payload is {size} bytes: size follows the payload and cannot be set")
    layout, node = model.layout, raw["layout"]
    assert layout is not None
    u32 = range(0x1_0000_0000)
    for key in ("outer_len_dat1", "dat1_len", "dat1_size"):
        if getattr(layout, key) not in u32:
            raise node[key].error(f"{getattr(layout, key)} is not a size a file has (0 to {u32.stop - 1})")
    inside = range(layout.dat1_size + 1)  # (an empty payload may sit at the very end)
    for i, (offset, _) in enumerate(layout.fill):
        if offset not in inside:
            raise JsonNode(offset, f"{node.path}.fill[{i}][0]", raw.source).error(
                f"{offset} is not in the DAT1 ({layout.dat1_size} bytes)")
    for entry, section in zip(raw["sections"].items(), model.sections):
        if section.offset is not None and section.offset not in inside:
            raise entry["offset"].error(f"{section.offset} is not in the DAT1 ({layout.dat1_size} bytes)")
    if exact_bytes(model, section_payloads) is None:
        raise raw["layout"].error("the recorded layout (its sizes and fill, and the sections' offsets) does not "
                                  "place this content as the file was: pack cannot apply it; delete raw.layout to "
                                  "lay the file out afresh")


def _string_bytes(node: JsonNode) -> bytes:
    """A dumped string's bytes: UTF-8, with the dump's escapes (U+DC80..U+DCFF) of bytes
    that are not UTF-8 turned back into those bytes."""
    try:
        return node.str().encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise node.error(f"character {exc.object[exc.start]!r} cannot be stored (a lone surrogate)") from None


def _read_strings(raw: JsonNode) -> bytes:
    out = bytearray()
    for node in raw["strings"].items():
        text = _string_bytes(node)
        if b"\0" in text:
            raise node.error("a string cannot contain NUL (each string is NUL-terminated)")
        out += text + b"\0"
    if raw.has("strings_unterminated"):
        out += _string_bytes(raw["strings_unterminated"])
    return bytes(out)


def _read_unknown(node: JsonNode) -> UnknownEntry:
    items = list(node.items())
    if len(items) != 2:
        raise node.error("expected [ofs_source, ofs_target]")
    return UnknownEntry(read_u32(items[0]), read_u32(items[1]))


def _read_sections(node: JsonNode) -> list[Section]:
    sections: list[Section] = []
    for entry in node.items():
        sections.append(_shared_payload(entry, sections) if entry.has("payload_of") else _read_section(entry))
    return sections


def _entry_tag_offset(node: JsonNode) -> tuple[int, int | None]:
    offset = node.get("offset").value
    if offset is not None and (isinstance(offset, bool) or not isinstance(offset, int)):
        raise node["offset"].error("expected an integer or null")
    return read_u32(node["tag"]), offset


def _shared_payload(node: JsonNode, earlier: list[Section]) -> Section:
    """An entry holding ``payload_of`` (module doc): the earlier entry's Section itself when
    tag and offset are its own (as the reader shares it), a raw section on its bytes under
    another tag; anything else is refused (give the payload's members instead)."""
    tag, offset = _entry_tag_offset(node)
    which = node["payload_of"]
    j = which.int()
    if not 0 <= j < len(earlier):
        raise which.error(f"expected the index of an earlier entry (0 to {len(earlier) - 1})")
    first = earlier[j]
    if tag == first.tag and offset == first.offset:
        return first
    if type(first) is RawSection and tag not in TYPED_SECTIONS:
        section = RawSection(tag, first.data)
        section.offset = offset
        return section
    raise which.error(f"entry {j} is a {section_name(first.tag)} section at offset {first.offset}; only an entry of "
                      "the same tag and offset, or raw sections of any tag, can share its payload: give the payload's "
                      "members instead")


def _read_section(node: JsonNode) -> Section:
    tag, offset = _entry_tag_offset(node)
    section = section_type(tag).from_json(tag, node)  # each section type's members (.sections)
    section.offset = offset
    return section


def _sha256(node: JsonNode) -> str:
    """The recorded content digest: 64 hex digits (pack tells an edit of raw by it)."""
    text = node.str()
    if not re.fullmatch(r"[0-9a-f]{64}", text):
        raise node.error("expected the SHA-256 the dump recorded (64 lowercase hex digits): it tells pack whether "
                         "raw was edited; delete raw.layout to lay the file out afresh")
    return text


def _read_layout(node: JsonNode) -> Layout:
    fill = []
    for item in node["fill"].items():
        pair = list(item.items())
        if len(pair) != 2:
            raise item.error("expected [offset, hex bytes]")
        fill.append((pair[0].int(), pair[1].hex_bytes()))
    verbatim = {}
    if node.has("verbatim"):
        for key, value in node["verbatim"].obj().items():
            child = JsonNode(value, f"{node.path}.verbatim.{key}", node.source)
            if not key.isdigit():
                raise child.error("keys are section-table indices")
            verbatim[int(key)] = child.base64_bytes()
    compression = None
    if node.has("lz4"):
        lz = node["lz4"]
        compression = Compression(lz["magic_offset"].int(), lz["block"].base64_bytes())
    return Layout(
        outer_len_dat1=node["outer_len_dat1"].int(),
        dat1_len=node["dat1_len"].int(),
        dat1_size=node["dat1_size"].int(),
        fill=fill,
        content_digest=_sha256(node["content_sha256"]),
        verbatim=verbatim,
        compression=compression,
    )


def _apply_clip(model: AnimclipFile, clip: JsonNode, raw_edited: bool) -> None:
    """Apply the honoured decoded members that differ from what ``raw`` decodes to, then
    refuse any other member that differs both from what ``raw`` decodes to and from what
    the packed file will hold (:func:`_refuse_unapplied`): no edit is dropped in silence."""
    view = model.clip()
    before = _clip(model, None)
    if clip.value == before:  # (an unedited dump: nothing to apply or refuse)
        return
    if raw_edited:
        # Both may differ from the file read: which edit is meant cannot be told.
        _refuse_unapplied(clip, before, before, conflict=True)
        return
    try:
        _apply_joints(model, clip, view)
        _apply_clip_members(model, clip, view)
        _apply_path(model, clip)
    except JsonEdit as exc:
        raise exc.node.error(exc.reason) from None
    _refuse_unapplied(clip, before, _clip(model, None))


_APPLIED_APPROXIMATELY = re.compile(r"^\$\.clip\.joints\[\d+\]\.(rotation|translation)(\[\d+\])?$")
"""Members an edit applies through the encoder: the file holds them within its error."""


def _recorded_payloads(model: AnimclipFile, raw: JsonNode) -> list[bytes] | None:
    """The payloads of ``raw``'s sections when the dump records a layout (pack tells an edit
    of ``raw`` by their digest, and checks the layout against them), else None."""
    if model.layout is None:
        return None
    try:
        return payloads(model)
    except WriteError as exc:  # a raw value that does not fit: where the user wrote it
        raise JsonInputError(raw.source, json_path(exc.field), exc.reason) from None


def _refuse_unapplied(given: JsonNode, before: Any, after: Any, *, conflict: bool = False) -> None:
    """Refuse, by its JSON path, a member of ``given`` (the dump's ``clip``) that is neither
    what ``raw`` decodes to (``before``: not edited) nor what the packed file holds (``after``:
    applied); a joint's label ``name`` must hash to its joint. ``conflict``: ``raw`` was
    edited too, so every member must be what ``raw`` decodes to."""
    value = given.value
    if value is None:  # (null: not given; a null that would remove a name is refused where names apply)
        return
    if value == after or value == before or (not conflict and _APPLIED_APPROXIMATELY.match(given.path)):
        return
    if isinstance(value, dict) and isinstance(after, dict):
        for key in value:
            child = given[key]
            if key == "name" and re.match(r"^\$\.clip\.joints\[\d+\]$", given.path):
                _check_joint_label(child, after.get("hash"))
            elif key not in after:
                raise child.error(f'"{key}" is not a member of a dump\'s clip: pack cannot apply it (delete it)')
            else:
                _refuse_unapplied(child, _at(before, key), after[key], conflict=conflict)
        return
    if isinstance(value, list) and isinstance(after, list) and len(value) == len(after):
        for i, child in enumerate(given.items()):
            _refuse_unapplied(child, _at(before, i), after[i], conflict=conflict)
        return
    if conflict:
        raise given.error(f"differs from what raw gives ({json.dumps(after)}), and raw was edited too: pack cannot "
                          "tell which edit to apply; make them agree, or delete clip to pack raw as it is")
    what = "is decoded from raw and cannot be set here" if before == after else "is not what the packed file holds"
    raise given.error(f"{what} (the file gives {json.dumps(after)}): pack cannot apply this edit; "
                      "edit raw.sections, or give the value the file holds")


def _at(parent: Any, key: Any) -> Any:
    try:
        return parent[key]
    except (KeyError, IndexError, TypeError):
        return None


def _check_joint_label(node: JsonNode, hash_text: Any) -> None:
    """A joint's ``name`` is a label (from --joint-names), kept in no file: it must be a name
    whose DAT1 hash is the joint's, else it would be an edit nothing applies."""
    name = node.str()
    if hash_text is None or f"{crc32(name):08X}" != hash_text:
        raise node.error(f"{name!r} hashes to {crc32(name):08X}, not the joint's hash {hash_text}: a joint's name is "
                         "a label of its hash, kept in no file (to rename a joint, edit its hash in raw.sections)")


def _apply_joints(model: AnimclipFile, clip: JsonNode, view: Any) -> None:
    """Edited base-state values of ``clip.joints`` applied to every frame and encoded again
    (:mod:`.frames.edit`); the encoding is kept on the model (``reencoded``)."""
    if not clip.has("joints"):
        return
    nodes = list(clip["joints"].items())
    if len(nodes) != len(view.joints):
        raise JsonEdit(clip["joints"], f"lists {len(nodes)} joints but the raw view has {len(view.joints)}; "
                                       "joints cannot be added or removed through clip (edit raw.sections)")
    edits = {}
    where: list[JsonNode] = []  # (the members edited: an edit that cannot be encoded names the first)
    for node, joint in zip(nodes, view.joints):
        new = {}
        for key, size in (("rotation", 4), ("translation", 3)):
            if not node.has(key) or getattr(joint, key) is None:
                continue
            items = list(node[key].items())
            if len(items) != size:
                raise JsonEdit(node[key], f"expected {size} numbers, found {len(items)}")
            values = np.array([_number(item) for item in items])
            if key == "rotation" and not np.linalg.norm(values) > 0:
                raise JsonEdit(node[key], "a rotation quaternion cannot be all zero")
            old = np.array([float(v) for v in getattr(joint, key)])
            changed = np.flatnonzero(values != old)
            if changed.size:
                new[key], new[f"old_{key}"] = values, old
                where.append(items[int(changed[0])] if changed.size == 1 else node[key])
        if new:
            edits[joint.index] = JointEdit(**new)
    if edits:
        try:
            edited, encoded = edit_joints(model, edits)
        except (AnimspecError, ValueError) as exc:  # (frames that do not decode, values the encoder refuses)
            raise JsonEdit(where[0], f"the edit cannot be applied: {exc}") from None
        model.sections, model.layout, model.reencoded = edited.sections, None, encoded


def _number(node: JsonNode) -> float:
    """A JSON number as the dump wrote it (a float64 view value, not an f32 field)."""
    if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
        raise JsonEdit(node, "expected a number")
    try:
        value = float(node.value)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        raise JsonEdit(node, f"{str(node.value)[:12]}... is not a finite number: a joint's value must be one")
    return value


def _apply_path(model: AnimclipFile, clip: JsonNode) -> None:
    """An edited ``clip.path``: its matrices written to the (last) Path section."""
    if not clip.has("path") or clip["path"].value is None:
        return
    path = model.section(TAG_PATH)
    if not isinstance(path, Path):
        raise JsonEdit(clip["path"], "the clip has no Anim Clip Path section to hold it")
    for key in ("start", "end"):
        node = clip["path"][key]
        rows = [read_f32_array(row) for row in node.items()]
        if len(rows) != 4 or any(r.shape != (4,) for r in rows):
            raise JsonEdit(node, "expected a 4 x 4 matrix (four rows of four numbers)")
        matrix = np.array(rows, "<f4")
        attr = f"{key}_matrix"
        if matrix.tobytes() != np.asarray(getattr(path, attr), "<f4").tobytes():
            setattr(path, attr, matrix)


class JsonEdit(AnimspecError):
    def __init__(self, node: JsonNode, reason: str):
        super().__init__(reason)
        self.node, self.reason = node, reason


def _edit(node: JsonNode, action: Any, *args: Any) -> None:
    try:
        action(*args)
    except ValueError as exc:
        raise JsonEdit(node, str(exc)) from None


def _apply_clip_members(model: AnimclipFile, clip: JsonNode, view: Any) -> None:
    if clip.has("name") and clip["name"].value is not None:
        name = clip["name"].str()
        if name != view.name:
            _edit(clip["name"], model.set_clip_name, name)
    elif clip.has("name") and view.name is not None:
        raise JsonEdit(clip["name"], f"null would remove the name {view.name!r}; a name can be changed, not removed")
    for key in ("fps", "duration"):
        if clip.has(key) and clip[key].value is not None:
            value = float(read_f32(clip[key]))
            built = model.built
            if built is None:
                raise JsonEdit(clip[key], "the clip has no Anim Clip Built section to hold it")
            if np.float32(value).tobytes() != np.float32(getattr(built, key)).tobytes():
                # An edit must make sense (raw.sections keeps whatever a file really holds).
                if not np.isfinite(value) or (key == "fps" and value <= 0) or value < 0:
                    need = "a positive number" if key == "fps" else "a number of seconds, 0 or more"
                    raise JsonEdit(clip[key], f"{clip[key].value!r} is not a clip {key}: expected {need}")
                setattr(built, key, value)
    if clip.has("custom_tracks"):
        items = list(clip["custom_tracks"].items())
        if len(items) != len(view.custom_tracks):
            raise JsonEdit(
                clip["custom_tracks"],
                f"lists {len(items)} tracks but the raw view has {len(view.custom_tracks)}; "
                "add or remove tracks in raw.sections",
            )
        changes = {}
        for i, (node, track) in enumerate(zip(items, view.custom_tracks)):
            if node.has("name") and node["name"].value is not None:
                name = node["name"].str()
                if name != track.name:
                    _edit(node["name"], model.rename_custom_track, i, name)
            elif node.has("name") and track.name is not None:
                raise JsonEdit(
                    node["name"], f"null would remove the track name {track.name!r}; a name can be changed, not removed"
                )
            if node.has("values"):
                values = read_f32_array(node["values"])
                if values.tobytes() != track.values.tobytes():
                    changes[i] = values
        if changes:
            _edit(clip["custom_tracks"], model.set_all_custom_track_values, changes)
    if clip.has("triggers") and clip["triggers"].value is not None:
        records = [read_record(r) for r in clip["triggers"].items()]
        if view.triggers is None:
            raise JsonEdit(clip["triggers"], "the clip has no Trigger Data section to hold records")
        if records != view.triggers.records:
            model.set_trigger_records(records)
