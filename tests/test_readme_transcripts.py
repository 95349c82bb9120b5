"""The README and the manuals in docs/ show what the tool really does.

* Every ``$ animspec ...`` line in a ```text block of README.md and of each docs/*.md is run,
  in order, one folder per page holding the repository's examples/ (as the pages' paths
  expect), and what it prints
  (standard output and standard error, as a terminal shows them) must be the lines that
  follow it, up to the next ``$`` line or the end of the block. Only paths (the run's folder
  and the repository's, which differ per machine) and timings (a number of ms or µs) are
  normalised. An elision (a line ``...``, or a line ending in `` ...`` that stands for any
  line starting with what precedes it) is allowed only for the commands in :data:`ELIDED`,
  each with the reason.
* Every ```sh block whose commands are ``animspec`` (with shell variables and ``printf``) is
  run as a shell script and must succeed; the one that needs a Debian sample (Khronos
  RiggedFigure) is marked ``debian_assets``.
* Every ```python block of those pages runs, a page's blocks in order in one process, in a
  folder holding examples/, and must succeed.
* The command table's usage lines (docs/cli.md) agree with the parser: every option shown
  exists, an option in brackets is optional and one outside them is required, and each
  command's options are all shown.
* The README's first screen obeys its rules: the first section is the quick start, with one
  set-up block of exactly ``make demo`` and ``make test``, and at least three transcripts.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from animspec.cli import _parser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CLI = ROOT / "docs" / "cli.md"
PYTHON_API = ROOT / "docs" / "python.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
"""The pages whose transcripts, shell and Python blocks are run."""
FENCE = re.compile(r"^```(\w*)\s*$")
TIMING = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|µs)\b")

ELIDED: dict[str, str] = {}
"""Command line -> why its transcript may elide lines. None does today: every transcript is
the whole output."""

BATCH_OPTIONS = {"--jobs", "--jsonl", "--no-progress"}
"""Options of every batch command, described once in the paragraph under the table."""
REQUIRED_FOR_AN_INPUT = {("convert", "--skeleton"): "an .animclip has no hierarchy: its row needs a rig"}
"""Options shown outside brackets in a row although the parser has them optional, and why."""
ASSET_PATH = "/usr/lib/x86_64-linux-gnu/qt5/examples"


def blocks(text: str) -> list[tuple[str, list[str]]]:
    """(info string, lines) of every fenced block, in order."""
    found, current, kind = [], None, ""
    for line in text.splitlines():
        m = FENCE.match(line)
        if m and current is None:
            current, kind = [], m.group(1)
        elif line.startswith("```") and current is not None:
            found.append((kind, current))
            current = None
        elif current is not None:
            current.append(line)
    return found


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def transcripts(page: Path = README) -> list[tuple[str, list[str]]]:
    """(command line, expected output lines) of every ``$ animspec`` line of a page, in order."""
    out = []
    for kind, lines in blocks(page.read_text(encoding="utf-8")):
        if kind != "text":
            continue
        current: list[str] | None = None  # (lines before a block's first $ belong to no command)
        for line in lines:
            if line.startswith("$ "):
                current = []
                out.append((line[2:], current))
            elif current is not None:
                current.append(line)
    return out


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ, COLUMNS="200")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")  # this animspec
    return env


def normalise(text: str, folder: Path) -> list[str]:
    for path in (str(folder.resolve()), str(folder), str(ROOT)):
        text = text.replace(path + os.sep, "").replace(path, ".")
    return [TIMING.sub("<time>", line.rstrip()) for line in text.splitlines()]


def matches(expected: list[str], actual: list[str], elisions: bool) -> bool:
    if not elisions:
        return expected == actual
    pattern = []
    for line in expected:
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        elif line.endswith(" ..."):
            pattern.append(re.escape(line[:-4]) + r"[^\n]*\n")
        else:
            pattern.append(re.escape(line) + r"\n")
    return re.fullmatch("".join(pattern), "".join(a + "\n" for a in actual)) is not None


def with_examples(folder: Path) -> Path:
    (folder / "examples").symlink_to(ROOT / "examples")
    return folder


def test_the_pages_have_transcripts():
    found = [t for page in PAGES for t in transcripts(page)]
    assert len(transcripts(README)) >= 3, "the README's transcripts were not found"
    assert len(transcripts(CLI)) >= 4, "docs/cli.md's transcripts were not found; the check would pass vacuously"
    assert all(command.startswith("animspec ") for command, _ in found)


def test_elisions_only_where_documented():
    for command, expected in [t for page in PAGES for t in transcripts(page)]:
        elided = [line for line in expected if line.strip() == "..." or line.endswith(" ...")]
        assert not elided or command in ELIDED, f"`{command}` elides output; add it to ELIDED with the reason"


@pytest.mark.parametrize("page", [p for p in PAGES if transcripts(p)], ids=page_id)
def test_transcripts_are_the_real_output(page, tmp_path):
    folder = with_examples(tmp_path)
    wrong = []
    for command, expected in transcripts(page):
        args = shlex.split(command)
        run = subprocess.run(
            [sys.executable, "-m", "animspec", *args[1:]], cwd=folder, env=environment(folder),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
        )
        actual = normalise(run.stdout, folder)
        if not matches(expected, actual, command in ELIDED):
            wrong.append(f"$ {command}\n--- {page_id(page)}\n" + "\n".join(expected) + "\n--- real\n" + "\n".join(actual))
    assert not wrong, f"{page_id(page)} transcripts that differ from the tool's output:\n\n" + "\n\n".join(wrong)


def shell_blocks() -> list[tuple[str, bool]]:
    """(script, needs a Debian sample) of every ```sh block made of animspec commands."""
    out = []
    for kind, lines in [b for page in PAGES for b in blocks(page.read_text(encoding="utf-8"))]:
        commands = [l for l in lines if l.strip() and not l.lstrip().startswith("#")]
        if kind != "sh" or not commands:
            continue
        if all(re.match(r"(animspec |printf |[A-Z]+=)", l) for l in commands):
            out.append(("\n".join(lines), ASSET_PATH in "\n".join(lines)))
    return out


@pytest.mark.parametrize("script", [
    pytest.param(script, marks=[pytest.mark.debian_assets] if needs_asset else [], id=f"block{i}")
    for i, (script, needs_asset) in enumerate(shell_blocks())
])
def test_shell_examples_run(script, tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    for path in re.findall(r"=(/\S+)", script):
        if not Path(path).exists():
            message = f"{path} is missing: install the Debian package (tools/test_assets.sh)"
            pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=environment(tmp_path),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"example failed:\n{script}\n{run.stdout}{run.stderr}"


def test_there_are_shell_examples():
    assert len(shell_blocks()) >= 2


# --------------------------------------------------------------------------- Python examples


def python_blocks(page: Path) -> list[str]:
    return ["\n".join(lines) for kind, lines in blocks(page.read_text(encoding="utf-8")) if kind == "python"]


def test_the_python_page_has_examples():
    assert len(python_blocks(PYTHON_API)) >= 2, "docs/python.md's examples were not found"


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)], ids=page_id)
def test_python_examples_run(page, tmp_path):
    script = "\n\n".join(python_blocks(page))
    run = subprocess.run([sys.executable, "-c", script], cwd=with_examples(tmp_path), env=environment(tmp_path),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{page_id(page)}: a Python example failed:\n{run.stdout}{run.stderr}"


# --------------------------------------------------------------------------- the command table


def table_rows() -> list[str]:
    rows = []
    for line in CLI.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| `(animspec [^`]+)` \|", line)
        if m:
            rows.append(m.group(1).replace("\\|", "|"))
    return rows


def options_shown(usage: str) -> list[tuple[str, bool]]:
    """(option, inside brackets) for every option token of a usage line."""
    depth, shown = 0, []
    for token in re.findall(r"\[|\]|[^\s\[\]]+", usage):
        if token == "[":
            depth += 1
        elif token == "]":
            depth -= 1
        elif token.startswith("-") and not token.startswith("--joints=") and re.match(r"^--?[a-z]", token):
            shown.append((token.split("|")[0], depth > 0))
    assert depth == 0, f"unbalanced brackets: {usage}"
    return shown


def test_the_command_table_agrees_with_the_parser():
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    rows = table_rows()
    assert len(rows) >= 10
    problems, shown_per_command = [], {}
    for usage in rows:
        command = usage.split()[1]
        parser = sub.choices[command]
        by_flag = {flag: action for action in parser._actions for flag in action.option_strings}
        for flag, optional in options_shown(usage):
            action = by_flag.get(flag)
            if action is None:
                problems.append(f"`{usage}`: {flag} is not an option of {command}")
                continue
            shown_per_command.setdefault(command, set()).add(action.dest)
            if optional and action.required:
                problems.append(f"`{usage}`: {flag} is required, but shown in brackets")
            if not optional and not action.required and (command, flag) not in REQUIRED_FOR_AN_INPUT:
                problems.append(f"`{usage}`: {flag} is optional, but shown without brackets")
    for command, parser in sub.choices.items():
        wanted = {a.dest for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)
                  and not set(a.option_strings) & BATCH_OPTIONS}
        missing = wanted - shown_per_command.get(command, set())
        if missing:
            problems.append(f"{command}: options not in the table: {sorted(missing)}")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- the first screen


def test_the_readme_opens_with_what_it_is_for_and_two_setup_commands():
    text = README.read_text(encoding="utf-8")
    first = text[: text.index("\n## Tests")]  # what the tool is for, the quick start
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[0] == "Quick start", f"the README's first section is {headings[0]!r}, not the quick start"
    setup = [body for kind, body in blocks(first) if kind == "sh"]
    assert len(setup) == 1, "one set-up block before the reference"
    commands = [line.split("#")[0].strip() for line in setup[0] if line.split("#")[0].strip()]
    assert commands == ["make demo", "make test"]
    assert "pip install" not in first and len(transcripts()) >= 3
    # ...and make demo installs animspec alone: no test, fuzz or plot tools.
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = re.search(r"^demo: (.+)$", makefile, re.M).group(1).split()
    base = re.search(r"^\$\(VENV\)/\.installed-base:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert demo == ["$(VENV)/.installed-base"] and "pip install --quiet -e .\n" in base and "[" not in base
