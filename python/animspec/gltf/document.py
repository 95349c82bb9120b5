"""A glTF 2.0 document in and out: the GLB container read and written, the JSON with every
member animspec uses checked before pygltflib sees it, and buffer data.

pygltflib holds the document (its dataclasses and JSON serialisation); the container on
both sides is here: :func:`parse_glb` / :func:`load_path` read, :func:`write_glb` writes
(one layout, the constants shared), :func:`copy_gltf` and :func:`flatten_buffers` prepare a
read document for new data (:mod:`.builder` adds it).

pygltflib trusts its input: a chunk length past the data, a string where an index belongs,
a missing BIN chunk or a bad data URI escape as struct.error, AttributeError, TypeError or
binascii.Error from deep inside it, and an external buffer URI is read whole whatever its
size. Here every such problem is one :class:`GltfError` naming the byte offset (container)
or the JSON path (``$.animations[0].channels[2].sampler``) and the reason. Checked: the
members the converters read (buffers, bufferViews, accessors, nodes, skins, animations),
by type, index range and finiteness (glTF 2.0 specification, section 5, "Properties
Reference"); everything else is left to pygltflib, whose failures are caught too.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import math
import os
import re
import struct
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from pygltflib import GLTF2, Buffer

from ..common.errors import AnimspecError
from ..common.inputs import MAX_INPUT_BYTES, InputError, read_input, read_within

GLB_MAGIC = b"glTF"
GLB_VERSION = 2
CHUNK_JSON = b"JSON"
CHUNK_BIN = b"BIN\0"
GLB_ALIGNMENT = 4
"""Chunks start, and bufferViews of one GLB buffer are laid out, on this boundary (spec 4.4
"Binary glTF Layout"; pygltflib asks more only for EXT_structural_metadata, see
:func:`alignment`)."""

COMPONENT_SIZES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


class GltfError(AnimspecError):
    """A glTF asset cannot be used: missing data, a malformed accessor, no such skin."""


# --------------------------------------------------------------------------- container


def looks_like_gltf(head: bytes) -> bool:
    """True when ``head``, a file's first bytes, starts a GLB (its "glTF" magic) or glTF JSON.

    JSON has no magic, so its head is read as far as it goes: after an optional UTF-8 BOM
    and whitespace, a JSON object whose top-level member names, as far as the head reaches
    (at least one), are all glTF's (glTF 2.0 specification, section 5.17 "glTF": asset,
    accessors, nodes...), and that has the required "asset" if the whole object fits in
    ``head``. A JSON dump ({"format": ...}) or a markers file is no glTF.
    """
    if head[:4] == GLB_MAGIC:
        return True
    members = {
        "accessors", "animations", "asset", "buffers", "bufferViews", "cameras", "extensions",
        "extensionsRequired", "extensionsUsed", "extras", "images", "materials", "meshes", "nodes",
        "samplers", "scene", "scenes", "skins", "textures",
    }
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    decoder = json.JSONDecoder()
    blank = " \t\r\n"
    pos = len(text) - len(text.lstrip(blank))
    if not text.startswith("{", pos):
        return False
    pos += 1
    seen: set[str] = set()
    while True:
        pos += len(text[pos:]) - len(text[pos:].lstrip(blank))
        if text.startswith("}", pos):
            return bool(seen) and "asset" in seen  # the whole object: it must have "asset"
        if not text.startswith('"', pos):
            break  # the head ends here (or this is not JSON: nothing more to learn)
        try:
            key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]  # public, not in typeshed
        except ValueError:
            break
        if key not in members:
            return False
        seen.add(key)
        pos += len(text[pos:]) - len(text[pos:].lstrip(blank))
        if not text.startswith(":", pos):
            break
        pos += 1
        pos += len(text[pos:]) - len(text[pos:].lstrip(blank))
        try:
            _, pos = decoder.raw_decode(text, pos)
        except (ValueError, RecursionError):
            break  # a value running past the head
        pos += len(text[pos:]) - len(text[pos:].lstrip(blank))
        if text.startswith(",", pos):
            pos += 1
        elif not text.startswith("}", pos):
            break
    return bool(seen)


def parse_glb(data: bytes, name: str = "<bytes>") -> GLTF2:
    """The document of a GLB file (spec 4.4 "Binary glTF Layout"); GltfError with the byte
    offset for a bad header or chunk."""
    def fail(offset: int, reason: str) -> GltfError:
        return GltfError(f"{name}: byte {offset}: {reason}")

    if len(data) < 12 or data[:4] != GLB_MAGIC:
        raise fail(0, "not a GLB file (no 12-byte header with the 'glTF' magic)")
    version, length = struct.unpack_from("<II", data, 4)
    if version != GLB_VERSION:
        raise fail(4, f"GLB version {version}; only version 2 exists")
    if length > len(data):
        raise fail(8, f"the header says {length} bytes, the file has {len(data)}")
    pos, text, blob = 12, None, None
    while pos < length:
        if pos + 8 > length:
            raise fail(pos, f"a chunk header needs 8 bytes, {length - pos} remain")
        size, kind = struct.unpack_from("<I4s", data, pos)
        if size > length - pos - 8:
            raise fail(pos, f"chunk of {size} bytes runs past the end ({length - pos - 8} remain)")
        body = data[pos + 8 : pos + 8 + size]
        if kind == CHUNK_JSON:
            if pos != 12:
                raise fail(pos, "the JSON chunk must be the first chunk, and come once")
            text = body
        elif kind == CHUNK_BIN:
            if text is None or blob is not None:
                raise fail(pos, "a BIN chunk must follow the JSON chunk, and come at most once")
            blob = body
        elif pos == 12:
            raise fail(pos, f"the first chunk must be JSON, not {kind!r}")
        # Other chunk types are extensions: ignored, as the spec asks of a reader.
        pos += 8 + size
    if text is None:
        raise fail(12, "no JSON chunk")
    gltf = document_from_json(text, name)
    if blob is not None:
        gltf.set_binary_blob(blob)
    gltf._animspec_has_bin = blob is not None  # type: ignore[attr-defined]  # animspec's note (no GLTF2 field)
    return gltf


def document_from_json(text: bytes | str, name: str = "<json>", folder: Path | None = None) -> GLTF2:
    """A checked document from glTF JSON; ``folder`` resolves external buffer URIs."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError, too deep, too long
        raise GltfError(f"{name}: the glTF JSON cannot be read: {exc}") from None
    check_json(doc, name)
    try:
        with warnings.catch_warnings():
            # infer_missing=True makes dataclasses_json fill every absent member with None,
            # which is what an optional glTF member means; it also warns on stderr for each
            # one pygltflib's dataclasses type without Optional (the top-level `scene`, an
            # accessor without bufferView, ...). Those are legal glTF, not problems: silenced
            # here, where the document is loaded, and nowhere else.
            warnings.filterwarnings("ignore", message="Missing value of non-optional type", category=RuntimeWarning)
            # from_dict is added by pygltflib's @dataclass_json decorator, which mypy does not run.
            gltf: GLTF2 = GLTF2.from_dict(doc, infer_missing=True)  # type: ignore[attr-defined]
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError, RecursionError) as exc:
        # A member animspec does not use (materials, meshes, ...) that pygltflib cannot take.
        raise GltfError(f"{name}: not a glTF document pygltflib can hold: {type(exc).__name__}: {exc}") from None
    if folder is not None:
        gltf._path = folder
        gltf._name = name
    # What animspec learnt while loading, kept on the document it describes (GLTF2 declares none).
    gltf._animspec_has_bin = False  # type: ignore[attr-defined]
    gltf._animspec_opaque_views = _names_buffer_data(doc)  # type: ignore[attr-defined]
    return gltf


# --------------------------------------------------------------------------- JSON members


class _Json:
    """A JSON value and its path, for messages."""

    def __init__(self, value: Any, path: str, name: str):
        self.value, self.path, self.name = value, path, name

    def fail(self, reason: str) -> GltfError:
        return GltfError(f"{self.name}: {self.path}: {reason}")

    def get(self, key: str) -> _Json:
        return _Json(self.value.get(key), f"{self.path}.{key}", self.name)

    def items(self, key: str) -> list[_Json]:
        """The elements of the optional array member ``key`` (each must be an object)."""
        node = self.get(key)
        if node.value is None:
            if key in self.value:
                raise node.fail("expected an array, found null")
            return []
        if not isinstance(node.value, list):
            raise node.fail("expected an array")
        out = [_Json(v, f"{node.path}[{i}]", self.name) for i, v in enumerate(node.value)]
        for item in out:
            if not isinstance(item.value, dict):
                raise item.fail("expected an object")
        return out

    def index(self, count: int, what: str, *, required: bool) -> None:
        v = self.value
        if v is None and not required:
            return
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"expected an index into {what}, found {_kind(v)}")
        if not 0 <= v < count:
            raise self.fail(f"{v} is not an index into {what} (there are {count})")

    def integer(self, low: int, high: int | None = None, *, required: bool = False) -> None:
        v = self.value
        if v is None and not required:
            return
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"expected an integer, found {_kind(v)}")
        if v < low or (high is not None and v > high):
            raise self.fail(f"{v} is out of range ({low}..{'' if high is None else high})")

    def string(self) -> None:
        if self.value is not None and not isinstance(self.value, str):
            raise self.fail(f"expected a string, found {_kind(self.value)}")

    def numbers(self, count: int) -> None:
        v = self.value
        if v is None:
            return
        if not isinstance(v, list) or len(v) != count:
            raise self.fail(f"expected an array of {count} numbers")
        for x in v:
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not _finite(x):
                shown = f"an integer of {x.bit_length()} bits" if isinstance(x, int) else repr(x)
                raise self.fail(f"expected {count} finite numbers, found {shown}")


def _finite(x: int | float) -> bool:
    """A JSON number that is a finite float: an integer of 400 digits is not (math.isfinite
    would raise OverflowError on it)."""
    return abs(x) < 2.0**1023 if isinstance(x, int) else math.isfinite(x)


def _file_uri(uri: _Json) -> None:
    """A buffer's or image's URI is a data: URI or a plain relative path in the folder
    (:func:`external_file`), checked when the document is read, whether or not the data is
    used: a document that names a file outside its folder is refused by every command."""
    if isinstance(uri.value, str) and not uri.value.startswith("data:"):
        external_file(uri.value, f"{uri.name}: {uri.path}")


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "an array", dict: "an object"}.get(type(value), type(value).__name__)


def check_json(doc: Any, name: str = "<json>") -> None:
    """Check every member the converters read; GltfError with its JSON path otherwise."""
    root = _Json(doc, "$", name)
    if not isinstance(doc, dict):
        raise root.fail("expected an object")
    for key, value in doc.items():
        if value is None:  # pygltflib would keep None where its users expect a list
            raise root.get(key).fail("expected a value, found null")
    buffers = root.items("buffers")
    views = root.items("bufferViews")
    accessors = root.items("accessors")
    nodes = root.items("nodes")
    for b in buffers:
        b.get("uri").string()
        b.get("byteLength").integer(0, required=True)
        _file_uri(b.get("uri"))
    for image in root.items("images"):
        image.get("uri").string()
        _file_uri(image.get("uri"))
    for v in views:
        v.get("buffer").index(len(buffers), "buffers", required=True)
        v.get("byteOffset").integer(0)
        v.get("byteLength").integer(1, required=True)
        v.get("byteStride").integer(4, 252)
    for a in accessors:
        a.get("bufferView").index(len(views), "bufferViews", required=False)
        a.get("byteOffset").integer(0)
        a.get("count").integer(1, required=True)
        kind = a.get("componentType")
        if type(kind.value) is not int or kind.value not in COMPONENT_SIZES:
            raise kind.fail(f"expected one of {sorted(COMPONENT_SIZES)}, found {kind.value!r}")
        kind = a.get("type")
        if type(kind.value) is not str or kind.value not in WIDTHS:
            raise kind.fail(f"expected one of {', '.join(WIDTHS)}, found {kind.value!r}")
        if not isinstance(a.get("normalized").value, (bool, type(None))):
            raise a.get("normalized").fail("expected a boolean")
    for n in nodes:
        n.get("name").string()
        children = n.get("children")
        if children.value is not None:
            if not isinstance(children.value, list):
                raise children.fail("expected an array of node indices")
            for i, c in enumerate(children.value):
                _Json(c, f"{children.path}[{i}]", name).index(len(nodes), "nodes", required=True)
        n.get("matrix").numbers(16)
        n.get("translation").numbers(3)
        n.get("rotation").numbers(4)
        n.get("scale").numbers(3)
    scenes = root.items("scenes")
    root.get("scene").index(len(scenes), "scenes", required=False)
    for scene in scenes:
        listed = scene.get("nodes")
        if listed.value is not None:
            if not isinstance(listed.value, list):
                raise listed.fail("expected an array of node indices")
            for i, n in enumerate(listed.value):
                _Json(n, f"{listed.path}[{i}]", name).index(len(nodes), "nodes", required=True)
    for s in root.items("skins"):
        joints = s.get("joints")
        if not isinstance(joints.value, list):
            raise joints.fail("expected an array of node indices")
        for i, j in enumerate(joints.value):
            _Json(j, f"{joints.path}[{i}]", name).index(len(nodes), "nodes", required=True)
    for anim in root.items("animations"):
        anim.get("name").string()
        samplers = anim.items("samplers")
        for s in samplers:
            s.get("input").index(len(accessors), "accessors", required=True)
            s.get("output").index(len(accessors), "accessors", required=True)
            s.get("interpolation").string()
        for c in anim.items("channels"):
            c.get("sampler").index(len(samplers), f"{anim.path}.samplers", required=True)
            target = c.get("target")
            if not isinstance(target.value, dict):
                raise target.fail("expected an object")
            target.get("node").index(len(nodes), "nodes", required=False)
            target.get("path").string()
            if target.get("path").value is None:
                raise target.get("path").fail("missing")


# --------------------------------------------------------------------------- buffer data


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
"""The start of an absolute URI (RFC 3986 section 3.1: a scheme and a colon); also matches a
Windows drive letter ("C:")."""


def external_file(uri: str, what: str) -> str:
    """The relative file path a buffer's or image's ``uri`` names, percent-decoded, when it
    is a plain relative reference (RFC 3986 section 4.2, "relative-path reference"): no
    scheme (``data:`` is handled before), no absolute path, no ``..`` segment, no query or
    fragment, no backslash, drive letter or NUL, before or after decoding. GltfError naming
    ``what`` (``buffer 3``) and the URI otherwise.

    Stricter than glTF and its tools, on purpose: glTF 2.0 (section 3.3 "URIs") allows any
    URI, and Khronos' UriTest sample asset points at parent folders; the Khronos validator
    only warns (NON_RELATIVE_URI) on a scheme, authority or absolute path
    (KhronosGroup/glTF-Validator, lib/src/utils.dart ``isNonRelativeUri``) and leaves the
    reading to its caller; Blender's importer joins the unquoted URI to the file's folder
    and reads whatever that names, ``..`` and absolute paths included
    (KhronosGroup/glTF-Blender-IO, addons/io_scene_gltf2/io/imp/gltf2_io_gltf.py
    ``load_uri``). animspec copies a rig's buffers into the GLB it writes, so a path leaving
    the folder would copy another file (a key, ``/proc/self/environ``) into an output that
    is then shared; a rig's own files sit next to it.
    """
    def refuse(reason: str) -> GltfError:
        return GltfError(f"{what}: uri {uri!r}: {reason}; only a relative path to a file in the glTF's own folder is "
                         "read")

    if _SCHEME.match(uri):
        raise refuse(f"a URI with a scheme ({uri.split(':', 1)[0]}:) is not read")
    if "?" in uri or "#" in uri:
        raise refuse("a URI with a query or fragment is not a file path")
    try:
        path = unquote(uri, errors="strict")
    except UnicodeDecodeError:
        raise refuse("a percent-escape that is not UTF-8") from None
    for text in (uri, path):
        if "\\" in text or "\0" in text:
            raise refuse("a backslash or NUL in a URI")
        if text.startswith("/") or _SCHEME.match(text) or os.path.isabs(text):
            raise refuse("an absolute path")
        if ".." in text.split("/"):
            raise refuse("a '..' segment leaves the folder")
    if not path or path.endswith("/"):
        raise refuse("no file name")
    try:
        os.fsencode(path)
    except UnicodeError:  # a lone surrogate (JSON "\ud800"): no file can have that name
        raise refuse("a character no file name can hold") from None
    return path


def read_external(gltf: GLTF2, uri: str, what: str, size: int | None) -> bytes:
    """The bytes of the file ``uri`` next to the document (see :func:`external_file`):
    exactly ``size`` first bytes, or the whole file; read like any input (regular files only,
    never blocking, at most 1 GiB) and only from inside the document's folder."""
    folder = getattr(gltf, "_path", None)
    if folder is None:
        raise GltfError(f"{what}: uri {uri!r}: an external file, but the glTF was not read from a folder")
    path = external_file(uri, what)
    if size is not None and size > MAX_INPUT_BYTES:
        raise GltfError(
            f"{what}: uri {uri!r}: byteLength {size} is more than the {MAX_INPUT_BYTES} bytes (1 GiB) animspec reads"
        )
    try:
        return read_within(folder, path, size=size)
    except InputError as exc:
        raise GltfError(f"{what}: uri {uri!r}: {exc}") from None


def buffer_bytes(gltf: GLTF2, index: int, cache: dict[int, bytes]) -> bytes:
    """The bytes of buffer ``index``: the GLB's BIN chunk, a data: URI, or a file in the
    .gltf's folder (:func:`read_external`). Exactly the buffer's byteLength is kept, and
    fewer is an error. A buffer is read only when something reads one of its views (so a
    buffer nothing uses costs nothing); the bytes read are recorded on the document
    (:func:`buffers_read`), which is what the accessor budget is counted on."""
    if index in cache:
        return cache[index]
    if not 0 <= index < len(gltf.buffers):
        raise GltfError(f"buffer {index} does not exist")
    buffer = gltf.buffers[index]
    length = int(buffer.byteLength or 0)
    uri = buffer.uri
    what = f"buffer {index}"
    source = getattr(gltf, "_source", None) or getattr(gltf, "_name", None)
    if source:
        what = f"{source}: {what}"
    if uri is None:
        if index != 0 or not getattr(gltf, "_animspec_has_bin", bool(gltf.binary_blob())):
            raise GltfError(f"{what} has no uri and is not the GLB's BIN chunk (there is none)")
        data = gltf.binary_blob() or b""
    elif uri.startswith("data:"):
        head, sep, payload = uri.partition(",")
        if not sep or not head.endswith(";base64"):
            raise GltfError(f"{what}: a data: URI must be base64 ('data:...;base64,...')")
        try:
            data = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            raise GltfError(f"{what}: the data: URI is not valid base64") from None
    else:
        data = read_external(gltf, uri, what, length)
    if len(data) < length:
        raise GltfError(f"{what}: byteLength is {length}, the data has {len(data)} bytes")
    cache[index] = bytes(data[:length]) if len(data) != length or not isinstance(data, bytes) else data
    sizes = buffers_read(gltf)
    sizes.setdefault(index, length)
    return cache[index]


def buffers_read(gltf: GLTF2) -> dict[int, int]:
    """Buffer index -> bytes, for every buffer of ``gltf`` read so far (by any reader)."""
    sizes = getattr(gltf, "_animspec_buffers_read", None)
    if sizes is None:
        sizes = {}
        gltf._animspec_buffers_read = sizes  # type: ignore[attr-defined]  # animspec's note (no GLTF2 field)
    return sizes


def view_bytes(gltf: GLTF2, view_index: int, cache: dict[int, bytes]) -> memoryview:
    """The bytes of bufferView ``view_index`` (checked to lie within its buffer; a view,
    not a copy)."""
    if not 0 <= view_index < len(gltf.bufferViews):
        raise GltfError(f"bufferView {view_index} does not exist")
    view = gltf.bufferViews[view_index]
    data = buffer_bytes(gltf, view.buffer, cache)
    start, length = int(view.byteOffset or 0), int(view.byteLength)
    if start + length > len(data):
        raise GltfError(
            f"bufferView {view_index}: [{start}, {start + length}) lies past the end of buffer "
            f"{view.buffer} ({len(data)} bytes)"
        )
    return memoryview(data)[start : start + length]


def alignment(gltf: GLTF2) -> int:
    """The chunk and bufferView alignment of ``gltf``'s GLB: :data:`GLB_ALIGNMENT`, or more
    where an extension asks it (pygltflib's ``required_alignment``, kept so a document it
    would write 8-aligned is written 8-aligned here)."""
    return max(GLB_ALIGNMENT, int(gltf.required_alignment()))


def views_in_use(gltf: GLTF2) -> list[int]:
    """The bufferViews something reads: an accessor (its own view, or a sparse accessor's
    indices and values) or an image. When an extension names a view or buffer
    (``_animspec_opaque_views``, set from the JSON; e.g. KHR_draco_mesh_compression), every
    view counts as used, since what an unknown extension reads cannot be told."""
    if getattr(gltf, "_animspec_opaque_views", False):
        return list(range(len(gltf.bufferViews)))
    used: set[Any] = set()
    for accessor in gltf.accessors:
        used.add(accessor.bufferView)
        sparse = accessor.sparse
        if sparse is not None:
            used.add(getattr(sparse.indices, "bufferView", None))
            used.add(getattr(sparse.values, "bufferView", None))
    for image in gltf.images or []:
        used.add(image.bufferView)
    used.discard(None)
    for index in used:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(gltf.bufferViews):
            raise GltfError(f"bufferView {index!r} is named but does not exist (there are {len(gltf.bufferViews)})")
    return sorted(used)


def flatten_buffers(gltf: GLTF2) -> bytes:
    """The bytes of every bufferView in use (:func:`views_in_use`) copied into one blob (each
    view aligned, in view order), the views pointed at it and renumbered; for adding data to
    a rig read from a .gltf/.glb and writing one GLB. A view nothing reads is dropped, so a
    buffer only it names is never read."""
    cache: dict[int, bytes] = {}
    step = alignment(gltf)
    blob = bytearray()
    kept: list[Any] = []
    renumber: dict[int, int] = {}
    for i in views_in_use(gltf):
        view = gltf.bufferViews[i]
        data = view_bytes(gltf, i, cache)
        blob += bytes(-len(blob) % step)
        view.buffer, view.byteOffset = 0, len(blob)
        blob += data
        renumber[i] = len(kept)
        kept.append(view)
    if len(kept) != len(gltf.bufferViews):
        gltf.bufferViews = kept
        for accessor in gltf.accessors:
            if accessor.bufferView is not None:
                accessor.bufferView = renumber[accessor.bufferView]
            sparse = accessor.sparse
            if sparse is not None:
                for part in (sparse.indices, sparse.values):
                    if getattr(part, "bufferView", None) is not None:
                        part.bufferView = renumber[part.bufferView]
        for image in gltf.images or []:
            if image.bufferView is not None:
                image.bufferView = renumber[image.bufferView]
    return bytes(blob)


def _names_buffer_data(doc: dict[str, Any]) -> bool:
    """True when an ``extensions`` object anywhere in the glTF JSON names a bufferView or a
    buffer (what :func:`views_in_use` cannot see through). One pass over the JSON."""
    stack: list[tuple[Any, bool]] = [(doc, False)]
    while stack:
        value, in_extension = stack.pop()
        if isinstance(value, dict):
            if in_extension and ("bufferView" in value or "buffer" in value):
                return True
            stack.extend((v, in_extension or k == "extensions") for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, in_extension) for v in value)
    return False


def copy_gltf(gltf: GLTF2) -> GLTF2:
    """A deep copy that keeps the GLB binary chunk and the file location (for external buffers)."""
    twin = copy.deepcopy(gltf)
    twin.set_binary_blob(gltf.binary_blob())
    for attr in ("_path", "_animspec_has_bin"):
        if hasattr(gltf, attr):
            setattr(twin, attr, getattr(gltf, attr))
    return twin


def load_path(path: str | os.PathLike[str]) -> GLTF2:
    """The checked document of a .glb or .gltf file (told apart by the 'glTF' magic)."""
    path = Path(path)
    data = read_input(path)  # regular files only, at most 1 GiB (InputError otherwise)
    if data[:4] == GLB_MAGIC:
        gltf = parse_glb(data, str(path))
    else:
        gltf = document_from_json(data, str(path))
    gltf._path = path.parent
    gltf._name = path.name
    gltf._source = str(path)  # type: ignore[attr-defined]  # where it was read, for messages (GLTF2 has no field)
    return gltf


# --------------------------------------------------------------------------- writing


def _non_finite_member(gltf: GLTF2) -> str:
    """The JSON path of the first NaN or infinite number of ``gltf`` (a rig's member animspec
    does not read, such as a material's or node's ``extras``, kept and written back)."""
    from pygltflib import gltf_asdict

    stack: list[tuple[Any, str]] = [(gltf_asdict(gltf), "$")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, f"{path}.{k}") for k, v in reversed(list(value.items())))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, float) and not math.isfinite(value):
            return path
    return "$"


def write_glb(gltf: GLTF2) -> bytes:
    """The GLB file of a document whose data is all in its binary blob, laid out as
    :mod:`.builder` leaves it (every bufferView in buffer 0, in view order, aligned).

    The layout is :func:`parse_glb`'s: a 12-byte header (magic, version, total length), the
    JSON chunk padded with spaces, then the BIN chunk, which is optional (spec 4.4.3.3): a
    document with no bufferView is written without one and without buffers, since a buffer
    of byteLength 0 is invalid (the Khronos validator rejects it). The JSON is pygltflib's
    (compact separators), so the bytes are the ones its ``save_to_bytes`` gives for such a
    document. ``gltf.buffers`` is set to the one buffer written (or none).
    """
    if gltf.bufferViews:
        step = alignment(gltf)
        blob = bytes(gltf.binary_blob() or b"")
        blob += bytes(-len(blob) % step)
        gltf.buffers = [Buffer(byteLength=len(blob))]
    else:
        step, blob = GLB_ALIGNMENT, None
        gltf.buffers = []
    try:
        text = gltf.gltf_to_json(separators=(",", ":"), indent=None).encode("utf-8")
    except ValueError:  # "Out of range float values are not JSON compliant": say where
        raise GltfError(f"{_non_finite_member(gltf)}: NaN or infinity, which glTF (JSON) cannot hold") from None
    # The BIN data (after its 8-byte chunk header) starts aligned: pad the JSON so.
    text += b" " * (-(12 + len(text)) % step)
    chunks = [struct.pack("<I4s", len(text), CHUNK_JSON), text]
    if blob is not None:
        chunks += [struct.pack("<I4s", len(blob), CHUNK_BIN), blob]
    body = b"".join(chunks)
    return struct.pack("<4sII", GLB_MAGIC, GLB_VERSION, 12 + len(body)) + body
