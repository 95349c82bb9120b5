"""ANIMBIN model <-> JSON document (``animspec dump --json`` and ``animspec pack``).

Values are the raw integers of the file (FP12 quaternion components, 20.12 translations,
vsync frames), so ``pack(dump(f))`` gives back ``f`` byte for byte. Fields needed only for
byte exactness (``name_tail``: bytes after a name's terminator, ``trailing``: bytes after the
last animation) appear only when they are not empty.
"""

from __future__ import annotations

import re
from typing import Any

from ..common.jsonpath import JsonNode, json_path_of
from .model import (
    Animation,
    AnimbinFile,
    Key,
    KeyType,
    Marker,
    Name,
    RotationKey,
    Track,
    TranslationKey,
    UnknownKey,
)

FORMAT = "animbin"

_A, _T, _K = r"animations\[(\d+)\]", r"tracks\[(\d+)\]", r"keys\[(\d+)\]"
_JSON_PATHS = [
    (r"num_animations", "$.animations"),
    (rf"{_A}\.num_tracks", r"$.animations[\1].tracks"),
    (rf"{_A}\.num_markers", r"$.animations[\1].markers"),
    (rf"{_A}\.{_T}\.track_type", r"$.animations[\1].tracks[\2].type"),
    (rf"{_A}\.{_T}\.num_keys", r"$.animations[\1].tracks[\2].keys"),
]
"""Writer field -> dump path, where the two differ (the rest are the same below ``$``)."""


def json_path(field: str, doc: Any = None) -> str:
    """The JSON path, in the dump ``doc``, of the value the writer names ``field``. The
    writer calls a key's components ``value.w`` .. ``value.z`` (the spec's names); the dump
    lists them as ``rotation[0..3]`` (w, x, y, z) or ``translation[0..2]`` (x, y, z)."""
    key = re.fullmatch(rf"({_A}\.{_T}\.{_K})\.value\.([wxyz])", field)
    if key:
        a, t, k, axis = int(key[2]), int(key[3]), int(key[4]), key[5]
        try:
            rotation = "translation" not in doc["animations"][a]["tracks"][t]["keys"][k]
        except (KeyError, IndexError, TypeError):
            rotation = True
        member, axes = ("rotation", "wxyz") if rotation else ("translation", "xyz")
        return f"$.{key[1]}.{member}[{axes.index(axis)}]"
    return json_path_of(field, _JSON_PATHS)


def to_json(model: AnimbinFile) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": model.version,
        "animations": [_animation(a) for a in model.animations],
    }
    if model.trailing:
        doc["trailing"] = model.trailing.hex()
    return doc


def _name(name: Name, doc: dict[str, Any], key: str) -> None:
    doc[key] = str(name)
    if name.tail:
        doc[f"{key}_tail"] = name.tail.hex()


def _animation(anim: Animation) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    _name(anim.name, doc, "name")
    doc.update(flags=anim.flags, length=anim.length)
    doc["tracks"] = [
        {"type": t.track_type, "joint_id": t.joint_id, "keys": [_key(k) for k in t.keys]}
        for t in anim.tracks
    ]
    markers = []
    for m in anim.markers:
        md: dict[str, Any] = {}
        _name(m.name, md, "name")
        md["frame"] = m.frame
        markers.append(md)
    doc["markers"] = markers
    return doc


def _key(key: Key) -> dict[str, Any]:
    if isinstance(key, RotationKey):
        return {"frame": key.frame, "key_type": int(KeyType.ROTATION), "rotation": list(key.quaternion)}
    if isinstance(key, TranslationKey):
        return {"frame": key.frame, "key_type": int(KeyType.TRANSLATION), "translation": list(key.vector)}
    return {"frame": key.frame, "key_type": key.key_type}


def from_json(doc: Any, source: str | None = None) -> AnimbinFile:
    """The model described by a dump; raises JsonInputError with the JSON path of a bad value."""
    root = JsonNode(doc, "$", source)
    if root["format"].str() != FORMAT:
        raise root["format"].error(f'expected "{FORMAT}"')
    return AnimbinFile(
        version=root["version"].int(),
        animations=[_read_animation(a) for a in root["animations"].items()],
        trailing=root["trailing"].hex_bytes() if root.has("trailing") else b"",
    )


def _read_name(node: JsonNode, key: str) -> Name:
    text = node[key]
    try:
        raw = text.str().encode("latin-1")
    except UnicodeEncodeError:
        raise text.error("names are bytes: only characters U+0000..U+00FF can be stored") from None
    tail = node[f"{key}_tail"].hex_bytes() if node.has(f"{key}_tail") else b""
    return Name(raw, tail)


def _read_animation(node: JsonNode) -> Animation:
    return Animation(
        name=_read_name(node, "name"),
        flags=node["flags"].int(),
        length=node["length"].int(),
        tracks=[
            Track(
                track_type=t["type"].int(),
                joint_id=t["joint_id"].int(),
                keys=[_read_key(k) for k in t["keys"].items()],
            )
            for t in node["tracks"].items()
        ],
        markers=[Marker(_read_name(m, "name"), m["frame"].int()) for m in node["markers"].items()],
    )


def _read_key(node: JsonNode) -> Key:
    frame = node["frame"].int()
    key_type = node["key_type"].int()
    if key_type == KeyType.ROTATION:
        w, x, y, z = node["rotation"].ints(4)
        return RotationKey(frame, w, x, y, z)
    if key_type == KeyType.TRANSLATION:
        x, y, z = node["translation"].ints(3)
        return TranslationKey(frame, x, y, z)
    return UnknownKey(frame, key_type)
