"""Issue 21.2 and 23.3: every file a command reads is an input. A side file (--skeleton,
--joints, --markers, --joint-names) is never an output, whatever name reaches it (the
name itself, a symbolic link, a hard link), even with --force; a batch knows every file it
reads before its first write and replaces none of them; and a folder or glob never takes a
side file, or a glTF with nothing to convert, as a source (and says why).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

from animspec import convert
from animspec.cli import main

PYTHON = [sys.executable, "-m", "animspec"]


def run(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(PYTHON + [str(a) for a in args], capture_output=True, text=True, timeout=300, cwd=cwd)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _name_for(tmp_path: Path, side: Path, how: str) -> Path:
    """The -o path that reaches ``side``: the side file's own name, a symlink or a hard link."""
    if how == "name":
        return side
    other = tmp_path / f"other_{how}{side.suffix}"
    if how == "symlink":
        other.symlink_to(side)
    else:
        os.link(side, other)
    return other


def _setup(tmp_path: Path, option: str) -> tuple[list[str], Path]:
    """A convert (or dump) command reading ``option``'s file, and that file."""
    for name in ("swing.animbin", "pendulum_rig.glb", "biped_rig.glb", "walk.animclip"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    if option == "--skeleton":
        return ["convert", str(tmp_path / "swing.animbin"), "--skeleton"], tmp_path / "biped_rig.glb"
    if option == "--joints":
        side = tmp_path / "joints.txt"
        side.write_text("root\nupper\nlower\ntip\n")
        return ["convert", str(tmp_path / "pendulum_rig.glb"), "--joints"], side
    if option == "--markers":
        side = tmp_path / "markers.json"
        side.write_text(json.dumps({"swing": [{"name": "mid", "frame": 3}]}))
        return ["convert", str(tmp_path / "pendulum_rig.glb"), "--markers"], side
    side = tmp_path / "names.txt"
    shutil.copy(EXAMPLES / "joint_names.txt", side)
    if option == "--joint-names":
        return ["convert", str(tmp_path / "walk.animclip"), "--skeleton", str(tmp_path / "biped_rig.glb"), "--joint-names"], side
    return ["dump", str(tmp_path / "walk.animclip"), "--joint-names"], side  # dump's --joint-names


OPTIONS = ["--skeleton", "--joints", "--markers", "--joint-names", "dump --joint-names"]


class TestASideFileIsNeverAnOutput:
    @pytest.mark.parametrize("how", ["name", "symlink", "hardlink"])
    @pytest.mark.parametrize("option", OPTIONS)
    def test_refused_even_with_force(self, tmp_path, capsys, option, how):
        command, side = _setup(tmp_path, option)
        out = _name_for(tmp_path, side, how)
        before = digest(side)
        status = main(command + [str(side), "-o", str(out), "--force"])
        err = capsys.readouterr().err
        assert status == 2
        assert digest(side) == before, "the side file was replaced"
        flag = option.split()[-1]
        assert f"cannot write {out} (-o): this file is read as {flag} ({side})" in err
        assert len(err.strip().splitlines()) == 1

    def test_the_issue_command_as_typed(self, tmp_path):
        shutil.copy(EXAMPLES / "swing.animbin", tmp_path / "swing.animbin")
        shutil.copy(EXAMPLES / "biped_rig.glb", tmp_path / "rig.glb")
        before = digest(tmp_path / "rig.glb")
        done = run("convert", "swing.animbin", "--skeleton", "rig.glb", "-o", "rig.glb", "--force", cwd=tmp_path)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr == "animspec: error: cannot write rig.glb (-o): this file is read as --skeleton (rig.glb); choose another path\n"
        assert digest(tmp_path / "rig.glb") == before


class TestABatchReplacesNothingItReads:
    def test_a_folder_converted_into_itself(self, tmp_path):
        bd = tmp_path / "bd"
        bd.mkdir()
        shutil.copy(EXAMPLES / "pendulum_rig.glb", bd / "x.glb")
        shutil.copy(EXAMPLES / "swing.animbin", bd / "x.animbin")
        before = {p.name: digest(p) for p in bd.iterdir()}
        done = run("convert", "bd", "-o", "bd", "--force", "-j", "1", cwd=tmp_path)
        assert done.returncode == 2, done.stdout + done.stderr
        assert {p.name: digest(p) for p in bd.iterdir()} == before, "an input was replaced"
        for src, out in (("x.animbin", "x.glb"), ("x.glb", "x.animbin")):
            assert (f"animspec: error: bd/{src}: its output bd/{out} is a file this run reads (bd/{out}, an input); "
                    "it is never replaced, even with --force") in done.stderr
        assert "summary: 2 file(s): 0 ok, 0 with errors, 2 failed" in done.stdout

    def test_an_output_hard_linked_to_an_input_or_a_side_file(self, tmp_path, capsys):
        src, out = tmp_path / "src", tmp_path / "out"
        src.mkdir()
        out.mkdir()
        shutil.copy(EXAMPLES / "pendulum_rig.glb", src / "a.glb")
        shutil.copy(EXAMPLES / "swing.animbin", src / "b.animbin")
        rig = tmp_path / "rig.glb"
        shutil.copy(EXAMPLES / "biped_rig.glb", rig)
        os.link(src / "a.glb", out / "a.animbin")  # a.glb's own output name reaches a.glb
        os.link(rig, out / "b.glb")  # b.animbin's output name reaches the --skeleton rig
        before = (digest(src / "a.glb"), digest(rig))
        status = main(["convert", str(src), "-o", str(out), "--force", "-j", "1", "--skeleton", str(rig)])
        err = capsys.readouterr().err
        assert status == 2
        assert (digest(src / "a.glb"), digest(rig)) == before
        assert f"is a file this run reads ({src / 'a.glb'}, an input)" in err
        assert f"is a file this run reads ({rig}, read as --skeleton)" in err

    def test_plan_refuses_those_jobs_before_anything_is_written(self, tmp_path):
        bd = tmp_path / "bd"
        bd.mkdir()
        shutil.copy(EXAMPLES / "pendulum_rig.glb", bd / "x.glb")
        shutil.copy(EXAMPLES / "swing.animbin", bd / "x.animbin")
        shutil.copy(EXAMPLES / "swing.animbin", bd / "y.animbin")  # y.glb is free: converted
        work = convert.plan([str(bd)], str(bd), convert.load_options(force=True))
        refused = {Path(j.file).name for j in work.jobs if j.clash}
        assert refused == {"x.glb", "x.animbin"}
        results = list(work.run(jobs=1))
        assert [r.failed for r in results] == [True, True, False]
        assert (bd / "y.glb").is_file()


class TestSideFilesAreNotSources:
    def test_the_issue_command_does_not_convert_the_rig(self, tmp_path):
        done = run("convert", EXAMPLES, "-o", tmp_path / "out", "--skeleton", EXAMPLES / "biped_rig.glb", "-j", "1")
        assert done.returncode == 0, done.stdout + done.stderr
        made = sorted(p.name for p in (tmp_path / "out").iterdir())
        assert "biped_rig.animbin" not in made
        assert f"animspec: note: {EXAMPLES / 'biped_rig.glb'}: not taken: read as --skeleton by this run" in done.stderr
        assert "1 passed over" in done.stdout

    def test_plan_says_what_is_taken_and_why_not(self, tmp_path):
        work = convert.plan([str(EXAMPLES)], str(tmp_path / "out"), convert.load_options(skeleton=str(EXAMPLES / "biped_rig.glb")))
        taken = {Path(j.file).name for j in work.jobs}
        assert "biped_rig.glb" not in taken
        assert "pendulum_rig.glb" in taken  # a glTF with animations ('swing', 'nod') is a source
        assert [(Path(p).name, why.split(":")[0]) for p, why in work.passed_over] == [
            ("biped_rig.glb", "read as skeleton by this run"),  # the library's name; a front end its own:
        ]
        worded = convert.plan([str(EXAMPLES)], str(tmp_path / "out"),
                              convert.load_options(skeleton=str(EXAMPLES / "biped_rig.glb")), words=convert.option_flag)
        assert [why.split(":")[0] for _, why in worded.passed_over] == ["read as --skeleton by this run"]
        assert not any(r.failed for r in work.run(jobs=1))  # docs/python.md's example runs clean

    def test_a_rig_without_animations_is_passed_over_with_its_reason(self, tmp_path):
        src = tmp_path / "src"
        src.mkdir()
        shutil.copy(EXAMPLES / "biped_rig.glb", src / "rig.glb")
        shutil.copy(EXAMPLES / "swing.animbin", src / "swing.animbin")
        work = convert.plan([str(src)], str(tmp_path / "out"), convert.load_options())
        assert [Path(j.file).name for j in work.jobs] == ["swing.animbin"]
        assert work.passed_over == [(str(src / "rig.glb"), (
            "a rig: 1 skin(s) and no animation, nothing to convert to ANIMBIN "
            "(give it as --skeleton to put ANIMBIN clips on it)"))]

    def test_a_glob_never_takes_the_skeleton_either(self, tmp_path):
        src = tmp_path / "src"
        src.mkdir()
        for name in ("biped_rig.glb", "pendulum_rig.glb", "swing.animbin"):
            shutil.copy(EXAMPLES / name, src / name)
        os.symlink(src / "biped_rig.glb", src / "alias.glb")  # the same rig by another name
        work = convert.plan([str(src / "*")], str(tmp_path / "out"), convert.load_options(skeleton=str(src / "biped_rig.glb")))
        assert sorted(Path(j.file).name for j in work.jobs) == ["pendulum_rig.glb", "swing.animbin"]
        assert sorted(Path(p).name for p, _ in work.passed_over) == ["alias.glb", "biped_rig.glb"]
