"""The command's words: each message names what the user gave and what to do, and each list
a message or a help text shows comes from the registry that holds it (so it cannot drift)."""

from __future__ import annotations

import shutil

import pytest
from conftest import EXAMPLES

from animspec import formats
from animspec.cli import _parser, main
from animspec.cli.convert import ABOUT
from animspec.common.errors import ParseError
from animspec.common.hashes import crc32, read_names_file
from animspec.convert import DIRECTIONS, convert_file, load_options

SWING, WALK = str(EXAMPLES / "swing.animbin"), str(EXAMPLES / "walk.animclip")
BIPED, PENDULUM = str(EXAMPLES / "biped_rig.glb"), str(EXAMPLES / "pendulum_rig.glb")
MESH = str(EXAMPLES / "pendulum.meshbin")


def error_of(capsys, *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


# --------------------------------------------------------------------------- a file of another format


def test_a_template_that_is_an_animbin_is_named_as_one(tmp_path, capsys):
    err = error_of(capsys, "convert", BIPED, "-o", str(tmp_path / "w.animclip"), "--template", SWING)
    assert f"--template {SWING} is a psyqo madnight engine ANIMBIN file, not an .animclip" in err
    assert "not in the enum" not in err and not (tmp_path / "w.animclip").exists()


@pytest.mark.parametrize("read, other, found", [
    ("animclip", SWING, "ANIMBIN"), ("animclip", BIPED, "glTF"), ("animbin", WALK, "Insomniac .animclip"),
    ("animbin", MESH, "MESHBIN"), ("meshbin", SWING, "ANIMBIN"),
])
def test_each_reader_names_the_format_of_a_file_of_another(read, other, found):
    reader = {"animclip": "animspec.animclip.parse", "animbin": "animspec.animbin.parse",
              "meshbin": "animspec.meshbin.parse"}[read]
    import importlib

    with pytest.raises(formats.FormatMismatch) as info:
        importlib.import_module(reader).read_file(other)
    assert info.value.wanted == (read,) and found in str(info.value)
    assert isinstance(info.value, ParseError) and info.value.offset == 0


def test_validate_of_a_gltf_says_it_is_one(capsys):
    err = error_of(capsys, "validate", BIPED)
    assert "the file is glTF 2.0 (GLB or .gltf JSON), not psyqo madnight engine ANIMBIN" in err


def test_an_unknown_file_lists_every_registered_format(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("shopping list\n")
    err = error_of(capsys, "info", str(tmp_path / "notes.txt"))
    known = err.split("not a file animspec knows (", 1)[1].split("); it starts with")[0]
    assert known == ", ".join(f.description for f in formats.registered())
    assert "glTF" in known


def test_pack_of_a_binary_says_to_dump_it_first(tmp_path, capsys):
    err = error_of(capsys, "pack", SWING, "-o", str(tmp_path / "x.animbin"))
    assert f"{SWING} is a binary psyqo madnight engine ANIMBIN file, not a JSON dump" in err
    assert f"`animspec dump {SWING} -o swing.json`" in err and "UTF-8" not in err
    err = error_of(capsys, "pack", WALK, "-o", str(tmp_path / "x.animclip"))
    assert "is a binary Insomniac .animclip" in err and f"`animspec dump {WALK} -o walk.json`" in err
    err = error_of(capsys, "pack", BIPED, "-o", str(tmp_path / "x.animbin"))  # glTF: nothing animspec packs
    assert "not a JSON dump: the file is glTF 2.0" in err and "animspec dump" not in err
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- help lists every direction


def test_help_lists_every_direction_of_the_registry():
    top = _parser().format_help().replace("\n", " ")
    convert = _parser()._subparsers._group_actions[0].choices["convert"]  # type: ignore[union-attr]
    for direction in DIRECTIONS:
        title = direction.title.split(" (")[0]
        assert " ".join(title.split()) in " ".join(top.split()), title
        assert title in " ".join(convert.format_help().split())
    assert "glTF -> .animclip" in " ".join(top.split()) and ".animclip -> glTF" in " ".join(top.split())
    assert set(ABOUT) == {d.name for d in DIRECTIONS}


# --------------------------------------------------------------------------- --joint-names as hash prints it


def test_a_names_file_saved_from_hash_gives_the_names(tmp_path, capsys):
    names = (EXAMPLES / "joint_names.txt").read_text().split()
    hashed = tmp_path / "hashed.txt"
    hashed.write_text("".join(f"{crc32(n):08X}  {n}\n" for n in names))
    assert read_names_file(str(hashed)) == names
    assert main(["info", WALK, "--joint-names", str(hashed)]) == 0
    with_hashed = capsys.readouterr().out
    assert main(["info", WALK, "--joint-names", str(EXAMPLES / "joint_names.txt")]) == 0
    assert with_hashed == capsys.readouterr().out and "pelvis" in with_hashed


def test_a_hash_line_whose_hash_is_not_its_name_is_refused_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{crc32('root'):08X}  root\n\n8E59B33F  Pelvis\n")
    err = error_of(capsys, "info", WALK, "--joint-names", str(bad))
    assert "line 3, '8E59B33F  Pelvis'" in err and "not the hash of 'Pelvis'" in err


# --------------------------------------------------------------------------- library facts, the CLI's flags


def test_reports_name_options_as_flags_on_the_command_line_and_as_parameters_in_python(tmp_path, capsys):
    joints = tmp_path / "j.txt"
    joints.write_text("root\nupper\nlower\ntip\n")
    assert main(["convert", SWING, "--skeleton", PENDULUM, "--joints", str(joints), "-o", str(tmp_path / "a.glb")]) == 0
    assert "(4 joint(s) in --joints order" in capsys.readouterr().out
    text = convert_file(SWING, str(tmp_path / "b.glb"), load_options(skeleton=PENDULUM, joints=str(joints))).text
    assert "(4 joint(s) in joints order" in text and "--" not in text.split(" on ", 1)[1]

    assert main(["convert", WALK, "--skeleton", BIPED, "--joint-names", str(EXAMPLES / "joint_names.txt"),
                 "-o", str(tmp_path / "w.glb")]) == 0
    assert "\n--joint-names: 21 of 21 clip joint(s) named\n" in capsys.readouterr().out
    text = convert_file(WALK, str(tmp_path / "w2.glb"),
                        load_options(skeleton=BIPED, joint_names=str(EXAMPLES / "joint_names.txt"))).text
    assert "\njoint_names: 21 of 21 clip joint(s) named\n" in text


def test_a_side_file_as_output_is_named_by_its_flag(tmp_path, capsys):
    shutil.copy(WALK, tmp_path / "T.animclip")
    err = error_of(capsys, "convert", PENDULUM, "--template", str(tmp_path / "T.animclip"),
                   "-o", str(tmp_path / "T.animclip"), "--force")
    assert "this file is read as --template" in err


def test_an_option_out_of_range_names_the_parameter_in_python_and_the_flag_on_the_command_line():
    from animspec.cli.convert import flag
    from animspec.common.ranges import OptionRangeError

    with pytest.raises(OptionRangeError) as info:
        load_options(fps=0.0)
    assert str(info.value).startswith("fps 0.0: expected a number") and info.value.option == "fps"
    assert info.value.reword(flag).args[0].startswith("--fps 0.0: expected a number")


def test_a_range_refused_while_planning_is_worded_by_the_plans_words(tmp_path):
    from animspec.cli.convert import flag
    from animspec.common.ranges import OptionRangeError
    from animspec.convert import ConvertOptions, plan

    with pytest.raises(OptionRangeError) as info:
        plan([PENDULUM], str(tmp_path / "x.animclip"), ConvertOptions(fps=0.0), words=flag)
    assert str(info.value).startswith("--fps 0.0: expected a number")
    with pytest.raises(OptionRangeError) as info:
        plan([PENDULUM], str(tmp_path / "x.animclip"), ConvertOptions(fps=0.0))
    assert str(info.value).startswith("fps 0.0: expected a number")


def test_library_reports_name_no_command_line_flag(tmp_path):
    # A report from Python names no --flag: the command line's words are the command line's.
    glb = str(tmp_path / "swing.glb")
    convert_file(SWING, glb, load_options())  # carries the clips' ANIMBIN layout in extras
    refit = convert_file(glb, str(tmp_path / "a.animbin"), load_options(fit="reduce")).text
    assert "not followed, fit reduce given: sampled afresh (reduce)" in refit
    pal = convert_file(glb, str(tmp_path / "b.animbin"), load_options(region="pal")).text
    assert "a region of 59.9401 Hz rebuilds the original clip" in pal
    still = convert_file(WALK, str(tmp_path / "w.glb"), load_options(skeleton=BIPED, no_root_motion=True)).text
    assert "root motion left out, as asked" in still
    for text in (refit, pal, still):
        assert " --" not in text and "(--" not in text, text


def test_a_skeleton_of_another_format_is_named_as_what_it_is(tmp_path, capsys):
    err = error_of(capsys, "convert", SWING, "--skeleton", WALK, "-o", str(tmp_path / "q.glb"))
    assert f"{WALK}: the file is Insomniac .animclip/.performanceclip (DAT1), not a skeleton source" in err
