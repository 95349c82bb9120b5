"""The FileFormat contract (animspec.formats), checked the same way for every registered format.

Each test is parametrised over the registry itself, so a format added to it is held to the
contract without a line here: detection from bytes, read -> write byte-exact, write -> read,
the JSON dump round trip, the fast reader equal to the generated parser (where a format has a
second reader), the same error (ParseError with file, offset and field) for a truncated file,
and the one options object every operation takes. The samples are every file in examples/,
sorted by what the registry detects in it; a registered format with no sample fails.
"""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES

from animspec import formats
from animspec.common import jsonfmt
from animspec.common.errors import ParseError
from animspec.formats import FileFormat, FormatOptions

NAMES = [f.name for f in formats.registered()]
FILE_FORMATS = [f.name for f in formats.FORMATS]


def _samples() -> dict[str, list]:
    found: dict[str, list] = {name: [] for name in NAMES}
    for path in sorted(EXAMPLES.iterdir()):
        if not path.is_file():
            continue
        data = path.read_bytes()
        fmt = formats.sniff(data[:64], NAMES)
        if fmt is not None:
            found[fmt.name].append(path)
    return found


SAMPLES = _samples()


def _cases(names: list[str]) -> list:
    return [pytest.param(name, path, id=f"{name}-{path.name}") for name in names for path in SAMPLES[name]]


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_format_has_a_sample_and_declares_itself(name):
    assert SAMPLES[name], f"no file in examples/ is detected as {name}: add one"
    fmt = formats.format_named(name)
    declared = formats.declaration(fmt)
    assert declared is not fmt  # the registry's entry is a lazy stand-in for the package's own
    assert (declared.name, declared.description) == (fmt.name, fmt.description)
    assert isinstance(declared, FileFormat) == (name in FILE_FORMATS)


@pytest.mark.parametrize("name, path", _cases(NAMES))
def test_a_sample_is_detected_as_its_format_only(name, path):
    head = path.read_bytes()[:64]
    assert [f.name for f in formats.registered() if f.detect(head)] == [name]


@pytest.mark.parametrize("name, path", _cases(FILE_FORMATS))
def test_read_write_is_byte_exact_and_write_read_gives_the_model(name, path):
    fmt = formats.by_name(name)
    data = path.read_bytes()
    assert formats.detect(data, str(path)) is fmt
    model = fmt.read(data, str(path))
    written = fmt.write(model)
    assert written == data
    assert fmt.read(written, "again") == model


@pytest.mark.parametrize("name, path", _cases(FILE_FORMATS))
def test_the_json_dump_round_trips(name, path):
    fmt = formats.by_name(name)
    data = path.read_bytes()
    model = fmt.read(data, str(path))
    doc = json.loads(jsonfmt.dumps(fmt.to_json(model, FormatOptions())))
    assert doc["format"] == name
    assert formats.format_of_dump(doc, "dump.json") is fmt
    back = fmt.from_json(doc, "dump.json")
    assert back == model
    assert fmt.write(back) == data


TWO_READERS = [n for n in FILE_FORMATS if formats.declaration(formats.by_name(n)).read_generated is not None]
"""The formats with a fast hand-written reader besides the generated parser's adapter."""


@pytest.mark.parametrize("name, path", _cases(TWO_READERS))
def test_the_fast_reader_equals_the_generated_parser(name, path):
    generated = formats.declaration(formats.by_name(name)).read_generated
    data = path.read_bytes()
    assert formats.by_name(name).read(data, str(path)) == generated(data, str(path))


def _error(read, data: bytes) -> tuple | None:
    try:
        read(data, "cut.bin")
    except ParseError as exc:
        return exc.path, exc.offset, exc.field
    return None


@pytest.mark.parametrize("name, path", _cases(FILE_FORMATS))
def test_a_truncated_file_is_one_parse_error_naming_file_offset_and_field(name, path):
    fmt = formats.by_name(name)
    generated = formats.declaration(fmt).read_generated
    data = path.read_bytes()
    cuts = sorted({1, 8, 12, len(data) // 2, len(data) - 1} - {0, len(data)})
    for cut in cuts:
        head = data[:cut]
        error = _error(fmt.read, head)
        assert error is not None, f"{path.name} cut to {cut} bytes reads without an error"
        file, offset, field = error
        assert file == "cut.bin" and field, error
        assert offset is not None and 0 <= offset <= cut, error
        if generated is not None:
            # The fast reader names the same place as the generated parser does.
            assert error == _error(generated, head), cut


@pytest.mark.parametrize("name, path", _cases(FILE_FORMATS))
def test_every_operation_takes_the_one_options_object(name, path):
    """All options set: a format uses those that mean something to it and ignores the rest,
    and the same options with nothing set give what the defaults give."""
    fmt = formats.by_name(name)
    model = fmt.read(path.read_bytes(), str(path))
    every = FormatOptions(bone_count=256, joint_names=("root", "hips"))
    assert isinstance(fmt.validate(model, every), list)
    assert isinstance(fmt.info(model, every), str) and fmt.info(model, every)
    assert fmt.to_json(model, every)["format"] == name
    declared = formats.declaration(fmt)
    assert fmt.validate(model, FormatOptions()) == declared.validate(model)
    assert fmt.info(model, FormatOptions()) == declared.info(model)


def test_bone_count_reaches_the_validator():
    """--bones arrives through the options object: a joint id at the count is an error."""
    fmt = formats.by_name("animbin")
    model = fmt.read((EXAMPLES / "swing.animbin").read_bytes(), "swing.animbin")
    top = max(t.joint_id for a in model.animations for t in a.tracks)
    codes = {f.code for f in fmt.validate(model, FormatOptions(bone_count=top))}
    assert codes - {f.code for f in fmt.validate(model, FormatOptions(bone_count=top + 1))}


def test_joint_names_reach_the_animclip_summary():
    from animspec.animclip import read_bytes

    model = read_bytes((EXAMPLES / "walk.animclip").read_bytes(), "walk.animclip")
    names = tuple((EXAMPLES / "joint_names.txt").read_text().split())
    fmt = formats.by_name("animclip")
    assert fmt.info(model, FormatOptions(joint_names=names)) != fmt.info(model, FormatOptions())


def test_a_declaration_can_only_use_options_that_exist():
    """A misspelt option in a format's declaration fails when the package is imported, not
    silently at the user's run (what filtering keyword arguments by signature allowed)."""
    with pytest.raises(TypeError, match="bones"):
        formats.using_options(lambda model, **given: given, "bones")
    takes = formats.using_options(lambda model, **given: given, "bone_count")
    assert takes(None, FormatOptions(bone_count=3, joint_names=("a",))) == {"bone_count": 3}
