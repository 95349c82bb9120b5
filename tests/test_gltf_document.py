"""Loading glTF documents (animspec.gltf.document): legal documents that leave out optional
members load without any library warning reaching the user."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import warnings

import pytest
from conftest import EXAMPLES

from animspec.gltf.document import document_from_json, load_path

RIG = EXAMPLES / "pendulum_rig.glb"


def glb_parts(data: bytes) -> tuple[dict, bytes]:
    """The JSON chunk (decoded) and everything after it, read with struct (spec 4.4)."""
    (size,) = struct.unpack_from("<I", data, 12)
    return json.loads(data[20 : 20 + size]), data[20 + size :]


def glb_with(doc: dict, rest: bytes) -> bytes:
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<I4s", len(text), b"JSON") + text + rest
    return b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body


def rig_without(*members: str) -> bytes:
    doc, rest = glb_parts(RIG.read_bytes())
    for m in members:
        del doc[m]
    return glb_with(doc, rest)


@pytest.mark.parametrize("doc", [
    {"asset": {"version": "2.0"}},  # no scene, no scenes: legal (glTF 2.0, 3.5.1)
    {"asset": {"version": "2.0"}, "nodes": [{"name": "a"}], "scenes": [{"nodes": [0]}]},
    # an accessor without bufferView is legal too (all zeros, glTF 2.0, 3.6.2.1)
    {"asset": {"version": "2.0"}, "accessors": [{"componentType": 5126, "count": 1, "type": "SCALAR"}]},
])
def test_optional_members_left_out_load_without_warnings(doc):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gltf = document_from_json(json.dumps(doc), "doc.gltf")
    assert [str(w.message) for w in caught] == []
    assert gltf.scene is None


def test_load_path_of_a_glb_without_scene_is_silent(tmp_path):
    path = tmp_path / "rig.glb"
    path.write_bytes(rig_without("scene"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gltf = load_path(path)
    assert caught == [] and gltf.scene is None and len(gltf.scenes) == 1


def test_other_library_warnings_are_not_swallowed(monkeypatch):
    """Only the 'absent optional member' notice is silenced, not every warning pygltflib gives."""
    from animspec.gltf import document

    real = document.GLTF2.from_dict

    def noisy(doc, **kw):
        warnings.warn("something else", RuntimeWarning)
        return real(doc, **kw)

    monkeypatch.setattr(document.GLTF2, "from_dict", noisy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        document_from_json(json.dumps({"asset": {"version": "2.0"}}))
    assert [str(w.message) for w in caught] == ["something else"]


def test_convert_both_ways_on_a_rig_without_scene_prints_nothing_on_stderr(tmp_path):
    """As a user runs it: a fresh interpreter whose default warning filter prints to stderr."""
    rig = tmp_path / "rig.glb"
    rig.write_bytes(rig_without("scene"))
    runs = [
        [str(rig), "-o", str(tmp_path / "a.animbin"), "--fit", "cut"],
        [str(EXAMPLES / "swing.animbin"), "--skeleton", str(rig), "-o", str(tmp_path / "b.glb")],
        [str(EXAMPLES / "walk.animclip"), "--skeleton", str(rig), "-o", str(tmp_path / "c.glb")],
    ]
    for args in runs:
        done = subprocess.run([sys.executable, "-m", "animspec", "convert", *args], capture_output=True, text=True)
        assert done.returncode in (0, 1), done.stderr  # 1: the pendulum matches few clip joints
        assert "Warning" not in done.stderr and "dataclasses_json" not in done.stderr, done.stderr


def test_gltf_paths_are_read_under_the_input_rules(tmp_path):
    """A glTF named by path is read like every other input: a FIFO is refused at once (no
    hang waiting for a writer), a file past 1 GiB is refused before it is read."""
    import os

    from animspec.gltf.rig import load_gltf
    from animspec.common.inputs import InputError

    fifo = tmp_path / "rig.gltf"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="regular file|FIFO"):
        load_gltf(fifo)
    huge = tmp_path / "huge.glb"
    with open(huge, "wb") as f:
        f.truncate((1 << 30) + 1)  # sparse: costs no disk
    with pytest.raises(InputError, match="1 GiB"):
        load_gltf(huge)


def test_load_gltf_tells_glb_from_json_bytes_by_their_bytes():
    from animspec.gltf.document import GltfError, write_glb
    from animspec.gltf.rig import load_gltf

    doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "a"}, {"name": "b"}], "scenes": [{"nodes": [0, 1]}]}

    from_json = load_gltf(json.dumps(doc).encode())
    assert [n.name for n in from_json.nodes] == [n["name"] for n in doc["nodes"]]
    glb = load_gltf(write_glb(from_json))
    assert [n.name for n in glb.nodes] == [n["name"] for n in doc["nodes"]]
    with pytest.raises(GltfError, match="<bytes>: the glTF JSON cannot be read"):
        load_gltf(b"\x00\x01 not a glTF at all")
