"""MESHBIN: parsing, byte-exact writing, the skeleton helper and the checks.

Byte fixtures are assembled here with ``struct`` straight from the layout the engine's loader
reads (psyqo-madnight-engine src/mesh/mesh_manager.cpp; ksy/meshbin.ksy restates it),
independently of animspec's writer: 21-byte bones, flag and bone-count bytes only from
version 2 on, at most 15 bone records read.
"""

from __future__ import annotations

import importlib.util
import struct
import time

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT, Acceptance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from animspec.common.errors import JsonInputError, ParseError, WriteError
from animspec.meshbin import (
    MAX_BONES,
    Bone,
    Face,
    MeshbinFile,
    Skeleton,
    Vertex,
    check_skeleton,
    from_json,
    looks_like_meshbin,
    read_bytes,
    read_file,
    skeleton_from_meshbin,
    summary,
    to_json,
    validate,
    write_bytes,
)

# --- fixtures built with struct -------------------------------------------------------------

HEADER_V1 = 7 + 1 + 1 + 5 * 4  # magic, version, type, five u4 counts
HEADER_V2 = HEADER_V1 + 2  # + has_skeleton, num_bones_declared
BONE_SIZE = 21


def header(version: int, nv: int, ni: int, nf: int, nn: int, nu: int,
           has_skeleton: int = 0, num_bones: int = 0, mesh_type: int = 1) -> bytes:
    data = b"MESHBIN" + struct.pack("<BB5I", version, mesh_type, nv, ni, nf, nn, nu)
    if version > 1:
        data += struct.pack("<BB", has_skeleton, num_bones)
    return data


def vec3_s4(x: int, y: int, z: int) -> bytes:
    return struct.pack("<3i", x, y, z)


def vec3_s2(x: int, y: int, z: int) -> bytes:
    return struct.pack("<3h", x, y, z)


def quad(a: int, b: int, c: int, d: int) -> bytes:
    return struct.pack("<4h", a, b, c, d)


def bone(parent: int, pos: tuple[int, int, int], rot: tuple[int, int, int, int]) -> bytes:
    return struct.pack("<b3i4h", parent, *pos, *rot)


def sample_v2(trailing: bytes = b"") -> bytes:
    """Three vertices, one quad, two normals, three uvs, two bones."""
    return (
        header(2, 3, 1, 1, 2, 3, has_skeleton=1, num_bones=2)
        + vec3_s4(-1, 2, -300000) + vec3_s4(70000, -5, 0) + vec3_s4(0, 0, 2**31 - 1)
        + bytes([10, 20, 30, 0xFF, 0xFF, 0xFF, 0, 128, 255])
        + quad(0, 2, 1, 2)
        + vec3_s2(4096, 0, -4096) + vec3_s2(-1, 1, 0)
        + quad(1, 0, 1, -1)
        + bytes([0, 0, 63, 0, 255, 7])
        + quad(2, 1, 0, 0)
        + vec3_s2(-1, -5, -300) + vec3_s2(7000, 2, 0)
        + bone(-1, (0, 0, 0), (4096, 0, 0, 0))
        + bone(0, (0, 64, -1), (2896, 0, 0, -2896))
        + bytes([0, 1, 1])
        + trailing
    )


@pytest.fixture
def sample() -> bytes:
    return sample_v2()


@pytest.fixture
def pendulum_bytes() -> bytes:
    return (EXAMPLES / "pendulum.meshbin").read_bytes()


# --- parsing ----------------------------------------------------------------------------------


def test_every_field_of_a_skinned_version_2_file(sample):
    m = read_bytes(sample)
    assert (m.version, m.mesh_type, m.has_skeleton) == (2, 1, 1)
    assert m.vertices == [
        Vertex((-1, 2, -300000), (10, 20, 30)),
        Vertex((70000, -5, 0), (0xFF, 0xFF, 0xFF)),
        Vertex((0, 0, 2**31 - 1), (0, 128, 255)),
    ]
    assert m.faces == [Face((0, 2, 1, 2), (1, 0, 1, -1), (2, 1, 0, 0))]
    assert m.normals == [(4096, 0, -4096), (-1, 1, 0)]
    assert m.uvs == [(0, 0), (63, 0), (255, 7)]
    assert (m.aabb_min, m.aabb_max) == ((-1, -5, -300), (7000, 2, 0))
    assert m.bones == [Bone(-1, (0, 0, 0), (4096, 0, 0, 0)), Bone(0, (0, 64, -1), (2896, 0, 0, -2896))]
    assert m.vertex_bones == [0, 1, 1]
    assert (m.declared_faces, m.declared_bones, m.num_faces, m.num_bones) == (None, None, 1, 2)
    assert m.trailing == b""
    assert write_bytes(m) == sample


def test_bone_records_are_21_bytes(sample):
    # Cut inside the second bone's rotation.y: the error names it and its offset.
    bones_start = len(sample) - 3 - 2 * BONE_SIZE
    rot_y = bones_start + BONE_SIZE + 1 + 12 + 4
    with pytest.raises(ParseError) as info:
        read_bytes(sample[: rot_y + 1], "cut.meshbin")
    assert info.value.field == "bones[1].rotation.y"
    assert info.value.offset == rot_y
    assert info.value.reason == "data ends too early: the field needs 2 bytes, only 1 remain"
    # And the per-vertex bone indices start right after 2 x 21 bytes: one byte for each of
    # the 3 vertices, 2 of them left.
    with pytest.raises(ParseError) as info:
        read_bytes(sample[:-1])
    assert (info.value.field, info.value.offset) == ("bone_for_vertex", len(sample) - 3)
    assert info.value.reason == "data ends too early: the field needs 3 bytes, only 2 remain"


def test_version_1_has_no_skeleton_bytes():
    data = (header(1, 1, 0, 0, 0, 0) + vec3_s4(1, 2, 3) + bytes([1, 2, 3])
            + vec3_s2(1, 2, 3) + vec3_s2(1, 2, 3) + b"\x01\x02")
    m = read_bytes(data)
    assert (m.version, m.has_skeleton, m.bones, m.vertex_bones, m.declared_bones) == (1, 0, [], [], None)
    assert m.vertices == [Vertex((1, 2, 3), (1, 2, 3))]
    assert m.trailing == b"\x01\x02"  # skeleton-looking bytes of a v1 file are not read
    assert write_bytes(m) == data


def test_version_0_reads_like_version_1():
    data = header(0, 0, 0, 0, 0, 0) + vec3_s2(0, 0, 0) * 2
    assert read_bytes(data).version == 0
    assert write_bytes(read_bytes(data)) == data


def test_skeleton_flag_zero_ignores_the_bone_count():
    data = header(2, 1, 0, 0, 0, 0, has_skeleton=0, num_bones=3) + vec3_s4(0, 0, 0) + b"\0\0\0" + bytes(12)
    m = read_bytes(data)
    assert (m.has_skeleton, m.bones, m.vertex_bones, m.declared_bones, m.num_bones) == (0, [], [], 3, 3)
    assert m.trailing == b""
    assert write_bytes(m) == data


def test_any_non_zero_flag_means_a_skeleton():
    data = header(2, 1, 0, 0, 0, 0, has_skeleton=7, num_bones=1) + vec3_s4(0, 0, 0) + b"\0\0\0" + bytes(12)
    data += bone(-1, (1, 2, 3), (4096, 0, 0, 0)) + b"\x00"
    m = read_bytes(data)
    assert (m.has_skeleton, len(m.bones), m.vertex_bones) == (7, 1, [0])
    assert write_bytes(m) == data


def test_more_than_15_bones_reads_15_records():
    nv = 2
    records = b"".join(bone(i - 1, (0, i, 0), (4096, 0, 0, 0)) for i in range(17))
    data = (header(2, nv, 0, 0, 0, 0, has_skeleton=1, num_bones=17)
            + vec3_s4(0, 0, 0) * nv + b"\0" * 3 * nv + bytes(12) + records)
    m = read_bytes(data)
    assert len(m.bones) == MAX_BONES and m.declared_bones == 17 and m.num_bones == 17
    # The per-vertex indices are the first bytes of record 15 (parent 14, then x = 0).
    assert m.vertex_bones == [14, 0]
    assert m.trailing == records[15 * BONE_SIZE + nv:]
    assert write_bytes(m) == data
    codes = {f.code for f in validate(m)}
    assert "too-many-bones" in codes


def test_unknown_mesh_type_is_kept():
    data = header(2, 0, 0, 0, 0, 0, mesh_type=9) + bytes(12)
    m = read_bytes(data)
    assert m.mesh_type == 9 and write_bytes(m) == data


def test_face_count_sizes_nothing():
    data = header(2, 0, 0, 5000, 0, 0) + bytes(12)
    m = read_bytes(data)
    assert (m.faces, m.declared_faces, m.num_faces) == ([], 5000, 5000)
    assert write_bytes(m) == data
    assert "too-many-faces" in {f.code for f in validate(m)}


def test_every_truncation_is_a_parse_error(sample, pendulum_bytes):
    for data in (sample, sample_v2(b"xyz"), pendulum_bytes):
        # bytes[:n] for n < full length; trailing bytes are optional, so stop at the body.
        body = len(data) - (3 if data.endswith(b"xyz") else 0)
        for n in range(body):
            with pytest.raises(ParseError) as info:
                read_bytes(data[:n], "t.meshbin")
            err = info.value
            assert err.path == "t.meshbin" and err.field, n
            assert err.offset is not None and 0 <= err.offset <= n, (n, err.offset, err.field)


def test_wrong_magic():
    with pytest.raises(ParseError) as info:
        read_bytes(b"MESHBOX\x02\x01" + bytes(30), "bad.meshbin")
    assert (info.value.field, info.value.offset) == ("magic", 0)
    assert "MESHBIN" in info.value.reason
    assert not looks_like_meshbin(b"ANIMBIN\x01") and looks_like_meshbin(b"MESHBIN\x02")


def test_huge_counts_fail_fast_at_the_end_of_the_data():
    data = header(2, 0xFFFF_FFFF, 0, 0, 0, 0) + vec3_s4(1, 2, 3)
    start = time.perf_counter()
    with pytest.raises(ParseError) as info:
        read_bytes(data)
    assert time.perf_counter() - start < 1.0
    assert (info.value.field, info.value.offset) == ("vertices[1].x", len(data))


def test_empty_input():
    with pytest.raises(ParseError) as info:
        read_bytes(b"")
    assert info.value.offset == 0


# --- round trips ------------------------------------------------------------------------------

u1 = st.integers(0, 0xFF)
s1 = st.integers(-0x80, 0x7F)
s2 = st.integers(-0x8000, 0x7FFF)
s4 = st.integers(-0x8000_0000, 0x7FFF_FFFF)
u4 = st.integers(0, 0xFFFF_FFFF)
vec_s4 = st.tuples(s4, s4, s4)
vec_s2 = st.tuples(s2, s2, s2)
quads = st.tuples(s2, s2, s2, s2)


@st.composite
def models(draw) -> MeshbinFile:
    vertices = draw(st.lists(st.builds(Vertex, vec_s4, st.tuples(u1, u1, u1)), max_size=5))
    version = draw(st.one_of(st.just(2), u1))
    has_skeleton, declared, bones, vertex_bones = 0, None, [], []
    if version > 1:
        has_skeleton = draw(st.one_of(st.just(1), u1))
        declared = draw(st.one_of(st.none(), u1))
        if has_skeleton:
            count = draw(st.integers(0, 17)) if declared is None else min(declared, MAX_BONES)
            if declared is None and count > MAX_BONES:
                declared = count
                count = MAX_BONES
            bones = draw(st.lists(st.builds(Bone, s1, vec_s4, quads), min_size=count, max_size=count))
            vertex_bones = draw(st.lists(u1, min_size=len(vertices), max_size=len(vertices)))
    return MeshbinFile(
        vertices=vertices,
        faces=draw(st.lists(st.builds(Face, quads, quads, quads), max_size=4)),
        normals=draw(st.lists(vec_s2, max_size=3)),
        uvs=draw(st.lists(st.tuples(u1, u1), max_size=3)),
        aabb_min=draw(vec_s2),
        aabb_max=draw(vec_s2),
        bsphere_centre=draw(vec_s2) if version >= 3 else (0, 0, 0),
        bsphere_radius=draw(s4) if version >= 3 else 0,
        has_skeleton=has_skeleton,
        bones=bones,
        vertex_bones=vertex_bones,
        version=version,
        mesh_type=draw(u1),
        declared_faces=draw(st.one_of(st.none(), u4)),
        declared_bones=declared,
        trailing=draw(st.binary(max_size=6)),
    )


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(models())
def test_read_of_write_is_the_model(model):
    data = write_bytes(model)
    assert read_bytes(data) == model
    assert write_bytes(read_bytes(data)) == data


@st.composite
def raw_files(draw) -> bytes:
    """Any file the loader's layout allows, assembled without the writer: header fields drawn,
    then exactly as many arbitrary body bytes as the counts call for, then trailing bytes."""
    version = draw(u1)
    nv, ni, nn, nu = (draw(st.integers(0, 4)) for _ in range(4))
    has_skeleton, num_bones = draw(u1), draw(u1)
    data = header(version, nv, ni, draw(u4), nn, nu, has_skeleton, num_bones, mesh_type=draw(u1))
    size = 12 * nv + 3 * nv + 8 * ni + 6 * nn + 8 * ni + 2 * nu + 8 * ni + 12
    if version >= 3:
        size += 6 + 4  # bounding sphere: int16 centre, int32 radius
    if version > 1 and has_skeleton:
        size += BONE_SIZE * min(num_bones, MAX_BONES) + nv
    data += draw(st.binary(min_size=size, max_size=size))
    return data + draw(st.binary(max_size=6))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(raw_files())
def test_write_of_read_is_the_bytes(data):
    assert write_bytes(read_bytes(data)) == data


def test_arbitrary_bytes_parse_exactly_or_raise_parse_error():
    tally = Acceptance()

    # Plain random bytes are nearly all refused (their counts are huge); a header with small
    # counts and about as many body bytes as they call for (a few more or fewer) is a file
    # often enough.
    @st.composite
    def small_header(draw) -> bytes:
        version = draw(st.integers(1, 3))
        nv, ni, nf, nn, nu = (draw(st.integers(0, 2)) for _ in range(5))
        has_skeleton, num_bones = draw(st.sampled_from([(0, 0), (1, 1), (1, 2), (3, 0)]))
        need = 15 * nv + 24 * ni + 6 * nn + 2 * nu + 12
        if version > 1 and has_skeleton:
            need += BONE_SIZE * num_bones + nv
        size = max(0, need + draw(st.integers(-3, 4)))
        return (bytes([version, 0]) + struct.pack("<5I", nv, ni, nf, nn, nu)
                + (bytes([has_skeleton, num_bones]) if version > 1 else b"") + draw(st.binary(min_size=size, max_size=size)))

    @settings(max_examples=200)
    @given(st.one_of(st.binary(max_size=80), small_header()))
    def check(tail):
        data = b"MESHBIN" + tail
        model = tally.read(read_bytes, data)
        if model is None:
            return
        assert write_bytes(model) == data

    check()
    tally.check(0.3)  # about 68% were accepted when this was written


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(models())
def test_json_round_trip(model):
    assert from_json(to_json(model)) == model


def test_json_errors_name_the_json_path(pendulum_bytes):
    doc = to_json(read_bytes(pendulum_bytes))
    doc["bones"][2]["rotation"] = [4096, 0, 0]
    with pytest.raises(JsonInputError) as info:
        from_json(doc, "p.json")
    assert info.value.json_path == "$.bones[2].rotation"


def test_declared_counts_equal_to_the_lists_are_dropped():
    m = MeshbinFile(faces=[Face((0, 0, 0, 0))], declared_faces=1, declared_bones=0)
    assert (m.declared_faces, m.declared_bones) == (None, None)


# --- writing errors ---------------------------------------------------------------------------


@pytest.mark.parametrize("corner", range(4))
@pytest.mark.parametrize("part", ["vertices", "normals", "uvs"])
def test_face_index_errors_name_the_corner(part, corner):
    indices = [0, 0, 0, 0]
    indices[corner] = 40000  # past int16
    face = Face(**{"vertices": (0, 0, 0, 0), "normals": (0, 0, 0, 0), "uvs": (0, 0, 0, 0), part: tuple(indices)})
    with pytest.raises(WriteError) as info:
        write_bytes(MeshbinFile(faces=[face]))
    assert info.value.field == f"{part[:-1] if part != 'vertices' else 'vertex'}_indices[0].i{corner}"


@pytest.mark.parametrize(
    "model, field",
    [
        (MeshbinFile(vertices=[Vertex((2**31, 0, 0))]), "vertices[0].x"),
        (MeshbinFile(vertices=[Vertex((0, 0, 0), (0, 256, 0))]), "vertex_colours[0].g"),
        (MeshbinFile(faces=[Face((0, 0, 0, 40000))]), "vertex_indices[0].i3"),
        (MeshbinFile(uvs=[(0, -1)]), "uvs[0].v"),
        (MeshbinFile(normals=[(0, 0)]), "normals[0]"),
        (MeshbinFile(aabb_max=(0, 0, 1.5)), "aabb_max.z"),
        (MeshbinFile(version=300), "version"),
        (MeshbinFile(declared_faces=-1), "num_faces"),
        (MeshbinFile(bones=[Bone(-1, (0, 0, 0))]), "bones"),
        (MeshbinFile(vertex_bones=[0]), "bone_for_vertex"),
        (MeshbinFile(version=1, has_skeleton=1), "has_skeleton"),
        (MeshbinFile(version=1, declared_bones=2), "num_bones_declared"),
        (MeshbinFile(has_skeleton=1, bones=[Bone(-1, (0, 0, 0))], declared_bones=3), "bones"),
        (MeshbinFile(has_skeleton=1, bones=[Bone(-1, (0, 0, 0))] * 3, declared_bones=20), "bones"),
        (MeshbinFile(vertices=[Vertex((0, 0, 0))], has_skeleton=1), "bone_for_vertex"),
        (MeshbinFile(has_skeleton=1, bones=[Bone(128, (0, 0, 0))]), "bones[0].parent"),
        (MeshbinFile(has_skeleton=1, bones=[Bone(0, (0, 0, 0), (1, 2, 3, 99999))]), "bones[0].rotation.z"),
        (MeshbinFile(has_skeleton=1, bones=[Bone(0, (0, 0, 0))] * 300), "num_bones_declared"),
        (MeshbinFile(vertices=[Vertex((0, 0, 0))], has_skeleton=1, vertex_bones=[256]), "bone_for_vertex[0]"),
    ],
)
def test_write_errors_name_the_field(model, field):
    with pytest.raises(WriteError) as info:
        write_bytes(model)
    assert info.value.field == field


# --- skeleton ---------------------------------------------------------------------------------


def test_skeleton_arrays(sample):
    sk = skeleton_from_meshbin(read_bytes(sample))
    assert isinstance(sk, Skeleton) and sk.bone_count == 2
    assert sk.parents.dtype.kind == "i" and sk.parents.tolist() == [-1, 0]
    assert sk.rest_translation.dtype == np.float64 and sk.rest_translation.shape == (2, 3)
    assert sk.rest_translation[1].tolist() == [0.0, 64 / 4096, -1 / 4096]
    assert sk.rest_rotation.shape == (2, 4)
    assert sk.rest_rotation[1].tolist() == [2896 / 4096, 0.0, 0.0, -2896 / 4096]  # w, x, y, z
    assert sk.names == ["bone0", "bone1"]
    assert check_skeleton(sk) == []


def test_no_skeleton_gives_an_empty_one():
    sk = skeleton_from_meshbin(MeshbinFile())
    assert sk.bone_count == 0 and sk.parents.shape == (0,) and sk.rest_translation.shape == (0, 3)
    assert sk.rest_rotation.shape == (0, 4) and sk.names == [] and check_skeleton(sk) == []


def _skeleton(parents: list[int], rotations=None) -> Skeleton:
    n = len(parents)
    bones = [Bone(p, (0, 64, 0), rotations[i] if rotations else (4096, 0, 0, 0)) for i, p in enumerate(parents)]
    return skeleton_from_meshbin(MeshbinFile(has_skeleton=1, bones=bones, declared_bones=n))


@pytest.mark.parametrize(
    "parents, code, bone",
    [
        ([-1, 2, 0], "bone-parent-after-child", 1),
        ([-1, 5], "bone-parent-out-of-range", 1),
        ([-1, -7], "bone-parent-out-of-range", 1),
        ([-1, 1], "bone-parent-self", 1),
        ([1, 0], "no-root-bone", None),
    ],
)
def test_hierarchy_problems_are_reported(parents, code, bone):
    findings = check_skeleton(_skeleton(parents))
    match = [f for f in findings if f.code == code]
    assert match, findings
    if bone is not None:
        assert match[0].where == {"bone": bone}


def test_rotation_problems_are_reported():
    codes = [f.code for f in check_skeleton(_skeleton([-1, 0], [(0, 0, 0, 0), (2000, 0, 0, 0)]))]
    assert codes == ["rest-rotation-zero", "rest-rotation-not-unit"]


def test_too_many_bones_reported():
    assert "too-many-bones" in {f.code for f in check_skeleton(_skeleton([-1] + list(range(15))))}


@given(st.lists(s1, max_size=20), st.lists(quads, min_size=20, max_size=20))
def test_checks_never_raise(parents, rotations):
    findings = check_skeleton(_skeleton(parents, rotations))
    assert all(f.code for f in findings)


# --- validation -------------------------------------------------------------------------------


def test_validate_reports_bad_indices():
    m = MeshbinFile(
        vertices=[Vertex((0, 0, 0))],
        faces=[Face((0, 0, 0, 1), (0, 0, 0, 0), (0, 0, 0, 0))],
        normals=[(0, 0, 4096)],
        uvs=[(0, 0)],
        has_skeleton=1,
        bones=[Bone(-1, (0, 0, 0))],
        vertex_bones=[3],
    )
    findings = {f.code: f for f in validate(m)}
    assert findings["face-vertex-index-out-of-range"].where == {"face": 0}
    assert findings["vertex-bone-out-of-range"].where == {"vertex": 0}
    assert "face-normal-index-out-of-range" not in findings


def test_summary_mentions_the_skeleton(sample):
    text = summary(read_bytes(sample))
    assert "MESHBIN version 2" in text and "skeleton: 2 bone(s)" in text


# --- the example ------------------------------------------------------------------------------


def test_example_is_reproducible():
    spec = importlib.util.spec_from_file_location("make_meshbin_example", EXAMPLES / "make_meshbin_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, data in module.examples().items():
        assert (EXAMPLES / name).read_bytes() == data, f"examples/{name} is stale: rerun the script"


def test_example_skeleton_fits_swing_animbin():
    from animspec.animbin import read_file as read_animbin

    m = read_file(EXAMPLES / "pendulum.meshbin")
    sk = skeleton_from_meshbin(m)
    assert sk.parents.tolist() == [-1, 0, 1, 2]
    # Each child hangs 64 units below its parent: +Z is down in the console's model space
    # (Blender's Z-up armature space through diag(1, -1, -1)).
    assert [b.position for b in m.bones[1:]] == [(0, 0, 64)] * 3
    assert check_skeleton(sk) == []
    assert not [f for f in validate(m) if f.severity.value == "error"]
    joints = {t.joint_id for a in read_animbin(EXAMPLES / "swing.animbin").animations for t in a.tracks}
    assert joints <= set(range(sk.bone_count))
    assert sorted(set(m.vertex_bones)) == [0, 1, 2, 3]


def test_json_has_skeleton_only_from_version_2():
    # Version 1 files have no skeleton flag, so their dump has none; version 2 has it even at 0.
    assert "has_skeleton" not in to_json(MeshbinFile(version=1))
    assert "has_skeleton" not in to_json(MeshbinFile(version=0))
    assert to_json(MeshbinFile(version=2))["has_skeleton"] == 0


def test_a_face_count_above_2_31_is_kept_unsigned():
    # num_faces is only declared (the loader derives faces from num_indices); any u4 is kept.
    data = header(2, 0, 0, 0xFFFFFFF0, 0, 0) + bytes(12)
    m = read_bytes(data)
    assert m.declared_faces == 0xFFFFFFF0 and m.faces == []
    assert write_bytes(m) == data


@pytest.mark.parametrize("version", [0, 1])
def test_versions_before_2_have_no_skeleton_fields(version):
    data = header(version, 0, 0, 0, 0, 0) + bytes(12)
    m = read_bytes(data)
    assert (m.has_skeleton, m.declared_bones, m.bones, m.vertex_bones) == (0, None, [], [])
    assert write_bytes(m) == data


# --- the two spaces of a MESHBIN the engine's exporter writes -----------------------------------


@pytest.mark.parametrize("name", ["column", "critter", "posed"])
def test_the_engines_exporter_writes_vertices_a_quarter_turn_from_the_bones(name):
    # The engine skins a vertex as W * inverse(bind) * v with v as stored (src/render/renderer.cpp,
    # bind = the rest world matrices, src/mesh/skeleton/skeleton.cpp): it assumes the vertices
    # and the bones share a space. Files the engine's own tools wrote (tests/fixtures/madnight)
    # say they do not: each vertex lies far nearer its bone's joint once taken from the
    # vertices' space (Forward Z, Up -Y) into the bones' (diag(1, -1, -1)) than as stored.
    from animspec.meshbin.model import BLENDER_TO_BONES, BLENDER_TO_VERTICES, VERTICES_TO_BONES
    from animspec.skeleton import forward_kinematics, world_positions

    model = read_file(ROOT / "tests" / "fixtures" / "madnight" / f"{name}.meshbin")
    skeleton = skeleton_from_meshbin(model)
    joints = world_positions(forward_kinematics(skeleton, skeleton.rest_rotation[None]))[0]
    vertices = np.array([v.position for v in model.vertices], dtype=np.float64) / 4096
    bones = np.array(model.vertex_bones[: len(vertices)])
    rigged = bones >= 0
    assert rigged.sum() > 10

    def median_distance(points: np.ndarray) -> float:
        return float(np.median(np.linalg.norm(points[rigged] - joints[bones[rigged]], axis=1)))

    as_stored, in_bone_space = median_distance(vertices), median_distance(vertices @ VERTICES_TO_BONES.T)
    assert in_bone_space * 2 < as_stored, (as_stored, in_bone_space)
    # Blender's up, +Z, is -Y for the vertices and -Z for the bones.
    assert (BLENDER_TO_VERTICES @ [0, 0, 1]).tolist() == [0, -1, 0]
    assert (BLENDER_TO_BONES @ [0, 0, 1]).tolist() == [0, 0, -1]
