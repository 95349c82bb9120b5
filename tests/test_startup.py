"""Issue 15: a single-file command imports only what the command and the file's format need.

PS1 builds run ``animspec validate one.animbin`` per file, so start-up is paid each time. No
timing here (the machine is shared): each command runs in a fresh interpreter that lists the
modules it ended up with, and the test checks WHICH modules those are, so a new top-level
import of a heavy module shows up as a failure. ``bench/run.py`` measures the time.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import EXAMPLES

from animspec import formats

# Runs the real command line (python -m animspec ...) and prints the modules imported by then.
_PROBE = """
import json, runpy, sys
sys.argv = ["animspec"] + sys.argv[1:]
try:
    runpy.run_module("animspec", run_name="__main__")
except SystemExit as exc:
    code = exc.code
print(json.dumps({"status": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""

NOT_FOR_ONE_ANIMBIN = (
    "animspec.animclip",  # the other formats' packages
    "animspec.meshbin",
    "animspec.generated",  # the debug-mode parser: only for naming an error's field and offset
    "animspec.gltf",  # convert
    "animspec.convert",  # its registry names the directions in the help, imported only for the help
    "animspec.animbin.playback",
    "multiprocessing",  # the worker pool: only for more than one file
    "concurrent.futures.process",
    # ANIMBIN is read with struct and checked in plain Python. Measured (issue 15): the same
    # command with numpy imported costs 1.5x to 1.7x `python -c "import numpy"`, over the 1.25x
    # target, so ANIMBIN keys are packed records here, numpy views only for array code.
    "numpy",
)


def modules_after(*args: str) -> tuple[int, set[str]]:
    r = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=120)
    report = json.loads(r.stderr.strip().splitlines()[-1])
    return report["status"], set(report["modules"])


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in NOT_FOR_ONE_ANIMBIN))


@pytest.mark.parametrize("command", ["validate", "info"])
def test_one_animbin_imports_only_its_format(command):
    status, modules = modules_after(command, str(EXAMPLES / "swing.animbin"))
    assert status == 0
    assert f"animspec.animbin.{'validate' if command == 'validate' else 'info'}" in modules  # the probe saw the work
    assert heavy(modules) == []


def test_an_animbin_error_still_loads_the_generated_parser_to_name_the_field(tmp_path):
    bad = tmp_path / "cut.animbin"
    bad.write_bytes((EXAMPLES / "swing.animbin").read_bytes()[:60])
    status, modules = modules_after("validate", str(bad))
    assert status == 2
    assert "animspec.generated.animbin" in modules
    assert not any(m.startswith(("animspec.animclip", "animspec.meshbin", "multiprocessing")) for m in modules)


@pytest.mark.parametrize("name", ["walk.animclip", "walk_lz4.animclip", "wave.performanceclip", "pendulum.meshbin"])
def test_a_valid_file_of_any_format_loads_no_generated_parser(name):
    # Detection tries ANIMBIN, then MESHBIN, then .animclip: detecting is a magic compare,
    # and a valid file is read by its bulk reader, so no debug-mode parser is imported
    # (only each package's adapt.py imports one, on the error path).
    status, modules = modules_after("validate", str(EXAMPLES / name))
    assert status == 0
    assert f"animspec.{'meshbin' if name.endswith('.meshbin') else 'animclip'}.validate" in modules
    assert sorted(m for m in modules if m.startswith("animspec.generated")) == []


def test_a_folder_of_several_files_uses_the_pool(tmp_path):
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.animbin").write_bytes((EXAMPLES / "swing.animbin").read_bytes())
    status, modules = modules_after("validate", str(tmp_path), "-j", "2")
    assert status == 0
    assert "concurrent.futures.process" in modules  # the probe can see the modules it forbids above


def test_lazy_formats_name_themselves_as_their_packages_do():
    import importlib

    for fmt in formats.registered():
        assert formats.declaration(fmt).name == fmt.name
        assert formats.declaration(fmt).description == fmt.description
        assert formats.format_named(fmt.name) is fmt
    for fmt in formats.FORMATS:
        assert importlib.import_module(f"animspec.{fmt.name}.jsonio").FORMAT == fmt.name
        assert formats.by_name(fmt.name) is fmt


def test_naming_a_format_imports_no_format_package():
    code = (
        "import sys; from animspec import formats; formats.by_name('meshbin'); formats.format_named('gltf');"
        "print(sorted(m for m in sys.modules if m.startswith(('animspec.animbin', 'animspec.meshbin',"
        " 'animspec.animclip', 'animspec.gltf'))))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
