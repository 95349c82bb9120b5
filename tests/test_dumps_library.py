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
