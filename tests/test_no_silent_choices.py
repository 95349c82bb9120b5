"""Conversions and packs make no choice the user does not hear about: an output named for
another format than the one written is refused with the name that fits, an edit of a dump
is applied or refused by its JSON path, the animation taken from a glTF with several is
named, a template that does not fit the clip is reported with the numbers, no animation is
an error in both directions, and a glTF animation has one duration wherever it is told."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from animspec.cli import main
from animspec.convert import ConvertOptions, OptionRefused, convert_file

SWING = str(EXAMPLES / "swing.animbin")
WALK = str(EXAMPLES / "walk.animclip")
RIG = str(EXAMPLES / "pendulum_rig.glb")
BIPED = str(EXAMPLES / "biped_rig.glb")


# --------------------------------------------------------------------------- output names


@pytest.mark.parametrize("source,output,fits", [
    (SWING, "out.txt", "out.glb"), (SWING, "out.bin", "out.gltf"), (RIG, "out.txt", "out.animbin"),
    (WALK, "out.dat", "out.glb"), (RIG, "out.ANIMBIN.json", "out.ANIMBIN.animbin"),
])
def test_an_output_extension_of_no_format_written_is_refused_naming_the_one_that_fits(
    source, output, fits, tmp_path, capsys
):
    args = ["convert", source, "-o", str(tmp_path / output)] + (["--skeleton", BIPED] if source == WALK else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"-o {tmp_path / output}" in err and "write to " in err and str(tmp_path / fits) in err
    assert not (tmp_path / output).exists()


def test_the_library_refuses_the_output_name_too(tmp_path):
    with pytest.raises(OptionRefused) as caught:
        convert_file(SWING, str(tmp_path / "out.txt"), ConvertOptions())
    assert caught.value.option == "output" and caught.value.reason == "wrong-extension"
    assert caught.value.facts["fits"].startswith(f"{tmp_path / 'out'}.glb")
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.parametrize("output", ["out.glb", "out.GLTF", "out"])
def test_a_gltf_output_named_as_glb_gltf_or_without_extension_is_written(output, tmp_path, capsys):
    assert main(["convert", SWING, "-o", str(tmp_path / output)]) == 0
    assert (tmp_path / output).exists()
