"""Issue 27.1: every option that names a file names an input, never an output.

``convert a.glb --template T -o T --force`` replaced the template it was reading (exit 0):
``--template`` was missing from the hand-written list of side files. The list is now one
declaration (animspec.convert.FILE_OPTIONS, the ConvertOptions fields marked READS_FILE)
that the output check and a batch's selection both take, and :data:`NAMES_A_FILE` below
holds every option of every command that takes a value to a classification, so an option
added later that names a file cannot be left out: it has no row, or its row says it names a
file and the test writing over that file fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import EXAMPLES
from test_side_inputs import digest

from animspec import convert
from animspec.cli import _parser, main

# (command, option) -> does its value name a file the command reads?
NAMES_A_FILE: dict[tuple[str, str], bool] = {
    ("info", "--joint-names"): True,
    ("info", "--jobs"): False,
    ("validate", "--bones"): False,
    ("validate", "--joint-names"): True,
    ("validate", "--jobs"): False,
    ("dump", "--output"): False,  # what is written
    ("dump", "--joint-names"): True,
    ("pack", "--output"): False,
    ("hash", "--names-file"): True,
    ("play", "--anim"): False,
    ("play", "--region"): False,
    ("play", "--mode"): False,
    ("play", "--seconds"): False,
    ("play", "--step"): False,
    ("play", "--deltas"): False,
    ("play", "--skeleton"): True,
    ("play", "--joint-names"): True,
    ("compare", "--anim"): False,
    ("compare", "--region"): False,
    ("compare", "--authored"): False,
    ("compare", "--seconds"): False,
    ("plot", "--anim"): False,
    ("plot", "--output"): False,
    ("plot", "--region"): False,
    ("plot", "--seconds"): False,
    ("convert", "--output"): False,
    ("convert", "--region"): False,
    ("convert", "--animation"): False,
    ("convert", "--skin"): False,
    ("convert", "--joints"): True,
    ("convert", "--fit"): False,
    ("convert", "--max-error"): False,
    ("convert", "--max-keys"): False,
    ("convert", "--fp12"): False,
    ("convert", "--merge"): False,
    ("convert", "--markers"): True,
    ("convert", "--template"): True,
    ("convert", "--fps"): False,
    ("convert", "--shell"): False,
    ("convert", "--local-rotation-error"): False,
    ("convert", "--local-translation-error"): False,
    ("convert", "--skeleton"): True,
    ("convert", "--joint-names"): True,
    ("convert", "--jobs"): False,
}
"""Every option that takes a value, of every command: True when the value is the path of a
file the command reads. A command that writes a file refuses each of those as its output."""


def _commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def value_options() -> dict[tuple[str, str], argparse.Action]:
    """(command, first long spelling) -> action, for every option that takes a value."""
    found = {}
    for name, command in _commands().items():
        for action in command._actions:
            if action.option_strings and action.nargs != 0 and not isinstance(action, argparse._HelpAction):
                found[(name, next(o for o in action.option_strings if o.startswith("--")))] = action
    return found


def test_every_option_taking_a_value_says_whether_it_names_a_file():
    options = value_options()
    missing = sorted(set(options) - set(NAMES_A_FILE))
    assert not missing, f"say in NAMES_A_FILE whether each names a file the command reads: {missing}"
    stale = sorted(set(NAMES_A_FILE) - set(options))
    assert not stale, f"rows for options the parser no longer has: {stale}"
    # A metavar that spells a file (FILE, CLIP, FILE.json) on an option said not to name one:
    # the row is wrong (the output itself, -o OUT, is what is written).
    for key, action in options.items():
        metavar = str(action.metavar or "")
        looks = any(w in metavar for w in ("FILE", "CLIP", "RIG")) or "." in metavar
        if looks and key[1] != "--output":
            assert NAMES_A_FILE[key], f"{key}: metavar {metavar} names a file; its row says it does not"


def test_convert_takes_its_file_options_from_one_declaration():
    parser = _commands()["convert"]
    named = {a.dest for a in parser._actions
             if a.option_strings and NAMES_A_FILE.get(("convert", next(o for o in a.option_strings if o.startswith("--"))))}
    assert named == set(convert.FILE_OPTIONS)
    assert set(convert.READ_WHEN_LOADED) <= set(convert.FILE_OPTIONS)


def _side_file(tmp_path: Path, option: str, ext: str = "") -> Path:
    """A valid file for ``option`` (each is read as it would be), its name ending in ``ext``."""
    content = {
        "--joints": "root\nupper\nlower\ntip\n",
        "--joint-names": "root\npelvis\n",
        "--markers": '{"swing": [{"name": "mid", "frame": 3}]}',
    }
    side = tmp_path / f"side{option}{ext}"
    if option in content:
        side.write_text(content[option])
    else:  # --skeleton, --template: a rig, a clip
        shutil.copy(EXAMPLES / ("biped_rig.glb" if option == "--skeleton" else "walk.animclip"), side)
    return side


@pytest.mark.parametrize("name", convert.FILE_OPTIONS)
def test_load_options_records_every_file_it_is_given(name, tmp_path):
    flag = convert.option_flag(name)
    side = _side_file(tmp_path, flag)
    options = convert.load_options(**{name: str(side)})
    # Each side file is named as the option's parameter, or in a front end's words.
    assert [(r.path, r.option) for r in options.read_files()] == [(str(side), name)]
    worded = replace(options, words=convert.option_flag)
    assert [(r.path, r.option) for r in worded.read_files()] == [(str(side), flag)]
    # Made without load_options, an option still holding its path is read too.
    if name not in convert.READ_WHEN_LOADED:
        direct = convert.ConvertOptions(**{name: str(side)}, words=convert.option_flag)
        assert [(r.path, r.option) for r in direct.read_files()] == [(str(side), flag)]


CONVERT_RUN = {
    # option -> (the input, what the run needs besides the option, the output's extension)
    "--skeleton": ("swing.animbin", [], ".glb"),
    "--joints": ("pendulum_rig.glb", [], ".animbin"),
    "--markers": ("pendulum_rig.glb", [], ".animbin"),
    "--template": ("pendulum_rig.glb", [], ".animclip"),
    "--joint-names": ("walk.animclip", ["--skeleton", str(EXAMPLES / "biped_rig.glb")], ".glb"),
}
"""A convert run that reads each file option's file (a file option without a row fails)."""


def _writers() -> list[tuple[str, str]]:
    """(command, option) for each file option of each command that writes a file (has -o)."""
    writing = {name for name, p in _commands().items() if any("--output" in a.option_strings for a in p._actions)}
    return [key for key, names in NAMES_A_FILE.items() if names and key[0] in writing]


def _reaching(tmp_path: Path, side: Path, how: str) -> Path:
    """The -o path that reaches ``side``: its own name, a symbolic link or a hard link (with
    its extension: convert's direction follows -o's)."""
    if how == "name":
        return side
    other = tmp_path / f"via_{how}{side.suffix}"
    other.symlink_to(side) if how == "symlink" else os.link(side, other)
    return other


@pytest.mark.parametrize("how", ["name", "symlink", "hardlink"])
@pytest.mark.parametrize("command,option", _writers())
def test_a_file_an_option_reads_is_never_the_output(command, option, how, tmp_path, capsys):
    if command == "convert":
        source, needs, ext = CONVERT_RUN[option]
        argv = ["convert", str(EXAMPLES / source), *needs]
    elif command == "dump":
        argv, ext = ["dump", str(EXAMPLES / "walk.animclip")], ".json"
    else:
        pytest.fail(f"{command} {option}: add the run that reads it here")
    side = _side_file(tmp_path, option, ext)
    out = _reaching(tmp_path, side, how)
    before = digest(side)
    status = main(argv + [option, str(side), "-o", str(out), "--force"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert digest(side) == before, f"{option}'s file was replaced"
    assert err == f"animspec: error: cannot write {out} (-o): this file is read as {option} ({side}); choose another path\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "a temporary file was left"


def test_each_file_option_has_a_convert_run_that_reads_it():
    assert set(CONVERT_RUN) == {convert.option_flag(n) for n in convert.FILE_OPTIONS}


def test_the_issue_command_as_typed(tmp_path):
    shutil.copy(EXAMPLES / "pendulum_rig.glb", tmp_path / "a.glb")
    shutil.copy(EXAMPLES / "walk.animclip", tmp_path / "T.animclip")
    before = digest(tmp_path / "T.animclip")
    done = subprocess.run(
        [sys.executable, "-m", "animspec", "convert", "a.glb", "--template", "T.animclip", "-o", "T.animclip", "--force"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == ("animspec: error: cannot write T.animclip (-o): this file is read as --template "
                           "(T.animclip); choose another path\n")
    assert digest(tmp_path / "T.animclip") == before


def test_a_batch_into_the_folder_holding_the_template(tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    shutil.copy(EXAMPLES / "pendulum_rig.glb", folder / "a.glb")
    shutil.copy(EXAMPLES / "walk.animclip", folder / "T.animclip")
    before = {p.name: digest(p) for p in folder.iterdir()}
    status = main(["convert", str(folder), "--template", str(folder / "T.animclip"), "-o", str(folder), "--force"])
    err = capsys.readouterr().err
    assert status == 2 and "--template" in err and "Traceback" not in err
    assert {p.name: digest(p) for p in folder.iterdir()} == before
