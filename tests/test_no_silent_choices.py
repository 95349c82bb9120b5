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


# --------------------------------------------------------------------------- which animation


@pytest.mark.parametrize("output", ["out.animclip", "out.animbin"])
def test_the_animation_taken_from_several_is_named_with_the_others(output, tmp_path, capsys):
    args = ["convert", RIG, "-o", str(tmp_path / output)]
    if output.endswith(".animbin"):
        args += ["--animation", "nod"]  # (ANIMBIN takes every animation unless told)
    assert main(args) == 0
    out = capsys.readouterr().out
    taken, left = ("swing", "nod") if output.endswith(".animclip") else ("nod", "swing")
    assert f"took animation {taken!r}; the glTF has 1 other(s), left out: {left!r}" in out
    assert "--animation NAME" in out


def test_every_animation_taken_says_nothing_of_a_choice(tmp_path, capsys):
    assert main(["convert", RIG, "-o", str(tmp_path / "out.animbin")]) == 0
    assert "took animation" not in capsys.readouterr().out


def test_both_directions_pick_with_one_function():
    from animspec.gltf import to_animbin, to_animclip

    assert to_animclip.pick_animations is to_animbin.pick_animations
    assert not hasattr(to_animclip, "_pick") and not hasattr(to_animbin, "_select_animations")


# --------------------------------------------------------------------------- no animation


@pytest.mark.parametrize("output", ["out.animclip", "out.animbin"])
def test_no_animation_is_the_same_error_in_both_directions(output, tmp_path, capsys):
    from animspec.gltf.to_animbin import NoAnimationError

    joints = tmp_path / "j.txt"
    joints.write_text("root\npelvis\n")
    assert main(["convert", BIPED, "--joints", str(joints), "-o", str(tmp_path / output)]) == 2
    err = capsys.readouterr().err
    assert f"{BIPED}: the glTF has no animation to convert: a rig (1 skin(s))" in err
    assert not (tmp_path / output).exists()
    with pytest.raises(NoAnimationError) as caught:
        convert_file(BIPED, str(tmp_path / output), ConvertOptions(joints=("root", "pelvis")))
    assert caught.value.skins == 1


# --------------------------------------------------------------------------- one duration


def _late_glb(tmp_path, first: float, last: float):
    """A glTF whose one animation's keys run from ``first`` to ``last`` seconds."""
    import numpy as np
    from test_gltf_support import AnimSpec, ChannelSpec, build_glb
    from test_gltf_to_animclip import JOINTS

    times = np.linspace(first, last, 4)
    path = tmp_path / "late.glb"
    path.write_bytes(build_glb(JOINTS, [AnimSpec("late", [
        ChannelSpec(0, "translation", times, [(0.0, 0.0, -t) for t in times]),
    ])]))
    return str(path)


def test_info_gives_the_span_a_conversion_samples(tmp_path, capsys):
    from animspec.gltf.info import summarise
    from animspec.gltf.to_animclip import gltf_to_animclip

    src = _late_glb(tmp_path, 0.5, 1.5)
    anim = summarise(src).animations[0]
    assert (anim.start, anim.seconds) == (0.5, 1.0)
    assert main(["info", src]) == 0
    assert "animation 0 'late': 1.000 s (keys from 0.500 s)" in capsys.readouterr().out
    built = gltf_to_animclip(src, fps=30).model.built
    assert built is not None and built.duration == pytest.approx(anim.seconds)


def test_a_duration_sampling_rounds_is_said_with_both_numbers(tmp_path, capsys):
    src = _late_glb(tmp_path, 0.0, 2.0166)  # 60.5 frames at 30 fps: 61 frames, 2.000 s
    assert main(["info", src]) == 0
    assert "'late': 2.017 s" in capsys.readouterr().out
    assert main(["convert", src, "-o", str(tmp_path / "late.animclip")]) == 0
    out = capsys.readouterr().out
    assert "note: the keys span 2.017 s; sampled at 30 fps that is 61 frame(s), 2.000 s, the clip's duration" in out
    assert main(["convert", _late_glb(tmp_path, 0.0, 2.0), "-o", str(tmp_path / "even.animclip"), "--force"]) == 0
    assert "the keys span" not in capsys.readouterr().out


# --------------------------------------------------------------------------- templates


def test_a_template_of_other_joints_and_frames_is_reported_with_the_numbers(tmp_path, capsys):
    out = tmp_path / "t.animclip"
    assert main(["convert", RIG, "-o", str(out), "--template", WALK]) == 0
    text = capsys.readouterr().out
    # pendulum: 4 joints, 16 frames; the walk: 21 joints (root among them), 31 frames
    assert "note: the template does not fit the clip: 1 of the clip's 4 joint(s) are among the template's 21" in text
    assert "the template has 31 frame(s), the clip 16" in text
    assert "kept from it: its name 'walk_forward', Anim Clip Custom Track Data" in text


def test_a_template_that_fits_says_nothing(tmp_path, capsys):
    from animspec.animclip.parse import read_file
    from animspec.gltf.to_animclip import gltf_to_animclip

    first = gltf_to_animclip(RIG)
    assert first.template_mismatch is None
    clip = tmp_path / "first.animclip"
    assert main(["convert", RIG, "-o", str(clip)]) == 0
    again = gltf_to_animclip(RIG, template=read_file(str(clip)))
    assert again.template_mismatch is None and not any("template" in n for n in again.notes)
    other = gltf_to_animclip(RIG, template=read_file(WALK))
    assert other.template_mismatch is not None
    assert (other.template_mismatch.matching, other.template_mismatch.template_frames) == (1, 31)
