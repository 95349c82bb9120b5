"""glTF's declaration in the format registry (animspec.formats): detection only. animspec
converts from and to glTF (animspec.convert) and reads rigs from it (animspec.rigs), but does
not validate or pack it, so it declares a Format rather than a FileFormat (``info`` and
``dump`` summarise it through :mod:`.info`).

Also the two file forms a written glTF takes, chosen by the output's extension as every
glTF tool does: ``.gltf`` is the JSON document with its one buffer embedded as a base64
``data:`` URI (one file, readable as text), anything else (``.glb``) the binary container.
"""

from __future__ import annotations

import base64
import os

from ..formats import Format
from .document import GLB_MAGIC, document_from_json, looks_like_gltf, parse_glb

FORMAT = Format(name="gltf", description="glTF 2.0 (GLB or .gltf JSON)", detect=looks_like_gltf)

JSON_EXTENSION = ".gltf"
BINARY_EXTENSION = ".glb"


def is_json_name(path: str) -> bool:
    """Whether a glTF written to ``path`` is the JSON form (a ``.gltf`` name)."""
    return os.path.splitext(path)[1].lower() == JSON_EXTENSION


def embedded_json(glb: bytes) -> bytes:
    """The ``.gltf`` JSON form of a GLB: the same document, its BIN chunk as the first
    buffer's base64 data: URI (glTF 2.0 spec 3.6.1.1)."""
    gltf = parse_glb(glb, "<GLB>")
    blob = bytes(gltf.binary_blob() or b"")
    if gltf.buffers:
        gltf.buffers[0].uri = "data:application/octet-stream;base64," + base64.b64encode(blob).decode("ascii")
    gltf.set_binary_blob(None)
    return gltf.gltf_to_json(separators=(",", ":"), indent=None).encode("utf-8") + b"\n"


def file_bytes(glb: bytes, path: str) -> bytes:
    """What to write at ``path`` for the GLB ``glb``: JSON for a ``.gltf`` name, else the GLB."""
    return embedded_json(glb) if is_json_name(path) else glb


def read_back(data: bytes, path: str) -> None:
    """Check that written glTF bytes (either form) read back as a glTF document."""
    if data[:4] == GLB_MAGIC:
        parse_glb(data, path)
    else:
        document_from_json(data, path)
