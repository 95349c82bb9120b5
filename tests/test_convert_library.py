"""animspec.convert as a library, and glTF detection from bytes (gltf.document.looks_like_gltf).

The command line only parses and prints: a run planned and run from Python writes the same
files and reports as ``animspec convert``; each option has one spelling from the argparse
``dest`` to the library; using the library never imports animspec.cli. glTF is told by its
bytes (a GLB's magic, or the head of glTF JSON), never by its extension.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

from animspec import convert
from animspec.cli import _parser, main
from animspec.cli.convert import options_given
from animspec.common.errors import AnimspecError
from animspec.gltf.document import looks_like_gltf

SIMPLE_SKIN = Path("/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf")
RIGGED_SIMPLE = Path(
    "/usr/lib/x86_64-linux-gnu/qt5/examples/qt3d/exampleresources/assets/gltf/2.0/RiggedSimple/RiggedSimple.gltf"
)
MINIMAL = b'{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"name": "root"}]}'


# ---------------------------------------------------------------------------- looks_like_gltf


@pytest.mark.parametrize(
    "head",
    [
        b"glTF\x02\x00\x00\x00",  # a GLB header
        MINIMAL,
        MINIMAL[:20],  # cut inside "asset"'s value: the head runs out, every member so far is glTF's
        b'\xef\xbb\xbf \n\t{ "scene" : 0, "asset": {"version": "2.0"}}',  # BOM and whitespace
        b'{\n  "accessors" : [ {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"',
    ],
)
def test_glb_and_gltf_json_heads_are_gltf(head):
    assert looks_like_gltf(head)


@pytest.mark.parametrize(
    "head",
    [
        b"",
        b"{}",  # a whole object without the required "asset"
        b'{"scenes": [], "nodes": []}',  # likewise
        b'{"format": "animbin", "version": 1, "animations": []}',  # a JSON dump
        b'{"walk": [{"name": "step", "frame": 3}]}',  # a --markers file
        b'{"asset": {}, "format": "animbin"}',  # a member glTF does not have
        b"[1, 2, 3]",
        b"ANIMBIN\x01\x01",
        b"glTf\x02\x00\x00\x00",
    ],
)
def test_other_heads_are_not_gltf(head):
    assert not looks_like_gltf(head)


@pytest.mark.debian_assets
@pytest.mark.parametrize("path", [SIMPLE_SKIN, RIGGED_SIMPLE], ids=["simple_skin", "RiggedSimple"])
def test_third_party_gltf_json_is_told_by_its_first_64_bytes(path):
    """SimpleSkin starts with "scenes", RiggedSimple with "asset": both are found in the head
    a folder walk reads. (tests/test_third_party_rigs.py says where these files come from.)"""
    assert path.is_file(), f"{path} is missing: install the Debian package (tools/test_assets.sh)"
    assert looks_like_gltf(path.read_bytes()[:64])


def test_a_folder_walk_takes_gltf_by_content_not_by_extension(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "rig.json").write_bytes(MINIMAL)  # glTF JSON under another extension: seen as glTF
    shutil.copy(EXAMPLES / "pendulum_rig.glb", src / "clips.bin")  # a GLB with animations: taken
    (src / "dump.gltf").write_text(json.dumps({"format": "animbin", "version": 1, "animations": []}))  # not glTF
    shutil.copy(EXAMPLES / "swing.animbin", src / "swing.animbin")
    shutil.copy(EXAMPLES / "pendulum.meshbin", src / "pendulum.meshbin")  # not a convert source
    work = convert.plan([str(src)], str(tmp_path / "out"), convert.ConvertOptions())
    assert not work.single
    assert [(Path(j.file).name, Path(j.output).name) for j in work.jobs] == [
        ("clips.bin", "clips.animbin"), ("swing.animbin", "swing.glb"),
    ]
    assert sorted(Path(p).name for p in work.selection.skipped) == ["dump.gltf", "pendulum.meshbin"]
    # Known as glTF by its bytes, but without an animation there is nothing to convert (issue 23).
    assert [(Path(p).name, why) for p, why in work.passed_over] == [
        ("rig.json", "a glTF without animations: nothing to convert to ANIMBIN"),
    ]


# ---------------------------------------------------------------------------- the library


def test_one_spelling_per_option_from_the_command_line_to_the_library():
    convert_parser = _parser()._subparsers._group_actions[0].choices["convert"]
    dests = {a.dest for a in convert_parser._actions} - {"help", "inputs", "output", "jobs", "jsonl", "no_progress"}
    assert dests == set(convert.OPTION_NAMES)


def test_the_library_defaults_are_the_command_line_defaults():
    # A Python caller who leaves an option out gets what `animspec convert IN -o OUT` does.
    args = _parser().parse_args(["convert", "in.glb", "-o", "out.animbin"])
    assert options_given(args) == convert.ConvertOptions()
    # (fit None: bake, unless the glTF carries an ANIMBIN layout in extras, which is followed)
    assert convert.ConvertOptions().fit is None
    # (max_error None: each direction's own default, from one table)
    assert convert.ConvertOptions().max_error is None
    assert convert.ConvertOptions().errors("gltf-animbin").max_error == 1.0


def test_load_options_reads_the_side_files_once(tmp_path):
    joints = tmp_path / "joints.txt"
    joints.write_text("hips\nspine\n")
    markers = tmp_path / "markers.json"
    markers.write_text('{"walk": [{"name": "step", "frame": 3}]}')
    options = convert.load_options(joints=str(joints), markers=str(markers), animations=["walk"], region="pal")
    assert options.joints == ("hips", "spine")
    assert options.animations == ("walk",)
    assert options.region == "pal"
    assert options.markers is not None and "walk" in options.markers


def test_a_run_from_python_writes_what_the_command_line_writes(tmp_path, capsys):
    src = tmp_path / "src"
    (src / "deep").mkdir(parents=True)
    shutil.copy(EXAMPLES / "swing.animbin", src / "swing.animbin")
    shutil.copy(EXAMPLES / "sparse.animbin", src / "deep" / "sparse.animbin")
    skeleton = str(EXAMPLES / "pendulum.meshbin")

    work = convert.plan([str(src)], str(tmp_path / "lib"), convert.load_options(skeleton=skeleton))
    results = list(work.run(jobs=1))
    assert [r.status for r in results] == [0, 0]

    status = main(["convert", str(src), "-o", str(tmp_path / "cli"), "--skeleton", skeleton, "--jsonl", "-j", "1"])
    assert status == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["outputs"] for line in lines] == [
        [r.extra["outputs"][0].replace(str(tmp_path / "lib"), str(tmp_path / "cli"))] for r in results
    ]
    for rel in ("swing.glb", "deep/sparse.glb"):
        assert (tmp_path / "lib" / rel).read_bytes() == (tmp_path / "cli" / rel).read_bytes()


def test_one_file_to_a_file_is_a_single_run(tmp_path):
    out = tmp_path / "swing.glb"
    work = convert.plan([str(EXAMPLES / "swing.animbin")], str(out), convert.ConvertOptions())
    assert work.single and [(j.file, j.output) for j in work.jobs] == [(str(EXAMPLES / "swing.animbin"), str(out))]
    result = convert.convert_file(work.jobs[0].file, str(out), convert.ConvertOptions())
    assert result.status == 0 and out.read_bytes()[:4] == b"glTF"
    with pytest.raises(AnimspecError, match="--force"):  # the overwrite policy lives in the library
        convert.convert_file(str(EXAMPLES / "swing.animbin"), str(out), convert.ConvertOptions())


def test_several_inputs_need_an_output_folder(tmp_path):
    inputs = [str(EXAMPLES / "swing.animbin"), str(EXAMPLES / "sparse.animbin")]
    with pytest.raises(AnimspecError, match="output must be a folder"):
        convert.plan(inputs, str(tmp_path / "both.glb"), convert.ConvertOptions())


def test_the_library_never_imports_the_command_line(tmp_path):
    code = (
        "import sys\n"
        "from animspec import convert\n"
        f"work = convert.plan([{str(EXAMPLES / 'swing.animbin')!r}], {str(tmp_path / 'o.glb')!r}, convert.ConvertOptions())\n"
        "convert.convert_file(work.jobs[0].file, work.jobs[0].output, convert.ConvertOptions())\n"
        "print(sorted(m for m in sys.modules if m.startswith('animspec.cli')))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
    assert (tmp_path / "o.glb").is_file()


# ---------------------------------------------------------------------------- in process, for what a mutation run showed


def test_several_inputs_need_a_folder_for_output(tmp_path):
    inputs = [str(EXAMPLES / "swing.animbin"), str(EXAMPLES / "sparse.animbin")]
    existing_file = tmp_path / "taken.glb"
    existing_file.write_bytes(b"x")
    for output in (existing_file, tmp_path / "new.glb", tmp_path / "new.animbin"):
        with pytest.raises(AnimspecError, match="output must be a folder"):
            convert.plan(inputs, str(output), convert.ConvertOptions())
    folder = tmp_path / "existing"
    folder.mkdir()
    for output in (folder, tmp_path / "to_be_made"):
        work = convert.plan(inputs, str(output), convert.ConvertOptions())
        assert not work.single and [Path(j.output).parent for j in work.jobs] == [output, output]


def test_a_batch_makes_its_folders_once_for_several_files(tmp_path):
    src = tmp_path / "in" / "clips"
    src.mkdir(parents=True)
    for name in ("swing.animbin", "sparse.animbin"):
        shutil.copyfile(EXAMPLES / name, src / name)
    out = tmp_path / "out"
    work = convert.plan([str(tmp_path / "in")], str(out), convert.ConvertOptions())
    results = list(work.run(jobs=1))
    assert [r.error for r in results] == [None, None]
    assert sorted(p.name for p in (out / "clips").iterdir()) == ["sparse.glb", "swing.glb"]


def test_one_shot_clears_the_looping_flag(tmp_path):
    from animspec.animbin import read_file

    looping = tmp_path / "loop.animbin"
    once = tmp_path / "once.animbin"
    rig = str(EXAMPLES / "pendulum_rig.glb")
    convert.convert_file(rig, str(looping), convert.ConvertOptions(animations=("swing",)))
    convert.convert_file(rig, str(once), convert.ConvertOptions(animations=("swing",), one_shot=True))
    assert read_file(looping).animations[0].flags & 1 == 1
    assert read_file(once).animations[0].flags & 1 == 0


def test_options_and_plans_are_values():
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        convert.ConvertOptions().fit = "cut"
    work = convert.plan([str(EXAMPLES / "swing.animbin")], "x.glb", convert.ConvertOptions())
    with pytest.raises(dataclasses.FrozenInstanceError):
        work.task.options = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        work.jobs[0].output = "y.glb"


def test_the_animbin_report_names_the_rig_and_warns_of_unused_joints(tmp_path):
    def report(src: str, **given) -> str:
        out = tmp_path / f"{len(list(tmp_path.iterdir()))}.glb"
        return convert.convert_file(src, str(out), convert.ConvertOptions(**given)).text

    swing = str(EXAMPLES / "swing.animbin")
    pendulum, biped = str(EXAMPLES / "pendulum_rig.glb"), str(EXAMPLES / "biped_rig.glb")
    assert report(swing).endswith("keys as authored, on a simple chain")
    on_pendulum = report(swing, skeleton=pendulum)
    assert on_pendulum.endswith(f"on {pendulum} (4 joint(s) in skin order, its nodes and meshes kept)")
    assert "warning" not in on_pendulum  # swing animates joints 0-3 of the 4
    on_biped = report(swing, skeleton=biped)
    assert "(21 joint(s) in skin order" in on_biped
    assert "warning: the clip animates 4 joint(s), the rig has 21 in skin order" in on_biped
    named = report(swing, skeleton=pendulum, joints=("root", "upper", "lower", "tip"))
    # the library names the option by its parameter; a front end gives its own words
    assert "(4 joint(s) in joints order" in named and "warning" not in named
    assert "--joints" not in named


# ---------------------------------------------------------------------------- directions and refusals


def test_every_option_acts_on_a_registered_direction():
    from animspec.formats import CONVERT_SOURCES

    assert {d.source for d in convert.DIRECTIONS} == set(CONVERT_SOURCES)
    assert len({d.name for d in convert.DIRECTIONS}) == len(convert.DIRECTIONS)
    declared = set().union(*(d.options for d in convert.DIRECTIONS))
    assert declared <= set(convert.OPTION_NAMES)
    assert {n for n in convert.OPTION_NAMES if not any(d.acts(n) for d in convert.DIRECTIONS)} == set()


def test_a_job_carries_its_direction_and_each_input_is_sniffed_once(tmp_path, monkeypatch):
    import animspec.convert.planning as planning

    src = tmp_path / "in"
    src.mkdir()
    for name in ("swing.animbin", "walk.animclip", "pendulum_rig.glb"):
        shutil.copyfile(EXAMPLES / name, src / name)
    told: list[str] = []
    sniff = planning.source_of
    monkeypatch.setattr(planning, "source_of", lambda path: told.append(path) or sniff(path))
    options = convert.load_options(skeleton=str(EXAMPLES / "biped_rig.glb"))
    work = convert.plan([str(src)], str(tmp_path / "out"), options)
    assert {Path(j.file).name: j.direction.name for j in work.jobs} == {
        "swing.animbin": "animbin-gltf", "walk.animclip": "animclip-gltf", "pendulum_rig.glb": "gltf-animbin",
    }
    results = [work.task(job) for job in work.jobs]
    assert [r.status for r in results] == [0, 0, 0]
    assert sorted(told) == sorted(j.file for j in work.jobs)


def test_a_refusal_carries_its_facts_and_each_front_end_words_it(tmp_path, capsys):
    from animspec.cli.convert import flag

    options = convert.load_options(max_error=0.5)
    with pytest.raises(convert.OptionRefused) as refused:
        convert.plan([str(EXAMPLES / "swing.animbin")], str(tmp_path / "o.glb"), options)
    exc = refused.value
    assert (exc.option, exc.reason, exc.facts["runs"]) == ("max_error", "other-direction", ("ANIMBIN -> glTF",))
    assert str(exc).startswith("max_error acts on glTF -> ANIMBIN and glTF -> .animclip")
    assert str(exc).endswith("leave max_error out")  # the library names its parameters
    cli_text = exc.say(flag)
    assert cli_text.startswith("--max-error acts on") and cli_text.endswith("leave --max-error out")
    status = main(["convert", str(EXAMPLES / "swing.animbin"), "-o", str(tmp_path / "o.glb"), "--max-error", "0.5"])
    assert (status, capsys.readouterr().err) == (2, f"animspec: error: {cli_text}\n")
