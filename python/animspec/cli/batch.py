"""What ``animspec validate``, ``info`` and ``convert`` share to run over many files: the
options (--jobs, --jsonl, --no-progress), the progress bar, printing in order, the summary.
The work itself is in animspec.batch."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from itertools import chain
from typing import Any

from ..batch import Progress, Result, Selection, Summary, run_batch
from ..common.ranges import NumberRange
from ..common.status import EXIT_UNREADABLE

PATHS_HELP = (
    "files (each is read, whatever it holds: an unknown one is an error), folders (recursed; "
    "files no format recognises are skipped) and globs (quoted; like folders)"
)


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-j", "--jobs", type=_jobs, metavar="N", help="worker processes (default: every core, os.cpu_count())"
    )
    p.add_argument(
        "--jsonl",
        action="store_true",
        help="one JSON object per file, one line each, streamed as files finish (in input order)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar (shown only when stderr is a terminal)")


JOBS = NumberRange(
    "jobs",
    1,
    256,
    "worker processes",
    whole=True,
    why="each is a Python process of its own; past the cores they only add memory",
)
"""--jobs: a batch starts min(jobs, chunks) workers, so an unbounded value started a process
per chunk of a large folder."""
_jobs = JOBS.parse


class Output:
    """Lines to stdout / stderr that do not tear the progress bar."""

    def __init__(self, progress: Progress):
        self.progress = progress

    def out(self, text: str) -> None:
        self.progress.write(text, sys.stdout)

    def err(self, text: str) -> None:
        self.progress.write(text, sys.stderr)


def run(
    args: argparse.Namespace,
    selection: Selection,
    task: Callable[[Any], Result],
    show: Callable[[Result, Output], None],
    *,
    items: list | None = None,
    machine: bool = False,
    collect: list[dict[str, Any]] | None = None,
) -> int:
    """Run ``task`` over the selection (or ``items``, one per source) and print each result
    as it arrives, in order: ``--jsonl`` one JSON line each; ``collect`` gathers the JSON
    objects instead (validate --json); otherwise ``show`` prints it. A batch ends with the
    summary, on stdout in text mode and on stderr when stdout carries JSON (``machine``).
    Returns the exit status: 2 if any file failed, else 1 if any had errors, else 0."""
    work = selection.sources if items is None else items
    summary = Summary(
        skipped=len(selection.skipped) + len(selection.not_regular), passed_over=len(selection.passed_over)
    )
    for path, why in selection.not_regular:
        print(f"animspec: warning: {path}: {why}", file=sys.stderr)
    for path, why in selection.passed_over:
        print(f"animspec: note: {path}: not taken: {why}", file=sys.stderr)
    # A folder or glob that selected nothing, or a folder that cannot be listed, is a
    # failure, reported like a missing file.
    empty = [Result(arg, error={"message": why}, status=EXIT_UNREADABLE) for arg, why in selection.empty]
    empty += [
        Result(path, error={"message": f"{path}: {why}"}, status=EXIT_UNREADABLE) for path, why in selection.unreadable
    ]
    progress = Progress(len(work), enabled=False if args.no_progress else None)
    output = Output(progress)
    results = run_batch(work, task, args.jobs, on_done=progress.update)
    try:
        for result in chain(empty, results):
            summary.add(result)
            if args.jsonl:
                output.out(json.dumps(result.to_json(), ensure_ascii=False))
                sys.stdout.flush()
            elif collect is not None:
                collect.append(result.to_json())
            else:
                show(result, output)
    finally:
        results.close()  # now, not when the traceback goes: a run cut short stops its workers
        progress.close()
    if selection.many:
        write = output.err if machine or args.jsonl else output.out
        for line in summary.lines():
            write(f"summary: {line}")
    return summary.status
