"""animspec.dumps: ``animspec dump`` and ``pack`` as library functions, giving what the
command line gives (it only parses arguments and prints)."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES

from animspec.cli import main
from animspec.common.errors import JsonInputError
from animspec.dumps import dump_file, dump_text, pack_bytes, pack_file
from animspec.formats import FormatOptions


@pytest.mark.parametrize("name", ["swing.animbin", "pendulum.meshbin", "walk.animclip"])
def test_dump_text_is_what_the_command_prints_and_packs_back(name, tmp_path, capsys):
    path = EXAMPLES / name
    assert main(["dump", str(path)]) == 0
    text = dump_text(path)
    assert capsys.readouterr().out == text
    packed = pack_bytes(text.encode("utf-8"), "dump.json")
    assert packed.data == path.read_bytes()
    assert packed.format.name == json.loads(text)["format"]


def test_dump_options_reach_the_format():
    names = tuple((EXAMPLES / "joint_names.txt").read_text().split())
    plain = dump_text(EXAMPLES / "walk.animclip")
    named = dump_text(EXAMPLES / "walk.animclip", FormatOptions(joint_names=names))
    assert named != plain and json.loads(named)["raw"] == json.loads(plain)["raw"]


def test_pack_file_writes_once_and_replaces_only_when_forced(tmp_path):
    dump = tmp_path / "swing.json"
    dump_file(str(EXAMPLES / "swing.animbin"), str(dump))
    out = tmp_path / "swing.animbin"
    assert pack_file(str(dump), str(out)).data == (EXAMPLES / "swing.animbin").read_bytes()
    assert out.read_bytes() == (EXAMPLES / "swing.animbin").read_bytes()
    with pytest.raises(Exception, match="--force"):
        pack_file(str(dump), str(out))
    pack_file(str(dump), str(out), force=True)


def test_a_value_that_does_not_fit_is_named_by_its_place_in_the_dump():
    doc = json.loads(dump_text(EXAMPLES / "swing.animbin"))
    doc["version"] = 256  # a u1
    with pytest.raises(JsonInputError) as caught:
        pack_bytes(json.dumps(doc).encode(), "edited.json")
    assert caught.value.path == "edited.json" and caught.value.json_path == "$.version"


def test_dump_file_replaces_an_existing_output_only_when_forced(tmp_path):
    out = tmp_path / "swing.json"
    out.write_text("mine")
    with pytest.raises(Exception, match="--force"):
        dump_file(str(EXAMPLES / "swing.animbin"), str(out))
    assert out.read_text() == "mine"
    assert dump_file(str(EXAMPLES / "swing.animbin"), str(out), force=True) == out.read_text()


def test_packed_is_a_value():
    import dataclasses

    packed = pack_bytes(dump_text(EXAMPLES / "swing.animbin").encode(), "dump.json")
    with pytest.raises(dataclasses.FrozenInstanceError):
        packed.data = b""


@pytest.mark.parametrize("reads_back", ["not at all", "as another model"])
def test_pack_file_publishes_nothing_that_does_not_read_back(reads_back, tmp_path, monkeypatch):
    # A writer bug stands in here: the bytes written do not read back as the dump describes.
    import dataclasses

    from animspec import dumps
    from animspec.common.errors import ParseError, WriteError

    real = dumps.pack_bytes

    def broken_read(data, path):
        if reads_back == "not at all":
            raise ParseError(path, 3, "magic", "cut short")
        return "another model"

    def pack_with_a_broken_reader(raw, source):
        packed = real(raw, source)
        return dataclasses.replace(packed, format=dataclasses.replace(packed.format, read=broken_read))

    monkeypatch.setattr(dumps, "pack_bytes", pack_with_a_broken_reader)
    dump = tmp_path / "swing.json"
    dump.write_text(dump_text(EXAMPLES / "swing.animbin"))
    out = tmp_path / "swing.animbin"
    with pytest.raises(WriteError) as caught:
        pack_file(str(dump), str(out))
    assert caught.value.field == f"{out} (-o)"  # the user's path and option, not the inner "file"
    assert ("cut short" in str(caught.value)) == (reads_back == "not at all")
    assert "does not read back" in str(caught.value)
    assert not out.exists() and list(tmp_path.iterdir()) == [dump]
