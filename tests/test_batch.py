"""Many files at once: animspec.batch (selection, ordered parallel runs, failures, summary)
and the CLI's folders, globs, --jobs, --jsonl, progress bar and exit codes."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, one_clip, raw_key, rot_key

from animspec.batch import (
    InfoTask,
    Progress,
    Result,
    Source,
    Summary,
    ValidateTask,
    collect,
    iter_paths,
    run_batch,
)
from animspec.cli import main

SWING = (EXAMPLES / "swing.animbin").read_bytes()
BAD = one_clip([rot_key(0, 4096, 0, 0, 0), raw_key(1, 7)])  # an unknown-key-type error
BROKEN = b"ANIMBIN\x01\x01"  # cut inside the first animation's name


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "animspec", *args], capture_output=True, text=True)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """clips/ with known files at two levels, a bad and a broken one in the middle, an
    unknown file, a hidden folder, and a MESHBIN and .animclip beside the ANIMBINs."""
    root = tmp_path / "clips"
    (root / "sub").mkdir(parents=True)
    (root / ".cache").mkdir()
    (root / "a.animbin").write_bytes(SWING)
    (root / "b_bad.animbin").write_bytes(BAD)
    (root / "c_broken.animbin").write_bytes(BROKEN)
    (root / "d.animbin").write_bytes(SWING)
    (root / "notes.txt").write_text("not a clip\n")
    (root / "sub" / "walk.animclip").write_bytes((EXAMPLES / "walk.animclip").read_bytes())
    (root / "sub" / "mesh.meshbin").write_bytes((EXAMPLES / "pendulum.meshbin").read_bytes())
    (root / ".cache" / "hidden.animbin").write_bytes(SWING)
    return root


def names(sources) -> list[str]:
    return [Path(s.file).name for s in sources]


# ---------------------------------------------------------------------------- selection


def test_folder_is_walked_in_a_stable_order_and_picked_by_content(tree):
    sel = collect([str(tree)])
    assert names(sel.sources) == ["a.animbin", "b_bad.animbin", "c_broken.animbin", "d.animbin", "mesh.meshbin", "walk.animclip"]
    assert [s.relative.as_posix() for s in sel.sources][-2:] == ["sub/mesh.meshbin", "sub/walk.animclip"]
    assert sel.skipped == [str(tree / "notes.txt")] and sel.many
    assert all(not s.explicit for s in sel.sources)
    assert iter_paths([str(tree)]) == [Path(s.file) for s in sel.sources]


def test_explicit_unknown_file_is_kept_and_reported(tree):
    sel = collect([str(tree / "notes.txt")])
    assert names(sel.sources) == ["notes.txt"] and sel.sources[0].explicit and not sel.many
    [result] = run_batch(sel.sources, ValidateTask())
    assert result.failed and "not a file animspec knows" in result.error["message"]


def test_globs_recurse_pick_by_content_and_a_miss_is_reported(tree, monkeypatch):
    monkeypatch.chdir(tree.parent)
    sel = collect(["clips/**/*.a*", "clips/*.txt", "clips/nothing-*.animbin"])
    assert [s.file for s in sel.sources] == [
        os.path.join("clips", n) for n in ("a.animbin", "b_bad.animbin", "c_broken.animbin", "d.animbin")
    ] + [os.path.join("clips", "sub", "walk.animclip")]
    assert sel.skipped == [os.path.join("clips", "notes.txt")]
    assert sel.sources[-1].relative == Path("sub/walk.animclip")
    # A glob that selects nothing, whether it matched no path or only unknown files, is
    # listed with the reason (the CLI counts each as one failure, as for a folder).
    assert sel.empty == [
        ("clips/*.txt", "clips/*.txt: no file animspec reads matches this glob (1 file(s) of no known format skipped)"),
        ("clips/nothing-*.animbin", "clips/nothing-*.animbin: this glob matches no path"),
    ]


def test_each_file_once_in_argument_order(tree):
    sel = collect([str(tree / "d.animbin"), str(tree), str(tree / "a.animbin")])
    assert names(sel.sources)[:2] == ["d.animbin", "a.animbin"] and len(sel.sources) == 6


# ---------------------------------------------------------------------------- running


def test_one_bad_file_does_not_stop_the_batch_and_order_is_stable(tree):
    sel = collect([str(tree)])
    serial = list(run_batch(sel.sources, ValidateTask(), jobs=1))
    parallel = list(run_batch(sel.sources, ValidateTask(), jobs=2, chunksize=1))
    assert [r.to_json() for r in serial] == [r.to_json() for r in parallel]
    assert [r.file for r in parallel] == [s.file for s in sel.sources]
    by_name = {Path(r.file).name: r for r in parallel}
    assert [f.code for f in by_name["b_bad.animbin"].findings if f.severity.value == "error"] == ["unknown-key-type"]
    broken = by_name["c_broken.animbin"]
    assert broken.failed and broken.error["offset"] == 9 and broken.error["field"] == "animations[0].name"
    assert not by_name["d.animbin"].failed and by_name["d.animbin"].findings == []
    summary = Summary(skipped=len(sel.skipped))
    for r in parallel:
        summary.add(r)
    assert (summary.files, summary.failed, summary.with_errors, summary.status) == (6, 1, 1, 2)
    assert summary.findings[("error", "unknown-key-type")] == 1
    assert "1 skipped" in summary.lines()[0]


class Explodes:
    """A task with a bug on one file (picklable: a module-level class)."""

    def __call__(self, source: Source) -> Result:
        if "b_bad" in source.file:
            raise KeyError("boom")
        return Result(source.file)


class KillsItsWorker:
    """A task whose worker process dies on one file, as if killed for memory."""

    def __call__(self, source: Source) -> Result:
        if "c_broken" in source.file:
            os._exit(3)
        return Result(source.file, text=str(os.getpid()))


def test_a_task_raising_anything_fails_only_that_file(tree):
    results = list(run_batch(collect([str(tree)]).sources, Explodes(), jobs=2))
    assert [r.failed for r in results] == [False, True, False, False, False, False]
    assert "internal error: KeyError" in results[1].error["message"]


def test_a_dying_worker_fails_only_its_file(tree):
    results = list(run_batch(collect([str(tree)]).sources, KillsItsWorker(), jobs=2, chunksize=2))
    assert [r.failed for r in results] == [False, False, True, False, False, False]
    assert "worker process died" in results[2].error["message"]


def test_info_task_and_progress_callback(tree):
    counted = []
    results = list(run_batch([tree / "a.animbin", tree / "sub" / "walk.animclip"], InfoTask(), jobs=2, on_done=counted.append))
    assert sum(counted) == 2
    assert results[0].text.startswith("ANIMBIN version 1") and results[1].format == "animclip"


# ---------------------------------------------------------------------------- progress bar


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal():
    pytest.importorskip("tqdm")
    quiet = io.StringIO()
    p = Progress(10, quiet)
    p.update(10)
    p.close()
    assert quiet.getvalue() == ""
    term = FakeTerminal()
    p = Progress(10, term)
    out = io.StringIO()
    p.write("a line", out)
    p.update(5)
    p.close()
    assert "0/10" in term.getvalue() and "file/s" in term.getvalue() and out.getvalue() == "a line\n"
    disabled = FakeTerminal()
    p = Progress(10, disabled, enabled=False)
    p.update(3)
    p.close()
    assert disabled.getvalue() == ""


# ---------------------------------------------------------------------------- the command


def test_validate_folder_exit_codes(tree, tmp_path):
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "x.animbin").write_bytes(SWING)
    (clean / "README").write_text("unknown files in a folder are skipped\n")
    assert run("validate", str(clean)).returncode == 0
    (clean / "y.animbin").write_bytes(BAD)
    r = run("validate", str(clean))
    assert r.returncode == 1 and "summary: 2 file(s): 1 ok, 1 with errors, 0 failed" in r.stdout
    r = run("validate", str(tree), "--jobs", "2")
    assert r.returncode == 2
    assert f"animspec: error: {tree / 'c_broken.animbin'}: byte 9 (0x9)" in r.stderr
    assert "%|" not in r.stderr and "file/s" not in r.stderr  # stderr is no terminal: no bar
    lines = r.stdout.splitlines()
    assert lines[-2].startswith("summary: 6 file(s): 4 ok, 1 with errors, 1 failed; 1 skipped")
    assert "unknown-key-type (error) 1" in lines[-1]


def test_jsonl_streams_one_parseable_object_per_file(tree):
    r = run("validate", str(tree), "--jsonl", "-j", "2")
    assert r.returncode == 2
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["file"] for d in docs] == [s.file for s in collect([str(tree)]).sources]
    assert docs[2]["error"]["offset"] == 9 and docs[1]["format"] == "animbin"
    assert "summary: 6 file(s)" in r.stderr  # the summary keeps stdout pure JSON


def test_jobs_1_and_2_print_the_same(tree):
    one = run("validate", str(tree), "--jsonl", "--jobs", "1")
    two = run("validate", str(tree), "--jsonl", "--jobs", "2")
    assert one.stdout == two.stdout and one.returncode == two.returncode == 2


def test_validate_json_stays_one_list_with_folders(tree, capsys):
    assert main(["validate", str(tree), "--json", "-j", "1"]) == 2
    captured = capsys.readouterr()
    reports = json.loads(captured.out)
    assert [Path(r["file"]).name for r in reports][:3] == ["a.animbin", "b_bad.animbin", "c_broken.animbin"]
    assert reports[2]["findings"] == [] and reports[2]["error"]["field"] == "animations[0].name"
    assert "summary:" in captured.err
    assert main(["validate", str(tree), "--json", "--jsonl"]) == 2


def test_info_over_a_folder(tree, capsys):
    assert main(["info", str(tree / "sub"), "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert f"{tree / 'sub' / 'mesh.meshbin'}:\nMESHBIN" in out and "summary: 2 file(s): 2 ok" in out


def test_convert_folder_keeps_relative_paths(tree, tmp_path, capsys):
    src = tmp_path / "src"
    (src / "deep").mkdir(parents=True)
    shutil.copy(EXAMPLES / "swing.animbin", src / "deep" / "swing.animbin")
    shutil.copy(EXAMPLES / "pendulum_rig.glb", src / "rig.glb")
    (src / "broken.animbin").write_bytes(BROKEN)
    (src / "notes.txt").write_text("skipped\n")
    out = tmp_path / "out"
    assert main(["convert", str(src), "-o", str(out), "-j", "2"]) == 2  # broken.animbin fails, the rest is written
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["deep/swing.glb", "rig.animbin"]
    assert (out / "deep" / "swing.glb").read_bytes()[:4] == b"glTF"
    err = capsys.readouterr().err
    assert "broken.animbin: byte 9" in err and "summary:" not in err

    # Two inputs with one output name: the second fails, the first is written.
    shutil.copy(EXAMPLES / "sparse.animbin", src / "deep" / "swing.animclip.animbin")
    (src / "deep" / "swing.animbin").rename(src / "deep" / "swing.x")
    shutil.copy(EXAMPLES / "walk.animclip", src / "deep" / "swing.animclip")
    assert main(["convert", str(src / "deep" / "swing.x"), str(src / "rig.glb"), str(src / "deep" / "swing.animclip.animbin"),
                 "-o", str(tmp_path / "out2")]) == 0
    r = run("convert", str(src / "deep"), "-o", str(tmp_path / "out3"), "--skeleton", str(EXAMPLES / "pendulum_rig.glb"))
    assert r.returncode == 2 and "is already the output of" in r.stderr

    # Several inputs need a folder for -o.
    r = run("convert", str(src), "-o", str(tmp_path / "one.glb"))
    assert r.returncode == 2 and "-o must be a folder" in r.stderr


def test_a_failing_batch_convert_leaves_no_empty_folder(tmp_path, capsys):
    """Output folders are made when their first file is written, not before."""
    src = tmp_path / "src"
    (src / "deep" / "deeper").mkdir(parents=True)
    (src / "broken.animbin").write_bytes(BROKEN)
    (src / "deep" / "deeper" / "broken.animbin").write_bytes(BROKEN)
    out = tmp_path / "out"
    assert main(["convert", str(src), "-o", str(out), "-j", "2"]) == 2
    assert not out.exists()
    assert main(["convert", str(src / "*.animbin"), "-o", str(out), "-j", "1"]) == 2
    assert not out.exists()
    assert "broken.animbin: byte 9" in capsys.readouterr().err

    # One good file: only its folder is made; the failing file's folder is not.
    shutil.copy(EXAMPLES / "swing.animbin", src / "deep" / "swing.animbin")
    assert main(["convert", str(src), "-o", str(out), "-j", "2"]) == 2
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["deep", "deep/swing.glb"]

    # An output folder that already exists is the user's: left as it is, even when empty.
    kept = tmp_path / "kept"
    kept.mkdir()
    (src / "deep" / "swing.animbin").unlink()
    assert main(["convert", str(src), "-o", str(kept)]) == 2
    assert kept.is_dir() and list(kept.iterdir()) == []


def _os_walk_reference(folder: str, excluded: set[str]) -> list[tuple[str, str]]:
    """What the folder walk did before it listed folders with scandir: os.walk, names
    sorted, hidden names and excluded folders left out, each file with its realpath."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs
                         if not d.startswith(".") and os.path.realpath(os.path.join(root, d)) not in excluded)
        found += [(os.path.join(root, n), os.path.realpath(os.path.join(root, n)))
                  for n in sorted(files) if not n.startswith(".")]
    return found


def test_the_folder_walk_lists_what_os_walk_did(tmp_path):
    from animspec.batch import _walk

    top = tmp_path / "top"
    (top / "b" / "deep").mkdir(parents=True)
    (top / "a").mkdir()
    (top / ".hidden").mkdir()
    (top / "out").mkdir()
    (top / ".hidden" / "x.animbin").write_bytes(SWING)
    (top / "out" / "y.animbin").write_bytes(SWING)
    for name in ("z.bin", "a.bin", "B.bin", ".dot.bin"):
        (top / name).write_bytes(b"x")
    (top / "b" / "deep" / "c.bin").write_bytes(b"x")
    (top / "a" / "one.bin").write_bytes(b"x")
    (top / "link_to_file").symlink_to(top / "a" / "one.bin")
    (top / "link_to_dir").symlink_to(top / "b")  # listed as a folder, never entered
    (top / "dangling").symlink_to(top / "nowhere")
    os.mkfifo(top / "fifo")
    excluded = {os.path.realpath(top / "out")}
    walked = list(_walk(str(top), excluded))
    assert [(f.path, f.real) for f in walked] == _os_walk_reference(str(top), excluded)
    regular = {Path(f.path).name: f.regular for f in walked}
    # Told regular from the listing alone only for plain files: links and the FIFO get a stat.
    assert regular == {"B.bin": True, "a.bin": True, "dangling": False, "fifo": False, "link_to_file": False,
                       "z.bin": True, "one.bin": True, "c.bin": True}
    selection = collect([top, top / "a"], accept=lambda head, path: True, exclude=[top / "out"])
    # The symlink and its target are one file, taken where the walk meets it first (the
    # link, in top's own files); the dangling link is kept so its failure is reported; the
    # FIFO is set aside, never opened.
    assert [Path(s.file).name for s in selection.sources] == [
        "B.bin", "a.bin", "dangling", "link_to_file", "z.bin", "c.bin"]
    assert [Path(p).name for p, _ in selection.not_regular] == ["fifo"]


@pytest.mark.parametrize("jobs", ["0", "-1", "257", "1000000", "nan", "2.5"])
def test_jobs_outside_its_range_is_refused_naming_it(tree, jobs):
    # -j started min(jobs, chunks) processes: an unbounded value one per chunk of a big folder.
    r = run("validate", str(tree), "--jobs", jobs)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "--jobs" in r.stderr and (jobs in ("nan", "2.5") or "from 1 to 256" in r.stderr), r.stderr


def test_jobs_at_its_top_runs(tree):
    r = run("validate", str(tree), "--jsonl", "--jobs", "256")
    assert r.returncode == run("validate", str(tree), "--jsonl", "--jobs", "1").returncode
    assert "Traceback" not in r.stderr
