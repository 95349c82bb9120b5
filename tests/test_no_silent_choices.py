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


# --------------------------------------------------------------------------- pack: edits apply or are refused


def _dump(path: str) -> dict:
    import json

    from animspec.dumps import dump_text

    return json.loads(dump_text(path))


def _pack(doc: dict) -> bytes:
    import json

    from animspec.dumps import pack_bytes

    return pack_bytes(json.dumps(doc).encode(), "edited.json").data


def test_a_joint_edit_of_a_dump_moves_every_frame_and_is_packed(tmp_path, capsys):
    import json

    import numpy as np

    from animspec.animclip.frames.decode import decode_clip
    from animspec.animclip.parse import read_bytes

    doc = _dump(WALK)
    joints = doc["clip"]["joints"]
    turn = [0.0, 0.0, 0.3826834, 0.9238795]  # 45 degrees about z
    joints[3]["rotation"] = turn
    joints[5]["translation"][1] += 0.25
    src, out = tmp_path / "w.json", tmp_path / "w.animclip"
    src.write_text(json.dumps(doc))
    assert main(["pack", str(src), "-o", str(out)]) == 0
    assert "the edited joints moved every frame, encoded again; largest error: rotation" in capsys.readouterr().out
    before = decode_clip(read_bytes(open(WALK, "rb").read(), WALK)).frames()
    after = decode_clip(read_bytes(out.read_bytes(), str(out))).frames()
    moved = after.translation[:, 5] - before.translation[:, 5]
    assert np.allclose(moved, [0.0, 0.25, 0.0], atol=1e-3)  # every frame, by the edit
    assert np.allclose(after.rotation[:, 3], turn, atol=1e-3)  # (joint 3 is still: each frame is the edit)
    others = [j for j in range(before.rotation.shape[1]) if j not in (3, 5)]
    assert np.allclose(after.rotation[:, others], before.rotation[:, others], atol=1e-3)
    packed = _dump(str(out))["clip"]["joints"]
    assert packed[3]["rotation"] == pytest.approx(turn, abs=1e-4)
    assert packed[5]["translation"] == pytest.approx(joints[5]["translation"], abs=1e-3)


def test_an_edit_of_the_frame_count_is_refused_by_its_path():
    from animspec.common.errors import JsonInputError

    doc = _dump(WALK)
    doc["clip"]["frames"] = 25
    with pytest.raises(JsonInputError) as caught:
        _pack(doc)
    assert caught.value.json_path == "$.clip.frames" and "cannot be set" in caught.value.reason


def test_a_path_edit_is_packed():
    doc = _dump(WALK)
    doc["clip"]["path"]["end"][3][2] = 2.0
    from animspec.animclip.parse import read_bytes

    assert read_bytes(_pack(doc), "x").clip().path.end_matrix[3][2] == 2.0


def _leaves(node, path):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, f"{path}.{key}")
    elif isinstance(node, list) and node:
        for i, value in enumerate(node):
            yield from _leaves(value, f"{path}[{i}]")
    else:
        yield path, node


def _mutated(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, float):
        return value * 0.5 + 0.25
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 12345
    return [7] if value == [] else {"x": 7}


def _set(doc, path, value):
    import re

    keys = [k or int(i) for k, i in re.findall(r"\.(\w+)|\[(\d+)\]", path[1:])]
    node = doc
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value


LAYOUT_RECORDS = r"^\$\.raw\.(layout\..*|sections\[\d+\]\.offset)$"
"""Where things were in the file read: an edit of one is refused as the layout's."""


@pytest.mark.parametrize("clip", [WALK, str(EXAMPLES / "wave.performanceclip")])
@pytest.mark.parametrize("part", ["clip", "raw"])
def test_every_field_of_a_dump_edited_changes_the_file_or_is_refused_by_path(clip, part):
    """Each leaf of the dump changed in turn: the packed file differs from the original, or
    pack refuses naming that leaf's path (raw's: with clip deleted, so it is raw alone)."""
    import copy
    import re

    from animspec.common.errors import JsonInputError

    doc = _dump(clip)
    if part == "raw":
        del doc["clip"]
    original = _pack(doc)
    assert original == open(clip, "rb").read()
    silent = []
    for path, value in _leaves(doc[part], f"$.{part}"):
        edited = copy.deepcopy(doc)
        _set(edited, path, _mutated(value))
        try:
            if _pack(edited) == original:
                silent.append(path)
        except JsonInputError as exc:
            named, field = exc.json_path, re.sub(r"\[\d+\]$", "", path).rsplit(".", 1)[-1]
            # (a count checked against the section it counts is refused there, naming the count)
            if not (path.startswith(named) or named.startswith(path) or field in exc.reason
                    or (named == "$.raw.layout" and re.match(LAYOUT_RECORDS, path))):
                silent.append(f"{path} (refused as {named})")
    assert silent == [], "\n".join(silent)
