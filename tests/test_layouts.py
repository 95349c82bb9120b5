"""Issue 13 item 2: each format's layout module (the one Python statement of its records,
shared by the bulk reader and the writer) agrees with the parser generated from its .ksy.

Every record is packed from the layout with a distinct value in every field (signed fields
negative, unsigned ones near their top, so a wrong width or signedness shows), parsed by the
generated type it restates, and compared field by field: value, byte offset (the debug-mode
parser records where each field starts) and the record's size. The magics and the key type
enum are compared with the generated ones.
"""

from __future__ import annotations

from io import BytesIO

import kaitaistruct
import pytest
from kaitaistruct import KaitaiStream

from animspec.animbin import layout as animbin_layout
from animspec.animbin.model import KeyType
from animspec.common.fieldwriter import Record
from animspec.generated.animbin import Animbin
from animspec.generated.meshbin import Meshbin
from animspec.meshbin import layout as meshbin_layout

NAME = b"n\0" + bytes(30)
# (generated root, record, bytes before it in its type, field values fixed by the test, the
# type's fields before the record)
A, M = animbin_layout, meshbin_layout
CASES = [
    (Animbin, A.HEADER, A.MAGIC, {"num_animations": 0}, ["magic"]),
    (Animbin, A.ANIMATION, NAME, {"num_tracks": 0, "num_markers": 0}, ["name"]),
    (Animbin, A.TRACK, b"", {"num_keys": 0}, []),
    (Animbin, A.KEY_HEAD, b"", {}, []),  # key_type 254: not a known type, so no payload
    (Animbin, A.ROTATION_KEY, b"", {"key_type": int(KeyType.ROTATION)}, []),
    (Animbin, A.TRANSLATION_KEY, b"", {"key_type": int(KeyType.TRANSLATION)}, []),
    (Animbin, A.QUATERNION, b"", {}, []),
    (Animbin, A.VECTOR, b"", {}, []),
    (Animbin, A.MARKER, NAME, {}, ["name"]),
    (Meshbin, M.HEADER, M.MAGIC, {"version": 1, "num_vertices": 0, "num_indices": 0, "num_normals": 0, "num_uvs": 0},
     ["magic"]),
    (Meshbin, M.SKELETON_HEADER, M.MAGIC + M.HEADER.struct.pack(2, 0, 0, 0, 7, 0, 0), {"has_skeleton": 0},
     ["magic", *M.HEADER.names]),
    *[(Meshbin, r, b"", {}, []) for r in (M.VEC3_S4, M.COLOUR, M.QUAD, M.VEC3_S2, M.UV, M.QUATERNION, M.BONE)],
]


def sample_values(record: Record, fixed: dict, counter: list[int]) -> list:
    """A distinct value for every field: signed kinds negative, unsigned ones near the top."""
    values = []
    for name, kind in record.fields:
        if isinstance(kind, Record):
            values.append(sample_values(kind, fixed, counter))
            continue
        counter[0] += 1
        _, low, high = kind
        values.append(fixed.get(name, low + counter[0] if low < 0 else high - counter[0]))
    return values


def flat(values: list) -> list[int]:
    return [v for x in values for v in (flat(x) if isinstance(x, list) else [x])]


def compare(obj, record: Record, values: list, start: int) -> None:
    """The generated object's fields equal ``values`` and start where the record says."""
    for (name, kind), value in zip(record.fields, values):
        assert obj._debug[name]["start"] == start + record.offset(name), (record, name)
        got = getattr(obj, name)
        if isinstance(kind, Record):
            compare(got, kind, value, start + record.offset(name))
        else:
            assert int(got) == value, (record, name)
    last = record.names[-1]
    assert obj._debug[last]["end"] == start + record.size


def generated_type(root: type, record: Record) -> type:
    if record.ksy_type == root.__name__.lower():
        return root
    return getattr(root, "".join(part.capitalize() for part in record.ksy_type.split("_")))


@pytest.mark.parametrize("root, record, before, fixed, fields_before", CASES, ids=lambda c: repr(c) if isinstance(c, Record) else "")
def test_a_layout_record_is_the_generated_type(root, record, before, fixed, fields_before):
    values = sample_values(record, fixed, [0])
    data = before + record.struct.pack(*flat(values)) + bytes(64)  # room for what the type reads after
    cls = generated_type(root, record)
    obj = cls(KaitaiStream(BytesIO(data)), None, None)
    obj._read()
    assert cls.SEQ_FIELDS[: len(fields_before) + len(record.names)] == [*fields_before, *record.names]
    compare(obj, record, values, len(before))


@pytest.mark.parametrize("root, magic", [(Animbin, A.MAGIC), (Meshbin, M.MAGIC)])
def test_the_magic_is_the_one_the_generated_parser_checks(root, magic):
    with pytest.raises(kaitaistruct.ValidationNotEqualError) as info:
        root(KaitaiStream(BytesIO(magic[:-1] + b"?" + bytes(64))))._read()
    assert info.value.expected == magic


def test_name_fields_are_as_wide_as_the_generated_ones():
    obj = Animbin.Marker(KaitaiStream(BytesIO(NAME + bytes(2))), None, None)
    obj._read()
    assert obj._debug["name"]["end"] - obj._debug["name"]["start"] == A.NAME_FIELD_SIZE
    assert A.ANIMATION_SIZE == A.NAME_FIELD_SIZE + A.ANIMATION.size and A.MARKER_SIZE == A.NAME_FIELD_SIZE + A.MARKER.size


def test_key_types_are_the_generated_enum():
    assert {k.name.lower(): k.value for k in KeyType} == {k.name: k.value for k in Animbin.KeyType}


def test_a_wrong_width_in_a_record_is_caught():
    # The check can fail: a quaternion with one field one byte too narrow disagrees.
    from animspec.common.fieldwriter import S1, S2

    wrong = Record("quaternion_fp12", ("w", S2), ("x", S1), ("y", S2), ("z", S2))
    values = sample_values(wrong, {}, [0])
    obj = Animbin.QuaternionFp12(KaitaiStream(BytesIO(wrong.struct.pack(*values) + bytes(8))), None, None)
    obj._read()
    with pytest.raises(AssertionError):
        compare(obj, wrong, values, 0)
