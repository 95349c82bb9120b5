"""What a glTF rig needs before animspec writes it again with a clip on it (gltf/builder.py
``embed_images``, ``normalise_weights``, and the rollback of a refused animation), checked
against the glTF 2.0 specification and the Khronos validator rather than against our own
output: images kept in files beside a .gltf go into the GLB, aligned data after them stays
aligned (spec 3.6.2.4), skin weights sum to 1 (spec 3.7.3.3), and an animation refused for
its key data leaves no trace in the document.

The rigs are written here with pygltflib and ``struct``/``zlib`` (the PNG), not with animspec.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pygltflib as gl
import pytest
from pygltflib import FLOAT, GLTF2, UNSIGNED_BYTE
from test_gltf_support import khronos_report, khronos_validate

from animspec.animbin import Animation, AnimbinFile, Name, RotationKey, Track
from animspec.gltf import animbin_to_gltf_on_rig, read_rig
from animspec.gltf.builder import Channel, DocumentBuilder, KeyDataError
from animspec.gltf.document import load_path, parse_glb, write_glb
from animspec.gltf.rig import read_accessor


def png(text_bytes: int = 0) -> bytes:
    """A 1x1 grey PNG (PNG specification: signature, IHDR, IDAT, IEND), with a tEXt chunk of
    ``text_bytes`` bytes of text to give it the length a test needs."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    if text_bytes:
        out += chunk(b"tEXt", b"c\x00" + b"x" * (text_bytes - 2))
    return out + chunk(b"IDAT", zlib.compress(b"\x00\x80")) + chunk(b"IEND", b"")


def odd_png() -> bytes:
    """A PNG whose length is 1 more than a multiple of 4: the data appended after it in one
    buffer needs 3 bytes of padding to be aligned again."""
    for extra in range(3, 8):
        data = png(extra)
        if len(data) % 4 == 1:
            return data
    raise AssertionError("no PNG length found")


def rig_document(weights: list[np.ndarray], joints: list[np.ndarray], weight_type: int = FLOAT) -> GLTF2:
    """A chain of four joints, each 1 m above its parent (glTF Y-up), and a skinned mesh of
    points, one vertex per weights row, with its JOINTS_n / WEIGHTS_n sets as given
    (``weight_type`` UNSIGNED_BYTE: normalised integers). The data is in one binary blob, as a
    .glb is read."""
    gltf = GLTF2(asset=gl.Asset(generator="animspec tests", version="2.0"))
    blob = bytearray()

    def accessor(rows: np.ndarray, component: int, kind: str, bounds: bool = False) -> int:
        blob.extend(bytes(-len(blob) % 4))
        gltf.bufferViews.append(gl.BufferView(buffer=0, byteOffset=len(blob), byteLength=rows.nbytes))
        blob.extend(rows.tobytes())
        acc = gl.Accessor(bufferView=len(gltf.bufferViews) - 1, componentType=component, count=len(rows), type=kind)
        if bounds:
            acc.min = [float(v) for v in rows.min(axis=0)]
            acc.max = [float(v) for v in rows.max(axis=0)]
        gltf.accessors.append(acc)
        return len(gltf.accessors) - 1

    count = len(weights[0])
    positions = np.zeros((count, 3), "<f4")
    positions[:, 1] = np.arange(count, dtype="<f4") * 0.5
    attributes = {"POSITION": accessor(positions, FLOAT, "VEC3", bounds=True)}
    for n, (w, j) in enumerate(zip(weights, joints)):
        attributes[f"JOINTS_{n}"] = accessor(np.asarray(j, "u1"), UNSIGNED_BYTE, "VEC4")
        attributes[f"WEIGHTS_{n}"] = accessor(np.asarray(w, "<f4" if weight_type == FLOAT else "u1"), weight_type, "VEC4")
        if weight_type == UNSIGNED_BYTE:
            gltf.accessors[-1].normalized = True
    ibm = np.tile(np.eye(4, dtype="<f4"), (4, 1, 1))
    ibm[:, 3, 1] = -np.arange(4)  # column-major: the inverse of a translation i m up
    ibm_index = accessor(ibm.reshape(4, 16), FLOAT, "MAT4")
    gltf.nodes += [gl.Node(name=f"j{i}", children=[i + 1] if i < 3 else [], translation=[0.0, float(i > 0), 0.0])
                   for i in range(4)]
    gltf.nodes.append(gl.Node(name="body", mesh=0, skin=0))
    gltf.meshes.append(gl.Mesh(primitives=[gl.Primitive(attributes=gl.Attributes(**attributes), mode=0)]))
    gltf.skins.append(gl.Skin(joints=[0, 1, 2, 3], inverseBindMatrices=ibm_index))
    gltf.scenes.append(gl.Scene(nodes=[0, 4]))
    gltf.scene = 0
    blob.extend(bytes(-len(blob) % 4))
    gltf.buffers.append(gl.Buffer(byteLength=len(blob)))
    gltf.set_binary_blob(bytes(blob))
    return gltf


def nod() -> AnimbinFile:
    """One clip turning joint 1 a quarter turn about X over 10 frames."""
    s = round(4096 * 0.5**0.5)
    return AnimbinFile([Animation(Name.from_str("nod"), 10,
                                  [Track(1, [RotationKey(0, 4096, 0, 0, 0), RotationKey(9, s, s, 0, 0)])], flags=0)])


def weight_sums(gltf: GLTF2) -> np.ndarray:
    attributes = gltf.meshes[0].primitives[0].attributes
    if not isinstance(attributes, dict):
        attributes = vars(attributes)
    sets = sorted(name for name in attributes if name.startswith("WEIGHTS_") and attributes[name] is not None)
    return np.sum([read_accessor(gltf, attributes[name]).sum(axis=1) for name in sets], axis=0)


def weights_errors(report: dict) -> list[dict]:
    return [m for m in report["issues"]["messages"] if m["code"] == "ACCESSOR_WEIGHTS_NON_NORMALIZED"]


# --- skin weights ----------------------------------------------------------------------------


# Two sets (8 influences): the sum that must be 1 is over both (spec 3.7.3.3).
WEIGHTS_0 = np.array([[0.25, 0.25, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.5, 0.25, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
WEIGHTS_1 = np.array([[0.25, 0.25, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.75, 0.0, 0.0, 0.0]])
JOINTS_0 = np.array([[0, 1, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]])
JOINTS_1 = np.array([[2, 3, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]])


@pytest.mark.parametrize("form", ["as read from a file", "as built in memory"])
def test_skin_weights_that_do_not_sum_to_1_are_divided_by_their_sum(tmp_path, form):
    """Vertex 0 sums to 1 over two sets (left alone), vertex 1 to 1 in one set, vertex 2 to
    0.75 and vertex 3 to 0.75 in the second set only: those two are scaled to 1, keeping the
    ratios between their influences. The Khronos validator reports the rig as given and not
    the result. pygltflib gives a primitive's attributes as a dict when read from a file and
    as an ``Attributes`` object when built in memory: both are repaired alike."""
    gltf = rig_document([WEIGHTS_0, WEIGHTS_1], [JOINTS_0, JOINTS_1])
    if form == "as read from a file":
        gltf = parse_glb(b"".join(gltf.save_to_bytes()))
    given = weights_errors(khronos_report(b"".join(gltf.save_to_bytes()), tmp_path, "given.glb"))
    assert {m["message"].split("(")[1].split(")")[0] for m in given} == {"at indices 8..11", "at indices 12..15"}

    builder = DocumentBuilder.extending(gltf)
    assert builder.normalise_weights() == 2
    data = write_glb(builder.document())
    khronos_validate(data, tmp_path)
    back = parse_glb(data)
    np.testing.assert_allclose(weight_sums(back), 1.0, atol=1e-7)
    attributes = back.meshes[0].primitives[0].attributes
    w0, w1 = read_accessor(back, attributes["WEIGHTS_0"]), read_accessor(back, attributes["WEIGHTS_1"])
    np.testing.assert_allclose(w0, np.float32(WEIGHTS_0 / [[1.0], [1.0], [0.75], [0.75]]), rtol=1e-7)
    np.testing.assert_allclose(w1, np.float32(WEIGHTS_1 / [[1.0], [1.0], [0.75], [0.75]]), rtol=1e-7)


def test_weights_in_a_second_buffer_are_read_where_the_flattened_rig_put_them(tmp_path):
    """A .gltf may keep its data in several buffers (spec 3.6.1); the builder copies the
    views in use into one, at new offsets. Weights kept in a second buffer, behind data
    of the first, must be read back from the copy, not from the first buffer at their new
    offset: repaired to sum to 1 with their ratios kept, and the result valid."""
    weights = np.array([[0.5, 0.25, 0.0, 0.0], [0.25, 0.25, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
    gltf = rig_document([weights], [np.array([[0, 1, 0, 0], [1, 2, 0, 0], [3, 0, 0, 0]])])
    accessor = gltf.accessors[gltf.meshes[0].primitives[0].attributes.WEIGHTS_0]
    stored = np.float32(weights).tobytes()
    gltf.buffers.append(gl.Buffer(byteLength=8 + len(stored),
                                  uri="data:application/octet-stream;base64," + base64.b64encode(
                                      bytes(8) + stored).decode()))
    gltf.bufferViews.append(gl.BufferView(buffer=1, byteOffset=8, byteLength=len(stored)))
    accessor.bufferView = len(gltf.bufferViews) - 1
    builder = DocumentBuilder.extending(gltf)
    assert builder.normalise_weights() == 2
    data = write_glb(builder.document())
    khronos_validate(data, tmp_path)
    back = parse_glb(data)
    np.testing.assert_allclose(read_accessor(back, back.meshes[0].primitives[0].attributes["WEIGHTS_0"]),
                               np.float32(weights / [[0.75], [0.5], [1.0]]), rtol=1e-7)


def test_a_vertex_with_no_weight_is_left_at_zero_not_divided_by_it():
    """A vertex whose weights are all 0 has no sum to divide by: it stays 0 (NaN in the
    file would be invalid JSON and glTF), and only the others count as changed."""
    weights = np.array([[0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0]])
    builder = DocumentBuilder.extending(rig_document([weights], [np.zeros((2, 4))]))
    assert builder.normalise_weights() == 1
    back = parse_glb(write_glb(builder.document()))
    stored = read_accessor(back, back.meshes[0].primitives[0].attributes["WEIGHTS_0"])
    np.testing.assert_array_equal(stored, [[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])


def test_weights_within_a_float32_rounding_of_1_and_normalised_integers_are_kept():
    """Weights that sum to 1 as well as float32 can hold them are not rewritten (no new
    accessor), and unsigned-byte weights (normalised integers, whose sum the validator
    checks in their own units) are not touched."""
    close = np.array([[0.1, 0.2, 0.3, 0.4], [1.0, 0.0, 0.0, 0.0]])
    assert abs(float(np.float32(close[0]).astype(np.float64).sum()) - 1.0) > 0  # not exactly 1 as stored
    builder = DocumentBuilder.extending(rig_document([close], [np.zeros((2, 4))]))
    before = len(builder.gltf.accessors)
    assert builder.normalise_weights() == 0 and len(builder.gltf.accessors) == before
    bytes_weights = np.array([[128, 0, 0, 0], [255, 0, 0, 0]])
    builder = DocumentBuilder.extending(rig_document([bytes_weights], [np.zeros((2, 4))], UNSIGNED_BYTE))
    before = len(builder.gltf.accessors)
    assert builder.normalise_weights() == 0 and len(builder.gltf.accessors) == before


@pytest.mark.parametrize("second", [0.5 + 9e-7, 0.5 - 9e-7, 0.5 + 5e-7])
def test_weights_a_hair_off_1_are_normalised_as_the_validator_measures_them(tmp_path, second):
    """Sums 5e-7 and 9e-7 off 1 over two influences: the Khronos validator allows 2e-7 per
    non-zero weight of a float32 sum (4e-7 here) and reports them, so they must be
    normalised; afterwards it finds none."""
    weights = np.array([[0.5, np.float32(second), 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
    gltf = rig_document([weights], [np.array([[0, 1, 0, 0], [0, 0, 0, 0]])])
    assert weights_errors(khronos_report(b"".join(gltf.save_to_bytes()), tmp_path, "given.glb"))
    builder = DocumentBuilder.extending(gltf)
    assert builder.normalise_weights() == 1
    khronos_validate(write_glb(builder.document()), tmp_path)


def test_a_clip_on_a_rig_with_bad_weights_says_what_it_repaired(tmp_path):
    rig_path = tmp_path / "rig.glb"
    rig_path.write_bytes(b"".join(rig_document([WEIGHTS_0, WEIGHTS_1], [JOINTS_0, JOINTS_1]).save_to_bytes()))
    notes: list[str] = []
    data = animbin_to_gltf_on_rig(nod(), read_rig(load_path(rig_path)), notes=notes)
    khronos_validate(data, tmp_path)
    assert notes == ["the rig's skin weights of 2 vertices did not sum to 1; normalised, as glTF requires"]
    # weights that sum to 1 give no note; without a notes list the repair is made silently
    notes = []
    rig_path.write_bytes(b"".join(rig_document([np.array([[1.0, 0.0, 0.0, 0.0]] * 3)], [np.zeros((3, 4))]).save_to_bytes()))
    animbin_to_gltf_on_rig(nod(), read_rig(load_path(rig_path)), notes=notes)
    assert notes == []
    rig_path.write_bytes(b"".join(rig_document([WEIGHTS_0, WEIGHTS_1], [JOINTS_0, JOINTS_1]).save_to_bytes()))
    khronos_validate(animbin_to_gltf_on_rig(nod(), read_rig(load_path(rig_path))), tmp_path)


# --- images beside a .gltf -------------------------------------------------------------------


def gltf_rig_with_images(folder: Path) -> Path:
    """A .gltf rig (its buffer in a .bin file beside it) with three images: a PNG file beside
    it, without a mimeType, whose length leaves the buffer unaligned; a PNG in a data: URI;
    a PNG file with its mimeType given."""
    gltf = rig_document([np.array([[1.0, 0.0, 0.0, 0.0]] * 3)], [np.zeros((3, 4))])
    blob = gltf.binary_blob()
    (folder / "rig.bin").write_bytes(blob)
    (folder / "odd.png").write_bytes(odd_png())
    (folder / "plain.png").write_bytes(png())
    doc = json.loads(gltf.to_json())
    doc["buffers"] = [{"uri": "rig.bin", "byteLength": len(blob)}]
    doc["images"] = [
        {"uri": "odd.png"},
        {"uri": "data:image/png;base64," + base64.b64encode(png()).decode()},
        {"uri": "plain.png", "mimeType": "image/png"},
    ]
    path = folder / "rig.gltf"
    path.write_text(json.dumps(doc))
    return path


def test_images_in_files_go_into_the_glb_and_the_data_after_them_stays_aligned(tmp_path):
    """The GLB written from a .gltf rig holds each image kept in a file beside it, byte for
    byte, in a bufferView with its MIME type (spec 3.9.2: required with a bufferView); a
    data: URI image stays as it is. The clip's accessors come after an image 4k + 1 bytes
    long and must still start at a multiple of 4 (spec 3.6.2.4): the Khronos validator
    checks all of it, and so does this test by hand."""
    rig_path = gltf_rig_with_images(tmp_path)
    data = animbin_to_gltf_on_rig(nod(), read_rig(load_path(rig_path)))
    (tmp_path / "out").mkdir()
    report = khronos_validate(data, tmp_path / "out")  # a folder without the PNGs: the GLB stands alone
    assert report["info"]["resources"]
    back = parse_glb(data)
    blob = back.binary_blob()
    odd, kept, plain = back.images
    for image, name in ((odd, "odd.png"), (plain, "plain.png")):
        assert image.uri is None and image.mimeType == "image/png"
        view = back.bufferViews[image.bufferView]
        assert blob[view.byteOffset : view.byteOffset + view.byteLength] == (tmp_path / name).read_bytes()
    assert kept.uri.startswith("data:image/png;base64,") and kept.bufferView is None
    for accessor in back.accessors:
        view = back.bufferViews[accessor.bufferView]
        size = {FLOAT: 4, UNSIGNED_BYTE: 1, 5123: 2}[accessor.componentType]
        assert (view.byteOffset + (accessor.byteOffset or 0)) % size == 0


def test_an_image_file_without_a_mime_type_gets_the_one_its_bytes_say(tmp_path):
    """glTF requires mimeType on an image in a bufferView; a file image may lack one. The
    validator checks the type given against the image's own bytes."""
    rig_path = gltf_rig_with_images(tmp_path)
    doc = json.loads(rig_path.read_text())
    assert "mimeType" not in doc["images"][0]
    back = parse_glb(animbin_to_gltf_on_rig(nod(), read_rig(load_path(rig_path))))
    assert back.images[0].mimeType == "image/png"


# --- an animation refused ----------------------------------------------------------------------


def test_an_animation_refused_for_its_keys_leaves_the_document_as_it_was(tmp_path):
    """The first channel is fine and already has its accessors when the second is refused:
    the document written afterwards is the one written had it never been tried. The rig's
    images give it more bufferViews than accessors, so each count is restored from its own."""
    rig = load_path(gltf_rig_with_images(tmp_path))

    def builder() -> DocumentBuilder:
        b = DocumentBuilder.extending(rig)
        b.embed_images()
        return b

    assert len(builder().gltf.bufferViews) != len(builder().gltf.accessors)
    good = Channel(0, "translation", np.array([0.0, 1.0]), np.zeros((2, 3)), "LINEAR")
    bad = Channel(1, "translation", np.array([0.0, 1.0]), np.array([[0.0, 0.0, 0.0], [np.nan, 0.0, 0.0]]), "LINEAR")
    tried = builder()
    with pytest.raises(KeyDataError) as refused:
        tried.animation("clip", [good, bad])
    assert (refused.value.node, refused.value.key) == ("j1", 1)
    assert write_glb(tried.document()) == write_glb(builder().document())


def test_a_glb_rigs_own_images_stay_where_they_are(tmp_path):
    """A rig read from a .glb holds its images in its buffer already (no URI): the clip is
    added and the images are kept, byte for byte."""
    first = tmp_path / "first"
    first.mkdir()
    glb = animbin_to_gltf_on_rig(nod(), read_rig(load_path(gltf_rig_with_images(first))))
    (tmp_path / "rig.glb").write_bytes(glb)
    data = animbin_to_gltf_on_rig(nod(), read_rig(load_path(tmp_path / "rig.glb")))
    khronos_validate(data, tmp_path)
    before, after = parse_glb(glb), parse_glb(data)
    for old, new in zip(before.images, after.images, strict=True):
        assert (new.uri, new.mimeType) == (old.uri, old.mimeType)
        if old.bufferView is not None:
            view_old, view_new = before.bufferViews[old.bufferView], after.bufferViews[new.bufferView]
            assert (before.binary_blob()[view_old.byteOffset:view_old.byteOffset + view_old.byteLength]
                    == after.binary_blob()[view_new.byteOffset:view_new.byteOffset + view_new.byteLength])
