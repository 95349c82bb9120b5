"""What a user types, it does, or it says why not (issue 23).

* Every optional option of every command, on every kind of input the command takes, either
  changes the result (what is printed, what is written, the exit status) or is refused with
  exit 2 and a line naming the option: :data:`CASES`, checked against the parser itself so a
  new option cannot be added without a row.
* ``convert``'s output name agrees with what it writes; ``.gltf`` is glTF's JSON form.
* ``info`` and ``dump`` read glTF; the too-many-joints refusal lists the candidates.
* ``plot`` without matplotlib names the extra to install; a subcommand's unknown option
  prints that subcommand's usage; every option and positional has help text.
"""

from __future__ import annotations

import argparse
import builtins
import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT
from test_animclip_support import joint_record
from test_animclip_validate import clip

from animspec.cli import _parser, main

SWING = str(EXAMPLES / "swing.animbin")
MESHBIN = str(EXAMPLES / "pendulum.meshbin")
WALK = str(EXAMPLES / "walk.animclip")
RIG = str(EXAMPLES / "pendulum_rig.glb")
BIPED = str(EXAMPLES / "biped_rig.glb")
NAMES = str(EXAMPLES / "joint_names.txt")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, str]:
    """Every kind of input, one file each."""
    d = tmp_path_factory.mktemp("inputs")
    files = {"animbin": SWING, "meshbin": MESHBIN, "animclip": WALK, "gltf": RIG, "gltf-animclip": RIG}
    # A glTF animspec wrote: it carries each clip's ANIMBIN layout in extras.
    assert main(["convert", SWING, "-o", str(d / "layout.glb")]) == 0
    files["gltf-layout"] = str(d / "layout.glb")
    # An .animclip with a finding that names a joint (so --joint-names has something to label).
    base = joint_record(0, 0, 0, 32767, 0, 0, 0, 0, 0) + joint_record(0, 0, 0, 0, 0, 0, 0, 0, 0)
    (d / "finding.animclip").write_bytes(clip(base=base))
    files["animclip-finding"] = str(d / "finding.animclip")
    (d / "pelvis.txt").write_text("root\npelvis\n")
    files["pelvis-names"] = str(d / "pelvis.txt")
    for kind in ("animbin", "meshbin", "animclip"):
        assert main(["dump", files[kind], "-o", str(d / f"{kind}.json")]) == 0
        files[f"{kind}-json"] = str(d / f"{kind}.json")
    (d / "joints.txt").write_text("root\nupper\nlower\n")
    (d / "markers.json").write_text(json.dumps({"swing": [{"name": "step", "frame": 3}]}))
    (d / "names.txt").write_text("pelvis\nspine_01\n")
    files.update(joints=str(d / "joints.txt"), markers=str(d / "markers.json"), names=str(d / "names.txt"))
    return files


# --------------------------------------------------------------------------- the option table

OUT = "out"
"""The output's name, relative to each run's own folder (so two runs print the same path)."""

KINDS: dict[str, tuple[str, ...]] = {
    "info": ("animbin", "meshbin", "animclip", "gltf"),
    "validate": ("animbin", "meshbin", "animclip-finding"),
    "dump": ("animbin", "meshbin", "animclip", "gltf"),
    "pack": ("animbin-json", "meshbin-json", "animclip-json"),
    "hash": ("names",),
    "play": ("animbin", "animclip"),
    "compare": ("animbin",),
    "plot": ("animbin",),
    "convert": ("gltf", "gltf-animclip", "animbin", "animclip"),
}
"""The kinds of input each command takes (``names``: hash takes names, not files)."""

OUTPUT_EXTENSION = {"gltf": ".animbin", "gltf-layout": ".animbin", "gltf-animclip": ".animclip", "animbin": ".glb",
                    "animclip": ".glb"}
"""Per kind, the output convert writes (a glTF becomes an .animclip animation when -o says so)."""


def base_args(command: str, kind: str, f: dict[str, str]) -> list[str]:
    """The command on one input with no optional option (but those it cannot run without)."""
    if command == "hash":
        return ["hash", "root"]
    if command == "pack":
        return ["pack", f[kind], "-o", OUT + ".bin"]
    if command == "plot":
        return ["plot", f[kind], "-o", OUT + ".png"]
    if command == "convert":
        return ["convert", f[kind], "-o", OUT + OUTPUT_EXTENSION[kind]]
    return [command, f[kind]]


ANY = "*"
"""A row for every kind of the command."""

CASES: dict[tuple[str, str], dict[str, list[str] | tuple[list[str], list[str]]]] = {
    # (command, option) -> {kind: the option's arguments, or (them, arguments both runs get)}.
    ("info", "--joint-names"): {ANY: ["--joint-names", "{names}"]},
    ("info", "--jsonl"): {ANY: ["--jsonl"]},
    ("validate", "--json"): {ANY: ["--json"]},
    ("validate", "--jsonl"): {ANY: ["--jsonl"]},
    ("validate", "--bones"): {ANY: ["--bones", "2"]},
    ("validate", "--joint-names"): {ANY: ["--joint-names", "{pelvis-names}"]},
    ("dump", "--output"): {ANY: ["-o", OUT + ".json"]},
    ("dump", "--force"): {ANY: (["--force"], ["-o", "existing.json"])},
    ("dump", "--joint-names"): {ANY: ["--joint-names", "{names}"]},
    ("pack", "--force"): {ANY: (["--force"], ["-o", "existing.bin"])},
    ("hash", "--names-file"): {ANY: ["--names-file", "{names}"]},
    ("play", "--anim"): {ANY: ["--anim", "nod"]},
    ("play", "--region"): {ANY: ["--region", "pal"]},
    ("play", "--mode"): {ANY: ["--mode", "reference"]},
    ("play", "--seconds"): {ANY: ["--seconds", "0.9"]},
    ("play", "--step"): {ANY: ["--step", "2"]},
    ("play", "--deltas"): {ANY: ["--deltas", "1,2,7"]},
    ("play", "--skeleton"): {"animbin": ["--skeleton", MESHBIN], "animclip": ["--skeleton", BIPED]},
    ("play", "--joint-names"): {"animbin": ["--joint-names", "{joints}"], "animclip": ["--joint-names", NAMES]},
    ("play", "--json"): {ANY: ["--json"]},
    ("compare", "--anim"): {ANY: ["--anim", "nod"]},
    ("compare", "--region"): {ANY: ["--region", "pal"]},
    ("compare", "--authored"): {ANY: ["--authored", "pal"]},
    ("compare", "--seconds"): {ANY: ["--seconds", "2"]},
    ("compare", "--json"): {ANY: ["--json"]},
    ("plot", "--anim"): {ANY: ["--anim", "nod"]},
    ("plot", "--force"): {ANY: (["--force"], ["-o", "existing.png"])},
    ("plot", "--region"): {ANY: ["--region", "pal"]},
    ("plot", "--seconds"): {ANY: ["--seconds", "1"]},
    ("convert", "--force"): {ANY: (["--force"], ["-o", "existing_output"])},
    ("convert", "--jsonl"): {ANY: ["--jsonl"]},
    ("convert", "--region"): {ANY: ["--region", "pal"]},
    ("convert", "--animation"): {ANY: ["--animation", "swing"], "gltf-animclip": ["--animation", "nod"]},
    ("convert", "--skin"): {ANY: ["--skin", "1"]},
    ("convert", "--joints"): {ANY: ["--joints", "{joints}"]},
    ("convert", "--fit"): {ANY: ["--fit", "reduce"], "gltf-layout": ["--fit", "reduce"]},
    ("convert", "--max-error"): {ANY: ["--max-error", "5"], "gltf": (["--max-error", "5"], ["--fit", "reduce"])},
    ("convert", "--max-keys"): {ANY: ["--max-keys", "10"], "gltf": (["--max-keys", "29"], ["--fit", "reduce"]),
                                "gltf-layout": ["--max-keys", "20"]},
    ("convert", "--ps1-space"): {ANY: ["--ps1-space"]},
    ("convert", "--armature-space"): {ANY: ["--armature-space"]},
    ("convert", "--fp12"): {ANY: ["--fp12", "trunc"]},
    ("convert", "--merge"): {ANY: ["--merge", "walk"], "gltf": (["--merge", "walk"], ["--animation", "swing"])},
    ("convert", "--translations"): {ANY: ["--translations"]},
    ("convert", "--markers"): {ANY: ["--markers", "{markers}"]},
    ("convert", "--one-shot"): {ANY: ["--one-shot"]},
    ("convert", "--split"): {ANY: ["--split"]},
    ("convert", "--skeleton"): {ANY: ["--skeleton", MESHBIN], "animclip": ["--skeleton", BIPED]},
    ("convert", "--template"): {ANY: ["--template", WALK]},
    ("convert", "--fps"): {ANY: ["--fps", "60"]},
    ("convert", "--shell"): {ANY: ["--shell", "0.5"]},
    ("convert", "--local-rotation-error"): {ANY: ["--local-rotation-error", "2"]},
    ("convert", "--local-translation-error"): {ANY: ["--local-translation-error", "0.1"]},
    ("convert", "--no-root-motion"): {ANY: ["--no-root-motion"]},
    ("convert", "--bake-engine"): {ANY: ["--bake-engine"]},
    ("convert", "--no-skin"): {ANY: ["--no-skin"]},
    ("convert", "--joint-names"): {ANY: ["--joint-names", NAMES]},
}

EXTRA_KINDS = {("convert", "--fit"): ("gltf-layout",), ("convert", "--max-keys"): ("gltf-layout",)}
"""Kinds checked besides the command's own: an explicit fit or key budget on a glTF that
carries an ANIMBIN layout (which is otherwise followed) wins."""

NEEDED_BY_KIND = {("convert", "animclip"): ["--skeleton", BIPED]}
"""What a kind cannot run without (an .animclip has no hierarchy), unless the row is that option."""

NOT_IN_THE_RESULT = {
    "--jobs": "how many worker processes do the work: the same results, in the same order, by design",
    "--no-progress": "the progress bar is drawn only on a terminal's stderr, which no test run has",
}
"""The only options whose effect is not in the result, and why."""


def optional_options() -> dict[str, list[str]]:
    """Each command's optional options (their first long spelling), from the parser itself."""
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    found = {}
    for name, command in sub.choices.items():
        found[name] = sorted(
            next(o for o in a.option_strings if o.startswith("--")) for a in command._actions
            if a.option_strings and not a.required and not isinstance(a, argparse._HelpAction)
        )
    return found


def rows() -> list[tuple[str, str, str]]:
    out = []
    for command, options in optional_options().items():
        for option in options:
            if option in NOT_IN_THE_RESULT:
                continue
            for kind in KINDS[command] + EXTRA_KINDS.get((command, option), ()):
                out.append((command, option, kind))
    return out


def test_every_option_of_every_command_has_a_row():
    missing = [(c, o) for c, opts in optional_options().items() for o in opts
               if o not in NOT_IN_THE_RESULT and (c, o) not in CASES]
    assert not missing, f"options with no row in CASES (say what each does on every input kind): {missing}"
    stale = [key for key in CASES if key[1] not in optional_options().get(key[0], [])]
    assert not stale, f"rows for options the parser no longer has: {stale}"


def run(argv: list[str], folder: Path, capsys) -> tuple[int, str, str, dict[str, bytes]]:
    """One in-process run in ``folder``: exit status, stdout, stderr, and the files it left."""
    before = {p.name for p in folder.iterdir()}
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    written = {p.name: p.read_bytes() for p in folder.iterdir() if p.name not in before or p.name.startswith("existing")}
    return status, out, err, written


@pytest.mark.parametrize("command,option,kind", rows())
def test_an_option_changes_the_result_or_is_refused_by_name(command, option, kind, inputs, tmp_path, monkeypatch, capsys):
    row = CASES[(command, option)]
    given = row.get(kind, row.get(ANY))
    given, shared = given if isinstance(given, tuple) else (given, [])
    given = [a.format(**inputs) if a.startswith("{") else a for a in given]
    needed = NEEDED_BY_KIND.get((command, kind), [])
    if option in needed:
        needed = []
    results = []
    for label, extra in (("without", []), ("with", given)):
        folder = tmp_path / label
        folder.mkdir()
        if any(a.startswith("existing") for a in shared):
            (folder / next(a for a in shared if a.startswith("existing"))).write_bytes(b"old")
        monkeypatch.chdir(folder)
        argv = base_args(command, kind, inputs)
        if shared and shared[0] == "-o":  # replaces the output named by the base
            argv = argv[: argv.index("-o")] + argv[argv.index("-o") + 2:] if "-o" in argv else argv
        results.append(run(argv + shared + needed + extra, folder, capsys))
    (s0, out0, err0, files0), (s1, out1, err1, files1) = results
    if s1 == 2 and option in err1 and option not in err0:
        assert err1.strip(), "a refusal says why"
        return  # refused, by name
    assert s1 != 2 or s0 == 2, f"exit 2 without naming {option}: {err1}"
    assert (s0, out0, files0) != (s1, out1, files1), (
        f"`animspec {command} ... {' '.join(given)}` on {kind} did exactly what it does without {option}, "
        f"silently; refuse it by name or make it act.\n{out1}{err1}"
    )


# --------------------------------------------------------------------------- convert's output name


@pytest.mark.parametrize("source,output,fits", [
    (SWING, "out.animbin", ".glb"), (SWING, "out.meshbin", ".glb"), (RIG, "out.glb", ".animbin"),
    (RIG, "out.gltf", ".animbin"), (WALK, "out.animbin", ".glb"),
])
def test_an_output_name_that_says_another_format_is_refused(source, output, fits, tmp_path, capsys):
    args = ["convert", source, "-o", str(tmp_path / output)] + (["--skeleton", BIPED] if source == WALK else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert output in err and fits in err and "-o" in err
    assert not (tmp_path / output).exists()


def test_gltf_is_written_as_json_or_binary_by_its_extension(tmp_path, capsys):
    assert main(["convert", SWING, "-o", str(tmp_path / "a.gltf")]) == 0
    assert main(["convert", SWING, "-o", str(tmp_path / "a.glb")]) == 0
    text = (tmp_path / "a.gltf").read_bytes()
    assert json.loads(text)["buffers"][0]["uri"].startswith("data:application/octet-stream;base64,")
    assert (tmp_path / "a.glb").read_bytes()[:4] == b"glTF"
    assert "a.gltf: %d bytes" % len(text) in capsys.readouterr().out
    # Both forms are the same document: each converts back to the same bytes as the source.
    for name in ("a.gltf", "a.glb"):
        assert main(["convert", str(tmp_path / name), "-o", str(tmp_path / (name + ".animbin"))]) == 0
        assert (tmp_path / (name + ".animbin")).read_bytes() == Path(SWING).read_bytes()


def test_folder_outputs_keep_their_extensions(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(SWING, src / "swing.animbin")
    assert main(["convert", str(src), "-o", str(tmp_path / "out")]) == 0
    assert main(["convert", str(tmp_path / "out"), "-o", str(tmp_path / "back")]) == 0
    assert (tmp_path / "back" / "swing.animbin").read_bytes() == Path(SWING).read_bytes()


def test_an_explicit_fit_wins_over_the_layout_in_extras_and_says_so(inputs, tmp_path, capsys):
    assert main(["convert", inputs["gltf-layout"], "-o", str(tmp_path / "a.animbin")]) == 0
    followed = capsys.readouterr().out
    assert "ANIMBIN layout from extras" in followed
    assert main(["convert", inputs["gltf-layout"], "-o", str(tmp_path / "b.animbin"), "--fit", "reduce"]) == 0
    report = capsys.readouterr().out
    assert "(reduce)" in report and "not followed, --fit reduce given" in report
    assert (tmp_path / "a.animbin").read_bytes() != (tmp_path / "b.animbin").read_bytes()


# --------------------------------------------------------------------------- glTF in info and dump


def test_info_on_a_gltf_lists_skins_joints_animations_and_a_joints_file(capsys):
    assert main(["info", RIG, BIPED]) == 0
    out = capsys.readouterr().out
    assert "skin 0 'pendulum': 4 joint(s), in skin order:\n      0=root, 1=upper, 2=lower, 3=tip" in out
    assert "animation 0 'swing': 0.484 s, 4 channel(s), moves 4 node(s): root, upper, lower, tip" in out
    assert "animation 1 'nod': 0.400 s, 2 channel(s), moves 2 node(s): lower, tip" in out
    # The 15-joint limit is the PS1's: said as advice for an ANIMBIN export, not as the rig's problem
    assert "for ANIMBIN (PS1) export: --joints not needed for skin 0 (4 joint(s)" in out
    assert "skin 0 'biped': 21 joint(s)" in out
    assert "for ANIMBIN (PS1) export only: skin 0 has 21 joints, the PS1 engine holds 15: give --joints FILE" in out
    assert "for .animclip export: nothing to do" in out
    assert "--joints FILE needed" not in out


def test_the_joints_proposal_is_a_file_convert_takes(tmp_path, capsys):
    from animspec.gltf.info import summarise

    proposal = summarise(BIPED).joints_file
    assert 0 < len(proposal) <= 15
    (tmp_path / "j.txt").write_text("\n".join(proposal) + "\n")
    # (the rig has no animation, which is nothing to convert: the walk put on it has one)
    assert main(["convert", WALK, "--skeleton", BIPED, "-o", str(tmp_path / "walk.glb")]) == 0
    walk = str(tmp_path / "walk.glb")
    assert main(["convert", walk, "--joints", str(tmp_path / "j.txt"), "--fit", "cut", "-o", str(tmp_path / "b.animbin")]) == 0
    assert "skin 0: %d joint(s) in mapping order" % len(proposal) in capsys.readouterr().out


def test_too_many_joints_lists_the_candidates(tmp_path, capsys):
    assert main(["convert", BIPED, "-o", str(tmp_path / "b.animbin")]) == 2
    err = capsys.readouterr().err
    assert "give --joints FILE naming at most 15" in err
    assert "0=root, 1=pelvis" in err and "20=foot_r" in err and "for example these 15" in err


def test_dump_of_a_gltf(capsys):
    assert main(["dump", RIG]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "gltf"
    assert [j["name"] for j in doc["summary"]["skins"][0]["joints"]] == ["root", "upper", "lower", "tip"]
    assert doc["document"]["skins"][0]["joints"] == [0, 1, 2, 3]


# --------------------------------------------------------------------------- the rest of the seams


def test_plot_without_matplotlib_names_the_extra(monkeypatch, tmp_path, capsys):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    status = main(["plot", SWING, "-o", str(tmp_path / "c.png")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    # The hint is what works from a checkout (animspec is not on PyPI): a real extra of
    # pyproject.toml that brings matplotlib, and a real make target whose venv has it.
    [extra] = re.findall(r"pip install -e '\.\[(\w+)\]'", err)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("matplotlib") for d in project["optional-dependencies"][extra])
    assert "animspec[" not in err
    [target] = re.findall(r"`make (\S+)`", err)
    makefile = (ROOT / "Makefile").read_text()
    rule = re.search(rf"^{re.escape(target.replace('.venv/', '$(VENV)/'))}:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert rule is not None, f"no make target {target}"
    [installed] = re.findall(r"pip install --quiet -e '\.\[([\w,]+)\]'", rule.group(1))
    assert any(d.startswith("matplotlib") for e in installed.split(",") for d in project["optional-dependencies"][e])
    assert not (tmp_path / "c.png").exists()


def test_an_unknown_option_prints_the_commands_usage(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["info", SWING, "--josn"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: animspec info ") and "unrecognized arguments: --josn" in err


def test_dump_to_a_file_confirms_like_every_writer(tmp_path, capsys):
    assert main(["dump", SWING, "-o", str(tmp_path / "s.json")]) == 0
    size = (tmp_path / "s.json").stat().st_size
    assert capsys.readouterr().out == f"{tmp_path / 's.json'}: {size} bytes (JSON dump of {SWING})\n"


def test_every_option_and_positional_has_help():
    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    for name, command in [("animspec", parser), *sub.choices.items()]:
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            if not (action.help or "").strip():
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, f"no help text: {missing}"


def _chain_gltf(count: int, cycle: bool) -> bytes:
    """A .gltf whose ``count`` nodes hang from one another, all joints of one skin; with
    ``cycle`` the last is the first's parent (each node still has one parent)."""
    nodes = [{"name": f"j{i}", "children": [i + 1]} for i in range(count - 1)] + [{"name": f"j{count - 1}"}]
    if cycle:
        nodes[-1]["children"] = [0]
    doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": nodes,
           "skins": [{"joints": list(range(count))}]}
    return json.dumps(doc).encode()


def test_info_on_a_gltf_whose_nodes_form_a_cycle_is_an_error_not_a_hang(tmp_path, capsys):
    (tmp_path / "cycle.gltf").write_bytes(_chain_gltf(20, cycle=True))
    assert main(["info", str(tmp_path / "cycle.gltf")]) == 2
    assert "cycle" in capsys.readouterr().err


def test_the_joints_proposal_of_a_long_chain_keeps_its_top(tmp_path, capsys):
    # 3,000 joints in one chain (pygltflib takes most of the time reading them).
    (tmp_path / "chain.gltf").write_bytes(_chain_gltf(3_000, cycle=False))
    assert main(["info", str(tmp_path / "chain.gltf")]) == 0
    out = capsys.readouterr().out
    assert "skin 0 has 3000 joints, the PS1 engine holds 15: give --joints FILE" in out
    proposal = "\n      " + ", ".join(f"j{i}" for i in range(15)) + "\n"  # the chain's top 15
    assert out.endswith(proposal + "  for .animclip export: nothing to do, every joint is matched by its name's hash\n")


def test_local_translation_error_acts_on_an_animation_that_moves(tmp_path, capsys):
    from conftest import anim_header, header, rot_key, track_header, trans_key

    # One joint sliding along x (a translation track) while it turns: both tolerances matter.
    slide = (header(1) + anim_header(b"slide", 1, 10, 2, 0) + track_header(0, 0, 2) + rot_key(0, 4096, 0, 0, 0)
             + rot_key(9, 2896, 0, 2896, 0) + track_header(1, 0, 10) + b"".join(trans_key(f, f * 300, 0, 0) for f in range(10)))
    (tmp_path / "slide.animbin").write_bytes(slide)
    assert main(["convert", str(tmp_path / "slide.animbin"), "-o", str(tmp_path / "slide.glb")]) == 0
    assert main(["convert", str(tmp_path / "slide.glb"), "-o", str(tmp_path / "a.animclip")]) == 0
    assert main(["convert", str(tmp_path / "slide.glb"), "-o", str(tmp_path / "b.animclip"),
                 "--local-translation-error", "0.1"]) == 0
    assert (tmp_path / "a.animclip").read_bytes() != (tmp_path / "b.animclip").read_bytes()
