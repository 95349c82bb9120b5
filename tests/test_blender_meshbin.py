"""File > Export > MESHBIN (blender/animspec_blender/meshbin_export.py) against the engine's own
two-step pipeline, and :func:`animspec.meshbin.build.build_meshbin` underneath it.

tests/fixtures/madnight/ holds what the engine's Blender OBJ+skeleton exporter and
obj-to-meshbin.py wrote on three models (its README says how). tests/blender/meshbin_check.py
rebuilds the same scenes headless and exports them with the add-on; the files must be the
fixtures byte for byte. The tests marked ``blender`` run bpy (slow: run them selectively).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from animspec.meshbin import read_bytes, validate, write_bytes
from animspec.meshbin.build import BoundingSphere, MeshArrays, MeshbinBuildError, SkeletonBone, build_meshbin
from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "madnight"
MODELS = ("column", "critter", "posed")
CHECK_SCRIPT = ROOT / "tests" / "blender" / "meshbin_check.py"


# --- the fixtures, read with this repository's MESHBIN reader ----------------------------------


def _obj(model: str) -> dict:
    """The OBJ the engine's exporter wrote, split into its kinds of line."""
    lines: dict[str, list[list[str]]] = {}
    for line in (FIXTURES / f"{model}.obj").read_text().splitlines():
        kind, *rest = line.split()
        lines.setdefault(kind, []).append(rest)
    return lines


@pytest.mark.parametrize("model", MODELS)
def test_fixture_is_a_version_3_file_the_engine_accepts(model):
    data = (FIXTURES / f"{model}.meshbin").read_bytes()
    m = read_bytes(data)
    assert m.version == 3 and m.skeleton_present and not m.trailing
    assert write_bytes(m) == data
    assert [f for f in validate(m) if f.severity.value == "error"] == []
    # The bounding sphere is read from the bytes after the box: the OBJ's bsphere line * 128, truncated.
    (cx, cy, cz, r), = [[float(v) for v in rest] for rest in _obj(model)["bsphere"]]
    assert m.bsphere_centre == (int(cx * 128), int(cy * 128), int(cz * 128))
    assert m.bsphere_radius == int(r * 128)


def _arrays_from_obj(model: str) -> tuple[MeshArrays, list[SkeletonBone], BoundingSphere]:
    """The fixture's OBJ as build_meshbin's input (what the add-on reads from Blender)."""
    obj = _obj(model)
    positions = [[float(c) for c in v[:3]] for v in obj["v"]]
    # A channel the OBJ holds as k came from [k / 128, (k + 1) / 128) and at least 0.1; 128 also
    # stands for "under 0.1".
    colours = ([[max((int(c) + 0.5) / 128, 0.1) if int(c) != 128 else 0.0 for c in v[3:6]] for v in obj["v"]]
               if len(obj["v"][0]) > 3 else None)
    faces, starts = [], []
    for f in obj["f"]:
        corners = [c.split("/") for c in f]
        faces.append([int(v) - 1 for v, _ in corners])
        starts.append(int(corners[0][1]) - 1)
    uvs = [[float(c) for c in t] for t in obj["vt"]]
    names = {rest[1]: int(rest[0]) for rest in obj["bone"]}
    bones = [SkeletonBone(b[1], int(b[2]), [float(c) for c in b[3:6]], [float(c) for c in b[6:10]]) for b in obj["bone"]]
    assert list(names.values()) == list(range(len(bones)))
    vertex_bones = [int(w[1]) for w in obj["vw"]]
    (cx, cy, cz, r), = [[float(v) for v in rest] for rest in obj["bsphere"]]
    arrays = MeshArrays(positions, faces, starts, uvs, colours, vertex_bones, model)
    return arrays, bones, BoundingSphere((cx, cy, cz), r)


@pytest.mark.parametrize("model", MODELS)
def test_build_meshbin_from_the_obj_numbers_gives_the_converters_bytes(model):
    # The library alone, fed the numbers of the engine's OBJ: the converter's quantisation,
    # face order, triangle padding and skeleton, byte for byte.
    arrays, bones, sphere = _arrays_from_obj(model)
    size = {"column": 256, "critter": 128, "posed": 256}[model]
    built = build_meshbin(arrays, bones, texture_size=size, sphere=sphere)
    assert write_bytes(built) == (FIXTURES / f"{model}.meshbin").read_bytes()


def test_quads_are_stored_a_d_b_c_and_triangles_padded_in_the_second_corner():
    mesh = MeshArrays([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], [(0, 1, 2, 3), (0, 2, 3)], [0, 4],
                      uvs=[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0), (1, 1), (0, 1)])
    m = build_meshbin(mesh)
    assert [f.vertices for f in m.faces] == [(0, 3, 1, 2), (0, -1, 2, 3)]
    assert [f.uvs for f in m.faces] == [(0, 3, 1, 2), (4, -1, 5, 6)]
    assert m.uvs[1] == (255, 0)  # u = 1.0 at 256 texels: int(256) - 1
    assert not [f for f in validate(m) if f.severity.value == "error"]


def test_positions_are_truncated_after_the_obj_text():
    # 0.015625 * 128 = 2 exactly; 0.0078125 * 128 = 1 exactly, but the OBJ prints it as
    # 0.007812 (six decimals, half to even), which truncates to 0; a negative truncates toward zero.
    mesh = MeshArrays([(0.015625, 0.0078125, -0.0234)], [], [])
    assert build_meshbin(mesh).vertices[0].position == (2, 0, -2)


@pytest.mark.parametrize(
    "mesh, kind",
    [
        (MeshArrays([(0, 0, 0)] * 5, [(0, 1, 2, 3, 4)], [0]), "ngon"),
        (MeshArrays([(0, 0, 0)] * 3, [(0, 1, 2)], [0], uvs=[(0, 0), (0, 0), (1.5, 0)]), "uv-range"),
        (MeshArrays([(0, 0, 0)] * 3, [(0, 1, 2)], [0], colours=[(0.5, 0.5, 0.5), (2.5, 0, 0), (0, 0, 0)]), "colour-range"),
    ],
)
def test_what_the_pipeline_cannot_store_is_refused(mesh, kind):
    with pytest.raises(MeshbinBuildError) as caught:
        build_meshbin(mesh)
    assert caught.value.kind == kind


def test_a_vertex_in_no_bone_is_refused():
    mesh = MeshArrays([(0, 0, 0)] * 3, [(0, 1, 2)], [0], vertex_bones=[0, -1, 0])
    with pytest.raises(MeshbinBuildError) as caught:
        build_meshbin(mesh, [SkeletonBone("root", -1, (0, 0, 0), (1, 0, 0, 0))])
    assert caught.value.kind == "unweighted" and caught.value.items == [1]


def test_validator_holds_the_engines_limits():
    def codes(**changes):
        m = build_meshbin(MeshArrays([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)], [0]))
        for k, v in changes.items():
            setattr(m, k, v)
        return {f.code for f in validate(m) if f.severity.value == "error"}

    from animspec.meshbin import Face, Vertex

    assert codes() == set()
    assert "vertex-out-of-range" in codes(vertices=[Vertex((0, 0, 0)), Vertex((40000, 0, 0)), Vertex((0, 0, 0))])
    assert "too-many-faces" in codes(faces=[Face((0, 1, 2, 0))] * 1000)
    assert "faces-past-index-records" in codes(declared_faces=2)
    assert "too-many-vertices" in codes(vertices=[Vertex((0, 0, 0))] * 0x8001)


# --- the add-on, headless ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, dict]:
    from test_blender_gltf import bpy_python

    out = tmp_path_factory.mktemp("meshbin")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT / "blender"), env.get("PYTHONPATH", "")])
    proc = subprocess.run([bpy_python(), str(CHECK_SCRIPT), str(out)], capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, f"{CHECK_SCRIPT.name} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    results = json.loads((out / "results.json").read_text())
    assert results["blender"].startswith("5.0"), results["blender"]
    return out, results


@pytest.mark.blender
@pytest.mark.parametrize("model", MODELS)
def test_addon_export_is_the_engine_pipelines_bytes(run, model):
    out, results = run
    expected = (FIXTURES / f"{model}.meshbin").read_bytes()
    assert (out / f"{model}.meshbin").read_bytes() == expected  # the function
    assert (out / f"{model}.op.meshbin").read_bytes() == expected  # File > Export > MESHBIN
    assert results["models"][model]["operator"]["result"] == ["FINISHED"]


def _refusal_text(case: dict) -> str:
    errors = [text for level, text in case["reports"] if level == "ERROR"]
    assert len(errors) == 1, case["reports"]
    return errors[0]


def _panel_words_only(text: str) -> None:
    assert not re.search(r"(^|\s)--\w", text), text  # no command-line option
    assert "Traceback" not in text


@pytest.mark.blender
@pytest.mark.parametrize(
    "case, says",
    [
        ("ngon", ["more than 4 corners", "Triangulate", "'Apply Modifiers'"]),
        ("unweighted", ["no vertex group of an exported bone", "Vertex Groups"]),
        ("uv_range", ["past texel 255", "'Texture size' 256"]),
        ("vertex_range", ["255.99 Blender units"]),
        ("faces", ["face count", "999 faces", "Decimate"]),
        ("bones", ["16 bones", "holds 15", "'Joint order'", "'Names file'"]),
    ],
)
def test_what_the_engine_cannot_take_is_refused_in_blenders_words(run, case, says):
    _, results = run
    got = results["refusals"][case]
    assert got["result"] != ["FINISHED"] and not got["written"], got
    text = _refusal_text(got)
    _panel_words_only(text)
    for words in says:
        assert words in text, text


@pytest.mark.blender
def test_limits_are_the_engines(run):
    _, results = run
    assert results["refusals"]["faces"]["polygons"] >= 1000
    assert results["refusals"]["bones"]["deform_bones"] == 16
    # UVs within one byte at a smaller texture are written (the pipeline does), with a warning.
    small = results["refusals"]["uv_range_small_texture"]
    assert small["written"] and any("outside 0..1" in t for level, t in small["reports"] if level == "WARNING")


@pytest.mark.blender
def test_animbin_joint_order_is_checked_against_the_meshbin(run):
    r = run[1]["joint_order"]
    assert r["before_export"] is None  # a skinned mesh, the same default order
    assert "joint 2 is 'arm.R' here but bone 2 is 'head' there" in r["before_export_reordered"]
    assert r["saved"] == r["deform"] and r["after_export_same"] is None
    assert "the MESHBIN last exported" in r["after_export_reordered"]
    # A MESHBIN exported with a names file: its bones follow the file, and an ANIMBIN in
    # deform order is now flagged.
    assert r["saved_by_file"] == r["reordered"]
    assert "joint 2 is 'head' here but bone 2 is 'arm.R' there" in r["after_file_export_deform"]
    _panel_words_only(r["after_file_export_deform"])


@pytest.mark.blender
def test_a_deform_bone_under_a_non_deform_bone_hangs_from_the_nearest_exported_one(run):
    out, results = run
    case = results["non_deform_parent"]
    assert case["result"] == ["FINISHED"] and case["saved"] == ["base", "top"]
    m = read_bytes((out / "non_deform_parent.meshbin").read_bytes())
    assert [b.parent for b in m.bones] == [-1, 0]
    # The engine exporter's rule with "base" as the parent: the length between the two heads
    # (2 Blender units, 256 raw), along the translation relative to that bone.
    assert m.bones[1].position == (0, 256, 0)
    assert set(m.vertex_bones) == {0, 1}


@pytest.mark.blender
def test_export_animbin_warns_when_its_joints_are_not_the_meshbins_bones(run):
    _, results = run
    warned = results["animbin_warning"]
    assert not [w for w in warned["same"] if "joint order" in w]
    other = [w for w in warned["other"] if "joint order" in w]
    assert len(other) == 1 and "joint 2 is 'arm.R' here but bone 2 is 'head' there" in other[0]


@pytest.mark.blender
def test_every_quoted_option_in_a_meshbin_refusal_is_on_the_export_panel(run):
    """Each word a MESHBIN refusal quotes is a label or choice its Export panel draws (read from
    the operator's registered properties while its draw() runs) or a mesh or armature name."""
    _, results = run
    panel = results["export_panel"]
    assert panel["drawn"] == ["apply_modifiers", "texture_size", "joint_order", "joint_names", "overwrite"]
    words = {v["label"] for v in panel["labels"].values()} | {c for v in panel["labels"].values() for c in v["choices"]}
    assert {"Apply Modifiers", "Texture size", "Joint order", "Names file", "Deform bones"} <= words
    names = {"Column", "ColumnRig", "Grid"}
    quoted = set()
    for case in results["refusals"].values():
        for level, text in case["reports"]:
            if level == "ERROR":
                quoted |= set(re.findall(r"(?<!\w)'([^']+)'(?!\w)", text))
    assert quoted - words - names == set()
    assert {"Apply Modifiers", "Texture size", "Joint order", "Names file"} <= quoted
